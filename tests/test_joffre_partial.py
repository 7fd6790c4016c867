"""Joffre partial records (spec/rules/joffre.md, "Partial records"): deals without their hands,
deals cut short, score-sheet deals and the facts a played deal's sheet writes.

Rule tests state the deal as it was played and the answer worked out by hand from the rules; the
property tests run generated games at three and four players, in teams and not, through the
tricks-only and sheet forms and single corruptions of each.
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
from recordkit.engine import replay_deal
from recordkit.generate import Form, generate_record
from recordkit.model import to_data
from recordkit.rules.joffre import Joffre
from recordkit.rules.joffre.cards import cards_for
from recordkit.rules.joffre.options import JoffreOptions
from recordkit.rules.joffre.record import JoffreDeal
from recordkit.rules.values import Table
from tests.budget import examples
from tests.helpers import diagnostics_of
from tests.test_joffre_properties import joffre_options
from tests.test_joffre_rules import DEAL_1, DEAL_3, THREE_DEAL_2

JOFFRE = Joffre()
PLAYERS = ["Gérard", "Lucie", "Marcel", "Thérèse"]
THREE = ["Aurèle", "Blanche", "Édouard"]
TEAMS = ["Roland", "Fernand", "Yvette", "Pierrette"]
TEAM_OPTIONS: dict[str, Any] = {
    "mode": "teams",
    "bid_unit": "points",
    "min_bid": 5,
    "opening_bid_forced": False,
    "all_pass": "dealer_forced_min",
    "dealer_may_equal": True,
    "allow_no_trump": True,
}

# The club evening's deal 1 (dealer 0): Marcel (seat 2) bids 4 and takes 3 tricks.
CLUB_1: dict[str, Any] = {**DEAL_1, "result": {"scores": [0, 3, -4, -1]}}
# The same deal with Thérèse (seat 3) playing E1 on France in trick 3 while she holds F1 and F6
# (F6 she plays in trick 6, F1 in trick 7).
CLUB_1_REVOKE: dict[str, Any] = {
    **CLUB_1,
    "tricks": [*CLUB_1["tricks"][:2], "F7 E1 F3 F0", *CLUB_1["tricks"][3:6], "E6 E4 F1 E0", "G6 F2 G4 G1"],
}
# The club evening's deal 3 (dealer 2, Germany trump): Marcel (seat 2) bids 5 and takes 5 tricks;
# in trick 6 Lucie (seat 1) trumps with the Kaiser and takes Gérard's (seat 0) Joffre. Tricks:
# seat 0 none, seat 1 two (the 6th and the 8th), seat 2 five, seat 3 one (the 5th).
CLUB_3: dict[str, Any] = {**DEAL_3, "result": {"scores": [-5, 4, 5, 1]}}
CLUB_3_FACTS: dict[str, Any] = {
    "bid": "5",
    "bidder": 2,
    "tricks": [0, 2, 5, 1],
    "joffre": 1,
    "kaiser": 1,
    "joffre_taken": 0,
}
# Three players, deal 2 (dealer 1, Germany trump): Aurèle (seat 0) bids 6, takes 5 tricks, and
# Édouard's Kaiser takes his Joffre: -6 - 5 = -11.
THREE_2: dict[str, Any] = {**THREE_DEAL_2, "trump": "G", "result": {"scores": [-11, 1, 6]}}
# Teams, deal 2 (dealer 1): Roland (seat 0) bids "7 no trump" and his team takes every trick:
# 2 x (8 + 5 - 3) = 20 (the Kaiser's trick is theirs too).
TEAMS_2: dict[str, Any] = {
    "dealer": 1,
    "hands": [
        "E7 E6 E5 F7 R7 R6 G7 G6",
        "E3 E2 F4 F3 R3 R2 G3 G0",
        "E4 F6 F5 F0 R5 R4 G5 G4",
        "E1 E0 F2 F1 R1 R0 G2 G1",
    ],
    "auction": ["6", "7", "7 no trump", "pass"],
    "trump": "none",
    "tricks": [
        "E7 E3 E4 E1",
        "E6 E2 F0 E0",
        "E5 R2 G4 R0",
        "R7 R3 R4 R1",
        "R6 F3 R5 G1",
        "F7 F4 F5 F2",
        "G7 G0 G5 G2",
        "G6 G3 F6 F1",
    ],
    "result": {"scores": [20, 0, 20, 0]},
}


def record(deals: list[dict[str, Any]], players: list[str] = PLAYERS, **options: Any) -> dict[str, Any]:
    """A Joffre record of these deals (format 1.1)."""
    return {
        "format": "recordkit",
        "version": "1.1",
        "game": "joffre",
        "options": options,
        "players": players,
        "deals": copy.deepcopy(deals),
    }


def without_hands(deal: dict[str, Any], keep: tuple[int, ...] = ()) -> dict[str, Any]:
    """The deal as a magazine prints it (`keep`: the seats whose hands stay written)."""
    out = copy.deepcopy(deal)
    if keep:
        out["hands"] = [hand if seat in keep else None for seat, hand in enumerate(deal["hands"])]
    else:
        del out["hands"]
    return out


def found(data: dict[str, Any]) -> list[Diagnostic]:
    """The errors and warnings (not the notes of what was not checked)."""
    return [d for d in diagnostics_of(data) if d.severity != Severity.INFO]


def notes(data: dict[str, Any]) -> list[str]:
    """The messages of the notes of what was not checked."""
    return [d.message for d in diagnostics_of(data) if d.severity == Severity.INFO]


def placed(diagnostics: list[Diagnostic]) -> list[tuple[Any, ...]]:
    """Each diagnostic's code and place."""
    return [
        (d.code, d.location.deal, d.location.trick, d.location.position, d.location.seat, d.location.path)
        for d in diagnostics
    ]


