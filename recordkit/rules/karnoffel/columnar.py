"""Karnöffel's columnar check: a row group of an archive replayed with NumPy, all deals at once.

The same rules as the record path (spec/rules/karnoffel.md), over arrays of deals: the staged
deal (karnoffel.deck, karnoffel.deal.faceup, .rounds, .chosen-suit: the face-up round is the
deals' `dog` column), the proposal windows (karnoffel.propose.*: the order, raises and
counter-raises, answers, the surrender, the going-out cap, the raise limits), the play
(karnoffel.play.held, .devil-lead; karnoffel.trick.winner by the ruleset's own order of the card
powers; the early end at a side's third trick, or all five with `play_out`), the score, the
totals, the rotation (after a surrender too) and the end of the game, at 2, 4, 6 and 8 players,
with both decks and every option (the card-by-card reading of the partial trumps too). A deal
that leaves its hands out (the tricks-only form a magazine prints, `WRITTEN.derives`) is proven
with each seat's face-down cards taken from the cards it played, as the record path derives them
(karnoffel.partial.hands); where the play stopped before a seat played all its face-down cards,
the deal is proven in all it writes but left to the record path for its note of the hand sizes
left unchecked (`DEAL-NOT-CHECKED`). Deals not
`as_written`, not played, or wrong in any way are left unproven and take the record path, which
explains what is wrong. Rows built from bulk JSON
(`WRITTEN`), whose deals no replay found `as_written`, also say the window each word is written
in and the chosen suit stated, which the check holds to the rules as `as_written` does. Each rule
restated here is held to the ruleset's own function by tests/test_karnoffel_columnar.py.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
import orjson
import pyarrow as pa
import pyarrow.compute as pc

from recordkit.cards import KARNOFFEL_SUITS
from recordkit.rules.column_deals import (
    Deals,
    by_seat,
    call_words,
    flat_group,
    held_once,
    plays_of,
    previous,
    prove_noted,
    ragged_groups,
    scores_follow,
    seats_of,
    totals_before,
)
from recordkit.rules.columns import (
    Bools,
    ColumnRows,
    Floats,
    Ints,
    Proof,
    codes,
    ints,
    played_as_written,
    row_ranges,
)
from recordkit.rules.karnoffel.cards import DEVIL, PARTIAL, POWER_RANKS, STOPPERS, cards_of
from recordkit.rules.karnoffel.deal import FACE_DOWN
from recordkit.rules.karnoffel.options import KarnoffelOptions
from recordkit.rules.karnoffel.powers import CANNOT_WIN, LED_DEVIL, LED_DEVIL_LEVEL, POWER_LEVEL, order
from recordkit.rules.karnoffel.record import CALLS
from recordkit.rules.karnoffel.state import TRICKS, TRICKS_TO_WIN, WINDOWS
from recordkit.rules.written_columns import MAX_PLAYERS, CallsOf, Rows, WrittenForm, texts

PASS, RAISE, ACCEPT, SURRENDER = (CALLS.index(word) for word in ("pass", "raise", "accept", "surrender"))
CALL_KIND = 1
"""The calls rows' kind of a proposal word (`call_words` reads `bid` as 0, `call` as 1)."""
HAND = FACE_DOWN[WINDOWS + 1]
"""Face-down cards each seat holds once every round is dealt."""
DOWN_AT = np.array([-1, *(FACE_DOWN[stage] for stage in range(1, WINDOWS + 2))])
"""Face-down cards each seat holds when the deal stops after window 1, 2, 3, or is played (by stage)."""
CARD_BY_CARD = "any_suit_exceptions"
"""The reading of the partial trumps that is no total order: the cards are judged one by one."""


def _proposals(value: Any, players: int) -> Rows | None:
    """The windows' words as calls rows, each with the window it is written in (from 1): the
    check holds them to the windows the words make when read in turn."""
    if type(value) is not list or len(value) > WINDOWS or not all(texts(window) for window in value):
        return None
    return [word for window in value for word in window], [
        number for number, window in enumerate(value, start=1) for _ in window
    ]


