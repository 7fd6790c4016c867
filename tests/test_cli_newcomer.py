"""The command line a newcomer meets (issue 16): the README's commands in order, quick help,
messages in our words, extras named, progress only where it belongs, and CI's gates."""

from __future__ import annotations

import io
import os
import re
import shlex
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import orjson
import pytest
import typer
from rich.console import Console
from typer.testing import CliRunner

from recordkit import cli
from recordkit.cli import app
from tests.helpers import generated

ROOT = Path(__file__).parent.parent
README = (ROOT / "README.md").read_text()
runner = CliRunner()
HEAVY = ("pyarrow", "numpy", "duckdb")


def plain(text: str) -> str:
    """Help text without rich's boxes and line breaks, for searching."""
    return " ".join(text.replace("│", " ").split())


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """`python -m recordkit ARGS` in a fresh process, standard error piped (not a terminal)."""
    base = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "TTY_COMPATIBLE")}
    return subprocess.run(
        [sys.executable, "-m", "recordkit", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**base, **(env or {})},
        check=False,
    )


def write_jsonl(path: Path, records: list[object]) -> Path:
    path.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in records))
    return path


# --- 1. imports -----------------------------------------------------------------------------------


def test_importing_the_package_and_the_command_line_loads_no_pyarrow_numpy_or_duckdb() -> None:
    """`--help` and every command pay for the rules only: the columnar and archive libraries are
    imported by the commands that use them."""
    code = (
        "import sys, recordkit, recordkit.cli; "
        f"print(sorted({{m.split('.')[0] for m in sys.modules}} & {set(HEAVY)!r}))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert done.stdout.strip() == "[]"


def test_validating_record_files_loads_no_pyarrow_numpy_or_duckdb() -> None:
    """Only archives need the columnar libraries: validating JSON files (a folder of them, or
    records from Python) never imports them."""
    code = (
        "import sys; from typer.testing import CliRunner; from recordkit.cli import app; "
        "result = CliRunner().invoke(app, ['validate', '-q', 'samples/joffre', 'samples/karnoffel']); "
        "assert result.exit_code == 0, result.output; "
        f"print(sorted({{m.split('.')[0] for m in sys.modules}} & {set(HEAVY)!r}))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert done.stdout.strip() == "[]"


# --- 2. the stats extra ---------------------------------------------------------------------------


def test_duckdb_is_the_stats_extra_and_the_tests_have_it() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    names = [re.split(r"[<>=\[ ]", d)[0] for d in project["dependencies"]]
    assert "duckdb" not in names and "pyarrow" in names
    extras = project["optional-dependencies"]
    assert any(d.startswith("duckdb") for d in extras["stats"])
    assert any(d.startswith(("duckdb", "recordkit[stats")) for d in extras["test"])


def test_stats_without_duckdb_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "duckdb", None)  # what `import duckdb` meets when it is missing
    result = runner.invoke(app, ["stats", str(ROOT / "samples" / "joffre")])
    assert result.exit_code == 2
    assert "pip install 'recordkit[stats]'" in result.output
    assert "Traceback" not in result.output


# --- 3. convert and stats keep broken records out -------------------------------------------------


def test_convert_of_samples_leaves_out_every_record_that_breaks_a_rule(tmp_path: Path) -> None:
    """`convert samples/` once archived samples/invalid/ too, and its archive failed validation."""
    archive = tmp_path / "archive"
    result = runner.invoke(app, ["convert", str(ROOT / "samples"), str(archive)])
    assert result.exit_code == 0, result.output
    assert "record(s) that break a rule" in result.output and "unreadable record(s)" in result.output
    assert "skipped: " in result.output and "SCORE-MISMATCH" in result.output
    checked = runner.invoke(app, ["validate", "-q", str(archive)])
    assert checked.exit_code == 0, checked.output
    assert "0 error(s)" in checked.output


def test_convert_keep_invalid_archives_broken_records_as_written(tmp_path: Path) -> None:
    archive = tmp_path / "archive"
    source = ROOT / "samples" / "invalid" / "joffre"
    result = runner.invoke(app, ["convert", "--keep-invalid", str(source), str(archive)])
    assert result.exit_code == 0, result.output
    assert runner.invoke(app, ["validate", "-q", str(archive)]).exit_code == 1


def test_stats_of_record_files_counts_only_records_that_validate(tmp_path: Path) -> None:
    good, bad = generated(4, 1, deals=2), generated(4, 2, deals=3)
    bad["deals"][0]["result"]["scores"][0] += 10
    source = write_jsonl(tmp_path / "games.jsonl", [good, bad])
    result = runner.invoke(app, ["stats", str(source)])
    assert result.exit_code == 0, result.output
    assert "left out 1 record(s) that break a rule" in result.output
    games = result.output.split("Games")[1].split("Deals as recorded")[0]
    assert re.search(r"french-tarot\W+4\W+1\W+2\W", games), result.output  # 4 players: 1 game, 2 deals


# --- 4. help texts keep their brackets --------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "text"), [("validate", "recordkit[dask]"), ("stats", "recordkit[stats]")]
)
def test_help_shows_the_extras_in_brackets(command: str, text: str) -> None:
    """Rich markup once ate `[dask]`: "(needs recordkit)"."""
    result = runner.invoke(app, [command, "--help"])
    assert text in plain(result.output)


