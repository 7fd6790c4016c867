"""Charlemagne's columnar check: a row group of an archive replayed with NumPy, all deals at once.

The same rules as the record path (spec/rules/charlemagne.md), over arrays of deals: the deal
(charlemagne.deck, .deal.sizes; the standard kitty is the two cards the hands leave, which
`as_written` guarantees), the auction (charlemagne.auction.*, the forced dealer), the exchanges
(charlemagne.exchange.*, .trump.*, the Maine defence), every card (`columnar_play`), the knocks
(charlemagne.play.knock), the score (`scoring.scores_of` by table), the running totals, the
dealer's rotation and the end of the game. It covers both variants and every option, deals
`as_written`, and deals that leave their hands and kitty out (the tricks-only form), whose hands
are derived from who played each card (`columnar_partial`) and then checked as written ones.
A deal whose report carries only a note of the checks its derivation leaves open (a split of the
cards the play cannot tell apart, no card played) is proven but for that note and answers its
note key (`columnar_partial.note_keys`, a `Proof`). A claim, an annulled or abandoned deal, a
deal written otherwise, or anything wrong is left unproven and goes to the record path, which
explains what is wrong. The tests (tests/test_charlemagne_columnar.py,
tests/test_charlemagne_columnar_partial.py) hold it to the record path.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from recordkit.rules.charlemagne.cards import HAND_SIZE, PLAYERS, SUIT_LETTERS, TRICKS
from recordkit.rules.charlemagne.columnar_partial import (
    DEALT,
    KITTY,
    Groups,
    Moves,
    dealt_from_play,
    hands_left_out,
    note_keys,
    sinks_of,
)
from recordkit.rules.charlemagne.columnar_play import play_tricks, seat_tricks
from recordkit.rules.charlemagne.columnar_rules import (
    ANSWER_PASS,
    ANSWERS,
    BID,
    DEFENCE,
    DEFENDER_CARD_AT,
    DEFENDER_DISCARD_AT,
    DEFENDER_FROM,
    DISCARD_AT,
    EXCHANGE_ROWS,
    KINDS,
    KITTY_TAKEN,
    KNOCK,
    KNOCK_WORDS,
    PARTNER_AT,
    STANDARD_CODES,
    TRUMP_AT,
    Rules,
    exchange_key,
    rules_of,
)
from recordkit.rules.charlemagne.written import KNOCK_KEYS, kitty_left
from recordkit.rules.column_deals import Deals, card_groups, prove_noted, tricks_in_order
from recordkit.rules.columns import (
    Bools,
    ColumnRows,
    Floats,
    Ints,
    Proof,
    codes,
    deals_of,
    first_deals,
    ints,
    narrow_ints,
    played_as_written,
    ranks,
    rotation_ok,
    row_ranges,
    totals_ok,
    written_scores,
)
from recordkit.rules.values import Table
from recordkit.rules.written_columns import (
    CallsOf,
    Rows,
    WrittenForm,
    cards,
    seat_of,
    word,
    words,
    words_or_cards,
)


def _whole(table: Table, deal: dict[str, Any]) -> bool:
    """A deal the rows hold all of: no claim, and its kitty the cards the hands leave, or, with
    the hands left out (charlemagne.partial.hands), no kitty written (no row holds one)."""
    if "claim" in deal:
        return False
    return "kitty" not in deal if "hands" not in deal else kitty_left(table, deal)


def _knocks(value: Any, players: int) -> Rows | None:
    """The knocks as calls rows, in the order of the play, each with the seat it states (the
    check holds it to the player of the card it follows)."""
    if type(value) is not list:
        return None
    for knock in value:
        if type(knock) is not dict or knock.keys() != KNOCK_KEYS or not seat_of(knock["seat"], players):
            return None
        if type(knock["trick"]) is not int or type(knock["after"]) is not int:
            return None
    ordered = sorted(value, key=lambda knock: (knock["trick"], knock["after"]))
    return [f"knock after card {k['after']} of trick {k['trick']}" for k in ordered], [
        k["seat"] for k in ordered
    ]


WRITTEN = WrittenForm(
    frozenset({"dealer", "hands", "kitty", "auction", "partner_card", "discard", "trump", "defence"})
    | {
        "defender_card",
        "defender_discard",
        "tricks",
        "knocks",
        "status",
        "result",
        "totals",
        "comment",
        "time",
    },
    None,
    (
        CallsOf("auction", "bid", words),
        CallsOf("partner_card", "partner_card", word),
        CallsOf("discard", "discard", cards),
        CallsOf("trump", "trump", word),
        CallsOf("defence", "defence", words_or_cards),
        CallsOf("defender_card", "defender_card", word),
        CallsOf("defender_discard", "defender_discard", cards),
        CallsOf("knocks", "knock", _knocks),
    ),
    _whole,
    derives=True,
)
"""A deal in the bare form the columns read (`recordkit.rules.written_columns`): its calls and
exchanges as the calls rows, in the order the record path replays them (`written.as_written`)."""
NONE = -2
"""A card an exchange does not have (-1 is a card code of no card)."""


@dataclass(frozen=True)
class Read:
    """A row group's calls, plays and scores rows as arrays, decoded once for all its deals."""

    calls: pa.Table
    call_keys: Ints
    row_code: Ints
    """Each calls row's kind (`KINDS`), a defenders' answer as its own code, -1 for anything else."""
    card: Ints
    suit: Ints
    knock: Ints
    knocks_before: Ints
    """How many knock rows come before each calls row (and, last, in all)."""
    play_keys: Ints
    trick: npt.NDArray[np.signedinteger[Any]]
    position: npt.NDArray[np.signedinteger[Any]]
    played: Ints
    scores: pa.Table
    score_keys: Ints

    @classmethod
    def of(cls, deals: Deals) -> Read:
        """The arrays of the rows of these deals' row group."""
        calls, plays = deals.rows.calls, deals.rows.plays
        kind = codes(calls.column("kind"), KINDS)
        value = calls.column("value")
        answer = codes(value, ANSWERS)
        row_code = np.where(kind == DEFENCE, np.where(answer >= 0, ANSWER_PASS + answer, -1), kind)
        return cls(
            calls,
            deals.call_keys,
            row_code,
            codes(value, STANDARD_CODES),
            codes(value, tuple(SUIT_LETTERS)),
            codes(value, KNOCK_WORDS),
            np.concatenate([[0], np.cumsum(kind == KNOCK)]),
            deals.play_keys,
            narrow_ints(plays, "trick"),
            narrow_ints(plays, "position"),
            codes(plays.column("card"), STANDARD_CODES),
            deals.rows.scores,
            deals.score_keys,
        )


