"""Seeded mutation fuzzing of every game's sample records: whatever the bytes, the public API
raises nothing but RecordError, and the command line exits 0, 1 or 2 without a traceback."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from typer.testing import CliRunner

import recordkit
from recordkit.cli import app
from recordkit.games import RULESETS

SAMPLES = Path(__file__).parent.parent / "samples"
MUTANTS_PER_GAME = 500
SEED = 15
DEEP = b"[" * 1000 + b"]" * 1000
HUGE_NUMBERS = [
    b"1e19",
    b"18446744073709551616",
    b"-9223372036854775809",
    b"1e308",
    b"-0.0",
    b"9007199254740993",
]
ODD_VALUES: list[Any] = [None, True, "", "x" * 300, "1e3", [], {}, [[]], {"": None}, -1, 0.5, "ſ6", "\u0000"]


def sample_records(game: str) -> list[Any]:
    """The game's valid sample records, each cut to its first deal (to keep the run short)."""
    records: list[Any] = []
    for path in sorted((SAMPLES / game).iterdir()):
        lines = path.read_bytes().splitlines() if path.suffix == ".jsonl" else [path.read_bytes()]
        records += [orjson.loads(line) for line in lines if line.strip()]
    for record in records:
        record["deals"] = record["deals"][:1]
    return records


def places(value: Any) -> list[tuple[Any, Any]]:
    """Every (container, key or index) inside a JSON value, walked without recursion."""
    found: list[tuple[Any, Any]] = []
    stack = [value]
    while stack:
        item = stack.pop()
        keys = list(item) if isinstance(item, dict) else range(len(item)) if isinstance(item, list) else []
        for key in keys:
            found.append((item, key))
            stack.append(item[key])
    return found


def mutant(record: Any, rng: random.Random) -> bytes:
    """One damaged form of a record: a value replaced, a key dropped or doubled, deep nesting,
    a huge number, the text cut short or a byte flipped, a byte-order mark."""
    data = orjson.loads(orjson.dumps(record))
    container, key = rng.choice(places(data))
    kind = rng.randrange(9)
    if kind == 0:
        container[key] = rng.choice(ODD_VALUES)
    elif kind == 1:
        container[key] = "@huge@"
    elif kind == 2:
        container[key] = "@deep@"
    elif kind == 3 and isinstance(container, dict):
        del container[key]
    elif kind == 3:
        container.append(container[key])
    text = orjson.dumps(data).replace(b'"@deep@"', DEEP).replace(b'"@huge@"', rng.choice(HUGE_NUMBERS))
    if kind == 4 and isinstance(container, dict):
        doubled = orjson.dumps({key: container[key]})[1:-1]
        text = text.replace(doubled, doubled + b"," + doubled, 1)
    elif kind in (5, 6, 7):
        text = damaged(text, kind - 5, rng)
    return text


def damaged(text: bytes, how: int, rng: random.Random) -> bytes:
    """A text's bytes damaged as a file is: cut short (`how` 0), one byte changed (1), a
    byte-order mark put before it (2)."""
    if how == 0:
        return text[: rng.randrange(len(text))]
    if how == 1:
        at = rng.randrange(len(text))
        return text[:at] + bytes([rng.randrange(256)]) + text[at + 1 :]
    return b"\xef\xbb\xbf" + text


def mutants(game: str) -> list[bytes]:
    """MUTANTS_PER_GAME mutants of the game's samples, the same on every run."""
    rng = random.Random(f"{SEED}-{game}")
    records = sample_records(game)
    return [mutant(rng.choice(records), rng) for _ in range(MUTANTS_PER_GAME)]


def api_calls(text: bytes) -> Iterator[Callable[[], object]]:
    """Each public call on one mutant: loads and loads_all, then validate and dumps of what reads."""
    yield lambda: list(recordkit.loads_all(text))
    try:
        record = recordkit.loads(text)
    except recordkit.RecordError:
        return
    yield lambda: recordkit.validate(record)
    yield lambda: recordkit.dumps(record)
    yield lambda: recordkit.dumps(record, indent=True)


@pytest.mark.parametrize("game", list(RULESETS))
def test_no_exception_escapes_the_public_api(game: str) -> None:
    escaped: list[str] = []
    for number, text in enumerate(mutants(game)):
        for call in api_calls(text):
            try:
                call()
            except recordkit.RecordError:
                pass
            except Exception as error:
                escaped.append(f"mutant {number}: {type(error).__name__}: {str(error)[:200]}")
    assert escaped == []


@pytest.mark.parametrize("game", list(RULESETS))
def test_the_cli_exits_0_1_or_2_on_files_of_mutants(game: str, tmp_path: Path) -> None:
    texts = mutants(game)
    (tmp_path / "mutants.jsonl").write_bytes(b"\n".join(texts) + b"\n")
    (tmp_path / "mutants.json").write_bytes(b"[" + b",\n".join(t for t in texts if b"\n" not in t) + b"]")
    runner = CliRunner()
    for name in ("mutants.jsonl", "mutants.json"):
        for mode in ([], ["--lenient"]):
            result = runner.invoke(app, ["validate", "-q", *mode, str(tmp_path / name)])
            error = result.exception
            assert error is None or isinstance(error, SystemExit), f"{name}: {type(error).__name__}: {error}"
            assert result.exit_code in (0, 1, 2), result.output


def test_load_all_reads_up_to_the_first_unreadable_record_and_raises_only_record_errors(
    tmp_path: Path,
) -> None:
    texts = [text for game in RULESETS for text in mutants(game)[:50]]
    for number, text in enumerate(texts):
        path = tmp_path / f"{number}.jsonl"
        path.write_bytes(b"\n".join([*(orjson.dumps(r) for r in sample_records("joffre")[:2]), text]))
        try:
            assert len(list(recordkit.load_all(path))) == 3
        except recordkit.RecordError as error:
            assert str(path) in str(error)
