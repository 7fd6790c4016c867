"""`recordkit replay` through the CLI: it renders the replay model, so it shows the rules' running
points, the contract and its count, the dealt groups, the hands and Joffre's captures."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import orjson
from typer.testing import CliRunner

from recordkit.cli import app
from recordkit.diagnostics import Location
from recordkit.games import RULESETS
from recordkit.generate import generate_record
from recordkit.model import to_data
from recordkit.sources import RawRecord
from recordkit.validate import Settings, validate_record
from recordkit.view.model import record_model

runner = CliRunner()
WIDE = {"COLUMNS": "250"}


def replay(*args: str) -> str:
    """The replay's output for these arguments; it must exit 0 (the record is clean)."""
    result = runner.invoke(app, ["replay", *args], env=WIDE)
    assert result.exit_code == 0, result.output
    return result.output


def rows(output: str) -> list[list[str]]:
    """The cells of each row of the tables Rich printed."""
    return [[cell.strip() for cell in line.split("│")[1:-1]] for line in output.splitlines() if "│" in line]


def test_tarot_shows_the_contract_groups_and_count() -> None:
    """Deal 1 of the club evening: Gérard's petite with its dog and discard, 42 points with one
    bout for a target of 51 (down by 9: the Excuse's exchange counted), and the working."""
    output = replay("samples/french-tarot/club-evening-4p.json", "--deal", "1")
    assert "contract: petite by 1:Gérard; trump T (trumps)" in output
    assert {row[0] for row in rows(output)} >= {"dog", "discard"}
    assert "declaring side's card points: 42 with 1 bout(s), target 51: down by 9" in output
    assert "multiplier 1" in output and "each defender pays -34" in output
    assert "discard ♠2 ♠4 ♦2 ♦7 ♦J ♣1" in output or "discard S2 S4 D2 D7 DJ C1" in output


def test_running_points_are_the_models_in_every_deal(tmp_path: Path) -> None:
    """The trick table's running points and sides are the model's (the rules' count) in every
    deal of a generated game of each game that counts card points."""
    for name in ("french-tarot", "joffre"):
        record = to_data(generate_record(RULESETS[name], 4, 3, 11))
        path = tmp_path / f"{name}.json"
        path.write_bytes(orjson.dumps(record))
        model = record_model(validate_record(RawRecord(record, Location()), Settings(strict=False)), record)
        for deal in model["deals"]:
            shown = [
                row for row in rows(replay(str(path), "--deal", str(deal["number"]))) if row[0].isdigit()
            ]
            shown = [row for row in shown if len(row) >= 7]
            assert [row[5].split() for row in shown] == [
                [f"{p:g}" for p in t["running"]] for t in deal["tricks"]
            ]
            sides = [t["running_sides"] for t in deal["tricks"]]
            assert [row[6] for row in shown] == [f"{s['declarer']:g}, {s['others']:g}" for s in sides]


def test_joffre_shows_trump_nation_and_captures() -> None:
    output = replay("samples/joffre/club-evening-4-players.json")
    assert "contract: 4 by 2:Marcel; trump R (Russia)" in output
    assert "the Joffre taken by 2:Marcel" in output
    assert "the Kaiser taken by 3:Thérèse" in output


def test_hands_before_each_trick() -> None:
    """`--hands`: each seat's hand before each trick, the taker's after his discard."""
    output = replay("samples/french-tarot/club-evening-4p.json", "--deal", "1", "--hands")
    assert "Hands before each trick" in output
    first = next(row for row in rows(output) if row[0] == "1" and len(row) == 5)
    assert "T21" in first[2] and "♦7" not in first[2]  # Gérard discarded D7


def test_letters_where_the_terminal_has_no_symbols() -> None:
    env = {**os.environ, "PYTHONIOENCODING": "latin-1", "COLUMNS": "200"}
    args = [sys.executable, "-m", "recordkit", "replay", "samples/karnoffel/gasthaus-evening-4p.json"]
    shown = subprocess.run(args, capture_output=True, env=env, check=False)
    assert shown.returncode == 0
    text = shown.stdout.decode("latin-1")
    assert "S9 H4 CK D10" in text and "♠" not in text
    utf8 = replay("samples/karnoffel/gasthaus-evening-4p.json")
    assert "♠9 ♥4 ♣K ♦10" in utf8


def test_joffre_shows_the_kaisers_capture_and_its_loss() -> None:
    """The newspaper's deal: the Kaiser takes Hormidas's Joffre; the working shows the 5 he loses,
    as the rules' count (`score_working`) gives it."""
    output = replay("samples/joffre/tricks-only-newspaper.json")
    assert "the Joffre captured by the Kaiser from 0:Hormidas" in output
    assert "seat 0: lose for the Joffre the Kaiser took -5" in output
