"""Reading an archive's records back from its games and deals rows, whatever was done to the files.

Each part's files of one game (a "unit"; the whole part before version 4) are read row group by
row group in bounded batches, and the games rows joined with their deals rows by `game_id`. What
cannot be read (a file that is not Parquet or not the table it should be, a row whose record or
deal is not JSON, a count that does not match the rows, a record read twice) becomes an
ARCHIVE-UNREADABLE diagnostic naming the file, the record and what is wrong; the other rows and
parts are still read.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
import pyarrow as pa

from recordkit.archive.manifest import ArchiveError, Manifest, file_checksum, part_file, read_manifest
from recordkit.archive.store import parquet_file, read_batches
from recordkit.diagnostics import Diagnostic, Location, Severity

READ_ROWS = 1024
"""Rows read at a time: small batches keep memory flat however large a row group is."""

GAMES_COLUMNS = {"game_id": pa.types.is_integer, "n_deals": pa.types.is_integer, "record": pa.types.is_string}
DEALS_COLUMNS = {"game_id": pa.types.is_integer, "deal": pa.types.is_integer, "deal_json": pa.types.is_string}

Entry = tuple[int, bytes] | Diagnostic
"""A record read back (its game_id and canonical JSON), or what is wrong with a file or a row."""

Keyed = tuple[int | None, Any]
"""An item of one unit with the game_id it is about (None for a problem with a whole file)."""


def damage(path: Path, message: str, game_id: int | None = None) -> Diagnostic:
    """The diagnostic of a damaged file or row: the file, the record (game_id + 1) and what is wrong."""
    where = Location(file=str(path), record=None if game_id is None else game_id + 1)
    return Diagnostic("ARCHIVE-UNREADABLE", Severity.ERROR, message, where)


def check_columns(path: Path, columns: dict[str, Callable[[Any], bool]], table: str) -> None:
    """Check that a part's file is Parquet and has the columns a reader takes, of their types."""
    schema = parquet_file(path).schema_arrow
    for name, right_type in columns.items():
        index = schema.get_field_index(name)
        if index < 0:
            raise ArchiveError(f"has no column {name!r}, so it is not the archive's {table} table", path)
        if not (right_type(schema.field(index).type) or pa.types.is_large_string(schema.field(index).type)):
            raise ArchiveError(
                f"its column {name!r} is of type {schema.field(index).type}, not the table's", path
            )


def count_problems(archive: Path, manifest: Manifest) -> Iterator[Diagnostic]:
    """Where the manifest's counts of records and deals differ from the rows the files hold
    (from the files' footers, before anything is read); files that cannot be opened are left to
    the readers, which report them."""
    totals = {"games": 0, "deals": 0}
    for part in manifest.parts:
        for game in manifest.units(part):
            expected = manifest.counts(part, game)
            for table in totals:
                path = part_file(archive, table, part, game)
                try:
                    rows = parquet_file(path).metadata.num_rows
                except ArchiveError:
                    return
                totals[table] += rows
                if expected is not None and expected[table] != rows:
                    yield damage(path, f"holds {rows} rows, but the manifest says {expected[table]}")
    if totals != {"games": manifest.games, "deals": manifest.deals}:
        yield damage(
            archive / "_recordkit.json",
            f"the manifest counts {manifest.games} record(s) and {manifest.deals} deal(s), but the "
            f"tables hold {totals['games']} and {totals['deals']}",
        )


def changed_files(
    archive: Path, manifest: Manifest, part: str, game: str | None, tables: list[str]
) -> list[Diagnostic]:
    """The files of a unit's tables whose SHA-256 is not the one the manifest records for them:
    changed since recordkit wrote them (by another tool, or damaged), so that their rows may not
    be the records' any more. A file the manifest records no checksum for (archive version 1) is
    not judged; one that cannot be opened is left to the readers, which report it."""
    found = []
    for table in tables:
        recorded = manifest.checksum(part, table, game)
        try:
            path = part_file(archive, table, part, game)
            changed = recorded is not None and file_checksum(path) != recorded
        except (ArchiveError, OSError):
            continue
        if changed:
            found.append(
                damage(
                    path,
                    "changed since recordkit wrote it (its SHA-256 is not the one the manifest "
                    f"records), so its {table} rows may not be the records' any more; converting "
                    "the archive back to JSON lines and again rebuilds them",
                )
            )
    return found


def in_order(
    archive: Path, manifest: Manifest, unit: Callable[[str, str | None], Iterator[Keyed]]
) -> Iterator[Any]:
    """The items of every unit of every part, in game_id order (the units of a part merged), each
    record after the first with its game_id replaced by a diagnostic: a record is never read twice."""
    last = -1
    for part in manifest.parts:
        streams = [_of_game(game, unit(part, game)) for game in manifest.units(part)]
        for game_id, game, item in heapq.merge(*streams, key=lambda keyed: keyed[0]):
            if isinstance(item, Diagnostic) or game_id < 0:
                yield item
            elif game_id <= last:
                yield damage(
                    part_file(archive, "games", part, game),
                    f"game_id {game_id} comes again or out of order; the record is read once",
                    game_id,
                )
            else:
                last = game_id
                yield item


def _of_game(game: str | None, keyed: Iterator[Keyed]) -> Iterator[tuple[int, str | None, Any]]:
    """A unit's items with their game, keyed by game_id (-1 for a whole file)."""
    for game_id, item in keyed:
        yield (-1 if game_id is None else game_id), game, item


def archive_entries(archive: Path) -> Iterator[Entry]:
    """Every record of an archive in order, with what is wrong with any file, row or count."""
    manifest = read_manifest(archive)
    yield from count_problems(archive, manifest)
    yield from in_order(archive, manifest, lambda part, game: unit_entries(archive, manifest, part, game))


