"""The keywords of the recordkit notation: what each names in the record and how its value is written.

One table for every game: a keyword names a field of a deal or of its result (spec/NOTATION.md,
"Statements"), and its kind says how many words its value takes and what they are.
"""

from __future__ import annotations

from functools import cache
from typing import Literal

from recordkit.cards import charlemagne_deck, joffre_deck, karnoffel_deck, tarot_deck

Kind = Literal[
    "seat",
    "word",
    "scalar",
    "number",
    "whole",
    "card",
    "cards",
    "numbers",
    "seats",
    "calls",
    "windows",
    "pairs",
    "text",
]
"""How a keyword's value is written: one token (seat, word, scalar, number, whole, card, text), the
numbers that follow (numbers, seats, pairs), or the rest of the line (cards, calls, windows)."""

REST_OF_LINE = frozenset({"cards", "calls", "windows"})
"""Kinds whose value runs to the end of the line."""

Place = Literal["deal", "result"]
Keys = dict[str, tuple[Place, Kind]]
"""A game's keywords: where each one's value goes, and its kind."""

COMMON: dict[str, tuple[Place, Kind]] = {
    "dealer": ("deal", "seat"),
    "status": ("deal", "word"),
    "totals": ("deal", "numbers"),
    "comment": ("deal", "text"),
    "time": ("deal", "text"),
    "scores": ("result", "numbers"),
}

GAME_KEYS: dict[str, dict[str, tuple[Place, Kind]]] = {
    "french-tarot": {
        "dog": ("deal", "cards"),
        "auction": ("deal", "calls"),
        "call": ("deal", "card"),
        "discard": ("deal", "cards"),
        "contract": ("result", "word"),
        "taker": ("result", "seat"),
        "called": ("result", "card"),
        "partner": ("result", "seat"),
        "bouts": ("result", "whole"),
        "points": ("result", "number"),
        "poignees": ("result", "pairs"),
        "petit_au_bout": ("result", "scalar"),
        "slam": ("result", "word"),
        "misere": ("result", "seats"),
        "points_taken": ("result", "numbers"),
    },
    "joffre": {
        "auction": ("deal", "calls"),
        "trump": ("deal", "word"),
        "bid": ("result", "word"),
        "bidder": ("result", "seat"),
        "tricks": ("result", "numbers"),
        "joffre": ("result", "seat"),
        "kaiser": ("result", "seat"),
        "joffre_taken": ("result", "seat"),
    },
    "karnoffel": {
        "faceup": ("deal", "cards"),
        "chosen_suit": ("deal", "word"),
        "proposals": ("deal", "windows"),
        "value": ("result", "whole"),
        "winner": ("result", "seat"),
        "surrender": ("result", "seat"),
    },
    "charlemagne": {
        "kitty": ("deal", "cards"),
        "auction": ("deal", "calls"),
        "partner_card": ("deal", "card"),
        "discard": ("deal", "cards"),
        "trump": ("deal", "word"),
        "defence": ("deal", "calls"),
        "defender_card": ("deal", "card"),
        "defender_discard": ("deal", "cards"),
        "contract": ("result", "word"),
        "bidder": ("result", "seat"),
        "tricks": ("result", "whole"),
    },
}
"""Each game's keywords beyond the common ones (its deal's and result's fields)."""

STRUCTURE = frozenset({"deal", "hand", "trick", "result", "hands", "announce", "knock", "claim"})
"""Keywords of the notation's own structure, never a field's short form."""


def keywords(game: str) -> Keys:
    """Every short-form keyword of a game (an unknown game has the common ones)."""
    return {**COMMON, **GAME_KEYS.get(game, {})}


@cache
def canonical_codes(game: str) -> frozenset[str]:
    """The canonical card codes of every deck of a game (the reader's fast path takes them as
    they are; anything else goes the general way)."""
    decks = {
        "french-tarot": (tarot_deck(),),
        "joffre": (joffre_deck(4),),
        "karnoffel": (karnoffel_deck(52),),
        "charlemagne": (charlemagne_deck(True),),
    }.get(game, ())
    return frozenset(code for deck in decks for code in deck.codes)
