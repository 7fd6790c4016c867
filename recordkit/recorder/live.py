"""One deal being recorded: its cards as dealt, the actions so far, and the state they lead to."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from recordkit.diagnostics import Diagnostic, Location, Severity, Violation, from_violation
from recordkit.rules.base import Ruleset
from recordkit.rules.values import Action, Completion, Table


@dataclass(slots=True)
class Step:
    """One accepted entry of a deal: the text as typed, the seat it named, how many actions it gave
    (one, unless a record field took several at once), and the irregularities kept with it; in a
    deal without some of its hands, `reported` holds those of them that the full check found
    once the action made the hands known (the end of the deal), rather than the action itself."""

    text: str
    seat: int | None
    actions: int
    flags: list[Diagnostic] = field(default_factory=list)
    reported: list[Diagnostic] = field(default_factory=list)


@dataclass(slots=True)
class LiveDeal:
    """A deal of the game: in progress while `end` is None, then "played" or "abandoned".

    `actions` are in the order they happened, as `compile` reads them from the record (paths, trick
    numbers); `actors` is the seat that made each one. `written` is the deal as the record writes it
    now and `compiled` what `compile` reads back from it, against which a new action is appended.
    """

    number: int
    dealt: Any
    before: list[int | float]
    state: Any
    flags: list[Diagnostic] = field(default_factory=list)
    actions: list[Action] = field(default_factory=list)
    actors: list[int | None] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    written: Any = None
    compiled: list[Action] = field(default_factory=list)
    end: str | None = None
    final: Any = None
    """The deal as the record keeps it once it is over: with its result and running totals."""
    partial: bool = False
    """True when the deal was started without some of its dealt cards (a hand, the dog): each
    action is then judged by the engine replaying the deal so far (`recordkit.recorder.partial`)."""
    groups: list[str] = field(default_factory=list)
    """The deal's fields that hold the cards as dealt (`hands`, `dog`...)."""
    findings: list[Diagnostic] = field(default_factory=list)
    """A partial deal: what the engine finds on the deal so far (its notes aside)."""
    unchecked: frozenset[tuple[str, int | None]] = frozenset()
    """A partial deal: the checks the engine could not run on it so far, as (code, seat)."""
    completion: Completion | None = None
    """A partial deal: the deal so far with the groups it leaves out derived from the play."""

    @property
    def index(self) -> int:
        """The deal's place in the record's `deals`, from 0."""
        return self.number - 1

    def totals(self) -> list[int | float]:
        """The running totals after this deal (before it while it is in progress)."""
        if self.final is not None and self.final.totals is not None:
            return list(self.final.totals)
        return list(self.before)


def in_progress(deal: Any) -> Any:
    """The deal marked abandoned, so that a trick still being played reads as the last, short trick."""
    return deal.model_copy(update={"status": "abandoned"})


def rewrite(ruleset: Ruleset[Any, Any, Any], table: Table, live: LiveDeal) -> None:
    """Write the deal's actions into its record form, and read back what the record holds."""
    live.written = record_form(ruleset, table, live, live.actions)
    read = ruleset.blank(table, live.written) if live.partial else live.written  # as the engine reads it
    live.compiled = ruleset.compile(table, in_progress(read))[0]


def record_form(ruleset: Ruleset[Any, Any, Any], table: Table, live: LiveDeal, actions: list[Action]) -> Any:
    """The deal as the record writes it with these actions: `record_deal`, and in a partial deal
    every card group that was not given left out as it was (a hand not given stays null)."""
    deal = ruleset.record_deal(table, live.dealt.model_copy(deep=True), actions)
    if not live.partial:
        return deal
    update: dict[str, Any] = {}
    for name in live.groups:
        given, wrote = getattr(live.dealt, name, None), getattr(deal, name, None)
        if given is None:
            update[name] = None
        elif isinstance(given, list) and isinstance(wrote, list) and len(wrote) == len(given):
            update[name] = [
                None if known is None else group for known, group in zip(given, wrote, strict=True)
            ]
    return deal.model_copy(update=update)


def replay(ruleset: Ruleset[Any, Any, Any], table: Table, live: LiveDeal) -> None:
    """Rebuild the state from the cards dealt and the deal's actions (after a refusal or an undo)."""
    live.state = ruleset.start(table, live.dealt, live.before)[0]
    for action in live.actions:
        ruleset.advance(live.state, action)


def errors(found: list[Diagnostic]) -> bool:
    """Whether any of the diagnostics is an error (warnings are recorded without asking)."""
    return any(d.severity == Severity.ERROR for d in found)


def diagnostic(violation: Violation, number: int) -> Diagnostic:
    """A ruleset's violation as the validator reports it for deal `number` (from 1) of the record."""
    path = f"deals[{number - 1}].{violation.path}" if violation.path else f"deals[{number - 1}]"
    return from_violation(replace(violation, path=path), Location(deal=number))
