"""The recordkit notation: records as plain text people type and read (spec/NOTATION.md).

`read_text` gives each record of a text as the JSON data the record format holds, with where
each part was written; `write_text` gives a record's canonical text; `text_sources` and
`located` join them to the readers and the validator.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import replace
from typing import Any, BinaryIO

from recordkit.diagnostics import Diagnostic, Location, Severity
from recordkit.notation.read import NORMALISED, TextRecord, read_pieces, read_text
from recordkit.notation.stream import Piece, byte_pieces, text_pieces
from recordkit.notation.write import write_text
from recordkit.raw import RawRecord, Source

NOTATION_SUFFIXES = (".rkn",)
"""The file extension of the notation: recordkit notation."""


def text_sources(text: str | bytes | BinaryIO, file: str | None) -> Iterator[Source]:
    """Every record of a notation text (a text, its UTF-8 bytes, or a binary stream of them) as
    the readers give records: its JSON data, with the record's place (first line) and the reader's
    places and findings; a record refused (over the limits, or not UTF-8) as why, as JSON's is."""
    pieces: Iterator[Piece]
    if isinstance(text, str):
        pieces = text_pieces(text)
    else:
        pieces = byte_pieces(io.BytesIO(text) if isinstance(text, bytes) else text)
    for number, item in enumerate(read_pieces(pieces, file), start=1):
        if item.refused is not None:
            yield item.refused
            continue
        yield RawRecord(
            item.data,
            Location(file=file, line=item.line, record=number),
            places=item.places,
            notes=tuple(item.notes),
        )


def located(raw: RawRecord, diagnostics: list[Diagnostic], strict: bool) -> list[Diagnostic]:
    """The reader's findings, then the validator's, each pointed at the line and column of the
    part of the text it is about; a tolerant spelling is a warning in lenient validation and a
    note in strict validation (it is read, not wrong)."""
    places = raw.places or {}
    notes = [replace(n, severity=Severity.INFO) if strict and n.code == NORMALISED else n for n in raw.notes]
    return notes + [_at_text(d, places) for d in diagnostics]


def _at_text(diagnostic: Diagnostic, places: dict[str, tuple[int, int]]) -> Diagnostic:
    """A diagnostic with the line and column of the nearest written part of its JSON path."""
    where = diagnostic.location
    path = where.path or (f"deals[{where.deal - 1}]" if where.deal is not None else "")
    while path:
        if path in places:
            line, column = places[path]
            return replace(diagnostic, location=replace(where, line=line, column=column))
        path = path[: max(path.rfind("."), path.rfind("["), 0)]
    return diagnostic


def looks_like_text(content: bytes) -> bool:
    """True when a text is in the notation rather than JSON: its first non-blank character is
    not `{` (a tag line starts with `[`, but a JSON list with `[{` or `[]`)."""
    head = content.lstrip(b" \t\r\n")
    if head[:1] == b"{":
        return False
    if head[:1] == b"[":
        return head[1:].lstrip(b" \t\r\n")[:1] not in (b"{", b"]", b"")
    return True


def default_options(game: str) -> dict[str, Any]:
    """A game's options at their defaults, as canonical JSON writes them (left out of the text)."""
    from recordkit.games import ruleset_for

    ruleset = ruleset_for(game)
    return {} if ruleset is None else ruleset.Options().model_dump(mode="json", exclude_none=True)


__all__ = [
    "NOTATION_SUFFIXES",
    "TextRecord",
    "default_options",
    "located",
    "looks_like_text",
    "read_text",
    "text_sources",
    "write_text",
]
