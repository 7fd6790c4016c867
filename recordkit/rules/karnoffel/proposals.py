"""The three proposal windows: raises of the round value, their answers, the going-out cap.

Rules `karnoffel.propose.*` of spec/rules/karnoffel.md. In each window the forehand's side speaks
first; a raise is answered by the other side with accept, surrender or a counter-raise.
"""

from __future__ import annotations

from recordkit.diagnostics import Violation
from recordkit.rules.karnoffel.cards import side_of
from recordkit.rules.karnoffel.state import WINDOWS, KarnoffelState, Phase, Said
from recordkit.rules.values import Action
from recordkit.rules.violations import at

WHEN = {1: "after the first two face-up cards", 2: "after round 2", 3: "after round 3"}


def take_call(state: KarnoffelState, action: Action) -> list[Violation]:
    """One word of a proposal window, checked for its turn, its speaker and its limits, then carried out."""
    said: Said = action.value
    if state.phase != Phase.WINDOWS or said.window < state.window:
        return [_closed(said, action)]
    problems = skip_to(state, said.window) if said.window > state.window else []
    side = state.side_to_speak()
    seat, wrong = _speaker(state, said.written, side, action)
    action.seat = seat
    problems += wrong
    if said.name == "raise":
        return problems + _raise(state, seat, action)
    if said.name == "pass":
        return problems + _pass(state, seat, action)
    return problems + _answer(state, seat, said.name, action)


def skip_to(state: KarnoffelState, window: int) -> list[Violation]:
    """Close every window before `window` (4: all of them), reporting a raise left unanswered."""
    problems: list[Violation] = []
    while state.phase == Phase.WINDOWS and state.window < window:
        if state.pending:
            assert state.raiser is not None
            problems.append(
                Violation(
                    "KARNOFFEL-NO-ANSWER",
                    "karnoffel.propose.answer",
                    f"seat {state.raiser} raised to {state.pending_value()} in window {state.window}, and the "
                    f"record has no answer: the other side accepts, surrenders or raises again",
                    seat=state.raiser,
                    path=f"proposals[{state.window - 1}]",
                    expected="accept, surrender or raise",
                )
            )
            state.scorable = False
        close_window(state)
    return problems


def close_window(state: KarnoffelState) -> None:
    """The window is over: the next one opens (after the next round of cards), or the play begins."""
    state.window += 1
    state.passes = 0
    state.pending = False
    state.window_raises = 0
    if state.window > WINDOWS:
        state.phase = Phase.PLAY


def _speaker(
    state: KarnoffelState, written: int | None, side: int, action: Action
) -> tuple[int, list[Violation]]:
    """karnoffel.propose.speaker: the seat a record names must speak for the side whose turn it is, and
    in window 1 (more than two players) only the two players holding a face-up card speak."""
    default = state.speaker(side)
    if written is None:
        return default, []
    if written >= state.players:
        return default, [
            Violation(
                "RECORD-SEAT",
                "karnoffel.players",
                f"seat {written} is not at a table of {state.players}",
                path=action.path,
            )
        ]
    if side_of(written) != side:
        message = f"seat {written} speaks, but it is the turn of {state.side_name(side)}: " + (
            "the forehand's side speaks first in each window"
            if not state.pending and state.passes == 0
            else "a raise is answered by the other side"
            if state.pending
            else "after the forehand's side passes, the other side may raise"
        )
    elif state.window == 1 and state.players > 2 and written != default:
        message = (
            f"seat {written} speaks in window 1, when only the forehand (seat {state.forehand}) and the next "
            f"player (seat {state.seat_after(state.forehand)}) hold a card; they speak for their sides"
        )
    else:
        return written, []
    seats = state.seats(side) if state.window > 1 or state.players == 2 else [default]
    return default, [
        Violation(
            "KARNOFFEL-SPEAKER",
            "karnoffel.propose.speaker",
            message,
            seat=written,
            path=action.path,
            expected="seat " + " or ".join(map(str, seats)),
        )
    ]


def _pass(state: KarnoffelState, seat: int, action: Action) -> list[Violation]:
    """karnoffel.propose.order: a side that does not raise passes; two passes close the window."""
    if state.pending:
        return [_answer_expected(state, seat, action)]
    state.passes += 1
    if state.passes == 2:
        close_window(state)
    return []


def _raise(state: KarnoffelState, seat: int, action: Action) -> list[Violation]:
    """karnoffel.propose.raise: propose the value plus one step; a counter-raise accepts the raise before."""
    problems = [wrong for wrong in (cap_problem(state, seat), limit_problem(state, seat)) if wrong]
    if state.pending:
        state.value = state.pending_value()
    state.pending = True
    state.raiser = seat
    state.raises += 1
    state.window_raises += 1
    return [at(wrong, seat=seat, path=action.path) for wrong in problems]


