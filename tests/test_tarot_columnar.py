"""French Tarot's columnar check, rule by rule, held to the ruleset's own functions.

Each rule the NumPy form (`recordkit.rules.french_tarot.columnar`) restates is checked here
against the function of the ruleset that states it, over generated deals at every table size with
any options: the winner of each trick (`play.winning_index`), the score (`scoring.deal_scores`:
the count, the Excuse, petit au bout, poignées, the defence's slam, the split with a partner), the
five-player first lead (`play.first_lead`), the discard (`contract.take_discard`, through the
record path). The whole check is held to the record path in tests/test_columnar.py.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import orjson
from hypothesis import given
from hypothesis import strategies as st

from recordkit.diagnostics import Location
from recordkit.games import RULESETS
from recordkit.rules.french_tarot.cards import DECK, DOG_SIZES, EXCUSE, SUITS
from recordkit.rules.french_tarot.columnar import (
    CHOICES,
    POIGNEE_LEVELS,
    Contract,
    Poignees,
    Variant,
    _discard_ok,
    _excuse_takes_last,
    _first_lead_banned,
    _goulash,
    _play,
    _scores,
    _winning,
    variants,
)
from recordkit.rules.french_tarot.play import first_lead, winning_index
from recordkit.rules.french_tarot.scoring import deal_scores, excuse_wins
from recordkit.rules.french_tarot.state import TarotState
from recordkit.rules.values import PlayedTrick
from recordkit.sources import RawRecord
from recordkit.validate import validate_record
from tests.test_columnar import strong_game
from tests.test_properties import PROPERTY, option_values, play

TAROT = RULESETS["french-tarot"]
tarot_games = st.tuples(
    st.just(TAROT), st.sampled_from(TAROT.player_counts), option_values(TAROT.Options), st.integers(0, 2**31)
)


def replayed(record: dict[str, Any]) -> list[tuple[dict[str, Any], TarotState]]:
    """Each deal of a record with its replayed state (deals the replay could not finish left out)."""
    report = validate_record(RawRecord(orjson.loads(orjson.dumps(record)), Location()))
    return [
        (deal, replay.state)
        for deal, replay in zip(record["deals"], report.replays, strict=True)
        if replay is not None and replay.state is not None
    ]


def ids(mask: int) -> list[int]:
    return [card for card in range(len(DECK.codes)) if mask >> card & 1]


def contract_of(state: TarotState) -> Contract:
    """A played deal's state as the columns hold it, one deal (no taker: -1)."""
    n = state.players
    dealt = np.full(len(DECK.codes), n)
    for seat, hand in enumerate(state.dealt):
        dealt[ids(hand)] = seat
    discard = ids(state.discard) or [0] * DOG_SIZES[n]
    cards = [trick.cards for trick in state.tricks]
    taker = -1 if state.taker is None else state.taker
    one = [state.dealer, taker, -1 if state.partner is None else state.partner, state.contract]
    called = -1 if state.called is None else state.called
    return Contract(
        dealt[None, :],
        np.array([discard]),
        np.array([cards]),
        *(np.array([v]) for v in [*one, called]),
        poignees_of(state),
    )


def poignees_of(state: TarotState) -> Poignees:
    """A deal's poignées, and the taker's slam announced (in the last slot), as the columns read them."""
    n = state.players
    levels, seats = np.full((1, n), -1), np.full((1, n), -1)
    shown = np.zeros((1, n, len(DECK.codes)), dtype=bool)
    slams = np.zeros((1, n), dtype=bool)
    for slot, (seat, poignee) in enumerate(state.poignees.items()):
        levels[0, slot], seats[0, slot] = POIGNEE_LEVELS.index(poignee.level), seat
        shown[0, slot, ids(poignee.shown)] = True
    if state.slam:
        slams[0, -1], seats[0, -1] = True, state.taker
    return Poignees(levels, seats, shown, slams, np.array([True]))


def variant_of(state: TarotState) -> Variant:
    """The options of a deal's record, as the columns read them."""
    known, variant = variants([state.table.options.model_dump(mode="json")])
    assert known.all()
    return variant


def first_leader(state: TarotState) -> np.ndarray[Any, Any]:
    """tarot.trick.leader: the first leader (the taker after announcing a slam), as the replay has it."""
    return np.array([state.first_leader()])


