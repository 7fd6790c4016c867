"""Fuzzing of the notation's reader and of the recorder's prompt (issue 33): generated `.rkn`
texts and typed lines, damaged by seeded mutations (hostile pieces put in, parts cut out or
doubled, bytes that are not UTF-8), never make an exception escape: `recordkit.loads` raises
nothing but RecordError, `recordkit validate` exits 0, 1 or 2, the prompt exits 0, and no
traceback is shown; reading a text a chunk at a time is reading it whole."""

from __future__ import annotations

import tempfile
from functools import cache
from pathlib import Path
from typing import Any
from unittest import mock

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import recordkit
from recordkit.cli import app
from recordkit.codec import dumps
from recordkit.games import RULESETS
from recordkit.generate import generate_record
from recordkit.notation import read, stream, text_sources
from recordkit.raw import RawRecord
from tests.budget import examples
from tests.recording import GAMES, players, scripted_game

runner = CliRunner()
PIECES = [
    "[",
    "]",
    '"',
    "=",
    "= [",
    "{",
    "}",
    "\n",
    "\r",
    "\r\n",
    "\u2028",
    "\x85",
    "\ufeff",
    "\x00",
    "#",
    ",",
    ";",
    "@",
    "/",
    "\\",
    "♠",
    "é",
    "1" * 5000,
    "9" * 30,
    "-0.5",
    "1e400",
    "NaN",
    "null",
    "deal",
    "deal 1",
    "hand",
    "trick =",
    "result = {",
    "announce",
    "knock",
    "claim",
    "proposals",
    "surrender",
    '[Game "joffre"]',
    '[Players "A" "B"]',
    "[Option target = ",
    "= " + "[" * 40 + "]" * 40,
    "= " + "[" * 980 + "]" * 980,
    "= {" + '"a": {' * 40 + "}" * 41,
    "hands = [null]",
    "hands = []",
    "status annulled",
    "scores 1 2",
    "totals = 5",
    "announce = 5",
    "knock = {}",
    "auction = [{}]",
    "?",
    "undo",
    "abandon",
    "show",
    "random",
    "2:",
]
"""What a mutation puts in: the notation's marks, line breaks of every kind, numbers too long
to read, JSON nested too deep, keywords, and the prompt's commands."""
BAD_BYTES = [b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xff\xfe", b"\xe9"]
"""Bytes that are not UTF-8 (a lone byte, a cut character, a surrogate, UTF-16's mark, Latin-1)."""

mutations = st.lists(
    st.tuples(
        st.floats(0, 1),
        st.sampled_from(["put", "cut", "double"]),
        st.sampled_from(PIECES),
        st.integers(1, 60),
    ),
    min_size=1,
    max_size=8,
)


@cache
def texts() -> list[str]:
    """The canonical text of a short generated game of every table and form."""
    made = []
    for seed, (game, count, options) in enumerate(GAMES):
        for form in ("full", "tricks", "sheet"):
            record = generate_record(RULESETS[game], count, 2, seed, options=options, form=form)  # type: ignore[arg-type]
            made.append(dumps(record, form="text"))
    return made


@cache
def typed() -> list[tuple[str, int, dict[str, Any], list[str]]]:
    """A deal of every table as a scorekeeper types it, and as its text in the notation."""
    made = []
    for seed, (game, count, options) in enumerate(GAMES):
        script = scripted_game(game, count, options, seed=seed, deals=1)
        made.append((game, count, options, script.lines))
        made.append((game, count, options, dumps(script.recorder.record(), form="text").splitlines()))
    return made


def mutated(text: str, changes: list[tuple[float, str, str, int]]) -> str:
    """A text with each change made at its place: a piece put in, a part cut out or doubled."""
    for where, change, piece, length in changes:
        at = round(where * len(text))
        if change == "put":
            text = text[:at] + piece + text[at:]
        elif change == "cut":
            text = text[:at] + text[at + length :]
        else:
            text = text[:at] + text[at : at + length] + text[at:]
    return text


def with_bad_bytes(text: str, where: float, bad: int) -> bytes:
    """A text's UTF-8 with bytes that are not UTF-8 put in at a place (`bad` 0: none)."""
    data = text.encode()
    at = round(where * len(data))
    return data[:at] + (BAD_BYTES[bad - 1] if bad else b"") + data[at:]


def _no_traceback(result: Any) -> None:
    """A command's run ended by its exit status, not by an exception."""
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output


@settings(max_examples=examples(1000), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), mutations)
def test_loads_of_a_damaged_text_raises_only_record_error(pick: int, changes: list[Any]) -> None:
    """`loads` and `loads_all` of any damaged text give records or RecordError, nothing else."""
    pool = texts()
    text = mutated(pool[pick % len(pool)], changes)
    for read_all in (False, True):
        try:
            if read_all:
                for _record in recordkit.loads_all(text):
                    pass
            else:
                recordkit.loads(text)
        except recordkit.RecordError:
            pass


