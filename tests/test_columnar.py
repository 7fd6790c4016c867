"""The columnar check of archives (`recordkit.columnar`) against the full replay.

A record the columnar check proves clean must be one the full replay of its lossless JSON finds
nothing in, and the verdicts over a whole archive must be the same either way. Here, for every
game whose ruleset has a columnar check (`COLUMNAR`), at every player count and with any options:
generated archives are proven column by column (so the check is not vacuous), single changes
anywhere in a record never slip through it; and for French Tarot, targeted faults; and an archive
whose files were changed after recordkit wrote them, or written before the columns existed, takes
the record path.
"""

from __future__ import annotations

import os
import random
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import orjson
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from recordkit.columnar import archive_items
from recordkit.diagnostics import Location
from recordkit.games import RULESETS
from recordkit.generate import DEFAULT_NAMES
from recordkit.model import to_data
from recordkit.rules.base import Ruleset
from recordkit.rules.columns import COLUMNS, ColumnRows
from recordkit.rules.french_tarot.cards import (
    BITS,
    DECK,
    DOG_SIZES,
    EXCUSE,
    FIRST_TRUMP,
    HAND_SIZES,
    KINGS,
    PETIT,
    TRUMPS,
)
from recordkit.rules.french_tarot.columnar import Contract, Poignees, Variant, _scores, prove_columns
from recordkit.rules.french_tarot.record import TarotDeal
from recordkit.rules.french_tarot.scoring import slam_outcome
from recordkit.sources import RawRecord
from recordkit.validate import RecordReport, Settings, validate_record
from tests.budget import examples
from tests.columnar_helpers import (
    archive_of,
    both_ways,
    changed_copies,
    never_proven_wrongly,
    played,
    proven_clean,
    rescored,
    swap_or_replace,
)
from tests.test_properties import PROPERTY, option_values, play

TAROT = RULESETS["french-tarot"]
TAROT_CODES = DECK.codes
MANY = settings(PROPERTY, max_examples=int(os.environ.get("RECORDKIT_COLUMNAR_EXAMPLES", examples(60))))
COLUMNAR = sorted(
    (r for r in RULESETS.values() if type(r).prove_columns is not Ruleset.prove_columns), key=lambda r: r.name
)
"""The rulesets that have a columnar check."""
tarot_games = st.tuples(
    st.just(TAROT), st.sampled_from(TAROT.player_counts), option_values(TAROT.Options), st.integers(0, 2**31)
)
"""French Tarot at every table size, with any options."""
columnar_games = st.sampled_from(COLUMNAR).flatmap(
    lambda ruleset: st.tuples(
        st.just(ruleset),
        st.sampled_from(ruleset.player_counts),
        option_values(ruleset.Options),
        st.integers(0, 2**31),
    )
)
"""Every game that has a columnar check, at every table size, with any options."""


def left_to_the_record_path(record: dict[str, Any]) -> bool:
    """Whether a clean French Tarot record has a deal the columns leave to the record path: a
    misère announced, or more announcements than players (a slam beside a poignée of every seat)."""
    announced = [deal.get("announcements", []) for deal in record["deals"]]
    return any(a["type"] == "misere" for made in announced for a in made) or any(
        len(made) > len(record["players"]) for made in announced
    )


def provable(records: list[dict[str, Any]]) -> list[bool]:
    """Which clean French Tarot records of one archive the columns cover (`left_to_the_record_path`),
    when some card is played in the archive (an archive of thrown-in deals alone, with an empty
    plays table, goes to the record path)."""
    some = played(records)
    return [some and not left_to_the_record_path(record) for record in records]


@PROPERTY
@given(st.lists(columnar_games, min_size=1, max_size=4))
def test_generated_archives_are_proven_column_by_column(games: list[Any]) -> None:
    """Every game with a columnar check: the findings over a generated archive are the full
    replay's (none); for French Tarot, every record the columns cover (`provable`) is proven
    without its JSON."""
    records = [record for record in (play(game, deals=4) for game in games) if record]
    if not records:
        return
    proven = proven_clean(records)
    if all(record["game"] == TAROT.name for record in records):
        assert proven == provable(records)


@pytest.mark.parametrize(
    ("ruleset", "players"), [(r, n) for r in COLUMNAR for n in r.player_counts], ids=lambda value: str(value)
)
def test_every_table_size_is_proven_column_by_column(ruleset: Ruleset[Any, Any, Any], players: int) -> None:
    """A game's columnar check covers every table size: of a few generated records with the default
    options, some are proven without their JSON (so the property tests above are not vacuous)."""
    records = [play((ruleset, players, {}, seed), deals=3) for seed in range(4)]
    assert any(proven_clean(records))


BIDS = ["pass", "petite", "garde", "garde_sans", "garde_contre"]


