"""Joffre's fast path (`Ruleset.quick_deal`): a clean deal replayed straight from JSON.

It drives the same state through the same rule functions as the full replay (`auction.take_bid`
for each call, `play.set_trump` for the first card, `play.legal_mask` and `play.settle_trick` for
the cards, `scoring.deal_scores`), but reads the deal from parsed JSON without pydantic, builds
no action per card and writes no diagnostic. Whatever it does not cover (aliases, cards written
as objects, abandoned deals) or finds wrong returns None, and the full replay says what is wrong.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from recordkit.rules import fastread
from recordkit.rules.joffre.auction import speaker, take_bid
from recordkit.rules.joffre.cards import cards_for
from recordkit.rules.joffre.play import legal_mask, set_trump, settle_trick
from recordkit.rules.joffre.record import CALL_ALIASES, MAX_NUMBER, PASS, bid_name, bid_value
from recordkit.rules.joffre.scoring import deal_scores
from recordkit.rules.joffre.state import JoffreState, Phase
from recordkit.rules.values import Action, PlayedTrick, QuickDeal, Table

DEAL_KEYS = frozenset(
    {"dealer", "hands", "auction", "trump", "tricks", "status", "result", "totals", "comment", "time"}
)
TRUMPS = frozenset({"E", "F", "R", "G", "none"})
"""The trump as the deal model writes it (other spellings are re-spelt: the full path reads them)."""


def _canonical_calls() -> dict[str, int]:
    """Every call name the deal model keeps as written, with the value `compile` gives it."""
    names: dict[str, int] = {}
    for value in (PASS, *range(2, 2 * MAX_NUMBER + 2)):
        name = bid_name(value)
        if bid_value(name) == value and CALL_ALIASES.get(name, name) == name == name.strip().lower():
            names[name] = value
    return names


CALLS = _canonical_calls()


@cache
def card_ids(players: int) -> fastread.CardIds:
    """The canonical codes of the deck for this many players and their ids."""
    return {code: card for card, code in enumerate(cards_for(players).deck.codes)}


@cache
def card_bits(players: int) -> fastread.CardBits:
    """The canonical codes of the deck for this many players and their bitmasks."""
    return fastread.card_bits(card_ids(players))


@cache
def play_orders(players: int) -> tuple[tuple[int, ...], ...]:
    """For each leader, the seats in the order they play to a trick."""
    return tuple(tuple((leader + step) % players for step in range(players)) for leader in range(players))


def quick_deal(table: Table, deal: dict[str, Any], before: Sequence[int | float]) -> QuickDeal | None:
    """The deal's dealer, scores and final state if the full replay would find nothing in it;
    `before`, the running totals before the deal, is what the Kaiser cap looks at, as in `start`."""
    state = _dealt(table, deal)
    actions: list[Action] = []
    if state is None or not _auction(state, deal.get("auction", []), actions):
        return None
    tricks = deal.get("tricks", [])
    if state.phase == Phase.DONE:  # everybody passed: the cards are thrown in
        if tricks != []:
            return None
    elif not _play(state, tricks):
        return None
    state.before = list(before)
    return QuickDeal(state.dealer, deal_scores(state), state, actions)


def _dealt(table: Table, deal: dict[str, Any]) -> JoffreState | None:
    """The state after the deal: the right keys, a seat dealing, every hand of the right size,
    the whole deck once, a played deal, a trump written canonically if at all."""
    if not DEAL_KEYS.issuperset(deal) or deal.get("status", "played") != "played":
        return None
    if not fastread.notes_ok(deal):
        return None
    n = table.players
    dealer, hands, trump = deal.get("dealer"), deal.get("hands"), deal.get("trump")
    if type(dealer) is not int or not 0 <= dealer < n or type(hands) is not list or len(hands) != n:
        return None
    if trump is not None and (type(trump) is not str or trump not in TRUMPS):
        return None
    cards = cards_for(n)
    bits = card_bits(n)
    masks = [fastread.group_mask(bits, hand, cards.hand_size) for hand in hands]
    union = 0
    for mask in masks:
        if mask is None:
            return None
        union |= mask
    if union != (1 << len(cards.deck)) - 1:
        return None
    dealt: list[int] = masks  # type: ignore[assignment]
    return JoffreState(table, cards, dealer, list(dealt), list(dealt), written_trump=trump)


def _auction(state: JoffreState, written: Any, actions: list[Action]) -> bool:
    """One call from each player, each through the full path's handler, which ends the auction;
    the calls are kept with their seats, as the full replay has them (the speaker unless written)."""
    if type(written) is not list or len(written) != state.players:
        return False
    for index, entry in enumerate(written):
        call = fastread.call(entry)
        value = CALLS.get(call[0]) if call is not None else None
        if call is None or value is None:
            return False
        seat = speaker(state) if call[1] is None else call[1]
        action = Action("bid", value, seat, f"auction[{index}]")
        if take_bid(state, action):
            return False
        actions.append(action)
    return state.phase != Phase.AUCTION


def _play(state: JoffreState, tricks: Any) -> bool:
    """Every trick, card by card: held and following the nation led, the bidder's first card
    setting the trump; then who won it, and the leader and winner the record states, if any."""
    n = state.players
    cards = state.cards
    if type(tricks) is not list or len(tricks) != cards.hand_size:
        return False
    written = fastread.tricks(card_ids(n), tricks, n)
    if written is None:
        return False
    orders = play_orders(n)
    hands = state.hands
    for played, stated_leader, stated_winner in written:
        leader = state.leader
        if stated_leader not in (None, leader):
            return False
        if not state.tricks and set_trump(state, played[0], Action("play", played[0], path="tricks[0]")):
            return False
        seats = orders[leader]
        led = played[:1]  # all `legal_mask` reads of the trick so far, once a card is led
        for position, seat in enumerate(seats):
            card = played[position]
            hand = hands[seat]
            if not legal_mask(cards, hand, led if position else ()) >> card & 1:  # held, and legal
                return False
            hands[seat] = hand ^ (1 << card)
        trick = PlayedTrick(leader, played, list(seats))
        settle_trick(state, trick)
        if stated_winner not in (None, trick.winner):
            return False
    return state.phase == Phase.DONE
