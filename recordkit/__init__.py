"""recordkit: record, replay and verify games of trick-taking card games.

>>> import recordkit
>>> record = recordkit.load("samples/french-tarot/club-evening-4p.json")
>>> [d.code for d in recordkit.validate(record)]
[]
>>> [len(r.deals) for r in recordkit.load_all("samples/french-tarot/variants.jsonl")][:2]
[1, 1]

The names below are imported on first use (`__getattr__`), so that `import recordkit` and the
command line's start-up do not pay for the record models, the rulesets or the recorder.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator
from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the names as the type checker sees them; `X as X` marks a re-export
    from recordkit.codec import RecordError, dump, dumps, load, load_all, loads, loads_all
    from recordkit.diagnostics import Diagnostic, Severity
    from recordkit.diagnostics import Location as Location
    from recordkit.diagnostics import from_violation as from_violation
    from recordkit.engine import steps as steps
    from recordkit.games import RULESETS
    from recordkit.model import RecordBase
    from recordkit.model import to_data as to_data
    from recordkit.raw import RawRecord as RawRecord
    from recordkit.recorder import Recorder, RefusedError
    from recordkit.rules.values import Action
    from recordkit.validate import Settings as Settings
    from recordkit.validate import validate_record as validate_record
    from recordkit.version import __version__ as __version__

_LAZY = {
    **dict.fromkeys(("RecordError", "dump", "dumps", "load", "load_all", "loads", "loads_all"), "codec"),
    **dict.fromkeys(("Diagnostic", "Location", "Severity", "from_violation"), "diagnostics"),
    "steps": "engine",
    "RULESETS": "games",
    "RecordBase": "model",
    "to_data": "model",
    "Recorder": "recorder",
    "RefusedError": "recorder",
    "Action": "rules.base",
    "RawRecord": "raw",
    "Settings": "validate",
    "validate_record": "validate",
    "__version__": "version",
}
"""Each public name and the submodule it is imported from on first use."""


def __getattr__(name: str) -> Any:
    """A public name, imported from its submodule on first use and kept."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The module's names, with those not yet imported."""
    return sorted(set(globals()) | set(_LAZY))


def validate(record: RecordBase, strict: bool = True) -> list[Diagnostic]:
    """Every diagnostic of a parsed record: each deal replayed through its rules, scores and totals."""
    from recordkit.diagnostics import Location
    from recordkit.model import to_data
    from recordkit.sources import RawRecord
    from recordkit.validate import Settings, validate_record

    return validate_record(RawRecord(to_data(record), Location()), Settings(strict=strict)).diagnostics


def replay(record: RecordBase, deal: int = 1) -> Iterator[tuple[Action | None, list[Any], Any]]:
    """Replay deal number `deal` (from 1) step by step: (action, violations, state after it)."""
    from recordkit.codec import RecordError
    from recordkit.diagnostics import Location, from_violation
    from recordkit.engine import steps
    from recordkit.games import RULESETS

    ruleset = RULESETS[record.game]
    table, problems = ruleset.table(record.options, len(record.players))
    if table is None:
        raise RecordError([from_violation(p, Location()) for p in problems])
    return steps(ruleset, table, record.deals[deal - 1])


class _Package(types.ModuleType):
    """The package, which keeps `recordkit.validate` the function above when the submodule of
    that name is first imported (the import system then sets the submodule on its package)."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "validate" and value is sys.modules.get(f"{self.__name__}.validate"):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package

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
