"""The test environment is the one the project's files describe: the style gates at their pinned
versions, and under CI the virtual environment `.ci/run` made, not the machine's own Python."""

from __future__ import annotations

import os
import re
import sys
import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
TEST_EXTRA = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["test"]


def pinned(name: str) -> str | None:
    """The exact version the test extra pins `name` to, or None when it gives a range."""
    for requirement in TEST_EXTRA:
        found = re.fullmatch(rf"{name}\s*==\s*([\w.]+)", requirement)
        if found:
            return found.group(1)
    return None


@pytest.mark.parametrize("gate", ["ruff", "mypy"])
def test_each_style_gate_is_pinned_and_installed_at_its_pin(gate: str) -> None:
    """A gate at a range would take whatever release came out last; a fresh clone must see the
    findings main was checked against (mypy 2.4 once turned every fresh clone red)."""
    assert pinned(gate) is not None, f"{gate} is not pinned to one version in the test extra"
    assert version(gate) == pinned(gate), (
        f"{gate} {version(gate)} is installed, the test extra pins {pinned(gate)}"
    )


@pytest.mark.skipif(os.environ.get("CI") != "true", reason="CI=true only: .ci/run's own environment")
def test_ci_runs_in_the_environment_it_made() -> None:
    """Under CI the tests run in the virtual environment `.ci/run` made for this run, so nothing
    left installed on the machine can stand in for a missing install."""
    made = os.environ.get("RECORDKIT_CI_VENV")
    assert made, "CI ran the tests without .ci/run's own environment"
    assert sys.prefix != sys.base_prefix
    assert Path(sys.prefix).resolve() == Path(made).resolve()
