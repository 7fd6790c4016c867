"""The rows of an archive that a game's columnar check reads, and NumPy helpers to slice them.

`recordkit.archive.columnar` reads one row group of each table, keeps the rows of one game and
hands them to `Ruleset.prove_columns`, which says which records the full replay would find
nothing wrong with. Every table is sorted by (game_id, deal), as the converter writes it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.compute as pc

COLUMNS: dict[str, list[str]] = {
    "games": ["game_id", "game", "n_players", "options", "n_deals", "record"],
    "deals": ["game_id", "deal", "dealer", "status", "hands", "dog", "as_written"],
    "calls": ["game_id", "deal", "kind", "value"],
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


def ints(table: pa.Table, column: str) -> Ints:
    """A column as int64, nulls as -1."""
    return _filled(table.column(column))


def floats(table: pa.Table, column: str) -> Floats:
    """A column as float64, nulls as NaN."""
    return np.asarray(table.column(column).to_numpy(zero_copy_only=False), dtype=np.float64)


def codes(values: pa.ChunkedArray | pa.Array, words: list[str] | tuple[str, ...]) -> Ints:
    """Each string's index in `words`, -1 for any other string or a null. Dictionary-encoded
    columns (as `DICTIONARY_COLUMNS` are read) are looked up once per distinct string."""
    chunks = values.chunks if isinstance(values, pa.ChunkedArray) else [values]
    value_set = pa.array(list(words), pa.string())
    found: list[Ints] = []
    for chunk in chunks:
        if isinstance(chunk, pa.DictionaryArray):
            mapped = _filled(pc.index_in(chunk.dictionary, value_set=value_set))
            indices = _filled(chunk.indices)
            found.append(
                np.where(indices >= 0, mapped[np.maximum(indices, 0)], -1) if len(mapped) else indices
            )
        else:
            found.append(_filled(pc.index_in(chunk, value_set=value_set)))
    return np.concatenate(found) if found else np.zeros(0, dtype=np.int64)


def list_lengths(lists: pa.Array) -> Ints:
    """Each list's length, 0 for a null."""
    return _filled(pc.list_value_length(lists)).clip(min=0)


def _filled(array: pa.Array | pa.ChunkedArray) -> Ints:
    """Integers as int64, nulls as -1."""
    return np.asarray(pc.fill_null(array, -1).to_numpy(zero_copy_only=False), dtype=np.int64)


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
