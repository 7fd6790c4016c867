"""Bulk validation a batch at a time: parsed records proven by their games' columnar checks.

The bulk paths of `validate` (JSON lines, `.json` lists, the notation, imported logs, the
`--jobs` workers) hand `proven` batches of parsed records, about `validate.BATCH_DEALS` deals at a time.
Each record whose envelope and header the record path accepts and whose every deal is written in
its game's bare form (`Ruleset.written_form`) goes into that game's written columns
(`recordkit.rules.written_columns`, the rows an archive holds), and the game's columnar check
(`Ruleset.prove_columns`, the same one an archive's rows take) says which are clean, and which
deals of them its replay is wanted for only to write the note the record path writes of what
the record leaves out (`Proof.noted`). A record it does not prove, or of a game without columns,
takes the record path, which explains what is wrong; so the verdicts are the record path's, and
the tests hold the two to each other.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import orjson
import pyarrow as pa

from recordkit.games import RULESETS
from recordkit.limits import within_limits
from recordkit.quick import clean_header
from recordkit.raw import RawRecord
from recordkit.rules.columns import proof_of
from recordkit.rules.values import Table
from recordkit.rules.written_columns import WrittenColumns

Noted = tuple[tuple[int, int], ...]
"""The deals of a record proven clean but for each one's note, which its replay writes: each
deal's index and its note key (`Proof.noted`)."""


def proven(raws: Sequence[RawRecord], game: str | None = None) -> list[bool]:
    """Which of these parsed records the columnar checks prove clean (expecting `game` when
    given): the full validation would find nothing in them, not even a note."""
    return [proof == () for proof in proofs(raws, game)]


def proofs(raws: Sequence[RawRecord], game: str | None = None) -> list[Noted | None]:
    """What the columnar checks prove of each of these parsed records (expecting `game` when
    given): None when not proven, else the deals whose replay is wanted only for its note."""
    verdicts: list[Noted | None] = [None] * len(raws)
    by_game: dict[str, tuple[WrittenColumns, list[int]]] = {}
    for index, raw in enumerate(raws):
        data = raw.data
        if type(data) is not dict or type(data.get("deals")) is not list or not within_limits(data):
            continue
        header = clean_header(data, game)
        if header is None:
            continue
        ruleset, table = header
        if ruleset.name not in by_game:
            form = ruleset.written_form()
            if form is None:
                continue
            by_game[ruleset.name] = (WrittenColumns(form), [])
        columns, members = by_game[ruleset.name]
        if columns.add(len(members), table, canonical_options(table), data["deals"]):
            members.append(index)
    for name, (columns, members) in by_game.items():
        if not members:
            continue
        rows = columns.rows()
        try:
            found = RULESETS[name].prove_columns(rows)
        except (pa.ArrowException, ValueError, TypeError, KeyError, IndexError, OverflowError):
            continue  # rows no check expects: every record of the batch takes the record path
        if found is not None:
            proof = proof_of(found, rows)
            starts = np.cumsum([0, *columns.deal_counts])
            for member, (index, clean) in enumerate(zip(members, proof.games, strict=True)):
                if clean:
                    keys = proof.noted[starts[member] : starts[member + 1]]
                    verdicts[index] = tuple((int(deal), int(keys[deal])) for deal in np.flatnonzero(keys))
    return verdicts


def canonical_options(table: Table) -> str:
    """A record's options as canonical JSON (every option written), as the games rows hold them."""
    options: Any = table.options
    return orjson.dumps(options.model_dump(mode="json")).decode()
