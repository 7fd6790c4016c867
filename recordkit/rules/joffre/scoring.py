"""Joffre scoring (RULES-NOTES J5): a point a trick, Joffre +5, Kaiser -3, the Kaiser's capture of the
Joffre, the contract made or failed, no-trump doubling and the Kaiser cap (rules `joffre.score.*`).

Everything is counted per side: a seat in individual play, a team (seats 0+2, 1+3) in team play.
"""

from __future__ import annotations

from dataclasses import dataclass

from recordkit.rules.base import PlayedTrick
from recordkit.rules.joffre.cards import JoffreCards, trick_value
from recordkit.rules.joffre.record import bid_number, is_no_trump
from recordkit.rules.joffre.state import JoffreState

CAPTURE_PENALTY = 5
CAP_THRESHOLD = 47
"""opponent_cap = kaiser47: a side that did not bid and has this many points or more adds no gains."""


@dataclass(frozen=True, slots=True)
class DealCount:
    """A deal's count per side, as a score sheet would work it out."""

    tricks: list[int]
    points: list[int]
    """Trick points: one a trick, +5 for the Joffre's trick, -3 for the Kaiser's."""
    penalty: list[int]
    """What each side loses because its Joffre was taken by the Kaiser."""
    made: bool | None
    """Whether the contract was made (None when nobody bid)."""


def captured_by_kaiser(cards: JoffreCards, trick: PlayedTrick, reading: str) -> bool:
    """joffre.score.capture: whether the player of the Joffre loses 5 in this trick, by the option's reading."""
    if reading == "none" or cards.joffre not in trick.cards or cards.kaiser not in trick.cards:
        return False
    assert trick.winner is not None
    winning_card = trick.cards[trick.seats.index(trick.winner)]
    if reading == "kaiser_is_winning_card":
        return winning_card == cards.kaiser
    return winning_card != cards.joffre


def count(state: JoffreState) -> DealCount:
    """joffre.score.tricks/joffre/kaiser/capture: tricks, trick points and penalties of every side."""
    sides = 2 if state.teams else state.players
    tricks, points, penalty = [0] * sides, [0] * sides, [0] * sides
    reading = state.table.options.kaiser_capture
    for trick in state.tricks:
        assert trick.winner is not None
        side = state.side(trick.winner)
        tricks[side] += 1
        points[side] += trick_value(state.cards, trick.cards)
        if captured_by_kaiser(state.cards, trick, reading):
            penalty[state.side(trick.seats[trick.cards.index(state.cards.joffre)])] += CAPTURE_PENALTY
    made = None
    if state.bidder is not None:
        taken = points if state.table.options.bid_unit == "points" else tricks
        made = taken[state.side(state.bidder)] >= bid_number(state.contract)
    return DealCount(tricks, points, penalty, made)


def side_scores(state: JoffreState) -> list[int]:
    """joffre.score.contract/no-trump/cap: each side's score for the deal."""
    result = count(state)
    scores = [p - pen for p, pen in zip(result.points, result.penalty, strict=True)]
    if state.bidder is None:
        return [0] * len(scores)
    bidding = state.side(state.bidder)
    if not result.made:
        scores[bidding] = -bid_number(state.contract) - result.penalty[bidding]
    if is_no_trump(state.contract):
        scores[bidding] *= 2
    if state.table.options.opponent_cap == "kaiser47" and state.before is not None:
        for side, before in enumerate(state.before[: len(scores)]):
            if side != bidding and before >= CAP_THRESHOLD:
                scores[side] = min(scores[side], 0)
    return scores


def deal_scores(state: JoffreState) -> list[int | float]:
    """joffre.score.teams: each seat's score, partners writing their team's score."""
    by_side = side_scores(state)
    return [by_side[state.side(seat)] for seat in range(state.players)]
