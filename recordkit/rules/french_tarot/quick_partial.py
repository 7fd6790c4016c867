"""French Tarot's fast derivation (`Ruleset.quick_completed`): a played-out deal that leaves its
hands, dog or discard out, completed straight from parsed JSON (spec/rules/french-tarot.md,
"Partial records").

The full derivation (`recordkit.derive`) replays the deal through the engine with blank hands to
find who played each card, then `partial.complete` writes the groups in. Here the same handlers
settle the contract (`contract.take_bid`, `take_call`, `announcements.take_announcement`: a slam's
declarer leads), `TarotState.first_leader` gives the first leader and `play.winning_index` (the rule the
blank replay plays by) each trick's winner; the last trick's winner
seats no card, so the Excuse's rule there does not matter. The groups follow `partial._played_out`
(tarot.partial.hands, .discard, .taker), the split of the taker's cards by `partial._split`.
Only the canonical form is covered (calls and tricks as bare strings, canonical codes, every card
played once); anything else, or a deal not played out, says None and takes the full derivation.
The guess is proven by the fast replay of the completed deal (`recordkit.quick`), and held to
`derive` by tests/test_quick_derived.py and tests/test_tarot_quick_partial.py.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from itertools import repeat
from operator import itemgetter
from typing import Any

from recordkit.rules import fastread
from recordkit.rules.french_tarot import announcements, contract, partial, quick
from recordkit.rules.french_tarot.cards import BITS, DECK, FULL_DECK, HAND_SIZES
from recordkit.rules.french_tarot.play import winning_index
from recordkit.rules.french_tarot.quick import (
    BID_VALUES,
    CARD_IDS,
    DEAL_KEYS,
    announcement_actions,
)
from recordkit.rules.french_tarot.record import Announcement, Misere, TarotDeal
from recordkit.rules.french_tarot.state import Phase, TarotState
from recordkit.rules.values import Action, Completion, Deferred, QuickDeal, Table, write_groups

EIGHTS = range((len(DECK) + 7) // 8)
TEXTS = fastread.byte_texts(DECK.codes)
"""The text of each set of the deck's cards with ids 8k to 8k+7, for writing a group fast."""
NO_ANNOUNCEMENTS = TarotDeal.model_construct(dealer=0, announcements=[])
"""A deal with no misère for `partial._split`, which reads only a deal's misères."""
RESULT_KEYS = frozenset({"scores", "points"})
"""A result the fast path reads (`quick_result_fields`): kept as written, as the model keeps it."""
HAND_PATHS = {n: [f"hands[{seat}]" for seat in range(n)] for n in HAND_SIZES}
WRITTEN_GROUPS = frozenset({"hands", "dog", "call", "discard"})
"""The fields a passed deal written as a magazine prints it leaves out."""
SEAT_ORDER_GETTERS = {
    n: [itemgetter(*[(seat - leader) % n for seat in range(n)]) for leader in range(n)] for n in HAND_SIZES
}
"""By number of players and leader: a trick's cards (in play order) in seat order."""
Score = Callable[[TarotState], list[int | float] | None]
"""The ruleset's `score`."""


