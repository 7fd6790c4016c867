"""Reading records from JSON and JSON-lines files, finding the record files of folders, and writing
files atomically (`recordkit.reading` reads every kind of input: the notation and archives too).

Reading never raises on bad input: a file or line that is not JSON becomes a diagnostic with its
place, and the records after it are still read.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from recordkit.diagnostics import Diagnostic, Location, Severity
from recordkit.jsonread import BOM, CHUNK, MAX_RECORD_BYTES, bom_warning, json_file_records, too_large
from recordkit.raw import RawLine, RawRecord, Source, json_error, parsed, unreadable_file

MANIFEST = "_recordkit.json"
"""An archive's manifest (recordkit.archive.store.MANIFEST): its folder is an archive."""
JSONL_SUFFIXES = (".jsonl", ".ndjson")
NOTATION_SUFFIXES = (".rkn",)
"""Text in the recordkit notation (recordkit.notation.NOTATION_SUFFIXES)."""
RECORD_SUFFIXES = (".json", *JSONL_SUFFIXES, *NOTATION_SUFFIXES)


def record_files(paths: Iterable[str | Path], skip: Path | None = None) -> Iterator[Path | Diagnostic]:
    """The record files and archives named, directories searched recursively (sorted; an archive
    found is given as its folder, not searched), or why one is unusable. `skip` is left out."""
    for name in paths:
        path = Path(name)
        if path.is_dir():
            yield from _folder(path, skip)
        elif path.is_file():
            yield path
        else:
            yield Diagnostic(
                "FILE-UNREADABLE", Severity.ERROR, "no such file or directory", Location(file=str(path))
            )


def _folder(folder: Path, skip: Path | None) -> list[Path]:
    """The record files and archives below a folder, in sorted order; the folder itself if it is
    an archive."""
    if is_archive_folder(folder):
        return [folder]
    found = sorted(p for p in folder.rglob("*") if p.name == MANIFEST or p.suffix.lower() in RECORD_SUFFIXES)
    archives = [p.parent for p in found if p.name == MANIFEST and p.is_file()]
    skipped = [skip.resolve()] if skip is not None else []
    in_archives = [archive.resolve() for archive in archives] + skipped
    files = [p for p in found if p.is_file() and p.name != MANIFEST and not _below(p, in_archives)]
    return sorted([*files, *(archive for archive in archives if not _below(archive, skipped))])


def _below(path: Path, folders: list[Path]) -> bool:
    """True when `path` is in one of `folders` (or is one)."""
    resolved = path.resolve()
    return any(resolved.is_relative_to(folder) for folder in folders)


def is_archive_folder(path: Path) -> bool:
    """True for a folder with an archive's manifest (recordkit.archive.store.is_archive, without
    loading the archive's modules)."""
    return (path / MANIFEST).is_file()


def json_records(path: Path, parse: bool = True) -> Iterator[Source]:
    """Every record of one JSON or JSON-lines file, in order, streamed: JSON lines line by line, a
    `.json` list record by record; a record's text over the limit is refused before it is parsed."""
    try:
        with path.open("rb") as handle:
            if path.suffix.lower() in JSONL_SUFFIXES:
                yield from jsonl_records(handle, str(path), parse)
            else:
                yield from json_file_records(handle, str(path), parse)
    except OSError as error:
        yield unreadable_file(path, error)


def jsonl_records(handle: BinaryIO, file: str | None, parse: bool = True) -> Iterator[Source]:
    """The records of a JSON-lines text, one a line; a line over the limit is refused (and read
    on to its end in chunks), the lines after it are still read."""
    record = 0
    for number, line in enumerate(_lines(handle), start=1):
        if line is None:
            record += 1
            yield too_large(Location(file=file, line=number, record=record))
            continue
        if number == 1 and line.startswith(BOM):
            yield bom_warning(file)
            line = line[len(BOM) :]
        if not line.strip():
            continue
        record += 1
        raw = RawLine(line, Location(file=file, line=number, record=record))
        yield raw.parse() if parse else raw


def _lines(handle: BinaryIO) -> Iterator[bytes | None]:
    """The lines of a stream, each read whole only within the limit: a longer one is read on to
    its end in chunks and given as None."""
    while line := handle.readline(MAX_RECORD_BYTES + 1):
        if len(line) <= MAX_RECORD_BYTES or line.endswith(b"\n"):
            yield line
            continue
        while (rest := handle.readline(CHUNK)) and not rest.endswith(b"\n"):
            pass
        yield None


@contextmanager
def atomic_output(path: Path) -> Iterator[BinaryIO]:
    """A file to stream into that appears at `path` only once complete (never half-written)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(handle, _usual_mode(path))
        with os.fdopen(handle, "wb") as out:
            yield out
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _usual_mode(path: Path) -> int:
    """The mode a file written in place would have: the old file's, else 0666 less the umask
    (mkstemp's temporary file has 0600)."""
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def write_atomic(path: Path, data: bytes) -> None:
    """Write a file so that readers see the old content or the new, never half of it."""
    with atomic_output(path) as out:
        out.write(data)


__all__ = [
    "JSONL_SUFFIXES",
    "MANIFEST",
    "NOTATION_SUFFIXES",
    "RECORD_SUFFIXES",
    "RawLine",
    "RawRecord",
    "Source",
    "atomic_output",
    "json_error",
    "json_records",
    "parsed",
    "record_files",
    "write_atomic",
]
