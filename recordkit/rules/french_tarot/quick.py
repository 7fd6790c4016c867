"""French Tarot's fast path (`Ruleset.quick_deal`): a clean deal replayed straight from JSON.

It drives the same state through the same rule functions as the full replay (the auction, call
and discard handlers, `play.may_play` and `play.follow` for each card, `scoring.deal_scores`), but
reads the deal from parsed JSON without pydantic, builds no action per card and writes no
diagnostic. Whatever it does not cover (aliases, cards written as objects, abandoned deals) or
finds wrong returns None, and the full replay says what is wrong.
"""

from __future__ import annotations

from typing import Any

from recordkit.rules import fastread
from recordkit.rules.base import Action, PlayedTrick, QuickDeal, Table
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
from recordkit.rules.french_tarot.play import first_lead, follow, may_play
from recordkit.rules.french_tarot.record import BIDS
from recordkit.rules.french_tarot.scoring import (
    POIGNEE_LEVELS,
    deal_scores,
    excuse_wins,
    points_counted,
    points_match,
)
from recordkit.rules.french_tarot.state import Phase, TarotState, TrickRank

CARD_IDS = {code: card for card, code in enumerate(DECK.codes)}
BID_VALUES = {name: value for value, name in enumerate(BIDS)}
DEAL_KEYS = frozenset(
    {"dealer", "hands", "dog", "auction", "call", "discard", "announcements", "tricks", "status"}
    | {"result", "totals", "comment", "time"}
)
PETIT_SEC = 1 << PETIT
ANNOUNCEMENT_KEYS = {
    "slam": frozenset({"type", "seat", "comment", "time"}),
    "poignee": frozenset({"type", "seat", "level", "cards", "comment", "time"}),
    "misere": frozenset({"type", "seat", "kind", "comment", "time"}),
}
MISERE_KINDS = ("trumps", "honours")


def quick_deal(table: Table, deal: dict[str, Any]) -> QuickDeal | None:
    """The deal's dealer, scores and final state if the full replay would find nothing in it."""
    state = _dealt(table, deal)
    if state is None:
        return None
    if state.phase == Phase.DONE:  # annulled for a Petit sec: nothing more happens
        if deal.get("auction", []) != [] or deal.get("call") is not None or deal.get("discard") is not None:
            return None
    elif not _contract(state, deal):
        return None
    tricks = deal.get("tricks", [])
    if state.phase == Phase.DONE:  # annulled, or everybody passed: the cards are dealt again
        if tricks != [] or deal.get("announcements", []) != []:
            return None
    elif not _announcements(state, deal.get("announcements", [])) or not _play(state, tricks):
        return None
    result = deal.get("result")
    points = result.get("points") if type(result) is dict else None
    if points is not None and (
        type(points) not in (int, float) or (points_counted(state) and not points_match(state, points))
    ):
        return None
    return QuickDeal(state.dealer, deal_scores(state), state)


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
    masks = [fastread.group_mask(CARD_IDS, hand, HAND_SIZES[n]) for hand in hands]
    dog = fastread.group_mask(CARD_IDS, deal.get("dog"), DOG_SIZES[n])
    if dog is None or None in masks:
        return None
    dealt: list[int] = masks  # type: ignore[assignment]
    union = dog
    for mask in dealt:
        union |= mask
    if union != FULL_DECK:
        return None
    state = TarotState(table, dealer, list(dealt), list(dealt), dog, HAND_SIZES[n], status)
    petit_sec = table.options.petit_sec == "annul" and any(
        hand & (TRUMPS | EXCUSE_BIT) == PETIT_SEC for hand in dealt
    )
    if petit_sec != (status == "annulled"):
        return None
    if petit_sec:
        state.phase = Phase.DONE
    return state


def _contract(state: TarotState, deal: dict[str, Any]) -> bool:
    """The auction, the five-player call and the discard, each through its full-path handler."""
    auction = deal.get("auction", [])
    if type(auction) is not list or len(auction) != state.players:
        return False
    for entry in auction:
        call = fastread.call(entry)
        value = BID_VALUES.get(call[0]) if call is not None else None
        if call is None or value is None or contract.take_bid(state, Action("bid", value, call[1])):
            return False
    called = deal.get("call")
    if state.phase == Phase.CALL:
        card = CARD_IDS.get(called) if type(called) is str else None
        if card is None or contract.take_call(state, Action("call", card, path="call")):
            return False
    elif called is not None:
        return False
    discard = deal.get("discard")
    if state.phase == Phase.DISCARD:
        cards = fastread.card_ids(CARD_IDS, discard)
        if cards is None or len(cards) != DOG_SIZES[state.players]:
            return False
        for position, card in enumerate(cards, start=1):
            if contract.take_discard(state, Action("discard", card, path="discard", position=position)):
                return False
    elif discard is not None:
        return False
    return state.phase in (Phase.PLAY, Phase.DONE)


def _announcements(state: TarotState, written: Any) -> bool:
    """Slams, poignées and misères before the first card, each through the full-path handler."""
    if type(written) is not list:
        return False
    for index, note in enumerate(written):
        value = _announcement(note)
        if value is None:
            return False
        action = Action("announce", value, note["seat"], f"announcements[{index}]")
        if announcements.take_announcement(state, action):
            return False
    return True


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
    """Every trick, card by card: held, legal, the first-lead ban; then who won it, and the
    leader and winner the record states, if any."""
    n = state.players
    if type(tricks) is not list or len(tricks) != state.tricks_per_deal:
        return False
    hands = state.hands
    leader = state.first_leader()
    ban = state.called is not None
    for index, entry in enumerate(tricks):
        written = fastread.trick(CARD_IDS, entry)
        if written is None:
            return False
        cards, stated_leader, stated_winner = written
        if len(cards) != n or stated_leader not in (None, leader):
            return False
        trick = PlayedTrick(leader)
        rank = TrickRank()
        seat = leader
        for position, card in enumerate(cards):
            hand = hands[seat]
            if not hand >> card & 1 or not may_play(hand, card, rank.lead, rank.high):
                return False
            if ban and index == 0 and first_lead(state, trick, card, seat) is not None:
                return False
            hands[seat] = hand ^ (1 << card)
            follow(rank, card, position)
            trick.cards.append(card)
            trick.seats.append(seat)
            seat = seat + 1 if seat + 1 < n else 0
        if excuse_wins(state, index, trick):
            trick.winner = trick.seats[cards.index(EXCUSE)]
        else:
            trick.winner = trick.seats[max(rank.best, 0)]
        if stated_winner not in (None, trick.winner):
            return False
        state.tricks.append(trick)
        leader = trick.winner
    state.leader = leader
    state.phase = Phase.DONE
    return True
