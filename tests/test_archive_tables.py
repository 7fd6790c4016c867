"""The archive's tables an analyst reads, and `recordkit stats`, on small archives made by hand.

The expected figures are read off the sample records (typed by hand) as a player would count them;
the card values are French Tarot's as the rules state them (K 4.5, Q 3.5, knight 2.5, J 1.5, the
bouts 4.5, any other card 0.5), never computed with the code under test.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import orjson
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from recordkit.archive.stats import archive_stats, connect
from recordkit.archive.tables import OPTION_COLUMNS, TABLES, VIOLATIONS
from recordkit.cli import app
from recordkit.convert.archive import to_archive
from recordkit.diagnostics import Location
from recordkit.games import RULESETS
from recordkit.sources import RawRecord
from recordkit.validate import Settings, validate_record
from tests.helpers import flat_archive, generated

ROOT = Path(__file__).parent.parent
SAMPLES = ROOT / "samples"
runner = CliRunner()

TAROT_VALUES = {"K": 4.5, "Q": 3.5, "N": 2.5, "J": 1.5}
BOUTS = {"T1", "T21", "EX"}


def tarot_points(codes: list[str]) -> float:
    """Card points of French Tarot cards, as the rules state them (tarot.score.points)."""
    return sum(4.5 if c in BOUTS else TAROT_VALUES.get(c[1:], 0.5) for c in codes)


@pytest.fixture(scope="module")
def hand_made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Karnöffel's Gasthaus evening (6 deals), French Tarot's club evening (5 deals, one passed
    out and redealt) and a four-player goulash (1 deal), Joffre's club evening (9 deals)."""
    folder = tmp_path_factory.mktemp("hand-made")
    goulash = next(
        line
        for line in (SAMPLES / "french-tarot" / "variants.jsonl").read_bytes().splitlines()
        if b"goulash" in line and len(orjson.loads(line)["players"]) == 4
    )
    (folder / "goulash.jsonl").write_bytes(goulash + b"\n")
    archive = folder / "archive"
    sources = [
        SAMPLES / "karnoffel" / "gasthaus-evening-4p.json",
        SAMPLES / "french-tarot" / "club-evening-4p.json",
        folder / "goulash.jsonl",
        SAMPLES / "joffre" / "club-evening-4-players.json",
    ]
    to_archive([str(s) for s in sources], archive)
    return archive


def query(archive: Path, sql: str) -> list[tuple[Any, ...]]:
    with connect(archive) as connection:
        return connection.execute(sql).fetchall()


# --- stats -------------------------------------------------------------------------------------------


def test_stats_counts_each_deal_once(hand_made: Path) -> None:
    columns, rows = archive_stats(hand_made).scores
    scored = {(r[0], r[1]): r[columns.index("scored_deals")] for r in rows}
    # 6 Karnöffel deals, 5 + 1 Tarot deals, 9 Joffre deals: one each, not one a seat (24, 24, 36)
    assert scored == {("french-tarot", 4): 6, ("joffre", 4): 9, ("karnoffel", 4): 6}


def test_stats_contracts_sort_numbers_as_numbers_and_a_goulash_has_no_success_rate(hand_made: Path) -> None:
    columns, rows = archive_stats(hand_made).contracts
    table = [(r[0], r[2], r[3], r[4]) for r in rows]
    # Karnöffel: 4 (the surrendered deal and the one without a raise), 7, 10 three times.
    assert [row for row in table if row[0] == "karnoffel"] == [
        ("karnoffel", "4", 2, 1.0),
        ("karnoffel", "7", 1, 0.0),
        ("karnoffel", "10", 3, 1.0),
    ]
    # Joffre: the highest bid of each auction: 4, 5, 5, 5, 5, 6, 5, 6, 5
    assert [row[1:3] for row in table if row[0] == "joffre"] == [("4", 1), ("5", 6), ("6", 2)]
    tarot = {row[1]: row[2:] for row in table if row[0] == "french-tarot"}
    assert tarot == {
        "petite": (1, 0.0),  # 42 points with one bout: 51 needed
        "garde": (1, 1.0),
        "garde_sans": (1, 1.0),
        "garde_contre": (1, 1.0),
        "goulash": (1, None),  # nobody took: no success rate
    }
    assert columns[4] == "success_rate"


