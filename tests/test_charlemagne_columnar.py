"""Charlemagne's columnar check (`rules/charlemagne/columnar.py`) against the record path.

Generated archives of both variants and every option are proven column by column; copies with
one mistake (or one change anywhere) are never proven when the full replay objects, and the
findings over the archive are the full replay's. Each rule the NumPy form restates is also held
to the ruleset's own function: the trick's winner (`play.winning_index`), following suit and the
jokers' duties (`play.legal_mask`), the auction (`auction.take_bid`), the exchanges, the Maine
defence, the seats out of the play and the first lead (`flow.advance`, `state.first_leader`),
and the rotation, totals and end of the game (`next_dealer`, `game_over`).
"""

from __future__ import annotations

import os
import random
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from recordkit.diagnostics import Location
from recordkit.games import RULESETS
from recordkit.rules.charlemagne import flow
from recordkit.rules.charlemagne.bids import LADDERS
from recordkit.rules.charlemagne.cards import DECKS, PLAYERS, context
from recordkit.rules.charlemagne.columnar import (
    Calls,
    _auction,
    _dealt,
    _first_leader,
    _passes,
    _rotation_totals_and_end,
    _way,
)
from recordkit.rules.charlemagne.columnar_play import illegal, winning_positions
from recordkit.rules.charlemagne.columnar_rules import (
    ANSWER_ALONE,
    ANSWER_PASS,
    DEFENDER_CARD,
    DEFENDER_DISCARD,
    DISCARD,
    EXCHANGE_ROWS,
    NO_TRUMP,
    PARTNER_CARD,
    TRUMP,
    rules_of,
)
from recordkit.rules.charlemagne.options import CharlemagneOptions
from recordkit.rules.charlemagne.play import legal_mask, winning_index
from recordkit.rules.charlemagne.state import CharlemagneState, Phase
from recordkit.rules.values import Action
from recordkit.sources import RawRecord
from recordkit.validate import validate_record
from tests.budget import examples
from tests.columnar_helpers import (
    archive_of,
    both_ways,
    changed_copies,
    never_proven_wrongly,
    proven_clean,
    swap_or_replace,
)
from tests.test_properties import PROPERTY, option_values, play

CHARLEMAGNE = RULESETS["charlemagne"]
MANY = settings(PROPERTY, max_examples=int(os.environ.get("RECORDKIT_COLUMNAR_EXAMPLES", examples(6))))
RULES = settings(PROPERTY, max_examples=examples(50))
VARIANTS = ("standard", "maine")
games = st.tuples(
    st.just(CHARLEMAGNE), st.just(PLAYERS), option_values(CharlemagneOptions), st.integers(0, 2**31)
)
"""Every variant and option of Charlemagne, four players."""


def provable(record: dict[str, Any]) -> bool:
    """A generated record the columns cover: no claim, and the Maine defenders' answers without a
    stated seat (the calls rows do not hold one)."""
    return not any(
        deal.get("claim") or any(type(answer) is not str for answer in deal.get("defence") or [])
        for deal in record["deals"]
    )


@MANY
@given(st.lists(games, min_size=1, max_size=4))
def test_generated_archives_are_proven_column_by_column(played: list[Any]) -> None:
    """Every generated record (random play: every contract, knocks, lone defenders) that the
    columns cover is proven without its JSON, and the findings are the full replay's (none)."""
    records = [play(game, deals=4) for game in played]
    assert proven_clean(records) == [provable(record) for record in records]


GROUPS = ("hands", "kitty", "partner_card", "discard", "defender_card", "defender_discard", "tricks")
CALLS = {variant: [bid.name for bid in ladder] for variant, ladder in LADDERS.items()}


MISTAKES = (
    *("swap", "replace", "call", "calls", "trump", "answer", "discard", "dealer", "status", "score"),
    *("total", "tricks", "rotate", "knock", "passed"),
)


