"""French Tarot scoring (FFT "donnes libres", RULES-NOTES T5): card points, the Excuse, bonuses, split.

All card points are counted doubled (half-points) so that the arithmetic stays in integers.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import reduce
from operator import or_

from recordkit.rules.base import PlayedTrick
from recordkit.rules.french_tarot.cards import (
    BITS,
    BOUTS,
    EXCUSE,
    PETIT,
    TARGETS,
    half_points,
)
from recordkit.rules.french_tarot.record import COEFFICIENTS
from recordkit.rules.french_tarot.state import Phase, TarotState

POIGNEE_BONUS = {"simple": 20, "double": 30, "triple": 40}
POIGNEE_THRESHOLDS = {3: (13, 15, 18), 4: (10, 13, 15), 5: (8, 10, 13)}
POIGNEE_LEVELS = ("simple", "double", "triple")
MISERE_VALUE = 10
GARDE = 2


@dataclass(frozen=True, slots=True)
class ContractCount:
    """The taker's side's count for one deal, as the score sheet would show it."""

    half_points: int
    bouts: int
    target: int
    won: bool
    diff: int
    petit_au_bout: int
    slam_term: int
    per_defender: int


def excuse_wins(state: TarotState, index: int, trick: PlayedTrick) -> bool:
    """The Excuse takes the last trick when a side that won every earlier trick leads it
    (tarot.excuse.slam), and whenever it falls in the last trick of a goulash (tarot.goulash.excuse)."""
    if index != state.tricks_per_deal - 1 or EXCUSE not in trick.cards:
        return False
    if state.goulash:
        return True
    if trick.cards[0] != EXCUSE:
        return False
    attack = state.attack()
    leader_attacks = trick.leader in attack
    return all((t.winner in attack) == leader_attacks for t in state.tricks[:index])


def _owners(state: TarotState, sides: list[int]) -> tuple[list[int], list[int]]:
    """Cards won (bitmask) and Excuse exchange adjustments (half-points) by side index.

    `sides[seat]` is the side of each seat. The Excuse stays with the side that played it, which
    gives the trick's winners a half-point card instead (tarot.excuse.exchange), except in the last
    trick where it goes as the option says (tarot.excuse.last-trick).
    """
    count = max(sides) + 1
    taken: list[list[int]] = [[] for _ in range(count)]
    adjust = [0] * count
    last = state.tricks_per_deal - 1
    for index, trick in enumerate(state.tricks):
        assert trick.winner is not None
        winner_side = sides[trick.winner]
        if EXCUSE not in trick.cards:  # the common trick: every card to its winner
            taken[winner_side] += trick.cards
            continue
        for card, seat in zip(trick.cards, trick.seats, strict=True):
            if card != EXCUSE or seat == trick.winner:
                taken[winner_side].append(card)
                continue
            own_side = sides[seat]
            if index == last:
                other = (
                    1 - own_side if state.table.options.excuse_last_trick == "to_other_side" else winner_side
                )
                taken[other].append(card)
            else:
                taken[own_side].append(card)
                if own_side != winner_side:
                    adjust[own_side] -= 1
                    adjust[winner_side] += 1
    won = [reduce(or_, map(BITS.__getitem__, cards), 0) for cards in taken]
    return won, adjust


def contract_count(state: TarotState) -> ContractCount:
    """The taker's side's points, bouts, target, result and per-defender amount S (tarot.score.*)."""
    assert state.taker is not None
    attack = state.attack()
    sides = [0 if seat in attack else 1 for seat in range(state.players)]
    won, adjust = _owners(state, sides)
    if state.contract <= GARDE:
        won[0] |= state.discard
    elif state.contract == 3:  # garde sans: the dog counts for the taker
        won[0] |= state.dog
    else:  # garde contre: the dog counts for the defence
        won[1] |= state.dog
    points = half_points(won[0]) + adjust[0]
    bouts = bin(won[0] & BOUTS).count("1")
    target = TARGETS[bouts]
    won_contract = points >= 2 * target
    rounded = (points + 1) // 2 if won_contract else points // 2
    diff = abs(rounded - target)
    coefficient = COEFFICIENTS[state.contract]
    sign = 1 if won_contract else -1
    petit = _petit_au_bout(state, attack)
    slam = _slam_term(state, attack)
    poignees = sum(POIGNEE_BONUS[p.level] for p in state.poignees.values())
    per_defender = sign * (25 + diff) * coefficient + petit * 10 * coefficient + sign * poignees + slam
    return ContractCount(points, bouts, target, won_contract, diff, petit, slam, per_defender)


def points_counted(state: TarotState) -> bool:
    """Whether the deal has a taker's card count that a score sheet may write down (a contract
    played to the end and scored)."""
    return (
        state.taker is not None
        and not state.goulash
        and state.scorable
        and state.phase == Phase.DONE
        and state.status == "played"
    )


def points_match(state: TarotState, points: int | float) -> bool:
    """tarot.score.points: card points written on the sheet are the count, exact or rounded
    either way (sheets differ in how they round a half point)."""
    half = contract_count(state).half_points
    return float(points) in {half / 2, float((half + 1) // 2), float(half // 2)}


def _petit_au_bout(state: TarotState, attack: frozenset[int]) -> int:
    """+1 if the attack wins the Petit in the last trick, -1 if the defence does, else 0
    (tarot.score.petit-au-bout). When a slam's Excuse takes the last trick, the Petit is au bout
    if it is led to the penultimate trick (FFT: "s'il est mené à l'avant-dernier pli")."""
    last = len(state.tricks) - 1
    final = state.tricks[last]
    if PETIT in final.cards:
        return 1 if final.winner in attack else -1
    if last > 0 and excuse_wins(state, last, final) and state.tricks[last - 1].cards[0] == PETIT:
        return 1 if state.tricks[last - 1].winner in attack else -1
    return 0


def _slam_term(state: TarotState, attack: frozenset[int]) -> int:
    """The slam bonus added to S (tarot.score.slam): +400/+200 made, -200 announced and failed,
    and minus the defence's bonus when the defence wins every trick."""
    attack_tricks = sum(1 for t in state.tricks if t.winner in attack)
    term = 0
    if attack_tricks == state.tricks_per_deal:
        term += 400 if state.slam else 200
    elif state.slam:
        term -= 200
    if attack_tricks == 0:
        term -= state.table.options.defence_slam_bonus
    return term


