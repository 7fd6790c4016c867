"""Joffre's columnar check (`recordkit.rules.joffre.columnar`) against the record path.

Generated archives of every option, player count and form are proven column by column with the
full replay's verdicts; copies with injected faults are never proven when the full replay objects;
and each rule the NumPy form restates is held to the ruleset's own function: the auction
(`auction.take_bid`), the trick's winner (`play.winning_index`), following the nation led
(`play.legal_mask`, through the replay's JOFFRE-REVOKE), the score (`scoring.deal_scores`), the
dealer's rotation (`Joffre.next_dealer`) and the end of the game (`ending.winner`, `ending.game_over`).
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from recordkit.diagnostics import Location
from recordkit.games import RULESETS
from recordkit.rules.column_deals import held_once, seats_of
from recordkit.rules.columns import rotation_ok
from recordkit.rules.joffre import auction, ending, play, scoring
from recordkit.rules.joffre.cards import NO_TRUMP, cards_for
from recordkit.rules.joffre.columnar import auction as columnar_auction
from recordkit.rules.joffre.columnar import deal_scores, follows, game_won, winners
from recordkit.rules.joffre.options import JoffreOptions
from recordkit.rules.joffre.record import JoffreDeal
from recordkit.rules.values import Action, Table
from recordkit.sources import RawRecord
from recordkit.validate import validate_record
from tests.budget import examples
from tests.columnar_helpers import (
    SHARED_MISTAKES,
    changed_copies,
    never_proven_wrongly,
    played,
    proven_clean,
    shared_mistake,
)
from tests.test_properties import PROPERTY, option_values
from tests.test_properties import play as play_game

JOFFRE = RULESETS["joffre"]
MANY = settings(PROPERTY, max_examples=int(os.environ.get("RECORDKIT_COLUMNAR_EXAMPLES", examples(8))))
numbers = st.fixed_dictionaries(
    {}, optional={"target": st.sampled_from([12, 25, 40]), "min_bid": st.integers(1, 4)}
)
joffre_games = st.tuples(
    st.just(JOFFRE),
    st.sampled_from([3, 4]),
    st.tuples(option_values(JoffreOptions), numbers).map(lambda both: {**both[0], **both[1]}),
    st.integers(0, 2**31),
)
"""Joffre games of every option (the numbers too: an early end, a higher lowest bid), 3 and 4 players."""


@MANY
@given(st.lists(joffre_games, min_size=1, max_size=4))
def test_generated_joffre_archives_are_proven_column_by_column(games: list[Any]) -> None:
    """Every clean generated record, of any option and player count, is proven without its JSON,
    and the findings are the full replay's (none)."""
    records = [record for record in (play_game(game, deals=4) for game in games) if record]
    if not records:
        return
    assert proven_clean(records) == [played(records)] * len(records)


def mistake(record: dict[str, Any], data: st.DataObject) -> None:
    """One change a person typing a Joffre record makes, which still reads as a record: two cards
    swapped between tricks or hands, a card replaced, a call changed, added or dropped, the
    dealer, the status, a score or a total changed, two tricks swapped, a trick rotated, a leader,
    winner, trump or sheet fact written (rightly or not), the last deal passed by all."""
    deal = data.draw(st.sampled_from(record["deals"]))
    kind = data.draw(
        st.sampled_from(
            [
                *("swap", "hand", "replace", "call", "add", "drop", "dealer", "status", "score"),
                *("total", "tricks", "rotate", "leader", "winner", "trump", "fact", "passed", "own", "own"),
            ]
        )
    )
    tricks: list[Any] = deal.get("tricks", [])
    n = len(record["players"])
    if kind == "swap" and len(tricks) > 1:
        i, j = data.draw(st.lists(st.integers(0, len(tricks) - 1), min_size=2, max_size=2, unique=True))
        a, b = tricks[i].split(), tricks[j].split()
        p, q = data.draw(st.integers(0, n - 1)), data.draw(st.integers(0, n - 1))
        a[p], b[q] = b[q], a[p]
        tricks[i], tricks[j] = " ".join(a), " ".join(b)
    elif kind == "hand":
        i, j = data.draw(st.lists(st.integers(0, n - 1), min_size=2, max_size=2, unique=True))
        a, b = deal["hands"][i].split(), deal["hands"][j].split()
        a[0], b[-1] = b[-1], a[0]
        deal["hands"][i], deal["hands"][j] = " ".join(a), " ".join(b)
    elif kind in ("call", "add", "drop"):
        calls = deal["auction"]
        i = data.draw(st.integers(0, len(calls) - 1))
        word = data.draw(st.sampled_from(["pass", "1", "3", "5", "7", "8", "9", "13", "5 no trump", "0"]))
        if kind == "call":
            calls[i] = word
        elif kind == "add":
            calls.insert(i, word)
        else:
            del calls[i]
    elif kind in SHARED_MISTAKES:
        shared_mistake(deal, kind, n, ["E0", "F0", "G0", "R7", "G7", "X1"], [1, -1, 5, -5], data)
    elif kind == "trump":
        deal["trump"] = data.draw(st.sampled_from(["E", "F", "R", "G", "none"]))
    elif kind == "fact" and deal.get("result"):
        deal["result"]["bidder"] = data.draw(st.integers(0, n - 1))
    elif kind == "own" and len(tricks) > 1:
        own_swap(record, record["deals"].index(deal), data)
    elif kind == "passed":
        deal["auction"] = ["pass"] * n
        if data.draw(st.booleans()):
            deal["tricks"] = []


