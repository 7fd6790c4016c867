"""The columns over parsed JSON (`recordkit.batch`) against the record path and the archive.

Bulk JSON is proven by the same columnar checks as an archive's rows: the written columns built
from the JSON must be the ones the converter writes (so a batch of records is proven exactly as
their archive is), a record the columns prove must be one the full replay finds nothing in
whatever single change it carries, and a file's findings through the batches are the full
replay's, in order.
"""

from __future__ import annotations

import copy
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any
from unittest.mock import patch

import orjson
import pyarrow.parquet as pq
import pytest
from hypothesis import given
from hypothesis import strategies as st

from recordkit.batch import proven
from recordkit.cards import KARNOFFEL_SUITS
from recordkit.diagnostics import Location
from recordkit.games import RULESETS
from recordkit.generate import generate_record
from recordkit.model import to_data
from recordkit.rules.karnoffel.cards import cards_of
from recordkit.sources import RawRecord
from recordkit.validate import (
    BATCH_DEALS,
    SMALL_BATCH,
    Settings,
    batch_findings,
    validate_paths,
    validate_record,
)
from tests.columnar_helpers import archive_of, both_ways, changed_copies, rescored
from tests.test_columnar import COLUMNAR, MANY, columnar_games, mistake
from tests.test_karnoffel_columnar import mistake as karnoffel_mistake
from tests.test_properties import PROPERTY, play
from tests.test_quick import _found
from tests.test_samples import INVALID, SAMPLES, VALID

written_games = columnar_games
"""Every game whose bulk JSON takes the columns (every game with a columnar check), at every
table size, with any options."""
MISTAKES = {"french-tarot": mistake, "karnoffel": karnoffel_mistake}
"""The typing mistakes a game's columnar tests make (tests/test_columnar.py), by game."""


def raws(records: list[dict[str, Any]]) -> list[RawRecord]:
    """The records as a reader gives them (each a copy, so that nothing checked can change them)."""
    return [
        RawRecord(orjson.loads(orjson.dumps(record)), Location(record=i + 1))
        for i, record in enumerate(records)
    ]


def test_every_game_with_columns_reads_its_json_into_them() -> None:
    """A game with a columnar check declares its written form, or its bulk JSON would skip the
    columns (and every game has one)."""
    assert [ruleset.name for ruleset in COLUMNAR if ruleset.written_form() is not None] == sorted(RULESETS)


@PROPERTY
@given(st.lists(written_games, min_size=1, max_size=4))
def test_a_batch_of_json_is_proven_as_its_archive_is(games: list[Any]) -> None:
    """Generated records of every game with written columns: the batch proves exactly the records
    their archive's columns prove (the rows built from the JSON are the converter's), and only
    records the full replay finds nothing in."""
    records = [record for record in (play(game, deals=4) for game in games) if record]
    if not records:
        return
    verdicts = proven(raws(records))
    with tempfile.TemporaryDirectory() as folder:
        archive = archive_of(records, folder)
        _columnar, full, archived = both_ways(archive)
        rows = [
            pq.ParquetFile(path).metadata.num_rows for path in archive.glob("[cp][al][la]*s/**/*.parquet")
        ]
    assert all(not report[1] for report in full)
    if all(rows):  # an archive without plays or calls rows takes the record path: no statistics align it
        assert verdicts == archived
    else:
        assert all(verdicts), "the batch proves them, the full replay finding nothing"


@MANY
@given(written_games, st.data())
def test_no_single_change_slips_through_the_columns_from_json(game: Any, data: st.DataObject) -> None:
    """Copies of a generated record, each with one change (a typing mistake of the game's, or
    any change anywhere, rescored or not): the batch proves none that the full replay objects to."""
    record = play(game, deals=4)
    if not record:
        return
    ruleset = game[0]
    copies = changed_copies(record, data, ruleset, MISTAKES.get(ruleset.name), count=6, mistaken=3)
    for raw, clean in zip(raws(copies), proven(raws(copies)), strict=True):
        if clean:
            found = validate_record(raw, Settings()).diagnostics
            assert found == [], found[:3]


deriving_games = columnar_games.filter(lambda game: bool(game[0].written_form().derives))
"""Every game whose columns derive the hands of a tricks-only deal, at every table size."""