def contract_scores(state: TarotState) -> list[int]:
    """Each seat's score: defenders -S, the taker the rest, a partner S (tarot.score.split)."""
    assert state.taker is not None
    per_defender = contract_count(state).per_defender
    attack = state.attack()
    defenders = state.players - len(attack)
    scores = [-per_defender if seat not in attack else 0 for seat in range(state.players)]
    scores[state.taker] = defenders * per_defender
    if state.partner is not None:
        scores[state.partner] = per_defender
        scores[state.taker] -= per_defender
    return scores


def goulash_scores(state: TarotState) -> list[int]:
    """Goulash settlement in half-points: each player pays every other the points he took."""
    n = state.players
    won, adjust = _owners(state, list(range(n)))
    taken = [half_points(won[seat]) + adjust[seat] for seat in range(n)]
    total = sum(taken)
    return [total - taken[seat] - (n - 1) * taken[seat] for seat in range(n)]


def misere_scores(state: TarotState) -> list[int]:
    """Misères: every other player pays the declarer 10 for each (tarot.score.misere)."""
    n = state.players
    scores = [0] * n
    for seat, _kind in state.miseres:
        for other in range(n):
            scores[other] += MISERE_VALUE * (n - 1) if other == seat else -MISERE_VALUE
    return scores


def deal_scores(state: TarotState) -> list[int | float]:
    """The whole deal's scores as a score sheet shows them (half points only in a goulash)."""
    n = state.players
    if state.status == "annulled" or (state.taker is None and not state.goulash):
        return [0] * n
    if state.goulash:
        halves = goulash_scores(state)
        misere = misere_scores(state)
        return [as_points(h + 2 * m) for h, m in zip(halves, misere, strict=True)]
    return [a + m for a, m in zip(contract_scores(state), misere_scores(state), strict=True)]


def as_points(half: int) -> int | float:
    """Half-points as a score-sheet number: whole numbers as ints, halves as .5 floats."""
    return half // 2 if half % 2 == 0 else half / 2
