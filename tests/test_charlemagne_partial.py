"""Charlemagne partial records (spec/rules/charlemagne.md §8): deals without their hands or kitty,
deals with some hands known, and score-sheet deals; rule tests on hand-typed deals, then
properties over generated games of both variants."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recordkit.derive import derive
from recordkit.diagnostics import Diagnostic, Severity
from recordkit.engine import replay_deal
from recordkit.generate import Form, generate_record
from recordkit.model import to_data, trick_codes
from recordkit.rules.charlemagne.bids import LADDERS
from recordkit.rules.charlemagne.record import CharlemagneDeal
from recordkit.rules.values import Completion
from tests.budget import examples
from tests.helpers import bump_score, diagnostics_of, swap_in
from tests.test_charlemagne_properties import (
    CHARLEMAGNE,
    any_options,
    generated,
    illegal_swaps,
    seeds,
    table_of,
)

SAMPLES = Path(__file__).parent.parent / "samples" / "charlemagne"
PROPERTY = settings(max_examples=examples(20), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def sample_deal(name: str, index: int) -> dict[str, Any]:
    """One deal of a hand-typed sample as a record of its own (its running totals left out)."""
    record = orjson.loads((SAMPLES / name).read_bytes())
    deal = record["deals"][index]
    deal.pop("totals", None)
    return {**record, "deals": [deal]}


CLUB = "standard-club-evening.json"
HOUSE = "standard-house-rules.json"
CAMP = "maine-camp-friday.json"


def without(record: dict[str, Any], *names: str) -> dict[str, Any]:
    """The record with these fields of its (only) deal left out."""
    out = copy.deepcopy(record)
    for name in names:
        out["deals"][0].pop(name, None)
    return out


def findings(record: dict[str, Any]) -> list[Diagnostic]:
    """The errors and warnings of a record (notes left aside)."""
    return [d for d in diagnostics_of(record) if d.severity != Severity.INFO]


def note(record: dict[str, Any]) -> str:
    """The text of the deal's note of what was not checked ('' when everything was)."""
    notes = [d.message for d in diagnostics_of(record) if d.code == "DEAL-NOT-CHECKED"]
    return " / ".join(notes)


def completion_of(record: dict[str, Any], deal: int = 0) -> Completion:
    """The deal as the replay completes it from its play."""
    found, problems = derive(
        CHARLEMAGNE, table_of(record), CharlemagneDeal.model_validate(record["deals"][deal])
    )
    assert problems == [] and found is not None
    return found


# === charlemagne.partial.hands: tricks without hands ============================================


def test_five_to_eight_with_the_kitty_written_gives_every_hand() -> None:
    """charlemagne.partial.hands: Ginette (seat 2) bids Six, takes HK C7 and discards C7 D8. With the
    kitty written, her hand as dealt is what she played and discarded less the kitty; every other
    hand is what its seat played. The record then replays clean, with nothing left unchecked."""
    full = sample_deal(CLUB, 0)
    tricks_only = without(full, "hands")
    assert completion_of(tricks_only).deal.hands == full["deals"][0]["hands"]
    assert findings(tricks_only) == []
    assert note(tricks_only) == ""


def test_five_to_eight_without_kitty_leaves_the_bidders_discard_unchecked() -> None:
    """charlemagne.partial.guess: neither Ginette's hand nor the kitty is written, so which of her
    cards came from the kitty is not known; the other hands are still exact, and nothing is wrong."""
    full = sample_deal(CLUB, 0)
    tricks_only = without(full, "hands", "kitty")
    hands = completion_of(tricks_only).deal.hands
    assert [hands[s] for s in (0, 1, 3)] == [full["deals"][0]["hands"][s] for s in (0, 1, 3)]
    assert findings(tricks_only) == []
    assert "that the discard was in the discarder's hand for seat 2" in note(tricks_only)


def test_a_missing_discard_is_derived_from_the_cards_not_played() -> None:
    """charlemagne.partial.discard: without hands, Ginette's discard C7 D8 is the two cards nobody played."""
    tricks_only = without(sample_deal(CLUB, 0), "hands", "discard")
    assert completion_of(tricks_only).deal.discard == "D8 C7"
    assert findings(tricks_only) == []


