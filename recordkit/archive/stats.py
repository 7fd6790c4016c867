"""Summary statistics of an archive with DuckDB: games, deals, contracts, success rates, scores."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb

from recordkit.archive.manifest import Manifest
from recordkit.archive.read import changed_files, count_problems, damage
from recordkit.archive.store import ArchiveError, read_manifest, table_files
from recordkit.archive.tables import TABLES, VIOLATIONS
from recordkit.diagnostics import Diagnostic


@dataclass
class Stats:
    """The figures `recordkit stats` prints, each a list of rows with its column names."""

    games: tuple[list[str], list[tuple[Any, ...]]]
    forms: tuple[list[str], list[tuple[Any, ...]]] | None
    """The deals by how they were recorded; None for an archive older than version 3."""
    contracts: tuple[list[str], list[tuple[Any, ...]]]
    scores: tuple[list[str], list[tuple[Any, ...]]]


FORMS_VERSION = 3
"""The archive version that added the deals' derived and sheet columns."""

GAMES = """
SELECT game, n_players, count(*) AS games, sum(n_deals) AS deals
FROM games GROUP BY ALL ORDER BY ALL
"""

FORMS = """
SELECT game, n_players, count(*) AS deals,
       count(*) FILTER (WHERE NOT sheet AND len(derived) = 0) AS whole,
       count(*) FILTER (WHERE len(derived) > 0) AS derived,
       count(*) FILTER (WHERE sheet) AS sheet,
       count(*) FILTER (WHERE derived IS NULL) AS not_replayed
FROM deals GROUP BY ALL ORDER BY ALL
"""
"""How the deals were recorded: whole, with dealt cards left out (derived from the play), or as
a score sheet's line; and those that could not be replayed."""

CONTRACTS = """
SELECT d.game, d.n_players, d.contract, count(*) AS deals,
       round(avg(CASE WHEN d.made THEN 1.0 WHEN NOT d.made THEN 0.0 END), 3) AS success_rate,
       round(avg(s.score), 2) AS avg_declarer_score
FROM deals d
LEFT JOIN scores s ON s.game_id = d.game_id AND s.deal = d.deal AND s.seat = d.declarer
WHERE d.contract IS NOT NULL
GROUP BY d.game, d.n_players, d.contract
ORDER BY d.game, d.n_players, TRY_CAST(regexp_extract(d.contract, '^[0-9]+') AS INTEGER) NULLS LAST,
         d.contract
"""
"""Contracts by game, numbers in numeric order (Karnöffel's 4, 7, 10...) before words; the success
rate is over the deals scored with a declarer (null for a goulash, which has none)."""

SCORES = """
SELECT d.game, d.n_players, count(DISTINCT (s.game_id, s.deal)) AS scored_deals,
       round(avg(abs(s.score)), 2) AS avg_abs_score, max(s.score) AS best, min(s.score) AS worst
FROM scores s JOIN deals d USING (game_id, deal)
WHERE s.score IS NOT NULL
GROUP BY ALL ORDER BY ALL
"""
"""The deals with a written score (one each, not one a seat) and the spread of the seats' scores."""


QUERIED = ["games", "deals", "scores"]
"""The tables the figures are drawn from."""

DEALS_DISAGREE = """
SELECT g.game_id, g.n_deals, coalesce(d.rows, 0) AS rows
FROM games g LEFT JOIN (SELECT game_id, count(*) AS rows FROM deals GROUP BY game_id) d USING (game_id)
WHERE g.n_deals IS DISTINCT FROM coalesce(d.rows, 0)
ORDER BY g.game_id LIMIT 5
"""
"""The first games rows whose count of deals is not their deals rows' (a damaged archive whose
manifest was made to match it, or one of version 1, which keeps no checksums)."""


class UntrustedArchiveError(ArchiveError):
    """An archive whose figures would not be its records': what is wrong, as diagnostics."""

    def __init__(self, archive: Path, problems: list[Diagnostic]) -> None:
        super().__init__(
            f"damaged ({len(problems)} problem(s) above; recordkit validate says more), so no figures are given",
            archive,
        )
        self.problems = problems


def connect(archive: Path) -> duckdb.DuckDBPyConnection:
    """A DuckDB connection with one view per table over the archive's committed parts (each file
    checked first by `table_files`; a table with no file yet is an empty one)."""
    connection = duckdb.connect()
    for table, (files, hive) in table_files(archive).items():
        if not files:
            connection.register(
                table, TABLES[table].empty_table() if table in TABLES else VIOLATIONS.empty_table()
            )
            continue
        listing = ", ".join("'" + str(f).replace("'", "''") + "'" for f in files)
        connection.execute(
            f"CREATE VIEW {table} AS SELECT * FROM read_parquet([{listing}], "
            f"hive_partitioning = {str(hive).lower()}, union_by_name = true)"
        )
    return connection


def archive_stats(archive: Path) -> Stats:
    """Games and deals by game, how the deals were recorded, contracts with their success rate
    and score, score spread. Every file is checked to be its table's Parquet first (`connect`),
    then to be the one recordkit wrote (`untrusted`), and the games' counts of deals to be their
    deals rows': UntrustedArchiveError rather than figures that are wrong."""
    manifest = read_manifest(archive)
    forms = manifest.version >= FORMS_VERSION
    try:
        with connect(archive) as connection:
            problems = untrusted(archive, manifest)
            if not problems:
                disagree = connection.execute(DEALS_DISAGREE).fetchall()
                problems = [_disagreeing(archive, *row) for row in disagree]
            if problems:
                raise UntrustedArchiveError(archive, problems)
            return Stats(
                _rows(connection, GAMES),
                _rows(connection, FORMS) if forms else None,
                _rows(connection, CONTRACTS),
                _rows(connection, SCORES),
            )
    except duckdb.Error:
        raise ArchiveError(f"{archive}: its tables cannot be queried (a file is damaged)") from None


def untrusted(archive: Path, manifest: Manifest) -> list[Diagnostic]:
    """What the manifest says that the files queried do not bear out, as archive validation
    reports it (spec/ARCHIVE.md, "Damaged archives"): a file changed since recordkit wrote it
    (its SHA-256), counts of records and deals other than the rows."""
    problems = list(count_problems(archive, manifest))
    for part in manifest.parts:
        for game in manifest.units(part):
            problems += changed_files(archive, manifest, part, game, QUERIED)
    return problems


def _disagreeing(archive: Path, game_id: int, n_deals: int | None, rows: int) -> Diagnostic:
    """The diagnostic of a games row whose n_deals is not its deals rows' count."""
    said = "null" if n_deals is None else str(n_deals)
    return damage(archive, f"n_deals is {said}, but the deals table holds {rows} deal(s)", game_id)


def _rows(connection: duckdb.DuckDBPyConnection, query: str) -> tuple[list[str], list[tuple[Any, ...]]]:
    result = connection.execute(query)
    return [column[0] for column in result.description], result.fetchall()
