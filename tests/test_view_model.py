"""The replay model (`recordkit.view.model`): its running points are the rules' count in every
deal of generated games of every game and of the samples; groups, sheets and diagnostics."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recordkit.diagnostics import Location
from recordkit.games import RULESETS
from recordkit.generate import generate_record
from recordkit.model import to_data
from recordkit.reading import read_records
from recordkit.sources import RawRecord, parsed
from recordkit.validate import RecordReport, Settings, validate_record
from recordkit.view.model import record_model
from tests.budget import examples

SAMPLES = sorted(p for p in Path("samples").rglob("*.json*") if "invalid" not in p.parts)


def _report(data: Any) -> RecordReport:
    """The full validation of one record given as a JSON value (with its replays)."""
    return validate_record(RawRecord(data, Location()), Settings(strict=False))


def _check_points(report: RecordReport, written: Any) -> int:
    """Each deal's running points in the model equal the rules' count: the running sum of
    `Ruleset.trick_shares` trick by trick (and so of `deal_shares`, which the model uses); the
    side totals are the seats' by `declaring_side`. Returns the tricks checked."""
    assert report.record is not None
    model = record_model(report, written)
    ruleset = RULESETS[report.record.game]
    table, _ = ruleset.table(report.record.options, len(report.record.players))
    assert table is not None
    checked = 0
    for deal, replayed in zip(model["deals"], report.replays, strict=True):
        if deal["kind"] != "played":
            assert replayed is None or replayed.state is None
            continue
        assert replayed is not None
        state = replayed.state
        assert state is not None
        running: list[int | float] = [0] * table.players
        for number, trick in enumerate(deal["tricks"], start=1):
            played = state.tricks[number - 1]
            assert [c["code"] for c in trick["cards"]] == [table.deck.codes[c] for c in played.cards]
            assert trick["winner"] == played.winner
            checked += 1
            shares = ruleset.trick_shares(table, state, number)
            if shares is None:
                assert trick["running"] is None
                continue
            running = [a + b for a, b in zip(running, shares, strict=True)]
            assert trick["running"] == running, (deal["number"], number)
            side = ruleset.declaring_side(table, state)
            if side is not None:
                ours = sum(p for p, s in zip(running, side, strict=True) if s)
                assert trick["running_sides"] == {"declarer": ours, "others": sum(running) - ours}
    return checked


GAMES = [(name, count) for name, ruleset in RULESETS.items() for count in ruleset.player_counts]


@settings(max_examples=examples(12), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(GAMES), st.integers(0, 10_000), st.sampled_from(["full", "tricks"]))
def test_running_points_are_the_rules_count_in_generated_games(
    game: tuple[str, int], seed: int, form: str
) -> None:
    name, players = game
    record = generate_record(RULESETS[name], players, 2, seed, form=form, player="random")  # type: ignore[arg-type]
    data = orjson.loads(orjson.dumps(to_data(record)))
    _check_points(_report(data), data)


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_every_game_has_its_tricks_in_the_model(name: str) -> None:
    ruleset = RULESETS[name]
    record = generate_record(ruleset, ruleset.player_counts[-1], 2, 3)
    data = orjson.loads(orjson.dumps(to_data(record)))
    assert _check_points(_report(data), data) > 0


def test_running_points_are_the_rules_count_in_the_samples() -> None:
    checked = 0
    for path in SAMPLES:
        for raw in read_records(path):
            item = parsed(raw)
            if not isinstance(item, RawRecord):
                continue
            report = validate_record(item, Settings(strict=False))
            if report.record is not None:
                checked += _check_points(report, item.data)
    assert checked > 100


def _sample(path: str, deal: int = 0) -> dict[str, Any]:
    item = parsed(next(iter(read_records(Path(path)))))
    assert isinstance(item, RawRecord)
    return record_model(validate_record(item, Settings(strict=False)), item.data)["deals"][deal]  # type: ignore[no-any-return]


def test_excuse_stays_with_its_side() -> None:
    """Deal 1 of the club evening: the taker ends at 42 with his discard (down by 9), as the rules
    count it, and the working says so."""
    deal = _sample("samples/french-tarot/club-evening-4p.json")
    assert deal["summary"]["declarer_points"] == 42
    assert deal["summary"]["margin"] == -9
    assert ("multiplier", 1) in [tuple(step) for step in deal["working"]]
    assert [g["path"] for g in deal["groups"]][-2:] == ["dog", "discard"]


def test_derived_groups_are_marked_and_sheets_are_sheets() -> None:
    deal = _sample("samples/french-tarot/tricks-only-magazine.json")
    assert all(group["derived"] for group in deal["groups"])
    assert len(deal["tricks"][0]["hands"]) == 4
    sheet = _sample("samples/french-tarot/score-sheet-evening.json")
    assert sheet["kind"] == "sheet" and "tricks" not in sheet and sheet["scores"]["rules"] is not None


def test_a_diagnostic_is_pinned_to_its_card() -> None:
    path = Path("samples/invalid/french-tarot/TAROT-DISCARD-KING.json")
    item = parsed(next(iter(read_records(path))))
    assert isinstance(item, RawRecord)
    model = record_model(validate_record(item, Settings(strict=False)), item.data)
    pins = {(d["code"], d["pin"]) for deal in model["deals"] for d in deal["diagnostics"]}
    assert ("TAROT-DISCARD-KING", "call") in pins
    orjson.dumps(model)  # JSON-able throughout