def mistake(record: dict[str, Any], data: st.DataObject) -> None:
    """One change of the kind a person typing a record makes, which still reads as a record: a
    card swapped, replaced, dropped, added or moved between tricks, hands, the dog and the
    discard; a bid, the
    dealer, the status, a score, a total or the called card changed; a bid added or dropped; a discarded card
    played, or one more or less discarded; a poignée shown or changed (`poignee`); two tricks swapped; a trick's cards rotated; a trick's leader or winner stated
    (rightly or not); the taker's card points written; the last deal annulled or passed by all
    (rightly or not, perhaps with a card changed)."""
    deal = data.draw(st.sampled_from(record["deals"]))
    codes = list(TAROT_CODES)
    groups = [("hands", i) for i in range(len(deal["hands"]))] + [("dog", None)]
    groups += [("tricks", i) for i in range(len(deal.get("tricks", [])))]
    groups += [("discard", None)] if deal.get("discard") else []
    kind = data.draw(
        st.sampled_from(
            [
                "swap",
                "replace",
                "bid",
                "dealer",
                "status",
                "score",
                "total",
                "tricks",
                "rotate",
                "stated",
                "points",
                "auction",
                "discard",
                "unplayed",
                "call",
                "poignee",
                "slam",
            ]
        )
    )
    if kind == "unplayed":  # the last deal annulled, or passed by all, perhaps with a card changed
        deal = record["deals"][-1]
        for key in ("discard", "announcements", "result", "totals"):
            deal.pop(key, None)
        if data.draw(st.integers(0, 3)):  # else the cards stay, wrongly
            deal.pop("tricks", None)
        if data.draw(st.booleans()):
            deal["status"] = "annulled"
            if data.draw(st.booleans()):
                deal.pop("auction", None)
        else:
            deal["auction"] = ["pass"] * len(deal["hands"])
        if data.draw(st.booleans()):
            kind = "replace"
            groups = [("hands", i) for i in range(len(deal["hands"]))] + [("dog", None)]
    if kind == "discard" and deal.get("discard") and data.draw(st.booleans()):  # one card more or less
        cards = deal["discard"].split()
        deal["discard"] = " ".join(
            cards[:-1] if data.draw(st.booleans()) else [*cards, data.draw(st.sampled_from(codes))]
        )
    elif kind == "discard" and deal.get("discard") and deal.get("tricks"):  # a discarded card played
        kind, groups = (
            "swap",
            [("discard", None), ("tricks", data.draw(st.integers(0, len(deal["tricks"]) - 1)))],
        )
    if kind in ("swap", "replace"):
        swap_or_replace(deal, kind, groups, codes, data, resize=True)
    elif kind == "bid" and deal.get("auction"):
        deal["auction"][data.draw(st.integers(0, len(deal["auction"]) - 1))] = data.draw(
            st.sampled_from(BIDS)
        )
    elif kind == "auction" and deal.get("auction"):
        if data.draw(st.booleans()):
            deal["auction"].append(data.draw(st.sampled_from(BIDS)))
        else:
            deal["auction"].pop()
    elif kind == "poignee":
        poignee(deal, data)
    elif kind == "slam":
        slam(deal, data)
    elif kind == "call" and deal.get("call"):  # five players: another card called
        deal["call"] = data.draw(st.sampled_from(codes))
    elif kind == "dealer":
        deal["dealer"] = deal["dealer"] + data.draw(st.integers(1, len(deal["hands"])))
    elif kind == "status":
        deal["status"] = data.draw(st.sampled_from(["played", "annulled", "abandoned"]))
    elif kind == "stated" and deal.get("tricks"):
        i = data.draw(st.integers(0, len(deal["tricks"]) - 1))
        seat = data.draw(st.integers(0, len(deal["hands"]) - 1))
        deal["tricks"][i] = {
            "cards": deal["tricks"][i],
            data.draw(st.sampled_from(["leader", "winner"])): seat,
        }
    elif kind == "points" and deal.get("result"):
        deal["result"]["points"] = data.draw(st.sampled_from([0, 41, 41.5, 60, 91]))
    elif kind in ("score", "total") and deal.get("result" if kind == "score" else "totals"):
        numbers = deal["result"]["scores"] if kind == "score" else deal["totals"]
        if data.draw(st.integers(0, 4)):
            numbers[data.draw(st.integers(0, len(numbers) - 1))] += data.draw(
                st.sampled_from([1, -1, 10, 0.5])
            )
        else:  # one number too many
            numbers.append(0)
    elif kind == "tricks" and len(deal.get("tricks", [])) > 1:
        i, j = (
            data.draw(st.integers(0, len(deal["tricks"]) - 1)),
            data.draw(st.integers(0, len(deal["tricks"]) - 1)),
        )
        deal["tricks"][i], deal["tricks"][j] = deal["tricks"][j], deal["tricks"][i]
    elif kind == "rotate" and deal.get("tricks"):
        i = data.draw(st.integers(0, len(deal["tricks"]) - 1))
        cards = deal["tricks"][i].split()
        deal["tricks"][i] = " ".join(cards[1:] + cards[:1])


def poignee(deal: dict[str, Any], data: st.DataObject) -> None:
    """A poignée shown (one level of the seat's trumps, perhaps with the Excuse) or a shown one
    changed: another level, a card replaced, dropped or added, another seat, shown twice."""
    announced = deal.setdefault("announcements", [])
    if not announced or data.draw(st.booleans()):
        seat = data.draw(st.integers(0, len(deal["hands"]) - 1))
        trumps = [c for c in deal["hands"][seat].split() if c[0] == "T" or c == "EX"]
        count = data.draw(st.sampled_from([8, 10, 13, 15, 18]))
        level = data.draw(st.sampled_from(["simple", "double", "triple"]))
        announced.append(
            {"type": "poignee", "seat": seat, "level": level, "cards": " ".join(trumps[-count:])}
        )
        return
    shown = data.draw(st.sampled_from(announced))
    change = data.draw(st.sampled_from(["level", "card", "drop", "add", "seat", "twice"]))
    cards = str(shown.get("cards", "")).split()
    if change == "level":
        shown["level"] = data.draw(st.sampled_from(["simple", "double", "triple"]))
    elif change == "seat":
        shown["seat"] = data.draw(st.integers(0, len(deal["hands"])))
    elif change == "twice":
        announced.append(dict(shown))
    elif cards:
        i = data.draw(st.integers(0, len(cards) - 1))
        if change == "card":
            cards[i] = data.draw(st.sampled_from(list(TAROT_CODES)))
        elif change == "drop":
            cards.pop(i)
        else:
            cards.insert(i, data.draw(st.sampled_from(["EX", "T21", "T1", "CK"])))
        shown["cards"] = " ".join(cards)


