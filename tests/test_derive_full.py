"""The full replay of a partial deal tries the game's fast derivation first (format.partial).

`engine.replay_deal` replays a deal that leaves dealt cards out with the groups the game's
`Ruleset.quick_completed` guesses, and keeps that replay when it proves the guess (every card
held by the seat the rules make play it, nothing else found); otherwise `derive` replays the deal
with blank hands, as it always did, and the guess's replay is reused when the two completions
agree. Either way the report must be the one the derivation alone gives: these tests hold it to
that path (`_derived_replay`, the engine before the guess) on generated partial records, whole
and after one corruption of their tricks, and say when the blank replay is spared.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from recordkit import engine, hints
from recordkit.derive import derive
from recordkit.diagnostics import Location
from recordkit.engine import DealReplay, replay_completed
from recordkit.games import RULESETS
from recordkit.generate import generate_record
from recordkit.model import to_data
from recordkit.raw import RawRecord
from recordkit.rules.base import Ruleset
from recordkit.rules.values import Table
from recordkit.validate import RecordReport, Settings, validate_record
from tests.test_properties import PROPERTY, games, play


def _derived_replay(
    ruleset: Ruleset[Any, Any, Any],
    table: Table,
    deal: Any,
    before: Any = None,
    sheets: bool = True,
    data: Any = None,
) -> DealReplay:
    """A deal's replay by the full derivation alone (the blank replay, then the completed deal's)."""
    if sheets and ruleset.is_sheet(deal):
        return engine.replay_sheet(ruleset, table, deal, before)
    completion, problems = derive(ruleset, table, deal)
    if problems:
        return DealReplay(None, problems)
    return replay_completed(ruleset, table, deal, completion, before)


VALIDATE = importlib.import_module("recordkit.validate")
"""The module (the package exports a function of its name)."""


@contextmanager
def _derivation_only() -> Iterator[None]:
    """Validation as it was before the guess: every partial deal through `_derived_replay`."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(VALIDATE, "replay_deal", _derived_replay)
        patch.setattr(hints, "replay_deal", _derived_replay)
        yield


