"""Joffre's columnar check: a row group of an archive replayed with NumPy, all deals at once.

The same rules as the record path (spec/rules/joffre.md), over arrays of deals: the deal
(joffre.deck, joffre.deal.sizes), the auction (joffre.bid.*: the opening, higher bids, the range,
no trump, the dealer's equal and forced bid), the play (joffre.play.*: the bidder's lead sets the
trump, follow the nation led, held), the winners (joffre.trick.winner), the count and the score
(joffre.score.*: the Joffre, the Kaiser, the capture by each reading, the contract in tricks or
points, no trump doubled, the Kaiser cap), the totals, the rotation and the end of the game, at
three and four players, individual or teams, under every option. A deal of bulk JSON that leaves
its hands out (the tricks-only form, `joffre.partial.tricks-only`) is proven too when it is played
out: each hand is the cards its seat played, seated by the leaders and winners, and every check
above runs on those holdings. Deals not `as_written`, not played (abandoned, annulled), wrong in any
way are left unproven and take the record path, which explains what is wrong. A deal nobody bid in
whose hands are left out is proven in all it writes and noted (`UNSEEN`): its replay writes the
note of what could not be checked.
Each rule restated here is held to the ruleset's own function by tests/test_joffre_columnar.py and
tests/test_joffre_columnar_partial.py.
"""

from __future__ import annotations

import numpy as np
import orjson
import pyarrow.compute as pc

from recordkit.rules.column_deals import (
    Deals,
    by_seat,
    call_words,
    card_groups,
    from_here_on,
    held_once,
    plays_of,
    prove_noted,
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
    played_as_written,
    rotation_ok,
)
from recordkit.rules.joffre.auction import max_bid
from recordkit.rules.joffre.cards import JOFFRE_BONUS, KAISER_MALUS, JoffreCards, cards_for
from recordkit.rules.joffre.ending import TEAM_SEATS
from recordkit.rules.joffre.options import JoffreOptions
from recordkit.rules.joffre.quick import CALLS
from recordkit.rules.joffre.scoring import CAP_THRESHOLD, CAPTURE_PENALTY
from recordkit.rules.written_columns import CallsOf, WrittenForm, words

WRITTEN = WrittenForm(
    frozenset({"dealer", "hands", "auction", "tricks", "status", "result", "totals", "comment", "time"}),
    None,
    (CallsOf("auction", "bid", words),),
    derives=True,
)
"""A deal in the bare form the columns read (`recordkit.rules.written_columns`): the auction as
the calls rows, the hands written or left out (derived from the play); a trump written out is the
record path's (the rows do not hold it)."""

CALL_NAMES = list(CALLS)
CALL_VALUES = np.array([*CALLS.values(), -1], dtype=np.int64)
"""Each canonical call name's compiled value (0 pass, 2n a bid of n, 2n+1 n no trump); -1 for
another word (the index -1 of `codes`)."""
TRUMP_KEY = 100
"""Added to a trump's id in the trick's order, above every card of the nation led."""


UNSEEN = 1
"""The note key of a deal nobody bid in whose hands are left out: no card of it is known, so the
record path notes the hand sizes and the deal unchecked (joffre.partial.not-played-out), the same
note for every such deal of a table."""


def prove_columns(rows: ColumnRows) -> Proof:
    """Which games (by games row) are proven clean, but for the deals noted: header, every deal,
    rotation, totals, end."""
    return prove_noted(rows, _prove_table)


def _prove_table(n: int, text: str, deals: Deals) -> tuple[Bools, Ints]:
    """Each deal's verdict, for the deals of `n`-player games with these options, and its note key."""
    options = JoffreOptions.model_validate(orjson.loads(text))
    cards = cards_for(n)
    size, deck = cards.hand_size, list(cards.deck.codes)
    table = deals.table
    k = table.num_rows
    dealer, ok = played_as_written(table, n)
    column = table.column("hands")
    left_out = pc.is_null(column).to_numpy(zero_copy_only=False)
    hands = card_groups(column, n, size, deck)
    owner = _owner(hands, len(deck))
    # joffre.deck, joffre.deal.sizes: every card once, n hands of `size` (hands left out: in the play)
    ok &= left_out | np.all(owner >= 0, axis=1)

    words, count, kinds = call_words(deals, CALL_NAMES, n)
    calls = CALL_VALUES[words]
    ok &= (count == n) & np.all(kinds == 0, axis=1)  # one call a player (joffre.bid.order)
    contract, bidder, auction_ok = auction(options, calls, dealer, n, size)
    ok &= auction_ok
    bid = contract > 0
    tricks, played_tricks, plays_ok = plays_of(deals.rows.plays, deals.play_keys, deals.keys, n, size, deck)
    ok &= plays_ok & np.where(bid, played_tricks == size, played_tricks == 0)

    scores = np.zeros((k, n), dtype=np.int64)
    before = totals_before(deals, n)
    playing = np.flatnonzero(ok & bid)
    if playing.size:
        legal, scored = play_and_score(
            options,
            cards,
            owner[playing],
            left_out[playing],
            tricks[playing],
            bidder[playing],
            contract[playing],
            before[playing],
        )
        ok[playing] &= legal
        scores[playing] = scored
    follows, totals = scores_follow(deals, scores)
    ok &= follows
    ok &= rotation_ok(deals.game_of, dealer, n)  # joffre.deal.rotation
    side = np.where(bid, bidder % 2 if options.mode == "teams" else bidder, -1)
    verdicts: Bools = ok & (deals.last | ~game_won(options, totals, side))  # joffre.end.target
    return verdicts, np.where(left_out & ~bid, UNSEEN, 0)