def slam(deal: dict[str, Any], data: st.DataObject) -> None:
    """tarot.slam.who, tarot.trick.leader: a slam announced by any seat (the taker's moves the
    first lead), one announced twice, or one dropped."""
    announced = deal.setdefault("announcements", [])
    slams = [a for a in announced if a["type"] == "slam"]
    change = data.draw(st.sampled_from(["announce", "twice", "drop"]))
    if change == "drop" and slams:
        announced.remove(slams[0])
    elif change == "twice" and slams:
        announced.append(dict(slams[0]))
    else:
        seat = data.draw(st.integers(0, len(deal["hands"]) - 1))
        announced.insert(data.draw(st.integers(0, len(announced))), {"type": "slam", "seat": seat})


def strength(card: int) -> int:
    """How a strong player ranks his cards: trumps, then Kings, then the rest by rank; the Petit
    kept for the trick before the last and the Excuse for the last (tarot.excuse.slam,
    tarot.score.petit-au-bout)."""
    if card in (EXCUSE, PETIT):
        return -1 if card == EXCUSE else 0
    return (
        2 * len(DECK) + card
        if card >= FIRST_TRUMP
        else len(DECK) + card
        if BITS[card] & KINGS
        else 1 + card % 14
    )


def strong_game(
    game: tuple[Ruleset[Any, Any, Any], int, dict[str, Any], int], announce: bool
) -> dict[str, Any]:
    """A one-deal record of a taker dealt the strongest cards (the top trumps, now and then the
    Petit, the Excuse and a card or two swapped for others) who plays his strongest legal card each time, as
    his partner does, the defence playing at random; the slam announced when `announce`, a poignée
    now and then. Most are slams (tarot.score.slam), some with the Excuse led to the last trick
    (tarot.excuse.slam), the others announced and failed or plain. {} for options this table does
    not allow."""
    ruleset, players, options, seed = game
    table, _problems = ruleset.table(ruleset.Options.model_validate(options), players)
    if table is None:
        return {}
    rng = random.Random(seed)
    size, dealer, taker = HAND_SIZES[players], rng.randrange(players), rng.randrange(players)
    best = sorted(range(len(DECK)), key=strength, reverse=True)
    strong = [*best[: size - 2], PETIT if rng.random() < 0.5 else best[size - 2]]
    strong.append(EXCUSE if rng.random() < 0.5 else next(c for c in best if c not in strong))
    rest = [card for card in range(len(DECK)) if card not in strong]
    for _ in range(rng.choice([0, 0, 1, 2])):  # a weaker hand, now and then
        i, j = rng.randrange(size), rng.randrange(len(rest))
        strong[i], rest[j] = rest[j], strong[i]
    while True:  # no Petit sec among the others
        rng.shuffle(rest)
        others = [rest[i * size : (i + 1) * size] for i in range(players - 1)]
        if not any(sum(BITS[c] for c in hand) & (TRUMPS | BITS[EXCUSE]) == BITS[PETIT] for hand in others):
            break
    hands = [*others[:taker], strong, *others[taker:]]
    dealt = TarotDeal(
        dealer=dealer,
        hands=[DECK.format(sorted(h)) for h in hands],
        dog=DECK.format(sorted(rest[-DOG_SIZES[players] :])),
    )
    contract = rng.randrange(1, 5)
    state, problems = ruleset.start(table, dealt)
    assert not problems
    actions = []
    while (turn := ruleset.turn(state)) is not None:
        choices = ruleset.legal(state)
        plays = [a for a in choices if a.kind == "play"]
        said = [a for a in choices if a.kind == "announce" and a.value[0] in ("slam", "poignee")]
        if turn.kinds == {"bid"}:
            action = next(a for a in choices if a.value == (contract if turn.seat == taker else 0))
        elif announce and any(a.value[0] == "slam" for a in said):
            action = next(a for a in said if a.value[0] == "slam")
        elif said and rng.random() < 0.2:
            action = rng.choice(said)
        elif plays and turn.seat in state.attack():
            action = max(plays, key=lambda a: strength(a.value))
        else:
            action = rng.choice(plays or choices)
        assert not ruleset.advance(state, action)
        actions.append(action)
    deal = ruleset.record_deal(table, dealt, actions)
    scores = ruleset.score(state)
    deal.result = ruleset.result(scores)
    deal.totals = scores
    record = ruleset.Record(
        game=ruleset.name, players=list(DEFAULT_NAMES[:players]), options=table.options, deals=[deal]
    )
    data: dict[str, Any] = orjson.loads(orjson.dumps(to_data(record)))
    return data


slam_games = st.tuples(tarot_games, st.booleans()).map(lambda drawn: strong_game(*drawn))
"""One-deal French Tarot records whose attack most often takes every trick (`strong_game`), at
every table size, with any options, the slam announced or not."""


@PROPERTY
@given(st.lists(slam_games, min_size=1, max_size=3))
def test_slams_are_proven_column_by_column(records: list[dict[str, Any]]) -> None:
    """tarot.slam.who, tarot.trick.leader, tarot.excuse.slam, tarot.score.slam: records whose attack
    most often takes every trick, the slam announced or not, are proven without their JSON (but
    for a misère or more announcements than players), the findings the full replay's (none)."""
    records = [record for record in records if record]
    if records:
        assert proven_clean(records) == provable(records)