WRITTEN = WrittenForm(
    frozenset({"dealer", "faceup", "chosen_suit", "hands", "proposals", "tricks", "status"})
    | {"result", "totals", "comment", "time"},
    "faceup",
    (CallsOf("proposals", "call", _proposals, "window"),),
    stated=("chosen_suit",),
    no_hands=True,
    derives=True,
)
"""A deal in the bare form the columns read (`recordkit.rules.written_columns`): round 1 as the
deals' `dog`, no hands when window 1 ended the deal, or the hands left out for the play to give
them, the windows' words as the calls rows with the window each is written in, and the chosen
suit the record states, each held to the rules (`Karnoffel.as_written`)."""


@cache
def trick_keys(size: int, reading: str) -> Ints:
    """Each card's place in the trick's order (chosen suit, suit led, card), by the ruleset's own
    `powers.order`; a led Devil is `LED_DEVIL` apart."""
    return np.array([[order(size, reading, chosen, led) for led in range(4)] for chosen in range(4)])


def prove_columns(rows: ColumnRows) -> Proof:
    """Which games (by games row) are proven clean, but for the deals noted: header, every deal,
    rotation, totals, end."""
    return prove_noted(rows, _prove_table)


def _prove_table(n: int, text: str, deals: Deals) -> tuple[Bools, Ints]:
    """Each deal's verdict, for the deals of `n`-player games with these options, and its note key
    (0: none): the seats whose hand size the play leaves unchecked, as a set of bits, or for a deal
    given up in window 2 or 3 whose hands are left out, its window."""
    options = KarnoffelOptions.model_validate(orjson.loads(text))
    table = deals.table
    cards = cards_of(options.deck)
    deck = list(cards.deck.codes)
    dealer, ok = played_as_written(table, n)
    forehand = (dealer + 1) % n

    # round 1 left out (null, so not `shown`) is never proven: the record path notes the face-up
    # cards unknown (karnoffel.partial.faceup, karnoffel.partial.suit)
    faceup, shown = flat_group(table.column("dog"), n, deck)
    downs, groups, sizes = ragged_groups(table.column("hands"), HAND, deck)
    words, count, kinds = call_words(deals, CALLS)
    ok &= np.all((kinds == CALL_KIND) | (np.arange(words.shape[1]) >= count[:, None]), axis=1)
    before = sides_before(totals_before(deals, n), n)
    written = written_windows(deals, words.shape[1])
    value, decided, surrendered, raiser, windows_ok = windows(
        options, words, count, forehand, n, before, written
    )
    ok &= windows_ok

    stage = None if written is None else stages(written, count, surrendered)
    left = np.asarray(pc.is_null(table.column("hands")).to_numpy(zero_copy_only=False), dtype=bool)
    short = (
        np.where(left & surrendered & (stage > 1), stage << MAX_PLAYERS, 0)
        if stage is not None
        else np.zeros(len(left), dtype=np.int64)
    )
    if left.any():
        groups, sizes = derived_groups(left, groups, sizes, n, surrendered, stage)
    ok &= dealt_sizes(shown, groups, sizes, n, surrendered, stage)
    owner, once = _owner(faceup, downs, dealer, n, len(deck))
    ok &= once
    chosen = np.full(len(ok), -1, dtype=np.int64)
    whole = np.flatnonzero(ok & (shown == n))  # round 1 dealt to the end: a suit is chosen
    if whole.size:
        chosen[whole] = chosen_suit(options, faceup[whole])
    ok &= stated_suits(table, chosen)
    tricks, played_tricks, plays_ok = plays_of(deals.rows.plays, deals.play_keys, deals.keys, n, TRICKS, deck)
    ok &= plays_ok & np.where(surrendered, played_tricks == 0, played_tricks > 0)

    playing = np.flatnonzero(ok & ~surrendered)
    if playing.size:
        legal, side, unplayed = play(
            options,
            owner[playing],
            tricks[playing],
            played_tricks[playing],
            forehand[playing],
            chosen[playing],
            left[playing],
        )
        ok[playing] &= legal
        decided[playing] = side
        short[playing] = unplayed
    scores = np.where((np.arange(n) % 2 == decided[:, None]) & ok[:, None], value[:, None], 0)
    follows, totals = scores_follow(deals, scores)
    ok &= follows
    after = np.where(surrendered & (options.dealer_after_surrender == "proposer"), raiser, forehand)
    ok &= deals.first | (dealer == previous(deals, after))  # karnoffel.deal.rotation
    reached = np.any(totals >= options.target, axis=1)  # karnoffel.game.end
    # karnoffel.partial.hands: a deal whose play leaves a derived hand size unchecked (`short`) is
    # proven in all it writes, its note (DEAL-NOT-CHECKED) written by its replay
    verdicts: Bools = ok & (deals.last | ~reached)
    return verdicts, short