def test_a_derived_discard_is_in_its_discarders_dealt_hand() -> None:
    """charlemagne.partial.discard, .hands: Gros Charlemagne by his partner's card (seat 3 takes HK
    from seat 1 and discards C7), played out with the hands, the kitty and the discard left out:
    the discard derived is in the bidder's hand as dealt, which holds eight cards, and every card
    is dealt once; the guess of which unplayed card was discarded is only named as not checked
    (it reported the bidder's hand a card short and that card dealt to nobody)."""
    record = to_data(generate_record(CHARLEMAGNE, 4, 6, 17, {}, player="random"))
    record["deals"] = [dict(record["deals"][0])]
    assert record["deals"][0]["auction"] == ["pass", "mulot", "pass", "gros_charlemagne"]
    assert record["deals"][0]["partner_card"] == "HK"
    partial = without(record, "hands", "kitty", "discard", "totals")
    completed = completion_of(partial).deal
    assert completed.discard is not None
    assert completed.discard in completed.hands[3].split()
    assert len(completed.hands[3].split()) == 8
    assert findings(partial) == []
    assert "that the discard was in the discarder's hand for seat 3" in note(partial)


def test_a_missing_discard_with_every_hand_written_is_still_reported() -> None:
    """charlemagne.exchange.discard-size: with the hands and kitty written, the discard is required."""
    assert [d.code for d in findings(without(sample_deal(CLUB, 0), "discard"))] == [
        "CHARLEMAGNE-DISCARD-SIZE"
    ]


def test_mulot_partner_and_kitty_cannot_be_told_apart() -> None:
    """charlemagne.partial.guess: Gaétan (seat 3) plays Mulot alone; Réjean's hand and the kitty are
    both out of play, so their sizes are not checked; the three hands in the play are exact."""
    full = sample_deal(CLUB, 1)
    tricks_only = without(full, "hands", "kitty")
    hands = completion_of(tricks_only).deal.hands
    assert [hands[s] for s in (0, 2, 3)] == [full["deals"][0]["hands"][s] for s in (0, 2, 3)]
    assert findings(tricks_only) == []
    assert "the hand sizes for seat 1; the kitty's size" in note(tricks_only)


def test_mulot_with_the_kitty_written_gives_the_partners_hand() -> None:
    """charlemagne.partial.hands: with the kitty DA CA written, Réjean's hand set aside is the rest."""
    full = sample_deal(CLUB, 1)
    tricks_only = without(full, "hands")
    assert completion_of(tricks_only).deal.hands == full["deals"][0]["hands"]
    assert note(tricks_only) == ""


def test_charlemagne_partner_card_and_three_discards() -> None:
    """charlemagne.partial.hands: Marie-Claude (seat 0) plays Charlemagne; Ginette passes her HJ and
    she discards H7 C8 S8. Ginette's hand is HJ and the seven cards nobody played but the discard."""
    full = sample_deal(CLUB, 4)
    tricks_only = without(full, "hands")
    assert completion_of(tricks_only).deal.hands == full["deals"][0]["hands"]
    assert findings(tricks_only) == []


def test_gros_charlemagne_by_card_with_kitty_written() -> None:
    """charlemagne.partial.hands: Ginette's Gros Charlemagne takes X2 from Marie-Claude; the kitty D7 C8
    stays out of play; written, it tells Marie-Claude's set-aside hand."""
    full = sample_deal(HOUSE, 1)
    tricks_only = without(full, "hands")
    assert completion_of(tricks_only).deal.hands == full["deals"][0]["hands"]
    assert findings(tricks_only) == []


def test_maine_lone_defender_hands_out_of_play() -> None:
    """charlemagne.partial.guess: Jeannine's Charlemagne alone against Norman alone: Lucille's and
    Ronald's hands are both out of play and unwritten, so which unplayed card each held is not
    known; written, one gives the other."""
    full = sample_deal(CAMP, 5)
    tricks_only = without(full, "hands")
    assert findings(tricks_only) == []
    assert "seat 2's hand and seat 3's hand" in note(tricks_only)
    scorekeeper = copy.deepcopy(tricks_only)
    scorekeeper["deals"][0]["hands"] = [None, None, full["deals"][0]["hands"][2], None]
    assert completion_of(scorekeeper).deal.hands == full["deals"][0]["hands"]
    assert findings(scorekeeper) == [] and note(scorekeeper) == ""


def test_maine_knocks_and_numbered_bids_replay_from_the_tricks() -> None:
    """charlemagne.partial.hands: a Maine Five spades with a knock, every hand in the play: all exact."""
    full = sample_deal(CAMP, 0)
    tricks_only = without(full, "hands")
    assert completion_of(tricks_only).deal.hands == full["deals"][0]["hands"]
    assert findings(tricks_only) == [] and note(tricks_only) == ""


