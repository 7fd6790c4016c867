"""The archive's tables: Arrow schemas, and the rows one replayed record adds to each (spec/ARCHIVE.md)."""

from __future__ import annotations

import re
import typing
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np
import orjson
import pyarrow as pa
import pyarrow.compute as pc

from recordkit.engine import DealReplay
from recordkit.games import RULESETS
from recordkit.model import RecordBase, to_data
from recordkit.rules.values import DealSummary

ARCHIVE_FORMAT = "recordkit-archive"
ARCHIVE_VERSION = 4
"""2 added the deals' hands, dog and as_written columns and the manifest's checksums; 3 the deals'
derived and sheet columns (partial records, format 1.1); 4 partitioned every table by game
(`<table>/game=<game>/`, spec/ARCHIVE.md "Layout")."""


def _option_type(annotation: Any) -> pa.DataType:
    """The Arrow type of an option's values: bool, int32 (numbers, numeric choices), else string."""
    choices = typing.get_args(annotation) if typing.get_origin(annotation) is typing.Literal else ()
    if annotation is bool:
        return pa.bool_()
    if annotation is int or (choices and all(type(c) is int for c in choices)):
        return pa.int32()
    return pa.string()


def _option_columns() -> dict[str, pa.DataType]:
    """One games column per option name of every game (`option_<name>`, null in the games that
    have no such option); a name two games give different types is a string column."""
    columns: dict[str, pa.DataType] = {}
    for ruleset in RULESETS.values():
        for name, info in ruleset.Options.model_fields.items():
            kind = _option_type(info.annotation)
            column = f"option_{name}"
            columns[column] = kind if columns.get(column, kind) == kind else pa.string()
    return dict(sorted(columns.items()))


OPTION_COLUMNS = _option_columns()
"""The games table's option columns and their types."""

PANDAS_TYPES = {
    pa.int8(): ("int8", "Int8"),
    pa.int16(): ("int16", "Int16"),
    pa.int32(): ("int32", "Int32"),
    pa.int64(): ("int64", "Int64"),
    pa.bool_(): ("bool", "boolean"),
    pa.float64(): ("float64", "float64"),
}
"""(pandas_type, numpy_type) as pandas' metadata names them, for the Arrow types whose nulls numpy
cannot hold (pandas' nullable Int8... and boolean); strings and lists are numpy objects."""


def with_pandas_metadata(schema: pa.Schema) -> pa.Schema:
    """The schema with the `pandas` metadata pyarrow reads in `to_pandas()`, so that pandas gets
    nullable integers and booleans (Int8, boolean) rather than float64 and object."""
    columns = [
        {
            "name": f.name,
            "field_name": f.name,
            "pandas_type": PANDAS_TYPES.get(f.type, ("unicode" if f.type == pa.string() else "object", ""))[
                0
            ],
            "numpy_type": PANDAS_TYPES.get(f.type, ("", "object"))[1],
            "metadata": None,
        }
        for f in schema
    ]
    pandas = {
        "index_columns": [],
        "column_indexes": [],
        "columns": columns,
        "creator": {"library": "recordkit"},
    }
    return schema.with_metadata({b"pandas": orjson.dumps(pandas)})