def prove_columns(rows: ColumnRows) -> Proof:
    """Which games (by games row) are proven clean, but for the deals noted: header, every deal,
    rotation, totals, end."""
    return prove_noted(rows, _prove_table)


def _prove_table(n: int, text: str, deals: Deals) -> tuple[Bools, Ints]:
    """Each deal's verdict and note key, for the deals of `n`-player games with these options
    (none proven at another table size or with options that do not read)."""
    rules = rules_of(text)
    if n != PLAYERS or rules is None:
        return np.zeros(len(deals.keys), dtype=bool), np.zeros(len(deals.keys), dtype=np.int64)
    return _prove_deals(rules, Read.of(deals), deals.keys, deals.table, deals.game_of)


@dataclass(frozen=True)
class Calls:
    """Each deal's calls rows: the four bids, the exchange rows' codes, cards and suits (k,
    EXCHANGE_ROWS; -1 past the last), where its knock rows start and how many there are, and
    whether the rows have that shape (four bids, at most EXCHANGE_ROWS others, then knocks)."""

    bids: Ints
    rows: Ints
    cards: Ints
    suits: Ints
    knocks_at: Ints
    knocks: Ints
    shaped: Bools

    def take(self, rows: Ints) -> Calls:
        """The calls of the deals `rows` only."""
        return deals_of(self, rows)


