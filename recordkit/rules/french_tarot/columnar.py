"""French Tarot's columnar check: a row group of an archive replayed with NumPy, all deals at once.

The same rules as the record path (spec/rules/french-tarot.md), over arrays of deals instead of
one deal at a time: the deal (tarot.deck, tarot.deal.*, the Petit sec), the auction
(tarot.auction.*), the five-player call (tarot.call.*: the partner), the discard
(tarot.discard.*), the poignées (tarot.poignee.*), every card (tarot.play.*: follow suit, trump,
overtrump, the Excuse, the five-player first lead), the winners, the count and the score
(tarot.score.*), the goulash (tarot.goulash.*), and the running totals and dealer rotation. It
covers three, four and five players and every option of `TarotOptions`, deals written as bare
words and codes (`as_written`), and the slam announced or not, made or not (tarot.slam.who,
tarot.excuse.slam, tarot.score.slam). A misère announced, a slam announced in a deal whose hands
are derived from its play or beside n poignées, and anything wrong are left unproven and go to
the record path, which explains what is wrong. The tests hold it to the record path on generated
archives with injected faults (tests/test_columnar.py), and each rule it restates to the
ruleset's own function (tests/test_tarot_columnar.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from recordkit.rules.column_deals import card_groups, from_here_on, plays_of
from recordkit.rules.columns import (
    Bools,
    ColumnRows,
    Ints,
    Proof,
    bools,
    by_record,
    codes,
    deal_keys,
    distinct,
    ints,
    is_sorted,
    options_of,
    record_deals,
    rotation_ok,
    row_ranges,
    totals_ok,
    written_scores,
)
from recordkit.rules.fastread import notes_ok
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
from recordkit.rules.french_tarot.contract import is_honour, needed_honours
from recordkit.rules.french_tarot.options import TarotOptions
from recordkit.rules.french_tarot.record import ANNOUNCEMENT_KEYS, BIDS, COEFFICIENTS, written_announcement
from recordkit.rules.french_tarot.scoring import (
    CONTRACT_BASE,
    DEFENCE_SLAMS,
    GARDE,
    PETIT_AU_BOUT,
    POIGNEE_BONUS,
    POIGNEE_LEVELS,
    POIGNEE_THRESHOLDS,
    SLAM_TERMS,
)
from recordkit.rules.written_columns import CallsOf, Rows, WrittenForm, cards, seat_of, word, words

PLAYERS = (3, 4, 5)
"""Table sizes the columnar check covers."""
DEFAULTS = TarotOptions().model_dump(mode="json")
CHOICES: dict[str, tuple[Any, ...]] = {
    "discard_policy": ("fft", "source_permissive"),
    "excuse_last_trick": ("to_other_side", "to_trick_winner"),
    "petit_sec": ("annul", "ignore"),
    "all_pass": ("redeal", "goulash"),
    "misere": (False, True),
    "called_suit_first_lead_ban": ("off", "lead_card", "suit_setting_card"),
}
"""Each option's readings the columns know, by name (`defence_slam_bonus` is any number)."""
KINDS = ("bid", "discard", "call", "announce")
BID, DISCARD, CALL, ANNOUNCE = range(len(KINDS))
CARDS = len(DECK.codes)
CARD_IDS = {code: card for card, code in enumerate(DECK.codes)}
BONUS = np.array([POIGNEE_BONUS[level] for level in POIGNEE_LEVELS] + [0])
"""Each poignée level's bonus (tarot.score.poignee), and 0 for none (level -1)."""
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
CALLABLE = np.array([is_honour(c) for c in range(CARDS)] + [False])
"""tarot.call.card, from the ruleset's own `is_honour` (the last entry: no card)."""
NEEDED = (
    np.array([needed_honours(c) for c in range(CARDS)], dtype=object)[:, None] >> np.arange(CARDS)
) & 1 == 1
"""tarot.call.rank, from the ruleset's own `needed_honours`: the cards a taker must hold to call each card."""
SUIT_8 = SUIT_OF.astype(np.int8)
TRUMP_RANK = np.where(SUIT_OF == TRUMP_SUIT, np.arange(CARDS), -1).astype(np.int8)
"""Each card's id if it is a trump (trumps rank by id), else -1."""
SUIT_BIT = (1 << SUIT_OF).astype(np.uint8)
TRUMP_BIT = np.uint8(1 << TRUMP_SUIT)
PLAIN_SUIT_BIT = np.where(np.arange(6) < TRUMP_SUIT, 1 << np.arange(6), 0).astype(np.uint8)
"""A led suit's bit in a set of suits held, 0 for trumps (following trumps is `TRUMP_BIT`)."""
SLAM = "slam"
"""A slam announcement as a calls row's value (`written_announcement`)."""
SLAMS = (("defence", None, "made"), ("announced_defence", "announced_failed", "announced_made"))
"""The slam outcome (`facts.SLAM_OUTCOMES`, None: none) by whether it was announced, then by the
attack's tricks: none, some, all (`scoring.slam_outcome`)."""
SLAM_TERM = np.array([[SLAM_TERMS[outcome] for outcome in row] for row in SLAMS], dtype=np.int64)
"""Each outcome's part of S before the defence's bonus (tarot.score.slam, `scoring.SLAM_TERMS`)."""
DEFENCE_SLAM = np.array([[outcome in DEFENCE_SLAMS for outcome in row] for row in SLAMS])
"""The outcomes that also take the defence's bonus off S (`scoring.DEFENCE_SLAMS`)."""


