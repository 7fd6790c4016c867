"""Charlemagne, Maine game: after a Charlemagne alone, one opponent may go alone too (C3, C-A12).

Rules `charlemagne.defence.*` of spec/rules/charlemagne.md. The answers are recorded in turn:
the opponent on the bidder's left first, then the other (option maine_lone_defender_priority).
"""

from __future__ import annotations

from recordkit.diagnostics import Violation
from recordkit.rules.charlemagne.state import CharlemagneState
from recordkit.rules.charlemagne.steps import enter_next
from recordkit.rules.values import Action


def defenders(state: CharlemagneState) -> tuple[int, int]:
    """The two opponents of the bidder: on his left, then on his right."""
    assert state.bidder is not None
    return state.seat_after(state.bidder), state.seat_after(state.bidder, 3)


def either(state: CharlemagneState) -> bool:
    """True when either defender may answer first (option maine_lone_defender_priority = either)."""
    return bool(state.table.options.maine_lone_defender_priority == "either")


def next_to_answer(state: CharlemagneState) -> int:
    """The first defender, in the order left then right, who has not answered yet."""
    answered = {seat for seat, _ in state.answers}
    return next(seat for seat in defenders(state) if seat not in answered)


def take_answer(state: CharlemagneState, action: Action) -> list[Violation]:
    """charlemagne.defence.alone: a defender answers 'alone' or 'pass'; the first 'alone' plays alone."""
    expected = next_to_answer(state)
    seat = action.seat if action.seat is not None else expected
    problems: list[Violation] = []
    if seat not in defenders(state):
        problems.append(
            Violation(
                "CHARLEMAGNE-DEFENCE-ORDER",
                "charlemagne.defence.alone",
                f"seat {seat} answered the Charlemagne alone, but only the bidder's opponents "
                f"(seats {' and '.join(map(str, defenders(state)))}) answer",
                seat=seat,
                path=action.path,
                expected=f"seat {expected}",
            )
        )
        seat = expected
    elif seat != expected and (not either(state) or seat in {s for s, _ in state.answers}):
        already = seat in {s for s, _ in state.answers}
        problems.append(
            Violation(
                "CHARLEMAGNE-DEFENCE-ORDER",
                "charlemagne.defence.alone",
                f"seat {seat} has already answered"
                if already
                else f"seat {seat} answered before seat {expected}, the opponent on the bidder's left, "
                f"who has the first option to go alone",
                seat=seat,
                path=action.path,
                expected=f"seat {expected}",
            )
        )
        if already:
            return problems
    action.seat = seat
    state.answers.append((seat, action.value))
    if action.value == "alone":
        state.defender = seat
        enter_next(state)
    elif len(state.answers) == len(defenders(state)):
        enter_next(state)
    return problems


def defence_not_allowed(state: CharlemagneState, action: Action) -> Violation:
    """charlemagne.defence.alone: answers only follow a Maine Charlemagne alone, and one defender at most."""
    if state.defender is not None:
        message = f"seat {state.defender} already goes alone; only one defender may"
        code = "CHARLEMAGNE-DEFENCE-EXTRA"
    elif state.bidder is not None and state.maine and state.contract.exchange == "partner":
        message = "both opponents have already answered"
        code = "CHARLEMAGNE-DEFENCE-EXTRA"
    else:
        contract = state.contract.title if state.bidder is not None else "no contract"
        message = (
            f"the record has an answer to a Charlemagne alone, but the contract is {contract}: only a Maine "
            f"Charlemagne alone lets a defender go alone"
        )
        code = "CHARLEMAGNE-DEFENCE-NOT-ALLOWED"
    return Violation(code, "charlemagne.defence.alone", message, seat=action.seat, path=action.path)
