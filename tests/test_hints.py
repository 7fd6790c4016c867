"""One cause, one hint (`format.hint`): a deal whose many problems share one likely slip gets one
note above them that names the slip and the fix, and every problem is still reported."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from recordkit.cli import app
from recordkit.convert.archive import to_archive
from recordkit.diagnostics import Diagnostic, Severity
from recordkit.games import RULESETS
from recordkit.generate import Form, generate_record
from recordkit.inputs import validate_inputs
from recordkit.model import to_data
from recordkit.validate import RecordReport, Settings, validate_paths
from tests.budget import examples
from tests.helpers import bump_score, diagnostics_of

ROOT = Path(__file__).parent.parent
PROPERTY = settings(max_examples=examples(25), deadline=None)


def sample(path: str) -> dict[str, Any]:
    """A hand-typed sample record, as a fresh JSON value."""
    data: dict[str, Any] = json.loads((ROOT / "samples" / path).read_text())
    return data


def tarot() -> dict[str, Any]:
    """Four players at a Rennes club. Deal 1: seat 0 deals, seat 1 speaks first and takes a
    petite, and leads tricks 1 to 3 (SK, then HK, then HQ). Deal 2: seat 1 deals."""
    return sample("french-tarot/club-evening-4p.json")


def joffre() -> dict[str, Any]:
    """Four players each for himself. Deal 1: seat 0 deals, seat 1 speaks first (3), seat 2
    bids 4 and leads; the tricks are led by seats 2 2 2 2 3 3 1 1. Deal 2: seat 1 deals."""
    return sample("joffre/club-evening-4-players.json")


def tricks_only(data: dict[str, Any]) -> dict[str, Any]:
    """The record as a magazine prints it (format 1.1): no hands, no dog."""
    data = {**copy.deepcopy(data), "version": "1.1"}
    for deal in data["deals"]:
        deal.pop("hands", None)
        deal.pop("dog", None)
    return data


FORMS = {"full": lambda data: data, "tricks only": tricks_only}

JOFFRE_DEAL_1_IN_SEAT_ORDER = [
    "R4 R1 R7 R2",  # led by seat 2 with R7: written seat 0 first
    "G2 R0 R6 R3",
    "F3 F0 F7 F1",
    "E2 E5 E3 E7",
    "G3 G5 G0 G7",  # led by seat 3 with G7
    "F5 R5 F4 F6",
    "E0 E6 E4 E1",  # led by seat 1 with E6
    "G1 G6 F2 G4",
]
"""Deal 1 of the Joffre evening with every trick written seat 0 first."""


def deal_found(data: dict[str, Any], deal: int) -> list[Diagnostic]:
    """Every diagnostic of one deal (from 1), in report order."""
    return [d for d in diagnostics_of(data) if d.location.deal == deal]


def the_hint(found: list[Diagnostic], code: str) -> Diagnostic:
    """The deal's one hint: a note of `code` under `format.hint`, above the problems it explains."""
    hints = [d for d in found if d.rule == "format.hint"]
    assert [d.code for d in hints] == [code], [d.text() for d in found[:3]]
    hint = found[0]
    assert hint.code == code and hint.severity == Severity.INFO
    assert any(d.severity == Severity.ERROR for d in found[1:]), "the problems are still reported"
    return hint


def hints_in(found: list[Diagnostic]) -> list[str]:
    """The codes of the hints among some diagnostics."""
    return [d.code for d in found if d.rule == "format.hint"]


# --- a dealer off by one or more --------------------------------------------------------------


