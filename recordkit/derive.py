"""Partial records: the dealt cards a record leaves out, derived from its play.

A magazine prints the tricks, not the hands; a scorekeeper sees the cards as they fall. Once the
play is written, the rules say who led each trick, so they say who played each card, and a seat's
hand is the cards it played (plus what the game's exchanges moved). `derive` replays the deal
with its unknown groups empty to find who played what, then asks the ruleset to write the groups
in (`Ruleset.complete`); the engine then replays the completed deal like any other, so every
check runs as if the cards had been written, and the checks the record leaves without their
facts are reported as not run (`not_checked`), never as violations.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import Any

from recordkit.diagnostics import Severity, Violation
from recordkit.rules.base import NOT_CHECKED, PARTIAL_RULE, Ruleset, run
from recordkit.rules.values import Completion, Table

DUPLICATE = "DEAL-DUPLICATE-CARD"


def derive(
    ruleset: Ruleset[Any, Any, Any], table: Table, deal: Any
) -> tuple[Completion | None, list[Violation]]:
    """The deal with what it leaves out derived from its play, or None when it leaves nothing
    out; with the errors that keep the deal from being replayed at all (an unknown card, a trick
    of the wrong size), which the caller reports instead."""
    if not ruleset.unknown(table, deal):
        return None, []
    blank = ruleset.blank(table, deal)
    actions, problems = ruleset.compile(table, blank)
    if any(p.severity == Severity.ERROR for p in problems):
        return None, problems
    state, _ = ruleset.start(table, blank)
    run(ruleset, state, actions, just_in_time=True)
    played: list[list[int]] = [[] for _ in range(table.players)]
    tricks_of: dict[int, list[int]] = {}
    current = getattr(state, "current", None)
    for number, trick in enumerate([*state.tricks, *([current] if current is not None else [])], start=1):
        for card, seat in zip(trick.cards, trick.seats, strict=True):
            played[seat].append(card)
            tricks_of.setdefault(card, []).append(number)
    completion = ruleset.complete(table, deal, played, state)
    completion.played_twice = {
        table.deck.codes[card]: numbers for card, numbers in tricks_of.items() if len(numbers) > 1
    }
    return completion, []


def held_to(
    ruleset: Ruleset[Any, Any, Any], completion: Completion, problems: list[Violation]
) -> list[Violation]:
    """The replay's findings on a completed deal: the checks it could not run dropped (their
    facts were guessed to replay the rest), those about derived groups saying so, and a note
    of what was not checked."""
    kept: list[Violation] = []
    unchecked = completion.unchecked
    for problem in problems:
        if (problem.code, None) in unchecked or (problem.code, problem.seat) in unchecked:
            continue
        if problem.path and problem.path.split(".")[0] in completion.derived:
            problem = replace(problem, message=problem.message + " (derived from the cards played)")
        elif problem.code == DUPLICATE and (twice := _played_twice(completion, problem.message)):
            problem = replace(problem, message=f"{problem.message}: it is played in tricks {twice}")
        kept.append(problem)
    if unchecked:
        kept.append(not_checked(ruleset, completion))
    return kept


def _played_twice(completion: Completion, message: str) -> str:
    """The tricks where the card a DEAL-DUPLICATE-CARD message names ("T4 is dealt twice…") was
    played more than once, when the hands were derived from them ("" otherwise)."""
    numbers = completion.played_twice.get(message.split(" ", 1)[0], [])
    return " and ".join(map(str, numbers)) if completion.derived else ""


def not_checked(ruleset: Ruleset[Any, Any, Any], completion: Completion) -> Violation:
    """DEAL-NOT-CHECKED: the checks a partial deal leaves without their facts, in words and by
    the fact that is missing; a note, which never fails validation. Deals of an archive leave
    the same few sets unchecked, so each note is written once (`_note`)."""
    return _note(ruleset, tuple(completion.derived), tuple(completion.unchecked.items()))


@lru_cache(maxsize=4096)
def _note(
    ruleset: Ruleset[Any, Any, Any],
    derived: tuple[str, ...],
    unchecked: tuple[tuple[tuple[str, int | None], str], ...],
) -> Violation:
    """The note of `not_checked`, from the derived paths and the unchecked facts in their order."""
    names = {**CHECK_NAMES, **ruleset.check_names}
    by_reason: dict[str, dict[int | None, list[str]]] = {}
    for (code, seat), why in unchecked:
        by_reason.setdefault(why, {}).setdefault(seat, []).append(names.get(code, code))
    parts = []
    for why, by_seat in by_reason.items():
        groups: dict[tuple[str, ...], list[int | None]] = {}
        for seat, checks in by_seat.items():
            groups.setdefault(tuple(checks), []).append(seat)
        said = [
            ", ".join(checks) + ("" if seats == [None] else " for seat " + ", ".join(map(str, seats)))
            for checks, seats in groups.items()
        ]
        parts.append(f"{'; '.join(said)} ({why})")
    derived_text = f"{', '.join(derived)} derived from the play; " if derived else ""
    return Violation(
        NOT_CHECKED, PARTIAL_RULE, f"{derived_text}not checked: {'; '.join(parts)}", severity=Severity.INFO
    )


CHECK_NAMES = {
    "DEAL-HAND-SIZE": "the hand sizes",
    "DEAL-MISSING-CARD": "cards dealt to nobody",
    "DEAL-DUPLICATE-CARD": "cards dealt twice",
}
"""Plain words for the checks every game shares, for the note of what was not checked."""


def sheet_note(scored: bool) -> Violation:
    """DEAL-NOT-CHECKED for a score-sheet deal: its cards were not recorded, and its
    scores are checked from the facts written when those facts give them (`scored`)."""
    scores = (
        "the scores are checked from the facts written on the sheet"
        if scored
        else "the facts written do not give the scores, so they are taken as written"
    )
    return Violation(
        NOT_CHECKED,
        PARTIAL_RULE,
        f"a score-sheet deal: {scores}; its cards were not recorded, so the rules of the play were not checked",
        severity=Severity.INFO,
    )
