"""NumPy helpers over the deals of a row group that the columnar checks share: its games split
by table (players and options), card groups, calls and tricks read into arrays, the totals
before each deal, and who played each card of tricks whose winners are known.

`recordkit.rules.columns` reads single columns and checks the written scores, running totals
and rotation; this module builds on it. The rules themselves stay in each game's
`columnar.py` (and are held to its ruleset by tests).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.compute as pc

from recordkit.rules.columns import (
    Bools,
    ColumnRows,
    Floats,
    Ints,
    Proof,
    by_record,
    codes,
    deal_keys,
    first_deals,
    ints,
    is_sorted,
    last_deals,
    list_lengths,
    narrow_ints,
    ranks,
    record_deals,
    row_ranges,
    totals_ok,
    written_scores,
)


@dataclass(frozen=True)
class Deals:
    """The deals of one table (players and options) of a row group, in order: their rows, their
    (game_id, deal) keys, each deal's games row, and the keys of the calls, plays and scores rows."""

    rows: ColumnRows
    table: pa.Table
    keys: Ints
    game_of: Ints
    call_keys: Ints
    play_keys: Ints
    score_keys: Ints

    @property
    def first(self) -> Bools:
        """Whether each deal is its game's first."""
        return first_deals(self.game_of)

    @property
    def last(self) -> Bools:
        """Whether each deal is its game's last."""
        return last_deals(self.game_of)


PlaysRows = tuple[npt.NDArray[np.signedinteger[Any]], npt.NDArray[np.signedinteger[Any]], Ints]
"""The plays rows as arrays: each row's trick and position (in their own width) and card id."""
Prove = Callable[[int, str, Deals], Bools]
"""A game's check of the deals of one table: (players, options as the games row writes them,
the deals) to each deal's verdict."""
ProveNoted = Callable[[int, str, Deals], tuple[Bools, Ints]]
"""A game's check of the deals of one table that also gives each deal's note key (`Proof.noted`)."""


def prove_games(rows: ColumnRows, prove: Prove) -> Bools:
    """Which games (by games row) are proven clean: a header the record path accepts, every deal
    there and proven by `prove`, one table (players, options) at a time; none when rows are out
    of the order the converter writes them in."""
    return prove_noted(
        rows, lambda n, text, deals: (prove(n, text, deals), np.zeros(len(deals.keys), np.int64))
    ).games


def prove_noted(rows: ColumnRows, prove: ProveNoted) -> Proof:
    """`prove_games` for a check that notes deals: the games proven but for the deals noted, and
    each deals row's note key (0 for a deal not proven)."""
    games, deals = rows.games, rows.deals
    n_games = games.num_rows
    order = record_deals(rows)
    call_keys, play_keys, score_keys = (deal_keys(t) for t in (rows.calls, rows.plays, rows.scores))
    noted = np.zeros(deals.num_rows, dtype=np.int64)
    if order is None or not all(is_sorted(k) for k in (call_keys, play_keys, score_keys)):
        return Proof(np.zeros(n_games, dtype=bool), noted)
    at, game_row = order.rows, order.game_of
    deal_ok = np.zeros(len(at), dtype=bool)
    deal_noted = np.zeros(len(at), dtype=np.int64)
    options = games.column("options").to_pylist()
    tables = [f"{n} {text}" for n, text in zip(ints(games, "n_players"), options, strict=True)]
    table_of = np.array(tables, dtype=object)[game_row] if len(at) else np.zeros(0, dtype=object)
    for name in set(tables):
        chosen = np.flatnonzero(table_of == name)
        if chosen.size:
            n, text = name.split(" ", 1)
            table = deals if len(chosen) == deals.num_rows else deals.take(at[chosen])
            of_table = Deals(
                rows, table, order.keys[chosen], game_row[chosen], call_keys, play_keys, score_keys
            )
            deal_ok[chosen], deal_noted[chosen] = prove(int(n), text, of_table)
    proven: Bools = rows.header_ok & order.counted & by_record(game_row, deal_ok, n_games)
    noted[at] = np.where(deal_ok, deal_noted, 0)
    return Proof(proven, noted)