def _announcements(value: Any, players: int) -> Rows | None:
    """The announcements as calls rows: a poignée, slam or misère each, of plain words and a seat."""
    if type(value) is not list:
        return None
    rows: list[tuple[str, int]] = []
    for announcement in value:
        if type(announcement) is not dict or not notes_ok(announcement):
            return None
        kind = announcement.get("type")
        if type(kind) is not str or not ANNOUNCEMENT_KEYS.get(kind, frozenset()).issuperset(announcement):
            return None
        read = written_announcement(announcement)
        if read is None or not seat_of(read[1], players):
            return None
        rows.append(read)
    return [text for text, _ in rows], [seat for _, seat in rows]


WRITTEN = WrittenForm(
    frozenset({"dealer", "hands", "dog", "auction", "call", "discard", "announcements", "tricks", "status"})
    | {"result", "totals", "comment", "time"},
    "dog",
    (
        CallsOf("auction", "bid", words),
        CallsOf("call", "call", word),
        CallsOf("discard", "discard", cards),
        CallsOf("announcements", "announce", _announcements),
    ),
    derives=True,
)
"""A deal in the bare form the columns read (`recordkit.rules.written_columns`): the auction,
call, discard and announcements as the calls rows, in the order the record path replays them;
the hands, the dog and the discard may be left out (the tricks-only form, `_dealt_by_play`)."""


@dataclass(frozen=True)
class Variant:
    """The options of each deal's record, as arrays (one entry a deal)."""

    permissive: Bools
    """discard_policy source_permissive: anything but a bout may be discarded."""
    to_winner: Bools
    """excuse_last_trick to_trick_winner: the Excuse in the last trick goes to its winners."""
    annul: Bools
    """petit_sec annul: a Petit sec voids the deal."""
    goulash: Bools
    """all_pass goulash: a deal everybody passes is played (the record path's)."""
    ban: Ints
    """called_suit_first_lead_ban: 0 off, 1 lead_card, 2 suit_setting_card."""
    slam_bonus: Ints
    """defence_slam_bonus."""

    def take(self, rows: Ints) -> Variant:
        """The options of these deals."""
        return Variant(*(np.asarray(getattr(self, name))[rows] for name in self.__dataclass_fields__))


@dataclass(frozen=True)
class Keys:
    """The (game_id, deal) key of every calls, plays and scores row, computed once."""

    calls: Ints
    plays: Ints
    scores: Ints


def prove_columns(rows: ColumnRows) -> Proof:
    """Which games (by games row) are proven clean, but for the deals noted: header, options,
    every deal, rotation and totals."""
    games = rows.games
    n_games = games.num_rows
    deals = record_deals(rows)
    keys = Keys(deal_keys(rows.calls), deal_keys(rows.plays), deal_keys(rows.scores))
    noted = np.zeros(rows.deals.num_rows, dtype=np.int64)
    if deals is None or not all(is_sorted(k) for k in (keys.calls, keys.plays, keys.scores)):
        return Proof(np.zeros(n_games, dtype=bool), noted)
    known, variant = variants(options_of(games))
    players = ints(games, "n_players")[deals.game_of]
    deal_ok = np.zeros(len(deals.rows), dtype=bool)
    deal_noted = np.zeros(len(deals.rows), dtype=np.int64)
    for n in PLAYERS:
        at = np.flatnonzero(players == n)
        if not at.size:
            continue
        chosen = deals.rows[at]
        whole = len(chosen) == rows.deals.num_rows  # every row, in order (`record_deals`)
        table = rows.deals if whole else rows.deals.take(chosen)
        game_of = deals.game_of[at]
        deal_ok[at], deal_noted[at] = _prove_deals(
            n, rows, keys, deals.keys[at], table, game_of, variant.take(game_of)
        )
    proven: Bools = rows.header_ok & deals.counted & known & by_record(deals.game_of, deal_ok, n_games)
    noted[deals.rows] = np.where(deal_ok, deal_noted, 0)
    return Proof(proven, noted)


def variants(options: list[dict[str, Any]]) -> tuple[Bools, Variant]:
    """Which records' options the columns know (every name of `TarotOptions`, a reading of
    `CHOICES`), and the options of each record."""
    known = np.array(
        [
            set(o) == set(DEFAULTS)
            and all(o[name] in values for name, values in CHOICES.items())
            and type(o["defence_slam_bonus"]) is int
            for o in options
        ],
        dtype=bool,
    )
    chosen = [o if ok else DEFAULTS for o, ok in zip(options, known, strict=True)]

    def each(test: Any) -> Any:
        return np.array([test(o) for o in chosen])

    return known, Variant(
        each(lambda o: o["discard_policy"] == "source_permissive").astype(bool),
        each(lambda o: o["excuse_last_trick"] == "to_trick_winner").astype(bool),
        each(lambda o: o["petit_sec"] == "annul").astype(bool),
        each(lambda o: o["all_pass"] == "goulash").astype(bool),
        each(lambda o: CHOICES["called_suit_first_lead_ban"].index(o["called_suit_first_lead_ban"])).astype(
            np.int64
        ),
        each(lambda o: o["defence_slam_bonus"]).astype(np.int64),
    )


