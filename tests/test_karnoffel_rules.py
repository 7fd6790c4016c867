"""Karnöffel rules, case by case from the rule text (spec/rules/karnoffel.md). Every expected
value — a trick's winner, the legal plays, a deal's scores — is worked out by hand from the rules
and written literally; each test names the rule id it checks."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from recordkit.games import RULESETS
from recordkit.quick import clean_deals
from recordkit.rules.karnoffel.cards import cards_of
from recordkit.rules.karnoffel.options import KarnoffelOptions
from recordkit.rules.karnoffel.powers import winning_index
from recordkit.rules.karnoffel.record import KarnoffelDeal
from recordkit.rules.karnoffel.scoring import dealer_after
from recordkit.rules.karnoffel.state import KarnoffelState, Said
from recordkit.rules.values import Action, Table
from tests.helpers import codes_of, diagnostics_of

KARNOFFEL = RULESETS["karnoffel"]
HEARTS, SPADES, CLUBS, DIAMONDS = 2, 0, 1, 3

# --- hand-typed deals that the tests vary -------------------------------------------------------

TWO = ["Lukas", "Marie"]
FOUR = ["Anna", "Bernd", "Clara", "Dieter"]

# Two players, Marie deals, Lukas (seat 0) is forehand. Clubs chosen (C3 and H3 tie: C3 first dealt).
# Lukas wins tricks 2 (CJ over C6), 3 (H5 over H3) and 4 (D9 over D8); the deal ends after trick 4.
LUKAS_WINS = {
    "dealer": 1,
    "faceup": "C3 H3",
    "hands": ["CJ S10 D9 H5", "C6 C2 SK D8"],
    "tricks": ["S10 SK", "C6 CJ", "H5 H3", "D9 D8"],
}

# Four players, Anna deals, Bernd (seat 1) is forehand; spades chosen (S3 dealt before D3).
# Anna and Clara (seats 0, 2) win tricks 1 (Kaiser S2), 4 (HK) and 5 (Pope S6).
ANNA_CLARA_WIN = {
    "dealer": 0,
    "faceup": "C6 S3 D3 HK",
    "hands": ["S4 S5 CJ D6", "SJ D7 H9 C2", "S6 S2 D10 HQ", "S7 C9 DQ H5"],
    "tricks": ["C2 S2 C9 CJ", "S3 S7 S4 SJ", "D7 D10 DQ D6", "H5 HK H9 HQ", "S5 C6 S6 D3"],
}

# Six players, seat 5 deals, seat 0 is forehand; clubs chosen (C4 lowest). Seats 0, 2, 4 win tricks
# 1 (S10), 2 (Kaiser C2) and 4 (Karnöffel CJ); seat 5 wins trick 3 with HK.
SIX = {
    "dealer": 5,
    "faceup": "S10 H9 C4 DQ S6 HK",
    "hands": ["CJ S2 D3 H4", "C6 S3 D4 H5", "C2 S4 D5 H6", "C7 S5 D6 H7", "C3 S7 D7 H8", "C5 S8 D8 H10"],
    "tricks": ["S10 S3 S4 S5 S6 S8", "D3 D4 C2 D6 D7 D8", "H6 H7 H8 HK H4 H5", "C5 CJ C6 C4 C7 C3"],
}

# Eight players, seat 7 deals, seat 0 is forehand; diamonds chosen (D5 lowest). Seat 1 leads the
# Devil (D7) to trick 3: it beats the Pope and the Kaiser, but seat 0's Karnöffel (DJ) takes it.
EIGHT = {
    "dealer": 7,
    "faceup": "SK HK CK DK SQ HQ CQ D5",
    "hands": [
        "DJ S2 H2 C2",
        "D7 S3 H3 C3",
        "D6 S4 H4 C4",
        "D2 S5 H5 C5",
        "D3 S6 H6 C6",
        "D4 S7 H7 C7",
        "D8 S8 H8 C8",
        "D9 S9 H9 C9",
    ],
    "tricks": [
        "SK S3 S4 S5 SQ S7 S8 S9",
        "H2 HK H4 H5 H6 H7 H8 H9",
        "D7 D6 D2 D3 D4 D8 D9 DJ",
        "C2 C3 CK C5 C6 C7 CQ C9",
    ],
}


def record(players: list[str], *deals: dict[str, Any], **options: Any) -> dict[str, Any]:
    """A Karnöffel record of these deals (deep copies), with these options."""
    return {
        "format": "recordkit",
        "version": "1.0",
        "game": "karnoffel",
        "options": options,
        "players": players,
        "deals": [copy.deepcopy(deal) for deal in deals],
    }


def scored(deal: dict[str, Any], scores: list[int], before: list[int] | None = None) -> dict[str, Any]:
    """The deal with its score-sheet line and running totals (from `before`, zero by default)."""
    start = before or [0] * len(scores)
    return {
        **copy.deepcopy(deal),
        "result": {"scores": scores},
        "totals": [b + s for b, s in zip(start, scores, strict=True)],
    }


def winner(trick: str, chosen: int, reading: str = "led_suit_exceptions", deck: int = 48) -> str:
    """The code of the card that wins a trick."""
    cards = cards_of(deck)
    ids = cards.deck.cards(trick)
    return cards.code(ids[winning_index(ids, deck, reading, chosen)])


def state_of(players: int, deal: dict[str, Any], **options: Any) -> KarnoffelState:
    """The state of a deal right after the cards are dealt (no calls, no cards yet)."""
    opts = KarnoffelOptions.model_validate(options)
    table = Table(opts, players, cards_of(opts.deck).deck)
    state, problems = KARNOFFEL.start(table, KarnoffelDeal.model_validate({**deal, "tricks": []}))
    assert problems == []
    return state


def say(state: KarnoffelState, window: int, *names: str) -> None:
    """Carry out words of a window, which must all be legal."""
    for name in names:
        assert KARNOFFEL.advance(state, Action("call", Said(window, name, None))) == []


def open_words(state: KarnoffelState) -> list[str]:
    """The words the generator and the recorder are offered now."""
    return sorted(action.value.name for action in KARNOFFEL.legal(state))


# --- karnoffel.trick.winner: the powers of the chosen suit ----------------------------------------


@pytest.mark.parametrize(
    ("trick", "expected"),
    [
        ("SQ H3 SK S6", "SK"),  # Parlett's "O 3 K 6": a King of the suit led stops the 3
        ("SQ H3 DK S6", "H3"),  # a King of another suit does not
        ("S9 H4 S10 S6", "H4"),  # the 4 beats the 10
        ("SQ H4 S10 S6", "SQ"),  # but not the Queen of the suit led
        ("SQ H4 S10 SK", "SK"),
        ("S9 H4 SQ S2", "SQ"),  # a Queen of the suit led stops the 4
        ("S9 H3 SQ S2", "H3"),  # but not the 3
        ("S9 H5 SJ S10", "SJ"),  # a Jack of the suit led stops the 5
        ("S9 H5 S10 S2", "H5"),
        ("S9 H5 H4 H3", "H3"),  # among partial trumps: 3 > 4 > 5
        ("D2 C2 S2 H2", "H2"),  # the Kaiser
        ("SK H2 H6 S2", "H6"),  # the Pope over the Kaiser
        ("H7 H6 H2 SK", "H7"),  # a led Devil beats the Pope
        ("H7 HJ H6 SK", "HJ"),  # only the Karnöffel beats a led Devil
        ("SK H7 S2 S3", "SK"),  # a Devil not led never wins
        ("S2 H7 D9 C9", "S2"),  # not even over plain cards of other suits
        ("CK CQ SK DK", "CK"),  # no power card: the highest of the suit led; other Kings cannot win
        ("C2 SK DK HK", "C2"),
        ("HK H3 HQ H4", "HK"),  # hearts led: J (7) 6 2 K 3 Q 4 5 10 9 8
        ("H4 HQ H3 H5", "H3"),
        ("H10 H5 H9 H8", "H5"),
        ("H8 H10 H9 HQ", "HQ"),
        ("HQ H5 H4 H10", "HQ"),  # ...Q 4 5 10: the Queen over the 4
    ],
)
def test_trick_winner_by_the_powers(trick: str, expected: str) -> None:
    """karnoffel.trick.winner (hearts chosen): the total order of spec §4."""
    assert winner(trick, HEARTS) == expected


@pytest.mark.parametrize(
    ("trick", "expected"),
    [
        ("SQ H3 SK S6", "H3"),  # the partial trumps beat every plain card
        ("HK H3 HQ H4", "H3"),
        ("S9 H5 SJ SK", "H5"),
        ("S9 H5 H4 H3", "H3"),
        ("H8 H10 H9 HQ", "HQ"),
        ("H7 H3 S2 SK", "H7"),  # the led Devil still beats the 3
    ],
)
def test_trick_winner_linear_faq(trick: str, expected: str) -> None:
    """karnoffel.trick.winner, option partial_trumps = linear_faq: J 6 2 3 4 5 above every plain card."""
    assert winner(trick, HEARTS, "linear_faq") == expected


@pytest.mark.parametrize(
    ("trick", "expected"),
    [
        ("SQ H3 SK S6", "SK"),
        ("SQ H3 DK D2", "DK"),  # the King of diamonds stops the 3, and no spade follows to beat it
        ("SQ H3 DK S6", "S6"),  # ...but a spade, of the suit led, beats the King of another suit
        ("S9 H4 CQ S2", "S2"),  # the example of spec §4
        ("S9 H4 CQ HK", "CQ"),  # HK is a plain heart, not of the suit led
        ("S9 H5 CJ H3", "H3"),  # the 3 is not stopped by a Jack
        ("S9 H5 SJ S10", "SJ"),
    ],
)
def test_trick_winner_any_suit_exceptions(trick: str, expected: str) -> None:
    """karnoffel.trick.winner, option any_suit_exceptions: a K/Q/J of any suit stops a partial trump."""
    assert winner(trick, HEARTS, "any_suit_exceptions") == expected


@pytest.mark.parametrize(
    ("trick", "expected"),
    [
        ("SQ H3 SA S6", "SA"),  # the ace of the suit led ranks above its King: it stops the 3
        ("SQ H3 DA S6", "H3"),
        ("SK SA S2 S3", "SA"),
        ("HA H3 HQ H4", "HA"),  # a plain card of the chosen suit, above its King
    ],
)
def test_aces_of_the_52_card_deck(trick: str, expected: str) -> None:
    """karnoffel.deck.ace: with deck = 52 an ace ranks above the King of its suit, with no power."""
    assert winner(trick, HEARTS, deck=52) == expected


def test_an_ace_is_unknown_in_the_48_card_deck() -> None:
    """karnoffel.deck: the 48-card pack has no ace."""
    deal = {**LUKAS_WINS, "faceup": "CA H3"}
    assert codes_of(record(TWO, deal)) == ["CARD-UNKNOWN"]
    assert "CARD-UNKNOWN" not in codes_of(record(TWO, deal, deck=52))


def test_a_written_winner_is_checked() -> None:
    """karnoffel.trick.winner: Lukas wins trick 2 with the Karnöffel; the record says Marie."""
    deal = scored(LUKAS_WINS, [4, 0])
    deal["tricks"][1] = {"cards": "C6 CJ", "winner": 1}
    found = diagnostics_of(record(TWO, deal))
    assert [(d.code, d.location.trick) for d in found] == [("PLAY-WINNER-MISMATCH", 2)]


def test_a_written_leader_is_checked() -> None:
    """karnoffel.trick.leader: Marie won trick 1 with SK, so she leads trick 2, not Lukas."""
    deal = scored(LUKAS_WINS, [4, 0])
    deal["tricks"][1] = {"cards": "C6 CJ", "leader": 0}
    assert codes_of(record(TWO, deal)) == ["PLAY-LEADER-MISMATCH"]


# --- karnoffel.deal: the staged deal --------------------------------------------------------------


@pytest.mark.parametrize(
    ("faceup", "tiebreak", "suit"),
    [
        ("S9 H4 CK D10", "first_dealt", "H"),
        ("S9 H4 CK D4", "first_dealt", "H"),  # two fours: the first dealt chooses
        ("S9 D4 CK H4", "first_dealt", "D"),
        ("S9 H4 CK D4", "suit_rank", "D"),  # two fours: diamonds are the lowest suit
        ("S4 C4 CK D10", "suit_rank", "C"),
        ("SK HK CK DQ", "first_dealt", "D"),
    ],
)
def test_the_lowest_face_up_card_chooses_the_suit(faceup: str, tiebreak: str, suit: str) -> None:
    """karnoffel.deal.chosen-suit: the stated suit passes only when it is the lowest face-up card's."""
    deal = {
        "dealer": 3,
        "faceup": faceup,
        "hands": ["S2 S3 S5 S6", "S7 S8 C2 C3", "H9 H10 HJ HQ", "D2 D3 D5 D6"],
        "status": "abandoned",
    }
    for letter in "SCHD":
        codes = codes_of(record(FOUR, {**deal, "chosen_suit": letter}, chosen_suit_tiebreak=tiebreak))
        assert codes == ([] if letter == suit else ["KARNOFFEL-CHOSEN-SUIT"]), letter