TABLES: dict[str, pa.Schema] = {
    "games": pa.schema(
        [
            ("game_id", pa.int64()),
            ("game", pa.string()),
            ("format_version", pa.string()),
            ("n_players", pa.int8()),
            ("players", pa.list_(pa.string())),
            ("options", pa.string()),
            ("meta", pa.string()),
            ("n_deals", pa.int32()),
            ("source", pa.string()),
            ("record", pa.string()),
            *OPTION_COLUMNS.items(),
        ]
    ),
    "deals": pa.schema(
        [
            ("game_id", pa.int64()),
            ("deal", pa.int32()),
            ("game", pa.string()),
            ("n_players", pa.int8()),
            ("dealer", pa.int8()),
            ("status", pa.string()),
            ("contract", pa.string()),
            ("contract_number", pa.int16()),
            ("declarer", pa.int8()),
            ("partner", pa.int8()),
            ("made", pa.bool_()),
            ("trump", pa.string()),
            ("declarer_points", pa.float64()),
            ("bouts", pa.int8()),
            ("target", pa.float64()),
            ("margin", pa.float64()),
            ("joffre_won_by", pa.int8()),
            ("kaiser_won_by", pa.int8()),
            ("joffre_captured", pa.int8()),
            ("n_tricks", pa.int16()),
            ("hands", pa.list_(pa.list_(pa.string()))),
            ("dog", pa.list_(pa.string())),
            ("derived", pa.list_(pa.string())),
            ("sheet", pa.bool_()),
            ("as_written", pa.bool_()),
            ("deal_json", pa.string()),
        ]
    ),
    "calls": pa.schema(
        [
            ("game_id", pa.int64()),
            ("deal", pa.int32()),
            ("index", pa.int16()),
            ("kind", pa.string()),
            ("seat", pa.int8()),
            ("value", pa.string()),
            ("number", pa.int16()),
        ]
    ),
    "plays": pa.schema(
        [
            ("game_id", pa.int64()),
            ("deal", pa.int32()),
            ("trick", pa.int16()),
            ("position", pa.int8()),
            ("seat", pa.int8()),
            ("card", pa.string()),
            ("suit", pa.string()),
            ("rank", pa.int8()),
            ("trump", pa.bool_()),
            ("leader", pa.int8()),
            ("winner", pa.int8()),
            ("won", pa.bool_()),
            ("points", pa.float64()),
        ]
    ),
    "tricks": pa.schema(
        [
            ("game_id", pa.int64()),
            ("deal", pa.int32()),
            ("trick", pa.int16()),
            ("leader", pa.int8()),
            ("winner", pa.int8()),
            ("cards", pa.list_(pa.string())),
            ("points", pa.float64()),
            ("shares", pa.list_(pa.float64())),
            ("declarer_points", pa.float64()),
        ]
    ),
    "scores": pa.schema(
        [
            ("game_id", pa.int64()),
            ("deal", pa.int32()),
            ("seat", pa.int8()),
            ("player", pa.string()),
            ("side", pa.string()),
            ("score", pa.float64()),
            ("computed", pa.float64()),
            ("total", pa.float64()),
        ]
    ),
}
TABLES = {name: with_pandas_metadata(schema) for name, schema in TABLES.items()}
"""Every table of an archive, in the order they are written."""

TABLES_SINCE = {"tricks": 4}
"""The archive version that added a table: a part of an older archive has no file of it."""


def required_tables(version: int) -> list[str]:
    """The tables every part of an archive of this version has."""
    return [name for name in TABLES if version >= TABLES_SINCE.get(name, 0)]


VIOLATIONS = with_pandas_metadata(
    pa.schema(
        [
            ("game_id", pa.int64()),
            ("deal", pa.int32()),
            ("trick", pa.int16()),
            ("position", pa.int8()),
            ("seat", pa.int8()),
            ("code", pa.string()),
            ("severity", pa.string()),
            ("rule", pa.string()),
            ("message", pa.string()),
            ("path", pa.string()),
        ]
    )
)
"""The table `recordkit validate --violations` writes beside an archive's tables."""


@dataclass(slots=True)
class Archived:
    """One record as the tables store it: its canonical envelope (without the deals) and
    canonical deals as JSON values, its options, and each deal's replay."""

    envelope: dict[str, Any]
    options: Any
    deals: list[dict[str, Any]]
    replays: list[DealReplay | None]


def archived(record: RecordBase, replays: list[DealReplay | None]) -> Archived:
    """A parsed record as the tables store it: its deals as the model's canonical dump."""
    data = to_data(record)
    deals = data.pop("deals")
    return Archived(data, record.options, deals, replays)


