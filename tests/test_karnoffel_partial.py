"""Karnöffel partial records (spec/rules/karnoffel.md, "Partial records"): hands, face-up cards and
the chosen suit derived from the play, score-sheet deals and their facts.

The rule tests state each situation as the rules text would and write the answer worked out by
hand; each names its rule id. The property tests run generated games at 2, 4, 6 and 8 players:
without their hands they get the same verdict; after a single corruption of their tricks they get
the same findings at the same places as the record written with the hands those tricks imply; their
score-sheet form validates clean and catches any single corrupted fact or score."""

from __future__ import annotations

import copy
import random
from typing import Any

import orjson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recordkit.codec import dumps, loads
from recordkit.derive import derive
from recordkit.diagnostics import Diagnostic, Severity
from recordkit.games import RULESETS
from recordkit.generate import generate_record
from recordkit.rules.karnoffel.record import KarnoffelDeal
from recordkit.rules.values import Table
from tests.budget import examples
from tests.helpers import bump_score, codes_of, diagnostics_of
from tests.test_karnoffel_properties import generated, options
from tests.test_karnoffel_rules import ANNA_CLARA_WIN, FOUR, LUKAS_WINS, TWO, record, scored

KARNOFFEL = RULESETS["karnoffel"]
PROPERTY = settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
NOTE = "DEAL-NOT-CHECKED"

players = st.sampled_from([2, 4, 6, 8])
seeds = st.integers(0, 2**31)


# --- helpers ------------------------------------------------------------------------------------


def findings(data: dict[str, Any]) -> list[Diagnostic]:
    """The errors and warnings of a record (the notes of what was not checked left aside)."""
    return [d for d in diagnostics_of(data) if d.severity != Severity.INFO]


def notes(data: dict[str, Any]) -> list[str]:
    """The messages of the notes of what a record's deals left unchecked."""
    return [d.message for d in diagnostics_of(data) if d.code == NOTE]


def place(d: Diagnostic) -> tuple[Any, ...]:
    """A diagnostic's code and where it is."""
    where = d.location
    return (d.code, where.deal, where.trick, where.position, where.seat, where.path)


def without(deal: dict[str, Any], *keys: str) -> dict[str, Any]:
    """A copy of the deal with these keys left out."""
    return {key: value for key, value in copy.deepcopy(deal).items() if key not in keys}


def table_of(data: dict[str, Any]) -> Table:
    """The table of a record given as JSON."""
    table, _ = KARNOFFEL.table(
        KARNOFFEL.Options.model_validate(data.get("options", {})), len(data["players"])
    )
    assert table is not None
    return table


def completed(data: dict[str, Any], index: int) -> KarnoffelDeal:
    """Deal `index` of a record as the replay completes it from its play."""
    completion, problems = derive(
        KARNOFFEL, table_of(data), KarnoffelDeal.model_validate(data["deals"][index])
    )
    assert completion is not None and problems == []
    return completion.deal  # type: ignore[no-any-return]


# --- karnoffel.partial.hands --------------------------------------------------------------------


def test_five_tricks_played_give_every_hand_whole() -> None:
    """karnoffel.partial.hands: all five tricks are played, so each seat's four face-down cards are
    the cards it played besides its face-up card (Anna's HK, Bernd's C6, Clara's S3, Dieter's D3):
    nothing is left unchecked, and the hands are the ones the players held."""
    data = record(FOUR, scored(without(ANNA_CLARA_WIN, "hands"), [4, 0, 4, 0]))
    assert diagnostics_of(data) == []
    assert completed(data, 0).hands == ["S4 S5 CJ D6", "SJ C2 H9 D7", "S2 S6 HQ D10", "S7 C9 H5 DQ"]


def test_an_early_end_leaves_unplayed_cards_unknown() -> None:
    """karnoffel.partial.hands: Lukas wins the fourth trick and the deal stops. He played four cards
    and kept his face-up C3, so his face-down cards are known; Marie played her face-up H3 and
    three face-down cards, so one of hers is not known and her hand's size is not checked."""
    data = record(TWO, scored(without(LUKAS_WINS, "hands"), [4, 0]))
    assert findings(data) == []
    assert completed(data, 0).hands == ["S10 CJ H5 D9", "SK C6 D8"]
    (note,) = notes(data)
    assert "the hand sizes for seat 1 (the deal ended before every card was played" in note


