"""TarotClub's deal logs imported: real logs from TarotClub's repositories scored as TarotClub's own
tests expect, generated logs giving back their deals, damaged logs refused at their place."""

from __future__ import annotations

import json
from itertools import pairwise
from pathlib import Path
from typing import Any

import orjson
import pytest
from typer.testing import CliRunner

from recordkit.cli import app
from recordkit.diagnostics import Diagnostic
from recordkit.engine import replay_deal
from recordkit.importers.tarotclub import RULESET, card_code, deal_of, log_records, read_log, records
from recordkit.rules.french_tarot.options import TarotOptions
from recordkit.rules.french_tarot.record import TarotDeal, TarotResult
from tests.helpers import generated
from tests.tarotclub_logs import tarotclub_card, tarotclub_log

DATA = Path(__file__).parent / "data" / "tarotclub"
REAL = DATA / "real"
runner = CliRunner()

TAROTCLUB_EXPECTS = {
    "tarotmag_17.json": {"taker_score": -102, "bouts": 1},
    "tarotmag_18.json": {"taker_score": 54 * 3, "bouts": 2},
    "01-T_lasttrickbydefense_game_lost.json": {
        "taker_score": -58 * 3,
        "bouts": 1,
        "petit_au_bout": "defence",
    },
    "3_oudlers.json": {"taker_score": 216, "bouts": 3},
    "4_oudlers_bug.json": {"taker_wins": True, "bouts": 3},
    "taker_loses_two_oudlers.json": {"taker_wins": True, "bouts": 1},
    "maximum_points.json": {
        "taker_score": 2886,
        "bouts": 3,
        "slam": "announced_made",
        "petit_au_bout": "attack",
    },
    "slam_announced_failure.json": {"taker_score": 360, "bouts": 3, "petit_au_bout": "attack"},
    "slam_not_announed_by_defense.json": {"taker_score": -686 * 3, "bouts": 0},
}
"""What TarotClub's unit test (belegar/tarotclub src/tarotclub-tst/tst_tarot_rules.cpp,
TestScoreCalculation) asserts of each log: the taker's score, the winner, the oudlers, the
Petit au bout and the slam."""


def table() -> Any:
    """The four-player table of the imported records."""
    found, _ = RULESET.table(TarotOptions(), 4)
    return found


def replayed(path: Path) -> tuple[Any, Any]:
    """A log's deal imported and replayed without what the log states of its outcome: the
    replay and the score sheet's facts it gives."""
    imported = read_log(path)
    assert not isinstance(imported, Diagnostic), imported
    deal = TarotDeal.model_validate({**imported.deal, "result": None})
    replay = replay_deal(RULESET, table(), deal)
    shown = replay.completion.deal if replay.completion is not None else deal
    scored = shown.model_copy(update={"result": TarotResult(scores=replay.scores)})
    return replay, RULESET.sheet_of(table(), scored, replay.state).result


@pytest.mark.parametrize("name", sorted(TAROTCLUB_EXPECTS))
def test_real_logs_score_as_tarotclub_expects(name: str) -> None:
    replay, facts = replayed(REAL / name)
    assert not [v for v in replay.violations if v.severity == "error"], replay.violations
    expected = TAROTCLUB_EXPECTS[name]
    taker = facts.taker
    assert facts.bouts == expected["bouts"]
    if "taker_score" in expected:
        assert replay.scores[taker] == expected["taker_score"]
    if "taker_wins" in expected:
        assert replay.scores[taker] > 0
    for fact in ("petit_au_bout", "slam"):
        if fact in expected:
            assert getattr(facts, fact) == expected[fact]


def test_real_logs_import_validate_and_keep_what_the_logs_state(tmp_path: Path) -> None:
    logs = [str(REAL / name) for name in sorted(TAROTCLUB_EXPECTS)]
    out = tmp_path / "evening.json"
    result = runner.invoke(app, ["import", "tarotclub", *logs, "--out", str(out)])
    record = json.loads(out.read_text())
    assert record["players"] == ["South", "East", "North", "West"]
    stated = [deal["result"] for deal in record["deals"] if "tarotmag_17" in deal["comment"]]
    assert stated[0]["points"] == 28  # tarotmag_17's stated score, kept to be checked
    # The score objects of tarotmag_17, tarotmag_18 and 3_oudlers state other counts than their
    # tricks give (tarotmag_18 repeats tarotmag_17's): each is reported, the rest are clean.
    assert result.exit_code == 1
    assert result.output.count("SCORE-POINTS-MISMATCH") == 3
    assert "the sheet says the taker's side made 28 card points; the tricks give 42" in result.output
    assert "the sheet says 2 bouts; the tricks give 3" in result.output


