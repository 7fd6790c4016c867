"""Charlemagne's columns over tricks-only deals (`rules/charlemagne/columnar_partial.py`) against the
record path.

A deal that leaves its hands and kitty out is proven by the columns exactly when the record path
(`validate_record`) finds nothing at all in its record: no error, no warning and no note of the
checks it could not run (spec/rules/charlemagne.md §8.1). A deal whose report carries only such
a note (every standard deal written so: the kitty taken, or the cards nobody played in a lone
partner's hand and the unused kitty, charlemagne.partial.guess, or passed out,
charlemagne.partial.unplayed; a Maine deal with a lone defender) is proven but for its note
(`recordkit.batch.proofs`), and the batch's findings are then the record path's, notes
included. Copies with one change are never proven, nor noted, when the record path finds more
than a note.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any
from unittest.mock import patch

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from recordkit.batch import proofs, proven
from recordkit.diagnostics import Diagnostic, Location, Severity
from recordkit.generate import generate_record
from recordkit.model import to_data
from recordkit.rules.charlemagne.cards import PLAYERS
from recordkit.rules.charlemagne.options import CharlemagneOptions
from recordkit.sources import RawRecord
from recordkit.validate import Settings, batch_findings, validate_record
from tests.budget import examples
from tests.columnar_helpers import changed_copies, rescored
from tests.test_batch import tricks_only as batch_tricks_only
from tests.test_charlemagne_columnar import CHARLEMAGNE, mistake, provable
from tests.test_properties import PROPERTY, option_values

MANY = settings(PROPERTY, max_examples=int(os.environ.get("RECORDKIT_COLUMNAR_EXAMPLES", examples(40))))
games = st.tuples(option_values(CharlemagneOptions), st.integers(0, 2**31))
"""Every variant and option of Charlemagne (four players, its only table size), and a seed."""
maine_mostly = st.tuples(
    st.tuples(option_values(CharlemagneOptions), st.sampled_from(["maine", "maine", "standard"])).map(
        lambda drawn: {**drawn[0], "variant": drawn[1]}
    ),
    st.integers(0, 2**31),
)
"""Every option, the Maine game two times in three: its tricks-only deals are the ones proven."""
standard = st.tuples(
    option_values(CharlemagneOptions).map(lambda drawn: {**drawn, "variant": "standard"}),
    st.integers(0, 2**31),
)
"""Every option of the standard game, whose every tricks-only deal is noted."""


def tricks_only(options: dict[str, Any], seed: int, deals: int = 4) -> dict[str, Any]:
    """A generated four-player game (random play: every contract, knocks, lone defenders) in its
    tricks-only form: no hands, no kitty (`partial.forget`)."""
    return batch_tricks_only((CHARLEMAGNE, PLAYERS, options, seed), deals)


def raw(record: dict[str, Any]) -> RawRecord:
    """A record as a reader gives it (a copy: nothing checked can change it)."""
    return RawRecord(orjson.loads(orjson.dumps(record)), Location(record=1))


def found(record: dict[str, Any]) -> list[str]:
    """The codes of everything the record path finds in a record, notes included."""
    return [finding.code for finding in validate_record(raw(record), Settings()).diagnostics]


def verdicts(records: list[dict[str, Any]]) -> list[bool]:
    """Which records one batch proves (`recordkit.batch.proven`)."""
    return proven([raw(record) for record in records])


def covered(records: list[dict[str, Any]]) -> list[bool]:
    """Which records one batch proves, or proves but for the notes of some deals (`proofs`)."""
    return [proof is not None for proof in proofs([raw(record) for record in records])]


def batched(records: list[dict[str, Any]]) -> list[list[Diagnostic]]:
    """What one batch finds in each record (`validate.batch_findings`, the columns for a batch of
    any size): the notes of the deals the columns note, replayed once a table and key."""
    with patch("recordkit.validate.SMALL_BATCH", 1):
        reports = batch_findings([raw(record) for record in records], Settings())
    return [report.diagnostics if not isinstance(report, Diagnostic) else [report] for report in reports]


def full(record: dict[str, Any]) -> list[Diagnostic]:
    """What the record path finds in a record, as the batch reports it (without its replays)."""
    return validate_record(raw(record), Settings()).findings().diagnostics


@MANY
@given(st.lists(games, min_size=1, max_size=4))
def test_tricks_only_records_are_proven_exactly_when_the_record_path_finds_nothing(drawn: list[Any]) -> None:
    """charlemagne.partial.hands, .guess, .unplayed: generated tricks-only records of every
    option set, in one batch: the columns prove each record in the bare form (`provable`) that the
    record path finds nothing in (no note either), and no other."""
    records = [tricks_only(options, seed) for options, seed in drawn]
    assert verdicts(records) == [provable(record) and not found(record) for record in records]


@MANY
@given(st.lists(standard, min_size=1, max_size=4))
def test_every_noted_deal_gets_the_record_path_s_note(drawn: list[Any]) -> None:
    """charlemagne.partial.guess, .unplayed: generated standard tricks-only records of every
    option, in one batch: each one in the bare form (`provable`) is proven but for its deals'
    notes, whose record path finds nothing else, and the batch's findings, each note written by
    the replay of the first deal of its table and key, are the record path's."""
    records = [tricks_only(options, seed) for options, seed in drawn]
    assert covered(records) == [provable(record) for record in records]
    for record, notes in zip(records, batched(records), strict=True):
        assert notes == full(record)
        assert all(note.code == "DEAL-NOT-CHECKED" for note in notes) or not provable(record)