def test_a_surrender_in_window_one_deals_nothing_face_down() -> None:
    """karnoffel.partial.hands: after a surrender in window 1 `hands` left out says what `[]` says
    (format 1.0): no face-down card was dealt, so nothing is unknown."""
    deal = {"dealer": 1, "faceup": "DJ C5", "proposals": [["raise", "surrender"]]}
    assert diagnostics_of(record(FOUR, scored(deal, [4, 0, 4, 0]))) == []
    assert diagnostics_of(record(FOUR, scored({**deal, "hands": []}, [4, 0, 4, 0]))) == []


def test_empty_hands_still_mean_nothing_dealt_face_down() -> None:
    """karnoffel.deal.rounds, karnoffel.partial.hands: `hands: []` keeps its 1.0 meaning (no card
    face down) and a played deal then has too few hands; leaving `hands` out is how to say they
    are not known, and the message says so."""
    found = diagnostics_of(record(TWO, scored({**LUKAS_WINS, "hands": []}, [4, 0])))
    assert found[0].code == "DEAL-HAND-COUNT"
    assert "leave `hands` out when they are not known" in found[0].message
    assert "PLAY-NOT-HELD" in {d.code for d in found}


def test_a_card_played_twice_is_not_held() -> None:
    """karnoffel.play.held, karnoffel.partial.hands: Lukas leads H5 in trick 3 and again in trick 4;
    whatever his hand was, he no longer held H5."""
    deal = {**without(LUKAS_WINS, "hands"), "tricks": ["S10 SK", "C6 CJ", "H5 H3", "H5 D8"]}
    found = findings(record(TWO, scored(deal, [4, 0])))
    assert [(d.code, d.location.trick, d.location.position, d.location.seat) for d in found] == [
        ("PLAY-NOT-HELD", 4, 1, 0)
    ]
    assert "already played in trick 3" in found[0].message


def test_a_face_up_card_played_by_another_seat_is_dealt_twice() -> None:
    """karnoffel.deck, karnoffel.partial.hands: Marie plays C3, Lukas's face-up card, under his DK in
    trick 4: it would be in two hands."""
    deal = {**without(LUKAS_WINS, "hands"), "tricks": ["S10 SK", "C6 CJ", "H5 H3", "DK C3"]}
    assert codes_of(record(TWO, scored(deal, [4, 0]))) == ["DEAL-DUPLICATE-CARD", NOTE]


def test_five_cards_besides_the_face_up_card_are_one_too_many() -> None:
    """karnoffel.deal.rounds, karnoffel.partial.hands: Anna's face-up card is C10, yet she plays five
    other cards: five face-down cards, proven by the play."""
    deal = {**without(ANNA_CLARA_WIN, "hands"), "faceup": "C6 S3 D3 C10"}
    found = findings(record(FOUR, scored(deal, [4, 0, 4, 0])))
    assert [(d.code, d.location.seat, d.location.path) for d in found] == [
        ("DEAL-HAND-SIZE", 0, "deals[0].hands[0]")
    ]
    assert found[0].message.endswith("(derived from the cards played)")


def test_the_scorekeepers_own_hand() -> None:
    """karnoffel.partial.hands: Lukas writes his own hand and not Marie's (`null`): hers comes from
    the play; his is checked as written."""
    deal = {**LUKAS_WINS, "hands": ["CJ S10 D9 H5", None]}
    assert findings(record(TWO, scored(deal, [4, 0]))) == []
    wrong = {**LUKAS_WINS, "hands": ["CJ S10 D9 H6", None]}
    assert [(d.code, d.location.trick) for d in findings(record(TWO, scored(wrong, [4, 0])))] == [
        ("PLAY-NOT-HELD", 3)
    ]


# --- karnoffel.partial.faceup -------------------------------------------------------------------


def test_round_one_from_the_cards_played_outside_the_hands() -> None:
    """karnoffel.partial.faceup: every face-up card was played, and each is the one card its seat
    played outside its written face-down cards: round 1 is known whole, and nothing is unchecked."""
    data = record(FOUR, scored({**without(ANNA_CLARA_WIN, "faceup"), "chosen_suit": "S"}, [4, 0, 4, 0]))
    assert diagnostics_of(data) == []
    assert completed(data, 0).faceup == "C6 S3 D3 HK"


