"""Validating an archive a row group at a time: whole columns checked at once, records as a fallback.

For each row group (about 4,096 deals written together), the games whose ruleset has a columnar
check (`Ruleset.prove_columns`) are checked with NumPy over the calls, plays and scores rows; each
record proven clean becomes an empty report, and every other record is rebuilt from its lossless
`deal_json` for the record path, which finds and explains what is wrong. The rows are trusted to
be the records only while the part's files are the ones recordkit wrote (their SHA-256 in the
manifest) and the deal was tabled exactly as written (`deals.as_written`); anything else takes the
record path. So the verdicts are the record path's, and the tests compare them.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import orjson
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from recordkit.archive.convert import part_records
from recordkit.archive.store import Manifest, file_checksum, parquet_file, read_manifest
from recordkit.diagnostics import Location
from recordkit.games import RULESETS
from recordkit.quick import clean_header
from recordkit.rules.columns import COLUMNS, DICTIONARY_COLUMNS, Bools, ColumnRows
from recordkit.sources import RawLine, RawRecord
from recordkit.validate import Item, RecordReport, Settings


def archive_items(archive: Path, settings: Settings, parse: bool = True) -> Iterator[Item]:
    """Every record of an archive in order: an empty report for each record the columnar checks
    prove clean, the record itself (parsed, or as text when `parse` is False) for any other."""
    manifest = read_manifest(archive)
    for part in manifest.parts:
        files = {
            name: _opened(archive / name / f"{part}.parquet", columns) for name, columns in COLUMNS.items()
        }
        if not (_trusted(archive, manifest, part) and _aligned(files)):
            for game_id, text in part_records(archive, part):
                location = Location(file=str(archive), record=game_id + 1)
                yield RawRecord(orjson.loads(text), location) if parse else RawLine(text, location)
            continue
        for group in range(files["games"].num_row_groups):
            tables = {
                name: files[name].read_row_group(group, columns=columns) for name, columns in COLUMNS.items()
            }
            proven = _proven(tables, settings)
            games = {
                name: tables["games"].column(name).to_pylist() for name in ("game_id", "n_deals", "record")
            }
            deals = {} if proven.all() else _deal_texts(files["deals"], group)
            del tables
            pa.default_memory_pool().release_unused()  # keeps memory flat from row group to row group
            for game_id, n_deals, envelope, clean in zip(*games.values(), proven, strict=True):
                location = Location(file=str(archive), record=game_id + 1)
                if clean:
                    yield RecordReport(location, deal_count=n_deals)
                    continue
                record = orjson.loads(envelope)
                record["deals"] = [orjson.loads(text) for text in deals.get(game_id, [])]
                yield RawRecord(record, location) if parse else RawLine(orjson.dumps(record), location)


def _opened(path: Path, columns: list[str]) -> pq.ParquetFile:
    """A part of a table, its columns of few distinct strings read dictionary-encoded (the leaf
    column of a list of strings too)."""
    wanted = [c for c in columns if c in DICTIONARY_COLUMNS]
    leaves = [leaf.path for leaf in parquet_file(path).schema if leaf.path.split(".")[0] in wanted]
    return parquet_file(path, leaves)


def _trusted(archive: Path, manifest: Manifest, part: str) -> bool:
    """Whether every file of a part that the columnar checks read is the one recordkit wrote (its
    checksum in the manifest)."""
    written = manifest.checksums.get(part, {})
    return all(written.get(name) == file_checksum(archive / name / f"{part}.parquet") for name in COLUMNS)


def _aligned(files: dict[str, pq.ParquetFile]) -> bool:
    """Whether row group g of every table holds the rows of the games of row group g of the games
    table (as the converter writes them), with the columns the columnar checks read."""
    groups = files["games"].num_row_groups
    for name, parquet in files.items():
        if parquet.num_row_groups != groups or not set(COLUMNS[name]) <= set(parquet.schema_arrow.names):
            return False
    for group in range(groups):
        low, high = _game_range(files["games"], group)
        for parquet in files.values():
            first, last = _game_range(parquet, group)
            if first is None or low is None or first < low or last > high:
                return False
    return True


def _game_range(parquet: pq.ParquetFile, group: int) -> tuple[Any, Any]:
    """The lowest and highest game_id of a row group, from the file's statistics."""
    row_group = parquet.metadata.row_group(group)
    index = parquet.schema_arrow.get_field_index("game_id")
    statistics = row_group.column(index).statistics
    if statistics is None or not statistics.has_min_max:
        return None, None
    return statistics.min, statistics.max


def _proven(tables: dict[str, pa.Table], settings: Settings) -> Bools:
    """Which games of a row group the columnar checks prove clean."""
    games = tables["games"]
    names = games.column("game").to_pylist()
    proven = np.zeros(games.num_rows, dtype=bool)
    for name in set(names):
        ruleset = RULESETS.get(name)
        if ruleset is None or (settings.game is not None and name != settings.game):
            continue
        rows = np.flatnonzero(np.array(names) == name)
        chosen = games.take(rows)
        ids = pa.array(chosen.column("game_id").to_numpy())
        header_ok = np.array(
            [
                clean_header(orjson.loads(text), settings.game) is not None
                for text in chosen.column("record").to_pylist()
            ],
            dtype=bool,
        )
        of_game = ColumnRows(
            chosen,
            _rows_of(tables["deals"], ids),
            _rows_of(tables["calls"], ids),
            _rows_of(tables["plays"], ids),
            _rows_of(tables["scores"], ids),
            header_ok,
        )
        found = ruleset.prove_columns(of_game)
        if found is not None:
            proven[rows] = found
    return proven


def _rows_of(table: pa.Table, game_ids: pa.Array) -> pa.Table:
    """The rows of these games (all of them, when the row group holds no other game)."""
    mask = pc.is_in(table.column("game_id"), value_set=game_ids)
    return table if pc.all(mask).as_py() else table.filter(mask)


def _deal_texts(parquet: pq.ParquetFile, group: int) -> dict[int, list[str]]:
    """The lossless deals of a row group, by game."""
    rows = parquet.read_row_group(group, columns=["game_id", "deal_json"])
    texts: dict[int, list[str]] = {}
    for game_id, text in zip(
        rows.column("game_id").to_pylist(), rows.column("deal_json").to_pylist(), strict=True
    ):
        texts.setdefault(game_id, []).append(text)
    return texts
