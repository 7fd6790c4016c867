"""Hand-written Charlemagne rule tests (RULES-NOTES §2, source 001, spec/rules/charlemagne.md).

Each test states a situation as the rules text would (a hand, the trick so far, the contract, the
calls, the tricks played) and the answer the text gives, written out literally and worked out by
hand in a comment. The code under test is only asked for its verdict; it never computes an
expected value. Each test names the rule id it checks (``charlemagne.*``) in its name, its
parametrize id or its docstring.

Seats are numbered clockwise in the order of play; partners sit opposite (0 and 2 against 1 and
3); the dealer's left (seat d+1) speaks first.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

import pytest

from recordkit.cards import ids_of
from recordkit.engine import steps
from recordkit.games import RULESETS
from recordkit.quick import clean_deals
from recordkit.rules.charlemagne.bids import LADDERS
from recordkit.rules.charlemagne.cards import DECKS, context
from recordkit.rules.charlemagne.options import CharlemagneOptions
from recordkit.rules.charlemagne.play import legal_mask, winning_index
from recordkit.rules.charlemagne.record import CharlemagneDeal
from recordkit.rules.charlemagne.state import CharlemagneState, Phase
from recordkit.rules.values import Action, Table
from tests.helpers import codes_of, diagnostics_of

RULES = RULESETS["charlemagne"]
STD = DECKS["standard"]
MAINE = DECKS["maine"]
SUITS = {"S": 0, "H": 1, "D": 2, "C": 3, None: None}
NAMES = ["Ana", "Bea", "Cyr", "Dan"]


# --- helpers: cards -----------------------------------------------------------------------------


def legal(variant: str, trump: str | None, hand: str, so_far: str) -> set[str]:
    """The legal plays of `hand` on the trick `so_far`, as card codes."""
    deck = DECKS[variant]
    ctx = context(variant, SUITS[trump])
    return {deck.codes[c] for c in ids_of(legal_mask(ctx, deck.mask(deck.cards(hand)), deck.cards(so_far)))}


def winner(variant: str, trump: str | None, trick: str) -> int:
    """Index (0 = the led card) of the card that wins the trick."""
    return winning_index(context(variant, SUITS[trump]), DECKS[variant].cards(trick))


# --- helpers: states driven action by action ------------------------------------------------------

# A standard deal: seat 0 "S7 S9 H7 H10 DK DA CQ X2", kitty "HK C7".
STD_HANDS = [
    "S7 S9 H7 H10 DK DA CQ X2",
    "SQ H8 HQ D9 D10 DJ C8 CK",
    "SK SA H9 HJ HA D8 CA X1",
    "S8 S10 SJ D7 DQ C9 C10 CJ",
]
STD_KITTY = "HK C7"
MAINE_HANDS = [
    "S9 SK SA HK HA D7 C7 C8",
    "SQ H9 H10 HJ D10 DQ CJ CA",
    "S10 SJ H7 H8 HQ DK DA C9",
    "S7 S8 D8 D9 DJ C10 CQ CK",
]


def start(variant: str = "standard", dealer: int = 0, **options: Any) -> tuple[CharlemagneState, Table]:
    """A fresh state of the standard or Maine deal above."""
    opts = CharlemagneOptions(variant=variant, **options)  # type: ignore[arg-type]
    table, _ = RULES.table(opts, 4)
    assert table is not None
    hands = STD_HANDS if variant == "standard" else MAINE_HANDS
    deal = CharlemagneDeal(dealer=dealer, hands=hands, kitty=STD_KITTY if variant == "standard" else None)
    state, problems = RULES.start(table, deal)
    assert problems == []
    return state, table


def act(state: CharlemagneState, kind: str, value: Any, seat: int | None = None) -> list[str]:
    """Carry out one action; the codes of what it breaks."""
    if kind in ("play", "partner_card", "discard", "defender_card", "defender_discard"):
        value = DECKS[state.variant].card(value)
    elif kind == "bid":
        value = [b.name for b in LADDERS[state.variant]].index(value)
    elif kind == "trump":
        value = SUITS[value]
    return [v.code for v in RULES.advance(state, Action(kind, value, seat, kind))]


def bids(state: CharlemagneState, *calls: str) -> list[str]:
    """The auction's calls in turn; the codes of everything they break."""
    codes: list[str] = []
    for call in calls:
        codes += act(state, "bid", call)
    return codes


def hand(state: CharlemagneState, seat: int) -> set[str]:
    return set(DECKS[state.variant].format_mask(state.hands[seat]).split())


# --- helpers: whole records ---------------------------------------------------------------------


@dataclass
class Layout:
    """A deal written as its play: each trick as (leader, cards in play order).

    Card i of a trick led by L belongs to the i-th player in the play from L, clockwise,
    skipping the seats in `out`. Dealt hands are what each seat played, plus `extra` (cards it
    held but did not play: discards, the hand set aside), minus `taken` (kitty or partner's card
    it received).
    """

    tricks: list[tuple[int, str]]
    out: frozenset[int] = frozenset()
    extra: dict[int, str] = field(default_factory=dict)
    taken: dict[int, str] = field(default_factory=dict)

    def hands(self) -> list[str]:
        held: list[list[str]] = [[] for _ in range(4)]
        for leader, cards in self.tricks:
            seat = leader
            for code in cards.split():
                held[seat].append(code)
                seat = (seat + 1) % 4
                while seat in self.out:
                    seat = (seat + 1) % 4
        for seat, cards in self.extra.items():
            held[seat] += cards.split()
        for seat, cards in self.taken.items():
            for code in cards.split():
                held[seat].remove(code)
        assert all(len(h) == 8 for h in held), [len(h) for h in held]
        return [" ".join(h) for h in held]


def record(deal: dict[str, Any], **options: Any) -> dict[str, Any]:
    return {
        "format": "recordkit",
        "version": "1.0",
        "game": "charlemagne",
        "options": options,
        "players": NAMES,
        "deals": [deal],
    }


def deal_of(layout: Layout, dealer: int, scores: list[int], **fields: Any) -> dict[str, Any]:
    """A deal with the hands read off the layout; each trick states its leader, so that the replay
    checks the leaders worked out by hand."""
    return {
        "dealer": dealer,
        "hands": layout.hands(),
        **fields,
        "tricks": [{"cards": cards, "leader": leader} for leader, cards in layout.tricks],
        "result": {"scores": scores},
        "totals": scores,
    }


