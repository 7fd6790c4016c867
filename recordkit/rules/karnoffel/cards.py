"""Karnöffel card tables over the deck's ids: suits, ranks, and the named cards of the chosen suit.

Ids come from `recordkit.cards.karnoffel_deck(size)`: suits S, C, H, D (0..3), ranks 2..K
(2..A with 52 cards, the ace as rank 14). The powers of the chosen suit are by rank.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from recordkit.cards import KARNOFFEL_SUITS, Deck, karnoffel_deck

SUIT_NAMES = ("spades", "clubs", "hearts", "diamonds")
JACK, QUEEN, KING, ACE = 11, 12, 13, 14

KARNOFFEL = JACK
"""The Jack of the chosen suit: beats every card."""
DEVIL = 7
"""The 7 of the chosen suit: beats all but the Karnöffel when it leads a trick, else never wins."""
POPE = 6
KAISER = 2
PARTIAL = (3, 4, 5)
"""The partial trumps, highest first."""
POWER_RANKS = frozenset({KARNOFFEL, DEVIL, POPE, KAISER, *PARTIAL})
STOPPERS = {
    3: frozenset({KING, ACE}),
    4: frozenset({QUEEN, KING, ACE}),
    5: frozenset({JACK, QUEEN, KING, ACE}),
}
"""The ranks that stop each partial trump (an ace, in a 52-card game, ranks above the King)."""

RANK_NAMES = {JACK: "Jack", QUEEN: "Queen", KING: "King", ACE: "Ace"}
POWER_NAMES = {KARNOFFEL: "the Karnöffel", DEVIL: "the Devil", POPE: "the Pope", KAISER: "the Kaiser"}


@dataclass(frozen=True, slots=True)
class Cards:
    """One Karnöffel deck with each card's suit index (0..3) and rank (2..14) by id."""

    deck: Deck
    suit: tuple[int, ...]
    rank: tuple[int, ...]

    def card(self, suit: int, rank: int) -> int:
        """The id of the card of this suit and rank."""
        return self.rank.index(rank, suit * self.per_suit, (suit + 1) * self.per_suit)

    @property
    def per_suit(self) -> int:
        """Cards in each suit: 12, or 13 with the aces."""
        return len(self.deck) // 4

    def code(self, card: int) -> str:
        """The canonical code of a card."""
        return self.deck.codes[card]

    def codes(self, mask: int) -> str:
        """The codes of the cards in a bitmask, in deck order."""
        return self.deck.format_mask(mask)


@cache
def cards_of(size: int) -> Cards:
    """The tables of the 48- or 52-card deck."""
    deck = karnoffel_deck(size)
    suits = tuple(KARNOFFEL_SUITS.index(s) for s in deck.suits)
    return Cards(deck, suits, tuple(deck.ranks))


CANONICAL = karnoffel_deck(52)
"""The deck whose spellings the record models canonicalise to (the 48 cards and the aces)."""


def side_of(seat: int) -> int:
    """The side of a seat: 0 for even seats, 1 for odd (partners sit alternately; two players: each alone)."""
    return seat % 2