def _prove_deals(
    n: int, rows: ColumnRows, keys: Keys, deal_key: Ints, deals: pa.Table, game_of: Ints, variant: Variant
) -> tuple[Bools, Ints]:
    """Each deal's verdict, for `n`-player deals (`game_of`: each deal's games row, in order), and
    its note key (`note_keys`; 0 for none)."""
    size, dog_size = HAND_SIZES[n], DOG_SIZES[n]
    k = deals.num_rows
    rows_k = np.arange(k)
    dealer = ints(deals, "dealer")
    status = codes(deals.column("status"), ("played", "annulled"))
    played, annulled = status == 0, status == 1
    ok = (annulled | played) & bools(deals, "as_written") & (dealer >= 0) & (dealer < n)
    hands = card_groups(deals.column("hands"), n, size, DECK.codes)
    dog = card_groups(deals.column("dog"), None, dog_size, DECK.codes)[:, 0]
    dealt = _dealt(np.concatenate([hands.reshape(k, n * size), dog], axis=1), n, size, dog_size)
    cards, tricks, plays_ok = plays_of(rows.plays, keys.plays, deal_key, n, size, DECK.codes)
    left_out = _null(deals, "hands") & _null(deals, "dog")
    derived = left_out & played & plays_ok & (tricks == size)
    at = np.flatnonzero(derived)
    if at.size:
        dealt[at] = _dealt_by_play(cards[at], dealer[at], n, dog_size)
    unseen = left_out & (tricks == 0)  # tarot.partial.cut-short: no card of the deal is known
    ok &= ((dealt[:, 0] >= 0) & (derived | ~left_out)) | unseen  # tarot.deck, tarot.deal.sizes

    calls = _calls(rows.calls, keys.calls, deal_key, n, dog_size)
    contract, taker, auction_ok = _auction(calls.bids, dealer, n)
    takes = played & (contract > 0)
    goulash = played & (contract == 0) & variant.goulash  # tarot.goulash: everybody passed, cards played
    needs_discard = takes & (contract <= GARDE)
    discarded = needs_discard & ~(derived & np.all(calls.kinds != DISCARD, axis=1))
    ok &= np.where(annulled, calls.count == 0, calls.shape_ok(takes, discarded) & auction_ok)
    poignees = calls.poignees(n + (n == 5) * takes + dog_size * discarded)
    ok &= poignees.readable
    ok &= ~np.any(poignees.slams & (poignees.seats != taker[:, None]), axis=1)  # tarot.slam.who
    ok &= ~(derived & poignees.slam(taker))  # hands derived from a play the taker leads: the record path's
    split = derived & needs_discard  # tarot.partial.taker: his hand and the dog not known apart
    discard = calls.discard
    if at.size:
        discard, laid_ok = _laid_aside(dealt, discard, split, discarded, n)
        ok &= laid_ok
    petit_sec = _petit_sec(dealt, n, split, taker)
    ok &= np.where(variant.annul, (petit_sec == annulled) | unseen, ~annulled)  # tarot.deal.petit-sec
    petit_open = split & variant.annul & _petit_sec_possible(dealt, n, taker, dog_size)
    call_open = np.zeros(k, dtype=bool)
    partner = np.full(k, -1)
    if n == 5:  # tarot.call.*: an honour, the higher ones held; its holder the partner
        called = np.where(takes, calls.called, CARDS)
        ok &= ~takes | CALLABLE[called]
        held = dealt == taker[:, None]
        needed = NEEDED[np.minimum(called, CARDS - 1)]
        ok &= ~takes | ~np.any(needed & ~held, axis=1)
        call_open = split & np.any(needed, axis=1)  # tarot.partial.taker: a Queen's call not known
        holder = dealt[rows_k, np.minimum(called, CARDS - 1)]
        partner = np.where(takes & (holder < n) & (holder != taker), holder, -1)
    ok &= ~needs_discard | _discard_ok(dealt, discard, taker, n, variant.permissive)
    ok &= plays_ok & np.where(takes | goulash, tricks == size, tricks == 0)

    scores = np.zeros((k, n))
    playing = np.flatnonzero(ok & takes)
    if playing.size:
        legal, scored = _play_and_score(
            Contract(
                dealt[playing], discard[playing], cards[playing], dealer[playing],
                taker[playing], partner[playing], contract[playing],
                calls.called[playing] if n == 5 else np.full(playing.size, -1),
                poignees.take(playing),
            ),
            variant.take(playing),
        )  # fmt: skip
        ok[playing] &= legal
        scores[playing] = scored
    free = np.flatnonzero(ok & goulash)
    if free.size:
        legal, scored_halves = _goulash(dealt[free], cards[free], dealer[free])
        ok[free] &= legal
        scores[free] = scored_halves / 2
    scores_ok, totals = written_scores(rows.scores, keys.scores, deal_key, scores)
    verdicts: Bools = ok & scores_ok & rotation_ok(game_of, dealer, n) & totals_ok(game_of, scores, totals)
    return verdicts, note_keys(unseen, petit_open, call_open, discarded & derived, annulled, taker)


