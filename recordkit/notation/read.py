"""Reading the recordkit notation (spec/NOTATION.md) into the data a JSON record holds.

The reader turns each record of a text into the same JSON value `orjson.loads` gives for the
record written as JSON, so that every check of `validate_record` applies unchanged, and keeps
where each part was written (`places`: JSON path -> line, column) so that a diagnostic of a
text file points at its line and column. A line it cannot read is a NOTATION-* diagnostic and
the rest is still read; what it read in a tolerant spelling is a NOTATION-NORMALISED note.

What is read is bounded as JSON is (spec/FORMAT.md, "Limits"): a record whose text is over
`MAX_RECORD_BYTES`, or holds bytes that are not UTF-8, is refused before it is parsed, and a JSON
value after `=` nesting past `MAX_NESTING` refuses its record, each with the JSON readers' code.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from itertools import chain
from typing import Any

from recordkit.cards import ascii_lower, ascii_upper
from recordkit.diagnostics import Diagnostic, Location, Severity
from recordkit.jsonread import MAX_RECORD_BYTES, too_large
from recordkit.model import FORMAT_NAME, FORMAT_VERSION
from recordkit.notation.keys import REST_OF_LINE, STRUCTURE, Kind, canonical_codes, keywords
from recordkit.notation.lex import Json, LexError, Quoted, TooDeepError, is_comma, plain, tokens
from recordkit.notation.stream import Lines, Piece, Unreadable, text_pieces
from recordkit.raw import MAX_NESTING, nesting_error

NORMALISED = "NOTATION-NORMALISED"
DIGITS = 4300
"""The most digits of a whole number read (`int` reads no more: sys.int_info.default_max_str_digits)."""
_NUMBER = re.compile(rf"-?[0-9]{{1,{DIGITS}}}(\.[0-9]+)?")
_INTEGERS = re.compile(rf"(-?[0-9]{{1,{DIGITS}}} )*-?[0-9]{{1,{DIGITS}}}")
"""Whole numbers written as the canonical form writes them, one space apart."""
SHOWN = 40
"""The most characters of a word a message quotes."""
_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}
_TAROT_TEN = re.compile(r"([SHDC])T")
_RESERVED_TAGS = frozenset({"game", "format", "version", "players", "option", "comment", "meta"})
Where = tuple[int, int]
"""A line and a column, from 1."""


class Places(dict[str, Where]):
    """Where each JSON path of a record was written. The items of a deal's tricks and hands, the
    most numerous parts, are kept in a list a list (`deals[2].tricks` -> the place of each trick in
    order; a line number alone for column 1) and looked up by path like the rest:
    `"deals[2].tricks[5]" in places`, `places["deals[2].tricks[5]"]`."""

    def __init__(self) -> None:
        super().__init__()
        self.items_of: dict[str, list[Where | int | None]] = {}

    def listed(self, path: str, length: int) -> list[Where | int | None]:
        """The places of the items of the list at `path`, at least `length` of them (None where
        an item was not written on a line of its own)."""
        found = self.items_of.setdefault(path, [])
        if len(found) < length:
            found.extend([None] * (length - len(found)))
        return found

    def _item(self, path: str) -> Where | None:
        """The place of `path` when it is an item of a listed list."""
        head, _, index = path.rpartition("[")
        found = self.items_of.get(head)
        if found is None or not _counted(index[:-1]) or int(index[:-1]) >= len(found):
            return None
        where = found[int(index[:-1])]
        return (where, 1) if isinstance(where, int) else where

    def __contains__(self, path: object) -> bool:
        return super().__contains__(path) or (isinstance(path, str) and self._item(path) is not None)

    def __missing__(self, path: str) -> Where:
        where = self._item(path)
        if where is None:
            raise KeyError(path)
        return where


@dataclass
class TextRecord:
    """One record read from text: its JSON data, where its parts were written, what was found."""

    data: dict[str, Any]
    line: int
    places: Places = field(default_factory=Places)
    notes: list[Diagnostic] = field(default_factory=list)
    refused: Diagnostic | None = None
    """Why the record is not read, as the JSON readers say it (RECORD-TOO-LARGE, RECORD-TOO-DEEP,
    RECORD-BAD-JSON for bytes that are not UTF-8); None for a record read."""


class _UnreadableError(Exception):
    """A statement that cannot be read: its message and the column where it went wrong."""

    def __init__(self, code: str, message: str, column: int) -> None:
        self.code = code
        self.column = column
        super().__init__(message)


def read_text(text: str, file: str | None = None) -> Iterator[TextRecord]:
    """Every record of a notation text, in order (a tag line after a deal starts the next record),
    within the reading limits (`read_pieces`)."""
    return read_pieces(text_pieces(text), file)


def read_pieces(pieces: Iterable[Piece], file: str | None = None) -> Iterator[TextRecord]:
    """Every record of the lines of a text (`recordkit.notation.stream`), in order, within the
    reading limits: a text within the limit and UTF-8 is read as it is; in any other, each record's
    lines are gathered first and read only if their text is within the limit and UTF-8, and a
    record that is not is given with why (`TextRecord.refused`), its lines passed over unread."""
    reader = _Reader(file)
    pieces = iter(pieces)
    head: list[Piece] = []
    size = 0
    for piece in pieces:
        head.append(piece)
        size += piece.size
        if size > MAX_RECORD_BYTES or isinstance(piece, Unreadable):
            yield from _gathered(reader, chain(head, pieces))
            break
    else:  # no record of the text can be refused
        yield from reader.read(chain.from_iterable(p.texts for p in head if isinstance(p, Lines)))
    yield from reader.finish()


def _gathered(reader: _Reader, pieces: Iterable[Piece]) -> Iterator[TextRecord]:
    """The records of a text read a record at a time, each gathered first (`_Gathered`)."""
    gathered = _Gathered(1)
    number = 0
    for piece in pieces:
        if isinstance(piece, Unreadable):
            number += 1
            if gathered.dealt and _opens_unread(piece):
                yield from gathered.close(reader)
                gathered = _Gathered(number)
            gathered.dealt |= _deals_unread(piece)
            gathered.take_unreadable(piece, number)
            continue
        texts, start = piece.texts, 0
        openings: list[int] | None = None  # the lines holding a `[`: only they may be tag lines
        while start < len(texts):
            if not gathered.dealt:  # up to the line that starts the first deal
                stop = next((i + 1 for i in range(start, len(texts)) if _starts_deal(texts[i])), None)
                gathered.dealt = stop is not None
                gathered.take(piece, start, stop or len(texts))
                start = stop or len(texts)
                continue
            if openings is None:
                openings = [i for i, text in enumerate(texts) if "[" in text]
            after = openings[bisect_left(openings, start) :]  # up to the next tag line
            stop = next((i for i in after if _opens(texts[i])), len(texts))
            gathered.take(piece, start, stop)
            if stop < len(texts):
                yield from gathered.close(reader)
                gathered = _Gathered(number + stop + 1)
            start = stop
        number += len(texts)
    yield from gathered.close(reader)


@dataclass(slots=True)
class _Gathered:
    """The lines of one record gathered before they are read: from line `first`, whether a deal
    has started (a tag line after it starts the next record), and their size: bounded by the
    sizes of the pieces they come from, and counted line by line only once that bound passes the
    limit (few records do)."""

    first: int
    texts: list[str] = field(default_factory=list)
    dealt: bool = False
    bad: tuple[int, Unreadable] | None = None
    """The first line that is not UTF-8, and its number."""
    bound: int = 0
    """The bytes of the pieces the lines come from: at least theirs."""
    size: int | None = None
    """The bytes of the lines, counted once `bound` is over the limit."""
    parts: list[tuple[Lines, int, int]] = field(default_factory=list)
    """The lines taken from each piece, while `size` is not counted."""
    piece: Lines | None = None
    """The last piece lines were taken from (its size is in `bound`)."""

    def take(self, piece: Lines, start: int, stop: int) -> None:
        """Lines `start` to `stop` of a piece, kept while the record is within the limit."""
        if piece is not self.piece:
            self.piece = piece
            self.bound += piece.size
        if self.size is not None:
            self.size += piece.size_of(start, stop)
        else:
            self.parts.append((piece, start, stop))
            if self.bound > MAX_RECORD_BYTES:
                self.size = sum(part.size_of(begin, end) for part, begin, end in self.parts)
                self.parts.clear()
        if self.bad is None and not self.over():
            self.texts.extend(piece.texts[start:stop])
        else:
            self.texts.clear()

    def take_unreadable(self, line: Unreadable, number: int) -> None:
        """A line that is not read (too long, or not UTF-8): the record is not read either."""
        self.take(Lines([], line.size, True), 0, 0)
        if line.column is not None and self.bad is None:
            self.bad = (number, line)
        self.texts.clear()

    def over(self) -> bool:
        """Whether the lines take more than the limit."""
        return self.size is not None and self.size > MAX_RECORD_BYTES

    def close(self, reader: _Reader) -> Iterator[TextRecord]:
        """The records done once these lines are read, or once the record is refused."""
        if self.over():
            yield from reader.skip(self.first, too_large(Location(line=self.first)))
        elif self.bad is not None:
            yield from reader.skip(self.first, not_utf8(*self.bad))
        else:
            yield from reader.read(self.texts, self.first)


def not_utf8(number: int, line: Unreadable) -> Diagnostic:
    """RECORD-BAD-JSON, as JSON's readers and `recordkit.loads` say it of bytes that are not UTF-8,
    at the line and column (in bytes) of the first: the record holding them is not read. A UTF-16
    text is named as such, since saving it as UTF-8 is the remedy."""
    message = (
        "the text is UTF-16, not UTF-8: save it as UTF-8"
        if line.utf16
        else f"the text is not UTF-8 at line {number}, column {line.column}: a record is UTF-8 JSON or "
        "text in the notation"
    )
    return Diagnostic(
        "RECORD-BAD-JSON",
        Severity.ERROR,
        message,
        Location(line=number, column=line.column),
        rule="format.json",
    )


def _opens(text: str) -> bool:
    """Whether the reader reads a line as a tag line (after a deal, it starts the next record)."""
    if text.lstrip()[:1] != "[":
        return False
    try:
        _tag_parts(text)
    except (LexError, _UnreadableError):
        return False
    return True


def _starts_deal(text: str) -> bool:
    """Whether the reader reads a line as the start of a deal: `deal` first, the line read into words."""
    stripped = text.lstrip()
    if stripped[:1] in ("", "#", "[") or "deal" not in text.lower():
        return False
    try:
        words, _ = tokens(text)
    except LexError:
        return False
    return bool(words) and _is_word(words[0]) and ascii_lower(str(words[0])) == "deal"


def _opens_unread(line: Unreadable) -> bool:
    """`_opens` of a line not read; of one too long, its first character says (its start is all
    there is of it)."""
    return line.text.lstrip()[:1] == "[" if line.column is None else _opens(line.text)


def _deals_unread(line: Unreadable) -> bool:
    """`_starts_deal` of a line not read; of one too long, its first word says."""
    if line.column is None:
        words = line.text.split(None, 1)
        return bool(words) and ascii_lower(words[0]) == "deal"
    return _starts_deal(line.text)


def _tag_parts(text: str) -> tuple[list[str | Json], list[int]]:
    """The words of a tag line between its brackets and their columns; an error for a line not
    written `[Name value...]`."""
    start = text.index("[")
    end = text.rstrip().rfind("]")
    if end <= start:
        raise _UnreadableError(
            "NOTATION-TAG", "a tag line is written [Name value]: its ']' is missing", len(text.rstrip()) + 1
        )
    tail = text[end + 1 :].strip()
    if tail and not tail.startswith("#"):
        raise _UnreadableError("NOTATION-TAG", "the line goes on after the tag's ']'", end + 2)
    try:
        words, columns = tokens(text[start + 1 : end])
    except LexError as error:  # its column in the line, not between the brackets
        error.column += start + 1
        raise
    if not words or isinstance(words[0], (Json, Quoted)):
        raise _UnreadableError("NOTATION-TAG", 'a tag starts with its name, e.g. [Game "joffre"]', start + 2)
    return words, [c + start + 1 for c in columns]


class _Reader:
    """The state of reading one text: the record being built and the records done."""

    def __init__(self, file: str | None) -> None:
        self.file = file
        self.done: list[TextRecord] = []
        self.record: TextRecord | None = None
        self.deal: dict[str, Any] | None = None
        self.keys = keywords("")
        self.codes: frozenset[str] = frozenset()
        self.base = ""
        self.number = 0
        self.records = 0

    def finish(self) -> list[TextRecord]:
        """The records read, the last one closed."""
        if self.record is not None:
            self.done.append(self.record)
            self.record = None
        return self.done

    def skip(self, line: int, refusal: Diagnostic) -> list[TextRecord]:
        """A record not read, from `line` (its text over the limit, or not UTF-8): the records done,
        the one before it closed and this one with why."""
        if self.record is not None:
            self.done.append(self.record)
        self.records += 1
        where = replace(refusal.location, file=self.file, record=self.records)
        self.done.append(TextRecord({}, line, refused=replace(refusal, location=where)))
        self.record, self.deal = None, None
        self.keys, self.codes = keywords(""), frozenset()
        done = list(self.done)
        self.done.clear()
        return done

    def read(self, lines: Iterable[str], start: int = 1) -> Iterator[TextRecord]:
        """Read lines in order, yielding each record once the next one starts. The lines of
        canonical text (single spaces, canonical card codes, keywords in lower case) are read here
        at once: a blank line, a trick, a hand, a `deal N dealer D` line and a statement of one
        keyword; any other line, and any of these that is not so written, by `line`, the general
        way, which reads them the same."""
        deal: dict[str, Any] | None = None
        tricks: list[Any] | None = None
        hands: list[Any] | None = None
        trick_places: list[Where | int | None] = []
        hand_places: list[Where | int | None] = []
        codes, keys = self.codes, self.keys
        for number, text in enumerate(lines, start=start):
            if not text:
                continue
            if codes:
                words = text.split(" ")
                first = words[0]
                if deal is not None:
                    if codes.issuperset(words):
                        if tricks is None:
                            tricks, trick_places = self._listed(deal, "tricks")
                        if tricks is not None:
                            trick_places.append(number)
                            tricks.append(text)
                            continue
                    elif first == "hand" and len(words) > 1 and codes.issuperset(words[2:]):
                        seat = words[1]
                        if len(seat) == 1 and "0" <= seat <= "9":
                            if hands is None:
                                hands, hand_places = self._listed(deal, "hands")
                            index = int(seat)
                            if hands is not None and index < len(hands):
                                hands[index] = text[6 + len(seat) :]
                                hand_places[index] = number
                                continue
                    elif first in keys and self._short(deal, first, keys[first], words, text, number):
                        continue
                if first == "deal" and self._fast_deal(words, number):
                    deal, tricks, hands = self.deal, None, None
                    continue
            self.line(number, text)
            if self.done:
                yield from self.done
                self.done.clear()
            codes, keys, tricks, hands = self.codes, self.keys, None, None
            deal = self.deal if codes else None

    def _listed(self, deal: dict[str, Any], key: str) -> tuple[list[Any] | None, list[Where | int | None]]:
        """The tricks or hands of the deal being read (made here if it has none yet) and their
        places; None when they were written as something else than a list (`tricks = 5`)."""
        assert self.record is not None
        value = deal.get(key)
        if value is None:
            value = deal[key] = [] if key == "tricks" else [None] * len(self.record.data["players"])
        if type(value) is not list:
            return None, []
        return value, self.record.places.listed(f"{self.base}.{key}", len(value))

    def _short(
        self,
        deal: dict[str, Any],
        key: str,
        entry: tuple[str, Kind],
        words: list[str],
        text: str,
        number: int,
    ) -> bool:
        """A line of one statement in its short canonical form, read at once: numbers, cards, calls
        without seats, a word, a card, a seat or a whole number; False for any other line."""
        place, kind = entry
        rest = words[1:]
        value: Any
        if kind == "numbers":
            if _INTEGERS.fullmatch(text, len(key) + 1) is None:
                return False
            value = list(map(int, rest))
        elif kind == "cards" and self.codes.issuperset(rest):
            value = " ".join(rest)
        elif kind == "calls" and plain(text) and "@" not in text:
            value = rest
        elif len(rest) != 1:
            return False
        elif kind == "card" and rest[0] in self.codes:
            value = rest[0]
        elif kind in ("seat", "whole") and _counted(rest[0]):
            value = int(rest[0])
        elif kind == "word" and plain(text):
            value = rest[0]
        else:
            return False
        assert self.record is not None
        places = self.record.places
        if place == "result":
            result = deal.get("result")
            if result is None:
                result = deal["result"] = {}
                places[f"{self.base}.result"] = (number, 1)
            elif type(result) is not dict:
                return False
            result[key] = value
            places[f"{self.base}.result.{key}"] = (number, 1)
        else:
            deal[key] = value
            places[f"{self.base}.{key}"] = (number, 1)
        return True

    def _fast_deal(self, words: list[str], number: int) -> bool:
        """`deal N dealer D` in canonical form, N the next deal's number; False for any other."""
        record = self.record
        if (
            record is None
            or len(words) != 4
            or words[1] != str(len(record.data["deals"]) + 1)
            or words[2] != "dealer"
            or not _counted(words[3])
        ):
            return False
        deals = record.data["deals"]
        self.number = number
        self.deal = {"dealer": int(words[3])}
        deals.append(self.deal)
        self.base = f"deals[{len(deals) - 1}]"
        record.places[self.base] = (number, 1)
        record.places[f"{self.base}.dealer"] = (number, 7 + len(words[1]))
        return True

    def line(self, number: int, text: str) -> None:
        """Read one line the general way: a tag, a deal's start, a statement, a trick, or nothing."""
        self.number = number
        stripped = text.lstrip()
        if not stripped or stripped[0] == "#":
            return
        try:
            if stripped[0] == "[":
                self._tag(text)
                return
            words, columns = tokens(text)
            if words:
                self._statements(words, columns)
        except TooDeepError as error:
            self._too_deep(error.column)
        except LexError as error:
            self._problem("NOTATION-SYNTAX", str(error), error.column)
        except _UnreadableError as stop:
            self._problem(stop.code, str(stop), stop.column)

    # --- the envelope ---------------------------------------------------------------------

    def _tag(self, text: str) -> None:
        """A tag line `[Name value...]`: the game, players, an option, the comment, or a meta tag."""
        words, columns = _tag_parts(text)
        if self.record is None or self.deal is not None:
            self._new_record()
        record = self.record
        assert record is not None
        name, values, where = str(words[0]), words[1:], (self.number, columns[0])
        lower = ascii_lower(name)
        if lower == "players":
            record.data["players"] = [
                self._text(v, c) for v, c in zip(values, columns[1:], strict=True) if not is_comma(v)
            ]
            record.places["players"] = where
        elif lower in ("game", "format", "version", "comment"):
            record.data[lower] = self._one_text(values, columns, name)
            record.places[lower] = where
            if lower == "game":
                self.keys = keywords(record.data["game"])
                self.codes = canonical_codes(record.data["game"])
        elif lower in ("option", "meta"):
            if len(values) < 2 or isinstance(values[0], Json):
                raise _UnreadableError("NOTATION-TAG", f"[{name} name value]: a name and a value", columns[0])
            key = str(values[0])
            record.data["options" if lower == "option" else "meta"][key] = self._tag_value(
                values[1:], columns[2]
            )
            record.places[f"{'options' if lower == 'option' else 'meta'}.{key}"] = where
        else:
            if not values:
                raise _UnreadableError("NOTATION-TAG", f"the tag [{name}] has no value", columns[0])
            record.data["meta"][name] = self._tag_value(values, columns[1])
            record.places[f"meta.{name}"] = where

    def _new_record(self) -> None:
        """Close the record being read and start the next one at this line."""
        if self.record is not None:
            self.done.append(self.record)
        self.records += 1
        data: dict[str, Any] = {
            "format": FORMAT_NAME,
            "version": FORMAT_VERSION,
            "game": None,
            "options": {},
            "players": [],
            "meta": {},
            "deals": [],
        }
        self.record = TextRecord(data, self.number)
        self.deal = None
        self.keys = keywords("")
        self.codes = frozenset()

    def _one_text(self, values: list[str | Json], columns: list[int], name: str) -> str:
        """The single text value of a tag."""
        if len(values) != 1 or isinstance(values[0], Json):
            raise _UnreadableError("NOTATION-TAG", f"the tag [{name}] takes one value, in quotes", columns[0])
        return str(values[0])

    def _text(self, value: str | Json, column: int) -> str:
        """A player's name: quoted or a bare word."""
        if isinstance(value, Json):
            raise _UnreadableError("NOTATION-TAG", "a player's name is written in quotes", column)
        return str(value)

    # --- the deals ------------------------------------------------------------------------

    def _statements(self, words: list[str | Json], columns: list[int]) -> None:
        """One line of a deal: `deal`, `hand`, `trick`, a trick's cards, or keyword statements."""
        first = words[0]
        key = ascii_lower(first) if isinstance(first, str) and not isinstance(first, Quoted) else ""
        if key == "deal":
            self._start_deal(words, columns)
            return
        deal = self._current(columns[0])
        if key == "hand":
            self._hand(deal, words, columns)
        elif key == "trick":
            self._trick(deal, words[1:], columns[1:], columns[0])
        elif key in ("knock", "claim"):
            self._knock_or_claim(deal, key, words[1:], columns[1:], columns[0])
        elif key == "announce":
            self._announce(deal, words[1:], columns[1:], columns[0])
        elif key in self.keys or key in STRUCTURE:
            self._keyed_line(deal, words, columns)
        elif isinstance(first, Json):
            raise _UnreadableError(
                "NOTATION-SYNTAX", "a JSON value after '=' needs a keyword before it", columns[0]
            )
        elif _looks_like_word(key) and len(words) > 1 and isinstance(words[1], Json):
            self._keyed_line(deal, words, columns)
        elif _looks_like_word(key):
            raise _UnreadableError(
                "NOTATION-SYNTAX", f"{_shown(first)} is neither a keyword nor a card", columns[0]
            )
        else:
            self._trick(deal, words, columns, columns[0])

    def _current(self, column: int) -> dict[str, Any]:
        """The deal being read; a statement before the first `deal` line cannot be placed."""
        if self.deal is None:
            raise _UnreadableError(
                "NOTATION-SYNTAX", "this line belongs to a deal: start the deal with a `deal` line", column
            )
        return self.deal

    def _start_deal(self, words: list[str | Json], columns: list[int]) -> None:
        """`deal [N] [statements...]`: a new deal, its number checked, statements on the same line."""
        if self.record is None:
            self._new_record()
        record = self.record
        assert record is not None
        deals = record.data["deals"]
        self.deal = {}
        deals.append(self.deal)
        self.base = f"deals[{len(deals) - 1}]"
        record.places[self.base] = (self.number, columns[0])
        at = 1
        if len(words) > 1 and isinstance(words[1], str) and _counted(words[1]):
            if int(words[1]) != len(deals):
                self._problem(
                    "NOTATION-DEAL-NUMBER",
                    f"this is deal {len(deals)} of the record, not deal {words[1]}",
                    columns[1],
                )
            at = 2
        self._keyed_line(self.deal, words, columns, at)

    def _keyed_line(
        self, deal: dict[str, Any], words: list[str | Json], columns: list[int], at: int = 0
    ) -> None:
        """The statements of a line, one after the other, from token `at`."""
        while at < len(words):
            at = self._keyed(deal, words, columns, at)

    def _keyed(self, deal: dict[str, Any], words: list[str | Json], columns: list[int], at: int) -> int:
        """The statement `keyword value` starting at token `at`; the index after its value."""
        word, column = words[at], columns[at]
        if not isinstance(word, str) or isinstance(word, Quoted) or is_comma(word):
            raise _UnreadableError("NOTATION-SYNTAX", "a keyword is expected here", column)
        key = ascii_lower(word)
        place, kind = self.keys.get(key, ("deal", "text"))
        path = self._path(key, place)
        token = words[at + 1] if at + 1 < len(words) else None
        if isinstance(token, Json):
            value = self._json(token, 4 if place == "result" else 3)
            self._store(deal, key, place, value, path, column)
            return at + 2
        if key not in self.keys:
            raise _UnreadableError("NOTATION-SYNTAX", f"{_shown(word)} is not a keyword of this game", column)
        end = len(words) if kind in REST_OF_LINE else self._extent(words, at + 1, kind)
        value = self._value(kind, key, words[at + 1 : end], columns[at + 1 : end], column)
        self._store(deal, key, place, value, path, column)
        return end

    def _path(self, key: str, place: str) -> str:
        """The JSON path of a keyword's value in the deal being read."""
        assert self.record is not None
        base = f"deals[{len(self.record.data['deals']) - 1}]"
        return f"{base}.result.{key}" if place == "result" else f"{base}.{key}"

    def _store(self, deal: dict[str, Any], key: str, place: str, value: Any, path: str, column: int) -> None:
        """Set a field of the deal or of its result, and where it was written."""
        assert self.record is not None
        target = deal
        if place == "result":
            target = _part(deal, "result", dict, column)
            self.record.places.setdefault(path.rsplit(".", 1)[0], (self.number, column))
        target[key] = value
        self.record.places[path] = (self.number, column)

    def _extent(self, words: list[str | Json], at: int, kind: Kind) -> int:
        """Where a value of one token, or of the numbers that follow, ends."""
        if kind in ("numbers", "seats", "pairs"):
            end = at
            while end < len(words) and (
                is_comma(words[end])
                or _is_number(words[end])
                or (kind == "pairs" and end > at and _is_word(words[end]) and _is_number(words[end - 1]))
            ):
                end += 1
            return end
        return min(at + 1, len(words))

    def _value(self, kind: Kind, key: str, words: list[str | Json], columns: list[int], column: int) -> Any:
        """A keyword's value read from its tokens, as the JSON record holds it."""
        items = [(w, c) for w, c in zip(words, columns, strict=True) if not is_comma(w) or kind == "calls"]
        if kind in ("seat", "word", "scalar", "number", "whole", "card", "text"):
            if len(items) != 1:
                raise _UnreadableError("NOTATION-VALUE", f"{key} takes one value", column)
            word, at = items[0]
            return self._one(kind, key, word, at)
        if kind == "cards":
            return " ".join(self._card(w, c) for w, c in items)
        if kind == "numbers":
            return [self._one("number", key, w, c) for w, c in items]
        if kind == "seats":
            return [self._one("seat", key, w, c) for w, c in items]
        if kind == "pairs":
            if len(items) % 2:
                raise _UnreadableError(
                    "NOTATION-VALUE", f"{key} are written as pairs: a seat and a level", column
                )
            return [
                {"seat": self._one("seat", key, items[i][0], items[i][1]), "level": str(items[i + 1][0])}
                for i in range(0, len(items), 2)
            ]
        if kind == "calls":
            return [self._seated(call, column) for call in _calls(items)]
        windows: list[list[tuple[str | Json, int]]] = [[]]
        for word, at in items:
            if word == "/" and not isinstance(word, Quoted):
                windows.append([])
            else:
                windows[-1].append((word, at))
        return [
            [] if [w for w, _ in window] == ["-"] else [self._seated(call, column) for call in _calls(window)]
            for window in windows
        ]

    def _seated(self, call: Any, column: int) -> Any:
        """A call written `word@SEAT` as the call with its seat (`raise@1`)."""
        word = call["call"] if isinstance(call, dict) else call
        if "@" not in word:
            return call
        name, _, seat = word.rpartition("@")
        out = {"call": name, "seat": self._seat(seat, column)}
        return out | ({"comment": call["comment"]} if isinstance(call, dict) else {})

    def _one(self, kind: Kind, key: str, word: str | Json, column: int) -> Any:
        """One token read as a value of its kind."""
        if isinstance(word, Json):
            raise _UnreadableError("NOTATION-VALUE", f"{key} takes a value, not '='", column)
        if kind == "text":
            if not isinstance(word, Quoted):
                raise _UnreadableError("NOTATION-VALUE", f"{key} is a text written in quotes", column)
            return str(word)
        if kind in ("word",):
            return str(word)
        if kind == "card":
            return self._card(word, column)
        if kind == "seat":
            return self._seat(word, column)
        if kind == "scalar" and not _is_number(word):
            return str(word)
        if not _is_number(word) or (kind == "whole" and "." in word):
            wanted = "a whole number" if kind == "whole" else "a number"
            raise _UnreadableError("NOTATION-VALUE", f"{key} takes {wanted}, not {_shown(word)}", column)
        return float(word) if "." in word else int(word)

    def _seat(self, word: str, column: int) -> int:
        """A seat: its number, or a player's name (said in a note)."""
        if _counted(word) and not isinstance(word, Quoted):
            return int(word)
        assert self.record is not None
        names = [ascii_lower(n) for n in self.record.data.get("players") or [] if isinstance(n, str)]
        wanted = ascii_lower(word)
        if names.count(wanted) == 1:
            seat = names.index(wanted)
            self._note(f"the player {word} read as seat {seat}", column)
            return seat
        raise _UnreadableError(
            "NOTATION-VALUE",
            f"{_shown(word)} is not a seat: a seat is its number (0 first) or a player's name",
            column,
        )

    def _card(self, word: str | Json, column: int) -> str:
        """A card code as the JSON format takes it; a suit symbol or a Tarot `T` for 10 is read and said."""
        if isinstance(word, (Json, Quoted)) or is_comma(word):
            raise _UnreadableError(
                "NOTATION-VALUE", "a card is written as its code, such as HK or T21", column
            )
        tarot_ten = word[0] in "SHDC" and word[-1] == "T" and self._game() == "french-tarot"
        if word.isascii() and not tarot_ten:
            return word
        code = word
        for symbol, letter in _SYMBOLS.items():
            code = code.replace(symbol, letter)
        if self._game() == "french-tarot":
            code = _TAROT_TEN.sub(r"\g<1>10", ascii_upper(code)) if len(code) == 2 else code
        if code != word:
            self._note(f"the card {word} read as {ascii_upper(code)}", column)
        return code

    def _game(self) -> str | None:
        """The game of the record being read."""
        return self.record.data.get("game") if self.record is not None else None

    def _hand(self, deal: dict[str, Any], words: list[str | Json], columns: list[int]) -> None:
        """`hand SEAT cards...`: a seat's hand as dealt (the hands not written are not known)."""
        if len(words) < 2:
            raise _UnreadableError("NOTATION-VALUE", "hand is followed by its seat and its cards", columns[0])
        if isinstance(words[1], Json):
            raise _UnreadableError("NOTATION-VALUE", "hand is followed by its seat and its cards", columns[1])
        seat = self._seat(words[1], columns[1])
        assert self.record is not None
        players = len(self.record.data.get("players") or [])
        hands = _part(deal, "hands", list, columns[0])
        if not hands:
            hands.extend([None] * players)
        if seat >= len(hands):
            raise _UnreadableError(
                "NOTATION-VALUE", f"seat {seat} is not at this table of {players}", columns[1]
            )
        hands[seat] = " ".join(
            self._card(w, c) for w, c in zip(words[2:], columns[2:], strict=True) if not is_comma(w)
        )
        self.record.places.listed(self._path("hands", "deal"), len(hands))[seat] = _at(
            self.number, columns[0]
        )

    def _trick(self, deal: dict[str, Any], words: list[str | Json], columns: list[int], column: int) -> None:
        """A trick: its cards from the leader, and a comment in quotes at the end; or `= {json}`."""
        tricks = _part(deal, "tricks", list, column)
        assert self.record is not None
        self.record.places.listed(self._path("tricks", "deal"), len(tricks)).append(_at(self.number, column))
        if words and isinstance(words[0], Json):
            tricks.append(self._json(words[0], 4))
        else:
            trick: dict[str, Any] = {}
            if words and isinstance(words[-1], Quoted):
                trick["comment"] = str(words[-1])
                words, columns = words[:-1], columns[:-1]
            while (
                len(words) >= 2
                and isinstance(words[-2], str)
                and ascii_lower(words[-2]) in ("leader", "winner")
            ):
                trick[ascii_lower(words[-2])] = self._seat(words[-1], columns[-1])  # type: ignore[arg-type]
                words, columns = words[:-2], columns[:-2]
            cards = " ".join(self._card(w, c) for w, c in zip(words, columns, strict=True) if not is_comma(w))
            tricks.append({"cards": cards, **trick} if trick else cards)

    def _announce(
        self, deal: dict[str, Any], words: list[str | Json], columns: list[int], column: int
    ) -> None:
        """`announce poignee SEAT LEVEL cards...`, `announce slam SEAT`, `announce misere SEAT KIND`."""
        made = _part(deal, "announcements", list, column)
        path = f"{self._path('announcements', 'deal')}[{len(made)}]"
        if words and isinstance(words[0], Json):
            made.append(self._json(words[0], 4))
        else:
            comment = None
            if words and isinstance(words[-1], Quoted):
                comment = str(words[-1])
                words, columns = words[:-1], columns[:-1]
            kind = ascii_lower(str(words[0])) if words else ""
            shapes = {"poignee": 3, "slam": 2, "misere": 3}
            if kind not in shapes or len(words) < shapes[kind]:
                raise _UnreadableError(
                    "NOTATION-VALUE",
                    "announce poignee SEAT LEVEL CARDS, announce slam SEAT or announce misere SEAT KIND",
                    column,
                )
            item: dict[str, Any] = {"type": kind, "seat": self._seat(words[1], columns[1])}  # type: ignore[arg-type]
            if kind == "poignee":
                item["level"] = str(words[2])
                item["cards"] = " ".join(
                    self._card(w, c) for w, c in zip(words[3:], columns[3:], strict=True) if not is_comma(w)
                )
            elif kind == "misere":
                item["kind"] = str(words[2])
            if comment is not None:
                item["comment"] = comment
            made.append(item)
        assert self.record is not None
        self.record.places[path] = (self.number, column)

    def _knock_or_claim(
        self, deal: dict[str, Any], key: str, words: list[str | Json], columns: list[int], column: int
    ) -> None:
        """`knock SEAT TRICK AFTER` (Charlemagne: a knock in trick TRICK after AFTER cards) and
        `claim SEAT TRICKS`, each with a comment in quotes at the end; or `= JSON`."""
        fields = ("seat", "trick", "after") if key == "knock" else ("seat", "tricks")
        if words and isinstance(words[0], Json):
            item = self._json(words[0], 4 if key == "knock" else 3)
        else:
            item = {}
            if words and isinstance(words[-1], Quoted):
                item["comment"] = str(words[-1])
                words, columns = words[:-1], columns[:-1]
            if len(words) != len(fields):
                raise _UnreadableError(
                    "NOTATION-VALUE", f"{key} is followed by its {', '.join(fields)}", column
                )
            values = {"seat": self._seat(words[0], columns[0])}  # type: ignore[arg-type]
            values |= {
                f: self._one("whole", f, w, c)
                for f, w, c in zip(fields[1:], words[1:], columns[1:], strict=True)
            }
            item = values | item
        if key == "knock":
            _part(deal, "knocks", list, column).append(item)
            path = f"{self._path('knocks', 'deal')}[{len(deal['knocks']) - 1}]"
        else:
            deal["claim"] = item
            path = self._path("claim", "deal")
        assert self.record is not None
        self.record.places[path] = (self.number, column)

    # --- what the reader says -------------------------------------------------------------

    def _where(self, column: int) -> Location:
        """The place of the line being read: file, line, column, record and deal."""
        deals = len(self.record.data["deals"]) if self.record is not None else 0
        record = self.records or 1
        return Location(file=self.file, line=self.number, column=column, record=record, deal=deals or None)

    def _json(self, token: Json, level: int) -> Any:
        """The JSON value after `=`, to be held `level` lists and objects deep in the record (the
        record itself is the first); TooDeepError if it takes the record past MAX_NESTING."""
        if level + token.depth > MAX_NESTING:
            raise TooDeepError("lists and objects nest too deep", token.column)
        return token.value

    def _tag_value(self, values: list[str | Json], column: int) -> Any:
        """A tag's value: a JSON value after '=' (held in `options` or `meta`), a quoted text, or
        a bare word (a number, true or false read as such)."""
        if len(values) == 1:
            value = values[0]
            if isinstance(value, Json):
                return self._json(value, 2)
            if isinstance(value, Quoted):
                return str(value)
            if value in ("true", "false"):
                return value == "true"
            if _is_number(value):
                return float(value) if "." in value else int(value)
            return str(value)
        raise _UnreadableError(
            "NOTATION-TAG", "a tag's value is one word, a text in quotes, or '=' and a JSON value", column
        )

    def _too_deep(self, column: int) -> None:
        """A JSON value nesting past the limit: the record is refused (RECORD-TOO-DEEP) as the
        JSON readers refuse it, at the line and column of the value."""
        if self.record is None:
            self._new_record()
        assert self.record is not None
        if self.record.refused is None:
            self.record.refused = nesting_error(self._where(column))

    def _problem(self, code: str, message: str, column: int) -> None:
        """A part of the text that cannot be read: an error at its line and column."""
        if self.record is None:
            self._new_record()
        assert self.record is not None
        tail = "" if code == "NOTATION-DEAL-NUMBER" else "; the line is left out"
        self.record.notes.append(
            Diagnostic(code, Severity.ERROR, message + tail, self._where(column), rule=_RULES[code])
        )

    def _note(self, message: str, column: int) -> None:
        """A tolerant spelling read: said as a warning (a note in strict validation)."""
        assert self.record is not None
        self.record.notes.append(
            Diagnostic(NORMALISED, Severity.WARNING, message, self._where(column), rule="notation.tolerant")
        )