def test_stats_cli_lists_karnoffel_contracts_in_numeric_order(hand_made: Path) -> None:
    result = runner.invoke(app, ["stats", str(hand_made)])
    assert result.exit_code == 0
    section = result.output.split("Contracts")[1].split("Scores")[0]
    rows = [[cell.strip() for cell in line.split("│")[1:-1]] for line in section.splitlines() if "│" in line]
    assert [(row[2], row[4]) for row in rows if row[0] == "karnoffel"] == [
        ("4", "1.0"),
        ("7", "0.0"),
        ("10", "1.0"),
    ]
    assert [row[4] for row in rows if row[2] == "goulash"] == ["n/a"]  # no taker, so no success rate


# --- the tricks table and card points -------------------------------------------------------------


def test_tricks_points_are_the_written_card_points(hand_made: Path) -> None:
    """The scorer wrote the taker's points (42, 65, 60, 53): the tricks table's points to the
    declaring side, plus the discard (petite, garde) or the dog (garde sans), are those."""
    rows = query(
        hand_made,
        """
        SELECT d.deal, d.contract, d.declarer_points, d.dog, sum(t.declarer_points), sum(t.points),
               list(t.cards)
        FROM deals d JOIN games g USING (game_id) JOIN tricks t USING (game_id, deal)
        WHERE g.source LIKE '%club-evening-4p.json%'
        GROUP BY ALL ORDER BY d.deal
        """,
    )
    discards = dict(
        query(
            hand_made,
            """SELECT deal, list(value) FROM calls JOIN games USING (game_id)
               WHERE kind = 'discard' AND source LIKE '%club-evening-4p%' GROUP BY deal""",
        )
    )
    written = {1: 42.0, 2: 65.0, 4: 60.0, 5: 53.0}
    assert [row[0] for row in rows] == [1, 2, 4, 5]  # deal 3 was passed out: no tricks
    for deal, contract, declarer_points, dog, to_declarer, points, _tricks in rows:
        aside = tarot_points(discards[deal] if contract in ("petite", "garde") else dog)
        assert points + aside == 91  # the tricks and the cards set aside hold every card once
        kept = 0.0 if contract == "garde_contre" else aside  # the taker's, but against a garde contre
        assert declarer_points == written[deal]
        assert to_declarer + kept == written[deal]


def test_excuse_points_stay_with_its_side(hand_made: Path) -> None:
    """Deal 4, trick 13 (D8 EX D10 DN, 8 points): seat 0 (defence) wins it, the taker (seat 2)
    played the Excuse: he keeps its 4.5 and gives a half-point card, so 4 and 4
    (tarot.excuse.exchange). Deal 5, trick 15 (CQ H9 EX CK, 13): seat 2 wins, the taker (seat 1)
    keeps the Excuse: 9 and 4."""
    rows = query(
        hand_made,
        """SELECT t.deal, t.trick, t.cards, t.points, t.winner, t.shares, t.declarer_points
           FROM tricks t JOIN games g USING (game_id)
           WHERE g.source LIKE '%club-evening-4p%' AND list_contains(t.cards, 'EX') AND t.deal IN (4, 5)
           ORDER BY t.deal""",
    )
    assert rows == [
        (4, 13, ["D8", "EX", "D10", "DN"], 8.0, 0, [4.0, 0.0, 4.0, 0.0], 4.0),
        (5, 15, ["CQ", "H9", "EX", "CK"], 13.0, 2, [0.0, 4.0, 9.0, 0.0], 4.0),
    ]
    plays = query(
        hand_made,
        """SELECT p.card, p.points FROM plays p JOIN games g USING (game_id)
           WHERE g.source LIKE '%club-evening-4p%' AND p.deal = 4 AND p.trick = 13 ORDER BY p.position""",
    )
    assert plays == [("D8", 0.5), ("EX", 4.5), ("D10", 0.5), ("DN", 2.5)]  # each card's own value


