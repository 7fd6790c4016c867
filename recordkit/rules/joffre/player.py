"""A Joffre player for the generator: bids the tricks its best nation as trump should take, leads
that nation to make it trump, and plays its cards with the Joffre's +5 and the Kaiser's −3 in mind.

Every choice is one of the legal actions the ruleset offers (`recordkit.players`).
"""

from __future__ import annotations

import random
from functools import cache

from recordkit.cards import ids_of
from recordkit.rules.cardplay import Sense, follow, lead
from recordkit.rules.joffre import play
from recordkit.rules.joffre.cards import NO_TRUMP, JoffreCards, cards_for
from recordkit.rules.joffre.record import bid_number, is_no_trump
from recordkit.rules.joffre.state import JoffreState, Phase
from recordkit.rules.values import Action

THREE_PLAYER_DECK = 30
PARTNER_TRICKS = 1.5
"""The tricks a bidder counts on from his partner in team play."""
AMBITION = {3: 1.0, 4: 0.6}
"""How far above his sure count a bidder rounds up, by the number of players: real tables bid to
the edge of what they make (ten tricks at three players leave more to gain)."""


@cache
def ranks(deck: int) -> tuple[int, ...]:
    """Each card's rank inside its nation, 0 (the unnumbered card) to 7 (the General), for a deck of
    this many cards (30 or 32)."""
    return tuple(int(code[1:]) for code in cards_for(3 if deck == THREE_PLAYER_DECK else 4).deck.codes)


def rank(cards: JoffreCards, card: int) -> int:
    """A card's rank inside its nation."""
    return ranks(len(cards.deck))[card]


def trump_tricks(cards: JoffreCards, hand: int, nation: int) -> float:
    """The tricks a hand should take with `nation` as trump: high and long trumps, side Generals."""
    tricks = 0.0
    held = ids_of(hand)
    trumps = [c for c in held if cards.nation[c] == nation]
    for card in trumps:
        r = rank(cards, card)
        tricks += 1.0 if r >= 6 else 0.7 if r >= 4 else 0.4
    tricks += 0.4 * max(0, len(trumps) - 3)
    for side in set(range(4)) - {nation}:
        ranks = sorted((rank(cards, c) for c in held if cards.nation[c] == side), reverse=True)
        if ranks and ranks[0] == 7:
            tricks += 0.8 + (0.5 if len(ranks) > 1 and ranks[1] == 6 else 0)
        elif ranks and ranks[0] == 6 and len(ranks) > 1:
            tricks += 0.3
    return tricks


def best_nation(cards: JoffreCards, hand: int) -> tuple[int, float]:
    """The nation that makes the best trump for this hand, and the tricks it should take."""
    return max(((n, trump_tricks(cards, hand, n)) for n in range(4)), key=lambda item: item[1])


def bid(state: JoffreState, choices: list[Action]) -> Action:
    """The tricks the hand should take (with a partner's share in team play), if that is a legal bid;
    the lowest bid when the opening is forced and the hand is worth less; else pass."""
    seat = choices[0].seat
    assert seat is not None
    _nation, tricks = best_nation(state.cards, state.hands[seat])
    if state.teams:
        tricks += PARTNER_TRICKS
    wanted = int(tricks + AMBITION[state.players])
    bids = [a for a in choices if a.value and not is_no_trump(a.value)]
    fitting = [a for a in bids if bid_number(a.value) <= wanted]
    if fitting:
        return max(fitting, key=lambda a: int(a.value))
    passes = [a for a in choices if not a.value]
    return passes[0] if passes else min(bids or choices, key=lambda a: int(a.value))


def _strength(state: JoffreState, card: int) -> float:
    """Rank in its nation, trumps above every other nation's cards."""
    return rank(state.cards, card) + (10 if state.cards.nation[card] == state.trump else 0)


def _value(state: JoffreState, card: int) -> float:
    """The Joffre's +5 and the Kaiser's −3 to the trick's winner."""
    return 5 if card == state.cards.joffre else -3 if card == state.cards.kaiser else 0


SENSE = Sense(
    winner=lambda state, cards: play.winning_index(state.cards, state.trump, cards),
    side=lambda state, seat: state.side(seat),
    value=_value,
    strength=_strength,
    size=lambda state: state.players,
    suit=lambda state, card: state.cards.nation[card],
    trump=lambda state: None if state.trump in (None, NO_TRUMP) else state.trump,
)


def card(state: JoffreState, seat: int, legal: list[int]) -> int:
    """The bidder's first card is the top of his best nation (it becomes trump); then `cardplay`."""
    trick = state.current
    if trick is not None and trick.cards:
        return follow(SENSE, state, seat, trick, legal)
    if not state.tricks:
        nation, _tricks = best_nation(state.cards, state.hands[seat])
        return max((c for c in legal if state.cards.nation[c] == nation), default=max(legal))
    outstanding = ids_of(sum(h for s, h in enumerate(state.hands) if s != seat))
    attack = state.bidder is not None and state.side(seat) == state.side(state.bidder)
    return lead(SENSE, state, seat, legal, outstanding, attack)


def choose(state: JoffreState, choices: list[Action], rng: random.Random) -> Action:
    """The heuristic player's action among the legal `choices`."""
    if state.phase == Phase.AUCTION:
        return bid(state, choices)
    plays = {a.value: a for a in choices}
    return plays[card(state, state.to_play(), sorted(plays))]
