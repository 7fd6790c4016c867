"""French Tarot partial records and score sheets (spec/rules/french-tarot.md, "Partial records"
and "Score sheets").

The rule tests state each situation as the rules would: the tricks a magazine prints, the line a
club's score sheet writes, worked by hand (the layouts and their counts are those of
`tests/test_tarot_rules.py`). The property tests play generated games at three, four and five
players: without their hands they get the same verdict; corrupted, they get the same findings as
the record whose hands the corrupted tricks imply; as score sheets they validate clean and any
single fact or score changed is caught.
"""

from __future__ import annotations

import copy
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recordkit.derive import derive
from recordkit.diagnostics import Diagnostic, Severity
from recordkit.generate import Form, generate_record
from recordkit.model import to_data
from recordkit.rules.french_tarot.cards import DECK
from recordkit.rules.french_tarot.options import TarotOptions
from recordkit.rules.french_tarot.record import TarotDeal
from tests.budget import examples
from tests.helpers import TAROT, diagnostics_of
from tests.test_properties import option_values
from tests.test_tarot_rules import (
    ALL_PASS,
    BASE4,
    BASE4_GARDE,
    GARDE_BY_SEAT_1,
    P5,
    P5_SCORES,
    PA4,
    Q5,
    TEN_TRUMPS4,
    codes,
    deal,
    record,
)

NOTE = "DEAL-NOT-CHECKED"


def tricks_only(data: dict[str, Any], *keep: str) -> dict[str, Any]:
    """A deal as a magazine prints it: the tricks as bare cards, no hands, no dog, no discard
    (except the groups in `keep`)."""
    out = copy.deepcopy(data)
    for group in ("hands", "dog", "discard"):
        if group not in keep:
            out.pop(group, None)
    out["tricks"] = [t["cards"] if isinstance(t, dict) else t for t in out.get("tricks", [])]
    return out


def found(data: dict[str, Any]) -> list[Diagnostic]:
    """The errors and warnings of a record (the notes of what was not checked left out)."""
    return [d for d in diagnostics_of(data) if d.severity != Severity.INFO]


def notes(data: dict[str, Any]) -> list[str]:
    """The messages of the notes that say what a partial deal left unchecked."""
    return [d.message for d in diagnostics_of(data) if d.code == NOTE]


BASE4_DEAL = deal(BASE4, GARDE_BY_SEAT_1, scores=BASE4_GARDE)


# --- tricks without hands (tarot.partial.hands, tarot.partial.discard) -----------------------------


def test_tarot_partial_hands_tricks_only_replay_as_written() -> None:
    """tarot.partial.hands: BASE4's 18 tricks, garde by seat 1, without the hands and the dog: each
    defender's hand is what he played, the taker's what he played and laid aside; the deal checks
    and scores as with its hands (S = 70), and nothing is left unchecked (the taker never held T1,
    so no Petit sec is possible)."""
    assert codes(record(4, tricks_only(BASE4_DEAL, "discard"))) == []


def test_tarot_partial_discard_is_what_nobody_played() -> None:
    """tarot.partial.discard: after a garde, the six cards nobody played are the discard
    (D2 D3 D4 C1 C2 C3); the deal without hands, dog or discard scores as written."""
    assert codes(record(4, tricks_only(BASE4_DEAL))) == []


@pytest.mark.parametrize(
    ("auction", "scores", "options"),
    [
        pytest.param(["garde_sans", "pass", "pass", "pass"], [-140, 420, -140, -140], {}, id="garde-sans"),
        pytest.param(
            ["garde_contre", "pass", "pass", "pass"], [-192, 576, -192, -192], {}, id="garde-contre"
        ),
        pytest.param(ALL_PASS, [88, -104, -56, 72], {"all_pass": "goulash"}, id="goulash"),
    ],
)
def test_tarot_partial_discard_the_dog_is_what_nobody_played(
    auction: list[str], scores: list[int], options: dict[str, Any]
) -> None:
    """tarot.partial.discard: after a garde sans or contre, or in a goulash, the cards nobody played
    are the dog (3 points): it counts for the taker (S = 140), the defence (S = 192) or nobody
    (the goulash settles 48, 36 and 4 taken: 88 - 4 x taken), as with the hands written."""
    data = deal(BASE4.dog_untouched(), auction, scores=scores)
    assert codes(record(4, tricks_only(data), **options)) == []


