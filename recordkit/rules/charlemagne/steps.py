"""Charlemagne: which steps a contract has, and what opening each step does (C3, C4).

After the auction a deal goes through the steps of `Phase` in order, skipping those its contract
does not have: the partner's card, the discard, naming trump, the Maine defenders' answers and the
lone defender's exchange, then the play.
"""

from __future__ import annotations

from recordkit.rules.charlemagne.cards import KITTY_SIZE
from recordkit.rules.charlemagne.state import (
    DEFENCE,
    DEFENDER_CARD,
    DEFENDER_DISCARD,
    DISCARD,
    DONE,
    PARTNER_CARD,
    PLAY,
    TRUMP,
    CharlemagneState,
    Phase,
)

PHASES = tuple(Phase)
"""The steps by number (`Phase(n)` costs over a microsecond in Python 3.11, this a lookup)."""


def enter_next(state: CharlemagneState) -> None:
    """Move on to the next step this contract has, doing what opens it."""
    phase = state.phase
    while phase < DONE:
        phase = PHASES[phase + 1]
        if opens(state, phase):
            break
    state.phase = phase


def opens(state: CharlemagneState, phase: Phase) -> bool:
    """Whether the contract has this step; opening the discard counts the cards to put away."""
    assert state.bidder is not None
    if phase == PARTNER_CARD:
        return state.contract.exchange in ("kitty_and_partner", "kitty_or_partner", "partner")
    if phase == DISCARD:
        return due(state, state.bidder)
    if phase == TRUMP:
        return state.contract.trump == "named"
    if phase == DEFENCE:
        contract = state.contract
        return state.maine and contract.alone and contract.exchange == "partner"
    if phase == DEFENDER_CARD:
        return state.defender is not None
    if phase == DEFENDER_DISCARD:
        return state.defender is not None and due(state, state.defender)
    if phase == PLAY:
        start_play(state)
    return True


def due(state: CharlemagneState, seat: int) -> bool:
    """charlemagne.exchange.discard-size: the seat discards as many cards as it took (the kitty's two,
    a partner's card), which brings a hand of eight back to eight. Counted from the exchange, not
    from the hand, so that a deal whose hands are not known replays the same steps."""
    if seat == state.defender:
        taken = int(state.defender_card is not None)
    else:
        taken = KITTY_SIZE[state.variant] * state.kitty_taken + int(state.partner_card is not None)
    state.discard_due = state.to_discard = taken
    return taken > 0


def start_play(state: CharlemagneState) -> None:
    """The first leader by contract; a Gros Mulot hand spread before the lead under that option."""
    state.leader = state.first_leader()
    if state.contract.name == "gros_mulot" and state.table.options.gros_mulot_expose == "before_first_lead":
        state.exposed = True


def gros_charlemagne_choice(state: CharlemagneState, takes_kitty: bool) -> None:
    """charlemagne.exchange.gros-charlemagne: the kitty (then discard 2) or nothing, when no card came."""
    assert state.bidder is not None
    if takes_kitty:
        state.hands[state.bidder] |= state.kitty
        state.kitty_taken = True
        state.exchange = "kitty"
    else:
        state.exchange = "none"
