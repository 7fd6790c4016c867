"""French Tarot's columnar check: a row group of an archive replayed with NumPy, all deals at once.

The same rules as the record path (spec/rules/french-tarot.md), over arrays of deals instead of
one deal at a time: the deal (tarot.deal.*, the Petit sec), the auction (tarot.auction.*), the
discard (tarot.discard.*), every card (tarot.play.*: follow suit, trump, overtrump, the Excuse),
the winners, the count and the score (tarot.score.*), and the running totals and dealer rotation.
It covers the FFT default options at three and four players, deals written as bare words and
codes (`as_written`), without announcements; a record with anything else, or anything wrong, is
left unproven and goes to the record path, which explains what is wrong. The tests hold it to
the record path on generated archives with injected faults.
"""

from __future__ import annotations

import numpy as np
import orjson
import pyarrow as pa
import pyarrow.compute as pc

from recordkit.rules.columns import (
    Bools,
    ColumnRows,
    Floats,
    Ints,
    Words,
    codes,
    deal_keys,
    floats,
    ints,
    is_sorted,
    row_ranges,
)
from recordkit.rules.french_tarot.cards import (
    BOUTS,
    DECK,
    DOG_SIZES,
    EXCUSE,
    FIRST_TRUMP,
    HALF_POINTS,
    HAND_SIZES,
    KINGS,
    PETIT,
    SUITS,
    TARGETS,
    TRUMP_SUIT,
)
from recordkit.rules.french_tarot.options import TarotOptions
from recordkit.rules.french_tarot.record import BIDS, COEFFICIENTS

NONE, EXACT, OTHER = 0, 1, 2
"""The shape of a deal's calls or plays rows: none, exactly the expected ones, anything else."""
NO_DISCARD = -2
PLAYERS = (3, 4)
"""Table sizes the columnar check covers (five players, with the called King, take the record path)."""
DEFAULT_OPTIONS = TarotOptions().model_dump(mode="json")
CARDS = len(DECK.codes)
SUIT_OF = np.array(SUITS, dtype=np.int64)
HALF = np.array(HALF_POINTS, dtype=np.int64)
IS_BOUT = np.array([bool(BOUTS >> c & 1) for c in range(CARDS)])
IS_KING = np.array([bool(KINGS >> c & 1) for c in range(CARDS)])
IS_TRUMP = SUIT_OF == TRUMP_SUIT
TARGET = np.array(TARGETS, dtype=np.int64)
COEFFICIENT = np.array(COEFFICIENTS, dtype=np.int64)
GARDE, GARDE_SANS = 2, 3
DEFENCE_SLAM = DEFAULT_OPTIONS["defence_slam_bonus"]
ONE = np.uint64(1)
TRUMP_WORD = np.uint64((1 << (EXCUSE - FIRST_TRUMP)) - 1)
"""The trumps' bits in a hand's upper word (the Excuse is the bit above them)."""
SUIT_WORD = np.array([0, *((((1 << 14) - 1) << (14 * suit)) for suit in range(4)), 0], dtype=np.uint64)
"""The bits of the led suit in a hand's plain word, by led suit + 1 (none, S H D C, trumps)."""
ABOVE_WORD = np.array(
    [
        int(TRUMP_WORD)
        if high < 0
        else int(TRUMP_WORD) & ~((1 << (high - FIRST_TRUMP + 1)) - 1)
        if high >= FIRST_TRUMP
        else 0
        for high in range(-1, CARDS)
    ],
    dtype=np.uint64,
)
"""The trumps above the highest trump played so far, by that trump's id + 1 (all for none)."""


def prove_columns(rows: ColumnRows) -> Bools:
    """Which games (by games row) are proven clean: header, every deal, rotation and totals."""
    games, deals = rows.games, rows.deals
    n_games = games.num_rows
    game_ids = ints(games, "game_id")
    players = ints(games, "n_players")
    options_ok = np.array(
        [_default_options(text) for text in games.column("options").to_pylist()], dtype=bool
    )
    game_ok = rows.header_ok & options_ok & np.isin(players, PLAYERS)
    keys = deal_keys(deals)
    if not (is_sorted(game_ids) and is_sorted(keys) and all(is_sorted(deal_keys(t)) for t in _others(rows))):
        return np.zeros(n_games, dtype=bool)
    first, count = row_ranges(keys >> 32, game_ids)
    game_ok &= count == ints(games, "n_deals")
    owner = np.repeat(np.arange(n_games), count)  # each deal's games row (deals of unknown games: none)
    covered = np.zeros(deals.num_rows, dtype=bool)
    covered[first.repeat(count) + _ranks(count)] = True
    deal_ok = np.zeros(deals.num_rows, dtype=bool)
    for n in PLAYERS:
        chosen = np.flatnonzero(covered)[players[owner] == n]
        if chosen.size:
            deal_ok[chosen] = _prove_deals(
                n, rows, keys[chosen], deals.take(chosen), owner[players[owner] == n]
            )
    deal_ok[covered] &= ints(deals, "deal")[covered] == _ranks(count) + 1
    bad = np.bincount(owner, weights=~deal_ok[covered], minlength=n_games)
    return game_ok & (bad == 0)