# --- 5. -o in our words -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("option", "said"),
    [
        ("misere=ture", "-o misere=ture: misere is true or false, not ture. Did you mean true?"),
        ("miser=true", "French Tarot has no option 'miser'. Did you mean misere?"),
        ("all_pass=goulsh", "all_pass is one of redeal, goulash, not goulsh. Did you mean goulash?"),
        ("defence_slam_bonus=-5", "defence_slam_bonus is a whole number, at least 0, not -5"),
        ("misere", "-o takes NAME=VALUE"),
    ],
)
def test_a_bad_generate_option_is_said_in_our_words(option: str, said: str) -> None:
    result = runner.invoke(app, ["generate", "french-tarot", "-o", option])
    assert result.exit_code == 2
    assert said in result.output
    assert "pydantic" not in result.output and "http" not in result.output


def test_a_bad_variant_names_the_values() -> None:
    result = runner.invoke(app, ["generate", "charlemagne", "--variant", "mane"])
    assert result.exit_code == 2
    assert "variant is one of standard, maine, not mane. Did you mean maine?" in result.output


# --- 6. --version and examples ----------------------------------------------------------------------


def test_version_comes_from_the_package_metadata() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.output.strip() == f"recordkit {metadata.version('recordkit')}"


def test_the_top_level_help_and_every_command_show_an_example() -> None:
    assert "Example: recordkit validate samples/" in plain(runner.invoke(app, ["--help"]).output)
    commands = typer.main.get_command(app).commands  # type: ignore[attr-defined]
    assert len(commands) >= 7
    for name in commands:
        shown = plain(runner.invoke(app, [name, "--help"]).output)
        assert re.search(rf"Examples?: recordkit {name} ", shown), name


# --- 7. progress ------------------------------------------------------------------------------------


def test_no_progress_when_standard_error_is_not_a_terminal(tmp_path: Path) -> None:
    """Piped, standard error has the summary line and nothing else."""
    source = write_jsonl(tmp_path / "games.jsonl", [generated(4, seed) for seed in range(3)])
    done = runner.invoke(app, ["validate", str(source)])
    assert done.exit_code == 0
    summary = r"1 file\(s\), 3 record\(s\), \d+ deal\(s\): 0 error\(s\), 0 warning\(s\)\n"
    assert re.fullmatch(summary, done.stderr)
    converted = runner.invoke(app, ["convert", str(source), str(tmp_path / "archive")])
    assert re.fullmatch(
        rf"wrote 3 record\(s\), \d+ deal\(s\) to {re.escape(str(tmp_path))}/archive\n", converted.stderr
    )
    generating = runner.invoke(
        app, ["generate", "joffre", "--records", "3", "--out", str(tmp_path / "g.jsonl")]
    )
    assert generating.stderr == f"wrote 3 record(s) to {tmp_path / 'g.jsonl'}\n"


def test_progress_shows_with_force_color(tmp_path: Path) -> None:
    """FORCE_COLOR=1 (rich's switch, in a real process) takes standard error for a terminal."""
    source = write_jsonl(tmp_path / "games.jsonl", [generated(4, seed) for seed in range(3)])
    shown = run("validate", str(source), env={"FORCE_COLOR": "1"})
    assert shown.returncode == 0
    assert "validating" in shown.stderr and "3/3" in shown.stderr and "left" in shown.stderr


def test_no_progress_with_quiet_even_on_a_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = write_jsonl(tmp_path / "games.jsonl", [generated(4, seed) for seed in range(3)])
    screen = io.StringIO()
    monkeypatch.setattr(cli, "err", Console(file=screen, force_terminal=True, width=120, highlight=False))
    assert runner.invoke(app, ["validate", "-q", str(source)]).exit_code == 0
    assert "validating" not in screen.getvalue() and "0 error(s)" in screen.getvalue()


@pytest.mark.parametrize(
    ("args", "what", "total"),
    [
        (["generate", "joffre", "--records", "4", "--out", "{tmp}/g.jsonl"], "generating", "4/4"),
        (["convert", "{tmp}/games.jsonl", "{tmp}/archive"], "converting", "/3"),
        (["validate", "{tmp}/games.jsonl"], "validating", "/3"),
    ],
)
def test_progress_on_a_terminal_has_a_total(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], what: str, total: str
) -> None:
    """Each long command draws its bar towards a known total (convert once showed `2304/?`)."""
    write_jsonl(tmp_path / "games.jsonl", [generated(4, seed) for seed in range(3)])
    screen = io.StringIO()
    monkeypatch.setattr(cli, "err", Console(file=screen, force_terminal=True, width=120, highlight=False))
    result = runner.invoke(app, [a.format(tmp=tmp_path) for a in args])
    assert result.exit_code == 0, result.output
    assert what in screen.getvalue() and total in screen.getvalue()