def test_a_revoke_is_proven_by_a_later_card() -> None:
    """charlemagne.play.follow: in trick 1 Marie-Claude plays DJ, le petit bar (a trump), on a diamond
    lead, and plays D7 in trick 6: she held a diamond. The tricks alone prove the revoke."""
    record = orjson.loads(
        (SAMPLES.parent / "invalid/charlemagne/CHARLEMAGNE-REVOKE--petit-bar.json").read_bytes()
    )
    found = findings(without(record, "hands", "kitty"))
    assert [(d.code, d.location.trick, d.location.position, d.location.seat) for d in found] == [
        ("CHARLEMAGNE-REVOKE", 1, 3, 0)
    ]


def test_a_card_played_twice_is_reported_where_it_was_played_again() -> None:
    """charlemagne.play.held: Gaétan's CJ of trick 1 typed again for Ginette's SK leading trick 6:
    she played a card already played, and SK is dealt to nobody."""
    record = without(sample_deal(CLUB, 0), "hands")
    tricks = record["deals"][0]["tricks"]
    first = trick_codes(tricks[0])[0]
    cards = trick_codes(tricks[5])
    tricks[5] = " ".join([first, *cards[1:]])
    codes = [(d.code, d.location.trick) for d in findings(record)]
    assert ("PLAY-NOT-HELD", 6) in codes
    assert ("DEAL-MISSING-CARD", None) in codes  # the card it replaced was played by nobody


def test_a_wrong_trick_size_reports_the_trick_not_the_unknown_hands() -> None:
    """charlemagne.trick.size: a card left out of trick 3 of a tricks-only deal is PLAY-TRICK-SIZE,
    and nothing is said of the hands the record does not give."""
    record = without(sample_deal(CLUB, 0), "hands", "kitty")
    tricks = record["deals"][0]["tricks"]
    tricks[2] = " ".join(trick_codes(tricks[2])[:3])
    assert [(d.code, d.location.trick) for d in findings(record)] == [("PLAY-TRICK-SIZE", 3)]


def test_a_written_hand_holding_a_card_another_seat_plays() -> None:
    """charlemagne.partial.hands (§8.2): Réjean writes his own hand, but with Gaétan's first card
    S8 in it: Gaétan's S8 in trick 5 is a card that Réjean holds."""
    full = sample_deal(CLUB, 0)
    record = without(full, "hands")
    mine = full["deals"][0]["hands"][1].split()
    theirs = full["deals"][0]["hands"][3].split()
    mine[0] = theirs[0]
    record["deals"][0]["hands"] = [None, " ".join(mine), None, None]
    found = [(d.code, d.location.trick, d.location.seat) for d in findings(record)]
    assert ("PLAY-NOT-HELD", 5, 3) in found


def test_the_kitty_alone_left_out_is_what_the_hands_do_not_hold() -> None:
    """charlemagne.partial.hands: Gaétan's Mulot with every hand written and no kitty: the kitty is
    DA CA, the two cards no hand holds."""
    record = without(sample_deal(CLUB, 1), "kitty")
    assert completion_of(record).deal.kitty == "DA CA"
    assert findings(record) == [] and note(record) == ""


# === charlemagne.partial.unplayed: deals not played out ===========================================


def test_an_abandoned_deal_without_hands_checks_only_what_was_played() -> None:
    """charlemagne.partial.unplayed: play stopped after five tricks; the hand sizes and the cards
    dealt to nobody are not checked, nothing is wrong."""
    record = without(sample_deal(CLUB, 0), "hands", "kitty", "result")
    deal = record["deals"][0]
    deal["tricks"] = deal["tricks"][:5]
    deal["status"] = "abandoned"
    assert findings(record) == []
    assert "the hand sizes for seat 0, 1, 2, 3; cards dealt to nobody" in note(record)


def test_a_written_hand_is_still_counted_when_the_deal_is_not_played_out() -> None:
    """charlemagne.deal.sizes: an abandoned deal without its kitty, Réjean's written hand one card
    short: his hand size is checked, the cards dealt to nobody are not."""
    record = without(sample_deal(CLUB, 0), "kitty", "result")
    deal = record["deals"][0]
    deal["tricks"], deal["status"] = deal["tricks"][:2], "abandoned"
    short = deal["hands"][1].split()
    deal["hands"][1] = " ".join(short[1:])
    found = findings(record)
    assert [(d.code, d.location.seat) for d in found] == [("DEAL-HAND-SIZE", 1)]


