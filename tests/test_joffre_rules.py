"""Joffre rules, case by case from the rule text (spec/rules/joffre.md); each test names its rule id.

Expected values (legal cards, trick winners, scores) are worked out by hand from the rules and written
literally. The deals are those of the hand-typed sample games, where the play is known.
"""

from __future__ import annotations

from typing import Any

import pytest

from recordkit.engine import replay_deal
from recordkit.quick import clean_deals
from recordkit.rules.joffre import Joffre, ending
from recordkit.rules.joffre.auction import legal_calls
from recordkit.rules.joffre.cards import NO_TRUMP, cards_for
from recordkit.rules.joffre.options import JoffreOptions
from recordkit.rules.joffre.play import legal_mask, winning_index
from recordkit.rules.joffre.record import JoffreDeal, bid_name, bid_value
from recordkit.rules.joffre.state import JoffreState
from recordkit.rules.values import Action, PlayedTrick
from tests.helpers import codes_of, diagnostics_of

JOFFRE = Joffre()
FOUR = cards_for(4)
THREE = cards_for(3)
PLAYERS = ["Gérard", "Lucie", "Marcel", "Thérèse"]

# Deal 1 of the club evening: dealer 0, Marcel (seat 2) bids 4 and takes 3 tricks.
DEAL_1 = {
    "dealer": 0,
    "hands": [
        "E2 E0 F5 F3 R4 G3 G2 G1",
        "E6 E5 F0 R5 R1 R0 G6 G5",
        "E4 E3 F7 F4 F2 R7 R6 G0",
        "E7 E1 F6 F1 R3 R2 G7 G4",
    ],
    "auction": ["3", "4", "pass", "pass"],
    "tricks": [
        "R7 R2 R4 R1",
        "R6 R3 G2 R0",
        "F7 F1 F3 F0",
        "E3 E7 E2 E5",
        "G7 G3 G5 G0",
        "F6 F5 R5 F4",
        "E6 E4 E1 E0",
        "G6 F2 G4 G1",
    ],
}
# Deal 3: Marcel bids 5 and leads G7 (Germany trump); in trick 6 Lucie trumps France with the
# Kaiser and catches the Joffre that Gérard had to play.
DEAL_3 = {
    "dealer": 2,
    "hands": [
        "E2 E0 F3 F0 R4 R2 R0 G3",
        "E5 E4 E3 E1 R5 G6 G2 G0",
        "E7 F2 F1 R7 R6 G7 G5 G4",
        "E6 F7 F6 F5 F4 R3 R1 G1",
    ],
    "auction": ["3", "4", "pass", "5"],
    "tricks": [
        "G7 G1 G3 G2",
        "R7 R1 R2 R5",
        "R6 R3 R0 E1",
        "E7 E6 E2 E3",
        "F1 F7 F3 E4",
        "F6 F0 G0 F2",
        "E5 G4 F4 E0",
        "G5 F5 R4 G6",
    ],
}
# Deal 7: Lucie (seat 1) bids 5, leads F7 (France trump), takes 3 tricks including the Joffre's.
DEAL_7 = {
    "dealer": 2,
    "hands": [
        "E5 E4 F2 R6 R5 R3 G5 G0",
        "E1 E0 F7 F6 F5 R4 G2 G1",
        "E3 E2 F1 R2 R1 R0 G4 G3",
        "E7 E6 F4 F3 F0 R7 G7 G6",
    ],
    "auction": ["4", "pass", "5", "pass"],
    "tricks": [
        "F7 F1 F3 F2",
        "F6 R0 F4 R3",
        "R4 R1 R7 R5",
        "E7 E5 E0 E2",
        "E6 E4 E1 E3",
        "G7 G5 G1 G3",
        "G6 G0 G2 G4",
        "F0 R6 F5 R2",
    ],
}
# Deal 9: Thérèse (seat 3) bids 5, leads E7 (England trump), takes 6 tricks; in the last trick
# Lucie's G6 wins over the Kaiser, and Gérard had to play the Joffre into it.
DEAL_9 = {
    "dealer": 0,
    "hands": [
        "E1 E0 F2 F1 F0 R2 R1 G3",
        "E4 F7 F5 R5 R0 G6 G5 G2",
        "E3 E2 F4 F3 R4 R3 G4 G0",
        "E7 E6 E5 F6 R7 R6 G7 G1",
    ],
    "auction": ["4", "pass", "5", "pass"],
    "tricks": [
        "E7 E1 E4 E2",
        "E6 E0 R0 E3",
        "R7 R1 R5 R3",
        "R6 R2 G2 R4",
        "G7 G3 G5 G4",
        "F6 F1 F7 F3",
        "F5 F4 E5 F2",
        "G1 F0 G6 G0",
    ],
}
# Three players, deal 2: Aurèle (seat 0) bids 6 with Germany trump; Édouard trumps with the Kaiser
# and takes Aurèle's Joffre; Aurèle takes only 5 tricks.
THREE_DEAL_2 = {
    "dealer": 1,
    "hands": [
        "E7 E6 E1 F1 F0 R7 R5 R1 G7 G6",
        "E5 E4 F7 F6 F5 F4 F2 R4 G4 G3",
        "E3 E2 F3 R6 R3 R2 G5 G2 G1 G0",
    ],
    "auction": ["4", "6", "pass"],
    "tricks": [
        "G7 G3 G1",
        "G6 G4 G2",
        "F1 F7 F3",
        "F6 G0 F0",
        "E3 E7 E5",
        "E6 E4 E2",
        "E1 F5 G5",
        "R3 R7 R4",
        "R5 F4 R6",
        "R2 R1 F2",
    ],
}


