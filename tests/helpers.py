"""Shared test helpers: validate JSON values or files and look at the codes they raise."""

from __future__ import annotations

import copy
import hashlib
import shutil
from pathlib import Path
from typing import Any

import orjson

from recordkit.batch import proven
from recordkit.diagnostics import Diagnostic, Location, Severity
from recordkit.games import RULESETS
from recordkit.generate import generate_record
from recordkit.model import to_data
from recordkit.quick import clean_deals
from recordkit.sources import RawRecord
from recordkit.validate import RecordReport, Settings, validate_paths, validate_record

TAROT = RULESETS["french-tarot"]


def diagnostics_of(data: Any, strict: bool = True) -> list[Diagnostic]:
    """Every diagnostic of one record given as a JSON value.

    Every record a test validates also goes through the fast path and the columns (`recordkit.batch`),
    which must never accept a record that the full replay finds anything in (nor change the record)."""
    before = copy.deepcopy(data)
    quick = clean_deals(data)
    columns = proven([RawRecord(data, Location())])[0]
    assert data == before, "the fast path or the columns changed the record"
    found = validate_record(RawRecord(data, Location()), Settings(strict=strict)).diagnostics
    notes_only = all(d.severity == Severity.INFO and d.code == "DEAL-NOT-CHECKED" for d in found)
    assert quick is None or notes_only, f"the fast path accepted a record with {found[:3]}"
    assert not columns or not found, f"the columns proved a record with {found[:3]}"
    return found


def codes_of(data: Any, strict: bool = True) -> list[str]:
    """The codes of every diagnostic of one record, in order."""
    return [d.code for d in diagnostics_of(data, strict)]


def file_codes(path: Path, strict: bool = True) -> set[str]:
    """The codes of the errors and warnings raised by every record of a file (the same with and
    without the fast path); notes of what a partial record leaves unchecked are not findings."""
    codes: set[str] = set()
    full = list(validate_paths([str(path)], Settings(strict=strict)))
    fast = list(validate_paths([str(path)], Settings(strict=strict), findings_only=True))
    assert [_found(item) for item in fast] == [_found(item) for item in full]
    for item in full:
        codes |= {d.code for d in _found(item) if d.severity != Severity.INFO}
    return codes


def _found(item: RecordReport | Diagnostic) -> list[Diagnostic]:
    return [item] if isinstance(item, Diagnostic) else item.diagnostics


def generated(
    players: int, seed: int, deals: int = 3, options: dict[str, Any] | None = None
) -> dict[str, Any]:
    """A generated French Tarot record as a canonical JSON value (a fresh copy each time)."""
    record = generate_record(TAROT, players, deals, seed, options, player="random")
    return copy.deepcopy(orjson.loads(orjson.dumps(to_data(record))))


def bump_score(data: dict[str, Any], deal: int, seat: int, delta: int) -> None:
    """Change one written score and carry the change into the running totals, so only the score is wrong."""
    data["deals"][deal]["result"]["scores"][seat] += delta
    for later in data["deals"][deal:]:
        later["totals"][seat] += delta


Swap = tuple[int, int, int, str, str, tuple[int, int]]
"""A card a player could not legally play: (deal, trick, position, that card, the card he played
there, (trick, position) where he played that card later)."""


def put_card(tricks: list[str], trick: int, position: int, code: str) -> None:
    """Write `code` at a place of the tricks (written as strings)."""
    cards = tricks[trick].split()
    cards[position] = code
    tricks[trick] = " ".join(cards)


def swap_in(record: dict[str, Any], swap: Swap) -> None:
    """Play the illegal card where it was illegal and the card played there in its later place."""
    deal_index, trick, position, illegal, original, (later_trick, later_position) = swap
    tricks = record["deals"][deal_index]["tricks"]
    put_card(tricks, trick, position, illegal)
    put_card(tricks, later_trick, later_position, original)


def reported_at_swap(record: dict[str, Any], swap: Swap) -> list[Diagnostic]:
    """Swap the illegal card in and return what the validator reports at its place."""
    swap_in(record, swap)
    deal_index, trick, position = swap[:3]
    place = (deal_index + 1, trick + 1, position + 1)
    return [
        d for d in diagnostics_of(record) if (d.location.deal, d.location.trick, d.location.position) == place
    ]


def flat_archive(archive: Path, version: int) -> None:
    """Lay a one-game archive out as recordkit wrote it before version 4 (`<table>/part-NNNNN.parquet`,
    the files holding the `game` column) and give its manifest `version`."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    manifest = orjson.loads((archive / "_recordkit.json").read_bytes())
    checksums: dict[str, dict[str, str]] = {}
    for part, games in manifest.pop("contents").items():
        (game,) = games
        for table in ("games", "deals", "calls", "plays", "scores"):
            folder = archive / table / f"game={game}"
            rows = pq.read_table(folder / f"{part}.parquet")
            if table in ("games", "deals"):
                rows = rows.add_column(1, "game", pa.array([game] * rows.num_rows, pa.string()))
            pq.write_table(rows, archive / table / f"{part}.parquet")
            (folder / f"{part}.parquet").unlink()
            folder.rmdir()
            digest = hashlib.sha256((archive / table / f"{part}.parquet").read_bytes()).hexdigest()
            checksums.setdefault(part, {})[table] = digest
    shutil.rmtree(archive / "tricks")  # a table of version 4
    manifest.update(version=version, checksums=checksums)
    (archive / "_recordkit.json").write_bytes(orjson.dumps(manifest))
