"""French Tarot's fast derivation of partial deals (`quick_partial.completed`, format.partial and
tarot.partial.*): straight from JSON, it completes a played-out deal exactly as `derive` does,
and a generated tricks-only deal played out takes it and is proven by the fast replay.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import orjson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recordkit.derive import derive
from recordkit.generate import generate_record
from recordkit.model import to_data
from recordkit.rules.french_tarot.options import TarotOptions
from recordkit.rules.values import Table
from tests.budget import examples
from tests.helpers import TAROT
from tests.test_properties import option_values

PROPERTY = settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
players = st.sampled_from([3, 4, 5])
seeds = st.integers(0, 2**31)
tarot_options = option_values(TarotOptions)


def _record(n: int, seed: int, options: dict[str, Any], deals: int = 4) -> tuple[Table, dict[str, Any]]:
    """A generated record of `deals` deals as parsed JSON, with its table."""
    record = generate_record(TAROT, n, deals, seed, options, player="random")
    table, _ = TAROT.table(record.options, n)
    assert table is not None
    return table, orjson.loads(orjson.dumps(to_data(record)))


def _forms(table: Table, deal: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    """The deal as a magazine prints it (tricks only), and with some of its hands, its dog or its
    discard left out."""
    model = TAROT.Deal.model_validate(deal)
    tricks = TAROT.forget(table, model).model_dump(mode="json", exclude_none=True)
    some = dict(deal, hands=[None if rng.random() < 0.5 else hand for hand in deal["hands"]])
    for key in ("dog", "discard"):
        if key in some and rng.random() < 0.5:
            del some[key]
    return [tricks, some, {**tricks, "dog": deal["dog"]}]


def _same(table: Table, deal: dict[str, Any]) -> bool:
    """format.partial: the fast derivation, when it gives one, is the full one (deal, derived
    groups, checks not run); whether it gave one."""
    fast = TAROT.quick_completed(table, deal)
    if fast is None:
        return False
    full, _ = derive(TAROT, table, TAROT.Deal.model_validate(deal))
    assert full is not None
    assert fast.deal == full.deal.model_dump(mode="json", exclude_none=True)
    assert fast.derived == full.derived
    assert fast.unchecked == full.unchecked
    return True


@PROPERTY
@given(players, seeds, tarot_options)
def test_the_fast_derivation_is_derive(n: int, seed: int, options: dict[str, Any]) -> None:
    """format.partial, tarot.partial.hands, .discard, .taker: every partial form of a generated
    deal (tricks only, some hands, the dog or the discard left out) that the fast derivation
    completes is completed as `derive` completes it, whatever the variant options."""
    try:
        table, record = _record(n, seed, options)
    except ValueError:  # an option this number of players does not allow
        return
    rng = random.Random(seed)
    for deal in record["deals"]:
        for form in _forms(table, deal, rng):
            _same(table, form)


@PROPERTY
@given(players, seeds, tarot_options)
def test_a_tricks_only_deal_played_out_takes_the_fast_path(
    n: int, seed: int, options: dict[str, Any]
) -> None:
    """format.partial: a generated deal played out, written without its hands, dog and discard,
    is completed by the fast derivation and proven by the fast replay of the completed deal (a
    redeal or an annulled deal has no play to derive from: it takes the full derivation)."""
    try:
        table, record = _record(n, seed, options)
    except ValueError:
        return
    totals: list[int | float] = [0] * n
    for deal in record["deals"]:
        tricks = TAROT.forget(table, TAROT.Deal.model_validate(deal)).model_dump(
            mode="json", exclude_none=True
        )
        if deal["tricks"]:
            assert _same(table, tricks)
            completed = TAROT.quick_completed(table, tricks)
            assert completed is not None
            assert TAROT.quick_deal(table, completed.deal, totals, completed) is not None
        else:
            assert TAROT.quick_completed(table, tricks) is None
        totals = deal["totals"]


@cache
def _slam_deals() -> list[tuple[Table, dict[str, Any]]]:
    """Generated deals whose taker announces a slam (the generator seldom does), with their table."""
    found = []
    for seed in range(400):
        table, record = _record(4 + seed % 2, seed, {}, deals=10)
        found += [
            (table, deal)
            for deal in record["deals"]
            if any(a["type"] == "slam" for a in deal["announcements"])
        ]
        if len(found) >= 3:
            break
    return found


def test_a_slams_declarer_leads_the_first_trick_of_the_derivation() -> None:
    """tarot.slam.who: the taker who announces a slam leads the first trick, so the fast derivation
    seats the first trick from him, as `derive` does, and the fast replay proves it."""
    deals = _slam_deals()
    assert deals
    for table, deal in deals:
        tricks = TAROT.forget(table, TAROT.Deal.model_validate(deal)).model_dump(
            mode="json", exclude_none=True
        )
        assert _same(table, tricks)
        completed = TAROT.quick_completed(table, tricks)
        assert completed is not None
        taker = next(a["seat"] for a in deal["announcements"] if a["type"] == "slam")
        hands = completed.deal["hands"]
        assert [hands[s] for s in range(table.players) if s != taker] == [
            deal["hands"][s] for s in range(table.players) if s != taker
        ]
        assert TAROT.quick_deal(table, completed.deal, [0] * table.players, completed) is not None


def test_odd_forms_take_the_full_derivation() -> None:
    """format.partial: a deal the fast derivation does not cover (a trick as an object, an alias,
    a card played twice, a trick short, an abandoned deal, a result the fast path does not
    read) says None, and the full derivation runs."""
    table, record = _record(4, 7, {})
    deal = next(d for d in record["deals"] if d["tricks"])
    tricks = TAROT.forget(table, TAROT.Deal.model_validate(deal)).model_dump(mode="json", exclude_none=True)
    assert TAROT.quick_completed(table, tricks) is not None
    first, second, *rest = tricks["tricks"]
    odd = [
        {**tricks, "tricks": [{"cards": first}, second, *rest]},
        {**tricks, "tricks": [first.lower(), second, *rest]},
        {**tricks, "tricks": [first, first, *rest]},
        {**tricks, "tricks": [first.rsplit(" ", 1)[0], second, *rest]},
        {**tricks, "status": "abandoned"},
        {**tricks, "auction": [{"call": c} for c in tricks["auction"]]},
        {**tricks, "dealer": table.players},
        {**tricks, "result": {**tricks["result"], "contract": "Garde"}},
        {**tricks, "result": [[1]]},
    ]
    for form in odd:
        assert TAROT.quick_completed(table, form) is None
