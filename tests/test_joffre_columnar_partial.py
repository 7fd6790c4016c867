"""Joffre's columnar check of tricks-only deals (`joffre.partial.tricks-only`) against the record path.

Bulk JSON whose deals leave their hands out is proven by the columns (`recordkit.batch.proven`),
each hand the cards its seat played as the leaders and winners seat them: generated tricks-only
records of every table size and option are proven exactly when the record path finds nothing in
them; copies with one change each are never proven when it finds anything; and the faults the
tricks alone show (a revoke, a wrong score, a card played twice) and the deals the record path
notes (nobody bid, not played out) are left to it.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from recordkit.batch import proven
from recordkit.validate import Settings, validate_record
from tests.budget import examples
from tests.columnar_helpers import changed_copies, rescored
from tests.test_batch import raws, tricks_only
from tests.test_joffre_columnar import JOFFRE, joffre_games, mistake
from tests.test_properties import PROPERTY
from tests.test_properties import play as play_game

MANY = settings(PROPERTY, max_examples=examples(120))
"""Each property's examples: a few milliseconds each (records of four deals)."""

Game = tuple[Any, int, dict[str, Any], int]
"""A generated game: the ruleset, its players, its options and the seed."""


def found(record: dict[str, Any]) -> list[str]:
    """The codes of everything the record path finds in a record (notes too)."""
    return [d.code for d in validate_record(raws([record])[0], Settings()).diagnostics]


@MANY
@given(st.lists(joffre_games, min_size=1, max_size=4))
def test_generated_tricks_only_records_are_proven_by_the_columns(games: list[Game]) -> None:
    """joffre.partial.tricks-only: generated tricks-only records of every option and table size
    are proven exactly when the record path finds nothing at all in them (a deal nobody bid in
    gets its note, joffre.partial.not-played-out, and stays the record path's), also in one batch
    with the same games written whole."""
    both = [(tricks_only(game), play_game(game, deals=4)) for game in games]
    records, whole = [record for record, _ in both if record], [full for record, full in both if record]
    if not records:
        return
    reports = [found(record) for record in records]
    assert all(set(codes) <= {"DEAL-NOT-CHECKED"} for codes in reports), reports
    verdicts = [not codes for codes in reports]
    assert proven(raws(records)) == verdicts
    assert proven(raws(records + whole)) == verdicts + [True] * len(whole), "the two forms in one batch"


def typed(hands: list[list[str]], record: dict[str, Any], data: st.DataObject) -> None:
    """A typist's mistake (`test_joffre_columnar.mistake`) in a tricks-only record: made with the
    record's dealt `hands` written back (a swap between hands, a seat's own cards swapped between
    tricks), then left out again, so that what the copy keeps is in the tricks."""
    for deal, dealt in zip(record["deals"], hands, strict=True):
        deal["hands"] = list(dealt)
    mistake(record, data)
    for deal in record["deals"]:
        deal.pop("hands", None)


@MANY
@given(joffre_games, st.data())
def test_no_single_change_to_a_tricks_only_record_slips_through(game: Game, data: st.DataObject) -> None:
    """Copies of a generated tricks-only record, each with one change (a typing mistake of
    Joffre's, or any change anywhere, rescored or not): the columns prove none that the record
    path finds anything in."""
    record = tricks_only(game)
    if not record:
        return
    hands = [deal["hands"] for deal in play_game(game, deals=4)["deals"]]
    copies = changed_copies(record, data, JOFFRE, partial(typed, hands), count=8, mistaken=5)
    for raw, clean in zip(raws(copies), proven(raws(copies)), strict=True):
        if clean:
            diagnostics = validate_record(raw, Settings()).diagnostics
            assert diagnostics == [], diagnostics[:3]


Change = Callable[[dict[str, Any]], bool]
"""A change to a clean tricks-only record, in place; False when the record has no place for it."""


def revoke(record: dict[str, Any]) -> bool:
    """joffre.play.follow: two cards of one seat swapped between two tricks of a deal so that the
    seat plays off the nation led while it plays that nation later (the leaders and winners kept,
    the deal rescored): a revoke the tricks alone show."""
    replays = validate_record(raws([record])[0], Settings()).replays
    for index, replay in enumerate(replays):
        tricks = replay.state.tricks if replay is not None and replay.state is not None else []
        for i in range(len(tricks)):
            for j in range(i + 1, len(tricks)):
                for seat in range(len(record["players"])):
                    copy = orjson.loads(orjson.dumps(record))
                    deal = copy["deals"][index]
                    a, b = deal["tricks"][i].split(), deal["tricks"][j].split()
                    p, q = tricks[i].seats.index(seat), tricks[j].seats.index(seat)
                    a[p], b[q] = b[q], a[p]
                    deal["tricks"][i], deal["tricks"][j] = " ".join(a), " ".join(b)
                    rescored(copy)
                    if found(copy) == ["JOFFRE-REVOKE"]:
                        record.update(copy)
                        return True
    return False