def mistake(record: dict[str, Any], data: st.DataObject) -> None:
    """One change of the kind a person typing a record makes, which still reads as a record: a
    card swapped or replaced between the hands, the kitty, the cards passed and discarded and the
    tricks; a call, the trump or a defender's answer changed; a call or a discard added or
    dropped; the dealer, the status, a score or a total changed; two tricks swapped or a trick's
    cards rotated; a knock moved or given to another seat; the last deal passed by all."""
    variant = record["options"].get("variant", "standard")
    deal = data.draw(st.sampled_from(record["deals"]))
    places = [(key, i) for key in GROUPS for i in range(len(_groups(deal, key)))]
    kind = data.draw(st.sampled_from(MISTAKES))
    if kind == "passed":
        deal = record["deals"][-1]
        for key in ("partner_card", "discard", "trump", "defence", "defender_card", "defender_discard"):
            deal.pop(key, None)
        deal["auction"] = ["pass"] * PLAYERS
        if data.draw(st.integers(0, 3)):  # else the cards stay, wrongly
            deal.pop("tricks", None)
            deal.pop("knocks", None)
    elif kind in ("swap", "replace") and places:
        swap_or_replace(deal, kind, places, DECKS["standard"].codes, data)
    elif kind == "call":
        auction = deal["auction"]
        auction[data.draw(st.integers(0, len(auction) - 1))] = data.draw(st.sampled_from(CALLS[variant]))
    elif kind == "calls":
        if data.draw(st.booleans()):
            deal["auction"].append(data.draw(st.sampled_from(CALLS[variant])))
        else:
            deal["auction"].pop()
    elif kind == "trump":
        deal["trump"] = data.draw(st.sampled_from("SHDC"))
    elif kind == "answer":
        answers = deal.get("defence") or []
        choice = data.draw(st.integers(0, 2))
        if answers and choice == 0:
            i = data.draw(st.integers(0, len(answers) - 1))
            answers[i] = "pass" if answers[i] == "alone" else "alone"
        elif choice == 1:
            deal["defence"] = [*answers, data.draw(st.sampled_from(["pass", "alone"]))]
        elif answers:
            deal["defence"] = answers[:-1]
    elif kind == "discard":
        key = data.draw(st.sampled_from(["discard", "defender_discard", "partner_card", "defender_card"]))
        cards = deal.get(key, "").split()
        if cards and data.draw(st.booleans()):
            cards.pop()
        else:
            cards.append(data.draw(st.sampled_from(DECKS["standard"].codes)))
        deal[key] = " ".join(cards)
    elif kind == "dealer":
        deal["dealer"] = (deal["dealer"] + data.draw(st.integers(1, 3))) % PLAYERS
    elif kind == "status":
        deal["status"] = data.draw(st.sampled_from(["played", "annulled", "abandoned"]))
    elif kind in ("score", "total") and deal.get("result" if kind == "score" else "totals"):
        numbers = deal["result"]["scores"] if kind == "score" else deal["totals"]
        numbers[data.draw(st.integers(0, len(numbers) - 1))] += data.draw(st.sampled_from([1, -1, 5, 0.5]))
    elif kind == "tricks" and len(deal.get("tricks", [])) > 1:
        last = len(deal["tricks"]) - 1
        i, j = data.draw(st.integers(0, last)), data.draw(st.integers(0, last))
        deal["tricks"][i], deal["tricks"][j] = deal["tricks"][j], deal["tricks"][i]
    elif kind == "rotate" and deal.get("tricks"):
        i = data.draw(st.integers(0, len(deal["tricks"]) - 1))
        cards = deal["tricks"][i].split()
        deal["tricks"][i] = " ".join(cards[1:] + cards[:1])
    elif kind == "knock" and deal.get("tricks"):
        knocks = deal.setdefault("knocks", [])
        if knocks and data.draw(st.booleans()):
            knock = data.draw(st.sampled_from(knocks))
            knock[data.draw(st.sampled_from(["seat", "after", "trick"]))] = data.draw(st.integers(1, 4))
        else:  # a knock after any card, by the player who played it
            trick = data.draw(st.integers(1, len(deal["tricks"])))
            after = data.draw(st.integers(1, len(deal["tricks"][trick - 1].split())))
            knocks.append({"seat": _player(record, deal, trick, after), "trick": trick, "after": after})


