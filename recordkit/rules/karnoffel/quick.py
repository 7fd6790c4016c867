"""Karnöffel's fast path (`Ruleset.quick_deal`): a clean deal replayed straight from JSON.

It drives the same state through the same rule functions as the full replay (the deal's size
checks and `deal.state_of_hands`, `proposals.take_call` and `skip_to` for each word of the windows,
`play.playable` and `play.end_trick` for the cards, `scoring.deal_scores`), but reads the deal
from parsed JSON without pydantic, builds no action per card and writes no diagnostic. Whatever it
does not cover (aliases and other spellings, card groups written as lists, cards as objects,
abandoned or annulled deals) or finds wrong returns None, and the full replay says what is wrong.

A deal's windows are one of few word sequences, so their outcome (the state's fields the handlers
set, each word's seat, the stage) is worked out once per sequence, dealer and options
(`windows_of`) and the words are taken again, with the scores before the deal, only when the
going-out cap could bite (`proposals.reachable_side` of the highest value the raises allow).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from recordkit.rules import fastread
from recordkit.rules.karnoffel import proposals
from recordkit.rules.karnoffel.cards import cards_of
from recordkit.rules.karnoffel.deal import (
    FACE_DOWN,
    faceup_size,
    hand_sizes,
    sides_before,
    stage_of_words,
    state_of_hands,
    stated_suit,
)
from recordkit.rules.karnoffel.play import end_trick, playable
from recordkit.rules.karnoffel.proposals import reachable_side
from recordkit.rules.karnoffel.record import CALLS, SUIT_LETTERS
from recordkit.rules.karnoffel.scoring import deal_scores
from recordkit.rules.karnoffel.state import WINDOWS, KarnoffelState, Phase, Said
from recordkit.rules.values import Action, PlayedTrick, QuickDeal, Table

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
WINDOW_FIELDS = (
    "phase",
    "window",
    "passes",
    "pending",
    "value",
    "raiser",
    "raises",
    "window_raises",
    "surrendered",
    "decided",
)
"""The state's fields that the proposal windows' handlers set (`proposals.take_call`, `skip_to`)."""
MEMO_SIZE = 4096
PLAYING = Phase.PLAY


@dataclass(frozen=True, slots=True)
class Proposed:
    """What a deal's proposal windows do to the state after the deal, as the handlers leave it."""

    stage: int
    """How far the cards were dealt (`stage_of_words`)."""
    raises: int
    """The raises said: the value stood at most at base_value + raises * raise_step at any raise."""
    said: tuple[tuple[Said, int | None], ...]
    """Each word and the seat the full replay gives it."""
    changed: tuple[tuple[str, Any], ...]
    """The fields of `WINDOW_FIELDS` the words change, with their values afterwards."""

    @property
    def surrendered(self) -> bool:
        """Whether a surrender ended the deal in its windows."""
        return ("surrendered", True) in self.changed


PROPOSED: dict[tuple[Any, ...], Proposed | None] = {}
"""`_propose` of each (table size, dealer, options, bare words) seen, at most `MEMO_SIZE` of them:
the handlers' outcome depends on nothing else while the cap cannot bite."""


def quick_deal(table: Table, deal: dict[str, Any], before: Sequence[int | float]) -> QuickDeal | None:
    """The deal's dealer, scores and final state if the full replay would find nothing in it;
    `before`, the running totals before the deal, is what the going-out cap looks at; a deal the
    fast path accepts has totals that follow from them, so its own line (what `start` reads first)
    says the same."""
    n = table.players
    dealer = deal.get("dealer")
    if type(dealer) is not int or not 0 <= dealer < n:
        return None
    written = deal.get("proposals", [])
    proposed = windows_of(table, dealer, written)
    if proposed is None or (deal.get("hands") is None and FACE_DOWN[proposed.stage]):
        return None  # (hands left out: the derivation's)
    state = _dealt(table, deal, proposed.stage)
    if state is None:
        return None
    state.before = sides = sides_before([int(total) for total in before], n)
    options = state.options
    if (
        options.raise_cap_when_game_reachable
        and sides is not None
        and reachable_side(options.target, sides, options.base_value + options.raise_step * proposed.raises)
        is not None
    ):  # the cap may bite: the words again, with the scores before the deal
        actions: list[Action] = []
        if not _proposals(state, _windows(written) or [], actions):
            return None
    else:
        actions = _apply(state, proposed)
    tricks = deal.get("tricks", [])
    if state.phase == Phase.DONE:  # a surrender ended the deal: nothing is played
        if tricks != []:
            return None
    elif not _play(state, _tricks(state, tricks)):
        return None
    return QuickDeal(state.dealer, [*deal_scores(state)], state, actions)


def windows_of(table: Table, dealer: int, written: Any) -> Proposed | None:
    """What the windows' words do (`_propose`), looked up in `PROPOSED` when they are bare names
    (every generated and magazine deal): a deal's words are one of few sequences."""
    key = _words_key(written)
    if key is None:
        return _propose(table, dealer, written)
    memo_key = (table.players, dealer, tuple(vars(table.options).values()), key)
    try:
        return PROPOSED[memo_key]
    except KeyError:
        pass
    found = _propose(table, dealer, written)
    if len(PROPOSED) >= MEMO_SIZE:
        PROPOSED.clear()
    PROPOSED[memo_key] = found
    return found


