"""Hostile and damaged record files: deep nesting, huge lines and records, byte-order marks,
archives in folders; none may raise, hold a whole file in memory, or hide the records after it."""

from __future__ import annotations

import contextlib
import io
import os
import stat
from pathlib import Path
from unittest import mock

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import recordkit
from recordkit import jsonread, limits
from recordkit.cli import app
from recordkit.convert.archive import to_archive
from recordkit.jsonread import MAX_RECORD_BYTES, json_file_records
from recordkit.raw import RawLine, RawRecord
from recordkit.reading import read_records
from recordkit.sources import write_atomic
from tests.budget import examples
from tests.helpers import generated

runner = CliRunner()
DEEP = b"[" * 1000 + b"]" * 1000
"""1,000 levels of lists: orjson reads them (it stops at 1,024); a record nests 7."""


def record_text(**changes: object) -> bytes:
    """A clean generated record's JSON, with keys replaced (b"@" values by DEEP)."""
    data = generated(4, 1)
    data.update(changes)
    return orjson.dumps(data).replace(b'"@"', DEEP)


def codes(path: Path) -> list[str]:
    """The codes of what reading a file finds, before validation."""
    return [item.code for item in read_records(path) if not isinstance(item, (RawRecord, RawLine))]


@pytest.mark.parametrize("key", ["format", "version", "game", "players", "comment", "unknown"])
def test_deep_nesting_is_refused_and_the_lines_after_it_are_reported(tmp_path: Path, key: str) -> None:
    path = tmp_path / "deep.jsonl"
    path.write_bytes(record_text(**{key: "@"}) + b"\n" + record_text() + b"\n{}\n")
    for mode in ([], ["--lenient"]):
        result = runner.invoke(app, ["validate", *mode, "--format", "jsonl", str(path)])
        found = [orjson.loads(line) for line in result.stdout.splitlines()]
        assert result.exit_code == 2, result.output
        assert [(d["code"], d["line"]) for d in found] == [("RECORD-TOO-DEEP", 1), ("RECORD-FORMAT", 3)]


def test_deep_nesting_in_python_is_a_record_error() -> None:
    with pytest.raises(recordkit.RecordError, match="RECORD-TOO-DEEP"):
        recordkit.loads(record_text(format="@"))


def test_convert_skips_a_deep_record_and_writes_the_others(tmp_path: Path) -> None:
    path = tmp_path / "deep.jsonl"
    path.write_bytes(record_text(game="@") + b"\n" + record_text() + b"\n")
    report = to_archive([str(path)], tmp_path / "archive")
    assert report.records == 1 and [d.code for d in report.skipped] == ["RECORD-TOO-DEEP"]


def test_a_list_is_read_record_by_record_and_a_broken_element_is_placed(tmp_path: Path) -> None:
    path = tmp_path / "list.json"
    path.write_bytes(b"[\n" + record_text() + b",\n" + record_text() + b',\n{"a": tru}, {}]')
    items = list(read_records(path))
    assert [type(i).__name__ for i in items] == ["RawRecord", "RawRecord", "Diagnostic"]
    assert [i.location.record for i in items] == [1, 2, 3]
    last = items[-1]
    assert not isinstance(last, (RawRecord, RawLine))
    assert last.code == "RECORD-BAD-JSON" and last.location.line == 4 and "column 7" in last.message


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"[]", []),
        (b' [ {"a": "x,]\\"}"}, [1, [2]] ,"s"] \n', [{"a": 'x,]"}'}, [1, [2]], "s"]),
        (b'[{"a": "\\\\"}, {"b": "\\\\\\""}]', [{"a": "\\"}, {"b": '\\"'}]),
        (b'\xef\xbb\xbf{"a": 1}', [{"a": 1}]),
    ],
)
def test_a_list_reads_as_orjson_reads_it(content: bytes, expected: list[object]) -> None:
    items = list(json_file_records(io.BytesIO(content), None))
    assert [i.data for i in items if isinstance(i, RawRecord)] == expected


@pytest.mark.parametrize(
    ("content", "code"),
    [
        (b'[{"a": 1}, {"b": 2}', "RECORD-TRUNCATED"),
        (b'[{"a": 1},', "RECORD-TRUNCATED"),
        (b'[{"a": 1}] x', "RECORD-BAD-JSON"),
        (b'[{"a": 1} {"b": 2}]', "RECORD-BAD-JSON"),
        (b"[1,,2]", "RECORD-BAD-JSON"),
        (b'[{"a": [1}, {}]', "RECORD-BAD-JSON"),
        (b'{"a": 1} {}', "RECORD-BAD-JSON"),
        (b" " * 100_000, "FILE-EMPTY"),
    ],
)
def test_a_damaged_list_gets_its_code(content: bytes, code: str) -> None:
    items = list(json_file_records(io.BytesIO(content), "f.json"))
    assert [i.code for i in items if not isinstance(i, RawRecord)] == [code]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.text(alphabet='ab,[]{}"\\é\n '),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(alphabet='k,"\\]'), inner, max_size=3)
    ),
    max_leaves=12,
)


