"""A French Tarot player for the generator: bids by counting its hand, calls a king, discards to
make voids, shows its poignée, and plays the Excuse and its cards as a club player would.

Every choice is one of the legal actions the ruleset offers (`recordkit.players`).
"""

from __future__ import annotations

import random

from recordkit.cards import ids_of
from recordkit.rules.cardplay import Sense, follow, lead
from recordkit.rules.french_tarot import play
from recordkit.rules.french_tarot.cards import (
    EXCUSE,
    EXCUSE_BIT,
    FIRST_TRUMP,
    HALF_POINTS,
    PETIT,
    SUIT_MASKS,
    SUITS,
    TRUMP_SUIT,
    TRUMPS,
    TWENTY_ONE,
    bit,
    popcount,
    rank_of,
)
from recordkit.rules.french_tarot.state import Phase, TarotState
from recordkit.rules.values import Action

THRESHOLDS = {3: (42, 52, 63, 73), 4: (40, 46, 58, 68), 5: (29, 37, 48, 57)}
"""The hand count each bid needs (petite, garde, garde sans, garde contre), by number of players."""
HONOUR_COUNT = {14: 6, 13: 3, 12: 2, 11: 1}
"""What a King, Queen, Knight and Jack add to a hand's count."""
POIGNEE_ORDER = ("simple", "double", "triple")


def hand_count(hand: int) -> int:
    """A hand's strength in the usual club count: bouts, trumps, honours, long suits and voids."""
    trumps = popcount(hand & TRUMPS)
    count = 2 * trumps + popcount(hand & TRUMPS & ~((1 << (FIRST_TRUMP + 15)) - 1))
    count += 10 if hand & bit(TWENTY_ONE) else 0
    count += 8 if hand & EXCUSE_BIT else 0
    if hand & bit(PETIT):
        count += 8 if trumps >= 6 else 4
    for suit in range(4):
        cards = ids_of(hand & SUIT_MASKS[suit])
        count += sum(HONOUR_COUNT.get(rank_of(card), 0) for card in cards)
        if len(cards) >= 5:
            count += 2 * (len(cards) - 4)
        elif not cards:
            count += 6 if trumps >= 4 else 2
        elif len(cards) == 1:
            count += 3 if trumps >= 4 else 1
    return count


def bid(state: TarotState, choices: list[Action]) -> Action:
    """The highest bid the hand's count reaches, if it is above the contract so far; else pass."""
    seat = choices[0].seat
    assert seat is not None
    count = hand_count(state.hands[seat])
    wanted = sum(count >= threshold for threshold in THRESHOLDS[state.players])
    for action in choices:
        if action.value == wanted:
            return action
    return choices[0]  # pass: the hand does not reach above the contract


def call(state: TarotState, choices: list[Action]) -> Action:
    """The card of a suit the taker holds most of, among those he may call and does not hold."""
    seat = state.taker
    assert seat is not None
    hand = state.hands[seat]

    def key(action: Action) -> tuple[bool, int]:
        """Not held first, then the length of its suit in the taker's hand."""
        card: int = action.value
        return (not hand & bit(card), popcount(hand & SUIT_MASKS[SUITS[card]]))

    return max(choices, key=key)


def discard(state: TarotState, choices: list[Action]) -> Action:
    """A card of the shortest plain suit, its points first (they count for the taker); trumps last."""
    assert state.taker is not None
    hand = state.hands[state.taker]

    def key(action: Action) -> tuple[int, int, int]:
        """Shortest suit first, then the most points, then the highest rank; trumps after, lowest first."""
        card: int = action.value
        suit = SUITS[card]
        if suit == TRUMP_SUIT:
            return (100, 0, card)
        return (popcount(hand & SUIT_MASKS[suit]), -HALF_POINTS[card], -rank_of(card))

    return min(choices, key=key)


def announce(choices: list[Action]) -> Action | None:
    """A poignée (its highest level) or a true misère still to be shown; never a slam."""
    shown = [a for a in choices if a.kind == "announce" and a.value[0] == "poignee"]
    if shown:
        return max(shown, key=lambda a: POIGNEE_ORDER.index(a.value[1]))
    miseres = [a for a in choices if a.kind == "announce" and a.value[0] == "misere"]
    return miseres[0] if miseres else None


def _side(state: TarotState, seat: int) -> int:
    """0 for the taker's side, 1 for the defence."""
    return 0 if seat in state.attack() else 1


def _strength(state: TarotState, card: int) -> float:
    """Plain cards by rank, trumps above them, the Excuse above all (it is never shed as a loser)."""
    if card == EXCUSE:
        return 50
    return 20 + rank_of(card) if card >= FIRST_TRUMP else rank_of(card)


SENSE = Sense(
    winner=lambda state, cards: play.winning_index(cards),
    side=_side,
    value=lambda state, card: 0 if card == EXCUSE else HALF_POINTS[card],
    strength=_strength,
    size=lambda state: state.players,
    suit=lambda state, card: SUITS[card],
    trump=lambda state: TRUMP_SUIT,
)


def card(state: TarotState, seat: int, legal: list[int]) -> int:
    """The card to play: the Excuse to save points or before the last trick, else by `cardplay`."""
    others = [c for c in legal if c != EXCUSE]
    if not others:
        return EXCUSE
    trick = state.current
    if EXCUSE in legal:
        if popcount(state.hands[seat]) <= 2:
            return EXCUSE
        if trick is not None and trick.cards:
            cards = trick.cards
            losing = all(play.winning_index([*cards, c]) != len(cards) for c in others)
            if losing and min(HALF_POINTS[c] for c in others) >= 5:
                return EXCUSE
    if trick is None or not trick.cards:
        outstanding = ids_of(sum(h for s, h in enumerate(state.hands) if s != seat) & ~EXCUSE_BIT)
        return lead(SENSE, state, seat, others, outstanding, seat in state.attack())
    return follow(SENSE, state, seat, trick, others)


def choose(state: TarotState, choices: list[Action], rng: random.Random) -> Action:
    """The heuristic player's action among the legal `choices`."""
    kind = choices[0].kind
    if state.phase == Phase.AUCTION:
        return bid(state, choices)
    if kind == "call":
        return call(state, choices)
    if kind == "discard":
        return discard(state, choices)
    shown = announce(choices)
    if shown is not None:
        return shown
    plays = {a.value: a for a in choices if a.kind == "play"}
    seat = state.to_play()
    return plays[card(state, seat, sorted(plays))]