def test_the_chosen_suit_is_written_as_letter_name_or_symbol() -> None:
    """karnoffel.deal.chosen-suit: spades are chosen; "spades", "♠" and "s" all read as S."""
    for spelling in ("spades", "♠", "s", "S"):
        deal = scored({**ANNA_CLARA_WIN, "chosen_suit": spelling}, [4, 0, 4, 0])
        assert codes_of(record(FOUR, deal)) == []
    wrong = scored({**ANNA_CLARA_WIN, "chosen_suit": "hearts"}, [4, 0, 4, 0])
    assert codes_of(record(FOUR, wrong)) == ["KARNOFFEL-CHOSEN-SUIT"]


def test_no_chosen_suit_before_round_one_is_complete() -> None:
    """karnoffel.deal.chosen-suit: a surrender in window 1 (four players) leaves round 1 unfinished."""
    deal = scored(
        {"dealer": 1, "faceup": "DJ C5", "proposals": [["pass", "raise", "surrender"]], "chosen_suit": "C"},
        [0, 4, 0, 4],
    )
    assert codes_of(record(FOUR, deal)) == ["KARNOFFEL-CHOSEN-SUIT"]


def test_round_sizes_follow_where_the_deal_stopped() -> None:
    """karnoffel.deal.faceup, karnoffel.deal.rounds: 2 face-up cards and no face-down card after a
    surrender in window 1; all face-up cards and 2 face-down each after one in window 2."""
    window_one = {"dealer": 1, "faceup": "DJ C5", "proposals": [["raise", "surrender"]]}
    assert codes_of(record(FOUR, scored(window_one, [4, 0, 4, 0]))) == []
    window_two = {
        "dealer": 1,
        "faceup": "DJ C5 S8 H2",
        "hands": ["S2 S3", "D4 D5", "H3 H4", "C6 C7"],
        "proposals": [[], ["raise", "surrender"]],
    }
    assert codes_of(record(FOUR, scored(window_two, [4, 0, 4, 0]))) == []
    too_many = {**window_two, "hands": ["S2 S3 S4", "D4 D5", "H3 H4", "C6 C7"]}
    found = diagnostics_of(record(FOUR, scored(too_many, [4, 0, 4, 0])))
    assert [(d.code, d.location.seat) for d in found] == [("DEAL-HAND-SIZE", 0)]
    assert codes_of(record(FOUR, scored({**window_one, "faceup": "DJ C5 S8"}, [4, 0, 4, 0]))) == [
        "KARNOFFEL-FACEUP-SIZE"
    ]


