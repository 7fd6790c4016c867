"""Charlemagne's play checked over arrays of deals: every trick of every deal at once.

The same rules as `charlemagne.play` (spec/rules/charlemagne.md §2.7-2.9), with the suits and
powers of the ruleset's own `cards.context`: each card held by the seat that plays it and played
once (charlemagne.play.held), following suit with the jokers' duties of Mulot and Gros Mulot
(charlemagne.play.follow, .joker-void, .joker-led), and who wins each trick
(charlemagne.trick.winner), which gives who leads the next, so who played each card
(`seat_tricks`, which also seats the tricks of a deal whose hands are left out). As for French Tarot
(`french_tarot.columnar`), a seat's hand before a trick is the cards it plays from that trick on,
once every card it plays is its own and played once, so the suits it still holds are a reversed
cumulative `or` over its later cards.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from recordkit.rules.charlemagne.cards import JOKER_SUIT
from recordkit.rules.columns import Bools, Ints

TOP = 1000
"""Added to the power of a card of the top suit (the trump, or the jokers without trump)."""


@dataclass(frozen=True)
class Seated:
    """Every trick of k deals seated: each card's suit (k, tricks, players, in play order), the
    suit led, the winning position, each trick's leader and each card's place (as indices into
    the seats in the play) and each card's seat."""

    suits: Ints
    lead: Ints
    best: Ints
    leaders: Ints
    places: Ints
    seats: Ints


def seat_tricks(cards: Ints, leader: Ints, seats_in_play: Ints, suit: Ints, power: Ints, top: Ints) -> Seated:
    """Who played each card of k deals with the same number of players in the play: `cards` (k,
    tricks, players) in play order, `leader` the first leader, `seats_in_play` (k, players)
    clockwise, `suit` and `power` each card's by deal, `top` the trump suit (JOKER_SUIT without
    trump). Each trick's winner is known from its cards alone (charlemagne.trick.winner) and leads
    the next (charlemagne.play.lead), so the leaders are a running sum of winning positions."""
    k, n = len(cards), cards.shape[2]
    rows = np.arange(k)
    played = cards.reshape(k, -1)
    suits = np.take_along_axis(suit, played, axis=1).reshape(cards.shape)
    powers = np.take_along_axis(power, played, axis=1).reshape(cards.shape)
    lead = suits[:, :, 0]
    best = winning_positions(suits, powers, lead, top)
    first = np.argmax(seats_in_play == leader[:, None], axis=1)
    moved = np.concatenate([np.zeros((k, 1), dtype=np.int64), np.cumsum(best, axis=1)[:, :-1]], axis=1)
    leaders = (first[:, None] + moved) % n  # each trick's leader, as an index into seats_in_play
    places = (leaders[:, :, None] + np.arange(n)) % n
    return Seated(suits, lead, best, leaders, places, seats_in_play[rows[:, None, None], places])


def play_tricks(owner: Ints, cards: Ints, seated: Seated, apart: Bools) -> tuple[Bools, Ints]:
    """Every trick of k deals seated by `seat_tricks`: `owner` the seat holding each card when the
    play starts (-1: none), `apart` whether the jokers carry Mulot's duties. Returns the verdicts
    and the seat winning each trick."""
    k, tricks, n = cards.shape
    rows = np.arange(k)
    played = cards.reshape(k, -1)
    ok = np.all(owner[rows[:, None], played] == seated.seats.reshape(k, -1), axis=1)
    seen = np.zeros(owner.shape, dtype=bool)
    seen[rows[:, None], played] = True
    ok &= seen.sum(axis=1) == tricks * n
    suits = seated.suits
    by_player = np.take_along_axis(suits, (np.arange(n) - seated.leaders[:, :, None]) % n, axis=2)
    later = np.bitwise_or.accumulate((1 << by_player)[:, ::-1], axis=1)[:, ::-1]
    held = np.take_along_axis(later, seated.places, axis=2)  # the suits each player holds as he plays
    ok &= ~illegal(suits, seated.lead, held, apart).any(axis=(1, 2))
    winners = np.take_along_axis(seated.seats, seated.best[:, :, None], axis=2)[:, :, 0]
    return ok, winners


def winning_positions(suits: Ints, powers: Ints, lead: Ints, top: Ints) -> Ints:
    """charlemagne.trick.winner: the position of the highest card of the top suit (the trump,
    or the jokers in a no-trump deal) in each trick, else of the highest card of the suit led."""
    rank = np.where(
        suits == top[:, None, None], powers + TOP, np.where(suits == lead[:, :, None], powers, -1)
    )
    found: Ints = np.argmax(rank, axis=-1)
    return found


def illegal(suits: Ints, lead: Ints, held: Ints, apart: Bools) -> Bools:
    """Which cards break charlemagne.play.follow (a card off the suit led by a player holding
    that suit) or, where the jokers are apart, .joker-void (off suit, holding none of it, holding
    a joker, and no joker played); a led joker is the jokers' suit, so .joker-led is the first.
    `held` is the set of suits (bits) each player holds as he plays, his card included."""
    follows = np.arange(suits.shape[-1]) > 0
    off = follows & (suits != lead[:, :, None])
    bad: Bools = off & ((held >> lead[:, :, None]) & 1 != 0)
    joker = (held >> JOKER_SUIT) & 1 != 0
    bad |= apart[:, None, None] & off & (suits != JOKER_SUIT) & joker
    return bad
