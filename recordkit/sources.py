"""Reading records from files (JSON, JSON lines, directories of them) and writing files atomically.

Reading never raises on bad input: a file or line that is not JSON becomes a diagnostic with its
place, and the records after it are still read.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

import orjson

from recordkit.diagnostics import Diagnostic, Location, Severity

JSONL_SUFFIXES = (".jsonl", ".ndjson")
RECORD_SUFFIXES = (".json", *JSONL_SUFFIXES)


@dataclass(frozen=True, slots=True)
class RawRecord:
    """One record's parsed JSON and where it came from."""

    data: Any
    location: Location


def record_files(paths: Iterable[str | Path]) -> Iterator[Path | Diagnostic]:
    """The record files named, directories searched recursively (sorted), or why one is unusable."""
    for name in paths:
        path = Path(name)
        if path.is_dir():
            yield from sorted(
                p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in RECORD_SUFFIXES
            )
        elif path.is_file():
            yield path
        else:
            yield Diagnostic(
                "FILE-UNREADABLE", Severity.ERROR, "no such file or directory", Location(file=str(path))
            )


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


def raw_records(paths: Iterable[str | Path], parse: bool = True) -> Iterator[Source]:
    """Every record of every file named (directories searched), and every file-level problem.

    With `parse` False the lines of JSON-lines files come unparsed, for parsing in parallel."""
    for item in record_files(paths):
        if isinstance(item, Diagnostic):
            yield item
        else:
            yield from read_records(item, parse)


def read_records(path: Path, parse: bool = True) -> Iterator[Source]:
    """Every record of one file, in order; JSON lines files are streamed line by line."""
    try:
        if path.suffix.lower() in JSONL_SUFFIXES:
            yield from _read_jsonl(path, parse)
        else:
            yield from _read_json(path)
    except OSError as error:
        yield Diagnostic(
            "FILE-UNREADABLE",
            Severity.ERROR,
            f"cannot read the file: {error.strerror}",
            Location(file=str(path)),
        )


def _read_json(path: Path) -> Iterator[RawRecord | Diagnostic]:
    content = path.read_bytes()
    if not content.strip():
        yield Diagnostic("FILE-EMPTY", Severity.ERROR, "the file is empty", Location(file=str(path)))
        return
    try:
        data = orjson.loads(content)
    except orjson.JSONDecodeError as error:
        yield json_error(error, content, Location(file=str(path)))
        return
    if isinstance(data, list):
        for index, item in enumerate(data, start=1):
            yield RawRecord(item, Location(file=str(path), record=index))
    else:
        yield RawRecord(data, Location(file=str(path), line=1, record=1))


def _read_jsonl(path: Path, parse: bool) -> Iterator[Source]:
    record = 0
    with path.open("rb") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            record += 1
            raw = RawLine(line, Location(file=str(path), line=number, record=record))
            yield raw.parse() if parse else raw


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


@contextmanager
def atomic_output(path: Path) -> Iterator[BinaryIO]:
    """A file to stream into that appears at `path` only once complete (never half-written)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            yield out
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def write_atomic(path: Path, data: bytes) -> None:
    """Write a file so that readers see the old content or the new, never half of it."""
    with atomic_output(path) as out:
        out.write(data)