def record(
    deal: dict[str, Any], scores: list[int] | None, players: int = 4, **options: Any
) -> dict[str, Any]:
    """A one-deal record of this deal with these written scores and options."""
    written = dict(deal)
    if scores is not None:
        written["result"] = {"scores": scores}
    names = ["Aurèle", "Blanche", "Édouard"] if players == 3 else PLAYERS
    return {
        "format": "recordkit",
        "version": "1.0",
        "game": "joffre",
        "options": options,
        "players": names,
        "deals": [written],
    }


def ids(cards: Any, text: str) -> list[int]:
    """Card ids of a group of codes."""
    return [cards.deck.index[code] for code in text.split()]


def mask(cards: Any, text: str) -> int:
    """Bitmask of a group of codes."""
    return int(cards.deck.mask(ids(cards, text)))


def codes(cards: Any, bits: int) -> str:
    """The codes in a bitmask, in deck order."""
    return str(cards.deck.format_mask(bits))


# --- deck and deal ------------------------------------------------------------------------------


def test_deck_sizes_joffre_deck() -> None:
    """joffre.deck / joffre.deck.three: 32 cards at four players, 30 without E0 and R0 at three."""
    assert len(FOUR.deck) == 32
    assert len(THREE.deck) == 30
    assert "E0" not in THREE.deck.codes and "R0" not in THREE.deck.codes
    assert (FOUR.hand_size, THREE.hand_size) == (8, 10)


def test_e0_at_three_players_is_unknown_joffre_deck_three() -> None:
    """joffre.deck.three: E0 written in a three-player hand is reported with its reason."""
    deal = dict(THREE_DEAL_2)
    deal["hands"] = [deal["hands"][0].replace("E1", "E0"), *deal["hands"][1:]]
    found = diagnostics_of(record(deal, [-11, 1, 6], players=3))
    assert [d.code for d in found] == ["CARD-UNKNOWN"]
    assert found[0].rule == "joffre.deck.three"


def test_pack_aliases_read_as_nations_joffre_deck() -> None:
    """joffre.deck: a standard pack's H5 / S3 (Kaiser pack) and ♥A = F7 are read as Joffre cards."""
    deal = JoffreDeal.model_validate(
        {"dealer": 0, "hands": ["h5 S3 HA dt", "f0"], "auction": ["PASSE", "6NT", "5 sa"]}
    )
    assert deal.hands == ["F0 G0 F7 E3", "F0"]
    assert [c.call for c in deal.auction] == ["pass", "6 no trump", "5 no trump"]


def test_wrong_hand_size_joffre_deal_sizes() -> None:
    """joffre.deal.sizes: eight cards each at four players."""
    deal = dict(DEAL_1)
    deal["hands"] = ["E2 E0 F5 F3 R4 G3 G2", "E6 E5 F0 R5 R1 R0 G6 G5 G1", *DEAL_1["hands"][2:]]
    assert set(codes_of(record(deal, None))) >= {"DEAL-HAND-SIZE"}


def test_teams_need_four_players_joffre_deal_teams() -> None:
    """joffre.deal.teams: team play at three players is refused."""
    assert codes_of(record(THREE_DEAL_2, [-11, 1, 6], players=3, mode="teams")) == ["JOFFRE-TEAMS-PLAYERS"]


def test_deal_passes_left_joffre_deal_rotation() -> None:
    """joffre.deal.rotation: after seat 3 deals, seat 0 deals."""
    table, _ = JOFFRE.table(JoffreOptions(), 4)
    assert table is not None
    assert [JOFFRE.next_dealer(table, d) for d in range(4)] == [1, 2, 3, 0]


def test_annulled_is_reported_joffre_deal_status() -> None:
    """joffre.deal.status: no rule of Joffre voids a deal."""
    deal = {**DEAL_1, "status": "annulled"}
    assert codes_of(record(deal, [0, 3, -4, -1])) == ["JOFFRE-ANNULLED"]


# --- the auction --------------------------------------------------------------------------------


def auction_state(calls: list[str], dealer: int = 0, **options: Any) -> tuple[JoffreState, list[str]]:
    """The state after these calls of deal 1's hands, and the codes they raised."""
    table, _ = JOFFRE.table(JoffreOptions(**options), 4)
    assert table is not None
    deal = JoffreDeal.model_validate({**DEAL_1, "dealer": dealer, "auction": calls, "tricks": []})
    state, _ = JOFFRE.start(table, deal)
    found: list[str] = []
    for call in calls:
        value = bid_value(call)
        assert value is not None
        found += [v.code for v in JOFFRE.advance(state, Action("bid", value))]
    return state, found


