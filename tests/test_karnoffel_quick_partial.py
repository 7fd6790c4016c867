"""Karnöffel's fast derivation (`quick_partial`, rules format.partial and karnoffel.partial.hands):
a tricks-only deal completed from its JSON, as the full derivation completes it, and proven by the
fast replay of the completed deal.

The property runs generated games at 2, 4, 6 and 8 players with every option: each deal that leaves
its hands out takes the fast derivation, which is the full one (hands, derived groups, unchecked
facts), and the fast replay accepts it. The rule tests state the forms the fast derivation leaves to
the full one."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given

from recordkit.derive import derive
from recordkit.games import RULESETS
from recordkit.quick import clean_replays
from recordkit.rules.values import Table
from tests.test_karnoffel_partial import PROPERTY, players, seeds, without
from tests.test_karnoffel_properties import generated, options

KARNOFFEL = RULESETS["karnoffel"]


def table_of(record: dict[str, Any]) -> Table:
    """The table of a generated record."""
    table, _ = KARNOFFEL.table(KARNOFFEL.Options.model_validate(record["options"]), len(record["players"]))
    assert table is not None
    return table


def full_derivation(table: Table, deal: dict[str, Any]) -> Any:
    """The full derivation of a JSON deal (None when it leaves nothing out)."""
    completion, _problems = derive(KARNOFFEL, table, KARNOFFEL.Deal.model_validate(deal))
    return completion


@PROPERTY
@given(players, seeds, options)
def test_generated_tricks_only_deals_take_the_fast_derivation(
    n: int, seed: int, opts: dict[str, Any]
) -> None:
    """format.partial, karnoffel.partial.hands: every generated deal written without its hands that
    leaves something to derive is completed on the fast path exactly as the full derivation
    completes it, the fast replay accepts the completion, and the record is proven clean."""
    record = generated(n, seed, opts)
    table = table_of(record)
    totals = [0] * n
    for deal in record["deals"]:
        partial = without(deal, "hands")
        full = full_derivation(table, partial)
        fast = KARNOFFEL.quick_completed(table, partial)
        if full is None:  # a surrender in window 1: no face-down card was dealt
            assert fast is None
        else:
            assert fast is not None
            assert fast.deal == full.deal.model_dump(mode="json", exclude_none=True)
            assert (fast.derived, fast.unchecked) == (full.derived, full.unchecked)
            assert KARNOFFEL.quick_deal(table, fast.deal, totals, fast) is not None
        totals = deal["totals"]
    tricks_only = {**record, "deals": [without(deal, "hands") for deal in record["deals"]]}
    assert clean_replays(tricks_only) is not None


@PROPERTY
@given(players, seeds, options)
def test_some_hands_written(n: int, seed: int, opts: dict[str, Any]) -> None:
    """karnoffel.partial.hands: with some seats' hands written and the others null, the fast
    derivation keeps the written ones and derives the others as the full derivation does."""
    record = generated(n, seed, opts)
    table = table_of(record)
    for deal in record["deals"]:
        if not deal.get("hands"):
            continue
        partial = copy.deepcopy(deal)
        partial["hands"][seed % n] = None
        fast = KARNOFFEL.quick_completed(table, partial)
        full = full_derivation(table, partial)
        assert fast is not None and full is not None
        assert fast.deal == full.deal.model_dump(mode="json", exclude_none=True)
        assert (fast.derived, fast.unchecked) == (full.derived, full.unchecked)


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


def test_three_tricks_decide_and_the_sizes_go_unchecked() -> None:
    """karnoffel.trick.early-end, karnoffel.partial.hands: a deal decided in three tricks leaves
    each seat's unplayed face-down cards unknown; the fast derivation says so seat by seat, as the
    full one does."""
    table = table_of({"options": {}, "players": [1, 2, 3, 4]})
    fast = KARNOFFEL.quick_completed(table, DEAL)
    full = full_derivation(table, DEAL)
    assert fast is not None and full is not None
    assert fast.deal == full.deal.model_dump(mode="json", exclude_none=True)
    assert fast.derived == full.derived == [f"hands[{seat}]" for seat in range(4)]
    assert fast.unchecked == full.unchecked
    assert {code for code, _seat in fast.unchecked} == {"DEAL-HAND-SIZE"}


def test_forms_left_to_the_full_derivation() -> None:
    """format.partial: the fast derivation says None (the full one runs) when the chosen suit is
    not stated, round 1 is not written whole, a trick or call is an object, or the record goes on
    after the deal has ended."""
    table = table_of({"options": {}, "players": [1, 2, 3, 4]})
    assert KARNOFFEL.quick_completed(table, DEAL) is not None
    assert KARNOFFEL.quick_completed(table, without(DEAL, "chosen_suit")) is None
    assert KARNOFFEL.quick_completed(table, {**DEAL, "faceup": ["S4", None, "DQ", "SJ"]}) is None
    assert (
        KARNOFFEL.quick_completed(table, {**DEAL, "tricks": [{"cards": "HQ D5 H7 DJ"}, *DEAL["tricks"][1:]]})
        is None
    )
    assert KARNOFFEL.quick_completed(table, {**DEAL, "proposals": [[{"call": "pass"}, "pass"]]}) is None
    assert KARNOFFEL.quick_completed(table, {**DEAL, "tricks": [*DEAL["tricks"], "S2 S3 S5 S6"]}) is None
    assert KARNOFFEL.quick_completed(table, {**DEAL, "status": "abandoned"}) is None