def test_a_face_up_card_never_played_stays_unknown() -> None:
    """karnoffel.partial.faceup: Lukas never plays his face-up C3, so round 1 is known only in part,
    and the chosen suit written (clubs) cannot be checked against it."""
    data = record(TWO, scored({**without(LUKAS_WINS, "faceup"), "chosen_suit": "C"}, [4, 0]))
    assert findings(data) == []
    assert completed(data, 0).faceup == [None, "H3"]
    (note,) = notes(data)
    assert "the chosen suit (the face-up cards are not all known)" in note


def test_two_cards_outside_the_hand_are_one_too_many() -> None:
    """karnoffel.partial.faceup, karnoffel.play.held: Marie plays H3 and HQ, neither among her
    face-down cards: one of them was face up, the second she did not hold."""
    deal = {
        **without(LUKAS_WINS, "faceup"),
        "chosen_suit": "C",
        "tricks": ["S10 SK", "C6 CJ", "H5 H3", "D9 HQ"],
    }
    found = findings(record(TWO, scored(deal, [4, 0])))
    assert [(d.code, d.location.trick, d.location.seat) for d in found] == [("PLAY-NOT-HELD", 4, 1)]


def test_a_face_up_card_may_be_written_null() -> None:
    """karnoffel.partial.faceup: round 1 in the list form, a card not known written null; the
    canonical form keeps the nulls."""
    deal = {**LUKAS_WINS, "faceup": [None, "H3"], "chosen_suit": "C"}
    data = record(TWO, scored(deal, [4, 0]))
    assert findings(data) == []
    text = dumps(loads(orjson.dumps(data)))
    assert '"faceup":[null,"H3"]' in text


# --- karnoffel.partial.suit ---------------------------------------------------------------------

# Two players, Marie deals, Lukas (seat 0) leads. No round 1, no hands, no chosen suit: only clubs
# fits. Hearts: H7 would be the Devil opening the play. Spades: the Kaiser S2 takes trick 1 and
# Marie all three tricks, not what the sheet says. Diamonds: the Kaiser D2 takes trick 2, Marie's
# SQ trick 3, and nobody has three tricks after the third. Clubs: Lukas takes all three.
TRICKS_ONLY: dict[str, Any] = {"dealer": 1, "tricks": ["H7 S2", "CK D2", "SQ HK"]}


def test_the_chosen_suit_from_the_play() -> None:
    """karnoffel.partial.suit: the only suit under which the play holds together is clubs."""
    data = record(TWO, scored(TRICKS_ONLY, [4, 0]))
    assert findings(data) == []
    deal = completed(data, 0)
    assert deal.chosen_suit == "C"
    assert deal.hands == ["SQ CK H7", "S2 HK D2"]
    (note,) = notes(data)
    assert "chosen_suit derived from the play" in note


def test_suits_that_fit_alike_leave_the_play_unknown() -> None:
    """karnoffel.partial.suit: without the score, spades fits too (Marie then takes all three), with
    other leaders: who played which card is not known, and the deal is replayed with spades."""
    data = record(TWO, TRICKS_ONLY)
    assert codes_of(data) == ["SCORE-MISSING", NOTE]
    (note,) = notes(data)
    assert "spades and clubs fit the play but give the tricks other leaders" in note
    assert completed(data, 0).chosen_suit == "S"


def test_no_suit_fits_the_play() -> None:
    """karnoffel.partial.suit: a fourth trick "DK DQ" fits no suit: clubs gives Lukas three tricks
    after the third, diamonds gives Marie the deal against the sheet; clubs, first of those with
    one fault, is the reading, and the trick played on is reported."""
    data = record(TWO, scored({**TRICKS_ONLY, "tricks": [*TRICKS_ONLY["tricks"], "DK DQ"]}, [4, 0]))
    assert codes_of(data) == ["KARNOFFEL-PLAYED-ON", NOTE]
    (note,) = notes(data)
    assert "no chosen suit fits the play; it is replayed with clubs" in note


# --- karnoffel.sheet ----------------------------------------------------------------------------


def sheet(*lines: dict[str, Any], **options: Any) -> dict[str, Any]:
    """A four-player record of score-sheet lines (dealer rotation from seat 0) with running totals."""
    totals = [0, 0, 0, 0]
    deals = []
    for index, line in enumerate(lines):
        scores = line["result"]["scores"]
        totals = [total + score for total, score in zip(totals, scores, strict=True)]
        deals.append({"dealer": index % 4, **line, "totals": totals})
    return {**record(FOUR, **options), "version": "1.1", "deals": deals}