def test_tricks_add_up_to_the_count_on_generated_games(tmp_path: Path) -> None:
    """Every complete French Tarot deal: the tricks and the dog hold 91 points, each trick's shares
    and its plays add up to its points, and the declaring side's shares plus what it keeps of the
    dog are the deal's declarer_points; `deal_shares` gives each trick's `trick_shares`."""
    variants: list[dict[str, Any]] = [{}, {"excuse_last_trick": "to_other_side", "all_pass": "goulash"}]
    records = [generated(n, seed, 3, options) for n in (3, 4, 5) for seed in range(3) for options in variants]
    source = tmp_path / "g.jsonl"
    source.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in records))
    to_archive([str(source)], tmp_path / "archive")
    rows = query(
        tmp_path / "archive",
        """
        WITH p AS (SELECT game_id, deal, trick, sum(points) AS points FROM plays GROUP BY ALL),
             d AS (SELECT game_id, deal, list(value) AS discard FROM calls WHERE kind = 'discard' GROUP BY ALL)
        SELECT game_id, deal, dl.contract, dl.dog, d.discard, dl.declarer_points, sum(t.points), sum(t.declarer_points),
               bool_and(abs(list_sum(t.shares) - t.points) < 1e-9), bool_and(p.points = t.points)
        FROM tricks t JOIN deals dl USING (game_id, deal) JOIN p USING (game_id, deal, trick)
        LEFT JOIN d USING (game_id, deal)
        WHERE dl.declarer_points IS NOT NULL
        GROUP BY ALL
        """,
    )
    assert len(rows) > 20
    for (
        _game,
        _deal,
        contract,
        dog,
        discard,
        declarer_points,
        points,
        to_declarer,
        shares_add_up,
        plays_add_up,
    ) in rows:
        aside = tarot_points(discard if contract in ("petite", "garde") else dog)
        assert points + aside == 91
        assert to_declarer + (0.0 if contract == "garde_contre" else aside) == declarer_points
        assert shares_add_up and plays_add_up
    ruleset = RULESETS["french-tarot"]
    for record in records:
        report = validate_record(RawRecord(record, Location()), Settings())
        assert report.record is not None
        table, _ = ruleset.table(report.record.options, len(report.record.players))
        assert table is not None
        for replay in report.replays:
            assert replay is not None and replay.state is not None
            state = replay.state
            by_trick = [ruleset.trick_shares(table, state, n) for n in range(1, len(state.tricks) + 1)]
            assert ruleset.deal_shares(table, state) == by_trick


def test_joffre_tricks_captures_and_bids(hand_made: Path) -> None:
    """Joffre: a trick is worth 1, 5 more with the Joffre (F0), 3 less with the Kaiser (G0); the
    deals say who won each and whose Joffre the Kaiser took; bids are numbers too."""
    rows = query(
        hand_made,
        """
        SELECT d.deal, d.n_tricks, sum(t.points), d.joffre_won_by, d.kaiser_won_by, d.joffre_captured,
               any_value(t.winner) FILTER (WHERE list_contains(t.cards, 'F0')),
               any_value(t.winner) FILTER (WHERE list_contains(t.cards, 'G0')),
               d.declarer_points, sum(t.declarer_points)
        FROM deals d JOIN tricks t USING (game_id, deal)
        WHERE d.game = 'joffre' GROUP BY ALL ORDER BY d.deal
        """,
    )
    assert len(rows) == 9
    for _deal, n_tricks, points, joffre, kaiser, _captured, with_joffre, with_kaiser, ours, to_us in rows:
        assert points == n_tricks + 5 - 3
        assert (joffre, kaiser) == (with_joffre, with_kaiser)
        assert ours == to_us
    # Deal 3, trick 6 (F6 F0 G0 F2): "Lucie coupe avec le Kaiser et prend le Joffre : Gérard perd 5"
    assert [row[3:6] for row in rows if row[0] == 3] == [(1, 1, 0)]
    assert [row[0] for row in rows if row[5] is not None] == [3]
    bids = query(hand_made, "SELECT value, number FROM calls WHERE kind = 'bid' AND game_id = 3 AND deal = 1")
    assert bids == [("3", 3), ("4", 4), ("pass", None), ("pass", None)]


# --- deals, scores and games columns --------------------------------------------------------------


