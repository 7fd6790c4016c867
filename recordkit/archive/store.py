"""The archive directory: its manifest, atomic writes and appends, and checked opening.

An archive is a directory with one sub-directory of Parquet parts per table and a manifest,
`_recordkit.json`, listing the committed parts. Every write builds the complete new archive in a
hidden sibling directory (hard-linking the parts it keeps) and then swaps it into place in one
atomic step, so a reader sees the old archive or the new one, never a half-written file; an
interrupted or failed write leaves the previous archive untouched.
"""

from __future__ import annotations

import contextlib
import ctypes
import hashlib
import os
import shutil
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

import orjson
import pyarrow as pa
import pyarrow.parquet as pq

from recordkit import __version__
from recordkit.archive.tables import ARCHIVE_FORMAT, ARCHIVE_VERSION, TABLES, required_tables
from recordkit.model import FORMAT_VERSION

MANIFEST = "_recordkit.json"
STAGING = ".staging-"


class ArchiveError(Exception):
    """An archive that cannot be read or written; the message names the file."""


@dataclass
class Manifest:
    """What an archive holds: its parts in order and their counts."""

    format: str = ARCHIVE_FORMAT
    version: int = ARCHIVE_VERSION
    record_format: str = FORMAT_VERSION
    tool: str = f"recordkit {__version__}"
    parts: list[str] = field(default_factory=list)
    games: int = 0
    deals: int = 0
    extra_tables: list[str] = field(default_factory=list)
    checksums: dict[str, dict[str, str]] = field(default_factory=dict)
    """SHA-256 of each part's table files as written: the columnar check trusts a part's rows
    only while its files are the ones recordkit wrote from the records."""

    def dumps(self) -> bytes:
        """The manifest file's content."""
        return orjson.dumps(asdict(self), option=orjson.OPT_INDENT_2) + b"\n"


def is_archive(path: Path) -> bool:
    """True for a directory that has an archive manifest."""
    return (path / MANIFEST).is_file()


def read_manifest(path: Path) -> Manifest:
    """The manifest of an archive, checked: format, version, and every part of every table present."""
    manifest_path = path / MANIFEST
    if not path.is_dir():
        raise ArchiveError(f"{path}: not a directory, so not a recordkit archive")
    if not manifest_path.is_file():
        raise ArchiveError(f"{path}: not a recordkit archive (no {MANIFEST})")
    try:
        data = orjson.loads(manifest_path.read_bytes())
        manifest = Manifest(**data)
    except (orjson.JSONDecodeError, TypeError) as error:
        raise ArchiveError(f"{manifest_path}: unreadable manifest ({error})") from None
    if manifest.format != ARCHIVE_FORMAT:
        raise ArchiveError(f"{manifest_path}: format {manifest.format!r} is not {ARCHIVE_FORMAT!r}")
    if manifest.version > ARCHIVE_VERSION:
        raise ArchiveError(
            f"{manifest_path}: archive version {manifest.version} is newer than this recordkit reads "
            f"({ARCHIVE_VERSION}); upgrade recordkit"
        )
    for table in required_tables(manifest.version):
        for part in manifest.parts:
            part_path = path / table / f"{part}.parquet"
            if not part_path.is_file():
                raise ArchiveError(f"{part_path}: missing; the archive's table {table!r} is incomplete")
    return manifest


def file_checksum(path: Path) -> str:
    """The SHA-256 of a file, in hex."""
    with path.open("rb") as file:
        return hashlib.file_digest(file, "sha256").hexdigest()


def parquet_file(path: Path, dictionary: list[str] | None = None) -> pq.ParquetFile:
    """Open one Parquet part (reading the `dictionary` columns dictionary-encoded), turning a
    corrupt or truncated file into an ArchiveError naming it."""
    try:
        return pq.ParquetFile(path, read_dictionary=dictionary)
    except (pa.ArrowException, OSError) as error:
        raise ArchiveError(f"{path}: not a readable Parquet file ({error})") from None


