"""Converting records between JSON, JSON lines and the notation (`recordkit convert IN... OUT`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

import orjson

from recordkit.codec import RecordError, dumps, parsed_record, pretty
from recordkit.diagnostics import Diagnostic, Severity
from recordkit.model import RecordBase
from recordkit.reading import raw_records
from recordkit.sources import NOTATION_SUFFIXES, atomic_output, parsed


def convert_records(
    sources: Iterable[str], output: Path, progress: Callable[[int, int], None] | None = None
) -> tuple[int, list[Diagnostic]]:
    """Write every readable record of the sources (files, folders, archives) to `output` in the
    form its extension names: `.rkn` text, `.jsonl` lines, `.json` (one record indented, several
    as a list). The records written, and the errors of each record left out."""
    skipped: list[Diagnostic] = []
    written = deals = 0
    form = "text" if output.suffix.lower() in NOTATION_SUFFIXES else output.suffix.lower()
    with atomic_output(output) as out:
        texts = []
        for item in raw_records(sources, skip=output):
            raw = parsed(item)
            if isinstance(raw, Diagnostic):
                skipped += [raw] if raw.severity == Severity.ERROR else []
                continue
            try:
                record = parsed_record(raw)
            except RecordError as error:
                skipped += error.diagnostics
                continue
            text = _written(record, form)
            if form == ".json":
                texts.append(text)
            else:
                out.write((b"\n" if written and form == "text" else b"") + text.encode())
            written += 1
            deals += len(record.deals)
            if progress is not None:
                progress(written, deals)
        if form == ".json":
            out.write(_json_file(texts).encode())
    return written, skipped


def _written(record: RecordBase, form: str) -> str:
    """A record's text in a form: the notation's canonical text, or one line of canonical JSON."""
    if form == "text":
        return dumps(record, form="text")
    return dumps(record) + ("" if form == ".json" else "\n")


def _json_file(lines: list[str]) -> str:
    """A `.json` file's text: one record, or a list of them, one a line."""
    if len(lines) == 1:
        return pretty(orjson.loads(lines[0])) + "\n"
    return "[\n" + ",\n".join(lines) + "\n]\n"
