"""The archive's tables: Arrow schemas, and the rows one replayed record adds to each (spec/ARCHIVE.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import orjson
import pyarrow as pa

from recordkit.codec import to_data
from recordkit.engine import DealReplay
from recordkit.games import RULESETS
from recordkit.validate import RecordReport

ARCHIVE_FORMAT = "recordkit-archive"
ARCHIVE_VERSION = 4
"""2 added the deals' hands, dog and as_written columns and the manifest's checksums; 3 the deals'
derived and sheet columns (partial records, format 1.1); 4 partitioned every table by game
(`<table>/game=<game>/`, spec/ARCHIVE.md "Layout")."""

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
            ("declarer", pa.int8()),
            ("partner", pa.int8()),
            ("made", pa.bool_()),
            ("trump", pa.string()),
            ("declarer_points", pa.float64()),
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
        ]
    ),
    "scores": pa.schema(
        [
            ("game_id", pa.int64()),
            ("deal", pa.int32()),
            ("seat", pa.int8()),
            ("player", pa.string()),
            ("score", pa.float64()),
            ("computed", pa.float64()),
            ("total", pa.float64()),
        ]
    ),
}
"""Every table of an archive, in the order they are written."""

VIOLATIONS = pa.schema(
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
"""The table `recordkit validate --violations` writes beside an archive's tables."""


@dataclass
class Rows:
    """Column lists for every table, filled record by record and flushed as record batches."""

    columns: dict[str, dict[str, list[Any]]] = field(
        default_factory=lambda: {name: {f.name: [] for f in schema} for name, schema in TABLES.items()}
    )
    deals: int = 0
    games: int = 0

    def add(self, game_id: int, report: RecordReport, source: str) -> None:
        """The rows of one fully parsed, replayed record."""
        record = report.record
        assert record is not None
        ruleset = RULESETS[record.game]
        table, _ = ruleset.table(record.options, len(record.players))
        assert table is not None, "only records whose table is valid are archived"
        data = to_data(record)
        deals = data.pop("deals")
        self._row(
            "games",
            game_id,
            record.game,
            record.version,
            len(record.players),
            list(record.players),
            orjson.dumps(data["options"]).decode(),
            orjson.dumps(data.get("meta", {})).decode(),
            len(deals),
            source,
            orjson.dumps(data).decode(),
        )
        running: list[float] | None = [0.0] * len(record.players)
        for number, (deal, raw, replay) in enumerate(
            zip(record.deals, deals, report.replays, strict=True), 1
        ):
            state = replay.state if replay is not None else None
            summary = ruleset.summary(state) if state is not None else None
            tricks = state.tricks if state is not None else []
            calls = [a for a in (replay.actions if replay else []) if a.kind != "play"]
            hands, dog, derived = _dealt(raw, replay)
            self._row(
                "deals",
                game_id,
                number,
                record.game,
                len(record.players),
                deal.dealer,
                deal.status,
                summary.contract if summary else None,
                summary.declarer if summary else None,
                summary.partner if summary else None,
                summary.made if summary else None,
                summary.trump if summary else None,
                summary.declarer_points if summary else None,
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
            self._extend(
                "calls",
                [game_id] * len(calls),
                [number] * len(calls),
                list(range(1, len(calls) + 1)),
                [a.kind for a in calls],
                [a.seat for a in calls],
                [ruleset.describe(table, a) for a in calls],
            )
            if tricks:
                self._plays(game_id, number, tricks, table, ruleset, state)
            running = self._scores(game_id, number, record.players, deal, replay, running)
        self.games += 1
        self.deals += len(deals)

    def _scores(
        self,
        game_id: int,
        number: int,
        players: list[str],
        deal: Any,
        replay: Any,
        running: list[float] | None,
    ) -> list[float] | None:
        written = list(deal.result.scores) if deal.result is not None else None
        computed = replay.scores if replay is not None else None
        scores = written if written is not None else computed
        if deal.totals is not None:
            running = [float(t) for t in deal.totals]
        elif running is not None and scores is not None:
            running = [t + s for t, s in zip(running, scores, strict=True)]
        else:
            running = None
        for seat, player in enumerate(players):
            self._row(
                "scores",
                game_id,
                number,
                seat,
                player,
                _at(written, seat),
                _at(computed, seat),
                _at(running, seat),
            )
        return running

    def _plays(
        self, game_id: int, number: int, tricks: list[Any], table: Any, ruleset: Any, state: Any
    ) -> None:
        """One row per card played, built column by column."""
        cards = [card for trick in tricks for card in trick.cards]
        seats = [seat for trick in tricks for seat in trick.seats]
        sizes = [len(trick.cards) for trick in tricks]
        leaders = [trick.leader for trick, size in zip(tricks, sizes, strict=True) for _ in range(size)]
        winners = [trick.winner for trick, size in zip(tricks, sizes, strict=True) for _ in range(size)]
        deck = table.deck
        self._extend(
            "plays",
            [game_id] * len(cards),
            [number] * len(cards),
            [t for t, size in enumerate(sizes, 1) for _ in range(size)],
            [p for size in sizes for p in range(1, size + 1)],
            seats,
            [deck.codes[c] for c in cards],
            [deck.suits[c] for c in cards],
            [deck.ranks[c] for c in cards],
            [ruleset.is_trump(state, c) for c in cards],
            leaders,
            winners,
            [seat == winner for seat, winner in zip(seats, winners, strict=True)],
        )

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
        }
        for columns in self.columns.values():
            for values in columns.values():
                values.clear()
        self.deals = self.games = 0
        return out


def _dealt(
    raw: dict[str, Any], replay: DealReplay | None
) -> tuple[list[list[str]] | None, list[str] | None, list[str] | None]:
    """The deal's hands and dog as the deals table holds them: as written, with the groups the
    record leaves out as the replay derived them from the play (`DealReplay.completion`); and the
    paths of those derived groups, [] when none is, None when the deal could not be replayed."""
    if replay is None or (replay.state is None and not replay.sheet):
        derived = None
    else:
        derived = list(replay.completion.derived) if replay.completion is not None else []
    dealt = raw
    if replay is not None and replay.completion is not None:
        dealt = replay.completion.deal.model_dump(mode="json", exclude_none=True)
    hands, dog = dealt.get("hands"), dealt.get("dog")
    return (
        [hand.split() for hand in hands]
        if type(hands) is list and all(type(h) is str for h in hands)
        else None,
        dog.split() if type(dog) is str else None,
        derived,
    )


def _at(values: list[Any] | None, index: int) -> float | None:
    if values is None or index >= len(values):
        return None
    return float(values[index])