def test_a_claim_without_hands_is_not_checked_for_certainty() -> None:
    """charlemagne.partial.unplayed: the house-rules Five ends with Marie-Claude's claim; the cards
    not played are unknown, so whether the claim was sure is not checked."""
    record = without(sample_deal(HOUSE, 0), "hands", "kitty")
    assert findings(record) == []
    assert "whether the claim was sure" in note(record)


def test_a_passed_out_deal_without_hands() -> None:
    """charlemagne.auction.all-pass: four passes and no cards; nothing to derive, nothing wrong."""
    record = without(sample_deal(CLUB, 2), "hands", "kitty")
    assert findings(record) == []


# === charlemagne.sheet: score-sheet deals =========================================================


def sheet(variant: str, *lines: dict[str, Any], options: dict[str, Any] | None = None) -> dict[str, Any]:
    """A record of score-sheet lines (dealer passing to the left from seat 0), totals written."""
    totals = [0, 0, 0, 0]
    deals = []
    for number, line in enumerate(lines):
        totals = [t + s for t, s in zip(totals, line["scores"], strict=True)]
        deals.append({"dealer": number % 4, "result": line, "totals": list(totals)})
    return {
        "format": "recordkit",
        "version": "1.1",
        "game": "charlemagne",
        "options": {"variant": variant, **(options or {})},
        "players": ["Marie-Claude", "Réjean", "Ginette", "Gaétan"],
        "deals": deals,
    }


@pytest.mark.parametrize(
    ("contract", "bidder", "tricks", "scores"),
    [
        ("7", 1, 8, [0, 7, 0, 7]),  # made: the bid, no overtricks
        ("7", 1, 6, [7, 0, 7, 0]),  # failed: the opponents score the bid
        ("mulot", 3, 0, [0, 15, 0, 15]),
        ("mulot", 3, 1, [7, 0, 7, 0]),
        ("charlemagne", 0, 7, [0, 8, 0, 8]),
        ("gros_mulot", 2, 0, [30, 0, 30, 0]),
        ("gros_charlemagne", 2, 8, [32, 0, 32, 0]),
        ("pass", None, None, [0, 0, 0, 0]),
    ],
)
def test_standard_sheet_lines_score_by_the_table(
    contract: str, bidder: int | None, tricks: int | None, scores: list[int]
) -> None:
    """charlemagne.sheet, charlemagne.score.standard: a sheet line scores as the table says."""
    line = {"scores": scores, "contract": contract, "bidder": bidder, "tricks": tricks}
    record = sheet("standard", {k: v for k, v in line.items() if v is not None})
    assert findings(record) == []
    assert "a score-sheet deal" in note(record)


@pytest.mark.parametrize(
    ("contract", "bidder", "tricks", "scores"),
    [
        ("5H", 0, 5, [5, 0, 5, 0]),
        ("6S", 1, 5, [6, 0, 6, 0]),
        ("le_petit", 2, 0, [8, 0, 8, 0]),
        ("high_card_no_trump", 3, 7, [8, 0, 8, 0]),
        ("charlemagne S alone", 1, 8, [0, 21, 0, 21]),  # the game
        ("charlemagne D", 0, 7, [0, 21, 0, 21]),  # the opponents win the game
    ],
)
def test_maine_sheet_lines_score_by_the_table(
    contract: str, bidder: int, tricks: int, scores: list[int]
) -> None:
    """charlemagne.sheet, charlemagne.score.maine: Maine lines, a Charlemagne deciding the game."""
    record = sheet("maine", {"scores": scores, "contract": contract, "bidder": bidder, "tricks": tricks})
    assert findings(record) == []


def test_sheet_contract_spelt_as_at_the_table() -> None:
    """charlemagne.sheet: the contract is read like a call: "Gros Charlemagne", "seven"."""
    record = sheet(
        "standard",
        {"scores": [0, 7, 0, 7], "contract": "seven", "bidder": 1, "tricks": 7},
        {"scores": [32, 0, 32, 0], "contract": "Gros Charlemagne", "bidder": 0, "tricks": 8},
    )
    assert findings(record) == []


def test_a_wrong_sheet_score_is_caught() -> None:
    """charlemagne.score: Seven made by seat 1 is 7 to seats 1 and 3, not 8."""
    record = sheet("standard", {"scores": [0, 8, 0, 8], "contract": "7", "bidder": 1, "tricks": 7})
    found = findings(record)
    assert [(d.code, d.location.path) for d in found] == [("SCORE-MISMATCH", "deals[0].result.scores")]