# --- 8. CI runs the gates -----------------------------------------------------------------------------


def stand_in_python(folder: Path, log: Path, failing: str | None) -> None:
    """A `python3` in `folder` that logs each command with the program that ran it, fails on the
    gate `failing`, and makes `-m venv DIR` a folder whose `bin/activate` puts its own logging
    `python` first on the PATH, as a real virtual environment would."""
    fail = f'[[ "$*" == "-m {failing}"* ]] && exit 1' if failing else ""
    body = f"""#!/usr/bin/env bash
echo "$0 $*" >> {shlex.quote(str(log))}
{fail}
if [[ "$1 $2" == "-m venv" ]]; then
  mkdir -p "$3/bin" && cp "$0" "$3/bin/python"
  echo 'export PATH="'"$3"'/bin:$PATH"' > "$3/bin/activate"
fi
exit 0
"""
    shim = folder / "python3"
    shim.write_text(body)
    shim.chmod(0o755)


@pytest.mark.parametrize("failing", [None, "ruff check", "ruff format", "mypy"])
def test_ci_runs_ruff_and_mypy_before_the_tests_in_its_own_environment(
    tmp_path: Path, failing: str | None
) -> None:
    """.ci/run with a stand-in python3 that logs each command: it makes a new virtual environment
    first, and the installs, the gates and pytest all run with that environment's python, never
    the machine's (which could hide a missing install); the gates run in order, a failing one
    stops the run before pytest, and pytest runs the thorough hypothesis profile."""
    log = tmp_path / "log"
    stand_in_python(tmp_path, log, failing)
    done = subprocess.run(
        ["bash", str(ROOT / ".ci" / "run")],
        env={**os.environ, "PATH": f"{tmp_path}:{os.environ['PATH']}", "TMPDIR": str(tmp_path)},
        capture_output=True,
        check=False,
    )
    calls = [line.split(" ", 1) for line in log.read_text().splitlines()]
    assert calls[0][0] == str(tmp_path / "python3") and calls[0][1].startswith("-m venv ")
    venv = Path(calls[0][1].split()[2])
    assert venv.is_relative_to(tmp_path), "the environment is made anew, in a fresh folder"
    assert all(program == str(venv / "bin" / "python") for program, _ in calls[1:])
    ran = [args.split()[1:3] for _, args in calls[1:] if args.startswith("-m ")]
    gates = [["ruff", "check"], ["ruff", "format"], ["mypy"], ["pytest"]]
    if failing is None:
        assert done.returncode == 0, done.stderr
        assert [r for r in ran if r[0] != "pip"] == gates
        assert ["pip", "install"] in ran[: ran.index(["ruff", "check"])]
    else:
        assert done.returncode != 0
        assert ["pytest"] not in ran


def test_ci_runs_the_readmes_test_command() -> None:
    """.ci/run installs and tests as the README tells a new user to (it adds the profile)."""
    readme = README.split("Run the tests", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0].strip()
    install, test = readme.split(" && ")
    run = (ROOT / ".ci" / "run").read_text()
    assert install.replace("pip", "python -m pip", 1) in run
    assert f"HYPOTHESIS_PROFILE=thorough {test}" in run


# --- 9. no stale text -------------------------------------------------------------------------------


def test_no_document_says_a_registered_game_is_not_replayed() -> None:
    documents = [ROOT / "README.md", *sorted((ROOT / "spec").rglob("*.md"))]
    for path in documents:
        text = " ".join(path.read_text().split())
        assert not re.search(r"not (yet )?replayed yet|not yet replayed", text), path


# --- 3 again: the README's commands, in order -----------------------------------------------------------


def readme_commands() -> list[list[str]]:
    """The `recordkit ...` lines of the README's "What it does" block, in order, comments off."""
    block = README.split("## What it does", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    return [
        shlex.split(line.split("  #")[0])[1:] for line in block.splitlines() if line.startswith("recordkit ")
    ]


def test_the_readme_commands_work_in_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """From a clone's root, each line of "What it does" works after those above it (the Dask one
    is left to tests/test_cluster.py, which starts clusters)."""
    (tmp_path / "samples").symlink_to(ROOT / "samples")
    (tmp_path / "spec").mkdir()
    monkeypatch.chdir(tmp_path)
    commands = readme_commands()
    assert len(commands) >= 12
    for args in commands:
        if "--scheduler" in args:
            continue
        if "--records" in args:  # 10 of the README's 100 games: the same commands, sooner
            args[args.index("--records") + 1] = "10"
        expected = 1 if args[:2] == ["validate", "samples/invalid/joffre"] else 0
        result = runner.invoke(app, args)
        assert result.exit_code == expected, (args, result.output[-2000:])