def owner_of(state: TarotState, contract: Contract) -> np.ndarray[Any, Any]:
    """Who holds each card when the play starts (the taker's hand after the discard)."""
    owner = contract.dealt.copy()
    if state.contract <= 2:
        owner[contract.dealt == state.players] = state.taker
        owner[0, ids(state.discard)] = -1
    return owner


def played_contracts(
    game: Any, record: dict[str, Any] | None = None
) -> list[tuple[dict[str, Any], TarotState]]:
    """The generated deals of a game (or of `record`) that were played to the end with a taker,
    with room in the columns' slots for the slam beside the poignées."""
    record = play(game, deals=4) if record is None else record
    if not record:
        return []
    return [
        (deal, state)
        for deal, state in replayed(record)
        if state.taker is not None
        and len(state.tricks) == state.tricks_per_deal
        and not state.goulash
        and len(state.poignees) + state.slam <= state.players
    ]


slam_games = st.tuples(tarot_games, st.booleans()).map(lambda drawn: (drawn[0], strong_game(*drawn)))
"""Games with a one-deal record whose attack most often takes every trick (`strong_game`)."""


@PROPERTY
@given(tarot_games, st.data())
def test_the_trick_winners_are_the_rulesets(game: Any, data: st.DataObject) -> None:
    """tarot.trick.winner: the winner of every trick by rank, and the leaders that follow from the
    winners, are `play.winning_index`'s, also when a trick's cards are shuffled (so illegal)."""
    for _deal, state in played_contracts(game):
        contract = contract_of(state)
        cards = contract.cards.copy()
        if data.draw(st.booleans()):
            order = data.draw(st.permutations(range(state.players)))
            t = data.draw(st.integers(0, len(state.tricks) - 1))
            cards[0, t] = cards[0, t, list(order)]
        _ok, seats, winners, _held = _play(owner_of(state, contract), cards, first_leader(state))
        leader = state.first_leader()
        for t, trick in enumerate(cards[0]):
            assert seats[0, t, 0] == leader
            leader = (leader + winning_index(list(trick))) % state.players
            assert winners[0, t] == leader


def scores_are_the_rulesets(contracts: list[tuple[dict[str, Any], TarotState]]) -> None:
    """The columns' winners of every trick (the Excuse taking the last, `_excuse_takes_last`) are
    the replay's (`excuse_wins`), and their score of each contract without a misère is
    `scoring.deal_scores`'s."""
    for _deal, state in contracts:
        contract = contract_of(state)
        ok, seats, by_rank, _held = _play(owner_of(state, contract), contract.cards, first_leader(state))
        winners = _excuse_takes_last(contract, seats, by_rank)
        assert ok.all()
        assert winners.tolist() == [[trick.winner for trick in state.tricks]]
        last = len(state.tricks) - 1
        assert (winners[0, last] != by_rank[0, last]) <= excuse_wins(state, last, state.tricks[last])
        if not state.miseres:  # a misère is the record path's
            assert _scores(contract, seats, winners, variant_of(state)).tolist() == [deal_scores(state)]


def test_the_one_of_a_suit_led_after_the_excuse_wins_over_it() -> None:
    """tarot.trick.winner: after a led Excuse, the one of the suit (the lowest card of the deck)
    alone in that suit wins the trick over the Excuse and the other suits, as `winning_index` has it."""
    trick = [EXCUSE, *(DECK.codes.index(code) for code in ("S1", "H5", "D7", "C9"))]
    best = _winning(np.array([[trick]], dtype=np.int8))[-1]
    assert best.tolist() == [[winning_index(trick)]] == [[1]]


@PROPERTY
@given(tarot_games)
def test_the_scores_are_the_rulesets(game: Any) -> None:
    """tarot.score.* (count, target, the Excuse exchange and the last trick, petit au bout, the
    poignées, the slam, the split with or without a partner, each option), tarot.excuse.slam: the
    columns' winners and score of every generated contract are the replay's
    (`scores_are_the_rulesets`)."""
    scores_are_the_rulesets(played_contracts(game))


@PROPERTY
@given(slam_games)
def test_the_slam_scores_are_the_rulesets(drawn: Any) -> None:
    """tarot.slam.who, tarot.trick.leader, tarot.excuse.slam, tarot.score.slam (announced and
    made or failed, made unannounced; the Petit led to the trick before an Excuse that takes the
    last), with each option: over deals whose attack most often takes every trick (`strong_game`),
    the columns' first leader, winners and score are the replay's (`scores_are_the_rulesets`)."""
    game, record = drawn
    scores_are_the_rulesets(played_contracts(game, record))


