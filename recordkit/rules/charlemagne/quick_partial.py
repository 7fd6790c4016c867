"""Charlemagne's fast derivation of a deal that leaves its hands or kitty out (`Ruleset.quick_completed`).

Straight from parsed JSON, without the deal model and without the engine: the auction is settled
by `auction.winning_call` and `auction.end_auction`, the exchanges go through `flow.advance` with
every card in every hand (as `derive` plays each card just in time), each trick is seated from its
leader and won by `play.winning_index`, and the groups left out are written in by `partial`'s own
rules: for a deal that writes no hand nor kitty (a magazine's deal) with who owned each card read
off in bitmasks, for any other by `partial.complete` itself. Only a guess: `recordkit.quick`
proves it by the fast replay of the completed deal. Forms it does not cover (calls or tricks
written as objects, a claim, a deal not played out, nobody bidding) give None.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from functools import cache
from operator import itemgetter
from typing import Any

from recordkit.rules import fastread
from recordkit.rules.charlemagne import flow, partial, quick
from recordkit.rules.charlemagne.auction import end_auction, winning_call
from recordkit.rules.charlemagne.cards import DECKS, PLAYERS, TRICKS
from recordkit.rules.charlemagne.play import settle_trick, winning_index
from recordkit.rules.charlemagne.quick import CARD_IDS, DEAL_KEYS, FULL_DECK, TurnOf, before_play_actions
from recordkit.rules.charlemagne.record import CharlemagneDeal
from recordkit.rules.charlemagne.state import DONE, PLAY, CharlemagneState, sits_out, trick_seats
from recordkit.rules.values import Action, Completion, PlayedTrick, QuickDeal, Seated, Table, write_groups

STR = {str}
RESULT_KEYS = frozenset({"scores", "tricks"})
"""The fields of a result the model writes back as they are (a contract may be re-spelt)."""
HANDS = tuple(f"hands[{seat}]" for seat in range(PLAYERS))
"""The paths of the hands."""
CALL_KEYS = {"call", "seat"}
"""A call written as an object that the model writes back as it is: its name and its seat."""
GROUPS = ("kitty", "discard", "defender_discard")
"""The dealt or discarded groups besides the hands that the completion may write in."""
DECK = DECKS["standard"]
"""Groups are written with the standard deck, which spells every Maine card too (as `partial` does)."""
BLANK = CharlemagneDeal.model_construct(dealer=0)
"""A deal model built once without validation, copied with the groups `partial.complete` reads
(building one per deal costs more than the whole derivation)."""
UNWRITTEN = CharlemagneDeal.model_construct(dealer=0, discard="", defender_discard="")
"""What `partial`'s sharing rules read of a deal that writes no hand nor kitty and reaches the
play: a discard that is due is written (the replay stops at one missing), one not due is no sink
whether written or not; so the same model serves every such deal."""
TEXTS = fastread.byte_texts(DECK.codes)
"""The text of each set of the deck's cards with ids 8k to 8k+7, for writing a group fast."""
SPADES, HEARTS, DIAMONDS, CLUBS, JOKERS = TEXTS
BITS = [1 << card for card in range(len(DECK))]
"""Each card id's bit."""

WRITTEN_GROUPS = frozenset({"hands", "kitty", "knocks", "claim"})
"""The fields a passed deal written as a magazine prints it leaves out (or never has)."""
Score = Callable[[CharlemagneState], list[int | float] | None]
"""The ruleset's `score`."""

Found = tuple[dict[str, int], list[str], partial.Unchecked]
"""The groups found (as bitmasks, by path), the derived paths and the unchecked facts."""


