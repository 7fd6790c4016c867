"""Karnöffel's fast path (`quick.quick_deal`): the shortcuts it takes held to the rules they stand for.

The windows' outcome is memoised (`quick.windows_of`): it must leave the state and the calls
exactly as the handlers do word by word, and give way to the words themselves when the going-out
cap could bite. A trick's winner (`powers.winning_index`) is the first card of the highest place.
A tricks-only deal's derivation and replay are one pass (`quick_partial.Replayed`): a card the
derived play gives a seat whose written hand lacks it is still not held."""

from __future__ import annotations

import copy
import random
from dataclasses import fields
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from recordkit.games import RULESETS
from recordkit.quick import clean_replays
from recordkit.rules import fastread
from recordkit.rules.karnoffel import quick
from recordkit.rules.karnoffel.deal import state_of_hands
from recordkit.rules.karnoffel.powers import LED_DEVIL, leads, winning_index
from recordkit.rules.karnoffel.quick_partial import Replayed
from recordkit.rules.karnoffel.record import CALLS
from recordkit.rules.karnoffel.state import WINDOWS, KarnoffelState
from tests.test_karnoffel_partial import PROPERTY, players, seeds
from tests.test_karnoffel_properties import generated
from tests.test_karnoffel_quick_partial import DEAL, table_of

KARNOFFEL = RULESETS["karnoffel"]
READINGS = ["led_suit_exceptions", "linear_faq"]
"""The readings `winning_index` judges by one total order (any_suit_exceptions goes card by card)."""


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
    deal with every hand left out is."""
    table = table_of({"options": {}, "players": [1, 2, 3, 4]})
    completion = KARNOFFEL.quick_completed(table, DEAL)
    assert completion is not None
    assert KARNOFFEL.quick_deal(table, completion.deal, [0] * 4, completion) is not None
    wrong = {**DEAL, "hands": ["S2 S3 S5 S6", None, None, None]}  # cards nobody plays
    guessed = KARNOFFEL.quick_completed(table, wrong)
    assert guessed is not None
    assert KARNOFFEL.quick_deal(table, guessed.deal, [0] * 4, guessed) is None


@PROPERTY
@given(players, seeds)
def test_tricks_only_records_are_proven_in_one_pass(n: int, seed: int) -> None:
    """format.partial: a generated record without its hands is proven on the fast path, each deal
    that derives anything through the derivation's own play, with the scores of the record."""
    record = generated(n, seed, {})
    tricks_only = {**record, "deals": [{k: v for k, v in d.items() if k != "hands"} for d in record["deals"]]}
    replays = clean_replays(tricks_only)
    assert replays is not None
    assert [r.scores for r in replays] == [d["result"]["scores"] for d in record["deals"]]


@PROPERTY
@given(players, seeds)
def test_what_a_derivation_hands_its_proof_is_what_the_proof_reads(n: int, seed: int) -> None:
    """format.partial: the proposal windows' outcome and the face-up cards a fast derivation hands
    its proof (`quick_partial.Replayed`) are what the proof reads from the completed deal
    (`quick.windows_of`, the face-up codes), and a proof that reads them itself finds the same."""
    record = generated(n, seed, {})
    table = table_of(record)
    for deal in record["deals"]:
        completion = KARNOFFEL.quick_completed(table, {k: v for k, v in deal.items() if k != "hands"})
        if not isinstance(completion, Replayed):
            continue
        sketch = completion.sketch
        assert completion.proposed == quick.windows_of(table, sketch["dealer"], sketch["proposals"])
        assert completion.faceup == fastread.card_ids(quick.CARD_IDS[table.options.deck], sketch["faceup"])
        handed = KARNOFFEL.quick_deal(table, copy.deepcopy(sketch), [0] * n, completion)
        assert handed is not None
        unhanded = copy.copy(completion)
        unhanded.proposed, unhanded.faceup = None, None  # type: ignore[assignment]
        read = KARNOFFEL.quick_deal(table, copy.deepcopy(sketch), [0] * n, unhanded)
        assert read is not None and read.scores == handed.scores