def _partial(ruleset: Ruleset[Any, Any, Any], record: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The record with each deal in its tricks-only form, or with only some of its hands."""
    table, _ = ruleset.table(
        ruleset.Options.model_validate(record.get("options", {})), len(record["players"])
    )
    for deal in record["deals"]:
        model = ruleset.Deal.model_validate(deal)
        if rng.random() < 0.7 or type(deal.get("hands")) is not list:
            forgotten = ruleset.forget(table, model).model_dump(mode="json", exclude_none=True)
            deal.clear()
            deal.update(forgotten)
        else:
            deal["hands"] = [None if rng.random() < 0.5 else hand for hand in deal["hands"]]
    return record


CORRUPTIONS = ("move", "duplicate", "drop", "swap", "none")
"""One change to a deal's tricks: a card moved to another trick (and one back), a card written
over with another one played, a card dropped (a trick too short), two cards of a trick swapped
(who played what changes), or nothing."""


def _corrupt(deal: dict[str, Any], kind: str, rng: random.Random) -> None:
    """One corruption of the deal's tricks written as strings (others are left alone)."""
    tricks = deal.get("tricks") or []
    if kind == "none" or len(tricks) < 2 or not all(type(trick) is str and trick for trick in tricks):
        return
    cards = [trick.split() for trick in tricks]
    a, b = rng.sample(range(len(cards)), 2)
    i, j = rng.randrange(len(cards[a])), rng.randrange(len(cards[b]))
    if kind == "move":
        cards[a][i], cards[b][j] = cards[b][j], cards[a][i]
    elif kind == "duplicate":
        cards[a][i] = cards[b][j]
    elif kind == "drop":
        del cards[a][i]
    elif len(cards[a]) > 1:
        k = (i + 1) % len(cards[a])
        cards[a][i], cards[a][k] = cards[a][k], cards[a][i]
    deal["tricks"] = [" ".join(trick) for trick in cards]


def _summary(report: RecordReport) -> Any:
    """All a report says, and each deal's replay: findings, scores, actions and completion."""
    replays = [
        None
        if replay is None
        else (
            replay.replayed,
            replay.violations,
            replay.scores,
            [(a.kind, a.value, a.seat) for a in replay.actions],
            None
            if replay.completion is None
            else (
                replay.completion.deal,
                replay.completion.derived,
                list(replay.completion.unchecked.items()),
                replay.completion.played_twice,
            ),
        )
        for replay in report.replays
    ]
    return report.diagnostics, replays


@PROPERTY
@given(games, st.sampled_from(CORRUPTIONS), st.integers(0, 2**31))
def test_a_partial_record_reads_as_its_derivation_alone(game: Any, kind: str, seed: int) -> None:
    """format.partial: a generated record without hands (or with some), clean or with one
    corruption of a deal's tricks (a card moved, duplicated, dropped, or two swapped), gets from
    the full validation exactly the findings, scores, replayed actions and derived groups that
    the full derivation alone (the blank replay) gives it."""
    record = play(game)
    if not record:
        return
    rng = random.Random(seed)
    record = _partial(game[0], record, rng)
    _corrupt(rng.choice(record["deals"]), kind, rng)
    guessed = validate_record(RawRecord(record, Location(record=1)), Settings())
    with _derivation_only():
        derived = validate_record(RawRecord(record, Location(record=1)), Settings())
    assert _summary(guessed) == _summary(derived)


@PROPERTY
@given(games, st.sampled_from(CORRUPTIONS), st.integers(0, 2**31))
def test_a_deal_replayed_without_its_json_reads_as_its_derivation_alone(
    game: Any, kind: str, seed: int
) -> None:
    """format.partial: `replay_deal` given only the deal model (the recorder, the viewer, the
    hints) guesses from the model's dump, with the same replay as the derivation alone."""
    ruleset = game[0]
    record = play(game)
    if not record:
        return
    rng = random.Random(seed)
    record = _partial(ruleset, record, rng)
    table, _ = ruleset.table(ruleset.Options.model_validate(game[2]), game[1])
    for deal in record["deals"]:
        _corrupt(deal, kind, rng)
        try:
            model = ruleset.Deal.model_validate(deal)
        except ValueError:
            continue
        guessed, derived = engine.replay_deal(ruleset, table, model), _derived_replay(ruleset, table, model)
        assert (guessed.violations, guessed.scores, guessed.completion) == (
            derived.violations,
            derived.scores,
            derived.completion,
        )


TABLES = [(name, players) for name in sorted(RULESETS) for players in RULESETS[name].player_counts]


@contextmanager
def _counted(name: str, calls: list[str]) -> Iterator[None]:
    """The engine with its function `name` noting each call in `calls`."""
    real = getattr(engine, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(name)
        return real(*args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(engine, name, counted)
        yield


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_a_clean_tricks_only_record_is_derived_without_the_blank_replay(name: str, players: int) -> None:
    """format.partial: every deal of a generated partial record is replayed once, and only the
    partial deals the game's fast derivation does not complete take the blank replay (`derive`);
    the record reads clean."""
    ruleset = RULESETS[name]
    record = to_data(generate_record(ruleset, players, 6, 11, {}, player="random"))
    record = _partial(ruleset, record, random.Random(0))
    table, _ = ruleset.table(ruleset.Options.model_validate(record.get("options", {})), players)
    unguessed = sum(
        ruleset.quick_completed(table, deal) is None
        for deal in record["deals"]
        if ruleset.unknown(table, ruleset.Deal.model_validate(deal))
    )
    calls: list[str] = []
    with _counted("derive", calls), _counted("_replay", calls):
        report = validate_record(RawRecord(record, Location(record=1)), Settings())
    assert [d.code for d in report.diagnostics if d.severity != "info"] == []
    assert calls.count("derive") == unguessed
    assert calls.count("_replay") == len(record["deals"])


def test_a_revoke_without_hands_is_replayed_once_with_the_derived_hands() -> None:
    """joffre.play.follow: a tricks-only deal with a revoke (a card moved between two of the
    seat's tricks) is guessed right, but its replay finds the revoke, so `derive` checks the guess;
    as its completion is the guess's, that replay is the deal's: one replay of the completed deal."""
    ruleset = RULESETS["joffre"]
    record = _partial(
        ruleset, to_data(generate_record(ruleset, 4, 1, 3, {}, player="random")), random.Random(1)
    )
    table, _ = ruleset.table(ruleset.Options(), 4)
    deal = record["deals"][0]
    model = ruleset.Deal.model_validate(deal)
    for seed in range(200):  # a move that makes a revoke the tricks prove
        moved = {**deal, "tricks": list(deal["tricks"])}
        _corrupt(moved, "move", random.Random(seed))
        model = ruleset.Deal.model_validate(moved)
        derived = _derived_replay(ruleset, table, model)
        if [v.code for v in derived.violations] == ["JOFFRE-REVOKE"]:
            break
    else:
        pytest.fail("no move made a revoke")
    calls: list[str] = []
    with _counted("derive", calls), _counted("_replay", calls):
        replay = engine.replay_deal(ruleset, table, model, data=moved)
    assert calls == ["_replay", "derive"]
    assert (replay.violations, replay.completion) == (derived.violations, derived.completion)