@MANY
@given(slam_games, st.data())
def test_no_single_change_to_a_slam_slips_through_the_columns(
    record: dict[str, Any], data: st.DataObject
) -> None:
    """Copies of a record whose attack most often takes every trick (`strong_game`), each with one
    change (`mistake`, a slam announced, doubled or dropped among them; half rescored) or one
    anywhere: the columns prove none that the full replay objects to."""
    if record:
        never_proven_wrongly([record, *changed_copies(record, data, TAROT, mistake, 12, 10)])


@MANY
@given(columnar_games, st.data())
def test_no_single_change_slips_through_the_columns(game: Any, data: st.DataObject) -> None:
    """Copies of a generated record of any game with a columnar check, each with one change
    anywhere (a card, a bid, a seat, a score, a key) or, for French Tarot, one mistake that still
    reads as a record (most are rule violations the converter archives as they are): the columnar
    check proves none that the full replay objects to, and the findings of the whole archive are
    the full replay's. Half the changed copies are scored by the rules (`rescored`), so that no
    fault hides behind a wrong score."""
    ruleset = game[0]
    record = play(game, deals=3)
    if not record:
        return
    never_proven_wrongly(
        [record, *changed_copies(record, data, ruleset, mistake if ruleset is TAROT else None, 12, 10)]
    )


def left_out(record: dict[str, Any], data: st.DataObject) -> dict[str, Any]:
    """A copy of a record whose deals leave dealt cards out, as a magazine or a scorekeeper
    writes them: no hands and no dog, some hands written null, or the dog alone left out; now
    and then with two cards of its tricks swapped (often a revoke, proven from the tricks)."""
    copy = orjson.loads(orjson.dumps(record))
    for deal in copy["deals"]:
        how = data.draw(st.sampled_from(["magazine", "scorekeeper", "dog"]))
        if how == "magazine":
            del deal["hands"], deal["dog"]
        elif how == "scorekeeper":
            known = data.draw(st.integers(0, len(deal["hands"]) - 1))
            deal["hands"] = [hand if seat == known else None for seat, hand in enumerate(deal["hands"])]
        else:
            del deal["dog"]
        tricks = deal.get("tricks", [])
        if len(tricks) > 1 and data.draw(st.booleans()):
            i, j = data.draw(st.integers(0, len(tricks) - 1)), data.draw(st.integers(0, len(tricks) - 1))
            first, second = tricks[i].split(), tricks[j].split()
            k = data.draw(st.integers(0, len(first) - 1))
            first[k], second[k] = second[k], first[k]
            tricks[i], tricks[j] = " ".join(first), " ".join(second)
    return copy


@PROPERTY
@given(st.lists(tarot_games, min_size=1, max_size=3), st.data())
def test_deals_with_cards_left_out_take_the_record_path(games: list[Any], data: st.DataObject) -> None:
    """A deal whose hands or dog the record leaves out is never proven column by column (the
    archive holds its derived hands, but it is not `as_written`): its record goes to the record
    path, which derives the hands, checks the rest and says what it could not check. The records
    written whole beside it are still proven, and the findings are the full replay's."""
    records = [play(game, deals=2) for game in games]
    partial = [left_out(record, data) for record in records]
    with tempfile.TemporaryDirectory() as folder:
        archive = archive_of([*records, *partial], folder)
        columnar, full, proven = both_ways(archive)
        deals = pq.read_table(archive / "deals" / "game=french-tarot" / "part-00000.parquet").to_pylist()
    assert columnar == full
    assert proven == provable([*records, *partial])[: len(records)] + [False] * len(partial)
    # a deal left without hands or cards (an annulled all-pass deal) is a score sheet's line
    assert all(row["derived"] or row["sheet"] for row in deals[-sum(len(r["deals"]) for r in partial) :])
    assert not any(row["as_written"] and row["derived"] for row in deals)


def rewrite(path: Path, change: Any) -> None:
    """Rewrite a Parquet file of an archive with one column changed (as another tool might)."""
    table = pq.read_table(path)
    pq.write_table(change(table), path)


def test_a_record_changed_after_writing_is_replayed_from_its_json(tmp_path: Path) -> None:
    """A deals file rewritten after recordkit wrote it (a score changed in the lossless JSON,
    the tables left alone) no longer matches the manifest's checksum: the archive takes the
    record path, which finds the wrong score."""
    archive = archive_of([play((TAROT, 4, {}, 7), deals=2)], str(tmp_path))
    assert both_ways(archive)[2] == [True]

    def wrong_score(table: pa.Table) -> pa.Table:
        deal = orjson.loads(table.column("deal_json")[0].as_py())
        deal["result"]["scores"][0] += 1
        texts = [orjson.dumps(deal).decode(), *table.column("deal_json").to_pylist()[1:]]
        return table.set_column(table.schema.get_field_index("deal_json"), "deal_json", pa.array(texts))

    rewrite(archive / "deals" / "game=french-tarot" / "part-00000.parquet", wrong_score)
    columnar, full, proven = both_ways(archive)
    assert "changed since recordkit wrote it" in columnar[0].message  # reported (issue 33)
    assert proven[1:] == [False] and columnar[1:] == full
    assert "SCORE-MISMATCH" in {d.code for d in full[0][1]}


