"""Charlemagne scoring: the contract made or failed, the points by contract, the game's end (C5).

Only one partnership scores in a deal, and both partners get the same score. The contracts that
win the game outright are written as the points that bring the side to the target: 32 for a made
Gros Charlemagne (the source's "32 points"), the target (21, or 32 under maine_target) for a Maine
Charlemagne, made by the bidding side or defeated to the opponents' benefit.
"""

from __future__ import annotations

from recordkit.rules.charlemagne.bids import Bid
from recordkit.rules.charlemagne.cards import PLAYERS
from recordkit.rules.charlemagne.state import CharlemagneState
from recordkit.rules.values import Table

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
    """charlemagne.score.made: the deal's contract made by the tricks its bidding side won."""
    return contract_made(state.contract, side_tricks(state))


def contract_made(contract: Bid, tricks: int) -> bool:
    """charlemagne.score.made: enough tricks (all eight for Eight and the Charlemagnes), or none for a misère."""
    return tricks == 0 if contract.misere else tricks >= contract.need


def deal_scores(state: CharlemagneState) -> list[int]:
    """Each seat's score for a replayed deal (see `scores_of`)."""
    return scores_of(state.table, state.contract, state.bidder, side_tricks(state))


def scores_of(table: Table, contract: Bid, bidder: int | None, tricks: int) -> list[int]:
    """Each seat's score from the facts a score sheet writes (the contract, its bidder, the tricks his
    side won): the contract's value to the bidding side if made, else to the opponents; 0 each when
    nobody bid. Played deals and score-sheet deals are both scored here."""
    if bidder is None:
        return [0] * PLAYERS
    won = contract_made(contract, tricks)
    value = contract.made if won else contract.failed
    if value is None:
        value = target(table)
    side = bidder % 2 if won else 1 - bidder % 2
    return [value if seat % 2 == side else 0 for seat in range(PLAYERS)]
