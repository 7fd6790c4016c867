"""Charlemagne deals that leave the hands or the kitty out: what the play and the exchanges say of
them (spec/rules/charlemagne.md, §8 "Partial records").

A seat in the play held, as dealt, the cards it played and discarded, less those it was given (the
partner's card, the Maine defender's card). A seat out of the play held the card it passed and its
share of the cards nobody played; so did the kitty when nobody took it, and so did a missing
discard. When several of those shares are unwritten they cannot be told apart, and when the
bidder takes the kitty, his hand and the kitty are told apart only by one of them being written:
then the completion guesses a split, and the checks the guess would decide are not run.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from recordkit.cards import ids_of
from recordkit.rules.base import HAND_CHECKS, missing_hands
from recordkit.rules.charlemagne.cards import DECKS, HAND_SIZE, KITTY_SIZE, PLAYERS, TRICKS, bit, popcount
from recordkit.rules.charlemagne.record import CharlemagneDeal
from recordkit.rules.charlemagne.state import CharlemagneState, Phase
from recordkit.rules.values import Completion, Table
from recordkit.rules.violations import card_list

DEALT_CHECKS = (
    *HAND_CHECKS,
    "DEAL-KITTY-SIZE",
    "CHARLEMAGNE-CARD-NOT-HELD",
    "CHARLEMAGNE-DISCARD-NOT-HELD",
)
"""Checks of the cards as dealt: meaningless on a deal whose unknown hands are left empty."""

CHECK_NAMES = {
    "DEAL-KITTY-SIZE": "the kitty's size",
    "CHARLEMAGNE-DISCARD-NOT-HELD": "that the discard was in the discarder's hand",
    "CHARLEMAGNE-CARD-NOT-HELD": "that the passed card was in the giver's hand",
    "CHARLEMAGNE-CLAIM-WRONG": "whether the claim was sure",
    "CHARLEMAGNE-DISCARD-SIZE": "the discard's size",
}
"""Plain words for the checks a partial deal can leave unchecked, for the note that says so."""

Unchecked = dict[tuple[str, int | None], str]


def unknown(table: Table, deal: CharlemagneDeal) -> list[str]:
    """The hands and (standard game) the kitty the record leaves out."""
    kitty = ["kitty"] if table.options.variant == "standard" and deal.kitty is None else []
    return missing_hands(table, deal) + kitty


def blank(table: Table, deal: CharlemagneDeal) -> CharlemagneDeal:
    """The deal with its unknown hands and kitty left unknown (null): the replay reads them as
    empty, and `compile` knows not to report what empty hands would break."""
    hands = list(deal.hands) if deal.hands is not None else [None] * PLAYERS
    return deal.model_copy(update={"hands": hands})


def forget(deal: CharlemagneDeal) -> CharlemagneDeal:
    """The deal without its hands and kitty; the calls, the exchanges and the tricks stay."""
    return deal.model_copy(update={"hands": None, "kitty": None})


@dataclass(slots=True)
class Moves:
    """What the exchanges moved, seat by seat (bitmasks), as the replay of the deal carried them out."""

    received: list[int]
    given: list[int]
    discarded: list[int]


def moves(state: CharlemagneState) -> Moves:
    """The partner's card, the Maine defender's card and both discards, by seat."""
    out = Moves([0] * PLAYERS, [0] * PLAYERS, [0] * PLAYERS)
    for receiver, card in ((state.bidder, state.partner_card), (state.defender, state.defender_card)):
        if receiver is not None and card is not None:
            out.received[receiver] |= bit(card)
            out.given[state.partner(receiver)] |= bit(card)
    if state.bidder is not None:
        out.discarded[state.bidder] |= state.discard
    if state.defender is not None:
        out.discarded[state.defender] |= state.defender_discard
    return out


KITTY = PLAYERS
"""The kitty's place in the owners' table, after the four seats."""


def complete(
    table: Table, deal: CharlemagneDeal, played: list[list[int]], state: CharlemagneState
) -> Completion:
    """The hands, kitty and discards the record leaves out, from the play (`state` replayed it with
    the unknown groups empty; `played` is what it found each seat played, which `state` has in
    the order of play), with the checks that rest on a guess."""
    variant: str = table.options.variant
    written: list[str | None] = list(deal.hands) if deal.hands is not None else [None] * PLAYERS
    move = moves(state)
    own = owners(deal, state, written, move)
    taker = state.bidder if state.kitty_taken else None
    kitty_open = variant == "standard" and deal.kitty is None
    found: dict[str, int] = {}
    for seat, hand in enumerate(written):
        if hand is None and seat != taker and seat < PLAYERS:
            found[f"hands[{seat}]"] = own[seat] & ~move.received[seat]
    unchecked: Unchecked = {}
    played_out = state.phase == Phase.DONE and len(state.tricks) == TRICKS and state.claim is None
    if state.bidder is not None and played_out:
        full = (1 << len(DECKS[variant])) - 1
        unplayed = full & ~_union(bit(card) for trick in state.tricks for card in trick.cards)
        sinks = _sinks(deal, state, move, own, written, kitty_open, unplayed)
        unchecked |= _share(sinks, full & ~_union(own), found)
        _discards_dealt(state, move, found, taker)
    if taker is not None:
        unchecked |= _taker(deal, state, own, move, found)
    if not played_out:
        unchecked |= _not_played_out(deal, state, written, kitty_open)
        if kitty_open:
            found.setdefault("kitty", 0)
    return _completion(deal, written, found, unknown(table, deal), unchecked)


def _discards_dealt(state: CharlemagneState, move: Moves, found: dict[str, int], taker: int | None) -> None:
    """charlemagne.partial.discard: a discard derived from the cards nobody played was in its
    discarder's hand as dealt, but for a card he received; so a derived hand of his holds it (a
    bidder who took the kitty is `_taker`'s)."""
    for path, seat in (("discard", state.bidder), ("defender_discard", state.defender)):
        hand = f"hands[{seat}]"
        if seat is not None and seat != taker and path in found and hand in found:
            found[hand] |= found[path] & ~move.received[seat]


