"""The fast path's derivation (`Ruleset.quick_completed`) held to the full one (`recordkit.derive`).

A game may derive a partial deal's hands straight from JSON, to validate tricks-only records near
the speed of whole ones; that restates how the rules seat each card and complete the dealt groups,
so every deal it completes must be the full derivation's, with the same derived groups and the same
checks left without their facts (format.partial). Its guess is proven by the fast replay of the
completed deal, so a wrong guess can only cost time; these tests say it is never wrong.
"""

from __future__ import annotations

import copy
import pickle
import random
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given

from recordkit.codec import dumps
from recordkit.convert.archive import from_archive, to_archive
from recordkit.derive import derive
from recordkit.diagnostics import Severity
from recordkit.engine import replay_deal
from recordkit.games import RULESETS
from recordkit.generate import generate_record
from recordkit.model import to_data
from recordkit.quick import clean_deals, clean_replays
from recordkit.rules.base import Ruleset
from recordkit.rules.values import Completion, Deferred, Seated, Table
from tests.helpers import diagnostics_of, file_codes
from tests.test_properties import PROPERTY, games, play


def _partial(ruleset: Ruleset[Any, Any, Any], record: dict[str, Any], seed: int) -> dict[str, Any]:
    """The record with, deal by deal, all its derivable groups left out or only some hands."""
    rng = random.Random(seed)
    table, _ = ruleset.table(
        ruleset.Options.model_validate(record.get("options", {})), len(record["players"])
    )
    for deal in record["deals"]:
        model = ruleset.Deal.model_validate(deal)
        if ruleset.is_sheet(model):
            continue
        forgotten = ruleset.forget(table, model).model_dump(mode="json", exclude_none=True)
        if rng.random() < 0.5 or type(deal.get("hands")) is not list:
            deal.clear()
            deal.update(forgotten)
        else:
            deal["hands"] = [None if rng.random() < 0.5 else hand for hand in deal["hands"]]
    return record


def _completions(game: tuple[Ruleset[Any, Any, Any], int, dict[str, Any], int]) -> list[tuple[Any, Any]]:
    """(fast, full) derivations of each partial deal of a generated game."""
    ruleset = game[0]
    record = play(game)
    if not record:
        return []
    record = _partial(ruleset, record, game[3])
    table, _ = ruleset.table(
        ruleset.Options.model_validate(record.get("options", {})), len(record["players"])
    )
    pairs = []
    for deal in record["deals"]:
        fast = ruleset.quick_completed(table, deal)
        if fast is None:
            continue
        full, _problems = derive(ruleset, table, ruleset.Deal.model_validate(deal))
        pairs.append((fast, full))
    return pairs


@PROPERTY
@given(games)
def test_a_fast_derivation_is_the_full_one(game: Any) -> None:
    """format.partial: whenever a game derives a deal on the fast path, the completed deal, its
    derived groups and its unchecked facts are those of the full derivation."""
    table, _ = game[0].table(game[0].Options.model_validate(game[2]), game[1])
    for fast, full in _completions(game):
        assert full is not None
        assert fast.deal == full.deal.model_dump(mode="json", exclude_none=True)
        assert fast.derived == full.derived
        assert fast.unchecked == full.unchecked
        if fast.read is not None:
            assert fast.read == _read(table, game[0].name, fast.deal)


def _table(game: Any) -> tuple[Ruleset[Any, Any, Any], Table, list[int | float]]:
    """A generated game's ruleset, its table and the totals before its first deal."""
    ruleset = game[0]
    table, _ = ruleset.table(ruleset.Options.model_validate(game[2]), game[1])
    return ruleset, table, [0] * game[1]


def _fast_of_kind(game: Any, kind: type[Completion]) -> list[Any]:
    """The game's fast completions of one class (`Deferred`, `Seated`)."""
    return [fast for fast, _full in _completions(game) if isinstance(fast, kind)]


@PROPERTY
@given(games)
def test_a_deferred_completion_proves_as_its_written_deal(game: Any) -> None:
    """format.partial: a fast derivation that defers its texts (`base.Deferred`) is proven from
    its sketch as from the deal with every text written, keeps the same fields, survives pickling
    (`--jobs`, Dask) and writes its texts once, into the deal it was built on."""
    ruleset, table, before = _table(game)
    for fast in _fast_of_kind(game, Deferred):
        sketch = copy.deepcopy(fast.sketch)
        copied = pickle.loads(pickle.dumps(fast))
        proven = ruleset.quick_deal(table, sketch, before, fast)
        written = fast.deal
        assert written is fast.sketch and written.keys() == sketch.keys()
        assert None not in written["hands"] and None not in written.values()
        again = ruleset.quick_deal(table, written, before, fast)
        assert (proven is None) == (again is None)
        if proven is not None and again is not None:
            assert proven.scores == again.scores
        assert copied.deal == written