DEAL_SCALARS = [name for name in TABLES["deals"].names if name not in ("hands", "dog")]
"""The deals columns buffered one tuple a deal (`Buffers.deals`); the hands and dog go as text."""


@dataclass
class Buffers:
    """What the rows of the records added since the last batch hold, as flat lists a table's
    column at a time; what follows from the counts (keys, numbers, positions, the plays' trick
    columns) is left to `Rows.batches`, which makes it with NumPy."""

    games: list[tuple[Any, ...]] = field(default_factory=list)
    """The games rows, one tuple a record in the games columns' order."""
    deals: list[tuple[Any, ...]] = field(default_factory=list)
    """The deals rows, one tuple a deal in `DEAL_SCALARS`' order."""
    hands: list[str] = field(default_factory=list)
    """The hands of the deals one after the other, as text (split by Arrow in `batches`)."""
    hand_counts: list[int | None] = field(default_factory=list)
    """For each deal, how many of `hands` are its hands; None: no hands column (null)."""
    dogs: list[str | None] = field(default_factory=list)
    """Each deal's dog (Karnöffel: its face-up round) as text, None for none."""
    keys: list[int] = field(default_factory=list)
    """Each deal's game_id, then its deal number: `keys[2 * i]`, `keys[2 * i + 1]`."""
    counts: dict[str, list[int]] = field(default_factory=lambda: {"calls": [], "tricks": [], "scores": []})
    """For each deal, its rows in the calls, tricks and scores tables."""
    calls: dict[str, list[Any]] = field(
        default_factory=lambda: {"kind": [], "seat": [], "value": [], "number": []}
    )
    scores: dict[str, list[Any]] = field(
        default_factory=lambda: {"player": [], "side": [], "score": [], "computed": [], "total": []}
    )
    tricks: dict[str, list[Any]] = field(
        default_factory=lambda: {"leader": [], "winner": [], "size": [], "deck": [], "shared": []}
    )
    """Each trick's leader, winner, number of cards, deck (its start in `Rows.cards`) and number
    of shares (None: the deal has none)."""
    counted: list[tuple[bool, bool]] = field(default_factory=list)
    """For each deal with tricks, whether its tricks have points, and points to a declaring side."""
    played: dict[str, list[Any]] = field(default_factory=lambda: {"card": [], "seat": [], "trump": []})
    """The cards played one after the other (card ids within their deck), who played each and
    whether it counted as a trump; the rest of the plays rows comes from their tricks."""
    shares: list[float] = field(default_factory=list)
    """The tricks' shares one after the other."""
    declaring: list[bool] = field(default_factory=list)
    """For each share, whether its seat is on the declaring side."""