def test_tarot_partial_discard_checked_from_the_unplayed_cards() -> None:
    """tarot.partial.discard + tarot.discard.king: seat 0 keeps C3 for trick 11 and CK is never
    played: the taker discarded it, and a King may not be discarded. Same count (CK and C3 change
    places between a trick the taker won and his discard), so the scores stand."""
    layout = BASE4.swap("CK", "C3")
    assert layout.tricks[10] == (1, "T11 D8 DQ C3")
    data = record(4, tricks_only(deal(layout, GARDE_BY_SEAT_1, scores=BASE4_GARDE)))
    [problem] = found(data)
    assert (problem.code, problem.location.path) == ("TAROT-DISCARD-KING", "deals[0].discard")
    assert "CK" in problem.message and "derived from the cards played" in problem.message


REVOKE4 = BASE4.swap("H5", "C4")
"""BASE4 with seat 0 playing H5 in trick 1 (no trump: any card) and C4 in trick 15 on the taker's
HK lead, while still holding H7 and H9 (tricks 16 and 17): a revoke."""


def test_tarot_partial_hands_a_revoke_is_proven_by_a_later_card() -> None:
    """tarot.partial.hands + tarot.play.follow: seat 0 plays C4 on a heart in trick 15 and hearts
    in tricks 16 and 17; without the hands the revoke is found where it is with them."""
    assert REVOKE4.tricks[14] == (2, "HK H4 C4 H1")
    full = record(4, deal(REVOKE4, GARDE_BY_SEAT_1, scores=BASE4_GARDE))
    where = [(d.code, d.location.trick, d.location.position, d.location.seat) for d in found(full)]
    assert where == [("TAROT-REVOKE", 15, 3, 0)]
    partial = record(4, tricks_only(deal(REVOKE4, GARDE_BY_SEAT_1, scores=BASE4_GARDE)))
    assert [(d.code, d.location.trick, d.location.position, d.location.seat) for d in found(partial)] == where


def test_tarot_partial_hands_the_scorekeepers_hand_known() -> None:
    """tarot.partial.hands: only seat 0's hand is written (the scorekeeper's); the others come from
    the play. A card of his hand mistyped (S5 for S6, which seat 3 plays in trick 13) is a card
    dealt twice, and S5, which he plays in trick 12, is not in his hand."""
    seat0 = BASE4_DEAL["hands"][0]
    partial = tricks_only(BASE4_DEAL)
    partial["hands"] = [seat0, None, None, None]
    assert codes(record(4, partial)) == []
    partial["hands"] = [seat0.replace("S5", "S6"), None, None, None]
    assert {d.code for d in found(record(4, partial))} >= {"DEAL-DUPLICATE-CARD", "PLAY-NOT-HELD"}


def test_tarot_partial_hands_a_poignee_against_the_trumps_played() -> None:
    """tarot.partial.hands + tarot.poignee.held: seat 2 shows T1..T10 in a simple poignée. In
    TEN_TRUMPS4 he plays all ten: right. In BASE4 seat 3 plays T1..T5: seat 2 never held them."""
    shown = {"type": "poignee", "seat": 2, "level": "simple", "cards": "T1 T2 T3 T4 T5 T6 T7 T8 T9 T10"}
    scores = [-90, 270, -90, -90]  # S = 70 + 20 (the taker wins the contract)
    right = deal(TEN_TRUMPS4, GARDE_BY_SEAT_1, scores=scores, announcements=[shown])
    assert codes(record(4, tricks_only(right))) == []
    wrong = deal(BASE4, GARDE_BY_SEAT_1, scores=scores, announcements=[shown])
    [problem] = found(record(4, tricks_only(wrong)))
    assert problem.code == "TAROT-POIGNEE-NOT-HELD" and "T1 T2 T3 T4 T5" in problem.message


# --- the taker's hand and the dog (tarot.partial.taker) ---------------------------------------------


def test_tarot_partial_taker_a_queen_call_not_checked_when_the_kings_may_come_from_the_dog() -> None:
    """tarot.partial.taker + tarot.call.rank: in Q5 the taker calls HQ and plays the four Kings
    himself; with neither his hand nor the dog written, one of them may have come from the dog,
    so the call's rank is not checked, and the note says so."""
    data = record(
        5,
        tricks_only(
            deal(
                Q5, ["garde", "pass", "pass", "pass", "pass"], call="HQ", scores=[-114, 228, -114, 114, -114]
            )
        ),
    )
    assert codes(data) == [NOTE]
    assert "the rank of the called card for seat 1" in notes(data)[0]


def test_tarot_partial_taker_a_queen_call_proven_wrong_by_kings_played_elsewhere() -> None:
    """tarot.partial.taker + tarot.call.rank: in P5 the four Kings are played by seats 3 (SK, HK)
    and 0 (DK, CK): the taker calling HQ cannot have held them, whatever the dog was."""
    data = record(5, tricks_only(deal(P5, ["garde", "pass", "pass", "pass", "pass"], call="HQ")))
    [problem] = [d for d in found(data) if d.code != "SCORE-MISSING"]
    assert problem.code == "TAROT-CALL-RANK"
    assert all(king in problem.message for king in ("SK", "HK", "DK", "CK"))


