"""Charlemagne's columnar check of deals that leave their hands and kitty out (the tricks-only form).

The same readings as the record path's derivation (`partial.complete`, spec/rules/charlemagne.md
§8.1), over arrays of deals: a seat in the play was dealt the cards it played and discarded, less
the card it received; a seat out of the play, the card it passed and its share of the cards
nobody played (charlemagne.partial.hands). Where the play cannot tell groups apart, the same
guess (charlemagne.partial.guess): the kitty the bidder took is the lowest of his discards, the
cards nobody played fill the hands out of the play seat by seat and then the unused kitty,
lowest cards first. A card shown twice is reported by the record path at its second place
(charlemagne.partial.conflict), so such a deal is left to it. The holdings so derived then go
through every check of written hands (`columnar`); a deal whose report carries a note of the
checks the guess or the cards unseen leave open (charlemagne.partial.guess, .unplayed) gets a
note key (`note_keys`), for `validate._proven` to write the note of every deal with the key.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from recordkit.rules.charlemagne.cards import HAND_SIZE, PLAYERS
from recordkit.rules.columns import Bools, Ints

KITTY = PLAYERS
"""Who was dealt a card of the kitty (or no seat), in the arrays of who was dealt what."""
DEALT = PLAYERS * HAND_SIZE
SEAT_BITS = 1 << np.arange(PLAYERS)


@dataclass(frozen=True)
class Moves:
    """What the exchanges moved, deal by deal (as `partial.Moves` by seat): the cards passed
    (k, 2: the partner's card, the Maine defender's card; below 0 for none), who gave and who
    received each, and the cards discarded (k, slots; below 0 for none) with their discarders."""

    given: Ints
    givers: Ints
    receivers: Ints
    discards: Ints
    discarders: Ints


@dataclass(frozen=True)
class Groups:
    """Where the cards nobody shows lie, deal by deal (`partial._sinks`, `partial._taker`): the
    unwritten groups in the record path's order (k, groups: a seat out of the play, seat by seat,
    then KITTY for the kitty nobody took; -1 past the last), the kitty's size, and the bidder who
    took the kitty (-1: nobody), whose kitty is the lowest of his discards."""

    sinks: Ints
    kitty: int
    taker: Ints


def hands_left_out(deals: pa.Table) -> Bools:
    """Which deals leave their hands out (a null `hands`: charlemagne.partial.hands)."""
    left_out: Bools = pc.is_null(deals.column("hands")).to_numpy(zero_copy_only=False)
    return left_out


def sinks_of(out: Bools, kitty_unused: Bools) -> Ints:
    """The unwritten groups the cards nobody played lie in, in the order the record path fills
    them (charlemagne.partial.guess): the hands out of the play, seat by seat, then the kitty
    nobody took; -1 past the last (k, PLAYERS + 1)."""
    groups = np.concatenate(
        [np.where(out, np.arange(PLAYERS), -1), np.where(kitty_unused, KITTY, -1)[:, None]], axis=1
    )
    order = np.argsort(groups < 0, axis=1, kind="stable")
    found: Ints = np.take_along_axis(groups, order, axis=1)
    return found


def note_keys(derived: Bools, passed: Bools, taken: Bools, sinks: Ints, seat: Ints, given: Bools) -> Ints:
    """Each deal's note key (0: none), what the record path's note of a deal leaving its hands
    and kitty out depends on (`partial.complete`), so that deals of one table with the same key
    get the same note: passed out, no card played (charlemagne.partial.unplayed); the kitty
    taken, neither the bidder's hand nor the kitty written, with the bidder's seat; the cards
    nobody played lying in more than one unwritten group, with which groups they are and whether
    each seat out of the play passed a card (`given`: the partner's card, the Maine defender's
    card) (charlemagne.partial.guess)."""
    guessed = (sinks >= 0).sum(axis=1) > 1
    out = np.where((sinks >= 0) & (sinks < KITTY), SEAT_BITS[np.clip(sinks, 0, PLAYERS - 1)], 0).sum(axis=1)
    kitty_sink = np.any(sinks == KITTY, axis=1)
    flags = passed + 2 * taken + 4 * kitty_sink + 8 * given[:, 0] + 16 * given[:, 1]
    keys: Ints = np.where(derived & (passed | taken | guessed), 1 + flags + 32 * (seat + PLAYERS * out), 0)
    return keys


def dealt_from_play(deck: int, cards: Ints, seats: Ints, moves: Moves, groups: Groups) -> tuple[Ints, Bools]:
    """Who was dealt each card (k, deck: a seat, or KITTY) of k deals that leave their hands
    out, from the cards played (k, tricks, players) and their `seats`, and the exchanges: each
    card shown once, given, discarded or played, by its seat but for the card a seat received
    (charlemagne.partial.hands); the kitty a bidder took, the lowest of his discards; the cards
    nobody shows, to the unwritten `groups` they lie in, filled in turn, lowest cards first
    (charlemagne.partial.guess; KITTY when there is none). With whether each card is shown at
    most once (charlemagne.partial.conflict) and the holdings so derived are of the deal's
    sizes (charlemagne.deck, charlemagne.deal.sizes)."""
    k = len(cards)
    shown_cards = np.concatenate([cards.reshape(k, -1), moves.discards, moves.given], axis=1)
    by = np.concatenate([seats.reshape(k, -1), moves.discarders, moves.givers], axis=1)
    shown = shown_cards >= 0
    for slot in range(moves.given.shape[1]):
        card = moves.given[:, slot, None]
        shown &= ~((by == moves.receivers[:, slot, None]) & (shown_cards == card) & (card >= 0))
    rows = np.repeat(np.arange(k), shown_cards.shape[1]).reshape(shown_cards.shape)[shown]
    at = shown_cards[shown]
    ok = np.bincount(rows * deck + at, minlength=k * deck).reshape(k, deck).max(axis=1, initial=0) <= 1
    dealt = np.full((k, deck), -1, dtype=np.int64)
    dealt[rows, at] = by[shown]
    dealt = _unshown(dealt, groups.sinks, groups.kitty)
    dealt = _kitty_taken(dealt, moves, groups.taker, groups.kitty)
    per_seat = (dealt[:, :, None] == np.arange(PLAYERS)).sum(axis=1)
    ok &= np.all(per_seat == HAND_SIZE, axis=1) & ((dealt == KITTY).sum(axis=1) == deck - DEALT)
    return dealt, ok


def _unshown(dealt: Ints, sinks: Ints, kitty: int) -> Ints:
    """`partial._share`: the cards nobody shows (-1 in `dealt`) given to the unwritten groups in
    turn, lowest first, each up to its room (a hand: the cards its seat does not show; the kitty:
    its size), the last taking the rest; to KITTY when there is no such group."""
    k = len(dealt)
    unshown = dealt < 0
    rank = np.cumsum(unshown, axis=1) - 1
    shown_by = (dealt[:, :, None] == np.arange(PLAYERS)).sum(axis=1)
    room = np.where(
        sinks == KITTY, kitty, HAND_SIZE - shown_by[np.arange(k)[:, None], np.clip(sinks, 0, PLAYERS - 1)]
    )
    last = np.maximum((sinks >= 0).sum(axis=1) - 1, 0)
    ends = np.cumsum(np.where(sinks >= 0, room, 0), axis=1)
    place = np.zeros(dealt.shape, dtype=np.int64)
    for group in range(sinks.shape[1] - 1):
        place += (group < last)[:, None] & (rank >= ends[:, group, None])
    holder = np.take_along_axis(np.where(sinks >= 0, sinks, KITTY), place, axis=1)
    found: Ints = np.where(unshown, holder, dealt)
    return found


def _kitty_taken(dealt: Ints, moves: Moves, taker: Ints, kitty: int) -> Ints:
    """`partial._taker`: a bidder who took the kitty, neither his hand nor it written, took the
    lowest of his discards but the card he received (charlemagne.partial.guess)."""
    rows = np.flatnonzero(taker >= 0)
    if not rows.size:
        return dealt
    discards = moves.discards[rows]
    own = (moves.discarders[rows] == taker[rows, None]) & (discards >= 0)
    for slot in range(moves.given.shape[1]):
        received = moves.receivers[rows, slot, None] == taker[rows, None]
        own &= ~(received & (discards == moves.given[rows, slot, None]))
    lowest = np.sort(np.where(own, discards, dealt.shape[1]), axis=1)[:, :kitty]
    chosen = lowest < dealt.shape[1]
    dealt[np.repeat(rows, kitty).reshape(-1, kitty)[chosen], lowest[chosen]] = KITTY
    return dealt