@dataclass(frozen=True)
class Way:
    """How each deal goes from the auction to the play: its exchange (a row of
    `Rules.exchange_table`), the bidder's seat (0 when nobody bid), his partner, the lone
    defender (the bidder when none), the seats out of the play, the trump (NO_TRUMP: none), and
    whether the calls rows are one of the contract's exchanges and name a trump where it is due."""

    way: Ints
    seat: Ints
    partner: Ints
    defender: Ints
    out: Bools
    trump: Ints
    ok: Bools

    def take(self, rows: Ints) -> Way:
        """The ways of the deals `rows` only."""
        return deals_of(self, rows)


def _prove_deals(rules: Rules, read: Read, keys: Ints, deals: pa.Table, game_of: Ints) -> tuple[Bools, Ints]:
    """Each deal's verdict and note key (`columnar_partial.note_keys`), for deals of games with
    these rules (`game_of`: each deal's games row)."""
    k = deals.num_rows
    dealer, ok = played_as_written(deals, PLAYERS)
    derived = hands_left_out(deals)
    dealt, dealt_ok = _dealt(
        card_groups(deals.column("hands"), PLAYERS, HAND_SIZE, STANDARD_CODES), rules.cards
    )
    ok &= dealt_ok | derived  # charlemagne.deck, charlemagne.deal.sizes (derived hands: in the play)
    calls = _calls(read, keys, rules)
    contract, bidder, auction_ok = _auction(calls.bids, dealer, rules)
    ok &= calls.shaped & auction_ok
    way = _way(rules, calls, contract, bidder)
    ok &= way.ok
    passed = bidder < 0  # charlemagne.auction.all-pass: nothing more, and no score
    ok &= ~passed | (calls.knocks == 0)
    taken = way.way[:, KITTY_TAKEN] == 1
    sinks = sinks_of(way.out, (rules.kitty > 0) & ~taken & ~passed)
    given = np.stack([way.way[:, PARTNER_AT] >= 0, way.way[:, DEFENDER_CARD_AT] >= 0], axis=1)
    first, count = row_ranges(read.play_keys, keys)
    ok &= ~passed | (count == 0)
    in_play = PLAYERS - way.out.sum(axis=1)
    scores = np.zeros((k, PLAYERS), dtype=np.int64)
    for n in (PLAYERS, PLAYERS - 1, PLAYERS - 2):
        chosen = np.flatnonzero(ok & ~passed & (in_play == n))
        if chosen.size:
            legal, scored = _play_and_score(
                rules,
                read,
                (calls.take(chosen), way.take(chosen)),
                (first[chosen], count[chosen]),
                n,
                (dealt[chosen], derived[chosen], sinks[chosen]),
                (contract[chosen], bidder[chosen]),
            )
            ok[chosen] &= legal
            scores[chosen] = scored
    written_ok, totals = written_scores(read.scores, read.score_keys, keys, scores)  # charlemagne.score
    verdicts: Bools = (
        ok & written_ok & _rotation_totals_and_end(game_of, dealer, scores, totals, rules.target)
    )
    return verdicts, note_keys(derived, passed, taken, sinks, way.seat, given)


def _dealt(hands: Ints, cards: int) -> tuple[Ints, Bools]:
    """Who was dealt each card (deal, card): a seat, or KITTY for the cards no hand holds; and
    whether the hands are 32 different cards of the variant's deck (charlemagne.deck)."""
    k = len(hands)
    flat = hands.reshape(k, DEALT)
    ok = np.all((flat >= 0) & (flat < cards), axis=1)
    dealt = np.full((k, cards), KITTY, dtype=np.int64)
    dealt[np.arange(k)[:, None], np.where(ok[:, None], flat, 0)] = np.repeat(np.arange(PLAYERS), HAND_SIZE)
    ok &= (dealt != KITTY).sum(axis=1) == DEALT
    return dealt, ok


