"""The French Tarot deal and record models of format v1 (spec/FORMAT.md, "French Tarot")."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import BeforeValidator, Field, model_validator
from pydantic_core import PydanticCustomError

from recordkit.cards import ascii_lower
from recordkit.diagnostics import describe
from recordkit.model import (
    Call,
    CardCode,
    CardText,
    Hands,
    Note,
    Points,
    RecordBase,
    Result,
    Seat,
    Status,
    Strict,
    TrickEntry,
    Whole,
    canonical_calls,
    canonical_cards,
    canonical_code,
    canonical_groups,
    canonical_tricks,
)
from recordkit.rules.french_tarot.cards import DECK
from recordkit.rules.french_tarot.options import TarotOptions

BIDS = ("pass", "petite", "garde", "garde_sans", "garde_contre")
"""Calls of the auction, lowest first; the index is the bid's strength (0 = pass)."""
COEFFICIENTS = (0, 1, 2, 4, 6)

CALL_ALIASES = {
    "passe": "pass",
    "p": "pass",
    "prise": "petite",
    "small": "petite",
    "guard": "garde",
    "g": "garde",
    "garde-sans": "garde_sans",
    "garde sans": "garde_sans",
    "garde sans le chien": "garde_sans",
    "guard_without": "garde_sans",
    "guard without": "garde_sans",
    "gs": "garde_sans",
    "garde-contre": "garde_contre",
    "garde contre": "garde_contre",
    "garde contre le chien": "garde_contre",
    "guard_against": "garde_contre",
    "guard against": "garde_contre",
    "gc": "garde_contre",
}


class Poignee(Note):
    """A poignée (handful of trumps) shown by `seat` before its first card: exactly the threshold."""

    type: Literal["poignee"]
    seat: Seat
    level: Literal["simple", "double", "triple"]
    cards: CardText


class Slam(Note):
    """The taker announces a slam (chelem): he will win every trick, and he leads the first."""

    type: Literal["slam"]
    seat: Seat


class Misere(Note):
    """A misère (variant): no trump and no Excuse, or no honour and no bout, in the dealt hand."""

    type: Literal["misere"]
    seat: Seat
    kind: Literal["trumps", "honours"]


Announcement = Annotated[Poignee | Slam | Misere, Field(discriminator="type")]


class SheetPoignee(Strict):
    """A poignée as the score sheet notes it: who showed it, and its level."""

    seat: Seat
    level: str


def _petit_au_bout(value: Any) -> Any:
    """Who took the Petit au bout: a word (attack, defence) or a seat, never true/false or 2.0."""
    if isinstance(value, str) or (type(value) is int and 0 <= value <= 7):
        return value
    raise PydanticCustomError(
        "petit_au_bout",
        "the Petit au bout is 'attack', 'defence' or the seat (0 to 7) that took it; got {got}",
        {"got": describe(value)},
    )


PetitAuBout = Annotated[int | str, BeforeValidator(_petit_au_bout)]
"""Who took the Petit au bout on the score sheet."""


