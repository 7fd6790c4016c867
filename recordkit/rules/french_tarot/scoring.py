"""French Tarot scoring (FFT "donnes libres", RULES-NOTES T5): card points, the Excuse, bonuses, split.

All card points are counted doubled (half-points) so that the arithmetic stays in integers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import reduce
from operator import attrgetter, or_

from recordkit.rules.french_tarot.cards import (
    BITS,
    BOUTS,
    EXCUSE,
    PETIT,
    TARGETS,
    half_points,
)
from recordkit.rules.french_tarot.facts import ContractFacts
from recordkit.rules.french_tarot.record import COEFFICIENTS
from recordkit.rules.french_tarot.state import Phase, TarotState
from recordkit.rules.values import PlayedTrick

POIGNEE_BONUS = {"simple": 20, "double": 30, "triple": 40}
POIGNEE_THRESHOLDS = {3: (13, 15, 18), 4: (10, 13, 15), 5: (8, 10, 13)}
POIGNEE_LEVELS = ("simple", "double", "triple")
MISERE_VALUE = 10
CONTRACT_BASE = 25
"""What a contract is worth before its margin and multiplier (tarot.score.contract)."""
PETIT_AU_BOUT = 10
"""The Petit au bout's bonus, times the contract's multiplier (tarot.score.petit-au-bout)."""
WINNER = attrgetter("winner")
"""A played trick's winner."""
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


def owners(state: TarotState, sides: list[int]) -> tuple[list[int], list[int]]:
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
        winner = trick.winner
        assert winner is not None
        if EXCUSE not in trick.cards:  # the common trick: every card to its winner
            taken[sides[winner]] += trick.cards
            continue
        winner_side = sides[winner]
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
    return list(map(_union, taken)), adjust


def _union(cards: list[int]) -> int:
    """The bitmask of cards: their bits' sum when no card repeats (no bit carried), else their `or`."""
    mask = sum(map(BITS.__getitem__, cards))
    return mask if mask.bit_count() == len(cards) else reduce(or_, map(BITS.__getitem__, cards), 0)


SLAM_TERMS = {
    None: 0,
    "made": 200,
    "announced_made": 400,
    "announced_failed": -200,
    "defence": 0,
    "announced_defence": -200,
}
"""Each slam outcome's part of S before the defence's bonus (`slam_term`)."""
DEFENCE_SLAMS = frozenset({"defence", "announced_defence"})
"""The outcomes where the defence won every trick, which also take the defence's bonus off S."""


def slam_term(slam: str | None, defence_bonus: int) -> int:
    """The slam's part of S (tarot.score.slam): +200 made, +400 announced and made, -200 announced
    and failed, and minus the defence's bonus when the defence wins every trick."""
    return SLAM_TERMS[slam] - (defence_bonus if slam in DEFENCE_SLAMS else 0)


def count_contract(facts: ContractFacts, defence_bonus: int) -> ContractCount:
    """The attack's result and the amount S each defender pays, from the facts (tarot.score.*):
    target by bouts, the half point to the winning side, (25 + diff) x coef, Petit au bout,
    poignées and slam."""
    points = facts.half_points
    target = TARGETS[facts.bouts]
    won_contract = points >= 2 * target
    rounded = (points + 1) // 2 if won_contract else points // 2
    diff = abs(rounded - target)
    coefficient = COEFFICIENTS[facts.contract]
    sign = 1 if won_contract else -1
    petit = facts.petit_au_bout
    slam = slam_term(facts.slam, defence_bonus)
    poignees = sum(POIGNEE_BONUS[level] for level in facts.poignees)
    per_defender = (
        sign * (CONTRACT_BASE + diff) * coefficient
        + petit * PETIT_AU_BOUT * coefficient
        + sign * poignees
        + slam
    )
    return ContractCount(points, facts.bouts, target, won_contract, diff, petit, slam, per_defender)


def contract_deal_scores(facts: ContractFacts, defence_bonus: int) -> list[int]:
    """Each seat's score for a contract: defenders -S, the taker the rest, a partner S
    (tarot.score.split), with the misères added (tarot.score.misere)."""
    per_defender = count_contract(facts, defence_bonus).per_defender
    attack = {facts.taker} if facts.partner is None else {facts.taker, facts.partner}
    n = facts.players
    scores = [-per_defender if seat not in attack else 0 for seat in range(n)]
    scores[facts.taker] = (n - len(attack)) * per_defender
    if facts.partner is not None:
        scores[facts.partner] = per_defender
        scores[facts.taker] -= per_defender
    return [a + m for a, m in zip(scores, misere_scores(n, facts.miseres), strict=True)]


def goulash_deal_scores(taken: Sequence[int], miseres: Sequence[int]) -> list[int | float]:
    """A goulash's scores from each seat's card points (doubled, `taken`): each player pays every
    other the points he took (tarot.goulash.settlement), misères added; halves stay."""
    n = len(taken)
    total = sum(taken)
    misere = misere_scores(n, miseres)
    return [as_points(total - n * taken[seat] + 2 * misere[seat]) for seat in range(n)]


def misere_scores(players: int, miseres: Sequence[int]) -> list[int]:
    """Misères: every other player pays the declarer 10 for each (tarot.score.misere)."""
    scores = [0] * players
    for seat in miseres:
        for other in range(players):
            scores[other] += MISERE_VALUE * (players - 1) if other == seat else -MISERE_VALUE
    return scores