@dataclass(frozen=True)
class Poignees:
    """Each deal's announcements (k, n slots in the order made): a poignée's level (an index of
    `POIGNEE_LEVELS`, -1 for an empty slot or a slam), the seat, the cards shown (k, n, 78),
    whether the slot is a slam announced; and whether every announcement of the deal is a
    poignée of known cards or a slam (`readable`: a misère is the record path's)."""

    levels: Ints
    seats: Ints
    shown: Bools
    slams: Bools
    readable: Bools

    def take(self, rows: Ints) -> Poignees:
        """The announcements of these deals."""
        return Poignees(*(getattr(self, name)[rows] for name in self.__dataclass_fields__))

    def slam(self, taker: Ints) -> Bools:
        """tarot.slam.who: whether the taker announced a slam (a slam of another seat's is a finding)."""
        announced: Bools = np.any(self.slams & (self.seats == taker[:, None]), axis=1)
        return announced


@dataclass(frozen=True)
class Calls:
    """Each deal's calls rows (k, the most a deal has): their kinds (an index of `KINDS`, -1 past
    the deal's rows), how many, the bids (k, n), the called card and the discard (k, dog_size);
    each row's value (an index of `levels`, `shown` and `slams`: the value read as a poignée, or
    a slam) and seat."""

    kinds: Ints
    count: Ints
    bids: Ints
    called: Ints
    discard: Ints
    values: Ints
    seats: Ints
    levels: Ints
    shown: Bools
    slams: Bools
    n: int

    def shape_ok(self, takes: Bools, needs_discard: Bools) -> Bools:
        """Whether the rows are the n bids, then the call (five players, when someone takes), the
        discard (a petite or a garde) and up to n announcements (when someone takes), and
        nothing else."""
        k, width = self.kinds.shape
        n, has_call = self.n, self.n == 5
        expected = np.full((k, width), -1)
        expected[:, :n] = BID
        start = n + has_call
        if has_call:
            expected[takes, n] = CALL
        expected[needs_discard, start : start + DOG_SIZES[n]] = DISCARD
        prefix = n + has_call * takes + DOG_SIZES[n] * needs_discard
        announced = self.count - prefix
        at = np.arange(width)
        expected = np.where((at >= prefix[:, None]) & (at < self.count[:, None]), ANNOUNCE, expected)
        counted = (announced >= 0) & (announced <= np.where(takes, n, 0))
        shaped: Bools = counted & np.all(self.kinds == expected, axis=1)
        return shaped

    def poignees(self, prefix: Ints) -> Poignees:
        """The announcements after the first `prefix` rows of each deal (`shape_ok`), as poignées
        and slams."""
        k = len(prefix)
        slot = np.minimum(prefix[:, None] + np.arange(self.n), self.kinds.shape[1] - 1)
        used = np.arange(self.n) < (self.count - prefix)[:, None]
        values = np.where(used, np.take_along_axis(self.values, slot, axis=1), -1)
        levels = np.where(values >= 0, self.levels[np.maximum(values, 0)], -1)
        slams = (values >= 0) & self.slams[np.maximum(values, 0)]
        readable = np.all(~used | (levels >= 0) | slams, axis=1)
        seats = np.where(used, np.take_along_axis(self.seats, slot, axis=1), -1)
        shown = (
            self.shown[np.maximum(values, 0)] & used[:, :, None] if k else np.zeros((0, self.n, CARDS), bool)
        )
        return Poignees(levels, seats, shown, slams, readable)


def _calls(calls: pa.Table, call_keys: Ints, keys: Ints, n: int, dog_size: int) -> Calls:
    """Each deal's calls rows, up to the bids, the call, a whole discard and n announcements."""
    first, count = row_ranges(call_keys, keys)
    start = n + (n == 5)
    width = start + dog_size + n
    k = len(keys)
    if calls.num_rows == 0:
        none = np.full((k, width), -1)
        nothing = np.zeros((0, CARDS), dtype=bool)
        return Calls(
            none, count, none[:, :n], none[:, 0], none[:, start:], none, none, none[0, :0], nothing,
            none[0, :0] > 0, n,
        )  # fmt: skip
    at = np.minimum(first[:, None] + np.arange(width), calls.num_rows - 1)
    past = np.arange(width) >= count[:, None]
    kinds = np.where(past, -1, codes(calls.column("kind"), KINDS)[at])
    value = calls.column("value")
    bids = codes(value, BIDS)[at[:, :n]]
    cards = codes(value, DECK.codes)[at[:, n : start + dog_size]]
    called = np.where(cards[:, 0] >= 0, cards[:, 0], CARDS) if n == 5 else np.full(k, CARDS)
    rows, texts = distinct(value)
    levels, shown = _read_poignees(texts)
    slams = np.array([text == SLAM for text in texts], dtype=bool)
    seats = np.where(past, -1, ints(calls, "seat")[at])
    return Calls(kinds, count, bids, called, cards[:, start - n :], rows[at], seats, levels, shown, slams, n)


def _read_poignees(texts: list[Any]) -> tuple[Ints, Bools]:
    """Each distinct value of the calls read as a poignée (`poignee LEVEL CARDS...`, as `describe`
    writes it): its level (-1 for anything else, or cards not each a known card once) and the
    cards shown."""
    levels = np.full(len(texts), -1)
    shown = np.zeros((len(texts), CARDS), dtype=bool)
    for index, text in enumerate(texts):
        words = text.split(" ") if isinstance(text, str) else []
        if len(words) < 2 or words[0] != "poignee" or words[1] not in POIGNEE_LEVELS:
            continue
        cards = [CARD_IDS.get(word, -1) for word in words[2:]]
        if min(cards, default=-1) >= 0 and len(set(cards)) == len(cards):
            levels[index] = POIGNEE_LEVELS.index(words[1])
            shown[index, cards] = True
    return levels, shown


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
    dealt = np.full(k * CARDS, -1, dtype=np.int8)
    holders = np.repeat(np.arange(n + 1, dtype=np.int8), [size] * n + [dog_size])
    dealt[(np.maximum(cards, 0) + (np.arange(k) * CARDS)[:, None]).ravel()] = np.tile(holders, k)
    by_deal = dealt.reshape(k, CARDS)
    by_deal[~np.all(cards >= 0, axis=1) | np.any(by_deal < 0, axis=1)] = -1
    return by_deal.astype(np.int64)