def wrong_score(record: dict[str, Any]) -> bool:
    """joffre.score: one seat's score of the first deal off by one (its totals still its sums)."""
    deal = record["deals"][0]
    deal["result"]["scores"][0] += 1
    for later in record["deals"]:
        later["totals"][0] += 1
    return True


def played_twice(record: dict[str, Any]) -> bool:
    """joffre.deck, joffre.partial.tricks-only: a card of the last trick of the first deal (not its
    winner, nor the Joffre or the Kaiser) replaced by a lower card of its nation played in an
    earlier trick, so that the winners, the nations followed and the scores stay as written: only
    the card dealt twice (and the one dealt to nobody) is wrong."""
    state = validate_record(raws([record])[0], Settings()).replays[0].state
    if state is None or len(state.tricks) < 2:
        return False
    cards, last = state.cards, state.tricks[-1]
    nation, special = cards.nation, {cards.joffre, cards.kaiser}
    for position, card in enumerate(last.cards):
        earlier = [c for trick in state.tricks[:-1] for c in trick.cards if c not in special]
        lower = [c for c in earlier if nation[c] == nation[card] and c < card]
        if last.seats[position] != last.winner and card not in special and lower:
            codes = record["deals"][0]["tricks"][-1].split()
            codes[position] = cards.deck.codes[lower[0]]
            record["deals"][0]["tricks"][-1] = " ".join(codes)
            return True
    return False


def all_passed(record: dict[str, Any]) -> bool:
    """joffre.partial.not-played-out: the last deal passed by all, no cards (a note: nothing to
    derive the hands from), its scores zero and the totals unchanged."""
    deals = record["deals"]
    before = deals[-2]["totals"] if len(deals) > 1 else [0] * len(record["players"])
    deals[-1].update(auction=["pass"] * len(record["players"]), tricks=[], totals=before)
    deals[-1]["result"] = {"scores": [0] * len(record["players"])}
    return True


def abandoned(record: dict[str, Any]) -> bool:
    """joffre.partial.not-played-out: the last deal abandoned after its first trick (a note: the
    hands known only from the cards played), unscored."""
    deal = record["deals"][-1]
    deal.update(status="abandoned", tricks=deal["tricks"][:1])
    rescored(record)
    return True


def cut_short(record: dict[str, Any]) -> bool:
    """joffre.trick.count, joffre.partial.not-played-out: the last deal, still "played", without
    its last trick (the deal incomplete, and a note: the hands known only from the cards played)."""
    deal = record["deals"][-1]
    deal["tricks"] = deal["tricks"][:-1]
    return True


CASES: dict[str, tuple[Change, str, dict[str, Any]]] = {
    "a revoke the tricks show (joffre.play.follow)": (revoke, "JOFFRE-REVOKE", {}),
    "a wrong score (joffre.score)": (wrong_score, "SCORE-MISMATCH", {}),
    "a card played twice (joffre.deck)": (played_twice, "DEAL-DUPLICATE-CARD", {}),
    "nobody bid, no hands (joffre.partial.not-played-out)": (
        all_passed,
        "DEAL-NOT-CHECKED",
        {"opening_bid_forced": False},
    ),
    "a deal cut short (joffre.trick.count)": (cut_short, "DEAL-INCOMPLETE", {}),
    "an abandoned deal, no hands (joffre.partial.not-played-out)": (abandoned, "DEAL-NOT-CHECKED", {}),
}
"""Changes to a clean tricks-only record, each with a code the record path then reports, and the
options of the records changed."""


@pytest.mark.parametrize(("change", "code", "options"), CASES.values(), ids=CASES.keys())
def test_a_fault_in_a_tricks_only_deal_is_left_to_the_record_path(
    change: Change, code: str, options: dict[str, Any]
) -> None:
    """A batch of three clean tricks-only records, the second changed: the columns prove the
    clean ones and leave the changed one to the record path, which reports `code`."""
    for seed in range(20):
        records = [tricks_only((JOFFRE, 4, options, seed * 3 + i), deals=3) for i in range(3)]
        if change(records[1]):
            break
    else:
        raise AssertionError("no generated record takes the change")
    assert code in found(records[1])
    assert proven(raws(records)) == [True, False, True]