def _others(rows: ColumnRows) -> tuple[pa.Table, pa.Table, pa.Table]:
    return rows.calls, rows.plays, rows.scores


def _default_options(text: str) -> bool:
    return bool(orjson.loads(text) == DEFAULT_OPTIONS)


def _ranks(count: Ints) -> Ints:
    """0, 1, ... within each run of `count` rows, for all runs one after the other."""
    starts = np.repeat(np.cumsum(count) - count, count)
    return np.arange(int(count.sum())) - starts


def _prove_deals(n: int, rows: ColumnRows, keys: Ints, deals: pa.Table, game_of: Ints) -> Bools:
    """Each deal's verdict, for `n`-player deals (`game_of`: each deal's games row, in order)."""
    size, dog_size = HAND_SIZES[n], DOG_SIZES[n]
    k = deals.num_rows
    dealer = ints(deals, "dealer")
    status = codes(deals.column("status"), ("played", "annulled"))
    played, annulled = status == 0, status == 1
    written = np.asarray(pc.fill_null(deals.column("as_written"), False).to_numpy(zero_copy_only=False))
    ok = (annulled | played) & written & (dealer >= 0) & (dealer < n)
    hands, dog = _cards_of(deals.column("hands"), n, size), _cards_of(deals.column("dog"), 1, dog_size)[:, 0]
    every = np.sort(np.concatenate([hands.reshape(k, n * size), dog], axis=1), axis=1)
    ok &= np.all(every == np.arange(CARDS), axis=1)  # tarot.deal.cards: every card once
    held = np.zeros((k, n, CARDS), dtype=bool)
    held[np.arange(k)[:, None, None], np.arange(n)[None, :, None], np.maximum(hands, 0)] = True
    dog_held = np.zeros((k, CARDS), dtype=bool)
    dog_held[np.arange(k)[:, None], np.maximum(dog, 0)] = True
    trumps_and_excuse = held[:, :, FIRST_TRUMP:].sum(axis=2)
    petit_sec = np.any((trumps_and_excuse == 1) & held[:, :, PETIT], axis=1)
    ok &= petit_sec == annulled  # tarot.deal.petit-sec: the deal is annulled, and only then

    bids, discard, calls_shape = _calls(rows.calls, keys, n, dog_size)
    contract, taker, auction_ok = _auction(bids, dealer, n)
    ok &= np.where(annulled, calls_shape == NONE, (calls_shape == EXACT) & auction_ok)
    takes = played & (contract > 0)
    needs_discard = takes & (contract <= GARDE)
    ok &= np.where(needs_discard, discard[:, 0] >= 0, discard[:, 0] == NO_DISCARD) | annulled
    ok &= ~needs_discard | _discard_ok(held, dog_held, discard, taker, dog_size)
    cards, plays_shape = _plays(rows.plays, keys, n, size)
    ok &= np.where(takes, plays_shape == EXACT, plays_shape == NONE)

    scores = np.zeros((k, n), dtype=np.int64)
    playing = np.flatnonzero(ok & takes)
    if playing.size:
        legal, scored = _play_and_score(
            held[playing], dog_held[playing], discard[playing], cards[playing],
            dealer[playing], taker[playing], contract[playing], n,
        )  # fmt: skip
        ok[playing] &= legal
        scores[playing] = scored
    written_ok, totals = _written_scores(rows.scores, keys, scores)
    return ok & written_ok & _rotation_and_totals(game_of, dealer, scores, totals, n)


def _cards_of(column: pa.ChunkedArray, groups: int, size: int) -> Ints:
    """Card ids (k, groups, size) of a column of card groups (lists of `groups` strings, or one
    string); -1 throughout a row whose groups are missing, of another size, or hold an unknown code."""
    k = len(column)
    lists = column if groups > 1 else _as_lists(column)
    counts = pc.fill_null(pc.list_value_length(lists), 0).to_numpy(zero_copy_only=False)
    texts = pc.list_flatten(lists)
    split = pc.split_pattern(texts, " ")
    lengths = pc.fill_null(pc.list_value_length(split), 0).to_numpy(zero_copy_only=False)
    ids = codes(pc.list_flatten(split), DECK.codes)
    out = np.full((k, groups, size), -1, dtype=np.int64)
    group_ok = lengths == size
    row_of_group = np.repeat(np.arange(k), counts)
    row_ok = counts == groups
    row_ok[row_of_group[~group_ok]] = False
    valid = row_ok[row_of_group]
    card_rows = np.repeat(valid, lengths)
    if valid.any():
        picked = ids[card_rows].reshape(-1, groups, size)
        out[row_ok] = picked
    return out