def note_keys(unseen: Bools, petit: Bools, call: Bools, discard: Bools, annulled: Bools, taker: Ints) -> Ints:
    """Each deal's note key (0: no note): what the record path's note of a partial deal depends on
    (`partial.complete`: the checks it could not run, and the groups derived), so that deals of
    one table with the same key get the same note. No card seen (tarot.partial.cut-short: an
    annulled deal or one passed by all); the Petit sec and a Queen's call open to the split of
    the taker's cards (tarot.partial.taker), with his seat and whether the discard is written."""
    open_ = unseen | petit | call
    flags = unseen + 2 * petit + 4 * call + 8 * discard + 16 * annulled
    keys: Ints = np.where(open_, 1 + flags + 32 * (taker + 1), 0)
    return keys


def _null(deals: pa.Table, name: str) -> Bools:
    """Whether each deal's `name` column is null (a group the record leaves out)."""
    null: Bools = deals.column(name).is_null().to_numpy(zero_copy_only=False)
    return null


def _dealt_by_play(cards: Ints, dealer: Ints, n: int, dog_size: int) -> Ints:
    """tarot.partial.hands, .discard: who held each card of played-out deals whose hands and dog
    the record leaves out (deal, card), as `_dealt` gives it: the seat the rules make play it
    (each trick's winner leads the next), and `n` (the dog, or the discard laid aside from it)
    for the cards nobody played; -1 throughout a deal that plays a card twice."""
    k = len(cards)
    seats, _, _ = _turns(_leaders(_winning(cards.astype(np.int8))[-1], (dealer + 1) % n, n), n)
    dealt = np.full(k * CARDS, n, dtype=np.int64)
    dealt[(cards + (np.arange(k) * CARDS)[:, None, None]).ravel()] = seats.ravel()
    by_deal = dealt.reshape(k, CARDS)
    by_deal[(by_deal == n).sum(axis=1) != dog_size] = -1
    return by_deal


def _laid_aside(dealt: Ints, discard: Ints, split: Bools, written: Bools, n: int) -> tuple[Ints, Bools]:
    """tarot.partial.discard: after a petite or a garde whose hands are derived, the discard is the
    cards nobody played; one written must be those cards (else one of them was played too)."""
    unplayed = np.sort(np.where(dealt == n, np.arange(CARDS), CARDS), axis=1)[:, : discard.shape[1]]
    ok = ~(split & written) | np.all(np.sort(discard, axis=1) == unplayed, axis=1)
    return np.where((split & ~written)[:, None], unplayed, discard), ok


def _petit_sec(dealt: Ints, n: int, split: Bools, taker: Ints) -> Bools:
    """tarot.deal.petit-sec: a seat dealt the Petit and no other trump or the Excuse; never the
    taker's when his hand and the dog are not known apart (tarot.partial.taker: the Petit goes
    to the dog)."""
    holder = dealt[:, PETIT]
    alone = np.sum(TRUMP_OR_EXCUSE & (dealt == holder[:, None]), axis=1) == 1
    sec: Bools = (holder >= 0) & (holder < n) & alone & ~(split & (holder == taker))
    return sec


def _petit_sec_possible(dealt: Ints, n: int, taker: Ints, dog_size: int) -> Bools:
    """tarot.partial.taker: whether some split of the taker's cards and the dog gives him the
    Petit sec (he played or laid aside T1 and at most as many other trumps or Excuse as the dog
    holds): the record path lists the check as not run."""
    kept = (dealt == taker[:, None]) | (dealt == n)
    possible: Bools = kept[:, PETIT] & (np.sum(kept & TRUMP_OR_EXCUSE, axis=1) - 1 <= dog_size)
    return possible


def _discard_ok(dealt: Ints, discard: Ints, taker: Ints, n: int, permissive: Bools) -> Bools:
    """tarot.discard.*: distinct cards from the hand and the dog, no bout, and (FFT) no King and
    trumps only as many as the plain cards leave room for."""
    rows = np.arange(len(discard))
    cards = np.maximum(discard, 0)
    own = (dealt == taker[:, None]) | (dealt == n)  # the taker's hand with the dog
    ok = np.all(discard >= 0, axis=1) & np.all(np.diff(np.sort(discard, axis=1), axis=1) != 0, axis=1)
    ok &= np.all(own[rows[:, None], cards], axis=1)
    ok &= ~np.any(IS_BOUT[cards], axis=1)
    needed = np.maximum(0, discard.shape[1] - (own & PLAIN_NOT_KING).sum(axis=1))
    fft = ~np.any(IS_KING[cards], axis=1) & (IS_TRUMP[cards].sum(axis=1) <= needed)
    allowed: Bools = ok & (permissive | fft)
    return allowed