def tricks_only(game: tuple[Any, int, dict[str, Any], int], deals: int = 4) -> dict[str, Any]:
    """A generated record in its tricks-only form (`Ruleset.forget`: the calls and the tricks, no
    hands nor the groups the play gives), as JSON; {} for options this table does not allow."""
    ruleset, players, options, seed = game
    try:
        record = generate_record(ruleset, players, deals, seed, options, player="random", form="tricks")
    except ValueError:
        return {}
    return orjson.loads(orjson.dumps(to_data(record)))


def trick_mistake(record: dict[str, Any], data: st.DataObject) -> None:
    """One change to a tricks-only record of the kind a person copying a printed play makes: two
    cards of the tricks swapped, one replaced by another code of the record, or two tricks swapped."""
    played = [deal for deal in record["deals"] if deal.get("tricks")]
    if not played:
        return
    deal = data.draw(st.sampled_from(played))
    tricks = [trick.split() for trick in deal["tricks"]]
    spots = [(t, c) for t, trick in enumerate(tricks) for c in range(len(trick))]
    (t1, c1), (t2, c2) = data.draw(st.lists(st.sampled_from(spots), min_size=2, max_size=2, unique=True))
    kind = data.draw(st.sampled_from(["swap", "replace", "tricks"]))
    if kind == "swap":
        tricks[t1][c1], tricks[t2][c2] = tricks[t2][c2], tricks[t1][c1]
    elif kind == "replace":
        codes = sorted({card for d in played for trick in d["tricks"] for card in trick.split()})
        tricks[t1][c1] = data.draw(st.sampled_from(codes))
    elif t1 != t2:
        tricks[t1], tricks[t2] = tricks[t2], tricks[t1]
    deal["tricks"] = [" ".join(trick) for trick in tricks]


@PROPERTY
@given(st.lists(deriving_games, min_size=1, max_size=4))
def test_tricks_only_records_are_proven_where_the_record_path_finds_nothing(games: list[Any]) -> None:
    """Generated records written as a magazine prints them (tricks only): the batch proves only
    records in which the full replay finds nothing at all, and the findings of the batch (a deal
    whose replay leaves a note, such as one passed by all whose hands nobody saw, replayed alone
    for it; a slam announced, which the columns leave to the record path) are the full replay's."""
    records = [record for record in (tricks_only(game) for game in games) if record]
    if not records:
        return
    full = [validate_record(raw, Settings()) for raw in raws(records)]
    for clean, report in zip(proven(raws(records)), full, strict=True):
        assert not clean or report.diagnostics == []
    with patch("recordkit.validate.SMALL_BATCH", 1):  # the columns for a batch of any size
        batched = batch_findings(list(raws(records)), Settings())
    assert [_found(report) for report in batched] == [_found(report.findings()) for report in full]


@MANY
@given(deriving_games, st.data())
def test_no_single_change_to_the_tricks_slips_through_the_columns(game: Any, data: st.DataObject) -> None:
    """Copies of a generated tricks-only record, each with one change (a card of the tricks
    swapped or replaced, two tricks swapped, or any change anywhere), half of them rescored by the
    rules: the batch proves none that the full replay objects to."""
    record = tricks_only(game)
    if not record:
        return
    copies = changed_copies(record, data, game[0], trick_mistake, count=6, mistaken=4)
    for copy_ in copies[::2]:
        rescored(copy_)
    for raw, clean in zip(raws(copies), proven(raws(copies)), strict=True):
        if clean:
            found = validate_record(raw, Settings()).diagnostics
            assert found == [], found[:3]


