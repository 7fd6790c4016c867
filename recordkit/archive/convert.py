"""Converting records to a Parquet archive and back, streaming in record batches.

To the archive: every record is parsed and replayed (the tables hold what the rules derive:
trick winners, contracts, computed scores), buffered, and flushed every `batch_deals` deals, so
memory stays flat however large the input. Back: each game's envelope and deals are joined again
into the exact canonical record that went in.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import orjson
import pyarrow as pa
import pyarrow.compute as pc

from recordkit.archive.store import ArchiveError, ArchiveWriter, read_batches, read_manifest
from recordkit.archive.tables import TABLES, Rows
from recordkit.diagnostics import Diagnostic, Location, Severity
from recordkit.engine import DealReplay
from recordkit.games import RULESETS
from recordkit.model import FORMAT_VERSION
from recordkit.parallel import chunked, ordered_map
from recordkit.quick import clean_replays
from recordkit.sources import RawRecord, Source, atomic_output, parsed, raw_records
from recordkit.validate import RecordReport, Settings, validate_record

BATCH_DEALS = 4096
"""Deals buffered before they are written as one row group of each table."""
READ_ROWS = 1024
"""Rows read at a time when converting back: small batches keep memory flat."""


@dataclass
class ConvertReport:
    """What a conversion did: records and deals written, and the records it could not read."""

    records: int = 0
    deals: int = 0
    skipped: list[Diagnostic] = field(default_factory=list)


Progress = Callable[[int, int], None]
"""Called with (records, deals) done so far."""


@dataclass
class Converted:
    """The rows of a chunk of records (game ids counted from 0), and the records left out."""

    batches: dict[str, pa.RecordBatch]
    games: int
    deals: int
    skipped: list[Diagnostic]


def to_archive(
    paths: Iterable[str],
    target: Path,
    append: bool = False,
    replace: bool = False,
    strict: bool = False,
    progress: Progress | None = None,
    batch_deals: int = BATCH_DEALS,
    jobs: int = 1,
    valid_only: bool = False,
) -> ConvertReport:
    """Convert JSON/JSONL files (or directories of them) into the archive at `target`.

    Records that cannot be read are reported and skipped (with `strict`, nothing is written);
    with `valid_only`, so are records that break a rule (the command line's default).
    With `jobs` > 1 the records are replayed on that many processes; the archive is the same.
    """
    if target.exists() and not append and not replace:
        raise ArchiveError(f"{target}: exists; use --append to add to it or --replace to replace it")
    writer = ArchiveWriter(target, append=append)
    report = ConvertReport()
    buffered: dict[str, list[pa.RecordBatch]] = {name: [] for name in TABLES}
    games = deals = 0
    try:
        rows = partial(rows_of, valid_only=True) if valid_only else rows_of
        for chunk in ordered_map(rows, chunked(raw_records(paths, parse=jobs <= 1, skip=target)), jobs):
            report.skipped += chunk.skipped
            for name, batch in chunk.batches.items():
                buffered[name].append(_shift_game_ids(batch, writer.manifest.games + games))
            games, deals = games + chunk.games, deals + chunk.deals
            report.records += chunk.games
            report.deals += chunk.deals
            if deals >= batch_deals:
                writer.write(buffered, games, deals)
                buffered = {name: [] for name in TABLES}
                games = deals = 0
            if progress is not None:
                progress(report.records, report.deals)
        if strict and report.skipped:
            raise ArchiveError(f"{len(report.skipped)} record(s) could not be read; nothing was written")
        writer.write(buffered, games, deals)
        writer.commit()
    except BaseException:
        writer.abort()
        raise
    return report


def rows_of(items: list[Source], fast: bool = True, valid_only: bool = False) -> Converted:
    """Replay each record and make its rows (a worker's job); unreadable records are left out,
    and with `valid_only` records with errors too.

    A clean record is replayed on the fast path (`fast`: the tests turn it off to compare), any
    other through the full validation."""
    rows = Rows()
    skipped: list[Diagnostic] = []
    for source in items:
        item = parsed(source)
        if isinstance(item, Diagnostic):
            skipped += [item] if item.severity == Severity.ERROR else []  # a BOM's warning skips nothing
            continue
        report = (fast and _replayed_fast(item)) or validate_record(item, Settings(strict=True))
        if _complete(report) and not (valid_only and _errors(report)):
            rows.add(rows.games, report, _source(item.location))
        else:
            skipped += [d for d in report.diagnostics if d.severity == Severity.ERROR]
    games, deals = rows.games, rows.deals
    return Converted(rows.batches(), games, deals, skipped)


def _replayed_fast(item: RawRecord) -> RecordReport | None:
    """The report of a clean record replayed on the fast path, with its parsed model (for the
    canonical form); None when the fast path cannot prove it clean."""
    deals = clean_replays(item.data)
    if deals is None:
        return None
    record = RULESETS[item.data["game"]].Record.model_validate({**item.data, "version": FORMAT_VERSION})
    replays: list[DealReplay | None] = [
        DealReplay(deal.state, [], deal.scores, deal.actions, deal.completion) for deal in deals
    ]
    return RecordReport(item.location, [], record, replays)


def _shift_game_ids(batch: pa.RecordBatch, offset: int) -> pa.RecordBatch:
    """A chunk's rows with game ids counted from `offset`, where the chunk lands in the archive."""
    if offset == 0 or "game_id" not in batch.schema.names:
        return batch
    index = batch.schema.get_field_index("game_id")
    shifted = pc.add(batch.column(index), pa.scalar(offset, batch.schema.field(index).type))
    return batch.set_column(index, batch.schema.field(index), shifted)


def _errors(report: RecordReport) -> bool:
    """A record that breaks a rule (an error, not a warning or note)."""
    return any(d.severity == Severity.ERROR for d in report.diagnostics)


def _complete(report: RecordReport) -> bool:
    """A record every part of which parsed, so that its canonical form is the whole record."""
    record = report.record
    return (
        record is not None
        and RULESETS[record.game].table(record.options, len(record.players))[0] is not None
        and len(record.deals) == len(report.replays)
        and all(replay is not None for replay in report.replays)
    )


def _source(location: Location) -> str:
    where = location.file or ""
    if location.line is not None:
        return f"{where}:{location.line}"
    return f"{where}#{location.record}" if location.record is not None else where


def archive_records(archive: Path) -> Iterator[tuple[int, bytes]]:
    """(game_id, canonical record JSON) for every game of an archive, in order, streamed."""
    for part in read_manifest(archive).parts:
        yield from part_records(archive, part)


def part_records(archive: Path, part: str) -> Iterator[tuple[int, bytes]]:
    """(game_id, canonical record JSON) for every game of one part of an archive, streamed."""
    games = read_batches(archive / "games" / f"{part}.parquet", ["game_id", "n_deals", "record"], READ_ROWS)
    deals = _deal_rows(archive / "deals" / f"{part}.parquet")
    for batch in games:
        for game_id, n_deals, envelope in zip(
            batch.column("game_id").to_pylist(),
            batch.column("n_deals").to_pylist(),
            batch.column("record").to_pylist(),
            strict=True,
        ):
            record = orjson.loads(envelope)
            record["deals"] = [_deal_of(game_id, deals, archive, part) for _ in range(n_deals)]
            yield game_id, orjson.dumps(record)


def _deal_rows(path: Path) -> Iterator[tuple[int, str]]:
    for batch in read_batches(path, ["game_id", "deal_json"], READ_ROWS):
        yield from zip(
            batch.column("game_id").to_pylist(), batch.column("deal_json").to_pylist(), strict=True
        )


def _deal_of(game_id: int, deals: Iterator[tuple[int, str]], archive: Path, part: str) -> Any:
    found = next(deals, None)
    if found is None or found[0] != game_id:
        raise ArchiveError(f"{archive / 'deals' / part}.parquet: the deals do not match the games table")
    return orjson.loads(found[1])


def from_archive(archive: Path, output: Path, progress: Progress | None = None) -> ConvertReport:
    """Write every record of an archive to a JSON-lines file, atomically."""
    report = ConvertReport()
    with atomic_output(output) as out:
        for _game_id, text in archive_records(archive):
            out.write(text + b"\n")
            report.records += 1
            if progress is not None:
                progress(report.records, report.deals)
    return report