@MANY
@given(games, st.data())
def test_no_single_change_hides_behind_a_note(game: tuple[dict[str, Any], int], data: st.DataObject) -> None:
    """Copies of a generated tricks-only record of any option (the standard game, whose deals are
    noted, one time in two), each with one change (a typing mistake, half of them rescored, or
    any change anywhere): none that the record path finds an error or a warning in is proven
    or noted, and the batch's findings in every copy are the record path's."""
    copies = changed_copies(tricks_only(*game), data, CHARLEMAGNE, mistake, 12, 8)
    reports = batched(copies)
    for copy, kept, notes in zip(copies, covered(copies), reports, strict=True):
        expected = full(copy)
        assert notes == expected, copy
        if kept:
            assert all(finding.severity == Severity.INFO for finding in expected), copy


@MANY
@given(maine_mostly, st.data())
def test_no_single_change_slips_through_the_columns_from_tricks_only_json(
    game: tuple[dict[str, Any], int], data: st.DataObject
) -> None:
    """Copies of a generated tricks-only record, each with one change (a typing mistake, half of
    them rescored, or any change anywhere): the batch proves none that the record path finds
    anything in."""
    copies = changed_copies(tricks_only(*game), data, CHARLEMAGNE, mistake, 12, 8)
    for copy, clean in zip(copies, verdicts(copies), strict=True):
        if clean:
            assert found(copy) == [], copy


def _proven_maine(picked: Callable[[dict[str, Any]], bool]) -> tuple[dict[str, Any], dict[str, Any]]:
    """A generated Maine tricks-only record the columns prove, and its first deal `picked` chooses."""
    for seed in range(200):
        record = tricks_only({"variant": "maine"}, seed)
        deal = next((deal for deal in record["deals"] if picked(deal)), None)
        if deal is not None and verdicts([record]) == [True]:
            return record, deal
    raise AssertionError("no generated record of the kind wanted")


def _left_with(record: dict[str, Any], codes: set[str]) -> None:
    """The columns do not prove the record, and the record path finds these codes in it."""
    assert verdicts([record]) == [False]
    assert codes <= set(found(record)), found(record)


def test_a_revoke_seen_from_the_tricks_alone_is_left_to_the_record_path() -> None:
    """charlemagne.play.follow: two cards swapped between tricks (at the same place), so that a
    seat plays off the suit led while its hand derived from the play holds that suit, rescored:
    CHARLEMAGNE-REVOKE from the tricks alone, and the columns leave the record to the record path."""
    for seed in range(40):
        record = tricks_only({"variant": "maine"}, seed)
        for index, deal in enumerate(record["deals"]):
            tricks = [trick.split() for trick in deal["tricks"]]
            for first in range(len(tricks) - 1):
                for second in range(first + 1, len(tricks)):
                    for place in range(1, len(tricks[first])):
                        copy = orjson.loads(orjson.dumps(record))
                        changed = [list(trick) for trick in tricks]
                        changed[first][place], changed[second][place] = (
                            changed[second][place],
                            changed[first][place],
                        )
                        copy["deals"][index]["tricks"] = [" ".join(trick) for trick in changed]
                        rescored(copy)
                        if set(found(copy)) == {"CHARLEMAGNE-REVOKE"}:
                            _left_with(copy, {"CHARLEMAGNE-REVOKE"})
                            return
    raise AssertionError("no swap gives a revoke alone")