def codes(data: dict[str, Any]) -> list[str]:
    """The codes of a record's findings; `codes_of` also checks that the fast path never accepts a
    record in which the full replay finds anything."""
    return codes_of(data)


def diagnostics(data: dict[str, Any]) -> list[Any]:
    return diagnostics_of(data)


# === ranks and suits (charlemagne.rank.*) =========================================================


def test_rank_trump_order_standard_hearts() -> None:
    """charlemagne.rank.trump: X1 > X2 > HJ (le bar) > DJ (le petit bar) > HA > ... > H7."""
    order = ["X1", "X2", "HJ", "DJ", "HA", "HK", "HQ", "H10", "H9", "H8", "H7"]
    for high, low in pairwise(order):
        # the higher trump wins whichever is led
        assert winner("standard", "H", f"{low} {high}") == 1
        assert winner("standard", "H", f"{high} {low}") == 0


def test_rank_maine_trump_order_diamonds() -> None:
    """charlemagne.rank.maine-trump: D9 > DJ (Big Jack) > HJ (Little Jack) > DA > DK > DQ > D10 > D8 > D7."""
    order = ["D9", "DJ", "HJ", "DA", "DK", "DQ", "D10", "D8", "D7"]
    for high, low in pairwise(order):
        assert winner("maine", "D", f"{low} {high}") == 1


def test_rank_plain_same_colour_suit_has_no_jack() -> None:
    """charlemagne.rank.plain: with hearts trumps, DJ is a trump; DA wins a diamond trick of DA DK D7."""
    assert winner("standard", "H", "D7 DA DK") == 1
    # DJ played on a diamond lead by a void player is a trump, and wins
    assert winner("standard", "H", "DA DJ D7 S8") == 1


@pytest.mark.parametrize(
    ("trick", "expected"),
    [
        ("SA X2 SK", 1),  # a joker beats every suit card
        ("X2 X1 S9", 1),  # X1 beats X2
        ("SQ SJ SA", 2),  # no trump: the jack stays in its suit, below the queen
        ("H7 H8 DK", 1),  # off-suit cards never win
    ],
    ids=["joker-beats-suit", "x1-beats-x2", "jack-in-suit", "off-suit"],
)
def test_rank_no_trump_mulot(trick: str, expected: int) -> None:
    """charlemagne.rank.no-trump / charlemagne.trick.winner in a Mulot."""
    assert winner("standard", None, trick) == expected


def test_trick_winner_petit_bar_beaten_by_le_bar() -> None:
    """charlemagne.trick.winner: spades trumps, C8 CA CJ SJ: CJ (le petit bar) trumps, SJ (le bar) beats it."""
    assert winner("standard", "S", "C8 CA CJ SJ") == 3


def test_trick_winner_maine_nine_of_trumps_beats_big_jack() -> None:
    """charlemagne.trick.winner: Maine, clubs trumps, CJ C10 C8 C9: the nine of trumps wins."""
    assert winner("maine", "C", "CJ C10 C8 C9") == 3


# === following (charlemagne.play.follow, joker duties) =========================================


@pytest.mark.parametrize(
    ("variant", "trump", "hand", "so_far", "expected"),
    [
        # le petit bar DJ is a trump with hearts: on a diamond lead only D7 follows
        ("standard", "H", "DJ D7 S8", "DA", {"D7"}),
        # on a heart (trump) lead, DJ is the only trump held: it must be played
        ("standard", "H", "DJ S8 C9", "H7", {"DJ"}),
        # a joker led leads trumps
        ("standard", "H", "DJ S8", "X2", {"DJ"}),
        # le petit bar led leads trumps too: a hand with diamonds but no trump plays anything
        ("standard", "H", "D7 S8", "DJ", {"D7", "S8"}),
        # void in the suit led: any card, no duty to trump
        ("standard", "S", "H7 CJ D9", "C8", {"H7", "CJ", "D9"}),
        # Maine: HJ is the Little Jack with diamonds trumps, not a heart
        ("maine", "D", "HJ H8 S7", "HA", {"H8"}),
        ("maine", "D", "HJ H8 S7", "D8", {"HJ"}),
        # Maine: the 9 of trumps led leads trumps
        ("maine", "D", "D7 C8", "D9", {"D7"}),
        # Maine no trump (Le Petit): HJ is a heart
        ("maine", None, "HJ S7", "HA", {"HJ"}),
    ],
    ids=[
        "petit-bar-not-a-diamond",
        "petit-bar-on-trump-lead",
        "joker-leads-trumps",
        "petit-bar-leads-trumps",
        "void-any-card",
        "maine-little-jack-not-a-heart",
        "maine-little-jack-on-trump-lead",
        "maine-nine-leads-trumps",
        "maine-no-trump-jack-in-suit",
    ],
)
def test_play_follow(variant: str, trump: str | None, hand: str, so_far: str, expected: set[str]) -> None:
    """charlemagne.play.follow: follow suit if able, counting jokers and le petit bar as trumps."""
    assert legal(variant, trump, hand, so_far) == expected


@pytest.mark.parametrize(
    ("hand", "so_far", "expected"),
    [
        ("X1 H7", "SA", {"X1"}),  # void in spades, holds a joker: the joker
        ("S7 X1", "SA", {"S7"}),  # can follow: must follow, the joker is no way out
        ("X1 X2 H7", "SA", {"X1", "X2"}),  # both jokers: either one
        ("H7 D8", "SA", {"H7", "D8"}),  # no spade, no joker: anything
    ],
    ids=["void-must-joker", "follow-first", "either-joker", "free"],
)
def test_play_joker_void(hand: str, so_far: str, expected: set[str]) -> None:
    """charlemagne.play.joker-void: in a Mulot, a player who cannot follow and holds a joker plays one."""
    assert legal("standard", None, hand, so_far) == expected


