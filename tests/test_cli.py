"""The command line as a user runs it: exit statuses, outputs, and no traceback on bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import orjson
from typer.testing import CliRunner

from recordkit.cli import app
from tests.helpers import bump_score, generated

runner = CliRunner()


def write(path: Path, data: object) -> Path:
    path.write_bytes(orjson.dumps(data))
    return path


def test_validate_clean_file_exits_0(tmp_path: Path) -> None:
    result = runner.invoke(app, ["validate", str(write(tmp_path / "g.json", generated(4, 1)))])
    assert result.exit_code == 0, result.output
    assert "0 error(s)" in result.output


def test_validate_reports_violations_and_exits_1(tmp_path: Path) -> None:
    data = generated(4, 1)
    bump_score(data, 1, 2, 10)
    result = runner.invoke(app, ["validate", str(write(tmp_path / "g.json", data))])
    assert result.exit_code == 1
    assert "SCORE-MISMATCH" in result.output and "deal 2" in result.output


def test_validate_jsonl_output_is_one_json_object_per_line(tmp_path: Path) -> None:
    data = generated(4, 1)
    bump_score(data, 0, 0, 1)
    result = runner.invoke(app, ["validate", "--format", "jsonl", str(write(tmp_path / "g.json", data))])
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["code"] for line in lines] == ["SCORE-MISMATCH"]
    assert (
        lines[0]["deal"] == 1
        and lines[0]["rule"] == "tarot.score"
        and lines[0]["path"] == "deals[0].result.scores"
    )


def test_validate_unusable_input_exits_2(tmp_path: Path) -> None:
    (tmp_path / "cut.json").write_text('{"format": "recordkit", "version"')
    result = runner.invoke(app, ["validate", str(tmp_path)])
    assert result.exit_code == 2
    assert "RECORD-TRUNCATED" in result.output


def test_validate_expected_game_flags_other_games(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["validate", "--game", "joffre", str(write(tmp_path / "g.json", generated(3, 4)))]
    )
    assert result.exit_code == 1
    assert "RECORD-WRONG-GAME" in result.output


def test_generate_then_validate_round_trip(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    result = runner.invoke(
        app,
        ["generate", "french-tarot", "--players", "5", "--records", "3", "--seed", "9", "--out", str(out)],
    )
    assert result.exit_code == 0, result.output
    assert len(out.read_text().splitlines()) == 3
    assert runner.invoke(app, ["validate", str(out)]).exit_code == 0


def test_generate_is_reproducible_from_its_seed() -> None:
    first = runner.invoke(app, ["generate", "french-tarot", "--seed", "42", "-o", "all_pass=goulash"])
    second = runner.invoke(app, ["generate", "french-tarot", "--seed", "42", "-o", "all_pass=goulash"])
    assert first.stdout == second.stdout
    assert json.loads(first.stdout)["options"]["all_pass"] == "goulash"


def test_generate_rejects_a_bad_option_without_traceback() -> None:
    result = runner.invoke(app, ["generate", "french-tarot", "-o", "discard_policy=any"])
    assert result.exit_code != 0
    assert "Traceback" not in result.output


def test_replay_shows_each_trick(tmp_path: Path) -> None:
    path = write(tmp_path / "g.json", generated(4, 3, deals=2))
    result = runner.invoke(app, ["replay", str(path), "--deal", "2"])
    assert result.exit_code == 0, result.output
    assert "scores by the rules" in result.output
    assert "running points" in result.output


def test_schema_writes_one_file_per_game(tmp_path: Path) -> None:
    result = runner.invoke(app, ["schema", str(tmp_path)])
    assert result.exit_code == 0
    assert (tmp_path / "french-tarot.v1.schema.json").exists()


def test_real_entry_point_never_shows_a_traceback(tmp_path: Path) -> None:
    """Bad input of every kind through the installed script: diagnostics, never a traceback."""
    (tmp_path / "a.json").write_bytes(b"\x00\xff garbage")
    (tmp_path / "b.jsonl").write_text('{"format": "recordkit"}\n[1,2]\n"text"\n')
    (tmp_path / "c.json").write_text(
        '{"format": "recordkit", "version": "1.0", "game": "french-tarot", "deals": 5}'
    )
    result = subprocess.run(
        [sys.executable, "-m", "recordkit", "validate", str(tmp_path), str(tmp_path / "missing.json")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stdout + result.stderr
    for code in ("RECORD-BAD-JSON", "RECORD-VERSION", "RECORD-SCHEMA", "FILE-UNREADABLE"):
        assert code in result.stdout


def test_generate_variant_shorthand(tmp_path: Path) -> None:
    """`--variant maine` is `-o variant=maine`: Maine Charlemagne games that validate clean."""
    out = tmp_path / "maine.jsonl"
    result = runner.invoke(
        app, ["generate", "charlemagne", "--variant", "maine", "--records", "2", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text().splitlines()[0])["options"]["variant"] == "maine"
    assert runner.invoke(app, ["validate", str(out)]).exit_code == 0


def test_a_file_prints_at_most_its_first_diagnostics_and_counts_the_rest(tmp_path: Path) -> None:
    """Issue 33: a file of 200,000 bad lines printed 200,000 diagnostics (29 MB). As text, each
    file prints its first FILE_SHOWN and one line counting the rest; the summary, the exit status
    and `--format jsonl` keep every one."""
    from recordkit.cli import FILE_SHOWN

    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"{not json\n" * (FILE_SHOWN + 1_500))
    other = tmp_path / "other.jsonl"
    other.write_bytes(b"[]\n" * 3)
    result = runner.invoke(app, ["validate", str(bad), str(other)])
    assert result.exit_code == 2
    lines = result.stdout.splitlines()
    assert sum("RECORD-BAD-JSON" in line for line in lines) == FILE_SHOWN
    assert f"{bad}: and 1,500 more diagnostic(s) (only the first 1,000 of a file are printed" in result.stdout
    assert sum("RECORD-SCHEMA" in line for line in lines) == 3 and len(lines) == FILE_SHOWN + 1 + 3
    assert f"{FILE_SHOWN + 1_503} error(s)" in result.output
    machine = runner.invoke(app, ["validate", "--format", "jsonl", str(bad), str(other)])
    assert machine.exit_code == 2 and len(machine.stdout.splitlines()) == FILE_SHOWN + 1_503


def test_paths_that_look_like_markup_are_printed_as_written(tmp_path: Path) -> None:
    """Issue 33: a path holding `[bold]…[/]` was read as rich markup (and `[/]` alone ended the
    command with rich's MarkupError)."""
    folder = tmp_path / "[bold]club[" / "[red]x"
    folder.mkdir(parents=True)
    record = folder / "]evening[/].json"
    result = runner.invoke(app, ["generate", "joffre", "--out", str(record)])
    assert result.exit_code == 0 and f"to {record}" in result.output, result.output
    result = runner.invoke(app, ["view", str(record)])
    assert result.exit_code == 0 and f"wrote {record.with_suffix('.html')}" in result.output, result.output
    result = runner.invoke(app, ["replay", str(record), "--record", "2"])
    assert result.exit_code == 2 and f"{record} has no record 2" in result.output, result.output
    output = folder / "[/]back.jsonl"
    result = runner.invoke(app, ["convert", str(record), str(output)])
    assert result.exit_code == 0 and f"to {output}" in result.output, result.output
    result = runner.invoke(app, ["schema", str(folder / "[/]schema")])
    assert result.exit_code == 0 and f"{folder}/[/]schema/" in result.output, result.output