@dataclass
class Rows:
    """The rows of every table, filled record by record and flushed as record batches."""

    buffers: Buffers = field(default_factory=Buffers)
    deals: int = 0
    games: int = 0
    decks: dict[tuple[str, str, int], int] = field(default_factory=dict)
    """Where each game and deck's cards start in `cards` (`_deck`)."""
    cards: dict[str, list[Any]] = field(
        default_factory=lambda: {"card": [], "suit": [], "rank": [], "points": []}
    )
    """Every deck's codes, suits, ranks and card points by the ruleset, one deck after another:
    the plays' card columns are taken from them by card (`batches`)."""

    def add(self, game_id: int, record: Archived, source: str) -> None:
        """The rows of one fully parsed, replayed record."""
        data = record.envelope
        game, players, deals = data["game"], data["players"], record.deals
        ruleset = RULESETS[game]
        table, _ = ruleset.table(record.options, len(players))
        assert table is not None, "only records whose table is valid are archived"
        options = data["options"]
        self.buffers.games.append(
            (
                game_id,
                game,
                data["version"],
                len(players),
                list(players),
                orjson.dumps(options).decode(),
                orjson.dumps(data.get("meta", {})).decode(),
                len(deals),
                source,
                orjson.dumps(data).decode(),
                *(options.get(column[len("option_") :]) for column in OPTION_COLUMNS),
            )
        )
        deck = self._deck(ruleset, table, game)
        running: list[float] | None = [0.0] * len(players)
        for number, (raw, replay) in enumerate(zip(deals, record.replays, strict=True), 1):
            running = self._deal(game_id, number, game, ruleset, table, deck, players, raw, replay, running)
        self.games += 1
        self.deals += len(deals)

    def _deal(
        self,
        game_id: int,
        number: int,
        game: str,
        ruleset: Any,
        table: Any,
        deck: int,
        players: list[str],
        raw: dict[str, Any],
        replay: DealReplay | None,
        running: list[float] | None,
    ) -> list[float] | None:
        """The rows of one deal in every table; returns the running totals after it."""
        buffers = self.buffers
        state = replay.state if replay is not None else None
        summary = ruleset.summary(state) if state is not None else NO_SUMMARY
        tricks = state.tricks if state is not None else []
        calls = [a for a in replay.actions if a.kind != "play"] if replay is not None else []
        derived = self._dealt(raw, replay)
        side = ruleset.declaring_side(table, state, summary) if state is not None else None
        buffers.keys += (game_id, number)
        buffers.deals.append(
            (
                game_id,
                number,
                game,
                len(players),
                raw["dealer"],
                raw.get("status", "played"),
                summary.contract,
                _number(summary.contract),
                summary.declarer,
                summary.partner,
                summary.made,
                summary.trump,
                summary.declarer_points,
                summary.bouts,
                summary.target,
                summary.margin,
                summary.joffre_won_by,
                summary.kaiser_won_by,
                summary.joffre_captured,
                len(tricks),
                derived,
                replay is not None and replay.sheet,
                replay is not None
                and replay.completion is None
                and state is not None
                and ruleset.as_written(table, raw, state, calls),
                orjson.dumps(raw).decode(),
            )
        )
        self._calls(ruleset, table, calls)
        if tricks:
            self._plays(tricks, ruleset, state, deck)
            self._tricks(tricks, ruleset.deal_shares(table, state), side)
        else:
            buffers.counts["tricks"].append(0)
        return self._scores(players, raw, replay, running, side)

    def _dealt(self, raw: dict[str, Any], replay: DealReplay | None) -> list[str] | None:
        """The deal's hands and dog (Karnöffel: its face-up round) as the deals table holds them:
        as written, with the groups the record leaves out as the replay derived them from the play
        (`DealReplay.completion`), buffered as text; returns the paths of those derived groups,
        [] when none is, None when the deal could not be replayed."""
        if replay is None or (replay.state is None and not replay.sheet):
            derived = None
        else:
            derived = list(replay.completion.derived) if replay.completion is not None else []
        dealt = raw
        if replay is not None and replay.completion is not None:
            dealt = replay.completion.deal.model_dump(mode="json", exclude_none=True)
        hands, dog = dealt.get("hands"), dealt.get("dog", dealt.get("faceup"))
        if type(hands) is list and all(type(h) is str for h in hands):
            self.buffers.hands += hands
            self.buffers.hand_counts.append(len(hands))
        else:
            self.buffers.hand_counts.append(None)
        self.buffers.dogs.append(dog if type(dog) is str else None)
        return derived

    def _calls(self, ruleset: Any, table: Any, calls: list[Any]) -> None:
        """One row per action other than a card played: its kind, seat, value in record notation
        and, for a bid, the number it starts with."""
        columns = self.buffers.calls
        values = [ruleset.describe(table, a) for a in calls]
        kinds = [a.kind for a in calls]
        columns["kind"] += kinds
        columns["seat"] += [a.seat for a in calls]
        columns["value"] += values
        columns["number"] += [_number(v) if k == "bid" else None for k, v in zip(kinds, values, strict=True)]
        self.buffers.counts["calls"].append(len(calls))

    def _scores(
        self,
        players: list[str],
        deal: dict[str, Any],
        replay: Any,
        running: list[float] | None,
        side: list[bool] | None,
    ) -> list[float] | None:
        """One row per seat: the score written and computed, the running total, the seat's side."""
        written = list(deal["result"]["scores"]) if "result" in deal else None
        computed = replay.scores if replay is not None else None
        scores = written if written is not None else computed
        if deal.get("totals") is not None:
            running = [float(t) for t in deal["totals"]]
        elif running is not None and scores is not None:
            running = [t + s for t, s in zip(running, scores, strict=True)]
        else:
            running = None
        n = len(players)
        columns = self.buffers.scores
        columns["player"] += players
        columns["side"] += [None] * n if side is None else [SIDES[s] for s in side]
        columns["score"] += _seats(written, n)
        columns["computed"] += _seats(computed, n)
        columns["total"] += _seats(running, n)
        self.buffers.counts["scores"].append(n)
        return running

    def _plays(self, tricks: list[Any], ruleset: Any, state: Any, deck: int) -> None:
        """The cards played, who played them and whether each counted as a trump; the other
        columns of the plays rows are their tricks' (`batches`)."""
        cards = [card for trick in tricks for card in trick.cards]
        played = self.buffers.played
        played["card"] += cards
        played["seat"] += [seat for trick in tricks for seat in trick.seats]
        played["trump"] += ruleset.trump_flags(state, cards)
        columns = self.buffers.tricks
        columns["leader"] += [trick.leader for trick in tricks]
        columns["winner"] += [trick.winner for trick in tricks]
        columns["size"] += [len(trick.cards) for trick in tricks]
        columns["deck"] += [deck] * len(tricks)

    def _tricks(
        self, tricks: list[Any], shares: list[list[int | float]] | None, side: list[bool] | None
    ) -> None:
        """The tricks' card points by the rules' count (`Ruleset.deal_shares`: French Tarot's
        Excuse stays with its side), by seat and to the declaring side: summed in `batches`."""
        buffers = self.buffers
        buffers.counts["tricks"].append(len(tricks))
        buffers.counted.append((shares is not None, shares is not None and side is not None))
        if shares is None:
            buffers.tricks["shared"] += [None] * len(tricks)
            return
        sizes = [len(share) for share in shares]
        buffers.tricks["shared"] += sizes
        for share in shares:
            buffers.shares += share
        if side is not None and all(size == len(side) for size in sizes):
            buffers.declaring += side * len(shares)
        else:
            for size in sizes:
                buffers.declaring += side if side is not None and len(side) == size else [False] * size

    def _deck(self, ruleset: Any, table: Any, game: str) -> int:
        """Where a game and deck's cards start in `cards`, their points by the ruleset
        (`Ruleset.card_points`) worked out once."""
        deck = table.deck
        key = (game, deck.name, len(deck))
        if key not in self.decks:
            self.decks[key] = len(self.cards["card"])
            values = [ruleset.card_points(table, card) for card in range(len(deck))]
            self.cards["card"] += deck.codes
            self.cards["suit"] += deck.suits
            self.cards["rank"] += deck.ranks
            self.cards["points"] += [None if v is None else float(v) for v in values]
        return self.decks[key]

    def batches(self) -> dict[str, pa.RecordBatch]:
        """The buffered rows as one record batch per table; the buffers are emptied."""
        buffers = self.buffers
        self.buffers = Buffers()
        self.deals = self.games = 0
        keys = np.array(buffers.keys, np.int64).reshape(-1, 2)
        counts = {name: np.array(values, np.int64) for name, values in buffers.counts.items()}
        plays = self._plays_batch(buffers, keys, counts["tricks"])
        out = {
            "games": _batch("games", _columns("games", buffers.games)),
            "deals": self._deals_batch(buffers),
            "calls": _batch("calls", {**_keyed(keys, counts["calls"], "index", 1), **buffers.calls}),
            "plays": plays,
            "tricks": self._tricks_batch(buffers, keys, counts["tricks"], plays.column("card")),
            "scores": _batch("scores", {**_keyed(keys, counts["scores"], "seat", 0), **buffers.scores}),
        }
        return {name: out[name] for name in TABLES}

    @staticmethod
    def _deals_batch(buffers: Buffers) -> pa.RecordBatch:
        """The deals rows, their hands and dog split into codes by Arrow."""
        columns = _columns("deals", buffers.deals)
        sizes = buffers.hand_counts
        columns["hands"] = _lists(sizes, _split_groups(buffers.hands))
        columns["dog"] = _split_groups(buffers.dogs)
        return _batch("deals", columns)

    @staticmethod
    def _tricks_batch(buffers: Buffers, keys: Any, counts: Any, cards: pa.Array) -> pa.RecordBatch:
        """The tricks rows, their cards lists from the plays' cards, their points and the
        declaring side's summed from their shares."""
        columns = buffers.tricks
        counted = np.array(buffers.counted, np.bool_).reshape(-1, 2)
        with_tricks = counts > 0
        per_trick = np.repeat(counted, counts[with_tricks], axis=0)
        shares = np.array(buffers.shares, np.float64)
        sizes = np.array([size or 0 for size in columns["shared"]], np.int64)
        return _batch(
            "tricks",
            {
                **_keyed(keys, counts, "trick", 1),
                "leader": columns["leader"],
                "winner": columns["winner"],
                "cards": _lists(columns["size"], cards),
                "points": _sums(shares, sizes, per_trick[:, 0]),
                "shares": _lists(columns["shared"], pa.array(shares, pa.float64())),
                "declarer_points": _sums(
                    shares * np.array(buffers.declaring, np.bool_), sizes, per_trick[:, 1]
                ),
            },
        )

    def _plays_batch(self, buffers: Buffers, keys: Any, counts: Any) -> pa.RecordBatch:
        """The plays rows, built a column at a time: each card's trick columns (keys, trick,
        leader, winner) repeated from its trick's, its code, suit, rank and points taken from
        its deck by id."""
        tricks = buffers.tricks
        sizes = np.array(tricks["size"], np.int64)
        trick_keys = _keyed(keys, counts, "trick", 1)
        of_trick = np.repeat(np.arange(len(sizes)), sizes)
        by_card = pa.array(
            np.repeat(np.array(tricks["deck"], np.int64), sizes) + np.array(buffers.played["card"], np.int64)
        )
        starts = np.repeat(np.cumsum(sizes) - sizes, sizes)
        schema = TABLES["plays"]

        def repeated(name: str) -> pa.Array:
            return pa.array(tricks[name], schema.field(name).type).take(pa.array(of_trick))

        def carded(name: str) -> pa.Array:
            return pa.array(self.cards[name], schema.field(name).type).take(by_card)

        seats = pa.array(buffers.played["seat"], pa.int8())
        winners = repeated("winner")
        columns = {
            **{name: values[of_trick] for name, values in trick_keys.items()},
            "position": np.arange(len(starts)) - starts + 1,
            "seat": seats,
            "card": carded("card"),
            "suit": carded("suit"),
            "rank": carded("rank"),
            "trump": buffers.played["trump"],
            "leader": repeated("leader"),
            "winner": winners,
            "won": pc.fill_null(pc.equal(seats, winners), False),
            "points": carded("points"),
        }
        return _batch("plays", columns)


