"""Every record of the files, folders and archives named, with its place: JSON and JSON lines
(`recordkit.sources`), the notation (`recordkit.notation.files`) and archives (`recordkit.archive.read`).

Reading never raises on bad input: a file or record that cannot be read becomes a diagnostic with
its place, and the records after it are still read.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from recordkit.diagnostics import Diagnostic, Location, Severity
from recordkit.raw import RawLine, Source
from recordkit.sources import NOTATION_SUFFIXES, json_records, record_files


def raw_records(
    paths: Iterable[str | Path], parse: bool = True, skip: Path | None = None
) -> Iterator[Source]:
    """Every record of every file named (directories searched, archives read record by record),
    and every file-level problem. `skip` (an archive being written) is left out.

    With `parse` False the records come unparsed, for parsing in parallel."""
    for item in record_files(paths, skip):
        if isinstance(item, Diagnostic):
            yield item
        elif item.is_dir():
            yield from _archive_records(item, parse)
        else:
            yield from read_records(item, parse)


def _archive_records(archive: Path, parse: bool) -> Iterator[Source]:
    """The records of an archive, each as its canonical text, or why the archive is unreadable."""
    from recordkit.archive.manifest import ArchiveError  # the archive's modules load pyarrow
    from recordkit.archive.read import archive_records

    try:
        for game_id, text in archive_records(archive):
            raw = RawLine(text, Location(file=str(archive), record=game_id + 1))
            yield raw.parse() if parse else raw
    except ArchiveError as error:
        yield Diagnostic("ARCHIVE-UNREADABLE", Severity.ERROR, str(error), Location(file=str(archive)))


def read_records(path: Path, parse: bool = True) -> Iterator[Source]:
    """Every record of one file, in order, streamed: the notation's records by their text, JSON
    and JSON lines as `sources.json_records` reads them."""
    if path.suffix.lower() in NOTATION_SUFFIXES:
        from recordkit.notation.files import notation_records

        yield from notation_records(path)
        return
    yield from json_records(path, parse)