def table_for(players: int, **options: Any) -> Table:
    """The table of a game."""
    return Table(JoffreOptions.model_validate(options), players, cards_for(players).deck)


# --- tricks without hands -----------------------------------------------------------------------


def test_hands_are_the_cards_each_seat_played_joffre_partial_tricks_only() -> None:
    """joffre.partial.tricks-only: three players, 30 cards: each hand is what its seat played (the
    bidder leads, the winner leads next), and the deal checks as if they were written, score included."""
    deal = without_hands(THREE_2)
    assert diagnostics_of(record([deal], THREE)) == []
    replay = replay_deal(JOFFRE, table_for(3), JoffreDeal.model_validate(deal))
    assert replay.completion is not None
    assert replay.completion.derived == ["hands[0]", "hands[1]", "hands[2]"]
    assert replay.completion.unchecked == {}
    derived = replay.completion.deal.hands
    assert [set(hand.split()) for hand in derived] == [set(hand.split()) for hand in THREE_2["hands"]]
    assert replay.scores == [-11, 1, 6]


def test_teams_no_trump_tricks_only_joffre_partial_tricks_only() -> None:
    """joffre.partial.tricks-only, joffre.play.trump: teams, a no-trump contract, no hands: clean;
    a trump written against the bidder's contract is still found."""
    assert diagnostics_of(record([without_hands(TEAMS_2)], TEAMS, **TEAM_OPTIONS)) == []
    wrong = {**without_hands(TEAMS_2), "trump": "E"}
    assert placed(found(record([wrong], TEAMS, **TEAM_OPTIONS))) == [
        ("JOFFRE-TRUMP-MISMATCH", 1, None, None, None, "deals[0].trump")
    ]


def test_the_bidders_first_card_sets_trump_joffre_play_trump() -> None:
    """joffre.play.trump: Aurèle's deal without hands: he leads G7, so Germany is trump, not France."""
    deal = {**without_hands(THREE_2), "trump": "F"}
    (problem,) = found(record([deal], THREE))
    assert problem.code == "JOFFRE-TRUMP-MISMATCH"
    assert "the bidder led G7, so Germany is trump" in problem.message


@pytest.mark.parametrize("keep", [(0, 1, 2, 3), (), (3,)], ids=["hands", "no-hands", "scorekeeper"])
def test_a_revoke_is_found_at_the_same_place_joffre_play_follow(keep: tuple[int, ...]) -> None:
    """joffre.play.follow: Thérèse plays E1 on France in trick 3 and France later (F6, F1): with the
    hands, without them, or with only hers, the revoke is at trick 3, card 2, seat 3."""
    deal = without_hands(CLUB_1_REVOKE, keep) if keep != (0, 1, 2, 3) else CLUB_1_REVOKE
    (problem,) = found(record([deal]))
    assert placed([problem]) == [("JOFFRE-REVOKE", 1, 3, 2, 3, "deals[0].tricks[2]")]
    assert "held F1 F6" in problem.message


