"""The notation reader's fast path (spec/NOTATION.md, "Speed"): the lines of canonical text it reads
at once are read exactly as the general path reads them, data, places and findings alike, and what
it does not read falls through to the general path, never to a traceback."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recordkit.codec import dumps
from recordkit.games import RULESETS
from recordkit.generate import generate_record
from recordkit.notation import read
from recordkit.notation.read import TextRecord, read_text
from tests.budget import examples

SAMPLES = Path(__file__).parent.parent / "samples"


def _read(text: str) -> list[tuple[Any, ...]]:
    """What the reader gives for a text: each record's data, places (listed ones too) and findings."""
    return [_seen(item) for item in read_text(text)]


def _seen(item: TextRecord) -> tuple[Any, ...]:
    """One record as read, with every place the map holds."""
    return item.data, dict(item.places), item.places.items_of, item.notes, item.line


def _general(text: str, monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    """The same text read with no canonical card codes known: every line the general way."""
    with monkeypatch.context() as patch:
        patch.setattr(read, "canonical_codes", lambda game: frozenset())
        return _read(text)


@settings(
    max_examples=examples(30),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(st.sampled_from(sorted(RULESETS)), st.sampled_from(("full", "tricks", "sheet")), st.integers(0, 2**31))
def test_canonical_text_reads_the_same_both_ways(
    monkeypatch: pytest.MonkeyPatch, name: str, form: str, seed: int
) -> None:
    ruleset = RULESETS[name]
    players = ruleset.player_counts[seed % len(ruleset.player_counts)]
    record = generate_record(ruleset, players, 3, seed, form=form, player="random")  # type: ignore[arg-type]
    text = dumps(record, form="text")
    assert _read(text) == _general(text, monkeypatch)


@pytest.mark.parametrize("path", sorted((SAMPLES / "text").rglob("*.rkn")), ids=lambda p: p.name)
def test_the_text_samples_read_the_same_both_ways(monkeypatch: pytest.MonkeyPatch, path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert _read(text) == _general(text, monkeypatch)


TAROT = '[Game "french-tarot"]\n[Players a b c d]\ndeal 1 dealer 0\n'
JOFFRE = '[Game "joffre"]\n[Players a b c d]\ndeal 1 dealer 0\n'


@pytest.mark.parametrize(
    "text",
    [
        JOFFRE + "auction pass 4@1 pass pass\n",  # a call with its seat
        TAROT + "scores +5 1_000 007 ٣\n",  # numbers int() takes but the notation does not
        TAROT + "hand ² S1\ndealer ²\n",  # a digit int() does not read
        TAROT + "hand 00 S1 S2\nhand 9 S3\n",  # a seat written twice over, a seat not at the table
        TAROT + "DEALER 2\nCALL SK\ncontract garde taker 0\n",  # keywords in capitals, two statements
        TAROT + "S1 S2  S3 S4\n S5 S6 S7 S8\nST S2 S3 S4\n",  # spaces, a tarot T for ten
        TAROT + "deal 3 dealer 1\ndeal 3 dealer x\n",  # deal numbers out of order
        JOFFRE + 'trump "F"\nstatus = "played"\nE0 E1 E2 E3 "a comment"\n',
    ],
)
def test_lines_off_the_canonical_form_read_the_same_both_ways(
    monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    assert _read(text) == _general(text, monkeypatch)


@pytest.mark.parametrize(
    ("written", "code"),
    [
        ("tricks = 5\nS1 S2 S3 S4\n", "NOTATION-VALUE"),
        ("hands = 3\nhand 0 S1 S2\n", "NOTATION-VALUE"),
        ("result = 4\nscores 1 2 3 4\n", "NOTATION-VALUE"),
    ],
)
def test_a_json_value_that_is_not_a_list_takes_no_more_lines(
    monkeypatch: pytest.MonkeyPatch, written: str, code: str
) -> None:
    """`tricks = 5` then a trick is a diagnostic at the trick's line, both ways, not a traceback."""
    text = TAROT + written
    (item,) = read_text(text)
    assert [(n.code, n.location.line) for n in item.notes] == [(code, 5)]
    assert _read(text) == _general(text, monkeypatch)