def _player(record: dict[str, Any], deal: dict[str, Any], trick: int, after: int) -> int:
    """The seat that played card `after` of trick `trick` (0 if the deal does not replay)."""
    report = validate_record(RawRecord(orjson.loads(orjson.dumps({**record, "deals": [deal]})), Location()))
    state = report.replays[0].state if report.replays and report.replays[0] is not None else None
    if state is None or len(state.tricks) < trick or len(state.tricks[trick - 1].seats) < after:
        return 0
    return int(state.tricks[trick - 1].seats[after - 1])


def _groups(deal: dict[str, Any], key: str) -> list[Any]:
    value = deal.get(key)
    return [value] if type(value) is str else [v for v in value or [] if type(v) is str and v]


@MANY
@given(games, st.data())
def test_no_single_change_slips_through_the_columns(game: Any, data: st.DataObject) -> None:
    """Copies of a generated record, each with one mistake that still reads as a record or one
    change anywhere (a card, a call, a seat, a score, a key): the columns prove none that the
    full replay objects to, and the findings of the whole archive are the full replay's. Half
    the mistaken copies are scored by the rules (`rescored`), so that no fault hides behind a
    wrong score."""
    record = play(game, deals=3)
    never_proven_wrongly([record, *changed_copies(record, data, CHARLEMAGNE, mistake, 12, 10)])


def test_a_deal_after_the_end_of_the_game_is_not_proven(tmp_path: Path) -> None:
    """charlemagne.score.game: a deal written after a side reached the target (Maine, to 21) is
    reported by the record path, and the columns do not prove its record; the record that stops
    at the end is proven."""
    record = next(
        r
        for r in (play((CHARLEMAGNE, PLAYERS, {"variant": "maine"}, seed), deals=30) for seed in range(50))
        if max(r["deals"][-1]["totals"]) >= 21 and len(r["deals"]) > 1
    )
    longer = orjson.loads(orjson.dumps(record))
    dealer = (record["deals"][-1]["dealer"] + 1) % PLAYERS
    extra = next(
        deal
        for seed in range(100)
        for deal in play((CHARLEMAGNE, PLAYERS, {"variant": "maine"}, seed), deals=1)["deals"]
        if deal["dealer"] == dealer
    )
    scores = extra["result"]["scores"]
    extra["totals"] = [t + s for t, s in zip(record["deals"][-1]["totals"], scores, strict=True)]
    longer["deals"].append(extra)
    columnar, full, proven = both_ways(archive_of([record, longer], str(tmp_path)))
    assert proven == [True, False] and columnar == full
    assert [d.code for d in full[1][1]] == ["DEAL-AFTER-GAME-END"]


# --- each restated rule against the ruleset's own function ---------------------------------------

trumps = st.sampled_from([0, 1, 2, 3, None])


@RULES
@given(st.sampled_from(VARIANTS), trumps, st.data())
def test_the_winner_of_a_trick_is_the_rulesets(variant: str, trump: int | None, data: st.DataObject) -> None:
    """charlemagne.trick.winner: `winning_positions` is `play.winning_index` on any trick of 2 to
    4 different cards, under any trump or none."""
    ctx = context(variant, trump)
    size = data.draw(st.integers(2, 4))
    trick = data.draw(
        st.lists(st.integers(0, len(DECKS[variant]) - 1), min_size=size, max_size=size, unique=True)
    )
    suits = np.array([[[ctx.suit[c] for c in trick]]])
    powers = np.array([[[ctx.power[c] for c in trick]]])
    top = np.array([NO_TRUMP if trump is None else trump])
    assert winning_positions(suits, powers, suits[:, :, 0], top)[0, 0] == winning_index(ctx, trick)