def test_cut_short_only_what_was_played_joffre_partial_not_played_out() -> None:
    """joffre.partial.not-played-out: abandoned in trick 6 (two cards of it), only the scorekeeper's
    hand (Thérèse) written: the unknown hands' sizes and the cards dealt to nobody are not checked,
    and a note says so; her written hand still is."""
    deal = without_hands(CLUB_1, keep=(3,))
    deal.update(tricks=[*CLUB_1["tricks"][:5], "F6 F5"], status="abandoned")
    del deal["result"]
    data = record([deal])
    assert found(data) == []
    (note,) = notes(data)
    assert "hands[0], hands[1], hands[2] derived from the play" in note
    assert "for seat 0, 1, 2" in note and "that every card was dealt" in note and "not played out" in note
    deal["hands"][3] = "E7 E1 F6 F1 R3 R2 G7"
    assert placed(found(record([deal]))) == [("DEAL-HAND-SIZE", 1, None, None, 3, "deals[0].hands[3]")]


@pytest.mark.parametrize(("cut", "held"), [(5, None), (6, "F6")])
def test_a_revoke_is_proven_by_a_later_card_joffre_partial_not_played_out(cut: int, held: str | None) -> None:
    """joffre.partial.not-played-out, joffre.play.follow: cut after trick 5, nothing shows Thérèse
    held France in trick 3, so nothing is reported; cut after trick 6, where she plays F6, the revoke is."""
    deal = without_hands(CLUB_1_REVOKE)
    deal.update(tricks=CLUB_1_REVOKE["tricks"][:cut], status="abandoned")
    del deal["result"]
    problems = found(record([deal]))
    if held is None:
        assert problems == []
    else:
        (problem,) = problems
        assert placed([problem]) == [("JOFFRE-REVOKE", 1, 3, 2, 3, "deals[0].tricks[2]")]
        assert f"held {held}:" in problem.message


def test_a_card_played_twice_joffre_deck() -> None:
    """joffre.deck: without hands, Thérèse's E1 written again in trick 7 in place of Gérard's E0:
    two seats played E1, so it was dealt twice."""
    deal = without_hands(CLUB_1)
    deal["tricks"][6] = "E6 E4 E1 E1"
    codes = [d.code for d in found(record([deal]))]
    assert "DEAL-DUPLICATE-CARD" in codes


# --- score-sheet deals ---------------------------------------------------------------------------


def sheet(dealer: int, scores: list[int], **facts: Any) -> dict[str, Any]:
    """A score sheet's line."""
    return {"dealer": dealer, "result": {"scores": scores, **facts}}


SHEET_EXAMPLES = [
    pytest.param(
        {},
        4,
        {"bid": "4", "bidder": 1, "tricks": [2, 4, 1, 1], "joffre": 1, "kaiser": 0},
        [-1, 9, 1, 1],
        id="source-example-4-tricks-and-the-joffre",
    ),
    pytest.param(
        {},
        4,
        {"bid": "4", "bidder": 1, "tricks": [3, 3, 2, 0], "joffre": 1, "kaiser": 0},
        [0, -4, 2, 0],
        id="failed-the-joffre-does-not-count",
    ),
    pytest.param(
        {},
        4,
        {"bid": "5", "bidder": 1, "tricks": [1, 4, 2, 1], "joffre": 2, "kaiser": 2, "joffre_taken": 1},
        [1, -10, 4, 1],
        id="failed-and-captured",
    ),
    pytest.param(
        {"allow_no_trump": True},
        4,
        {"bid": "5 no trump", "bidder": 2, "tricks": [1, 1, 6, 0], "joffre": 2, "kaiser": 0},
        [-2, 1, 22, 0],
        id="no-trump-doubles",
    ),
    pytest.param(
        {"mode": "teams"},
        4,
        {"bid": "5", "bidder": 0, "tricks": [5, 3, 5, 3], "joffre": 2, "kaiser": 0},
        [7, 3, 7, 3],
        id="teams",
    ),
    pytest.param(
        {"dealer_may_equal": True, "target": 25},
        3,
        {"bid": "6", "bidder": 0, "tricks": [5, 1, 4], "joffre": 2, "kaiser": 2, "joffre_taken": 0},
        [-11, 1, 6],
        id="three-players-capture",
    ),
]


