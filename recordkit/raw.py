"""A record as read, before validation: its parsed JSON or its text, and its place."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from recordkit.diagnostics import Diagnostic, Location, Severity


@dataclass(frozen=True, slots=True)
class RawRecord:
    """One record's parsed JSON and where it came from."""

    data: Any
    location: Location
    places: dict[str, tuple[int, int]] | None = None
    """A record read from the notation: where each JSON path was written (line, column)."""
    notes: tuple[Diagnostic, ...] = ()
    """A record read from the notation: what its reader found (NOTATION-* codes)."""


@dataclass(frozen=True, slots=True)
class RawLine:
    """One record's JSON text, not parsed yet: a worker process parses it, not the reader."""

    text: bytes
    location: Location

    def parse(self) -> RawRecord | Diagnostic:
        """The parsed record, or why its text is not JSON."""
        try:
            return record_of(orjson.loads(self.text), self.location)
        except orjson.JSONDecodeError as error:
            return json_error(error, self.text, self.location, last_line=not self.text.endswith(b"\n"))


MAX_NESTING = 32
"""The most levels of lists and objects inside one another in a record; records need 7."""


def record_of(value: Any, where: Location) -> RawRecord | Diagnostic:
    """A value read as a record, or RECORD-TOO-DEEP when it nests deeper than the libraries that
    read it further go without failing (orjson's writer finds that in C: it stops at 255 levels;
    the envelope's check finds the rest)."""
    try:
        orjson.dumps(value)
    except TypeError as error:  # orjson.JSONEncodeError: the nesting, or a number over 64 bits
        if "Recursion" in str(error) or too_deep(value):
            return nesting_error(where)
    return RawRecord(value, where)


def nesting_error(where: Location) -> Diagnostic:
    """RECORD-TOO-DEEP: a record nesting lists and objects beyond the limit, not read."""
    return Diagnostic(
        "RECORD-TOO-DEEP",
        Severity.ERROR,
        f"lists and objects nest more than {MAX_NESTING} levels deep in this record (a record "
        "needs 7); it is not read",
        where,
        rule="format.limits",
    )


def too_deep(value: Any, limit: int = MAX_NESTING) -> bool:
    """True when lists and objects nest more than `limit` levels deep (walked without recursion)."""
    if not isinstance(value, (dict, list)):
        return False
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return False


Source = RawRecord | RawLine | Diagnostic
"""What the readers yield: a record, a record's text still to parse, or a file-level problem."""


def parsed(item: Source) -> RawRecord | Diagnostic:
    """A reader's item with its text parsed."""
    return item.parse() if isinstance(item, RawLine) else item


def json_error(
    error: orjson.JSONDecodeError, content: bytes, where: Location, last_line: bool = True
) -> Diagnostic:
    """RECORD-TRUNCATED when the text stops in the middle of a record, RECORD-BAD-JSON otherwise."""
    truncated = last_line and error.pos >= len(content.rstrip()) - 1 and content.strip()[:1] in (b"{", b"[")
    line = where.line if where.line is not None else error.lineno
    reason = error.msg.split(":")[0]
    if truncated:
        return Diagnostic(
            "RECORD-TRUNCATED",
            Severity.ERROR,
            "the record stops before its end: the file was cut short",
            Location(file=where.file, line=line, record=where.record),
            rule="format.json",
        )
    place = (
        f"column {error.colno}" if where.line is not None else f"line {error.lineno}, column {error.colno}"
    )
    return Diagnostic(
        "RECORD-BAD-JSON",
        Severity.ERROR,
        f"not valid JSON at {place}: {reason}",
        Location(file=where.file, line=line, record=where.record),
        rule="format.json",
    )


def unreadable_file(path: Path, error: OSError) -> Diagnostic:
    """FILE-UNREADABLE for a file the system will not give us, with its reason."""
    return Diagnostic(
        "FILE-UNREADABLE", Severity.ERROR, f"cannot read the file: {error.strerror}", Location(file=str(path))
    )
