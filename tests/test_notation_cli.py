"""The notation through the command line: validate, convert and generate with `.rkn` files, and
no traceback whatever the text."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from recordkit.cli import app
from recordkit.codec import load
from recordkit.model import to_data
from recordkit.notation import read_text, text_sources
from recordkit.raw import RawRecord
from recordkit.validate import Settings, validate_record
from tests.budget import examples

runner = CliRunner()
SAMPLES = Path(__file__).parent.parent / "samples"
EVENING = SAMPLES / "text" / "joffre" / "score-sheet-evening.rkn"


def test_validate_a_text_file_exits_0_and_counts_its_deals() -> None:
    result = runner.invoke(app, ["validate", str(EVENING)])
    assert result.exit_code == 0, result.output
    assert "1 record(s), 10 deal(s): 0 error(s)" in result.output


def test_validate_says_the_line_and_column_in_text_and_jsonl(tmp_path: Path) -> None:
    path = tmp_path / "evening.rkn"
    path.write_text(
        EVENING.read_text().replace("scores 7 1 1 1 totals 7 12 -3 0", "scores 7 1 1 1 totals 7 12 -3 1")
    )
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 1
    assert f"{path}:17:80 record 1, deal 3: error TOTAL-MISMATCH" in " ".join(result.output.split())
    lines = runner.invoke(app, ["validate", str(path), "--format", "jsonl"]).stdout.splitlines()
    found = [json.loads(line) for line in lines if "TOTAL-MISMATCH" in line]
    assert found and (found[0]["line"], found[0]["column"], found[0]["deal"]) == (17, 80, 3)


def test_convert_text_to_json_to_archive_and_back_to_the_same_text(tmp_path: Path) -> None:
    as_json, archive, back = tmp_path / "e.json", tmp_path / "archive", tmp_path / "back.rkn"
    assert runner.invoke(app, ["convert", str(EVENING), str(as_json)]).exit_code == 0
    assert to_data(load(as_json)) == to_data(load(EVENING))
    assert runner.invoke(app, ["convert", str(as_json), str(archive)]).exit_code == 0
    result = runner.invoke(app, ["convert", str(archive), str(back)])
    assert result.exit_code == 0, result.output
    assert back.read_text() == EVENING.read_text()


def test_convert_leaves_out_a_record_the_reader_cannot_read_and_exits_2(tmp_path: Path) -> None:
    bad = SAMPLES / "invalid" / "notation" / "NOTATION-SYNTAX.rkn"
    result = runner.invoke(app, ["convert", str(bad), str(EVENING), str(tmp_path / "out.jsonl")])
    assert result.exit_code == 2
    assert "NOTATION-SYNTAX" in result.output and "wrote 1 record(s)" in result.output


def test_generate_to_text_writes_records_that_validate(tmp_path: Path) -> None:
    out = tmp_path / "g.rkn"
    result = runner.invoke(
        app, ["generate", "karnoffel", "--records", "2", "--deals", "2", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert out.read_text().startswith('[Game "karnoffel"]')
    assert runner.invoke(app, ["validate", str(out)]).exit_code == 0
    shown = runner.invoke(app, ["generate", "joffre", "--deals", "1", "--to", "text"])
    assert shown.exit_code == 0 and shown.stdout.startswith('[Game "joffre"]')
    assert runner.invoke(app, ["generate", "joffre", "--to", "xml"]).exit_code == 2


def test_a_file_that_is_not_utf8_is_a_diagnostic(tmp_path: Path) -> None:
    path = tmp_path / "latin1.rkn"
    path.write_bytes('[Game "joffre"]\n[Players "Gérard" "B" "C" "D"]\n'.encode("latin-1"))
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 2 and "RECORD-BAD-JSON" in result.output and "UTF-8" in result.output


LINES = st.sampled_from(
    [
        '[Game "joffre"]',
        '[Players "A" "B" "C" "D"]',
        "deal 1 dealer 0",
        "deal",
        "hand 0 E2 E0 F5",
        "hand 9 E2",
        "hand A",
        "auction 3 4, pass",
        'R7 R2 R4 R1 winner 2 "c"',
        "trick = {",
        'trick = {"cards": 3}',
        "scores 1 x 2",
        "totals = [1, 2]",
        'comment "open',
        "[Option",
        "[Meta x]",
        "proposals - / raise@9",
        "knock 1 2",
        "claim x 1 2",
        "announce poignee 0",
        "= 3",
        "dealer ♠",
        "",
    ]
)


@settings(max_examples=examples(150), deadline=None)
@given(st.lists(st.one_of(LINES, st.text(max_size=30)), max_size=12))
def test_no_text_makes_a_traceback(lines: list[str]) -> None:
    """Any text reads to records and diagnostics, and any record read validates to diagnostics."""
    text = "\n".join(lines)
    assert all(isinstance(r.line, int) for r in read_text(text))
    for raw in text_sources(text, None):
        if isinstance(raw, RawRecord):
            validate_record(raw, Settings(strict=True))