@pytest.mark.parametrize(
    ("hand", "so_far", "expected"),
    [
        ("X1 S7", "X2", {"X1"}),  # the other joker is called out
        ("S7 H8", "X2", {"S7", "H8"}),  # no joker: anything
        ("S7 H8", "X2 X1", {"S7", "H8"}),  # both jokers already in the trick: anything
    ],
    ids=["called", "free", "both-out"],
)
def test_play_joker_led(hand: str, so_far: str, expected: set[str]) -> None:
    """charlemagne.play.joker-led: a led joker calls out the other; the others play any card."""
    assert legal("standard", None, hand, so_far) == expected


# === the auction (charlemagne.auction.*) ==========================================================


def test_auction_higher_standard_ladder() -> None:
    """charlemagne.auction.higher: Five after Six does not overcall; Mulot over Eight does."""
    state, _ = start(dealer=0)
    assert bids(state, "6", "5", "8", "mulot") == ["CHARLEMAGNE-BID-NOT-HIGHER"]
    # seat 1 Six, seat 2 Five (no), seat 3 Eight, seat 0 Mulot: Mulot by seat 0
    assert (state.contract.name, state.bidder) == ("mulot", 0)


def test_auction_higher_maine_suits_do_not_rank() -> None:
    """charlemagne.auction.higher: Maine 5S after 5H does not overcall; alone is not a higher bid."""
    state, _ = start("maine", dealer=0)
    found = bids(state, "5H", "5S", "charlemagne D", "charlemagne S alone")
    assert found == ["CHARLEMAGNE-BID-NOT-HIGHER", "CHARLEMAGNE-BID-NOT-HIGHER"]
    assert (state.contract.name, state.bidder) == ("charlemagne D", 3)


def test_auction_order_written_seat() -> None:
    """charlemagne.auction.order: dealer 2, the first call is seat 3's."""
    state, _ = start(dealer=2)
    assert act(state, "bid", "pass", seat=0) == ["CHARLEMAGNE-AUCTION-ORDER"]


def test_auction_all_pass_redeal_scores_nothing() -> None:
    """charlemagne.auction.all-pass: four passes end the deal; everybody scores 0."""
    state, _ = start(dealer=1)
    assert bids(state, "pass", "pass", "pass", "pass") == []
    assert state.phase == Phase.DONE
    assert RULES.score(state) == [0, 0, 0, 0]


def test_auction_all_pass_then_cards() -> None:
    """charlemagne.auction.all-pass: cards after four passes are reported once."""
    state, _ = start(dealer=1)
    bids(state, "pass", "pass", "pass", "pass")
    assert act(state, "play", "S8") == ["CHARLEMAGNE-ALL-PASS-PLAYED"]
    assert act(state, "play", "S9") == []


def test_auction_dealer_forced_standard_option() -> None:
    """charlemagne.auction.dealer-forced: with all_pass=dealer_forced_5, the dealer may not pass after three passes."""
    state, _ = start(dealer=3, all_pass="dealer_forced_5")
    assert bids(state, "pass", "pass", "pass", "pass") == ["CHARLEMAGNE-DEALER-FORCED"]
    assert RULES.score(state) is None
    state, _ = start(dealer=3, all_pass="dealer_forced_5")
    assert bids(state, "pass", "pass", "pass", "5") == []
    assert (state.contract.name, state.bidder) == ("5", 3)


def test_auction_dealer_forced_maine() -> None:
    """charlemagne.auction.dealer-forced: Maine, after 4H and passes the dealer must bid Five or more."""
    state, _ = start("maine", dealer=0)
    assert bids(state, "4H", "pass", "pass", "pass") == ["CHARLEMAGNE-DEALER-FORCED"]
    state, _ = start("maine", dealer=0)
    assert bids(state, "4H", "pass", "pass", "4S") == ["CHARLEMAGNE-DEALER-FORCED"]
    state, _ = start("maine", dealer=0)
    assert bids(state, "4H", "pass", "pass", "le_petit") == []
    # an earlier Five releases the dealer
    state, _ = start("maine", dealer=0)
    assert bids(state, "5H", "pass", "pass", "pass") == []


def test_auction_once_extra_call() -> None:
    """charlemagne.auction.once: a fifth call is one too many."""
    state, _ = start(dealer=0)
    bids(state, "pass", "6", "pass", "pass")
    assert act(state, "bid", "7") == ["CHARLEMAGNE-AUCTION-EXTRA"]


# === exchanges and trump (charlemagne.exchange.*, charlemagne.trump.*) ==========================


def test_exchange_kitty_five_discards_two_then_trump() -> None:
    """charlemagne.exchange.kitty: seat 1 bids Five, takes HK C7 and discards two; then names trump."""
    state, _ = start(dealer=0)
    bids(state, "5", "pass", "pass", "pass")
    assert hand(state, 1) == {"SQ", "H8", "HQ", "HK", "D9", "D10", "DJ", "C7", "C8", "CK"}
    assert act(state, "discard", "C7") == []
    assert act(state, "discard", "C8") == []
    assert state.phase == Phase.TRUMP
    assert act(state, "trump", "H") == []
    # charlemagne.play.lead: after Five the player on the bidder's left leads
    assert RULES.turn(state) is not None and RULES.turn(state).seat == 2  # type: ignore[union-attr]


def test_exchange_discard_size_one_short() -> None:
    """charlemagne.exchange.discard-size: one card discarded, then trump named: one card short."""
    state, _ = start(dealer=0)
    bids(state, "5", "pass", "pass", "pass")
    act(state, "discard", "C7")
    assert act(state, "trump", "H") == ["CHARLEMAGNE-DISCARD-SIZE"]


def test_exchange_discard_size_one_too_many() -> None:
    """charlemagne.exchange.discard-size: a third discard after Five."""
    state, _ = start(dealer=0)
    bids(state, "5", "pass", "pass", "pass")
    act(state, "discard", "C7")
    act(state, "discard", "C8")
    assert act(state, "discard", "D9") == ["CHARLEMAGNE-DISCARD-SIZE"]


def test_exchange_held() -> None:
    """charlemagne.exchange.held: seat 1 discards SA, which seat 2 holds."""
    state, _ = start(dealer=0)
    bids(state, "5", "pass", "pass", "pass")
    assert act(state, "discard", "SA") == ["CHARLEMAGNE-DISCARD-NOT-HELD"]


