"""Joffre's fast derivation of a deal that leaves hands out (`Ruleset.quick_completed`).

A played-out Joffre deal plays every card, so each unknown hand is the cards its seat played
(`joffre.partial.tricks-only`, as `partial.complete` says). This finds who played each card
straight from parsed JSON: the auction through the rules' handler (`auction.take_bid`) on blank
hands gives the bidder, who leads the first trick; his first card sets the trump
(`play.set_trump`) and `play.winning_index` gives each trick's winner, who leads the next. The
seats are only a guess: `recordkit.quick` proves them by the fast replay of the completed deal.
Any deal in a form the models would re-spell (aliases, objects, floats), abandoned, cut short or
passed out, gives None, and the full derivation (`recordkit.derive`) runs.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from recordkit.model import POINTS_LIMIT
from recordkit.rules import fastread
from recordkit.rules.joffre.auction import take_bid
from recordkit.rules.joffre.cards import NO_TRUMP, cards_for
from recordkit.rules.joffre.play import set_trump, winning_index
from recordkit.rules.joffre.quick import CALLS, DEAL_KEYS, TRUMPS, card_bits, card_ids, play_orders
from recordkit.rules.joffre.state import JoffreState, Phase
from recordkit.rules.values import Action, Completion, Seated, Table

BITS = [1 << card for card in range(36)]
"""Each card id's bit (the 32 cards of four players, the 30 of three)."""


def quick_completed(table: Table, deal: dict[str, Any]) -> Completion | None:
    """joffre.partial.tricks-only: the deal (parsed JSON) with each hand it leaves out written as
    the cards its seat played, exactly as `derive` gives it; None when not sure."""
    dumped = _as_dumped(table, deal)
    if dumped is None:
        return None
    n = table.players
    state = JoffreState(
        table, cards_for(n), deal["dealer"], [0] * n, [0] * n, written_trump=deal.get("trump")
    )
    auction = deal["auction"]
    if len(auction) != n:
        return None
    for name in auction:  # each call through the rules' handler, which ends the auction
        value = CALLS.get(name)
        if value is None or take_bid(state, Action("bid", value)):
            return None
    if state.phase != Phase.PLAY:
        return None
    read = _played(state, deal["tricks"])
    if read is None:
        return None
    played, tricks, winners = read
    if dumped.get("hands") is None:  # the usual tricks-only deal: every hand derived, its text when read
        masks = [sum(map(BITS.__getitem__, cards)) for cards in played]
        texts = functools.partial(_write_hands, table.deck.codes, played)
        completion = Seated(
            {**dumped, "hands": [None] * n}, texts, list(fastread.HAND_PATHS[:n]), {}, (masks, tricks)
        )
        completion.under, completion.winners, completion.steps = state.trump, winners, None
        return completion
    return completed_hands(table, dumped, played, card_bits(n))


def _write_hands(codes: Sequence[str], played: Sequence[Sequence[int]], deal: dict[str, Any]) -> None:
    """Write each hand into a deal's JSON as the cards its seat played, in deck order."""
    deal["hands"] = [" ".join([codes[card] for card in sorted(cards)]) for cards in played]


def completed_hands(
    table: Table, deal: dict[str, Any], played: Sequence[Sequence[int]], deck_bits: fastread.CardBits
) -> Completion | None:
    """`base.complete_hands` on parsed JSON, for a deal whose every card was played (`played`: the
    cards each seat played), which writes some hands: each one left out (null) is the cards its
    seat played, in deck order; None when no hand is left out, or a written one is not a hand of
    canonical codes (`deck_bits`). `deal` must be otherwise as the model dumps it. A deal that
    writes no hand is completed by `quick_completed` itself, its texts deferred."""
    n = table.players
    codes = table.deck.codes
    hands = deal.get("hands")
    if type(hands) is not list or len(hands) != n:
        return None
    size = len(codes) // n
    derived: list[str] = []
    completed = []
    for seat, hand in enumerate(hands):
        if hand is None:
            derived.append(fastread.HAND_PATHS[seat])
            completed.append(" ".join([codes[card] for card in sorted(played[seat])]))
        elif fastread.group_mask(deck_bits, hand, size) is None:
            return None
        else:
            completed.append(hand)
    if not derived:
        return None
    return Completion({**deal, "hands": completed}, derived)


def _played(
    state: JoffreState, tricks: list[str]
) -> tuple[list[tuple[int, ...]], list[list[int]], list[int]] | None:
    """The cards each seat played, by the rules' leaders and winners (from the bidder's lead),
    when the tricks are the whole deck once; with each trick's cards and the place of its winning
    card (`play.winning_index`)."""
    n = state.players
    cards = state.cards
    written = fastread.tricks(card_ids(n), tricks, n) if len(tricks) == cards.hand_size else None
    if written is None:
        return None
    first = written[0][0][0]
    if set_trump(state, first, Action("play", first, path="tricks[0]")):
        return None
    trump = state.trump if state.trump is not None else NO_TRUMP
    orders = play_orders(n)
    leader = state.leader
    by_seat: list[list[int]] = []  # each trick's cards in seat order, seat 0 first
    winners = []
    for trick, _leader, _winner in written:
        by_seat.append(trick[-leader:] + trick[:-leader] if leader else trick)
        index = winning_index(cards, trump, trick)
        winners.append(index)
        leader = orders[leader][index]  # joffre.trick.leader: the winner leads
    played = list(zip(*by_seat, strict=True))
    if len(set().union(*played)) != len(cards.deck):
        return None
    return played, [trick for trick, _leader, _winner in written], winners


def _as_dumped(table: Table, deal: dict[str, Any]) -> dict[str, Any] | None:
    """The deal as the deal model dumps it (nulls left out, the status written), when each field is
    in the form the model keeps as written: a seat dealing, calls and tricks as plain strings, a
    canonical trump, a played deal, whole numbers; None otherwise."""
    if not DEAL_KEYS.issuperset(deal) or not fastread.notes_ok(deal):
        return None
    dealer, auction, tricks, trump = (
        deal.get("dealer"),
        deal.get("auction"),
        deal.get("tricks"),
        deal.get("trump"),
    )
    if type(dealer) is not int or not 0 <= dealer < table.players or deal.get("status", "played") != "played":
        return None
    if type(auction) is not list or type(tricks) is not list or not _all_of(str, auction + tricks):
        return None
    if trump is not None and (type(trump) is not str or trump not in TRUMPS):
        return None
    result, totals = deal.get("result"), deal.get("totals")
    if result is not None and (
        type(result) is not dict or result.keys() != {"scores"} or not _whole(result["scores"])
    ):
        return None
    if totals is not None and not _whole(totals):
        return None
    if "status" in deal and None not in deal.values():
        return deal  # the usual case: as the model writes it already
    dumped = {key: value for key, value in deal.items() if value is not None}
    dumped["status"] = "played"
    return dumped


def _all_of(kind: type, values: list[Any]) -> bool:
    """Whether every item of a list is exactly of this type (no subclass: a bool is not an int)."""
    return set(map(type, values)) <= {kind}


def _whole(values: Any) -> bool:
    """A non-empty list of whole numbers within the points' range, which the model keeps as written."""
    return (
        type(values) is list
        and bool(values)
        and _all_of(int, values)
        and min(values) >= -POINTS_LIMIT
        and max(values) <= POINTS_LIMIT
    )
