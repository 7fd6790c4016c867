"""The archive's tables: Arrow schemas, and the rows one replayed record adds to each (spec/ARCHIVE.md)."""

from __future__ import annotations

import itertools
import re
import typing
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np
import orjson
import pyarrow as pa
import pyarrow.compute as pc

from recordkit.codec import to_data
from recordkit.engine import DealReplay
from recordkit.games import RULESETS
from recordkit.model import RecordBase
from recordkit.rules.base import DealSummary

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


@dataclass
class Rows:
    """Column lists for every table, filled record by record and flushed as record batches."""

    columns: dict[str, dict[str, list[Any]]] = field(
        default_factory=lambda: {
            name: {f.name: [] for f in schema} for name, schema in TABLES.items() if name != "plays"
        }
    )
    deals: int = 0
    games: int = 0
    decks: dict[tuple[str, str, int], int] = field(default_factory=dict)
    """Where each game and deck's cards start in `cards` (`_deck`)."""
    cards: dict[str, list[Any]] = field(
        default_factory=lambda: {"card": [], "suit": [], "rank": [], "points": []}
    )
    """Every deck's codes, suits, ranks and card points by the ruleset, one deck after another:
    the plays' card columns are taken from them by card (`batches`)."""
    played: dict[str, list[int]] = field(default_factory=lambda: {"card": [], "seat": [], "trump": []})
    """The cards played one after the other (card ids within their deck), who played each and
    whether it counted as a trump; the rest of the plays rows comes from their tricks rows."""
    trick_decks: list[int] = field(default_factory=list)
    """Each trick row's deck (its start in `cards`)."""
    shares: list[float] = field(default_factory=list)
    """The tricks' shares one after the other; the tricks rows hold their lengths (`batches`)."""
    declaring: list[bool] = field(default_factory=list)
    """For each share, whether its seat is on the declaring side."""

    def add(self, game_id: int, record: Archived, source: str) -> None:
        """The rows of one fully parsed, replayed record."""
        data = record.envelope
        game, players, deals = data["game"], data["players"], record.deals
        ruleset = RULESETS[game]
        table, _ = ruleset.table(record.options, len(players))
        assert table is not None, "only records whose table is valid are archived"
        self._row(
            "games",
            game_id,
            game,
            data["version"],
            len(players),
            list(players),
            orjson.dumps(data["options"]).decode(),
            orjson.dumps(data.get("meta", {})).decode(),
            len(deals),
            source,
            orjson.dumps(data).decode(),
            *(data["options"].get(column[len("option_") :]) for column in OPTION_COLUMNS),
        )
        deck = self._deck(ruleset, table, game)
        running: list[float] | None = [0.0] * len(players)
        for number, (raw, replay) in enumerate(zip(deals, record.replays, strict=True), 1):
            state = replay.state if replay is not None else None
            summary = ruleset.summary(state) if state is not None else DealSummary()
            tricks = state.tricks if state is not None else []
            calls = [a for a in (replay.actions if replay else []) if a.kind != "play"]
            hands, dog, derived = _dealt(raw, replay)
            side = ruleset.declaring_side(table, state, summary) if state is not None else None
            self._row(
                "deals",
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
                hands,
                dog,
                derived,
                replay is not None and replay.sheet,
                replay is not None
                and replay.completion is None
                and state is not None
                and ruleset.as_written(table, raw, state, calls),
                orjson.dumps(raw).decode(),
            )
            values = [ruleset.describe(table, a) for a in calls]
            self._extend(
                "calls",
                [game_id] * len(calls),
                [number] * len(calls),
                list(range(1, len(calls) + 1)),
                [a.kind for a in calls],
                [a.seat for a in calls],
                values,
                [_number(v) if a.kind == "bid" else None for a, v in zip(calls, values, strict=True)],
            )
            if tricks:
                self._plays(tricks, ruleset, state)
                self.trick_decks += [deck] * len(tricks)
                self._tricks(game_id, number, tricks, ruleset.deal_shares(table, state), side)
            running = self._scores(game_id, number, players, raw, replay, running, side)
        self.games += 1
        self.deals += len(deals)

    def _scores(
        self,
        game_id: int,
        number: int,
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
        seats = range(len(players))
        self._extend(
            "scores",
            [game_id] * len(players),
            [number] * len(players),
            list(seats),
            players,
            [None] * len(players) if side is None else [SIDES[s] for s in side],
            [_at(written, seat) for seat in seats],
            [_at(computed, seat) for seat in seats],
            [_at(running, seat) for seat in seats],
        )
        return running

    def _plays(self, tricks: list[Any], ruleset: Any, state: Any) -> None:
        """The cards played, who played them and whether each counted as a trump; the other
        columns of the plays rows are their tricks' (`batches`)."""
        cards = [card for trick in tricks for card in trick.cards]
        self.played["card"] += cards
        self.played["seat"] += [seat for trick in tricks for seat in trick.seats]
        self.played["trump"] += ruleset.trump_flags(state, cards)

    def _tricks(
        self,
        game_id: int,
        number: int,
        tricks: list[Any],
        shares: list[list[int | float]] | None,
        side: list[bool] | None,
    ) -> None:
        """One row per trick: leader, winner, cards, and its card points by the rules' count
        (`Ruleset.deal_shares`: French Tarot's Excuse stays with its side), in all, by seat and
        to the declaring side."""
        count = len(tricks)
        if shares is not None:
            for share in shares:
                self.shares += share
                self.declaring += (
                    side if side is not None and len(side) == len(share) else [False] * len(share)
                )
        counted = shares is not None
        self._extend(
            "tricks",
            [game_id] * count,
            [number] * count,
            list(range(1, count + 1)),
            [trick.leader for trick in tricks],
            [trick.winner for trick in tricks],
            [len(trick.cards) for trick in tricks],  # the plays' cards, as lists in `batches`
            [counted] * count,  # the points, summed from the shares in `batches`
            [len(share) for share in shares] if shares is not None else [None] * count,
            [counted and side is not None] * count,  # the declaring side's, likewise
        )

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

    def _extend(self, table: str, *columns: list[Any]) -> None:
        for column, values in zip(self.columns[table].values(), columns, strict=True):
            column.extend(values)

    def _row(self, table: str, *values: Any) -> None:
        for column, value in zip(self.columns[table].values(), values, strict=True):
            column.append(value)

    def batches(self) -> dict[str, pa.RecordBatch]:
        """The buffered rows as one record batch per table; the buffers are emptied."""
        out = {
            name: pa.RecordBatch.from_pydict(self.columns[name], schema=schema)
            for name, schema in TABLES.items()
            if name not in ("plays", "tricks")
        }
        out["plays"] = self._plays_batch()
        out["tricks"] = self._tricks_batch(out["plays"].column("card"))
        out = {name: out[name] for name in TABLES}
        for columns in [*self.columns.values(), self.played]:
            for values in columns.values():
                values.clear()
        self.trick_decks.clear()
        self.shares.clear()
        self.declaring.clear()
        self.deals = self.games = 0
        return out

    def _tricks_batch(self, cards: pa.Array) -> pa.RecordBatch:
        """The tricks rows, their cards lists from the plays' cards, their points and the
        declaring side's summed from their shares."""
        tricks = dict(self.columns["tricks"])
        shares = np.array(self.shares, np.float64)
        sizes = np.array([size or 0 for size in tricks["shares"]], np.int64)
        tricks["points"] = _sums(shares, sizes, tricks["points"])
        tricks["declarer_points"] = _sums(
            shares * np.array(self.declaring, np.bool_), sizes, tricks["declarer_points"]
        )
        tricks["cards"] = _lists(tricks["cards"], cards)
        tricks["shares"] = _lists(tricks["shares"], pa.array(shares, pa.float64()))
        return pa.RecordBatch.from_pydict(tricks, schema=TABLES["tricks"])

    def _plays_batch(self) -> pa.RecordBatch:
        """The plays rows, built a column at a time: each card's trick columns (keys, trick,
        leader, winner) repeated from its trick's row, its code, suit, rank and points taken
        from its deck by id."""
        tricks = self.columns["tricks"]
        sizes = np.array(tricks["cards"], dtype=np.int64)
        of_trick = pa.array(np.repeat(np.arange(len(sizes)), sizes))
        decks = np.repeat(np.array(self.trick_decks, np.int64), sizes)
        by_card = pa.array(decks + np.array(self.played["card"], np.int64))
        starts = np.repeat(np.cumsum(sizes) - sizes, sizes)
        schema = TABLES["plays"]

        def repeated(name: str) -> pa.Array:
            return pa.array(tricks[name], schema.field(name).type).take(of_trick)

        def carded(name: str) -> pa.Array:
            return pa.array(self.cards[name], schema.field(name).type).take(by_card)

        seats = pa.array(self.played["seat"], pa.int8())
        winners = repeated("winner")
        columns = {
            "game_id": repeated("game_id"),
            "deal": repeated("deal"),
            "trick": repeated("trick"),
            "position": pa.array(np.arange(len(starts)) - starts + 1, pa.int8()),
            "seat": seats,
            "card": carded("card"),
            "suit": carded("suit"),
            "rank": carded("rank"),
            "trump": pa.array(self.played["trump"], pa.bool_()),
            "leader": repeated("leader"),
            "winner": winners,
            "won": pc.fill_null(pc.equal(seats, winners), False),
            "points": carded("points"),
        }
        return pa.RecordBatch.from_pydict(columns, schema=schema)


def _sums(values: Any, sizes: Any, counted: list[bool]) -> pa.Array:
    """Each row's sum of its `sizes` values, one row's after another's; null where not `counted`."""
    sums = np.zeros(len(sizes), np.float64)
    filled = sizes > 0
    if filled.any():
        sums[filled] = np.add.reduceat(values, (np.cumsum(sizes) - sizes)[filled])
    return pa.array(sums, pa.float64(), mask=~np.array(counted, np.bool_))


def _lists(sizes: list[int | None], values: pa.Array) -> pa.Array:
    """A list column from its values one after the other and each row's length (None: a null
    row). The tricks table's lists are buffered so, flat (its cards are the plays' cards), rather
    than as one Python list a trick to build, keep and convert."""
    offsets = [0, *itertools.accumulate(size or 0 for size in sizes)]
    nulls = [size is None for size in sizes]
    mask = pa.array(nulls, pa.bool_()) if any(nulls) else None
    return pa.ListArray.from_arrays(pa.array(offsets, pa.int32()), values, mask=mask)


def _dealt(
    raw: dict[str, Any], replay: DealReplay | None
) -> tuple[list[list[str]] | None, list[str] | None, list[str] | None]:
    """The deal's hands and dog (Karnöffel: its face-up round) as the deals table holds them: as
    written, with the groups the record leaves out as the replay derived them from the play
    (`DealReplay.completion`); and the paths of those derived groups, [] when none is, None when
    the deal could not be replayed."""
    if replay is None or (replay.state is None and not replay.sheet):
        derived = None
    else:
        derived = list(replay.completion.derived) if replay.completion is not None else []
    dealt = raw
    if replay is not None and replay.completion is not None:
        completed = replay.completion.deal  # a model, or JSON from the fast path's derivation
        dealt = completed if type(completed) is dict else completed.model_dump(mode="json", exclude_none=True)
    hands, dog = dealt.get("hands"), dealt.get("dog", dealt.get("faceup"))
    return (
        [hand.split() for hand in hands]
        if type(hands) is list and all(type(h) is str for h in hands)
        else None,
        dog.split() if type(dog) is str else None,
        derived,
    )


SIDES = {True: "declarer", False: "defence"}
"""The scores table's side of a seat: with the declarer, or against him."""


LEADING_NUMBER = re.compile(r"[0-9]+")


@lru_cache(maxsize=1024)
def _number(text: str | None) -> int | None:
    """The number a bid's or contract's text starts with (`7`, `7 no trump`, Charlemagne's `2H`),
    None for a word (`pass`, `garde`); the few values met are worked out once each."""
    found = LEADING_NUMBER.match(text) if text is not None else None
    return int(found.group()) if found is not None else None


def _at(values: list[Any] | None, index: int) -> float | None:
    if values is None or index >= len(values):
        return None
    return float(values[index])