def test_call_values_order_no_trump_between_numbers_joffre_bid_no_trump() -> None:
    """joffre.bid.no-trump: 6 < 6 no trump < 7."""
    six, six_nt, seven = bid_value("6"), bid_value("6 no trump"), bid_value("7")
    assert six is not None and six_nt is not None and seven is not None
    assert six < six_nt < seven
    assert bid_name(six_nt) == "6 no trump"
    assert bid_value("zero") is None and bid_value("0") is None


def test_highest_bidder_takes_the_contract_joffre_bid_contract() -> None:
    """joffre.bid.contract: seat 1 says 3, seat 2 says 4, the others pass: seat 2 is the bidder."""
    state, found = auction_state(["3", "4", "pass", "pass"])
    assert found == []
    assert (state.bidder, bid_name(state.contract), state.leader) == (2, "4", 2)


def test_a_bid_not_higher_is_refused_joffre_bid_higher() -> None:
    """joffre.bid.higher: 4 after 4 is not higher; the first 4 stands."""
    state, found = auction_state(["3", "4", "4", "pass"])
    assert found == ["JOFFRE-BID-NOT-HIGHER"]
    assert state.bidder == 2


def test_the_dealer_may_not_equal_by_default_joffre_bid_higher() -> None:
    """joffre.bid.higher: the dealer (seat 0) equalling 4 is refused unless dealer_may_equal."""
    state, found = auction_state(["3", "4", "pass", "4"])
    assert (found, state.bidder) == (["JOFFRE-BID-NOT-HIGHER"], 2)
    state, found = auction_state(["3", "4", "pass", "4"], dealer_may_equal=True)
    assert (found, state.bidder) == ([], 0)


def test_only_the_dealer_may_equal_joffre_bid_higher() -> None:
    """joffre.bid.higher: with dealer_may_equal, seat 3 (not the dealer) still may not equal."""
    _, found = auction_state(["3", "4", "4", "pass"], dealer_may_equal=True)
    assert found == ["JOFFRE-BID-NOT-HIGHER"]


def test_opening_pass_joffre_bid_opening() -> None:
    """joffre.bid.opening: the player on the dealer's left calls the first bid."""
    _, found = auction_state(["pass", "4", "pass", "pass"])
    assert found == ["JOFFRE-OPENING-PASS"]
    _, found = auction_state(["pass", "4", "pass", "pass"], opening_bid_forced=False)
    assert found == []


def test_bid_range_joffre_bid_range() -> None:
    """joffre.bid.range: 1..8 in tricks at four players, min_bid..12 in points."""
    assert auction_state(["9", "pass", "pass", "pass"])[1] == ["JOFFRE-BID-RANGE"]
    assert auction_state(["8", "pass", "pass", "pass"])[1] == []
    assert auction_state(["4", "pass", "pass", "pass"], min_bid=5)[1] == ["JOFFRE-BID-RANGE"]
    assert auction_state(["12", "pass", "pass", "pass"], bid_unit="points")[1] == []
    assert auction_state(["13", "pass", "pass", "pass"], bid_unit="points")[1] == ["JOFFRE-BID-RANGE"]


def test_min_bid_above_the_maximum_is_refused_joffre_bid_range() -> None:
    """joffre.bid.range: min_bid 9 cannot be bid in tricks at four players (8 tricks)."""
    table, problems = JOFFRE.table(JoffreOptions(min_bid=9), 4)
    assert table is None and [p.code for p in problems] == ["RECORD-BAD-OPTION"]


def test_no_trump_needs_the_option_joffre_bid_no_trump() -> None:
    """joffre.bid.no-trump: '4 no trump' without allow_no_trump counts as 4."""
    state, found = auction_state(["3", "4 no trump", "pass", "pass"])
    assert found == ["JOFFRE-NO-TRUMP-NOT-ALLOWED"]
    assert bid_name(state.contract) == "4"
    state, found = auction_state(["4", "4 no trump", "pass", "pass"], allow_no_trump=True)
    assert (found, bid_name(state.contract)) == ([], "4 no trump")


def test_seat_written_out_of_turn_joffre_bid_order() -> None:
    """joffre.bid.order: the second call is seat 2's (dealer 0), not seat 3's."""
    deal = {**DEAL_1, "auction": ["3", {"call": "4", "seat": 3}, "pass", "pass"]}
    assert codes_of(record(deal, [0, 3, -4, -1])) == ["JOFFRE-AUCTION-ORDER"]