def test_two_players_see_both_face_up_cards_before_window_one() -> None:
    """karnoffel.deal.faceup: with two players a surrender in window 1 still has both face-up cards."""
    deal = {"dealer": 1, "faceup": "C3 H3", "chosen_suit": "C", "proposals": [["raise", "surrender"]]}
    assert codes_of(record(TWO, scored(deal, [4, 0]))) == []


def test_five_cards_each_and_every_card_once() -> None:
    """karnoffel.deal.rounds, karnoffel.deck: four face-down cards each; no card dealt twice. (The
    plays of the cards the record lost are then reported too.)"""
    short = record(TWO, scored({**LUKAS_WINS, "hands": ["CJ S10 D9", "C6 C2 SK D8"]}, [4, 0]))
    assert next((d.code, d.location.seat) for d in diagnostics_of(short)) == ("DEAL-HAND-SIZE", 0)
    one = record(TWO, scored({**LUKAS_WINS, "hands": ["CJ S10 D9 H5"]}, [4, 0]))
    assert codes_of(one)[0] == "DEAL-HAND-COUNT"
    twice = record(TWO, scored({**LUKAS_WINS, "hands": ["CJ S10 D9 H5", "C6 C2 SK H3"]}, [4, 0]))
    assert codes_of(twice)[0] == "DEAL-DUPLICATE-CARD"
    # Marie's C2, never played, written as C3, Lukas's face-up card (never played either).
    unplayed = record(TWO, scored({**LUKAS_WINS, "hands": ["CJ S10 D9 H5", "C6 C3 SK D8"]}, [4, 0]))
    assert codes_of(unplayed) == ["DEAL-DUPLICATE-CARD"]


