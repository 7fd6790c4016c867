"""Karnöffel score-sheet deals and the facts a sheet writes (spec/rules/karnoffel.md, "Partial
records", rules `karnoffel.sheet*`).

A Karnöffel score sheet writes, per deal, the round's value and which side won it (took three
tricks, or had its raise refused), sometimes the proposals and answers themselves. A score-sheet
deal has no face-up cards, no hands and no tricks: its proposals, if written, are replayed by the
rules of the windows, and its scores follow from the facts by `scoring.scores_of`, as a played
deal's do. When a played deal's result writes a fact too, it is checked against the replay.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from recordkit.diagnostics import Severity, Violation
from recordkit.rules.base import Ruleset, run
from recordkit.rules.karnoffel import proposals
from recordkit.rules.karnoffel.cards import side_of
from recordkit.rules.karnoffel.deal import (
    before_deal,
    dealer_seat,
    dealt_state,
    faceup_count,
    stage_of,
    status_problems,
)
from recordkit.rules.karnoffel.record import KarnoffelDeal, KarnoffelResult
from recordkit.rules.karnoffel.scoring import scores_of
from recordkit.rules.karnoffel.state import WINDOWS, KarnoffelState, Phase
from recordkit.rules.values import Table

FACTS = ("value", "winner", "surrender")
"""The facts of a Karnöffel score sheet besides the scores, in the order they are checked."""


@dataclass(frozen=True, slots=True)
class Facts:
    """What decides a deal's score: its value, the side that won it, and whether by a surrender
    (then `raiser` is the player whose raise was refused, who deals next with the option
    dealer_after_surrender = proposer)."""

    value: int
    side: int
    surrendered: bool
    raiser: int | None


def is_sheet(deal: KarnoffelDeal) -> bool:
    """karnoffel.sheet: a deal with no face-up cards, no hands and no tricks is a score sheet's line."""
    return deal.faceup is None and deal.hands is None and not deal.tricks


def sheet_scores(
    ruleset: Ruleset[Any, Any, Any],
    table: Table,
    deal: KarnoffelDeal,
    before: Sequence[int | float] | None = None,
) -> tuple[list[int | float] | None, list[Violation]]:
    """karnoffel.sheet, karnoffel.score: a sheet deal's scores from its facts, with every fact
    that breaks a rule; None when the deal is not scored (abandoned, a raise left unanswered) or
    the facts do not say who won."""
    state, facts, problems = sheet_facts(ruleset, table, deal, before)
    if facts is None or deal.status != "played" or not state.scorable:
        return None, problems
    return [*scores_of(table.players, facts.value, facts.side)], problems


def sheet_state(ruleset: Ruleset[Any, Any, Any], table: Table, deal: KarnoffelDeal) -> KarnoffelState | None:
    """The end of a sheet deal as a replay would leave it (value, winner, surrender and the raiser),
    for the next deal's dealer; None when the facts do not say who won."""
    state, facts, _ = sheet_facts(ruleset, table, deal, None)
    if facts is None:
        return None
    state.value, state.decided = facts.value, facts.side
    state.surrendered, state.raiser = facts.surrendered, facts.raiser
    state.phase = Phase.DONE
    return state


def sheet_facts(
    ruleset: Ruleset[Any, Any, Any], table: Table, deal: KarnoffelDeal, before: Sequence[int | float] | None
) -> tuple[KarnoffelState, Facts | None, list[Violation]]:
    """The state of the sheet deal's windows (its proposals replayed, if written), the facts that
    decide its score (None when nothing says who won), and every fact that breaks a rule."""
    n = table.players
    stage = stage_of(deal)
    dealer, problems = dealer_seat(deal, n)
    state, _ = dealt_state(
        table, dealer, [None] * faceup_count(stage, n), [[] for _ in range(n)], stage, deal.status
    )
    state.before = before_deal(deal, n, before)
    problems += status_problems(deal)
    fresh = replace(state)
    result = deal.result
    bad, problems_found = impossible(n, state, result)
    problems += problems_found
    written = written_facts(result, bad)
    value, side, surrendered, raiser = written.get("value"), None, "surrender" in written, None
    if deal.proposals:
        problems += _replay_windows(ruleset, table, deal, state)
        value, surrendered = state.value, state.surrendered
        if surrendered:
            side, raiser = state.decided, state.raiser
        problems += _against_windows(state, written)
    if side is None and "winner" in written:
        side = side_of(written["winner"])
        raiser = written["winner"] if surrendered else None
    if side is None and "surrender" in written:
        side = 1 - side_of(written["surrender"])
    if value is None and "value" in bad:
        return state, None, problems  # the value written is impossible: nothing to score with
    scores = list(result.scores) if result is not None else None
    if (side is None or value is None) and scores is not None:
        guessed, problems_found = _from_scores(state, scores)
        problems += problems_found
        if guessed is None:
            return state, None, problems
        side = guessed[0] if side is None else side
        value = guessed[1] if value is None else value
    if side is None or value is None:
        return state, None, problems
    if not deal.proposals:
        wrong = _unreachable(fresh, value, surrendered, "value" if "value" in written else "scores")
        if wrong is not None:
            return state, None, [*problems, wrong]
    if surrendered and raiser is None:
        raiser = state.speaker(side)
    return state, Facts(value, side, surrendered, raiser), problems