def contract_facts(state: TarotState) -> ContractFacts:
    """A played contract's score-sheet facts, from its replay (counted once if `settle` has)."""
    if state.facts is not None:
        return state.facts
    assert state.taker is not None
    attack = state.attack()
    sides = [0 if seat in attack else 1 for seat in range(state.players)]
    won, adjust = owners(state, sides)
    if state.contract <= GARDE:
        won[0] |= state.discard
    elif state.contract == 3:  # garde sans: the dog counts for the taker
        won[0] |= state.dog
    else:  # garde contre: the dog counts for the defence
        won[1] |= state.dog
    petit = petit_au_bout_seat(state)
    return ContractFacts(
        players=state.players,
        contract=state.contract,
        taker=state.taker,
        partner=state.partner,
        half_points=half_points(won[0]) + adjust[0],
        bouts=(won[0] & BOUTS).bit_count(),
        petit_au_bout=0 if petit is None else 1 if petit in attack else -1,
        poignees=tuple(p.level for p in state.poignees.values()),
        slam=slam_outcome(state),
        miseres=tuple(seat for seat, _kind in state.miseres),
    )


def settle(state: TarotState) -> None:
    """Count a finished contract's facts once (`state.facts`), so that its score, the points
    check and the archive's summary share them; for a replay whose state changes no more."""
    if points_counted(state):
        state.facts = contract_facts(state)


def contract_count(state: TarotState) -> ContractCount:
    """The taker's side's points, bouts, target, result and per-defender amount S (tarot.score.*)."""
    return count_contract(contract_facts(state), state.table.options.defence_slam_bonus)


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
    half = contract_facts(state).half_points
    return float(points) in {half / 2, float((half + 1) // 2), float(half // 2)}


def petit_au_bout_seat(state: TarotState) -> int | None:
    """The seat that wins the Petit au bout, None when it is not au bout (tarot.score.petit-au-bout):
    the winner of the last trick holding T1; when a slam's Excuse takes the last trick, the winner
    of the penultimate trick if T1 is led to it (FFT: "s'il est mené à l'avant-dernier pli")."""
    last = len(state.tricks) - 1
    final = state.tricks[last]
    if PETIT in final.cards:
        return final.winner
    if last > 0 and excuse_wins(state, last, final) and state.tricks[last - 1].cards[0] == PETIT:
        return state.tricks[last - 1].winner
    return None


def slam_outcome(state: TarotState) -> str | None:
    """The deal's slam as the sheet writes it (SLAM_OUTCOMES), from who won the tricks."""
    attack = state.attack()
    attack_tricks = sum(map(attack.__contains__, map(WINNER, state.tricks)))
    if attack_tricks == state.tricks_per_deal:
        return "announced_made" if state.slam else "made"
    if attack_tricks == 0:
        return "announced_defence" if state.slam else "defence"
    return "announced_failed" if state.slam else None


def goulash_taken(state: TarotState) -> list[int]:
    """Each seat's card points in a goulash, doubled: its tricks and the Excuse exchanges."""
    n = state.players
    won, adjust = owners(state, list(range(n)))
    return [half_points(won[seat]) + adjust[seat] for seat in range(n)]


def deal_scores(state: TarotState) -> list[int | float]:
    """The whole deal's scores as a score sheet shows them (half points only in a goulash)."""
    n = state.players
    if state.status == "annulled" or (state.taker is None and not state.goulash):
        return [0] * n
    miseres = [seat for seat, _kind in state.miseres]
    if state.goulash:
        return goulash_deal_scores(goulash_taken(state), miseres)
    return list(contract_deal_scores(contract_facts(state), state.table.options.defence_slam_bonus))


def as_points(half: int) -> int | float:
    """Half-points as a score-sheet number: whole numbers as ints, halves as .5 floats."""
    return half // 2 if half % 2 == 0 else half / 2


def working(state: TarotState) -> list[tuple[str, int | float | str]]:
    """How a played contract's score is reached (tarot.score.*), for the replay views: the
    attack's points, bouts and target, the margin, 25 + margin times the contract's multiplier,
    the Petit au bout, poignées and slam, and what each defender pays; [] for any other deal."""
    if state.taker is None or state.phase != Phase.DONE or not state.scorable or state.status != "played":
        return []
    facts = contract_facts(state)
    count = count_contract(facts, state.table.options.defence_slam_bonus)
    coefficient = COEFFICIENTS[facts.contract]
    sign = 1 if count.won else -1
    steps: list[tuple[str, int | float | str]] = [
        ("attack's card points", as_points(count.half_points)),
        ("bouts", count.bouts),
        ("target", count.target),
        ("contract", "made" if count.won else "failed"),
        ("margin (rounded)", count.diff),
        (f"{CONTRACT_BASE} + margin", CONTRACT_BASE + count.diff),
        ("multiplier", coefficient),
        ("contract's value", sign * (CONTRACT_BASE + count.diff) * coefficient),
    ]
    if count.petit_au_bout:
        steps.append(("Petit au bout", count.petit_au_bout * PETIT_AU_BOUT * coefficient))
    if facts.poignees:
        steps.append(("poignées", sign * sum(POIGNEE_BONUS[level] for level in facts.poignees)))
    if count.slam_term:
        steps.append(("slam", count.slam_term))
    steps.append(("each defender pays", count.per_defender))
    if facts.miseres:
        steps.append(("misères (10 from each other player)", len(facts.miseres)))
    return steps