@pytest.mark.parametrize(("options", "n", "facts", "scores"), SHEET_EXAMPLES)
def test_sheet_scores_joffre_sheet_facts(
    options: dict[str, Any], n: int, facts: dict[str, Any], scores: list[int]
) -> None:
    """joffre.sheet.facts, joffre.score.*: the spec's worked examples written as sheet lines score
    what the rules give; a sheet whose arithmetic is off is SCORE-MISMATCH."""
    names = PLAYERS if n == 4 else THREE
    assert found(record([sheet(0, scores, **facts)], names, **options)) == []
    wrong = [scores[0] + 1, *scores[1:]]
    assert placed(found(record([sheet(0, wrong, **facts)], names, **options))) == [
        ("SCORE-MISMATCH", 1, None, None, None, "deals[0].result.scores")
    ]


def test_the_cap_on_a_sheet_joffre_score_cap() -> None:
    """joffre.score.cap (worked example 8): Gérard is at 48 before the deal and did not bid: his 3
    tricks add nothing; the others score as usual."""
    table = table_for(4, opponent_cap="kaiser47", target=52)
    facts = {"bid": "3", "bidder": 1, "tricks": [3, 3, 1, 1], "joffre": 3, "kaiser": 1}
    deal = JoffreDeal.model_validate(sheet(0, [0, 0, 1, 6], **facts))
    assert JOFFRE.sheet_scores(table, deal, [48, 20, 30, 10]) == ([0, 0, 1, 6], [])


def test_the_cap_without_the_totals_joffre_score_cap() -> None:
    """joffre.score.cap: a sheet line under kaiser47 whose totals before it are not known (no
    running totals, none written) is scored without the cap, with a warning."""
    table = table_for(4, opponent_cap="kaiser47", target=52)
    facts = {"bid": "3", "bidder": 1, "tricks": [3, 3, 1, 1], "joffre": 3, "kaiser": 1}
    scores, problems = JOFFRE.sheet_scores(table, JoffreDeal.model_validate(sheet(0, [3, 0, 1, 6], **facts)))
    assert scores == [3, 0, 1, 6]
    assert [(p.code, p.severity) for p in problems] == [("JOFFRE-CAP-UNKNOWN", Severity.WARNING)]


def test_the_same_facts_score_alike_played_or_written_joffre_sheet_facts() -> None:
    """joffre.sheet.facts: deal 3 of the club evening, and its facts alone, score [-5, 4, 5, 1]."""
    played = {**CLUB_3, "result": {**CLUB_3["result"], **CLUB_3_FACTS}}
    written = sheet(2, [-5, 4, 5, 1], **CLUB_3_FACTS)
    assert found(record([played])) == [] and found(record([written])) == []


def test_an_evening_of_sheets_joffre_sheet() -> None:
    """joffre.sheet, joffre.score.totals, joffre.deal.rotation, joffre.end.target: sheet lines only,
    with running totals, the deal passing left, and the game over at 40."""
    deals = [
        sheet(0, [9, -1, 1, 1], bid="4", bidder=0, tricks=[4, 2, 1, 1], joffre=0, kaiser=1),
        sheet(1, [2, 8, 0, 0], bid="3", bidder=1, tricks=[2, 3, 3, 0], joffre=1, kaiser=2),
        sheet(2, [11, 0, 0, -1], bid="5", bidder=0, tricks=[6, 0, 0, 2], joffre=0, kaiser=3),
        sheet(3, [11, 1, 0, -2], bid="6", bidder=0, tricks=[6, 1, 0, 1], joffre=0, kaiser=3),
        sheet(0, [12, -2, 0, 0], bid="7", bidder=0, tricks=[7, 1, 0, 0], joffre=0, kaiser=1),
    ]
    totals = [[9, -1, 1, 1], [11, 7, 1, 1], [22, 7, 1, 0], [33, 8, 1, -2], [45, 6, 1, -2]]
    for deal, total in zip(deals, totals, strict=True):
        deal["totals"] = total
    assert found(record(deals)) == []
    assert len(notes(record(deals))) == 5
    late = record(
        [*deals, sheet(1, [1, 1, 1, 7], bid="1", bidder=3, tricks=[1, 1, 1, 5], joffre=3, kaiser=3)]
    )
    assert [d.code for d in found(late)] == ["DEAL-AFTER-GAME-END"]
    off = record(deals)
    off["deals"][2]["totals"] = [22, 7, 1, 1]
    assert [d.code for d in found(off)] == ["TOTAL-MISMATCH", "TOTAL-MISMATCH"]
    turned = record(deals)
    turned["deals"][1]["dealer"] = 2
    assert "DEAL-DEALER-ROTATION" in [d.code for d in found(turned)]


