"""Partial records everywhere else: archives convert them exactly both ways and mark what was
derived and what was written, the columnar check leaves them to the record path, and `recordkit
replay` shows derived hands as derived and a score sheet's line as such.

The round trips and verdicts hold for whatever each game's forms are (`recordkit.generate`'s
`full`, `tricks` and `sheet`): the same engine validates the JSON and the archive.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from recordkit.archive import archive_records
from recordkit.archive.stats import archive_stats, connect
from recordkit.cli import app
from recordkit.codec import dumps
from recordkit.columnar import archive_items
from recordkit.convert.archive import to_archive
from recordkit.diagnostics import Diagnostic, Location
from recordkit.games import RULESETS
from recordkit.generate import generate_record
from recordkit.rules.french_tarot.ruleset import FrenchTarot
from recordkit.sources import RawRecord
from recordkit.validate import RecordReport, Settings, findings, validate_paths, validate_record
from tests.budget import examples
from tests.helpers import flat_archive, generated
from tests.test_archive import documented_queries
from tests.test_properties import games as any_game

runner = CliRunner()
TAROT = RULESETS["french-tarot"]
FORMS = ("full", "tricks", "sheet")


def write_lines(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(line + "\n" for line in lines))
    return path


def found(item: RecordReport | Diagnostic) -> tuple[Any, ...]:
    """What validating a record found, wherever the record was read from (file and line aside)."""
    if isinstance(item, Diagnostic):
        return ("unreadable", item.code, item.message)
    return (
        item.deals,
        [
            (
                d.code,
                d.severity,
                d.message,
                d.rule,
                d.expected,
                replace(d.location, file=None, line=None, record=None),
            )
            for d in item.diagnostics
        ],
    )


def deals_rows(archive: Path) -> list[dict[str, Any]]:
    """The deals table, in order."""
    with connect(archive) as connection:
        result = connection.execute("SELECT * FROM deals ORDER BY game_id, deal")
        names = [column[0] for column in result.description]
        return [dict(zip(names, row, strict=True)) for row in result.fetchall()]


@settings(
    max_examples=examples(40),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(st.lists(st.tuples(any_game, st.sampled_from(FORMS)), min_size=1, max_size=3))
def test_every_form_of_every_game_round_trips_and_validates_alike(
    tmp_path_factory: pytest.TempPathFactory, games: list[Any]
) -> None:
    """Generated records of every game, each in the form full, tricks or sheet: records ->
    archive -> records gives back the same canonical text byte for byte; the archive validates
    to the same findings as the JSON; and the deals table marks what the replay derived
    (`DealReplay.completion`) and which deals are score-sheet lines (`DealReplay.sheet`)."""
    folder = tmp_path_factory.mktemp("forms")
    lines = []
    for (ruleset, players, options, seed), form in games:
        try:
            lines.append(dumps(generate_record(ruleset, players, 2, seed, options, form, "random")))
        except ValueError:  # an option this number of players does not allow
            continue
    source = write_lines(folder / "in.jsonl", lines)
    archive = folder / "archive"
    report = to_archive([str(source)], archive, batch_deals=3)
    assert report.records == len(lines) and not report.skipped
    assert [text.decode() for _id, text in archive_records(archive)] == lines

    from_json = [found(item) for item in validate_paths([str(source)], Settings())]
    from_archive = [found(findings(item, Settings())) for item in archive_items(archive, Settings())]
    assert from_archive == from_json

    replays = [
        replay
        for line in lines
        for replay in validate_record(RawRecord(orjson.loads(line), Location())).replays
    ]
    rows = deals_rows(archive)
    assert len(rows) == len(replays)
    for row, replay in zip(rows, replays, strict=True):
        assert replay is not None
        replayed = replay.state is not None or replay.sheet
        derived = replay.completion.derived if replay.completion is not None else []
        assert row["derived"] == (derived if replayed else None)
        assert row["sheet"] is replay.sheet
        assert not (row["as_written"] and (derived or replay.sheet))


SCOREKEEPER = {
    "format": "recordkit",
    "version": "1.1",
    "game": "french-tarot",
    "players": ["Anne", "Bruno", "Claire", "Denis"],
    "meta": {"event": "Club de Cholet, Thursday", "date": "2024-03-07", "source": "scorekeeper's notes"},
}


def scorekeeper_record() -> tuple[dict[str, Any], dict[str, Any]]:
    """A generated 4-player game whose first deal the scorekeeper (seat 0) wrote with only his own
    hand, and its second without hands or dog; with the record it was written from."""
    full = generated(4, 1, deals=3)
    partial = orjson.loads(orjson.dumps(full))
    first, second = partial["deals"][0], partial["deals"][1]
    first["hands"] = [first["hands"][0], None, None, None]
    del second["hands"], second["dog"]
    return {**SCOREKEEPER, "deals": partial["deals"]}, full


def test_partial_deals_keep_their_form_and_say_what_was_derived(tmp_path: Path) -> None:
    """Hands written null, hands and dog left out, a deal written whole: each comes back exactly
    as written; the deals table holds the written hands as they are and the derived ones as the
    play gives them (a defender's hand is the cards he played: here, the hands the full record
    was dealt), names the derived groups, and leaves such deals out of the columnar check."""
    record, full = scorekeeper_record()
    source = write_lines(tmp_path / "evening.jsonl", [orjson.dumps(record).decode()])
    archive = tmp_path / "archive"
    to_archive([str(source)], archive)
    canonical = dumps(validate_record(RawRecord(record, Location())).record)  # type: ignore[arg-type]
    assert [text.decode() for _id, text in archive_records(archive)] == [canonical]
    assert '"hands":["' + full["deals"][0]["hands"][0] + '",null,null,null]' in canonical

    first, second, third = deals_rows(archive)
    assert first["derived"] == ["hands[1]", "hands[2]", "hands[3]"]
    assert first["hands"][0] == full["deals"][0]["hands"][0].split()
    assert second["derived"] == ["hands[0]", "hands[1]", "hands[2]", "hands[3]", "dog"]
    assert third["derived"] == [] and third["hands"] == [h.split() for h in full["deals"][2]["hands"]]
    assert [row["as_written"] for row in (first, second, third)] == [False, False, True]
    assert not any(row["sheet"] for row in (first, second, third))
    taker_of = {row["deal"]: row["declarer"] for row in (first, second)}
    for row in (first, second):
        for seat in range(4):
            if seat != taker_of[row["deal"]]:  # a defender plays every card he was dealt
                assert row["hands"][seat] == full["deals"][row["deal"] - 1]["hands"][seat].split()


def test_deals_by_form_query_and_stats(tmp_path: Path) -> None:
    """The documented query `deals_by_form` (and `recordkit stats`) count the deals written
    whole, with dealt groups derived, as score-sheet lines, and not replayable."""
    record, _full = scorekeeper_record()
    broken = {**SCOREKEEPER, "deals": [{"dealer": 0, "hands": ["Z9"] * 4, "dog": "S1"}]}
    lines = [orjson.dumps(record).decode(), orjson.dumps(broken).decode()]
    archive = tmp_path / "archive"
    to_archive([str(write_lines(tmp_path / "in.jsonl", lines))], archive)
    with connect(archive) as connection:
        rows = connection.execute(documented_queries()["deals_by_form"]).fetchall()
    assert rows == [("french-tarot", 4, 4, 1, 2, 0, 1)]
    forms = archive_stats(archive).forms
    assert forms is not None and forms[1] == rows
    result = runner.invoke(app, ["stats", str(archive)])
    assert result.exit_code == 0 and "Deals as recorded" in result.output


def test_stats_of_an_archive_before_version_3_leave_the_forms_out(tmp_path: Path) -> None:
    """An archive of version 2 has no `derived` or `sheet` columns: its stats are the rest."""
    archive = tmp_path / "archive"
    to_archive([str(write_lines(tmp_path / "in.jsonl", [orjson.dumps(generated(4, 2)).decode()]))], archive)
    flat_archive(archive, 2)
    stats = archive_stats(archive)
    assert stats.forms is None and stats.games[1] == [("french-tarot", 4, 1, 3)]


@pytest.fixture()
def score_sheets(monkeypatch: pytest.MonkeyPatch) -> None:
    """French Tarot reading a deal with no hands, calls or cards as a score sheet's line, scored
    as written: enough for the archive and the view, whatever the game's own sheet facts are."""

    def is_sheet(self: FrenchTarot, deal: Any) -> bool:
        return deal.hands is None and not deal.auction and not deal.tricks and deal.result is not None

    def sheet_scores(self: FrenchTarot, table: Any, deal: Any, before: Any = None) -> Any:
        return list(deal.result.scores), []

    monkeypatch.setattr(FrenchTarot, "is_sheet", is_sheet)
    monkeypatch.setattr(FrenchTarot, "sheet_scores", sheet_scores)


