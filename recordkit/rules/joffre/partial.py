"""Joffre deals that leave hands out: what the play says of them (spec/rules/joffre.md, "Partial
records", `joffre.partial.*`).

Joffre has no kitty and no exchange, and every card dealt is played in a played-out deal: a seat's
hand is exactly the cards it played. A deal that stops early (abandoned, or cut short) gives each
unknown hand only the cards played so far, so the size of those hands and the cards dealt to
nobody cannot be checked; the hands that are written still are.
"""

from __future__ import annotations

from recordkit.rules.base import complete_hands
from recordkit.rules.joffre.record import JoffreDeal
from recordkit.rules.values import Completion, Table

CHECK_NAMES = {
    "DEAL-HAND-SIZE": "the size of the hand",
    "DEAL-MISSING-CARD": "that every card was dealt",
}
"""Plain words for the checks a deal that is not played out leaves without their facts."""

NOT_PLAYED_OUT = "the deal is not played out, so the unknown hands are known only from the cards played"


def complete(table: Table, deal: JoffreDeal, played: list[list[int]]) -> Completion:
    """joffre.partial.tricks-only / joffre.partial.not-played-out: each unknown hand is the cards
    its seat played; unless every card was played, the sizes of those hands and the cards dealt
    to nobody are left unchecked (a written hand's size still is)."""
    written = deal.hands or []
    unknown = [seat for seat in range(table.players) if seat >= len(written) or written[seat] is None]
    completion = complete_hands(table, deal, played, whole=True)
    if sum(map(len, played)) < len(table.deck):
        completion.unchecked = {("DEAL-HAND-SIZE", seat): NOT_PLAYED_OUT for seat in unknown}
        completion.unchecked[("DEAL-MISSING-CARD", None)] = NOT_PLAYED_OUT
    return completion
