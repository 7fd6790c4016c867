"""Who takes the card points of each trick, for the replay view's running points: the count itself.

A trick's cards go to its winner, but the Excuse stays with the side that played it, which gives
the winners a half-point card instead (tarot.excuse.exchange; the last trick as the option says,
tarot.excuse.last-trick). So the points of a trick are read off the count (`scoring.owners`)
over the tricks up to it, less the tricks before it, and each side's share is shown on the seat
of that side that took part: the trick's winner, else the Excuse's player.
"""

from __future__ import annotations

import copy

from recordkit.rules.french_tarot.cards import EXCUSE, HALF_POINTS, half_points
from recordkit.rules.french_tarot.scoring import as_points, owners
from recordkit.rules.french_tarot.state import TarotState
from recordkit.rules.values import PlayedTrick


def trick_shares(state: TarotState, number: int) -> list[int | float]:
    """Each seat's card points from trick `number` (1-based), as the count gives them."""
    n = state.players
    sides = _sides(state)  # a goulash: each player counts for himself (the goulash settlement)
    before, upto = _taken(state, sides, number - 1), _taken(state, sides, number)
    trick = state.tricks[number - 1]
    shares = [0] * n
    for side, (earlier, now) in enumerate(zip(before, upto, strict=True)):
        if now != earlier:
            shares[_seat_of(side, trick, sides)] += now - earlier
    return [as_points(half) for half in shares]


def deal_shares(state: TarotState) -> list[list[int | float]]:
    """Each trick's shares (`trick_shares`), for every trick at once. The count moves a card away
    from a trick's winner only for the Excuse (`scoring.owners`), so every other trick is its
    points to its winner, and the Excuse's trick holds the rest of each side's count."""
    out: list[list[int | float]] = []
    excuse = None
    for number, trick in enumerate(state.tricks):
        assert trick.winner is not None
        shares: list[int | float] = [0] * state.players
        shares[trick.winner] = as_points(sum(map(HALF_POINTS.__getitem__, trick.cards)))
        out.append(shares)
        if EXCUSE in trick.cards:
            excuse = number
    if excuse is not None:
        out[excuse] = _excuse_shares(state, excuse, out)
    return out


def _excuse_shares(state: TarotState, excuse: int, shares: list[list[int | float]]) -> list[int | float]:
    """The shares of the Excuse's trick (index `excuse`): each side's count (`scoring.owners`)
    less what it took in the other tricks (`shares`)."""
    sides = _sides(state)
    rest = [0] * (max(sides) + 1)
    for number, trick in enumerate(state.tricks):
        if number != excuse and trick.winner is not None:
            rest[sides[trick.winner]] += int(2 * shares[number][trick.winner])
    won, adjust = owners(state, sides)
    halves = [0] * state.players
    for side, other in enumerate(rest):
        total = half_points(won[side]) + adjust[side]
        if total != other:
            halves[_seat_of(side, state.tricks[excuse], sides)] += total - other
    return [as_points(half) if half else 0 for half in halves]


def _sides(state: TarotState) -> list[int]:
    """The side of each seat for the count: the attack (0) and the defence (1), or each player
    for himself (a goulash, or no taker)."""
    attack = state.attack()
    if state.goulash or not attack:
        return list(range(state.players))
    return [0 if seat in attack else 1 for seat in range(state.players)]


def _taken(state: TarotState, sides: list[int], tricks: int) -> list[int]:
    """Each side's card points (doubled) in the first `tricks` tricks, by the count."""
    upto = copy.copy(state)
    upto.tricks = state.tricks[:tricks]
    won, adjust = owners(upto, sides)
    return [half_points(cards) + change for cards, change in zip(won, adjust, strict=True)]


def _seat_of(side: int, trick: PlayedTrick, sides: list[int]) -> int:
    """The seat of `side` that took part in the trick: its winner, else the Excuse's player, else
    the first seat of that side to play (the Excuse given to the other side in the last trick)."""
    excuse = [seat for card, seat in zip(trick.cards, trick.seats, strict=True) if card == EXCUSE]
    assert trick.winner is not None
    candidates = [trick.winner, *excuse, *trick.seats]
    return next((seat for seat in candidates if sides[seat] == side), trick.winner)
