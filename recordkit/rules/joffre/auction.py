"""Joffre auction: one round from the dealer's left to the dealer, each bid higher (rules `joffre.bid.*`)."""

from __future__ import annotations

from recordkit.diagnostics import Violation
from recordkit.rules.joffre.record import PASS, bid_name, bid_number, is_no_trump
from recordkit.rules.joffre.state import JoffreState, Phase
from recordkit.rules.values import Action

POINTS_ABOVE_TRICKS = 4
"""In points, the most a side can take is every trick but the Kaiser's, plus the Joffre: tricks + 4."""


def max_bid(hand_size: int, unit: str) -> int:
    """joffre.bid.range: the highest bid, the number of tricks or the most points one side can take."""
    return hand_size + POINTS_ABOVE_TRICKS if unit == "points" else hand_size


def speaker(state: JoffreState) -> int:
    """joffre.bid.order: the seat whose call comes next, from the dealer's left round to the dealer."""
    return state.seat_after(state.dealer, 1 + state.calls_made)


def take_bid(state: JoffreState, action: Action) -> list[Violation]:
    """joffre.bid.*: one call, in turn, checked and carried out (a bid that is not higher is ignored)."""
    seat = speaker(state)
    problems = _order(state, seat, action)
    value: int = action.value
    if is_no_trump(value) and not state.table.options.allow_no_trump:
        problems.append(
            _problem(
                seat,
                action,
                "JOFFRE-NO-TRUMP-NOT-ALLOWED",
                "joffre.bid.no-trump",
                f"seat {seat} bid {bid_name(value)}, but no-trump bids are not played here "
                f"(option allow_no_trump is off); the bid counts as {bid_name(value - 1)}",
                "a bid in trumps",
            )
        )
        value -= 1
    if value == PASS:
        problems += _pass(state, seat, action)
    else:
        problems += _bid(state, seat, action, value)
    state.calls_made += 1
    if state.calls_made == state.players:
        end_auction(state)
    return problems


def _order(state: JoffreState, seat: int, action: Action) -> list[Violation]:
    """joffre.bid.order: a written seat must be the seat whose turn it is."""
    if action.seat is None or action.seat == seat:
        return []
    return [
        Violation(
            "JOFFRE-AUCTION-ORDER",
            "joffre.bid.order",
            f"call {state.calls_made + 1} of the auction is seat {seat}'s turn, not seat {action.seat}'s: "
            f"the bidding goes round once from the dealer's left to the dealer",
            seat=action.seat,
            path=action.path,
            expected=f"seat {seat}",
        )
    ]


def _pass(state: JoffreState, seat: int, action: Action) -> list[Violation]:
    """joffre.bid.opening and joffre.bid.all-pass: the passes the rules forbid."""
    options = state.table.options
    if state.calls_made == 0 and options.opening_bid_forced:
        return [
            _problem(
                seat,
                action,
                "JOFFRE-OPENING-PASS",
                "joffre.bid.opening",
                f"seat {seat}, on the dealer's left, passed: he calls the first bid and may not pass "
                f"(option opening_bid_forced)",
                f"a bid of {options.min_bid} or more",
            )
        ]
    if _dealer_forced(state, seat):
        return [
            _problem(
                seat,
                action,
                "JOFFRE-DEALER-MUST-BID",
                "joffre.bid.all-pass",
                f"everybody passed to the dealer, seat {seat}, who must then bid at least "
                f"{options.min_bid} (option all_pass = dealer_forced_min)",
                f"a bid of {options.min_bid} or more",
            )
        ]
    return []


def _dealer_forced(state: JoffreState, seat: int) -> bool:
    """Whether the dealer, after passes all round, must bid (option all_pass = dealer_forced_min)."""
    options = state.table.options
    return (
        seat == state.dealer
        and state.bidder is None
        and not options.opening_bid_forced
        and options.all_pass == "dealer_forced_min"
    )


def _bid(state: JoffreState, seat: int, action: Action, value: int) -> list[Violation]:
    """joffre.bid.range and joffre.bid.higher: a bid within the limits, above the highest so far."""
    options = state.table.options
    problems: list[Violation] = []
    number = bid_number(value)
    top = max_bid(state.cards.hand_size, options.bid_unit)
    if not options.min_bid <= number <= top:
        unit = "points" if options.bid_unit == "points" else "tricks"
        problems.append(
            _problem(
                seat,
                action,
                "JOFFRE-BID-RANGE",
                "joffre.bid.range",
                f"seat {seat} bid {number}: bids go from {options.min_bid} to {top} {unit}",
                f"a bid from {options.min_bid} to {top}",
            )
        )
    equal_ok = seat == state.dealer and options.dealer_may_equal and value == state.contract
    if value <= state.contract and not equal_ok:
        why = "a bid must be higher than the highest bid so far"
        if seat == state.dealer and value == state.contract:
            why += " (the dealer may not equal it: option dealer_may_equal is off)"
        problems.append(
            _problem(
                seat,
                action,
                "JOFFRE-BID-NOT-HIGHER",
                "joffre.bid.higher",
                f"seat {seat} bid {bid_name(value)} after seat {state.bidder}'s {bid_name(state.contract)}: "
                f"{why}",
                f"pass or a bid above {bid_name(state.contract)}",
            )
        )
        return problems
    state.contract = value
    state.bidder = seat
    return problems


def _problem(seat: int, action: Action, code: str, rule: str, message: str, expected: str) -> Violation:
    """A violation of the auction at this call."""
    return Violation(code, rule, message, seat=seat, path=action.path, expected=expected)


def end_auction(state: JoffreState) -> None:
    """joffre.bid.contract: the highest bidder leads the first trick; with no bid the deal is over."""
    if state.bidder is None:
        state.phase = Phase.DONE
    else:
        state.phase = Phase.PLAY
        state.leader = state.bidder


def legal_calls(state: JoffreState) -> list[int]:
    """Every legal call for the seat to speak, as compiled values (for the generator and recorder)."""
    options = state.table.options
    seat = speaker(state)
    forced = (state.calls_made == 0 and options.opening_bid_forced) or _dealer_forced(state, seat)
    calls = [] if forced else [PASS]
    lowest = state.contract if seat == state.dealer and options.dealer_may_equal else state.contract + 1
    top = max_bid(state.cards.hand_size, options.bid_unit)
    for number in range(options.min_bid, top + 1):
        for value in (2 * number, 2 * number + 1):
            if value >= lowest and (options.allow_no_trump or not is_no_trump(value)):
                calls.append(value)
    return calls