def result(scores: list[int], **facts: int) -> dict[str, Any]:
    """A sheet line's result."""
    return {"result": {"scores": scores, **facts}}


def test_a_sheet_line_is_scored_like_a_played_deal() -> None:
    """karnoffel.sheet, karnoffel.score: each seat of the winning side scores the value, the others
    nothing: the value and a seat of the side, or the side that gave up, or only the scores."""
    data = sheet(
        result([0, 10, 0, 10], value=10, winner=3),
        result([4, 0, 4, 0], value=4, surrender=1),
        result([0, 7, 0, 7]),
        {"proposals": [["raise", "surrender"]], **result([4, 0, 4, 0])},
    )
    assert findings(data) == []
    assert codes_of(data) == [NOTE] * 4


def test_a_sheet_with_wrong_arithmetic() -> None:
    """karnoffel.score: Grete and Liesl won at 10, but the sheet gives Liesl 7."""
    found = findings(sheet(result([0, 10, 0, 7], value=10, winner=1)))
    assert [(d.code, d.location.path, d.expected) for d in found] == [
        ("SCORE-MISMATCH", "deals[0].result.scores", "+0 +10 +0 +10")
    ]


def test_a_sheets_proposals_are_replayed() -> None:
    """karnoffel.sheet, karnoffel.propose.answer: the proposals a sheet writes follow the rules of
    the windows: an accept with no raise waiting is an error there too."""
    found = findings(sheet({"proposals": [["accept"]], **result([4, 0, 4, 0], value=4, winner=0)}))
    assert [d.code for d in found] == ["KARNOFFEL-NOTHING-TO-ANSWER"]


def test_impossible_facts() -> None:
    """karnoffel.sheet.facts: a value that is not 4, 7, 10 …, a seat not at the table, a side that
    gave up and won, a line where nobody scores."""
    cases = [
        (result([5, 0, 5, 0], value=5, winner=0), "value"),
        (result([4, 0, 4, 0], value=4, winner=6), "winner"),
        (result([4, 0, 4, 0], value=4, winner=0, surrender=2), "surrender"),
        (result([0, 0, 0, 0]), "scores"),
    ]
    for line, field in cases:
        found = findings(sheet(line))
        assert [(d.code, d.location.path) for d in found] == [("SHEET-BAD-FACT", f"deals[0].result.{field}")]


def test_the_going_out_cap_bounds_a_sheets_value() -> None:
    """karnoffel.sheet.facts, karnoffel.propose.cap: with 97 before the deal and a target of 101,
    nobody may raise: the deal is worth 4, and nobody can have given it up."""
    before = result([97, 0, 97, 0], value=97, winner=0)
    found = findings(sheet(before, result([7, 0, 7, 0], value=7, winner=0)))
    assert [(d.code, d.location.deal, d.location.path) for d in found] == [
        ("SHEET-BAD-FACT", 2, "deals[1].result.value")
    ]
    assert "stops at 4" in found[0].message
    found = findings(sheet(before, result([0, 4, 0, 4], value=4, surrender=0)))
    assert [(d.code, d.location.path) for d in found] == [("SHEET-BAD-FACT", "deals[1].result.surrender")]
    assert findings(sheet(before, result([4, 0, 4, 0], value=4, winner=0))) == []


def test_the_raise_limit_bounds_a_sheets_value() -> None:
    """karnoffel.sheet.facts, karnoffel.propose.reraise: with one raise a deal, 7 is the most a deal
    is worth, and a deal given up at 7 would need a second raise."""
    limited = {"reraise": "max_total_raises", "max_total_raises": 1}
    assert findings(sheet(result([7, 0, 7, 0], value=7, winner=0), **limited)) == []
    assert findings(sheet(result([4, 0, 4, 0], value=4, surrender=1), **limited)) == []
    for line in (result([10, 0, 10, 0], value=10, winner=0), result([7, 0, 7, 0], value=7, surrender=1)):
        assert [d.code for d in findings(sheet(line, **limited))] == ["SHEET-BAD-FACT"]


def test_facts_against_a_sheets_own_proposals() -> None:
    """karnoffel.sheet.check: a raise accepted in window 1 makes the deal worth 7, not 10."""
    found = findings(sheet({"proposals": [["raise", "accept"]], **result([7, 0, 7, 0], value=10, winner=0)}))
    assert [(d.code, d.location.path) for d in found] == [("SHEET-MISMATCH", "deals[0].result.value")]
    assert found[0].message == "the sheet says the deal was worth 10; the proposals give 7"


