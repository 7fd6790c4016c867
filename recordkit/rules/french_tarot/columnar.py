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

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import orjson
import pyarrow as pa
import pyarrow.compute as pc

from recordkit.rules.columns import (
    Bools,
    ColumnRows,
    Floats,
    Ints,
    codes,
    deal_keys,
    floats,
    ints,
    is_sorted,
    list_lengths,
    row_ranges,
)
from recordkit.rules.french_tarot.cards import (
    BOUTS,
    DECK,
    DOG_SIZES,
    EXCUSE,
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
from recordkit.rules.french_tarot.scoring import GARDE

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
TRUMP_OR_EXCUSE = SUIT_OF >= TRUMP_SUIT
PLAIN_NOT_KING = (SUIT_OF < TRUMP_SUIT) & ~IS_KING
TARGET = np.array(TARGETS, dtype=np.int64)
COEFFICIENT = np.array(COEFFICIENTS, dtype=np.int64)
GARDE_SANS = BIDS.index("garde_sans")
DEFENCE_SLAM = DEFAULT_OPTIONS["defence_slam_bonus"]
SUIT_8 = SUIT_OF.astype(np.int8)
TRUMP_RANK = np.where(SUIT_OF == TRUMP_SUIT, np.arange(CARDS), -1).astype(np.int8)
"""Each card's id if it is a trump (trumps rank by id), else -1."""
SUIT_BIT = (1 << SUIT_OF).astype(np.uint8)
TRUMP_BIT = np.uint8(1 << TRUMP_SUIT)
PLAIN_SUIT_BIT = np.where(np.arange(6) < TRUMP_SUIT, 1 << np.arange(6), 0).astype(np.uint8)
"""A led suit's bit in a set of suits held, 0 for trumps (following trumps is `TRUMP_BIT`)."""


def prove_columns(rows: ColumnRows) -> Bools:
    """Which games (by games row) are proven clean: header, every deal, rotation and totals."""
    games, deals = rows.games, rows.deals
    n_games = games.num_rows
    game_ids = ints(games, "game_id")
    players = ints(games, "n_players")
    options_ok = np.array(
        [_default_options(text) for text in games.column("options").to_pylist()], dtype=bool
    )
    game_ok = rows.header_ok & options_ok
    keys = deal_keys(deals)
    joined = Joined(rows, deal_keys(rows.calls), deal_keys(rows.plays), deal_keys(rows.scores))
    if not all(is_sorted(k) for k in (game_ids, keys, joined.call_keys, joined.play_keys, joined.score_keys)):
        return np.zeros(n_games, dtype=bool)
    first, count = row_ranges(keys >> 32, game_ids)
    game_ok &= count == ints(games, "n_deals")
    game_row = np.repeat(np.arange(n_games), count)  # each deal's games row (deals of unknown games: none)
    covered = np.zeros(deals.num_rows, dtype=bool)
    covered[first.repeat(count) + _ranks(count)] = True
    deal_ok = np.zeros(deals.num_rows, dtype=bool)
    for n in PLAYERS:
        chosen = np.flatnonzero(covered)[players[game_row] == n]
        if chosen.size:
            deal_ok[chosen] = _prove_deals(
                n, joined, keys[chosen], deals.take(chosen), game_row[players[game_row] == n]
            )
    bad = np.bincount(game_row, weights=~deal_ok[covered], minlength=n_games)
    proven: Bools = game_ok & (bad == 0)
    return proven


@dataclass(frozen=True)
class Joined:
    """The rows with the (game_id, deal) key of each calls, plays and scores row, computed once."""

    rows: ColumnRows
    call_keys: Ints
    play_keys: Ints
    score_keys: Ints


def _default_options(text: str) -> bool:
    return bool(orjson.loads(text) == DEFAULT_OPTIONS)


def _ranks(count: Ints) -> Ints:
    """0, 1, ... within each run of `count` rows, for all runs one after the other."""
    starts = np.repeat(np.cumsum(count) - count, count)
    return np.arange(int(count.sum())) - starts


def _prove_deals(n: int, joined: Joined, keys: Ints, deals: pa.Table, game_of: Ints) -> Bools:
    """Each deal's verdict, for `n`-player deals (`game_of`: each deal's games row, in order)."""
    size, dog_size = HAND_SIZES[n], DOG_SIZES[n]
    k = deals.num_rows
    dealer = ints(deals, "dealer")
    status = codes(deals.column("status"), ("played", "annulled"))
    played, annulled = status == 0, status == 1
    written = np.asarray(pc.fill_null(deals.column("as_written"), False).to_numpy(zero_copy_only=False))
    ok = (annulled | played) & written & (dealer >= 0) & (dealer < n)
    hands, dog = (
        _cards_of(deals.column("hands"), n, size),
        _cards_of(deals.column("dog"), None, dog_size)[:, 0],
    )
    dealt = _dealt(np.concatenate([hands.reshape(k, n * size), dog], axis=1), n, size, dog_size)
    ok &= np.all(dealt >= 0, axis=1)  # tarot.deal.cards: every card once, in the right sizes
    petit_sec = np.any((TRUMP_OR_EXCUSE[hands].sum(axis=2) == 1) & np.any(hands == PETIT, axis=2), axis=1)
    ok &= petit_sec == annulled  # tarot.deal.petit-sec: the deal is annulled, and only then

    bids, discard, calls_shape = _calls(joined.rows.calls, joined.call_keys, keys, n, dog_size)
    contract, taker, auction_ok = _auction(bids, dealer, n)
    ok &= np.where(annulled, calls_shape == NONE, (calls_shape == EXACT) & auction_ok)
    takes = played & (contract > 0)
    needs_discard = takes & (contract <= GARDE)
    ok &= np.where(needs_discard, discard[:, 0] >= 0, discard[:, 0] == NO_DISCARD) | annulled
    ok &= ~needs_discard | _discard_ok(dealt, discard, taker, n)
    cards, plays_shape = _plays(joined.rows.plays, joined.play_keys, keys, n, size)
    ok &= np.where(takes, plays_shape == EXACT, plays_shape == NONE)

    scores = np.zeros((k, n), dtype=np.int64)
    playing = np.flatnonzero(ok & takes)
    if playing.size:
        legal, scored = _play_and_score(
            dealt[playing], discard[playing], cards[playing],
            dealer[playing], taker[playing], contract[playing], n,
        )  # fmt: skip
        ok[playing] &= legal
        scores[playing] = scored
    written_ok, totals = _written_scores(joined.rows.scores, joined.score_keys, keys, scores)
    verdicts: Bools = ok & written_ok & _rotation_and_totals(game_of, dealer, scores, totals, n)
    return verdicts


def _cards_of(column: pa.ChunkedArray, groups: int | None, size: int) -> Ints:
    """Card ids (k, groups, size) of a column of lists of `groups` card groups (the hands), or of
    single card groups when `groups` is None (the dog); -1 throughout a row whose groups are
    missing, of another size, or hold a code of no card."""
    lists = column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column
    k = len(lists)
    if groups is None:
        counts, inner = np.ones(k, dtype=np.int64), lists
    else:
        counts, inner = list_lengths(lists), lists.flatten()
    lengths = list_lengths(inner)
    ids = codes(inner.flatten(), DECK.codes)
    row_of_group = np.repeat(np.arange(k), counts)
    row_ok = counts == (groups or 1)
    row_ok[row_of_group[lengths != size]] = False
    out = np.full((k, groups or 1, size), -1, dtype=np.int64)
    if row_ok.any():
        out[row_ok] = ids[np.repeat(row_ok[row_of_group], lengths)].reshape(-1, groups or 1, size)
    return out


def _calls(calls: pa.Table, call_keys: Ints, keys: Ints, n: int, dog_size: int) -> tuple[Ints, Ints, Ints]:
    """Each deal's bids (k, n) and discard (k, dog_size, NO_DISCARD when none) from the calls
    rows, and their shape: NONE, EXACT (n bids, then nothing or a whole discard) or OTHER."""
    first, count = row_ranges(call_keys, keys)
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


def _dealt(cards: Ints, n: int, size: int, dog_size: int) -> Ints:
    """Who was dealt each card (deal, card): a seat, `n` for the dog; -1 throughout a deal whose
    cards (the hands, then the dog) are not the 78 cards once each."""
    k = len(cards)
    dealt = np.full((k, CARDS), -1, dtype=np.int64)
    holders = np.repeat(np.arange(n + 1), [size] * n + [dog_size])
    dealt[np.arange(k)[:, None], np.maximum(cards, 0)] = holders
    dealt[~np.all(cards >= 0, axis=1)] = -1
    return dealt


def _discard_ok(dealt: Ints, discard: Ints, taker: Ints, n: int) -> Bools:
    """tarot.discard.*: distinct cards from the hand and the dog, no bout, no King, and trumps
    only as many as the plain cards leave room for."""
    rows = np.arange(len(discard))
    cards = np.maximum(discard, 0)
    own = (dealt == taker[:, None]) | (dealt == n)  # the taker's hand with the dog
    ok = np.all(discard >= 0, axis=1) & np.all(np.diff(np.sort(discard, axis=1), axis=1) != 0, axis=1)
    ok &= np.all(own[rows[:, None], cards], axis=1)
    ok &= ~np.any(IS_BOUT[cards] | IS_KING[cards], axis=1)
    needed = np.maximum(0, discard.shape[1] - (own & PLAIN_NOT_KING).sum(axis=1))
    allowed: Bools = ok & (IS_TRUMP[cards].sum(axis=1) <= needed)
    return allowed


def _plays(plays: pa.Table, play_keys: Ints, keys: Ints, n: int, size: int) -> tuple[Ints, Ints]:
    """Each deal's cards (k, tricks, n) in the order played, and the shape of its plays rows:
    NONE, EXACT (every trick whole, in order) or OTHER."""
    first, count = row_ranges(play_keys, keys)
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
    dealt: Ints,
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
    dog = dealt == n
    with_discard = contract <= GARDE  # petite and garde take the dog into the hand, then discard
    owner = np.where(dog & with_discard[:, None], taker[:, None], dealt)
    owner[rows[with_discard, None], discard[with_discard]] = -1
    ok, seats, winners = _play(owner, cards, (dealer + 1) % n)
    attack_won = winners == taker[:, None]
    last = tricks - 1
    excuse_led_last = cards[:, last, 0] == EXCUSE
    ok &= ~(excuse_led_last & np.all(attack_won[:, :last] == (seats[:, last, 0] == taker)[:, None], axis=1))
    ok &= ~np.all(attack_won, axis=1)
    return ok, _scores(cards, seats, winners, taker, contract, discard, dog, n)


def _play(owner: Ints, cards: Ints, first_leader: Ints) -> tuple[Bools, Ints, Ints]:
    """Every trick of every deal at once: each card held and played once (tarot.play.held) and
    legal (tarot.play.follow, .trump, .overtrump; the Excuse at any time), and who won each trick
    by rank. `owner` is the seat holding each card when the play starts (-1: none). Returns the
    verdicts, the seat of each card played (deal, trick, position) and each trick's winner.

    A seat's hand before a trick is the cards it plays from that trick on, once every card it
    plays is its own and played once; so the play is checked without replaying it card by card:
    what a seat still holds is the suits and the highest trump of its cards from here on."""
    k, tricks, n = cards.shape
    card = cards.astype(np.int8)
    suit, trump = SUIT_8[card], TRUMP_RANK[card]
    excuse = card == EXCUSE
    lead = np.where(excuse[:, :, 0], suit[:, :, 1], suit[:, :, 0])  # after a led Excuse, the next card
    rank = np.where(trump >= 0, trump, np.where(suit == lead[:, :, None], card - CARDS, -CARDS))
    best = np.argmax(rank, axis=2)
    moved = np.concatenate([np.zeros((k, 1), dtype=np.int64), np.cumsum(best, axis=1)[:, :-1]], axis=1)
    leaders = (first_leader[:, None] + moved) % n
    seats = (leaders[:, :, None] + np.arange(n)) % n
    played = cards.reshape(k, -1)
    ok = np.all(np.take_along_axis(owner, played, axis=1) == seats.reshape(k, -1), axis=1)
    seen = np.zeros((k, CARDS), dtype=bool)
    seen[np.arange(k)[:, None], played] = True
    ok &= seen.sum(axis=1) == tricks * n
    by_seat = np.take_along_axis(card, (np.arange(n) - leaders[:, :, None]) % n, axis=2)
    suits_held = np.take_along_axis(_from_here_on(SUIT_BIT[by_seat], np.bitwise_or), seats, axis=2)
    top_held = np.take_along_axis(_from_here_on(TRUMP_RANK[by_seat], np.maximum), seats, axis=2)
    high = np.concatenate(
        [np.full((k, tricks, 1), -1, dtype=np.int8), np.maximum.accumulate(trump, axis=2)[:, :, :-1]], axis=2
    )
    position = np.arange(n)
    opens = ((position == 0) & ~excuse[:, :, :1]) | ((position == 1) & excuse[:, :, :1])
    follows = ~excuse & ~opens
    off = follows & (suit != lead[:, :, None])
    bad = off & ((suits_held & PLAIN_SUIT_BIT[lead][:, :, None]) != 0)  # tarot.play.follow
    bad |= off & (trump < 0) & ((suits_held & TRUMP_BIT) != 0)  # tarot.play.trump
    bad |= follows & (trump >= 0) & (trump < high) & (top_held > high)  # tarot.play.overtrump
    ok &= ~bad.any(axis=(1, 2))
    return ok, seats, (leaders + best) % n


def _from_here_on(values: npt.NDArray[Any], combine: np.ufunc) -> npt.NDArray[Any]:
    """For each seat and trick (deal, trick, seat), `values` of its cards from that trick on
    combined (the suits it holds, its highest trump)."""
    return combine.accumulate(values[:, ::-1], axis=1)[:, ::-1]


def _scores(
    cards: Ints,
    seats: Ints,
    winners: Ints,
    taker: Ints,
    contract: Ints,
    discard: Ints,
    dog: Bools,
    n: int,
) -> Ints:
    """Each seat's score (tarot.score.*): the attack's card points after the Excuse exchange,
    bouts, target, petit au bout, the defence's slam, and the split -S each, taker (n-1)S."""
    k, tricks = winners.shape
    rows = np.arange(k)
    last = tricks - 1
    winner = np.broadcast_to(winners[:, :, None], cards.shape)
    excuse = (cards == EXCUSE) & (seats != winner)
    excuse_kept = excuse & (np.arange(tricks) < last)[None, :, None]
    excuse_last = excuse & (np.arange(tricks) == last)[None, :, None]  # tarot.excuse.last-trick
    attack = taker[:, None, None]
    to_attack = np.where(
        excuse_kept, seats == attack, np.where(excuse_last, seats != attack, winner == attack)
    )
    owned = np.zeros((k, CARDS), dtype=bool)
    owned[rows[:, None, None], cards] = to_attack
    exchanged = excuse_kept & ((seats == attack) != (winner == attack))
    adjust = np.sum(np.where(exchanged, np.where(winner == attack, 1, -1), 0), axis=(1, 2))
    discarded = np.zeros_like(dog)
    with_discard = contract <= GARDE
    discarded[rows[with_discard, None], discard[with_discard]] = True
    owned |= np.where(with_discard[:, None], discarded, (contract == GARDE_SANS)[:, None] & dog)
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


def _written_scores(scores: pa.Table, score_keys: Ints, keys: Ints, computed: Ints) -> tuple[Bools, Floats]:
    """Whether each deal's written scores are the computed ones (no result only when every score
    is 0), and its running totals (k, n) as the scores rows give them."""
    k, n = computed.shape
    first, count = row_ranges(score_keys, keys)
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
    matching: Bools = ok & np.all(totals == running, axis=1)
    return matching