def test_player_counts() -> None:
    """karnoffel.players: 2, 4, 6 or 8 players."""
    assert codes_of(record(["A", "B", "C"])) == ["RECORD-PLAYERS"]
    assert codes_of(record(["A", "B", "C", "D", "E", "F", "G"])) == ["RECORD-PLAYERS"]
    assert codes_of(record(["A", "B", "C", "D", "E", "F", "G", "H"])) == []


def test_no_deal_is_annulled() -> None:
    """karnoffel.deal.status: Karnöffel throws no deal in."""
    assert codes_of(record(TWO, {**LUKAS_WINS, "tricks": [], "status": "annulled"})) == ["KARNOFFEL-ANNULLED"]
    assert codes_of(record(TWO, scored({**LUKAS_WINS, "status": "annulled"}, [4, 0]))) == [
        "KARNOFFEL-ANNULLED"
    ]


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"dealer": 3}, "RECORD-SEAT"),  # seat 1 of two, written as 3
        ({"bidder": 0}, "RECORD-UNKNOWN-KEY"),
        ({"comment": 5}, "RECORD-SCHEMA"),
        ({"proposals": [[], [], [], []]}, "RECORD-SCHEMA"),  # three windows at most
        ({"proposals": [["raise", "double"]], "tricks": []}, "RECORD-UNKNOWN-CALL"),
    ],
)
def test_what_the_record_format_refuses(change: dict[str, Any], code: str) -> None:
    """format.schema, format.envelope, karnoffel.players, karnoffel.propose.calls: a deal otherwise
    clean, and scored as it would be, is reported (never taken by the fast path)."""
    assert codes_of(record(TWO, scored({**LUKAS_WINS, **change}, [4, 0]))) == [code]


def test_the_forehand_deals_next() -> None:
    """karnoffel.deal.rotation: the deal passes to the left, 3 -> 0 at four players."""
    table = Table(KarnoffelOptions(), 4, cards_of(48).deck)
    assert [KARNOFFEL.next_dealer(table, dealer) for dealer in range(4)] == [1, 2, 3, 0]
    second = {**ANNA_CLARA_WIN, "dealer": 2, "tricks": [], "status": "abandoned"}
    assert codes_of(record(FOUR, scored(ANNA_CLARA_WIN, [4, 0, 4, 0]), second)) == ["DEAL-DEALER-ROTATION"]
    assert codes_of(record(FOUR, scored(ANNA_CLARA_WIN, [4, 0, 4, 0]), {**second, "dealer": 1})) == []


def test_the_proposer_deals_after_a_surrender_with_that_option() -> None:
    """karnoffel.deal.rotation, option dealer_after_surrender = proposer: Bernd (forehand) passes, Clara
    raises, Bernd surrenders: Clara (seat 2) deals next, where the rotation would give Bernd (seat 1)."""
    for option, seat in (("proposer", 2), ("next_in_rotation", 1)):
        state = state_of(4, ANNA_CLARA_WIN, dealer_after_surrender=option)
        say(state, 1, "pass", "raise", "surrender")
        assert dealer_after(state) == seat


# --- karnoffel.propose: the windows ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("proposals", "scores"),
    [
        ([], [4, 0]),
        ([["pass", "pass"], ["pass"], []], [4, 0]),
        ([["raise", "accept"]], [7, 0]),
        ([["pass", "raise", "accept"]], [7, 0]),
        ([["raise", "raise", "accept"]], [10, 0]),  # the counter-raise accepts 7 and offers 10
        ([["raise", "raise", "raise", "accept"]], [13, 0]),
        ([["raise", "accept"], ["raise", "accept"], ["pass", "raise", "accept"]], [13, 0]),
        ([["propose", "Counter-Raise", "ACCEPT"]], [10, 0]),  # aliases and case
    ],
)
def test_accepted_raises_set_the_value(proposals: list[Any], scores: list[int]) -> None:
    """karnoffel.propose.raise, karnoffel.propose.answer, karnoffel.score: Lukas wins the deal."""
    assert codes_of(record(TWO, scored({**LUKAS_WINS, "proposals": proposals}, scores))) == []


@pytest.mark.parametrize(
    ("proposals", "dealt", "scores"),
    [
        ([["raise", "surrender"]], 0, [4, 0]),  # Lukas's raise refused: he scores the 4 before it
        ([["pass", "raise", "surrender"]], 0, [0, 4]),
        ([["raise", "raise", "surrender"]], 0, [0, 7]),  # Marie's counter to 10 refused: she scores 7
        ([["raise", "raise", "raise", "surrender"]], 0, [10, 0]),
        ([["raise", "accept"], ["raise", "surrender"]], 2, [7, 0]),
        ([[], [], ["pass", "raise", "raise", "surrender"]], 4, [7, 0]),  # Lukas's counter refused
    ],
)
def test_a_surrender_scores_the_value_before_the_refused_raise(
    proposals: list[Any], dealt: int, scores: list[int]
) -> None:
    """karnoffel.propose.surrender: the deal ends; the refused raiser's side scores the value in force."""
    deal = {**LUKAS_WINS, "proposals": proposals, "tricks": []}
    deal["hands"] = [" ".join(hand.split()[:dealt]) for hand in LUKAS_WINS["hands"]] if dealt else []
    assert codes_of(record(TWO, scored(deal, scores))) == []


