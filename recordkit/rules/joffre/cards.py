"""Joffre card tables over the deck's ids, one set per number of players.

Ids come from `recordkit.cards.joffre_deck(players)`: nations E, F, R, G in that order, ranks 0..7
ascending inside each nation (at three players E0 and R0 are left out, so the ids shift). Inside
a nation a higher id is a higher card, whether the nation is trump or not (rule joffre.deck.ranks).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from recordkit.cards import JOFFRE_NATIONS, Deck, joffre_deck

NATION_NAMES = ("England", "France", "Russia", "Germany")
"""Nation names by index, in the order of `JOFFRE_NATIONS` (E, F, R, G)."""
NO_TRUMP = -1
"""The trump value of a deal played without trump (a no-trump contract, option allow_no_trump)."""
JOFFRE_BONUS = 5
"""joffre.score.joffre: what the trick holding the Joffre is worth beyond its point."""
KAISER_MALUS = 3
"""joffre.score.kaiser: what the trick holding the Kaiser is worth less than its point."""


@dataclass(frozen=True, slots=True)
class JoffreCards:
    """The deck for one number of players, with the lookups the rules need per card."""

    deck: Deck
    nation: tuple[int, ...]
    """Nation index (0 E, 1 F, 2 R, 3 G) of each card id."""
    nation_masks: tuple[int, int, int, int]
    """Bitmask of each nation's cards."""
    joffre: int
    """Id of F0, the Joffre."""
    kaiser: int
    """Id of G0, the Kaiser."""
    hand_size: int
    """Cards dealt to each player, which is also the number of tricks."""


@cache
def cards_for(players: int) -> JoffreCards:
    """The card tables of a game of `players` (3 or 4)."""
    deck = joffre_deck(players)
    nation = tuple(JOFFRE_NATIONS.index(suit) for suit in deck.suits)
    masks = [0, 0, 0, 0]
    for card, index in enumerate(nation):
        masks[index] |= 1 << card
    return JoffreCards(
        deck=deck,
        nation=nation,
        nation_masks=(masks[0], masks[1], masks[2], masks[3]),
        joffre=deck.index["F0"],
        kaiser=deck.index["G0"],
        hand_size=len(deck) // players,
    )


FULL_DECK = joffre_deck(4)
"""The 32-card deck: every code a record may spell, used to write codes canonically."""


def nation_name(index: int) -> str:
    """A nation's name, or "no trump" for a deal without trump."""
    return "no trump" if index == NO_TRUMP else NATION_NAMES[index]


def trick_value(cards: JoffreCards, trick: list[int]) -> int:
    """joffre.score.tricks/joffre/kaiser: a trick is worth 1, +5 with the Joffre, -3 with the Kaiser."""
    value = 1
    if cards.joffre in trick:
        value += JOFFRE_BONUS
    if cards.kaiser in trick:
        value -= KAISER_MALUS
    return value
