"""French Tarot card play: the legal plays, which rule a wrong card breaks, who wins a trick.

Rules T4 of RULES-NOTES and `tarot.play.*` / `tarot.trick.*` in spec/rules/french-tarot.md.
"""

from __future__ import annotations

from collections.abc import Sequence

from recordkit.cards import ids_of
from recordkit.diagnostics import Violation
from recordkit.rules.french_tarot.cards import (
    BITS,
    DECK,
    EXCUSE,
    EXCUSE_BIT,
    EXCUSE_SUIT,
    FIRST_TRUMP,
    SUIT_MASKS,
    SUITS,
    TRUMP_SUIT,
    TRUMPS,
    TRUMPS_ABOVE,
    suit_of,
)
from recordkit.rules.french_tarot.scoring import excuse_wins
from recordkit.rules.french_tarot.state import Phase, TarotState
from recordkit.rules.values import Action, PlayedTrick
from recordkit.rules.violations import at, check_leader, check_winner, where_is
from recordkit.rules.violations import not_held as base_not_held

SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs", "trumps", "the Excuse")


def suit_setter(trick: Sequence[int]) -> int | None:
    """The card that sets the suit to follow: the first card that is not the Excuse."""
    for card in trick:
        if card != EXCUSE:
            return card
    return None


def highest_trump(trick: Sequence[int]) -> int | None:
    """The highest trump in the trick so far, if any (trump ids grow with rank)."""
    return max((card for card in trick if FIRST_TRUMP <= card < EXCUSE), default=None)


RANK_KEYS = tuple(
    tuple(
        card + EXCUSE if FIRST_TRUMP <= card < EXCUSE else card if SUITS[card] == lead < TRUMP_SUIT else -1
        for card in range(EXCUSE + 1)
    )
    for lead in range(EXCUSE_SUIT + 1)
)
"""tarot.trick.winner as a table, its one statement: each card's strength in a trick by the suit
led (`EXCUSE_SUIT`: none yet, only the Excuse played): a trump above any plain card, the suit
led by rank, any other card (and the Excuse) never winning."""


def legal(hand: int, lead: int, high: int) -> int:
    """The cards of `hand` that may be played on a trick whose suit to follow is `lead` (-1: none
    yet) and whose highest trump is `high` (-1: none): rules tarot.play.follow .. excuse, stated
    once over plain integers for `play_trick` (both replays) and `legal_mask` (the players)."""
    if lead < 0:
        return hand
    if lead != TRUMP_SUIT:
        following = hand & SUIT_MASKS[lead]
        if following:
            return following | (hand & EXCUSE_BIT)
    trumps = hand & TRUMPS
    if not trumps:
        return hand
    over = trumps & TRUMPS_ABOVE[high] if high >= 0 else trumps
    return (over or trumps) | (hand & EXCUSE_BIT)


def play_trick(hands: list[int], seats: Sequence[int], cards: Sequence[int], start: int = 0) -> int:
    """A trick's `cards` in play order by `seats`, those from `start` on taken from their seats'
    hands (as `legal` allows them, else -1 at the first that is not held or not legal, the cards
    before it played): the position of the card winning by rank (`RANK_KEYS`; 0 for a lone
    Excuse). Both replays call it: the fast path once a trick, `play_card` once a card (`start`
    its place)."""
    keys = RANK_KEYS[EXCUSE_SUIT]
    lead = high = best_key = -1
    best = 0
    for position, card in enumerate(cards):
        if position >= start:
            seat = seats[position]
            hand = hands[seat]
            if not legal(hand, lead, high) >> card & 1:
                return -1
            hands[seat] = hand ^ BITS[card]
        if lead < 0 and card != EXCUSE:
            lead = SUITS[card]
            keys = RANK_KEYS[lead]
        key = keys[card]
        if key > best_key:
            best, best_key = position, key
            if card >= FIRST_TRUMP:
                high = card
    return best


def legal_mask(hand: int, trick: Sequence[int]) -> int:
    """The cards of `hand` that may be played to `trick` (rules tarot.play.follow .. excuse)."""
    led = suit_setter(trick)
    high = highest_trump(trick)
    return legal(hand, -1 if led is None else SUITS[led], -1 if high is None else high)


def wrong_card(hand: int, trick: Sequence[int], card: int, seat: int) -> Violation:
    """The violation for a card that is held but not among the legal plays."""
    code = DECK.codes[card]
    led = suit_setter(trick)
    assert led is not None, "a lead is always legal"
    led_suit = suit_of(led)
    trumps = hand & TRUMPS
    high = highest_trump(trick)
    if led_suit != TRUMP_SUIT and hand & SUIT_MASKS[led_suit]:
        held = DECK.format_mask(hand & SUIT_MASKS[led_suit])
        return Violation(
            "TAROT-REVOKE",
            "tarot.play.follow",
            f"seat {seat} played {code} on a {SUIT_NAMES[led_suit]} lead but held {held}: "
            f"a player must follow suit",
            expected=f"a card of {SUIT_NAMES[led_suit]}: {held}",
        )
    over = trumps & TRUMPS_ABOVE[high] if high is not None else trumps
    if suit_of(card) == TRUMP_SUIT and over:
        return Violation(
            "TAROT-OVERTRUMP",
            "tarot.play.overtrump",
            f"seat {seat} played {code} but had to overtrump {DECK.codes[high or 0]} "
            f"and held {DECK.format_mask(over)}",
            expected=f"a trump higher than {DECK.codes[high or 0]}: {DECK.format_mask(over)}",
        )
    if led_suit == TRUMP_SUIT:
        return Violation(
            "TAROT-REVOKE",
            "tarot.play.follow",
            f"seat {seat} played {code} on a trump lead but held trumps {DECK.format_mask(trumps)}: "
            f"a player must follow suit",
            expected=f"a trump: {DECK.format_mask(over or trumps)}",
        )
    if high is not None and not over:
        return Violation(
            "TAROT-UNDERTRUMP",
            "tarot.play.undertrump",
            f"seat {seat} played {code}: void in {SUIT_NAMES[led_suit]} and unable to beat "
            f"{DECK.codes[high]}, he still had to play a trump and held {DECK.format_mask(trumps)}",
            expected=f"a trump: {DECK.format_mask(trumps)}",
        )
    return Violation(
        "TAROT-MUST-TRUMP",
        "tarot.play.trump",
        f"seat {seat} played {code}: void in {SUIT_NAMES[led_suit]}, he had to trump and held "
        f"{DECK.format_mask(trumps)}",
        expected=f"a trump: {DECK.format_mask(over or trumps)}",
    )