class TarotResult(Result):
    """The score sheet's line: each seat's score, and the facts a club's sheet writes beside them
    (spec/rules/french-tarot.md, "Score sheets"). Every fact is optional; a deal with cards has
    each fact written checked against its replay, a score-sheet deal is scored from them."""

    contract: str | None = Field(
        None, description="The contract: petite, garde, garde_sans, garde_contre, or pass (nobody took)."
    )
    taker: Seat | None = Field(None, description="The taker's seat.")
    called: CardCode | None = Field(None, description="Five players: the card the taker called.")
    partner: Seat | None = Field(
        None, description="Five players: the called card's holder; the taker's own seat when he plays alone."
    )
    bouts: Whole | None = Field(None, description="The bouts the attack took: 0 to 3.")
    points: Points | None = Field(None, description="The card points the attack took (0 to 91).")
    poignees: list[SheetPoignee] | None = Field(None, description="The poignées shown: seat and level.")
    petit_au_bout: PetitAuBout | None = Field(
        None, description="Who took the Petit au bout: attack, defence, or the seat that won it."
    )
    slam: str | None = Field(
        None, description="made, announced_made, announced_failed, defence or announced_defence."
    )
    misere: list[Seat] | None = Field(
        None, description="The seats that declared a misère (a seat twice for both kinds)."
    )
    points_taken: list[Points] | None = Field(None, description="A goulash: the card points each seat took.")

    @model_validator(mode="after")
    def _canonical(self) -> TarotResult:
        """The contract and the called card in their canonical spelling."""
        if self.contract is not None:
            key = ascii_lower(self.contract.strip())
            self.contract = CALL_ALIASES.get(key, key)
        if self.called is not None:
            self.called = canonical_code(DECK, self.called)
        return self


class TarotDeal(Strict):
    """One deal of French Tarot: the hands and dog as dealt, then everything that happened."""

    call_words: ClassVar[str] = "pass, petite, garde, garde_sans or garde_contre"
    """What a call of the auction is, as a message says it."""

    dealer: Seat
    hands: Hands = Field(
        None, description="The hands as dealt; left out, or null for a seat, when not known."
    )
    dog: CardText | None = Field(None, description="The dog as dealt; left out when not known.")
    auction: list[Call] = Field(default_factory=list)
    call: CardCode | None = Field(None, description="Five players: the card the taker called.")
    discard: CardText | None = Field(None, description="The taker's discard (écart) after taking the dog.")
    announcements: list[Announcement] = Field(default_factory=list)
    tricks: list[TrickEntry] = Field(default_factory=list)
    status: Status = "played"
    result: TarotResult | None = None
    totals: list[Points] | None = None
    comment: str | None = None
    time: str | None = None

    @model_validator(mode="after")
    def _canonical(self) -> TarotDeal:
        """Card codes and call names in their canonical spelling."""
        self.hands = canonical_groups(DECK, self.hands)
        if self.dog is not None:
            self.dog = canonical_cards(DECK, self.dog)
        if self.call is not None:
            self.call = canonical_code(DECK, self.call)
        if self.discard is not None:
            self.discard = canonical_cards(DECK, self.discard)
        for announcement in self.announcements:
            if isinstance(announcement, Poignee):
                announcement.cards = canonical_cards(DECK, announcement.cards)
        self.tricks = canonical_tricks(DECK, self.tricks)
        canonical_calls(CALL_ALIASES, self.auction)
        return self


class TarotRecord(RecordBase):
    """A game (match) of French Tarot: 3, 4 or 5 players and a sequence of deals."""

    game: Literal["french-tarot"]
    options: TarotOptions = Field(default_factory=TarotOptions)
    deals: list[TarotDeal] = Field(default_factory=list)


ANNOUNCEMENT_KEYS = {
    "slam": frozenset({"type", "seat", "comment", "time"}),
    "poignee": frozenset({"type", "seat", "level", "cards", "comment", "time"}),
    "misere": frozenset({"type", "seat", "kind", "comment", "time"}),
}
"""The keys each kind of announcement may have."""


def written_announcement(announcement: object) -> tuple[str, int] | None:
    """An announcement as a calls row describes it (`describe`) and its seat, read from the record
    as written; None for anything but a poignée, slam or misère of plain words and a seat."""
    if type(announcement) is not dict or type(announcement.get("seat")) is not int:
        return None
    kind, seat = announcement.get("type"), announcement["seat"]
    if kind not in ("poignee", "slam", "misere"):
        return None
    keys = {"poignee": ("level", "cards"), "misere": ("kind",)}.get(kind, ())
    words = [announcement.get(key) for key in keys]
    if not all(type(word) is str for word in words):
        return None
    return " ".join([kind, *map(str, words)]), seat