_RULES = {
    "NOTATION-SYNTAX": "notation.syntax",
    "NOTATION-TAG": "notation.tags",
    "NOTATION-VALUE": "notation.values",
    "NOTATION-DEAL-NUMBER": "notation.deals",
}
"""The rule id of each of the reader's error codes (spec/NOTATION.md)."""


def _part(deal: dict[str, Any], key: str, kind: type[list[Any]] | type[dict[str, Any]], column: int) -> Any:
    """The deal's list or object `key`, made empty if not there yet; a value of another kind,
    written before as `key = JSON`, cannot take more (a diagnostic, not a traceback)."""
    value = deal.setdefault(key, kind())
    if type(value) is not kind:
        wanted = "a list" if kind is list else "an object"
        raise _UnreadableError(
            "NOTATION-VALUE",
            f"{key} was written with '=' as a value that is not {wanted}: this line cannot add to it",
            column,
        )
    return value


def _at(line: int, column: int) -> Where | int:
    """A listed item's place as `Places` keeps it: the line alone for column 1."""
    return line if column == 1 else (line, column)


def _counted(word: str) -> bool:
    """True for a word of ASCII digits only, as many as `int` reads: a seat or a deal's number."""
    return word.isascii() and word.isdigit() and len(word) <= DIGITS


