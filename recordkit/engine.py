"""The game-agnostic replay engine: one deal through its ruleset, collecting every violation."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from recordkit.derive import derive, held_to, sheet_note
from recordkit.diagnostics import Severity, Violation
from recordkit.rules.base import NOT_CHECKED, Ruleset, run
from recordkit.rules.values import Action, Completion, DealLike, Table


@dataclass(slots=True)
class DealReplay:
    """What replaying one deal found: the final state (None if it could not be replayed),
    every violation, and the scores the rules give (None if the deal did not reach its end)."""

    state: Any | None
    violations: list[Violation] = field(default_factory=list)
    scores: list[int | float] | None = None
    actions: list[Action] = field(default_factory=list)
    """The deal's actions as replayed, each non-play action with the seat that made it."""
    completion: Completion | None = None
    """For a deal whose record leaves dealt cards out: the deal as replayed, with them derived."""
    sheet: bool = False
    """True for a score-sheet deal: scored from its written facts, with nothing to replay."""

    @property
    def replayed(self) -> bool:
        """False when the deal could not be replayed at all (an unknown card, a malformed trick)."""
        return self.state is not None


def steps(
    ruleset: Ruleset[Any, Any, Any], table: Table, deal: Any
) -> Iterator[tuple[Action | None, list[Violation], Any]]:
    """Replay a deal step by step: first (None, deal problems, state), then each action with the
    violations it caused and the state after it. Nothing is yielded if the deal cannot be compiled
    or is a score sheet's line; the dealt cards a record leaves out are derived from its play."""
    if ruleset.is_sheet(deal):
        return
    completion, problems = derive(ruleset, table, deal)
    if problems:
        return
    if completion is not None:
        deal = completion.deal
    actions, problems = ruleset.compile(table, deal)
    if any(p.severity == Severity.ERROR for p in problems):
        return
    state, found = ruleset.start(table, deal)
    yield None, problems + found, state
    for action in actions:
        yield action, ruleset.advance(state, action), state


def replay_deal(
    ruleset: Ruleset[Any, Any, Any],
    table: Table,
    deal: Any,
    before: Sequence[int | float] | None = None,
    sheets: bool = True,
) -> DealReplay:
    """Replay a whole deal: legality of every action, then its score against the score sheet.

    `before` is the running totals before the deal, when known. A deal whose record leaves dealt
    cards out is replayed with them derived from its play; a score-sheet deal is scored from the
    facts it gives, unless `sheets` is false (a deal still being recorded live is never one)."""
    if sheets and ruleset.is_sheet(deal):
        return replay_sheet(ruleset, table, deal, before)
    completion, problems = derive(ruleset, table, deal)
    if problems:
        return DealReplay(None, problems)
    return replay_completed(ruleset, table, deal, completion, before)


def replay_completed(
    ruleset: Ruleset[Any, Any, Any],
    table: Table,
    deal: Any,
    completion: Completion | None,
    before: Sequence[int | float] | None = None,
) -> DealReplay:
    """Replay a deal that is no score sheet's line, with the groups its record leaves out as
    `derive` gave them (`completion`: None for a deal written whole), so that a caller that has
    derived them already (the fast path falling back) does not derive them again."""
    return _held(
        ruleset, _replay(ruleset, table, deal if completion is None else completion.deal, before), completion
    )


def _replay(
    ruleset: Ruleset[Any, Any, Any], table: Table, deal: Any, before: Sequence[int | float] | None
) -> DealReplay:
    """Replay a deal written whole (or completed): every finding, as found."""
    actions, problems = ruleset.compile(table, deal)
    if any(p.severity == Severity.ERROR for p in problems):
        return DealReplay(None, problems)
    state, found = ruleset.start(table, deal, before)
    problems += found
    problems += run(ruleset, state, actions)
    problems += ruleset.finish(state)
    scores = ruleset.score(state)
    if scores is not None:
        problems += check_scores(ruleset, deal, scores)
        problems += ruleset.result_checks(state, deal)
    return DealReplay(state, problems, scores, actions)


def _held(ruleset: Ruleset[Any, Any, Any], replay: DealReplay, completion: Completion | None) -> DealReplay:
    """The replay of a completed deal as its partial deal reports it (`derive.held_to`), with
    the completion; a deal that could not be replayed, or was written whole, as it is."""
    if completion is None or not replay.replayed:
        return replay
    problems = held_to(ruleset, completion, replay.violations)
    return DealReplay(replay.state, problems, replay.scores, replay.actions, completion)


def replay_sheet(
    ruleset: Ruleset[Any, Any, Any], table: Table, deal: Any, before: Sequence[int | float] | None
) -> DealReplay:
    """A score sheet's line: its scores by the rules from the facts written, checked against
    the scores written."""
    scores, problems = ruleset.sheet_scores(table, deal, before)
    if scores is not None:
        problems += check_scores(ruleset, deal, scores)
    if not any(problem.code == NOT_CHECKED for problem in problems):  # the game's own note says more
        problems.append(sheet_note(scored=scores is not None))
    return DealReplay(None, problems, scores, sheet=True)


def check_scores(
    ruleset: Ruleset[Any, Any, Any], deal: DealLike, scores: Sequence[int | float]
) -> list[Violation]:
    """The deal's recorded scores against the ones the rules give."""
    if deal.result is None:
        if deal.status == "annulled" or not any(scores):
            return []  # a thrown-in deal has no line on the score sheet
        return [
            Violation(
                "SCORE-MISSING",
                ruleset.score_rule,
                "the deal has no result; write each seat's score so that it can be checked",
                severity=Severity.WARNING,
                path="result",
                expected=format_scores(scores),
            )
        ]
    recorded = list(deal.result.scores)
    if recorded == list(scores):
        return []
    if len(recorded) != len(scores):
        detail = f"the result has {len(recorded)} scores for {len(scores)} players"
    else:
        wrong = [
            f"seat {seat} {recorded[seat]:+g} (rules: {scores[seat]:+g})"
            for seat in range(len(scores))
            if recorded[seat] != scores[seat]
        ]
        detail = "the score sheet has " + ", ".join(wrong)
    return [
        Violation(
            "SCORE-MISMATCH",
            ruleset.score_rule,
            f"{detail}",
            path="result.scores",
            expected=format_scores(scores),
        )
    ]


def format_scores(scores: Sequence[int | float]) -> str:
    """Scores as a score sheet shows them: `+75 -25 -25 -25`."""
    return " ".join(f"{s:+g}" for s in scores)