def test_tarot_partial_taker_the_partner_from_the_called_card() -> None:
    """tarot.partial.hands + tarot.call.partner: P5 without hands: HK is played by seat 3, who is
    the partner: S = 106, taker 2S, partner S."""
    data = record(
        5, tricks_only(deal(P5, ["garde", "pass", "pass", "pass", "pass"], call="HK", scores=P5_SCORES))
    )
    assert codes(data) == []


def test_tarot_partial_taker_the_dog_written_gives_his_hand() -> None:
    """tarot.partial.taker: with the dog written (it is shown at a garde), the taker's hand is what
    he played and laid aside less the dog; a dog card he did not hold (HK, played by seat 2) is a
    card dealt twice."""
    partial = tricks_only(BASE4_DEAL, "dog", "discard")
    assert codes(record(4, partial)) == []
    partial["dog"] = partial["dog"].replace("S1", "HK")
    assert "DEAL-DUPLICATE-CARD" in [d.code for d in found(record(4, partial))]


# --- deals not played out (tarot.partial.cut-short) -------------------------------------------------


def test_tarot_partial_cut_short_keeps_what_the_cards_prove() -> None:
    """tarot.partial.cut-short: REVOKE4 abandoned after 16 tricks, no hands: the hand sizes and
    the cards dealt to nobody cannot be checked (a note says so), but the revoke of trick 15 is
    proven by seat 0's H7 in trick 16."""
    abandoned = tricks_only(deal(REVOKE4, GARDE_BY_SEAT_1))
    abandoned["tricks"] = abandoned["tricks"][:16]
    abandoned["status"] = "abandoned"
    assert codes(record(4, abandoned)) == ["TAROT-REVOKE", NOTE]
    assert "the hand sizes" in notes(record(4, abandoned))[0]


def test_tarot_partial_cut_short_the_takers_hand_written() -> None:
    """tarot.partial.cut-short: BASE4 stops after trick 12 with only the taker's hand written. The
    T11, T12 and S1 he plays (tricks 10-12) are not in his hand: they came from the dog. He has 9
    cards he is not seen to play, more than the 6 he laid aside, so his cards are not checked
    against his hand; the note says so."""
    abandoned = tricks_only(deal(BASE4, GARDE_BY_SEAT_1))
    abandoned["hands"] = [None, BASE4_DEAL["hands"][1], None, None]
    abandoned["tricks"] = abandoned["tricks"][:12]
    abandoned["status"] = "abandoned"
    data = record(4, abandoned)
    assert codes(data) == [NOTE]
    assert "following suit, trumping, overtrumping, playing a lower trump for seat 1" in notes(data)[0]


TRUMPED4 = {
    "dealer": 0,
    "auction": ["pass", "garde", "pass", "pass"],
    "dog": "H1 H2 H3 S1 S2 S3",
    "tricks": ["H4 T5 H5 H6"],
    "status": "abandoned",
}
"""Four players, seat 2 takes a garde; the dog, shown to all, has three hearts. Seat 1 leads H4
and the taker trumps with T5; then play stops."""


def test_tarot_partial_cut_short_the_taker_may_have_laid_the_dogs_hearts_aside() -> None:
    """tarot.partial.cut-short + tarot.play.follow: without his discard, the taker may have laid
    H1 H2 H3 aside, so trumping the heart lead proves nothing."""
    assert codes(record(4, TRUMPED4)) == [NOTE]


def test_tarot_partial_cut_short_the_taker_kept_the_dogs_hearts() -> None:
    """tarot.partial.cut-short + tarot.play.follow: his discard S1 S2 S3 C1 C2 C3 written, he kept
    H1 H2 H3 from the dog: trumping the heart lead is a revoke."""
    data = record(4, {**TRUMPED4, "discard": "S1 S2 S3 C1 C2 C3"})
    [problem] = found(data)
    assert (problem.code, problem.location.trick, problem.location.seat) == ("TAROT-REVOKE", 1, 2)
    assert "H1 H2 H3" in problem.message


# --- score sheets (tarot.sheet) ---------------------------------------------------------------------


def sheet(players: int, *lines: dict[str, Any], **options: Any) -> dict[str, Any]:
    """A record of score-sheet lines: each line is a deal's dealer and result, dealers in turn."""
    return record(players, *({"dealer": i % players, **line} for i, line in enumerate(lines)), **options)


