"""French Tarot's fast path (`Ruleset.quick_deal`): a clean deal replayed straight from JSON.

It drives the same state through the same rule functions as the full replay (the auction, call,
discard and announcement handlers, `play.first_lead`, `play.play_trick` for each trick's cards and
winner, `scoring.deal_scores` on the count `scoring.settle` made once), but reads the deal from
parsed JSON without pydantic, builds no action per card and writes no diagnostic. Whatever it does not cover (aliases, cards written as objects, abandoned deals) or
finds wrong returns None, and the full replay says what is wrong.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import reduce
from operator import or_
from typing import Any

from recordkit.diagnostics import Violation
from recordkit.rules import fastread
from recordkit.rules.french_tarot import announcements, contract
from recordkit.rules.french_tarot.cards import (
    DECK,
    DOG_SIZES,
    EXCUSE,
    EXCUSE_BIT,
    FULL_DECK,
    HAND_SIZES,
    PETIT,
    TRUMPS,
)
from recordkit.rules.french_tarot.play import first_lead, play_trick
from recordkit.rules.french_tarot.record import ANNOUNCEMENT_KEYS, BIDS
from recordkit.rules.french_tarot.scoring import (
    POIGNEE_LEVELS,
    deal_scores,
    excuse_wins,
    points_match,
    settle,
)
from recordkit.rules.french_tarot.state import Phase, TarotState
from recordkit.rules.values import Action, PlayedTrick, QuickDeal, Table

CARD_IDS = {code: card for card, code in enumerate(DECK.codes)}
CARD_BITS = fastread.card_bits(CARD_IDS)
BID_VALUES = {name: value for value, name in enumerate(BIDS)}
DEAL_KEYS = frozenset(
    {"dealer", "hands", "dog", "auction", "call", "discard", "announcements", "tricks", "status"}
    | {"result", "totals", "comment", "time"}
)
PETIT_SEC = 1 << PETIT
Handler = Callable[[TarotState, Action], list[Violation]]
SEAT_ORDERS = {n: tuple(tuple((leader + i) % n for i in range(n)) for leader in range(n)) for n in HAND_SIZES}
"""The seats in the order they play to a trick, by number of players and leader."""
MISERE_KINDS = ("trumps", "honours")


def quick_deal(table: Table, deal: dict[str, Any]) -> QuickDeal | None:
    """The deal's dealer, scores and final state if the full replay would find nothing in it."""
    state = _dealt(table, deal)
    if state is None:
        return None
    actions: list[Action] = []
    if state.phase == Phase.DONE:  # annulled for a Petit sec: nothing more happens
        if deal.get("auction", []) != [] or deal.get("call") is not None or deal.get("discard") is not None:
            return None
    elif not _contract(state, deal, actions):
        return None
    tricks = deal.get("tricks", [])
    if state.phase == Phase.DONE:  # annulled, or everybody passed: the cards are dealt again
        if tricks != [] or deal.get("announcements", []) != []:
            return None
    elif not _announcements(state, deal.get("announcements", []), actions) or not _play(state, tricks):
        return None
    settle(state)  # the count once, for the score, the points check and the archive's summary
    result = deal.get("result")
    points = result.get("points") if type(result) is dict else None
    if points is not None and (
        type(points) not in (int, float) or (state.facts is not None and not points_match(state, points))
    ):
        return None
    return QuickDeal(state.dealer, deal_scores(state), state, actions)


def _dealt(table: Table, deal: dict[str, Any]) -> TarotState | None:
    """The state after the deal: the right keys, sizes and cards, all 78 once, no Petit sec."""
    status = deal.get("status", "played")
    if not DEAL_KEYS.issuperset(deal) or status not in ("played", "annulled"):
        return None
    if not fastread.notes_ok(deal):
        return None
    n = table.players
    dealer = deal.get("dealer")
    hands = deal.get("hands")
    if type(dealer) is not int or not 0 <= dealer < n or type(hands) is not list or len(hands) != n:
        return None
    masks = fastread.group_masks(CARD_BITS, [*hands, deal.get("dog")], [HAND_SIZES[n]] * n + [DOG_SIZES[n]])
    if masks is None or reduce(or_, masks) != FULL_DECK:
        return None
    dealt, dog = masks[:n], masks[n]
    state = TarotState(table, dealer, list(dealt), list(dealt), dog, HAND_SIZES[n], status)
    petit_sec = table.options.petit_sec == "annul" and any(
        hand & (TRUMPS | EXCUSE_BIT) == PETIT_SEC for hand in dealt
    )
    if petit_sec != (status == "annulled"):
        return None
    if petit_sec:
        state.phase = Phase.DONE
    return state