def test_exchange_charlemagne_kitty_card_and_three_discards() -> None:
    """charlemagne.exchange.charlemagne: seat 0 takes HK C7 and X1 from seat 2, discards three, leads."""
    state, _ = start(dealer=3)
    bids(state, "charlemagne", "pass", "pass", "pass")
    assert RULES.turn(state).seat == 2  # type: ignore[union-attr]  # the partner passes the card
    assert act(state, "partner_card", "X1") == []
    assert len(hand(state, 0)) == 11
    assert [act(state, "discard", c) for c in ("S7", "S9", "C7")] == [[], [], []]
    assert act(state, "trump", "D") == []
    # charlemagne.play.lead: the Charlemagne bidder leads; charlemagne.lone.out: seat 2 does not play
    assert RULES.turn(state).seat == 0  # type: ignore[union-attr]
    act(state, "play", "X1")
    assert RULES.turn(state).seat == 1  # type: ignore[union-attr]
    act(state, "play", "D9")
    assert RULES.turn(state).seat == 3  # type: ignore[union-attr]
    act(state, "play", "D7")
    assert state.tricks[0].seats == [0, 1, 3]


def test_exchange_charlemagne_card_missing() -> None:
    """charlemagne.exchange.charlemagne: the partner's card is required."""
    state, _ = start(dealer=3)
    bids(state, "charlemagne", "pass", "pass", "pass")
    assert act(state, "discard", "S7") == ["CHARLEMAGNE-CARD-MISSING"]


def test_exchange_gros_charlemagne_kitty_or_card() -> None:
    """charlemagne.exchange.gros-charlemagne: by the card, one discard; by the kitty, two."""
    state, _ = start(dealer=3)
    bids(state, "gros_charlemagne", "pass", "pass", "pass")
    assert act(state, "partner_card", "X1") == []
    assert act(state, "discard", "S7") == []
    assert state.phase == Phase.TRUMP
    state, _ = start(dealer=3)
    bids(state, "gros_charlemagne", "pass", "pass", "pass")
    assert act(state, "discard", "HK") == []  # discarding a kitty card: he took the kitty
    assert state.phase == Phase.DISCARD
    assert act(state, "discard", "S7") == []
    assert state.phase == Phase.TRUMP
    assert hand(state, 0) == {"S9", "H7", "H10", "DK", "DA", "CQ", "C7", "X2"}


def test_exchange_gros_charlemagne_neither() -> None:
    """charlemagne.exchange.gros-charlemagne: neither kitty nor card: reported unless the option allows it."""
    state, _ = start(dealer=3)
    bids(state, "gros_charlemagne", "pass", "pass", "pass")
    assert act(state, "trump", "S") == ["CHARLEMAGNE-EXCHANGE-MISSING"]
    state, _ = start(dealer=3, gros_charlemagne_allow_no_exchange=True)
    bids(state, "gros_charlemagne", "pass", "pass", "pass")
    assert act(state, "trump", "S") == []


def test_exchange_none_in_mulot() -> None:
    """charlemagne.exchange.none / charlemagne.trump.none: a Mulot has no discard, no card, no trump."""
    state, _ = start(dealer=3)
    bids(state, "mulot", "pass", "pass", "pass")
    assert act(state, "discard", "S7") == ["CHARLEMAGNE-DISCARD-NOT-ALLOWED"]
    assert act(state, "partner_card", "X1") == ["CHARLEMAGNE-CARD-NOT-ALLOWED"]
    assert act(state, "trump", "H") == ["CHARLEMAGNE-TRUMP-NOT-ALLOWED"]
    # the kitty is not taken: seat 0 keeps his eight cards
    assert hand(state, 0) == {"S7", "S9", "H7", "H10", "DK", "DA", "CQ", "X2"}


def test_trump_missing() -> None:
    """charlemagne.trump.named: after Six and the discard, a card before any trump is named."""
    state, _ = start(dealer=0)
    bids(state, "6", "pass", "pass", "pass")
    act(state, "discard", "C7")
    act(state, "discard", "C8")
    # seat 2, on the bidder's left, leads
    assert act(state, "play", "SK") == ["CHARLEMAGNE-TRUMP-MISSING"]


def test_trump_maine_is_named_with_the_bid() -> None:
    """charlemagne.trump.none: a Maine trump comes with the bid; a trump field is not allowed."""
    state, _ = start("maine", dealer=0)
    bids(state, "5H", "pass", "pass", "pass")
    assert state.trump == 1
    assert act(state, "trump", "H") == ["CHARLEMAGNE-TRUMP-NOT-ALLOWED"]
    # charlemagne.play.lead: in the Maine game the bidder leads
    assert RULES.turn(state).seat == 1  # type: ignore[union-attr]


# === the Maine lone defender (charlemagne.defence.*) ==============================================


def maine_alone(**options: Any) -> CharlemagneState:
    """Maine, dealer 3: seat 0 bids Charlemagne spades alone, gets SJ from seat 2, discards C7."""
    state, _ = start("maine", dealer=3, **options)
    bids(state, "charlemagne S alone", "pass", "pass", "pass")
    assert act(state, "partner_card", "SJ") == []  # seat 2 passes SJ
    assert act(state, "discard", "C7") == []
    assert state.phase == Phase.DEFENCE
    return state


def test_exchange_maine_alone() -> None:
    """charlemagne.exchange.alone: seat 0 gets SJ from seat 2 and discards one; seat 2 is out."""
    state = maine_alone()
    assert hand(state, 0) == {"S9", "SJ", "SK", "SA", "HK", "HA", "D7", "C8"}
    assert not state.active(2)


def test_defence_left_of_bidder_first() -> None:
    """charlemagne.defence.alone: seat 1 (bidder's left) answers first; seat 3 may not jump in."""
    state = maine_alone()
    assert RULES.turn(state).seat == 1  # type: ignore[union-attr]
    assert act(state, "defence", "alone", seat=3) == ["CHARLEMAGNE-DEFENCE-ORDER"]