def _as_lists(column: pa.ChunkedArray) -> pa.Array:
    """A string column as one-element lists (nulls stay null)."""
    values = column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column
    offsets = pa.array(np.arange(len(values) + 1, dtype=np.int32))
    lists = pa.ListArray.from_arrays(offsets, values)
    return pc.if_else(pc.is_null(values), pa.scalar(None, lists.type), lists)


def _calls(calls: pa.Table, keys: Ints, n: int, dog_size: int) -> tuple[Ints, Ints, Ints]:
    """Each deal's bids (k, n) and discard (k, dog_size, NO_DISCARD when none) from the calls
    rows, and their shape: NONE, EXACT (n bids, then nothing or a whole discard) or OTHER."""
    first, count = row_ranges(deal_keys(calls), keys)
    kind = codes(calls.column("kind"), ("bid", "discard"))
    bid = codes(calls.column("value"), BIDS)
    card = codes(calls.column("value"), DECK.codes)
    last = max(calls.num_rows - 1, 0)
    at = np.minimum(first[:, None] + np.arange(n + dog_size), last)
    kinds = np.full(at.shape, -1) if calls.num_rows == 0 else kind[at]
    bids_are = np.all(kinds[:, :n] == 0, axis=1)
    discard_is = np.all(kinds[:, n:] == 1, axis=1)
    shape = np.full(len(keys), OTHER)
    shape[count == 0] = NONE
    shape[(count == n) & bids_are] = EXACT
    shape[(count == n + dog_size) & bids_are & discard_is] = EXACT
    bids = bid[at[:, :n]] if calls.num_rows else np.full((len(keys), n), -1)
    discard = card[at[:, n:]] if calls.num_rows else np.full((len(keys), dog_size), -1)
    discard[count == n] = NO_DISCARD
    return bids, discard, shape


def _auction(bids: Ints, dealer: Ints, n: int) -> tuple[Ints, Ints, Bools]:
    """tarot.auction.higher: each bid a pass or above every bid before it; the contract and the
    taker's seat (-1 when all passed). Calls go round from the dealer's left (tarot.auction.order)."""
    highest = np.maximum.accumulate(bids, axis=1)
    before = np.concatenate([np.zeros((len(bids), 1), dtype=np.int64), highest[:, :-1]], axis=1)
    ok = np.all(bids >= 0, axis=1) & np.all((bids == 0) | (bids > before), axis=1)
    contract = highest[:, -1]
    taker = np.where(contract > 0, (dealer + 1 + np.argmax(bids, axis=1)) % n, -1)
    return contract, taker, ok


def _discard_ok(held: Bools, dog_held: Bools, discard: Ints, taker: Ints, dog_size: int) -> Bools:
    """tarot.discard.*: distinct cards from the hand and the dog, no bout, no King, and trumps
    only as many as the plain cards leave room for."""
    k = len(discard)
    rows = np.arange(k)
    cards = np.maximum(discard, 0)
    hand = held[rows, np.maximum(taker, 0)] | dog_held
    ok = np.all(discard >= 0, axis=1) & np.all(np.diff(np.sort(discard, axis=1), axis=1) != 0, axis=1)
    ok &= np.all(hand[rows[:, None], cards], axis=1)
    ok &= ~np.any(IS_BOUT[cards] | IS_KING[cards], axis=1)
    pool = (hand & ~(IS_TRUMP | IS_KING))[:, :EXCUSE].sum(axis=1)
    needed = np.maximum(0, dog_size - pool)
    return ok & (IS_TRUMP[cards].sum(axis=1) <= needed)