def test_an_abandoned_deal_that_reached_its_end_is_scored() -> None:
    """karnoffel.deal.status: Lukas's third trick ends the deal by rule, the fifth card of each hand
    is never played; marked "abandoned", it is still scored: its result is checked, and the running
    totals go on from it. A surrender marked abandoned is scored too; a deal abandoned after two
    tricks is not (any result passes; without one, the totals after it are not checked)."""
    done = {**LUKAS_WINS, "status": "abandoned"}
    assert codes_of(record(TWO, scored(done, [4, 0]))) == []
    wrong = diagnostics_of(record(TWO, scored(done, [0, 4])))
    assert [(d.code, d.expected) for d in wrong] == [("SCORE-MISMATCH", "+4 +0")]
    second = {"dealer": 0, "faceup": "S7 H9", "hands": ["S2 S4 DQ C6", "SJ D3 HK C10"]}
    second["tricks"] = ["HK H9", "S7 S2", "D3 DQ", "S4 C10", "C6 SJ"]  # Marie wins tricks 1, 2 and 5
    uncounted = {**second, "result": {"scores": [0, 4]}, "totals": [0, 4]}
    assert codes_of(record(TWO, done, uncounted)) == ["SCORE-MISSING", "TOTAL-MISMATCH"]
    surrendered = {**LUKAS_WINS, "proposals": [["raise", "surrender"]], "tricks": [], "hands": []}
    assert codes_of(record(TWO, scored({**surrendered, "status": "abandoned"}, [4, 0]))) == []
    assert "SCORE-MISMATCH" in codes_of(record(TWO, scored({**surrendered, "status": "abandoned"}, [0, 4])))
    stopped = {**LUKAS_WINS, "status": "abandoned", "tricks": LUKAS_WINS["tricks"][:2]}
    assert codes_of(record(TWO, scored(stopped, [0, 4]))) == []
    assert codes_of(record(TWO, stopped, uncounted)) == []


def test_nothing_follows_a_surrender() -> None:
    """karnoffel.propose.surrender: a trick after a surrender in window 3 is flagged once."""
    deal = {**LUKAS_WINS, "proposals": [[], [], ["raise", "surrender"]]}
    found = diagnostics_of(record(TWO, scored(deal, [4, 0])))
    assert [(d.code, d.location.trick) for d in found] == [("KARNOFFEL-AFTER-SURRENDER", 1)]


@pytest.mark.parametrize(
    ("proposals", "value", "code", "place"),
    [
        ([["accept"]], 4, "KARNOFFEL-NOTHING-TO-ANSWER", "proposals[0][0]"),
        ([["pass", "surrender"]], 4, "KARNOFFEL-NOTHING-TO-ANSWER", "proposals[0][1]"),
        ([["raise", "pass", "accept"]], 7, "KARNOFFEL-ANSWER-EXPECTED", "proposals[0][1]"),
        ([["raise", "accept", "raise"]], 7, "KARNOFFEL-WINDOW-CLOSED", "proposals[0][2]"),
        ([["pass", "pass", "raise"]], 4, "KARNOFFEL-WINDOW-CLOSED", "proposals[0][2]"),
        ([[], [], ["raise", "accept"], ["raise"]], 7, "RECORD-SCHEMA", "proposals"),  # three windows only
        ([["bid"]], 4, "RECORD-UNKNOWN-CALL", "proposals[0][0]"),
    ],
)
def test_words_out_of_place(proposals: list[Any], value: int, code: str, place: str) -> None:
    """karnoffel.propose.answer, karnoffel.propose.window, karnoffel.propose.calls."""
    deal = scored({**LUKAS_WINS, "proposals": proposals}, [value, 0])
    found = diagnostics_of(record(TWO, deal))
    assert [(d.code, d.location.path) for d in found] == [(code, f"deals[0].{place}")]


def test_an_unanswered_raise() -> None:
    """karnoffel.propose.answer: a raise needs an answer before the next window or the play."""
    for proposals in ([["raise"]], [["raise"], ["pass", "pass"]]):
        deal = scored({**LUKAS_WINS, "proposals": proposals}, [4, 0])
        assert codes_of(record(TWO, deal)) == ["KARNOFFEL-NO-ANSWER"]
    unfinished = {**LUKAS_WINS, "proposals": [["raise"]], "tricks": []}
    assert codes_of(record(TWO, unfinished)) == ["KARNOFFEL-NO-ANSWER"]


def test_who_speaks_for_a_side() -> None:
    """karnoffel.propose.speaker: in window 1 only Bernd (forehand) and Clara hold a card; in windows
    2 and 3 any partner may speak, but only for the side whose turn it is."""

    def codes(*windows: list[Any]) -> list[str]:
        """The codes of the deal with these windows (Anna and Clara win the value 10)."""
        return codes_of(record(FOUR, scored({**ANNA_CLARA_WIN, "proposals": list(windows)}, [10, 0, 10, 0])))

    def seat(word: str, number: int) -> dict[str, Any]:
        """A word with the seat that said it."""
        return {"call": word, "seat": number}

    assert codes([seat("raise", 1), seat("raise", 2), seat("accept", 1)]) == []
    assert codes([seat("raise", 3), "raise", "accept"]) == ["KARNOFFEL-SPEAKER"]  # Dieter holds no card yet
    assert codes([seat("raise", 0), "raise", "accept"]) == ["KARNOFFEL-SPEAKER"]  # not the forehand's side
    assert codes([], [seat("raise", 3), seat("raise", 0), seat("accept", 1)]) == []  # window 2: any partner
    assert codes([], [seat("pass", 1), seat("raise", 0), seat("raise", 3), seat("accept", 2)]) == []
    # Clara "counter-raises" her own partner's raise: the raise waits for Bernd's or Dieter's answer.
    assert codes([], [seat("pass", 1), seat("raise", 0), seat("raise", 2)]) == [
        "KARNOFFEL-SPEAKER",
        "KARNOFFEL-NO-ANSWER",
    ]
    assert codes([seat("raise", 5), "raise", "accept"]) == ["RECORD-SEAT"]


