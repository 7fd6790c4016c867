"""What a command imports at start-up: the command line, `--help` and `validate` of one game's
records import neither the archives' libraries (pyarrow, NumPy, DuckDB, Dask) nor the other
games' rulesets, and `import recordkit` imports its names on first use (issue 19, start-up)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import recordkit
from recordkit.games import GAMES, RULESETS, ruleset_for

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("pyarrow", "numpy", "duckdb", "dask", "distributed")
"""The optional libraries of archives, stats and clusters, which only their commands import."""
RULESET_PACKAGES = {name: package for name, (package, _cls) in GAMES.items()}

RUN_CLI = """
import json, sys
from recordkit.cli import main
sys.argv = ["recordkit", *sys.argv[1:]]
try:
    main()
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""


def modules_after(code: str, *args: str) -> set[str]:
    """The modules imported by running `code` (which prints them last on stderr) in a fresh
    interpreter, with this checkout's recordkit."""
    done = subprocess.run(
        [sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return set(json.loads(done.stderr.strip().splitlines()[-1]))


def rulesets_in(modules: set[str]) -> set[str]:
    """The games whose ruleset package is among `modules`."""
    return {name for name, package in RULESET_PACKAGES.items() if package in modules}


def test_importing_the_command_line_imports_no_heavy_library_and_no_ruleset() -> None:
    modules = modules_after(
        "import json, sys, recordkit.cli; print(json.dumps(sorted(sys.modules)), file=sys.stderr)"
    )
    assert not modules & {*HEAVY, "pydantic"}
    assert rulesets_in(modules) == set()


@pytest.mark.parametrize("flag", ["--help", "--version"])
def test_help_and_version_import_no_record_model(flag: str) -> None:
    """`--help` and `--version` need neither pydantic's record models nor any ruleset."""
    modules = modules_after(RUN_CLI, flag)
    assert "recordkit.model" not in modules and not modules & set(HEAVY)
    assert rulesets_in(modules) == set()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_validate_imports_only_the_ruleset_of_the_records_game(game: str, tmp_path: Path) -> None:
    """Validating records of one game imports that game's ruleset, no other, and no heavy library."""
    from recordkit.codec import dumps
    from recordkit.generate import generate_record

    ruleset = RULESETS[game]
    path = tmp_path / "one.jsonl"
    path.write_text(dumps(generate_record(ruleset, ruleset.player_counts[-1], 2, 5)) + "\n")
    modules = modules_after(RUN_CLI, "validate", str(path), "-q")
    assert not modules & set(HEAVY)
    assert rulesets_in(modules) == {game}


def test_import_recordkit_imports_none_of_its_modules() -> None:
    modules = modules_after(
        "import json, sys, recordkit; print(json.dumps(sorted(sys.modules)), file=sys.stderr)"
    )
    assert {m for m in modules if m.startswith("recordkit.")} == set()


def test_the_validate_function_is_not_replaced_by_the_submodule_of_its_name() -> None:
    """`recordkit.validate` is the function, also after `recordkit.validate` (the module) is imported."""
    code = (
        "import recordkit, recordkit.validate, recordkit.cli, sys\n"
        "record = recordkit.load('samples/french-tarot/club-evening-4p.json')\n"
        "print(callable(recordkit.validate), recordkit.validate(record), file=sys.stderr)"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stderr.split() == ["True", "[]"]


@pytest.mark.parametrize("name", sorted(set(recordkit.__all__) | set(recordkit._LAZY)))
def test_every_public_name_resolves_to_its_modules_object(name: str) -> None:
    """Each name of the package is there (imported on first use), and in `dir(recordkit)`."""
    value = getattr(recordkit, name)
    module = recordkit._LAZY.get(name)
    if module is not None:
        assert value is getattr(sys.modules[f"recordkit.{module}"], name)
    assert name in dir(recordkit)


def test_an_unknown_name_of_the_package_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        _ = recordkit.nothing  # type: ignore[attr-defined]


def test_the_registry_names_each_ruleset_by_its_game_and_makes_it_once() -> None:
    """A game's entry makes the ruleset of that name, the same one on every access, in the
    order the games are listed; an unknown game has none."""
    assert list(RULESETS) == list(GAMES) and len(RULESETS) == len(GAMES)
    for name, ruleset in RULESETS.items():
        assert ruleset.name == name
        assert RULESETS[name] is ruleset is ruleset_for(name)
    assert "whist" not in RULESETS and ruleset_for("whist") is None
    with pytest.raises(KeyError):
        RULESETS["whist"]


def test_listing_the_games_imports_no_ruleset() -> None:
    """The names of the games (an unknown game's message lists them) are known without importing
    any ruleset."""
    modules = modules_after(
        "import json, sys\nfrom recordkit.games import RULESETS\n"
        "assert 'joffre' in RULESETS and ', '.join(RULESETS)\n"
        "print(json.dumps(sorted(sys.modules)), file=sys.stderr)"
    )
    assert rulesets_in(modules) == set()
