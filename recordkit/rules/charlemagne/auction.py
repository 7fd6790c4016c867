"""Charlemagne: the auction — one round, each bid above the last, the forced dealer (C3).

Rules `charlemagne.auction.*` of spec/rules/charlemagne.md.
"""

from __future__ import annotations

from collections.abc import Sequence

from recordkit.diagnostics import Violation
from recordkit.rules.charlemagne.bids import FORCED_LEVEL, LADDERS, Bid
from recordkit.rules.charlemagne.cards import PLAYERS
from recordkit.rules.charlemagne.state import CharlemagneState, Phase
from recordkit.rules.charlemagne.steps import enter_next
from recordkit.rules.values import Action


def take_bid(state: CharlemagneState, action: Action) -> list[Violation]:
    """charlemagne.auction.*: one call, in turn, each bid strictly above the highest so far."""
    problems: list[Violation] = []
    seat = state.seat_after(state.dealer, 1 + state.calls_made)
    if action.seat is not None and action.seat != seat:
        problems.append(
            Violation(
                "CHARLEMAGNE-AUCTION-ORDER",
                "charlemagne.auction.order",
                f"call {state.calls_made + 1} of the auction is seat {seat}'s turn, not seat {action.seat}'s",
                seat=action.seat,
                path=action.path,
                expected=f"seat {seat}",
            )
        )
    bid = LADDERS[state.variant][action.value]
    forced = dealer_forced(state, seat, bid)
    if forced is not None:
        problems.append(at_call(forced, seat, action))
    elif bid.level and bid.level <= state.contract.level:
        problems.append(at_call(not_higher(state, seat, bid), seat, action))
    if bid.level > state.contract.level:
        state.bid = action.value
        state.bidder = seat
    state.calls_made += 1
    if state.calls_made == PLAYERS:
        end_auction(state)
    return problems


def at_call(violation: Violation, seat: int, action: Action) -> Violation:
    """The violation placed at the call."""
    return Violation(
        violation.code,
        violation.rule,
        violation.message,
        seat=seat,
        path=action.path,
        expected=violation.expected,
    )


def not_higher(state: CharlemagneState, seat: int, bid: Bid) -> Violation:
    """charlemagne.auction.higher: the bid does not overcall the highest bid so far."""
    same = (
        " (suits do not rank: a bid of the same number does not overcall)"
        if (state.maine and bid.level == state.contract.level)
        else ""
    )
    return Violation(
        "CHARLEMAGNE-BID-NOT-HIGHER",
        "charlemagne.auction.higher",
        f"seat {seat} bid {bid.title} after {state.contract.title}: a bid must be higher than every bid "
        f"before it{same}",
        expected=f"pass or a bid above {state.contract.title}",
    )


def forced_applies(state: CharlemagneState) -> bool:
    """The dealer is forced in the Maine game, and in the standard game under dealer_forced_5."""
    return state.maine or state.table.options.all_pass == "dealer_forced_5"


def dealer_forced(state: CharlemagneState, seat: int, bid: Bid) -> Violation | None:
    """charlemagne.auction.dealer-forced: with no bid of Five or more before him, the dealer must bid one."""
    floor = FORCED_LEVEL[state.variant]
    if seat != state.dealer or not forced_applies(state) or state.contract.level >= floor:
        return None
    if bid.level >= floor:
        return None
    said = "passed" if not bid.level else f"bid {bid.title}"
    why = "in the Maine game" if state.maine else "under the option all_pass = dealer_forced_5"
    return Violation(
        "CHARLEMAGNE-DEALER-FORCED",
        "charlemagne.auction.dealer-forced",
        f"the dealer (seat {seat}) {said}, but nobody had bid Five or more before him, so he must bid at "
        f"least Five ({why})",
        expected="a bid of Five or more",
    )


def end_auction(state: CharlemagneState) -> None:
    """After the last call: the bidder's side is set, a lone bidder's partner leaves, the kitty is taken.

    With no bid at all the cards are thrown in and dealt again (charlemagne.auction.all-pass).
    """
    if state.bidder is None:
        state.phase = Phase.DONE
        return
    contract = state.contract
    state.trump = contract.suit
    if contract.alone and contract.exchange != "partner":
        state.out |= 1 << state.partner(state.bidder)
    if contract.exchange in ("kitty", "kitty_and_partner"):
        state.hands[state.bidder] |= state.kitty
        state.kitty_taken = True
    enter_next(state)


def winning_call(variant: str, calls: Sequence[int]) -> tuple[int, int] | None:
    """(ladder index, position) of the call that stands after the auction, or None if all passed.

    The same outcome as replaying `take_bid`: a bid counts only if it is above every bid before it.
    """
    ladder = LADDERS[variant]
    best: tuple[int, int] | None = None
    for position, index in enumerate(calls[:PLAYERS]):
        if ladder[index].level > (ladder[best[0]].level if best else 0):
            best = (index, position)
    return best