@pytest.mark.parametrize(
    ("players", "result", "options"),
    [
        pytest.param(
            4,
            {"contract": "garde", "taker": 1, "bouts": 2, "points": 51, "scores": [-70, 210, -70, -70]},
            {},
            id="tarot.sheet-garde-made-by-10",
        ),
        pytest.param(
            4,
            {
                "contract": "garde_contre",
                "taker": 1,
                "bouts": 1,
                "points": 46,
                "petit_au_bout": "defence",
                "poignees": [{"seat": 2, "level": "double"}],
                "scores": [270, -810, 270, 270],
            },
            {},
            id="tarot.sheet-garde-contre-lost-petit-and-poignee-to-the-defence",  # worked example 6
        ),
        pytest.param(
            4,
            {
                "contract": "garde",
                "taker": 2,
                "bouts": 3,
                "points": 91,
                "petit_au_bout": "attack",
                "poignees": [{"seat": 2, "level": "double"}],
                "slam": "announced_made",
                "scores": [-610, -610, 1830, -610],
            },
            {},
            id="tarot.sheet-slam-announced-and-made",  # worked example 8
        ),
        pytest.param(
            4,
            {
                "contract": "garde",
                "taker": 0,
                "bouts": 2,
                "points": 61,
                "slam": "announced_failed",
                "scores": [-330, 110, 110, 110],
            },
            {},
            id="tarot.sheet-slam-announced-and-failed",  # worked example 9
        ),
        pytest.param(
            4,
            {
                "contract": "petite",
                "taker": 3,
                "bouts": 0,
                "points": 3,
                "slam": "defence",
                "scores": [278, 278, 278, -834],
            },
            {},
            id="tarot.sheet-defence-slam",  # worked example 10
        ),
        pytest.param(
            4,
            {
                "contract": "petite",
                "taker": 3,
                "bouts": 0,
                "points": 3,
                "slam": "announced_defence",
                "scores": [478, 478, 478, -1434],
            },
            {},
            id="tarot.sheet-defence-slam-after-an-announcement",
        ),
        pytest.param(
            4,
            {"contract": "petite", "taker": 3, "bouts": 0, "points": 3, "slam": "defence"}
            | {"scores": [78, 78, 78, -234]},
            {"defence_slam_bonus": 0},
            id="tarot.sheet-defence-slam-without-bonus",
        ),
        pytest.param(
            4,
            {"contract": "garde", "taker": 1, "bouts": 2, "points": 51, "misere": [0]}
            | {"scores": [-40, 200, -80, -80]},
            {"misere": True},
            id="tarot.sheet-misere",  # worked example 11
        ),
        pytest.param(
            4,
            {"contract": "pass", "points_taken": [10, 30, 21, 25], "scores": [46, -34, 2, -14]},
            {"all_pass": "goulash"},
            id="tarot.sheet-goulash",  # worked example 12
        ),
        pytest.param(4, {"contract": "pass", "scores": [0, 0, 0, 0]}, {}, id="tarot.sheet-all-pass-redeal"),
        pytest.param(
            3,
            {"contract": "garde", "taker": 1, "bouts": 2, "points": 40.5, "scores": [52, -104, 52]},
            {},
            id="tarot.sheet-half-point-to-the-defence",  # worked example 13
        ),
        pytest.param(
            3,
            {"contract": "garde", "taker": 1, "bouts": 2, "points": 41.5, "scores": [-52, 104, -52]},
            {},
            id="tarot.sheet-half-point-to-the-taker",  # worked example 14
        ),
        pytest.param(
            5,
            {
                "contract": "garde",
                "taker": 3,
                "called": "HK",
                "partner": 0,
                "bouts": 3,
                "points": 75,
                "poignees": [{"seat": 3, "level": "simple"}],
                "scores": [148, -148, -148, 296, -148],
            },
            {},
            id="tarot.sheet-five-with-a-partner",  # worked example 17
        ),
        pytest.param(
            5,
            {
                "contract": "garde",
                "taker": 3,
                "called": "SK",
                "partner": 3,
                "bouts": 3,
                "points": 64.5,
                "scores": [-108, -108, -108, 432, -108],
            },
            {},
            id="tarot.sheet-five-alone",  # worked example 18
        ),
        pytest.param(
            5,
            {
                "contract": "garde_sans",
                "taker": 0,
                "called": "DK",
                "partner": 2,
                "bouts": 2,
                "points": 48.5,
                "petit_au_bout": 2,
                "scores": [344, -172, 172, -172, -172],
            },
            {},
            id="tarot.sheet-five-garde-sans-petit-to-the-partner",  # worked example 20
        ),
    ],
)
def test_tarot_sheet_scores_from_the_facts(
    players: int, result: dict[str, Any], options: dict[str, Any]
) -> None:
    """tarot.sheet: a score sheet's line, no cards: the scores the facts give by tarot.score.*
    (the worked examples of the rules page), checked against those written."""
    data = sheet(players, {"result": result}, **options)
    assert codes(data) == [NOTE]
    wrong = copy.deepcopy(data)
    wrong["deals"][0]["result"]["scores"][0] += 10
    wrong["deals"][0]["result"]["scores"][1] -= 10
    assert [d.code for d in found(wrong)] == ["SCORE-MISMATCH"]