BAD_FACTS = [
    pytest.param(
        {}, {"tricks": [9, 0, 0, 0]}, "result.tricks", "seat 0 took 9 tricks; a deal has 8", id="nine-tricks"
    ),
    pytest.param({}, {"tricks": [2, 4, 1, 0]}, "result.tricks", "add up to 7", id="seven-tricks-in-all"),
    pytest.param(
        {}, {"tricks": [2, 4, 2]}, "result.tricks", "3 numbers of tricks for 4 players", id="three-numbers"
    ),
    pytest.param({}, {"bid": "9"}, "result.bid", "bids go from 1 to 8 tricks", id="bid-too-high"),
    pytest.param({"min_bid": 5}, {"bid": "4"}, "result.bid", "bids go from 5 to 8", id="bid-too-low"),
    pytest.param({}, {"bid": "4 no trump"}, "result.bid", "allow_no_trump", id="no-trump-not-played"),
    pytest.param({}, {"bid": "beaucoup"}, "result.bid", "not a bid", id="not-a-bid"),
    pytest.param({}, {"bidder": 4}, "result.bidder", "there are 4 players", id="no-such-seat"),
    pytest.param(
        {}, {"kaiser": 3, "tricks": [2, 4, 2, 0]}, "result.kaiser", "gives him no trick", id="kaiser-no-trick"
    ),
    pytest.param(
        {}, {"joffre_taken": 0}, "result.joffre_taken", "one seat takes both", id="capture-not-one-trick"
    ),
    pytest.param(
        {}, {"kaiser": 1, "joffre_taken": 1}, "result.joffre_taken", "took the trick", id="capture-by-himself"
    ),
    pytest.param(
        {"kaiser_capture": "none"},
        {"kaiser": 1, "joffre_taken": 2},
        "result.joffre_taken",
        "never",
        id="no-capture",
    ),
    pytest.param({}, {"bid": "pass"}, "result.bid", "must open", id="forced-opening"),
    pytest.param(
        {"opening_bid_forced": False},
        {"bid": "pass"},
        "result.bidder",
        "thrown in",
        id="tricks-after-all-pass",
    ),
    pytest.param(
        {"mode": "teams"}, {}, "result.tricks", "partners write their team's tricks", id="teams-unequal"
    ),
]


@pytest.mark.parametrize(("options", "change", "path", "words"), BAD_FACTS)
def test_a_fact_no_deal_can_have_joffre_sheet_facts(
    options: dict[str, Any], change: dict[str, Any], path: str, words: str
) -> None:
    """joffre.sheet.facts: Lucie bids 4 and takes 4 tricks with the Joffre, Gérard 2 with the
    Kaiser: each impossible change to that line is SHEET-BAD-FACT at its field, and not scored."""
    facts = {"bid": "4", "bidder": 1, "tricks": [2, 4, 1, 1], "joffre": 1, "kaiser": 0, **change}
    (problem,) = found(record([sheet(0, [-1, 9, 1, 1], **facts)], **options))
    assert (problem.code, problem.location.path) == ("SHEET-BAD-FACT", f"deals[0].{path}")
    assert words in problem.message


def test_a_trump_against_the_bid_joffre_sheet_facts() -> None:
    """joffre.sheet.facts, joffre.play.trump: only a no-trump contract is played without trump."""
    line = {
        **sheet(0, [-1, 9, 1, 1], bid="4", bidder=1, tricks=[2, 4, 1, 1], joffre=1, kaiser=0),
        "trump": "none",
    }
    assert placed(found(record([line]))) == [("SHEET-BAD-FACT", 1, None, None, None, "deals[0].trump")]


def test_a_sheet_without_the_facts_is_not_scored_joffre_sheet() -> None:
    """joffre.sheet: a line with its scores only (or a fact left out) is no fault: a note says the
    scores could not be worked out, and the running totals are still checked."""
    bare = sheet(0, [3, 4, 1, 2], bid="4", bidder=1, tricks=[3, 4, 1, 0])
    bare["totals"] = [3, 4, 1, 2]
    assert found(record([bare])) == []
    assert any(
        "does not give who took the Joffre and who took the Kaiser" in note for note in notes(record([bare]))
    )
    bare["totals"] = [3, 4, 1, 3]
    assert [d.code for d in found(record([bare]))] == ["TOTAL-MISMATCH"]


