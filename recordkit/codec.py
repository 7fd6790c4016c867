"""Reading and writing records in canonical form: `loads(dumps(r)) == r` for every record."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import orjson

from recordkit.diagnostics import Diagnostic, Location
from recordkit.model import RecordBase
from recordkit.sources import RawRecord, json_error, write_atomic
from recordkit.validate import Settings, validate_record


class RecordError(ValueError):
    """A record that cannot be read; carries the diagnostics that say why."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        self.diagnostics = diagnostics
        super().__init__("; ".join(d.text() for d in diagnostics) or "unreadable record")


def to_data(record: RecordBase) -> dict[str, Any]:
    """The canonical JSON value of a record: fixed key order, defaults written, no nulls."""
    return record.model_dump(mode="json", exclude_none=True)


def dumps(record: RecordBase, indent: bool = False) -> str:
    """Canonical JSON text of a record: one line, or indented for files people read."""
    if indent:
        return pretty(to_data(record)) + "\n"
    return orjson.dumps(to_data(record)).decode()


def pretty(value: Any, depth: int = 0, width: int = 100) -> str:
    """Indented JSON that keeps short lists and objects of plain values on one line."""
    flat = json.dumps(value, ensure_ascii=False)
    nested = isinstance(value, (dict, list)) and any(isinstance(v, (dict, list)) for v in _children(value))
    if not isinstance(value, (dict, list)) or (not nested and len(flat) + 2 * depth <= width):
        return flat
    pad = "  " * (depth + 1)
    if isinstance(value, dict):
        items = [
            f"{pad}{json.dumps(k, ensure_ascii=False)}: {pretty(v, depth + 1, width)}"
            for k, v in value.items()
        ]
        return "{\n" + ",\n".join(items) + "\n" + "  " * depth + "}"
    items = [pad + pretty(v, depth + 1, width) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + "  " * depth + "]"


def _children(value: dict[str, Any] | list[Any]) -> list[Any]:
    return list(value.values()) if isinstance(value, dict) else value


_UNREADABLE = frozenset({"format.envelope", "format.schema", "format.limits"})
"""The rules of the format whose errors leave a part of the record unread: a record returned
without that part would not be the record written (issue 15, the canonical fixed point)."""


def loads(text: str | bytes) -> RecordBase:
    """Parse one record; RecordError if it is not a readable record, or if a part of it is not
    (a deal that does not fit the format); the rules of its game are not checked."""
    content = text.encode() if isinstance(text, str) else text
    try:
        data = orjson.loads(content)
    except orjson.JSONDecodeError as error:
        raise RecordError([json_error(error, content, Location())]) from None
    report = validate_record(RawRecord(data, Location()), Settings(strict=True))
    unreadable = [d for d in report.diagnostics if d.severity == "error" and d.rule in _UNREADABLE]
    if report.record is None or unreadable:
        raise RecordError(unreadable or [d for d in report.diagnostics if d.severity == "error"])
    return report.record


def load(path: str | Path) -> RecordBase:
    """Read one record from a JSON file."""
    return loads(Path(path).read_bytes())


def dump(record: RecordBase, path: str | Path) -> None:
    """Write one record to a JSON file in canonical indented form, atomically."""
    write_atomic(Path(path), dumps(record, indent=True).encode())