def test_facts_against_the_tricks() -> None:
    """karnoffel.sheet.check: Anna and Clara win the deal at 4; the sheet may say so, and is checked."""
    deal = scored(ANNA_CLARA_WIN, [4, 0, 4, 0])
    assert findings(record(FOUR, {**deal, "result": {"scores": [4, 0, 4, 0], "value": 4, "winner": 2}})) == []
    cases = [({"value": 7}, "value"), ({"winner": 1}, "winner"), ({"surrender": 1}, "surrender")]
    for facts, field in cases:
        found = findings(record(FOUR, {**deal, "result": {"scores": [4, 0, 4, 0], **facts}}))
        assert [(d.code, d.location.path) for d in found] == [("SHEET-MISMATCH", f"deals[0].result.{field}")]


def test_a_surrender_against_the_proposals() -> None:
    """karnoffel.sheet.check: Bernd (seat 1) raises in window 1 and Anna's side gives up: the sheet
    that says Bernd's side gave up is wrong."""
    deal = scored({"dealer": 0, "faceup": "DJ C5", "proposals": [["raise", "surrender"]]}, [0, 4, 0, 4])
    assert findings(record(FOUR, {**deal, "result": {"scores": [0, 4, 0, 4], "surrender": 0}})) == []
    found = findings(record(FOUR, {**deal, "result": {"scores": [0, 4, 0, 4], "surrender": 3}}))
    assert [d.message for d in found] == [
        "the sheet says seats 1 and 3 gave the deal up; seats 0 and 2 did, refusing seat 1's raise"
    ]


def test_the_proposer_deals_after_a_sheet_surrender() -> None:
    """karnoffel.deal.rotation, karnoffel.sheet: with dealer_after_surrender = proposer, after seat 2's
    raise is refused seat 2 deals, though seat 1 was forehand; the sheet's winner says who raised."""
    line = result([4, 0, 4, 0], value=4, winner=2, surrender=1)
    data = sheet(line, result([0, 4, 0, 4], value=4, winner=1), dealer_after_surrender="proposer")
    data["deals"][1]["dealer"] = 2
    assert findings(data) == []
    data["deals"][1]["dealer"] = 1
    assert [d.code for d in findings(data)] == ["DEAL-DEALER-ROTATION"]


def test_a_sheet_evening_ends_at_the_target() -> None:
    """karnoffel.game.end: a sheet line after a side reached the target is a deal too many."""
    data = sheet(result([0, 31, 0, 31], value=31, winner=1), result([4, 0, 4, 0]), target=31)
    assert [d.code for d in findings(data)] == ["DEAL-AFTER-GAME-END"]


# --- properties over generated games ------------------------------------------------------------


@PROPERTY
@given(players, seeds, options)
def test_hands_left_out_give_the_same_verdict(n: int, seed: int, opts: dict[str, Any]) -> None:
    """Every generated game, without the face-down hands (`Ruleset.forget`), validates as with them:
    clean, every check it could not run listed in a note."""
    data = generated(n, seed, opts)
    assert findings(data) == []
    table = table_of(data)
    for deal in data["deals"]:
        forgotten = KARNOFFEL.forget(table, KarnoffelDeal.model_validate(deal))
        deal.clear()
        deal.update(orjson.loads(orjson.dumps(forgotten.model_dump(mode="json", exclude_none=True))))
        assert "hands" not in deal
    assert findings(data) == []


def corrupt(data: dict[str, Any], rng: random.Random) -> int | None:
    """One corruption of the tricks of a deal that has some: a card moved to another trick, two
    cards swapped, or a card replaced by another of the deck; the deal's index (None: no tricks)."""
    played = [index for index, deal in enumerate(data["deals"]) if deal["tricks"]]
    if not played:
        return None
    index = rng.choice(played)
    tricks = [trick.split() for trick in data["deals"][index]["tricks"]]
    places = [(trick, position) for trick, cards in enumerate(tricks) for position in range(len(cards))]
    kind = rng.choice(["move", "swap", "replace"] if len(tricks) > 1 else ["swap", "replace"])
    if kind == "swap":
        (a, b), (c, d) = rng.sample(places, 2)
        tricks[a][b], tricks[c][d] = tricks[c][d], tricks[a][b]
    elif kind == "move":
        a, b = rng.choice(places)
        card = tricks[a].pop(b)
        target = rng.choice([trick for trick in range(len(tricks)) if trick != a])
        tricks[target].insert(rng.randrange(len(tricks[target]) + 1), card)
    else:
        a, b = rng.choice(places)
        tricks[a][b] = rng.choice([code for code in table_of(data).deck.codes if code != tricks[a][b]])
    data["deals"][index]["tricks"] = [" ".join(cards) for cards in tricks]
    return index