def test_tarot_sheet_an_evening_with_its_totals() -> None:
    """tarot.sheet + tarot.score.totals: an evening of sheet lines (a garde, a deal annulled for a
    Petit sec, a deal everybody passed, a petite lost) with running totals validates clean; a
    total added up wrong is reported at that deal."""
    lines = [
        {
            "result": {
                "contract": "garde",
                "taker": 1,
                "bouts": 2,
                "points": 51,
                "scores": [-70, 210, -70, -70],
            }
        },
        {"status": "annulled"},
        {"result": {"contract": "pass", "scores": [0, 0, 0, 0]}},
        {
            "result": {
                "contract": "petite",
                "taker": 0,
                "bouts": 1,
                "points": 42,
                "scores": [-102, 34, 34, 34],
            }
        },
    ]
    totals = [[-70, 210, -70, -70], [-70, 210, -70, -70], [-70, 210, -70, -70], [-172, 244, -36, -36]]
    data = sheet(4, *({**line, "totals": total} for line, total in zip(lines, totals, strict=True)))
    assert [d.code for d in found(data)] == []
    data["deals"][3]["totals"] = [-172, 244, -36, -35]
    [problem] = found(data)
    assert (problem.code, problem.location.deal) == ("TOTAL-MISMATCH", 4)


def test_tarot_sheet_scores_only_add_up_to_zero() -> None:
    """tarot.sheet + tarot.score.split: a line that gives the contract but not the bouts and points
    cannot be scored; its scores still add up to zero, and a note says what the sheet lacks."""
    data = sheet(4, {"result": {"contract": "garde", "taker": 1, "scores": [-70, 210, -70, -70]}})
    assert codes(data) == [NOTE]  # the sheet's own note, which says what it lacks
    assert any("the bouts, the points" in message for message in notes(data))
    data["deals"][0]["result"]["scores"][1] = 200
    assert [d.code for d in found(data)] == ["SCORE-MISMATCH"]


@pytest.mark.parametrize(
    ("players", "facts", "field", "options"),
    [
        pytest.param(4, {"bouts": 4}, "bouts", {}, id="tarot.sheet.facts-four-bouts"),
        pytest.param(4, {"points": 95}, "points", {}, id="tarot.sheet.facts-more-than-91-points"),
        pytest.param(
            4,
            {"points": 50.5},
            "points",
            {"excuse_last_trick": "to_trick_winner"},
            id="tarot.sheet.facts-half-point-at-four-with-to-trick-winner",
        ),
        pytest.param(
            4, {"bouts": 3, "points": 10}, "points", {}, id="tarot.sheet.facts-three-bouts-10-points"
        ),
        pytest.param(4, {"bouts": 0, "points": 80}, "points", {}, id="tarot.sheet.facts-no-bout-80-points"),
        pytest.param(4, {"taker": 4}, "taker", {}, id="tarot.sheet.facts-taker-not-at-the-table"),
        pytest.param(4, {"called": "HK"}, "called", {}, id="tarot.sheet.facts-call-at-four"),
        pytest.param(4, {"partner": 2}, "partner", {}, id="tarot.sheet.facts-partner-at-four"),
        pytest.param(5, {"called": "H7", "partner": 2}, "called", {}, id="tarot.sheet.facts-call-a-pip"),
        pytest.param(4, {"contract": "grande"}, "contract", {}, id="tarot.sheet.facts-no-such-contract"),
        pytest.param(
            4, {"poignees": [{"seat": 1, "level": "quadruple"}]}, "poignees", {}, id="tarot.sheet.facts-level"
        ),
        pytest.param(
            4,
            {"poignees": [{"seat": 1, "level": "simple"}, {"seat": 1, "level": "double"}]},
            "poignees",
            {},
            id="tarot.sheet.facts-two-poignees-by-one-player",
        ),
        pytest.param(4, {"petit_au_bout": "both"}, "petit_au_bout", {}, id="tarot.sheet.facts-petit-side"),
        pytest.param(4, {"slam": "grand"}, "slam", {}, id="tarot.sheet.facts-slam-outcome"),
        pytest.param(4, {"misere": [2]}, "misere", {}, id="tarot.sheet.facts-misere-without-the-option"),
        pytest.param(
            4, {"points_taken": [10, 30, 21, 25]}, "points_taken", {}, id="tarot.sheet.facts-goulash-points"
        ),
    ],
)
def test_tarot_sheet_facts_no_deal_can_have(
    players: int, facts: dict[str, Any], field: str, options: dict[str, Any]
) -> None:
    """tarot.sheet.facts: a fact no deal of this table can have is SHEET-BAD-FACT at its field."""
    result: dict[str, Any] = {"contract": "garde", "taker": 1, "bouts": 2, "points": 51}
    if players == 5:
        result["partner"] = 3
    result |= facts
    result["scores"] = [-70, 210, -70, -70, 0][:players]
    [problem] = found(sheet(players, {"result": result}, **options))
    assert (problem.code, problem.location.path) == ("SHEET-BAD-FACT", f"deals[0].result.{field}")