def test_all_pass_redeal_scores_nothing_joffre_bid_all_pass() -> None:
    """joffre.bid.all-pass: without a forced opening, four passes end the deal at 0 each."""
    deal = {"dealer": 0, "hands": DEAL_1["hands"], "auction": ["pass"] * 4}
    assert codes_of(record(deal, [0, 0, 0, 0], opening_bid_forced=False)) == []
    played = {**DEAL_1, "auction": ["pass"] * 4}
    assert codes_of(record(played, None, opening_bid_forced=False)) == ["JOFFRE-ALL-PASS-PLAYED"]


def test_dealer_forced_after_three_passes_joffre_bid_all_pass() -> None:
    """joffre.bid.all-pass: with dealer_forced_min the dealer may not pass after three passes."""
    options = {"opening_bid_forced": False, "all_pass": "dealer_forced_min"}
    _, found = auction_state(["pass", "pass", "pass", "pass"], **options)
    assert found == ["JOFFRE-DEALER-MUST-BID"]
    state, found = auction_state(["pass", "pass", "pass", "1"], **options)
    assert (found, state.bidder) == ([], 0)


def test_legal_calls_joffre_bid_higher() -> None:
    """joffre.bid.higher / joffre.bid.opening: what each speaker may say."""
    state, _ = auction_state([])
    assert [bid_name(v) for v in legal_calls(state)] == ["1", "2", "3", "4", "5", "6", "7", "8"]
    state, _ = auction_state(["3", "5", "pass"], dealer_may_equal=True)
    assert [bid_name(v) for v in legal_calls(state)] == ["pass", "5", "6", "7", "8"]
    state, _ = auction_state(["6"], allow_no_trump=True)
    assert [bid_name(v) for v in legal_calls(state)] == [
        "pass",
        "6 no trump",
        "7",
        "7 no trump",
        "8",
        "8 no trump",
    ]


# --- the play -----------------------------------------------------------------------------------


def test_follow_the_nation_led_joffre_play_follow() -> None:
    """joffre.play.follow: holding England on an England lead, only England may be played."""
    hand = mask(FOUR, "E7 E2 F0 G5")
    assert codes(FOUR, legal_mask(FOUR, hand, ids(FOUR, "E4"))) == "E2 E7"


def test_void_plays_anything_joffre_play_follow() -> None:
    """joffre.play.follow: void in Russia, any card (no duty to trump)."""
    hand = mask(FOUR, "E7 E2 F0 G5")
    assert codes(FOUR, legal_mask(FOUR, hand, ids(FOUR, "R3 R7"))) == "E2 E7 F0 G5"


def test_leader_plays_anything_joffre_play_lead() -> None:
    """joffre.play.lead: the leader may lead any card."""
    hand = mask(FOUR, "E7 F0 R1 G5")
    assert codes(FOUR, legal_mask(FOUR, hand, [])) == "E7 F0 R1 G5"


@pytest.mark.parametrize(
    ("trump", "trick", "winner"),
    [
        ("G", "F5 F0 G0 F2", 2),  # the Kaiser is the only trump: it wins
        ("G", "F5 F0 G0 G4", 3),  # a higher trump beats the Kaiser
        ("F", "E3 R7 E5 E1", 2),  # a card of a third nation never wins (J-A7)
        ("F", "E3 F0 E5 E7", 1),  # the Joffre as the lowest trump still wins
        ("E", "R1 R0 G7 F7", 0),  # no trump played: the highest of the nation led
        ("none", "F5 G7 F6 F1", 2),  # no trump: the highest of the nation led
    ],
)
def test_trick_winner_joffre_trick_winner(trump: str, trick: str, winner: int) -> None:
    """joffre.trick.winner: highest trump, else highest card of the nation led."""
    nation = NO_TRUMP if trump == "none" else "EFRG".index(trump)
    assert winning_index(FOUR, nation, ids(FOUR, trick)) == winner


def test_revoke_is_reported_where_it_happens_joffre_play_follow() -> None:
    """joffre.play.follow: Thérèse plays E1 on France in trick 3 while holding F1 and F6."""
    deal = {**DEAL_1, "tricks": list(DEAL_1["tricks"])}
    deal["tricks"][2] = "F7 E1 F3 F0"
    deal["tricks"][6] = "E6 E4 F1 E0"
    found = diagnostics_of(record(deal, [0, 3, -4, -1]))
    assert [(d.code, d.location.trick, d.location.position, d.location.seat) for d in found] == [
        ("JOFFRE-REVOKE", 3, 2, 3)
    ]


def test_first_card_sets_the_trump_joffre_play_trump() -> None:
    """joffre.play.trump: Marcel leads R7, so Russia is trump; a written 'F' is contradicted."""
    assert codes_of(record({**DEAL_1, "trump": "R"}, [0, 3, -4, -1])) == []
    assert codes_of(record({**DEAL_1, "trump": "France"}, [0, 3, -4, -1])) == ["JOFFRE-TRUMP-MISMATCH"]


def test_first_lead_by_the_bidder_joffre_play_lead() -> None:
    """joffre.play.lead: the bidder (seat 2) leads the first trick, not seat 1."""
    deal = {**DEAL_1, "tricks": [{"cards": "R7 R2 R4 R1", "leader": 1}, *DEAL_1["tricks"][1:]]}
    assert codes_of(record(deal, [0, 3, -4, -1])) == ["PLAY-LEADER-MISMATCH"]