def _shown(word: str | Json) -> str:
    """A word as a message quotes it: in quotes, and cut short if long."""
    text = str(word)
    return repr(text if len(text) <= SHOWN else text[:SHOWN] + "…")


def _is_number(word: str | Json) -> bool:
    """True for a bare token that is a number (`-4`, `40.5`)."""
    return isinstance(word, str) and not isinstance(word, Quoted) and _NUMBER.fullmatch(word) is not None


def _is_word(word: str | Json) -> bool:
    """True for a bare word (not quoted, not JSON, not a comma)."""
    return isinstance(word, str) and not isinstance(word, Quoted) and not is_comma(word)


def _looks_like_word(key: str) -> bool:
    """True for a token that reads as a misspelt keyword rather than a card: letters only, four or more."""
    return len(key) >= 4 and key.isalpha() and key.isascii() and key not in ("fool", "excuse")


def _calls(items: list[tuple[str | Json, int]]) -> list[Any]:
    """The calls of an auction: words, or, when commas separate them, the words between commas;
    a text in quotes after a call is that call's comment."""
    words = [w for w, _ in items]
    split = any(map(is_comma, words))
    calls: list[Any] = []
    current: list[str] = []

    def close() -> None:
        if current:
            calls.append(" ".join(current))
            current.clear()

    for word, column in items:
        if isinstance(word, Quoted):
            close()
            if not calls or not isinstance(calls[-1], str):
                raise _UnreadableError(
                    "NOTATION-VALUE", "a comment in quotes follows the call it is about", column
                )
            calls[-1] = {"call": calls[-1], "comment": str(word)}
        elif is_comma(word):
            close()
        else:
            current.append(str(word))
            if not split:
                close()
    close()
    return calls
