"""Joffre's fast derivation of the hands a deal leaves out (`joffre.quick_partial`, rule
joffre.partial.tricks-only): straight from the JSON, the same completed deal as the full
derivation (`recordkit.derive`), proven by the fast replay; None for every form it does not cover.
"""

from __future__ import annotations

import copy
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from recordkit.derive import derive
from recordkit.generate import generate_record
from recordkit.model import to_data
from recordkit.quick import clean_replays
from recordkit.rules.joffre import Joffre
from recordkit.rules.joffre.cards import cards_for
from recordkit.rules.joffre.options import JoffreOptions
from recordkit.rules.values import Completion, Table
from tests.budget import examples
from tests.test_joffre_partial import CLUB_1, CLUB_1_REVOKE
from tests.test_joffre_properties import joffre_options
from tests.test_properties import PROPERTY
from tests.test_quick_derived import _completions

JOFFRE = Joffre()
TABLE = Table(JoffreOptions(), 4, cards_for(4).deck)
VARIANTS = [
    (4, {}),
    (3, {}),
    (4, {"mode": "teams"}),
    (4, {"mode": "teams", "bid_unit": "points", "min_bid": 5, "allow_no_trump": True}),
    (3, {"allow_no_trump": True, "opening_bid_forced": False, "all_pass": "dealer_forced_min"}),
    (4, {"opening_bid_forced": False, "dealer_may_equal": True, "kaiser_capture": "same_trick"}),
]


def _tricks_only(players: int, options: dict[str, Any], seed: int, deals: int = 10) -> dict[str, Any]:
    """A generated game (random players) written without its hands, as parsed JSON."""
    record = generate_record(JOFFRE, players, deals, seed, options, form="tricks", player="random")
    return orjson.loads(orjson.dumps(to_data(record)))


def _full(table: Table, deal: dict[str, Any]) -> Completion:
    """The full derivation of a deal, which the fast one must equal."""
    completion, problems = derive(JOFFRE, table, JOFFRE.Deal.model_validate(deal))
    assert completion is not None and problems == []
    return completion


def _same(fast: Completion, full: Completion) -> bool:
    """Whether the fast derivation is the full one: the deal as dumped, derived and unchecked."""
    dumped = full.deal.model_dump(mode="json", exclude_none=True)
    return fast.deal == dumped and fast.derived == full.derived and fast.unchecked == full.unchecked


@pytest.mark.parametrize(("players", "options"), VARIANTS)
def test_tricks_only_deals_take_the_fast_derivation_joffre_partial_tricks_only(
    players: int, options: dict[str, Any]
) -> None:
    """joffre.partial.tricks-only: every played-out deal of generated tricks-only games is
    derived on the fast path, the fast replay accepts it, and it is the full derivation."""
    table = Table(JoffreOptions.model_validate(options), players, cards_for(players).deck)
    fast_ones = 0
    for seed in range(1, 4):
        record = _tricks_only(players, options, seed)
        before: list[int | float] = [0] * players
        for deal in record["deals"]:
            if deal["tricks"]:  # a deal everybody passed plays no card: the full path derives it
                fast = JOFFRE.quick_completed(table, deal)
                assert fast is not None
                assert JOFFRE.quick_deal(table, fast.deal, before, fast) is not None
                assert _same(fast, _full(table, deal))
                fast_ones += 1
            before = deal["totals"]
        assert clean_replays(record) is not None
    assert fast_ones >= 20


@settings(PROPERTY, max_examples=examples(60))
@given(st.tuples(st.just(JOFFRE), st.sampled_from((3, 4)), joffre_options, st.integers(0, 2**31)))
def test_the_fast_derivation_is_the_full_one_joffre_partial_tricks_only(game: Any) -> None:
    """joffre.partial.tricks-only: whenever the fast path derives a deal (every hand left out,
    or only some), it is the full derivation, whatever the options."""
    for fast, full in _completions(game):
        assert full is not None
        assert _same(fast, full)


