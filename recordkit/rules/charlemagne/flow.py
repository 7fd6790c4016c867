"""Charlemagne: carrying out one action — the step it belongs to, what the record skipped, what is
out of place (ENGINE.md, `advance`)."""

from __future__ import annotations

from collections.abc import Callable

from recordkit.diagnostics import Violation
from recordkit.rules.charlemagne import auction, claim, defence, exchange, play
from recordkit.rules.charlemagne.bids import LADDERS
from recordkit.rules.charlemagne.cards import PLAYERS, TRICKS
from recordkit.rules.charlemagne.state import (
    AUCTION,
    DEFENDER_CARD,
    DEFENDER_DISCARD,
    DISCARD,
    DONE,
    PARTNER_CARD,
    PHASE_OF_KIND,
    PLAY,
    TRUMP,
    CharlemagneState,
    Phase,
)
from recordkit.rules.charlemagne.steps import enter_next, gros_charlemagne_choice
from recordkit.rules.values import Action

Handler = Callable[[CharlemagneState, Action], list[Violation]]
HANDLERS: dict[str, Handler] = {
    "bid": auction.take_bid,
    "partner_card": exchange.take_partner_card,
    "discard": exchange.take_discard,
    "trump": exchange.take_trump,
    "defence": defence.take_answer,
    "defender_card": exchange.take_defender_card,
    "defender_discard": exchange.take_discard,
    "play": play.play_card,
    "knock": play.take_knock,
    "claim": claim.take_claim,
}


def advance(state: CharlemagneState, action: Action) -> list[Violation]:
    """Check and carry out one action; report the steps it skips and anything out of place."""
    if action.kind == "knock" and (state.phase == DONE or state.phase == PLAY):
        return play.take_knock(state, action)
    if state.phase == DONE:
        return after_end(state, action)
    if action.kind == "play" and state.phase == PLAY:
        return play.play_card(state, action)
    target = PHASE_OF_KIND[action.kind]
    if target < state.phase:
        return [out_of_place(state, action)]
    problems = close_phases(state, target)
    if _over(state):  # an all-pass auction closed by a later action
        return problems + after_end(state, action)
    if state.phase > target:
        return [*problems, out_of_place(state, action)]
    return problems + HANDLERS[action.kind](state, action)


def close_phases(state: CharlemagneState, target: Phase) -> list[Violation]:
    """Move on to the action's step, reporting each step the record skipped."""
    problems: list[Violation] = []
    while state.phase < target:
        phase = state.phase
        if phase == AUCTION:
            problems.append(
                Violation(
                    "CHARLEMAGNE-AUCTION-INCOMPLETE",
                    "charlemagne.auction.once",
                    f"only {state.calls_made} of the {PLAYERS} players spoke in the auction; each player "
                    f"speaks once, the dealer last",
                    path="auction",
                )
            )
            state.scorable = False
            auction.end_auction(state)
            if state.phase == DONE:
                return problems
            continue
        problems += _skipped(state, phase, target)
        enter_next(state)
    return problems


def _skipped(state: CharlemagneState, phase: Phase, target: Phase) -> list[Violation]:
    """What leaving a step with nothing recorded means: a missing card, discard or trump, or a choice."""
    contract = state.contract
    if phase == PARTNER_CARD and contract.exchange == "kitty_or_partner":
        if target == DISCARD:
            gros_charlemagne_choice(state, takes_kitty=True)
            return []
        gros_charlemagne_choice(state, takes_kitty=False)
        if state.table.options.gros_charlemagne_allow_no_exchange:
            return []
        state.scorable = False
        return [
            Violation(
                "CHARLEMAGNE-EXCHANGE-MISSING",
                "charlemagne.exchange.gros-charlemagne",
                "Gros Charlemagne takes either the kitty (and discards two) or one card from his partner "
                "(and discards one); the record shows neither",
                seat=state.bidder,
                path="discard",
            )
        ]
    if phase in (PARTNER_CARD, DEFENDER_CARD):
        receiver = state.bidder if phase == PARTNER_CARD else state.defender
        assert receiver is not None
        state.out |= 1 << state.partner(receiver)
        state.scorable = False
        field = "partner_card" if phase == PARTNER_CARD else "defender_card"
        return [
            Violation(
                "CHARLEMAGNE-CARD-MISSING",
                "charlemagne.defence.exchange" if phase == DEFENDER_CARD else exchange.exchange_rule(state),
                f"seat {state.partner(receiver)} passes one card to his partner (seat {receiver}), who plays "
                f"alone; the record has no {field}",
                seat=state.partner(receiver),
                path=field,
            )
        ]
    if phase in (DISCARD, DEFENDER_DISCARD):
        state.scorable = False
        return [exchange.discard_size(state, "discard" if phase == DISCARD else "defender_discard", False)]
    if phase == TRUMP:
        state.scorable = False
        state.checked = False
        return [
            Violation(
                "CHARLEMAGNE-TRUMP-MISSING",
                "charlemagne.trump.named",
                f"after {contract.title} the bidder names trump before the first lead; the record names none, "
                f"so the cards played are not checked",
                seat=state.bidder,
                path="trump",
            )
        ]
    return []