def play_card(state: TarotState, action: Action) -> list[Violation]:
    """tarot.play.*: one card, checked against the hand and the trick (`play_trick`, as the fast
    path checks it), then played."""
    card = action.value
    number = len(state.tricks) + 1
    trick = state.current
    problems: list[Violation] = []
    if trick is None:
        leader = state.to_play()
        trick = state.current = PlayedTrick(leader)
        if state.recorded[number - 1 : number] and state.recorded[number - 1][0] is not None:
            problems += check_leader(state.recorded, number, leader, "tarot.trick.leader", action.path)
    cards = trick.cards
    players = state.table.players
    seat = (trick.leader + len(cards)) % players
    hand = state.hands[seat]
    bit = 1 << card
    wrong = None
    if not hand & bit:
        wrong = not_held(state, seat, card)
        state.scorable = False
    elif play_trick(state.hands, [*trick.seats, seat], [*cards, card], len(cards)) < 0:
        wrong = wrong_card(hand, cards, card, seat)
    elif number == 1 and state.called is not None:
        wrong = first_lead(state, trick, card, seat)
    if wrong is not None:
        where = {"seat": seat, "trick": number, "position": len(cards) + 1, "path": action.path}
        problems.append(at(wrong, **where))
    state.hands[seat] = hand & ~bit
    if card not in state.played_in:
        state.played_in[card] = number
    cards.append(card)
    trick.seats.append(seat)
    if len(cards) == players:
        problems += close_trick(state, trick, number, action)
    return problems


def winning_index(trick: Sequence[int]) -> int:
    """The position of the card that wins a trick by rank (`RANK_KEYS` under the suit led): what
    `play_trick` finds taking no card, without its hand checks, for the full replay's winner and
    the players (a property test holds the two together)."""
    led = trick[0] if trick[0] != EXCUSE or len(trick) == 1 else trick[1]  # `suit_setter`, or the Excuse
    keys = RANK_KEYS[SUITS[led]]  # (the Excuse's suit: none led yet)
    best = 0
    best_key = keys[trick[0]]
    for position in range(1, len(trick)):
        key = keys[trick[position]]
        if key > best_key:
            best, best_key = position, key
    return best


def not_held(state: TarotState, seat: int, card: int) -> Violation:
    """PLAY-NOT-HELD, saying where the card really is."""
    return base_not_held(DECK, seat, card, where_is(card, state.hands, state.played_in), "tarot.play.held")


def banned_lead(ban: str, called: int | None, before: Sequence[int], card: int) -> bool:
    """tarot.play.first-lead: whether `card`, played after the cards `before` of the deal's first
    trick, is a lead the five-player ban covers (in the suit of the called card, not the called
    card itself), whatever else its player holds."""
    if called is None or ban == "off" or called >= 56:
        return False
    suit_setting = not before or (ban == "suit_setting_card" and list(before) == [EXCUSE])
    return suit_setting and suit_of(card) == suit_of(called) and card != called


def first_lead(state: TarotState, trick: PlayedTrick, card: int, seat: int) -> Violation | None:
    """tarot.play.first-lead: five players, the opening lead avoids the called suit."""
    ban = state.table.options.called_suit_first_lead_ban
    if state.tricks or not banned_lead(ban, state.called, trick.cards, card):
        return None
    assert state.called is not None
    if not state.hands[seat] & ~SUIT_MASKS[suit_of(state.called)]:
        return None  # nothing else to lead
    return Violation(
        "TAROT-CALLED-SUIT-LEAD",
        "tarot.play.first-lead",
        f"seat {seat} opened with {DECK.codes[card]} in the suit of the called card "
        f"{DECK.codes[state.called]}: the first lead may not be in that suit, except the called card itself",
    )


def close_trick(state: TarotState, trick: PlayedTrick, number: int, action: Action) -> list[Violation]:
    """tarot.trick.winner: decide the trick, check a written winner, and pass the lead."""
    index = number - 1
    if excuse_wins(state, index, trick):
        trick.winner = trick.seats[trick.cards.index(EXCUSE)]
    else:
        trick.winner = trick.seats[winning_index(trick.cards)]
    problems = check_winner(state.recorded, number, trick, DECK, "tarot.trick.winner", action.path)
    state.tricks.append(trick)
    state.current = None
    state.leader = trick.winner
    if len(state.tricks) == state.tricks_per_deal:
        state.phase = Phase.DONE
    return problems


def playable(state: TarotState, seat: int) -> int:
    """The cards the seat may play now, the five-player first-lead ban included."""
    trick = state.current.cards if state.current else []
    legal = legal_mask(state.hands[seat], trick)
    probe = state.current or PlayedTrick(seat)
    kept = 0
    for card in ids_of(legal):
        if first_lead(state, probe, card, seat) is None:
            kept |= 1 << card
    return kept
