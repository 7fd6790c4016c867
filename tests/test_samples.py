"""The bundled samples: valid games replay clean; each invalid file raises exactly the code in its name."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from recordkit.codec import dumps, loads
from recordkit.reading import read_records
from recordkit.sources import RawRecord
from tests.helpers import file_codes

SAMPLES = Path(__file__).parent.parent / "samples"
VALID = sorted(p for p in SAMPLES.rglob("*") if p.suffix in (".json", ".jsonl") and "invalid" not in p.parts)
INVALID = sorted(p for p in (SAMPLES / "invalid").rglob("*") if p.suffix in (".json", ".jsonl"))


def expected_code(path: Path) -> str:
    """`TAROT-REVOKE.json` and `TAROT-REVOKE--second-case.json` both expect TAROT-REVOKE."""
    return path.stem.split("--")[0]


def test_there_are_samples_of_both_kinds() -> None:
    assert VALID and INVALID


@pytest.mark.parametrize("path", VALID, ids=lambda p: str(p.relative_to(SAMPLES)))
def test_valid_sample_replays_clean(path: Path) -> None:
    assert file_codes(path) == set()


@pytest.mark.parametrize("path", VALID, ids=lambda p: str(p.relative_to(SAMPLES)))
def test_valid_sample_round_trips_exactly(path: Path) -> None:
    """parse(write(r)) == r for every hand-typed record, and the canonical text is stable."""
    for raw in read_records(path):
        assert isinstance(raw, RawRecord)
        record = loads(dumps(loads(_json(raw))))
        assert loads(dumps(record)) == record
        assert dumps(loads(dumps(record, indent=True))) == dumps(record)


@pytest.mark.parametrize("path", INVALID, ids=lambda p: str(p.relative_to(SAMPLES)))
def test_invalid_sample_raises_exactly_its_code(path: Path) -> None:
    assert file_codes(path) == {expected_code(path)}


def _json(raw: RawRecord) -> bytes:
    return orjson.dumps(raw.data)
