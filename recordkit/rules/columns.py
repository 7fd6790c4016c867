"""The rows of an archive that a game's columnar check reads, and NumPy helpers to slice them.

`recordkit.columnar` reads one row group of each table, keeps the rows of one game and
hands them to `Ruleset.prove_columns`, which says which records the full replay would find
nothing wrong with. Every table is sorted by (game_id, deal), as the converter writes it. The
helpers below are what every game's check needs: integer and string columns as arrays, each
record's deals rows, the rows of each deal in another table, and the written scores, running
totals and dealer rotation checked against the scores a check computed.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np
import numpy.typing as npt
import orjson
import pyarrow as pa
import pyarrow.compute as pc

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

COLUMNS: dict[str, list[str]] = {
    "games": ["game_id", "game", "n_players", "options", "n_deals", "record"],
    "deals": ["game_id", "deal", "dealer", "status", "hands", "dog", "as_written"],
    "calls": ["game_id", "deal", "kind", "seat", "value"],
    "plays": ["game_id", "deal", "trick", "position", "card"],
    "scores": ["game_id", "deal", "seat", "score", "total"],
}
"""The columns a columnar check may read, by table."""
DICTIONARY_COLUMNS = ("game", "options", "status", "kind", "value", "card", "hands", "dog")
"""Columns of few distinct strings (or lists of them), read dictionary-encoded: each distinct
string is decoded and looked up once."""

Ints = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]
Floats = npt.NDArray[np.float64]
Numbers = Ints | Floats
"""Scores: whole numbers, or with halves (a Tarot goulash)."""


@dataclass(frozen=True)
class ColumnRows:
    """One game's rows of a row group of every table (`COLUMNS`), and which games' headers the
    record path accepts (`header_ok`, by games row)."""

    games: pa.Table
    deals: pa.Table
    calls: pa.Table
    plays: pa.Table
    scores: pa.Table
    header_ok: Bools


@dataclass(frozen=True)
class Proof:
    """What a columnar check proves of its rows: each record (games row) whose every deal is
    proven clean or noted, and each deals row's note key (0: none): a deal noted is proven in
    all that the record writes, its replay wanted only for the note the record path writes of
    what the record leaves out (a deal passed by all whose hands nobody saw). Deals of one table
    (game, players, options) with the same key get the same note, so one replay writes it for
    all. A record with no deal noted is clean."""

    games: Bools
    noted: Ints

    def clean(self, deal_game_ids: Ints, game_ids: Ints) -> Bools:
        """Each record proven with no deal noted (an archive's columns replay no deal alone)."""
        with_notes = np.isin(game_ids, deal_game_ids[self.noted != 0])
        clean: Bools = self.games & ~with_notes
        return clean


Arrays = TypeVar("Arrays", bound="DataclassInstance")
"""A frozen dataclass of arrays, one entry a deal (`deals_of`)."""


def deals_of(arrays: Arrays, rows: Ints) -> Arrays:
    """A frozen dataclass of arrays (one entry a deal, first axis) with the entries of `rows` only."""
    return replace(arrays, **{part.name: getattr(arrays, part.name)[rows] for part in fields(arrays)})


def proof_of(found: Bools | Proof, rows: ColumnRows) -> Proof:
    """A check's answer as a `Proof` (a check that notes no deal answers each record's verdict)."""
    if isinstance(found, Proof):
        return found
    return Proof(np.asarray(found, dtype=bool), np.zeros(rows.deals.num_rows, dtype=np.int64))


def ints(table: pa.Table, column: str) -> Ints:
    """A column as int64, nulls as -1."""
    return _filled(table.column(column))


def narrow_ints(table: pa.Table, column: str) -> npt.NDArray[np.signedinteger[Any]]:
    """A column of integers in its own width, nulls as -1: cheaper than `ints` to compare, over
    the long columns (the plays' trick and position)."""
    values = table.column(column)
    if values.null_count:
        values = pc.fill_null(values, -1)
    return np.asarray(values.to_numpy(zero_copy_only=False))


def floats(table: pa.Table, column: str) -> Floats:
    """A column as float64, nulls as NaN."""
    return np.asarray(table.column(column).to_numpy(zero_copy_only=False), dtype=np.float64)


def bools(table: pa.Table, column: str) -> Bools:
    """A column of booleans, nulls as False."""
    values = table.column(column)
    if values.null_count:
        values = pc.fill_null(values, False)
    return np.asarray(values.to_numpy(zero_copy_only=False), dtype=bool)


def played_as_written(deals: pa.Table, n: int) -> tuple[Ints, Bools]:
    """Each deals row's dealer, and whether the deal is played, written as the record path would
    write it (`as_written`) and dealt by a seat of a table of `n`: the deals a check may prove."""
    dealer = ints(deals, "dealer")
    played = codes(deals.column("status"), ("played",)) == 0
    ok: Bools = played & bools(deals, "as_written") & (dealer >= 0) & (dealer < n)
    return dealer, ok


def codes(values: pa.ChunkedArray | pa.Array, words: list[str] | tuple[str, ...]) -> Ints:
    """Each string's index in `words`, -1 for any other string or a null. Dictionary-encoded
    columns (as `DICTIONARY_COLUMNS` are read) are looked up once per distinct string."""
    chunks = values.chunks if isinstance(values, pa.ChunkedArray) else [values]
    value_set = pa.array(list(words), pa.string())
    found: list[Ints] = []
    for chunk in chunks:
        if not isinstance(chunk, pa.DictionaryArray):
            found.append(_filled(pc.index_in(chunk, value_set=value_set)))
            continue
        mapped = np.append(_filled(pc.index_in(chunk.dictionary, value_set=value_set)), -1)
        indices = chunk.indices
        if indices.null_count:  # a null's index: the -1 appended to the dictionary's codes
            indices = pc.fill_null(indices, len(chunk.dictionary))
        found.append(mapped[indices.to_numpy(zero_copy_only=False)])
    return np.concatenate(found) if found else np.zeros(0, dtype=np.int64)


def distinct(values: pa.ChunkedArray | pa.Array) -> tuple[Ints, list[Any]]:
    """The distinct values of a column and each row's index among them (-1 for a null), so that
    a check parses each distinct string once (the calls' values, say)."""
    chunks = values.chunks if isinstance(values, pa.ChunkedArray) else [values]
    words: list[Any] = []
    found: list[Ints] = [np.zeros(0, dtype=np.int64)]
    for chunk in chunks:
        encoded = chunk if isinstance(chunk, pa.DictionaryArray) else pc.dictionary_encode(chunk)
        found.append(_filled(encoded.indices) + np.where(_filled(encoded.indices) >= 0, len(words), 0))
        words += encoded.dictionary.to_pylist()
    return np.concatenate(found), words


def list_lengths(lists: pa.Array) -> Ints:
    """Each list's length, 0 for a null."""
    return _filled(pc.list_value_length(lists)).clip(min=0)


def _filled(array: pa.Array | pa.ChunkedArray) -> Ints:
    """Integers as int64, nulls as -1."""
    if array.null_count:
        array = pc.fill_null(array, -1)
    return np.asarray(array.to_numpy(zero_copy_only=False), dtype=np.int64)


def deal_keys(table: pa.Table) -> Ints:
    """(game_id, deal) as one sortable integer per row."""
    return ints(table, "game_id") << 32 | ints(table, "deal")


def row_ranges(keys: Ints, wanted: Ints) -> tuple[Ints, Ints]:
    """The first row and the number of rows of each wanted key in sorted `keys`."""
    first = np.searchsorted(keys, wanted, "left")
    return first, np.searchsorted(keys, wanted, "right") - first


def is_sorted(keys: Ints) -> bool:
    """Whether keys never decrease (the order the converter writes rows in)."""
    return bool(np.all(keys[1:] >= keys[:-1]))


def ranks(count: Ints) -> Ints:
    """0, 1, ... within each run of `count` rows, for all runs one after the other."""
    starts = np.repeat(np.cumsum(count) - count, count)
    return np.arange(int(count.sum())) - starts


def options_of(games: pa.Table) -> list[dict[str, Any]]:
    """Each record's options (the games rows' `options` JSON), each distinct text parsed once."""
    texts = games.column("options").to_pylist()
    parsed = {text: orjson.loads(text) for text in set(texts)}
    return [parsed[text] for text in texts]


@dataclass(frozen=True)
class Deals:
    """Each record's deals rows, in order: which rows (`rows`, a record's deals one after the
    other), each one's games row (`game_of`) and key (`keys`), and the records whose deals rows
    are as many as the record's deals (`counted`, by games row)."""

    rows: Ints
    game_of: Ints
    keys: Ints
    counted: Bools


def record_deals(rows: ColumnRows) -> Deals | None:
    """The deals of each record of the rows, or None when the games or deals rows are out of the
    converter's order (then nothing can be proven)."""
    games, deals = rows.games, rows.deals
    game_ids, keys = ints(games, "game_id"), deal_keys(deals)
    if not (np.all(game_ids[1:] > game_ids[:-1]) and is_sorted(keys)):
        return None
    first, count = row_ranges(keys >> 32, game_ids)
    chosen = first.repeat(count) + ranks(count)
    game_of = np.repeat(np.arange(games.num_rows), count)
    return Deals(chosen, game_of, keys[chosen], count == ints(games, "n_deals"))


def by_record(game_of: Ints, deal_ok: Bools, n_games: int) -> Bools:
    """Whether every deal of each record (by games row) is proven."""
    bad = np.bincount(game_of, weights=~deal_ok, minlength=n_games)
    return np.asarray(bad == 0)


def written_scores(scores: pa.Table, score_keys: Ints, keys: Ints, computed: Numbers) -> tuple[Bools, Floats]:
    """Whether each deal's written scores (one scores row a seat, in seat order) are the computed
    ones (k, n) (no result written only when every score is 0), and its running totals (k, n)
    as the scores rows give them."""
    k, n = computed.shape
    first, count = row_ranges(score_keys, keys)
    if scores.num_rows == 0:
        return np.zeros(k, dtype=bool), np.full((k, n), np.nan)
    ok = count == n
    at = np.minimum(first[:, None] + np.arange(n), scores.num_rows - 1)
    ok &= np.all(ints(scores, "seat")[at] == np.arange(n), axis=1)
    written, totals = floats(scores, "score")[at], floats(scores, "total")[at]
    unwritten = np.all(np.isnan(written), axis=1)
    ok &= np.where(unwritten, np.all(computed == 0, axis=1), np.all(written == computed, axis=1))
    return ok, totals


def totals_ok(game_of: Ints, scores: Numbers, totals: Floats) -> Bools:
    """Whether each deal's running totals are the sums of its record's scores so far (deals of
    one record one after the other, `game_of` non-decreasing)."""
    running = np.cumsum(scores, axis=0)
    start = np.searchsorted(game_of, game_of, "left")
    running -= np.where((start > 0)[:, None], running[np.maximum(start - 1, 0)], 0)
    matching: Bools = np.all(totals == running, axis=1)
    return matching


def rotation_ok(game_of: Ints, dealer: Ints, n: int, step: int = 1) -> Bools:
    """Whether each deal after a record's first is dealt by the seat `step` after the previous
    deal's dealer, at a table of `n`."""
    rotated: Bools = first_deals(game_of) | (dealer == (np.roll(dealer, 1) + step) % n)
    return rotated


def first_deals(game_of: Ints) -> Bools:
    """Whether each deal is its record's first (deals of one record one after the other)."""
    first = np.ones(len(game_of), dtype=bool)
    first[1:] = game_of[1:] != game_of[:-1]
    return first


def last_deals(game_of: Ints) -> Bools:
    """Whether each deal is its record's last (deals of one record one after the other)."""
    last = np.ones(len(game_of), dtype=bool)
    last[:-1] = game_of[1:] != game_of[:-1]
    return last