def test_the_sheet_of_a_played_deal_is_checked_joffre_sheet_replay() -> None:
    """joffre.sheet.replay: deal 3 of the club evening with its sheet's facts: the right ones pass;
    each wrong one is SHEET-MISMATCH at its field, in words that say what the tricks give."""
    wrong = {
        "bid": ("4", "the sheet says the bid was 4; in the auction seat 2 took the contract with 5"),
        "bidder": (3, "the sheet says seat 3 bid; in the auction seat 2 took the contract with 5"),
        "tricks": (
            [0, 3, 4, 1],
            "the sheet says seat 1 took 3 tricks and seat 2 4; in the tricks seat 1 took 2 tricks and seat 2 5",
        ),
        "joffre": (0, "the sheet says seat 0 took the Joffre; in the tricks seat 1 took it"),
        "kaiser": (2, "the sheet says seat 2 took the Kaiser; in the tricks seat 1 took it"),
        "joffre_taken": (3, "the sheet says the Kaiser took seat 3's Joffre; in the tricks it took seat 0's"),
    }
    for keep in ((0, 1, 2, 3), ()):
        base = CLUB_3 if keep else without_hands(CLUB_3)
        assert found(record([{**base, "result": {**CLUB_3["result"], **CLUB_3_FACTS}}])) == []
        for name, (value, message) in wrong.items():
            deal = {**base, "result": {**CLUB_3["result"], **CLUB_3_FACTS, name: value}}
            (problem,) = found(record([deal]))
            assert (problem.code, problem.location.path, problem.message) == (
                "SHEET-MISMATCH",
                f"deals[0].result.{name}",
                message,
            )


# --- properties over generated games -------------------------------------------------------------

PROPERTY = settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
players = st.sampled_from([3, 4])
seeds = st.integers(0, 2**31)


def generated(
    n: int, seed: int, options: dict[str, Any], form: Form = "full", deals: int = 4
) -> dict[str, Any]:
    """A generated record as a canonical JSON value; teams only at four players."""
    if n == 3:
        options = {**options, "mode": "individual"}
    try:
        made = generate_record(JOFFRE, n, deals, seed, options, form, "random")
    except ValueError:
        return {}
    return copy.deepcopy(orjson.loads(orjson.dumps(to_data(made))))


def verdict(data: dict[str, Any]) -> list[tuple[Any, ...]]:
    """The errors and warnings of a record, with their places."""
    return placed(found(data))


@PROPERTY
@given(players, seeds, joffre_options, st.randoms(use_true_random=False))
def test_hands_removed_same_verdict(n: int, seed: int, options: dict[str, Any], rng: Any) -> None:
    """Removing every hand, or all but some seats', or cutting a deal short (abandoned), leaves
    the verdict as it was with the hands."""
    data = generated(n, seed, options)
    if not data:
        return
    tricks_only = generated(n, seed, options, form="tricks")
    assert verdict(tricks_only) == verdict(data) == []
    some = copy.deepcopy(data)
    for deal in some["deals"]:
        deal["hands"] = [hand if rng.random() < 0.3 else None for hand in deal["hands"]]
    assert verdict(some) == []
    cut, cut_bare = copy.deepcopy(data), copy.deepcopy(data)
    index = rng.randrange(len(data["deals"]))
    played = " ".join(data["deals"][index]["tricks"]).split()
    keep = rng.randrange(len(played) + 1)
    for version in (cut, cut_bare):
        deal = version["deals"][index]
        deal["tricks"] = [" ".join(played[i : i + n]) for i in range(0, keep, n)]
        deal["status"] = "abandoned"
        deal.pop("result"), deal.pop("totals")
    del cut_bare["deals"][index]["hands"]
    assert verdict(cut_bare) == verdict(cut)


