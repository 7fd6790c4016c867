"""The recorder's journal: one JSON line per accepted step, on disk before the step returns.

The first line is a header naming the game; every later line is one entry (a deal dealt, an
action, an undo, an abandoned deal). Each line is flushed and fsync'ed as it is written, so a
crash loses at most the step that was being written, and that step never returned. A last line
cut short by a crash is dropped with a warning when the journal is read back (spec/RECORDER.md).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

import orjson

from recordkit.jsonread import BOM, MAX_RECORD_BYTES
from recordkit.recorder.shapes import entry_problem, header_problem

JOURNAL_NAME = "recordkit-journal"
JOURNAL_VERSION = 1


class JournalError(ValueError):
    """A journal that cannot be read back or written: the message says where and why."""


@dataclass(slots=True)
class Contents:
    """What a journal holds: its header, its entries in order, and warnings about what was read past."""

    header: dict[str, Any]
    entries: list[dict[str, Any]] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    """The line number of each entry, for messages about it."""
    warnings: list[str] = field(default_factory=list)
    """What was read past: a torn last line, a byte-order mark."""
    good_size: int = 0
    """Bytes up to the end of the last complete line (the rest is cut off before appending)."""


class Journal:
    """An open journal file that entries are appended to, each one durable when `append` returns."""

    def __init__(self, path: Path, handle: BinaryIO) -> None:
        self.path = path
        self._handle = handle

    @classmethod
    def create(cls, path: Path, header: dict[str, Any]) -> Journal:
        """A new journal starting with `header`; an existing file is never overwritten."""
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            handle = path.open("xb")
        except FileExistsError:
            raise JournalError(f"{path} already exists; resume from it or choose another journal") from None
        journal = cls(path, handle)
        journal.append({"journal": JOURNAL_NAME, "version": JOURNAL_VERSION, **header})
        _sync_directory(path.parent)
        return journal

    @classmethod
    def reopen(cls, path: Path, contents: Contents) -> Journal:
        """The journal opened for appending after `read`, with any torn last line cut off."""
        handle = path.open("r+b")
        handle.truncate(contents.good_size)
        if contents.good_size:
            handle.seek(contents.good_size - 1)
            if handle.read(1) != b"\n":  # a complete last entry whose line end was not written
                handle.write(b"\n")
        handle.seek(0, os.SEEK_END)
        return cls(path, handle)

    def append(self, entry: dict[str, Any]) -> None:
        """Write one entry as a line, and return only once it is on disk."""
        self._handle.write(orjson.dumps(entry) + b"\n")
        self._handle.flush()
        os.fsync(self._handle.fileno())

    def close(self) -> None:
        """Close the file (every entry is already on disk)."""
        self._handle.close()


JOURNAL_LIMIT = 8 * MAX_RECORD_BYTES
"""The largest journal read back: the actions of a record of the largest size, a line of some
hundred bytes each, with room to spare; a larger file is refused before it is read (bounded
memory, as for every other input)."""


def read(path: Path) -> Contents:
    """The header and entries of a journal; a torn last line is left out with a warning, and a
    byte-order mark at the start (a journal saved by an editor) skipped with one, as every
    reader of records skips it. A file over JOURNAL_LIMIT is refused unread."""
    try:
        with path.open("rb") as handle:
            content = handle.read(JOURNAL_LIMIT + 1)
    except OSError as error:
        raise JournalError(f"cannot read the journal {path}: {error.strerror}") from None
    if len(content) > JOURNAL_LIMIT:
        raise JournalError(
            f"{path} holds more than {JOURNAL_LIMIT:,} bytes, more than the journal of any record "
            "recordkit reads; it is not a journal recordkit wrote, or it is damaged"
        )
    start = len(BOM) if content.startswith(BOM) else 0
    lines = content[start:].split(b"\n")
    last_line = max((number for number, line in enumerate(lines, start=1) if line.strip()), default=0)
    contents: Contents | None = None
    offset = start
    for number, line in enumerate(lines, start=1):
        end = offset + len(line) + 1
        last = number == last_line
        if not line.strip():
            offset = end
            continue
        try:
            value = orjson.loads(line)
        except orjson.JSONDecodeError:
            if not last:
                raise JournalError(f"{path}, line {number}: not a journal entry (not JSON)") from None
            if contents is None:
                raise JournalError(f"{path}: the header line is cut short; nothing was recorded") from None
            contents.warnings.append(
                f"{path}, line {number}: the last entry was cut short (the recording stopped while writing "
                f"it) and is ignored"
            )
            break
        if contents is None:
            contents = Contents(_header(path, value))
            if start:
                contents.warnings.append(
                    f"{path}: the journal starts with a byte-order mark (as Notepad saves UTF-8); it is skipped"
                )
        else:
            problem = entry_problem(value)
            if problem is not None:
                raise JournalError(f"{path}, line {number}: {problem}")
            contents.entries.append(value)
            contents.lines.append(number)
        offset = end
        contents.good_size = min(end, len(content))
    if contents is None:
        raise JournalError(f"{path} is empty; it is not a recordkit journal")
    return contents


def _header(path: Path, value: Any) -> dict[str, Any]:
    """The header line, checked for the journal's name, a version this recordkit reads, and the
    shape of each field it gives (what they say is checked by the recorder it starts)."""
    if not isinstance(value, dict) or value.get("journal") != JOURNAL_NAME:
        raise JournalError(f"{path} is not a recordkit journal (its first line does not say so)")
    if value.get("version") != JOURNAL_VERSION:
        raise JournalError(
            f"{path} is a journal of version {value.get('version')!r}; this recordkit reads version "
            f"{JOURNAL_VERSION}"
        )
    problem = header_problem(value)
    if problem is not None:
        raise JournalError(f"{path}, line 1: the header does not start a game: {problem}")
    return value


def _sync_directory(folder: Path) -> None:
    """Make a new file's name durable too (POSIX); a no-op where directories cannot be opened."""
    try:
        handle = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(handle)
    finally:
        os.close(handle)