def test_defence_either_and_two_card_tricks() -> None:
    """charlemagne.defence.alone (option either): seat 3 goes alone first; tricks then have 2 cards."""
    state = maine_alone(maine_lone_defender_priority="either")
    assert act(state, "defence", "alone", seat=3) == []
    assert act(state, "defender_card", "CJ") == []  # seat 1 passes CJ to seat 3
    assert act(state, "defender_discard", "S7") == []
    assert state.phase == Phase.PLAY
    assert [s for s in range(4) if state.active(s)] == [0, 3]
    act(state, "play", "S9")
    act(state, "play", "S8")
    # charlemagne.lone.out / charlemagne.trick.size: a trick of two cards, won by S9
    assert (state.tricks[0].seats, state.tricks[0].winner) == ([0, 3], 0)


def test_defence_only_one_defender() -> None:
    """charlemagne.defence.alone: after seat 1 goes alone, seat 3 may not."""
    state = maine_alone()
    assert act(state, "defence", "alone") == []
    assert act(state, "defence", "alone", seat=3) == ["CHARLEMAGNE-DEFENCE-EXTRA"]


def test_defence_not_after_other_contracts() -> None:
    """charlemagne.defence.alone: answers only follow a Maine Charlemagne alone."""
    state, _ = start("maine", dealer=3)
    bids(state, "charlemagne S", "pass", "pass", "pass")
    assert act(state, "defence", "alone") == ["CHARLEMAGNE-DEFENCE-NOT-ALLOWED"]


def test_defence_exchange_card_missing() -> None:
    """charlemagne.defence.exchange: the lone defender's partner passes him a card before the play."""
    state = maine_alone()
    act(state, "defence", "alone")
    assert act(state, "play", "S9") == ["CHARLEMAGNE-CARD-MISSING"]


# === whole deals: play and scores (charlemagne.play.*, charlemagne.score.*) =====================

# Standard, dealer 0: seat 2 bids Six, takes HK C7, discards C7 D8, hearts trump; seat 3 leads.
SIX = Layout(
    tricks=[
        (3, "CJ CQ CK CA"),  # CA wins: seat 2
        (2, "X1 C9 H7 H8"),
        (2, "HA C10 H10 HQ"),
        (2, "HJ D7 X2 DJ"),  # X2 beats le bar: seat 0
        (0, "S7 SQ SA S8"),  # SA: seat 2
        (2, "SK SJ S9 C8"),
        (2, "HK DQ DK D9"),
        (2, "H9 S10 DA D10"),
    ],
    extra={2: "C7 D8"},
    taken={2: "HK C7"},
)


def test_score_six_made_with_every_trick() -> None:
    """charlemagne.score.standard: Six made with 8 tricks scores 6 to seats 0 and 2, no more."""
    deal = deal_of(
        SIX, 0, [6, 0, 6, 0], kitty="HK C7", auction=["pass", "6", "pass", "pass"], discard="C7 D8", trump="H"
    )
    assert codes(record(deal)) == []
    deal["result"] = {"scores": [8, 0, 8, 0]}
    deal["totals"] = [8, 0, 8, 0]
    found = diagnostics(record(deal))
    assert [(d.code, d.expected) for d in found] == [("SCORE-MISMATCH", "+6 +0 +6 +0")]


def test_play_lead_written_leader_checked() -> None:
    """charlemagne.play.lead: after Six by seat 2, seat 3 leads; a trick saying seat 2 led is wrong."""
    deal = deal_of(
        SIX, 0, [6, 0, 6, 0], kitty="HK C7", auction=["pass", "6", "pass", "pass"], discard="C7 D8", trump="H"
    )
    deal["tricks"][0]["leader"] = 2
    assert "PLAY-LEADER-MISMATCH" in codes(record(deal))


def test_score_tricks_written_on_the_sheet() -> None:
    """charlemagne.score.tricks: the sheet's tricks for the bidding side: 8, not 7."""
    deal = deal_of(
        SIX, 0, [6, 0, 6, 0], kitty="HK C7", auction=["pass", "6", "pass", "pass"], discard="C7 D8", trump="H"
    )
    deal["result"]["tricks"] = 7
    assert codes(record(deal)) == ["CHARLEMAGNE-TRICKS-MISMATCH"]


# Standard Mulot by seat 3 (dealer 1); seat 1 out; order 3 -> 0 -> 2; kitty DA CA unused.
MULOT = Layout(
    tricks=[
        (3, "X2 X1 S9"),  # the led X2 calls out X1: seat 0
        (0, "H9 H10 H8"),  # H10: seat 2
        (2, "C9 C8 C10"),  # C10: seat 0
        (0, "S10 SJ S8"),  # SJ: seat 2
        (2, "D7 D8 HQ"),  # nobody else has a diamond: D8, seat 3, the Mulot is lost
        (3, "S7 SQ SK"),
        (2, "HJ H7 HK"),
        (0, "CJ CQ C7"),
    ],
    out=frozenset({1}),
    extra={1: "SA HA D9 D10 DJ DQ DK CK"},
)


def test_score_mulot_failed_and_lone_tricks() -> None:
    """charlemagne.score.standard / charlemagne.lone.out: a lost Mulot gives the opponents 7 each."""
    deal = deal_of(MULOT, 1, [7, 0, 7, 0], kitty="DA CA", auction=["pass", "mulot", "pass", "pass"])
    assert codes(record(deal)) == []


def test_trick_size_lone_hand() -> None:
    """charlemagne.trick.size: in a Mulot the tricks have three cards; four is reported and stops the replay."""
    deal = deal_of(MULOT, 1, [7, 0, 7, 0], kitty="DA CA", auction=["pass", "mulot", "pass", "pass"])
    deal["tricks"][0] = {"cards": "X2 X1 S9 SA"}
    assert codes(record(deal)) == ["PLAY-TRICK-SIZE"]


def test_play_held_out_of_play_hand() -> None:
    """charlemagne.play.held: in a Mulot the partner's hand is out of play; his SA cannot be played."""
    deal = deal_of(MULOT, 1, [7, 0, 7, 0], kitty="DA CA", auction=["pass", "mulot", "pass", "pass"])
    deal["tricks"][0] = {"cards": "X2 X1 SA"}
    found = [d for d in diagnostics(record(deal)) if d.code == "PLAY-NOT-HELD"]
    assert found and "out of play" in found[0].message


