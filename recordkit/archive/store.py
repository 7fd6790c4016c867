"""The archive directory: atomic writes and appends of its parts, one file per table and game.

An archive is a directory with one sub-directory per table, partitioned by game
(`<table>/game=<game>/part-NNNNN.parquet`, so that each table is its own dataset), and a manifest,
`_recordkit.json` (recordkit.archive.manifest), listing the committed parts. Every write builds
the complete new archive in a hidden sibling directory (hard-linking the parts it keeps) and then
swaps it into place in one atomic step, so a reader sees the old archive or the new one, never a
half-written file; an interrupted or failed write leaves the previous archive untouched.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import shutil
import uuid
from collections.abc import Iterable, Iterator
from pathlib import Path

import orjson
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from recordkit.archive.manifest import (
    MANIFEST,
    PARTITIONED,
    ArchiveError,
    Manifest,
    extra_files,
    file_checksum,
    inside,
    is_archive,
    part_file,
    read_manifest,
    relative_file,
)
from recordkit.archive.tables import ARCHIVE_VERSION, TABLES, required_tables
from recordkit.model import FORMAT_VERSION
from recordkit.version import __version__

__all__ = [
    "MANIFEST",
    "ArchiveError",
    "ArchiveWriter",
    "Manifest",
    "file_checksum",
    "is_archive",
    "parquet_file",
    "read_batches",
    "read_manifest",
    "replace_table",
    "stored_schema",
    "swap_into_place",
    "table_files",
]

STAGING = ".staging-"


def stored_schema(table: str) -> pa.Schema:
    """A table's schema as its files hold it: without `game`, which the folder names (`game=...`)."""
    schema = TABLES[table]
    index = schema.get_field_index("game")
    return schema if index < 0 else schema.remove(index)


def parquet_file(path: Path, dictionary: list[str] | None = None) -> pq.ParquetFile:
    """Open one Parquet part (reading the `dictionary` columns dictionary-encoded), turning a
    corrupt or truncated file into an ArchiveError naming it."""
    try:
        return pq.ParquetFile(path, read_dictionary=dictionary)
    except (pa.ArrowException, OSError, ValueError):
        raise ArchiveError("not a readable Parquet file (damaged, cut short or empty)", path) from None


def read_batches(path: Path, columns: list[str], rows: int) -> Iterator[pa.RecordBatch]:
    """One Parquet part's columns in batches of at most `rows`, whatever the size of its row groups.

    Each row group is streamed with its own reader, which is dropped before the next: a reader
    kept over the whole file holds memory it has read (pyarrow 26: about 220 MB per million deals).
    """
    parquet = parquet_file(path)
    try:
        for group in range(parquet.num_row_groups):
            yield from parquet.iter_batches(batch_size=rows, row_groups=[group], columns=columns)
            pa.default_memory_pool().release_unused()
    except (pa.ArrowException, OSError, ValueError):
        raise ArchiveError("a row group cannot be read (the file is damaged)", path) from None


KEY_COLUMNS = {
    "games": ("game_id", "n_deals", "record"),
    "deals": ("game_id", "deal", "deal_json"),
    "calls": ("game_id", "deal", "kind"),
    "plays": ("game_id", "deal", "card"),
    "scores": ("game_id", "deal", "score"),
}
"""Columns by which a file is known to be its table's (a file of another table lacks one)."""


def table_files(archive: Path) -> dict[str, tuple[list[Path], bool]]:
    """Each table's committed files (the extra tables' too) and whether their folders name the
    game (`game=...`, version 4), every file checked first to open as its table's Parquet, so that
    a damaged or swapped file is an ArchiveError naming it before a query engine reads anything."""
    manifest = read_manifest(archive)
    partitioned = manifest.version >= PARTITIONED
    found: dict[str, tuple[list[Path], bool]] = {}
    present = required_tables(manifest.version)  # a table newer than the archive is an empty one
    for table in TABLES:
        files = [
            part_file(archive, table, part, game)
            for part in manifest.parts
            for game in manifest.units(part)
            if table in present
        ]
        found[table] = (files, partitioned)
    for table in manifest.extra_tables:
        found[table] = (extra_files(archive, table), False)
    for table, (files, _hive) in found.items():
        for path in files:
            names = parquet_file(path).schema_arrow.names
            missing = [c for c in KEY_COLUMNS.get(table, ()) if c not in names]
            if missing:
                raise ArchiveError(
                    f"has no column {missing[0]!r}, so it is not the archive's {table} table", path
                )
    return found