@dataclass(frozen=True)
class Contract:
    """Deals with a taker, as arrays (one entry a deal): who held each card (`_dealt`), the
    discard, the cards played (deal, trick, position), the dealer, taker, partner (-1: none),
    contract, called card (-1: none) and poignées."""

    dealt: Ints
    discard: Ints
    cards: Ints
    dealer: Ints
    taker: Ints
    partner: Ints
    contract: Ints
    called: Ints
    poignees: Poignees

    def attack(self, seats: Ints) -> Bools:
        """Whether each seat (an array whose first axis is the deal's) is the taker or his partner."""
        shape = (-1,) + (1,) * (seats.ndim - 1)
        on: Bools = (seats == self.taker.reshape(shape)) | (seats == self.partner.reshape(shape))
        return on


def _play_and_score(deals: Contract, variant: Variant) -> tuple[Bools, Ints]:
    """Play every trick of deals with a taker (tarot.play.*; the taker leading the first after
    announcing a slam, tarot.trick.leader), then count and score them (tarot.score.*)."""
    cards = deals.cards
    k, _, n = cards.shape
    rows = np.arange(k)
    dog = deals.dealt == n
    with_discard = deals.contract <= GARDE  # petite and garde take the dog into the hand, then discard
    owner = np.where(dog & with_discard[:, None], deals.taker[:, None], deals.dealt)
    owner[rows[with_discard, None], deals.discard[with_discard]] = -1
    first_leader = np.where(deals.poignees.slam(deals.taker), deals.taker, (deals.dealer + 1) % n)
    ok, seats, winners, suits_held = _play(owner, cards, first_leader)
    ok &= ~_first_lead_banned(deals, suits_held, variant.ban)
    ok &= _poignees_ok(deals, owner)
    return ok, _scores(deals, seats, _excuse_takes_last(deals, seats, winners), variant)


def _excuse_takes_last(deals: Contract, seats: Ints, winners: Ints) -> Ints:
    """tarot.excuse.slam: each trick's winner (by rank, `_play`), but the last trick's, which the
    Excuse takes when it is led to it by a side that won every earlier trick."""
    last = winners.shape[1] - 1
    leader_attacks = deals.attack(seats[:, last, :1])
    takes = (deals.cards[:, last, 0] == EXCUSE) & np.all(
        deals.attack(winners[:, :last]) == leader_attacks, axis=1
    )
    won = winners.copy()
    won[takes, last] = seats[takes, last, 0]
    return won


def _play(owner: Ints, cards: Ints, first_leader: Ints) -> tuple[Bools, Ints, Ints, npt.NDArray[np.uint8]]:
    """Every trick of every deal at once: each card held and played once (tarot.play.held) and
    legal (tarot.play.follow, .trump, .overtrump; the Excuse at any time), and who won each trick
    by rank. `owner` is the seat holding each card when the play starts (-1: none). Returns the
    verdicts, the seat of each card played (deal, trick, position), each trick's winner, and the
    suits each card's player still held (deal, trick, position).

    A seat's hand before a trick is the cards it plays from that trick on, once every card it
    plays is its own and played once; so the play is checked without replaying it card by card:
    what a seat still holds is the suits and the highest trump of its cards from here on."""
    k, tricks, n = cards.shape
    card = cards.astype(np.int8)
    suit, trump, excuse, lead, best = _winning(card)
    leaders = _leaders(best, first_leader, n)
    seats, seat_at, position_of = _turns(leaders, n)
    played = cards.reshape(k, -1)
    flat = played + (np.arange(k) * CARDS)[:, None]
    ok = np.all(owner.astype(np.int8).ravel()[flat] == seats.reshape(k, -1), axis=1)
    seen = np.zeros(k * CARDS, dtype=bool)
    seen[flat] = True
    ok &= seen.reshape(k, CARDS).sum(axis=1) == tricks * n
    by_seat = card.ravel()[position_of].reshape(card.shape)
    suits_held = from_here_on(SUIT_BIT[by_seat], np.bitwise_or).ravel()[seat_at].reshape(card.shape)
    top_held = from_here_on(TRUMP_RANK[by_seat], np.maximum).ravel()[seat_at].reshape(card.shape)
    high = np.empty_like(trump)  # the highest trump before each card of its trick (-1: none)
    high[:, :, 0] = -1
    for at in range(1, n):  # a pass a position: cheaper than accumulating over a short axis
        np.maximum(high[:, :, at - 1], trump[:, :, at - 1], out=high[:, :, at])
    position = np.arange(n)
    opens = ((position == 0) & ~excuse[:, :, :1]) | ((position == 1) & excuse[:, :, :1])
    follows = ~excuse & ~opens
    off = follows & (suit != lead[:, :, None])
    bad = off & ((suits_held & PLAIN_SUIT_BIT[lead][:, :, None]) != 0)  # tarot.play.follow
    bad |= off & (trump < 0) & ((suits_held & TRUMP_BIT) != 0)  # tarot.play.trump
    bad |= follows & (trump >= 0) & (trump < high) & (top_held > high)  # tarot.play.overtrump
    ok &= ~bad.any(axis=(1, 2))
    return ok, seats, (leaders + best) % n, suits_held