# Standard Gros Charlemagne by seat 2 (dealer 0), kitty SQ D7 taken, discards D7 C7, spades trump,
# seat 0 out; order 2 -> 3 -> 1.
GROS = Layout(
    tricks=[
        (2, "X1 S7 S9"),
        (2, "X2 S8 S10"),
        (2, "SJ C10 CK"),
        (2, "CJ H9 DK"),  # CJ, le petit bar, leads trumps: seat 3 keeps CQ
        (2, "SA DJ HQ"),
        (2, "SK H10 CA"),
        (2, "SQ DQ DA"),
        (2, "HA CQ HK"),
    ],
    out=frozenset({0}),
    extra={0: "H7 H8 HJ D8 D9 D10 C8 C9", 2: "D7 C7"},
    taken={2: "SQ D7"},
)


def test_score_gros_charlemagne_wins_the_game() -> None:
    """charlemagne.score.standard / charlemagne.score.game: made, it scores 32 and the game ends."""
    deal = deal_of(
        GROS,
        0,
        [32, 0, 32, 0],
        kitty="SQ D7",
        auction=["7", "gros_charlemagne", "pass", "pass"],
        discard="D7 C7",
        trump="S",
    )
    assert codes(record(deal)) == []
    table, _ = RULES.table(CharlemagneOptions(), 4)
    assert table is not None
    assert RULES.game_over(table, [32, 0, 32, 0])
    assert not RULES.game_over(table, [31, 28, 31, 28])


# Maine, dealer 1: seat 1 bids Charlemagne spades alone, gets SA from seat 3, discards C7; seat 2
# passes, seat 0 goes alone, gets CA from seat 2, discards H7. Tricks of two: 1 -> 0.
MAINE_ALONE = Layout(
    tricks=[(1, t) for t in ("S9 S8", "SJ S10", "CJ DQ", "SA CK", "SK HQ", "SQ DK", "HA HK", "DA CA")],
    out=frozenset({2, 3}),
    extra={1: "C7", 0: "H7", 3: "S7 SA H8 H9 H10 HJ D7 D8", 2: "D9 D10 DJ C8 C9 C10 CQ CA"},
    taken={1: "SA", 0: "CA"},
)


def maine_alone_deal(scores: list[int]) -> dict[str, Any]:
    return deal_of(
        MAINE_ALONE,
        1,
        scores,
        auction=["3C", "pass", "4H", "charlemagne S alone"],
        partner_card="SA",
        discard="C7",
        defence=["pass", "alone"],
        defender_card="CA",
        defender_discard="H7",
    )


def test_score_maine_charlemagne_decides_the_game() -> None:
    """charlemagne.score.maine: a made Charlemagne scores the target (21) to the bidding side."""
    assert codes(record(maine_alone_deal([0, 21, 0, 21]), variant="maine")) == []
    # with the option maine_target = 32 the same deal scores 32
    assert codes(record(maine_alone_deal([0, 32, 0, 32]), variant="maine", maine_target=32)) == []
    table, _ = RULES.table(CharlemagneOptions(variant="maine"), 4)
    assert table is not None
    assert RULES.game_over(table, [21, 0, 21, 0])
    assert not RULES.game_over(table, [20, 14, 20, 14])


def hcnt_deal() -> dict[str, Any]:
    """The Maine High Card No Trump deal below (HCNT), made: a partnership plays, all four seats in."""
    return deal_of(HCNT, 3, [8, 0, 8, 0], auction=["4D", "pass", "high_card_no_trump", "pass"])


def test_play_knock_changes_nothing() -> None:
    """charlemagne.play.knock: a knock after card 1 of trick 3 is kept; one at trick 9 is misplaced."""
    deal = hcnt_deal()
    deal["knocks"] = [{"seat": 3, "trick": 3, "after": 1}]
    assert codes(record(deal, variant="maine")) == []
    table, _ = RULES.table(CharlemagneOptions(variant="maine"), 4)
    assert table is not None
    *_, (_, _, state) = steps(RULES, table, CharlemagneDeal.model_validate(deal))
    assert state.knocks == [(3, 3, 1)]
    assert RULES.trick_notes(state, 3) == [(1, "knock(3)")]  # shown after the first card of trick 3
    deal["knocks"] = [{"seat": 3, "trick": 9, "after": 0}]
    assert codes(record(deal, variant="maine")) == ["CHARLEMAGNE-KNOCK-PLACE"]


@pytest.mark.parametrize(
    ("seat", "why"),
    [
        (3, "seat 3 takes no part in the play: its partner, seat 1, plays alone"),
        (2, "seat 2 takes no part in the play: its partner, seat 0, plays alone"),
        (1, "seat 1 plays alone: its partner, seat 3, has set his hand aside"),
        (0, "seat 0 plays alone: its partner, seat 2, has set his hand aside"),
    ],
)
def test_only_a_player_whose_partner_plays_may_knock(seat: int, why: str) -> None:
    """charlemagne.play.knock: the source's knock is "a signal to his partner ... to lead", so a
    player out of the play (a lone hand's partner, who "will take no part in the hand") and a lone
    hand (whose partner is out) may not knock. In MAINE_ALONE both sides go alone: nobody may. The
    knock changes no rule: the deal is still scored."""
    deal = maine_alone_deal([0, 21, 0, 21])
    deal["knocks"] = [{"seat": seat, "trick": 3, "after": 1}]
    found = diagnostics(record(deal, variant="maine"))
    assert [(d.code, d.rule, d.location.path) for d in found] == [
        ("CHARLEMAGNE-KNOCK-SEAT", "charlemagne.play.knock", "deals[0].knocks[0]")
    ]
    assert why in found[0].message


# Maine High Card No Trump by seat 2 (dealer 3): every trick, led by seat 2; order 2 -> 3 -> 0 -> 1.
HCNT = Layout(
    tricks=[
        (2, t)
        for t in (
            "SA S7 S10 S8",
            "SK H7 SJ S9",
            "SQ H8 CQ C10",
            "HA D7 HJ H9",
            "HK D8 HQ H10",
            "DA C7 DJ D9",
            "DK C8 DQ D10",
            "CA C9 CK CJ",
        )
    ]
)


def test_score_maine_high_card_no_trump() -> None:
    """charlemagne.score.maine: High Card No Trump made (all eight, no trump) scores 8."""
    assert codes(record(hcnt_deal(), variant="maine")) == []


