"""Trick play shared by the generator's heuristic players (`recordkit.players`).

A game describes its cards through a `Sense` (who wins a trick, who plays with whom, what a card
brings to the trick and how strong it is); `follow` and `lead` then choose a reasonable card among
the legal ones the ruleset offers: never anything else, so a player cannot make an illegal move.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from recordkit.rules.values import PlayedTrick


@dataclass(frozen=True, slots=True)
class Sense:
    """What a player knows of a game's cards in a deal's state (`Any`: each game's own state)."""

    winner: Callable[[Any, list[int]], int]
    """Index of the card that wins these cards played to a trick (the first card led)."""
    side: Callable[[Any, int], int]
    """The side a seat plays for: partners share it."""
    value: Callable[[Any, int], float]
    """What a card brings to the side that wins its trick (card points; 0 where none count)."""
    strength: Callable[[Any, int], float]
    """How strong a card is to keep: trumps above plain cards, high ranks above low ones."""
    size: Callable[[Any], int]
    """Cards in a full trick: the players in the play."""
    suit: Callable[[Any, int], int]
    """The suit a card follows as (trumps are their own suit)."""
    trump: Callable[[Any], int | None]
    """The trump suit as `suit` numbers it (None: no trump)."""


def follow(sense: Sense, state: Any, seat: int, trick: PlayedTrick, legal: list[int]) -> int:
    """A card to a trick already led: give points to a partner who wins it when playing last, take
    it with the cheapest card that wins from an opponent, otherwise shed the least useful card."""
    cards = trick.cards
    best = sense.winner(state, cards)
    last = len(cards) + 1 == sense.size(state)
    if sense.side(state, trick.seats[best]) == sense.side(state, seat):
        if last:
            return min(legal, key=lambda c: (-sense.value(state, c), sense.strength(state, c)))
        return min(legal, key=lambda c: (abs(sense.value(state, c)), sense.strength(state, c)))
    winners = [c for c in legal if sense.winner(state, [*cards, c]) == len(cards)]
    if winners:
        if last:
            return min(winners, key=lambda c: (-sense.value(state, c), sense.strength(state, c)))
        return min(winners, key=lambda c: (abs(sense.value(state, c)), sense.strength(state, c)))
    return min(legal, key=lambda c: (sense.value(state, c), sense.strength(state, c)))


def lead(sense: Sense, state: Any, seat: int, legal: list[int], outstanding: list[int], attack: bool) -> int:
    """A card to lead: the declaring side draws trumps while it holds as many as the others together; the defence
    leads a suit the declaring side has shown it lacks (making it trump); anyone leads a card no
    outstanding card of its suit beats, unless an opponent would trump it; else the lowest card of
    the longest plain suit. `outstanding` are the cards the other players in the play still hold."""
    trump = sense.trump(state)
    mine = [c for c in legal if trump is not None and sense.suit(state, c) == trump]
    theirs = [c for c in outstanding if trump is not None and sense.suit(state, c) == trump]
    if attack and mine and theirs and len(mine) >= len(theirs):
        return max(mine, key=lambda c: sense.strength(state, c))
    plain = [c for c in legal if c not in mine] or legal
    lacking = voids(sense, state, seat) if trump is not None else set()
    forcing = [c for c in plain if sense.suit(state, c) in lacking]
    if forcing and not attack:
        return min(forcing, key=lambda c: (sense.value(state, c), sense.strength(state, c)))
    top = highest(sense, state, outstanding)
    masters = [
        c
        for c in plain
        if sense.strength(state, c) > top.get(sense.suit(state, c), -1.0)
        and sense.suit(state, c) not in lacking
    ]
    if masters:
        return max(masters, key=lambda c: (sense.value(state, c), sense.strength(state, c)))
    lengths: dict[int, int] = {}
    for card in plain:
        lengths[sense.suit(state, card)] = lengths.get(sense.suit(state, card), 0) + 1
    return min(
        plain,
        key=lambda c: (-lengths[sense.suit(state, c)], sense.value(state, c), sense.strength(state, c)),
    )


def voids(sense: Sense, state: Any, seat: int) -> set[int]:
    """The suits an opponent of `seat` has shown he lacks, by playing another suit to their lead."""
    side = sense.side(state, seat)
    lacking: set[int] = set()
    for trick in state.tricks:
        led = sense.suit(state, trick.cards[0])
        for card, player in zip(trick.cards[1:], trick.seats[1:], strict=True):
            if sense.side(state, player) != side and sense.suit(state, card) != led:
                lacking.add(led)
    return lacking


def highest(sense: Sense, state: Any, cards: list[int]) -> dict[int, float]:
    """The strength of the strongest of these cards in each suit they hold."""
    top: dict[int, float] = {}
    for card in cards:
        suit, strength = sense.suit(state, card), sense.strength(state, card)
        if strength > top.get(suit, -1.0):
            top[suit] = strength
    return top
