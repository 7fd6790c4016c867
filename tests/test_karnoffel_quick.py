"""Karnöffel's fast path (`quick.quick_deal`): the shortcuts it takes held to the rules they stand for.

The windows' outcome is memoised (`quick.windows_of`): it must leave the state and the calls
exactly as the handlers do word by word, and give way to the words themselves when the going-out
cap could bite. A trick's winner (`powers.winning_index`) is the first card of the highest place.
A tricks-only deal is derived as the full path derives it, then proven: a card the derived play
gives a seat whose written hand lacks it is still not held."""

from __future__ import annotations

import copy
import random
from dataclasses import fields
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from recordkit.games import RULESETS
from recordkit.quick import clean_deals, clean_replays
from recordkit.rules.karnoffel import quick
from recordkit.rules.karnoffel.deal import state_of_hands
from recordkit.rules.karnoffel.powers import LED_DEVIL, leads, winning_index
from recordkit.rules.karnoffel.record import CALLS
from recordkit.rules.karnoffel.state import WINDOWS, KarnoffelState
from recordkit.rules.values import Table
from tests.helpers import codes_of
from tests.test_karnoffel_partial import PROPERTY, players, seeds
from tests.test_karnoffel_properties import generated

KARNOFFEL = RULESETS["karnoffel"]
DEAL = {
    "dealer": 1,
    "faceup": "S4 C5 DQ SJ",
    "chosen_suit": "S",
    "proposals": [["pass", "raise", "raise", "accept"]],
    "tricks": ["HQ D5 H7 DJ", "C9 D4 S7 SK", "H4 C5 DK C4"],
    "result": {"scores": [10, 0, 10, 0]},
}
"""A generated deal without its hands: spades chosen (the S4 is lowest), seats 0 and 2 win three
tricks and the deal ends with cards unplayed."""
READINGS = ["led_suit_exceptions", "linear_faq"]
"""The readings `winning_index` judges by one total order (any_suit_exceptions goes card by card)."""


def table_of(record: dict[str, Any]) -> Table:
    """The table of a generated record."""
    table, _ = KARNOFFEL.table(KARNOFFEL.Options.model_validate(record["options"]), len(record["players"]))
    assert table is not None
    return table


def _fresh(table: Any, dealer: int) -> KarnoffelState:
    """A state just dealt, as the fast path's memo starts from."""
    state, _choosing = state_of_hands(table, dealer, [], [0] * table.players, WINDOWS + 1, "played")
    return state


@PROPERTY
@given(players, st.integers(0, 7), seeds, st.sampled_from(["unlimited", "single", "max_total_raises"]))
def test_memoised_windows_are_the_words_taken_one_by_one(
    n: int, dealer: int, seed: int, reraise: str
) -> None:
    """karnoffel.propose.*: for any words in up to three windows (legal or not), the memoised
    outcome sets every field of the state and every call's seat as the handlers do word by word,
    and says None exactly when they find something."""
    table = table_of({"options": {"reraise": reraise, "max_total_raises": 2}, "players": list(range(n))})
    dealer %= n
    rng = random.Random(seed)
    words = [[rng.choice(CALLS) for _ in range(rng.randint(0, 5))] for _ in range(rng.randint(0, WINDOWS))]
    direct = _fresh(table, dealer)
    actions: list[Any] = []
    windows = quick._windows(words)
    assert windows is not None
    ok = quick._proposals(direct, windows, actions)
    for _ in range(2):  # a miss, then a hit of the memo
        proposed = quick.windows_of(table, dealer, words)
        assert (proposed is not None) == ok
        if proposed is None:
            continue
        memoised = _fresh(table, dealer)
        calls = quick._apply(memoised, proposed)
        assert [(a.value, a.seat) for a in calls] == [(a.value, a.seat) for a in actions]
        for field in fields(KarnoffelState):
            assert getattr(memoised, field.name) == getattr(direct, field.name), field.name


def test_the_cap_is_checked_with_the_scores_before_the_deal() -> None:
    """karnoffel.propose.cap: the same words proven at love-all are not accepted once a side's score
    lets the value in force reach the target (the memo gives way to the words themselves)."""
    table = table_of({"options": {}, "players": ["a", "b"]})
    deal = {
        "dealer": 0,
        "faceup": "S4 C5",
        "chosen_suit": "S",
        "hands": ["DQ SJ CJ H7", "DK S7 DJ C4"],
        "proposals": [["pass", "raise", "raise", "accept"]],
        "tricks": ["DK DQ", "C4 H7", "S7 CJ"],
        "result": {"scores": [0, 10]},
    }
    assert KARNOFFEL.quick_deal(table, copy.deepcopy(deal), [0, 0]) is not None
    assert KARNOFFEL.quick_deal(table, copy.deepcopy(deal), [0, 94]) is None  # 94 + 7 reaches 101
    assert KARNOFFEL.quick_deal(table, copy.deepcopy(deal), [0, 90]) is not None


@PROPERTY
@given(st.sampled_from([48, 52]), st.sampled_from(READINGS), st.integers(0, 3), players, seeds)
def test_the_first_card_of_the_highest_place_wins(
    size: int, reading: str, chosen: int, n: int, seed: int
) -> None:
    """karnoffel.trick.winner: the winner is the card of the highest place in the order of the suit
    led (a led Devil placed just below the Karnöffel), the earliest of equal places."""
    trick = random.Random(seed).sample(range(size), n)
    by_lead, devil = leads(size, reading, chosen)
    places = [by_lead[trick[0]][card] for card in trick]
    if trick[0] == devil:
        places[0] = LED_DEVIL
    best = 0
    for index in range(1, n):
        if places[index] > places[best]:
            best = index
    assert winning_index(trick, size, reading, chosen) == best


def test_a_written_hand_without_a_card_its_seat_plays_is_not_proven() -> None:
    """karnoffel.play.held, format.partial: with some hands written, the derived play that gives a
    seat a card its written hand lacks is not proven (the full path reports it), while the same
    deal with every hand left out is, with its note of what was not checked."""
    record = {"format": "recordkit", "version": "1.1", "game": "karnoffel", "players": ["a", "b", "c", "d"]}
    assert clean_deals({**record, "deals": [DEAL]}) == 1
    assert codes_of({**record, "deals": [DEAL]}) == ["DEAL-NOT-CHECKED"]
    wrong = {**DEAL, "hands": ["S2 S3 S5 S6", None, None, None]}  # cards nobody plays
    assert clean_deals({**record, "deals": [wrong]}) is None
    assert "PLAY-NOT-HELD" in codes_of({**record, "deals": [wrong]})


@PROPERTY
@given(players, seeds)
def test_tricks_only_records_are_proven_on_the_fast_path(n: int, seed: int) -> None:
    """format.partial: a generated record without its hands is proven on the fast path (each deal
    derived, then its completed deal proven), with the scores of the record."""
    record = generated(n, seed, {})
    tricks_only = {**record, "deals": [{k: v for k, v in d.items() if k != "hands"} for d in record["deals"]]}
    replays = clean_replays(tricks_only)
    assert replays is not None
    assert [r.scores for r in replays] == [d["result"]["scores"] for d in record["deals"]]
