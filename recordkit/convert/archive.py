"""Converting records to a Parquet archive and back, streaming in record batches.

To the archive: every record is replayed (the tables hold what the rules derive: trick winners,
contracts, computed scores), a clean one on the fast path and, when its deals are written in
canonical form already, stored as written without its pydantic model (`archive.canonical`);
its rows are buffered and flushed every `batch_deals` deals, so memory stays flat however large
the input. Back: each game's envelope and deals are joined again
into the exact canonical record that went in.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import orjson
import pyarrow as pa
import pyarrow.compute as pc

from recordkit.archive.canonical import written_canonical
from recordkit.archive.read import archive_entries
from recordkit.archive.store import ArchiveError, ArchiveWriter
from recordkit.archive.tables import TABLES, Archived, Rows, archived
from recordkit.diagnostics import Diagnostic, Location, Severity
from recordkit.engine import DealReplay
from recordkit.games import RULESETS
from recordkit.model import FORMAT_VERSION, to_data
from recordkit.parallel import chunked, ordered_map
from recordkit.quick import clean_replays
from recordkit.reading import raw_records
from recordkit.sources import RawRecord, Source, atomic_output, parsed
from recordkit.validate import RecordReport, Settings, validate_record

BATCH_DEALS = 4096
"""Deals buffered before they are written as one row group of each table."""


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
    """Replay each record and make its rows (a worker's job); records that cannot be read, or
    whose rows cannot be built or stored, are left out with a diagnostic naming them, and with
    `valid_only` records with errors too.

    A clean record is replayed on the fast path (`fast`: the tests turn it off to compare), any
    other through the full validation."""
    accepted: list[tuple[Archived, str, Location]] = []
    skipped: list[Diagnostic] = []
    for source in items:
        item = parsed(source)
        if isinstance(item, Diagnostic):
            skipped += [item] if item.severity == Severity.ERROR else []  # a BOM's warning skips nothing
            continue
        fast_path = fast and not item.notes  # the notation reader's findings come with the full path
        record = _replayed_fast(item) if fast_path else None
        if record is None:
            report = validate_record(item, Settings(strict=True))
            if not _complete(report) or (valid_only and _errors(report)):
                skipped += [d for d in report.diagnostics if d.severity == Severity.ERROR]
                continue
            assert report.record is not None
            record = archived(report.record, report.replays)
        accepted.append((record, _source(item.location), item.location))
    return _rows(accepted, skipped)


def _rows(accepted: list[tuple[Archived, str, Location]], skipped: list[Diagnostic]) -> Converted:
    """The rows of the records, less those whose rows cannot be built or stored in the tables'
    types, each reported: the last line of defence, so that one record never ends a conversion.

    The rows of all the records are built together; only when that fails is each built alone."""
    rows = Rows()
    try:
        for record, source, _location in accepted:
            rows.add(rows.games, record, source)
        games, deals = rows.games, rows.deals
        return Converted(rows.batches(), games, deals, skipped)
    except Exception:  # whatever a record's rows raise, that record alone is at fault: see below
        pass
    parts: dict[str, list[pa.RecordBatch]] = {name: [] for name in TABLES}
    games = deals = 0
    refused = []
    for record, source, location in accepted:
        alone = Rows()
        try:
            alone.add(games, record, source)
            counted = alone.deals
            batches = alone.batches()
        except Exception as error:  # the record is reported in the project's words and left out
            refused.append(_unarchivable(error, location))
            continue
        for name, batch in batches.items():
            parts[name].append(batch)
        games, deals = games + 1, deals + counted
    joined = {name: _concatenated(parts[name], schema) for name, schema in TABLES.items()}
    return Converted(joined, games, deals, skipped + refused)


def _concatenated(batches: list[pa.RecordBatch], schema: pa.Schema) -> pa.RecordBatch:
    """One record batch of the rows of several."""
    combined = pa.Table.from_batches(batches, schema=schema).combine_chunks().to_batches()
    return combined[0] if combined else pa.RecordBatch.from_pylist([], schema=schema)


def _unarchivable(error: Exception, location: Location) -> Diagnostic:
    """The diagnostic of a record whose rows cannot be built or stored."""
    why = (
        "it holds a number too large to store"
        if isinstance(error, (orjson.JSONEncodeError, OverflowError, pa.ArrowInvalid))
        else "its rows for the archive's tables cannot be built"
    )
    return Diagnostic(
        "RECORD-UNARCHIVABLE",
        Severity.ERROR,
        f"the record cannot be archived: {why}; it is left out",
        location,
    )


def _replayed_fast(item: RawRecord) -> Archived | None:
    """A clean record replayed on the fast path, as the tables store it; None when the fast path
    cannot prove it clean. Deals written in canonical form already are stored as written (only
    the envelope goes through the model, for its defaults); others take the model's round trip."""
    deals = clean_replays(item.data)
    if deals is None:
        return None
    replays: list[DealReplay | None] = [
        DealReplay(
            None if deal.sheet else deal.state, [], deal.scores, deal.actions, deal.completion, deal.sheet
        )
        for deal in deals
    ]
    ruleset, written = RULESETS[item.data["game"]], item.data.get("deals", [])
    if written_canonical(ruleset.name, written, deals):
        header = ruleset.Record.model_validate({**item.data, "version": FORMAT_VERSION, "deals": []})
        envelope = to_data(header)
        del envelope["deals"]
        return Archived(envelope, header.options, written, replays)
    record = ruleset.Record.model_validate({**item.data, "version": FORMAT_VERSION})
    return archived(record, replays)


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


def from_archive(archive: Path, output: Path, progress: Progress | None = None) -> ConvertReport:
    """Write every record of an archive to a JSON-lines file, atomically; the damage found (a file,
    a row, a count) is reported in `skipped` and the other records are written."""
    report = ConvertReport()
    with atomic_output(output) as out:
        for entry in archive_entries(archive):
            if isinstance(entry, Diagnostic):
                report.skipped.append(entry)
                continue
            out.write(entry[1] + b"\n")
            report.records += 1
            if progress is not None:
                progress(report.records, report.deals)
    return report
