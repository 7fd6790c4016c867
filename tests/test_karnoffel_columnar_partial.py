"""Karnöffel's columnar check over tricks-only deals (`WRITTEN.derives`) against the record path.

A deal that leaves its hands out is proven by the columns with each seat's face-down cards taken
from the cards it played (karnoffel.partial.hands), exactly when the record path finds nothing in
its record: no error, no warning, and no `DEAL-NOT-CHECKED` note (a deal whose play stopped before
every seat played its four face-down cards has one: the columns note it, and its replay writes it). Generated
records of every option and table size are proven exactly so; copies with one change each are
never proven when the record path finds anything; and a few faults visible from the tricks alone
are left to it.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from recordkit.batch import proven
from recordkit.rules.karnoffel.cards import cards_of
from recordkit.validate import Settings, validate_record
from tests.budget import examples
from tests.columnar_helpers import changed_copies, rescored
from tests.test_batch import raws, tricks_only
from tests.test_karnoffel_columnar import KARNOFFEL, karnoffel_games, mistake
from tests.test_properties import PROPERTY

MANY = settings(PROPERTY, max_examples=int(os.environ.get("RECORDKIT_COLUMNAR_EXAMPLES", examples(60))))
"""The batch and the record path per example: a few tens of milliseconds, so many examples."""

Game = tuple[Any, int, dict[str, Any], int]
"""A generated game: the ruleset, the players, the options and the seed."""


def found_in(record: dict[str, Any]) -> list[Any]:
    """Everything the record path finds in a record (notes too)."""
    return validate_record(raws([record])[0], Settings()).diagnostics


@MANY
@given(st.lists(st.tuples(karnoffel_games, st.integers(1, 3)), min_size=1, max_size=6))
def test_tricks_only_records_are_proven_exactly_when_the_record_path_finds_nothing(
    games: list[tuple[Game, int]],
) -> None:
    """Generated tricks-only records of every table size and option set: the batch proves a
    record exactly when the record path finds nothing at all in it (a record with a note of what
    the play leaves unchecked is the record path's, for its note)."""
    records = [record for record in (tricks_only(game, deals) for game, deals in games) if record]
    if not records:
        return
    verdicts = proven(raws(records))
    assert verdicts == [not found_in(record) for record in records]


@pytest.mark.parametrize("players", [2, 4, 6, 8])
@pytest.mark.parametrize(
    "options", [{}, {"play_out": True}, {"deck": 52, "partial_trumps": "any_suit_exceptions"}]
)
def test_every_tricks_only_deal_without_a_note_is_proven(players: int, options: dict[str, Any]) -> None:
    """One-deal tricks-only records: every one the record path finds nothing in is proven (none
    left to it), and there are such records (a deal played to its fifth trick, or given up in
    window 1)."""
    records = [tricks_only((KARNOFFEL, players, options, seed), 1) for seed in range(12)]
    clean = [not found_in(record) for record in records]
    assert proven(raws(records)) == clean
    assert any(clean)


def provable(game: Game, deals: int) -> dict[str, Any]:
    """A tricks-only record of `game` the columns prove, searched over the next seeds (the last
    tried when none is, or {})."""
    ruleset, players, options, seed = game
    record: dict[str, Any] = {}
    for step in range(8):
        record = tricks_only((ruleset, players, options, seed + step), deals)
        if not record or proven(raws([record]))[0]:
            break
    return record


@MANY
@given(karnoffel_games, st.data())
def test_no_single_change_slips_through_the_columns_from_tricks_only_json(
    game: Game, data: st.DataObject
) -> None:
    """Copies of a proven tricks-only record, each with one change (a typist's mistake of
    `test_karnoffel_columnar.mistake`, or any change anywhere, rescored or not): the batch proves
    none that the record path finds anything in."""
    record = provable(game, 2)
    if not record:
        return
    copies = changed_copies(record, data, KARNOFFEL, mistake, count=8, mistaken=5)
    for raw, clean in zip(raws(copies), proven(raws(copies)), strict=True):
        if clean:
            found = validate_record(raw, Settings()).diagnostics
            assert found == [], found[:3]


Change = Callable[[dict[str, Any], Any], None]
"""A change to the deal of a one-deal record, given the record path's replay of it."""


def _clean_deal(
    players: int, options: dict[str, Any], wanted: Callable[[Any], bool]
) -> tuple[dict[str, Any], Any]:
    """A one-deal tricks-only record the columns prove whose replay `wanted` picks, and that
    replay's final state, searched over seeds."""
    for seed in range(200):
        record = tricks_only((KARNOFFEL, players, options, seed), 1)
        if not proven(raws([record]))[0]:
            continue
        replay = validate_record(raws([record])[0], Settings()).replays[0]
        if replay is not None and replay.state is not None and wanted(replay.state):
            return record, replay.state
    raise AssertionError("no generated deal is of the kind wanted")


def _left_with(record: dict[str, Any], code: str) -> None:
    """The batch leaves the record to the record path, which reports `code`."""
    assert proven(raws([record])) == [False]
    assert code in {finding.code for finding in found_in(record)}


def _played_twice(deal: dict[str, Any], state: Any) -> None:
    """The last trick's first card replaced by a card its player played in the first trick."""
    last, first = state.tricks[-1], state.tricks[0]
    seat = last.seats[0]
    again = state.cards.code(first.cards[first.seats.index(seat)])
    cards = deal["tricks"][-1].split()
    deal["tricks"][-1] = " ".join([again, *cards[1:]])


def _devil_first(deal: dict[str, Any], state: Any) -> None:
    """The forehand's first lead swapped with the Devil he plays in a later trick."""
    for t, trick in enumerate(state.tricks[1:], start=1):
        if state.devil in trick.cards and trick.seats[trick.cards.index(state.devil)] == state.forehand:
            first, later = deal["tricks"][0].split(), deal["tricks"][t].split()
            p = trick.cards.index(state.devil)
            first[0], later[p] = later[p], first[0]
            deal["tricks"][0], deal["tricks"][t] = " ".join(first), " ".join(later)
            return


def _devil_played_by_forehand(state: Any) -> bool:
    """Whether the forehand plays the Devil after the first trick."""
    return any(
        state.devil in trick.cards and trick.seats[trick.cards.index(state.devil)] == state.forehand
        for trick in state.tricks[1:]
    )


def _faceup_unplayed(deal: dict[str, Any], state: Any) -> None:
    """A face-up card that is not the choosing one replaced by a King no seat was dealt or played:
    its seat then plays five cards besides its face-up card."""
    faceup = deal["faceup"].split()
    used = {*faceup, *" ".join(deal["tricks"]).split()}
    king = next(code for code in cards_of(48).deck.codes if code.endswith("K") and code not in used)
    lowest = min(range(len(faceup)), key=lambda i: state.cards.rank[state.cards.deck.index[faceup[i]]])
    faceup[(lowest + 1) % len(faceup)] = king
    deal["faceup"] = " ".join(faceup)


CASES: dict[str, tuple[Change, Callable[[Any], bool], str]] = {
    "karnoffel.play.held: a card played twice": (_played_twice, lambda state: True, "PLAY-NOT-HELD"),
    "karnoffel.play.devil-lead: the Devil opening the play": (
        _devil_first,
        _devil_played_by_forehand,
        "KARNOFFEL-DEVIL-LEAD",
    ),
    "karnoffel.score: a wrong score": (
        lambda deal, state: deal["result"]["scores"].__setitem__(0, deal["result"]["scores"][0] + 3),
        lambda state: True,
        "SCORE-MISMATCH",
    ),
    "karnoffel.deal.rounds, .partial.hands: five face-down cards played": (
        _faceup_unplayed,
        lambda state: True,
        "DEAL-HAND-SIZE",
    ),
}
"""Faults visible from the tricks alone: the change, the replays it applies to, and a code the
record path reports."""


@pytest.mark.parametrize(("change", "wanted", "code"), CASES.values(), ids=CASES.keys())
def test_a_fault_the_tricks_show_is_left_to_the_record_path(
    change: Change, wanted: Callable[[Any], bool], code: str
) -> None:
    """A proven tricks-only deal played to its fifth trick, with one fault the derived hands
    show (rescored by the rules, but for the wrong score): not proven; the record path reports
    it."""
    record, state = _clean_deal(4, {"play_out": True}, wanted)
    change(record["deals"][0], state)
    if code != "SCORE-MISMATCH":
        rescored(record)
    _left_with(record, code)


def test_a_deal_stopped_before_every_hand_was_played_is_left_for_its_note() -> None:
    """karnoffel.partial.hands: a clean deal that ended at a side's third trick after three
    tricks leaves its hand sizes unchecked; the record path's only finding is its note, so the
    batch leaves it to the record path."""
    for seed in range(50):
        record = tricks_only((KARNOFFEL, 4, {}, seed), 1)
        if len(record["deals"][0]["tricks"]) == 3:
            break
    assert proven(raws([record])) == [False]
    assert {finding.code for finding in found_in(record)} == {"DEAL-NOT-CHECKED"}


def test_a_deal_given_up_in_window_1_without_hands_is_proven() -> None:
    """karnoffel.partial.hands (K-A17): a deal given up in window 1 dealt no face-down card, so
    its hands left out say what `[]` says: proven, as the record path finds nothing."""
    record, _ = _clean_deal(4, {}, lambda state: state.surrendered and state.window == 1)
    assert "hands" not in record["deals"][0]
    assert found_in(record) == []


def test_the_chosen_suit_left_out_with_round_1_whole_is_still_proven() -> None:
    """karnoffel.partial.suit, karnoffel.deal.chosen-suit: with round 1 written whole, the chosen
    suit left out is the lowest face-up card's and the play fits no other: proven, as the record
    path finds nothing; round 1 left out too is the record path's, for its note."""
    record, _ = _clean_deal(4, {"play_out": True}, lambda state: bool(state.tricks))
    del record["deals"][0]["chosen_suit"]
    assert proven(raws([record])) == [True]
    assert found_in(record) == []
    del record["deals"][0]["faceup"]
    _left_with(record, "DEAL-NOT-CHECKED")
