"""Whether a Charlemagne deal's archive rows are its record exactly as written (`Ruleset.as_written`).

The columnar check (`charlemagne.columnar`) reads the deals, calls, plays and scores rows and
nothing else, so it may prove a deal only when those rows hold all of it: calls and answers as
bare words, cards as canonical codes, tricks without a stated leader or winner, a result of
scores alone, one total a seat, no claim, and each knock written by the player of the card just
before it (its seat is then the one the plays give, which the calls rows do not hold). The
standard kitty, which no row holds, must be the two cards the hands leave.
"""

from __future__ import annotations

from typing import Any

from recordkit.rules.base import scores_as_written
from recordkit.rules.charlemagne.state import CharlemagneState
from recordkit.rules.values import Table

KNOCK_KEYS = frozenset({"seat", "trick", "after"})


def as_written(
    table: Table, deal: dict[str, Any], state: CharlemagneState, calls: list[tuple[str, str]]
) -> bool:
    """Whether the rows (`calls`: each call's kind and text as the calls table holds it, and
    `state.tricks`) are the deal as written, with its kitty the cards the hands leave."""
    tricks = deal.get("tricks", [])
    words = [*deal.get("auction", []), *(deal.get("defence") or [])]
    if deal.get("claim") is not None or any(type(w) is not str for w in words):
        return False
    if any(type(t) is not str for t in tricks) or not kitty_left(table, deal):
        return False
    if not scores_as_written(table, deal):
        return False
    knocks = deal.get("knocks") or []
    if not all(_knock_placed(knock, state) for knock in knocks):
        return False
    if calls != _written_calls(deal, knocks):
        return False
    codes = table.deck.codes
    return [t.split() for t in tricks] == [[codes[c] for c in trick.cards] for trick in state.tricks]


def kitty_left(table: Table, deal: dict[str, Any]) -> bool:
    """The standard kitty written, as the cards of the deck no hand holds; no kitty in Maine
    (the rows hold no kitty: these are the only cards it can be)."""
    hands, kitty = deal.get("hands"), deal.get("kitty")
    if type(hands) is not list or not all(type(hand) is str for hand in hands):
        return False
    held = {code for hand in hands for code in hand.split()}
    left = sorted(code for code in table.deck.codes if code not in held)
    if not left:
        return kitty is None
    return type(kitty) is str and sorted(kitty.split()) == left


def _knock_placed(knock: Any, state: CharlemagneState) -> bool:
    """A knock written with its place only, after a card of a trick played, by that card's player."""
    if type(knock) is not dict or knock.keys() != KNOCK_KEYS:
        return False
    trick, after, seat = knock["trick"], knock["after"], knock["seat"]
    if not all(type(n) is int for n in (trick, after, seat)) or not 1 <= trick <= len(state.tricks):
        return False
    seats = state.tricks[trick - 1].seats
    return 1 <= after <= len(seats) and bool(seat == seats[after - 1])


def _written_calls(deal: dict[str, Any], knocks: list[dict[str, Any]]) -> list[tuple[str, str]] | None:
    """The calls rows a deal written in bare words and codes gives, in the replay's order."""
    written = [("bid", word) for word in deal.get("auction", [])]
    for kind in ("partner_card", "discard", "trump", "defence", "defender_card", "defender_discard"):
        value = deal.get(kind)
        if type(value) is list:
            written += [(kind, word) for word in value]
        elif type(value) is str:
            single = kind in ("trump", "partner_card", "defender_card")
            written += [(kind, value)] if single else [(kind, code) for code in value.split()]
        elif value is not None:
            return None
    ordered = sorted(knocks, key=lambda knock: (knock["trick"], knock["after"]))
    return written + [("knock", f"knock after card {k['after']} of trick {k['trick']}") for k in ordered]