def test_winner_leads_next_joffre_trick_leader() -> None:
    """joffre.trick.leader: Thérèse won trick 4 with E7, so she leads trick 5."""
    tricks = list(DEAL_1["tricks"])
    tricks[4] = {"cards": "G7 G3 G5 G0", "leader": 3, "winner": 3}
    assert codes_of(record({**DEAL_1, "tricks": tricks}, [0, 3, -4, -1])) == []
    tricks[4] = {"cards": "G7 G3 G5 G0", "leader": 2}
    assert codes_of(record({**DEAL_1, "tricks": tricks}, [0, 3, -4, -1])) == ["PLAY-LEADER-MISMATCH"]


def test_missing_trick_joffre_trick_count() -> None:
    """joffre.trick.count: all 8 tricks are played; an abandoned deal is not scored."""
    short = {**DEAL_1, "tricks": DEAL_1["tricks"][:7]}
    assert codes_of(record(short, [0, 3, -4, -1])) == ["DEAL-INCOMPLETE"]
    assert codes_of(record({**short, "status": "abandoned"}, None)) == []


# --- scoring ------------------------------------------------------------------------------------


def test_failed_bid_joffre_score_contract() -> None:
    """joffre.score.contract: Marcel bids 4 and takes 3 tricks, one with the Joffre: -4, nothing else.
    Lucie 3 tricks = 3; Thérèse 2 tricks with the Kaiser = 2 - 3 = -1; Gérard none."""
    assert codes_of(record(DEAL_1, [0, 3, -4, -1])) == []
    assert codes_of(record(DEAL_1, [0, 3, 4, -1])) == ["SCORE-MISMATCH"]


def test_kaiser_takes_the_joffre_joffre_score_capture() -> None:
    """joffre.score.capture: Lucie's Kaiser wins trick 6 over Gérard's Joffre: Gérard -5; Lucie
    2 tricks, one with Joffre and Kaiser: 1 + (1 + 5 - 3) = 4; Marcel makes 5 with 5 tricks; Thérèse 1."""
    assert codes_of(record(DEAL_3, [-5, 4, 5, 1])) == []
    assert codes_of(record(DEAL_3, [-5, 4, 5, 1], kaiser_capture="same_trick")) == []
    assert codes_of(record(DEAL_3, [0, 4, 5, 1], kaiser_capture="none")) == []
    assert codes_of(record(DEAL_3, [0, 4, 5, 1])) == ["SCORE-MISMATCH"]


def test_both_cards_in_a_trick_won_by_a_third_card_joffre_score_capture() -> None:
    """joffre.score.capture: in deal 9's last trick G6 wins over the Kaiser and Gérard's Joffre.
    Default: the Kaiser is not the winning card, no penalty; same_trick: Gérard still loses 5.
    Lucie: 2 tricks, one worth 1 + 5 - 3: 4. Thérèse made 5 with 6 tricks: 6."""
    assert codes_of(record(DEAL_9, [0, 4, 0, 6])) == []
    assert codes_of(record(DEAL_9, [-5, 4, 0, 6], kaiser_capture="same_trick")) == []
    assert codes_of(record(DEAL_9, [0, 4, 0, 6], kaiser_capture="none")) == []


def test_failed_bidder_ignores_his_joffre_joffre_score_contract() -> None:
    """joffre.score.contract: Lucie bids 5, takes 3 tricks and the Joffre's: -5 (J-A11).
    Thérèse 5 tricks with the Kaiser: 2."""
    assert codes_of(record(DEAL_7, [0, -5, 0, 2])) == []


def test_bid_in_points_joffre_score_contract() -> None:
    """joffre.score.contract with bid_unit = points: Lucie's 3 tricks + 5 = 8 points make her 5."""
    assert codes_of(record(DEAL_7, [0, 8, 0, 2], bid_unit="points")) == []


def test_points_contract_counts_the_kaiser_joffre_score_contract() -> None:
    """joffre.score.contract: Thérèse bids 6 in deal 8 and takes all 8 tricks with both specials:
    in tricks she makes 8 + 5 - 3 = 10; in points 10 >= 6 also. Bid 11 in points fails: -11."""
    deal_8 = {
        "dealer": 3,
        "hands": [
            "E4 E3 F3 F0 R2 R1 G4 G3",
            "E6 E5 F5 F4 R3 G6 G5 G0",
            "E2 E1 E0 F2 F1 R0 G2 G1",
            "E7 F7 F6 R7 R6 R5 R4 G7",
        ],
        "auction": ["3", "4", "pass", "6"],
        "tricks": [
            "R7 R1 R3 R0",
            "R6 R2 G0 E0",
            "F7 F3 F4 F2",
            "F6 F0 F5 F1",
            "E7 E3 E5 E1",
            "G7 G3 G5 G1",
            "R5 E4 G6 G2",
            "R4 G4 E6 E2",
        ],
    }
    assert codes_of(record(deal_8, [0, 0, 0, 10])) == []
    assert codes_of(record(deal_8, [0, 0, 0, 10], bid_unit="points")) == []
    high = {**deal_8, "auction": ["3", "4", "pass", "11"]}
    assert codes_of(record(high, [0, 0, 0, -11], bid_unit="points")) == []
    no_trump = {**deal_8, "auction": ["3", "4", "pass", "6 no trump"], "trump": "none"}
    assert codes_of(record(no_trump, [0, 0, 0, 20], allow_no_trump=True)) == []