def _answer(state: KarnoffelState, seat: int, name: str, action: Action) -> list[Violation]:
    """karnoffel.propose.answer: accept makes the raise the value; surrender ends the deal at once."""
    if not state.pending:
        return [
            Violation(
                "KARNOFFEL-NOTHING-TO-ANSWER",
                "karnoffel.propose.answer",
                f"seat {seat} said {name!r} in window {state.window}, but no raise is waiting for an answer",
                seat=seat,
                path=action.path,
                expected="pass or raise",
            )
        ]
    assert state.raiser is not None
    if name == "accept":
        state.value = state.pending_value()
        close_window(state)
    else:
        state.surrendered = True
        state.decided = side_of(state.raiser)
        state.pending = False
        state.phase = Phase.DONE
    return []


def cap_problem(state: KarnoffelState, seat: int) -> Violation | None:
    """karnoffel.propose.cap: once the value in force lets a side reach the target, nobody raises
    (option raise_cap_when_game_reachable). A counter-raise first accepts the raise it answers."""
    options = state.options
    if not options.raise_cap_when_game_reachable or state.before is None:
        return None
    standing = state.pending_value() if state.pending else state.value
    side = reachable_side(options.target, state.before, standing)
    if side is not None:
        return Violation(
            "KARNOFFEL-RAISE-CAPPED",
            "karnoffel.propose.cap",
            f"seat {seat} raised, but at a value of {standing} {state.side_name(side)} (with "
            f"{state.before[side]} points) can already reach the target of {options.target}: once a side "
            f"can go out, it is announced and nobody may raise",
            expected="pass" if not state.pending else "accept or surrender",
        )
    return None


def reachable_side(target: int, before: list[int], standing: int) -> int | None:
    """karnoffel.propose.cap, stated once: the first side that the value `standing` lets reach the
    target from its score `before`, or None; the fast path asks it of the highest value a deal's
    raises could stand at (a value only grows) to know the cap cannot bite."""
    for side in (0, 1):
        if before[side] + standing >= target:
            return side
    return None


def limit_problem(state: KarnoffelState, seat: int) -> Violation | None:
    """karnoffel.propose.reraise: one counter-raise per window (reraise = single), or a cap on the
    deal's raises (reraise = max_total_raises); unlimited by default."""
    options = state.options
    if options.reraise == "single" and state.pending and state.window_raises >= 2:
        why = "one counter-raise per window (option reraise = single); the answer is accept or surrender"
    elif options.reraise == "max_total_raises" and state.raises >= options.max_total_raises:
        why = f"at most {options.max_total_raises} raises in a deal (option reraise = max_total_raises)"
    else:
        return None
    return Violation(
        "KARNOFFEL-RAISE-LIMIT",
        "karnoffel.propose.reraise",
        f"seat {seat} raised once too often: {why}",
        expected="accept or surrender" if state.pending else "pass",
    )


def legal_calls(state: KarnoffelState) -> list[Action]:
    """The words open now to the side whose turn it is, said by its usual speaker."""
    seat = state.speaker(state.side_to_speak())
    names = ["accept", "surrender"] if state.pending else ["pass"]
    if cap_problem(state, seat) is None and limit_problem(state, seat) is None:
        names.append("raise")
    return [Action("call", Said(state.window, name, None), seat) for name in names]


def _answer_expected(state: KarnoffelState, seat: int, action: Action) -> Violation:
    """KARNOFFEL-ANSWER-EXPECTED: a pass is no answer to a raise."""
    assert state.raiser is not None
    return Violation(
        "KARNOFFEL-ANSWER-EXPECTED",
        "karnoffel.propose.answer",
        f"seat {seat} passed, but seat {state.raiser}'s raise to {state.pending_value()} is waiting for an "
        f"answer: accept, surrender or raise again",
        seat=seat,
        path=action.path,
        expected="accept, surrender or raise",
    )


def _closed(said: Said, action: Action) -> Violation:
    """KARNOFFEL-WINDOW-CLOSED, naming the next chance to raise."""
    return Violation(
        "KARNOFFEL-WINDOW-CLOSED",
        "karnoffel.propose.window",
        f"{said.name!r} in window {said.window}, which is already over: a window closes when a raise is "
        f"accepted or both sides pass, and the next chance to raise comes "
        + (
            f"in window {said.window + 1}, {WHEN[said.window + 1]}"
            if said.window < WINDOWS
            else "in the next deal"
        ),
        path=action.path,
    )
