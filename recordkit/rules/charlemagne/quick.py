"""Charlemagne's fast path (`Ruleset.quick_deal`): a clean deal replayed straight from JSON.

It drives the same state through the same dispatcher as the full replay for the few actions before
the play (`flow.advance`: the auction, the partner's card, the discards, the trump, the Maine
defenders' answers and exchange) and for the knocks and a claim, runs the cards itself with
`play.legal_mask` and `play.settle_trick`, and scores with `scoring.deal_scores`; it builds no
model, no action per card and no diagnostic. Whatever it does not cover (aliases, cards written as
objects, annulled or abandoned deals) or finds wrong returns None, and the full replay says what.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from recordkit.rules import fastread
from recordkit.rules.charlemagne import flow, scoring
from recordkit.rules.charlemagne.bids import CALL_ALIASES, DEFENCE_CALLS, INDEX, normal_call
from recordkit.rules.charlemagne.cards import (
    DECKS,
    HAND_SIZE,
    KITTY_SIZE,
    PLAYERS,
    SUIT_LETTERS,
    TRICKS,
)
from recordkit.rules.charlemagne.play import legal_mask, settle_trick, take_knock
from recordkit.rules.charlemagne.state import DONE, PLAY, CharlemagneState, trick_seats
from recordkit.rules.values import Action, PlayedTrick, QuickDeal, Table, Turn

CARD_IDS: dict[str, fastread.CardIds] = {
    variant: {code: card for card, code in enumerate(deck.codes)} for variant, deck in DECKS.items()
}
CARD_BITS = {variant: fastread.card_bits(ids) for variant, ids in CARD_IDS.items()}
GROUP_SIZES = {
    variant: {PLAYERS: [HAND_SIZE] * PLAYERS, PLAYERS + 1: [HAND_SIZE] * PLAYERS + [KITTY_SIZE[variant]]}
    for variant in DECKS
}
"""The sizes of the groups read in one pass: the hands, then the kitty when the deal writes it."""
FULL_DECK = {variant: (1 << len(deck)) - 1 for variant, deck in DECKS.items()}
DEAL_KEYS = frozenset(
    {"dealer", "hands", "kitty", "auction", "partner_card", "discard", "trump", "defence"}
    | {"defender_card", "defender_discard", "tricks", "knocks", "claim", "status", "result", "totals"}
    | {"comment", "time"}
)
KNOCK_KEYS = frozenset({"seat", "trick", "after", "comment", "time"})
CLAIM_KEYS = frozenset({"seat", "tricks", "comment", "time"})


def _canonical_calls(names: list[str]) -> dict[str, str]:
    """The call names the deal model keeps exactly as written (its re-spelling maps them to themselves)."""
    return {name: name for name in names if CALL_ALIASES.get(normal_call(name)) == name}


BID_VALUES = {
    variant: {name: INDEX[variant][name] for name in _canonical_calls(list(index))}
    for variant, index in INDEX.items()
}
ANSWERS = _canonical_calls(list(DEFENCE_CALLS))
TRUMPS = {letter: suit for suit, letter in enumerate(SUIT_LETTERS)}
TurnOf = Callable[[CharlemagneState], Turn | None]
"""The ruleset's `turn`: who acts next."""
Knocks = list[tuple[int, int, int, int]]
"""Knocks as (place in the play, trick, cards of it played before, seat), in the model's order."""


def quick_deal(table: Table, deal: dict[str, Any], turn: TurnOf) -> QuickDeal | None:
    """The deal's dealer, scores, final state and non-play actions if the full replay would find
    nothing in it; `turn` is the ruleset's, which gives an action written without a seat its seat,
    as the engine does."""
    state = _dealt(table, deal)
    actions: list[Action] = []
    if state is None or not _before_play(state, deal, turn, actions):
        return None
    tricks, knocks, claim = deal.get("tricks", []), deal.get("knocks"), deal.get("claim")
    if type(tricks) is not list:
        return None
    if state.phase == DONE:  # everybody passed: nothing is played, the next dealer deals
        if tricks or knocks not in (None, []) or claim is not None:
            return None
    elif not _play_phase(state, tricks, knocks, claim, actions):
        return None
    if state.phase != DONE or not state.scorable or not state.checked:
        return None
    if not _result_tricks(state, deal.get("result")):
        return None
    return QuickDeal(state.dealer, list(scoring.deal_scores(state)), state, actions)