def test_an_evening_of_sheet_lines_ends_at_32() -> None:
    """charlemagne.score.game, charlemagne.deal.rotation: the totals reach 32 at the fourth line; a
    fifth line is after the end, and a line dealt by the wrong seat is reported."""
    lines = [
        {"scores": [0, 16, 0, 16], "contract": "charlemagne", "bidder": 3, "tricks": 8},
        {"scores": [0, 0, 0, 0], "contract": "pass"},
        {"scores": [0, 8, 0, 8], "contract": "8", "bidder": 1, "tricks": 8},
        {"scores": [0, 8, 0, 8], "contract": "8", "bidder": 3, "tricks": 8},
    ]
    assert findings(sheet("standard", *lines)) == []
    after = sheet("standard", *lines, {"scores": [5, 0, 5, 0], "contract": "5", "bidder": 0, "tricks": 6})
    assert [d.code for d in findings(after)] == ["DEAL-AFTER-GAME-END"]
    rotated = sheet("standard", *lines)
    rotated["deals"][2]["dealer"] = 0
    assert "DEAL-DEALER-ROTATION" in [d.code for d in findings(rotated)]


def test_a_sheet_line_without_its_facts_is_not_scored() -> None:
    """charlemagne.sheet: scores with no bidder or tricks cannot be checked; a note says so."""
    record = sheet("standard", {"scores": [0, 7, 0, 7], "contract": "7"})
    assert findings(record) == []
    assert "does not write the bidder and the bidding side's tricks" in note(record)


@pytest.mark.parametrize(
    ("variant", "line", "field"),
    [
        ("standard", {"contract": "9", "bidder": 0, "tricks": 8}, "contract"),
        ("standard", {"contract": "5H", "bidder": 0, "tricks": 8}, "contract"),
        ("maine", {"contract": "mulot", "bidder": 0, "tricks": 0}, "contract"),
        ("maine", {"contract": "pass"}, "contract"),  # the Maine dealer is forced
        ("maine", {"contract": "3H", "bidder": 0, "tricks": 8}, "contract"),  # One to Four are never played
        ("standard", {"contract": "7", "bidder": 5, "tricks": 8}, "bidder"),
        ("standard", {"contract": "7", "bidder": 0, "tricks": 9}, "tricks"),
        ("standard", {"contract": "pass", "bidder": 2}, "bidder"),
    ],
)
def test_a_fact_no_deal_can_have(variant: str, line: dict[str, Any], field: str) -> None:
    """charlemagne.sheet.facts: SHEET-BAD-FACT at the field, and the line is not scored."""
    record = sheet(variant, {"scores": [0, 0, 0, 0], **line})
    assert [(d.code, d.location.path) for d in findings(record)] == [
        ("SHEET-BAD-FACT", f"deals[0].result.{field}")
    ]


def test_a_forced_standard_dealer_cannot_pass_on_the_sheet() -> None:
    """charlemagne.sheet.facts: under all_pass = dealer_forced_5 a deal always has a contract."""
    record = sheet(
        "standard", {"scores": [0, 0, 0, 0], "contract": "pass"}, options={"all_pass": "dealer_forced_5"}
    )
    assert [d.code for d in findings(record)] == ["SHEET-BAD-FACT"]


def test_sheet_facts_of_a_played_deal_are_checked_against_the_replay() -> None:
    """charlemagne.sheet.match: Ginette (seat 2) bid Six and her side took all eight tricks; a sheet
    saying Seven, or seat 0, or seven tricks, is contradicted by the calls and cards."""
    record = sample_deal(CLUB, 0)
    result = record["deals"][0]["result"]
    result.update(contract="6", bidder=2, tricks=8)
    assert findings(record) == []
    for name, value, code in [
        ("contract", "7", "SHEET-MISMATCH"),
        ("bidder", 0, "SHEET-MISMATCH"),
        ("tricks", 7, "CHARLEMAGNE-TRICKS-MISMATCH"),
        ("contract", "mulot", "SHEET-MISMATCH"),
        ("contract", "6H", "SHEET-BAD-FACT"),
    ]:
        wrong = copy.deepcopy(record)
        wrong["deals"][0]["result"][name] = value
        assert [(d.code, d.location.path) for d in findings(wrong)] == [(code, f"deals[0].result.{name}")]


# === properties over generated games ===============================================================


