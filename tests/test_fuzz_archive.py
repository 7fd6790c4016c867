"""Seeded mutations of an archive's files: no exception escapes `validate`, `convert` back or
`stats`, and every exit status is 0, 1 or 2 (issue 15).

Each mutant applies one to three mutations to a copy of a small archive of two parts and two
games: a manifest field set to a value of another shape, a file truncated, zeroed in part, a byte
flipped, swapped with another, removed or made a link out of the archive, a cell edited through
pyarrow (with the manifest's checksum updated or not, so that the columnar path sees hostile rows
too). RECORDKIT_FUZZ_MUTANTS sets how many (default 100, well under a minute).
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
from pathlib import Path
from typing import Any

import orjson
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from recordkit.cli import app
from recordkit.convert.archive import to_archive
from recordkit.games import RULESETS
from recordkit.generate import generate_record
from recordkit.model import to_data
from tests.helpers import generated

runner = CliRunner()
MUTANTS = int(os.environ.get("RECORDKIT_FUZZ_MUTANTS", "100"))
VALUES: list[Any] = [
    None,
    [],
    {},
    "",
    "2",
    "x",
    -5,
    0,
    1,
    3,
    4,
    99,
    2**70,
    True,
    1.5,
    ["part-00000", "part-00000"],
    ["../../outside/games/part-00000"],
    ["/etc/passwd"],
    {"part-00000": None},
    {"part-00000": {"french-tarot": {"games": -1, "deals": 2}}},
    {"part-00000": {"games": "0" * 64}},
    "a" * 500,
]
FIELDS = [
    "format",
    "version",
    "record_format",
    "tool",
    "parts",
    "games",
    "deals",
    "extra_tables",
    "contents",
    "checksums",
]
CELLS: list[Any] = [None, "", "{", "null", "[]", '{"a": 1}', "[1, 2]", -5, 0, 1, 7, 2**31 - 1, True]


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An archive of two parts holding French Tarot and Joffre records."""
    folder = tmp_path_factory.mktemp("fuzz")
    joffre = RULESETS["joffre"]
    first = [generated(4, 1, deals=2), to_data(generate_record(joffre, 4, 2, 1)), generated(3, 2, deals=2)]
    second = [generated(5, 3, deals=2), to_data(generate_record(joffre, 4, 1, 2))]
    for name, records in (("a.jsonl", first), ("b.jsonl", second)):
        (folder / name).write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in records))
    to_archive([str(folder / "a.jsonl")], folder / "archive")
    to_archive([str(folder / "b.jsonl")], folder / "archive", append=True)
    return folder / "archive"


def parquet_files(archive: Path) -> list[Path]:
    return sorted(path for path in archive.rglob("*.parquet") if path.is_file() and not path.is_symlink())


def mutate_manifest(archive: Path, chance: random.Random) -> None:
    path = archive / "_recordkit.json"
    data = orjson.loads(path.read_bytes())
    field = chance.choice(FIELDS)
    if chance.random() < 0.15:
        data.pop(field, None)
    elif chance.random() < 0.1:
        data["unknown"] = 1
    else:
        data[field] = chance.choice(VALUES)
    path.write_bytes(json.dumps(data).encode())  # json: the values may hold an integer beyond 64 bits


def mutate_bytes(archive: Path, chance: random.Random) -> None:
    path = chance.choice(parquet_files(archive) or [archive / "_recordkit.json"])
    content = bytearray(path.read_bytes())
    kind = chance.choice(["truncate", "zero", "flip"])
    if kind == "truncate":
        content = content[: chance.randrange(len(content) + 1)]
    elif kind == "zero" and content:
        start = chance.randrange(len(content))
        content[start : start + chance.randrange(1, 200)] = bytes(min(len(content) - start, 200))
    elif content:
        content[chance.randrange(len(content))] ^= 1 << chance.randrange(8)
    path.write_bytes(bytes(content))


def mutate_files(archive: Path, chance: random.Random, outside: Path) -> None:
    files = parquet_files(archive)
    if len(files) < 2:
        return
    first, second = chance.sample(files, 2)
    kind = chance.choice(["swap", "copy", "remove", "link"])
    if kind == "swap":
        held = first.read_bytes()
        first.write_bytes(second.read_bytes())
        second.write_bytes(held)
    elif kind == "copy":
        shutil.copy(second, first)
    elif kind == "remove":
        first.unlink()
    else:
        outside.mkdir(exist_ok=True)
        target = outside / f"{chance.randrange(10**9)}.parquet"
        shutil.copy(first, target)
        first.unlink()
        first.symlink_to(target)


def mutate_cell(archive: Path, chance: random.Random) -> None:
    files = parquet_files(archive)
    if not files:
        return
    path = chance.choice(files)
    try:
        table = pq.read_table(path)
    except (pa.ArrowException, OSError):
        return
    if not table.num_rows:
        return
    index = chance.randrange(table.num_columns)
    field = table.schema.field(index)
    values = table.column(index).to_pylist()
    value = chance.choice(CELLS)
    try:
        values[chance.randrange(len(values))] = value
        column = pa.array(values, field.type)
    except (pa.ArrowException, TypeError, ValueError, OverflowError):
        column = pa.array([value] * len(values)) if chance.random() < 0.3 else table.column(index)
        field = pa.field(field.name, column.type)
    try:
        pq.write_table(table.set_column(index, field, column), path)
    except (pa.ArrowException, TypeError):
        return
    if chance.random() < 0.5:  # the manifest made to trust the edited file
        manifest_path = archive / "_recordkit.json"
        manifest = orjson.loads(manifest_path.read_bytes())
        relative = str(path.relative_to(archive))
        part = path.stem
        if isinstance(manifest.get("checksums"), dict) and isinstance(manifest["checksums"].get(part), dict):
            manifest["checksums"][part][relative] = hashlib.sha256(path.read_bytes()).hexdigest()
            manifest_path.write_bytes(orjson.dumps(manifest))


def mutant(template: Path, folder: Path, seed: int) -> Path:
    chance = random.Random(seed)
    archive = Path(shutil.copytree(template, folder / "archive"))
    for _ in range(chance.randint(1, 3)):
        kind = chance.choice(["manifest", "bytes", "files", "cell", "cell"])
        if kind == "manifest":
            mutate_manifest(archive, chance)
        elif kind == "bytes":
            mutate_bytes(archive, chance)
        elif kind == "files":
            mutate_files(archive, chance, folder / "outside")
        else:
            mutate_cell(archive, chance)
    return archive


def test_no_mutant_of_an_archive_escapes_the_commands(template: Path, tmp_path: Path) -> None:
    statuses: dict[int, int] = {}
    for seed in range(MUTANTS):
        folder = tmp_path / str(seed)
        folder.mkdir()
        archive = mutant(template, folder, seed)
        commands = [["validate", str(archive), "-q"], ["convert", str(archive), str(folder / "back.jsonl")]]
        if seed % 3 == 0:
            commands.append(["stats", str(archive)])
        for command in commands:
            result = runner.invoke(app, command)
            escaped = result.exception is not None and not isinstance(result.exception, SystemExit)
            assert not escaped, f"seed {seed}, {command[0]}: {result.exception!r}"
            assert result.exit_code in (0, 1, 2), f"seed {seed}, {command[0]}: {result.exit_code}"
            assert "Traceback" not in result.output, f"seed {seed}, {command[0]}"
            statuses[result.exit_code] = statuses.get(result.exit_code, 0) + 1
        shutil.rmtree(folder)
    assert statuses.get(2, 0) > MUTANTS // 2  # the mutations do damage