def test_no_trump_failed_counts_double_joffre_score_no_trump() -> None:
    """joffre.score.no-trump: Lucie bids '5 no trump' and takes 3 tricks: 2 x (-5) = -10.
    No trick of deal 7 was ruffed, so the winners are those of the trump deal."""
    deal = {**DEAL_7, "auction": ["4", "pass", "5 no trump", "pass"], "trump": "none"}
    assert codes_of(record(deal, [0, -10, 0, 2], allow_no_trump=True)) == []


def test_failed_and_captured_at_three_joffre_score_capture() -> None:
    """joffre.score.capture + joffre.score.contract: Aurèle bids 6, takes 5 tricks, and Édouard's
    Kaiser takes his Joffre: -6 - 5 = -11. Blanche 1 trick; Édouard 4 tricks, one worth 3: 6."""
    assert codes_of(record(THREE_DEAL_2, [-11, 1, 6], players=3)) == []


def test_team_scores_joffre_score_teams() -> None:
    """joffre.score.teams: deal 3 in teams. Marcel's team (0+2) takes 5 tricks = 5 points, loses 5
    for Gérard's Joffre: 0. Lucie's team (1+3): 3 tricks, one worth 3: 5. Partners write equal scores."""
    assert codes_of(record(DEAL_3, [0, 5, 0, 5], mode="teams")) == []
    assert codes_of(record(DEAL_3, [0, 5, 0, 4], mode="teams")) == ["SCORE-MISMATCH"]


def test_failed_team_contract_joffre_score_teams() -> None:
    """joffre.score.teams: deal 7 in teams. Lucie's team (1+3) bid 5 and took 3 + 5 = 8 tricks:
    made, 8 tricks + 5 - 3 = 10. Team 0+2 took nothing: 0."""
    assert codes_of(record(DEAL_7, [0, 10, 0, 10], mode="teams")) == []


def replayed(deal: dict[str, Any], **options: Any) -> tuple[list[int | float] | None, list[str]]:
    """The scores the rules give one deal (its written totals tell the totals before it) and its codes.

    The running-totals check belongs to the validator, which needs the earlier deals; here the deal
    is replayed alone, so that a deal played at 47 can be stated without the deals before it."""
    table, _ = JOFFRE.table(JoffreOptions(**options), 4)
    assert table is not None
    replay = replay_deal(JOFFRE, table, JoffreDeal.model_validate(deal))
    return replay.scores, [v.code for v in replay.violations]


def test_kaiser_cap_joffre_score_cap() -> None:
    """joffre.score.cap: Lucie, not bidding, at 47 before deal 9, keeps 0 of her 4; Thérèse bids.
    At 46 the cap does not apply; without the option it never does."""
    capped = {**DEAL_9, "result": {"scores": [0, 0, 0, 6]}, "totals": [0, 47, 0, 16]}
    assert replayed(capped, opponent_cap="kaiser47", target=60) == ([0, 0, 0, 6], [])
    uncapped = {**DEAL_9, "result": {"scores": [0, 4, 0, 6]}, "totals": [0, 51, 0, 16]}
    assert replayed(uncapped, opponent_cap="kaiser47", target=60)[1] == ["SCORE-MISMATCH"]
    assert replayed(uncapped, target=60) == ([0, 4, 0, 6], [])
    below = {**DEAL_9, "result": {"scores": [0, 4, 0, 6]}, "totals": [0, 50, 0, 16]}
    assert replayed(below, opponent_cap="kaiser47", target=60) == ([0, 4, 0, 6], [])


def test_kaiser_cap_spares_losses_and_the_bidder_joffre_score_cap() -> None:
    """joffre.score.cap: at 47 or more, a loss still counts, and the bidder keeps his gain.
    Deal 1: Lucie (+3) and Thérèse (-1) at 50 do not bid: 0 and -1. Deal 9: Thérèse at 50 bids: +6."""
    deal = {**DEAL_1, "result": {"scores": [0, 0, -4, -1]}, "totals": [0, 50, 56, 49]}
    assert replayed(deal, opponent_cap="kaiser47", target=70) == ([0, 0, -4, -1], [])
    deal = {**DEAL_9, "result": {"scores": [0, 4, 0, 6]}, "totals": [0, 4, 0, 56]}
    assert replayed(deal, opponent_cap="kaiser47", target=70) == ([0, 4, 0, 6], [])