def sides_before(seats: Floats, n: int) -> Floats:
    """Each side's score before the deal from each seat's: the best of the partners
    (`deal.sides_before`)."""
    side = np.arange(n) % 2
    both: Floats = np.stack([np.max(np.where(side == s, seats, -np.inf), axis=1) for s in (0, 1)], axis=1)
    return both


def written_windows(deals: Deals, most: int) -> Ints | None:
    """The window each call is written in (k, most; -1 past its calls): the calls' `window`, which
    only rows built from JSON have; None for an archive's, whose deals `as_written` holds to the
    windows their words make."""
    calls = deals.rows.calls
    if "window" not in calls.column_names:
        return None
    first, count = row_ranges(deals.call_keys, deals.keys)
    if calls.num_rows == 0:
        return np.full((len(count), most), -1, dtype=np.int64)
    at = np.minimum(first[:, None] + np.arange(most), calls.num_rows - 1)
    written: Ints = np.where(np.arange(most) < count[:, None], ints(calls, "window")[at], -1)
    return written


def windows(
    options: KarnoffelOptions,
    words: Ints,
    count: Ints,
    forehand: Ints,
    n: int,
    before: Floats,
    written: Ints | None = None,
) -> tuple[Ints, Ints, Bools, Ints, Bools]:
    """karnoffel.propose.*: the words of the three windows one after the other, each window
    closed by an accept or two passes, a surrender ending the deal. Returns the round value, the
    side that won by a surrender (-1), whether one did, the last raiser's seat (-1) and whether
    every word is clean: its turn, an answer only to a raise, a raise within the cap and the
    limits, no raise left unanswered, no word after the deal or the windows ended; and, with the
    window each word is `written` in, each window written the words of one window read in turn
    (the record path skips the windows written empty, which were quiet)."""
    k, most = words.shape
    step, fore_side = options.raise_step, forehand % 2
    window, passes, raises, window_raises = (np.zeros(k, dtype=np.int64) for _ in range(4))
    window += 1
    pending, surrendered, done = (np.zeros(k, dtype=bool) for _ in range(3))
    value = np.full(k, options.base_value, dtype=np.int64)
    raiser = np.full(k, -1, dtype=np.int64)
    ok = np.ones(k, dtype=bool)
    last_window = window.copy()  # the window the word before was read in
    for j in range(most):
        live = j < count
        word = words[:, j]
        if written is not None and j:  # a window written anew exactly where one is read anew
            ok &= ~live | (np.sign(written[:, j] - written[:, j - 1]) == np.sign(window - last_window))
        last_window[:] = window
        ok &= ~live | ((word >= 0) & ~done)  # karnoffel.propose.window, .surrender: nothing after the end
        act = live & ~done
        side = np.where(pending, 1 - raiser % 2, np.where(passes == 0, fore_side, 1 - fore_side))
        seat = np.where(side == fore_side, forehand, (forehand + 1) % n)  # karnoffel.propose.speaker
        raised, passed = act & (word == RAISE), act & (word == PASS)
        answered = act & ((word == ACCEPT) | (word == SURRENDER))
        ok &= ~(passed & pending) & ~(answered & ~pending)  # karnoffel.propose.answer
        if options.raise_cap_when_game_reachable:  # karnoffel.propose.cap
            standing = value + np.where(pending, step, 0)
            ok &= ~(raised & np.any(before + standing[:, None] >= options.target, axis=1))
        if options.reraise == "single":  # karnoffel.propose.reraise
            ok &= ~(raised & pending & (window_raises >= 2))
        elif options.reraise == "max_total_raises":
            ok &= ~(raised & (raises >= options.max_total_raises))
        accepted, gave_up = answered & (word == ACCEPT), answered & (word == SURRENDER)
        value = value + np.where((raised & pending) | accepted, step, 0)
        raiser = np.where(raised, seat, raiser)
        raises, window_raises = raises + raised, window_raises + raised
        passes = passes + passed
        pending = (pending | raised) & ~accepted & ~gave_up
        surrendered |= gave_up
        done |= gave_up
        closed = (passed & (passes == 2)) | accepted
        window += closed
        passes, window_raises = np.where(closed, 0, passes), np.where(closed, 0, window_raises)
        done |= window > WINDOWS
    ok &= ~(pending & ~done)  # karnoffel.propose.answer: a raise left unanswered
    decided = np.where(surrendered, raiser % 2, -1)
    return value, decided, surrendered, raiser, ok


