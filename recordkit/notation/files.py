"""Reading a file in the recordkit notation as the record readers read a JSON file."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from recordkit.diagnostics import Diagnostic, Location, Severity
from recordkit.notation.read import read_text
from recordkit.raw import RawRecord, Source, unreadable_file


def notation_records(path: Path) -> Iterator[Source]:
    """Every record of a notation file, in order, read line by line; a file that is not UTF-8
    text, or cannot be read, is a diagnostic."""
    try:
        with path.open(encoding="utf-8-sig", newline=None) as handle:
            for number, item in enumerate(read_text(handle, str(path)), start=1):
                where = Location(file=str(path), line=item.line, record=number)
                yield RawRecord(item.data, where, places=item.places, notes=tuple(item.notes))
    except UnicodeDecodeError as error:
        yield Diagnostic(
            "NOTATION-SYNTAX",
            Severity.ERROR,
            f"the file is not UTF-8 text (byte {error.start + 1} of a line cannot be read)",
            Location(file=str(path)),
            rule="notation.syntax",
        )
    except OSError as error:
        yield unreadable_file(path, error)
