"""JSON Schema of the record format, generated from the models: one file per game and version."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from recordkit.games import RULESETS
from recordkit.model import FORMAT_MAJOR
from recordkit.sources import write_atomic


def record_schema(game: str) -> dict[str, Any]:
    """The JSON Schema of a game's records (input form: compact and object forms both accepted)."""
    ruleset = RULESETS[game]
    schema = ruleset.Record.model_json_schema()
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"recordkit/{game}.v{FORMAT_MAJOR}.schema.json",
        **schema,
    }


def schema_text(game: str) -> str:
    """The schema as the checked-in file holds it."""
    return json.dumps(record_schema(game), indent=2, ensure_ascii=False, sort_keys=False) + "\n"


def schema_files() -> dict[str, str]:
    """File name -> content for every game's schema."""
    return {f"{game}.v{FORMAT_MAJOR}.schema.json": schema_text(game) for game in RULESETS}


def write_schemas(directory: Path) -> list[Path]:
    """Write every game's schema into `directory`."""
    written = []
    for name, text in schema_files().items():
        path = directory / name
        write_atomic(path, text.encode())
        written.append(path)
    return written