def test_a_table_changed_after_writing_is_not_trusted(tmp_path: Path) -> None:
    """A plays file rewritten after recordkit wrote it is not read for the verdict: the records
    are replayed from their lossless JSON, clean as they were."""
    archive = archive_of([play((TAROT, 3, {}, 11), deals=2)], str(tmp_path))

    def reversed_cards(table: pa.Table) -> pa.Table:
        index = table.schema.get_field_index("card")
        return table.set_column(index, "card", pc.utf8_reverse(table.column("card")))

    rewrite(archive / "plays" / "game=french-tarot" / "part-00000.parquet", reversed_cards)
    columnar, full, proven = both_ways(archive)
    assert "plays rows may not be the records'" in columnar[0].message  # reported (issue 33)
    assert proven[1:] == [False] and columnar[1:] == full and not full[0][1]


def test_an_archive_without_checksums_takes_the_record_path(tmp_path: Path) -> None:
    """An archive whose manifest has no checksums (as archive version 1) is validated record by record."""
    archive = archive_of([play((TAROT, 4, {}, 3), deals=2)], str(tmp_path))
    manifest = orjson.loads((archive / "_recordkit.json").read_bytes())
    del manifest["checksums"]
    (archive / "_recordkit.json").write_bytes(orjson.dumps(manifest))
    columnar, full, proven = both_ways(archive)
    assert proven == [False] and columnar == full


@PROPERTY
@given(st.sampled_from(["french-tarot", "charlemagne"]))
def test_a_record_of_another_game_than_expected_is_not_proven(expected: str) -> None:
    """With an expected game (`validate --game`), the columns prove only records of that game."""
    record = play((TAROT, 4, {}, 5), deals=2)
    with tempfile.TemporaryDirectory() as folder:
        items = list(archive_items(archive_of([record], folder), Settings(game=expected)))
    assert [isinstance(item, RecordReport) for item in items] == [expected == "french-tarot"]


def column_rows(archive: Path) -> ColumnRows:
    """The rows of an archive's first part as the columnar check reads them, every header accepted."""
    tables = {
        name: pq.read_table(
            archive / name / "game=french-tarot" / "part-00000.parquet", columns=[x for x in c if x != "game"]
        )
        for name, c in COLUMNS.items()
    }
    games = tables["games"].append_column("game", pa.array(["french-tarot"] * tables["games"].num_rows))
    return ColumnRows(
        games,
        tables["deals"],
        tables["calls"],
        tables["plays"],
        tables["scores"],
        np.ones(games.num_rows, dtype=bool),
    )


def with_column(table: pa.Table, name: str, values: list[Any]) -> pa.Table:
    index = table.schema.get_field_index(name)
    return table.set_column(index, table.schema.field(name), pa.array(values, table.schema.field(name).type))


def proven_records(rows: ColumnRows) -> Any:
    """The records French Tarot's columns prove (no deal of these whole records is noted)."""
    proof = prove_columns(rows)
    assert not proof.noted.any()
    return proof.games


def test_the_columns_prove_only_what_the_converter_writes(tmp_path: Path) -> None:
    """The check refuses rows that are not as the converter writes them, rather than trusting
    them: a header the record path does not accept, other options, an abandoned deal (the record
    path's alone), a deal missing or misnumbered,
    deals out of order (then nothing in the row group); the third record, at five players, is
    proven throughout."""
    records = [play((TAROT, n, {}, seed), deals=2) for n, seed in ((4, 1), (3, 2), (5, 3))]
    rows = column_rows(archive_of(records, str(tmp_path)))
    assert list(proven_records(rows)) == [True, True, True]
    assert list(proven_records(replace(rows, header_ok=np.array([False, True, True])))) == [False, True, True]
    options = rows.games.column("options").to_pylist()
    other = [options[0].replace('"misere":false', '"misere":null'), *options[1:]]
    assert other[0] != options[0]
    assert list(proven_records(replace(rows, games=with_column(rows.games, "options", other)))) == [
        False,
        True,
        True,
    ]
    statuses = ["abandoned", *rows.deals.column("status").to_pylist()[1:]]
    assert list(proven_records(replace(rows, deals=with_column(rows.deals, "status", statuses)))) == [
        False,
        True,
        True,
    ]
    second = pc.and_(pc.equal(rows.deals.column("game_id"), 0), pc.equal(rows.deals.column("deal"), 2))
    assert list(proven_records(replace(rows, deals=rows.deals.filter(pc.invert(second))))) == [
        False,
        True,
        True,
    ]
    numbers = rows.deals.column("deal").to_pylist()
    renumbered = [numbers[0] + 1, numbers[1] + 1, *numbers[2:]]  # game 0's deals as 2 and 3
    assert list(proven_records(replace(rows, deals=with_column(rows.deals, "deal", renumbered)))) == [
        False,
        True,
        True,
    ]
    swapped = [numbers[1], numbers[0], *numbers[2:]]
    unsorted = replace(rows, deals=with_column(rows.deals, "deal", swapped))
    assert not proven_records(unsorted).any()  # rows out of order: nothing is proven


def test_an_abandoned_deal_takes_the_record_path(tmp_path: Path) -> None:
    """The columns cover played and annulled deals; a deal abandoned after the auction (no
    cards, nothing scored) is left to the record path, which alone knows what to say of it."""
    record = play((TAROT, 4, {}, 9), deals=2)
    last = record["deals"][-1]
    last["status"] = "abandoned"
    for key in ("tricks", "discard"):
        last.pop(key, None)
    last["result"] = {"scores": [0, 0, 0, 0]}
    last["totals"] = record["deals"][0]["totals"]
    columnar, full, proven = both_ways(archive_of([record], str(tmp_path)))
    assert proven == [False] and columnar == full


HEADER = {"format": "recordkit", "version": "1.0", "game": "french-tarot", "players": ["A", "B", "C", "D"]}


