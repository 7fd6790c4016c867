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

from recordkit.archive.manifest import ArchiveError, Manifest, part_file, read_manifest
from recordkit.archive.read import (
    DEALS_COLUMNS,
    GAMES_COLUMNS,
    Entry,
    Keyed,
    changed_files,
    count_problems,
    damage,
    in_order,
    joined,
    unit_entries,
)
from recordkit.archive.store import parquet_file
from recordkit.archive.tables import TABLES, required_tables
from recordkit.diagnostics import Diagnostic, Location
from recordkit.games import RULESETS
from recordkit.quick import clean_header
from recordkit.rules.columns import COLUMNS, DICTIONARY_COLUMNS, Bools, ColumnRows, ints, proof_of
from recordkit.sources import RawLine, RawRecord
from recordkit.validate import Item, RecordReport, Settings

GROUP_DEALS = 8192
"""The most games or deals rows of a row group the columnar check reads whole (the converter
writes about 4,096); a larger row group is read on the record path, in bounded batches."""
GROUP_ROWS = 1_048_576
"""The most calls, plays or scores rows of a row group the columnar check reads whole."""

Files = dict[str, pq.ParquetFile]


def archive_items(archive: Path, settings: Settings, parse: bool = True) -> Iterator[Item]:
    """Every record of an archive in order: an empty report for each record the columnar checks
    prove clean, the record itself (parsed, or as text when `parse` is False) for any other, and
    a diagnostic for each damaged file, row or count (recordkit.archive.read)."""
    manifest = read_manifest(archive)
    yield from count_problems(archive, manifest)
    yield from in_order(
        archive, manifest, lambda part, game: _unit_items(archive, manifest, part, game, settings, parse)
    )


def _unit_items(
    archive: Path, manifest: Manifest, part: str, game: str | None, settings: Settings, parse: bool
) -> Iterator[Keyed]:
    """The items of one part's files of a game, keyed by game_id: checked by whole columns when
    the files are recordkit's own, read record by record otherwise; first, each file changed
    since recordkit wrote it (its records are validated from their JSON all the same, but the
    tables analysts query no longer say what the records do)."""
    changed = changed_files(archive, manifest, part, game, required_tables(manifest.version))
    for change in changed:
        yield None, change
    files = None if changed else _columnar_files(archive, manifest, part, game)
    if files is None:
        for game_id, entry in unit_entries(archive, manifest, part, game):
            yield game_id, _item(archive, entry, parse)
        return
    for group in range(files["games"].num_row_groups):
        tables = {name: files[name].read_row_group(group, columns=_wanted(name, game)) for name in COLUMNS}
        if game is not None:
            rows = tables["games"].num_rows
            tables["games"] = tables["games"].append_column("game", pa.array([game] * rows, pa.string()))
        proven = _proven(tables, settings)
        games = {name: tables["games"].column(name).to_pylist() for name in ("game_id", "n_deals", "record")}
        unproven = [game_id for game_id, clean in zip(games["game_id"], proven, strict=True) if not clean]
        deals = _deal_texts(files["deals"], group, unproven) if unproven else {}
        del tables
        pa.default_memory_pool().release_unused()  # keeps memory flat from row group to row group
        for game_id, n_deals, envelope, clean in zip(*games.values(), proven, strict=True):
            location = Location(file=str(archive), record=game_id + 1)
            if clean:
                yield game_id, RecordReport(location, deal_count=n_deals)
                continue
            problem, text = joined(envelope, n_deals, deals.get(game_id, []))
            if text is None:
                path = part_file(archive, "games", part, game)
                yield game_id, damage(path, f"{problem}; the record is left out", game_id)
            else:
                yield game_id, _item(archive, (game_id, text), parse)


def _item(archive: Path, entry: Entry, parse: bool) -> Item:
    """A record read back as the validator takes it (a damage diagnostic as it is)."""
    if isinstance(entry, Diagnostic):
        return entry
    game_id, text = entry
    location = Location(file=str(archive), record=game_id + 1)
    return RawRecord(orjson.loads(text), location) if parse else RawLine(text, location)


def _wanted(table: str, game: str | None) -> list[str]:
    """The columns a columnar check reads from a table's file (`game` is the folder's, from version 4)."""
    return [c for c in COLUMNS[table] if game is None or c != "game"]


def _columnar_files(archive: Path, manifest: Manifest, part: str, game: str | None) -> Files | None:
    """A unit's files opened for the columnar check, or None when it must be read record by
    record: a file the manifest keeps no checksum of (those it keeps are checked first, by
    `changed_files`), rows not aligned as the converter writes them, a row group too large to
    read whole, or a file that cannot be opened or lacks a column the unit reads (the record path
    reports it)."""
    try:
        paths = {name: part_file(archive, name, part, game) for name in COLUMNS}
        if any(manifest.checksum(part, name, game) is None for name in COLUMNS):
            return None
        if not all(_typed(paths[name], name, game) for name in COLUMNS):
            return None
        files = {name: _opened(paths[name], _wanted(name, game)) for name in COLUMNS}
    except (ArchiveError, OSError):
        return None
    return files if _aligned(files, game) and _small(files) else None