def _owner(hands: Ints, cards: int) -> Ints:
    """Who was dealt each card (deal, card), -1 throughout a deal whose hands are not every card
    of the deck once each."""
    k, n, size = hands.shape
    owner = np.full((k, cards), -1, dtype=np.int64)
    whole = np.all(hands.reshape(k, -1) >= 0, axis=1)
    rows = np.flatnonzero(whole)
    owner[rows[:, None], hands[rows].reshape(len(rows), n * size)] = np.repeat(np.arange(n), size)
    owner[~np.all(owner >= 0, axis=1)] = -1
    return owner


def auction(options: JoffreOptions, calls: Ints, dealer: Ints, n: int, size: int) -> tuple[Ints, Ints, Bools]:
    """joffre.bid.*: the contract (0 when all passed), the bidder's seat (-1) and whether every
    call of one round from the dealer's left is clean: the opening not passed when forced, each
    bid in range, higher than the highest so far (the dealer may equal it with
    `dealer_may_equal`), no trump only with `allow_no_trump`, the dealer not passing after
    passes all round under `all_pass = dealer_forced_min`."""
    k = len(calls)
    passes = calls == 0
    number = calls // 2
    ok = np.all(calls >= 0, axis=1)
    if not options.allow_no_trump:
        ok &= np.all(passes | (calls % 2 == 0), axis=1)
    if options.opening_bid_forced:
        ok &= ~passes[:, 0]
    elif options.all_pass == "dealer_forced_min":
        ok &= ~np.all(passes, axis=1)
    top = max_bid(size, options.bid_unit)
    ok &= np.all(passes | ((number >= options.min_bid) & (number <= top)), axis=1)
    highest = np.maximum.accumulate(np.maximum(calls, 0), axis=1)
    before = np.concatenate([np.zeros((k, 1), dtype=np.int64), highest[:, :-1]], axis=1)
    higher = passes | (calls > before)
    if options.dealer_may_equal:
        higher[:, -1] |= calls[:, -1] == before[:, -1]
    ok &= np.all(higher, axis=1)
    contract = highest[:, -1]
    last = n - 1 - np.argmax((calls == contract[:, None])[:, ::-1], axis=1)  # the dealer's equal takes it
    bidder = np.where(contract > 0, (dealer + 1 + last) % n, -1)
    return contract, bidder, ok


def winners(cards: JoffreCards, tricks: Ints, trump: Ints) -> Ints:
    """joffre.trick.winner: each trick's winning position (deal, trick): the highest trump, else
    the highest card of the nation led (a higher id is a higher card inside a nation)."""
    nation = np.array(cards.nation, dtype=np.int64)[tricks]
    led = nation[:, :, :1]
    key = np.where(nation == trump[:, None, None], TRUMP_KEY + tricks, np.where(nation == led, tricks, -1))
    best: Ints = np.argmax(key, axis=2)
    return best


def play_and_score(
    options: JoffreOptions,
    cards: JoffreCards,
    owner: Ints,
    left_out: Bools,
    tricks: Ints,
    bidder: Ints,
    contract: Ints,
    before: Floats,
) -> tuple[Bools, Ints]:
    """Every trick of deals with a bidder (joffre.play.*), then their scores (joffre.score.*);
    the deals whose hands are `left_out` are dealt the cards their seats play."""
    n = tricks.shape[2]
    nation = np.array(cards.nation, dtype=np.int64)
    trump = np.where(contract % 2 == 1, -1, nation[tricks[:, 0, 0]])  # joffre.play.trump
    best = winners(cards, tricks, trump)
    seats, won = seats_of(best, bidder, n)  # joffre.play.lead, joffre.trick.leader
    derived = np.flatnonzero(left_out)
    if derived.size:
        owner = owner.copy()
        owner[derived] = played_by(tricks[derived], seats[derived], owner.shape[1])
    ok = held_once(owner, tricks, seats, np.ones(tricks.shape, dtype=bool))
    ok &= follows(cards, tricks, seats)
    return ok, deal_scores(options, cards, tricks, seats, best, won, bidder, contract, before)


