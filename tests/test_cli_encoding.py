"""A console that cannot show a player's name still gets the whole output, never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import orjson

from recordkit.codec import dumps
from recordkit.games import RULESETS
from recordkit.generate import generate_record


def test_names_outside_the_console_encoding_are_escaped(tmp_path: Path) -> None:
    """`replay` and `validate` of a record whose players are named in other scripts, on an ASCII
    console: exit 0, the names written as escapes."""
    record = orjson.loads(dumps(generate_record(RULESETS["joffre"], 4, deals=1, seed=3, player="random")))
    record["players"] = ["Zoé", "Ævar", "Jürgen", "李"]
    path = tmp_path / "names.json"
    path.write_bytes(orjson.dumps(record))
    environment = {**os.environ, "PYTHONIOENCODING": "ascii", "NO_COLOR": "1"}
    shown = {}
    for command in ("replay", "validate"):
        done = subprocess.run(
            [sys.executable, "-m", "recordkit", command, str(path)],
            capture_output=True,
            env=environment,
            check=False,
        )
        assert done.returncode == 0, done.stderr.decode()
        assert b"Traceback" not in done.stderr
        shown[command] = done.stdout
    assert b"Zo\\xe9" in shown["replay"]