@RULES
@given(st.sampled_from(VARIANTS), trumps, st.data())
def test_following_suit_and_the_jokers_duties_are_the_rulesets(
    variant: str, trump: int | None, data: st.DataObject
) -> None:
    """charlemagne.play.follow, .joker-void, .joker-led: `illegal` says a card held is wrong
    exactly when `play.legal_mask` leaves it out, for any hand and trick so far."""
    ctx = context(variant, trump)
    cards = list(range(len(DECKS[variant])))
    hand = data.draw(st.lists(st.sampled_from(cards), min_size=1, max_size=8, unique=True))
    trick = data.draw(st.lists(st.sampled_from([c for c in cards if c not in hand]), max_size=3, unique=True))
    card = data.draw(st.sampled_from(hand))
    mask = sum(1 << c for c in hand)
    suits = np.array([[[ctx.suit[c] for c in [*trick, card]]]])
    held = np.zeros(suits.shape, dtype=np.int64)
    held[0, 0, -1] = np.bitwise_or.reduce([1 << ctx.suit[c] for c in hand])
    wrong = illegal(suits, suits[:, :, 0], held, np.array([ctx.jokers_apart]))[0, 0, -1]
    assert bool(wrong) == (not legal_mask(ctx, mask, trick) >> card & 1)


def _table(options: dict[str, Any]) -> Any:
    table, _ = CHARLEMAGNE.table(CharlemagneOptions.model_validate(options), PLAYERS)
    return table


def _start(options: dict[str, Any], dealer: int, seed: int) -> tuple[Any, CharlemagneState]:
    """A shuffled deal's state, before the auction."""
    table = _table(options)
    deal = CHARLEMAGNE.deal_random(table, dealer, random.Random(seed))
    state, problems = CHARLEMAGNE.start(table, deal)
    assert not problems
    return table, state


def _advance(state: CharlemagneState, action: Action) -> list[Any]:
    """One action as the engine takes it: the seat whose turn it is when none is written."""
    if action.seat is None:
        turn = CHARLEMAGNE.turn(state)
        action.seat = turn.seat if turn is not None else None
    return list(CHARLEMAGNE.advance(state, action))


@RULES
@given(option_values(CharlemagneOptions), st.integers(0, 3), st.data())
def test_the_auction_is_the_rulesets(options: dict[str, Any], dealer: int, data: st.DataObject) -> None:
    """charlemagne.auction.higher, .dealer-forced, .order: `_auction` accepts four calls exactly
    when `take_bid` finds nothing wrong with them, and gives the ruleset's contract and bidder."""
    table, state = _start(options, dealer, 0)
    ladder = LADDERS[state.variant]
    bids = data.draw(st.lists(st.integers(0, len(ladder) - 1), min_size=PLAYERS, max_size=PLAYERS))
    problems = [p for bid in bids for p in _advance(state, Action("bid", bid, None))]
    rules = rules_of(orjson.dumps(table.options.model_dump(mode="json")).decode())
    assert rules is not None
    contract, bidder, ok = _auction(np.array([bids]), np.array([dealer]), rules)
    assert bool(ok[0]) == (not problems)
    if not problems:
        assert (int(contract[0]), int(bidder[0])) == (state.bid, -1 if state.bidder is None else state.bidder)


EXCHANGE_KINDS = {
    PARTNER_CARD: "partner_card",
    DISCARD: "discard",
    TRUMP: "trump",
    ANSWER_PASS: "defence",
    ANSWER_ALONE: "defence",
    DEFENDER_CARD: "defender_card",
    DEFENDER_DISCARD: "defender_discard",
}