@settings(max_examples=examples(150), deadline=None)
@given(st.lists(json_values, max_size=8), st.sampled_from([1, 7, 64]))
def test_a_list_read_in_small_windows_is_the_list(values: list[object], chunk: int) -> None:
    text = orjson.dumps(values, option=orjson.OPT_INDENT_2)
    with mock.patch.object(jsonread, "CHUNK", chunk):
        for parse in (True, False):
            items = list(json_file_records(io.BytesIO(text), None, parse))
            assert [i.data if isinstance(i, RawRecord) else orjson.loads(i.text) for i in items] == values


def test_a_record_over_the_limit_is_refused_and_the_next_is_read(tmp_path: Path) -> None:
    huge = b'{"comment": "' + b"a" * MAX_RECORD_BYTES + b'"}'
    (tmp_path / "lines.jsonl").write_bytes(huge + b"\n" + record_text() + b"\n")
    (tmp_path / "noline.jsonl").write_bytes(huge)
    (tmp_path / "list.json").write_bytes(b"[" + huge + b",\n" + record_text() + b"]")
    (tmp_path / "one.json").write_bytes(huge)
    assert codes(tmp_path / "lines.jsonl") == ["RECORD-TOO-LARGE"]
    assert [i.location.line for i in read_records(tmp_path / "lines.jsonl")] == [1, 2]
    assert codes(tmp_path / "noline.jsonl") == ["RECORD-TOO-LARGE"]
    assert codes(tmp_path / "list.json") == ["RECORD-TOO-LARGE"]
    assert [i.location.record for i in read_records(tmp_path / "list.json")] == [1, 2]
    assert codes(tmp_path / "one.json") == ["RECORD-TOO-LARGE"]
    result = runner.invoke(app, ["validate", str(tmp_path / "lines.jsonl")])
    assert result.exit_code == 2 and "2 record(s)" in result.output


def test_a_record_larger_than_a_window_is_read(tmp_path: Path) -> None:
    data = generated(4, 1)
    data["meta"] = {f"note {n}": "é" * 9_000 for n in range(100)}  # 1.8 MB, each text within its limit
    (tmp_path / "list.json").write_bytes(orjson.dumps([data, generated(4, 1)]))
    second = generated(4, 1)["meta"]
    assert [r.meta for r in recordkit.load_all(tmp_path / "list.json")] == [data["meta"], second]


@pytest.mark.parametrize("name", ["notepad.json", "notepad.jsonl"])
def test_a_byte_order_mark_is_skipped_with_a_warning(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_bytes(jsonread.BOM + record_text() + b"\n")
    strict = runner.invoke(app, ["validate", str(path)])
    assert strict.exit_code == 1 and "FILE-BOM" in strict.output and "1 record(s)" in strict.output
    assert runner.invoke(app, ["validate", "--lenient", str(path)]).exit_code == 0
    assert recordkit.load(path).game == "french-tarot"
    assert recordkit.loads(jsonread.BOM.decode() + record_text().decode()).game == "french-tarot"
    assert to_archive([str(path)], tmp_path / "archive").skipped == []


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (b"\xff", "not UTF-8 at line 1, column 1"),
        (b"[\xff]", "not UTF-8 at line 1, column 2"),
        (b"# a remark\n\xe9t\xe9\n", "not UTF-8 at line 2, column 1"),
        (record_text().decode().encode("utf-16"), "UTF-16, not UTF-8"),
        (jsonread.BOM + b"\xff", "not UTF-8 at line 1, column 1"),
    ],
)
def test_bytes_that_are_not_utf8_are_a_record_error(content: bytes, said: str) -> None:
    """Issue 33: `loads` and `loads_all` of bytes neither JSON nor UTF-8 raised UnicodeDecodeError."""
    for read in (recordkit.loads, lambda text: list(recordkit.loads_all(text))):
        with pytest.raises(recordkit.RecordError) as raised:
            read(content)
        (diagnostic,) = raised.value.diagnostics
        assert diagnostic.code == "RECORD-BAD-JSON" and said in diagnostic.message


