"""One deal being recorded: its cards as dealt, the actions so far, and the state they lead to."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from recordkit.diagnostics import Diagnostic, Severity
from recordkit.rules.base import Action, Ruleset, Table


@dataclass(slots=True)
class Step:
    """One accepted entry of a deal: the text as typed, the seat it named, how many actions it gave
    (one, unless a record field took several at once), and the irregularities kept with it."""

    text: str
    seat: int | None
    actions: int
    flags: list[Diagnostic] = field(default_factory=list)


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
    live.written = ruleset.record_deal(table, live.dealt.model_copy(deep=True), live.actions)
    live.compiled = ruleset.compile(table, in_progress(live.written))[0]


def replay(ruleset: Ruleset[Any, Any, Any], table: Table, live: LiveDeal) -> None:
    """Rebuild the state from the cards dealt and the deal's actions (after a refusal or an undo)."""
    live.state = ruleset.start(table, live.dealt, live.before)[0]
    for action in live.actions:
        ruleset.advance(live.state, action)


def errors(found: list[Diagnostic]) -> bool:
    """Whether any of the diagnostics is an error (warnings are recorded without asking)."""
    return any(d.severity == Severity.ERROR for d in found)