def out_of_place(state: CharlemagneState, action: Action) -> Violation:
    """An action whose step is already over, or that this contract does not have."""
    kind = action.kind
    if kind == "bid":
        name = LADDERS[state.variant][action.value].title
        return Violation(
            "CHARLEMAGNE-AUCTION-EXTRA",
            "charlemagne.auction.once",
            f"every player has already spoken once; the call {name!r} is one too many",
            path=action.path,
        )
    if kind in ("discard", "defender_discard"):
        has_discard = (
            state.phase > DISCARD and state.discard_due > 0
            if kind == "discard"
            else (state.defender is not None)
        )
        if has_discard:
            return exchange.discard_size(state, action.path, True)
        who = "the lone defender" if kind == "defender_discard" else "the bidder"
        return Violation(
            "CHARLEMAGNE-DISCARD-NOT-ALLOWED",
            "charlemagne.exchange.none",
            f"{who} discards nothing: {_no_exchange(state)}",
            path=action.path,
        )
    if kind in ("partner_card", "defender_card"):
        return Violation(
            "CHARLEMAGNE-CARD-NOT-ALLOWED",
            "charlemagne.exchange.none" if kind == "partner_card" else "charlemagne.defence.exchange",
            f"no card passes between partners here: {_no_exchange(state)}"
            if kind == "partner_card"
            else "no card passes to a defender: no defender goes alone",
            path=action.path,
        )
    if kind == "trump":
        return exchange.trump_not_allowed(state, action)
    if kind == "defence":
        return defence.defence_not_allowed(state, action)
    return Violation(
        "CHARLEMAGNE-CLAIM-INVALID",
        "charlemagne.play.claim",
        "a claim is made during the play, between two tricks",
        seat=action.seat,
        path=action.path,
    )


def _no_exchange(state: CharlemagneState) -> str:
    """Why this deal has no (more) exchange, in words."""
    if state.bidder is None:
        return "nobody bid"
    contract = state.contract
    if contract.exchange == "none":
        return f"{contract.title} is played with the cards dealt"
    if contract.exchange == "kitty":
        return f"after {contract.title} the bidder takes the kitty, not a card from his partner"
    if contract.exchange == "kitty_or_partner":
        return "Gros Charlemagne took the kitty, so no card comes from his partner"
    return "the exchange is over"


def after_end(state: CharlemagneState, action: Action) -> list[Violation]:
    """Something recorded after the deal ended: report it once (not after an annulled deal,
    whose status is reported already: its actions are not replayed at all)."""
    if state.overrun_reported or state.status == "annulled":
        return []
    state.overrun_reported = True
    state.scorable = False
    if state.bidder is None:
        return [
            Violation(
                "CHARLEMAGNE-ALL-PASS-PLAYED",
                "charlemagne.auction.all-pass",
                "everybody passed, so the cards are thrown in and the next dealer deals, yet the record goes on",
                path=action.path,
            )
        ]
    if action.kind == "claim" or state.claim is not None:
        return [
            Violation(
                "CHARLEMAGNE-CLAIM-INVALID",
                "charlemagne.play.claim",
                "the play is over (all tricks played or claimed); nothing is left to claim or play",
                path=action.path,
            )
        ]
    return [
        Violation(
            "DEAL-EXTRA-TRICK",
            "charlemagne.trick.count",
            f"all {TRICKS} tricks are played; the record has more",
            path=action.path,
            trick=action.trick,
        )
    ]


def _over(state: CharlemagneState) -> bool:
    """True once the deal has ended (a helper so that type checkers re-read the phase)."""
    return state.phase == DONE