def _words_key(written: Any) -> tuple[tuple[Any, ...], ...] | None:
    """The windows as a hashable key (each window a tuple of its entries), or None when they are
    not lists or an entry is an object."""
    if type(written) is not list or not all(type(words) is list for words in written):
        return None
    key = tuple(map(tuple, written))
    try:
        hash(key)
    except TypeError:  # a call written as an object
        return None
    return key


def _propose(table: Table, dealer: int, written: Any) -> Proposed | None:
    """The windows' words through the full path's handlers (`_proposals`) on the state
    `state_of_hands` deals with no card and no score before the deal (the handlers read neither
    the cards nor, with no scores, the cap): None when the words are not read or break a rule."""
    windows = _windows(written)
    if windows is None:
        return None
    state, _choosing = state_of_hands(table, dealer, [], [0] * table.players, WINDOWS + 1, "played")
    actions: list[Action] = []
    if not _proposals(state, windows, actions):
        return None
    stage = stage_of_words([name for name, _seat in words] for words in windows)
    fresh, _choosing = state_of_hands(table, dealer, [], [0] * table.players, WINDOWS + 1, "played")
    changed = tuple(
        (name, getattr(state, name)) for name in WINDOW_FIELDS if getattr(state, name) != getattr(fresh, name)
    )
    return Proposed(stage, state.raises, tuple((action.value, action.seat) for action in actions), changed)


def _apply(state: KarnoffelState, proposed: Proposed) -> list[Action]:
    """The state as the windows' words leave it, and the words as actions with their seats."""
    for name, value in proposed.changed:
        setattr(state, name, value)
    return [Action("call", said, seat) for said, seat in proposed.said]


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


def _dealt(table: Table, deal: dict[str, Any], stage: int) -> KarnoffelState | None:
    """The state after the staged deal: the right keys, a played deal, the rounds' sizes for where
    the windows stopped it (`stage`), every card at most once, the chosen suit as stated."""
    if (
        not DEAL_KEYS.issuperset(deal)
        or deal.get("status", "played") != "played"
        or not fastread.notes_ok(deal)
    ):
        return None
    n = table.players
    stated = deal.get("chosen_suit")
    if stated is not None and stated not in SUIT_LETTERS:
        return None
    deck = table.options.deck
    faceup = fastread.card_ids(CARD_IDS[deck], deal.get("faceup"))
    if faceup is None:
        return None
    hands = deal.get("hands", [])
    downs = _hands(CARD_BITS[deck], hands) if type(hands) is list else None
    if downs is None:
        return None
    masks, sizes = downs
    if faceup_size(faceup, n, stage, "played") or hand_sizes(sizes, n, stage, "played"):
        return None
    state, choosing = state_of_hands(table, deal["dealer"], faceup, (masks + [0] * n)[:n], stage, "played")
    union = 0
    for hand in state.hands:
        union |= hand
    if union.bit_count() != len(faceup) + sum(sizes) or stated_suit(stated, state.cards, choosing):
        return None  # a card dealt twice, or another chosen suit stated
    return state


def _hands(bits: fastread.CardBits, texts: list[Any]) -> tuple[list[int], list[int]] | None:
    """Each seat's face-down cards as a bitmask, with the number of codes written, each group in
    canonical codes. A card written twice carries into another bit, so that the dealt cards'
    union then has fewer bits than codes (which `_dealt` checks)."""
    masks = []
    sizes = []
    try:  # a stray space reads as an empty code, which no deck has
        for text in texts:
            if type(text) is not str:
                return None
            codes = text.split(" ")
            masks.append(sum(map(bits.__getitem__, codes)))
            sizes.append(len(codes))
    except KeyError:
        return None
    return masks, sizes


def _proposals(state: KarnoffelState, windows: Words, actions: list[Action]) -> bool:
    """Every word of the windows through the full path's handler: its turn, speaker, limits and cap;
    kept with the seat the full replay gives it (`take_call` sets it: the side's usual speaker
    unless written); then, unless a surrender ended the deal, the windows closed for the play."""
    for number, words in enumerate(windows, start=1):
        for name, seat in words:  # a word after a surrender: take_call finds the windows closed
            action = Action("call", Said(number, name, seat), seat)
            if proposals.take_call(state, action):
                return False
            actions.append(action)
    return state.phase == Phase.DONE or not proposals.skip_to(state, WINDOWS + 1)


def _tricks(state: KarnoffelState, tricks: Any) -> list[fastread.ReadTrick] | None:
    """The tricks as read (`fastread.tricks`), or None."""
    return (
        fastread.tricks(CARD_IDS[state.options.deck], tricks, state.players) if type(tricks) is list else None
    )


def _play(state: KarnoffelState, written: list[fastread.ReadTrick] | None) -> bool:
    """Every trick, card by card: the stated leader, held, the Devil not opening the play; then the
    trick's winner and end through `end_trick`, and the winner the record states, if any; the deal
    ends exactly with the last trick written."""
    if written is None:
        return False
    orders = SEAT_ORDERS[state.players]
    hands = state.hands
    for cards, stated_leader, stated_winner in written:
        leader = state.leader
        if state.phase != PLAYING or (stated_leader is not None and stated_leader != leader):
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
        if stated_winner is not None and stated_winner != trick.winner:
            return False
    return state.phase == Phase.DONE
