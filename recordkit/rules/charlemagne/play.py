"""Charlemagne card play: the legal plays, which rule a wrong card breaks, who wins a trick (C4).

Rules `charlemagne.play.*` and `charlemagne.trick.*` of spec/rules/charlemagne.md. Suits are the
suits for following: in a trump deal the jokers and le petit bar belong to the trump suit; in the
standard game's no-trump deals (Mulot, Gros Mulot) the jokers belong to no suit and carry duties.
"""

from __future__ import annotations

from collections.abc import Sequence

from recordkit.cards import Deck
from recordkit.diagnostics import Violation
from recordkit.rules.charlemagne.cards import (
    DECKS,
    JOKER_SUIT,
    JOKERS,
    SUIT_NAMES,
    TRICKS,
    Context,
)
from recordkit.rules.charlemagne.state import DONE, CharlemagneState
from recordkit.rules.values import Action, PlayedTrick
from recordkit.rules.violations import at, check_leader, check_winner
from recordkit.rules.violations import not_held as base_not_held


def legal_mask(ctx: Context, hand: int, trick: Sequence[int]) -> int:
    """The cards of `hand` that may be played to `trick` (charlemagne.play.follow, joker-void, joker-led)."""
    if not trick:
        return hand
    led = ctx.suit[trick[0]]
    if ctx.jokers_apart:
        if led == JOKER_SUIT:
            return (hand & JOKERS) or hand
        return (hand & ctx.masks[led]) or (hand & JOKERS) or hand
    return (hand & ctx.masks[led]) or hand


def winning_index(ctx: Context, trick: Sequence[int]) -> int:
    """Index of the winning card: the highest trump, else the highest joker (no trump), else the
    highest card of the suit led (charlemagne.trick.winner); one pass, for both replays."""
    top = ctx.trump if ctx.trump is not None else JOKER_SUIT
    suit, power = ctx.suit, ctx.power
    best = 0
    best_suit = suit[trick[0]]
    best_power = power[trick[0]]
    for index in range(1, len(trick)):
        card = trick[index]
        card_suit = suit[card]
        if card_suit == best_suit:
            if power[card] > best_power:
                best, best_power = index, power[card]
        elif card_suit == top:
            best, best_suit, best_power = index, card_suit, power[card]
    return best


def wrong_card(ctx: Context, deck: Deck, hand: int, trick: Sequence[int], card: int, seat: int) -> Violation:
    """The violation for a card that is held but not among the legal plays."""
    led = ctx.suit[trick[0]]
    played = deck.codes[card]
    lead = deck.codes[trick[0]]
    if ctx.jokers_apart and led == JOKER_SUIT:
        other = deck.format_mask(hand & JOKERS)
        return Violation(
            "CHARLEMAGNE-JOKER-CALLED",
            "charlemagne.play.joker-led",
            f"seat {seat} played {played} on the led joker {lead} while holding the other joker {other}: "
            f"in a Mulot a led joker calls out the other one",
            expected=other,
        )
    following = hand & ctx.masks[led]
    if following:
        held = deck.format_mask(following)
        why = _membership(ctx, card, led, deck)
        return Violation(
            "CHARLEMAGNE-REVOKE",
            "charlemagne.play.follow",
            f"seat {seat} played {played} on a {SUIT_NAMES[led]} lead ({lead}) but held {held}: a player "
            f"must follow suit{why}",
            expected=f"a card of {SUIT_NAMES[led]}: {deck.format_mask(following)}",
        )
    jokers = deck.format_mask(hand & JOKERS)
    return Violation(
        "CHARLEMAGNE-JOKER-DUTY",
        "charlemagne.play.joker-void",
        f"seat {seat} played {played} on a {SUIT_NAMES[led]} lead, holding no {SUIT_NAMES[led]} but the joker "
        f"{jokers}: in a Mulot a player who cannot follow suit must play a joker",
        expected=jokers,
    )


def _membership(ctx: Context, card: int, led: int, deck: Deck) -> str:
    """Why a card that looks like the suit led (or a trump that looks like another suit) is not one."""
    if ctx.trump is None:
        return ""
    if ctx.suit[card] == ctx.trump and led != ctx.trump and card < 32:
        return (
            f"; {deck.codes[card]} is le petit bar: with {SUIT_NAMES[ctx.trump]} trumps it is a trump, "
            f"not a card of {SUIT_NAMES[led]}"
        )
    if led == ctx.trump:
        return f" (the jokers and le petit bar are trumps with {SUIT_NAMES[ctx.trump]} trumps)"
    return ""