def _replay_windows(
    ruleset: Ruleset[Any, Any, Any], table: Table, deal: KarnoffelDeal, state: KarnoffelState
) -> list[Violation]:
    """The sheet's proposals through the rules of the windows (karnoffel.propose.*), to their end."""
    actions, problems = ruleset.compile(table, deal)
    if any(problem.severity == Severity.ERROR for problem in problems):
        state.scorable = False
        return problems
    problems += run(ruleset, state, actions)
    return problems + proposals.skip_to(state, WINDOWS + 1)


def _against_windows(state: KarnoffelState, written: dict[str, int]) -> list[Violation]:
    """karnoffel.sheet.check: the sheet's value, winner and surrender against its own proposals."""
    problems = []
    if "value" in written and written["value"] != state.value:
        problems.append(
            mismatch("value", f"the deal was worth {written['value']}", f"the proposals give {state.value}")
        )
    if state.surrendered and "winner" in written and side_of(written["winner"]) != state.decided:
        assert state.decided is not None
        problems.append(
            mismatch(
                "winner",
                f"{state.side_name(side_of(written['winner']))} won the deal",
                f"the proposals give it to {state.side_name(state.decided)}, whose raise was refused",
            )
        )
    problems += _surrender_against(state, written)
    return problems


def _surrender_against(state: KarnoffelState, written: dict[str, int]) -> list[Violation]:
    """karnoffel.sheet.check: a surrender written on the sheet against the record's proposals."""
    if "surrender" not in written:
        return []
    side = side_of(written["surrender"])
    said = f"{state.side_name(side)} gave the deal up"
    if not state.surrendered:
        return [mismatch("surrender", said, "the record's proposals have no surrender")]
    assert state.decided is not None
    if side == state.decided:
        return [
            mismatch(
                "surrender", said, f"{state.side_name(1 - side)} did, refusing seat {state.raiser}'s raise"
            )
        ]
    return []


def result_checks(state: KarnoffelState, deal: KarnoffelDeal) -> list[Violation]:
    """karnoffel.sheet.check: each fact a played deal's result writes, against its replay."""
    result = deal.result
    if result is None or state.decided is None:
        return []
    bad, problems = impossible(state.players, state, result)
    written = written_facts(result, bad)
    if "value" in written and written["value"] != state.value:
        problems.append(
            mismatch("value", f"the deal was worth {written['value']}", f"the record gives {state.value}")
        )
    if "winner" in written and side_of(written["winner"]) != state.decided:
        how = "the proposals give it to" if state.surrendered else "the tricks give it to"
        problems.append(
            mismatch(
                "winner",
                f"{state.side_name(side_of(written['winner']))} won the deal",
                f"{how} {state.side_name(state.decided)}",
            )
        )
    return problems + _surrender_against(state, written)


def written_facts(result: KarnoffelResult | None, bad: set[str]) -> dict[str, int]:
    """The facts the sheet writes, by name, but for those no deal can have (`bad`)."""
    if result is None:
        return {}
    facts = {name: getattr(result, name) for name in FACTS if name not in bad}
    return {name: fact for name, fact in facts.items() if fact is not None}


def impossible(
    players: int, state: KarnoffelState, result: KarnoffelResult | None
) -> tuple[set[str], list[Violation]]:
    """karnoffel.sheet.facts: the facts no deal at this table can have (a value that is not the
    base value plus whole raises, a seat that is not at the table, a side that both gave the deal
    up and won it), by field, with their diagnostics."""
    if result is None:
        return set(), []
    problems: dict[str, Violation] = {}
    options = state.options
    base, step = options.base_value, options.raise_step
    if result.value is not None and (result.value < base or (result.value - base) % step):
        worth = ", ".join(str(base + raises * step) for raises in range(4))
        problems["value"] = bad_fact(
            "value",
            f"the sheet says the deal was worth {result.value}, but a deal is worth {worth}, … ({base}, and "
            f"{step} more for each raise accepted)",
        )
    for name in ("winner", "surrender"):
        seat = getattr(result, name)
        if seat is not None and seat >= players:
            problems[name] = bad_fact(
                name, f"the sheet names seat {seat}, who is not at a table of {players}"
            )
    winner, surrender = result.winner, result.surrender
    if (
        not problems
        and winner is not None
        and surrender is not None
        and side_of(winner) == side_of(surrender)
    ):
        problems["surrender"] = bad_fact(
            "surrender",
            f"the sheet says {state.side_name(side_of(surrender))} both gave the deal up and won it",
        )
    return set(problems), list(problems.values())