def test_the_going_out_cap() -> None:
    """karnoffel.propose.cap (target 101): with 95, a raise from 4 is allowed (95 + 4 < 101) but a
    counter-raise, which stands at 7, is not; with 97 nobody may raise at all. The scores before the
    deal are its totals less its result."""

    def codes(before: list[int], *windows: list[str], **options: Any) -> list[str]:
        """The codes the windows' words raise, the sides having `before` points."""
        state = state_of(2, scored(LUKAS_WINS, [0, 0], before), **options)
        found = []
        for window, words in enumerate(windows, start=1):
            for word in words:
                found += [v.code for v in KARNOFFEL.advance(state, Action("call", Said(window, word, None)))]
        return found

    assert codes([95, 0], ["raise", "accept"]) == []
    assert codes([95, 0], ["raise", "raise", "accept"]) == ["KARNOFFEL-RAISE-CAPPED"]
    assert codes([97, 0], ["raise", "accept"]) == ["KARNOFFEL-RAISE-CAPPED"]
    assert codes([0, 97], ["pass", "raise", "accept"]) == ["KARNOFFEL-RAISE-CAPPED"]
    assert codes([0, 93], ["raise", "accept"], ["raise", "accept"]) == []  # 93 + 7 = 100
    assert codes([0, 94], ["raise", "accept"], ["raise", "accept"]) == ["KARNOFFEL-RAISE-CAPPED"]
    assert codes([97, 0], ["raise", "accept"], raise_cap_when_game_reachable=False) == []
    assert codes([47, 0], ["raise", "accept"], target=51) == ["KARNOFFEL-RAISE-CAPPED"]


def test_the_cap_across_deals() -> None:
    """karnoffel.propose.cap: playing to 21, Lukas has 19 after deal 1 (five raises, the last accepted);
    at 4 he can reach 21 in deal 2, so Marie's raise there is out of place."""
    five = ["raise", "raise", "raise", "raise", "raise", "accept"]
    first = scored({**LUKAS_WINS, "proposals": [five]}, [19, 0])
    second = {"dealer": 0, "faceup": "S7 H9", "hands": ["S2 S4 DQ C6", "SJ D3 HK C10"]}
    second["tricks"] = ["HK H9", "S7 S2", "D3 DQ", "S4 C10", "C6 SJ"]  # Marie wins tricks 1, 2 and 5
    quiet = scored(second, [0, 4], [19, 0])
    assert codes_of(record(TWO, first, quiet, target=21)) == []
    raised = scored({**second, "proposals": [["raise", "accept"]]}, [0, 7], [19, 0])
    found = diagnostics_of(record(TWO, first, raised, target=21))
    assert [(d.code, d.location.deal, d.location.path) for d in found] == [
        ("KARNOFFEL-RAISE-CAPPED", 2, "deals[1].proposals[0][0]")
    ]


def test_the_cap_without_the_deals_totals() -> None:
    """karnoffel.propose.cap: a deal that writes no totals is judged at the running totals (the fast
    path is given them as the full replay is)."""
    five = ["raise", "raise", "raise", "raise", "raise", "accept"]
    first = scored({**LUKAS_WINS, "proposals": [five]}, [19, 0])
    second = {"dealer": 0, "faceup": "S7 H9", "hands": ["S2 S4 DQ C6", "SJ D3 HK C10"]}
    second["tricks"] = ["HK H9", "S7 S2", "D3 DQ", "S4 C10", "C6 SJ"]
    raised = {**second, "proposals": [["raise", "accept"]], "result": {"scores": [0, 7]}}
    assert codes_of(record(TWO, first, raised, target=21)) == ["KARNOFFEL-RAISE-CAPPED"]
    assert codes_of(record(TWO, first, raised, target=31)) == []
    assert clean_deals(record(TWO, first, raised, target=31)) == 2
    quiet = {**second, "result": {"scores": [0, 4]}}
    assert clean_deals(record(TWO, first, quiet, target=21)) == 2


def test_the_cap_of_a_one_deal_record_is_judged_at_its_own_totals() -> None:
    """karnoffel.propose.cap: a record of one deal of an evening, written at 95 to 60: the scores
    before the deal are its own totals less its result, not the zero a record starts from, so the
    counter-raise (standing at 7: 95 + 7 >= 101) is capped. Its totals do not follow from zero, which
    TOTAL-MISMATCH says as before; the same deal with no totals is judged at 0 to 0, and is clean."""
    countered = {**LUKAS_WINS, "proposals": [["raise", "raise", "accept"]]}
    found = diagnostics_of(record(TWO, scored(countered, [10, 0], [95, 60])))
    assert sorted((d.code, d.location.path) for d in found) == [
        ("KARNOFFEL-RAISE-CAPPED", "deals[0].proposals[0][1]"),
        ("TOTAL-MISMATCH", "deals[0].totals"),
    ]
    assert codes_of(record(TWO, scored(countered, [10, 0], [60, 80]))) == ["TOTAL-MISMATCH"]
    assert codes_of(record(TWO, {**countered, "result": {"scores": [10, 0]}})) == []


def test_the_fast_path_reads_every_canonical_form() -> None:
    """The fast path proves clean a deal written with words as objects (seats, comments) and tricks
    as objects stating their leader and winner, as the full replay does."""
    deal = scored(ANNA_CLARA_WIN, [7, 0, 7, 0])
    deal["proposals"] = [
        [],
        [{"call": "raise", "seat": 3, "comment": "Dieter"}, {"call": "accept", "seat": 2, "time": "20:15"}],
    ]
    deal["tricks"][0] = {"cards": deal["tricks"][0], "leader": 1, "winner": 2, "comment": "the Kaiser"}
    deal["chosen_suit"] = "S"
    deal["comment"] = "hand-typed"
    data = record(FOUR, deal)
    assert codes_of(data) == []
    assert clean_deals(data) == 1


def test_the_cap_leaves_only_passes_and_answers_open() -> None:
    """karnoffel.propose.cap: what the generator is offered at 95 against 101."""
    deal = scored(LUKAS_WINS, [7, 0], [95, 0])
    state = state_of(2, deal)
    assert open_words(state) == ["pass", "raise"]
    say(state, 1, "raise")
    assert open_words(state) == ["accept", "surrender"]