def test_a_deal_file_is_not_a_played_log() -> None:
    found = read_log(REAL / "unit_test_current_deal.json")
    assert isinstance(found, Diagnostic) and found.code == "IMPORT-TAROTCLUB"
    assert "deal file" in found.message and found.location.file == str(REAL / "unit_test_current_deal.json")


def test_a_comma_before_a_closing_brace_is_read_as_tarotclub_reads_it() -> None:
    assert ",\n    },\n" in (REAL / "4_oudlers_bug.json").read_text()
    assert not isinstance(read_log(REAL / "4_oudlers_bug.json"), Diagnostic)


@pytest.mark.parametrize(
    ("code", "card"), [("00-T", "EX"), ("01-T", "T1"), ("21-T", "T21"), ("01-S", "S1"), ("10-H", "H10"),
                       ("11-D", "DJ"), ("12-C", "CN"), ("13-S", "SQ"), ("14-H", "HK")]
)  # fmt: skip
def test_card_names(code: str, card: str) -> None:
    assert card_code(code, "tricks[0]") == card
    assert tarotclub_card(card) == code


@pytest.mark.parametrize(("players", "seed"), [(3, 2), (4, 3), (4, 9)])
def test_generated_deals_come_back_with_their_scores(players: int, seed: int) -> None:
    record = generated(players, seed, deals=6)
    played = [
        d for d in record["deals"] if any(c != "pass" for c in d["auction"]) and d["status"] == "played"
    ]
    for deal in played:
        imported = deal_of(tarotclub_log(deal, players), "generated.json")
        assert imported.deal["result"]["scores"] == deal["result"]["scores"]
        assert imported.deal["tricks"] == [t if isinstance(t, str) else t["cards"] for t in deal["tricks"]]
        assert imported.deal["dog"] == deal["dog"]


def test_a_defence_poignee_goes_to_the_defender_who_played_its_trumps(tmp_path: Path) -> None:
    log = json.loads((REAL / "slam_not_announed_by_defense.json").read_text())
    replay, _ = replayed(REAL / "slam_not_announed_by_defense.json")
    hands = replay.completion.deal.hands
    seat, trumps = max(
        ((s, [c for c in hand.split() if c.startswith("T")]) for s, hand in enumerate(hands) if s != 0),
        key=lambda found: len(found[1]),
    )
    log["deal_info"]["defense_handle"] = ";".join(tarotclub_card(c) for c in trumps[:10])
    imported = deal_of(log, "poignee.json")
    poignees = [a for a in imported.deal["announcements"] if a["type"] == "poignee"]
    assert [(p["seat"], p["level"]) for p in poignees] == [(seat, "simple")]


def test_generated_logs_import_to_every_output(tmp_path: Path) -> None:
    logs = str(DATA / "generated")
    for name in ("g.json", "g.jsonl", "archive"):
        result = runner.invoke(app, ["import", "tarotclub", logs, "--out", str(tmp_path / name)])
        assert result.exit_code == 0, result.output
        assert "0 error(s), 0 warning(s)" in result.output
    check = runner.invoke(app, ["validate", str(tmp_path / "g.json"), str(tmp_path / "archive")])
    assert check.exit_code == 0, check.output
    lines = (tmp_path / "g.jsonl").read_bytes().splitlines()
    assert [len(orjson.loads(line)["players"]) for line in lines] == [3, 4]


def test_the_deal_passes_to_the_right_between_logs() -> None:
    logs = sorted((DATA / "generated").glob("4p-deal0*.json"))
    found = [item for item in records(logs) if not isinstance(item, Diagnostic)]
    dealers = [deal["dealer"] for deal in found[0].data["deals"]]
    assert all((b - a) % 4 == 1 for a, b in pairwise(dealers))


def test_an_end_of_deal_message_states_points_that_are_checked() -> None:
    result = runner.invoke(app, ["validate", "--from", "tarotclub", str(DATA / "generated")])
    assert result.exit_code == 0, result.output
    wrong = DATA / "damaged" / "4p-deal02-end-of-deal-wrong-points.json"
    result = runner.invoke(app, ["validate", "--from", "tarotclub", str(wrong)])
    assert result.exit_code == 1
    assert "made 50 card points; the tricks give 55" in result.output


DAMAGED = {
    "truncated.json": ("RECORD-TRUNCATED", None),
    "slam_not_a_bool.json": ("IMPORT-TAROTCLUB", "deal_info.slam"),
    "tricks_not_a_list.json": ("IMPORT-TAROTCLUB", "tricks"),
    "unknown_card.json": ("IMPORT-TAROTCLUB", "tricks[3]"),
    "short_trick.json": ("IMPORT-TAROTCLUB", "tricks[5]"),
    "missing_trick.json": ("IMPORT-TAROTCLUB", "tricks"),
    "unknown_place.json": ("IMPORT-TAROTCLUB", "deal_info.taker"),
    "unknown_contract.json": ("IMPORT-TAROTCLUB", "deal_info.contract"),
    "five_players.json": ("IMPORT-TAROTCLUB", "deal_info.number_of_players"),
    "wrong_version.json": ("IMPORT-TAROTCLUB", "version"),
    "no_deal_info.json": ("IMPORT-TAROTCLUB", "deal_info"),
    "not_an_object.json": ("IMPORT-TAROTCLUB", None),
}


