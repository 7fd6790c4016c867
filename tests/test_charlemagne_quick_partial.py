"""Charlemagne's fast derivation of partial deals (`Ruleset.quick_completed`, format.partial):
generated tricks-only deals of both variants, played out, take it and its completion passes the
fast replay; whatever it completes is the full derivation's (`recordkit.derive`); and the deals it
does not cover go to the full derivation."""

from __future__ import annotations

import copy
import random
from typing import Any

import orjson
from hypothesis import HealthCheck, given, settings

from recordkit.derive import derive
from recordkit.generate import generate_record
from recordkit.model import to_data
from recordkit.quick import clean_replays
from tests.budget import examples
from tests.test_charlemagne_properties import CHARLEMAGNE, any_options, seeds, table_of

PROPERTY = settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def tricks_only(seed: int, options: dict[str, Any], deals: int = 4) -> dict[str, Any]:
    """A generated record whose deals write their calls, exchanges and tricks, not the hands nor the kitty."""
    record = generate_record(CHARLEMAGNE, 4, deals, seed, options, form="tricks", player="random")
    return copy.deepcopy(orjson.loads(orjson.dumps(to_data(record))))


def played_out(deal: dict[str, Any]) -> bool:
    """Whether somebody bid and all eight tricks were played (no claim)."""
    return len(deal["tricks"]) == 8 and "claim" not in deal


def some_hands(data: dict[str, Any], seed: int) -> dict[str, Any]:
    """The record with each deal's hands left out, or only some of them, and the kitty now and then."""
    rng = random.Random(seed)
    for deal in data["deals"]:
        if rng.random() < 0.5:
            deal.pop("hands", None)
            deal.pop("kitty", None)
            continue
        deal["hands"] = [None if rng.random() < 0.5 else hand for hand in deal["hands"]]
        if rng.random() < 0.5:
            deal.pop("kitty", None)
    return data


@PROPERTY
@given(seeds, any_options)
def test_tricks_only_deals_take_the_fast_derivation(seed: int, options: dict[str, Any]) -> None:
    """format.partial: every tricks-only deal played out is derived on the fast path, and the fast
    replay proves the completion (every card held by the seat the rules make play it)."""
    data = tricks_only(seed, options)
    table = table_of(data)
    for deal in data["deals"]:
        if not played_out(deal):
            continue
        completion = CHARLEMAGNE.quick_completed(table, deal)
        assert completion is not None
        assert CHARLEMAGNE.quick_deal(table, completion.deal, [0, 0, 0, 0], completion) is not None


@PROPERTY
@given(seeds, any_options)
def test_the_fast_derivation_is_the_full_one(seed: int, options: dict[str, Any]) -> None:
    """format.partial: whatever the fast derivation completes (no hand written, some, the kitty or
    not) is the full derivation's deal, with its derived groups and unchecked facts."""
    record = generate_record(CHARLEMAGNE, 4, 4, seed, options, player="random")
    data = some_hands(orjson.loads(orjson.dumps(to_data(record))), seed)
    table = table_of(data)
    for deal in data["deals"]:
        fast = CHARLEMAGNE.quick_completed(table, deal)
        if fast is None:
            continue
        full, _ = derive(CHARLEMAGNE, table, CHARLEMAGNE.Deal.model_validate(deal))
        assert full is not None
        assert fast.deal == full.deal.model_dump(mode="json", exclude_none=True)
        assert (fast.derived, fast.unchecked) == (full.derived, full.unchecked)


def first_played(options: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """A tricks-only record of one deal that somebody bid and played out, and that deal."""
    for seed in range(100):
        data = tricks_only(seed, options, deals=1)
        if played_out(data["deals"][0]):
            return data, data["deals"][0]
    raise AssertionError("no deal played out")


def test_a_card_played_twice_is_the_full_derivations() -> None:
    """format.partial: a card shown twice is completed by `partial.complete` itself (the same deal
    as `derive`), which the fast replay then refuses, so the record goes to the full path."""
    data, deal = first_played({})
    tricks = deal["tricks"]
    first, second = tricks[0].split(), tricks[1].split()
    second[-1] = first[-1]
    tricks[1] = " ".join(second)
    table = table_of(data)
    fast = CHARLEMAGNE.quick_completed(table, deal)
    full, _ = derive(CHARLEMAGNE, table, CHARLEMAGNE.Deal.model_validate(deal))
    assert fast is not None and full is not None
    assert fast.deal == full.deal.model_dump(mode="json", exclude_none=True)
    assert CHARLEMAGNE.quick_deal(table, fast.deal, [0, 0, 0, 0], fast) is None
    assert clean_replays(data) is None


def test_forms_it_does_not_cover_go_to_the_full_path() -> None:
    """format.partial: nobody bidding, calls written as objects, a trick not played and a whole deal
    get no fast derivation (None): the full derivation decides them."""
    data, deal = first_played({"variant": "maine"})
    table = table_of(data)
    assert CHARLEMAGNE.quick_completed(table, deal) is not None
    passes = {**deal, "auction": ["pass"] * 4, "tricks": []}
    objects = {**deal, "auction": [{"call": call} for call in deal["auction"]]}
    short = {**deal, "tricks": deal["tricks"][:-1]}
    whole = {**deal, "hands": CHARLEMAGNE.quick_completed(table, deal).deal["hands"]}  # type: ignore[union-attr]
    for other in (passes, objects, short, whole):
        assert CHARLEMAGNE.quick_completed(table, other) is None
    assert clean_replays(data) is not None
