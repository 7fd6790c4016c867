"""Who wins a Karnöffel trick: the powers of the chosen suit's cards, in the three readings of K-A2/3.

Rules `karnoffel.trick.powers` and `karnoffel.trick.winner`. The default reading is one total
order (RULES-NOTES K1): the Karnöffel, a led Devil, the Pope, the Kaiser, then the plain cards of
the suit led with the partial trumps slotted in below the King (3), the Queen (4) and the Jack (5).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from recordkit.rules.karnoffel.cards import (
    DEVIL,
    KAISER,
    KARNOFFEL,
    PARTIAL,
    POPE,
    POWER_RANKS,
    STOPPERS,
    cards_of,
)

CANNOT_WIN = -1
LED_DEVIL = 90
FULL = {KARNOFFEL: 100, POPE: 80, KAISER: 70}
SLOTTED = {3: 25, 4: 23, 5: 21}
"""Partial trumps in the total order: the plain cards of the suit led are worth twice their rank,
so the 3 sits between King (26) and Queen (24), the 4 between Queen and Jack, the 5 below the Jack."""
LINEAR = {3: 60, 4: 50, 5: 40}
"""The FAQ's reading: the partial trumps above every plain card."""

POWER_LEVEL = {KARNOFFEL: 7, POPE: 5, KAISER: 4, 3: 3, 4: 2, 5: 1}
"""Power of each chosen-suit card for the card-by-card reading; plain cards 0."""
LED_DEVIL_LEVEL = 6
"""A led Devil's power in the card-by-card reading: below the Karnöffel only."""


@cache
def order(size: int, reading: str, chosen: int, led: int) -> tuple[int, ...]:
    """Each card's place in the total order when `led` is the suit led (a led Devil aside)."""
    cards = cards_of(size)
    slots = LINEAR if reading == "linear_faq" else SLOTTED
    keys = []
    for card in range(len(cards.deck)):
        suit, rank = cards.suit[card], cards.rank[card]
        if suit == chosen and rank in POWER_RANKS:
            keys.append(FULL.get(rank, slots.get(rank, CANNOT_WIN)))
        elif suit == led:
            keys.append(2 * rank)
        else:
            keys.append(CANNOT_WIN)
    return tuple(keys)


@cache
def leads(size: int, reading: str, chosen: int) -> tuple[tuple[tuple[int, ...], ...], int]:
    """The total order (`order`) for each card that could lead, by its id, and the Devil's id
    (-1 when no suit is chosen): looked up once a trick instead of rebuilt from the led suit."""
    cards = cards_of(size)
    by_suit = [order(size, reading, chosen, suit) for suit in range(4)]
    devil = cards.card(chosen, DEVIL) if 0 <= chosen < 4 else -1
    return tuple(by_suit[suit] for suit in cards.suit), devil


def winning_index(trick: Sequence[int], size: int, reading: str, chosen: int) -> int:
    """Index in `trick` of the card that wins it under the option partial_trumps = `reading`."""
    if reading == "any_suit_exceptions":
        return _card_by_card(trick, size, chosen)
    by_lead, devil = leads(size, reading, chosen)
    first = trick[0]
    places = list(map(by_lead[first].__getitem__, trick))
    if first == devil:
        places[0] = LED_DEVIL
    return places.index(max(places))  # the first of equal places wins


def _card_by_card(trick: Sequence[int], size: int, chosen: int) -> int:
    """K-A3 option any_suit_exceptions: each card is judged against the card winning so far, and a
    King, Queen or Jack of any suit stops the partial trump it is an exception to."""
    cards = cards_of(size)
    led = cards.suit[trick[0]]

    def level(card: int, first: bool) -> int:
        """A card's power: 7 the Karnöffel ... 1 the 5, 6 a led Devil, 0 plain, -1 a Devil not led."""
        suit, rank = cards.suit[card], cards.rank[card]
        if suit != chosen or rank not in POWER_RANKS:
            return 0
        if rank == DEVIL:
            return LED_DEVIL_LEVEL if first else CANNOT_WIN
        return POWER_LEVEL[rank]

    def stops(card: int, partial: int) -> bool:
        """Whether a plain card has a rank that stops this partial trump, whatever its suit."""
        return level(card, False) == 0 and cards.rank[card] in STOPPERS[cards.rank[partial]]

    def partial(card: int) -> bool:
        """Whether a card is the 3, 4 or 5 of the chosen suit."""
        return cards.suit[card] == chosen and cards.rank[card] in PARTIAL

    best = 0
    for index in range(1, len(trick)):
        card, held = trick[index], trick[best]
        if partial(card) and stops(held, card):
            continue
        if partial(held) and stops(card, held):
            best = index
            continue
        mine, theirs = level(card, False), level(held, best == 0)
        if mine != theirs:
            best = index if mine > theirs else best
            continue
        if mine != 0:
            continue
        follows, held_follows = cards.suit[card] == led, cards.suit[held] == led
        if follows and (not held_follows or cards.rank[card] > cards.rank[held]):
            best = index
    return best