@pytest.mark.parametrize("name", sorted(DAMAGED))
def test_a_damaged_log_is_a_diagnostic_at_its_place(name: str) -> None:
    found = read_log(DATA / "damaged" / name)
    code, path = DAMAGED[name]
    assert isinstance(found, Diagnostic)
    assert (found.code, found.location.path) == (code, path)
    assert found.location.file == str(DATA / "damaged" / name)


def test_damaged_logs_do_not_stop_the_others(tmp_path: Path) -> None:
    damaged = [str(DATA / "damaged" / name) for name in sorted(DAMAGED)]
    good = str(REAL / "01-T_lasttrickbydefense_game_lost.json")
    result = runner.invoke(app, ["import", "tarotclub", *damaged, good, "--out", str(tmp_path / "out.json")])
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert "read 1 tarotclub log(s) (12 unreadable)" in result.output
    assert len(json.loads((tmp_path / "out.json").read_text())["deals"]) == 1
    items = list(log_records([DATA / "damaged" / "unknown_card.json", Path(good)]))
    assert [type(item).__name__ for item in items] == ["Diagnostic", "RawRecord"]


def test_validate_and_convert_read_logs_with_from(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["validate", "--from", "tarotclub", str(DATA / "damaged" / "unknown_card.json")]
    )
    assert result.exit_code == 2
    assert "tricks[3]: 15-D is not a card" in result.output
    result = runner.invoke(
        app, ["convert", "--from", "tarotclub", str(DATA / "generated"), str(tmp_path / "a")]
    )
    assert result.exit_code == 0, result.output
    assert (tmp_path / "a" / "_recordkit.json").is_file()
    result = runner.invoke(app, ["import", "pbn", str(DATA / "generated"), "--out", str(tmp_path / "x.json")])
    assert result.exit_code == 2 and "tarotclub" in result.output


def hostile_log(name: str, tmp_path: Path) -> tuple[Path, str]:
    """A generated log made hostile at one place (issue 33), and the key the import must name."""
    log = orjson.loads((DATA / "generated" / "4p-deal01.json").read_bytes())
    end_of_deal = orjson.loads((DATA / "generated" / "4p-deal02-end-of-deal.json").read_bytes())
    kind, _, size = name.partition(":")
    if kind in ("oudlers", "points"):
        text = orjson.dumps({**end_of_deal, kind: int(size)})
        key = kind
    elif kind == "dog-cards":
        text = orjson.dumps({**log, "deal_info": {**log["deal_info"], "dog": ";".join(["01-S"] * int(size))}})
        key = "deal_info.dog"
    else:  # a value nested `size` levels deep (orjson reads 1,024; its writer stops at 255)
        info = {**log["deal_info"], kind: "@"}
        deep = b"[" * int(size) + b'"x"' + b"]" * int(size)
        text = orjson.dumps({**log, "deal_info": info}).replace(b'"@"', deep)
        key = f"deal_info.{kind}"
    path = tmp_path / f"{kind}.json"
    path.write_bytes(text)
    return path, key


HOSTILE = [
    *(
        f"{key}:{depth}"
        for key in ("taker", "dog", "attack_handle", "defense_handle")
        for depth in (255, 1000)
    ),
    "oudlers:10000000000",
    "points:-10000000000",
    "dog-cards:101",
]


@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_value_is_a_diagnostic_at_its_key_and_the_other_logs_are_read(
    name: str, tmp_path: Path
) -> None:
    """Issue 33: a value nested 255 to 1,024 levels deep in a place, the dog or a poignée (orjson's
    TypeError), an EndOfDeal count beyond 10^9 or a dog of 101 cards (pydantic's ValidationError)
    escaped `import` and `validate --from`."""
    path, key = hostile_log(name, tmp_path)
    found = read_log(path)
    assert isinstance(found, Diagnostic) and found.code == "IMPORT-TAROTCLUB", found
    assert (found.location.file, found.location.path) == (str(path), key)
    good = str(REAL / "01-T_lasttrickbydefense_game_lost.json")
    result = runner.invoke(app, ["import", "tarotclub", str(path), good, "--out", str(tmp_path / "o.json")])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 2 and f"{path}: error IMPORT-TAROTCLUB" in result.output
    assert "read 1 tarotclub log(s) (1 unreadable)" in result.output
    result = runner.invoke(app, ["validate", "--from", "tarotclub", str(path), good])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 2 and f"{key}:" in result.output and "2 file(s), 1 record(s)" in result.output