def own_swap(record: dict[str, Any], index: int, data: st.DataObject) -> None:
    """Two cards of one seat swapped between two tricks of deal `index` (a revoke, when it keeps
    the leaders, since the seat still holds both)."""
    report = validate_record(RawRecord(orjson.loads(orjson.dumps(record)), Location()))
    replay = report.replays[index]
    if replay is None or replay.state is None or len(replay.state.tricks) < 2:
        return
    tricks = replay.state.tricks
    seat = data.draw(st.integers(0, len(record["players"]) - 1))
    i, j = data.draw(st.lists(st.integers(0, len(tricks) - 1), min_size=2, max_size=2, unique=True))
    a, b = record["deals"][index]["tricks"][i].split(), record["deals"][index]["tricks"][j].split()
    p, q = tricks[i].seats.index(seat), tricks[j].seats.index(seat)
    a[p], b[q] = b[q], a[p]
    record["deals"][index]["tricks"][i], record["deals"][index]["tricks"][j] = " ".join(a), " ".join(b)


@MANY
@given(joffre_games, st.data())
def test_no_single_change_slips_through_the_columns(game: Any, data: st.DataObject) -> None:
    """Joffre records with a typist's mistake (`mistake`: cards swapped or replaced, a call,
    a seat's own cards swapped, a sheet fact...) or any change: never proven wrongly (`columnar_helpers.never_proven_wrongly`)."""
    record = play_game(game, deals=3)
    if not record:
        return
    never_proven_wrongly([record, *changed_copies(record, data, JOFFRE, mistake, 10, 8)])


def table_of(options: dict[str, Any], players: int) -> Table:
    """The table of these options, which the test draws valid."""
    table, problems = JOFFRE.table(JoffreOptions.model_validate(options), players)
    assert table is not None, problems
    return table


valid_tables = st.tuples(st.sampled_from([3, 4]), option_values(JoffreOptions), st.integers(1, 5)).filter(
    lambda t: t[0] == 4 or t[1].get("mode") != "teams"
)


@MANY
@given(valid_tables, st.integers(0, 3), st.lists(st.integers(0, 29), min_size=4, max_size=4))
def test_the_auction_is_the_rulesets(table: Any, dealer: int, values: list[int]) -> None:
    """joffre.bid.*: a round of calls is clean in the columns exactly when `auction.take_bid`
    finds nothing in it, with the same contract and bidder."""
    n, options, min_bid = table
    joffre = table_of({**options, "min_bid": min_bid}, n)
    dealer %= n
    calls = values[:n]
    state, _ = JOFFRE.start(joffre, JoffreDeal(dealer=dealer), None)
    problems = [
        p for i, v in enumerate(calls) for p in auction.take_bid(state, Action("bid", v, None, f"a{i}"))
    ]
    contract, bidder, ok = columnar_auction(
        joffre.options, np.array([calls]), np.array([dealer]), n, cards_for(n).hand_size
    )
    assert bool(ok[0]) == (not problems)
    if not problems:
        assert int(contract[0]) == (state.contract if state.bidder is not None else 0)
        assert int(bidder[0]) == (state.bidder if state.bidder is not None else -1)


@MANY
@given(st.sampled_from([3, 4]), st.data())
def test_the_winner_is_the_rulesets(n: int, data: st.DataObject) -> None:
    """joffre.trick.winner: the columns' winning position is `play.winning_index`, with a trump
    nation or none."""
    cards = cards_for(n)
    trick = data.draw(st.lists(st.integers(0, len(cards.deck) - 1), min_size=n, max_size=n, unique=True))
    trump = data.draw(st.sampled_from([NO_TRUMP, 0, 1, 2, 3]))
    best = winners(cards, np.array([[trick]]), np.array([trump]))
    assert int(best[0, 0]) == play.winning_index(cards, trump, trick)


def replays(game: Any) -> list[tuple[dict[str, Any], int, Any]]:
    """The deals of a generated record with a bidder: the record, the deal's index, its state."""
    record = play_game(game, deals=4)
    if not record:
        return []
    report = validate_record(RawRecord(orjson.loads(orjson.dumps(record)), Location()))
    return [
        (record, index, replay.state)
        for index, replay in enumerate(report.replays)
        if replay is not None and replay.state is not None and replay.state.bidder is not None
    ]