def forgotten(record: dict[str, Any], keep: set[tuple[int, str]] | None = None) -> dict[str, Any]:
    """The record with each deal's hands and kitty removed (`Ruleset.forget`), except the groups in
    `keep` as (deal, "hands[s]" or "kitty")."""
    keep = keep or set()
    out = copy.deepcopy(record)
    table = table_of(record)
    for index, raw in enumerate(record["deals"]):
        deal = CHARLEMAGNE.forget(table, CharlemagneDeal.model_validate(raw))
        data = deal.model_dump(mode="json", exclude_none=True)
        hands = [raw["hands"][s] if (index, f"hands[{s}]") in keep else None for s in range(4)]
        if any(hands):
            data["hands"] = hands
        if (index, "kitty") in keep and "kitty" in raw:
            data["kitty"] = raw["kitty"]
        out["deals"][index] = data
    return out


def verdict(record: dict[str, Any]) -> list[str]:
    """The codes of the errors and warnings, in order."""
    return [d.code for d in findings(record)]


@PROPERTY
@given(seeds, any_options)
def test_forgetting_the_hands_keeps_the_verdict_and_the_hands(seed: int, options: dict[str, Any]) -> None:
    """charlemagne.partial.hands: a generated game without hands and kitty replays clean as it does
    with them, and every group the note does not call a guess is the one dealt."""
    record = generated(seed, options, deals=3)
    partial = forgotten(record)
    assert verdict(partial) == verdict(record) == []
    for index, raw in enumerate(record["deals"]):
        completion = completion_of(partial, index)
        guessed = set(completion.unchecked)
        if ("DEAL-MISSING-CARD", None) in guessed:  # not played out: hands only in part
            continue
        for seat in range(4):
            if not {("DEAL-HAND-SIZE", seat), ("CHARLEMAGNE-DISCARD-NOT-HELD", seat)} & guessed:
                assert completion.deal.hands[seat] == raw["hands"][seat], (index, seat)
        kitty_guessed = any(
            code in ("DEAL-KITTY-SIZE", "CHARLEMAGNE-DISCARD-NOT-HELD") for code, _ in guessed
        )
        if "kitty" in raw and not kitty_guessed:
            assert completion.deal.kitty == raw["kitty"], index


@PROPERTY
@given(seeds, any_options, st.data())
def test_some_hands_known_keeps_the_verdict(seed: int, options: dict[str, Any], data: st.DataObject) -> None:
    """charlemagne.partial.hands (§8.2): any hands and the kitty kept or not, the verdict is the same."""
    record = generated(seed, options, deals=2)
    groups = [(d, f"hands[{s}]") for d in range(len(record["deals"])) for s in range(4)]
    groups += [(d, "kitty") for d in range(len(record["deals"]))]
    keep = set(data.draw(st.lists(st.sampled_from(groups), unique=True)))
    assert verdict(forgotten(record, keep)) == []


@PROPERTY
@given(seeds, any_options, st.sampled_from(["tricks", "sheet"]))
def test_generated_partial_forms_validate_clean(seed: int, options: dict[str, Any], form: Form) -> None:
    """charlemagne.partial.hands, charlemagne.sheet: `recordkit generate --form tricks|sheet` writes
    valid records, the same game as the full form."""
    record = generate_record(CHARLEMAGNE, 4, 6, seed, options, form=form, player="random")
    data = orjson.loads(orjson.dumps(to_data(record)))
    assert verdict(data) == []
    full = generated(seed, options, deals=6)
    assert [d["totals"] for d in data["deals"]] == [d["totals"] for d in full["deals"]]


def place(d: Diagnostic) -> tuple[Any, ...]:
    """A diagnostic's code and place."""
    loc = d.location
    return (d.code, loc.deal, loc.trick, loc.position, loc.seat, loc.path)


def corrupt(tricks: list[str], deck_codes: tuple[str, ...], data: st.DataObject) -> None:
    """One corruption of the tricks (written as strings): a card moved to another trick, two cards
    of different tricks swapped, or a card replaced by another card of the deck."""
    cards = [trick.split() for trick in tricks]
    spots = [(t, p) for t, trick in enumerate(cards) for p in range(len(trick))]
    kind = data.draw(st.sampled_from(["move", "swap", "replace"]))
    t1, p1 = data.draw(st.sampled_from(spots))
    if kind == "replace":
        cards[t1][p1] = data.draw(st.sampled_from([c for c in deck_codes if c != cards[t1][p1]]))
    else:
        others = [(t, p) for t, p in spots if t != t1]
        if not others:
            return
        t2, p2 = data.draw(st.sampled_from(others))
        if kind == "swap":
            cards[t1][p1], cards[t2][p2] = cards[t2][p2], cards[t1][p1]
        else:
            cards[t2].insert(p2, cards[t1].pop(p1))
    tricks[:] = [" ".join(trick) for trick in cards if trick]