@PROPERTY
@given(games)
def test_the_winners_a_derivation_hands_its_proof_are_the_rules(game: Any) -> None:
    """format.partial and each game's trick.winner: the winning cards a fast derivation hands its
    proof (`base.Seated`) are the ones the proof's tricks are won by, and a proof that does not
    reach what they were found under (another trump) finds its own: the same tricks and scores."""
    ruleset, table, before = _table(game)
    for fast in _fast_of_kind(game, Seated):
        proven = ruleset.quick_deal(table, copy.deepcopy(fast.sketch), before, fast)
        assert proven is not None
        tricks = proven.state.tricks
        assert [trick.seats.index(trick.winner) for trick in tricks] == fast.winners
        stranger = copy.copy(fast)
        stranger.under, stranger.winners = object(), [0] * len(fast.winners)
        again = ruleset.quick_deal(table, copy.deepcopy(fast.sketch), before, stranger)
        assert again is not None and again.scores == proven.scores
        assert [trick.winner for trick in again.state.tricks] == [trick.winner for trick in tricks]


@PROPERTY
@given(games)
def test_the_steps_a_derivation_hands_its_proof_are_the_ones_it_would_read(game: Any) -> None:
    """format.partial: the actions before the play a fast derivation hands its proof
    (`Seated.steps`) prove the deal as those the proof reads from the completed deal: the same
    verdict, scores and actions with their seats; and they are handed once."""
    ruleset, table, before = _table(game)
    for fast in _fast_of_kind(game, Seated):
        fresh = copy.copy(fast)
        fresh.steps = None
        read = ruleset.quick_deal(table, copy.deepcopy(fast.sketch), before, fresh)
        handed = ruleset.quick_deal(table, copy.deepcopy(fast.sketch), before, fast)
        assert fast.steps is None
        assert read is not None and handed is not None
        assert handed.scores == read.scores
        assert [(a.kind, a.value, a.seat, a.path) for a in handed.actions] == [
            (a.kind, a.value, a.seat, a.path) for a in read.actions
        ]


DEALT_GROUPS = {"french-tarot": ["dog"], "charlemagne": ["kitty"]}
"""The dealt groups after the hands in a fast derivation's reading (`Completion.read`), by game
(none where the hands are the only dealt groups)."""


def _read(table: Table, game: str, deal: dict[str, Any]) -> tuple[list[int], list[list[int]]]:
    """What reading a completed deal's text gives: its dealt groups as bitmasks (a group it does
    not have, as the Maine game's kitty, reads as no card) and each trick's card ids (the tricks
    written as strings), which a fast derivation's reading must be."""
    deck = table.deck
    groups = [*deal["hands"], *(deal.get(name, "") for name in DEALT_GROUPS.get(game, []))]
    masks = [deck.mask(deck.index[code] for code in text.split()) for text in groups]
    return masks, [[deck.index[code] for code in trick.split()] for trick in deal["tricks"]]


def _held_to_full(ruleset: Ruleset[Any, Any, Any], table: Table, deal: dict[str, Any]) -> bool:
    """Whether the fast path of a deal that plays no card (`Ruleset.quick_unplayed`), if it gives
    one, is the full path's: the completion `derive` gives, the scores, the calls with their
    seats and final state the full replay gives, and a replay that finds nothing but notes.
    True when the fast path gave one."""
    fast = ruleset.quick_unplayed(table, copy.deepcopy(deal), [0] * table.players)
    if fast is None:
        return False
    full = replay_deal(ruleset, table, ruleset.Deal.model_validate(deal), [0] * table.players)
    assert all(v.severity == Severity.INFO for v in full.violations), full.violations
    assert full.completion is not None and fast.completion is not None
    assert fast.completion.deal == full.completion.deal.model_dump(mode="json", exclude_none=True)
    assert (fast.completion.derived, fast.completion.unchecked) == (
        full.completion.derived,
        full.completion.unchecked,
    )
    assert fast.scores == full.scores
    assert [(a.kind, a.value, a.seat) for a in fast.actions] == [
        (a.kind, a.value, a.seat) for a in full.actions
    ]
    assert ruleset.next_dealer(table, fast.dealer, fast.state) == ruleset.next_dealer(
        table, deal["dealer"], full.state
    )
    return True


PASSED_TABLES = [
    ("french-tarot", 3, {}),
    ("french-tarot", 4, {}),
    ("french-tarot", 5, {"petit_sec": "ignore"}),
    ("charlemagne", 4, {}),
]
"""Tables at which everybody may pass (in the Maine game the dealer must bid, see below)."""


@pytest.mark.parametrize(("game", "players", "options"), PASSED_TABLES)
def test_a_passed_deal_without_its_hands_takes_the_fast_path_as_the_full_one(
    game: str, players: int, options: dict[str, Any]
) -> None:
    """format.partial: a deal everybody passed, written without its hands, is proven on the fast
    path (`quick_unplayed`) exactly as the full derivation and replay see it, with or without
    its result and totals; in a record, both paths give it the same verdict and notes."""
    ruleset = RULESETS[game]
    table, _ = ruleset.table(ruleset.Options.model_validate(options), players)
    passed = {"dealer": players - 1, "auction": ["pass"] * players, "tricks": []}
    for extra in ({}, {"result": {"scores": [0] * players}}, {"status": "played", "comment": "redeal"}):
        assert _held_to_full(ruleset, table, {**passed, **extra})
    record = {
        "format": "recordkit",
        "version": "1.1",
        "game": game,
        "options": options,
        "players": [f"p{seat}" for seat in range(players)],
        "deals": [{**passed, "result": {"scores": [0] * players}, "totals": [0] * players}],
    }
    assert clean_deals(record) == 1
    assert [d.code for d in diagnostics_of(record)] == ["DEAL-NOT-CHECKED"]