def quick_completed(table: Table, deal: dict[str, Any]) -> Completion | None:
    """The deal with its hands, kitty and discards written in as `derive` writes them (the same
    derived groups and unchecked facts), or None when the deal is not in a form this covers."""
    variant: str = table.options.variant
    if not _plain(variant, deal):
        return None
    before = _before_play(table, deal)
    if before is None:
        return None
    state, actions = before
    read = fastread.tricks(CARD_IDS[variant], deal["tricks"], state.active_count())
    if read is None:
        return None
    played, seats, winners = _played(state, read)
    twice = sum(played).bit_count() != len(read) * len(seats[0])  # a card played twice
    found = None if twice or "hands" in deal or "kitty" in deal else _unwritten(table, state, played)
    if found is None:
        for (cards, _, _), order in zip(read, seats, strict=True):
            settle_trick(state, PlayedTrick(order[0], cards, list(order)))
        return _completed(table, deal, state)
    groups, derived, unchecked = found
    out = {"status": "played", **deal}
    masks = [groups.get(path, 0) for path in HANDS]
    out["hands"] = [None] * PLAYERS  # the hands' and the kitty's texts when read: the proof reads `read`
    later: list[tuple[int | None, int]] = list(enumerate(masks))
    if "kitty" in groups:  # its text when read too; `_unwritten` writes in no discard (one due stops it)
        out["kitty"] = None
        later.append((None, groups["kitty"]))
        if "kitty" not in derived:
            derived.append("kitty")
    tricks = [trick for trick, _, _ in read]
    read_groups = ([*masks, groups.get("kitty", 0)], tricks)
    completion = Seated(
        out, functools.partial(write_groups, _format, "kitty", later), derived, unchecked, read_groups
    )
    completion.under, completion.winners, completion.steps = state.ctx, winners, actions
    return completion


def unplayed(table: Table, deal: dict[str, Any], turn: TurnOf, score: Score) -> QuickDeal | None:
    """The fast path of a deal that everybody passed, written without its hands and kitty: the
    replay `derive` completes it to, with every hand (and the standard game's kitty) empty and the
    checks `partial._not_played_out` names left unchecked (the empty groups' only findings: their
    sizes, the cards dealt to nobody), its calls through the fast path's own
    (`quick._before_play`) and its score by the ruleset's `score` (none: the hands are not
    known); None for any other deal, or a result holding more than the scores."""
    variant: str = table.options.variant
    if not fastread.passed_without_groups(deal, DEAL_KEYS, WRITTEN_GROUPS, PLAYERS):
        return None
    dealer: int = deal["dealer"]
    state = CharlemagneState(table, variant, dealer, [0] * PLAYERS, [0] * PLAYERS, 0)
    state.scorable = False  # the empty hands break the sizes: the full replay's start says so
    actions: list[Action] = []
    if not quick._before_play(state, deal, turn, actions) or state.phase != DONE:
        return None
    kitty_open = variant == "standard"
    out = {"status": "played", **deal, "hands": [""] * PLAYERS}
    if kitty_open:
        out["kitty"] = ""
    unchecked = partial._not_played_out(BLANK, state, [None] * PLAYERS, kitty_open)
    completion = Completion(out, [*HANDS, "kitty"] if kitty_open else list(HANDS), unchecked)
    return QuickDeal(dealer, score(state), state, actions, completion)


def _plain(variant: str, deal: dict[str, Any]) -> bool:
    """Whether the deal leaves a group out and is written as its model writes it back (canonical
    codes, calls and tricks as bare strings, knocks in order with their places), so that the
    completed JSON is the model's dump; a claim or a deal not played out is left to the full path."""
    if not DEAL_KEYS.issuperset(deal) or None in deal.values() or "claim" in deal:
        return False
    dealer, tricks = deal.get("dealer"), deal.get("tricks")
    if type(dealer) is not int or not 0 <= dealer < PLAYERS or deal.get("status", "played") != "played":
        return False
    if type(tricks) is not list or len(tricks) != TRICKS or set(map(type, tricks)) != STR:
        return False
    ids = CARD_IDS[variant]
    unknown = _hands_unknown(ids, deal.get("hands"))
    if unknown is None:
        return False
    if "kitty" in deal:
        if fastread.card_ids(ids, deal["kitty"]) is None:
            return False
    elif variant == "standard":
        unknown = True
    return unknown and _calls_plain(deal) and _knocks_plain(deal.get("knocks")) and _result_plain(deal)


