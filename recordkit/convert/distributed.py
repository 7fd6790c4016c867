"""Building an archive on a Dask cluster (`convert --scheduler`): each worker writes whole parts.

The records are read here, unparsed, in chunks of at most PART_RECORDS records or PART_BYTES of
text; each chunk becomes one part of the archive. A worker replays a chunk (`rows_of`, what a
`--jobs` worker runs) and keeps its rows; only their counts come back here, which number the
games in input order (game ids count on from the chunks before); the same worker then writes the
part, with its rows so numbered, through `ArchiveWriter` into a folder of its own inside the
staging copy of the archive, and moves its files into place. Once every part is written, this
process writes the manifest with the parts' checksums and swaps the new archive in, in one
atomic step, as a one-process conversion does. A worker lost midway is replaced by Dask, which
computes again what it held (the rows, the part) from the chunk; a part written twice is the same
bytes. Every worker needs recordkit and the staging folder (the target's parent) on a shared file
system.
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyarrow as pa
import pyarrow.compute as pc

from recordkit.archive.manifest import MANIFEST, ArchiveError, relative_file
from recordkit.archive.store import ArchiveWriter, _fsync_tree, swap_into_place
from recordkit.archive.tables import TABLES
from recordkit.convert.archive import Converted, ConvertReport, Progress, rows_of
from recordkit.diagnostics import Diagnostic
from recordkit.raw import RawLine
from recordkit.reading import raw_records
from recordkit.sources import Source

if TYPE_CHECKING:
    from distributed import Client, Future

PART_RECORDS = 1024
"""The most records of one part (one task on the cluster)."""
PART_BYTES = 4 * 1024 * 1024
"""The most text of one part's records: about 5,000 Tarot deals, a row group the columnar check
reads whole, and a task of a few seconds."""
RETRIES = 2
"""Times a task that failed (raised, not a lost worker: Dask redoes those itself) is tried again."""
OWN = ".writing-"
"""The folder a worker writes a part in, inside the staging copy (never part of the archive)."""


@dataclass
class Counted:
    """What a chunk's rows hold: their games and deals, and the records left out (not frozen:
    a frozen dataclass compiled by mypyc does not unpickle)."""

    games: int
    deals: int
    skipped: list[Diagnostic]


@dataclass
class Part:
    """A part written by a worker: its name, what it holds by game, its files' SHA-256 by path."""

    name: str
    contents: dict[str, dict[str, int]]
    checksums: dict[str, str]


def to_archive_on_cluster(
    paths: Iterable[str],
    target: Path,
    client: Client,
    append: bool = False,
    replace: bool = False,
    strict: bool = False,
    progress: Progress | None = None,
    valid_only: bool = False,
    part_bytes: int = PART_BYTES,
) -> ConvertReport:
    """`to_archive` on the cluster: the same records, rows and game ids, in one part per chunk."""
    if target.exists() and not append and not replace:
        raise ArchiveError(f"{target}: exists; use --append to add to it or --replace to replace it")
    writer = ArchiveWriter(target, append=append)  # the staging copy, its old parts linked in
    report = ConvertReport()
    chunks = _chunks(raw_records(paths, parse=False, skip=target), part_bytes)
    try:
        pipeline = _Pipeline(client, writer, partial(rows_of, valid_only=valid_only))
        for counted, part in pipeline.parts(chunks):
            report.skipped += counted.skipped
            report.records += counted.games
            report.deals += counted.deals
            if part is not None:
                writer.manifest.parts.append(part.name)
                writer.manifest.contents[part.name] = part.contents
                writer.manifest.checksums[part.name] = part.checksums
            if progress is not None:
                progress(report.records, report.deals)
        if strict and report.skipped:
            raise ArchiveError(f"{len(report.skipped)} record(s) could not be read; nothing was written")
        _commit(writer, report)
    except BaseException:
        writer.abort()
        raise
    return report


def _commit(writer: ArchiveWriter, report: ConvertReport) -> None:
    """Write the manifest last, with every part's counts and checksums, and swap the new archive
    in (what a failed attempt at a part left in its own folder is not part of it)."""
    for leftover in writer.staging.glob(f"{OWN}*"):
        shutil.rmtree(leftover, ignore_errors=True)
    writer.manifest.games += report.records
    writer.manifest.deals += report.deals
    (writer.staging / MANIFEST).write_bytes(writer.manifest.dumps())
    _fsync_tree(writer.staging)
    swap_into_place(writer.staging, writer.target)


def _chunks(items: Iterable[Source], part_bytes: int) -> Iterator[list[Source]]:
    """The records in chunks of at most PART_RECORDS records and about `part_bytes` of text."""
    chunk: list[Source] = []
    size = 0
    for item in items:
        chunk.append(item)
        size += len(item.text) if isinstance(item, RawLine) else 0
        if len(chunk) >= PART_RECORDS or size >= part_bytes:
            yield chunk
            chunk, size = [], 0
    if chunk:
        yield chunk