def slam_record(scores: list[int], excuse_last: bool, announced: bool = False) -> dict[str, Any]:
    """A garde sans in which seat 0, holding eighteen trumps (or seventeen and the Excuse, led to
    the last trick), takes every trick, after announcing the slam when `announced` (the dealer
    then seat 1, so that only the announcement gives him the first lead); the dog holds the other
    trumps. The defenders hold plain cards only; seats 1 to 3 play CK, C10 and C9 last."""
    codes = DECK.codes
    trumps = [f"T{rank}" for rank in range(21, 4 if excuse_last else 3, -1)] + (["EX"] if excuse_last else [])
    dog = ["T1", "T2", "T3", "T4" if excuse_last else "EX", "S1", "S2"]
    plain = [code for code in codes[:56] if code not in dog and code not in ("CK", "C10", "C9")]
    hands = [[*plain[0:17], "CK"], [*plain[17:34], "C10"], [*plain[34:51], "C9"]]
    deal = {
        "dealer": 1 if announced else 3,
        "hands": [" ".join(trumps), *(" ".join(hand) for hand in hands)],
        "dog": " ".join(dog),
        "auction": ["pass", "pass", "garde_sans", "pass"]
        if announced
        else ["garde_sans", "pass", "pass", "pass"],
        "announcements": [{"type": "slam", "seat": 0}] if announced else [],
        "tricks": [" ".join([trumps[t], *(hand[t] for hand in hands)]) for t in range(18)],
        "result": {"scores": scores},
        "totals": scores,
    }
    return {**HEADER, "deals": [deal]}


def test_an_unannounced_slam_is_proven(tmp_path: Path) -> None:
    """tarot.score.slam, tarot.excuse.slam: an unannounced slam (91 points, 3 bouts, garde sans:
    (25 + 55) x 4 + 200 = 520 from each defender), also when the Excuse led to the last trick takes
    it, is proven column by column; the sheet that forgot the slam (320 each; and with the Excuse
    lost in the last trick, 81 points and 2 bouts: (25 + 40) x 4) is not, and the record path
    finds it."""
    records = [
        slam_record([1560, -520, -520, -520], excuse_last=False),
        slam_record([960, -320, -320, -320], excuse_last=False),
        slam_record([1560, -520, -520, -520], excuse_last=True),
        slam_record([780, -260, -260, -260], excuse_last=True),
    ]
    columnar, full, proven = both_ways(archive_of(records, str(tmp_path)))
    assert proven == [True, False, True, False] and columnar == full
    assert [[d.code for d in report[1]] for report in full] == [
        [],
        ["SCORE-MISMATCH"],
        [],
        ["SCORE-MISMATCH"],
    ]


def test_an_announced_slam_made_is_proven(tmp_path: Path) -> None:
    """tarot.slam.who, tarot.trick.leader, tarot.score.slam: the taker (seat 0, the dealer seat 1)
    announces the slam, leads the first trick and takes every one: (25 + 55) x 4 + 400 = 720 from
    each defender, also with the Excuse led to the last trick (tarot.excuse.slam). Proven column by
    column; not the sheet scoring it unannounced (520 each), nor the same play without the
    announcement (seat 2 leads the first trick), nor the slam announced by a defender."""
    made = slam_record([2160, -720, -720, -720], excuse_last=False, announced=True)
    by_defender = orjson.loads(orjson.dumps(made))
    by_defender["deals"][0]["announcements"] = [{"type": "slam", "seat": 1}]
    unannounced = orjson.loads(orjson.dumps(made))
    unannounced["deals"][0]["announcements"] = []
    records = [
        made,
        slam_record([2160, -720, -720, -720], excuse_last=True, announced=True),
        slam_record([1560, -520, -520, -520], excuse_last=False, announced=True),
        by_defender,
        unannounced,
    ]
    columnar, full, proven = both_ways(archive_of(records, str(tmp_path)))
    assert proven == [True, True, False, False, False] and columnar == full
    found = [{d.code for d in report[1]} for report in full]
    assert found[:3] == [set(), set(), {"SCORE-MISMATCH"}]
    assert "TAROT-SLAM-NOT-TAKER" in found[3] and found[4]


def test_an_announced_slam_failed_is_proven(tmp_path: Path) -> None:
    """tarot.score.slam: a slam announced that the attack does not make costs it 200 (not
    multiplied). A generated one (`strong_game`) is proven column by column; its sheet written
    without the 200 is not, and the record path finds it."""
    record = next(
        r
        for r in (strong_game((TAROT, 4, {}, seed), True) for seed in range(200))
        if _slam_of(r) == "announced_failed"
    )
    forgot = orjson.loads(orjson.dumps(record))
    scores = forgot["deals"][0]["result"]["scores"]
    taker = forgot["deals"][0]["announcements"][0]["seat"]
    forgot["deals"][0]["result"]["scores"] = [
        s + (600 if seat == taker else -200) for seat, s in enumerate(scores)
    ]
    forgot["deals"][0]["totals"] = forgot["deals"][0]["result"]["scores"]
    columnar, full, proven = both_ways(archive_of([record, forgot], str(tmp_path)))
    assert proven == [True, False] and columnar == full
    assert [[d.code for d in report[1]] for report in full] == [[], ["SCORE-MISMATCH"]]


def _slam_of(record: dict[str, Any]) -> str | None:
    """The slam outcome of a one-deal record's replay (`scoring.slam_outcome`)."""
    report = validate_record(RawRecord(orjson.loads(orjson.dumps(record)), Location()))
    state = report.replays[0].state
    return None if state is None else slam_outcome(state)


