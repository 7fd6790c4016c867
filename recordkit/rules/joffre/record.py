"""The Joffre deal and record models of format v1: hands, auction, trump, tricks, result, totals.

A bid is written as its number (`"6"`), a no-trump bid (option allow_no_trump) as `"6 no trump"`,
a pass as `"pass"`. In compiled form a call is one small int: 0 for a pass, `2*n` for a bid of
n and `2*n + 1` for n no trump, so that "higher" is plain integer order (rule joffre.bid.higher).
"""

from __future__ import annotations

import re
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BeforeValidator, Field, model_validator

from recordkit.cards import ascii_lower
from recordkit.model import (
    Call,
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
    canonical_groups,
    canonical_tricks,
)
from recordkit.rules.joffre.cards import FULL_DECK
from recordkit.rules.joffre.options import JoffreOptions

PASS = 0
MAX_NUMBER = 28
"""Bid numbers spelt canonically (anything larger is still read, and reported as out of range)."""
_NO_TRUMP_SPELLINGS = (
    "nt",
    " nt",
    " no",
    "no",
    " no trump",
    " no-trump",
    " notrump",
    " sa",
    "sa",
    " sans atout",
)

CALL_ALIASES: dict[str, str] = {
    "passe": "pass",
    "p": "pass",
    "-": "pass",
    "no bid": "pass",
    **{f"{n}{spelling}": f"{n} no trump" for n in range(MAX_NUMBER + 1) for spelling in _NO_TRUMP_SPELLINGS},
}
"""Spellings people write (lower case) and the canonical call name each stands for."""

_BID = re.compile(r"^([0-9]{1,3})( no trump)?$")


def bid_value(name: str) -> int | None:
    """The compiled value of a canonical call name: 0 pass, 2n bid n, 2n+1 n no trump; None if unknown."""
    if name == "pass":
        return PASS
    match = _BID.match(name)
    if match is None or int(match[1]) == 0:
        return None
    return 2 * int(match[1]) + (1 if match[2] else 0)


def bid_name(value: int) -> str:
    """The canonical call name of a compiled call value."""
    if value == PASS:
        return "pass"
    return f"{value // 2} no trump" if value % 2 else str(value // 2)


def bid_number(value: int) -> int:
    """The number of a bid (tricks or points), without its no-trump mark."""
    return value // 2


def is_no_trump(value: int) -> bool:
    """Whether a compiled bid is a no-trump bid."""
    return value != PASS and value % 2 == 1


_TRUMP_NAMES = {
    "e": "E",
    "england": "E",
    "f": "F",
    "france": "F",
    "r": "R",
    "russia": "R",
    "g": "G",
    "germany": "G",
    "none": "none",
    "no trump": "none",
    "nt": "none",
}


def _trump_name(value: Any) -> Any:
    """A trump written as a nation letter or name, or "none" for no trump, in canonical spelling."""
    if isinstance(value, str):
        return _TRUMP_NAMES.get(ascii_lower(value.strip()), value)
    return value


Trump = Annotated[
    Literal["E", "F", "R", "G", "none"], BeforeValidator(_trump_name, json_schema_input_type=str)
]
"""The trump nation of a deal as written on the sheet (`none` after a no-trump bid)."""


def _call_name(value: Any) -> Any:
    """A bid written on the sheet in any accepted spelling (`6`, `"6nt"`, `"passe"`), canonically."""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, str):
        key = ascii_lower(value.strip())
        return CALL_ALIASES.get(key, key)
    return value


class JoffreResult(Result):
    """A deal's line on the score sheet: the scores, and the facts a Joffre sheet writes down
    (rule joffre.sheet.facts), each optional; on a played deal every fact written is checked."""

    bid: Annotated[str, BeforeValidator(_call_name, json_schema_input_type=str | int)] | None = Field(
        None,
        description="The contract: the winning bid ('6', or '6 no trump' when no-trump bids are allowed), "
        "or 'pass' when everybody passed.",
    )
    bidder: Seat | None = Field(None, description="The seat that made the winning bid.")
    tricks: list[Whole] | None = Field(
        None,
        description="Each seat's tricks, seat 0 first; in team play each partner writes his team's tricks.",
    )
    joffre: Seat | None = Field(None, description="The seat that took the trick holding the Joffre (F0).")
    kaiser: Seat | None = Field(None, description="The seat that took the trick holding the Kaiser (G0).")
    joffre_taken: Seat | None = Field(
        None,
        description="The seat whose Joffre the Kaiser took (who loses 5); left out when it did not happen.",
    )


class JoffreDeal(Strict):
    """One deal of Joffre: the hands as dealt, the auction, the trump, the tricks and the score line."""

    call_words: ClassVar[str] = "'pass' or a bid written in quotes: '6' (or '6 no trump' where allowed)"
    """What a call of the auction is, as a message says it."""

    dealer: Seat
    hands: Hands = Field(
        None,
        description="Each seat's hand as dealt, seat 0 first: 8 cards each (10 at three players). "
        "Left out, or null for a seat, when not known: derived from the tricks.",
    )
    auction: list[Call] = Field(
        default_factory=list,
        description="The calls from the dealer's left round to the dealer: 'pass', a number, or "
        "'N no trump' when no-trump bids are allowed.",
    )
    trump: Trump | None = Field(
        None,
        description="Optional: the trump nation as noted on the sheet (the nation of the bidder's first "
        "card), checked against the tricks.",
    )
    tricks: list[TrickEntry] = Field(default_factory=list)
    status: Status = "played"
    result: JoffreResult | None = None
    totals: list[Points] | None = None
    comment: str | None = None
    time: str | None = None

    @model_validator(mode="after")
    def _canonical(self) -> JoffreDeal:
        """Card codes and call names in their canonical spelling."""
        self.hands = canonical_groups(FULL_DECK, self.hands)
        self.tricks = canonical_tricks(FULL_DECK, self.tricks)
        canonical_calls(CALL_ALIASES, self.auction)
        return self


class JoffreRecord(RecordBase):
    """A game (match) of Joffre: 3 or 4 players (4 in teams) and its deals up to the target."""

    game: Literal["joffre"]
    options: JoffreOptions = Field(default_factory=JoffreOptions)
    deals: list[JoffreDeal] = Field(default_factory=list)
