"""JSON text to records within the reading limits (spec/FORMAT.md, Limits).

A `.json` file is read as a stream: a list of records element by element, each element parsed by
orjson on a window of the file, so memory is bounded by the largest record, not by the file.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Generator, Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO, Literal

import orjson

from recordkit.diagnostics import Diagnostic, Location, Severity
from recordkit.raw import MAX_NESTING, RawLine, RawRecord, Source, record_of

MAX_RECORD_BYTES = 8 * 1024 * 1024
"""The most JSON text one record may take: a line of a JSON-lines file, an element of a `.json`
list, or a `.json` file's one record. The largest real records take about 1.7 kB a deal, so this
holds some 5,000 deals; parsed, a record takes a few dozen times its text in memory."""
BOM = b"\xef\xbb\xbf"
"""The UTF-8 byte-order mark some editors (Notepad) write at the start of a file."""
CHUNK = 1 << 20
FIRST_WINDOW = 4096
"""The first window an element is parsed on; it grows fourfold until the element fits."""
CUT = "unexpected end of data"
"""orjson's message when the text stops inside a value: a window's cut, or a file cut short."""
TRAILING = "unexpected content after document"
"""orjson's message when a value ends before the text does: the end of a list's element."""
SPACE = b" \t\r\n"
STRUCTURE = re.compile(rb'["\[\]{},]')
IN_STRING = re.compile(rb'["\\]')


class Buffer:
    """A binary stream's bytes from `start` on, read in chunks as needed, with the line and
    column reached (for the places in diagnostics)."""

    def __init__(self, handle: BinaryIO) -> None:
        self.handle = handle
        self.data = b""
        self.start = 0
        self.eof = False
        self.offset = 0
        """The stream's offset of `data[0]`."""
        self.line = 1
        self.line_start = 0
        """The stream's offset where the current line starts."""

    def fill(self, size: int) -> int:
        """Buffer `size` bytes from `start` on (fewer at the end of the stream): how many there are."""
        while len(self.data) - self.start < size and not self.eof:
            chunk = self.handle.read(max(CHUNK, size - (len(self.data) - self.start)))
            if not chunk:
                self.eof = True
                break
            self.offset += self.start
            self.data = self.data[self.start :] + chunk
            self.start = 0
        return min(size, len(self.data) - self.start)

    def window(self, size: int) -> memoryview:
        """The next `size` bytes (fewer at the end of the stream), without copying them."""
        available = self.fill(size)
        return memoryview(self.data)[self.start : self.start + available]

    def peek(self) -> bytes:
        """The next byte, or b"" at the end of the stream."""
        return bytes(self.window(1))

    def advance(self, count: int) -> None:
        """Move on `count` bytes (all buffered), counting the lines passed."""
        end = self.start + count
        lines = self.data.count(b"\n", self.start, end)
        if lines:
            self.line += lines
            self.line_start = self.offset + self.data.rindex(b"\n", self.start, end) + 1
        self.start = end

    def skip_space(self) -> bool:
        """Move on past white space: True if something else follows, False at the end."""
        while True:
            rest = self.data[self.start :].lstrip(SPACE)
            self.advance(len(self.data) - self.start - len(rest))
            if rest:
                return True
            if not self.fill(1):
                return False

    def place(self, count: int) -> tuple[int, int]:
        """The line and column `count` bytes on (buffered)."""
        end = self.start + count
        lines = self.data.count(b"\n", self.start, end)
        if not lines:
            return self.line, self.offset + end - self.line_start + 1
        return self.line + lines, end - self.data.rindex(b"\n", self.start, end)

    def skip_value(self) -> bool:
        """Move on past one JSON value of any size without parsing it, up to the `,` or `]` that
        ends it in a list: True if one is found, False at the end of the stream."""
        depth, in_string, escaped = 0, False, False
        while self.fill(1):
            at = self.start
            if escaped:
                at, escaped = at + 1, False
            found = (IN_STRING if in_string else STRUCTURE).search(self.data, at)
            if found is None:
                self.advance(len(self.data) - self.start)
                continue
            byte = self.data[found.start()]
            if in_string:
                escaped = byte == ord("\\")
                in_string = escaped
            elif byte == ord('"'):
                in_string = True
            elif byte in b"[{":
                depth += 1
            elif depth == 0 and byte in b",]}":
                self.advance(found.start() - self.start)
                return True
            elif byte in b"]}":
                depth -= 1
            self.advance(min(found.end(), len(self.data)) - self.start)
        return False