def test_a_half_point_at_four_players_is_a_sheet_fact_by_default() -> None:
    """tarot.score.rounding: with the default excuse_last_trick = to_other_side an Excuse played to
    the last trick may change sides alone, so 50.5 points at four players is a count a deal can
    have: 2 bouts, target 41, won -> 51, made by 10: S = (25 + 10) x 2 = 70."""
    result = {"contract": "garde", "taker": 1, "bouts": 2, "points": 50.5, "scores": [-70, 210, -70, -70]}
    assert found(sheet(4, {"result": result})) == []


@pytest.mark.parametrize(
    ("line", "field"),
    [
        pytest.param(
            {"result": {"contract": "pass", "taker": 1, "scores": [0, 0, 0, 0]}}, "taker", id="pass"
        ),
        pytest.param(
            {"status": "annulled", "result": {"contract": "garde", "scores": [0, 0, 0, 0]}},
            "contract",
            id="annulled",
        ),
    ],
)
def test_tarot_sheet_facts_nobody_took(line: dict[str, Any], field: str) -> None:
    """tarot.sheet.facts: when everybody passed there is no taker; an annulled deal is dealt
    again and has no contract."""
    [problem] = found(sheet(4, line))
    assert (problem.code, problem.location.path) == ("SHEET-BAD-FACT", f"deals[0].result.{field}")


# --- facts written beside the cards (tarot.sheet.match) ---------------------------------------------


@pytest.mark.parametrize(
    ("facts", "field", "says"),
    [
        pytest.param({"bouts": 3}, "bouts", "the sheet says 3 bouts; the tricks give 2", id="bouts"),
        pytest.param(
            {"taker": 2}, "taker", "the sheet says seat 2 took; the auction gives seat 1", id="taker"
        ),
        pytest.param(
            {"contract": "petite"}, "contract", "was petite; the auction gives garde", id="contract"
        ),
        pytest.param(
            {"petit_au_bout": "attack"}, "petit_au_bout", "the tricks give no Petit au bout", id="petit"
        ),
        pytest.param(
            {"slam": "made"}, "slam", "the sheet says slam made; the tricks give no slam", id="slam"
        ),
        pytest.param(
            {"poignees": [{"seat": 1, "level": "simple"}]},
            "poignees",
            "the announcements give no poignée",
            id="poignees",
        ),
    ],
)
def test_tarot_sheet_match_facts_against_the_cards(facts: dict[str, Any], field: str, says: str) -> None:
    """tarot.sheet.match: BASE4 (garde by seat 1, 2 bouts, 51 points, no Petit au bout, no slam,
    no poignée) with a fact of its sheet written wrong: SHEET-MISMATCH at that field."""
    data = copy.deepcopy(BASE4_DEAL)
    data["result"] |= {"contract": "garde", "taker": 1, "bouts": 2, "points": 51}
    assert codes(record(4, data)) == []
    data["result"] |= facts
    [problem] = found(record(4, data))
    assert (problem.code, problem.location.path) == ("SHEET-MISMATCH", f"deals[0].result.{field}")
    assert says in problem.message


def test_tarot_sheet_match_petit_au_bout_by_side_or_seat() -> None:
    """tarot.sheet.match + tarot.score.petit-au-bout: in PA4 the taker (seat 1) wins T1 in the last
    trick: "attack" or seat 1 is right, "defence" or seat 2 is not."""
    good = deal(PA4, GARDE_BY_SEAT_1, scores=[-102, 306, -102, -102])
    for right in ("attack", 1):
        good["result"]["petit_au_bout"] = right
        assert codes(record(4, good)) == []
    for wrong in ("defence", 2):
        good["result"]["petit_au_bout"] = wrong
        assert [d.code for d in found(record(4, good))] == ["SHEET-MISMATCH"]