def _calls(read: Read, keys: Ints, rules: Rules) -> Calls:
    """Each deal's calls rows, in the shape `Calls` says."""
    first, count = row_ranges(read.call_keys, keys)
    total = len(read.row_code)
    width = PLAYERS + EXCHANGE_ROWS
    at = np.minimum(first[:, None] + np.arange(width), max(total - 1, 0))
    knocks = read.knocks_before[first + count] - read.knocks_before[first]
    others = count - PLAYERS - knocks
    end = np.clip(first + PLAYERS + others, 0, total)
    shaped = (
        (others >= 0) & (others <= EXCHANGE_ROWS) & (read.knocks_before[end] == read.knocks_before[first])
    )
    if total == 0:
        none = np.full((len(keys), EXCHANGE_ROWS), -1, dtype=np.int64)
        return Calls(
            np.full((len(keys), PLAYERS), -1), none, none, none, end, knocks, np.zeros(len(keys), bool)
        )
    bid = codes(read.calls.column("value"), rules.bids)
    bids = np.where(read.row_code[at[:, :PLAYERS]] == BID, bid[at[:, :PLAYERS]], -1)
    bids[count < PLAYERS] = -1
    present = np.arange(EXCHANGE_ROWS) < others[:, None]
    exchange = at[:, PLAYERS:]
    row_codes = np.where(present, read.row_code[exchange], -1)
    shaped &= np.all(~present | (row_codes >= 0), axis=1)
    card = read.card[exchange]
    cards = np.where(present, np.where(card < rules.cards, card, -1), NONE)  # X1, X2: no Maine card
    suits = np.where(present, read.suit[exchange], -1)
    return Calls(bids, row_codes, cards, suits, end, knocks, shaped)


def _auction(bids: Ints, dealer: Ints, rules: Rules) -> tuple[Ints, Ints, Bools]:
    """charlemagne.auction.higher, .dealer-forced: each call a pass or above every bid before it,
    and a forced dealer bidding at least Five when nobody did before him. The contract (a ladder
    index, 0 when all passed) and the bidder's seat (-1: none); calls go round from the dealer's
    left (charlemagne.auction.order), once each (charlemagne.auction.once)."""
    k = len(bids)
    level = rules.level[np.maximum(bids, 0)]
    highest = np.maximum.accumulate(level, axis=1)
    before = np.concatenate([np.zeros((k, 1), dtype=np.int64), highest[:, :-1]], axis=1)
    ok = np.all(bids >= 0, axis=1) & np.all((level == 0) | (level > before), axis=1)
    if rules.forced:
        ok &= (before[:, -1] >= rules.forced) | (level[:, -1] >= rules.forced)
    position = np.argmax(level, axis=1)
    bid = highest[:, -1] > 0
    contract = np.where(bid, bids[np.arange(k), position], 0)
    bidder = np.where(bid, (dealer + 1 + position) % PLAYERS, -1)
    return contract, bidder, ok


def _way(rules: Rules, calls: Calls, contract: Ints, bidder: Ints) -> Way:
    """The exchange of each deal (charlemagne.exchange.*, charlemagne.defence.*): its calls rows
    one of the contract's (`columnar_rules.exchanges`), the seats out of the play
    (charlemagne.lone.out) and the trump (charlemagne.trump.*)."""
    k = len(contract)
    rows = np.arange(k)
    key = exchange_key(contract, calls.rows)
    at = np.minimum(np.searchsorted(rules.exchange_keys, key), len(rules.exchange_keys) - 1)
    ok = rules.exchange_keys[at] == key
    way = rules.exchange_table[at]
    seat = np.maximum(bidder, 0)
    partner = (seat + 2) % PLAYERS
    defender = (seat + way[:, DEFENDER_FROM]) % PLAYERS
    out = np.zeros((k, PLAYERS), dtype=bool)
    out[rows, partner] = rules.alone[contract] & (bidder >= 0)
    out[rows, (defender + 2) % PLAYERS] |= way[:, DEFENDER_FROM] > 0
    named = way[:, TRUMP_AT]
    trump = np.where(named >= 0, calls.suits[rows, np.maximum(named, 0)], rules.bid_suit[contract])
    return Way(way, seat, partner, defender, out, trump, ok & (trump >= 0))


