"""The Charlemagne deal and record models of format v1 (both variants; spec/rules/charlemagne.md)."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import BeforeValidator, Field, model_validator
from pydantic_core import PydanticCustomError

from recordkit.cards import ascii_lower
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
from recordkit.rules.charlemagne.bids import CALL_ALIASES, normal_call
from recordkit.rules.charlemagne.cards import DECKS, SUIT_LETTERS, SUIT_NAMES
from recordkit.rules.charlemagne.options import CharlemagneOptions

DECK = DECKS["standard"]
"""Card codes are spelt canonically with the standard deck, which holds every Maine card too."""

SUIT_ALIASES = {
    **{letter.lower(): letter for letter in SUIT_LETTERS},
    **{name: SUIT_LETTERS[i] for i, name in enumerate(SUIT_NAMES[:4])},
    **{name.rstrip("s"): SUIT_LETTERS[i] for i, name in enumerate(SUIT_NAMES[:4])},
    **{symbol: SUIT_LETTERS[i] for i, symbol in enumerate("♠♥♦♣")},
}


def _suit(value: Any) -> Any:
    """A trump suit written as a letter, an English name or a symbol, as its letter (S, H, D, C)."""
    if isinstance(value, str) and ascii_lower(value.strip()) in SUIT_ALIASES:
        return SUIT_ALIASES[ascii_lower(value.strip())]
    raise PydanticCustomError("suit", "a suit is S, H, D or C (spades, hearts, diamonds, clubs)")


Suit = Annotated[Literal["S", "H", "D", "C"], BeforeValidator(_suit, json_schema_input_type=str)]
"""A trump suit: S, H, D or C."""


class Knock(Note):
    """A knock on the table by `seat`, after `after` cards of trick `trick` (1-based) were played.

    A signal to the partner (lead the suit of the card just played); it changes no rule.
    """

    seat: Seat
    trick: Whole = Field(ge=1)
    after: Whole = Field(0, ge=0, description="cards of that trick already played when the knock came")


class Claim(Note):
    """Between two tricks, `seat` claims that his side takes `tricks` of the remaining tricks and the
    other side the rest; the table agreed and play stopped (option allow_early_claim)."""

    seat: Seat
    tricks: Whole = Field(ge=0, le=8)


class CharlemagneResult(Result):
    """The score sheet line: each seat's score and, as a club's sheet writes them, the contract, who
    bid it and the tricks the bidding side won (each optional; spec/rules/charlemagne.md §8)."""

    contract: str | None = Field(
        None,
        description="The contract: the winning call's name (`7`, `mulot`, `5H`, `charlemagne S alone`), "
        "or `pass` when everybody passed.",
    )
    bidder: Seat | None = Field(None, description="The seat that bid the contract.")
    tricks: Whole | None = Field(
        None, ge=0, description="The tricks the bidding side won (claimed tricks included), if noted."
    )

    @model_validator(mode="after")
    def _canonical_contract(self) -> CharlemagneResult:
        """The contract in its canonical spelling (unknown names are kept, and reported by the rules)."""
        if self.contract is not None:
            key = normal_call(self.contract)
            self.contract = CALL_ALIASES.get(key, self.contract)
        return self


class CharlemagneDeal(Strict):
    """One deal of Charlemagne, in the order things happen at the table."""

    call_words: ClassVar[str] = (
        "pass, a bid such as '7', 'mulot' or 'charlemagne', or an answer: alone or pass"
    )
    """What a call of the auction is, as a message says it."""

    dealer: Seat
    hands: Hands = Field(
        None, description="The hands as dealt; left out, or null for a seat, when not known."
    )
    kitty: CardText | None = Field(None, description="Standard game: the two cards dealt face down.")
    auction: list[Call] = Field(default_factory=list)
    partner_card: CardCode | None = Field(
        None,
        description="The card the lone bidder's partner passes him (Charlemagne, Gros Charlemagne, "
        "Maine Charlemagne alone).",
    )
    discard: CardText | None = Field(None, description="The bidder's discards after the kitty or card.")
    trump: Suit | None = Field(
        None, description="Standard game: the trump the bidder names after the exchange."
    )
    defence: list[Call] | None = Field(
        None, description="Maine Charlemagne alone: the opponents' answers, 'alone' or 'pass', in turn."
    )
    defender_card: CardCode | None = Field(
        None, description="Maine: the card the lone defender's partner passes him."
    )
    defender_discard: CardText | None = Field(None, description="Maine: the lone defender's discard.")
    tricks: list[TrickEntry] = Field(default_factory=list)
    knocks: list[Knock] | None = Field(None, description="Knocks on the table, with their place in the play.")
    claim: Claim | None = None
    status: Status = "played"
    result: CharlemagneResult | None = None
    totals: list[Points] | None = None
    comment: str | None = None
    time: str | None = None

    @model_validator(mode="after")
    def _canonical(self) -> CharlemagneDeal:
        """Card codes and call names in their canonical spelling; knocks in the order of play."""
        self.hands = canonical_groups(DECK, self.hands)
        if self.kitty is not None:
            self.kitty = canonical_cards(DECK, self.kitty)
        for name in ("partner_card", "defender_card"):
            code = getattr(self, name)
            if code is not None:
                setattr(self, name, canonical_code(DECK, code))
        for name in ("discard", "defender_discard"):
            text = getattr(self, name)
            if text is not None:
                setattr(self, name, canonical_cards(DECK, text))
        self.tricks = canonical_tricks(DECK, self.tricks)
        for calls in (self.auction, self.defence or []):
            for call in calls:
                call.call = normal_call(call.call)
            canonical_calls(CALL_ALIASES, calls)
        if not self.defence:
            self.defence = None
        if self.knocks:
            self.knocks.sort(key=lambda knock: (knock.trick, knock.after))
        else:
            self.knocks = None
        return self


class CharlemagneRecord(RecordBase):
    """A game (match) of Charlemagne: four players, partners opposite, and a sequence of deals."""

    game: Literal["charlemagne"]
    options: CharlemagneOptions = Field(default_factory=CharlemagneOptions)
    deals: list[CharlemagneDeal] = Field(default_factory=list)
