"""Charlemagne's columnar check of deals that leave their hands and kitty out (the tricks-only form).

The same readings as the record path's derivation (`partial.complete`, spec/rules/charlemagne.md
§8.1), over arrays of deals: a seat in the play was dealt the cards it played and discarded, less
the card it received; a seat out of the play, the card it passed and the cards nobody played
(charlemagne.partial.hands). A card shown twice is reported by the record path at its second
place (charlemagne.partial.conflict), so such a deal is left to it; so is a deal whose report
carries a note of checks not run (`noted`: charlemagne.partial.guess, .unplayed). The hands so
derived then go through every check of written hands (`columnar`).
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


def hands_left_out(deals: pa.Table) -> Bools:
    """Which deals leave their hands out (a null `hands`: charlemagne.partial.hands)."""
    left_out: Bools = pc.is_null(deals.column("hands")).to_numpy(zero_copy_only=False)
    return left_out


def noted(derived: Bools, passed: Bools, taken: Bools, out: Bools, kitty: int) -> Bools:
    """The deals leaving their hands and kitty out whose report carries a DEAL-NOT-CHECKED note,
    left to the record path: passed out, no card played (charlemagne.partial.unplayed); the kitty
    taken, neither the bidder's hand nor the kitty written; the cards nobody played lying in more
    than one unwritten group, the hands out of the play and the kitty nobody took
    (charlemagne.partial.guess)."""
    groups = out.sum(axis=1) + ((kitty > 0) & ~taken)
    found: Bools = derived & (passed | taken | (groups > 1))
    return found


def dealt_from_play(deck: int, cards: Ints, seats: Ints, moves: Moves, sink: Ints) -> tuple[Ints, Bools]:
    """Who was dealt each card (k, deck: a seat, or KITTY) of k deals that leave their hands
    out, from the cards played (k, tricks, players) and their `seats`, and the exchanges: each
    card shown once, given, discarded or played, by its seat but for the card a seat received
    (charlemagne.partial.hands); the cards nobody shows, to the one unwritten group they can lie
    in (`sink`: the hand out of the play, else KITTY). With whether each card is shown at most
    once (charlemagne.partial.conflict) and the hands so derived are of the deal's sizes
    (charlemagne.deck, charlemagne.deal.sizes)."""
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
    dealt = np.repeat(sink[:, None], deck, axis=1)
    dealt[rows, at] = by[shown]
    per_seat = (dealt[:, :, None] == np.arange(PLAYERS)).sum(axis=1)
    ok &= np.all(per_seat == HAND_SIZE, axis=1) & ((dealt == KITTY).sum(axis=1) == deck - DEALT)
    return dealt, ok
