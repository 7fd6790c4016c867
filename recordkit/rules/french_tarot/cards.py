"""French Tarot card tables over the deck's ids: suits, trumps, bouts, honours and card points.

Ids come from `recordkit.cards.tarot_deck`: suit s (0 S, 1 H, 2 D, 3 C) rank r (1..14, K = 14)
is `14*s + r - 1`; trumps T1..T21 are 56..76 in rank order; the Excuse is 77.
"""

from __future__ import annotations

from recordkit.cards import tarot_deck

DECK = tarot_deck()
SUIT_CARDS = 14
FIRST_TRUMP = 56
PETIT = FIRST_TRUMP  # T1
TWENTY_ONE = FIRST_TRUMP + 20  # T21
EXCUSE = 77
TRUMP_SUIT = 4
EXCUSE_SUIT = 5

HAND_SIZES = {3: 24, 4: 18, 5: 15}
DOG_SIZES = {3: 6, 4: 6, 5: 3}

KING, QUEEN, KNIGHT, JACK = 14, 13, 12, 11
HONOUR_RANKS = (KING, QUEEN, KNIGHT, JACK)


def suit_of(card: int) -> int:
    """0-3 for the plain suits, 4 for trumps, 5 for the Excuse."""
    if card < FIRST_TRUMP:
        return card // SUIT_CARDS
    return TRUMP_SUIT if card < EXCUSE else EXCUSE_SUIT


SUITS = tuple(suit_of(card) for card in range(EXCUSE + 1))
BITS = tuple(1 << card for card in range(EXCUSE + 1))
"""Each card's bitmask, as a table."""
"""suit_of for every card id, as a table (the play loop's lookup)."""


def rank_of(card: int) -> int:
    """1..14 in a plain suit (14 = King), 1..21 for trumps, 0 for the Excuse."""
    if card < FIRST_TRUMP:
        return card % SUIT_CARDS + 1
    return card - FIRST_TRUMP + 1 if card < EXCUSE else 0


def plain(suit: int, rank: int) -> int:
    """The id of a plain-suit card."""
    return SUIT_CARDS * suit + rank - 1


def _mask(cards: range | list[int]) -> int:
    bits = 0
    for card in cards:
        bits |= 1 << card
    return bits


SUIT_MASKS = tuple(_mask(range(SUIT_CARDS * s, SUIT_CARDS * (s + 1))) for s in range(4))
TRUMPS = _mask(range(FIRST_TRUMP, EXCUSE))
EXCUSE_BIT = 1 << EXCUSE
BOUTS = (1 << PETIT) | (1 << TWENTY_ONE) | EXCUSE_BIT
KINGS = _mask([plain(s, KING) for s in range(4)])
HONOURS = _mask([plain(s, r) for s in range(4) for r in HONOUR_RANKS])
FULL_DECK = (1 << len(DECK)) - 1
# TRUMPS_ABOVE[c]: the trumps that beat trump c (every trump for a non-trump c).
TRUMPS_ABOVE = tuple(
    TRUMPS & ~((1 << (c + 1)) - 1) if FIRST_TRUMP <= c < EXCUSE else TRUMPS for c in range(len(DECK))
)

_HONOUR_POINTS = {KING: 9, QUEEN: 7, KNIGHT: 5, JACK: 3}
HALF_POINTS = tuple(
    9 if (1 << c) & BOUTS else _HONOUR_POINTS.get(rank_of(c), 1) if c < FIRST_TRUMP else 1
    for c in range(len(DECK))
)
"""Card points doubled (a King is 4.5 points, so 9): the deck totals 182, i.e. 91 points."""

TARGETS = (56, 51, 41, 36)
"""Points the taker's side needs with 0, 1, 2 or 3 bouts."""


def bit(card: int) -> int:
    """The bitmask of one card."""
    return 1 << card


def popcount(mask: int) -> int:
    """How many cards a bitmask holds."""
    return bin(mask).count("1")


_BYTE_POINTS = tuple(
    tuple(
        sum(HALF_POINTS[8 * chunk + b] for b in range(8) if byte >> b & 1 and 8 * chunk + b < len(DECK))
        for byte in range(256)
    )
    for chunk in range((len(DECK) + 7) // 8)
)
"""Card points (doubled) of each byte of a card mask, by the byte's place: ten lookups count a hand."""


def half_points(mask: int) -> int:
    """Card points of a set of cards, doubled."""
    total = 0
    for points in _BYTE_POINTS:
        total += points[mask & 0xFF]
        mask >>= 8
    return total
