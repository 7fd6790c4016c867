"""The lines of a notation text as the reader takes them (spec/NOTATION.md, "Lines").

A line ends at `\\n`, `\\r\\n` or `\\r` and nowhere else: U+2028, U+2029 and U+0085 are text (a
name or a comment may hold them), as JSON has them. A stream is read a chunk at a time and no line
is held longer than the reading limit (`MAX_RECORD_BYTES`): a longer one is read on to its end in
chunks and given as an `Unreadable` line, as a line that is not UTF-8 is.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO

from recordkit.jsonread import BOM, CHUNK, MAX_RECORD_BYTES

BATCH = 4096
"""Lines of a text that is not ASCII given at a time (its size is counted a batch at a time)."""
HEAD = 1024
"""Bytes of a line too long to read that are kept: where it starts says whether it is a tag line."""
UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
"""The byte-order marks a UTF-16 text starts with (Windows' "Unicode" files)."""


@dataclass(frozen=True, slots=True)
class Lines:
    """Consecutive lines without their line breaks, and the bytes of UTF-8 they take (their breaks
    counted as one byte each)."""

    texts: list[str]
    size: int
    ascii: bool

    def size_of(self, start: int, stop: int) -> int:
        """The bytes that lines `start` to `stop` take."""
        if start == 0 and stop == len(self.texts):
            return self.size
        part = self.texts[start:stop]
        if self.ascii:
            return sum(map(len, part)) + len(part)
        return len("\n".join(part).encode("utf-8", "surrogatepass")) + 1 if part else 0


@dataclass(frozen=True, slots=True)
class Unreadable:
    """One line that is not read: longer than the limit (`column` None; `text` is its start), or
    not UTF-8 (`text` read with the bad bytes replaced, `column` the byte of the first of them,
    from 1); `utf16` for a whole text in UTF-16, given as one line."""

    text: str
    size: int
    column: int | None = None
    utf16: bool = False


Piece = Lines | Unreadable


def text_pieces(text: str) -> Iterator[Lines]:
    """The lines of a text (a byte-order mark at its start skipped): in one piece if it is ASCII,
    else a batch at a time (each batch's size counted on its own UTF-8)."""
    text = text.removeprefix("\ufeff")
    lines = _one_break(text).split("\n")
    if text.isascii():
        yield Lines(lines, len(text) + 1, True)
        return
    for start in range(0, len(lines), BATCH):
        batch = lines[start : start + BATCH]
        yield Lines(batch, len("".join(batch).encode("utf-8", "surrogatepass")) + len(batch), False)


def _one_break(text: str) -> str:
    """A text with each `\\r\\n` and `\\r` written `\\n`: its lines are what `split("\\n")`
    gives (`str.splitlines` would split at more)."""
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def byte_pieces(handle: BinaryIO) -> Iterator[Piece]:
    """The lines of a binary stream of UTF-8 (a byte-order mark at its start skipped), a chunk at a
    time; a line longer than the limit is read on to its end in chunks and given as Unreadable, as
    is a text in UTF-16 (read on to its end)."""
    rest = handle.read(CHUNK)
    while len(rest) < len(BOM) and (more := handle.read(CHUNK)):  # a mark the first chunk cuts
        rest += more
    if rest.startswith(UTF16_BOMS):
        size = len(rest)
        while chunk := handle.read(CHUNK):
            size += len(chunk)
        yield Unreadable("", size, 1, utf16=True)
        return
    rest = rest.removeprefix(BOM)
    carriage = False
    """The last block ended with `\\r`: a `\\n` at the start of the next is the same line break."""
    while True:
        chunk = handle.read(CHUNK)
        data = rest + chunk if rest else chunk
        if carriage and data[:1] == b"\n":
            data = data[1:]
        carriage = False
        if len(data) > MAX_RECORD_BYTES and _first_break(data) not in range(MAX_RECORD_BYTES):
            rest, carriage, size = _past_line(data, handle)
            yield Unreadable(data[:HEAD].decode(errors="replace"), size)
            continue
        cut = max(data.rfind(b"\n"), data.rfind(b"\r"))
        if cut < 0:
            if chunk:
                rest = data
                continue
            if data:
                yield from _decoded(data, ended=False)
            return
        yield from _decoded(data[: cut + 1], ended=True)
        rest = data[cut + 1 :]
        carriage = cut == len(data) - 1 and data[cut] == ord("\r")


def _first_break(data: bytes) -> int:
    """Where the first line break of a block is, or -1."""
    ends = [at for at in (data.find(b"\n"), data.find(b"\r")) if at >= 0]
    return min(ends, default=-1)


def _past_line(data: bytes, handle: BinaryIO) -> tuple[bytes, bool, int]:
    """Move past a line longer than the limit that starts a block, reading on to its end in
    chunks if the block does not hold it: what follows its line break, whether that break was a
    `\\r` that ended the bytes read (a `\\n` may follow), and how many bytes the line took."""
    size = 0
    while (at := _first_break(data)) < 0:
        size += len(data)
        data = handle.read(CHUNK)
        if not data:
            return b"", False, size
    end = at + (2 if data[at : at + 2] == b"\r\n" else 1)
    return data[end:], end == len(data) and data[at] == ord("\r"), size + end


def _decoded(block: bytes, ended: bool) -> Iterator[Piece]:
    """The lines of a block of whole lines (`ended`: it ends with a line break); each line that is
    not UTF-8 as Unreadable, at the first byte that is not."""
    try:
        text = block.decode()
    except UnicodeDecodeError:
        yield from _checked(block.splitlines())
        return
    lines = _one_break(text).split("\n")
    if ended:
        lines.pop()
    yield Lines(lines, len(block) + (not ended), text.isascii())


def _checked(lines: list[bytes]) -> Iterator[Piece]:
    """Lines read one by one: the UTF-8 ones together, each other one as Unreadable."""
    good: list[str] = []
    size = 0
    for line in lines:
        try:
            good.append(line.decode())
            size += len(line) + 1
            continue
        except UnicodeDecodeError as error:
            column = error.start + 1
        if good:
            yield Lines(good, size, False)
            good, size = [], 0
        yield Unreadable(line.decode(errors="replace"), len(line) + 1, column)
    if good:
        yield Lines(good, size, False)