def owners(
    deal: CharlemagneDeal, state: CharlemagneState, written: list[str | None], move: Moves
) -> list[int]:
    """Whose each card was as dealt, as far as the record shows (the four seats, then the kitty):
    the written groups first, then the cards passed and discarded, then each card played, by the
    first of these that shows it. A card shown twice stays with the first: the replay then finds
    the second (a card played again, or one that another seat holds) at its place."""
    owner: dict[int, int] = {}

    def put(mask: int, who: int) -> None:
        for card in ids_of(mask):
            owner.setdefault(card, who)

    for seat, hand in enumerate(written[:PLAYERS]):
        put(_mask(hand), seat)
    put(_mask(deal.kitty), KITTY)
    for seat in range(PLAYERS):
        put(move.given[seat], seat)
    for seat in range(PLAYERS):
        put(move.discarded[seat] & ~move.received[seat], seat)
    tricks = [*state.tricks, *([state.current] if state.current is not None else [])]
    for trick in tricks:
        for card, seat in zip(trick.cards, trick.seats, strict=True):
            if not move.received[seat] >> card & 1:
                owner.setdefault(card, seat)
    own = [0] * (PLAYERS + 1)
    for card, who in owner.items():
        own[who] |= bit(card)
    return own


def _mask(text: str | None) -> int:
    """The cards of a written group (none when it is not written)."""
    deck = DECKS["standard"]
    return deck.mask(card_list(deck, text, "", "")[0]) if text else 0


class Sink(NamedTuple):
    """An unwritten group that cards nobody played lie in: its path, how many cards it holds, the
    cards that can only be there (`must`), and the checks a guess of its cards would decide."""

    path: str
    size: int
    must: int = 0
    checks: tuple[tuple[str, int | None], ...] = ()


def _sinks(
    deal: CharlemagneDeal,
    state: CharlemagneState,
    move: Moves,
    own: list[int],
    written: list[str | None],
    kitty_open: bool,
    unplayed: int,
) -> list[Sink]:
    """Where the cards nobody played lie, among the groups the record leaves out: a missing
    discard (which holds the discarder's cards he did not play), the hand of a seat out of the
    play, the kitty nobody took."""
    bidder = state.bidder
    assert bidder is not None
    sinks: list[Sink] = []
    due = KITTY_SIZE[state.variant] * state.kitty_taken + int(state.partner_card is not None)
    if deal.discard is None and due:
        had = own[bidder] | move.received[bidder] | (own[KITTY] if state.kitty_taken else 0)
        sinks.append(Sink("discard", due, had & unplayed, (("CHARLEMAGNE-DISCARD-NOT-HELD", bidder),)))
    defender = state.defender
    if defender is not None and deal.defender_discard is None and state.defender_card is not None:
        had = (own[defender] | move.received[defender]) & unplayed
        sinks.append(Sink("defender_discard", 1, had, (("CHARLEMAGNE-DISCARD-NOT-HELD", defender),)))
    for seat, hand in enumerate(written[:PLAYERS]):
        if hand is None and not state.active(seat):
            held: tuple[tuple[str, int | None], ...] = (("DEAL-HAND-SIZE", seat),)
            if move.given[seat]:
                held += (("CHARLEMAGNE-CARD-NOT-HELD", seat),)
            sinks.append(Sink(f"hands[{seat}]", HAND_SIZE - popcount(own[seat]), 0, held))
    if kitty_open and not state.kitty_taken:
        sinks.append(Sink("kitty", KITTY_SIZE[state.variant], 0, (("DEAL-KITTY-SIZE", None),)))
    return sinks