@PROPERTY
@given(seeds, any_options, st.data())
def test_a_corrupted_tricks_only_deal_reads_as_the_hands_its_tricks_imply(
    seed: int, options: dict[str, Any], data: st.DataObject
) -> None:
    """charlemagne.partial.hands: after one corruption of a deal's tricks, the record without hands
    gets the same codes at the same places as the record whose hands (and kitty) are those the
    corrupted tricks imply, apart from the checks its note lists as not run."""
    record = generated(seed, options, deals=2)
    played = [d for d, deal in enumerate(record["deals"]) if deal["tricks"]]
    if not played:
        return
    index = data.draw(st.sampled_from(played))
    table = table_of(record)
    corrupt(record["deals"][index]["tricks"], table.deck.codes, data)
    partial = forgotten(record)
    completion, problems = derive(CHARLEMAGNE, table, CharlemagneDeal.model_validate(partial["deals"][index]))
    implied = copy.deepcopy(partial)
    skip: set[tuple[str, int | None]] = set()
    if completion is None:  # the cards cannot be given to players: the hands change nothing
        assert problems
        implied["deals"][index] = record["deals"][index]
    else:
        implied["deals"][index] = completion.deal.model_dump(mode="json", exclude_none=True)
        skip = set(completion.unchecked)
    expected = [
        place(d)
        for d in findings(implied)
        if d.location.deal != index + 1 or not {(d.code, None), (d.code, d.location.seat)} & skip
    ]
    assert [place(d) for d in findings(partial)] == expected


@PROPERTY
@given(seeds, any_options, st.data())
def test_a_revoke_made_by_moving_a_card_is_found_without_hands(
    seed: int, options: dict[str, Any], data: st.DataObject
) -> None:
    """charlemagne.play.follow: a seat's illegal card swapped in from a later trick is found without
    the hands as with them, at the same place, whenever every card stays with its seat. (When the
    swap changes who wins a trick, the later cards fall to other seats: the tricks may then be
    those of another, legal deal, which only the hands can tell apart.)"""
    record = generated(seed, options, deals=2)
    candidates = illegal_swaps(record)
    if not candidates:
        return
    chosen = data.draw(st.sampled_from(candidates))
    full = copy.deepcopy(record)
    swap_in(full, chosen)
    partial = forgotten(record)
    swap_in(partial, chosen)
    deal = chosen[0] + 1
    spot = (deal, chosen[1] + 1, chosen[2] + 1)
    found = findings(partial)
    if seats_of(full, chosen[0]) == seats_of(record, chosen[0]):
        at = [
            place(d)
            for d in findings(full)
            if (d.location.deal, d.location.trick, d.location.position) == spot
        ]
        assert at and at == [
            place(d) for d in found if (d.location.deal, d.location.trick, d.location.position) == spot
        ]


def seats_of(record: dict[str, Any], index: int) -> list[list[int]]:
    """Who played each card of a deal's tricks, by the rules."""
    state = replay_deal(
        CHARLEMAGNE, table_of(record), CharlemagneDeal.model_validate(record["deals"][index])
    ).state
    assert state is not None
    return [trick.seats for trick in state.tricks]


# --- score sheets --------------------------------------------------------------------------------

STANDARD_TABLE = {
    **{str(n): (n, n, n) for n in (5, 6, 7)},
    "8": (8, 8, 8),
    "mulot": (15, 7, -1),
    "charlemagne": (16, 8, 8),
    "gros_mulot": (30, 15, -1),
    "gros_charlemagne": (32, 16, 8),
}
"""charlemagne.score.standard as the rules page states it: (made, failed, tricks needed; -1: none)."""


def oracle(variant: str, target: int, contract: str, bidder: int | None, tricks: int | None) -> list[int]:
    """A sheet line's scores, straight from the tables of spec/rules/charlemagne.md §2.10."""
    if contract == "pass" or bidder is None or tricks is None:
        return [0, 0, 0, 0]
    if variant == "standard":
        won, lost, need = STANDARD_TABLE[contract]
    elif contract in ("le_petit", "high_card_no_trump"):
        won, lost, need = 8, 8, -1 if contract == "le_petit" else 8
    elif contract.startswith("charlemagne"):
        won, lost, need = target, target, 8
    else:
        won = lost = need = int(contract[0])
    made = tricks == 0 if need == -1 else tricks >= need
    side = bidder % 2 if made else 1 - bidder % 2
    value = won if made else lost
    return [value if seat % 2 == side else 0 for seat in range(4)]


