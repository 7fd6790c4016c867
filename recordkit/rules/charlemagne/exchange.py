"""Charlemagne: the exchanges — kitty, the partner's card, the discard — and naming trump (C3).

Rules `charlemagne.exchange.*` and `charlemagne.trump.*` of spec/rules/charlemagne.md. The same
functions serve the Maine lone defender (`charlemagne.defence.exchange`).
"""

from __future__ import annotations

from recordkit.diagnostics import Violation
from recordkit.rules.charlemagne.cards import DECKS, SUIT_NAMES, bit
from recordkit.rules.charlemagne.state import DEFENCE, DEFENDER_DISCARD, PARTNER_CARD, CharlemagneState
from recordkit.rules.charlemagne.steps import enter_next
from recordkit.rules.values import Action

EXCHANGE_RULES = {
    "kitty": "charlemagne.exchange.kitty",
    "kitty_and_partner": "charlemagne.exchange.charlemagne",
    "kitty_or_partner": "charlemagne.exchange.gros-charlemagne",
    "partner": "charlemagne.exchange.alone",
    "none": "charlemagne.exchange.none",
}


def exchange_rule(state: CharlemagneState) -> str:
    """The rule id of the bidder's exchange in this contract, or of the lone defender's."""
    if state.phase >= DEFENCE and state.defender is not None:
        return "charlemagne.defence.exchange"
    return EXCHANGE_RULES[state.contract.exchange]


def take_partner_card(state: CharlemagneState, action: Action) -> list[Violation]:
    """charlemagne.exchange.*: the lone bidder's partner passes him one card of his choice, then leaves."""
    assert state.bidder is not None
    if state.contract.exchange == "kitty_or_partner":
        state.exchange = "partner"
    return pass_card(state, action, state.bidder, exchange_rule(state))


def take_defender_card(state: CharlemagneState, action: Action) -> list[Violation]:
    """charlemagne.defence.exchange: the lone defender's partner passes him one card, then leaves."""
    assert state.defender is not None
    return pass_card(state, action, state.defender, "charlemagne.defence.exchange")


def pass_card(state: CharlemagneState, action: Action, receiver: int, rule: str) -> list[Violation]:
    """One card from the receiver's partner to the receiver; the giver's hand goes out of play."""
    giver = state.partner(receiver)
    action.seat = giver
    card = action.value
    problems: list[Violation] = []
    if not state.hands[giver] & bit(card):
        problems.append(
            Violation(
                "CHARLEMAGNE-CARD-NOT-HELD",
                rule,
                f"seat {giver} passed {DECKS[state.variant].codes[card]} to his partner (seat {receiver}), "
                f"but does not hold it",
                seat=giver,
                path=action.path,
                expected=f"one of {DECKS[state.variant].format_mask(state.hands[giver])}",
            )
        )
        state.scorable = False
    state.hands[giver] &= ~bit(card)
    state.hands[receiver] |= bit(card)
    if state.phase == PARTNER_CARD:
        state.partner_card = card
    else:
        state.defender_card = card
    state.out |= 1 << giver
    enter_next(state)
    return problems


def take_discard(state: CharlemagneState, action: Action) -> list[Violation]:
    """charlemagne.exchange.held: one discarded card, taken from the hand (kitty or partner's card included)."""
    defender = state.phase == DEFENDER_DISCARD
    seat = state.defender if defender else state.bidder
    assert seat is not None
    action.seat = seat
    card = action.value
    card_bit = bit(card)
    problems: list[Violation] = []
    if not state.hands[seat] & card_bit:
        deck = DECKS[state.variant]
        problems.append(
            Violation(
                "CHARLEMAGNE-DISCARD-NOT-HELD",
                "charlemagne.exchange.held",
                f"seat {seat} discarded {deck.codes[card]}, which is not in his hand"
                + (" (with the kitty)" if state.kitty_taken and not defender else ""),
                seat=seat,
                path=action.path,
                expected=f"one of {deck.format_mask(state.hands[seat])}",
            )
        )
        state.scorable = False
    state.hands[seat] &= ~card_bit
    if defender:
        state.defender_discard |= card_bit
    else:
        state.discard |= card_bit
    state.to_discard -= 1
    if state.to_discard <= 0:
        enter_next(state)
    return problems


def take_trump(state: CharlemagneState, action: Action) -> list[Violation]:
    """charlemagne.trump.named: the bidder names the trump suit after his exchange."""
    state.trump = action.value
    state.trump_named = True
    enter_next(state)
    return []


def discard_size(state: CharlemagneState, path: str, extra: bool) -> Violation:
    """charlemagne.exchange.discard-size: the discard must bring the hand back to exactly eight cards."""
    seat = state.defender if state.phase >= DEFENCE and state.defender is not None else state.bidder
    count = f"more than {state.discard_due}" if extra else f"only {state.discard_due - state.to_discard}"
    return Violation(
        "CHARLEMAGNE-DISCARD-SIZE",
        "charlemagne.exchange.discard-size",
        f"seat {seat} {what_was_taken(state, seat)}, so he discards {state.discard_due} card(s) to keep "
        f"eight; the record discards {count}",
        seat=seat,
        path=path,
        expected=f"{state.discard_due} card(s)",
    )


def what_was_taken(state: CharlemagneState, seat: int | None) -> str:
    """In words, what the seat added to his hand before discarding."""
    if seat is not None and seat == state.defender:
        return "took one card from his partner"
    parts = []
    if state.kitty_taken:
        parts.append("the kitty")
    if state.partner_card is not None:
        parts.append("one card from his partner")
    return "took " + " and ".join(parts) if parts else "took no card"


def trump_not_allowed(state: CharlemagneState, action: Action) -> Violation:
    """charlemagne.trump.none: no trump is named after a no-trump bid, nor after a Maine bid."""
    contract = state.contract
    if state.bidder is None:
        why = "nobody bid"
    elif state.maine:
        why = f"in the Maine game the trump is named with the bid ({contract.title})"
    else:
        why = f"{contract.title} is played without trump"
    return Violation(
        "CHARLEMAGNE-TRUMP-NOT-ALLOWED",
        "charlemagne.trump.none",
        f"the record names trump {SUIT_NAMES[action.value]}, but {why}",
        seat=state.bidder,
        path=action.path,
    )