def _dealt(table: Table, deal: dict[str, Any]) -> CharlemagneState | None:
    """The state after the deal: the right keys, a seat dealing, eight cards each, the kitty, each
    card of the variant's deck once, and a deal that is played (not annulled nor abandoned)."""
    if not DEAL_KEYS.issuperset(deal) or deal.get("status", "played") != "played":
        return None
    dealer, hands = deal.get("dealer"), deal.get("hands")
    if type(dealer) is not int or not 0 <= dealer < PLAYERS or not fastread.notes_ok(deal):
        return None
    if type(hands) is not list or len(hands) != PLAYERS:
        return None
    variant: str = table.options.variant
    kitty_text = deal.get("kitty")
    texts = hands if kitty_text is None else [*hands, kitty_text]
    read = fastread.group_masks(CARD_BITS[variant], texts, GROUP_SIZES[variant][len(texts)])  # in one pass
    if read is None:
        return None
    masks = read[:PLAYERS]
    kitty = 0 if kitty_text is None else read[PLAYERS]
    union = kitty
    for mask in masks:
        union |= mask
    if union != FULL_DECK[variant]:  # a standard deal without its kitty misses two cards
        return None
    return CharlemagneState(table, variant, dealer, masks, masks[:], kitty)


def _before_play(state: CharlemagneState, deal: dict[str, Any], turn: TurnOf, done: list[Action]) -> bool:
    """The calls, the partner's card, the discard, the trump and the Maine defence, in the order the
    full replay takes them, each given its seat and put through `flow.advance` (which also reports
    what they skip) as the engine does; kept in `done`."""
    actions = _before_play_actions(state.variant, deal)
    if actions is None:
        return False
    for action in actions:
        if action.seat is None:
            now = turn(state)
            action.seat = now.seat if now is not None else None
        if flow.advance(state, action):
            return False
        done.append(action)
    return True


def _before_play_actions(variant: str, deal: dict[str, Any]) -> list[Action] | None:
    """The deal's calls, exchanges, trump and Maine defence as actions, in the order the full replay
    takes them; None when one is not written canonically."""
    actions = _calls(deal.get("auction", []), BID_VALUES[variant], "auction", "bid")
    exchanges = _exchange_actions(variant, deal)
    return None if actions is None or exchanges is None else actions + exchanges


def _exchange_actions(variant: str, deal: dict[str, Any]) -> list[Action] | None:
    """The steps after the auction (the partner's card, the discard, the trump, the Maine defence)
    as actions in the order the full replay takes them; None when one is not written canonically."""
    actions: list[Action] = []
    for kind in ("partner_card", "discard", "trump", "defence", "defender_card", "defender_discard"):
        more = _step(variant, deal.get(kind), kind)
        if more is None:
            return None
        actions += more
    return actions


def _step(variant: str, written: Any, kind: str) -> list[Action] | None:
    """The actions of one optional step as written: none when absent, None when not canonical."""
    if written is None:
        return []
    if kind == "trump":
        suit = TRUMPS.get(written) if type(written) is str else None
        return None if suit is None else [Action("trump", suit, None, "trump")]
    if kind == "defence":
        return _calls(written, ANSWERS, "defence", "defence")
    cards = fastread.card_ids(CARD_IDS[variant], written)
    if cards is None or (kind.endswith("_card") and len(cards) != 1):
        return None
    return [Action(kind, card, None, kind, position=i) for i, card in enumerate(cards, start=1)]


def _calls(written: Any, names: dict[str, Any], field: str, kind: str) -> list[Action] | None:
    """Auction calls or defenders' answers as actions, when each is a call of this variant."""
    if type(written) is not list:
        return None
    actions: list[Action] = []
    for index, entry in enumerate(written):
        call = fastread.call(entry)
        if call is None or call[0] not in names:
            return None
        actions.append(Action(kind, names[call[0]], call[1], f"{field}[{index}]"))
    return actions


def _play_phase(
    state: CharlemagneState,
    tricks: list[Any],
    knocks: Any,
    claim: Any,
    done: list[Action],
) -> bool:
    """Close the steps the contract skips (as the first card would), then play the tricks with the
    knocks at their places, then the claim if any; all of it must be clean. The knocks and the
    claim are kept in `done`."""
    if state.phase < PLAY and flow.close_phases(state, PLAY):
        return False
    if state.phase != PLAY:
        return False
    placed = _knocks(tricks, knocks, state.active_count())
    if placed is None or not _play(state, tricks, placed):
        return False
    done += [_knock(knock) for knock in placed]
    if claim is None:
        return len(tricks) == TRICKS
    written = _claim(claim)
    if written is None:
        return False
    action = Action("claim", written, written[0], "claim")
    done.append(action)
    return not flow.advance(state, action)