@dataclass(frozen=True, slots=True)
class Scan:
    """What parsing the next value on growing windows found: a value of `size` bytes followed by
    more text, a value that ends the stream, a JSON error, or a value larger than the limit."""

    kind: Literal["value", "end", "error", "large"]
    size: int = 0
    error: orjson.JSONDecodeError | None = None


def scan_value(buffer: Buffer, limit: int = MAX_RECORD_BYTES) -> Scan:
    """Find where the next JSON value ends, with orjson on windows that grow until it fits."""
    size = FIRST_WINDOW
    while True:
        view = buffer.window(size)
        at_end = len(view) < size
        if not at_end:
            view = view[: _whole_characters(view)]
        try:
            orjson.loads(view)
        except orjson.JSONDecodeError as error:
            if error.msg == TRAILING:
                return Scan("value", error.pos)
            if at_end or error.msg != CUT:
                return Scan("error", error.pos, error)
        else:
            if at_end:
                return Scan("end", len(view))
        if size > limit:
            return Scan("large")
        size = min(size * 4, limit + 2)


def _whole_characters(view: memoryview) -> int:
    """The length of the window without a UTF-8 character its end cuts in two."""
    for back in range(1, min(4, len(view)) + 1):
        byte = view[-back]
        if byte < 0x80:
            return len(view)
        if byte >= 0xC0:
            needed = 2 if byte < 0xE0 else 3 if byte < 0xF0 else 4
            return len(view) if back >= needed else len(view) - back
    return len(view)


def json_file_records(handle: BinaryIO, file: str | None, parse: bool = True) -> Iterator[Source]:
    """The records of a `.json` text, one record or a list of them, streamed: each record within
    the limit (parsed, or as its text when `parse` is False), or why it cannot be read; a list is
    read up to its first JSON error, after which its structure is lost."""
    buffer = Buffer(handle)
    if buffer.window(len(BOM)) == BOM:
        buffer.advance(len(BOM))
        yield bom_warning(file)
    if not buffer.skip_space():
        yield Diagnostic("FILE-EMPTY", Severity.ERROR, "the file is empty", Location(file=file))
        return
    if buffer.peek() == b"[":
        buffer.advance(1)
        yield from _list_records(buffer, file, parse)
        return
    scan = scan_value(buffer)
    where = Location(file=file, line=1, record=1)
    if scan.kind == "large":
        yield too_large(where)
    elif scan.kind == "error":
        yield _bad_json(buffer, scan, where)
    else:
        text = bytes(buffer.window(scan.size))
        buffer.advance(scan.size)
        raw = RawLine(text, where)
        yield _after_end(buffer, file) or (raw.parse() if parse else raw)


def _list_records(buffer: Buffer, file: str | None, parse: bool) -> Iterator[Source]:
    """The elements of a list whose `[` has been read, a window of elements at a time, up to `]`."""
    index = 0
    while buffer.skip_space():
        if index == 0 and buffer.peek() == b"]":
            buffer.advance(1)
            yield from _optional(_after_end(buffer, file))
            return
        view, ends, deepest = _window_of_elements(buffer)
        if not len(ends) and len(view) <= MAX_RECORD_BYTES:
            yield _unended(buffer, view, Location(file=file, record=index + 1))
            return
        if not len(ends):
            index += 1
            yield too_large(Location(file=file, line=buffer.line, record=index))
            if not buffer.skip_value():
                break
        else:
            if not (yield from _elements(buffer, view, ends, file, index, parse, deepest)):
                return
            index += len(ends)
            buffer.advance(int(ends[-1]))
        separator = buffer.peek()
        buffer.advance(len(separator))
        if separator == b"]":
            yield from _optional(_after_end(buffer, file))
            return
        if separator != b",":
            line, column = buffer.line, buffer.offset + buffer.start - buffer.line_start
            where = Location(file=file, line=line, record=index)
            yield bad_json(f"line {line}, column {column}: a list's records are separated by commas", where)
            return
    yield truncated(Location(file=file, line=buffer.line, record=index + 1))


