"""The Karnöffel deal and record models of format v1 (spec/rules/karnoffel.md, "The record")."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import BeforeValidator, Discriminator, Field, Tag, model_validator

from recordkit.cards import ascii_upper
from recordkit.model import (
    Call,
    CardCode,
    CardText,
    FlatForms,
    Hands,
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
from recordkit.rules.karnoffel.cards import CANONICAL
from recordkit.rules.karnoffel.options import KarnoffelOptions

CALLS = ("pass", "raise", "accept", "surrender")
"""The words of a proposal window: no raise, raise the value, take a raise, give the deal up."""

CALL_ALIASES = {
    "propose": "raise",
    "proposal": "raise",
    "counter": "raise",
    "counter-raise": "raise",
    "counter_raise": "raise",
    "reraise": "raise",
    "re-raise": "raise",
    "accepted": "accept",
    "agree": "accept",
    "refuse": "surrender",
    "refused": "surrender",
    "fold": "surrender",
    "concede": "surrender",
    "give up": "surrender",
    "no raise": "pass",
}

SUIT_ALIASES = {
    "SPADES": "S",
    "♠": "S",
    "CLUBS": "C",
    "♣": "C",
    "HEARTS": "H",
    "♥": "H",
    "DIAMONDS": "D",
    "♦": "D",
}


def _suit_letter(value: Any) -> Any:
    """A suit written as its letter, its English name or its symbol, in any case."""
    if isinstance(value, str):
        text = ascii_upper(value.strip())
        return SUIT_ALIASES.get(text, text)
    return value


Suit = Literal["S", "C", "H", "D"]
SUIT_LETTERS: tuple[Suit, ...] = ("S", "C", "H", "D")
"""The suits in deck order (recordkit.cards.KARNOFFEL_SUITS), as the record writes them."""
SuitLetter = Annotated[Suit, BeforeValidator(_suit_letter)]


def _faceup_form(value: Any) -> str:
    """Round 1 written as a card group (a string, or a list of codes), or as a list with nulls."""
    if isinstance(value, list) and not all(isinstance(code, str) for code in value):
        return "form:list"
    return "form:compact"


FaceUp = Annotated[
    Annotated[CardText, Tag("form:compact")] | Annotated[list[CardCode | None], Tag("form:list")],
    Discriminator(_faceup_form),
    FlatForms(),
]
"""Round 1 in dealing order: one string of codes, or a list in which a card not known is null."""


class KarnoffelResult(Result):
    """The score sheet's line of a deal: each seat's score, and the facts a Karnöffel sheet writes
    (spec/rules/karnoffel.md, "Partial records"); each fact is optional."""

    value: Whole | None = Field(
        None,
        description="The round value the winners scored (after a surrender: the value before the refused raise).",
    )
    winner: Seat | None = Field(
        None,
        description="A seat of the side that won the deal: it took three tricks, or its raise was refused "
        "(then the seat that raised).",
    )
    surrender: Seat | None = Field(None, description="A seat of the side that gave the deal up, if it did.")


class KarnoffelDeal(Strict):
    """One deal of Karnöffel: the staged deal as it was dealt, the proposals, the tricks."""

    call_words: ClassVar[str] = "pass, raise, accept or surrender"
    """What a call of a proposal window is, as a message says it."""

    dealer: Seat
    faceup: FaceUp | None = Field(
        None,
        description="Round 1: the face-up cards in dealing order, the forehand's (the dealer's next seat) "
        "first. Two cards only when the deal ended by a surrender in window 1. Left out, or a card null, "
        "when not known.",
    )
    chosen_suit: SuitLetter | None = Field(
        None, description="The chosen suit, if the record states it; the lowest face-up card sets it."
    )
    hands: Hands = Field(
        None,
        description="Rounds 2 and 3: each seat's face-down cards in the order received (two, then two). "
        "Empty ([]) when the deal ended in window 1; two each when it ended in window 2. Left out, or null "
        "for a seat, when not known.",
    )
    proposals: list[list[Call]] = Field(
        default_factory=list,
        max_length=3,
        description="The proposal windows in order, each the calls said in it (pass, raise, accept, "
        "surrender); the forehand's side speaks first. Windows left out were quiet.",
    )
    tricks: list[TrickEntry] = Field(default_factory=list)
    status: Status = "played"
    result: KarnoffelResult | None = None
    totals: list[Points] | None = None
    comment: str | None = None
    time: str | None = None

    @model_validator(mode="after")
    def _canonical(self) -> KarnoffelDeal:
        """Card codes and call names in their canonical spelling."""
        if isinstance(self.faceup, str):
            self.faceup = canonical_cards(CANONICAL, self.faceup)
        elif self.faceup is not None:
            self.faceup = [None if code is None else canonical_code(CANONICAL, code) for code in self.faceup]
        self.hands = canonical_groups(CANONICAL, self.hands)
        for window in self.proposals:
            canonical_calls(CALL_ALIASES, window)
        self.tricks = canonical_tricks(CANONICAL, self.tricks)
        return self


class KarnoffelRecord(RecordBase):
    """A game (match) of Karnöffel: 2, 4, 6 or 8 players and a sequence of deals."""

    game: Literal["karnoffel"]
    options: KarnoffelOptions = Field(default_factory=KarnoffelOptions)
    deals: list[KarnoffelDeal] = Field(default_factory=list)