def test_tarot_dealer_written_a_seat_off() -> None:
    """Deal 2 is dealt by seat 1 (after seat 0); written as seat 2, every card of every trick
    is a seat off: one hint says that seat 1 dealing replays it clean."""
    data = tarot()
    data["deals"][1]["dealer"] = 2
    found = deal_found(data, 2)
    hint = the_hint(found, "HINT-DEALER")
    assert "with dealer 1, not 2, the deal replays clean" in hint.message
    assert hint.expected == "dealer 1" and hint.location.path == "deals[1].dealer"
    assert "DEAL-DEALER-ROTATION" in [d.code for d in found]
    not_held = [d for d in found if d.code == "PLAY-NOT-HELD"]  # five, then "and N more" (format.limits)
    assert len(not_held) == 6 and int(not_held[-1].message.split()[1]) > 45


def test_tarot_dealer_off_in_a_deal_without_hands() -> None:
    """Without hands, the hands derived from the play follow the wrong dealer, and the score
    sheet is all that shows it: its scores are the rules' scores a seat on."""
    data = tricks_only(tarot())
    data["deals"][0]["dealer"] = 3
    found = deal_found(data, 1)
    hint = the_hint(found, "HINT-DEALER")
    assert hint.expected == "dealer 0" and "replays clean" in hint.message
    assert "SCORE-MISMATCH" in [d.code for d in found]


def test_joffre_dealer_written_a_seat_off_full_and_without_hands() -> None:
    """Deal 2 is dealt by seat 1; written as seat 0, in the full record and in the tricks-only one."""
    for form in FORMS.values():
        data = form(joffre())
        data["deals"][1]["dealer"] = 0
        hint = the_hint(deal_found(data, 2), "HINT-DEALER")
        assert hint.expected == "dealer 1", hint.message
        assert "with dealer 1, not 0, the deal replays clean" in hint.message


def test_what_remains_besides_the_slip_is_named() -> None:
    """Deal 2 with the dealer a seat off and, besides, a petite written after the garde: the other
    dealer leaves only that bid, which the hint names."""
    data = tarot()
    data["deals"][1]["dealer"] = 2
    data["deals"][1]["auction"][3] = "petite"
    hint = the_hint(deal_found(data, 2), "HINT-DEALER")
    assert "with dealer 1, not 2, the deal replays with only 1 problem left (TAROT-BID-NOT-HIGHER)" in (
        hint.message
    )


# --- tricks written in seat order -------------------------------------------------------------


def test_tarot_one_trick_written_in_seat_order() -> None:
    """Trick 3 of deal 1 is led by seat 1 (HQ T2 HN HJ); written seat 0 first (HJ HQ T2 HN),
    every later trick goes a seat off."""
    data = tarot()
    data["deals"][0]["tricks"][2] = "HJ HQ T2 HN"
    hint = the_hint(deal_found(data, 1), "HINT-TRICK-ORDER")
    assert hint.expected == "trick 3: HQ T2 HN HJ"
    assert (hint.location.trick, hint.location.path) == (3, "deals[0].tricks[2]")
    assert "from its leader, seat 1" in hint.message and "replays clean" in hint.message


def test_joffre_one_trick_written_in_seat_order() -> None:
    """Trick 5 of deal 1 is led by seat 3 (G7 G3 G5 G0, with a comment); written seat 0 first."""
    data = joffre()
    data["deals"][0]["tricks"][4]["cards"] = JOFFRE_DEAL_1_IN_SEAT_ORDER[4]
    hint = the_hint(deal_found(data, 1), "HINT-TRICK-ORDER")
    assert hint.expected == "trick 5: G7 G3 G5 G0" and hint.location.trick == 5


def test_joffre_every_trick_written_in_seat_order() -> None:
    """All of deal 1's tricks written seat 0 first: one hint, with each trick's leader."""
    for name, form in FORMS.items():
        data = form(joffre())
        data["deals"][0]["tricks"] = JOFFRE_DEAL_1_IN_SEAT_ORDER
        hint = the_hint(deal_found(data, 1), "HINT-TRICK-ORDER")
        assert hint.expected == "each trick written from its leader (seats 2 2 2 2 3 3 1 1)", name
        assert hint.location.path == "deals[0].tricks" and "replays clean" in hint.message


# --- an auction written from the dealer -------------------------------------------------------