def arrays(state: Any) -> tuple[Any, ...]:
    """A replayed deal's tricks as the columns hold them: cards, seats, winning positions, winners."""
    tricks = np.array([[t.cards for t in state.tricks]])
    seats = np.array([[t.seats for t in state.tricks]])
    best = np.array([[t.seats.index(t.winner) for t in state.tricks]])
    won = np.array([[t.winner for t in state.tricks]])
    return tricks, seats, best, won


@MANY
@given(joffre_games, st.lists(st.integers(0, 60), min_size=4, max_size=4))
def test_the_score_is_the_rulesets(game: Any, before: list[int]) -> None:
    """joffre.score.*: the columns' scores of each replayed deal are `scoring.deal_scores`, also
    with any totals before the deal (the Kaiser cap)."""
    for _record, _index, state in replays(game):
        n = state.players
        state.before = list(before[:n])
        tricks, seats, best, won = arrays(state)
        scores = deal_scores(
            state.table.options, state.cards, tricks, seats, best, won,
            np.array([state.bidder]), np.array([state.contract]), np.array([before[:n]], dtype=np.float64),
        )  # fmt: skip
        assert scores[0].tolist() == scoring.deal_scores(state)


@MANY
@given(joffre_games, st.data())
def test_following_the_nation_led_is_the_rulesets(game: Any, data: st.DataObject) -> None:
    """joffre.play.follow: with two cards of one seat swapped between tricks, whenever every card
    is still held by the seat the winners make play it, the columns see a revoke exactly when the
    full replay reports JOFFRE-REVOKE."""
    for record, index, state in replays(game)[:2]:
        tricks, seats, _best, _won = arrays(state)
        seat = data.draw(st.integers(0, state.players - 1))
        i, j = data.draw(st.lists(st.integers(0, len(state.tricks) - 1), min_size=2, max_size=2, unique=True))
        p, q = int(np.flatnonzero(seats[0, i] == seat)[0]), int(np.flatnonzero(seats[0, j] == seat)[0])
        tricks[0, i, p], tricks[0, j, q] = tricks[0, j, q], tricks[0, i, p]
        trump = np.array([NO_TRUMP if state.contract % 2 else state.cards.nation[tricks[0, 0, 0]]])
        seats, _won = seats_of(winners(state.cards, tricks, trump), np.array([state.bidder]), state.players)
        owner = np.zeros((1, len(state.cards.deck)), dtype=np.int64)
        for holder, mask in enumerate(state.dealt):
            owner[0, [c for c in range(len(state.cards.deck)) if mask >> c & 1]] = holder
        if not held_once(owner, tricks, seats, np.ones(tricks.shape, dtype=bool))[0]:
            continue
        deal = orjson.loads(orjson.dumps(record["deals"][index]))
        deal["tricks"] = [state.cards.deck.format(list(trick)) for trick in tricks[0]]
        deal.pop("result", None), deal.pop("totals", None)
        found = validate_record(RawRecord({**record, "deals": [deal]}, Location())).findings()
        revoke = any(d.code == "JOFFRE-REVOKE" for d in found.diagnostics)
        assert bool(follows(state.cards, tricks, seats)[0]) == (not revoke)


@MANY
@given(
    st.sampled_from(["individual", "teams"]),
    st.sampled_from(["highest_total_then_bidder", "bidder_first", "play_another_hand"]),
    st.lists(st.integers(30, 45), min_size=4, max_size=4),
    st.integers(-1, 3),
)
def test_the_end_of_the_game_is_the_rulesets(mode: str, tiebreak: str, totals: list[int], side: int) -> None:
    """joffre.end.*: the columns end the game after a deal exactly when `ending.winner` names a
    winner (with the bidder's side) or, when nobody bid, `ending.game_over` says so."""
    options = JoffreOptions(mode=mode, end_tiebreak=tiebreak)  # type: ignore[arg-type]
    if mode == "teams":
        totals = [totals[0], totals[1], totals[0], totals[1]]
        side = min(side, 1)
    expected = (
        ending.game_over(options, totals) if side < 0 else ending.winner(options, totals, side) is not None
    )
    assert bool(game_won(options, np.array([totals], dtype=np.float64), np.array([side]))[0]) == expected


@MANY
@given(
    st.sampled_from([3, 4]),
    st.lists(st.lists(st.integers(0, 3), min_size=1, max_size=6), min_size=1, max_size=4),
)
def test_the_rotation_is_the_rulesets(players: int, games: list[list[int]]) -> None:
    """joffre.deal.rotation: the columns accept a deal's dealer exactly when it is the record's
    first deal or `next_dealer` of the deal before it in the same record."""
    table, _ = JOFFRE.table(JoffreOptions(), players)
    assert table is not None
    dealers = [[dealer % players for dealer in game] for game in games]
    game_of = np.array([number for number, game in enumerate(dealers) for _ in game], dtype=np.int64)
    flat = np.array([dealer for game in dealers for dealer in game], dtype=np.int64)
    expected = [
        index == 0 or game[index] == JOFFRE.next_dealer(table, game[index - 1])
        for game in dealers
        for index in range(len(game))
    ]
    assert list(rotation_ok(game_of, flat, players)) == expected
