"""Karnöffel's fast path (`Ruleset.quick_deal`): a clean deal replayed straight from JSON.

It drives the same state through the same rule functions as the full replay (the deal's size
checks and `deal.state_of_hands`, `proposals.take_call` and `skip_to` for each word of the windows,
`play.playable` and `play.end_trick` for the cards, `scoring.deal_scores`), but reads the deal
from parsed JSON without pydantic, builds no action per card and writes no diagnostic. Whatever it
does not cover (aliases and other spellings, card groups written as lists, cards as objects,
abandoned or annulled deals) or finds wrong returns None, and the full replay says what is wrong.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from recordkit.rules import fastread
from recordkit.rules.base import Action, PlayedTrick, QuickDeal, Table
from recordkit.rules.karnoffel import proposals
from recordkit.rules.karnoffel.cards import cards_of
from recordkit.rules.karnoffel.deal import (
    faceup_size,
    hand_sizes,
    sides_before,
    stage_of_words,
    state_of_hands,
    stated_suit,
)
from recordkit.rules.karnoffel.play import end_trick, playable
from recordkit.rules.karnoffel.record import CALLS, SUIT_LETTERS
from recordkit.rules.karnoffel.scoring import deal_scores
from recordkit.rules.karnoffel.state import WINDOWS, KarnoffelState, Phase, Said

CARD_IDS = {size: {code: card for card, code in enumerate(cards_of(size).deck.codes)} for size in (48, 52)}
"""Each deck's canonical codes and their ids (the 48-card deck has no aces)."""
CARD_BITS = {size: fastread.card_bits(ids) for size, ids in CARD_IDS.items()}
"""Each deck's canonical codes and their bitmasks, for reading the hands as masks."""
DEAL_KEYS = frozenset(
    {"dealer", "faceup", "chosen_suit", "hands", "proposals", "tricks", "status"}
    | {"result", "totals", "comment", "time"}
)
SEAT_ORDERS = {n: [[(leader + i) % n for i in range(n)] for leader in range(n)] for n in (2, 4, 6, 8)}
"""The seats in play order from each leader, by the number of players."""
Words = list[list[tuple[str, int | None]]]
"""The proposal windows as read: each word's canonical name and the seat the record writes."""


def quick_deal(
    table: Table, deal: dict[str, Any], before: Sequence[int | float], unsized: frozenset[int] = frozenset()
) -> QuickDeal | None:
    """The deal's dealer, scores and final state if the full replay would find nothing in it;
    `before`, the running totals before the deal, is what the going-out cap looks at; a deal the
    fast path accepts has totals that follow from them, so its own line (what `start` reads first)
    says the same. The seats in `unsized` (a derived deal's, holding only the cards they played)
    are not sized."""
    windows = _windows(deal.get("proposals", []))
    if windows is None:
        return None
    state = _dealt(table, deal, windows, unsized)
    if state is None:
        return None
    state.before = sides_before([int(total) for total in before], state.players)
    actions: list[Action] = []
    if not _proposals(state, windows, actions):
        return None
    tricks = deal.get("tricks", [])
    if state.phase == Phase.DONE:  # a surrender ended the deal: nothing is played
        if tricks != []:
            return None
    elif proposals.skip_to(state, WINDOWS + 1) or not _play(state, tricks):
        return None
    return QuickDeal(state.dealer, [*deal_scores(state)], state, actions)


def _windows(written: Any) -> Words | None:
    """The proposal windows (at most three), each a list of words in canonical spelling (a bare
    name read here, an object through `fastread.call`)."""
    if type(written) is not list or len(written) > WINDOWS:
        return None
    windows: Words = []
    for calls in written:
        if type(calls) is not list:
            return None
        words = []
        for entry in calls:
            call = (entry, None) if type(entry) is str else fastread.call(entry)
            if call is None or call[0] not in CALLS:
                return None
            words.append(call)
        windows.append(words)
    return windows