LOSSLESS = {"games": list(GAMES_COLUMNS), "deals": list(DEALS_COLUMNS)}
"""The columns a unit reads besides the columnar check's: the records, for those not proven."""


def _typed(path: Path, table: str, game: str | None) -> bool:
    """Whether a file has the columns a unit reads (the columnar check's, and the lossless
    records'), each of the table's own type."""
    schema, expected = parquet_file(path).schema_arrow, TABLES[table]
    return all(
        schema.get_field_index(name) >= 0 and schema.field(name).type == expected.field(name).type
        for name in {*_wanted(table, game), *LOSSLESS.get(table, [])}
    )


def _opened(path: Path, columns: list[str]) -> pq.ParquetFile:
    """A part of a table, its columns of few distinct strings read dictionary-encoded (the leaf
    column of a list of strings too)."""
    wanted = [c for c in columns if c in DICTIONARY_COLUMNS]
    leaves = [leaf.path for leaf in parquet_file(path).schema if leaf.path.split(".")[0] in wanted]
    return parquet_file(path, leaves)


def _aligned(files: Files, game: str | None) -> bool:
    """Whether row group g of every table holds the rows of the games of row group g of the games
    table (as the converter writes them), with the columns the columnar checks read."""
    groups = files["games"].num_row_groups
    for name, parquet in files.items():
        if parquet.num_row_groups != groups or not set(_wanted(name, game)) <= set(
            parquet.schema_arrow.names
        ):
            return False
    for group in range(groups):
        low, high = _game_range(files["games"], group)
        for parquet in files.values():
            first, last = _game_range(parquet, group)
            if first is None or low is None or first < low or last > high:
                return False
    return True


def _small(files: Files) -> bool:
    """Whether every row group is small enough to be read whole (GROUP_DEALS, GROUP_ROWS)."""
    for name, parquet in files.items():
        limit = GROUP_DEALS if name in ("games", "deals") else GROUP_ROWS
        metadata = parquet.metadata
        if any(metadata.row_group(g).num_rows > limit for g in range(metadata.num_row_groups)):
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
    """Which games of a row group the columnar checks prove clean (none, should the rows be
    other than the converter writes them: then every record takes the record path)."""
    try:
        return _proven_by_columns(tables, settings)
    except (pa.ArrowException, ValueError, TypeError, KeyError, IndexError):
        return np.zeros(tables["games"].num_rows, dtype=bool)


def _proven_by_columns(tables: dict[str, pa.Table], settings: Settings) -> Bools:
    """Which games of a row group the rulesets' columnar checks prove clean."""
    games = tables["games"]
    names = games.column("game").to_pylist()
    proven = np.zeros(games.num_rows, dtype=bool)
    for name in set(names):
        ruleset = RULESETS.get(name)
        if ruleset is None or (settings.game is not None and name != settings.game):
            continue
        rows = np.flatnonzero(np.array(names) == name)
        alone = len(rows) == games.num_rows  # the row group holds this game alone (a game's folder)
        chosen = games if alone else games.take(rows)
        ids = pa.array(chosen.column("game_id").to_numpy())
        header_ok = np.array(
            [
                clean_header(orjson.loads(text), settings.game) is not None
                for text in chosen.column("record").to_pylist()
            ],
            dtype=bool,
        )
        deals, calls, plays, scores = (
            tables[table] if alone else _rows_of(tables[table], ids)
            for table in ("deals", "calls", "plays", "scores")
        )
        of_game = ColumnRows(chosen, deals, calls, plays, scores, header_ok)
        found = ruleset.prove_columns(of_game)
        if found is not None:
            proven[rows] = proof_of(found, of_game).clean(ints(deals, "game_id"), ints(chosen, "game_id"))
    return proven


def _rows_of(table: pa.Table, game_ids: pa.Array) -> pa.Table:
    """The rows of these games."""
    return table.filter(pc.is_in(table.column("game_id"), value_set=game_ids))


def _deal_texts(parquet: pq.ParquetFile, group: int, game_ids: list[int]) -> dict[int, list[tuple[Any, Any]]]:
    """The lossless deals of these games of a row group, (deal, deal_json) by game."""
    rows = parquet.read_row_group(group, columns=["game_id", "deal", "deal_json"])
    rows = rows.filter(pc.is_in(rows.column("game_id"), value_set=pa.array(game_ids, pa.int64())))
    texts: dict[int, list[tuple[Any, Any]]] = {}
    for game_id, deal, text in zip(
        *(rows.column(name).to_pylist() for name in ("game_id", "deal", "deal_json")), strict=True
    ):
        texts.setdefault(game_id, []).append((deal, text))
    return texts