def stages(written: Ints, count: Ints, surrendered: Bools) -> Ints:
    """How far each deal's cards were dealt (`deal.stage_of`): the window its surrender is written
    in (the last word of a clean deal), or all of them."""
    last = written[np.arange(len(count)), np.maximum(count - 1, 0)]
    stage: Ints = np.where(surrendered, last, WINDOWS + 1)
    return stage


def dealt_sizes(
    shown: Ints, groups: Ints, sizes: Ints, n: int, surrendered: Bools, stage: Ints | None = None
) -> Bools:
    """karnoffel.deal.faceup, .rounds: one face-up card each and four face-down cards each for
    a deal played; for a surrendered one, the cards of its `stage` (`stages`), or without it
    (an archive's rows, which do not say: `as_written` holds the deal to its own window's sizes)
    of one of the stages a surrender stops."""
    even = np.all((sizes == sizes[:, :1]) | (np.arange(sizes.shape[1]) >= n), axis=1)
    down = np.where(groups == 0, 0, np.where((groups == n) & even, sizes[:, 0], -1))
    if stage is not None:
        staged: Bools = (shown == np.where(stage == 1, 2, n)) & (down == DOWN_AT[stage])
        return staged
    whole = (shown == n) & (down == HAND)
    cut = ((shown == 2) & (down == FACE_DOWN[1])) | ((shown == n) & (down == FACE_DOWN[2])) | whole
    right: Bools = np.where(surrendered, cut, whole)
    return right


def derived_groups(
    left: Bools, groups: Ints, sizes: Ints, n: int, surrendered: Bools, stage: Ints | None
) -> tuple[Ints, Ints]:
    """karnoffel.partial.hands: the face-down groups of the deals that leave their hands out
    (`left`), as the record path completes them: none for a deal given up in window 1 (no card
    was dealt face down, as `[]` says, K-A17), four a seat for a deal played (`play` then holds
    the cards each seat played to them, `derived_owner`), and those of its window for a deal
    given up in window 2 or 3, which played no card, so its hand sizes are not checked (the
    record path's note); left unproven in rows that do not say the window a surrender is in (an
    archive's)."""
    if stage is None:
        return np.where(left, -1, groups), sizes
    completed: Ints = np.where(left, np.where(surrendered & (stage == 1), 0, n), groups)
    completed_sizes: Ints = np.where(left[:, None], DOWN_AT[stage][:, None], sizes)
    return completed, completed_sizes


def stated_suits(deals: pa.Table, chosen: Ints) -> Bools:
    """karnoffel.deal.chosen-suit: a chosen suit the record states (the deals' `chosen_suit`, which
    only rows built from JSON have) is the one the cards choose (`chosen`; -1 while round 1 is
    not dealt to the end, when none is)."""
    if "chosen_suit" not in deals.column_names:
        ok: Bools = np.ones(len(chosen), dtype=bool)
        return ok
    column = deals.column("chosen_suit")
    null = np.asarray(pc.is_null(column).to_numpy(zero_copy_only=False), dtype=bool)
    stated: Bools = null | ((chosen >= 0) & (codes(column, tuple(KARNOFFEL_SUITS)) == chosen))
    return stated


def _owner(faceup: Ints, downs: Ints, dealer: Ints, n: int, cards: int) -> tuple[Ints, Bools]:
    """Who was dealt each card (deal, card; -1 for the undealt pack) and whether every card
    dealt is a card of the deck, dealt once (karnoffel.deck)."""
    k = len(faceup)
    holders = np.concatenate(
        [
            (dealer[:, None] + 1 + np.arange(faceup.shape[1])) % n,
            np.repeat(np.arange(downs.shape[1]), HAND)[None, :].repeat(k, axis=0),
        ],
        axis=1,
    )
    dealt = np.concatenate([faceup, downs.reshape(k, -1)], axis=1)
    there = dealt >= 0
    owner = np.full((k, cards), -1, dtype=np.int64)
    rows = np.repeat(np.arange(k), dealt.shape[1]).reshape(k, -1)
    owner[rows[there], dealt[there]] = holders[there]
    once = ~np.any(dealt == -1, axis=1) & ((owner >= 0).sum(axis=1) == there.sum(axis=1))
    return owner, once