def corrupt(tricks: list[str], kind: str, data: st.DataObject, codes: list[str]) -> list[str]:
    """One corruption of a deal's tricks: a card moved to another trick, two cards of different
    tricks swapped, or a card replaced by another card of the deck."""
    cards = [trick.split() for trick in tricks]
    first = data.draw(st.integers(0, len(cards) - 1))
    second = (first + data.draw(st.integers(1, len(cards) - 1))) % len(cards)
    at = data.draw(st.integers(0, len(cards[first]) - 1))
    if kind == "move":
        card = cards[first].pop(at)
        cards[second].insert(data.draw(st.integers(0, len(cards[second]))), card)
    elif kind == "swap":
        other = data.draw(st.integers(0, len(cards[second]) - 1))
        cards[first][at], cards[second][other] = cards[second][other], cards[first][at]
    else:
        cards[first][at] = data.draw(st.sampled_from([code for code in codes if code != cards[first][at]]))
    return [" ".join(trick) for trick in cards]


@PROPERTY
@given(players, seeds, joffre_options, st.sampled_from(["move", "swap", "replace"]), st.data())
def test_corrupted_tricks_same_findings_without_hands(
    n: int, seed: int, options: dict[str, Any], kind: str, data: st.DataObject
) -> None:
    """After one corruption of a deal's tricks, the record without hands gets the same codes at
    the same places as the record whose hands are the ones those tricks imply."""
    full = generated(n, seed, options)
    played = [i for i, deal in enumerate(full.get("deals", [])) if len(deal["tricks"]) > 1]
    if not played:
        return
    index = data.draw(st.sampled_from(played))
    table = table_for(n, **full["options"])
    deal = full["deals"][index]
    deal["tricks"] = corrupt(deal["tricks"], kind, data, list(table.deck.codes))
    bare = copy.deepcopy(full)
    for each in bare["deals"]:
        del each["hands"]
    completion, _ = derive(JOFFRE, table, JoffreDeal.model_validate(bare["deals"][index]))
    if completion is not None:
        deal["hands"] = completion.deal.hands
    assert verdict(bare) == verdict(full)


def oracle(options: dict[str, Any], n: int, facts: dict[str, Any], before: list[int]) -> list[int]:
    """A sheet line's scores as spec/rules/joffre.md words them: a point a trick, +5 for the
    Joffre's, -3 for the Kaiser's, -5 for a Joffre the Kaiser took; a failed bidder scores minus his
    bid (and his -5); a no-trump bidder's score doubles; the cap; partners write their team's."""
    if facts["bid"] == "pass":
        return [0] * n
    teams = options["mode"] == "teams"

    def side(seat: int) -> int:
        return seat % 2 if teams else seat

    tricks = facts["tricks"][:2] if teams else list(facts["tricks"])
    points = list(tricks)
    points[side(facts["joffre"])] += 5
    points[side(facts["kaiser"])] -= 3
    lost = [0] * len(points)
    if facts.get("joffre_taken") is not None:
        lost[side(facts["joffre_taken"])] = 5
    number, no_trump = int(facts["bid"].split()[0]), facts["bid"].endswith("no trump")
    bidder = side(facts["bidder"])
    made = (points if options["bid_unit"] == "points" else tricks)[bidder] >= number
    scores = [p - loss for p, loss in zip(points, lost, strict=True)]
    if not made:
        scores[bidder] = -number - lost[bidder]
    if no_trump:
        scores[bidder] *= 2
    if options["opponent_cap"] == "kaiser47":
        scores = [min(s, 0) if s_ != bidder and before[s_] >= 47 else s for s_, s in enumerate(scores)]
    return [scores[side(seat)] for seat in range(n)]