class ArchiveWriter:
    """Writes one new part of every table, a file per game, into a staging copy of the archive,
    then swaps it in."""

    def __init__(self, target: Path, append: bool) -> None:
        self.target = target
        append = append and target.exists()
        self.manifest = read_manifest(target) if append else Manifest()
        if self.manifest.version < ARCHIVE_VERSION:
            raise ArchiveError(
                f"{target / MANIFEST}: archive version {self.manifest.version} is laid out differently "
                f"from version {ARCHIVE_VERSION}, which this recordkit writes; convert it back to JSON "
                f"lines and again to append to it"
            )
        _remove_stale_staging(target)
        self.staging = target.parent / f".{target.name}{STAGING}{uuid.uuid4().hex[:12]}"
        self.staging.mkdir(parents=True)
        if append:  # the extra tables (violations) describe the old content only: they are dropped
            _link_parts(target, self.staging, self.manifest, extra=[])
            self.manifest.extra_tables = []
        numbers = [int(part.removeprefix("part-")) for part in self.manifest.parts]
        self.part = f"part-{max(numbers, default=-1) + 1:05d}"
        self.writers: dict[tuple[str, str], pq.ParquetWriter] = {}
        self.counts: dict[str, dict[str, int]] = {}
        self.options_seen: dict[str, set[str]] = {}

    def write(self, batches: dict[str, list[pa.RecordBatch]], games: int, deals: int) -> None:
        """Append the record batches of each table to the new part, split by game: one row group
        per table and game."""
        tables = {name: pa.Table.from_batches(parts, schema=TABLES[name]) for name, parts in batches.items()}
        names = tables["games"].column("game")
        games_met = sorted(set(names.to_pylist()))
        for game in games_met:
            chosen = pc.equal(names, game)
            ids = tables["games"].filter(chosen).column("game_id")
            for name, table in tables.items():
                if len(games_met) == 1:  # one game: its rows are all the rows, not copied by a filter
                    rows = table
                else:
                    mask = chosen if name == "games" else pc.is_in(table.column("game_id"), value_set=ids)
                    rows = table.filter(mask)
                if "game" in rows.schema.names:
                    rows = rows.drop_columns(["game"])
                if rows.num_rows:
                    self._writer(name, game).write_table(rows, row_group_size=rows.num_rows)
            counts = self.counts.setdefault(game, {"games": 0, "deals": 0})
            counts["games"] += len(ids)
            counts["deals"] += pc.sum(pc.is_in(tables["deals"].column("game_id"), value_set=ids)).as_py() or 0
        for game, options in zip(
            names.to_pylist(), tables["games"].column("options").to_pylist(), strict=True
        ):
            self.options_seen.setdefault(game, set()).add(options)
        self.manifest.games += games
        self.manifest.deals += deals

    def _writer(self, table: str, game: str) -> pq.ParquetWriter:
        """The writer of a table's file for a game, all of the game's opened when it first appears."""
        if (table, game) not in self.writers:
            for name in TABLES:
                path = self.staging / relative_file(name, self.part, game)
                path.parent.mkdir(parents=True, exist_ok=True)
                self.writers[(name, game)] = pq.ParquetWriter(path, stored_schema(name), compression="zstd")
        return self.writers[(table, game)]

    def commit(self) -> Manifest:
        """Close the part's files with their metadata, write the manifest, and swap the new archive in."""
        for (_table, game), writer in self.writers.items():
            writer.add_key_value_metadata(
                {
                    "recordkit.archive_version": str(ARCHIVE_VERSION),
                    "recordkit.record_format": FORMAT_VERSION,
                    "recordkit.tool": f"recordkit {__version__}",
                    "recordkit.game": game,
                    "recordkit.options": orjson.dumps(
                        {game: sorted(self.options_seen.get(game, set()))}
                    ).decode(),
                }
            )
            writer.close()
        self.manifest.parts.append(self.part)
        self.manifest.contents[self.part] = dict(sorted(self.counts.items()))
        self.manifest.checksums[self.part] = {
            relative_file(table, self.part, game): file_checksum(
                self.staging / relative_file(table, self.part, game)
            )
            for game in sorted(self.counts)
            for table in TABLES
        }
        manifest_path = self.staging / MANIFEST
        manifest_path.write_bytes(self.manifest.dumps())
        _fsync_tree(self.staging)
        swap_into_place(self.staging, self.target)
        return self.manifest

    def abort(self) -> None:
        """Drop everything written; the previous archive (if any) is untouched."""
        for writer in self.writers.values():
            with contextlib.suppress(Exception):
                writer.close()
        shutil.rmtree(self.staging, ignore_errors=True)


