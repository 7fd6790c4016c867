"""A Charlemagne player for the generator (standard and Maine): bids the tricks its best trump and
its partner should take, discards its weakest side cards, names its best suit, passes as a
defender, and plays its cards by `cardplay`; it never knocks nor claims.

Every choice is one of the legal actions the ruleset offers (`recordkit.players`).
"""

from __future__ import annotations

import random

from recordkit.cards import ids_of
from recordkit.rules.cardplay import Sense, follow, lead
from recordkit.rules.charlemagne import play
from recordkit.rules.charlemagne.bids import LADDERS
from recordkit.rules.charlemagne.cards import ACE, KING, TRICKS, TRUMP_BASE, Context, context
from recordkit.rules.charlemagne.state import CharlemagneState, Phase
from recordkit.rules.values import Action

PARTNER_TRICKS = 1.4
"""The tricks a bidder counts on from his partner."""
AMBITION = 0.4
"""How far above his sure count a bidder rounds up."""
SLAM_MARGIN = 1.0
"""What a contract of every trick needs beyond its eight: one trick lost fails it."""
TOP_TRUMPS = TRUMP_BASE + 10
"""Powers from here up are the jokers and the bars (Maine: the 9 and the jacks)."""


def tricks_with(variant: str, hand: int, trump: int) -> float:
    """The tricks a hand should take with `trump`: top and long trumps, side Aces and guarded Kings."""
    ctx = context(variant, trump)
    held = ids_of(hand)
    trumps = [c for c in held if ctx.suit[c] == trump]
    tricks = sum(
        1.0 if ctx.power[c] >= TOP_TRUMPS + 1 else 0.7 if ctx.power[c] >= TOP_TRUMPS else 0.45 for c in trumps
    )
    tricks += 0.4 * max(0, len(trumps) - 3)
    for suit in set(range(4)) - {trump}:
        ranks = sorted((ctx.power[c] for c in held if ctx.suit[c] == suit), reverse=True)
        if ranks and ranks[0] == ACE:
            tricks += 0.85 + (0.4 if len(ranks) > 1 and ranks[1] == KING else 0)
        elif ranks and ranks[0] == KING and len(ranks) > 1:
            tricks += 0.35
    return tricks


def best_suit(variant: str, hand: int) -> tuple[int, float]:
    """The suit that makes the best trump for this hand, and the tricks it should take."""
    return max(((s, tricks_with(variant, hand, s)) for s in range(4)), key=lambda item: item[1])


def bid(state: CharlemagneState, choices: list[Action]) -> Action:
    """The highest plain contract (Five to Eight; Maine: Five to Seven in a suit) the hand and its
    partner should make; the lowest Five when the dealer is forced; else pass."""
    seat = choices[0].seat
    assert seat is not None
    ladder = LADDERS[state.variant]
    hand = state.hands[seat]
    estimate = {s: tricks_with(state.variant, hand, s) + PARTNER_TRICKS + AMBITION for s in range(4)}
    bonus = 0.3 if not state.maine else 0.0  # the kitty
    plain = [
        a
        for a in choices
        if ladder[a.value].level and not ladder[a.value].misere and not ladder[a.value].alone
    ]
    real = [a for a in plain if ladder[a.value].need >= 5]

    def tricks(action: Action) -> float:
        """What the bidder's side should take under this bid's trump (the best suit when named later)."""
        suit = ladder[action.value].suit
        return (estimate[suit] if suit is not None else max(estimate.values())) + bonus

    fitting = [
        a
        for a in real
        if ladder[a.value].need + (SLAM_MARGIN if ladder[a.value].need == TRICKS else 0) <= tricks(a)
    ]
    if fitting:
        return max(fitting, key=lambda a: (ladder[a.value].level, tricks(a)))
    passes = [a for a in choices if not ladder[a.value].level]
    if passes:
        return passes[0]
    return min(real or plain or choices, key=lambda a: (ladder[a.value].level, -tricks(a)))


def discard(state: CharlemagneState, choices: list[Action]) -> Action:
    """A side card of the bidder's shortest side suit, its lowest first, under his best trump."""
    seat = choices[0].seat
    assert seat is not None
    hand = state.hands[seat]
    trump, _tricks = best_suit(state.variant, hand)
    ctx = context(state.variant, trump)

    def key(action: Action) -> tuple[bool, bool, int, int]:
        """Trumps and Aces last; then the shortest suit, the lowest card."""
        card: int = action.value
        suit = ctx.suit[card]
        length = sum(1 for c in ids_of(hand) if ctx.suit[c] == suit)
        return (suit == trump, ctx.power[card] == ACE, length, ctx.power[card])

    return min(choices, key=key)


def give(state: CharlemagneState, choices: list[Action]) -> Action:
    """A card passed to a partner who plays alone: the giver's strongest."""
    return max(choices, key=lambda a: context(state.variant, None).power[a.value])


def _ctx(state: CharlemagneState) -> Context:
    """The deal's card tables under its trump."""
    return state.ctx


SENSE = Sense(
    winner=lambda state, cards: play.winning_index(state.ctx, cards),
    side=lambda state, seat: seat % 2,
    value=lambda state, card: 0,
    strength=lambda state, card: _ctx(state).power[card],
    size=lambda state: state.active_count(),
    suit=lambda state, card: _ctx(state).suit[card],
    trump=lambda state: _ctx(state).trump,
)


def card(state: CharlemagneState, seat: int, legal: list[int]) -> int:
    """The card to play, by `cardplay`: the bidder's side draws trumps."""
    trick = state.current
    if trick is not None and trick.cards:
        return follow(SENSE, state, seat, trick, legal)
    others = sum(h for s, h in enumerate(state.hands) if s != seat and state.active(s))
    attack = state.bidder is not None and seat % 2 == state.bidder % 2
    return lead(SENSE, state, seat, legal, ids_of(others), attack)


def choose(state: CharlemagneState, choices: list[Action], rng: random.Random) -> Action:
    """The heuristic player's action among the legal `choices`."""
    phase = state.phase
    if phase == Phase.AUCTION:
        return bid(state, choices)
    kinds = {a.kind for a in choices}
    if phase == Phase.DEFENCE:
        return next(a for a in choices if a.value == "pass")
    if phase == Phase.TRUMP:
        assert state.bidder is not None
        suit, _tricks = best_suit(state.variant, state.hands[state.bidder])
        return next(a for a in choices if a.value == suit)
    if "partner_card" in kinds or "defender_card" in kinds:
        return give(state, [a for a in choices if a.kind in {"partner_card", "defender_card"}])
    if phase in (Phase.DISCARD, Phase.DEFENDER_DISCARD):
        return discard(state, choices)
    plays = {a.value: a for a in choices if a.kind == "play"}
    return plays[card(state, state.to_play(), sorted(plays))]
