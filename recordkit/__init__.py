"""recordkit: record, replay and verify games of trick-taking card games.

>>> import recordkit
>>> record = recordkit.load("samples/french-tarot/club-evening-4p.json")
>>> [d.code for d in recordkit.validate(record)]
[]
>>> [len(r.deals) for r in recordkit.load_all("samples/french-tarot/variants.jsonl")][:2]
[1, 1]
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from recordkit.codec import RecordError, dump, dumps, load, load_all, loads, loads_all, to_data
from recordkit.diagnostics import Diagnostic, Location, Severity, from_violation
from recordkit.engine import steps
from recordkit.games import RULESETS
from recordkit.model import RecordBase
from recordkit.recorder import Recorder, RefusedError
from recordkit.rules.base import Action
from recordkit.sources import RawRecord
from recordkit.validate import Settings, validate_record

__version__ = "0.1.0"


def validate(record: RecordBase, strict: bool = True) -> list[Diagnostic]:
    """Every diagnostic of a parsed record: each deal replayed through its rules, scores and totals."""
    return validate_record(RawRecord(to_data(record), Location()), Settings(strict=strict)).diagnostics


def replay(record: RecordBase, deal: int = 1) -> Iterator[tuple[Action | None, list[Any], Any]]:
    """Replay deal number `deal` (from 1) step by step: (action, violations, state after it)."""
    ruleset = RULESETS[record.game]
    table, problems = ruleset.table(record.options, len(record.players))
    if table is None:
        raise RecordError([from_violation(p, Location()) for p in problems])
    return steps(ruleset, table, record.deals[deal - 1])


__all__ = [
    "RULESETS",
    "Diagnostic",
    "RecordError",
    "Recorder",
    "RefusedError",
    "Severity",
    "__version__",
    "dump",
    "dumps",
    "load",
    "load_all",
    "loads",
    "loads_all",
    "replay",
    "validate",
]