@pytest.mark.parametrize(("game", "players", "options"), PASSED_TABLES)
def test_a_passed_deal_in_another_form_takes_the_full_path(
    game: str, players: int, options: dict[str, Any]
) -> None:
    """What `quick_unplayed` does not cover goes to the full path: a bid, a hand written, a card
    played, a result with more than the scores, a call out of turn."""
    ruleset = RULESETS[game]
    table, _ = ruleset.table(ruleset.Options.model_validate(options), players)
    passed = {"dealer": 0, "auction": ["pass"] * players, "tricks": []}
    for other in (
        {"auction": ["pass"] * (players - 1)},
        {"auction": [{"call": "pass", "seat": 0}, *["pass"] * (players - 1)]},
        {"hands": [None] * players},
        {"result": {"scores": [0] * players, "tricks": 0, "points": 0}},
        {"result": None},
        {"status": "annulled"},
        {"dealer": players},
    ):
        assert ruleset.quick_unplayed(table, {**passed, **other}, [0] * players) is None


def test_a_maine_dealer_who_passes_too_takes_the_full_path() -> None:
    """charlemagne.auction.dealer-forced: in the Maine game four passes break a rule, so the fast
    path does not prove them (the full path says which)."""
    ruleset = RULESETS["charlemagne"]
    table, _ = ruleset.table(ruleset.Options.model_validate({"variant": "maine"}), 4)
    deal = {"dealer": 3, "auction": ["pass"] * 4, "tricks": [], "result": {"scores": [0] * 4}}
    assert ruleset.quick_unplayed(table, deal, [0] * 4) is None


@PROPERTY
@given(games)
def test_the_fast_path_of_a_passed_deal_is_the_full_one(game: Any) -> None:
    """format.partial: every deal of a generated game that plays no card, written without its
    hands, that the fast path proves (`quick_unplayed`), the full path sees the same way."""
    ruleset = game[0]
    record = play(game)
    if not record:
        return
    table, _ = ruleset.table(
        ruleset.Options.model_validate(record.get("options", {})), len(record["players"])
    )
    for deal in record["deals"]:
        model = ruleset.Deal.model_validate(deal)
        if not deal.get("tricks") and not ruleset.is_sheet(model):
            _held_to_full(
                ruleset, table, ruleset.forget(table, model).model_dump(mode="json", exclude_none=True)
            )


def test_a_score_sheet_line_takes_the_fast_path_with_its_note(tmp_path: Path) -> None:
    """format.partial: an evening whose thrown-in deal is only its line on the score sheet (a
    Petit sec, annulled) and whose other deals are tricks only is proven on the fast path with the
    full path's notes, and converts to an archive and back as it was."""
    tarot = RULESETS["french-tarot"]
    record = to_data(generate_record(tarot, 4, 2, 7, form="tricks", player="random"))
    deals = record["deals"]
    totals = deals[-1]["totals"]
    deals.append({"dealer": (deals[-1]["dealer"] + 1) % 4, "status": "annulled"})
    deals[-1].update(result={"scores": [0] * 4}, totals=totals)
    replays = clean_replays(record)
    assert replays is not None and replays[-1].sheet
    path = tmp_path / "evening.jsonl"
    path.write_bytes(orjson.dumps(record) + b"\n")
    assert file_codes(path) == set()  # the fast path's notes are the full path's
    assert to_archive([str(path)], tmp_path / "archive").records == 1
    from_archive(tmp_path / "archive", tmp_path / "back.jsonl")
    assert (tmp_path / "back.jsonl").read_bytes() == dumps(
        tarot.Record.model_validate(record)
    ).encode() + b"\n"


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [*PASSED_TABLES, ("charlemagne", 4, {"variant": "maine"}), ("joffre", 3, {}), ("joffre", 4, {})],
)
def test_a_fast_reading_is_the_text_the_derivation_writes(
    game: str, players: int, options: dict[str, Any]
) -> None:
    """The bitmasks and card ids a fast derivation hands to the fast replay (`Completion.read`)
    are exactly what the completed deal's text says, at every table whose derivation gives them."""
    ruleset = RULESETS[game]
    table, _ = ruleset.table(ruleset.Options.model_validate(options), players)
    read = 0
    for seed in range(4):
        for fast, _full in _completions((ruleset, players, options, seed)):
            if fast.read is not None:
                assert fast.read == _read(table, game, fast.deal)
                read += 1
    assert read