@pytest.mark.parametrize(
    ("proposals", "value", "options", "codes"),
    [
        ([["raise", "raise", "accept"]], 10, {"reraise": "single"}, []),
        ([["raise", "raise", "raise", "accept"]], 13, {"reraise": "single"}, ["KARNOFFEL-RAISE-LIMIT"]),
        ([["raise", "raise", "accept"], ["raise", "raise", "accept"]], 16, {"reraise": "single"}, []),
        ([["raise", "raise", "accept"], ["raise", "accept"]], 13, {"reraise": "max_total_raises"}, []),
        (
            [["raise", "raise", "accept"], ["raise", "raise", "accept"]],
            16,
            {"reraise": "max_total_raises"},
            ["KARNOFFEL-RAISE-LIMIT"],
        ),
        (
            [["raise", "accept"], ["raise", "accept"]],
            10,
            {"reraise": "max_total_raises", "max_total_raises": 1},
            ["KARNOFFEL-RAISE-LIMIT"],
        ),
        ([["raise", "raise", "raise", "raise", "accept"]], 16, {}, []),
    ],
)
def test_counter_raise_limits(
    proposals: list[Any], value: int, options: dict[str, Any], codes: list[str]
) -> None:
    """karnoffel.propose.reraise: unlimited by default; one counter-raise per window; a deal's limit."""
    deal = scored({**LUKAS_WINS, "proposals": proposals}, [value, 0])
    assert codes_of(record(TWO, deal, **options)) == codes


def test_the_value_steps() -> None:
    """karnoffel.score: base_value and raise_step set the round value (here 5 + 2 + 2)."""
    deal = scored({**LUKAS_WINS, "proposals": [["raise", "raise", "accept"]]}, [9, 0])
    assert codes_of(record(TWO, deal, base_value=5, raise_step=2)) == []


def test_a_target_is_a_multiple_of_ten_plus_one() -> None:
    """karnoffel.game.end: the target is agreed as 31, 51, 101..."""
    assert codes_of(record(TWO, target=100)) == ["RECORD-BAD-OPTION"]
    assert codes_of(record(TWO, target=51)) == []


# --- karnoffel.play -------------------------------------------------------------------------------


def test_the_devil_may_not_lead_the_first_trick() -> None:
    """karnoffel.play.devil-lead: spades chosen, the forehand Marie holds S7 face up; she may lead
    any other card, and the Devil from trick 2 on."""
    deal = {"dealer": 0, "faceup": "S7 H9", "hands": ["S2 S4 DQ C6", "SJ D3 HK C10"]}
    state = state_of(2, deal)
    for window in (1, 2, 3):
        say(state, window, "pass", "pass")
    assert sorted(state.cards.code(a.value) for a in KARNOFFEL.legal(state)) == ["C10", "D3", "HK", "SJ"]
    # Marie wins tricks 1 (HK), 2 (the led Devil over the Kaiser) and 5 (the Karnöffel).
    played = scored({**deal, "tricks": ["HK H9", "S7 S2", "D3 DQ", "S4 C10", "C6 SJ"]}, [0, 4])
    assert codes_of(record(TWO, played)) == []
    # Led at once, the Devil wins trick 1; Lukas then takes tricks 2 (Kaiser), 3 (DQ) and 4 (S4).
    opened = scored({**deal, "tricks": ["S7 H9", "HK S2", "DQ D3", "S4 C10"]}, [4, 0])
    found = diagnostics_of(record(TWO, opened))
    assert [(d.code, d.location.trick, d.location.position, d.location.seat) for d in found] == [
        ("KARNOFFEL-DEVIL-LEAD", 1, 1, 1)
    ]


def test_the_devil_may_follow_to_the_first_trick() -> None:
    """karnoffel.play.devil-lead: the ban is on the lead only (K-A5). Spades chosen, Lukas (seat 0) is
    forehand and leads DQ; Marie follows with the Devil, which, not led, loses. Lukas then wins with
    the Kaiser (S2 over HK) and the 4 (spades led, over C10): three tricks, the deal ends."""
    deal = {"dealer": 1, "faceup": "H9 S7", "hands": ["S2 S4 DQ C6", "SJ D3 HK C10"]}
    assert codes_of(record(TWO, scored({**deal, "tricks": ["DQ S7", "S2 HK", "S4 C10"]}, [4, 0]))) == []


def test_no_duty_to_follow_suit() -> None:
    """karnoffel.play.any-card: after the first trick every card in hand is legal."""
    state = state_of(4, ANNA_CLARA_WIN)
    for trick in ANNA_CLARA_WIN["tricks"][:1]:
        for code in trick.split():
            assert KARNOFFEL.advance(state, Action("play", state.cards.deck.card(code))) == []
    # Clara won trick 1 with the Kaiser and leads from S3 S6 D10 HQ; Dieter then holds S7 DQ H5 + D3.
    assert sorted(state.cards.code(a.value) for a in KARNOFFEL.legal(state)) == ["D10", "HQ", "S3", "S6"]
    assert KARNOFFEL.advance(state, Action("play", state.cards.deck.card("D10"))) == []
    assert sorted(state.cards.code(a.value) for a in KARNOFFEL.legal(state)) == ["D3", "DQ", "H5", "S7"]


def test_a_card_not_held() -> None:
    """karnoffel.play.held: Marie plays the SQ, which was never dealt."""
    deal = scored({**LUKAS_WINS, "tricks": ["S10 SQ", "C6 CJ", "H5 H3", "D9 D8"]}, [4, 0])
    found = diagnostics_of(record(TWO, deal))
    assert [(d.code, d.location.trick, d.location.position) for d in found] == [("PLAY-NOT-HELD", 1, 2)]


# --- karnoffel.trick: the early end ----------------------------------------------------------------


def test_the_deal_stops_at_three_tricks() -> None:
    """karnoffel.trick.early-end: Lukas has three tricks after trick 4; a fifth trick is flagged."""
    deal = scored({**LUKAS_WINS, "tricks": [*LUKAS_WINS["tricks"], "C3 C2"]}, [4, 0])
    found = diagnostics_of(record(TWO, deal))
    assert [(d.code, d.location.trick) for d in found] == [("KARNOFFEL-PLAYED-ON", 5)]