def test_kaiser_cap_on_the_first_deal_needs_no_totals_joffre_score_cap() -> None:
    """joffre.score.cap: a record's first deal starts from zero, so the cap is known without totals."""
    assert codes_of(record(DEAL_9, [0, 4, 0, 6], opponent_cap="kaiser47")) == []


def test_kaiser_cap_after_an_unreadable_deal_warns_joffre_score_cap() -> None:
    """joffre.score.cap: when the deal before cannot be read and no totals are written, the totals
    before the deal are unknown, so the cap cannot be checked: a warning."""
    data = record(DEAL_9, [0, 4, 0, 6], opponent_cap="kaiser47")
    broken = {**data["deals"][0], "dealer": "north"}
    data["deals"] = [broken, data["deals"][0]]
    assert codes_of(data) == ["RECORD-SCHEMA", "JOFFRE-CAP-UNKNOWN"]


def test_trick_points_joffre_score_joffre() -> None:
    """joffre.score.tricks / joffre.score.joffre / joffre.score.kaiser: 1, +5, -3 per trick."""
    assert JOFFRE.trick_points(PlayedTrick(0, ids(FOUR, "E1 E2 E3 E4"))) == 1
    assert JOFFRE.trick_points(PlayedTrick(0, ids(FOUR, "F7 F0 E3 E4"))) == 6
    assert JOFFRE.trick_points(PlayedTrick(0, ids(FOUR, "G7 G0 E3 E4"))) == -2
    assert JOFFRE.trick_points(PlayedTrick(0, ids(THREE, "F6 G0 F0"))) == 3


# --- the end ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tiebreak", "totals", "bidder", "winner"),
    [
        ("highest_total_then_bidder", [41, 38, 36, 12], 1, 0),
        ("highest_total_then_bidder", [42, 42, 20, 5], 1, 1),
        ("highest_total_then_bidder", [42, 42, 20, 5], 2, None),
        ("highest_total_then_bidder", [44, 41, 10, 3], 1, 0),
        ("bidder_first", [44, 41, 10, 3], 1, 1),
        ("bidder_first", [44, 39, 10, 3], 1, 0),
        ("bidder_first", [42, 42, 20, 5], 3, None),
        ("play_another_hand", [42, 42, 20, 5], 1, None),
        ("play_another_hand", [44, 41, 10, 3], 1, 0),
        ("play_another_hand", [39, 38, 36, 12], 1, None),
    ],
)
def test_winner_joffre_end_tiebreak(
    tiebreak: str, totals: list[int], bidder: int, winner: int | None
) -> None:
    """joffre.end.tiebreak: who wins when several reach 40 in one deal."""
    options = JoffreOptions.model_validate({"end_tiebreak": tiebreak})
    assert ending.winner(options, totals, bidder) == winner


def test_game_over_joffre_end_target() -> None:
    """joffre.end.target: over once one side alone has the highest total at or above 40."""
    options = JoffreOptions()
    assert ending.game_over(options, [40, 12, 3, -4])
    assert not ending.game_over(options, [39, 12, 3, -4])
    assert not ending.game_over(options, [42, 42, 3, -4])
    teams = JoffreOptions(mode="teams")
    assert ending.game_over(teams, [40, 30, 40, 30])
    assert not ending.game_over(teams, [41, 41, 41, 41])
    assert ending.game_over(JoffreOptions(target=25), [28, 3, 0])


def test_deal_after_the_end_joffre_end_target() -> None:
    """joffre.end.target: with target 3, Lucie's 3 after deal 1 ends the game; deal 2 is too many."""
    first = {**DEAL_1, "result": {"scores": [0, 3, -4, -1]}}
    second = {"dealer": 1, "hands": DEAL_1["hands"], "auction": ["pass"] * 4, "result": {"scores": [0] * 4}}
    data = record(first, None, target=3, opening_bid_forced=False)
    data["deals"].append(second)
    assert codes_of(data) == ["DEAL-AFTER-GAME-END"]
    data["options"]["target"] = 4
    assert codes_of(data) == []


# --- the fast path ------------------------------------------------------------------------------

NOTED_DEAL_1 = {
    **DEAL_1,
    "auction": ["3", {"call": "4", "seat": 2, "comment": "Marcel"}, "pass", {"call": "pass", "seat": 0}],
    "trump": "R",
    "tricks": [{"cards": "R7 R2 R4 R1", "leader": 2, "winner": 2, "time": "21:05"}, *DEAL_1["tricks"][1:]],
    "comment": "first deal",
}


