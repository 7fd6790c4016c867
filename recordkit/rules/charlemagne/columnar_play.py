"""Charlemagne's play checked over arrays of deals: every trick of every deal at once.

The same rules as `charlemagne.play` (spec/rules/charlemagne.md §2.7-2.9), with the suits and
powers of the ruleset's own `cards.context`: each card held by the seat that plays it and played
once (charlemagne.play.held), following suit with the jokers' duties of Mulot and Gros Mulot
(charlemagne.play.follow, .joker-void, .joker-led), and who wins each trick
(charlemagne.trick.winner), which gives who leads the next. As for French Tarot
(`french_tarot.columnar`), a seat's hand before a trick is the cards it plays from that trick on,
once every card it plays is its own and played once, so the suits it still holds are a reversed
cumulative `or` over its later cards.
"""

from __future__ import annotations

import numpy as np

from recordkit.rules.charlemagne.cards import JOKER_SUIT
from recordkit.rules.columns import Bools, Ints

TOP = 1000
"""Added to the power of a card of the top suit (the trump, or the jokers without trump)."""


def play_tricks(
    owner: Ints,
    cards: Ints,
    leader: Ints,
    seats_in_play: Ints,
    suit: Ints,
    power: Ints,
    apart: Bools,
    top: Ints,
) -> tuple[Bools, Ints, Ints]:
    """Every trick of k deals with the same number of players in the play: `cards` (k, tricks,
    players) in play order, `owner` the seat holding each card when the play starts (-1: none),
    `seats_in_play` (k, players) clockwise, `suit` and `power` each card's by deal, `top` the trump
    suit (JOKER_SUIT without trump), `apart` whether the jokers carry Mulot's duties. Returns the
    verdicts, the seat of each card played and the seat winning each trick."""
    k, tricks, n = cards.shape
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
    seats = seats_in_play[rows[:, None, None], places]
    ok = np.all(owner[rows[:, None], played] == seats.reshape(k, -1), axis=1)
    seen = np.zeros(owner.shape, dtype=bool)
    seen[rows[:, None], played] = True
    ok &= seen.sum(axis=1) == tricks * n
    by_player = np.take_along_axis(suits, (np.arange(n) - leaders[:, :, None]) % n, axis=2)
    later = np.bitwise_or.accumulate((1 << by_player)[:, ::-1], axis=1)[:, ::-1]
    held = np.take_along_axis(later, places, axis=2)  # the suits each player holds as he plays
    ok &= ~illegal(suits, lead, held, apart).any(axis=(1, 2))
    winners = np.take_along_axis(seats, best[:, :, None], axis=2)[:, :, 0]
    return ok, seats, winners


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