def played_by(tricks: Ints, seats: Ints, cards: int) -> Ints:
    """joffre.partial.tricks-only: who was dealt each card (deal, card) of a played-out deal
    whose hands are left out: the seat that plays it (-1 for a card nobody plays). A card played
    twice is given to one of its seats, so `held_once` still finds it (joffre.deck: every card
    once, which whole tricks of known cards played once each make the deck)."""
    k = len(tricks)
    owner = np.full((k, cards), -1, dtype=np.int64)
    owner[np.arange(k)[:, None], tricks.reshape(k, -1)] = seats.reshape(k, -1)
    return owner


def follows(cards: JoffreCards, tricks: Ints, seats: Ints) -> Bools:
    """joffre.play.follow: no card off the nation led while its seat holds that nation. Every
    card dealt is played, so a seat's hand before a trick is the cards it plays from then on."""
    nation = np.array(cards.nation, dtype=np.int64)[tricks]
    bits = 1 << nation
    held = np.take_along_axis(from_here_on(by_seat(bits, seats), np.bitwise_or), seats, axis=2)
    led = nation[:, :, :1]
    revoked = (nation != led) & ((held & (1 << led)) != 0)
    clean: Bools = ~revoked.any(axis=(1, 2))
    return clean


def deal_scores(
    options: JoffreOptions,
    cards: JoffreCards,
    tricks: Ints,
    seats: Ints,
    best: Ints,
    won: Ints,
    bidder: Ints,
    contract: Ints,
    before: Floats,
) -> Ints:
    """joffre.score.*: each seat's score from the tricks (a point each, the Joffre +5, the Kaiser
    -3, the capture by `kaiser_capture`), the contract made or failed (in tricks or points),
    no trump doubled, the Kaiser cap on the totals before the deal; partners score alike."""
    k, _, n = tricks.shape
    rows = np.arange(k)
    teams = options.mode == "teams"
    sides = 2 if teams else n
    side_of = np.arange(n) % 2 if teams else np.arange(n)
    won_side = side_of[won]
    taken = (won_side[:, :, None] == np.arange(sides)).sum(axis=1)
    joffre_at, kaiser_at = tricks == cards.joffre, tricks == cards.kaiser
    j_trick, k_trick = np.argmax(joffre_at.any(axis=2), axis=1), np.argmax(kaiser_at.any(axis=2), axis=1)
    j_pos, k_pos = np.argmax(joffre_at[rows, j_trick], axis=1), np.argmax(kaiser_at[rows, k_trick], axis=1)
    points = taken.copy()
    points[rows, won_side[rows, j_trick]] += JOFFRE_BONUS
    points[rows, won_side[rows, k_trick]] -= KAISER_MALUS
    same = j_trick == k_trick
    winning = best[rows, j_trick]
    if options.kaiser_capture == "kaiser_is_winning_card":
        captured = same & (winning == k_pos)
    elif options.kaiser_capture == "same_trick":
        captured = same & (winning != j_pos)
    else:
        captured = np.zeros(k, dtype=bool)
    penalty = np.zeros((k, sides), dtype=np.int64)
    penalty[rows, side_of[seats[rows, j_trick, j_pos]]] += np.where(captured, CAPTURE_PENALTY, 0)
    bidding = side_of[bidder]
    bid = contract // 2
    counted = points if options.bid_unit == "points" else taken
    made = counted[rows, bidding] >= bid
    scores = points - penalty
    scores[rows, bidding] = np.where(made, scores[rows, bidding], -bid - penalty[rows, bidding])
    scores[rows, bidding] *= np.where(contract % 2 == 1, 2, 1)
    if options.opponent_cap == "kaiser47":
        capped = (before[:, :sides] >= CAP_THRESHOLD) & (np.arange(sides) != bidding[:, None])
        scores = np.where(capped, np.minimum(scores, 0), scores)
    by_seat_scores: Ints = scores[:, side_of]
    return by_seat_scores


def game_won(options: JoffreOptions, totals: Floats, bidder_side: Ints) -> Bools:
    """joffre.end.target, joffre.end.tiebreak: whether the game is over after each deal (by
    `ending.winner` with the bidder's side, or `ending.game_over` when nobody bid, -1)."""
    sides = totals[:, list(TEAM_SEATS)] if options.mode == "teams" else totals
    rows = np.arange(len(sides))
    reached = sides >= options.target
    best = np.max(np.where(reached, sides, -np.inf), axis=1)
    top = reached & (sides == best[:, None])
    alone = top.sum(axis=1) == 1
    has_bidder = bidder_side >= 0
    side = np.maximum(bidder_side, 0)
    over = alone.copy()
    if options.end_tiebreak == "bidder_first":
        over |= has_bidder & reached[rows, side]
    if options.end_tiebreak == "highest_total_then_bidder":
        over |= has_bidder & top[rows, side]
    overall = np.max(sides, axis=1)
    unique_top = (sides == overall[:, None]).sum(axis=1) == 1
    finished: Bools = np.where(has_bidder, over, unique_top & (overall >= options.target))
    return finished