def _contract(state: TarotState, deal: dict[str, Any], actions: list[Action]) -> bool:
    """The auction, the five-player call and the discard, each through its full-path handler."""
    auction = deal.get("auction", [])
    if type(auction) is not list or len(auction) != state.players:
        return False
    for entry in auction:
        call = fastread.call(entry)
        value = BID_VALUES.get(call[0]) if call is not None else None
        if call is None or value is None:
            return False
        seat = state.seat_after(state.dealer, 1 + state.calls_made) if call[1] is None else call[1]
        if not _took(contract.take_bid, state, Action("bid", value, seat), actions):
            return False
    called = deal.get("call")
    if state.phase == Phase.CALL:
        card = CARD_IDS.get(called) if type(called) is str else None
        if card is None or not _took(contract.take_call, state, Action("call", card, state.taker), actions):
            return False
    elif called is not None:
        return False
    discard = deal.get("discard")
    if state.phase == Phase.DISCARD:
        cards = fastread.card_ids(CARD_IDS, discard)
        if cards is None or len(cards) != DOG_SIZES[state.players]:
            return False
        for position, card in enumerate(cards, start=1):
            action = Action("discard", card, state.taker, position=position)
            if not _took(contract.take_discard, state, action, actions):
                return False
    elif discard is not None:
        return False
    return state.phase in (Phase.PLAY, Phase.DONE)


def _took(handler: Handler, state: TarotState, action: Action, actions: list[Action]) -> bool:
    """Apply one action through its full-path handler; keep it if the handler finds nothing."""
    if handler(state, action):
        return False
    actions.append(action)
    return True


def _announcements(state: TarotState, written: Any, actions: list[Action]) -> bool:
    """Slams, poignées and misères before the first card, each through the full-path handler."""
    found = announcement_actions(written)
    return found is not None and all(
        _took(announcements.take_announcement, state, action, actions) for action in found
    )


def announcement_actions(written: Any) -> list[Action] | None:
    """The announcements written in canonical form as the actions the full-path handler takes;
    None for any other form."""
    if type(written) is not list:
        return None
    found = []
    for index, note in enumerate(written):
        value = _announcement(note)
        if value is None:
            return None
        found.append(Action("announce", value, note["seat"], f"announcements[{index}]"))
    return found


def _announcement(note: Any) -> tuple[object, ...] | None:
    """An announcement written in canonical form as the compiled value the handler takes."""
    kind = note.get("type") if type(note) is dict else None
    if type(kind) is not str or not ANNOUNCEMENT_KEYS.get(kind, frozenset()).issuperset(note):
        return None
    seat = note.get("seat")
    if seat is None or not fastread.seat_or_none(seat) or not fastread.notes_ok(note):
        return None
    if kind == "slam":
        return ("slam",)
    if kind == "misere":
        return ("misere", note["kind"]) if note.get("kind") in MISERE_KINDS else None
    cards = fastread.card_ids(CARD_IDS, note.get("cards"))
    if note.get("level") not in POIGNEE_LEVELS or cards is None:
        return None
    return ("poignee", note["level"], tuple(cards))


def _play(state: TarotState, tricks: Any) -> bool:
    """Every trick: each card held and legal (the first-lead ban too), then who won it, and the
    leader and winner the record states, if any."""
    count = state.tricks_per_deal
    if type(tricks) is not list or len(tricks) != count:
        return False
    written = fastread.tricks(CARD_IDS, tricks, state.players)
    if written is None:
        return False
    leader = state.first_leader()
    if state.called is not None and not _opening_allowed(state, leader, written[0][0]):
        return False
    hands = state.hands
    order = SEAT_ORDERS[state.players]
    played = state.tricks
    for cards, stated_leader, stated_winner in written:
        if stated_leader is not None and stated_leader != leader:
            return False
        seats = order[leader]
        best = play_trick(hands, seats, cards)
        if best < 0:
            return False
        winner = seats[best]
        trick = PlayedTrick(leader, cards, list(seats), winner)
        played.append(trick)
        if len(played) == count and excuse_wins(state, count - 1, trick):  # the last trick only
            winner = trick.winner = seats[cards.index(EXCUSE)]
        if stated_winner is not None and stated_winner != winner:
            return False
        leader = winner
    state.leader = leader
    state.phase = Phase.DONE
    return True


def _opening_allowed(state: TarotState, leader: int, cards: list[int]) -> bool:
    """The five-player first trick against the called-suit lead ban, card by card as played."""
    trick = PlayedTrick(leader)
    for card in cards:
        seat = state.seat_after(leader, len(trick.cards))
        if first_lead(state, trick, card, seat) is not None:
            return False
        trick.cards.append(card)
        trick.seats.append(seat)
    return True