def test_tarot_auction_written_from_the_dealer() -> None:
    """Deal 1's auction is petite (seat 1), pass, pass, pass (seat 0, the dealer, speaks last);
    written from the dealer it reads pass, petite, pass, pass and the taker moves a seat."""
    for name, form in FORMS.items():
        data = form(tarot())
        data["deals"][0]["auction"] = ["pass", "petite", "pass", "pass"]
        hint = the_hint(deal_found(data, 1), "HINT-AUCTION-ORDER")
        assert hint.expected == "the auction from seat 1: petite, pass, pass, pass", name
        assert "written from seat 0 (the dealer) instead of seat 1, who speaks first" in hint.message
        assert hint.location.path == "deals[0].auction"


def test_joffre_auction_written_from_the_dealer() -> None:
    """Deal 1's auction is 3 (seat 1), 4, pass, pass (seat 0, the dealer, last)."""
    for name, form in FORMS.items():
        data = form(joffre())
        data["deals"][0]["auction"] = ["pass", "3", "4", "pass"]
        hint = the_hint(deal_found(data, 1), "HINT-AUCTION-ORDER")
        assert hint.expected == "the auction from seat 1: 3, 4, pass, pass", name


# --- no hint without one likely cause ---------------------------------------------------------


def test_a_bid_typed_wrong_gets_no_hint() -> None:
    """Seat 2's 4 typed as 2 gives the bid, and the lead, to seat 1: a flood, but no reading of
    the auction gives the score written, so nothing is hinted."""
    data = joffre()
    data["deals"][0]["auction"][1] = "2"
    found = deal_found(data, 1)
    assert sum(d.severity == Severity.ERROR for d in found) >= 3
    assert hints_in(found) == []


def test_hands_given_to_the_wrong_seats_get_no_hint() -> None:
    """Seats 0 and 1 of deal 1 have each other's hands: many problems, and no single slip of the
    kinds hinted at explains them."""
    data = tarot()
    hands = data["deals"][0]["hands"]
    hands[0], hands[1] = hands[1], hands[0]
    found = deal_found(data, 1)
    assert sum(d.severity == Severity.ERROR for d in found) >= 3
    assert hints_in(found) == []


def test_the_samples_get_no_hint() -> None:
    """The valid samples, and the invalid ones with one thing wrong each, have no hint."""
    for item in validate_paths([str(ROOT / "samples")], Settings()):
        found = [item] if isinstance(item, Diagnostic) else item.diagnostics
        assert hints_in(found) == [], item.location


# --- every path reports it --------------------------------------------------------------------


def faulty_file(tmp_path: Path) -> Path:
    """A JSON-lines file: the Tarot evening with deal 2's dealer a seat off, and the clean Joffre one."""
    data = tarot()
    data["deals"][1]["dealer"] = 2
    path = tmp_path / "evening.jsonl"
    path.write_bytes(orjson.dumps(data) + b"\n" + orjson.dumps(joffre()) + b"\n")
    return path


def reported(items: list[RecordReport | Diagnostic]) -> list[list[Diagnostic]]:
    """Each record's diagnostics."""
    return [[item] if isinstance(item, Diagnostic) else item.diagnostics for item in items]


def test_the_hint_is_reported_on_every_path(tmp_path: Path) -> None:
    """The full replay, the fast path (`findings_only`), `--jobs` and an archive give the hint alike."""
    path = str(faulty_file(tmp_path))
    full = reported(list(validate_paths([path], Settings())))
    assert [hints_in(found) for found in full] == [["HINT-DEALER"], []]
    assert reported(list(validate_paths([path], Settings(), findings_only=True))) == full
    assert reported(list(validate_paths([path], Settings(), jobs=2))) == full
    to_archive([path], tmp_path / "archive")
    for jobs in (1, 2):
        archived = reported(list(validate_inputs([str(tmp_path / "archive")], Settings(), jobs=jobs)))
        assert [hints_in(found) for found in archived] == [["HINT-DEALER"], []]