def test_the_excuse_led_last_by_a_defence_that_took_every_trick_wins_it(tmp_path: Path) -> None:
    """tarot.excuse.slam, tarot.score.slam: a garde sans whose taker (seat 0) holds plain cards
    only; seat 1, leading every trick with the seventeen top trumps, leads the Excuse to the last:
    it takes that trick, so the defence takes every trick. The attack counts the dog (T1 to T4,
    S1, S2: 7 points, 1 bout, 51 needed): -(25 + 44) x 4 - 200 = -476 for each defender to
    receive. Proven column by column; the sheet that gives the last trick to its cards (no
    defence slam: 276 each) is not, and the record path finds it."""
    codes = DECK.codes
    trumps = [f"T{rank}" for rank in range(21, 4, -1)]
    dog = ["T1", "T2", "T3", "T4", "S1", "S2"]
    plain = [code for code in codes[:56] if code not in dog]
    hands = [plain[0:18], plain[18:36], plain[36:54]]  # seats 0, 2 and 3

    def record(scores: list[int]) -> dict[str, Any]:
        deal = {
            "dealer": 0,
            "hands": [" ".join(hands[0]), " ".join([*trumps, "EX"]), " ".join(hands[1]), " ".join(hands[2])],
            "dog": " ".join(dog),
            "auction": ["pass", "pass", "pass", "garde_sans"],
            "tricks": [
                " ".join([[*trumps, "EX"][t], hands[1][t], hands[2][t], hands[0][t]]) for t in range(18)
            ],
            "result": {"scores": scores},
            "totals": scores,
        }
        return {**HEADER, "deals": [deal]}

    records = [record([-1428, 476, 476, 476]), record([-828, 276, 276, 276])]
    columnar, full, proven = both_ways(archive_of(records, str(tmp_path)))
    assert proven == [True, False] and columnar == full
    assert [[d.code for d in report[1]] for report in full] == [[], ["SCORE-MISMATCH"]]


def test_a_discard_after_a_garde_sans_is_not_proven(tmp_path: Path) -> None:
    """tarot.discard.*: only a petite or a garde takes the dog and discards. A generated garde
    sans or garde contre given a discard of exactly the dog (so the play still holds together),
    scored by the rules: the record path objects, and the columns do not prove it."""
    record = next(r for r in (play((TAROT, 4, {}, seed), deals=4) for seed in range(200)) if _high_bid(r))
    deal = next(
        deal for deal in record["deals"] if set(deal.get("auction", [])) & {"garde_sans", "garde_contre"}
    )
    deal["discard"] = deal["dog"]
    rescored(record)
    columnar, full, proven = both_ways(archive_of([record], str(tmp_path)))
    assert proven == [False] and columnar == full and full[0][1]


def _high_bid(record: dict[str, Any]) -> bool:
    return any(set(deal.get("auction", [])) & {"garde_sans", "garde_contre"} for deal in record["deals"])


@MANY
@given(tarot_games, st.data())
def test_an_illegal_discard_is_never_proven(game: Any, data: st.DataObject) -> None:
    """tarot.discard.king, .bout, .trump, .held: a card the taker played (a King, a trump or a
    bout, the cards the discard may not hold) swapped with a discarded card that he plays instead,
    or a discarded card written twice; scored by the rules, so that only the discard is wrong
    (the swap may also break a rule of play). The columns prove none the record path objects to."""
    record = play(game, deals=3)
    report = validate_record(RawRecord(orjson.loads(orjson.dumps(record)), Location()))
    for deal, replay in zip(record["deals"], report.replays, strict=True):
        if not deal.get("discard") or replay is None:
            continue
        taker = replay.state.taker
        played = [
            (t, trick.cards.index(card), card)
            for t, trick in enumerate(replay.state.tricks)
            for card, seat in zip(trick.cards, trick.seats, strict=True)
            if seat == taker
        ]
        forbidden = [
            (t, i, DECK.codes[card]) for t, i, card in played if card >= 56 or DECK.codes[card][1:] == "K"
        ]
        discard = deal["discard"].split()
        if forbidden and data.draw(st.booleans()):
            t, i, code = data.draw(st.sampled_from(forbidden))
            j = data.draw(st.integers(0, len(discard) - 1))
            cards = deal["tricks"][t].split()
            cards[i], discard[j] = discard[j], code
            deal["tricks"][t] = " ".join(cards)
        else:
            discard[data.draw(st.integers(1, len(discard) - 1))] = discard[0]
        deal["discard"] = " ".join(discard)
        break
    rescored(record)
    with tempfile.TemporaryDirectory() as folder:
        columnar, full, proven = both_ways(archive_of([record], folder))
    assert columnar == full and not (proven[0] and full[0][1])


@MANY
@given(tarot_games, st.data(), st.booleans())
def test_a_card_played_twice_or_out_of_turn_is_never_proven(
    game: Any, data: st.DataObject, twice: bool
) -> None:
    """tarot.play.held, .follow, .trump, .overtrump: a seat's card written again in a later trick
    in place of another of its cards, or two of its cards swapped between tricks (so every card
    is still its own: only the rules of play can be broken), scored by the rules: the columns
    prove none the record path objects to."""
    record = play(game, deals=2)
    report = validate_record(RawRecord(orjson.loads(orjson.dumps(record)), Location()))
    deal, replay = record["deals"][0], report.replays[0]
    if replay is None or len(replay.state.tricks) < 2:
        return
    tricks = replay.state.tricks
    first, later = sorted(
        data.draw(st.lists(st.integers(0, len(tricks) - 1), min_size=2, max_size=2, unique=True))
    )
    seat = data.draw(st.integers(0, len(deal["hands"]) - 1))
    early, late = deal["tricks"][first].split(), deal["tricks"][later].split()
    i, j = tricks[first].seats.index(seat), tricks[later].seats.index(seat)
    if twice:
        late[j] = early[i]
    else:
        early[i], late[j] = late[j], early[i]
    deal["tricks"][first], deal["tricks"][later] = " ".join(early), " ".join(late)
    rescored(record)
    with tempfile.TemporaryDirectory() as folder:
        columnar, full, proven = both_ways(archive_of([record], folder))
    assert columnar == full and not (proven[0] and full[0][1])