def card_groups(
    column: pa.ChunkedArray, groups: int | None, size: int, deck: list[str] | tuple[str, ...]
) -> Ints:
    """Card ids (k, groups, size) of a column of lists of `groups` card groups (the hands), or of
    single card groups when `groups` is None; -1 throughout a row whose groups are missing, of
    another size, or hold a code of no card of `deck`."""
    lists = column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column
    k = len(lists)
    if groups is None:  # a null group: of length 0, so of another size
        counts, inner = np.ones(k, dtype=np.int64), lists
    else:
        counts, inner = list_lengths(lists), lists.flatten()
    lengths = list_lengths(inner)
    ids = codes(inner.flatten(), deck)
    row_of_group = np.repeat(np.arange(k), counts)
    row_ok = counts == (groups or 1)
    row_ok[row_of_group[lengths != size]] = False
    out = np.full((k, groups or 1, size), -1, dtype=np.int64)
    if row_ok.all() and len(ids) == out.size:  # every row whole: the codes in order
        out[:] = ids.reshape(out.shape)
    elif row_ok.any():
        out[row_ok] = ids[np.repeat(row_ok[row_of_group], lengths)].reshape(-1, groups or 1, size)
    out[np.any(out < 0, axis=(1, 2))] = -1
    return out


def call_words(
    deals: Deals, words: list[str] | tuple[str, ...], most: int | None = None
) -> tuple[Ints, Ints, Ints]:
    """Each deal's calls (k, most: by default as many as the most any deal has) as indices in
    `words` (-1 past its calls or for another word), how many it has, and their kinds (0 for
    `bid`, 1 for `call`, -1 for another kind or past its calls)."""
    calls = deals.rows.calls
    first, count = row_ranges(deals.call_keys, deals.keys)
    k = len(deals.keys)
    most = max(int(count.max()) if k else 0, 1) if most is None else most
    if calls.num_rows == 0:
        return np.full((k, most), -1), count, np.full((k, most), -1)
    at = np.minimum(first[:, None] + np.arange(most), calls.num_rows - 1)
    inside = np.arange(most) < count[:, None]
    value = np.where(inside, codes(calls.column("value"), words)[at], -1)
    kind = np.where(inside, codes(calls.column("kind"), ("bid", "call"))[at], -1)
    return value, count, kind


def plays_of(
    plays: pa.Table, play_keys: Ints, keys: Ints, n: int, most: int, deck: list[str] | tuple[str, ...]
) -> tuple[Ints, Ints, Bools]:
    """Each deal's (by `keys`) cards (k, most, n) in the order played (-1 past its tricks), how
    many tricks, and whether its plays rows are whole tricks in order, at most `most`, of known
    cards (`tricks_in_order` over the plays rows read once)."""
    first, count = row_ranges(play_keys, keys)
    trick, position = narrow_ints(plays, "trick"), narrow_ints(plays, "position")
    return tricks_in_order(first, count, (trick, position, codes(plays.column("card"), deck)), n, most)


def tricks_in_order(first: Ints, count: Ints, rows: PlaysRows, n: int, most: int) -> tuple[Ints, Ints, Bools]:
    """Each deal's cards (k, most, n) in the order played (-1 past its tricks), how many tricks,
    and whether its `count` plays rows from `first` (of `rows`: every row's trick, position and
    card id) are whole tricks in order, at most `most`, of known cards."""
    trick, position, ids = rows
    k, slots = len(first), most * n
    tricks = count // n
    ok = (count % n == 0) & (tricks <= most)
    cards = np.full((k, most, n), -1, dtype=np.int64)
    live = np.flatnonzero(ok & (count > 0))  # the others: no rows, or not whole tricks
    m, start, rows_of = len(live), first[live], count[live]
    if len(ids) == m * slots and np.all(rows_of == slots) and np.all(start == np.arange(m) * slots):
        inside = np.ones((1, slots), dtype=bool)  # every row, whole deals one after the other
        trick, position, ids = trick.reshape(m, slots), position.reshape(m, slots), ids.reshape(m, slots)
    else:
        at = np.minimum(start[:, None] + np.arange(slots), max(len(ids) - 1, 0))
        inside = np.arange(slots) < rows_of[:, None]
        trick, position, ids = trick[at], position[at], ids[at]
    in_order = trick == np.repeat(np.arange(1, most + 1), n).astype(trick.dtype)
    in_order &= position == np.tile(np.arange(1, n + 1), most).astype(position.dtype)
    ok[live] = np.all(~inside | (in_order & (ids >= 0)), axis=1)
    cards[live] = np.where(inside, ids, -1).reshape(m, most, n)
    return cards, tricks, ok


def totals_before(deals: Deals, n: int) -> Floats:
    """Each deal's totals before it: the previous deal's written totals, 0 before a game's first
    (once `scores_follow` holds, the running totals the record path counts the deal from)."""
    zeros = np.zeros((len(deals.keys), n), dtype=np.int64)
    _, totals = written_scores(deals.rows.scores, deals.score_keys, deals.keys, zeros)
    before = np.roll(totals, 1, axis=0)
    before[deals.first] = 0
    return before


def scores_follow(deals: Deals, scores: Ints) -> tuple[Bools, Floats]:
    """Whether each deal's written scores are `scores` (the scores it computed) and its written
    totals the sums of its game's scores so far; and the written totals (k, n)."""
    ok, totals = written_scores(deals.rows.scores, deals.score_keys, deals.keys, scores)
    follows: Bools = ok & totals_ok(deals.game_of, scores, totals)
    return follows, totals


