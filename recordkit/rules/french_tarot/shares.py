"""Who takes the card points of each trick, for the replay view's running points: the count itself.

A trick's cards go to its winner, but the Excuse stays with the side that played it, which gives
the winners a half-point card instead (tarot.excuse.exchange; the last trick as the option says,
tarot.excuse.last-trick). So the points of a trick are read off the count (`scoring.owners`)
over the tricks up to it, less the tricks before it, and each side's share is shown on the seat
of that side that took part: the trick's winner, else the Excuse's player.
"""

from __future__ import annotations

import copy

from recordkit.rules.base import PlayedTrick
from recordkit.rules.french_tarot.cards import DECK, EXCUSE, half_points
from recordkit.rules.french_tarot.scoring import as_points, owners
from recordkit.rules.french_tarot.state import TarotState


def trick_shares(state: TarotState, number: int) -> list[int | float]:
    """Each seat's card points from trick `number` (1-based), as the count gives them."""
    n = state.players
    attack = state.attack()
    if state.goulash or not attack:  # each player counts for himself (the goulash settlement)
        sides = list(range(n))
    else:
        sides = [0 if seat in attack else 1 for seat in range(n)]
    before, upto = _taken(state, sides, number - 1), _taken(state, sides, number)
    trick = state.tricks[number - 1]
    shares = [0] * n
    for side, (earlier, now) in enumerate(zip(before, upto, strict=True)):
        if now != earlier:
            shares[_seat_of(side, trick, sides)] += now - earlier
    return [as_points(half) for half in shares]


def deal_shares(state: TarotState) -> list[list[int | float]]:
    """Each trick's shares (`trick_shares`), for every trick at once: the count moves a card away
    from a trick's winner only for the Excuse (`scoring.owners`), so the tricks without it are
    their points to their winner and only the Excuse's trick is read off the count."""
    out: list[list[int | float]] = []
    for number, trick in enumerate(state.tricks, 1):
        if EXCUSE in trick.cards:
            out.append(trick_shares(state, number))
            continue
        shares: list[int | float] = [0] * state.players
        assert trick.winner is not None
        shares[trick.winner] = as_points(half_points(DECK.mask(trick.cards)))
        out.append(shares)
    return out


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