def _hands_unknown(ids: fastread.CardIds, hands: Any) -> bool | None:
    """Whether the hands leave one out (all of them when absent); None when they are not four
    hands of canonical codes or null."""
    if hands is None:
        return True
    if type(hands) is not list or len(hands) != PLAYERS:
        return None
    known = [hand for hand in hands if hand is not None]
    if any(fastread.card_ids(ids, hand) is None for hand in known):
        return None
    return len(known) < PLAYERS


def _calls_plain(deal: dict[str, Any]) -> bool:
    """Whether the auction is one call per player, and the defenders' answers, if any, calls (an
    empty list of them the model drops), each written as the model writes it back."""
    auction, answers = deal.get("auction"), deal.get("defence", ["pass"])
    return (
        type(auction) is list
        and len(auction) == PLAYERS
        and all(map(_call_plain, auction))
        and type(answers) is list
        and answers != []
        and all(map(_call_plain, answers))
    )


def _call_plain(entry: Any) -> bool:
    """Whether a call is a bare name, or a name with the seat that makes it (the model writes a
    call without a seat as its bare name)."""
    return type(entry) is str or (
        type(entry) is dict and entry.keys() == CALL_KEYS and type(entry["seat"]) is int
    )


def _knocks_plain(knocks: Any) -> bool:
    """Whether the knocks are absent, or written with their places and in the order of play."""
    if knocks is None:
        return True
    if type(knocks) is not list or not knocks:
        return False
    if not all(type(knock) is dict and "after" in knock for knock in knocks):
        return False
    places = [(knock.get("trick"), knock["after"]) for knock in knocks]
    try:
        return places == sorted(places)
    except TypeError:
        return False


def _result_plain(deal: dict[str, Any]) -> bool:
    """Whether the result, if any, holds only fields the model keeps as written."""
    result = deal.get("result", {})
    return type(result) is dict and RESULT_KEYS.issuperset(result)


def _before_play(table: Table, deal: dict[str, Any]) -> tuple[CharlemagneState, list[Action]] | None:
    """The state as the first lead finds it, replayed as `derive` replays the deal but with every
    card in every hand, so that no exchange finds a card not held, and the actions before the play
    as the fast replay reads them (`quick.before_play_actions`: their seats as written, each
    handler's writing undone); None when a step breaks a rule. The auction is settled as
    `take_bid` settles it (the checks of each call are the fast replay's); the other steps need no
    seat: their handlers give the giver, the discarder, the next defender."""
    variant: str = table.options.variant
    full = FULL_DECK[variant]
    state = CharlemagneState(table, variant, deal["dealer"], [full] * PLAYERS, [full] * PLAYERS, 0)
    actions = before_play_actions(variant, deal)
    if actions is None:  # a call or a card not written canonically: left to the full path
        return None
    won = winning_call(variant, [action.value for action in actions[:PLAYERS]])
    if won is not None:
        state.bid, state.bidder = won[0], state.seat_after(state.dealer, 1 + won[1])
    state.calls_made = PLAYERS
    end_auction(state)
    exchanges = actions[PLAYERS:]
    written = [action.seat for action in exchanges]
    for action in exchanges:
        if flow.advance(state, action):
            return None
    for action, seat in zip(exchanges, written, strict=True):  # the handlers write the seat they find
        action.seat = seat
    if state.phase < PLAY and flow.close_phases(state, PLAY):
        return None
    return (state, actions) if state.phase == PLAY else None


def _played(
    state: CharlemagneState, read: list[fastread.ReadTrick]
) -> tuple[list[int], list[tuple[int, ...]], list[int]]:
    """The cards each seat played (as sums of their bits: a card played twice carries), the seats
    of each trick in play order and the place of its winning card (`play.winning_index`): each
    trick led by the winner of the one before, the first by the first leader."""
    out = state.out
    orders = trick_seats(out)
    playing, in_seat_order = _seat_order(out)
    ctx = state.ctx
    seats = []
    winners = []
    by_seat = []  # each trick's cards in the order of `playing`
    leader = state.leader
    for cards, _, _ in read:
        order = orders[leader]
        seats.append(order)
        by_seat.append(in_seat_order[leader](cards))
        index = winning_index(ctx, cards)
        winners.append(index)
        leader = order[index]
    played = [0] * PLAYERS
    for seat, held in zip(playing, zip(*by_seat, strict=True), strict=True):
        played[seat] = sum(map(BITS.__getitem__, held))
    return played, seats, winners


