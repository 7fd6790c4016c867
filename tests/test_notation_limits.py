"""The notation read within the JSON readers' limits (issue 33): a JSON value nesting too deep
after `=`, a record over the size limit, a line longer than it, bytes that are not UTF-8, each
refused with the JSON readers' code at its place and in bounded memory; and lines that end only at
`\\n`, `\\r\\n` or `\\r`, so that any text round-trips."""

from __future__ import annotations

import io
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import recordkit
from recordkit.cli import app
from recordkit.diagnostics import Diagnostic, Location
from recordkit.games import RULESETS
from recordkit.generate import generate_record
from recordkit.jsonread import MAX_RECORD_BYTES
from recordkit.model import to_data
from recordkit.notation import text_sources, write_text
from recordkit.raw import MAX_NESTING, RawRecord, nesting_error, too_deep
from recordkit.reading import read_records
from tests.budget import examples

runner = CliRunner()
SAMPLES = Path(__file__).parent.parent / "samples"
EVENING = (SAMPLES / "text" / "joffre" / "score-sheet-evening.rkn").read_text(encoding="utf-8")
"""A clean record of ten score-sheet deals."""
HEADER = '[Game "joffre"]\n[Players "Anne" "Bruno" "Claire" "Denis"]\n'
DEEP = "[" * 980 + "]" * 980
"""About 980 levels of lists: deep enough to exhaust the stack of a recursive JSON decoder."""
SHEET_DEAL = "deal {n} dealer {d} bid 4 bidder 1 tricks 2 4 1 1 joffre 1 kaiser 0 scores -1 9 1 1\n"


def _codes(text: str | bytes) -> list[tuple[str, int | None, int | None, int | None]]:
    """What reading a text gives: each record read (`-`) or refused (its code), with its record
    number, line and column."""
    return [
        (
            "-" if isinstance(item, RawRecord) else item.code,
            item.location.record,
            item.location.line,
            item.location.column,
        )
        for item in text_sources(text, "t.rkn")
    ]


# --- deep nesting after `=` (finding 1) ---------------------------------------------------------

DEEP_LINES = [
    ("option", f"[Option target = {DEEP}]\n", ""),
    ("tag", f"[event = {DEEP}]\n", ""),
    ("meta", f'[Meta "house rules" = {DEEP}]\n', ""),
    ("deal", "", f"comment = {DEEP}"),
    ("result", "", f"scores = {DEEP}"),
    ("trick", "", f"trick = {DEEP}"),
    ("announcement", "", f"announce = {DEEP}"),
    ("knock", "", f"knock = {DEEP}"),
    ("claim", "", f"claim = {DEEP}"),
]
"""Where a JSON value may follow `=`: in a tag line before the deal, or a line of the deal."""


@pytest.mark.parametrize(("place", "tags", "statement"), DEEP_LINES, ids=[p[0] for p in DEEP_LINES])
def test_deep_nesting_after_equals_is_refused_as_json_is(
    tmp_path: Path, place: str, tags: str, statement: str
) -> None:
    """`validate`, `load`, `loads` and `convert` refuse the record with RECORD-TOO-DEEP at the
    value's line and column, in the JSON readers' words, and read the record after it."""
    record = HEADER + tags + "deal 1 dealer 0\n" + statement + "\n"
    deep = (tags or statement).rstrip("\n")
    line, column = (3 if tags else 4), deep.index("= ") + 3
    text = record + "\n" + EVENING
    path = tmp_path / "deep.rkn"
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 2, result.output
    wording = nesting_error(Location()).message
    assert f"deep.rkn:{line}:{column} record 1" in result.output and "RECORD-TOO-DEEP" in result.output
    assert wording in " ".join(result.output.split())
    assert "2 record(s)" in result.output
    assert _codes(text) == [("RECORD-TOO-DEEP", 1, line, column), ("-", 2, record.count("\n") + 2, None)]
    (tmp_path / "one.rkn").write_text(record, encoding="utf-8")
    for read in (lambda: recordkit.loads(record), lambda: recordkit.load(tmp_path / "one.rkn")):
        with pytest.raises(recordkit.RecordError) as refused:
            read()
        assert [d.code for d in refused.value.diagnostics] == ["RECORD-TOO-DEEP"]
    converted = runner.invoke(app, ["convert", str(path), str(tmp_path / "out.jsonl")])
    assert converted.exit_code == 2 and "wrote 1 record(s)" in converted.output, converted.output
    assert "RECORD-TOO-DEEP" in converted.output  # as JSON lines with a deep record convert


DEEP_PLACES: list[tuple[str, str]] = [
    ("options", "target"),
    ("meta", "house"),
    ("deals", "comment"),
    ("deals", "result"),
    ("deals", "tricks"),
    ("deals", "knocks"),
    ("deals", "announcements"),
]


def _nested(depth: int) -> Any:
    """Lists `depth` levels deep."""
    value: Any = 0
    for _ in range(depth):
        value = [value]
    return value