NO_SUMMARY = DealSummary()
"""The summary of a deal that was not replayed."""


def _batch(table: str, columns: dict[str, Any]) -> pa.RecordBatch:
    """A table's record batch from its columns (Arrow arrays, NumPy arrays or Python sequences),
    each made in its schema's type (a value that does not fit is an error, as in `pa.array`)."""
    schema = TABLES[table]
    return pa.RecordBatch.from_arrays(
        [
            values if isinstance(values, pa.Array) else pa.array(values, field.type)
            for values, field in ((columns[field.name], field) for field in schema)
        ],
        schema=schema,
    )


def _columns(table: str, rows: list[tuple[Any, ...]]) -> dict[str, Any]:
    """A table's rows buffered as tuples (the deals': `DEAL_SCALARS`) as its columns by name."""
    names = DEAL_SCALARS if table == "deals" else TABLES[table].names
    columns = zip(*rows, strict=True) if rows else [()] * len(names)
    return dict(zip(names, columns, strict=True))


def _keyed(keys: Any, counts: Any, name: str, first: int) -> dict[str, Any]:
    """The game_id and deal of each of the deals' rows in another table (`counts` a deal),
    and each row's place among its deal's, from `first`, as column `name`."""
    total = int(counts.sum())
    starts = np.cumsum(counts) - counts
    return {
        "game_id": np.repeat(keys[:, 0], counts),
        "deal": np.repeat(keys[:, 1], counts),
        name: np.arange(total) - np.repeat(starts, counts) + first,
    }