SHEET_DEAL = {"dealer": 0, "status": "played", "result": {"scores": [-69, 23, 23, 23], "points": 38}}


def test_score_sheet_deals_in_the_archive(tmp_path: Path, score_sheets: None) -> None:
    """A score sheet's line is archived as such: `sheet` true, nothing derived, no calls or plays,
    its scores written and computed; and it converts back exactly."""
    record = {**SCOREKEEPER, "deals": [SHEET_DEAL]}
    source = write_lines(tmp_path / "sheet.jsonl", [orjson.dumps(record).decode()])
    archive = tmp_path / "archive"
    to_archive([str(source)], archive)
    (row,) = deals_rows(archive)
    assert row["sheet"] is True and row["derived"] == [] and row["as_written"] is False
    assert row["hands"] is None and row["n_tricks"] == 0
    with connect(archive) as connection:
        assert connection.execute("SELECT count(*) FROM plays").fetchone() == (0,)
        scores = connection.execute("SELECT score, computed FROM scores ORDER BY seat").fetchall()
        assert connection.execute(
            "SELECT json_extract_string(deal_json, '$.result.points') FROM deals"
        ).fetchone() == ("38",)
    assert scores == [(-69, -69), (23, 23), (23, 23), (23, 23)]
    canonical = dumps(validate_record(RawRecord(record, Location())).record)  # type: ignore[arg-type]
    assert [text.decode() for _id, text in archive_records(archive)] == [canonical]