def test_an_undertrump_is_never_proven(tmp_path: Path) -> None:
    """tarot.play.overtrump: seat 1, holding T20, plays T5 on the taker's T6 (a garde sans, scored
    by the rules); the record path reports it, and the columns do not prove the record."""
    taker = ["T6", "T21", "T4", *(f"T{rank}" for rank in range(7, 20)), "CK", "C1"]
    lows = ["C2", "C3", "C4", "C5", "C6", "C7"]
    dog = ["T1", "T2", "T3", "EX", "S1", "S2"]
    plain = [code for code in DECK.codes[:56] if code not in {*dog, *taker, *lows}]
    hands = [
        taker,
        ["T5", "T20", *plain[:14], *lows[:2]],
        [*plain[14:30], *lows[2:4]],
        [*plain[30:46], *lows[4:]],
    ]
    deal = {
        "dealer": 3,
        "hands": [" ".join(hand) for hand in hands],
        "dog": " ".join(dog),
        "auction": ["garde_sans", "pass", "pass", "pass"],
        "tricks": [" ".join(hand[t] for hand in hands) for t in range(18)],
    }
    record = {**HEADER, "deals": [deal]}
    rescored(record)
    columnar, full, proven = both_ways(archive_of([record], str(tmp_path)))
    assert proven == [False] and columnar == full
    assert [d.code for d in full[0][1]] == ["TAROT-OVERTRUMP"]


def test_the_defence_slam_costs_the_attack(tmp_path: Path) -> None:
    """tarot.score.slam: a garde whose taker (seat 0) wins no trick; the discard (six low cards,
    6 half points) is the attack's whole count: 0 bouts, 3 points against 56, diff 53, so
    S = -(25 + 53) x 2 - 200 (the defence's slam bonus) = -356 for each defender to receive (the
    winners are given, not played out)."""
    k, tricks, n = 1, 18, 4
    order = [c for c in range(78) if c not in range(6)]  # cards 0-5 (S1-S6) are the discard
    cards = np.array(order[:72]).reshape(k, tricks, n)
    seats = np.tile((1 + np.arange(n)) % n, (k, tricks, 1))  # seat 1 leads and wins every trick
    winners = np.ones((k, tricks), dtype=np.int64)
    dog = np.zeros((k, 78), dtype=bool)
    dog[0, order[72:]] = True
    dealt = np.where(dog, n, 0)
    none = Poignees(
        np.full((1, n), -1),
        np.full((1, n), -1),
        np.zeros((1, n, 78), bool),
        np.zeros((1, n), bool),
        np.array([True]),
    )
    deal = Contract(dealt, np.arange(6)[None, :], cards, *(np.array([v]) for v in (3, 0, -1, 2, -1)), none)
    variant = Variant(*(np.array([v]) for v in (False, False, True, False, 0, 200)))
    scores = _scores(deal, seats, winners, variant)
    assert scores.tolist() == [[-3 * 356, 356, 356, 356]]


def test_the_excuse_in_the_last_trick_goes_to_its_winner(tmp_path: Path) -> None:
    """tarot.excuse.last-trick (either reading): the taker's Excuse played to the last trick, which a
    defender wins, is the defence's. A generated record with such a deal is proven
    column by column, so the columns count it as the rules do."""
    record = next(
        r for r in (play((TAROT, 4, {}, seed), deals=4) for seed in range(400)) if _excuse_lost_last(r)
    )
    columnar, full, proven = both_ways(archive_of([record], str(tmp_path)))
    assert proven == [True] and columnar == full and not full[0][1]


def test_the_excuse_in_the_last_trick_won_by_its_own_side_changes_sides(tmp_path: Path) -> None:
    """tarot.excuse.last-trick (default `to_other_side`): a defender's Excuse played to the last
    trick, which another defender wins, goes to the attack. A generated record with such a deal is
    proven column by column, so the columns count it as the rules do."""
    record = next(
        r for r in (play((TAROT, 4, {}, seed), deals=4) for seed in range(400)) if _excuse_last(r, kept=True)
    )
    columnar, full, proven = both_ways(archive_of([record], str(tmp_path)))
    assert proven == [True] and columnar == full and not full[0][1]


def _excuse_lost_last(record: dict[str, Any]) -> bool:
    """Whether a deal of the record has the taker's Excuse in the last trick, won by a defender."""
    return _excuse_last(record, kept=False)


def _excuse_last(record: dict[str, Any], kept: bool) -> bool:
    """Whether a deal without announcements has an Excuse played to the last trick and not winning
    it, by the taker (`kept` False) or by a defender whose own side wins that trick (`kept` True)."""
    if any(deal.get("announcements") for deal in record["deals"]):
        return False
    report = validate_record(RawRecord(orjson.loads(orjson.dumps(record)), Location()))
    for replay in report.replays:
        state = replay.state if replay is not None else None
        if state is None or not state.tricks or state.taker is None:
            continue
        last = state.tricks[-1]
        if EXCUSE not in last.cards:
            continue
        seat = last.seats[last.cards.index(EXCUSE)]
        defenders = seat != state.taker and last.winner != state.taker
        if last.winner != state.taker and seat != last.winner and defenders == kept:
            return True
    return False