@RULES
@given(option_values(CharlemagneOptions), st.integers(0, 3), st.integers(0, 2**31), st.data())
def test_the_exchanges_are_the_rulesets(
    options: dict[str, Any], dealer: int, seed: int, data: st.DataObject
) -> None:
    """charlemagne.exchange.*, .trump.*, .defence.*, .lone.out, .play.lead: after a contract,
    rows of partner's cards, discards, trump and defenders' answers (mostly those the ruleset's
    turn offers, with cards the giver holds; now and then any row or any card): `_way` and
    `_passes` accept them exactly when the replay's steps find
    nothing wrong up to the first lead, and then gives the hands, the seats out of the play,
    the trump and the first leader the replay has."""
    table, state = _start(options, dealer, seed)
    text = orjson.dumps(table.options.model_dump(mode="json")).decode()
    rules = rules_of(text)
    assert rules is not None
    ladder = LADDERS[state.variant]
    forced = rules.forced
    contract = data.draw(st.sampled_from([i for i, bid in enumerate(ladder) if bid.level >= max(forced, 1)]))
    for bid in (0, 0, 0, contract):
        assert not _advance(state, Action("bid", bid, None))
    dealt = np.array([[seat for card in range(rules.cards) for seat in [_holder(state, card)]]])
    codes: list[int] = []
    cards, suits, problems = [], [], []
    while len(codes) < EXCHANGE_ROWS and data.draw(st.integers(0, 7)):
        code = _next_row(state, data)
        if code is None:
            break
        codes.append(code)
        card = _card_for(state, code, data)
        suit = data.draw(st.integers(0, 3))
        kind = EXCHANGE_KINDS[code]
        value: Any = suit if code == TRUMP else card
        if kind == "defence":
            value = "pass" if code == ANSWER_PASS else "alone"
        problems += _advance(state, Action(kind, value, None, kind))
        cards.append(card)
        suits.append(suit)
    if state.phase < Phase.PLAY:
        problems += flow.close_phases(state, Phase.PLAY)
    pad = [-1] * (EXCHANGE_ROWS - len(codes))
    calls = Calls(
        np.zeros((1, PLAYERS), dtype=np.int64),
        np.array([[*codes, *pad]]),
        np.array([[*cards, *pad]]),
        np.array([[*suits, *pad]]),
        np.zeros(1, dtype=np.int64),
        np.zeros(1, dtype=np.int64),
        np.ones(1, dtype=bool),
    )
    bidder = np.array([dealer])  # the fourth call is the dealer's
    way = _way(rules, calls, np.array([contract]), bidder)
    owner, passes_ok = _passes(way, calls, dealt)
    out, trump, ok = way.out, way.trump, way.ok & passes_ok
    clean = not problems and state.phase == Phase.PLAY
    assert bool(ok[0]) == clean, problems
    if clean:
        assert [bool(x) for x in out[0]] == [not state.active(seat) for seat in range(PLAYERS)]
        in_play = [state.hands[seat] if state.active(seat) else 0 for seat in range(PLAYERS)]
        assert list(owner[0]) == [_holder_of(in_play, card) for card in range(rules.cards)]
        assert int(trump[0]) == (NO_TRUMP if state.trump is None else state.trump)
        assert int(_first_leader(rules, np.array([contract]), bidder, out)[0]) == state.first_leader()


ROW_OF_KIND = {
    "partner_card": [PARTNER_CARD],
    "discard": [DISCARD],
    "trump": [TRUMP],
    "defence": [ANSWER_PASS, ANSWER_ALONE],
    "defender_card": [DEFENDER_CARD],
    "defender_discard": [DEFENDER_DISCARD],
}


def _next_row(state: CharlemagneState, data: st.DataObject) -> int | None:
    """The next exchange row: mostly one of those the ruleset's `turn` offers now (None once the
    play is open), now and then any."""
    if not data.draw(st.integers(0, 5)):
        return int(data.draw(st.sampled_from(sorted(EXCHANGE_KINDS))))
    turn = CHARLEMAGNE.turn(state)
    offered = sorted(code for kind in (turn.kinds if turn else ()) for code in ROW_OF_KIND.get(kind, []))
    return int(data.draw(st.sampled_from(offered))) if offered else None


def _holder(state: CharlemagneState, card: int) -> int:
    """Who was dealt a card: a seat, or 4 for the kitty."""
    return _holder_of(state.dealt, card, PLAYERS)


def _holder_of(hands: list[int], card: int, none: int = -1) -> int:
    return next((seat for seat, hand in enumerate(hands) if hand >> card & 1), none)


def _card_for(state: CharlemagneState, code: int, data: st.DataObject) -> int:
    """A card for an exchange row: mostly one its giver holds now, now and then any card."""
    bidder = state.bidder if state.bidder is not None else 0
    defender = state.defender if state.defender is not None else (bidder + 1) % PLAYERS
    giver = {
        PARTNER_CARD: (bidder + 2) % PLAYERS,
        DISCARD: bidder,
        DEFENDER_CARD: (defender + 2) % PLAYERS,
        DEFENDER_DISCARD: defender,
    }.get(code, bidder)
    hand = state.hands[giver] | (state.kitty if code == DISCARD else 0)
    cards = range(len(DECKS[state.variant]))
    held = [c for c in cards if hand >> c & 1]
    anything = data.draw(st.integers(0, 5)) == 0
    chosen: int = data.draw(st.sampled_from(list(cards) if anything or not held else held))
    return chosen