def unit_entries(archive: Path, manifest: Manifest, part: str, game: str | None) -> Iterator[Keyed]:
    """The records of one part's files of a game, joined from the games and deals rows, keyed by
    game_id; problems keyed by the record they concern."""
    games_path = part_file(archive, "games", part, game)
    deals_path = part_file(archive, "deals", part, game)
    try:
        check_columns(games_path, GAMES_COLUMNS, "games")
        check_columns(deals_path, DEALS_COLUMNS, "deals")
    except ArchiveError as error:
        yield None, unreadable(error, games_path)
        return
    joined = _Join(games_path, deals_path, _rows(deals_path, list(DEALS_COLUMNS)))
    try:
        for game_id, n_deals, envelope in _rows(games_path, list(GAMES_COLUMNS)):
            yield from joined.record(game_id, n_deals, envelope)
        yield from joined.rest()
    except ArchiveError as error:
        yield None, unreadable(error, games_path)


def unreadable(error: ArchiveError, path: Path) -> Diagnostic:
    """An ArchiveError about one file as the diagnostic of that file (`path` if it names none)."""
    return damage(error.path or path, error.reason)


def _rows(path: Path, columns: list[str]) -> Iterator[tuple[Any, ...]]:
    """The values of a file's columns, row by row, read in bounded batches."""
    for batch in read_batches(path, columns, READ_ROWS):
        yield from zip(*(batch.column(name).to_pylist() for name in columns), strict=True)


@dataclass
class _Join:
    """The deals rows of a unit, consumed in game_id order as the games rows ask for them."""

    games_path: Path
    deals_path: Path
    deals: Iterator[tuple[Any, ...]]
    pending: tuple[Any, ...] | None = None
    last: int = -1

    def _next(self) -> tuple[Any, ...] | None:
        if self.pending is None:
            self.pending = next(self.deals, None)
        return self.pending

    def _before(self, game_id: int | None) -> Iterator[Keyed]:
        """A diagnostic per game_id of the deals rows before `game_id` (all rows left, for None):
        rows of no record read."""
        reported: set[Any] = set()
        while (row := self._next()) is not None and (game_id is None or row[0] is None or row[0] < game_id):
            self.pending = None
            if row[0] not in reported:
                reported.add(row[0])
                what = "deal rows with no game_id" if row[0] is None else f"deal rows of game_id {row[0]}"
                yield row[0], damage(self.deals_path, f"{what}, which no games row has", row[0])

    def _of(self, game_id: int) -> list[tuple[Any, Any]]:
        """The (deal, deal_json) rows of a game."""
        found = []
        while (row := self._next()) is not None and row[0] == game_id:
            found.append((row[1], row[2]))
            self.pending = None
        return found

    def record(self, game_id: Any, n_deals: Any, envelope: Any) -> Iterator[Keyed]:
        """The record of one games row joined with its deals, or what is wrong with them."""
        if game_id is None:
            yield None, damage(self.games_path, "a games row has no game_id; its record is left out")
            return
        if game_id <= self.last:
            yield game_id, damage(self.games_path, f"game_id {game_id} comes again or out of order", game_id)
            return
        self.last = game_id
        yield from self._before(game_id)
        problem, text = joined(envelope, n_deals, self._of(game_id))
        if text is None:
            path = self.deals_path if problem.startswith(("the deal_json", "its deals")) else self.games_path
            yield game_id, damage(path, f"{problem}; the record is left out", game_id)
        else:
            yield game_id, (game_id, text)

    def rest(self) -> Iterator[Keyed]:
        """The deals rows left after the last games row."""
        yield from self._before(None)


def joined(envelope: Any, n_deals: Any, deals: list[tuple[Any, Any]]) -> tuple[str, bytes | None]:
    """A record's canonical JSON from its envelope and its deals (whose `deal` numbers must be 1
    to n_deals in order): ("", text), or (what is wrong, None)."""
    if not isinstance(envelope, str):
        return "its record is empty (null)", None
    try:
        record = orjson.loads(envelope)
    except orjson.JSONDecodeError:
        return "its record is not JSON", None
    if not isinstance(record, dict):
        return "its record is not a JSON object", None
    if not isinstance(n_deals, int) or n_deals < 0:
        return f"n_deals is {'null' if n_deals is None else n_deals}, not a count of deals", None
    if len(deals) != n_deals:
        return f"n_deals says {n_deals} deal(s), but the deals table holds {len(deals)}", None
    numbers = [number for number, _text in deals]
    if numbers != list(range(1, n_deals + 1)):
        return "its deals are not numbered 1 to n_deals in order", None
    parsed = []
    for number, text in deals:
        if not isinstance(text, str):
            return f"the deal_json of deal {number} is empty (null)", None
        try:
            parsed.append(orjson.loads(text))
        except orjson.JSONDecodeError:
            return f"the deal_json of deal {number} is not JSON", None
    record["deals"] = parsed
    try:
        return "", orjson.dumps(record)
    except orjson.JSONEncodeError:
        return "it holds a value recordkit cannot write back (a number too large?)", None


def archive_records(archive: Path) -> Iterator[tuple[int, bytes]]:
    """(game_id, canonical record JSON) for every game of an archive, in order, streamed; the
    first damage found (spec/ARCHIVE.md, "Damaged archives") raises an ArchiveError naming it."""
    for entry in archive_entries(archive):
        if isinstance(entry, Diagnostic):
            raise ArchiveError(f"{entry.location.text()}: {entry.message}")
        yield entry
