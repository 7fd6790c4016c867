"""Reading and writing records in canonical form: `loads(dumps(r)) == r` for every record."""

from __future__ import annotations

import io
import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import orjson

from recordkit.diagnostics import Diagnostic, Location, Severity
from recordkit.jsonread import BOM, MAX_RECORD_BYTES, json_file_records, too_large
from recordkit.model import RecordBase, to_data
from recordkit.notation import looks_like_text, text_sources
from recordkit.raw import RawRecord, Source, json_error, parsed
from recordkit.reading import read_records
from recordkit.sources import NOTATION_SUFFIXES, jsonl_records, write_atomic
from recordkit.validate import Settings, validate_record


class RecordError(ValueError):
    """A record that cannot be read; carries the diagnostics that say why."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        self.diagnostics = diagnostics
        super().__init__("; ".join(d.text() for d in diagnostics) or "unreadable record")


def dumps(record: RecordBase, indent: bool = False, form: str = "json") -> str:
    """Canonical JSON text of a record: one line, or indented for files people read; with
    `form="text"`, its canonical text in the recordkit notation (spec/NOTATION.md)."""
    if form == "text":
        from recordkit.notation import default_options, write_text

        return write_text(to_data(record), default_options(record.game))
    if form != "json":
        raise ValueError(f"a record is written in form 'json' or 'text', not {form!r}")
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


_UNREADABLE = frozenset(
    {"format.envelope", "format.schema", "format.limits"}
    | {"notation.syntax", "notation.tags", "notation.values", "notation.deals"}
)
"""The rules of the format whose errors leave a part of the record unread: a record returned
without that part would not be the record written (issue 15, the canonical fixed point)."""


def loads(text: str | bytes) -> RecordBase:
    """Parse one record; RecordError if it is not a readable record, or if a part of it is not
    (a deal that does not fit the format); the rules of its game are not checked."""
    content = _bytes(text)
    if looks_like_text(content):
        return _one(_text_sources(content))
    if len(content) > MAX_RECORD_BYTES:
        raise RecordError([too_large(Location())])
    try:
        data = orjson.loads(content)
    except orjson.JSONDecodeError as error:
        raise RecordError([json_error(error, content, Location())]) from None
    return _record(RawRecord(data, Location()))


def loads_all(text: str | bytes) -> Iterator[RecordBase]:
    """Every record of a text, in order: a list of records, or JSON lines (one record a line)."""
    content = _bytes(text)
    if looks_like_text(content):
        return _records(_text_sources(content))
    stream = io.BytesIO(content)
    if content.lstrip(b" \t\r\n")[:1] == b"[":
        return _records(json_file_records(stream, None))
    return _records(jsonl_records(stream, None))


def load(path: str | Path) -> RecordBase:
    """Read the one record of a file (.json, JSON lines holding one record, or .rkn text in the
    notation); RecordError
    naming the file and line if it is not readable, or if the file holds several records."""
    return _one(read_records(Path(path), parse=False), str(path))


def _one(sources: Iterable[Source], file: str | None = None) -> RecordBase:
    """The one record of a file or text; RecordError naming the file and line if it holds none,
    or several."""
    items = (item for item in sources if not _warning(item))
    first = next(items, None)
    if first is None:
        raise RecordError(
            [Diagnostic("FILE-EMPTY", Severity.ERROR, "the file holds no record", Location(file))]
        )
    second = next(items, None)
    if second is not None:
        where = second.location
        raise RecordError(
            [
                Diagnostic(
                    "FILE-MANY-RECORDS",
                    Severity.ERROR,
                    "the file holds more than one record: recordkit.load reads one, "
                    "recordkit.load_all reads them one after the other",
                    Location(file=where.file, line=where.line, record=where.record),
                    rule="format.json",
                )
            ]
        )
    return next(_records([first]))


def load_all(path: str | Path) -> Iterator[RecordBase]:
    """Every record of a file (a .json record or list, JSON lines), in order, read as a stream;
    RecordError, naming the file and line, at the first record that is not readable."""
    return _records(read_records(Path(path), parse=False))


def _records(items: Iterable[Source]) -> Iterator[RecordBase]:
    """The records read, each checked as `loads` checks it; a warning (a byte-order mark) is
    passed over, the first error raised."""
    for item in items:
        if _warning(item):
            continue
        raw = parsed(item)
        if isinstance(raw, Diagnostic):
            raise RecordError([raw])
        yield _record(raw)


def _warning(item: Source) -> bool:
    """True for a reader's warning about a whole file, which does not keep its records unread."""
    return isinstance(item, Diagnostic) and item.severity != Severity.ERROR


def parsed_record(raw: RawRecord) -> RecordBase:
    """A read record parsed as `loads` parses it: RecordError with the errors that keep it unreadable."""
    return _record(raw)


def _record(raw: RawRecord) -> RecordBase:
    """The parsed record, or RecordError with the errors that keep it unreadable."""
    report = validate_record(raw, Settings(strict=True))
    unreadable = [d for d in report.diagnostics if d.severity == Severity.ERROR and d.rule in _UNREADABLE]
    if report.record is None or unreadable:
        raise RecordError(unreadable or [d for d in report.diagnostics if d.severity == Severity.ERROR])
    return report.record


def _text_sources(content: bytes) -> Iterable[Source]:
    """The records of a text in the notation, or why it cannot be read: bytes that are not UTF-8
    (a UTF-16 file's, say) are no text recordkit reads, in the notation or as JSON."""
    try:
        text = content.decode()
    except UnicodeDecodeError as error:
        return [_not_utf8(content, error)]
    return text_sources(text, None)


UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
"""The byte-order marks a UTF-16 text starts with (Windows' "Unicode" files)."""


def _not_utf8(content: bytes, error: UnicodeDecodeError) -> Diagnostic:
    """RECORD-BAD-JSON for a text that is not UTF-8, at the line and column (in bytes) of the
    first byte that cannot be read; a UTF-16 text is named as such, since saving it as UTF-8 is
    the remedy."""
    line = content.count(b"\n", 0, error.start) + 1
    column = error.start - content.rfind(b"\n", 0, error.start)
    message = (
        "the text is UTF-16, not UTF-8: save it as UTF-8"
        if content.startswith(UTF16_BOMS)
        else f"the text is not UTF-8 at line {line}, column {column}: a record is UTF-8 JSON or "
        "text in the notation"
    )
    return Diagnostic("RECORD-BAD-JSON", Severity.ERROR, message, Location(line=line), rule="format.json")


def _bytes(text: str | bytes) -> bytes:
    """A text as UTF-8 bytes, without a byte-order mark."""
    return (text.encode() if isinstance(text, str) else text).removeprefix(BOM)


def dump(record: RecordBase, path: str | Path) -> None:
    """Write one record to a file atomically: canonical indented JSON, or its canonical text in
    the notation for a `.rkn` file."""
    form = "text" if Path(path).suffix.lower() in NOTATION_SUFFIXES else "json"
    write_atomic(Path(path), dumps(record, indent=True, form=form).encode())
