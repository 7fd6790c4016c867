"""Reading a file in the recordkit notation as the record readers read a JSON file."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from recordkit.notation import text_sources
from recordkit.raw import Source, unreadable_file


def notation_records(path: Path) -> Iterator[Source]:
    """Every record of a notation file, in order, read a chunk at a time within the reading
    limits (`text_sources`); a file that cannot be read is a diagnostic."""
    try:
        with path.open("rb") as handle:
            yield from text_sources(handle, str(path))
    except OSError as error:
        yield unreadable_file(path, error)