@pytest.mark.parametrize(
    ("deal", "scores", "players", "options"),
    [
        (DEAL_1, [0, 3, -4, -1], 4, {}),
        (NOTED_DEAL_1, [0, 3, -4, -1], 4, {}),
        (DEAL_3, [-5, 4, 5, 1], 4, {}),
        (DEAL_3, [-5, 4, 5, 1], 4, {"kaiser_capture": "same_trick"}),
        (DEAL_9, [0, 4, 0, 6], 4, {"kaiser_capture": "none"}),
        (DEAL_7, [0, 8, 0, 2], 4, {"bid_unit": "points"}),
        (
            {**DEAL_7, "auction": ["4", "pass", "5 no trump", "pass"]},
            [0, -10, 0, 2],
            4,
            {"allow_no_trump": True},
        ),
        (DEAL_3, [0, 5, 0, 5], 4, {"mode": "teams"}),
        ({**DEAL_9, "totals": [0, 4, 0, 6]}, [0, 4, 0, 6], 4, {"opponent_cap": "kaiser47"}),
        (THREE_DEAL_2, [-11, 1, 6], 3, {}),
        (
            {"dealer": 0, "hands": DEAL_1["hands"], "auction": ["pass"] * 4},
            None,
            4,
            {"opening_bid_forced": False},
        ),
    ],
)
def test_clean_deals_take_the_fast_path_joffre_score(
    deal: dict[str, Any], scores: list[int] | None, players: int, options: dict[str, Any]
) -> None:
    """joffre.score: hand-typed clean deals, with notes, stated seats, leaders and winners, under the
    scoring options, are proven clean by the fast path (and the full replay agrees)."""
    data = record(deal, scores, players, **options)
    assert codes_of(data) == []
    assert clean_deals(data) == 1


@pytest.mark.parametrize(
    "change",
    [
        {"trump": "r"},
        {"auction": ["3", "4", "PASS", "pass"]},
        {"hands": [DEAL_1["hands"][0].split(), *DEAL_1["hands"][1:]]},
        {"tricks": [["R7", "R2", "R4", "R1"], *DEAL_1["tricks"][1:]]},
    ],
)
def test_other_spellings_go_to_the_full_replay_joffre_deck(change: dict[str, Any]) -> None:
    """joffre.deck, joffre.bid.calls: spellings the deal model re-spells are read by the full replay
    (which finds nothing wrong); the fast path takes only canonical records."""
    data = record({**DEAL_1, **change}, [0, 3, -4, -1])
    assert clean_deals(data) is None
    assert codes_of(data) == []


ALL_PASS = {"dealer": 0, "hands": DEAL_1["hands"], "auction": ["pass"] * 4}
TWO_E6 = {
    **DEAL_1,
    "hands": [DEAL_1["hands"][0].replace("E2", "E6"), *DEAL_1["hands"][1:]],
    "tricks": [*DEAL_1["tricks"][:3], "E3 E7 E6 E5", *DEAL_1["tricks"][4:]],
}
"""Gérard's E2 written as E6, which Lucie holds too, and played so: every card is played as held."""


@pytest.mark.parametrize(
    ("deal", "code"),
    [
        ({**DEAL_1, "dealer": 4}, "RECORD-SEAT"),
        ({**DEAL_1, "contract": "4"}, "RECORD-UNKNOWN-KEY"),
        ({**DEAL_1, "comment": 4}, "RECORD-SCHEMA"),
        ({**DEAL_1, "status": None}, "RECORD-SCHEMA"),
        ({**ALL_PASS, "trump": "Spain"}, "RECORD-SCHEMA"),
        ({**ALL_PASS, "tricks": None}, "RECORD-SCHEMA"),
        ({**DEAL_1, "tricks": ["R7 R2 R4 R1 F1", "R6 R3 G2", *DEAL_1["tricks"][2:]]}, "PLAY-TRICK-SIZE"),
        ({**DEAL_1, "tricks": [*DEAL_1["tricks"], "E6 E4 E1 E0"]}, "DEAL-EXTRA-TRICK"),
        ({**DEAL_1, "trump": "F"}, "JOFFRE-TRUMP-MISMATCH"),
        (TWO_E6, "DEAL-DUPLICATE-CARD"),
        (
            {**DEAL_1, "tricks": [{"cards": "R7 R2 R4 R1", "winner": 1}, *DEAL_1["tricks"][1:]]},
            "PLAY-WINNER-MISMATCH",
        ),
        ({**DEAL_1, "auction": ["3", "4", "pass"]}, "JOFFRE-AUCTION-INCOMPLETE"),
        ({**DEAL_1, "auction": ["3", "4", "pass", "pass", "pass"]}, "JOFFRE-AUCTION-EXTRA"),
    ],
)
def test_faults_outside_the_play_are_not_taken_by_the_fast_path_joffre_deal_sizes(
    deal: dict[str, Any], code: str
) -> None:
    """joffre.deal.sizes, joffre.players, joffre.deck, joffre.trick.size, joffre.trick.winner,
    joffre.play.trump, joffre.bid.order: a deal the full replay faults for its form, its seats, its
    cards or what it states is never proven clean by the fast path (`codes_of` checks it; the first
    code is the fault's)."""
    options = {"opening_bid_forced": False} if deal["auction"] == ["pass"] * 4 else {}
    assert codes_of(record(deal, [0, 3, -4, -1] if "tricks" in deal else [0] * 4, **options))[0] == code
