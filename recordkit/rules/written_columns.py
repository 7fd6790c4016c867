"""The written columns of parsed records, built a batch at a time, as an archive's rows hold them.

A game's columnar check (`Ruleset.prove_columns`) reads an archive's games, deals, calls, plays
and scores rows. `WrittenColumns` builds the same rows straight from parsed JSON, so that JSON
lines, `.json` lists, the notation and imported logs are proven by the same check: each deal
written in its game's bare form (`WrittenForm`: words and codes, bare or with a comment or a
time beside them, no stated seats, leaders or winners, one score and total a seat; the hands and
dealt group left out only where the game's check derives them from the play) is added; any other
deal makes its record the record path's. The rows hold only what the record writes: a bid's
seat, which the rules give, is left null (the checks work it out), and so is the running total
of a deal that writes none.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from recordkit.model import POINTS_LIMIT
from recordkit.rules.columns import ColumnRows, Floats, Ints
from recordkit.rules.fastread import notes_ok
from recordkit.rules.values import Table

Rows = tuple[list[str], list[int | None] | None]
"""Calls rows of one kind: their values, and the number the record states for each (the seat of
an announcement, the window of a proposal; None where the record states none)."""
Reader = Callable[[Any, int], Rows | None]
"""How one key of a deal (at a table of so many players) is written as calls rows of one kind,
or None when it is not in the bare form."""
_NUMBERS = frozenset({int, float})
MAX_PLAYERS = 8
"""More seats than any table has (a key's seat part)."""


def texts(values: Any) -> bool:
    """Whether a value is a list of strings (joining them is the C loop that checks it)."""
    if type(values) is not list:
        return False
    try:
        " ".join(values)
    except TypeError:
        return False
    return True


CALL_NOTES = frozenset({"call", "comment", "time"})
TRICK_NOTES = frozenset({"cards", "comment", "time"})
"""The keys of a call or a trick written as an object that says nothing the rules read but its
value: a comment or a time beside it (no seat, leader or winner stated)."""


def noted_texts(values: Any, key: str, keys: frozenset[str]) -> list[str] | None:
    """A list of texts each written bare or as an object of its text (`key`) and notes only,
    as its texts; None for anything else (a stated seat, a note that is not text)."""
    if texts(values):
        return values  # type: ignore[no-any-return]
    if type(values) is not list:
        return None
    found = []
    for value in values:
        if type(value) is str:
            found.append(value)
        elif (
            type(value) is dict and keys.issuperset(value) and type(value.get(key)) is str and notes_ok(value)
        ):
            found.append(value[key])
        else:
            return None
    return found


def words(value: Any, players: int) -> Rows | None:
    """A list of words (an auction), each bare or with a comment: a row each."""
    found = noted_texts(value, "call", CALL_NOTES)
    return None if found is None else (found, None)


def word(value: Any, players: int) -> Rows | None:
    """One bare word or code (a called card): one row."""
    return ([value], None) if type(value) is str else None


def cards(value: Any, players: int) -> Rows | None:
    """A group of cards (a discard): a row a card."""
    return (value.split(" "), None) if type(value) is str else None


def words_or_cards(value: Any, players: int) -> Rows | None:
    """A list of bare words, or a group of cards in one text: a row each."""
    return words(value, players) if type(value) is list else cards(value, players)


def seat_of(value: Any, players: int) -> bool:
    """Whether a stated seat is one of the table's."""
    return type(value) is int and 0 <= value < players


def numbers(values: Any, players: int) -> bool:
    """Whether a written list holds one number a seat, each within what the format allows."""
    return (
        type(values) is list
        and len(values) == players
        and _NUMBERS.issuperset(map(type, values))
        and min(values) >= -POINTS_LIMIT
        and max(values) <= POINTS_LIMIT
    )


class CallsOf(NamedTuple):
    """One key of a deal written as calls rows of one kind, read by `read`; the numbers the
    rows state go in the calls column `column` (`seat`, or the game's own: `window`)."""

    key: str
    kind: str
    read: Reader
    column: str = "seat"


@dataclass(frozen=True)
class WrittenForm:
    """How a game's deals are written in the bare form its columns read: the keys a deal may
    have, the dealt group besides the hands (the deals' `dog` column: the dog, the kitty, the
    face-up cards), the keys written as calls rows, in record order, each of one kind, and what
    else a deal must say for its rows to hold all of it (`whole`: a group no row holds, say)."""

    keys: frozenset[str]
    group: str | None
    calls: tuple[CallsOf, ...]
    whole: Callable[[Table, dict[str, Any]], bool] | None = None
    stated: tuple[str, ...] = ()
    """Keys of a deal whose text the record may state (a chosen suit), each kept in a deals
    column of its name (null where not written), for the check to hold to the rules."""
    no_hands: bool = False
    """Whether a deal may write its hands as `[]` (a Karnöffel deal given up before any
    face-down card is dealt): a deals row of no hands, as an archive's."""
    derives: bool = False
    """Whether a deal may leave its hands and its dealt group out (the tricks-only form a
    magazine prints): a deals row whose hands and group are null, for the check to derive them
    from the play as the record path does, or to leave the deal to it."""

    @property
    def columns(self) -> tuple[str, ...]:
        """The calls columns of the numbers the rows state: `seat`, and any other."""
        return ("seat", *sorted({calls.column for calls in self.calls} - {"seat"}))


@dataclass
class WrittenColumns:
    """The rows of a batch of records, added a record at a time (`add`), read as `ColumnRows`.
    Each deal's values are appended to flat lists, and the columns are built once a batch."""

    form: WrittenForm
    game_ids: list[int] = field(default_factory=list)
    players: list[int] = field(default_factory=list)
    options: list[str] = field(default_factory=list)
    deal_counts: list[int] = field(default_factory=list)
    dealers: list[int] = field(default_factory=list)
    statuses: list[str] = field(default_factory=list)
    hands: list[str] = field(default_factory=list)
    hands_per_deal: list[int] = field(default_factory=list)
    hands_left_out: list[bool] = field(default_factory=list)
    groups: list[str] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)
    values: list[str] = field(default_factory=list)
    numbers: dict[str, list[int | None]] = field(default_factory=dict)
    texts: dict[str, list[str | None]] = field(default_factory=dict)
    calls_per_deal: list[int] = field(default_factory=list)
    tricks: list[str] = field(default_factory=list)
    tricks_per_deal: list[int] = field(default_factory=list)
    scores: list[float] = field(default_factory=list)
    totals: list[float] = field(default_factory=list)

    def add(self, game_id: int, table: Table, options: str, deals: list[Any]) -> bool:
        """Add one record's rows (`options`: its options as canonical JSON) when every deal is
        in the bare form; else add nothing and say False (the record takes the record path)."""
        players, whole = table.players, self.form.whole
        if not all(self._readable(deal, players) for deal in deals):
            return False
        if whole is not None and not all(whole(table, deal) for deal in deals):
            return False
        read = [self._calls(deal, players) for deal in deals]
        if None in read:
            return False
        self.game_ids.append(game_id)
        self.players.append(players)
        self.options.append(options)
        self.deal_counts.append(len(deals))
        unwritten = [math.nan] * players
        for deal, calls in zip(deals, read, strict=True):
            self.dealers.append(deal["dealer"])
            self.statuses.append(deal.get("status", "played"))
            hands = deal.get("hands", [])
            self.hands += hands
            self.hands_per_deal.append(len(hands))
            self.hands_left_out.append("hands" not in deal)
            if self.form.group is not None:
                self.groups.append(deal.get(self.form.group))
            kinds, values, numbers = calls  # type: ignore[misc]
            self.kinds += kinds
            self.values += values
            for column, stated in numbers.items():
                self.numbers.setdefault(column, []).extend(stated)
            for key in self.form.stated:
                self.texts.setdefault(key, []).append(deal.get(key))
            self.calls_per_deal.append(len(values))
            tricks = noted_texts(deal.get("tricks", []), "cards", TRICK_NOTES) or []
            self.tricks += tricks
            self.tricks_per_deal.append(len(tricks))
            self.scores += deal["result"]["scores"] if "result" in deal else unwritten
            self.totals += deal.get("totals", unwritten)
        return True

    def _readable(self, deal: Any, players: int) -> bool:
        """Whether a deal's keys, dealer, hands, dealt group, status, tricks and scores are in the
        bare form."""
        form = self.form
        if type(deal) is not dict or not form.keys.issuperset(deal) or not notes_ok(deal):
            return False
        hands: Any = deal.get("hands")
        group = form.group
        return (
            seat_of(deal.get("dealer"), players)
            and (
                (texts(hands) and (len(hands) == players or (form.no_hands and not hands)))
                or (form.derives and "hands" not in deal)
            )
            and type(deal.get("status", "played")) is str
            and (group is None or type(deal.get(group)) is str or (form.derives and group not in deal))
            and noted_texts(deal.get("tricks", []), "cards", TRICK_NOTES) is not None
            and _scores_written(deal, players)
            and all(type(deal.get(key, "")) is str for key in form.stated)
        )

    def _calls(
        self, deal: dict[str, Any], players: int
    ) -> tuple[list[str], list[str], dict[str, list[int | None]]] | None:
        """A deal's calls rows (their kinds, values and the numbers they state, by column) in
        record order, or None when one is not in the bare form."""
        kinds: list[str] = []
        values: list[str] = []
        numbers: dict[str, list[int | None]] = {column: [] for column in self.form.columns}
        for key, kind, reader, column in self.form.calls:
            if key in deal:
                read = reader(deal[key], players)
                if read is None:
                    return None
                count = len(read[0])
                kinds += [kind] * count
                values += read[0]
                for other, stated in numbers.items():
                    stated += read[1] if other == column and read[1] is not None else [None] * count
        return kinds, values, numbers

    def rows(self, header_ok: bool = True) -> ColumnRows:
        """The rows added, as a columnar check reads them."""
        players = np.asarray(self.players, dtype=np.int64)
        per_deal = np.repeat(players, self.deal_counts)
        game_of = np.repeat(np.asarray(self.game_ids, dtype=np.int64), self.deal_counts)
        number = _numbers_within(np.asarray(self.deal_counts, dtype=np.int64))
        games = pa.table(
            {
                "game_id": pa.array(self.game_ids, pa.int64()),
                "n_players": pa.array(players.astype(np.int8)),
                "options": pa.array(self.options, pa.string()),
                "n_deals": pa.array(self.deal_counts, pa.int32()),
            }
        )
        deals = pa.table(
            {
                "game_id": pa.array(game_of),
                "deal": pa.array(number.astype(np.int32)),
                "dealer": pa.array(self.dealers, pa.int64()),
                "status": pa.array(self.statuses, pa.string()),
                "hands": pa.ListArray.from_arrays(
                    pa.array(_offsets(np.asarray(self.hands_per_deal, dtype=np.int64))),
                    _split(self.hands),
                    mask=pa.array(self.hands_left_out, pa.bool_()),
                ),
                "dog": _split(self.groups) if self.form.group is not None else pa.nulls(len(per_deal)),
                "as_written": pa.array(np.ones(len(per_deal), dtype=bool)),
                **{key: pa.array(self.texts.get(key, []), pa.string()) for key in self.form.stated},
            }
        )
        calls = pa.table(
            {
                "game_id": pa.array(np.repeat(game_of, self.calls_per_deal)),
                "deal": pa.array(np.repeat(number, self.calls_per_deal).astype(np.int32)),
                "kind": pa.array(self.kinds, pa.string()),
                "value": pa.array(self.values, pa.string()),
                **{column: pa.array(self.numbers.get(column, []), pa.int8()) for column in self.form.columns},
            }
        )
        scores = pa.table(
            {
                "game_id": pa.array(np.repeat(game_of, per_deal)),
                "deal": pa.array(np.repeat(number, per_deal).astype(np.int32)),
                "seat": pa.array(_numbers_within(per_deal).astype(np.int8) - 1),
                "score": pa.array(np.asarray(self.scores, dtype=np.float64)),
                "total": pa.array(self._totals(game_of, per_deal)),
            }
        )
        return ColumnRows(
            games,
            deals,
            calls,
            self._plays(game_of, number),
            scores,
            np.full(len(players), header_ok, dtype=bool),
        )

    def _plays(self, game_of: Ints, number: Ints) -> pa.Table:
        """One plays row a card: its deal, trick and position (from 1), and its code."""
        per_trick = _split(self.tricks)
        sizes = np.asarray(pc.list_value_length(per_trick).to_numpy(zero_copy_only=False), dtype=np.int64)
        trick_deal = np.repeat(np.arange(len(self.tricks_per_deal)), self.tricks_per_deal)
        trick_number = _numbers_within(np.asarray(self.tricks_per_deal, dtype=np.int64))
        card_trick = np.repeat(np.arange(len(self.tricks)), sizes)
        card_deal = trick_deal[card_trick]
        return pa.table(
            {
                "game_id": pa.array(game_of[card_deal]),
                "deal": pa.array(number[card_deal].astype(np.int32)),
                "trick": pa.array(trick_number[card_trick].astype(np.int16)),
                "position": pa.array(_numbers_within(sizes).astype(np.int8)),
                "card": per_trick.flatten(),
            }
        )

    def _totals(self, game_of: Ints, per_deal: Ints) -> Floats:
        """Each scores row's written running total, or, where a deal writes none, the running sum
        of the written scores: the check compares the totals with the sums of its own scores and
        proves a deal only when those are the written ones, so such a total says nothing the
        record does not."""
        written = np.asarray(self.totals, dtype=np.float64)
        score = np.nan_to_num(np.asarray(self.scores, dtype=np.float64))
        seat = _numbers_within(per_deal) - 1
        key = np.repeat(game_of, per_deal) * MAX_PLAYERS + seat
        order = np.argsort(key, kind="stable")
        summed = np.cumsum(score[order])
        sorted_key = key[order]
        first = np.ones(len(key), dtype=bool)
        first[1:] = sorted_key[1:] != sorted_key[:-1]
        start = np.maximum.accumulate(np.where(first, np.arange(len(key)), 0))
        running = np.empty_like(summed)
        running[order] = summed - np.where(start > 0, summed[np.maximum(start - 1, 0)], 0.0)
        return np.where(np.isnan(written), running, written)


def _scores_written(deal: dict[str, Any], players: int) -> bool:
    """Whether a deal's result, when written, holds only its scores, one number a seat, and its
    running totals, when written, one number a seat: what the scores rows hold."""
    if "result" in deal:
        result = deal["result"]
        if type(result) is not dict or result.keys() != {"scores"} or not numbers(result["scores"], players):
            return False
    return "totals" not in deal or numbers(deal["totals"], players)


def _split(codes: list[str]) -> pa.ListArray:
    """Each text's space-separated codes, as a list of strings a text."""
    return pc.split_pattern(pa.array(codes, pa.string()), " ")


def _offsets(counts: Ints) -> Ints:
    """The offsets of lists of these lengths, one after the other."""
    return np.concatenate([[0], np.cumsum(counts)]).astype(np.int32)


def _numbers_within(counts: Ints) -> Ints:
    """1, 2, ... within each run of `counts` items, for all runs one after the other."""
    starts = np.repeat(np.cumsum(counts) - counts, counts)
    return np.arange(int(counts.sum())) - starts + 1
