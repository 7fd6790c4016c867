"""A Karnöffel player for the generator: raises, accepts or surrenders by its side's cards of power,
leads a card nothing outstanding beats, and takes tricks with its cheapest winning card.

The side's strength counts the cards its seats hold for the whole deal (partners show each other
their hands from window 2; the generator's player reads them in window 1 too). Every choice is one
of the legal actions the ruleset offers (`recordkit.players`).
"""

from __future__ import annotations

import random

from recordkit.cards import ids_of
from recordkit.rules.cardplay import Sense, follow
from recordkit.rules.karnoffel.cards import DEVIL, KAISER, KARNOFFEL, KING, POPE, QUEEN, side_of
from recordkit.rules.karnoffel.powers import order, winning_index
from recordkit.rules.karnoffel.state import KarnoffelState, Phase
from recordkit.rules.values import Action

NO_SUIT = -1
POWER = {KARNOFFEL: 3.0, POPE: 2.4, KAISER: 2.0, DEVIL: 1.4, 3: 1.0, 4: 0.8, 5: 0.6}
"""What each card of the chosen suit is worth to a side, by rank."""
PLAIN = {KING: 0.5, QUEEN: 0.25}
"""What a plain King or Queen is worth."""
THRESHOLDS = {2: (3.0, 0.6, 4.4), 4: (2.3, 0.8, 3.2), 6: (2.1, 1.1, 2.8), 8: (2.0, 1.2, 2.6)}
"""Strength per seat a side needs to raise, to accept a raise, and to raise again on one, by the
number of players (a side of more seats averages out: about the top fifth of hands raise)."""
RAISED = 0.7
"""What each raise already made in the deal adds to the strength needed to raise again."""


def strength(state: KarnoffelState, side: int) -> float:
    """A side's cards of power per seat (a side of several seats shares its cards)."""
    seats = state.seats(side)
    total = 0.0
    for seat in seats:
        for card in ids_of(state.hands[seat]):
            rank = state.cards.rank[card]
            if state.cards.suit[card] == state.chosen:
                total += POWER.get(rank, 0.1)
            else:
                total += PLAIN.get(rank, 0.0)
    return total / len(seats)


def call(state: KarnoffelState, choices: list[Action]) -> Action:
    """Raise a strong hand, raise again a very strong one, accept a fair one, surrender a weak one."""
    words = {a.value.name: a for a in choices}
    seat = choices[0].seat
    assert seat is not None
    mine = strength(state, side_of(seat))
    raise_at, accept_at, reraise_at = THRESHOLDS[state.players]
    if "raise" in words and mine >= (reraise_at if state.pending else raise_at) + RAISED * state.raises:
        return words["raise"]
    if state.pending:
        return words["accept"] if mine >= accept_at else words["surrender"]
    return words["pass"]


def _chosen(state: KarnoffelState) -> int:
    """The chosen suit (none before it is known)."""
    return NO_SUIT if state.chosen is None else state.chosen


def _winner(state: KarnoffelState, cards: list[int]) -> int:
    """The winning card's index by the record's reading of the powers."""
    return winning_index(cards, state.options.deck, state.options.partial_trumps, _chosen(state))


def _strength(state: KarnoffelState, card: int) -> float:
    """A card's place in the order of power when its own suit is led (a Devil as it would lead)."""
    if state.cards.suit[card] == state.chosen and state.cards.rank[card] == DEVIL:
        return 85
    led = state.cards.suit[card]
    return order(state.options.deck, state.options.partial_trumps, _chosen(state), led)[card]


SENSE = Sense(
    winner=_winner,
    side=lambda state, seat: side_of(seat),
    value=lambda state, card: 0,
    strength=_strength,
    size=lambda state: state.players,
    suit=lambda state, card: state.cards.suit[card],
    trump=lambda state: None,
)


def card(state: KarnoffelState, seat: int, legal: list[int]) -> int:
    """Lead the weakest card that beats everything still out, else the weakest card; follow by `cardplay`."""
    trick = state.current
    if trick is not None and trick.cards:
        return follow(SENSE, state, seat, trick, legal)
    outstanding = ids_of(sum(h for s, h in enumerate(state.hands) if side_of(s) != side_of(seat)))
    sure = [c for c in legal if all(_winner(state, [c, o]) == 0 for o in outstanding)]
    return min(sure or legal, key=lambda c: _strength(state, c))


def choose(state: KarnoffelState, choices: list[Action], rng: random.Random) -> Action:
    """The heuristic player's action among the legal `choices`."""
    if state.phase == Phase.WINDOWS:
        return call(state, choices)
    plays = {a.value: a for a in choices}
    return plays[card(state, state.to_play(), sorted(plays))]
