"""A record as read, before validation: its parsed JSON or its text, and its place."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson

from recordkit.diagnostics import Diagnostic, Location, Severity


@dataclass(frozen=True, slots=True)
class RawRecord:
    """One record's parsed JSON and where it came from."""

    data: Any
    location: Location


@dataclass(frozen=True, slots=True)
class RawLine:
    """One record's JSON text, not parsed yet: a worker process parses it, not the reader."""

    text: bytes
    location: Location

    def parse(self) -> RawRecord | Diagnostic:
        """The parsed record, or why its text is not JSON."""
        try:
            return RawRecord(orjson.loads(self.text), self.location)
        except orjson.JSONDecodeError as error:
            return json_error(error, self.text, self.location, last_line=not self.text.endswith(b"\n"))


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