@PROPERTY
@given(tarot_games.map(lambda game: (*game[:2], {**game[2], "all_pass": "goulash"}, game[3])))
def test_the_goulash_is_the_rulesets(game: Any) -> None:
    """tarot.goulash.*: the columns' settlement of every generated goulash without a misère (the
    Excuse kept, exchanged, or taking the last trick) is `scoring.deal_scores`'s."""
    record = play(game, deals=4)
    for _deal, state in replayed(record) if record else []:
        if not state.goulash or state.miseres or len(state.tricks) != state.tricks_per_deal:
            continue
        contract = contract_of(state)
        ok, halves = _goulash(contract.dealt, contract.cards, contract.dealer)
        assert ok.all()
        assert (halves / 2).tolist() == [deal_scores(state)]


@PROPERTY
@given(tarot_games.filter(lambda game: game[1] == 5), st.data())
def test_the_first_lead_is_the_rulesets(game: Any, data: st.DataObject) -> None:
    """tarot.play.first-lead: with any card of his hand opening the first trick (and any card of
    the next seat's after a led Excuse), the columns ban the lead exactly when `play.first_lead`
    does, for every reading of the option."""
    for _deal, state in played_contracts(game):
        contract = contract_of(state)
        cards = contract.cards.copy()
        leader = (state.dealer + 1) % state.players
        hands = [[c for trick in state.tricks for c, s in zip(trick.cards, trick.seats, strict=True) if s == seat]
                 for seat in range(state.players)]  # fmt: skip
        second = (leader + 1) % state.players
        for position, seat in enumerate((leader, second)):  # the called suit, half the time
            in_suit = [c for c in hands[seat] if state.called is not None and SUITS[c] == SUITS[state.called]]
            use = in_suit if in_suit and data.draw(st.booleans()) else hands[seat]
            cards[0, 0, position] = data.draw(st.sampled_from(use))
        if data.draw(st.booleans()) and EXCUSE in hands[leader]:
            cards[0, 0, 0] = EXCUSE
        held = np.zeros((1, len(state.tricks), state.players), dtype=np.uint8)
        for position, seat in enumerate((leader, second)):
            held[0, 0, position] = np.bitwise_or.reduce([1 << SUITS[c] for c in hands[seat]])
        ban = data.draw(st.sampled_from(CHOICES["called_suit_first_lead_ban"]))
        options = state.table.options.model_copy(update={"called_suit_first_lead_ban": ban})
        table = replace(state.table, options=options)
        start = TarotState(table, state.dealer, state.dealt, [_mask(h) for h in hands], state.dog, 15)
        start.called = state.called
        trick = PlayedTrick(leader)
        expected = first_lead(start, trick, int(cards[0, 0, 0]), leader) is not None
        if cards[0, 0, 0] == EXCUSE:
            trick.cards.append(EXCUSE)
            expected |= first_lead(start, trick, int(cards[0, 0, 1]), second) is not None
        variant = CHOICES["called_suit_first_lead_ban"].index(ban)
        deal = Contract(*(getattr(contract, f) for f in ("dealt", "discard")), cards,
                        *(getattr(contract, f) for f in ("dealer", "taker", "partner", "contract", "called", "poignees")))  # fmt: skip
        assert _first_lead_banned(deal, held, np.array([variant])).tolist() == [expected]


def _mask(cards: list[int]) -> int:
    return sum(1 << card for card in set(cards))


@PROPERTY
@given(tarot_games, st.data())
def test_the_discard_is_the_rulesets(game: Any, data: st.DataObject) -> None:
    """tarot.discard.held, .bout, .king, .trump (and `source_permissive`): a generated discard
    replaced by any cards of the taker's hand and the dog (now and then a card from elsewhere, or
    one twice) is allowed by the columns exactly when the record path finds no discard fault."""
    record = play(game, deals=3)
    if not record:
        return
    for number, (deal, state) in enumerate(replayed(record)):
        if not deal.get("discard") or state.taker is None:
            continue
        n, size = state.players, DOG_SIZES[state.players]
        pool = ids(state.dealt[state.taker] | state.dog)
        cards = data.draw(st.lists(st.sampled_from(pool), min_size=size, max_size=size))
        if data.draw(st.integers(0, 4)) == 0:
            cards[0] = data.draw(st.integers(0, len(DECK.codes) - 1))
        copy = orjson.loads(orjson.dumps(record))
        copy["deals"][number]["discard"] = " ".join(DECK.codes[c] for c in cards)
        report = validate_record(RawRecord(copy, Location()))
        found = {d.rule for d in report.diagnostics if d.rule and d.rule.startswith("tarot.discard.")}
        contract = contract_of(state)
        permissive = np.array([state.table.options.discard_policy == "source_permissive"])
        allowed = _discard_ok(contract.dealt, np.array([cards]), contract.taker, n, permissive)
        assert allowed.tolist() == [not found], (cards, found)
        return