def _club(**changes: Any) -> dict[str, Any]:
    """The club's deal 1 without its hands, with these fields changed."""
    deal = {key: value for key, value in copy.deepcopy(CLUB_1).items() if key != "hands"}
    return {**deal, **changes}


def test_the_club_deal_is_derived_by_hand_joffre_partial_tricks_only() -> None:
    """joffre.partial.tricks-only: Marcel (seat 2) bids 4 and leads; each trick's winner leads
    the next, so each seat's hand is the cards it played: the hands as dealt."""
    fast = JOFFRE.quick_completed(TABLE, _club())
    assert fast is not None
    assert [set(hand.split()) for hand in fast.deal["hands"]] == [
        set(hand.split()) for hand in CLUB_1["hands"]
    ]
    assert fast.derived == [f"hands[{seat}]" for seat in range(4)] and fast.unchecked == {}
    assert _same(fast, _full(TABLE, _club()))


def test_some_hands_written_joffre_partial_tricks_only() -> None:
    """joffre.partial.tricks-only: a written hand stays as written, the others are derived;
    null fields are left out and the status written, as the deal model dumps it."""
    hands = [CLUB_1["hands"][0], None, None, CLUB_1["hands"][3]]
    deal = _club(hands=hands, comment=None)
    fast = JOFFRE.quick_completed(TABLE, deal)
    assert fast is not None and fast.derived == ["hands[1]", "hands[2]"]
    assert _same(fast, _full(TABLE, deal))
    unstated = {key: value for key, value in _club().items() if key != "status"}
    fast = JOFFRE.quick_completed(TABLE, unstated)
    assert fast is not None and fast.deal["status"] == "played"


def test_a_revoke_is_derived_but_not_proven_joffre_play_follow() -> None:
    """joffre.play.follow: a deal whose tricks hold a revoke is derived as the full path derives
    it, and the fast replay of it refuses it, so the full validation explains the revoke."""
    deal = {key: value for key, value in CLUB_1_REVOKE.items() if key != "hands"}
    fast = JOFFRE.quick_completed(TABLE, deal)
    assert fast is not None and _same(fast, _full(TABLE, deal))
    assert JOFFRE.quick_deal(TABLE, fast.deal, [0, 0, 0, 0], fast) is None


@pytest.mark.parametrize(
    "changes",
    [
        {"hands": CLUB_1["hands"]},  # nothing left out
        {"status": "abandoned"},
        {"tricks": CLUB_1["tricks"][:7]},  # cut short
        {"tricks": [{"cards": CLUB_1["tricks"][0], "winner": 3}, *CLUB_1["tricks"][1:]]},  # an object
        {"tricks": [CLUB_1["tricks"][0].lower(), *CLUB_1["tricks"][1:]]},  # re-spelt codes
        {"tricks": [CLUB_1["tricks"][1], *CLUB_1["tricks"][1:]]},  # a card twice
        {"auction": ["3", "4", "passe", "pass"]},  # an alias
        {"auction": [{"call": "3"}, "4", "pass", "pass"]},  # an object
        {"auction": ["3", "4", "pass"]},  # a call missing
        {"trump": "england"},  # re-spelt
        {"trump": "E"},  # not the trump the bidder's lead sets
        {"dealer": 4},
        {"hands": [None, None, None]},
        {"hands": ["E2 E0 F5 F3 R4 G3 G2", None, None, None]},  # a written hand too short
        {"result": {"scores": [0, 3, -4, -1], "bid": "4"}},
        {"result": {"scores": [0.0, 3, -4, -1]}},
        {"totals": [True, 3, -4, -1]},
        {"note": "unknown key"},
    ],
)
def test_forms_left_to_the_full_derivation_format_partial(changes: dict[str, Any]) -> None:
    """format.partial: a deal in any form the fast derivation does not cover gives None, and the
    full derivation reads it (and explains what is wrong with it)."""
    assert JOFFRE.quick_completed(TABLE, _club(**changes)) is None