def _winning(
    card: npt.NDArray[np.int8],
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int8], Bools, Ints, Ints]:
    """Each card's suit, trump rank (-1: not a trump) and whether it is the Excuse; each trick's
    suit led (after a led Excuse, the next card's) and the position of its winner by rank
    (tarot.trick.winner: a card of another suit, or the Excuse, below every card of the suit led,
    S1 too)."""
    suit, trump = SUIT_8[card], TRUMP_RANK[card]
    excuse = card == EXCUSE
    lead = np.where(excuse[:, :, 0], suit[:, :, 1], suit[:, :, 0])
    rank = np.where(trump >= 0, trump, np.where(suit == lead[:, :, None], card - CARDS, -CARDS - 1))
    return suit, trump, excuse, lead, np.argmax(rank, axis=2)


def _leaders(best: Ints, first_leader: Ints, n: int) -> Ints:
    """Each trick's leader (deal, trick): the first leader, then each trick's winner."""
    k = len(best)
    moved = np.concatenate([np.zeros((k, 1), dtype=np.int64), np.cumsum(best, axis=1)[:, :-1]], axis=1)
    leaders: Ints = (first_leader[:, None] + moved) % n
    return leaders


def _turns(leaders: Ints, n: int) -> tuple[Ints, npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    """From each trick's leader: the seat at each position (deal, trick, position), and flat
    indices into a (deal, trick, n) array of the seat at each position (by position) and of the
    position of each seat (by seat). Int32 arithmetic without a modulo: cheaper than
    `take_along_axis` over the tricks of a row group."""
    k, tricks = leaders.shape
    lead = leaders.astype(np.int32)[:, :, None]
    base = (np.arange(k * tricks, dtype=np.int32) * n).reshape(k, tricks, 1)
    seat = np.arange(n, dtype=np.int32) + lead
    seat -= n * (seat >= n)
    position = np.arange(n, dtype=np.int32) - lead
    position += n * (position < 0)
    return seat.astype(np.int64), (seat + base).ravel(), (position + base).ravel()


def _goulash(dealt: Ints, cards: Ints, dealer: Ints) -> tuple[Bools, Ints]:
    """A goulash's play (tarot.play.*, nobody holding the dog) and each seat's score in half
    points (tarot.goulash.settlement: the points every other player took, less n - 1 times its
    own), the Excuse kept by its player (tarot.goulash.excuse: exchanged before the last trick,
    winning the last)."""
    k, tricks, n = cards.shape
    ok, seats, winners, _held = _play(dealt, cards, (dealer + 1) % n)
    last = tricks - 1
    excuse_last = cards[:, last] == EXCUSE
    with_excuse = np.flatnonzero(excuse_last.any(axis=1))
    winners[with_excuse, last] = seats[with_excuse, last][excuse_last[with_excuse]]
    winner = np.broadcast_to(winners[:, :, None], cards.shape)
    excuse = (cards == EXCUSE) & (seats != winner)
    kept_by = np.where(excuse, seats, winner)
    owner = np.full(k * CARDS, -1, dtype=np.int64)
    owner[(cards + (np.arange(k) * CARDS)[:, None, None]).ravel()] = kept_by.ravel()
    owner = owner.reshape(k, CARDS)
    taken = np.stack([(owner == seat).astype(np.int64) @ HALF for seat in range(n)], axis=1)
    exchange = excuse.any(axis=(1, 2))  # the Excuse's player gives the trick's winner half a point
    player = seats[excuse]
    gainer = winner[excuse]
    taken[np.flatnonzero(exchange), player] -= 1
    taken[np.flatnonzero(exchange), gainer] += 1
    halves: Ints = taken.sum(axis=1)[:, None] - n * taken
    return ok, halves


def _first_lead_banned(deals: Contract, suits_held: npt.NDArray[np.uint8], ban: Ints) -> Bools:
    """tarot.play.first-lead: five players, the first trick opened in the called card's suit
    (not the called card itself) by a seat that held another suit; with `suit_setting_card`,
    also the card after a led Excuse."""
    cards = deals.cards
    called = deals.called
    suit = SUIT_OF[np.maximum(called, 0)]
    other = ~SUIT_BIT[np.maximum(called, 0)]

    def opens_in_called_suit(position: int) -> Bools:
        card = cards[:, 0, position]
        elsewhere = (suits_held[:, 0, position] & other) != 0
        opened: Bools = (SUIT_OF[card] == suit) & (card != called) & elsewhere
        return opened

    banned = opens_in_called_suit(0) | ((ban == 2) & (cards[:, 0, 0] == EXCUSE) & opens_in_called_suit(1))
    applies: Bools = (called >= 0) & (ban > 0) & banned
    return applies


def _poignees_ok(deals: Contract, owner: Ints) -> Bools:
    """tarot.poignee.*: each seat shows one poignée at most, of exactly the level's number of
    trumps (the Excuse standing in for one only when its player holds no other trump), all held
    before the first card (the taker: with the trumps he discarded). `owner` is who holds each
    card when the play starts. Only the deals with a poignée are looked at."""
    ok = np.ones(len(owner), dtype=bool)
    shown_in = np.flatnonzero(np.any(deals.poignees.levels >= 0, axis=1))
    if shown_in.size:
        ok[shown_in] = _shown_ok(deals.poignees.take(shown_in), owner[shown_in], deals, shown_in)
    return ok


def _shown_ok(poignees: Poignees, owner: Ints, deals: Contract, rows: Ints) -> Bools:
    """`_poignees_ok` for deals (`rows` of `deals`) that show poignées."""
    shown, levels, seats = poignees.shown, poignees.levels, poignees.seats
    n = deals.cards.shape[2]
    taker, contract, discard = deals.taker[rows], deals.contract[rows], deals.discard[rows]
    has = levels >= 0
    threshold = np.array(POIGNEE_THRESHOLDS[n])[np.maximum(levels, 0)]
    ok = np.all(~has | ((shown.sum(axis=2) == threshold) & (seats >= 0) & (seats < n)), axis=1)
    ok &= ~np.any(shown & ~TRUMP_OR_EXCUSE, axis=(1, 2))  # tarot.poignee.trumps
    twice = has[:, :, None] & has[:, None, :] & (seats[:, :, None] == seats[:, None, :])
    ok &= ~np.any(twice & ~np.eye(levels.shape[1], dtype=bool), axis=(1, 2))  # tarot.poignee.once
    discarded = np.zeros_like(owner, dtype=bool)
    with_discard = np.flatnonzero(contract <= GARDE)
    discarded[with_discard[:, None], discard[with_discard]] = True
    taker_shows = (seats == taker[:, None])[:, :, None]
    hand = (owner[:, None, :] == seats[:, :, None]) | (taker_shows & discarded[:, None, :] & IS_TRUMP)
    ok &= ~np.any(shown & ~hand, axis=(1, 2))  # tarot.poignee.held
    hidden = np.any(hand & IS_TRUMP & ~shown, axis=2)
    allowed: Bools = ok & ~np.any(shown[:, :, EXCUSE] & hidden, axis=1)  # tarot.poignee.excuse
    return allowed


def _scores(deals: Contract, seats: Ints, winners: Ints, variant: Variant) -> Ints:
    """Each seat's score (tarot.score.*) from each trick's winner (`_excuse_takes_last`): the
    attack's card points after the Excuse exchange, bouts, target, petit au bout (led to the
    trick before the last, when the Excuse takes the last), the slam, and the split
    (tarot.score.split)."""
    cards, contract, n = deals.cards, deals.contract, deals.cards.shape[2]
    k, tricks = winners.shape
    rows = np.arange(k)
    last = tricks - 1
    winner = np.broadcast_to(winners[:, :, None], cards.shape)
    excuse = (cards == EXCUSE) & (seats != winner)
    excuse_kept = excuse & (np.arange(tricks) < last)[None, :, None]
    excuse_last = excuse & (np.arange(tricks) == last)[None, :, None]  # tarot.excuse.last-trick
    seat_attacks, winner_attacks = deals.attack(seats), deals.attack(winner)
    last_to = np.where(variant.to_winner[:, None, None], winner_attacks, ~seat_attacks)
    to_attack = np.where(excuse_kept, seat_attacks, np.where(excuse_last, last_to, winner_attacks))
    owned = np.zeros(k * CARDS, dtype=bool)
    owned[(cards + (rows * CARDS)[:, None, None]).ravel()] = to_attack.ravel()
    owned = owned.reshape(k, CARDS)
    exchanged = excuse_kept & (seat_attacks != winner_attacks)
    adjust = np.sum(np.where(exchanged, np.where(winner_attacks, 1, -1), 0), axis=(1, 2))
    dog = deals.dealt == n
    discarded = np.zeros_like(dog)
    with_discard = contract <= GARDE
    discarded[rows[with_discard, None], deals.discard[with_discard]] = True
    owned |= np.where(with_discard[:, None], discarded, (contract == GARDE_SANS)[:, None] & dog)
    points = owned.astype(np.int64) @ HALF + adjust
    target = TARGET[(owned & IS_BOUT).sum(axis=1)]
    made = points >= 2 * target
    rounded = np.where(made, (points + 1) // 2, points // 2)
    coefficient = COEFFICIENT[contract]
    petit_last = np.any(cards[:, last] == PETIT, axis=1)
    excuse_took = (cards[:, last, 0] == EXCUSE) & (winners[:, last] == seats[:, last, 0])
    petit_led = excuse_took & (cards[:, last - 1, 0] == PETIT)  # tarot.score.petit-au-bout
    petit_attacks = deals.attack(np.where(petit_last, winners[:, last], winners[:, last - 1]))
    petit = np.where(petit_last | petit_led, np.where(petit_attacks, 1, -1), 0)
    attack_tricks = deals.attack(winners).sum(axis=1)
    side = np.where(attack_tricks == tricks, 2, np.minimum(attack_tricks, 1))  # none, some, all
    announced = deals.poignees.slam(deals.taker).astype(np.int64)
    slam = SLAM_TERM[announced, side] - np.where(DEFENCE_SLAM[announced, side], variant.slam_bonus, 0)
    sign = np.where(made, 1, -1)
    poignees = BONUS[deals.poignees.levels].sum(axis=1)  # tarot.score.poignee: to the contract's winners
    per_defender = (
        sign * (CONTRACT_BASE + np.abs(rounded - target)) * coefficient
        + petit * PETIT_AU_BOUT * coefficient
        + sign * poignees
        + slam
    )
    scores = np.repeat(-per_defender[:, None], n, axis=1)
    partnered = deals.partner >= 0
    scores[rows, deals.taker] = (n - 1 - 2 * partnered) * per_defender
    scores[rows[partnered], deals.partner[partnered]] = per_defender[partnered]
    return scores
