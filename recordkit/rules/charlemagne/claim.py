"""Charlemagne: a claim of the remaining tricks between two tricks (option allow_early_claim, C-A10).

Rules `charlemagne.play.claim*` of spec/rules/charlemagne.md. A claim says how many of the tricks
still to play the claimer's side takes. It is accepted when the claimer's side can make sure of
that many (a misère side: of no more than that many) whatever the other side plays; the check
searches the remaining play exhaustively, within a budget of positions.
"""

from __future__ import annotations

from recordkit.cards import ids_of
from recordkit.diagnostics import Violation
from recordkit.rules.charlemagne.cards import TRICKS
from recordkit.rules.charlemagne.play import legal_mask, winning_index
from recordkit.rules.charlemagne.state import CharlemagneState, Phase
from recordkit.rules.values import Action

SEARCH_BUDGET = 40_000
"""Positions searched at most to check one claim; a claim that needs more is taken as agreed."""


class _OverBudgetError(Exception):
    """The search of a claim ran past its budget."""


def take_claim(state: CharlemagneState, action: Action) -> list[Violation]:
    """charlemagne.play.claim: check the claim's place, seat and count, then end the play with it."""
    seat, count = action.value
    remaining = TRICKS - len(state.tricks)
    problem = _claim_problem(state, seat, count, remaining)
    if problem is not None:
        state.scorable = False
        state.phase = Phase.DONE
        return [Violation(problem[0], problem[1], problem[2], seat=seat, path=action.path)]
    problems: list[Violation] = []
    if not state.table.options.allow_early_claim:
        problems.append(
            Violation(
                "CHARLEMAGNE-CLAIM-NOT-ALLOWED",
                "charlemagne.play.claim",
                f"seat {seat} claims {count} of the last {remaining} tricks, but all eight tricks are played out "
                f"(option allow_early_claim is off)",
                seat=seat,
                path=action.path,
            )
        )
    elif state.checked and _hands_held(state, remaining):
        problems += _check_guarantee(state, seat, count, remaining, action)
    ours = count if state.bidding_side(seat) else remaining - count
    state.claim = (seat, count)
    state.claimed = (ours, remaining - ours)
    state.phase = Phase.DONE
    return problems


def _claim_problem(
    state: CharlemagneState, seat: int, count: int, remaining: int
) -> tuple[str, str, str] | None:
    """Why a claim cannot stand at all: its place, its seat, or more tricks than remain."""
    if state.phase != Phase.PLAY or state.current is not None:
        where = "during a trick" if state.current is not None else "when no play is going on"
        return (
            "CHARLEMAGNE-CLAIM-INVALID",
            "charlemagne.play.claim",
            f"seat {seat} claims {where}; a claim is made between two tricks",
        )
    if seat >= len(state.hands) or not state.active(seat):
        return (
            "CHARLEMAGNE-CLAIM-INVALID",
            "charlemagne.play.claim",
            f"seat {seat} claims, but he is not in the play",
        )
    if count > remaining:
        return (
            "CHARLEMAGNE-CLAIM-INVALID",
            "charlemagne.play.claim",
            f"seat {seat} claims {count} tricks, but only {remaining} remain to be played",
        )
    return None


def _hands_held(state: CharlemagneState, remaining: int) -> bool:
    """Whether each hand in the play holds one card for each trick still to play. If not, the
    replay has lost track of a card before the claim (one played, passed or discarded that its
    seat did not hold, a hand dealt short or long: each reported already), so the hands are not
    the cards the seats hold and the claim's certainty, which needs them, is not searched. This
    also keeps the search from running on every wrong reading of a deal that `recordkit.hints`
    replays (issue 33)."""
    return all(
        state.hands[seat].bit_count() == remaining for seat in range(len(state.hands)) if state.active(seat)
    )


def _check_guarantee(
    state: CharlemagneState, seat: int, count: int, remaining: int, action: Action
) -> list[Violation]:
    """charlemagne.play.claim-sure: the claimer's side can make sure of what it claims."""
    sure = guarantee(state, seat)
    if sure is None:
        return []
    misere = state.contract.misere
    if (count <= sure) if not misere else (count >= sure):
        return []
    if misere:
        text = f"the other side can force at least {sure} of the {remaining} remaining tricks on it"
    else:
        text = f"the other side can hold it to {sure} of the {remaining} remaining tricks"
    return [
        Violation(
            "CHARLEMAGNE-CLAIM-WRONG",
            "charlemagne.play.claim-sure",
            f"seat {seat} claims {count} tricks for his side, but {text}",
            seat=seat,
            path=action.path,
            expected=f"a claim of {sure} trick(s)" if not misere else f"a claim of {sure} trick(s) or more",
        )
    ]


def guarantee(state: CharlemagneState, seat: int, budget: int = SEARCH_BUDGET) -> int | None:
    """The tricks the seat's side takes of the rest with best play on both sides, or None past the budget.

    Best play: a side that wants tricks takes as many as it can; in a misère (Mulot, Gros Mulot, Le Petit)
    every side wants the bidder to take tricks, so the bidder's side takes as few as it can and the
    other side pushes tricks onto it.
    """
    ctx = state.ctx
    side = seat % 2
    misere = state.contract.misere
    active = state.active_count()
    memo: dict[tuple[tuple[int, ...], int], int] = {}
    nodes = [0]

    def from_lead(hands: tuple[int, ...], leader: int) -> int:
        """Value of a position between tricks."""
        if not hands[leader]:
            return 0
        key = (hands, leader)
        if key not in memo:
            memo[key] = in_trick(hands, leader, (), ())
        return memo[key]

    def in_trick(hands: tuple[int, ...], player: int, cards: tuple[int, ...], seats: tuple[int, ...]) -> int:
        """Value of a position inside a trick, `player` to play."""
        nodes[0] += 1
        if nodes[0] > budget:
            raise _OverBudgetError
        maximise = (player % 2 == side) != misere
        best: int | None = None
        for card in ids_of(legal_mask(ctx, hands[player], cards)):
            after = (*hands[:player], hands[player] & ~(1 << card), *hands[player + 1 :])
            played, who = (*cards, card), (*seats, player)
            if len(played) == active:
                winner = who[winning_index(ctx, played)]
                value = (winner % 2 == side) + from_lead(after, winner)
            else:
                value = in_trick(after, state.next_active(player), played, who)
            if best is None or (value > best if maximise else value < best):
                best = value
        return 0 if best is None else best

    hands = tuple(hand if state.active(s) else 0 for s, hand in enumerate(state.hands))
    try:
        return from_lead(hands, state.to_play())
    except _OverBudgetError:
        return None