def sheet_form(record: dict[str, Any]) -> dict[str, Any]:
    """The record as the club's score sheet writes it (`Ruleset.sheet_of`)."""
    out = copy.deepcopy(record)
    table = table_of(record)
    for index, raw in enumerate(record["deals"]):
        deal = CharlemagneDeal.model_validate(raw)
        line = CHARLEMAGNE.sheet_of(table, deal, replay_deal(CHARLEMAGNE, table, deal).state)
        out["deals"][index] = line.model_dump(mode="json", exclude_none=True)
    return out


@PROPERTY
@given(seeds, any_options)
def test_the_sheet_form_of_a_game_validates_clean(seed: int, options: dict[str, Any]) -> None:
    """charlemagne.sheet: every generated game written as its score sheet is a valid record, and
    each line's scores are those of the rules' tables."""
    record = generated(seed, options, deals=6)
    lines = sheet_form(record)
    assert verdict(lines) == []
    variant, target = record["options"]["variant"], record["options"]["maine_target"]
    for deal in lines["deals"]:
        result = deal["result"]
        facts = (result["contract"], result.get("bidder"), result.get("tricks"))
        assert oracle(variant, target if variant == "maine" else 32, *facts) == result["scores"]


@PROPERTY
@given(seeds, any_options, st.data())
def test_a_corrupted_sheet_score_is_caught(seed: int, options: dict[str, Any], data: st.DataObject) -> None:
    """charlemagne.score: one score changed (and carried into the totals) is SCORE-MISMATCH there."""
    lines = sheet_form(generated(seed, options, deals=4))
    index = data.draw(st.integers(0, len(lines["deals"]) - 1))
    seat = data.draw(st.integers(0, 3))
    bump_score(lines, index, seat, data.draw(st.sampled_from([-2, -1, 1, 3])))
    found = [(d.code, d.location.deal, d.location.path) for d in findings(lines)]
    assert ("SCORE-MISMATCH", index + 1, f"deals[{index}].result.scores") in found


def other_fact(variant: str, result: dict[str, Any], data: st.DataObject) -> tuple[str, Any]:
    """One fact of a sheet line changed to another value a deal could have."""
    names = ["contract"] + [name for name in ("bidder", "tricks") if name in result]
    name = data.draw(st.sampled_from(names))
    if name == "contract":
        floor = 5 if variant == "maine" else 1
        calls = [b.name for b in LADDERS[variant] if b.level >= floor and b.name != result["contract"]]
        return name, data.draw(st.sampled_from(calls))
    values = range(4) if name == "bidder" else range(9)
    return name, data.draw(st.sampled_from([v for v in values if v != result[name]]))


@PROPERTY
@given(seeds, any_options, st.data())
def test_a_corrupted_sheet_fact_is_caught(seed: int, options: dict[str, Any], data: st.DataObject) -> None:
    """charlemagne.sheet, charlemagne.sheet.match: one fact of a line changed. On the score sheet it
    is caught exactly when the rules' tables give other scores for it (a sheet cannot tell a
    bidder from his partner); next to the cards it is always caught, at the fact's field."""
    record = generated(seed, options, deals=3)
    lines = sheet_form(record)
    scored = [d for d, deal in enumerate(lines["deals"]) if deal["result"]["contract"] != "pass"]
    if not scored:
        return
    index = data.draw(st.sampled_from(scored))
    result = lines["deals"][index]["result"]
    variant, target = record["options"]["variant"], record["options"]["maine_target"]
    name, value = other_fact(variant, result, data)
    changed = {**result, name: value}
    lines["deals"][index]["result"] = changed
    facts = (changed["contract"], changed.get("bidder"), changed.get("tricks"))
    differs = oracle(variant, target if variant == "maine" else 32, *facts) != result["scores"]
    assert bool(verdict(lines)) == differs
    played = copy.deepcopy(record)
    played["deals"][index]["result"].update(
        {key: value for key, value in result.items() if key != "scores"}, **{name: value}
    )
    found = [(d.code, d.location.path) for d in findings(played)]
    code = "CHARLEMAGNE-TRICKS-MISMATCH" if name == "tricks" else "SHEET-MISMATCH"
    assert (code, f"deals[{index}].result.{name}") in found
