"""Seeded mutations of TarotClub logs written from generated deals (issue 33): whatever a log
holds, reading it gives a deal or a diagnostic at its file, validating what it gives raises
nothing, and `import` and `validate --from` exit 0, 1 or 2 with the other logs still read.

Each mutant is drawn from a seed: a log as TarotClub writes it (tests/tarotclub_logs.py), bare
or in an EndOfDeal message, with one to three of its values replaced (a hostile value: nesting
up to orjson's 1,024 levels, numbers past 64 bits or the record's limits, long texts, decks of
more cards than a deck), deleted or doubled, or a deck's cards shuffled, cut or one replaced
by another card, then its text possibly cut, a byte flipped, a byte-order mark or a trailing
comma added.
"""

from __future__ import annotations

import copy
import random
import re
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

import orjson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from recordkit.cli import app
from recordkit.diagnostics import Diagnostic
from recordkit.importers.tarotclub import Imported, log_records, read_log, records
from recordkit.validate import Settings, validate_items
from tests.budget import examples
from tests.helpers import generated
from tests.tarotclub_logs import tarotclub_log
from tests.test_fuzz_records import damaged, places

runner = CliRunner()
DATA = Path(__file__).parent / "data" / "tarotclub"
GOOD = DATA / "real" / "01-T_lasttrickbydefense_game_lost.json"
HOSTILE: list[Any] = [
    None,
    True,
    0,
    -1,
    4,
    92,
    255,
    10**9 + 1,
    -(10**10),
    "@huge@",
    1e300,
    "",
    ";",
    "x" * 20_000,
    "15-D",
    "00-T;21-T;01-T",
    ";".join(["01-S"] * 101),
    ";".join(f"{v:02d}-T" for v in range(22)) * 4,
    "South",
    "Fifth",
    "Guard against",
    "Pass",
    "3",
    "2.0",
    [],
    {},
    ["14-H;00-T"],
    {"deal": {}},
    "@deep@",
]
REAL = ("tarotmag_17.json", "maximum_points.json", "slam_not_announed_by_defense.json")
"""Real logs of TarotClub's tests with a score object, a slam and a poignée among them."""
CARDS = [f"{value:02d}-{suit}" for suit in "SHDC" for value in range(1, 15)] + [
    f"{value:02d}-T" for value in range(22)
]
"""Every card as TarotClub names it."""
HUGE = [b"18446744073709551616", b"-9223372036854775809", b"1e400"]


@cache
def logs() -> list[dict[str, Any]]:
    """Logs of the played deals of a few generated records, at three and four players, as
    TarotClub writes them, and the logs stored for the import's tests (real ones, and EndOfDeal
    messages, which state the attack's points and bouts)."""
    found = [orjson.loads(path.read_bytes()) for path in sorted((DATA / "generated").glob("*.json"))]
    found += [orjson.loads((DATA / "real" / name).read_bytes()) for name in REAL]
    for players, seed in ((3, 1), (4, 2), (4, 5)):
        for deal in generated(players, seed, deals=4)["deals"]:
            if deal["status"] == "played" and any(call != "pass" for call in deal["auction"]):
                found.append(tarotclub_log(deal, players))
    return found


def mutant(seed: int) -> bytes:
    """One damaged log, the same for the same seed."""
    chance = random.Random(seed)
    log = orjson.loads(orjson.dumps(chance.choice(logs())))
    for _ in range(chance.randint(1, 3)):
        container, key = chance.choice(places(log))
        kind = chance.randrange(6)
        value = container[key]
        if kind == 0 and isinstance(container, dict):
            del container[key]
        elif kind == 1 and isinstance(container, list):
            container.append(value)
        elif kind == 2 and isinstance(value, str) and ";" in value:
            cards = value.split(";")
            chance.shuffle(cards)
            container[key] = ";".join(cards[: chance.randint(0, len(cards))])
        elif kind == 3 and isinstance(value, str) and ";" in value:
            cards = value.split(";")
            cards[chance.randrange(len(cards))] = chance.choice(CARDS)
            container[key] = ";".join(cards)
        elif kind >= 4:
            container[key] = copy.deepcopy(chance.choice(HOSTILE))
    depth = chance.randint(250, 1_030)
    text = orjson.dumps(log).replace(b'"@deep@"', b"[" * depth + b"]" * depth)
    text = text.replace(b'"@huge@"', chance.choice(HUGE))
    damage = chance.randrange(12)
    if damage in (0, 1, 2):
        text = damaged(text, damage, chance)
    elif damage == 3:
        text = text.replace(b"}", b",}", 1)
    return text


def escaped(result: Any) -> bool:
    """Whether a command run in-process let an exception out."""
    return result.exception is not None and not isinstance(result.exception, SystemExit)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32))
def test_no_mutant_log_escapes_reading_or_validation(seed: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "log.json"
        path.write_bytes(mutant(seed))
        found = read_log(path)
        assert isinstance(found, (Imported, Diagnostic))
        if isinstance(found, Diagnostic):
            assert found.location.file == str(path) and found.unusable, found
        read = list(records([path, GOOD]))
        assert sum(not isinstance(item, Diagnostic) for item in read) >= 1  # the good log at least
        for report in validate_items(log_records([path, GOOD]), Settings(), findings_only=True):
            assert report is not None


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32))
def test_no_mutant_log_escapes_the_commands(seed: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "log.json"
        path.write_bytes(mutant(seed))
        for command in (
            ["import", "tarotclub", str(path), str(GOOD), "--out", str(Path(folder) / "out.json")],
            ["validate", "--from", "tarotclub", str(path), str(GOOD)],
        ):
            result = runner.invoke(app, command)
            assert not escaped(result), f"seed {seed}, {command[0]}: {result.exception!r}"
            assert result.exit_code in (0, 1, 2) and "Traceback" not in result.output
            assert re.search(r"read [12] tarotclub log\(s\)|2 file\(s\), [12] record\(s\)", result.output)
