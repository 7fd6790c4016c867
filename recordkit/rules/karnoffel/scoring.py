"""Karnöffel scoring: the round value to the side that won it, the target, who deals next.

Rules `karnoffel.score.*`, `karnoffel.game.end` and `karnoffel.deal.rotation`.
"""

from __future__ import annotations

from collections.abc import Sequence

from recordkit.rules.karnoffel.cards import side_of
from recordkit.rules.karnoffel.state import KarnoffelState


def deal_scores(state: KarnoffelState) -> list[int]:
    """karnoffel.score for a replayed deal: the side that won it (`decided`) scores its value."""
    assert state.decided is not None
    return scores_of(state.players, state.value, state.decided)


def scores_of(players: int, value: int, side: int) -> list[int]:
    """karnoffel.score: each seat of the side that won the deal (three tricks, or its raise refused)
    scores the round value, the others nothing; after a surrender the value is the one before the
    refused raise. Played deals and score-sheet lines are both scored here."""
    return [value if side_of(seat) == side else 0 for seat in range(players)]


def reached(target: int, totals: Sequence[int | float]) -> bool:
    """karnoffel.game.end: the game is over once a side's total reaches the target."""
    return any(total >= target for total in totals)


def dealer_after(state: KarnoffelState) -> int:
    """karnoffel.deal.rotation: the forehand deals next; with dealer_after_surrender = proposer, after
    a surrender the player whose raise was refused deals instead.
    """
    if state.surrendered and state.options.dealer_after_surrender == "proposer" and state.raiser is not None:
        return state.raiser
    return state.forehand