def read_batches(path: Path, columns: list[str], rows: int) -> Iterator[pa.RecordBatch]:
    """One Parquet part's columns in batches of `rows`, reading one row group at a time.

    `ParquetFile.iter_batches` keeps memory it has read (pyarrow 26: about 220 MB per million
    deals); reading row group by row group keeps it flat.
    """
    parquet = parquet_file(path)
    try:
        for group in range(parquet.num_row_groups):
            yield from parquet.read_row_group(group, columns=columns).to_batches(max_chunksize=rows)
    except (pa.ArrowException, OSError) as error:
        raise ArchiveError(f"{path}: not a readable Parquet file ({error})") from None


class ArchiveWriter:
    """Writes one new part of every table into a staging copy of the archive, then swaps it in."""

    def __init__(self, target: Path, append: bool) -> None:
        self.target = target
        append = append and target.exists()
        self.manifest = read_manifest(target) if append else Manifest()
        if self.manifest.version < ARCHIVE_VERSION:
            raise ArchiveError(
                f"{target / MANIFEST}: archive version {self.manifest.version} has fewer columns than "
                f"version {ARCHIVE_VERSION}, which this recordkit writes; convert it back to JSON lines "
                f"and again to append to it"
            )
        _remove_stale_staging(target)
        self.staging = target.parent / f".{target.name}{STAGING}{uuid.uuid4().hex[:12]}"
        self.staging.mkdir(parents=True)
        if append:  # the extra tables (violations) describe the old content only: they are dropped
            _link_tree(target, self.staging, skip=set(self.manifest.extra_tables))
            self.manifest.extra_tables = []
        self.part = f"part-{len(self.manifest.parts):05d}"
        self.writers: dict[str, pq.ParquetWriter] = {}
        for name, schema in TABLES.items():
            (self.staging / name).mkdir(exist_ok=True)
            self.writers[name] = pq.ParquetWriter(
                self.staging / name / f"{self.part}.parquet", schema, compression="zstd"
            )
        self.options_seen: dict[str, set[str]] = {}

    def write(self, batches: dict[str, list[pa.RecordBatch]], games: int, deals: int) -> None:
        """Append the record batches of each table to the new part, as one row group per table."""
        for name, parts in batches.items():
            rows = pa.Table.from_batches(parts, schema=TABLES[name])
            if rows.num_rows:
                self.writers[name].write_table(rows, row_group_size=rows.num_rows)
        for part in batches["games"]:
            for game, options in zip(
                part.column("game").to_pylist(), part.column("options").to_pylist(), strict=True
            ):
                self.options_seen.setdefault(game, set()).add(options)
        self.manifest.games += games
        self.manifest.deals += deals

    def commit(self) -> Manifest:
        """Close the part with its metadata, write the manifest, and swap the new archive in."""
        metadata = {
            "recordkit.archive_version": str(ARCHIVE_VERSION),
            "recordkit.record_format": FORMAT_VERSION,
            "recordkit.tool": f"recordkit {__version__}",
            "recordkit.options": orjson.dumps(
                {game: sorted(options) for game, options in sorted(self.options_seen.items())}
            ).decode(),
        }
        for writer in self.writers.values():
            writer.add_key_value_metadata(metadata)
            writer.close()
        self.manifest.parts.append(self.part)
        self.manifest.checksums[self.part] = {
            name: file_checksum(self.staging / name / f"{self.part}.parquet") for name in TABLES
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
        _link_tree(archive, staging, skip={name})
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


def _link_tree(source: Path, destination: Path, skip: frozenset[str] | set[str] = frozenset()) -> None:
    """Hard-link every table part of an archive into a staging copy (no data is copied)."""
    for table_dir in source.iterdir():
        if not table_dir.is_dir() or table_dir.name in skip:
            continue
        (destination / table_dir.name).mkdir(exist_ok=True)
        for part in table_dir.iterdir():
            target = destination / table_dir.name / part.name
            try:
                os.link(part, target)
            except OSError:
                shutil.copy2(part, target)


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