def _share(sinks: list[Sink], left: int, found: dict[str, int]) -> Unchecked:
    """Give each group its cards: those that can only be there, and its share of the cards nobody
    shows (`left`), all of them when one group has room for them; when several have, a guess that
    fills each in turn, lowest cards first, whose checks are then not run."""
    open_sinks = [sink for sink in sinks if sink.size > popcount(sink.must)]
    guessed = len(open_sinks) > 1 and left != 0
    for sink in sinks:
        share = 0
        if sink is (open_sinks[-1] if open_sinks else None):
            share = left
        elif sink in open_sinks:
            share = _lowest(left, sink.size - popcount(sink.must))
        left &= ~share
        found[sink.path] = found.get(sink.path, 0) | sink.must | share
    if not guessed:
        return {}
    names = [_name(sink.path) for sink in open_sinks]
    why = (
        f"the cards not played lay in {', '.join(names[:-1])} and {names[-1]}, none of them written, "
        f"so which lay where is not known"
    )
    return {check: why for sink in open_sinks for check in sink.checks}


def _name(path: str) -> str:
    """A group's path in words."""
    if path.startswith("hands["):
        return f"seat {path[6:-1]}'s hand"
    return {"kitty": "the kitty", "discard": "the bidder's discard"}.get(path, "the defender's discard")


def _taker(
    deal: CharlemagneDeal, state: CharlemagneState, own: list[int], move: Moves, found: dict[str, int]
) -> Unchecked:
    """The bidder who took the kitty held it and his hand together: what he played and discarded
    (less the partner's card), and a written kitty or hand. One of the two written tells the
    other; neither written, the kitty is guessed among his discards, and the check of the discard
    is not run."""
    bidder = state.bidder
    assert bidder is not None
    discard = move.discarded[bidder] | found.get("discard", 0)
    pool = (own[bidder] | own[KITTY] | discard) & ~move.received[bidder]
    hand = deal.hands[bidder] if deal.hands is not None and bidder < len(deal.hands) else None
    if hand is not None and deal.kitty is None:
        found["kitty"] = pool & ~_mask(hand)
    elif hand is None and deal.kitty is not None:
        found[f"hands[{bidder}]"] = pool & ~_mask(deal.kitty)
    elif hand is None and deal.kitty is None:
        kitty_size = KITTY_SIZE[state.variant]
        chosen = _lowest(discard & pool, kitty_size)
        found["kitty"] = chosen | _lowest(pool & ~discard, kitty_size - chosen.bit_count())
        found[f"hands[{bidder}]"] = pool & ~found["kitty"]
        why = "neither the bidder's hand nor the kitty is written, so which of his cards came from the kitty is not known"
        return {("CHARLEMAGNE-DISCARD-NOT-HELD", bidder): why}
    return {}


def _not_played_out(
    deal: CharlemagneDeal, state: CharlemagneState, written: list[str | None], kitty_open: bool
) -> Unchecked:
    """The checks that need whole hands, when some cards were never played: the sizes, the cards
    dealt to nobody, a claim's certainty, a discard the record does not give."""
    if state.bidder is None or not (state.tricks or state.current):
        why = "no card was played, so the hands are not known"
    elif state.claim is not None:
        why = "the play ended with a claim, so the cards not played are not known"
    else:
        why = "the deal is not played out, so the hands are known only from the cards played"
    unknown_seats = [seat for seat, hand in enumerate(written) if hand is None]
    keys: list[tuple[str, int | None]] = [("DEAL-HAND-SIZE", seat) for seat in unknown_seats]
    keys += [("DEAL-MISSING-CARD", None), *([("DEAL-KITTY-SIZE", None)] if kitty_open else [])]
    in_play_unknown = any(state.active(seat) for seat in unknown_seats) or (kitty_open and state.kitty_taken)
    if state.claim is not None and in_play_unknown:
        keys.append(("CHARLEMAGNE-CLAIM-WRONG", None))
    bidder_discards = state.kitty_taken or state.partner_card is not None
    defender_discards = state.defender_card is not None
    if (deal.discard is None and bidder_discards) or (deal.defender_discard is None and defender_discards):
        keys.append(("CHARLEMAGNE-DISCARD-SIZE", None))
    return dict.fromkeys(keys, why)


def _completion(
    deal: CharlemagneDeal,
    written: list[str | None],
    found: dict[str, int],
    derived: list[str],
    unchecked: Unchecked,
) -> Completion:
    """The deal with the groups it leaves out written in, in deck order."""
    deck = DECKS["standard"]
    hands = [
        hand if hand is not None else deck.format_mask(found.get(f"hands[{seat}]", 0))
        for seat, hand in enumerate(written)
    ]
    update: dict[str, object] = {"hands": hands}
    for name in ("kitty", "discard", "defender_discard"):
        if getattr(deal, name) is None and name in found:
            update[name] = deck.format_mask(found[name])
            if name not in derived:
                derived.append(name)
    return Completion(deal.model_copy(update=update), derived, unchecked)


def _lowest(mask: int, count: int) -> int:
    """The `count` lowest cards of a mask (all of them when it has fewer)."""
    out = 0
    while mask and count > 0:
        low = mask & -mask
        out |= low
        mask ^= low
        count -= 1
    return out


def _union(masks: Iterable[int]) -> int:
    """The cards of all the masks."""
    out = 0
    for mask in masks:
        out |= mask
    return out