def play_card(state: CharlemagneState, action: Action) -> list[Violation]:
    """charlemagne.play.*: one card, checked against the hand and the trick, then played."""
    card = action.value
    deck = DECKS[state.variant]
    problems: list[Violation] = []
    number = len(state.tricks) + 1
    if state.current is None:
        leader = state.to_play()
        state.current = PlayedTrick(leader)
        problems += check_leader(state.recorded, number, leader, "charlemagne.play.lead", action.path)
    trick = state.current
    seat = state.to_play()
    hand = state.hands[seat]
    wrong = None
    if not hand & (1 << card):
        wrong = not_held(state, seat, card)
        state.scorable = False
    elif state.checked and not legal_mask(state.ctx, hand, trick.cards) & (1 << card):
        wrong = wrong_card(state.ctx, deck, hand, trick.cards, card, seat)
    if wrong is not None:
        where = {"seat": seat, "trick": number, "position": len(trick.cards) + 1, "path": action.path}
        problems.append(at(wrong, **where))
    state.hands[seat] = hand & ~(1 << card)
    state.played_in.setdefault(card, number)
    state.cards_played += 1
    trick.cards.append(card)
    trick.seats.append(seat)
    if len(trick.cards) == state.active_count():
        problems += close_trick(state, trick, number, action)
    return problems


def not_held(state: CharlemagneState, seat: int, card: int) -> Violation:
    """PLAY-NOT-HELD, saying where the card really is."""
    if card in state.played_in:
        why = f"it was already played in trick {state.played_in[card]}"
    elif state.discard & (1 << card) or state.defender_discard & (1 << card):
        why = "it was discarded"
    elif state.kitty & (1 << card) and not state.kitty_taken:
        why = "it is in the kitty, out of play"
    else:
        holders = [s for s, h in enumerate(state.hands) if h & (1 << card)]
        if holders and not state.active(holders[0]):
            why = f"seat {holders[0]} holds it, and his hand is out of play"
        elif holders:
            why = f"seat {holders[0]} holds it"
        else:
            why = "it is not in his hand"
    return base_not_held(DECKS[state.variant], seat, card, why, "charlemagne.play.held")


def close_trick(state: CharlemagneState, trick: PlayedTrick, number: int, action: Action) -> list[Violation]:
    """charlemagne.trick.winner: decide the trick, check a written winner, and pass the lead."""
    settle_trick(state, trick)
    if not state.checked:
        return []
    deck = DECKS[state.variant]
    return check_winner(state.recorded, number, trick, deck, "charlemagne.trick.winner", action.path)


def settle_trick(state: CharlemagneState, trick: PlayedTrick) -> None:
    """A complete trick goes to its winner, who leads next; the eighth ends the play (shared by the
    full replay and the fast path, `charlemagne.quick`)."""
    trick.winner = trick.seats[winning_index(state.ctx, trick.cards)]
    state.tricks.append(trick)
    state.current = None
    state.leader = trick.winner
    if state.contract.name == "gros_mulot":
        state.exposed = True
    if len(state.tricks) == TRICKS:
        state.phase = DONE


def playable(state: CharlemagneState, seat: int) -> int:
    """The cards the seat may play now."""
    trick = state.current.cards if state.current else []
    return legal_mask(state.ctx, state.hands[seat], trick)


def take_knock(state: CharlemagneState, action: Action) -> list[Violation]:
    """charlemagne.play.knock: a knock is recorded at its place in the play; it changes no rule."""
    trick, after, place = action.value
    if action.seat is None or action.seat >= len(state.hands):
        return [
            Violation(
                "RECORD-SEAT",
                "charlemagne.players",
                f"seat {action.seat} knocks, but the table has seats 0 to 3",
                path=action.path,
            )
        ]
    if place is None or place != state.cards_played:
        return [
            Violation(
                "CHARLEMAGNE-KNOCK-PLACE",
                "charlemagne.play.knock",
                f"the knock by seat {action.seat} is placed after card {after} of trick {trick}, which is not a "
                f"place in this deal's play",
                seat=action.seat,
                path=action.path,
            )
        ]
    state.knocks.append((action.seat, trick, after))
    return knock_seat(state, action)


def knock_seat(state: CharlemagneState, action: Action) -> list[Violation]:
    """charlemagne.play.knock: a knock is a signal to the knocker's partner to lead a suit, so only
    a player in the play whose partner is in the play too may knock (a lone hand's partner has set
    his hand aside, and a lone hand has nobody to signal to). It changes no rule: the deal is
    still scored."""
    seat = action.seat
    assert seat is not None
    partner = state.partner(seat)
    if state.active(seat) and state.active(partner):
        return []
    why = (
        f"seat {seat} takes no part in the play: its partner, seat {partner}, plays alone"
        if not state.active(seat)
        else f"seat {seat} plays alone: its partner, seat {partner}, has set his hand aside"
    )
    return [
        Violation(
            "CHARLEMAGNE-KNOCK-SEAT",
            "charlemagne.play.knock",
            f"seat {seat} knocks, but a knock is a signal to one's partner to lead, and {why}",
            seat=seat,
            path=action.path,
        )
    ]