def test_score_made_needs_every_trick_for_high_card_no_trump() -> None:
    """charlemagne.score.made: seat 1 holds CA and takes the last trick: HCNT fails, opponents 8."""
    layout = Layout(tricks=[*HCNT.tricks[:7], (2, "CK C9 CJ CA")])
    deal = deal_of(layout, 3, [0, 8, 0, 8], auction=["4D", "pass", "high_card_no_trump", "pass"])
    assert codes(record(deal, variant="maine")) == []


# === claims (charlemagne.play.claim, charlemagne.play.claim-sure) ==================================

# Standard, options dealer_forced_5 + allow_early_claim, dealer 1: the dealer bids Five after three
# passes, takes H8 C9, discards S7 H7, diamonds trump; seat 2 leads; six tricks, then a claim.
CLAIMED = Layout(
    tricks=[
        (2, "H9 HA HJ H8"),  # HJ is le petit bar with diamonds: seat 0 trumps
        (0, "SQ SA S10 S8"),
        (1, "DA D7 D8 D9"),
        (1, "DJ C7 DK DQ"),
        (1, "SK C10 S9 SJ"),
        (1, "CA CJ CK C8"),
    ],
    extra={0: "X1 CQ", 1: "D10 C9 S7 H7", 2: "H10 HQ", 3: "X2 HK"},
    taken={1: "H8 C9"},
)


def claimed_deal(seat: int, tricks: int, scores: list[int]) -> dict[str, Any]:
    return deal_of(
        CLAIMED,
        1,
        scores,
        kitty="H8 C9",
        auction=["pass", "pass", "pass", "5"],
        discard="S7 H7",
        trump="D",
        claim={"seat": seat, "tricks": tricks},
    )


def test_claim_sure_is_accepted() -> None:
    """charlemagne.play.claim-sure: seat 0 holds X1 CQ; with seat 1 to lead D10 or C9, one of the two is
    sure for seats 0 and 2 (X1 wins a trick), two are not (X2 can trump the club). Bidders: 5 + 1 = 6."""
    options = {"all_pass": "dealer_forced_5", "allow_early_claim": True}
    assert codes(record(claimed_deal(0, 1, [0, 5, 0, 5]), **options)) == []
    assert codes(record(claimed_deal(0, 0, [0, 5, 0, 5]), **options)) == []  # a concession is fine
    assert codes(record(claimed_deal(0, 2, [0, 5, 0, 5]), **options)) == ["CHARLEMAGNE-CLAIM-WRONG"]


def test_claim_after_a_card_not_held_is_not_searched() -> None:
    """charlemagne.play.claim-sure: seat 0 plays HK, which seat 3 holds, in the sixth trick, and
    keeps C8: the hands at the claim are not what the seats hold, so the claim of two (wrong with
    the hands written) is not searched; the card not held is the deal's one problem."""
    options = {"all_pass": "dealer_forced_5", "allow_early_claim": True}
    deal = claimed_deal(0, 2, [0, 5, 0, 5])
    deal["tricks"][-1] = {**deal["tricks"][-1], "cards": "CA CJ CK HK"}
    assert codes(record(deal, **options)) == ["PLAY-NOT-HELD"]


def test_claim_needs_the_option() -> None:
    """charlemagne.play.claim: without allow_early_claim every trick is played; the claim is reported."""
    assert codes(record(claimed_deal(0, 1, [0, 5, 0, 5]), all_pass="dealer_forced_5")) == [
        "CHARLEMAGNE-CLAIM-NOT-ALLOWED"
    ]


def test_trick_count_without_claim() -> None:
    """charlemagne.trick.count: six tricks and no claim: the deal is incomplete."""
    deal = claimed_deal(0, 1, [0, 5, 0, 5])
    del deal["claim"]
    assert codes(record(deal, all_pass="dealer_forced_5", allow_early_claim=True)) == ["DEAL-INCOMPLETE"]


# === the deal (charlemagne.deal.*, charlemagne.deck, charlemagne.players) =======================


def test_deal_sizes_maine_has_no_kitty() -> None:
    """charlemagne.deal.sizes: a Maine deal with a kitty is wrong (and two cards are then dealt twice)."""
    deal = {"dealer": 0, "hands": MAINE_HANDS, "kitty": "S7 S8", "auction": ["pass"] * 3 + ["5S"]}
    found = codes(record(deal, variant="maine"))
    assert found[:2] == ["DEAL-KITTY-SIZE", "DEAL-DUPLICATE-CARD"]


def test_deck_unknown_joker_in_maine() -> None:
    """charlemagne.deck: X1 is not a card of the 32-card Maine deck."""
    hands = [MAINE_HANDS[0].replace("S9", "X1"), *MAINE_HANDS[1:]]
    assert codes(record({"dealer": 0, "hands": hands}, variant="maine")) == ["CARD-UNKNOWN"]


def test_players_four() -> None:
    """charlemagne.players: Charlemagne is played by four."""
    data = record({"dealer": 0, "hands": STD_HANDS, "kitty": STD_KITTY})
    data["players"] = NAMES[:3]
    assert codes(data) == ["RECORD-PLAYERS"]


def test_deal_status_annulled_is_not_a_rule() -> None:
    """charlemagne.deal.status: no rule throws a Charlemagne deal in."""
    deal = {"dealer": 0, "hands": STD_HANDS, "kitty": STD_KITTY, "status": "annulled"}
    assert codes(record(deal)) == ["CHARLEMAGNE-ANNULLED"]


def test_an_annulled_deal_with_its_play_is_reported_once() -> None:
    """charlemagne.deal.status: the status is the fault; the auction and play after it are not
    replayed, and not reported as if everybody had passed."""
    deal = {**claimed_deal(0, 1, [0, 5, 0, 5]), "status": "annulled"}
    deal.pop("result")  # an annulled deal scores nothing
    deal.pop("totals", None)
    assert codes(record(deal)) == ["CHARLEMAGNE-ANNULLED"]