def completed(table: Table, deal: dict[str, Any]) -> Completion | None:
    """The deal with its hands, dog and discard derived from the play, exactly as `derive` gives
    them (tarot.partial.*); None for a deal not played out or not in the canonical form."""
    n = table.players
    if not DEAL_KEYS.issuperset(deal) or deal.get("status", "played") != "played":
        return None
    written = _written(deal, n)
    result = deal.get("result")
    if (
        written is None
        or not fastread.notes_ok(deal)
        or not (result is None or (type(result) is dict and RESULT_KEYS.issuperset(result)))
    ):
        return None
    dog, discard = deal.get("dog"), deal.get("discard")
    derived = [HAND_PATHS[n][seat] for seat in range(n) if written[seat] is None]
    if dog is None:
        derived.append("dog")
    state = _contract(table, deal)
    if state is None:
        return None
    dog_taken = partial.dog_taken_by_taker(state)
    if discard is None and dog_taken:
        derived.append("discard")
    ids = _trick_ids(deal.get("tricks"), n, state.tricks_per_deal)
    if not derived or ids is None:
        return None
    columns, tricks = _seat_cards(state, ids)
    by_seat = [sum(map(BITS.__getitem__, column)) for column in columns]  # each seat's cards played
    played = sum(by_seat)  # a card played twice carries into another bit: fewer bits than cards
    if played.bit_count() != len(ids):
        return None
    unplayed = FULL_DECK ^ played
    hands: list[str | None] = list(written)
    masks = [  # each hand as the fast replay reads it (the taker's, when he takes the dog, below)
        by_seat[seat] if hand is None else _mask(hand) for seat, hand in enumerate(written)
    ]
    taker = state.taker
    later = [seat for seat in range(n) if written[seat] is None and not (dog_taken and seat == taker)]
    unchecked: dict[tuple[str, int | None], str] = {}
    dog_later = False  # the dog's text written later, from `dog_mask`
    if not dog_taken:
        dog_mask = unplayed if dog is None else _mask(dog)
        dog_later = dog is None
    else:
        assert taker is not None
        laid = _format(unplayed)  # what nobody played: the discard, whose text the proof reads
        discard = laid if discard is None else discard
        kept = by_seat[taker] | unplayed  # his hand and the dog
        hand = written[taker]
        if dog is not None:
            dog_mask = _mask(dog)
            if hand is None:
                masks[taker] = kept & ~dog_mask
                later.append(taker)
        elif hand is not None:
            dog_mask = kept & ~masks[taker]
            dog_later = True
        else:
            dog_mask, unchecked = partial._split(table, _misere_deal(table, deal), state, kept, unplayed)
            masks[taker] = kept & ~dog_mask
            later.append(taker)
            if dog_mask == unplayed:
                dog = laid
            else:
                dog_later = True
    out = {key: value for key, value in deal.items() if value is not None}
    out.update(hands=hands, dog=dog, status="played")
    out.setdefault("announcements", [])
    if discard is not None:
        out["discard"] = discard
    groups: list[tuple[int | None, int]] = [(seat, masks[seat]) for seat in later]
    if dog_later:
        groups.append((None, dog_mask))
    return Deferred(
        out,
        functools.partial(write_groups, _format, "dog", groups),
        derived,
        unchecked,
        ([*masks, dog_mask], tricks),
    )


def unplayed(table: Table, deal: dict[str, Any], score: Score) -> QuickDeal | None:
    """The fast path of a deal that everybody passed, written without its hands and dog (as a
    magazine prints it): the replay `derive` completes it to, with every hand and the dog empty
    and the checks `partial._cut_short_unchecked` names left unchecked (the hands' sizes, the cards
    dealt to nobody, the Petit sec, the dog's size: the empty groups' only findings), its auction
    through the fast path's own (`quick._contract`) and its score by the ruleset's `score`; None
    for any other deal, or a result holding more than the scores."""
    n = table.players
    if (
        not fastread.passed_without_groups(deal, DEAL_KEYS, WRITTEN_GROUPS, n)
        or deal.get("announcements", []) != []
    ):
        return None
    dealer: int = deal["dealer"]
    state = TarotState(table, dealer, [0] * n, [0] * n, 0, HAND_SIZES[n])
    state.scorable = False  # the empty hands break the sizes: the full replay's start says so
    actions: list[Action] = []
    if not quick._contract(state, deal, actions) or state.phase != Phase.DONE:
        return None
    out = {key: value for key, value in deal.items() if value is not None}
    out.update(hands=[""] * n, dog="", status="played")
    out.setdefault("announcements", [])
    unchecked = partial._cut_short_unchecked(table, NO_ANNOUNCEMENTS, [None] * n, state)
    completion = Completion(out, [*HAND_PATHS[n], "dog"], unchecked)
    return QuickDeal(dealer, score(state), state, actions, completion)