class _Pipeline:
    """The chunks on the cluster, in input order: replayed (the rows stay on the worker), counted
    (the counts come here and number the games), then written as parts; at most two chunks per
    worker thread are held on the cluster at a time."""

    def __init__(self, client: Client, writer: ArchiveWriter, rows: partial[Converted]) -> None:
        self.client, self.writer, self.rows = client, writer, rows
        self.window = 2 * max(sum(client.nthreads().values()), 1)  # type: ignore[no-untyped-call]
        self.counting: deque[tuple[Future[Converted], Future[Counted]]] = deque()
        self.writing: deque[tuple[Counted, Future[Part] | None]] = deque()
        self.games = writer.manifest.games  # an append counts on from the archive's games
        self.next_part = int(writer.part.removeprefix("part-"))

    def parts(self, chunks: Iterable[list[Source]]) -> Iterator[tuple[Counted, Part | None]]:
        """Each chunk's counts and its part (None for a chunk without a game to store), in order."""
        from recordkit.cluster import cluster_errors

        with cluster_errors(self.client, self._held):
            for chunk in chunks:
                converted = self.client.submit(self.rows, chunk, pure=False, retries=RETRIES)
                counted = self.client.submit(_counted, converted, pure=False, retries=RETRIES)
                self.counting.append((converted, counted))
                while self.counting and self.counting[0][1].done():  # type: ignore[no-untyped-call]
                    self._number()
                while len(self.counting) + len(self.writing) >= self.window:
                    if self.writing and (not self.counting or _ready(self.writing[0][1])):
                        yield self._written()
                    else:
                        self._number()
            while self.counting:
                self._number()
            while self.writing:
                yield self._written()

    def _number(self) -> None:
        """The oldest chunk's counts give its games their ids: its part is written."""
        converted, counts = self.counting.popleft()
        counted = counts.result()
        future = None
        if counted.games:
            name = f"part-{self.next_part:05d}"
            write = partial(_write_part, self.writer.staging, name, self.games)
            future = self.client.submit(write, converted, pure=False, retries=RETRIES)
            self.next_part += 1
        self.writing.append((counted, future))
        self.games += counted.games

    def _written(self) -> tuple[Counted, Part | None]:
        """The oldest chunk's counts and part, once written."""
        counted, future = self.writing.popleft()
        return counted, None if future is None else future.result()

    def _held(self) -> list[Future[Any]]:
        """The futures still held on the cluster (cancelled when the conversion stops early)."""
        held: list[Future[Any]] = [f for pair in self.counting for f in pair]
        return held + [f for _counted, f in self.writing if f is not None]


def _ready(future: Future[Part] | None) -> bool:
    return future is None or bool(future.done())  # type: ignore[no-untyped-call]


def _counted(converted: Converted) -> Counted:
    """What a chunk's rows hold (a small task: only this comes back, the rows stay on the worker)."""
    return Counted(converted.games, converted.deals, converted.skipped)


def _write_part(staging: Path, name: str, offset: int, converted: Converted) -> Part:
    """Write a chunk's rows, game ids counted from `offset`, as the part `name` of the archive
    being staged (a worker's job): through ArchiveWriter into a folder of its own, whose files then
    replace any of an earlier attempt. Returns what the part holds and its files' checksums."""
    own = staging / f"{OWN}{name}-{uuid.uuid4().hex[:12]}"
    own.mkdir()
    try:
        alone = ArchiveWriter(own / "archive", append=False)
        batches = {table: [_shifted(batch, offset)] for table, batch in converted.batches.items()}
        alone.write(batches, converted.games, converted.deals)
        manifest = alone.commit()
        written = manifest.parts[0]
        checksums = {}
        for game in manifest.contents[written]:
            for table in TABLES:
                source, path = relative_file(table, written, game), relative_file(table, name, game)
                (staging / path).parent.mkdir(parents=True, exist_ok=True)
                os.replace(own / "archive" / source, staging / path)
                checksums[path] = manifest.checksums[written][source]
        return Part(name, manifest.contents[written], checksums)
    finally:
        shutil.rmtree(own, ignore_errors=True)


def _shifted(batch: pa.RecordBatch, offset: int) -> pa.RecordBatch:
    """A chunk's rows with game ids counted from `offset`, where the chunk lands in the archive."""
    index = batch.schema.get_field_index("game_id")
    if offset == 0 or index < 0:
        return batch
    field = batch.schema.field(index)
    return batch.set_column(index, field, pc.add(batch.column(index), pa.scalar(offset, field.type)))