# --- recordkit replay ---------------------------------------------------------------------------


def replayed(tmp_path: Path, record: dict[str, Any], deal: int = 1) -> Any:
    path = tmp_path / "record.json"
    path.write_bytes(orjson.dumps(record))
    return runner.invoke(app, ["replay", str(path), "--deal", str(deal)], env={"COLUMNS": "200"})


def test_replay_marks_the_hands_derived_from_the_tricks(tmp_path: Path) -> None:
    """A deal with only the scorekeeper's hand: the others are shown derived from the tricks
    (a line that says so, and a mark on each); a deal with no hands and no dog marks them all."""
    record, _full = scorekeeper_record()
    result = replayed(tmp_path, record)
    assert result.exit_code == 0, result.output
    assert "derived from the tricks: the hands of 1:Bruno, 2:Claire, 3:Denis (marked *)" in result.output
    assert "1:Bruno *" in result.output and "0:Anne *" not in result.output
    assert "running points" in result.output
    result = replayed(tmp_path, record, deal=2)
    assert "the hands of 0:Anne, 1:Bruno, 2:Claire, 3:Denis; the dog (marked *)" in result.output
    assert "dog *" in result.output


def test_replay_shows_a_score_sheet_line_as_such(tmp_path: Path, score_sheets: None) -> None:
    """A score sheet's line: its facts and scores, and no trick table."""
    result = replayed(tmp_path, {**SCOREKEEPER, "deals": [SHEET_DEAL]})
    assert result.exit_code == 0, result.output
    assert "a score-sheet line; its calls and cards were not recorded" in result.output
    assert "facts on the sheet: points 38" in result.output
    assert "scores on the sheet: -69 +23 +23 +23" in result.output
    assert "DEAL-NOT-CHECKED" in result.output
    assert "running points" not in result.output and "Hands as dealt" not in result.output


EXCUSE_DEAL = {
    "dealer": 2,
    "hands": [
        "S8 SJ SN SQ H2 H3 H8 H9 D3 D4 D8 C7 CQ T7 T12 T13 T17 EX",
        "S1 S6 S7 S10 H4 H10 D2 D10 DJ DN C5 C6 C8 T3 T6 T8 T11 T18",
        "S2 S4 S9 H6 HN D9 DK C1 C3 CJ T1 T4 T5 T9 T14 T16 T20 T21",
        "S3 S5 H1 H5 H7 HK D1 D7 DQ C2 C4 C9 C10 CN CK T2 T15 T19",
    ],
    "dog": "SK HJ HQ D5 D6 T10",
    "auction": ["pass", "petite", "pass", "pass"],
    "discard": "SN D8 D6 HJ SJ H9",
    "tricks": [
        "H7 H2 H4 HN",
        "T20 T19 T13 T11",
        "CJ C2 C7 C5",
        "S9 S5 SQ S6",
        "D5 D10 D9 D1",
        "H10 H6 HK HQ",
        "C4 EX C8 C1",
        "DJ DK DQ D3",
        "S4 S3 SK S10",
        "S8 S7 S2 T15",
        "D7 D4 DN T1",
        "T21 T2 T7 T6",
        "T9 H1 T12 T18",
        "T3 T4 CN T17",
        "H3 T8 T16 H5",
        "T14 C10 T10 C6",
        "T5 CK CQ D2",
        "C3 C9 H8 S1",
    ],
    "result": {"scores": [-150, 50, 50, 50]},
}


def test_replay_leaves_the_excuse_with_its_side(tmp_path: Path) -> None:
    """tarot.excuse.exchange: Anne (the taker, seat 0) plays the Excuse to trick 7, which Bruno
    (a defender) wins with C8. The Excuse (4.5) stays with Anne, who gives Bruno a half-point card
    for it: of the trick's 6 points Anne takes 4 and Bruno 2. Before it Anne had 5 (SQ in
    trick 4) and Bruno 2 (trick 5: D10 D9 D5 D1), Claire and Denis 9 each."""
    result = replayed(tmp_path, {**SCOREKEEPER, "deals": [EXCUSE_DEAL]})
    assert result.exit_code == 0, result.output
    running = {row[0]: row[5].split() for row in table_rows(result.output) if row[0].isdigit()}
    assert running["6"] == ["5", "2", "9", "9"]
    assert running["7"] == ["9", "4", "9", "9"]


def table_rows(output: str) -> list[list[str]]:
    """The cells of each row of the tables Rich printed."""
    return [[cell.strip() for cell in line.split("│")[1:-1]] for line in output.splitlines() if "│" in line]
