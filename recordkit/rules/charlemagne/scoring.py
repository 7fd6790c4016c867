"""Charlemagne scoring: the contract made or failed, the points by contract, the game's end (C5).

Only one partnership scores in a deal, and both partners get the same score. The contracts that
win the game outright are written as the points that bring the side to the target: 32 for a made
Gros Charlemagne (the source's "32 points"), the target (21, or 32 under maine_target) for a Maine
Charlemagne, made by the bidding side or defeated to the opponents' benefit.
"""

from __future__ import annotations

from recordkit.rules.base import Table
from recordkit.rules.charlemagne.cards import PLAYERS
from recordkit.rules.charlemagne.state import CharlemagneState

STANDARD_TARGET = 32


def target(table: Table) -> int:
    """The score that wins the game: 32, or the Maine target (charlemagne.score.game)."""
    if table.options.variant == "maine":
        return int(table.options.maine_target)
    return STANDARD_TARGET


def side_tricks(state: CharlemagneState) -> int:
    """Tricks the bidding side won, those conceded to it by a claim included."""
    won = sum(1 for trick in state.tricks if trick.winner is not None and state.bidding_side(trick.winner))
    return won + state.claimed[0]


def made(state: CharlemagneState) -> bool:
    """charlemagne.score.made: enough tricks (all eight for Eight and the Charlemagnes), or none for a misère."""
    tricks = side_tricks(state)
    contract = state.contract
    return tricks == 0 if contract.misere else tricks >= contract.need


def deal_scores(state: CharlemagneState) -> list[int]:
    """Each seat's score: the contract's value to the bidding side if made, else to the opponents."""
    if state.bidder is None:
        return [0] * PLAYERS
    contract = state.contract
    won = made(state)
    value = contract.made if won else contract.failed
    if value is None:
        value = target(state.table)
    side = state.bidder % 2 if won else 1 - state.bidder % 2
    return [value if seat % 2 == side else 0 for seat in range(PLAYERS)]