def test_tarot_bouts_target_margin(hand_made: Path) -> None:
    rows = query(
        hand_made,
        """SELECT d.deal, d.contract, d.bouts, d.target, d.margin, d.made, d.contract_number
           FROM deals d JOIN games g USING (game_id)
           WHERE g.source LIKE '%club-evening-4p%' ORDER BY d.deal""",
    )
    # 42 with 1 bout (51 needed), 65 with 1, 60 with 3 (36), 53 with 3
    assert rows == [
        (1, "petite", 1, 51.0, -9.0, False, None),
        (2, "garde", 1, 51.0, 14.0, True, None),
        (3, None, None, None, None, None, None),
        (4, "garde_sans", 3, 36.0, 24.0, True, None),
        (5, "garde_contre", 3, 36.0, 17.0, True, None),
    ]


def test_scores_side(hand_made: Path) -> None:
    sides = query(
        hand_made,
        """SELECT g.game, s.game_id, s.deal, list(s.side ORDER BY s.seat)
           FROM scores s JOIN games g USING (game_id)
           WHERE s.deal <= 2 GROUP BY ALL ORDER BY s.game_id, s.deal""",
    )
    declarer, defence = "declarer", "defence"
    assert sides == [
        ("karnoffel", 0, 1, [declarer, defence, declarer, defence]),  # Anna (seat 0) raised
        ("karnoffel", 0, 2, [declarer, defence, declarer, defence]),  # Clara (seat 2) raised last
        ("french-tarot", 1, 1, [defence, declarer, defence, defence]),  # petite by seat 1
        ("french-tarot", 1, 2, [defence, defence, defence, declarer]),  # garde by seat 3
        ("french-tarot", 2, 1, [None, None, None, None]),  # the goulash: nobody took
        ("joffre", 3, 1, [defence, defence, declarer, defence]),  # individual play: 4 by seat 2
        ("joffre", 3, 2, [defence, defence, defence, declarer]),  # 5 by seat 3
    ]


def test_options_as_columns(hand_made: Path) -> None:
    rows = query(
        hand_made,
        """SELECT game, option_all_pass, option_excuse_last_trick, option_misere, option_target, option_deck
           FROM games ORDER BY game_id""",
    )
    assert rows[0] == ("karnoffel", None, None, None, 31, 48)
    assert rows[1][:4] == ("french-tarot", "redeal", rows[1][2], False) and rows[1][4:] == (None, None)
    assert rows[2][1] == "goulash"
    assert rows[3] == ("joffre", "redeal_next_dealer", None, None, 40, None)


# --- nullable types for pandas --------------------------------------------------------------------


def test_schemas_carry_nullable_pandas_types(hand_made: Path) -> None:
    """pyarrow's to_pandas reads these from the file: Int8 seats, boolean flags (not float64, object)."""
    metadata = pq.read_table(hand_made / "deals").schema.pandas_metadata
    assert metadata is not None
    types = {c["name"]: c["numpy_type"] for c in metadata["columns"]}
    assert types["declarer"] == "Int8" and types["made"] == "boolean" and types["deal"] == "Int32"
    for name, schema in TABLES.items():
        assert schema.pandas_metadata is not None, name


def test_pandas_reads_nullable_dtypes(hand_made: Path) -> None:
    pd = pytest.importorskip("pandas")
    deals = pd.read_parquet(hand_made / "deals")
    assert str(deals["declarer"].dtype) == "Int8" and str(deals["made"].dtype) == "boolean"
    assert (
        deals["declarer"].isna().sum() == 3
    )  # the Tarot deal passed out, the goulash, Karnöffel's unraised deal 6
    scores = pq.read_table(hand_made / "scores").to_pandas()
    assert str(scores["seat"].dtype) == "Int8"


# --- spec/ARCHIVE.md documents every table, column and call kind ---------------------------------


def arrow_name(kind: pa.DataType) -> str:
    """An Arrow type as the spec writes it: `int8`, `list<string>`."""
    if pa.types.is_list(kind):
        return f"list<{arrow_name(kind.value_type)}>"
    return {"double": "float64"}.get(str(kind), str(kind))