def _plays(plays: pa.Table, keys: Ints, n: int, size: int) -> tuple[Ints, Ints]:
    """Each deal's cards (k, tricks, n) in the order played, and the shape of its plays rows:
    NONE, EXACT (every trick whole, in order) or OTHER."""
    first, count = row_ranges(deal_keys(plays), keys)
    per_deal = size * n
    shape = np.where(count == 0, NONE, OTHER)
    whole = np.flatnonzero(count == per_deal)
    cards = np.full((len(keys), size, n), -1, dtype=np.int64)
    if whole.size:
        at = first[whole, None] + np.arange(per_deal)
        trick, position = ints(plays, "trick")[at], ints(plays, "position")[at]
        ids = codes(plays.column("card"), DECK.codes)[at]
        in_order = np.all(trick == np.repeat(np.arange(1, size + 1), n), axis=1)
        in_order &= np.all(position == np.tile(np.arange(1, n + 1), size), axis=1)
        in_order &= np.all(ids >= 0, axis=1)
        shape[whole[in_order]] = EXACT
        cards[whole] = ids.reshape(-1, size, n)
    return cards, shape


def _play_and_score(
    held: Bools,
    dog_held: Bools,
    discard: Ints,
    cards: Ints,
    dealer: Ints,
    taker: Ints,
    contract: Ints,
    n: int,
) -> tuple[Bools, Ints]:
    """Play every trick of deals with a taker (tarot.play.*), then count and score them
    (tarot.score.*). Deals whose last trick the Excuse may take, or where the attack takes every
    trick (slam rules), are left unproven."""
    k, tricks = len(cards), cards.shape[1]
    rows = np.arange(k)
    hands = held.copy()
    with_discard = contract <= GARDE  # petite and garde take the dog into the hand, then discard
    hands[rows[with_discard], taker[with_discard]] |= dog_held[with_discard]
    hands[rows[with_discard, None], taker[with_discard, None], discard[with_discard]] = False
    ok = np.ones(k, dtype=bool)
    winners = np.zeros((k, tricks), dtype=np.int64)
    leader = (dealer + 1) % n
    words = _words(hands)
    for trick in range(tricks):
        best, ok = _trick(words, cards[:, trick], leader, ok)
        leader = (leader + best) % n
        winners[:, trick] = leader
    seats = (winners[:, :-1, None] + np.arange(n)) % n  # who played each card of tricks 2..
    opening = ((dealer + 1) % n)[:, None] + np.arange(n)
    seats = np.concatenate([(opening % n)[:, None, :], seats], axis=1)
    attack_won = winners == taker[:, None]
    last = tricks - 1
    excuse_led_last = cards[:, last, 0] == EXCUSE
    ok &= ~(excuse_led_last & np.all(attack_won[:, :last] == (seats[:, last, 0] == taker)[:, None], axis=1))
    ok &= ~np.all(attack_won, axis=1)
    return ok, _scores(cards, seats, winners, taker, contract, discard, dog_held, n)


def _trick(hands: Words, cards: Ints, leader: Ints, ok: Bools) -> tuple[Ints, Bools]:
    """One trick of every deal: each card held and legal (tarot.play.held, .follow, .trump,
    .overtrump; the Excuse anytime), removed from the hand; the position of the card that wins
    by rank. `hands` holds each seat's plain cards and trumps as two bit words."""
    k, n = cards.shape
    rows = np.arange(k)
    lead = np.full(k, -1)
    high = np.full(k, -1)
    best = np.zeros(k, dtype=np.int64)
    best_card = np.full(k, -1)
    for position in range(n):
        seat = (leader + position) % n
        card = cards[:, position]
        plain_word, trump_word = hands[0, rows, seat], hands[1, rows, seat]
        is_plain = card < FIRST_TRUMP
        bit = np.left_shift(ONE, np.where(is_plain, card, card - FIRST_TRUMP).astype(np.uint64))
        ok &= (np.where(is_plain, plain_word, trump_word) & bit) != 0
        suit = SUIT_OF[card]
        not_excuse = card != EXCUSE
        opens = not_excuse & (lead < 0)
        follows = not_excuse & ~opens
        lead = np.where(opens, suit, lead)
        off = follows & (suit != lead)
        ok &= ~(off & ((plain_word & SUIT_WORD[lead + 1]) != 0))
        ok &= ~(off & (suit != TRUMP_SUIT) & ((trump_word & TRUMP_WORD) != 0))
        ok &= ~(follows & (suit == TRUMP_SUIT) & (card < high) & ((trump_word & ABOVE_WORD[high + 1]) != 0))
        trump = not_excuse & (suit == TRUMP_SUIT)
        higher = trump & (card > high)
        high = np.where(higher, card, high)
        best = np.where(higher, position, best)
        by_rank = not_excuse & ~trump & (high < 0) & (suit == lead) & (card > best_card)
        best_card = np.where(by_rank, card, best_card)
        best = np.where(by_rank, position, best)
        hands[0, rows, seat] = np.where(is_plain, plain_word ^ bit, plain_word)
        hands[1, rows, seat] = np.where(is_plain, trump_word, trump_word ^ bit)
    return best, ok