def test_tarot_sheet_match_the_called_card_and_partner() -> None:
    """tarot.sheet.match: P5's taker calls HK, held by seat 3: the sheet's "SK" or partner 2 is wrong."""
    data = deal(P5, ["garde", "pass", "pass", "pass", "pass"], call="HK", scores=P5_SCORES)
    data["result"] |= {"called": "HK", "partner": 3}
    assert codes(record(5, data)) == []
    data["result"] |= {"called": "SK", "partner": 2}
    assert [d.location.path for d in found(record(5, data))] == [
        "deals[0].result.called",
        "deals[0].result.partner",
    ]


def test_tarot_sheet_match_a_bad_fact_beside_the_cards() -> None:
    """tarot.sheet.facts: 4 bouts is impossible, with cards or without."""
    data = copy.deepcopy(BASE4_DEAL)
    data["result"]["bouts"] = 4
    assert [d.code for d in found(record(4, data))] == ["SHEET-BAD-FACT"]


# --- properties over generated games ----------------------------------------------------------------

PROPERTY = settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
players = st.sampled_from([3, 4, 5])
seeds = st.integers(0, 2**31)
tarot_options = option_values(TarotOptions)
TAROT_CODES = list(DECK.codes)


def generated(n: int, seed: int, options: dict[str, Any], form: Form = "full") -> Any:
    """A generated French Tarot record of three deals, in the form asked for, as JSON."""
    return orjson.loads(
        orjson.dumps(to_data(generate_record(TAROT, n, 3, seed, options, form=form, player="random")))
    )


def places(data: dict[str, Any]) -> list[tuple[Any, ...]]:
    """Each error and warning of a record by its code and place."""
    return sorted(
        {
            (d.code, d.location.deal, d.location.trick, d.location.position, d.location.seat, d.location.path)
            for d in found(data)
        },
        key=str,
    )


@PROPERTY
@given(players, seeds, tarot_options)
def test_a_record_without_its_hands_gets_the_same_verdict(n: int, seed: int, options: dict[str, Any]) -> None:
    """tarot.partial.*: a generated game with its hands, dog and discard removed (`forget`) is as
    clean as with them."""
    assert places(generated(n, seed, options)) == []
    assert places(generated(n, seed, options, "tricks")) == []


@PROPERTY
@given(players, seeds, tarot_options, st.data())
def test_corrupted_tricks_get_the_findings_of_the_hands_they_imply(
    n: int, seed: int, options: dict[str, Any], data: st.DataObject
) -> None:
    """tarot.partial.*: after one corruption of a deal's tricks (a card moved to another seat's
    place, two cards swapped between tricks, a card replaced by another), the deal without hands
    gets the same codes at the same places as the deal whose hands, dog and discard are the ones
    the corrupted tricks imply (derived here through the derivation)."""
    record_ = generated(n, seed, options)
    played = [i for i, d in enumerate(record_["deals"]) if d.get("tricks")]
    if not played:
        return
    index = data.draw(st.sampled_from(played))
    tricks = [trick.split() for trick in record_["deals"][index]["tricks"]]
    i, a = data.draw(st.integers(0, len(tricks) - 1)), data.draw(st.integers(0, n - 1))
    kind = data.draw(st.sampled_from(["within", "between", "replace"]))
    if kind == "replace":
        tricks[i][a] = data.draw(st.sampled_from([c for c in TAROT_CODES if c != tricks[i][a]]))
    else:
        j = i if kind == "within" else data.draw(st.integers(0, len(tricks) - 1))
        b = data.draw(st.integers(0, n - 1))
        tricks[i][a], tricks[j][b] = tricks[j][b], tricks[i][a]
    record_["deals"][index]["tricks"] = [" ".join(trick) for trick in tricks]
    table, _ = TAROT.table(TarotOptions.model_validate(options), n)
    assert table is not None
    partial = TAROT.forget(table, TarotDeal.model_validate(record_["deals"][index]))
    completion, problems = derive(TAROT, table, partial)
    assert completion is not None and problems == []
    without, implied = copy.deepcopy(record_), copy.deepcopy(record_)
    without["deals"][index] = to_json(partial)
    implied["deals"][index] = to_json(completion.deal)
    assert places(without) == places(implied)


def to_json(deal_: TarotDeal) -> Any:
    """A deal model as the record's JSON."""
    return orjson.loads(orjson.dumps(deal_.model_dump(mode="json", exclude_none=True)))


