"""The hints of a Charlemagne deal that ends with a claim: the claim's search (`claim.guarantee`,
up to 40,000 positions) must not run again for every wrong reading of a faulty deal that
`recordkit.hints` replays (issue 33: 30 deals with a claim took 29 s, linear in the deals)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from functools import cache
from typing import Any

import orjson
import pytest

from recordkit.diagnostics import Location
from recordkit.engine import replay_deal
from recordkit.games import RULESETS
from recordkit.generate import generate_record
from recordkit.model import to_data
from recordkit.rules.charlemagne import claim
from recordkit.rules.charlemagne.state import CharlemagneState
from recordkit.rules.values import Table
from recordkit.sources import RawRecord
from recordkit.validate import validate_record
from tests.helpers import diagnostics_of

RULES = RULESETS["charlemagne"]
OPTIONS = {"allow_early_claim": True}
DEALS = 30
CLAIM_AFTER = 4
"""The tricks played before each deal's claim."""
SEARCHES_PER_FAULTY_DEAL = 2
"""The most claim searches a faulty deal and its hints may run: its own replay and the reading
that the hint gives (a dozen readings are replayed, each up to the claim)."""


def _table() -> Table:
    """The table of the record: four players, claims allowed."""
    table, problems = RULES.table(RULES.Options.model_validate(OPTIONS), 4)
    assert table is not None, problems
    return table


def _replayed(deal: dict[str, Any]) -> CharlemagneState:
    """The state after a deal's replay (a deal the test builds, so one that replays)."""
    state = replay_deal(RULES, _table(), RULES.Deal.model_validate(deal), None).state
    assert isinstance(state, CharlemagneState)
    return state


def _claimed(deal: dict[str, Any]) -> dict[str, Any] | None:
    """A generated deal cut after CLAIM_AFTER tricks by a sure claim of the seat to lead, and
    scored; None when its play is shorter, or the search of its claim runs past the budget."""
    if len(deal.get("tricks", [])) <= CLAIM_AFTER:
        return None
    cut = {key: value for key, value in deal.items() if key not in ("claim", "result", "totals")}
    cut.update(tricks=deal["tricks"][:CLAIM_AFTER], status="abandoned")
    state = _replayed(cut)
    seat = state.to_play()
    sure = claim.guarantee(state, seat)
    if sure is None:
        return None
    cut.update(status="played", claim={"seat": seat, "tricks": sure})
    replay = replay_deal(RULES, _table(), RULES.Deal.model_validate(cut), None)
    assert replay.scores is not None and all(v.code == "SCORE-MISSING" for v in replay.violations)
    cut["result"] = {"scores": replay.scores}
    return cut


@cache
def _evening() -> bytes:
    """A record of DEALS deals dealt in turn, each ending with a sure claim (as JSON: the game
    is over long before its end, which the test does not mind)."""
    deals: list[dict[str, Any]] = []
    seed = 0
    while len(deals) < DEALS:
        seed += 1
        generated = to_data(generate_record(RULES, 4, 1, seed, OPTIONS, player="random"))
        deal = orjson.loads(orjson.dumps(generated))["deals"][0]
        if deals and deal["dealer"] != RULES.next_dealer(_table(), deals[-1]["dealer"]):
            continue
        claimed = _claimed(deal)
        if claimed is not None:
            deals.append(claimed)
    record = {
        "format": "recordkit",
        "version": "1.0",
        "game": "charlemagne",
        "options": OPTIONS,
        "players": ["Ana", "Bea", "Cyr", "Dan"],
        "deals": deals,
    }
    return orjson.dumps(record)


def _in_seat_order(deal: dict[str, Any]) -> None:
    """Write the first trick not led by the lowest seat in seat order, lowest seat first (the slip
    `HINT-TRICK-ORDER` names)."""
    state = _replayed(deal)
    for number, trick in enumerate(state.tricks[:CLAIM_AFTER], start=1):
        if trick.leader != min(trick.seats):
            codes = deal["tricks"][number - 1].split()
            deal["tricks"][number - 1] = " ".join(
                codes[trick.seats.index(seat)] for seat in sorted(trick.seats)
            )
            return
    raise AssertionError("every trick is led by its lowest seat")


def _hands_swapped(deal: dict[str, Any]) -> None:
    """Swap the hands of seats 0 and 2 (a slip no hint explains: every reading is tried)."""
    hands = deal["hands"]
    hands[0], hands[2] = hands[2], hands[0]


def _searches(record: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> int:
    """How many claim searches the full validation of the record runs (the path of the hints)."""
    calls = [0]
    search = claim.guarantee

    def counted(state: CharlemagneState, seat: int, budget: int = claim.SEARCH_BUDGET) -> int | None:
        calls[0] += 1
        return search(state, seat, budget)

    with monkeypatch.context() as patched:
        patched.setattr(claim, "guarantee", counted)
        validate_record(RawRecord(record, Location()))
    return calls[0]


@pytest.mark.parametrize(("slip", "hints"), [(_in_seat_order, ["HINT-TRICK-ORDER"]), (_hands_swapped, [])])
def test_a_faulty_deal_with_a_claim_costs_a_few_searches(
    slip: Callable[[dict[str, Any]], None], hints: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """charlemagne.play.claim-sure, format.hint: of 30 deals that end with a claim, the first is
    faulty; its hints replay a dozen readings of it (other dealers, auctions, tricks), yet its claim
    is searched at most SEARCHES_PER_FAULTY_DEAL times, and every other deal's once: a reading
    whose hands lost track of a card (one played that its seat does not hold) is no position to
    search. The hint is the one given before."""
    untouched = orjson.loads(_evening())
    assert _searches(untouched, monkeypatch) == DEALS
    faulty = copy.deepcopy(untouched)
    slip(faulty["deals"][0])
    assert [d.code for d in diagnostics_of(faulty) if d.rule == "format.hint"] == hints
    assert _searches(faulty, monkeypatch) <= DEALS - 1 + SEARCHES_PER_FAULTY_DEAL