def test_play_out_records_all_five_tricks() -> None:
    """karnoffel.trick.early-end, option play_out: all five tricks; the score is the same."""
    five = scored({**LUKAS_WINS, "tricks": [*LUKAS_WINS["tricks"], "C3 C2"]}, [4, 0])
    assert codes_of(record(TWO, five, play_out=True)) == []
    four = scored(LUKAS_WINS, [4, 0])
    assert codes_of(record(TWO, four, play_out=True)) == ["DEAL-INCOMPLETE"]
    six = scored({**LUKAS_WINS, "tricks": [*LUKAS_WINS["tricks"], "C3 C2", "C3 C2"]}, [4, 0])
    assert codes_of(record(TWO, six, play_out=True)) == ["DEAL-EXTRA-TRICK"]


def test_a_deal_that_stops_early() -> None:
    """karnoffel.trick.count: two tricks and no side with three is incomplete unless abandoned."""
    short = {**LUKAS_WINS, "tricks": LUKAS_WINS["tricks"][:2]}
    assert codes_of(record(TWO, short)) == ["DEAL-INCOMPLETE"]
    assert codes_of(record(TWO, {**short, "status": "abandoned"})) == []
    assert codes_of(record(TWO, {**short, "tricks": ["S10 SK", "C6"], "status": "abandoned"})) == []


def test_a_trick_has_a_card_from_each_player() -> None:
    """karnoffel.trick.size: a four-player trick of three cards."""
    deal = scored(ANNA_CLARA_WIN, [4, 0, 4, 0])
    deal["tricks"] = ["C2 S2 C9", *ANNA_CLARA_WIN["tricks"][1:]]
    assert codes_of(record(FOUR, deal)) == ["PLAY-TRICK-SIZE"]


# --- karnoffel.score and the game -----------------------------------------------------------------


def test_partners_all_score() -> None:
    """karnoffel.score, karnoffel.players: each seat of the winning side scores the value (6 and 8 players)."""
    six = {
        **SIX,
        "proposals": [
            [],
            [{"call": "pass", "seat": 4}, {"call": "raise", "seat": 5}, {"call": "accept", "seat": 2}],
        ],
    }
    assert codes_of(record(list("ABCDEF"), scored(six, [7, 0, 7, 0, 7, 0]))) == []
    assert codes_of(record(list("ABCDEF"), scored(six, [7, 0, 7, 0, 0, 0]))) == ["SCORE-MISMATCH"]
    assert codes_of(record(list("ABCDEFGH"), scored(EIGHT, [4, 0, 4, 0, 4, 0, 4, 0]))) == []


def test_the_six_and_eight_player_deals_are_dealt_as_the_rules_say() -> None:
    """karnoffel.deal.chosen-suit, karnoffel.trick.winner: clubs at six players (C4), diamonds at eight
    (D5); at eight the Devil led to trick 3 falls to the Karnöffel, seat 0."""
    assert codes_of(record(list("ABCDEF"), scored({**SIX, "chosen_suit": "C"}, [4, 0, 4, 0, 4, 0]))) == []
    eight = scored({**EIGHT, "chosen_suit": "D"}, [4, 0, 4, 0, 4, 0, 4, 0])
    eight["tricks"][2] = {"cards": EIGHT["tricks"][2], "leader": 1, "winner": 0}
    assert codes_of(record(list("ABCDEFGH"), eight)) == []


def test_a_wrong_score_and_a_wrong_total() -> None:
    """karnoffel.score, karnoffel.score.totals."""
    assert codes_of(record(FOUR, scored(ANNA_CLARA_WIN, [0, 4, 0, 4]))) == ["SCORE-MISMATCH"]
    deal = scored(ANNA_CLARA_WIN, [4, 0, 4, 0])
    deal["totals"] = [4, 0, 4, 4]
    assert codes_of(record(FOUR, deal)) == ["TOTAL-MISMATCH"]


def test_the_game_ends_at_the_target() -> None:
    """karnoffel.game.end: playing to 11, Anna and Clara reach 13 in the first deal; no deal may follow."""
    first = scored({**ANNA_CLARA_WIN, "proposals": [["raise", "raise", "raise", "accept"]]}, [13, 0, 13, 0])
    second = {**ANNA_CLARA_WIN, "dealer": 1, "tricks": [], "status": "abandoned"}
    assert codes_of(record(FOUR, first, target=11)) == []
    assert codes_of(record(FOUR, first, second, target=11)) == ["DEAL-AFTER-GAME-END"]
    assert codes_of(record(FOUR, first, second, target=21)) == []


@pytest.mark.parametrize(
    "hands",
    [
        ["CJ CJ D9 H5", "C6 C2 SK D8"],  # a card twice in one hand: its bits carry into another card's
        ["CJ S10 D9 H5", "C6 C2 DK DK"],  # the deck's last card twice: the carry passes the deck's end
        ["CJ S10 D9 H5", "C6 C2 SK CJ"],  # a card in two hands
        ["CJ S10 D9 H5", "C6 C2  SK"],  # a stray space
        ["CJ S10 D9 H5", ["C6", "C2", "SK", "D8"]],  # a hand written as a list
    ],
)
def test_the_fast_path_reads_hands_as_masks_and_leaves_doubts_to_the_full_path(hands: list[Any]) -> None:
    """karnoffel.deck: the fast path sums each hand's card bits; a card written twice leaves fewer
    bits than codes, so such a deal, like any hand not in canonical text, goes to the full replay."""
    assert clean_deals(record(TWO, scored(LUKAS_WINS, [4, 0]))) == 1
    data = record(TWO, scored({**LUKAS_WINS, "hands": hands}, [4, 0]))
    assert clean_deals(data) is None
