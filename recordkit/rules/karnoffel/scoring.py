"""Karnöffel scoring: the round value to the side that won it, the target, who deals next.

Rules `karnoffel.score.*`, `karnoffel.game.end` and `karnoffel.deal.rotation`.
"""

from __future__ import annotations

from collections.abc import Sequence

from recordkit.rules.karnoffel.cards import side_of
from recordkit.rules.karnoffel.state import KarnoffelState


def deal_scores(state: KarnoffelState) -> list[int]:
    """karnoffel.score: each seat of the side with three tricks scores the round value, the others
    nothing; after a surrender the side whose raise was refused scores the value before it."""
    assert state.decided is not None
    return [state.value if side_of(seat) == state.decided else 0 for seat in range(state.players)]


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
