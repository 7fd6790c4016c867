"""Splitting a line of the recordkit notation into its tokens (spec/NOTATION.md, "Lines").

A token is a bare word, a quoted string (JSON's string syntax), a comma, or, after `=`, one JSON
value to the end of the line. `#` outside a string starts a remark that runs to the end of the line.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from recordkit.raw import MAX_NESTING

_DECODER = json.JSONDecoder()
_SPECIAL = re.compile(r'["#=,\[\t;]')
"""A mark that only the token-by-token path reads."""
_NEXT = re.compile(
    r'[ \t\r\n\ufeff]*(?:(?P<word>[^ \t\r\n",;#=]+)|(?P<comma>[,;])|(?P<quote>")|(?P<json>=)|#)?'
)
"""Spaces, then the next token's start: a bare word, a separator, a quote, `=`, or `#` (a remark)."""
_NESTING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}]')
"""In a JSON value: a string (to the end of the line if not closed), or a bracket."""


class Quoted(str):
    """A token written in quotes: always text, never a keyword or a number."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Json:
    """The JSON value written after `=`: the value, how many levels of lists and objects it nests,
    and the column where it starts."""

    value: Any
    depth: int
    column: int


COMMA = ","
"""The token of a comma between cards or calls (a comma inside quotes is text)."""


def is_comma(token: object) -> bool:
    """Whether a token is the comma between cards or calls, not a quoted text that is one."""
    return type(token) is str and token == COMMA


class LexError(ValueError):
    """A line that cannot be split into tokens; `column` is where reading stopped (1-based)."""

    def __init__(self, message: str, column: int) -> None:
        self.column = column
        super().__init__(message)


class TooDeepError(LexError):
    """A JSON value after `=` nesting lists and objects deeper than a record may (RECORD-TOO-DEEP):
    refused before it is decoded, which would recurse once a level."""


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
            value, depth, begin, index = _json(line, index)
            out.append(Json(value, depth, begin + 1))
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


def _json(line: str, start: int) -> tuple[Any, int, int, int]:
    """The JSON value after `=` (spaces before it skipped), its depth, the index where it starts
    and the index after it."""
    index = start
    while index < len(line) and line[index] in " \t":
        index += 1
    depth = _depth(line, index)
    try:
        value, end = _DECODER.raw_decode(line, index)
    except json.JSONDecodeError as error:
        raise LexError(
            f"not a JSON value after '=': {error.msg.split(':')[0].lower()}", error.pos + 1
        ) from None
    except ValueError:  # int() reads at most 4,300 digits (sys.get_int_max_str_digits)
        raise LexError("not a JSON value after '=': a number has too many digits", index + 1) from None
    return value, depth, index, end


def _depth(line: str, start: int) -> int:
    """How deep the lists and objects of the JSON value at `start` nest, found without decoding
    it; TooDeepError past MAX_NESTING."""
    if line[start : start + 1] not in ("[", "{"):
        return 0
    depth = deepest = 0
    for mark in _NESTING.finditer(line, start):
        bracket = mark.group()
        if bracket in ("[", "{"):
            depth += 1
            if depth > MAX_NESTING:
                raise TooDeepError(f"lists and objects nest more than {MAX_NESTING} levels", start + 1)
            deepest = max(deepest, depth)
        elif bracket in ("]", "}"):
            depth -= 1
            if depth == 0:
                break
    return deepest