def test_calls_of_the_other_variant_are_unknown() -> None:
    """charlemagne.auction.calls: a Maine bid in a standard record, a suitless Charlemagne in a Maine one."""
    deal = {"dealer": 0, "hands": STD_HANDS, "kitty": STD_KITTY, "auction": ["5H"]}
    assert codes(record(deal)) == ["RECORD-UNKNOWN-CALL"]
    deal = {"dealer": 0, "hands": MAINE_HANDS, "auction": ["charlemagne"]}
    assert codes(record(deal, variant="maine")) == ["RECORD-UNKNOWN-CALL"]


def test_call_spellings() -> None:
    """charlemagne.auction.calls: spellings people type read as the canonical names."""
    deal = CharlemagneDeal.model_validate(
        {
            "dealer": 0,
            "hands": [],
            "auction": ["Five", "Petit Charles", "gros-mulot", "5 hearts", "Charlemagne h alone"],
        }
    )
    assert [c.call for c in deal.auction] == ["5", "charlemagne", "gros_mulot", "5H", "charlemagne H alone"]


# === the fast path (recordkit.quick, charlemagne.quick) ==========================================


def six_deal() -> dict[str, Any]:
    """The clean Six of `SIX` as a deal of a record."""
    return deal_of(
        SIX, 0, [6, 0, 6, 0], kitty="HK C7", auction=["pass", "6", "pass", "pass"], discard="C7 D8", trump="H"
    )


def test_fast_path_takes_the_clean_hand_written_deals() -> None:
    """charlemagne.score: clean deals with stated leaders, a knock, a lone defence and a claim are
    proven clean without the full replay (and `codes` checks the full replay agrees)."""
    deal = six_deal()
    deal["result"]["tricks"] = 8
    deal["tricks"][0] = {"cards": "CJ CQ CK CA", "leader": 3, "winner": 2}
    assert clean_deals(record(deal)) == 1
    knocked = hcnt_deal()
    knocked["knocks"] = [{"seat": 3, "trick": 3, "after": 1}, {"seat": 1, "trick": 8, "after": 2}]
    assert clean_deals(record(knocked, variant="maine")) == 1
    options = {"all_pass": "dealer_forced_5", "allow_early_claim": True}
    assert clean_deals(record(claimed_deal(0, 1, [0, 5, 0, 5]), **options)) == 1
    for data in (
        record(deal),
        record(knocked, variant="maine"),
        record(claimed_deal(0, 1, [0, 5, 0, 5]), **options),
    ):
        assert codes(data) == []


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"dealer": 4}, "RECORD-SEAT"),  # charlemagne.players: seats 0 to 3 deal
        ({"status": "annulled"}, "CHARLEMAGNE-ANNULLED"),  # charlemagne.deal.status, then the play
        ({"remark": "x"}, "RECORD-UNKNOWN-KEY"),
        ({"knocks": {}}, "RECORD-SCHEMA"),
        # charlemagne.play.knock: a trick of four cards has no place after its fifth
        ({"knocks": [{"seat": 2, "trick": 1, "after": 5}]}, "CHARLEMAGNE-KNOCK-PLACE"),
        ({"knocks": [{"seat": 4, "trick": 1, "after": 1}]}, "RECORD-SEAT"),
        # charlemagne.deck: D8 dealt to seat 2 and in the kitty, C7 to nobody; seat 2 discards D8 alone
        ({"kitty": "HK D8", "discard": "D8"}, "DEAL-DUPLICATE-CARD"),
        ({"result": {"scores": [6, 0, 6, 0], "tricks": 7}}, "CHARLEMAGNE-TRICKS-MISMATCH"),
        ({"trump": "hearts"}, None),  # a spelling the model reads: the full path, and nothing to report
    ],
    ids=[
        "dealer-seat",
        "annulled",
        "unknown-key",
        "knocks-not-a-list",
        "knock-place",
        "knock-seat",
        "dealt-twice",
        "tricks-noted",
        "spelling",
    ],
)
def test_fast_path_leaves_every_finding_to_the_full_replay(
    change: dict[str, Any], expected: str | None
) -> None:
    """charlemagne.players, charlemagne.deal.status, charlemagne.play.knock, charlemagne.deck,
    charlemagne.score.tricks: a clean Six with one thing changed is reported by the full replay, so the
    fast path must not accept it."""
    deal = {**six_deal(), **change}
    assert codes(record(deal))[:1] == ([expected] if expected else [])
    assert clean_deals(record(deal)) is None


def test_fast_path_all_pass_with_something_after_it() -> None:
    """charlemagne.auction.all-pass: four passes, then a value where no play is recorded."""
    deal = {"dealer": 0, "hands": STD_HANDS, "kitty": STD_KITTY, "auction": ["pass"] * 4}
    assert clean_deals(record(deal)) == 1
    for extra in (
        {"knocks": {}},
        {"knocks": 0},
        {"claim": {"seat": 0, "tricks": 8}},
        {"tricks": ["S7 SQ SK S8"]},
    ):
        assert codes(record({**deal, **extra})) != []


def test_fast_path_trick_size_with_a_lone_defender() -> None:
    """charlemagne.trick.size: with two players in the play, trick 7 written with three cards (seat 1
    leads HK and plays DA after seat 0's HA) and trick 8 with one (seat 0's CA): every card is held and
    legal and each seat plays eight, yet each trick has one card from each player in the play."""
    layout = Layout(
        tricks=[*MAINE_ALONE.tricks[:6], (1, "HK HA DA"), (0, "CA")],
        out=MAINE_ALONE.out,
        extra=MAINE_ALONE.extra,
        taken=MAINE_ALONE.taken,
    )
    deal = {**maine_alone_deal([21, 0, 21, 0]), "hands": layout.hands()}
    deal["tricks"] = [{"cards": cards, "leader": leader} for leader, cards in layout.tricks]
    assert codes(record(deal, variant="maine")) == ["PLAY-TRICK-SIZE", "PLAY-TRICK-SIZE"]


def test_fast_path_written_winner_checked() -> None:
    """charlemagne.trick.winner: the first trick of the Six says seat 3 won it; CA wins it for seat 2."""
    deal = six_deal()
    deal["tricks"][0] = {"cards": "CJ CQ CK CA", "leader": 3, "winner": 3}
    assert codes(record(deal)) == ["PLAY-WINNER-MISMATCH"]