def _seats(values: list[Any] | None, seats: int) -> list[float | None]:
    """A deal's value for each seat, as a float; None for a seat it has none for."""
    if values is None:
        return [None] * seats
    return [float(values[seat]) if seat < len(values) else None for seat in range(seats)]


PLAIN_TEXT = r"^(?:[A-Za-z0-9]+(?: [A-Za-z0-9]+)*)?$"
"""Card groups that `str.split()` and a split at single spaces cut alike (empty ones aside)."""


def _split_groups(texts: list[str] | list[str | None]) -> pa.Array:
    """Card groups written as text (None: a null row) as lists of their codes, as `str.split()`
    cuts them: by Arrow, a batch at once, when every group is codes separated by single spaces
    (what canonical form writes), else by Python."""
    array = pa.array(texts, pa.string())
    if not pc.all(pc.match_substring_regex(array, PLAIN_TEXT), min_count=0).as_py():
        return pa.array([None if text is None else text.split() for text in texts], pa.list_(pa.string()))
    parts = pc.split_pattern(array, " ")
    codes = parts.flatten()
    sizes = pc.if_else(pc.equal(array, ""), 0, pc.list_value_length(parts))
    return _lists(sizes, pc.filter(codes, pc.not_equal(codes, "")))


def _sums(values: Any, sizes: Any, counted: Any) -> pa.Array:
    """Each row's sum of its `sizes` values, one row's after another's; null where not `counted`."""
    sums = np.zeros(len(sizes), np.float64)
    filled = sizes > 0
    if filled.any():
        sums[filled] = np.add.reduceat(values, (np.cumsum(sizes) - sizes)[filled])
    return pa.array(sums, pa.float64(), mask=~np.asarray(counted, np.bool_))


def _lists(sizes: list[int | None] | list[int] | pa.Array, values: pa.Array) -> pa.Array:
    """A list column from its values one after the other and each row's length (None: a null
    row): the tables' lists are buffered flat, rather than as one Python list a row to build,
    keep and convert."""
    counts = sizes if isinstance(sizes, pa.Array) else pa.array(sizes, pa.int64())
    offsets = np.concatenate([[0], np.cumsum(pc.fill_null(counts, 0).to_numpy())])
    mask = counts.is_null() if counts.null_count else None
    return pa.ListArray.from_arrays(pa.array(offsets, pa.int32()), values, mask=mask)


SIDES = {True: "declarer", False: "defence"}
"""The scores table's side of a seat: with the declarer, or against him."""


LEADING_NUMBER = re.compile(r"[0-9]+")


@lru_cache(maxsize=1024)
def _number(text: str | None) -> int | None:
    """The number a bid's or contract's text starts with (`7`, `7 no trump`, Charlemagne's `2H`),
    None for a word (`pass`, `garde`); the few values met are worked out once each."""
    found = LEADING_NUMBER.match(text) if text is not None else None
    return int(found.group()) if found is not None else None