def replace_table(archive: Path, name: str, batches: Iterable[pa.RecordBatch], schema: pa.Schema) -> None:
    """Write (or replace) an extra table of an archive, such as the violations, atomically."""
    manifest = read_manifest(archive)
    _remove_stale_staging(archive)
    staging = archive.parent / f".{archive.name}{STAGING}{uuid.uuid4().hex[:12]}"
    staging.mkdir(parents=True)
    try:
        _link_parts(archive, staging, manifest, extra=[t for t in manifest.extra_tables if t != name])
        (staging / name).mkdir()
        with pq.ParquetWriter(staging / name / "part-00000.parquet", schema, compression="zstd") as writer:
            for batch in batches:
                writer.write_batch(batch)
        if name not in manifest.extra_tables:
            manifest.extra_tables.append(name)
        (staging / MANIFEST).write_bytes(manifest.dumps())
        _fsync_tree(staging)
        swap_into_place(staging, archive)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def swap_into_place(staging: Path, target: Path) -> None:
    """Make `staging` the archive at `target` atomically, then delete the old archive."""
    if not target.exists():
        os.rename(staging, target)
        return
    if _exchange(staging, target):
        shutil.rmtree(staging, ignore_errors=True)  # staging now holds the old archive
        return
    old = target.parent / f".{target.name}.old-{uuid.uuid4().hex[:12]}"
    os.rename(target, old)
    os.rename(staging, target)
    shutil.rmtree(old, ignore_errors=True)


def _exchange(first: Path, second: Path) -> bool:
    """Swap two directories in one step with renameat2(RENAME_EXCHANGE), where the system has it."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    result = renameat2(at_fdcwd, os.fsencode(first), at_fdcwd, os.fsencode(second), rename_exchange)
    return bool(result == 0)


def _link_parts(source: Path, destination: Path, manifest: Manifest, extra: list[str]) -> None:
    """Hard-link the files of every part the manifest lists, and of the `extra` tables kept, into a
    staging copy (no data is copied; nothing the manifest does not list is carried over)."""
    files = [
        part_file(source, table, part, game)
        for part in manifest.parts
        for game in manifest.units(part)
        for table in TABLES
    ]
    files += [path for table in extra for path in extra_files(source, table)]
    for path in files:
        target = destination / path.relative_to(source)
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(inside(source, path), target)
        except OSError:
            shutil.copy2(path, target)


def _fsync_tree(root: Path) -> None:
    """Flush every file and directory of the staging copy to disk before it is swapped in."""
    for path in [*root.rglob("*"), root]:
        descriptor = os.open(path, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)


def _remove_stale_staging(target: Path) -> None:
    """Remove staging copies left by a write that was killed (they are never part of the archive)."""
    if target.parent.is_dir():
        for stale in target.parent.glob(f".{target.name}{STAGING}*"):
            shutil.rmtree(stale, ignore_errors=True)
        for stale in target.parent.glob(f".{target.name}.old-*"):
            shutil.rmtree(stale, ignore_errors=True)
