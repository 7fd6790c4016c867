"""Splitting a line of the recordkit notation into its tokens (spec/NOTATION.md, "Lines").

A token is a bare word, a quoted string (JSON's string syntax), a comma, or, after `=`, one JSON
value to the end of the line. `#` outside a string starts a remark that runs to the end of the line.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

_DECODER = json.JSONDecoder()
_SPECIAL = re.compile(r'["#=,\[\t;]')
"""A mark that only the token-by-token path reads."""
_NEXT = re.compile(
    r'[ \t\r\n\ufeff]*(?:(?P<word>[^ \t\r\n",;#=]+)|(?P<comma>[,;])|(?P<quote>")|(?P<json>=)|#)?'
)
"""Spaces, then the next token's start: a bare word, a separator, a quote, `=`, or `#` (a remark)."""


class Quoted(str):
    """A token written in quotes: always text, never a keyword or a number."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Json:
    """The JSON value written after `=`, with the column where it starts."""

    value: Any


COMMA = ","
"""The token of a comma between cards or calls (a comma inside quotes is text)."""


class LexError(ValueError):
    """A line that cannot be split into tokens; `column` is where reading stopped (1-based)."""

    def __init__(self, message: str, column: int) -> None:
        self.column = column
        super().__init__(message)


def plain(line: str) -> bool:
    """True when a line is only bare words separated by spaces: the fast path, `str.split`."""
    return _SPECIAL.search(line) is None


def tokens(line: str) -> tuple[list[str | Json], list[int]]:
    """The tokens of a line and the 1-based column of each; LexError where a string or JSON value
    cannot be read."""
    if plain(line):
        words: list[str | Json] = list(line.split())
        return words, _columns(line, words)
    out: list[str | Json] = []
    columns: list[int] = []
    index = 0
    while True:
        found = _NEXT.match(line, index)
        assert found is not None  # the token is optional: it matches, if only the spaces
        mark = found.lastgroup
        if mark is None:  # the end of the line, or a remark
            break
        start, index = found.start(mark), found.end()
        if mark == "word":
            out.append(found.group(mark))
        elif mark == "comma":
            out.append(COMMA)
        elif mark == "quote":
            text, index = _string(line, start)
            out.append(Quoted(text))
        else:
            value, index = _json(line, index)
            out.append(Json(value))
            columns.append(index + 1)
            rest = line[index:].strip()
            if rest and not rest.startswith("#"):
                raise LexError("the line goes on after the JSON value that follows '='", index + 1)
            break
        columns.append(start + 1)
    return out, columns


def _columns(line: str, words: list[str | Json]) -> list[int]:
    """The 1-based column of each word of a line split on spaces."""
    columns = []
    index = 0
    for word in words:
        assert isinstance(word, str)
        index = line.index(word, index)
        columns.append(index + 1)
        index += len(word)
    return columns


def _string(line: str, start: int) -> tuple[str, int]:
    """The quoted string starting at `start` and the index after it."""
    try:
        value, end = _DECODER.raw_decode(line, start)
    except json.JSONDecodeError:
        raise LexError(
            "a quoted text is not closed on its line (or has a bad \\ escape)", start + 1
        ) from None
    return value, end


def _json(line: str, start: int) -> tuple[Any, int]:
    """The JSON value after `=` (spaces before it skipped) and the index after it."""
    index = start
    while index < len(line) and line[index] in " \t":
        index += 1
    try:
        return _DECODER.raw_decode(line, index)
    except json.JSONDecodeError as error:
        raise LexError(
            f"not a JSON value after '=': {error.msg.split(':')[0].lower()}", error.pos + 1
        ) from None