def _unended(buffer: Buffer, view: memoryview, where: Location) -> Diagnostic:
    """Why the file ends inside a list's element: cut short, or the JSON error orjson finds."""
    try:
        orjson.loads(view)
    except orjson.JSONDecodeError as error:
        if error.msg != CUT:
            line, column = buffer.place(error.pos)
            return bad_json(
                f"line {line}, column {column}: {error.msg.split(':')[0]}", replace_line(where, line)
            )
    return truncated(replace_line(where, buffer.place(len(view))[0]))


def _window_of_elements(buffer: Buffer) -> tuple[memoryview, Any, int]:
    """The next window of the list from an element's start, and the offsets of the `,` or `]`
    that end each element in it: a window grown fourfold (up to just over the limit) until one
    element ends in it or the file does."""
    size = CHUNK
    while True:
        view = buffer.window(size)
        ends, deepest = element_ends(view)
        if len(ends) or len(view) < size or size > MAX_RECORD_BYTES:
            return view, ends, deepest
        size = min(size * 4, MAX_RECORD_BYTES + 2)


def _elements(
    buffer: Buffer, view: memoryview, ends: Any, file: str | None, index: int, parse: bool, deepest: int
) -> Generator[Source, None, bool]:
    """The elements of a window, parsed by orjson as one list; if that fails, each on its own, up
    to the first that is not JSON (reported at its line and column: False is returned then).
    Their nesting is checked only if the window's `deepest` is over the limit."""
    stops: list[int] = ends.tolist()
    starts = [0, *(stop + 1 for stop in stops[:-1])]
    values: Any = None
    with contextlib.suppress(orjson.JSONDecodeError):
        values = orjson.loads(b"[" + view[: stops[-1]].tobytes() + b"]")
    if parse and len(view) <= MAX_RECORD_BYTES and values is not None and len(values) == len(stops):
        read = record_of if deepest > MAX_NESTING else RawRecord
        for number, value in enumerate(values, start=index + 1):
            yield read(value, Location(file=file, record=number))
        return True
    for number, (start, stop) in enumerate(zip(starts, stops, strict=True), start=index + 1):
        where = Location(file=file, record=number)
        text = view[start:stop].tobytes()
        if stop - start > MAX_RECORD_BYTES:
            yield too_large(replace_line(where, buffer.place(start)[0]))
            continue
        if values is not None:
            yield RawLine(text, where)
            continue
        try:
            value = orjson.loads(text)
        except orjson.JSONDecodeError as error:
            line, column = buffer.place(start + error.pos)
            reason = error.msg.split(":")[0] if text.strip() else "no record between two commas"
            yield bad_json(f"line {line}, column {column}: {reason}", replace_line(where, line))
            return False
        yield record_of(value, where) if parse else RawLine(text, where)
    return True