@PROPERTY
@given(players, seeds, options, st.integers(0, 2**31))
def test_a_corrupted_play_reads_the_same_without_the_hands(
    n: int, seed: int, opts: dict[str, Any], pick: int
) -> None:
    """After a single corruption of a generated game's tricks, the game without the hands of that
    deal has the same findings at the same places as the game written with the hands those tricks
    imply (found by `recordkit.derive.derive` on the corrupted deal), but for the checks that the
    partial deal says it could not run: those only."""
    full = generated(n, seed, opts, deals=3)
    index = corrupt(full, random.Random(pick))
    if index is None:
        return
    partial = copy.deepcopy(full)
    partial["deals"][index].pop("hands", None)
    completion, problems = derive(
        KARNOFFEL, table_of(full), KarnoffelDeal.model_validate(partial["deals"][index])
    )
    unchecked = completion.unchecked if completion is not None else {}
    if completion is not None:
        implied = completion.deal.model_dump(mode="json", exclude_none=True)
        full["deals"][index] = orjson.loads(orjson.dumps(implied))
    expected = [
        place(d)
        for d in findings(full)
        if (d.code, None) not in unchecked
        and (d.code, d.location.seat) not in unchecked
        and not (d.location.seat is None and d.code in {code for code, _ in unchecked})  # "and N more"
    ]
    assert [place(d) for d in findings(partial)] == expected
    if problems:
        assert expected and all(code == "PLAY-TRICK-SIZE" for code, *_ in expected)


def with_facts(data: dict[str, Any], sheet_form: dict[str, Any]) -> dict[str, Any]:
    """The generated game with the facts of its sheet form written into each played deal's result."""
    out = copy.deepcopy(data)
    for deal, line in zip(out["deals"], sheet_form["deals"], strict=True):
        if "result" in line:
            deal["result"] = copy.deepcopy(line["result"])
    return out


def corrupt_fact(data: dict[str, Any], rng: random.Random) -> None:
    """Change one fact a deal's result writes so that it says something else: a score (carried into
    the running totals), the value, the winning side, or the side that gave up."""
    index = rng.choice([i for i, deal in enumerate(data["deals"]) if "result" in deal])
    sheet_line = data["deals"][index]["result"]
    n = len(sheet_line["scores"])
    field = rng.choice([name for name in ("scores", "value", "winner", "surrender") if name in sheet_line])
    if field == "scores":
        bump_score(data, index, rng.randrange(n), rng.choice([-3, -1, 1, 3]))
    elif field == "value":
        sheet_line["value"] += rng.choice([-3, -1, 1, 3] if sheet_line["value"] > 4 else [1, 3, 6])
    elif field == "winner":
        sheet_line["winner"] = rng.choice([seat for seat in range(n) if seat % 2 != sheet_line["winner"] % 2])
    else:
        winners = [seat for seat in range(n) if seat % 2 != sheet_line["surrender"] % 2]
        sheet_line["surrender"] = rng.choice(winners)


@PROPERTY
@given(players, seeds, options, st.integers(0, 2**31))
def test_the_score_sheet_form(n: int, seed: int, opts: dict[str, Any], pick: int) -> None:
    """The score-sheet form of a generated game (`Ruleset.sheet_of`) validates clean, running totals
    and all, and so does the full game with the sheet's facts written in; a single corrupted fact
    or score is caught in either."""
    record = generate_record(KARNOFFEL, n, 4, seed, opts, form="sheet", player="random")
    sheet_form = orjson.loads(orjson.dumps(record.model_dump(mode="json", exclude_none=True)))
    assert all(
        set(deal) <= {"dealer", "proposals", "tricks", "status", "result", "totals"}
        for deal in sheet_form["deals"]
    )
    assert findings(sheet_form) == []
    played = with_facts(generated(n, seed, opts), sheet_form)
    assert findings(played) == []
    for data in (sheet_form, played):
        corrupt_fact(data, random.Random(pick))
        assert findings(data) != []