@settings(max_examples=examples(120), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), mutations, st.floats(0, 1), st.integers(0, len(BAD_BYTES)))
def test_validate_of_a_damaged_file_exits_0_1_or_2(
    pick: int, changes: list[Any], where: float, bad: int
) -> None:
    """`recordkit validate` of any damaged `.rkn` file, bytes that are not UTF-8 included, exits
    0, 1 or 2 without a traceback, and `convert` of it too."""
    pool = texts()
    content = with_bad_bytes(mutated(pool[pick % len(pool)], changes), where, bad)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "damaged.rkn"
        path.write_bytes(content)
        for command in (["validate", str(path)], ["convert", str(path), str(Path(folder) / "out.jsonl")]):
            result = runner.invoke(app, command)
            _no_traceback(result)
            assert result.exit_code in (0, 1, 2), result.output


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.lists(st.tuples(st.floats(0, 1), mutations), max_size=4), st.integers(0, 3))
@example(pick=2277, damage=[(0.375, [(0.5, "double", "[", 4)])], bad=0)  # a hand with DD7: a pass refused
def test_the_prompt_takes_damaged_lines_without_a_traceback(
    pick: int, damage: list[tuple[float, list[Any]]], bad: int
) -> None:
    """`recordkit record` fed a typed deal with lines damaged, put in or dropped (hostile pieces,
    deep JSON, bytes that are not UTF-8) refuses what it cannot take and exits 0."""
    pool = typed()
    game, count, options, lines = pool[pick % len(pool)]
    lines = list(lines)
    for where, changes in damage:
        at = round(where * (len(lines) - 1))
        lines[at] = mutated(lines[at], changes)
    content = "".join(line + "\n" for line in lines).encode()
    if bad:
        content = with_bad_bytes(content.decode(), damage[0][0] if damage else 0.5, bad)
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "game.json"
        options_given = [word for name, value in options.items() for word in ("-o", f"{name}={value}")]
        command = ["record", game, "--players", ",".join(players(count)), "--out", str(out), *options_given]
        result = runner.invoke(app, [*command, "--deals", "1"], input=content)
        _no_traceback(result)
        assert result.exit_code == 0, result.output[-2000:]


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.tuples(st.integers(0, 10**6), mutations), min_size=1, max_size=4),
    st.sampled_from(["\n", "\r\n", "\r"]),
    st.integers(1, 300),
    st.floats(0.1, 1.5),
)
def test_reading_a_chunk_at_a_time_and_a_record_at_a_time_is_reading_whole(
    parts: list[tuple[int, list[Any]]], breaks: str, chunk: int, share: float
) -> None:
    """A text read from its bytes a chunk at a time, and read a record at a time (a limit below
    the text's size), gives the records the reader gives of its lines read at once; a record over
    the limit is refused, never read in part, and the records before it are as read whole."""
    pool = texts()
    text = "\n".join(mutated(pool[pick % len(pool)], changes) for pick, changes in parts).replace(
        "\n", breaks
    )
    whole = read._Reader(None)
    lines = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    expected = [*whole.read(lines), *whole.finish()]
    limit = max(1, round(len(text.encode()) * share))
    with mock.patch.object(stream, "CHUNK", chunk), mock.patch.object(read, "MAX_RECORD_BYTES", limit):
        found = [_seen(item) for item in text_sources(text.encode(), None)]
    large = found.index("RECORD-TOO-LARGE") if "RECORD-TOO-LARGE" in found else len(found)
    assert found[:large] == [_seen(item) for item in expected[:large]]
    if large == len(found):
        assert len(found) == len(expected)


def _seen(item: Any) -> Any:
    """A record as read (its data, places and the reader's notes), or the code it is refused with."""
    refused = item if not isinstance(item, (RawRecord, read.TextRecord)) else getattr(item, "refused", None)
    if refused is not None:
        return refused.code
    return (item.data, dict(item.places), item.places.items_of, list(item.notes))