def _knock(knock: tuple[int, int, int, int]) -> Action:
    """A knock (place, trick, cards before it, seat) as the action `take_knock` takes."""
    place, trick, after, seat = knock
    return Action("knock", (trick, after, place), seat, "knocks")


def _knocks(tricks: list[Any], knocks: Any, size: int) -> Knocks | None:
    """The knocks as the deal model reads them, each at a place of the play (a trick recorded, after
    0 to `size` of its cards), sorted as the model sorts them."""
    if knocks is None:
        return []
    if type(knocks) is not list:
        return None
    placed: Knocks = []
    for knock in knocks:
        if type(knock) is not dict or not KNOCK_KEYS.issuperset(knock) or not fastread.notes_ok(knock):
            return None
        seat, trick, after = knock.get("seat"), knock.get("trick"), knock.get("after", 0)
        if seat is None or not fastread.seat_or_none(seat):  # `take_knock` refuses seats 4 to 7
            return None
        if type(trick) is not int or type(after) is not int or not 1 <= trick <= len(tricks):
            return None
        if not 0 <= after <= size:
            return None
        placed.append(((trick - 1) * size + after, trick, after, seat))
    placed.sort(key=lambda knock: (knock[1], knock[2]))
    return placed


def _claim(claim: Any) -> tuple[int, int] | None:
    """A claim's seat and tricks, as the model reads them (a seat, 0 to 8 tricks)."""
    if type(claim) is not dict or not CLAIM_KEYS.issuperset(claim) or not fastread.notes_ok(claim):
        return None
    seat, tricks = claim.get("seat"), claim.get("tricks")
    if (
        seat is None
        or not fastread.seat_or_none(seat)
        or type(tricks) is not int
        or not 0 <= tricks <= TRICKS
    ):
        return None
    return seat, tricks


def _play(state: CharlemagneState, tricks: list[Any], knocks: Knocks) -> bool:
    """Every trick, card by card: one card from each player in the play, held and legal; then who
    won it, and the leader and winner the record states, if any. Knocks go in at their places."""
    size = state.active_count()
    if len(tricks) > TRICKS:
        return False
    written = fastread.tricks(CARD_IDS[state.variant], tricks, size)  # plain strings: in one pass
    if written is None or len(written) != len(tricks):
        return False
    ctx = state.ctx
    hands = state.hands
    orders = trick_seats(state.out)
    places = [knock[0] for knock in knocks] + [-1]  # -1: no knock left
    done = played = 0
    leader = state.leader
    for cards, stated_leader, stated_winner in written:
        if stated_leader not in (None, leader):
            return False
        order = orders[leader]
        so_far: list[int] = []
        trick = state.current = PlayedTrick(leader, so_far, list(order))
        for card, seat in zip(cards, order, strict=True):
            if played == places[done]:
                done = _knocks_at(state, knocks, done, played)
                if done < 0:
                    return False
            hand = hands[seat]
            if not legal_mask(ctx, hand, so_far) >> card & 1:  # held, and legal
                return False
            hands[seat] = hand ^ (1 << card)
            so_far.append(card)
            played += 1
        settle_trick(state, trick)
        winner = trick.winner
        if winner is None or stated_winner not in (None, winner):
            return False
        leader = winner
    if played == places[done]:  # knocks after the last card
        done = _knocks_at(state, knocks, done, played)
    state.cards_played = played
    return done == len(knocks)


def _knocks_at(state: CharlemagneState, knocks: Knocks, first: int, played: int) -> int:
    """The knocks at this place of the play, from `first` on, each through its full-path handler;
    the index of the next knock, or -1 if the handler objects to one."""
    state.cards_played = played
    index = first
    while index < len(knocks) and knocks[index][0] == played:
        if take_knock(state, _knock(knocks[index])):
            return -1
        index += 1
    return index


def _result_tricks(state: CharlemagneState, result: Any) -> bool:
    """charlemagne.score.tricks: the bidding side's tricks, if the sheet notes them, are the play's."""
    tricks = result.get("tricks") if type(result) is dict else None
    if tricks is None:
        return True
    if type(tricks) is not int or not 0 <= tricks <= TRICKS:
        return False
    return state.bidder is None or tricks == scoring.side_tricks(state)
