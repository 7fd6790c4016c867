"""Everything the validator reads: record files, directories of them, and Parquet archives."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from recordkit.diagnostics import Diagnostic, Location, Severity
from recordkit.reading import read_records
from recordkit.sources import record_files
from recordkit.validate import Item, RecordReport, Settings, validate_items

if TYPE_CHECKING:
    import pyarrow as pa


def validate_inputs(
    paths: Iterable[str], settings: Settings, jobs: int = 1
) -> Iterator[RecordReport | Diagnostic]:
    """Validate each path (archives record by record, anything else as record files): what is found."""
    return validate_items(input_records(paths, settings, parse=jobs <= 1), settings, jobs, findings_only=True)


def input_records(paths: Iterable[str], settings: Settings, parse: bool = True) -> Iterator[Item]:
    """The records of record files, directories and archives (those named, and those found in a
    directory), in order, and why any is unreadable; archive records proven clean by the columnar
    checks come as empty reports.

    With `parse` False, records come as text to parse in parallel."""
    for path in record_files(paths):
        if isinstance(path, Diagnostic):
            yield path
        elif not path.is_dir():
            yield from read_records(path, parse)
        else:
            from recordkit.archive.store import ArchiveError
            from recordkit.columnar import archive_items  # pyarrow and NumPy: archives only

            try:
                yield from archive_items(path, settings, parse)
            except ArchiveError as error:
                yield Diagnostic("ARCHIVE-UNREADABLE", Severity.ERROR, str(error), Location(file=str(path)))


def violation_batches(reports: Iterable[RecordReport], size: int = 65536) -> Iterator[pa.RecordBatch]:
    """The violations of archive records as rows of the violations table (game_id = record - 1)."""
    import pyarrow as pa  # only `validate --violations` needs it here

    from recordkit.archive.tables import VIOLATIONS

    columns: dict[str, list[object]] = {name: [] for name in VIOLATIONS.names}
    for report in reports:
        for diagnostic in report.diagnostics:
            where = diagnostic.location
            values = (
                (where.record or 1) - 1,
                where.deal,
                where.trick,
                where.position,
                where.seat,
                diagnostic.code,
                str(diagnostic.severity),
                diagnostic.rule,
                diagnostic.message,
                where.path,
            )
            for column, value in zip(columns.values(), values, strict=True):
                column.append(value)
        if len(columns["code"]) >= size:
            yield pa.RecordBatch.from_pydict(columns, schema=VIOLATIONS)
            columns = {name: [] for name in VIOLATIONS.names}
    yield pa.RecordBatch.from_pydict(columns, schema=VIOLATIONS)
