"""Joffre scoring (RULES-NOTES J5): a point a trick, Joffre +5, Kaiser -3, the Kaiser's capture of the
Joffre, the contract made or failed, no-trump doubling and the Kaiser cap (rules `joffre.score.*`).

Everything is counted per side: a seat in individual play, a team (seats 0+2, 1+3) in team play.
A deal's score is a function of its facts (`DealFacts`, what a score sheet writes); a played deal
reads them from its tricks (`facts_of`), a score-sheet deal from its sheet (`sheet.sheet_facts`),
and both are scored by `seat_scores`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from recordkit.rules.joffre.cards import JOFFRE_BONUS, KAISER_MALUS, JoffreCards
from recordkit.rules.joffre.options import JoffreOptions
from recordkit.rules.joffre.record import PASS, bid_number, is_no_trump
from recordkit.rules.joffre.state import JoffreState, side_of
from recordkit.rules.values import PlayedTrick

CAPTURE_PENALTY = 5
CAP_THRESHOLD = 47
"""opponent_cap = kaiser47: a side that did not bid and has this many points or more adds no gains."""


@dataclass(frozen=True, slots=True)
class DealFacts:
    """What a deal's score depends on, as a score sheet writes it down."""

    contract: int
    """The contract as a compiled call (`PASS` when nobody bid)."""
    bidder: int | None
    tricks: list[int]
    """Each side's tricks."""
    joffre: int | None
    """The seat that won the trick holding the Joffre."""
    kaiser: int | None
    """The seat that won the trick holding the Kaiser."""
    taken: int | None
    """The seat whose Joffre the Kaiser took (who loses 5), if it happened."""


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


def facts_of(state: JoffreState) -> DealFacts:
    """The facts of a replayed deal, read from its auction and its tricks."""
    cards = state.cards
    tricks = [0] * (2 if state.teams else state.players)
    joffre = kaiser = taken = None
    for trick in state.tricks:
        assert trick.winner is not None
        tricks[state.side(trick.winner)] += 1
        if cards.joffre in trick.cards:
            joffre = trick.winner
        if cards.kaiser in trick.cards:
            kaiser = trick.winner
        if captured_by_kaiser(cards, trick, state.table.options.kaiser_capture):
            taken = trick.seats[trick.cards.index(cards.joffre)]
    contract = PASS if state.bidder is None else state.contract
    return DealFacts(contract, state.bidder, tricks, joffre, kaiser, taken)


def tally(options: JoffreOptions, facts: DealFacts) -> DealCount:
    """joffre.score.tricks/joffre/kaiser/capture/contract: each side's tricks, trick points and
    penalty, and whether the contract was made."""
    teams = options.mode == "teams"
    points = list(facts.tricks)
    penalty = [0] * len(points)
    if facts.joffre is not None:
        points[side_of(teams, facts.joffre)] += JOFFRE_BONUS
    if facts.kaiser is not None:
        points[side_of(teams, facts.kaiser)] -= KAISER_MALUS
    if facts.taken is not None:
        penalty[side_of(teams, facts.taken)] += CAPTURE_PENALTY
    made = None
    if facts.bidder is not None:
        taken = points if options.bid_unit == "points" else facts.tricks
        made = taken[side_of(teams, facts.bidder)] >= bid_number(facts.contract)
    return DealCount(list(facts.tricks), points, penalty, made)


def side_scores(options: JoffreOptions, facts: DealFacts, before: Sequence[int | float] | None) -> list[int]:
    """joffre.score.contract/no-trump/cap: each side's score for the deal (`before`: each seat's
    total before it, for the cap; None when not known)."""
    result = tally(options, facts)
    scores = [p - pen for p, pen in zip(result.points, result.penalty, strict=True)]
    if facts.bidder is None:
        return [0] * len(scores)
    bidding = side_of(options.mode == "teams", facts.bidder)
    if not result.made:
        scores[bidding] = -bid_number(facts.contract) - result.penalty[bidding]
    if is_no_trump(facts.contract):
        scores[bidding] *= 2
    if options.opponent_cap == "kaiser47" and before is not None:
        for side, total in enumerate(before[: len(scores)]):
            if side != bidding and total >= CAP_THRESHOLD:
                scores[side] = min(scores[side], 0)
    return scores


def seat_scores(
    options: JoffreOptions, players: int, facts: DealFacts, before: Sequence[int | float] | None
) -> list[int | float]:
    """joffre.score.teams: each seat's score, partners writing their team's score."""
    by_side = side_scores(options, facts, before)
    return [by_side[side_of(options.mode == "teams", seat)] for seat in range(players)]


def count(state: JoffreState) -> DealCount:
    """The count of a replayed deal."""
    return tally(state.table.options, facts_of(state))


def deal_scores(state: JoffreState) -> list[int | float]:
    """Each seat's score for a replayed deal."""
    return seat_scores(state.table.options, state.players, facts_of(state), state.before)


def working(state: JoffreState) -> list[tuple[str, int | float | str]]:
    """How a played deal's score is reached (joffre.score.*), for the replay views: each side's
    tricks, trick points (the Joffre's and Kaiser's counted) and loss for a Joffre the Kaiser took,
    then the contract's outcome; [] when nobody bid."""
    facts = facts_of(state)
    if facts.bidder is None:
        return []
    options = state.table.options
    teams = options.mode == "teams"
    result = tally(options, facts)
    steps: list[tuple[str, int | float | str]] = []
    for side in range(len(result.points)):
        seats = [seat for seat in range(state.players) if side_of(teams, seat) == side]
        who = "seats " + " and ".join(map(str, seats)) if len(seats) > 1 else f"seat {seats[0]}"
        steps.append((f"{who}: tricks", result.tricks[side]))
        steps.append((f"{who}: trick points", result.points[side]))
        if result.penalty[side]:
            steps.append((f"{who}: lose for the Joffre the Kaiser took", -result.penalty[side]))
    steps.append(("contract", f"{bid_number(facts.contract)}: {'made' if result.made else 'failed'}"))
    if is_no_trump(facts.contract):
        steps.append(("no trump: the bidding side's score doubled", "yes"))
    return steps