def chosen_suit(options: KarnoffelOptions, faceup: Ints) -> Ints:
    """karnoffel.deal.chosen-suit: the suit of the lowest face-up card; a tie goes to the first
    dealt, or with `chosen_suit_tiebreak = suit_rank` to the lowest suit (the highest index)."""
    cards = cards_of(options.deck)
    rank, suit = np.array(cards.rank)[faceup], np.array(cards.suit)[faceup]
    tied = rank == rank.min(axis=1, keepdims=True)
    if options.chosen_suit_tiebreak == "suit_rank":
        pick = np.argmax(np.where(tied, suit, -1), axis=1)
    else:
        pick = np.argmax(tied, axis=1)
    chosen: Ints = suit[np.arange(len(faceup)), pick]
    return chosen


def devils(options: KarnoffelOptions) -> Ints:
    """The Devil (the 7) of each suit, by suit."""
    cards = cards_of(options.deck)
    return np.array([cards.card(suit, DEVIL) for suit in range(4)])


def devil_leads(options: KarnoffelOptions, tricks: Ints, chosen: Ints) -> Bools:
    """karnoffel.play.devil-lead: whether the Devil (the 7 of the chosen suit) opens the play."""
    leads: Bools = tricks[:, 0, 0] == devils(options)[chosen]
    return leads


def winners(options: KarnoffelOptions, tricks: Ints, chosen: Ints) -> Ints:
    """karnoffel.trick.winner: each trick's winning position (deal, trick): the highest card by
    the ruleset's order of the powers (`powers.order`) for the chosen suit and the suit led, a
    Devil that leads the trick just below the Karnöffel."""
    if options.partial_trumps == CARD_BY_CARD:
        return card_by_card(options, tricks, chosen)
    cards = cards_of(options.deck)
    led = np.array(cards.suit)[tricks[:, :, 0]]
    keys = trick_keys(len(cards.deck), options.partial_trumps)[chosen[:, None, None], led[:, :, None], tricks]
    devil = devils(options)[chosen]
    keys[:, :, 0] = np.where(tricks[:, :, 0] == devil[:, None], LED_DEVIL, keys[:, :, 0])
    best: Ints = np.argmax(keys, axis=2)
    return best


@cache
def card_tables(size: int) -> tuple[Ints, Ints, Bools, Bools]:
    """By chosen suit and card: each card's power (7 the Karnöffel ... 1 the 5, 0 a plain card,
    -1 the Devil not leading, `powers.POWER_LEVEL`), the same for a card that leads (a led Devil
    is 6), whether it is a partial trump, and by (chosen suit, card, partial trump) whether the
    card stops it (a plain King, Queen or Jack of any suit, `cards.STOPPERS`)."""
    cards = cards_of(size)
    suit, rank = np.array(cards.suit), np.array(cards.rank)
    chosen = np.arange(4)[:, None]
    power = (suit == chosen) & np.isin(rank, list(POWER_RANKS))
    level = np.where(power, np.vectorize(lambda r: POWER_LEVEL.get(int(r), CANNOT_WIN))(rank), 0)
    first = np.where(power & (rank == DEVIL), LED_DEVIL_LEVEL, level)
    partial = (suit == chosen) & np.isin(rank, PARTIAL)
    stopper = np.array([[int(r) in STOPPERS.get(int(p), ()) for p in rank] for r in rank])
    stops = (level == 0)[:, :, None] & stopper[None, :, :]
    return level, first, partial, stops