def element_ends(view: memoryview) -> tuple[Any, int]:
    """The offsets of the `,` and the `]` that end the list's elements in a window that starts at
    an element's start (the commas outside strings and brackets, up to the list's `]`), and the
    deepest nesting of those elements. Computed
    on every byte at once with NumPy, so that a list of tiny records reads at orjson's speed."""
    import numpy as np  # loaded only to read a list of records

    text = np.frombuffer(view, dtype=np.uint8)
    quotes = text == ord('"')
    backslashes = text == ord("\\")
    if backslashes.any():
        positions = np.arange(len(text))
        last_plain = np.maximum.accumulate(np.where(backslashes, -1, positions))
        at = np.flatnonzero(quotes)
        before = np.maximum(at - 1, 0)
        escapes = np.where(at > 0, before - last_plain[before], 0)
        quotes[at[escapes % 2 == 1]] = False
    inside = np.bitwise_xor.accumulate(quotes.view(np.uint8)).view(bool)
    step = np.zeros(256, dtype=np.int8)
    step[[ord("["), ord("{")]], step[[ord("]"), ord("}")]] = 1, -1
    steps = step[text]
    steps[inside] = 0
    depth = np.cumsum(steps, dtype=np.int32)
    closing = steps == -1
    ends = np.flatnonzero(((text == ord(",")) & (depth == 0) & ~inside) | (closing & (depth == -1)))
    last = np.flatnonzero(closing[ends] & (depth[ends] == -1))
    ends = ends[: int(last[0]) + 1] if len(last) else ends
    return ends, int(depth[: int(ends[-1])].max(initial=0)) if len(ends) else 0


def _optional(problem: Diagnostic | None) -> Iterator[Diagnostic]:
    """The problem, if any, as items to yield."""
    if problem is not None:
        yield problem


def _after_end(buffer: Buffer, file: str | None) -> Diagnostic | None:
    """RECORD-BAD-JSON if anything but white space follows the end of the file's JSON value."""
    if not buffer.skip_space():
        return None
    line, column = buffer.place(0)
    return bad_json(f"line {line}, column {column}: {TRAILING}", Location(file=file, line=line))


def _bad_json(buffer: Buffer, scan: Scan, where: Location, in_list: bool = False) -> Diagnostic:
    """The JSON error a scan found, at its line and column in the file: RECORD-TRUNCATED when the
    text stops inside the value, RECORD-BAD-JSON otherwise."""
    assert scan.error is not None
    line, column = buffer.place(scan.size)
    rest = buffer.data[buffer.start :].rstrip() if buffer.eof else b""
    if scan.size >= len(rest) - 1 and rest and (in_list or rest[:1] in (b"{", b"[")):
        return truncated(replace_line(where, line))
    reason = scan.error.msg.split(":")[0]
    return bad_json(f"line {line}, column {column}: {reason}", replace_line(where, line))


def replace_line(where: Location, line: int) -> Location:
    """The same place at another line."""
    return Location(file=where.file, line=line, record=where.record)


def bad_json(place: str, where: Location) -> Diagnostic:
    """RECORD-BAD-JSON at `place` (its line and column as words)."""
    return Diagnostic(
        "RECORD-BAD-JSON", Severity.ERROR, f"not valid JSON at {place}", where, rule="format.json"
    )


def truncated(where: Location) -> Diagnostic:
    """RECORD-TRUNCATED: the text stops in the middle of a record."""
    return Diagnostic(
        "RECORD-TRUNCATED",
        Severity.ERROR,
        "the record stops before its end: the file was cut short",
        where,
        rule="format.json",
    )


def too_large(where: Location) -> Diagnostic:
    """RECORD-TOO-LARGE: a record's text over the limit, refused before it is parsed."""
    return Diagnostic(
        "RECORD-TOO-LARGE",
        Severity.ERROR,
        f"the record takes more than {MAX_RECORD_BYTES // (1024 * 1024)} MB of text, the most "
        "recordkit reads as one record; it is not read",
        where,
        rule="format.limits",
    )


def bom_warning(file: str | None) -> Diagnostic:
    """FILE-BOM: the file starts with a byte-order mark, which is skipped."""
    return Diagnostic(
        "FILE-BOM",
        Severity.WARNING,
        "the file starts with a byte-order mark (as Notepad saves UTF-8); it is skipped",
        Location(file=file, line=1),
        rule="format.json",
    )