def _dealt(
    table: Table, deal: dict[str, Any], windows: Words, unsized: frozenset[int] = frozenset()
) -> KarnoffelState | None:
    """The state after the staged deal: the right keys, a played deal, the rounds' sizes for where
    the windows stopped it, every card at most once, the chosen suit as stated."""
    if (
        not DEAL_KEYS.issuperset(deal)
        or deal.get("status", "played") != "played"
        or not fastread.notes_ok(deal)
    ):
        return None
    n = table.players
    dealer = deal.get("dealer")
    stated = deal.get("chosen_suit")
    if type(dealer) is not int or not 0 <= dealer < n or (stated is not None and stated not in SUIT_LETTERS):
        return None
    ids = CARD_IDS[table.options.deck]
    faceup = fastread.card_ids(ids, deal.get("faceup"))
    hands = deal.get("hands", [])
    downs = _hands(CARD_BITS[table.options.deck], hands, bool(unsized)) if type(hands) is list else None
    if faceup is None or downs is None:
        return None
    masks, sizes = downs
    stage = stage_of_words([name for name, _seat in words] for words in windows)
    if faceup_size(faceup, n, stage, "played") or _sizes_off(sizes, n, stage, unsized):
        return None
    state, choosing = state_of_hands(table, dealer, faceup, (masks + [0] * n)[:n], stage, "played")
    union = 0
    for hand in state.hands:
        union |= hand
    if union.bit_count() != len(faceup) + sum(sizes) or stated_suit(stated, state.cards, choosing):
        return None  # a card dealt twice, or another chosen suit stated
    return state


def _sizes_off(sizes: list[int], n: int, stage: int, unsized: frozenset[int]) -> bool:
    """Whether `hand_sizes` finds a hand of the wrong size; the seats in `unsized` (a derived deal's
    seats that did not play all their cards) left out, as the full derivation leaves them unchecked."""
    if not unsized:
        return bool(hand_sizes(sizes, n, stage, "played"))
    sized = [size for seat, size in enumerate(sizes) if seat not in unsized]
    return len(sizes) != n or bool(hand_sizes(sized, len(sized), stage, "played"))


def _hands(
    bits: fastread.CardBits, texts: list[Any], empty: bool = False
) -> tuple[list[int], list[int]] | None:
    """Each seat's face-down cards as a bitmask, with the number of codes written, each group in
    canonical codes; `empty`: a group may be "" (a derived hand whose seat played nothing). A
    card written twice carries into another bit, so that the dealt cards' union then has fewer
    bits than codes (which `_dealt` checks)."""
    masks = []
    sizes = []
    try:  # a stray space reads as an empty code, which no deck has
        for text in texts:
            if type(text) is not str:
                return None
            codes = [] if empty and text == "" else text.split(" ")
            masks.append(sum(map(bits.__getitem__, codes)))
            sizes.append(len(codes))
    except KeyError:
        return None
    return masks, sizes


def _proposals(state: KarnoffelState, windows: Words, actions: list[Action]) -> bool:
    """Every word of the windows through the full path's handler: its turn, speaker, limits and cap;
    kept with the seat the full replay gives it (`take_call` sets it: the side's usual speaker
    unless written)."""
    for number, words in enumerate(windows, start=1):
        for name, seat in words:  # a word after a surrender: take_call finds the windows closed
            action = Action("call", Said(number, name, seat), seat)
            if proposals.take_call(state, action):
                return False
            actions.append(action)
    return True


def _play(state: KarnoffelState, tricks: Any) -> bool:
    """Every trick, card by card: the stated leader, held, the Devil not opening the play; then the
    trick's winner and end through `end_trick`, and the winner the record states, if any; the deal
    ends exactly with the last trick written."""
    written = (
        fastread.tricks(CARD_IDS[state.options.deck], tricks, state.players) if type(tricks) is list else None
    )
    if written is None:
        return False
    orders = SEAT_ORDERS[state.players]
    hands = state.hands
    for cards, stated_leader, stated_winner in written:
        leader = state.leader
        if state.phase != Phase.PLAY or stated_leader not in (None, leader):
            return False
        if not playable(state, leader) >> cards[0] & 1:  # the Devil opening the play
            return False
        seats = orders[leader]
        for card, seat in zip(cards, seats, strict=True):
            hand = hands[seat]
            if not hand >> card & 1:
                return False
            hands[seat] = hand ^ (1 << card)
        trick = PlayedTrick(leader, cards, seats[:])
        end_trick(state, trick)
        if stated_winner not in (None, trick.winner):
            return False
    return state.phase == Phase.DONE