def possible_change(
    options: dict[str, Any], n: int, facts: dict[str, Any], data: st.DataObject
) -> dict[str, Any]:
    """Another line some deal could have: one fact changed within what the rules allow (the
    changes that no deal allows are the next test's)."""
    teams = options["mode"] == "teams"
    hand = cards_for(n).hand_size
    top = hand + 4 if options["bid_unit"] == "points" else hand
    sides = [0, 1] if teams else list(range(n))
    tricks = facts["tricks"]

    def side(seat: int) -> int:
        return seat % 2 if teams else seat

    def seats_with_tricks(exclude: int) -> list[int]:
        return [seat for seat in range(n) if tricks[seat] > 0 and seat != exclude]

    choices: dict[str, Any] = {}
    bids = [str(b) for b in range(options["min_bid"], top + 1)]
    bids += [f"{b} no trump" for b in range(options["min_bid"], top + 1)] if options["allow_no_trump"] else []
    choices["bid"] = [b for b in bids if b != facts["bid"]]
    choices["bidder"] = [seat for seat in range(n) if seat != facts["bidder"]]
    if facts.get("joffre_taken") is None:
        choices["joffre"] = seats_with_tricks(facts["joffre"])
        choices["kaiser"] = seats_with_tricks(facts["kaiser"])
        if facts["joffre"] == facts["kaiser"] and options["kaiser_capture"] != "none":
            choices["joffre_taken"] = [seat for seat in range(n) if seat != facts["joffre"]]
    else:
        choices["joffre_taken"] = [None]
    needed = {side(facts["joffre"]), side(facts["kaiser"])}
    moves = [(a, b) for a in sides for b in sides if a != b and tricks[a] > (1 if a in needed else 0)]
    choices["tricks"] = moves
    name = data.draw(st.sampled_from([key for key, values in choices.items() if values]))
    value = data.draw(st.sampled_from(choices[name]))
    if name == "tricks":
        a, b = value
        value = list(tricks)
        for seat in range(n):
            value[seat] += (side(seat) == b) - (side(seat) == a)
    return {**facts, name: value}


def impossible_change(
    options: dict[str, Any], n: int, facts: dict[str, Any], data: st.DataObject
) -> tuple[str, dict[str, Any]]:
    """One fact changed to what no deal can have, and the field it is at."""
    hand = cards_for(n).hand_size
    top = hand + 4 if options["bid_unit"] == "points" else hand
    if facts["bid"] == "pass":
        name = data.draw(st.sampled_from(["bidder", "tricks", "joffre"]))
        return name, {**facts, name: [hand] + [0] * (n - 1) if name == "tricks" else 0}
    seat = data.draw(st.integers(0, n - 1))
    tricks = list(facts["tricks"])
    changes: dict[str, Any] = {
        "bid": str(top + 1),
        "bidder": n,
        "joffre": n,
        "tricks": [
            *tricks[:seat],
            tricks[seat] + data.draw(st.sampled_from([1, hand + 1])),
            *tricks[seat + 1 :],
        ],
    }
    if facts["joffre"] != facts["kaiser"]:
        changes["joffre_taken"] = data.draw(st.sampled_from([s for s in range(n) if s != facts["joffre"]]))
    name = data.draw(st.sampled_from(sorted(changes)))
    return name, {**facts, name: changes[name]}


@PROPERTY
@given(players, seeds, joffre_options, st.sampled_from(["score", "possible", "impossible"]), st.data())
def test_sheet_form_clean_and_every_corruption_caught(
    n: int, seed: int, options: dict[str, Any], kind: str, data: st.DataObject
) -> None:
    """The sheet form of a generated game validates clean; a score changed is SCORE-MISMATCH; a
    fact changed to what no deal has is SHEET-BAD-FACT at its field; a fact changed to what some
    deal has is SCORE-MISMATCH exactly when the rules score the new line otherwise."""
    record_ = generated(n, seed, options, form="sheet")
    if not record_:
        return
    assert found(record_) == []
    index = data.draw(st.integers(0, len(record_["deals"]) - 1))
    deal = record_["deals"][index]
    result = deal["result"]
    facts = {key: value for key, value in result.items() if key != "scores"}
    where = f"deals[{index}].result"
    if kind == "score":
        seat = data.draw(st.integers(0, n - 1))
        result["scores"][seat] += data.draw(st.sampled_from([-5, -1, 1, 3]))
        assert ("SCORE-MISMATCH", f"{where}.scores") in [(d.code, d.location.path) for d in found(record_)]
    elif kind == "impossible":
        name, changed = impossible_change(record_["options"], n, facts, data)
        deal["result"] = {"scores": result["scores"], **changed}
        assert [(d.code, d.location.path) for d in found(record_)] == [("SHEET-BAD-FACT", f"{where}.{name}")]
    elif facts["bid"] != "pass":
        changed = possible_change(record_["options"], n, facts, data)
        deal["result"] = {"scores": result["scores"], **{k: v for k, v in changed.items() if v is not None}}
        before = record_["deals"][index - 1]["totals"] if index else [0] * n
        rescored = oracle(record_["options"], n, changed, before)
        expected = [] if rescored == result["scores"] else [("SCORE-MISMATCH", f"{where}.scores")]
        assert [(d.code, d.location.path) for d in found(record_)] == expected