def card_by_card(options: KarnoffelOptions, tricks: Ints, chosen: Ints) -> Ints:
    """karnoffel.trick.winner with `partial_trumps = any_suit_exceptions` (`powers._card_by_card`):
    each card judged against the card winning so far, a plain King, Queen or Jack of any suit
    stopping the partial trump it is an exception to."""
    cards = cards_of(options.deck)
    suit, rank = np.array(cards.suit), np.array(cards.rank)
    level, first, partial, stops = card_tables(len(cards.deck))
    c = chosen[:, None]
    led = suit[tricks[:, :, 0]]
    best = np.zeros(tricks.shape[:2], dtype=np.int64)
    for index in range(1, tricks.shape[2]):
        card = tricks[:, :, index]
        held = np.take_along_axis(tricks, best[:, :, None], axis=2)[:, :, 0]
        kept = partial[c, card] & stops[c, held, card]
        taken = ~kept & partial[c, held] & stops[c, card, held]
        mine, theirs = level[c, card], np.where(best == 0, first[c, held], level[c, held])
        judged = ~kept & ~taken & (mine != theirs)
        plain = ~kept & ~taken & ~judged & (mine == 0)
        follows = (suit[card] == led) & ((suit[held] != led) | (rank[card] > rank[held]))
        wins = taken | (judged & (mine > theirs)) | (plain & follows)
        best = np.where(wins, index, best)
    return best


def play(
    options: KarnoffelOptions,
    owner: Ints,
    tricks: Ints,
    played: Ints,
    forehand: Ints,
    chosen: Ints,
    derives: Bools | None = None,
) -> tuple[Bools, Ints, Ints]:
    """karnoffel.play.*, karnoffel.trick.*: the forehand leads, the winner of a trick leads the
    next, every card held and played once, the Devil never opening the play, and the deal ending
    exactly with the last trick written (a side's third, or the fifth with `play_out`); the deals
    that `derives` take their face-down cards from the play (`derived_owner`). Returns the
    verdicts, the side that won the deal, and the seats of a deal that derives that did not play
    all their face-down cards, as a set of bits (their hand sizes unchecked: the record path's note)."""
    k, most, n = tricks.shape
    rows = np.arange(k)
    safe = np.maximum(tricks, 0)
    seats, won = seats_of(winners(options, safe, chosen), forehand, n)
    inside = np.arange(most)[None, :] < played[:, None]
    everywhere = np.broadcast_to(inside[:, :, None], tricks.shape)
    ok, short = np.ones(k, dtype=bool), np.zeros(k, dtype=np.int64)
    if derives is not None and derives.any():
        owner, ok, short = derived_owner(owner, safe, seats, everywhere, played, derives)
    ok &= held_once(owner, safe, seats, everywhere)
    ok &= ~devil_leads(options, tricks, chosen)
    wins = np.cumsum((won[:, :, None] % 2 == np.arange(2)) & inside[:, :, None], axis=1)
    third = np.any(wins == TRICKS_TO_WIN, axis=2)
    ends = np.argmax(third, axis=1)
    side = np.argmax(wins[rows, ends] == TRICKS_TO_WIN, axis=1)
    last = TRICKS if options.play_out else ends + 1
    ok &= np.any(third, axis=1) & (played == last)  # karnoffel.trick.early-end, .count
    return ok, side, short


def derived_owner(
    owner: Ints, tricks: Ints, seats: Ints, inside: Bools, played: Ints, derives: Bools
) -> tuple[Ints, Bools, Ints]:
    """karnoffel.partial.hands: in the deals that `derives`, each card played that no seat was
    dealt face up is held by the seat the leaders and winners give it (`seats`), as the record
    path completes the hands; whether no such seat played more than its four face-down cards
    besides its face-up card (karnoffel.deal.rounds: DEAL-HAND-SIZE); and the seats that played
    fewer (the play stopped first), as a set of bits: their hand sizes unchecked, the record path's note.
    A face-up card played by another seat, or a card played twice, is `held_once`'s to refuse."""
    k = len(owner)
    mine = inside & derives[:, None, None]
    rows = np.broadcast_to(np.arange(k)[:, None, None], tricks.shape)
    dealt = np.take_along_axis(owner, tricks.reshape(k, -1), axis=1).reshape(tricks.shape)
    new = mine & (dealt < 0)
    completed = owner.copy()
    completed[rows[new], tricks[new]] = seats[new]
    own_faceup = by_seat(mine & (dealt == seats), seats).sum(axis=1)
    face_down = played[:, None] - own_faceup
    sized: Bools = ~derives | np.all(face_down <= HAND, axis=1)
    short: Ints = np.where(derives, (face_down < HAND) @ (1 << np.arange(face_down.shape[1])), 0)
    return completed, sized, short