def _passes(way: Way, calls: Calls, dealt: Ints) -> tuple[Ints, Bools]:
    """charlemagne.exchange.held: each card passed held by its giver, each discard by the
    discarder (kitty and cards received included). Returns who holds each card when the play
    starts (-1: none: discarded, in the unused kitty, or in a hand out of the play) and the
    verdicts."""
    k = len(dealt)
    rows = np.arange(k)
    table, seat, defender = way.way, way.seat, way.defender
    nobody = np.full(k, -1)
    owner = np.where(dealt == KITTY, np.where(table[:, KITTY_TAKEN] == 1, seat, -1)[:, None], dealt)
    ok = _pass(owner, _card(calls, table[:, PARTNER_AT]), way.partner, seat)
    for slot in DISCARD_AT:
        ok &= _pass(owner, _card(calls, table[:, slot]), seat, nobody)
    ok &= _pass(owner, _card(calls, table[:, DEFENDER_CARD_AT]), (defender + 2) % PLAYERS, defender)
    ok &= _pass(owner, _card(calls, table[:, DEFENDER_DISCARD_AT]), defender, nobody)
    owner = np.where((owner >= 0) & way.out[rows[:, None], np.maximum(owner, 0)], -1, owner)
    return owner, ok


def _moves(way: Way, calls: Calls) -> Moves:
    """What each deal's exchange moves: the partner's card and the Maine defender's card, and the
    discards of the bidder and the defender, as `partial.moves` reads them."""
    table, seat, defender = way.way, way.seat, way.defender
    cards = [_card(calls, table[:, slot]) for slot in (*DISCARD_AT, DEFENDER_DISCARD_AT)]
    return Moves(
        np.stack([_card(calls, table[:, PARTNER_AT]), _card(calls, table[:, DEFENDER_CARD_AT])], axis=1),
        np.stack([way.partner, (defender + 2) % PLAYERS], axis=1),
        np.stack([seat, defender], axis=1),
        np.stack(cards, axis=1),
        np.stack([*([seat] * len(DISCARD_AT)), defender], axis=1),
    )


def _card(calls: Calls, at: Ints) -> Ints:
    """The card of each deal's exchange row `at` (NONE where the exchange has no such row)."""
    found: Ints = np.where(at >= 0, calls.cards[np.arange(len(at)), np.maximum(at, 0)], NONE)
    return found


def _pass(owner: Ints, card: Ints, giver: Ints, receiver: Ints) -> Bools:
    """charlemagne.exchange.held: a card passed on (to a seat, or put away as -1) must be held by
    its giver; `owner` is updated. Deals with no such card (NONE) pass."""
    rows = np.arange(len(card))
    given = card != NONE
    held = (card >= 0) & (owner[rows, np.maximum(card, 0)] == giver)
    moving = given & held
    owner[rows[moving], card[moving]] = receiver[moving]
    passed: Bools = ~given | held
    return passed