def test_a_wrong_score_is_left_to_the_record_path() -> None:
    """charlemagne.score: a proven Maine tricks-only record with one score changed is not
    proven; the record path reports SCORE-MISMATCH."""
    record, deal = _proven_maine(lambda deal: bool(deal.get("tricks")))
    deal["result"]["scores"][0] += 1
    _left_with(record, {"SCORE-MISMATCH"})


def test_a_card_played_twice_is_left_to_the_record_path() -> None:
    """charlemagne.partial.conflict, charlemagne.play.held: a card of the first trick played again
    in the last one, in the place of another: the derived hands cannot hold it twice, so the
    columns leave the record to the record path, which reports PLAY-NOT-HELD."""
    record, deal = _proven_maine(lambda deal: bool(deal.get("tricks")))
    last = deal["tricks"][-1].split()
    last[-1] = deal["tricks"][0].split()[-1]
    deal["tricks"][-1] = " ".join(last)
    rescored(record)
    _left_with(record, {"PLAY-NOT-HELD"})


def test_a_lone_partner_s_hand_is_derived_and_proven() -> None:
    """charlemagne.partial.hands, charlemagne.lone.out: a Maine Charlemagne alone, the partner's
    hand (the card he passed and the cards nobody played) derived: proven, the record path
    finding nothing."""
    record, _ = _proven_maine(lambda deal: bool(deal.get("partner_card")) and deal.get("tricks"))
    assert found(record) == []


def _noted_with(record: dict[str, Any]) -> list[str]:
    """The columns prove the record but for the notes of some deals (not clean), and the batch
    writes the record path's findings, only notes; their messages."""
    assert verdicts([record]) == [False] and covered([record]) == [True]
    notes = batched([record])[0]
    assert notes == full(record) and notes
    assert {note.code for note in notes} == {"DEAL-NOT-CHECKED"}
    return [note.message for note in notes]


def test_a_lone_defender_s_deal_is_noted() -> None:
    """charlemagne.partial.guess: a Maine Charlemagne alone against a lone defender leaves the two
    hands out of the play unknown apart: the columns split the cards nobody played as the record
    path does (the lower seat's hand first, lowest cards first) and prove the rest, and the note
    of what was not checked is the record path's."""
    for seed in range(200):
        record = tricks_only({"variant": "maine"}, seed)
        if provable(record) and any("alone" in (deal.get("defence") or []) for deal in record["deals"]):
            messages = _noted_with(record)
            assert any("none of them written" in message for message in messages), messages
            return
    raise AssertionError("no generated deal with a lone defender")


def test_a_standard_tricks_only_deal_is_noted() -> None:
    """charlemagne.partial.guess, .unplayed: every standard deal without hands and kitty carries a
    note (the kitty taken, neither it nor the bidder's hand written; the lone partner's hand and
    the unused kitty; or passed out), so the columns prove such a record but for its notes, which
    the batch writes as the record path does; with the kitty written, which no row holds, the
    deal is not in the bare form."""
    record = tricks_only({}, 1)
    assert len(_noted_with(record)) == len(record["deals"])
    whole = orjson.loads(
        orjson.dumps(to_data(generate_record(CHARLEMAGNE, PLAYERS, 4, 1, {}, player="random")))
    )
    for deal, dealt in zip(record["deals"], whole["deals"], strict=True):
        deal["kitty"] = dealt["kitty"]
    assert covered([record]) == [False]


def test_a_wrong_discard_is_left_to_the_record_path() -> None:
    """charlemagne.exchange.held, charlemagne.partial.conflict: a standard bidder who took the
    kitty and discards a card an opponent plays: the columns neither prove nor note the record,
    and the record path reports the card shown twice."""
    for seed in range(100):
        record = tricks_only({}, seed)
        deal = next((deal for deal in record["deals"] if deal.get("discard") and deal.get("tricks")), None)
        if deal is None or not covered([record])[0]:
            continue
        discard = deal["discard"].split()
        discard[0] = next(card for trick in deal["tricks"] for card in trick.split() if card not in discard)
        deal["discard"] = " ".join(discard)
        assert covered([record]) == [False]
        assert any(finding.severity != Severity.INFO for finding in full(record)), full(record)
        return
    raise AssertionError("no generated deal with a discard")