@RULES
@given(
    option_values(CharlemagneOptions),
    st.lists(
        st.tuples(
            st.integers(0, 3), st.lists(st.sampled_from([0, 5, 8, 16, 21, 32]), min_size=4, max_size=4)
        ),
        min_size=1,
        max_size=5,
    ),
)
def test_rotation_totals_and_the_end_are_the_rulesets(options: dict[str, Any], deals: list[Any]) -> None:
    """charlemagne.deal.rotation, .score.totals, .score.game: `_rotation_totals_and_end` accepts
    a game's deals (dealers and scores, totals summed right) exactly when each dealer is
    `next_dealer` of the one before and no deal follows one after which `game_over`."""
    table = _table(options)
    rules = rules_of(orjson.dumps(table.options.model_dump(mode="json")).decode())
    assert rules is not None
    dealers = np.array([dealer for dealer, _ in deals])
    scores = np.array([scored for _, scored in deals])
    totals = np.cumsum(scores, axis=0).astype(float)
    ok = _rotation_totals_and_end(np.zeros(len(deals), dtype=np.int64), dealers, scores, totals, rules.target)
    expected = [
        i == 0
        or (
            deals[i][0] == CHARLEMAGNE.next_dealer(table, deals[i - 1][0])
            and not CHARLEMAGNE.game_over(table, list(totals[i - 1]))
        )
        for i in range(len(deals))
    ]
    assert list(ok) == expected


def test_the_hands_are_every_card_once() -> None:
    """charlemagne.deck, .deal.sizes: `_dealt` takes four hands of 32 different cards of the
    variant's deck, the kitty being the rest, and nothing else."""
    hands = np.arange(32).reshape(1, 4, 8)
    dealt, ok = _dealt(hands, 34)
    assert ok[0] and list(dealt[0, 32:]) == [4, 4] and list(dealt[0, :8]) == [0] * 8
    twice = hands.copy()
    twice[0, 1, 0] = 0
    assert not _dealt(twice, 34)[1][0]
    assert not _dealt(hands + 2, 32)[1][0]  # X1 and X2 are no cards of the Maine deck


def _lone(record: dict[str, Any]) -> tuple[int, Any] | None:
    """The first deal of a record played by one lone hand, with its replayed state."""
    report = validate_record(RawRecord(orjson.loads(orjson.dumps(record)), Location()))
    for index, replay in enumerate(report.replays):
        state = replay.state if replay is not None else None
        if state is not None and state.bidder is not None and state.out.bit_count() == 1 and state.tricks:
            return index, state
    return None


@given(st.sampled_from(VARIANTS), st.booleans())
@settings(PROPERTY, max_examples=examples(2))
def test_a_knock_by_a_lone_hand_is_not_proven(variant: str, lone: bool) -> None:
    """charlemagne.play.knock: in a deal played by a lone hand, a knock by the lone bidder (his
    partner is out) is CHARLEMAGNE-KNOCK-SEAT, and the columns do not prove it; a knock by a
    defender, whose partner plays, is clean and proven."""
    found = None
    for seed in range(200):
        record = play((CHARLEMAGNE, PLAYERS, {"variant": variant}, seed), deals=4)
        found = _lone(record)
        if found is not None and provable(record):
            break
    assert found is not None
    index, state = found
    seats = state.tricks[0].seats
    knocker = state.bidder if lone else next(s for s in seats if (s + 2) % PLAYERS in seats)
    deal = record["deals"][index]
    deal["knocks"] = [{"seat": knocker, "trick": 1, "after": seats.index(knocker) + 1}]
    with tempfile.TemporaryDirectory() as folder:
        columnar, full, proven = both_ways(archive_of([record], folder))
    assert columnar == full and proven == [not lone]
    assert [d.code for d in full[0][1]] == (["CHARLEMAGNE-KNOCK-SEAT"] if lone else [])