def _words(held: Bools) -> Words:
    """Hands (..., 78 cards) as two bit words: the plain cards (bit = card id) and the trumps
    and the Excuse (bit = card id - 56)."""
    plain = (held[..., :FIRST_TRUMP].astype(np.uint64) << np.arange(FIRST_TRUMP, dtype=np.uint64)).sum(
        axis=-1
    )
    upper = held[..., FIRST_TRUMP:].astype(np.uint64) << np.arange(CARDS - FIRST_TRUMP, dtype=np.uint64)
    return np.stack([plain, upper.sum(axis=-1)]).astype(np.uint64)


def _scores(
    cards: Ints,
    seats: Ints,
    winners: Ints,
    taker: Ints,
    contract: Ints,
    discard: Ints,
    dog_held: Bools,
    n: int,
) -> Ints:
    """Each seat's score (tarot.score.*): the attack's card points after the Excuse exchange,
    bouts, target, petit au bout, the defence's slam, and the split -S each, taker (n-1)S."""
    k, tricks = winners.shape
    rows = np.arange(k)
    last = tricks - 1
    winner = np.broadcast_to(winners[:, :, None], cards.shape)
    excuse_kept = (cards == EXCUSE) & (seats != winner) & (np.arange(tricks) < last)[None, :, None]
    attack = taker[:, None, None]
    to_attack = np.where(excuse_kept, seats == attack, winner == attack)
    owned = np.zeros((k, CARDS), dtype=bool)
    owned[rows[:, None, None], cards] = to_attack
    exchanged = excuse_kept & ((seats == attack) != (winner == attack))
    adjust = np.sum(np.where(exchanged, np.where(winner == attack, 1, -1), 0), axis=(1, 2))
    discarded = np.zeros_like(dog_held)
    with_discard = contract <= GARDE
    discarded[rows[with_discard, None], discard[with_discard]] = True
    owned |= np.where(with_discard[:, None], discarded, (contract == GARDE_SANS)[:, None] & dog_held)
    points = owned.astype(np.int64) @ HALF + adjust
    bouts = (owned & IS_BOUT).sum(axis=1)
    target = TARGET[bouts]
    made = points >= 2 * target
    rounded = np.where(made, (points + 1) // 2, points // 2)
    sign = np.where(made, 1, -1)
    coefficient = COEFFICIENT[contract]
    final = cards[:, last]
    petit = np.where(np.any(final == PETIT, axis=1), np.where(winners[:, last] == taker, 1, -1), 0)
    defence_slam = np.where(np.all(winners != taker[:, None], axis=1), -DEFENCE_SLAM, 0)
    per_defender = (
        sign * (25 + np.abs(rounded - target)) * coefficient + petit * 10 * coefficient + defence_slam
    )
    scores = np.repeat(-per_defender[:, None], n, axis=1)
    scores[rows, taker] = (n - 1) * per_defender
    return scores


def _written_scores(scores: pa.Table, keys: Ints, computed: Ints) -> tuple[Bools, Floats]:
    """Whether each deal's written scores are the computed ones (no result only when every score
    is 0), and its running totals (k, n) as the scores rows give them."""
    k, n = computed.shape
    first, count = row_ranges(deal_keys(scores), keys)
    ok = count == n
    at = np.minimum(first[:, None] + np.arange(n), max(scores.num_rows - 1, 0))
    if scores.num_rows == 0:
        return np.zeros(k, dtype=bool), np.full((k, n), np.nan)
    ok &= np.all(ints(scores, "seat")[at] == np.arange(n), axis=1)
    written, totals = floats(scores, "score")[at], floats(scores, "total")[at]
    unwritten = np.all(np.isnan(written), axis=1)
    ok &= np.where(unwritten, np.all(computed == 0, axis=1), np.all(written == computed, axis=1))
    return ok, totals


def _rotation_and_totals(game_of: Ints, dealer: Ints, scores: Ints, totals: Floats, n: int) -> Bools:
    """Each deal dealt by the seat after the previous deal's dealer (tarot.deal.rotation), and the
    running totals the sums of the scores so far (tarot.score.totals)."""
    k = len(game_of)
    follows = np.zeros(k, dtype=bool)
    follows[1:] = game_of[1:] == game_of[:-1]
    previous = np.roll(dealer, 1)
    ok = ~follows | (dealer == (previous + 1) % n)
    running = np.cumsum(scores, axis=0)
    start = np.searchsorted(game_of, game_of, "left")
    running -= np.where((start > 0)[:, None], running[np.maximum(start - 1, 0)], 0)
    return ok & np.all(totals == running, axis=1)