def test_a_file_s_findings_through_the_batches_are_the_full_replay_s(tmp_path: Path) -> None:
    """A JSON lines file of more than one batch, some records changed: `validate` (findings only,
    through the batches) reports what the full replay of each record reports, in order."""
    ruleset = RULESETS["french-tarot"]
    records = [play((ruleset, 3 + seed % 3, {}, seed), deals=5) for seed in range(40)]
    broken = copy.deepcopy(records[7])
    deal = next(deal for deal in broken["deals"] if deal.get("tricks"))
    deal["tricks"][2] = " ".join(reversed(deal["tricks"][2].split()))  # a card out of turn
    records[7] = broken
    records[12]["deals"][0]["result"]["scores"][0] += 1
    records[20]["deals"][-1]["dealer"] = 9
    text = b"".join(orjson.dumps(record) + b"\n" for record in records * (BATCH_DEALS // 150 + 1))
    path = tmp_path / "games.jsonl"
    path.write_bytes(text + b"{not json\n")
    assert sum(len(r["deals"]) for r in records) >= SMALL_BATCH
    batched = [_found(item) for item in validate_paths([str(path)], Settings(), findings_only=True)]
    full = [_found(item) for item in validate_paths([str(path)], Settings())]
    assert batched == full
    assert sum(1 for item in batched if isinstance(item, tuple) and item[1]) >= 4


SHAPES: dict[str, Any] = {
    "an unknown key in a deal": lambda deal: deal.update(bid="garde"),
    "an unknown key in the result": lambda deal: deal["result"].update(taker=0),
    "a null result": lambda deal: deal.update(result=None),
    "null totals": lambda deal: deal.update(totals=None),
    "a dealer written true": lambda deal: deal.update(dealer=True),
    "a dealer written 1.0": lambda deal: deal.update(dealer=float(deal["dealer"])),
    "a dealer beyond the table": lambda deal: deal.update(dealer=2**40),
    "a score written as text": lambda deal: deal["result"]["scores"].__setitem__(0, "12"),
    "a score written true": lambda deal: deal["result"]["scores"].__setitem__(0, True),
    "a score beyond the format's limit": lambda deal: deal["result"]["scores"].__setitem__(0, 10**12),
    "a total written as text": lambda deal: deal["totals"].__setitem__(0, "0"),
    "one total too many": lambda deal: deal["totals"].append(0),
    "a hand too few": lambda deal: deal["hands"].pop(),
    "a hand written as a list": lambda deal: deal["hands"].__setitem__(0, deal["hands"][0].split()),
    "the dog left out": lambda deal: deal.pop("dog"),
    "a trick written as a list": lambda deal: deal["tricks"].__setitem__(0, deal["tricks"][0].split()),
    "a comment that is a number": lambda deal: deal.update(comment=3),
    "a status of another type": lambda deal: deal.update(status=["played"]),
    "an unknown status": lambda deal: deal.update(status="lost"),
    "a call written as an object with a seat": lambda deal: deal["auction"].__setitem__(
        0, {"call": deal["auction"][0], "seat": 3}
    ),
    "a call's comment that is a number": lambda deal: deal["auction"].__setitem__(
        0, {"call": deal["auction"][0], "comment": 3}
    ),
    "a trick written with its leader": lambda deal: deal["tricks"].__setitem__(
        0, {"cards": deal["tricks"][0], "leader": 0}
    ),
    "an announcement with an unknown key": lambda deal: deal.update(
        announcements=[{"type": "slam", "seat": 0, "cards": "T21"}]
    ),
    "an announcement by a seat beyond the table": lambda deal: deal.update(
        announcements=[{"type": "slam", "seat": 7}]
    ),
    "an announcement of a type that is a list": lambda deal: deal.update(
        announcements=[{"type": [], "seat": 0}]
    ),
    "a card in lower case": lambda deal: deal["tricks"].__setitem__(0, deal["tricks"][0].lower()),
    "a card group with two spaces": lambda deal: deal.update(dog=deal["dog"].replace(" ", "  ", 1)),
}
"""Deals whose written form the columns do not read, each one change from a clean deal."""


@pytest.mark.parametrize("change", SHAPES.values(), ids=SHAPES.keys())
def test_a_deal_not_in_the_bare_form_is_left_to_the_record_path(change: Any) -> None:
    """Each shape the record model refuses or spells otherwise (tarot.deal.*, the format's
    types): a batch of the record with that change and clean records proves the clean ones and
    not the changed one, whatever the record path then says of it."""
    ruleset = RULESETS["french-tarot"]
    records = [play((ruleset, 4, {}, seed), deals=3) for seed in range(3)]
    changed = copy.deepcopy(records[1])
    deal = next(deal for deal in changed["deals"] if deal.get("tricks"))
    change(deal)
    verdicts = proven(raws([records[0], changed, records[2]]))
    assert verdicts == [True, False, True]


def test_calls_and_tricks_with_a_comment_are_in_the_bare_form() -> None:
    """A comment or a time beside a call or a trick says nothing the rules read (spec/FORMAT.md):
    such a record is proven by the columns, as it is clean for the record path."""
    ruleset = RULESETS["french-tarot"]
    records = [play((ruleset, 4, {}, seed), deals=3) for seed in range(3)]
    deal = next(deal for deal in records[1]["deals"] if deal.get("tricks"))
    deal["auction"][1] = {"call": deal["auction"][1], "comment": "after a long think"}
    deal["tricks"][0] = {"cards": deal["tricks"][0], "comment": "the lead", "time": "21:04"}
    assert validate_record(raws(records)[1], Settings()).diagnostics == []
    assert proven(raws(records)) == [True, True, True]


Picked = Callable[[dict[str, Any]], object]
"""Which deals a Karnöffel case changes (a deal is picked when this is true of it)."""


def _karnoffel(found: Picked) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Three clean generated Karnöffel records (4 players) and a deal of the second that `found`
    picks out (its first deal for which `found` is true), searched over seeds."""
    ruleset = RULESETS["karnoffel"]
    for seed in range(100):
        records = [play((ruleset, 4, {}, seed + i), deals=3) for i in range(3)]
        deal = next((deal for deal in records[1]["deals"] if found(deal)), None)
        if deal is not None:
            return records, deal
    raise AssertionError("no generated deal is of the kind wanted")


def _left_to_the_record_path(records: list[dict[str, Any]], code: str) -> None:
    """The batch proves the clean records and not the second, of which the record path reports
    `code` and nothing else."""
    assert proven(raws(records)) == [True, False, True]
    found = validate_record(raws(records)[1], Settings()).diagnostics
    assert {finding.code for finding in found} == {code}, found[:3]


def _surrendered_in(window: int) -> Picked:
    """Whether a deal was given up in this window (the one its surrender is written in)."""
    return lambda deal: window <= len(deal["proposals"]) and "surrender" in deal["proposals"][window - 1]


@pytest.mark.parametrize("given_up", [False, True], ids=["played", "given up in window 1"])
def test_a_wrong_chosen_suit_stated_is_left_to_the_record_path(given_up: bool) -> None:
    """karnoffel.deal.chosen-suit: a chosen suit stated that is not the lowest face-up card's, or
    stated in a deal given up in window 1, when round 1 was not dealt to the end and no suit was
    chosen, is not proven; the record path reports it."""
    if given_up:
        records, deal = _karnoffel(_surrendered_in(1))
        deal["chosen_suit"] = deal["faceup"][0]  # the suit of its first face-up card
    else:
        records, deal = _karnoffel(lambda deal: "chosen_suit" in deal and deal["tricks"])
        deal["chosen_suit"] = KARNOFFEL_SUITS[(KARNOFFEL_SUITS.index(deal["chosen_suit"]) + 1) % 4]
    _left_to_the_record_path(records, "KARNOFFEL-CHOSEN-SUIT")


def test_a_word_written_in_a_window_already_over_is_left_to_the_record_path() -> None:
    """karnoffel.propose.window: the passes of quiet windows 1 and 2 all written in window 1
    read in turn as two quiet windows, but window 1 is over after its two passes: not proven;
    the record path reports the words said in it after it closed."""
    records, deal = _karnoffel(lambda deal: deal["proposals"] == [] and deal["tricks"])
    deal["proposals"] = [["pass", "pass", "pass", "pass"]]
    _left_to_the_record_path(records, "KARNOFFEL-WINDOW-CLOSED")


@pytest.mark.parametrize(("window", "size"), [(2, 4), (3, 2)])
def test_a_deal_given_up_dealt_to_another_stage_is_left_to_the_record_path(window: int, size: int) -> None:
    """karnoffel.deal.rounds: a deal given up in window 2 whose hands hold the four cards of
    round 3, or one given up in window 3 whose hands hold only round 2's two, is dealt as
    another surrender stops it: not proven; the record path reports the sizes."""
    records, deal = _karnoffel(_surrendered_in(window))
    dealt = {*deal["faceup"].split(), *" ".join(deal["hands"]).split()}
    undealt = iter(code for code in cards_of(48).deck.codes if code not in dealt)
    deal["hands"] = [" ".join([*hand.split(), next(undealt), next(undealt)][:size]) for hand in deal["hands"]]
    _left_to_the_record_path(records, "DEAL-HAND-SIZE")


@pytest.mark.parametrize("path", [*VALID, *INVALID], ids=lambda p: str(p.relative_to(SAMPLES)))
def test_every_sample_s_findings_through_the_columns_are_the_record_path_s(path: Path) -> None:
    """Each bundled sample, valid or not (partial records, score sheets, every game and fault),
    validated with the columns taking every batch whatever its size: its findings, notes
    included and each in its place, are the ones the record path alone gives."""
    with patch("recordkit.validate.SMALL_BATCH", 1):
        batched = [_found(item) for item in validate_paths([str(path)], Settings(), findings_only=True)]
    full = [_found(item) for item in validate_paths([str(path)], Settings())]
    assert batched == full