def _play_and_score(
    rules: Rules,
    read: Read,
    exchange: tuple[Calls, Way],
    plays: tuple[Ints, Ints],
    n: int,
    dealt: tuple[Ints, Bools, Ints],
    auction: tuple[Ints, Ints],
) -> tuple[Bools, Ints]:
    """Play deals with `n` players in the play (`columnar_play`), check their knocks, and score
    them from the ruleset's table of `scoring.scores_of` (charlemagne.score.*). `exchange` is
    their calls and their way to the play, `plays` each deal's first plays row and count, `dealt`
    who was dealt each card, whether the deal left its hands out (then derived from the play:
    `columnar_partial`) and the unwritten groups the cards nobody played lie in
    (`columnar_partial.sinks_of`), `auction` the contract and the bidder."""
    calls, way = exchange
    hands, derived, sinks = dealt
    contract, bidder = auction
    cards, tricks, ok = tricks_in_order(*plays, (read.trick, read.position, read.played), n, TRICKS)
    ok &= (tricks == TRICKS) & np.all(cards < rules.cards, axis=(1, 2))  # charlemagne.trick.size, .count
    cards = np.clip(cards, 0, rules.cards - 1)
    seats_in_play = np.argsort(way.out, axis=1, kind="stable")[:, :n]
    trump = way.trump
    seated = seat_tricks(
        cards,
        _first_leader(rules, contract, bidder, way.out),
        seats_in_play,
        rules.suit[trump],
        rules.power[trump],
        trump,
    )
    if derived.any():
        rows = np.flatnonzero(derived)
        taker = np.where(way.way[rows, KITTY_TAKEN] == 1, way.seat[rows], -1)
        groups = Groups(sinks[rows], rules.kitty, taker)
        moves = _moves(way.take(rows), calls.take(rows))
        found, derived_ok = dealt_from_play(rules.cards, cards[rows], seated.seats[rows], moves, groups)
        hands[rows] = found
        ok[rows] &= derived_ok
    owner, passes_ok = _passes(way, calls, hands)
    held = (owner[:, :, None] == np.arange(PLAYERS)).sum(axis=1)
    ok &= passes_ok & np.all(held == np.where(way.out, 0, HAND_SIZE), axis=1)  # eight cards each in the play
    legal, winners = play_tricks(owner, cards, seated, rules.jokers_apart[trump])
    ok &= legal & _knocks_ok(read, calls, seated.seats, way.out)
    won = (winners % 2 == (bidder % 2)[:, None]).sum(axis=1)  # charlemagne.score: the bidding side's tricks
    return ok, rules.scores[contract, bidder, won]


def _first_leader(rules: Rules, contract: Ints, bidder: Ints, out: Bools) -> Ints:
    """charlemagne.play.lead: the bidder, or after Five to Eight the next player in the play on his left."""
    after = (bidder[:, None] + np.arange(1, PLAYERS)) % PLAYERS
    rows = np.arange(len(bidder))
    left = after[rows, np.argmax(~out[rows[:, None], after], axis=1)]
    leader: Ints = np.where(rules.leads[contract], bidder, left)
    return leader


def _knocks_ok(read: Read, calls: Calls, seats: Ints, out: Bools) -> Bools:
    """charlemagne.play.knock: each knock at a place of the play, after a card, by that card's
    player (the seat its row states), whose partner is in the play too."""
    many = calls.knocks
    m, n = len(many), seats.shape[2]
    if not many.any():
        return np.ones(m, dtype=bool)
    deal_of = np.repeat(np.arange(m), many)
    rows = np.repeat(calls.knocks_at, many) + ranks(many)
    code = read.knock[rows]
    trick, after = code // 5, code % 5
    good = (code >= 0) & (after >= 1) & (after <= n)
    knocker = seats[deal_of, np.where(good, trick, 0), np.where(good, after - 1, 0)]
    good &= ints(read.calls, "seat")[rows] == knocker
    good &= ~out[deal_of, (knocker + 2) % PLAYERS]
    ok = np.ones(m, dtype=bool)
    ok[deal_of[~good]] = False
    return ok


def _rotation_totals_and_end(game_of: Ints, dealer: Ints, scores: Ints, totals: Floats, target: int) -> Bools:
    """Each deal dealt by the seat on the previous dealer's left (charlemagne.deal.rotation), the
    running totals the sums of the scores so far (charlemagne.score.totals), and no deal after
    one that brought a side to the target (charlemagne.score.game)."""
    ended = np.max(totals, axis=1) >= target
    after_end = ~first_deals(game_of) & np.roll(ended, 1)
    verdicts: Bools = rotation_ok(game_of, dealer, PLAYERS) & totals_ok(game_of, scores, totals) & ~after_end
    return verdicts
