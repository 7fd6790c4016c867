"""The bid ladders of both variants: each call's name, strength and the contract it makes (C3, C5).

A call is recorded by its canonical name; the replay works with its index in the variant's ladder.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from recordkit.cards import ascii_lower
from recordkit.rules.charlemagne.cards import SUIT_LETTERS, SUIT_NAMES, TRICKS

Exchange = Literal["none", "kitty", "kitty_and_partner", "kitty_or_partner", "partner"]
Trump = Literal["named", "bid", "none"]


@dataclass(frozen=True, slots=True)
class Bid:
    """One call of a ladder and the contract it makes if it is the highest.

    `level` orders the calls (0 = pass; equal levels do not overcall each other). `need` is the
    number of tricks the bidding side must win (8 = every trick); a misère (`misere`) must win none.
    `exchange` says what the bidder takes before play, `trump` whether the trump is named after the
    exchange (standard), with the bid (Maine) or not at all. `made` and `failed` are the points of a
    made and a failed contract; None means the game itself (Gros Charlemagne, Maine Charlemagne).
    """

    name: str
    level: int
    title: str
    need: int = 0
    misere: bool = False
    alone: bool = False
    exchange: Exchange = "none"
    trump: Trump = "none"
    suit: int | None = None
    bidder_leads: bool = True
    made: int | None = 0
    failed: int | None = 0
    wins_game: bool = False


PASS = Bid("pass", 0, "pass")

STANDARD: tuple[Bid, ...] = (
    PASS,
    *(
        Bid(
            str(n),
            n - 4,
            f"{('Five', 'Six', 'Seven', 'Eight')[n - 5]}",
            n,
            exchange="kitty",
            trump="named",
            bidder_leads=False,
            made=n,
            failed=n,
        )
        for n in (5, 6, 7, 8)
    ),
    Bid("mulot", 5, "Mulot", misere=True, alone=True, made=15, failed=7),
    Bid(
        "charlemagne",
        6,
        "Charlemagne",
        TRICKS,
        alone=True,
        exchange="kitty_and_partner",
        trump="named",
        made=16,
        failed=8,
    ),
    Bid("gros_mulot", 7, "Gros Mulot", misere=True, alone=True, made=30, failed=15),
    Bid(
        "gros_charlemagne",
        8,
        "Gros Charlemagne",
        TRICKS,
        alone=True,
        exchange="kitty_or_partner",
        trump="named",
        made=32,
        failed=16,
        wins_game=True,
    ),
)
"""The standard ladder, lowest first: Five < Six < Seven < Eight < Mulot < Charlemagne < Gros Mulot
< Gros Charlemagne. Gros Charlemagne made scores 32, the whole game (charlemagne.score.standard)."""

NUMBER_WORDS = ("One", "Two", "Three", "Four", "Five", "Six", "Seven")

MAINE: tuple[Bid, ...] = (
    PASS,
    *(
        Bid(
            f"{n}{SUIT_LETTERS[s]}",
            n,
            f"{NUMBER_WORDS[n - 1]} {SUIT_NAMES[s]}",
            n,
            trump="bid",
            suit=s,
            made=n,
            failed=n,
        )
        for n in range(1, 8)
        for s in range(4)
    ),
    Bid("le_petit", 8, "Le Petit", misere=True, alone=True, made=8, failed=8),
    Bid("high_card_no_trump", 9, "High Card No Trump", TRICKS, made=8, failed=8),
    *(
        Bid(
            f"charlemagne {SUIT_LETTERS[s]}{' alone' if alone else ''}",
            10,
            f"Charlemagne {SUIT_NAMES[s]}{' alone' if alone else ''}",
            TRICKS,
            alone=alone,
            exchange="partner" if alone else "none",
            trump="bid",
            suit=s,
            made=None,
            failed=None,
            wins_game=True,
        )
        for alone in (False, True)
        for s in range(4)
    ),
)
"""The Maine ladder, lowest first: One to Seven naming a suit (suits do not rank), Le Petit, High Card
No Trump, Charlemagne naming a suit, with or without "alone" (same level). A Maine Charlemagne decides
the game: the side that wins it scores the target (charlemagne.score.maine)."""

LADDERS: dict[str, tuple[Bid, ...]] = {"standard": STANDARD, "maine": MAINE}
INDEX: dict[str, dict[str, int]] = {
    v: {b.name: i for i, b in enumerate(ladder)} for v, ladder in LADDERS.items()
}
FORCED_LEVEL = {"standard": 1, "maine": 5}
"""The lowest level a forced dealer may bid: Five in both ladders."""

DEFENCE_CALLS = ("pass", "alone")


def _call_aliases() -> dict[str, str]:
    """Every accepted spelling (lower case, single spaces) of every call of both ladders."""
    aliases = {
        "p": "pass",
        "passe": "pass",
        "no bid": "pass",
        "alone": "alone",
        "seul": "alone",
        "go alone": "alone",
        "going alone": "alone",
    }
    words = {"5": "five", "6": "six", "7": "seven", "8": "eight"}
    for number, word in words.items():
        aliases[word] = number
    aliases |= {
        "petit charles": "charlemagne",
        "mulot": "mulot",
        "gros mulot": "gros_mulot",
        "gros charlemagne": "gros_charlemagne",
        "grand charlemagne": "gros_charlemagne",
    }
    aliases |= {
        "le petit": "le_petit",
        "petit": "le_petit",
        "high card no trump": "high_card_no_trump",
        "high card notrump": "high_card_no_trump",
        "hcnt": "high_card_no_trump",
        "no trump": "high_card_no_trump",
        "notrump": "high_card_no_trump",
    }
    for s, letter in enumerate(SUIT_LETTERS):
        spellings = (letter.lower(), SUIT_NAMES[s], SUIT_NAMES[s].rstrip("s"))
        for n in range(1, 8):
            for suit in spellings:
                for number in (str(n), NUMBER_WORDS[n - 1].lower()):
                    aliases[f"{number}{suit}"] = f"{n}{letter}"
                    aliases[f"{number} {suit}"] = f"{n}{letter}"
        for suit in spellings:
            for name in ("charlemagne", "petit charles"):
                aliases[f"{name} {suit}"] = f"charlemagne {letter}"
                aliases[f"{name} {suit} alone"] = f"charlemagne {letter} alone"
                aliases[f"{name} alone {suit}"] = f"charlemagne {letter} alone"
    for ladder in LADDERS.values():
        for bid in ladder:
            aliases[normal_call(bid.name)] = bid.name
    return aliases


def normal_call(text: str) -> str:
    """A call's text in lower case with `_` and `-` read as spaces and single spaces between words."""
    return " ".join(ascii_lower(text).replace("_", " ").replace("-", " ").split())


CALL_ALIASES = _call_aliases()
"""Spellings of calls (in `normal_call` form) and the canonical name each stands for."""