def documented_columns() -> dict[str, dict[str, str]]:
    """Each `### table` section's columns and their Arrow types, as spec/ARCHIVE.md writes them."""
    text = (ROOT / "spec" / "ARCHIVE.md").read_text().replace("\\<", "<").replace("\\>", ">")
    tables: dict[str, dict[str, str]] = {}
    for name, body in re.findall(r"^### (\w+)\n(.*?)(?=^##)", text, flags=re.S | re.M):
        first = re.search(r"^\| column \|.*?(?=^$)", body, flags=re.S | re.M)  # the columns' table
        if first is None:
            continue  # a section that is not a table's
        for names, kinds in re.findall(r"^\| ([\w<>, ]+) \| ([\w<>, ]+) \|", first.group(), flags=re.M):
            if names.startswith("option_"):
                continue
            cells = [n.strip() for n in names.split(",")]
            types = [k.strip() for k in kinds.split(",")] if "," in kinds else [kinds.strip()] * len(cells)
            tables.setdefault(name, {}).update(zip(cells, types, strict=True))
    return tables


def test_spec_documents_every_column_with_its_type() -> None:
    documented = documented_columns()
    for name, schema in [*TABLES.items(), ("violations", VIOLATIONS)]:
        expected = {f.name: arrow_name(f.type) for f in schema if not f.name.startswith("option_")}
        got = {k: v for k, v in documented[name].items() if k not in ("column", "option_<name>")}
        assert got == expected, name
    text = (ROOT / "spec" / "ARCHIVE.md").read_text()
    listing = text.split("The option columns are, by name: ")[1].split(". `options`")[0]
    assert re.findall(r"`(option_\w+)`", listing) == list(OPTION_COLUMNS)


@pytest.fixture(scope="module")
def all_samples(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every valid sample of every game, in one archive."""
    archive = tmp_path_factory.mktemp("samples") / "archive"
    to_archive([str(SAMPLES / game) for game in RULESETS], archive)
    return archive


def test_spec_documents_every_call_kind(all_samples: Path) -> None:
    """Every kind of calls row the samples give, by game (Karnöffel's words, Charlemagne's
    `trump` and `partner_card`...), has its row in the spec's table of kinds."""
    seen = set(query(all_samples, "SELECT DISTINCT g.game, c.kind FROM calls c JOIN games g USING (game_id)"))
    text = (ROOT / "spec" / "ARCHIVE.md").read_text()
    section = text.split("The kinds of calls rows and their values, by game:")[1].split("### plays")[0]
    titles = {RULESETS[game].title: game for game in RULESETS}
    documented: set[tuple[str, str]] = set()
    game = ""
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.split("|")[1:-1]]
        if len(cells) == 3 and cells[1].startswith("`"):
            game = titles.get(cells[0], game)
            documented |= {(game, kind) for kind in re.findall(r"`(\w+)`", cells[1])}
    assert seen <= documented and len(seen) >= 14


def test_bids_starting_with_a_number_have_it(all_samples: Path) -> None:
    """Charlemagne's `2H` is a bid of 2 (tricks, hearts); a named contract has no number."""
    rows = set(
        query(
            all_samples,
            """SELECT c.value, c.number FROM calls c JOIN games g USING (game_id)
               WHERE g.game = 'charlemagne' AND c.kind = 'bid' AND c.value IN ('2H', '3S', 'pass', 'mulot')""",
        )
    )
    assert {("2H", 2), ("3S", 3), ("pass", None)} <= rows and all(n is None for v, n in rows if v == "mulot")


def test_an_archive_older_than_the_tricks_table_still_opens(tmp_path: Path) -> None:
    """A version-3 archive has no tricks files: `stats` and `validate` read it without them."""
    archive = tmp_path / "archive"
    to_archive([str(SAMPLES / "karnoffel" / "gasthaus-evening-4p.json")], archive)
    flat_archive(archive, 3)
    assert runner.invoke(app, ["stats", str(archive)]).exit_code == 0
    assert runner.invoke(app, ["validate", str(archive), "-q"]).exit_code == 0


def test_card_groups_are_cut_into_codes_as_str_split_cuts_them() -> None:
    """The deals' hands and dog columns: a group split by Arrow (codes at single spaces) or, for
    any other text, by Python, is the list `str.split()` gives; an empty group is [], null null."""
    from recordkit.archive.tables import _split_groups

    for texts in (["HK T21 EX", "", None, "S1"], ["S1  S2 ", "\u00a0HK\tT1", None], [], [None]):
        assert _split_groups(texts).to_pylist() == [None if t is None else t.split() for t in texts]