def previous(deals: Deals, values: Ints) -> Ints:
    """Each deal's value of the deal before it in its game (its own value for a game's first)."""
    before = np.roll(values, 1, axis=0)
    before[deals.first] = values[deals.first]
    return before


def seats_of(best: Ints, first_leader: Ints, n: int) -> tuple[Ints, Ints]:
    """Who played each card (deal, trick, position) and each trick's winner, when each trick's
    winning position is `best` (deal, trick) and `first_leader` leads the first trick: the winner
    leads the next, so the leaders are a running sum of winning positions."""
    k = len(best)
    moved = np.concatenate([np.zeros((k, 1), dtype=np.int64), np.cumsum(best, axis=1)[:, :-1]], axis=1)
    leaders = (first_leader[:, None] + moved) % n
    seats = (leaders[:, :, None] + np.arange(n)) % n
    return seats, (leaders + best) % n


def by_seat(values: npt.NDArray[Any], seats: Ints) -> npt.NDArray[Any]:
    """`values` (deal, trick, position) rearranged by seat (deal, trick, seat)."""
    out = np.empty_like(values)
    np.put_along_axis(out, seats, values, axis=2)
    return out


def from_here_on(values: npt.NDArray[Any], combine: np.ufunc) -> npt.NDArray[Any]:
    """For each seat and trick (deal, trick, seat), `values` of its cards from that trick on
    combined (the suits it holds, say)."""
    return combine.accumulate(values[:, ::-1], axis=1)[:, ::-1]


def held_once(owner: Ints, cards: Ints, seats: Ints, played: Bools) -> Bools:
    """Whether every card played (where `played`) is held by the seat that plays it (`owner`: the
    seat holding each card id, -1 for none) and no card is played twice."""
    k = len(cards)
    flat, where = cards.reshape(k, -1), played.reshape(k, -1)
    safe = np.maximum(flat, 0)
    ok = np.all(~where | (np.take_along_axis(owner, safe, axis=1) == seats.reshape(k, -1)), axis=1)
    seen = np.zeros(owner.shape, dtype=bool)
    rows = np.repeat(np.arange(k), flat.shape[1]).reshape(k, -1)
    seen[rows[where], flat[where]] = True
    once: Bools = ok & (seen.sum(axis=1) == where.sum(axis=1))
    return once


NO_CARD = -2
"""A slot past the end of a group of cards (-1 is a code of no card of the deck)."""


def ragged_groups(column: pa.ChunkedArray, most: int, deck: list[str]) -> tuple[Ints, Ints, Ints]:
    """A column of lists of card groups of any sizes: card ids (k, groups, most) with `NO_CARD`
    past each group's end, each row's number of groups (-1 for a null, or more than `groups`),
    and each group's size (k, groups; -1 for no group or a group of more than `most`)."""
    lists = column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column
    k = len(lists)
    null = pc.is_null(lists).to_numpy(zero_copy_only=False)
    counts = list_lengths(lists)
    inner = lists.flatten()
    lengths = list_lengths(inner)
    ids = codes(inner.flatten(), deck)
    groups = int(counts.max()) if k else 0
    row_of_group, group_of = np.repeat(np.arange(k), counts), ranks(counts)
    sizes = np.full((k, max(groups, 1)), -1, dtype=np.int64)
    sizes[row_of_group, group_of] = np.where(lengths <= most, lengths, -1)
    out = np.full((k, max(groups, 1), most), NO_CARD, dtype=np.int64)
    fits = np.repeat(lengths <= most, lengths)
    at = ranks(lengths)
    out[np.repeat(row_of_group, lengths)[fits], np.repeat(group_of, lengths)[fits], at[fits]] = ids[fits]
    return out, np.where(null, -1, counts), sizes


def flat_group(column: pa.ChunkedArray, most: int, deck: list[str]) -> tuple[Ints, Ints]:
    """A column of card groups (lists of codes): card ids (k, most) with `NO_CARD` past each
    group's end, and each group's size (-1 for a null or a group of more than `most`)."""
    lists = column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column
    k = len(lists)
    null = pc.is_null(lists).to_numpy(zero_copy_only=False)
    lengths = list_lengths(lists)
    ids = codes(lists.flatten(), deck)
    out = np.full((k, most), NO_CARD, dtype=np.int64)
    fits = np.repeat(lengths <= most, lengths)
    rows = np.repeat(np.arange(k), lengths)
    out[rows[fits], ranks(lengths)[fits]] = ids[fits]
    return out, np.where(null | (lengths > most), -1, lengths)