def _written(deal: dict[str, Any], n: int) -> list[str | None] | None:
    """The hands as written (None for each one left out), when they, the dog and the discard are
    canonical card groups; None otherwise, or when the dealer is not a seat."""
    dealer = deal.get("dealer")
    if type(dealer) is not int or not 0 <= dealer < n:
        return None
    hands = deal.get("hands")
    if hands is None:
        hands = [None] * n
    elif type(hands) is not list or len(hands) != n:
        return None
    groups = [deal.get("dog"), deal.get("discard"), *hands]
    if any(text is not None and fastread.card_ids(CARD_IDS, text) is None for text in groups):
        return None
    return hands


def _contract(table: Table, deal: dict[str, Any]) -> TarotState | None:
    """The state after the auction, the call and the announcements, through the full path's
    handlers on blank hands (as `derive` replays them); None unless the auction is every seat's
    call once, bare, the five-player call is written when due, and the deal is played."""
    n = table.players
    state = TarotState(table, deal["dealer"], [0] * n, [0] * n, 0, HAND_SIZES[n])
    auction = deal.get("auction")
    if type(auction) is not list or len(auction) != n:
        return None
    for name in auction:
        value = BID_VALUES.get(name) if type(name) is str else None
        if value is None:
            return None
        contract.take_bid(state, Action("bid", value))
    called = deal.get("call")
    if state.phase == Phase.CALL:
        card = CARD_IDS.get(called) if type(called) is str else None
        if card is None:
            return None
        contract.take_call(state, Action("call", card, state.taker))
    elif called is not None or state.phase == Phase.DONE:  # a call out of place, or a redeal
        return None
    found = announcement_actions(deal.get("announcements", []))
    if found is None:
        return None
    for action in found:
        announcements.take_announcement(state, action)
    return state


def _trick_ids(tricks: Any, n: int, count: int) -> list[int] | None:
    """The cards of the tricks in play order, when there are `count` tricks, each a string of `n`
    canonical codes (`completed` then checks that no card is played twice)."""
    if type(tricks) is not list or len(tricks) != count:
        return None
    try:
        if set(map(str.count, tricks, repeat(" "))) != {n - 1}:
            return None
    except TypeError:  # a trick that is not a string
        return None
    return fastread.card_ids(CARD_IDS, " ".join(tricks))


def _seat_cards(state: TarotState, ids: list[int]) -> tuple[list[tuple[int, ...]], list[list[int]]]:
    """The cards each seat played, and each trick's cards: each trick led by the last one's winner
    by rank, the first by the rules' first leader, as the blank replay of `derive` plays them."""
    n = state.players
    tricks = list(map(list, zip(*[iter(ids)] * n, strict=True)))  # n cards at a time
    in_seat_order = SEAT_ORDER_GETTERS[n]
    leader = state.first_leader()
    by_seat = []
    for cards in tricks:
        by_seat.append(in_seat_order[leader](cards))
        leader = (leader + winning_index(cards)) % n
    return list(zip(*by_seat, strict=True)), tricks


def _format(mask: int) -> str:
    """`Deck.format_mask`: a group of cards as canonical text in deck order, eight cards at a time
    (a deal writes five or six groups)."""
    return " ".join(filter(None, [TEXTS[eight][mask >> 8 * eight & 255] for eight in EIGHTS]))


def _mask(text: str) -> int:
    """The cards of a written canonical group."""
    return DECK.mask(map(CARD_IDS.__getitem__, text.split(" ")))


def _misere_deal(table: Table, deal: dict[str, Any]) -> TarotDeal:
    """The deal as `partial._split` reads it: only its misères (when the option allows them)."""
    if not table.options.misere:
        return NO_ANNOUNCEMENTS
    miseres: list[Announcement] = [
        Misere.model_construct(type="misere", seat=note["seat"], kind=note["kind"])
        for note in deal.get("announcements", [])
        if note.get("type") == "misere"
    ]
    return (
        TarotDeal.model_construct(dealer=deal["dealer"], announcements=miseres)
        if miseres
        else NO_ANNOUNCEMENTS
    )
