"""The end of a Joffre game: the target and the tie-breaks (rules `joffre.end.*`).

`winner` is the whole rule and needs the bidder of the last deal; the ruleset uses it whenever
that deal was replayed. `game_over` answers what the totals alone decide, for when it was not:
the game is over once one side alone has the highest total at or above the target; a tie at the
top is then left open (another deal may follow).
"""

from __future__ import annotations

from collections.abc import Sequence

from recordkit.rules.joffre.options import JoffreOptions

TEAM_SEATS = (0, 1)
"""In team play seat 0 writes team 0's total (seats 0 and 2) and seat 1 team 1's (seats 1 and 3)."""


def side_totals(options: JoffreOptions, totals: Sequence[int | float]) -> list[int | float]:
    """Each side's total: every seat's in individual play, one seat of each team in team play."""
    if options.mode == "teams":
        return [totals[seat] for seat in TEAM_SEATS]
    return list(totals)


def game_over(options: JoffreOptions, totals: Sequence[int | float]) -> bool:
    """joffre.end.target: one side alone has the highest total, and it is at or above the target."""
    sides = side_totals(options, totals)
    best = max(sides)
    return best >= options.target and sides.count(best) == 1


def winner(options: JoffreOptions, totals: Sequence[int | float], bidder_side: int | None) -> int | None:
    """joffre.end.tiebreak: the winning side after a deal, or None while the game goes on."""
    sides = side_totals(options, totals)
    reached = [side for side, total in enumerate(sides) if total >= options.target]
    if not reached:
        return None
    if options.end_tiebreak == "bidder_first" and bidder_side in reached:
        return bidder_side
    best = max(sides[side] for side in reached)
    top = [side for side in reached if sides[side] == best]
    if len(top) == 1:
        return top[0]
    if options.end_tiebreak == "highest_total_then_bidder" and bidder_side in top:
        return bidder_side
    return None