def _from_scores(
    state: KarnoffelState, scores: list[int | float]
) -> tuple[tuple[int, int] | None, list[Violation]]:
    """The side and value the written scores give when the sheet does not say (the best-scoring
    seat's side and score); SHEET-BAD-FACT when every seat scores nothing."""
    seats = scores[: state.players]
    if not any(seats):
        return None, [
            bad_fact(
                "scores", "every seat scores 0 on the sheet, but the side that wins a deal scores its value"
            )
        ]
    top = max(range(len(seats)), key=lambda seat: seats[seat])
    return (side_of(top), int(seats[top])), []


def _unreachable(fresh: KarnoffelState, value: int, surrendered: bool, field: str) -> Violation | None:
    """karnoffel.sheet.facts: SHEET-BAD-FACT when no proposals the rules allow here end at `value`
    (by a surrender, if the sheet says so): the going-out cap and the raise limit bound them."""
    options = fresh.options
    if value < options.base_value or (value - options.base_value) % options.raise_step:
        return None if field == "value" else bad_fact(field, f"no deal scores {value}: {_worth(fresh)}")
    ends = endings(fresh, value)
    if (value, surrendered) in ends:
        return None
    most = max((worth for worth, by_surrender in ends if by_surrender == surrendered), default=None)
    why = _bound(fresh)
    if most is None:
        return bad_fact(
            "surrender", f"the sheet says a side gave the deal up, but nobody could raise in it ({why})"
        )
    said = "a deal given up at" if surrendered else "the deal was worth"
    return bad_fact(field, f"the sheet says {said} {value}, but the raising stops at {most} here ({why})")


def _worth(state: KarnoffelState) -> str:
    """The values a deal can have, in words."""
    base, step = state.options.base_value, state.options.raise_step
    return f"a deal is worth {', '.join(str(base + raises * step) for raises in range(4))}, …"


def _bound(state: KarnoffelState) -> str:
    """What bounds the raising in a deal, in words: the going-out cap, the raise limit."""
    options = state.options
    bounds = []
    if options.raise_cap_when_game_reachable and state.before is not None:
        bounds.append(
            f"with {state.before[0]} and {state.before[1]} before the deal, nobody raises once a side can "
            f"reach {options.target}"
        )
    if options.reraise != "unlimited":
        bounds.append(f"option reraise = {options.reraise}")
    return "; ".join(bounds) or "the rules of the windows"


def endings(fresh: KarnoffelState, limit: int) -> set[tuple[int, bool]]:
    """Every (value, by a surrender) the three windows can end with from `fresh`, raising no
    higher than `limit`: each word the rules open (`proposals.legal_calls`) tried in turn."""
    found: set[tuple[int, bool]] = set()
    seen: set[tuple[Any, ...]] = set()
    todo = [fresh]
    while todo:
        now = todo.pop()
        for action in proposals.legal_calls(now):
            after = replace(now)
            proposals.take_call(after, action)
            if after.phase != Phase.WINDOWS:
                found.add((after.value, after.surrendered))
                continue
            key = (
                after.window,
                after.passes,
                after.pending,
                after.value,
                after.raiser,
                after.raises,
                after.window_raises,
            )
            if after.value <= limit and key not in seen:
                seen.add(key)
                todo.append(after)
    return found


def sheet_of(deal: KarnoffelDeal, state: KarnoffelState) -> KarnoffelDeal:
    """The deal as a score sheet writes it: dealer, status, the scores with the value, the winner
    (after a surrender, the player whose raise was refused) and the side that surrendered, and
    the totals; no cards and no proposals."""
    result = None
    if deal.result is not None:
        facts: dict[str, int] = {}
        if state.decided is not None:
            facts = {"value": state.value, "winner": state.decided}
            if state.surrendered and state.raiser is not None:
                facts |= {"winner": state.raiser, "surrender": 1 - state.decided}
        result = KarnoffelResult(scores=list(deal.result.scores), **facts)
    return KarnoffelDeal(dealer=deal.dealer, status=deal.status, result=result, totals=deal.totals)


def bad_fact(field: str, message: str) -> Violation:
    """SHEET-BAD-FACT (karnoffel.sheet.facts) at `result.<field>`: a fact no deal can have."""
    return Violation("SHEET-BAD-FACT", "karnoffel.sheet.facts", message, path=f"result.{field}")


def mismatch(field: str, said: str, found: str) -> Violation:
    """SHEET-MISMATCH (karnoffel.sheet.check) at `result.<field>`: the sheet against the record."""
    return Violation(
        "SHEET-MISMATCH", "karnoffel.sheet.check", f"the sheet says {said}; {found}", path=f"result.{field}"
    )
