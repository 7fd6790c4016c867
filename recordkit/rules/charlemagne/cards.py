"""Charlemagne card tables over the deck's ids: suits, colours, and each card's suit and power in a deal.

Ids come from `recordkit.cards.charlemagne_deck`: suit s (0 S, 1 H, 2 D, 3 C) and rank r (0 = 7,
1 = 8, 2 = 9, 3 = 10, 4 = J, 5 = Q, 6 = K, 7 = A) is `8*s + r`; the jokers X1 (high) and X2 (low)
are 32 and 33 in the standard deck. The Maine deck is the same 32 suit cards without jokers.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from recordkit.cards import Deck, charlemagne_deck

PLAYERS = 4
HAND_SIZE = 8
TRICKS = 8
SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3
JOKER_SUIT = 4
"""The 'suit' of a joker in a no-trump deal: it belongs to no suit."""
SUIT_LETTERS = "SHDC"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs", "jokers")
SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = range(8)
X1, X2 = 32, 33
JOKERS = (1 << X1) | (1 << X2)
DECKS: dict[str, Deck] = {"standard": charlemagne_deck(True), "maine": charlemagne_deck(False)}
KITTY_SIZE = {"standard": 2, "maine": 0}


def card(suit: int, rank: int) -> int:
    """The id of a suit card."""
    return 8 * suit + rank


def printed_suit(card_id: int) -> int:
    """0-3 for a suit card, JOKER_SUIT for a joker."""
    return card_id // 8 if card_id < X1 else JOKER_SUIT


def same_colour(suit: int) -> int:
    """The other suit of the same colour: spades and clubs are black, hearts and diamonds red."""
    return 3 - suit


def bit(card_id: int) -> int:
    """The bitmask of one card."""
    return 1 << card_id


def popcount(mask: int) -> int:
    """How many cards (or seats) a bitmask holds."""
    return mask.bit_count()


@dataclass(frozen=True, slots=True)
class Context:
    """How the cards behave in one deal: each card's suit for following, its power, and suit masks.

    `trump` is the trump suit (None in a no-trump deal). `jokers_apart` is True in the standard
    game's no-trump deals (Mulot, Gros Mulot), where the jokers belong to no suit and carry duties.
    """

    trump: int | None
    suit: tuple[int, ...]
    power: tuple[int, ...]
    masks: tuple[int, ...]
    jokers_apart: bool

    def is_trump(self, card_id: int) -> bool:
        """Whether the card belongs to the trump suit in this deal (jokers and le petit bar included)."""
        return self.trump is not None and self.suit[card_id] == self.trump


TRUMP_BASE = 100
"""Powers of trump cards start here, above every plain card (plain powers are the rank, 0-7)."""
NO_TRUMP_JOKER_BASE = 200


@cache
def context(variant: str, trump: int | None) -> Context:
    """The tables of one variant and trump suit (None: no trump), computed once (RULES-NOTES C1)."""
    size = len(DECKS[variant])
    suits = [printed_suit(c) for c in range(size)]
    power = [c % 8 for c in range(size)]
    if trump is None:
        for rank, joker in enumerate((X2, X1)):
            if joker < size:
                power[joker] = NO_TRUMP_JOKER_BASE + rank
    else:
        for rank in range(8):
            power[card(trump, rank)] = TRUMP_BASE + rank
        top: tuple[int, ...] = (card(trump, JACK), card(same_colour(trump), JACK))
        top = (card(trump, NINE), *top) if variant == "maine" else (X1, X2, *top)
        for place, top_card in enumerate(reversed(top)):
            suits[top_card] = trump
            power[top_card] = TRUMP_BASE + 10 + place
    masks = [0] * 5
    for c in range(size):
        masks[suits[c]] |= bit(c)
    return Context(
        trump, tuple(suits), tuple(power), tuple(masks), jokers_apart=trump is None and variant == "standard"
    )