def test_the_cli_prints_the_hint_above_the_flood_and_it_fails_nothing(tmp_path: Path) -> None:
    """In JSON lines the hint comes first in its deal; the exit status and the error count are the
    errors' alone."""
    result = CliRunner().invoke(app, ["validate", str(faulty_file(tmp_path)), "--format", "jsonl"])
    assert result.exit_code == 1
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    deal_2 = [line for line in lines if line.get("deal") == 2]
    assert deal_2[0]["code"] == "HINT-DEALER" and deal_2[0]["severity"] == "info"
    assert deal_2[0]["rule"] == "format.hint" and deal_2[0]["expected"] == "dealer 1"
    text = CliRunner().invoke(app, ["validate", str(faulty_file(tmp_path))])
    errors = sum(line["severity"] == "error" for line in lines)
    assert f"{errors} error(s)" in text.output


# --- properties -------------------------------------------------------------------------------

GAME_FORMS: list[tuple[str, Form]] = [
    *((name, "full") for name in RULESETS),
    ("french-tarot", "tricks"),
    ("joffre", "tricks"),
]
"""The games and record forms that generated records replay clean in today (tricks-only records
for the games whose partial records are done)."""


@st.composite
def generated_records(draw: st.DrawFn) -> tuple[str, int, dict[str, Any]]:
    """A generated record of a game, in one of its forms, as a JSON value, with its player count."""
    name, form = draw(st.sampled_from(GAME_FORMS))
    ruleset = RULESETS[name]
    players = draw(st.sampled_from(ruleset.player_counts))
    record = generate_record(ruleset, players, 3, draw(st.integers(0, 10_000)), form=form, player="random")
    return name, players, orjson.loads(orjson.dumps(to_data(record)))


@PROPERTY
@given(generated_records())
def test_a_clean_generated_record_gets_no_hint(generated: tuple[str, int, dict[str, Any]]) -> None:
    _name, _players, data = generated
    assert [d for d in diagnostics_of(data) if d.severity != Severity.INFO] == []
    assert hints_in(diagnostics_of(data)) == []


@PROPERTY
@given(generated_records(), st.data())
def test_a_dealer_shifted_gets_the_dealer_hint(
    generated: tuple[str, int, dict[str, Any]], data: st.DataObject
) -> None:
    """Any deal with its dealer moved any number of seats, once it shows problems (a flood of
    them, or in a record without hands the scores), gets the dealer hint naming the real dealer."""
    _name, players, record = generated
    index = data.draw(st.integers(0, len(record["deals"]) - 1))
    deal = record["deals"][index]
    dealer = deal["dealer"]
    deal["dealer"] = (dealer + data.draw(st.integers(1, players - 1))) % players
    found = [d for d in diagnostics_of(record) if d.location.deal == index + 1]
    errors = [d.code for d in found if d.severity == Severity.ERROR and d.code != "DEAL-DEALER-ROTATION"]
    if len(errors) < 3 and "SCORE-MISMATCH" not in errors:
        assert hints_in(found) == []
        return
    hint = the_hint(found, "HINT-DEALER")
    assert hint.expected is not None
    named = hint.expected.split(", or ")[0].removeprefix("dealer ").split(" or ")
    assert str(dealer) in named, hint.message


@PROPERTY
@given(generated_records(), st.data())
def test_a_wrong_score_gets_no_hint(generated: tuple[str, int, dict[str, Any]], data: st.DataObject) -> None:
    """A single score changed on the sheet (the totals carried along) is that score's problem only."""
    _name, players, record = generated
    scored = [i for i, deal in enumerate(record["deals"]) if deal.get("result")]
    if not scored:
        return
    index = data.draw(st.sampled_from(scored))
    bump_score(record, index, data.draw(st.integers(0, players - 1)), data.draw(st.sampled_from([-10, 1, 7])))
    assert hints_in(diagnostics_of(record)) == []