def test_a_discard_after_an_unfinished_goulash_auction_is_a_finding() -> None:
    """A record with the goulash option whose auction stops short of every player and passes,
    followed by a discard (found by the property tests of the columns): the record path reports
    the short auction and the discard nobody may make, instead of failing on the missing taker."""
    record = play((TAROT, 4, {"all_pass": "goulash"}, 3), deals=1)
    deal = record["deals"][0]
    deal["auction"] = ["pass", "pass", "pass"]
    deal["discard"] = " ".join(deal["hands"][0].split()[:6])
    report = validate_record(RawRecord(record, Location()))
    codes = {d.code for d in report.diagnostics}
    assert {"TAROT-AUCTION-INCOMPLETE", "TAROT-DISCARD-NOT-ALLOWED"} <= codes


def _tricks_only_deal(
    players: int, options: dict[str, Any], found: Any
) -> tuple[dict[str, Any], dict[str, Any]]:
    """A generated one-deal tricks-only record (`Ruleset.forget`) whose deal `found` picks out,
    searched over seeds, and that deal."""
    from recordkit.generate import generate_record
    from recordkit.model import to_data

    for seed in range(400):
        record = orjson.loads(
            orjson.dumps(
                to_data(generate_record(TAROT, players, 1, seed, options, player="random", form="tricks"))
            )
        )
        if record["deals"][0].get("tricks") and found(record["deals"][0]):
            return record, record["deals"][0]
    raise AssertionError("no generated deal is of the kind wanted")


def _proven_and_found(record: dict[str, Any]) -> tuple[bool, set[str]]:
    """Whether the columns prove a record, and the codes the record path finds in it."""
    from recordkit.batch import proven

    raw = RawRecord(orjson.loads(orjson.dumps(record)), Location(record=1))
    found = validate_record(RawRecord(orjson.loads(orjson.dumps(record)), Location(record=1))).diagnostics
    return proven([raw])[0], {finding.code for finding in found}


def _unplayed(deal: dict[str, Any]) -> set[str]:
    """The cards nobody played in a tricks-only deal (after a garde, its discard)."""
    return set(DECK.codes) - {card for trick in deal["tricks"] for card in trick.split()}


def test_tricks_only_deals_are_proven_with_the_hands_the_play_gives() -> None:
    """tarot.partial.hands, .discard: a garde written as a magazine prints it (no hands, dog or
    discard) is proven from the cards each seat played; with the discard written, only when it
    is the cards nobody played."""
    record, deal = _tricks_only_deal(4, {"petit_sec": "ignore"}, lambda deal: "garde" in deal["auction"])
    assert _proven_and_found(record) == (True, set())
    unplayed = _unplayed(deal)
    deal["discard"] = " ".join(sorted(unplayed, key=DECK.codes.index))
    assert _proven_and_found(record) == (True, set())
    deal["discard"] = " ".join([*sorted(unplayed)[1:], deal["tricks"][-1].split()[0]])
    proven, found = _proven_and_found(record)
    assert not proven and found


def test_a_petit_sec_the_split_leaves_open_is_the_record_path_s() -> None:
    """tarot.partial.taker: after a garde written tricks only, a taker who played or laid aside
    the Petit with few other trumps could have been dealt it sec; the record path says so in a
    note, so the columns leave the deal to it."""

    def possible(deal: dict[str, Any]) -> bool:
        record = {"format": "recordkit", "version": "1.1", "game": TAROT.name, "players": list("ABCD")}
        report = validate_record(RawRecord({**record, "deals": [deal]}, Location()))
        return any("Petit sec for seat" in finding.message for finding in report.diagnostics)

    record, _deal = _tricks_only_deal(4, {"petit_sec": "annul"}, possible)
    proven, found = _proven_and_found(record)
    assert not proven and "DEAL-NOT-CHECKED" in found