SLAM_TERMS = {None: 0, "made": 200, "announced_made": 400, "announced_failed": -200, "defence": -200}
SLAM_TERMS["announced_defence"] = -400
"""tarot.score.slam, as the rules page states it (default defence bonus 200)."""


@PROPERTY
@given(players, seeds, tarot_options, st.data())
def test_a_sheet_validates_clean_and_any_fact_changed_is_caught(
    n: int, seed: int, options: dict[str, Any], data: st.DataObject
) -> None:
    """tarot.sheet: the sheet form of a generated game validates clean; one fact, score or total
    changed is always caught. (The called card and a poignée's seat are not changed: neither
    enters the score, so a sheet without cards cannot tell.)"""
    record_ = generated(n, seed, options, "sheet")
    assert places(record_) == []
    index = data.draw(st.integers(0, len(record_["deals"]) - 1))
    line = record_["deals"][index]
    result = line.get("result")
    if result is None:
        return
    fixed = ("scores", "called") if result.get("contract") != "pass" else ("scores", "called", "contract")
    choices = ["score", "total", *(field for field in result if field not in fixed)]
    if line["status"] == "annulled" or result.get("contract") == "pass":
        choices.append("taker")
    field = data.draw(st.sampled_from(choices))
    change(line, field, n, data)
    assert places(record_) != []


def change(line: dict[str, Any], field: str, n: int, data: st.DataObject) -> None:
    """One sheet fact, score or total of a line changed to another value that changes the score
    (or is impossible)."""
    result = line["result"]
    seat = data.draw(st.integers(0, n - 1))
    delta = data.draw(st.integers(1, 30)) * data.draw(st.sampled_from([1, -1]))
    if field == "score":
        result["scores"][seat] += delta
    elif field == "total":
        line["totals"][seat] += delta
    elif field in ("taker", "partner"):
        result[field] = data.draw(st.sampled_from([s for s in range(n) if s != result.get(field)]))
    elif field == "contract":
        bids = ["petite", "garde", "garde_sans", "garde_contre"]
        result[field] = data.draw(st.sampled_from([b for b in bids if b != result[field]]))
    elif field == "bouts":
        result[field] = data.draw(st.sampled_from([b for b in range(4) if b != result[field]]))
    elif field == "points":
        result[field] += delta
    elif field == "poignees":
        result[field] = result[field][1:]
    elif field == "petit_au_bout":
        result[field] = {"attack": "defence", "defence": "attack"}[result[field]]
    elif field == "slam":
        term = SLAM_TERMS[result[field]]
        result[field] = data.draw(st.sampled_from([s for s, t in SLAM_TERMS.items() if t != term and s]))
    elif field == "misere":
        result[field] = result[field][1:] or None
    else:  # points_taken
        result[field][seat] += (
            abs(delta) if result[field][seat] + abs(delta) <= 91 else -result[field][seat] - 1
        )


def test_tarot_partial_an_all_pass_deal_without_hands_still_scores_nothing() -> None:
    """tarot.auction.all-pass and tarot.score: when everybody passes the cards are dealt again and
    nobody scores, whatever the hands held; a deal that writes only its four passes (no hands, no
    dog) is checked against that: zeros are clean, any other score is SCORE-MISMATCH."""
    passed = {"dealer": 0, "auction": ALL_PASS, "result": {"scores": [0, 0, 0, 0]}}
    assert found(record(4, passed)) == []
    wrong = {**passed, "result": {"scores": [30, -10, -10, -10]}}
    assert [d.code for d in found(record(4, wrong))] == ["SCORE-MISMATCH"]


def test_a_first_lead_in_the_called_suit_cut_short_is_not_checked() -> None:
    """tarot.partial.cut-short, tarot.play.first-lead: the taker calls SK and opens with SQ (with
    the hands written: TAROT-CALLED-SUIT-LEAD). Cut short after that trick with the hands left
    out, nothing shows that he held another suit: the note lists the first lead as not checked.
    Played out, his other cards show it, and the fault is reported."""
    written = deal(P5, ["garde", "pass", "pass", "pass", "pass"], call="SK", scores=P5_SCORES, last_winner=0)
    played_out = tricks_only(written)
    assert codes(record(5, played_out)) == ["TAROT-CALLED-SUIT-LEAD"]
    cut = tricks_only(written)
    cut.update(status="abandoned", tricks=cut["tricks"][:1])
    cut.pop("result")
    found = diagnostics_of(record(5, cut))
    assert [d.code for d in found] == [NOTE]
    assert "the first lead in the called suit for seat 1" in found[0].message