def test_the_summary_counts_a_broken_line_as_an_unreadable_record(tmp_path: Path) -> None:
    lines = [record_text()] * 5
    lines.insert(2, b'{"format": "recordkit",')
    path = tmp_path / "six.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 2 and "6 record(s)" in result.output


def test_a_folder_holding_an_archive_validates_and_converts_it_as_an_archive(tmp_path: Path) -> None:
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "games.jsonl").write_bytes(record_text() + b"\n")
    to_archive([str(folder / "games.jsonl")], folder / "archive")
    result = runner.invoke(app, ["validate", str(folder)])
    assert result.exit_code == 0, result.output
    assert "2 file(s), 2 record(s)" in result.output
    converted = runner.invoke(app, ["convert", str(folder), str(folder / "again")])
    assert converted.exit_code == 0 and "skipped" not in converted.output
    assert "wrote 2 record(s)" in converted.output
    replaced = runner.invoke(app, ["convert", str(folder), str(folder / "again"), "--replace"])
    assert "wrote 2 record(s)" in replaced.output, "the archive being written is not an input"


def test_load_all_reads_lists_and_json_lines_and_load_names_the_file(tmp_path: Path) -> None:
    (tmp_path / "two.jsonl").write_bytes(record_text() + b"\n\n" + record_text() + b"\n")
    (tmp_path / "two.json").write_bytes(b"[" + record_text() + b"," + record_text() + b"]")
    (tmp_path / "one.jsonl").write_bytes(record_text() + b"\n")
    (tmp_path / "bad.jsonl").write_bytes(record_text() + b"\n{}\n")
    for name in ("two.jsonl", "two.json"):
        assert len(list(recordkit.load_all(tmp_path / name))) == 2
        with pytest.raises(recordkit.RecordError, match=f"{name}.*FILE-MANY-RECORDS.*load_all"):
            recordkit.load(tmp_path / name)
    assert len(list(recordkit.loads_all((tmp_path / "two.jsonl").read_text()))) == 2
    assert len(list(recordkit.loads_all((tmp_path / "two.json").read_bytes()))) == 2
    assert recordkit.load(tmp_path / "one.jsonl").game == "french-tarot"
    records = recordkit.load_all(tmp_path / "bad.jsonl")
    next(records)
    with pytest.raises(recordkit.RecordError, match=r"bad\.jsonl:2 record 2: error RECORD-FORMAT"):
        next(records)


def test_written_files_get_the_usual_mode(tmp_path: Path) -> None:
    umask = os.umask(0o022)
    try:
        write_atomic(tmp_path / "new.json", b"{}")
        recordkit.dump(recordkit.loads(record_text()), tmp_path / "dumped.json")
        assert stat.S_IMODE((tmp_path / "new.json").stat().st_mode) == 0o644
        assert stat.S_IMODE((tmp_path / "dumped.json").stat().st_mode) == 0o644
        (tmp_path / "new.json").chmod(0o640)
        write_atomic(tmp_path / "new.json", b"[]")
        assert stat.S_IMODE((tmp_path / "new.json").stat().st_mode) == 0o640
    finally:
        os.umask(umask)


LIMITED = {"MAX_TEXT": 12, "MAX_ITEMS": 3, "MAX_DEALS": 5, "MAX_KEYS": 3}
"""Limits small enough for generated values to cross each of them (format.limits)."""
small_texts = st.text(max_size=16) | st.sampled_from(["", "é" * 12, "é" * 13, '"' * 7, "\\" * 7])
small_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | small_texts,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(small_texts, inner, max_size=5),
    max_leaves=40,
)
small_records = st.dictionaries(small_texts, small_values, max_size=4).flatmap(
    lambda header: st.lists(small_values, max_size=7).map(lambda deals: {**header, "deals": deals})
)


@settings(max_examples=examples(400), deadline=None)
@given(small_records | st.lists(small_values, max_size=5))
def test_within_limits_is_the_walk_that_names_each_place_over_them(data: object) -> None:
    """format.limits: the quick test a record or deal's short JSON settles (its own compact JSON,
    or the text it was read from, compact or indented) agrees with `oversized`, the walk that
    names each place over the limits, on records and lists on both sides of every limit."""
    with mock.patch.multiple(limits, **LIMITED):
        expected = not limits.oversized(data)
        assert limits.within_limits(data) == expected
        for option in (None, orjson.OPT_INDENT_2):
            with contextlib.suppress(TypeError):  # a value no JSON text read by orjson holds
                text = orjson.dumps(data, option=option)
                assert limits.within_limits(data, text) == expected