@cache
def _seat_order(out: int) -> tuple[tuple[int, ...], dict[int, Callable[[list[int]], tuple[int, ...]]]]:
    """The seats that take part in the play when the seats of the bitmask `out` sit out, lowest
    first, and for each of them as leader what puts a trick's cards in the order of those seats."""
    playing = tuple(seat for seat in range(PLAYERS) if not sits_out(out, seat))
    orders = trick_seats(out)
    return playing, {leader: itemgetter(*map(orders[leader].index, playing)) for leader in playing}


def _unwritten(table: Table, state: CharlemagneState, played: list[int]) -> Found | None:
    """`partial.complete` for a deal that writes no hand nor kitty, played out, in bitmasks: each
    card was owned by who passed, discarded or played it (`partial.owners`, when no card is shown
    twice: None otherwise), and the cards nobody shows are shared out by `partial`'s own rules
    (`played`: each seat's cards played)."""
    move = partial.moves(state)
    own = [0] * (PLAYERS + 1)
    count = 0
    for seat in range(PLAYERS):
        kept = ~move.received[seat]
        given, discarded, cards = move.given[seat], move.discarded[seat] & kept, played[seat] & kept
        own[seat] = given | discarded | cards
        count += given.bit_count() + discarded.bit_count() + cards.bit_count()
    shown = own[0] | own[1] | own[2] | own[3]
    if count != shown.bit_count():
        return None
    taker = state.bidder if state.kitty_taken else None
    groups = {HANDS[seat]: own[seat] & ~move.received[seat] for seat in range(PLAYERS) if seat != taker}
    variant: str = table.options.variant
    full = FULL_DECK[variant]
    unplayed = full & ~(played[0] | played[1] | played[2] | played[3])
    kitty_open = variant == "standard"
    sinks = partial._sinks(UNWRITTEN, state, move, own, [None] * PLAYERS, kitty_open, unplayed)
    unchecked = partial._share(sinks, full & ~shown, groups)
    if taker is not None:
        unchecked |= partial._taker(UNWRITTEN, state, own, move, groups)
    derived = [*HANDS, "kitty"] if kitty_open else list(HANDS)
    return groups, derived, unchecked


def _completed(table: Table, deal: dict[str, Any], state: CharlemagneState) -> Completion:
    """The completion by the full derivation's own `partial.complete`, written back as JSON: for a
    deal with some hands or the kitty written, or a card shown twice (`state`: its tricks settled)."""
    played: list[list[int]] = [[] for _ in range(PLAYERS)]
    for trick in state.tricks:
        for card, seat in zip(trick.cards, trick.seats, strict=True):
            played[seat].append(card)
    groups = {name: deal[name] for name in GROUPS if name in deal}
    written = BLANK.model_copy(update={"dealer": deal["dealer"], "hands": deal.get("hands"), **groups})
    done = partial.complete(table, written, played, state)
    out = {"status": "played", **deal, "hands": done.deal.hands}
    for name in GROUPS:
        value = getattr(done.deal, name)
        if value is not None:
            out[name] = value
    return Completion(out, done.derived, done.unchecked)


def _format(mask: int) -> str:
    """`Deck.format_mask` of the standard deck, eight cards at a time (a deal writes five groups)."""
    eights = (
        SPADES[mask & 255],
        HEARTS[mask >> 8 & 255],
        DIAMONDS[mask >> 16 & 255],
        CLUBS[mask >> 24 & 255],
        JOKERS[mask >> 32],
    )
    return " ".join(filter(None, eights))