@settings(max_examples=examples(60), deadline=None)
@given(st.sampled_from(DEEP_PLACES), st.integers(MAX_NESTING - 8, MAX_NESTING + 2))
def test_the_nesting_limit_is_the_json_readers(place: tuple[str, str], depth: int) -> None:
    """A value nested `depth` levels at a place of a record: its text is refused with
    RECORD-TOO-DEEP exactly when the record as JSON is too deep, and read back exactly otherwise."""
    data = orjson.loads(recordkit.dumps(generate_record(RULESETS["joffre"], 4, 1, 3, form="sheet")))
    outer, key = place
    holder = data["deals"][0] if outer == "deals" else data[outer]
    holder[key] = _nested(depth) if key in ("target", "house", "comment") else [_nested(depth)]
    if key == "result":
        holder[key] = {"scores": holder[key]}
    found = list(text_sources(write_text(data), None))
    if too_deep(data):
        assert [d.code for d in found if isinstance(d, Diagnostic)] == ["RECORD-TOO-DEEP"]
        return
    (read,) = found
    assert isinstance(read, RawRecord)
    written = read.data["deals"][0] if outer == "deals" else read.data[outer]
    assert written[key] == holder[key]


# --- line breaks (finding 10) ---------------------------------------------------------------------

BREAKS = ["\u2028", "\u2029", "\x85", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e"]
"""What `str.splitlines` takes for line breaks beyond `\\n`, `\\r\\n` and `\\r`."""


def _with_texts(name: str, tag: str, comment: str) -> Any:
    """A generated record with a player, a meta tag's name and value, and the comments of the
    record, a deal, a trick and a call holding these texts."""
    data = orjson.loads(recordkit.dumps(generate_record(RULESETS["joffre"], 4, 1, 5)))
    data["players"][0] = f"Anne{name}"
    data["meta"] = {f"note{tag}": f"x{tag}", tag or "t": comment}
    data["comment"] = comment
    deal = data["deals"][0]
    deal["comment"] = comment
    deal["tricks"][0] = {"cards": deal["tricks"][0], "comment": comment}
    deal["auction"][0] = {"call": deal["auction"][0], "comment": comment}
    return data


@pytest.mark.parametrize("mark", BREAKS, ids=[f"U+{ord(m):04X}" for m in BREAKS])
def test_a_text_with_other_line_separators_round_trips(tmp_path: Path, mark: str) -> None:
    """`loads(dumps(r, form="text"))` is `r` when names, tags and comments hold U+2028, U+2029,
    U+0085 (or any character `str.splitlines` breaks at), from a text and from a file."""
    record = recordkit.loads(orjson.dumps(_with_texts(mark, mark, f"a{mark}b")))
    text = recordkit.dumps(record, form="text")
    assert to_data(recordkit.loads(text)) == to_data(record)
    path = tmp_path / "marks.rkn"
    recordkit.dump(record, path)
    assert to_data(recordkit.load(path)) == to_data(record)


@pytest.mark.parametrize("comment", [",", ";", ", ,", "a, b"])
def test_a_comment_of_commas_round_trips(comment: str) -> None:
    """spec/NOTATION.md: a comma inside quotes is text, never the comma between calls or cards:
    a comment `","` on the record, a deal, a trick and a call reads back as written (it was left
    out as a second value, and made an auction's calls one call)."""
    record = recordkit.loads(orjson.dumps(_with_texts("0", "", comment)))
    assert to_data(recordkit.loads(recordkit.dumps(record, form="text"))) == to_data(record)


@settings(max_examples=examples(60), deadline=None)
@given(st.text(min_size=1, max_size=12), st.text(max_size=12), st.text(max_size=40))
def test_any_text_in_names_tags_and_comments_round_trips(name: str, tag: str, comment: str) -> None:
    """Whatever the characters, the canonical text reads back as the record."""
    try:
        record = recordkit.loads(orjson.dumps(_with_texts(name, tag, comment)))
    except recordkit.RecordError:
        return  # not a record the format holds (a name written twice, say)
    assert to_data(recordkit.loads(recordkit.dumps(record, form="text"))) == to_data(record)


def test_lines_end_at_crlf_and_cr_as_at_lf() -> None:
    """A text written with `\\r\\n` or `\\r` reads as with `\\n`: the same records, lines and columns."""
    text = EVENING + "\n" + EVENING.replace("scores -1 9 1 1", "scores -1 9 1 x")
    read = [
        (r.data, dict(r.places or {}), r.notes) for r in text_sources(text, None) if isinstance(r, RawRecord)
    ]
    for other in ("\r\n", "\r"):
        written = text.replace("\n", other)
        for source in (written, written.encode()):
            again = [r for r in text_sources(source, None) if isinstance(r, RawRecord)]
            assert [(r.data, dict(r.places or {}), r.notes) for r in again] == read


# --- sizes (finding 11) ------------------------------------------------------------------------------


def _peak(read: Iterator[Any]) -> tuple[list[Any], int]:
    """What an iterator gives, and the most memory Python held while it ran (tracemalloc)."""
    tracemalloc.start()
    try:
        items = list(read)
        return items, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _many_deals(size: int) -> str:
    """A record of score-sheet deals taking more than `size` bytes of text."""
    deals = [SHEET_DEAL.format(n=n, d=(n - 1) % 4) for n in range(1, size // 80 + 2)]
    return HEADER + "".join(deals)


def test_a_record_over_the_size_limit_is_refused_unparsed_and_the_others_read(tmp_path: Path) -> None:
    """A record whose text is over 8 MB is RECORD-TOO-LARGE at its first line, found without
    parsing it (a parsed record takes dozens of times its text); the records around it are read."""
    big = _many_deals(MAX_RECORD_BYTES)
    path = tmp_path / "big.rkn"
    path.write_text(EVENING + "\n" + big + "\n" + EVENING, encoding="utf-8")
    first_line = EVENING.count("\n") + 2
    items, peak = _peak(read_records(path))
    assert [(i.location.record, i.location.line) for i in items][1] == (2, first_line)
    assert ["-" if isinstance(i, RawRecord) else i.code for i in items] == ["-", "RECORD-TOO-LARGE", "-"]
    assert peak < 3 * MAX_RECORD_BYTES, f"{peak:,} bytes held to refuse an 8 MB record"
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 2 and "3 record(s)" in result.output, result.output
    assert f"big.rkn:{first_line} record 2: error RECORD-TOO-LARGE" in result.output
    with pytest.raises(recordkit.RecordError, match="RECORD-TOO-LARGE"):
        recordkit.loads(big)
    converted = runner.invoke(app, ["convert", str(path), str(tmp_path / "out.jsonl")])
    assert "wrote 2 record(s)" in converted.output and "RECORD-TOO-LARGE" in converted.output


@pytest.mark.parametrize("breaks", ["\n", "\r\n", "\r"], ids=["lf", "crlf", "cr"])
def test_a_line_over_the_limit_is_read_on_in_chunks_and_refused(tmp_path: Path, breaks: str) -> None:
    """A line longer than the limit is never held whole: read on to its end in chunks, its record
    refused (RECORD-TOO-LARGE), the next record read at its line."""
    long_line = 'deal 1 dealer 0 comment "' + "a" * (MAX_RECORD_BYTES + 1000) + '"'
    text = HEADER + long_line + "\n\n" + EVENING
    path = tmp_path / "line.rkn"
    path.write_bytes(text.replace("\n", breaks).encode())
    items, peak = _peak(read_records(path))
    assert ["-" if isinstance(i, RawRecord) else i.code for i in items] == ["RECORD-TOO-LARGE", "-"]
    assert [i.location.line for i in items] == [1, 5]
    assert peak < 3 * MAX_RECORD_BYTES, f"{peak:,} bytes held to refuse a line of 8 MB"
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 2 and "2 record(s)" in result.output, result.output


# --- bytes that are not UTF-8 (finding 12) ----------------------------------------------------------


def test_bytes_not_utf8_are_refused_as_json_refuses_them(tmp_path: Path) -> None:
    """A `.rkn` holding bytes that are not UTF-8 exits 2 with the code the same bytes get as
    `.json`, at the line and column of the first; only the record holding them is refused."""
    latin = '[Game "joffre"]\n[Players "Gérard" "B" "C" "D"]\ndeal 1 dealer 0\n'.encode("latin-1")
    (tmp_path / "latin.rkn").write_bytes(latin)
    (tmp_path / "latin.json").write_bytes(
        b'{"format": "recordkit", "version": "1.1", "game": "joffre", "players": ["G\xe9rard"], "deals": []}'
    )
    found = {}
    for name in ("latin.rkn", "latin.json"):
        result = runner.invoke(app, ["validate", "--format", "jsonl", str(tmp_path / name)])
        assert result.exit_code == 2, result.output
        found[name] = [orjson.loads(line)["code"] for line in result.stdout.splitlines()]
    assert found["latin.rkn"] == found["latin.json"] == ["RECORD-BAD-JSON"]
    text = EVENING.encode() + b"\n" + latin + b"\n" + EVENING.encode()
    line = EVENING.count("\n") + 3
    assert _codes(text) == [("-", 1, 1, None), ("RECORD-BAD-JSON", 2, line, 12), ("-", 3, line + 3, None)]
    utf16 = EVENING.encode("utf-16")
    assert [(d.code, d.message) for d in text_sources(utf16, None) if isinstance(d, Diagnostic)] == [
        ("RECORD-BAD-JSON", "the text is UTF-16, not UTF-8: save it as UTF-8")
    ]
    assert _codes(io.BytesIO(b"\xef\xbb\xbf" + EVENING.encode()).read())[0][0] == "-"
