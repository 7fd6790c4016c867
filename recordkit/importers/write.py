"""Imported records written where `convert` writes: a `.json` or `.jsonl` file, or an archive
folder for any other name (spec/IMPORT.md)."""

from __future__ import annotations

import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from recordkit.diagnostics import Diagnostic, Location, Severity
from recordkit.raw import RawRecord
from recordkit.sources import JSONL_SUFFIXES, record_files, write_atomic

LOG_SUFFIXES = (".json",)
"""What a log file is called: TarotClub writes JSON objects."""


def log_files(paths: Iterable[str]) -> Iterator[Path | Diagnostic]:
    """The log files named, directories searched for `.json` files (sorted), or why a path is
    not there."""
    for item in record_files(paths):
        if isinstance(item, Diagnostic) or item.is_file():
            yield item
        else:
            yield Diagnostic(
                "FILE-UNREADABLE",
                Severity.ERROR,
                "a recordkit archive is not a TarotClub log",
                Location(file=str(item)),
            )


def is_file_output(output: Path) -> bool:
    """Whether `convert` writes records to this name as a file (`.json`, `.jsonl`), not an archive."""
    return output.suffix.lower() in (".json", *JSONL_SUFFIXES)


class WriteError(Exception):
    """The output cannot be written (an archive already there, say): the reason, in plain words."""


@dataclass(slots=True)
class Written:
    """What an import wrote: the records and deals, and the records an archive left out."""

    records: int = 0
    deals: int = 0
    skipped: list[Diagnostic] = field(default_factory=list)


def write_records(records: list[RawRecord], output: Path, keep_invalid: bool = False) -> Written:
    """Write imported records to `output`: a `.json` file (the record, or a list of them), a
    `.jsonl` file (one a line), or an archive folder (through `convert`'s `to_archive`, which
    takes only the records that validate unless `keep_invalid`)."""
    data = [record.data for record in records]
    deals = sum(len(record["deals"]) for record in data)
    suffix = output.suffix.lower()
    if suffix in JSONL_SUFFIXES:
        write_atomic(output, b"".join(orjson.dumps(record) + b"\n" for record in data))
        return Written(len(data), deals)
    if suffix == ".json":
        write_atomic(output, orjson.dumps(data[0] if len(data) == 1 else data, option=orjson.OPT_INDENT_2))
        return Written(len(data), deals)
    return _archive(data, output, keep_invalid)


def _archive(data: list[dict[str, Any]], output: Path, keep_invalid: bool) -> Written:
    """The records as an archive, through a JSON-lines file of them (`to_archive` reads files)."""
    from recordkit.archive import ArchiveError  # pyarrow: archives only
    from recordkit.convert.archive import to_archive

    with tempfile.TemporaryDirectory() as folder:
        lines = Path(folder) / "imported.jsonl"
        lines.write_bytes(b"".join(orjson.dumps(record) + b"\n" for record in data))
        try:
            report = to_archive([str(lines)], output, valid_only=not keep_invalid)
        except ArchiveError as error:
            raise WriteError(str(error)) from None
    return Written(report.records, report.deals, report.skipped)
