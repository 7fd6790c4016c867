"""Joffre properties over generated games, for 3 and 4 players and every option: games replay clean,
trick points add up, partners score alike, hand-typed spellings read as the canonical record, and a
single corrupted card or bid is caught with the right code at the right place."""

from __future__ import annotations

import copy
from typing import Any

import orjson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recordkit.codec import loads
from recordkit.engine import steps
from recordkit.games import RULESETS
from recordkit.generate import generate_record
from recordkit.model import to_data, trick_codes
from recordkit.quick import clean_deals
from recordkit.rules.joffre.cards import cards_for
from recordkit.rules.joffre.options import JoffreOptions
from recordkit.rules.joffre.play import legal_mask
from recordkit.rules.joffre.record import JoffreDeal, bid_value
from recordkit.rules.values import Table
from tests.budget import examples
from tests.helpers import Swap, codes_of, diagnostics_of, put_card, reported_at_swap
from tests.test_properties import option_values

PROPERTY = settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
JOFFRE = RULESETS["joffre"]

players = st.sampled_from([3, 4])
seeds = st.integers(0, 2**31)
joffre_options = st.tuples(
    option_values(JoffreOptions),
    st.fixed_dictionaries(
        {}, optional={"min_bid": st.integers(1, 8), "target": st.sampled_from([10, 25, 40])}
    ),
).map(lambda parts: {**parts[0], **parts[1]})


def generated(n: int, seed: int, deals: int = 3, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """A generated Joffre record as a canonical JSON value, or {} if the options do not fit n players."""
    try:
        record = generate_record(JOFFRE, n, deals, seed, options, player="random")
    except ValueError:
        return {}
    return copy.deepcopy(orjson.loads(orjson.dumps(to_data(record))))


def table_of(data: dict[str, Any]) -> Table:
    """The table of a generated record."""
    n = len(data["players"])
    return Table(JoffreOptions.model_validate(data["options"]), n, cards_for(n).deck)


@PROPERTY
@given(players, seeds, joffre_options)
def test_generated_games_replay_clean(n: int, seed: int, options: dict[str, Any]) -> None:
    """Every game the generator plays, under every option, validates with no diagnostic at all."""
    data = generated(n, seed, deals=4, options=options)
    if data:
        assert codes_of(data) == []


@PROPERTY
@given(players, seeds, joffre_options)
def test_trick_points_add_up_and_partners_score_alike(n: int, seed: int, options: dict[str, Any]) -> None:
    """joffre.score.*: the tricks of a played deal are worth tricks + 5 - 3 in all (10 at four
    players, 12 at three); in team play partners write the same score; a deal nobody bid scores 0."""
    data = generated(n, seed, options=options)
    if not data:
        return
    table = table_of(data)
    for raw in data["deals"]:
        deal = JoffreDeal.model_validate(raw)
        scores = raw["result"]["scores"]
        if not deal.tricks:
            assert scores == [0] * n
            continue
        *_, (_, _, state) = steps(JOFFRE, table, deal)
        assert sum(JOFFRE.trick_points(trick) for trick in state.tricks) == {4: 10, 3: 12}[n]
        if data["options"]["mode"] == "teams":
            assert scores[0] == scores[2] and scores[1] == scores[3]


PACK = {"E": "D", "F": "H", "R": "C", "G": "S"}
PACK_RANKS = "789TJQKA"


def respell(text: str, rng: Any) -> str:
    """The same cards as people type them: lower case, or standard-pack codes (F7 = HA, G0 = S7)."""
    out = []
    for code in text.split():
        choice = rng.random()
        if choice < 0.3:
            out.append(code.lower())
        elif choice < 0.6:
            out.append(PACK[code[0]] + PACK_RANKS[int(code[1])])
        else:
            out.append(code)
    return " ".join(out)


@PROPERTY
@given(players, seeds, st.randoms(use_true_random=False))
def test_hand_written_spellings_parse_to_the_canonical_record(n: int, seed: int, rng: Any) -> None:
    """joffre.deck, joffre.bid.calls: aliases, lower case, lists and object forms read as the canonical record."""
    data = generated(n, seed, deals=1, options={"allow_no_trump": True})
    canonical = loads(orjson.dumps(data))
    deal = data["deals"][0]
    deal["hands"] = [
        respell(h, rng).split() if rng.random() < 0.5 else respell(h, rng) for h in deal["hands"]
    ]
    deal["tricks"] = [
        {"cards": respell(t, rng)} if rng.random() < 0.3 else respell(t, rng).split() for t in deal["tricks"]
    ]
    deal["auction"] = [
        {"call": call.replace(" no trump", "nt").upper()} if rng.random() < 0.5 else call
        for call in deal["auction"]
    ]
    assert loads(orjson.dumps(data)) == canonical


# --- single corruptions -------------------------------------------------------------------------


def illegal_swaps(record: dict[str, Any]) -> list[Swap]:
    """Places where the player to play held a card he could not play there, and where he played it later."""
    table = table_of(record)
    cards = cards_for(table.players)
    found: list[Swap] = []
    for deal_index, raw in enumerate(record["deals"]):
        deal = JoffreDeal.model_validate(raw)
        place = {
            code: (t, p) for t, trick in enumerate(deal.tricks) for p, code in enumerate(trick_codes(trick))
        }
        actions, _ = JOFFRE.compile(table, deal)
        state, _ = JOFFRE.start(table, deal)
        for action in actions:
            if action.kind == "play" and state.current is not None:
                hand = state.hands[state.to_play()]
                illegal = hand & ~legal_mask(cards, hand, state.current.cards)
                if illegal:
                    card = cards.deck.codes[(illegal & -illegal).bit_length() - 1]
                    trick, position = len(state.tricks), len(state.current.cards)
                    original = cards.deck.codes[action.value]
                    found.append((deal_index, trick, position, card, original, place[card]))
            JOFFRE.advance(state, action)
    return found


@PROPERTY
@given(players, seeds, joffre_options, st.data())
def test_a_revoke_is_caught_where_it_was_played(
    n: int, seed: int, options: dict[str, Any], data: st.DataObject
) -> None:
    """joffre.play.follow: a player plays, instead of his card, a card of another nation while he
    held the nation led (and plays his card later instead); the first report there is JOFFRE-REVOKE."""
    record = generated(n, seed, deals=2, options=options)
    candidates = illegal_swaps(record) if record else []
    if not candidates:
        return
    found = reported_at_swap(record, data.draw(st.sampled_from(candidates)))
    assert found, "the revoke was not reported"
    assert found[0].code == "JOFFRE-REVOKE"
    assert found[0].rule == "joffre.play.follow"


@PROPERTY
@given(players, seeds, st.data())
def test_an_unknown_card_code_is_caught(n: int, seed: int, data: st.DataObject) -> None:
    """joffre.deck / joffre.deck.three: a misspelt card in a trick (E0 or R0 at three players) is
    reported as CARD-UNKNOWN at its place."""
    record = generated(n, seed, deals=1)
    tricks = record["deals"][0]["tricks"]
    trick = data.draw(st.integers(0, len(tricks) - 1))
    position = data.draw(st.integers(0, n - 1))
    wrong = ["E8", "X0", "F", "G10"] + (["E0", "R0"] if n == 3 else [])
    put_card(tricks, trick, position, data.draw(st.sampled_from(wrong)))
    found = diagnostics_of(record)
    assert [d.code for d in found] == ["CARD-UNKNOWN"]
    assert (found[0].location.trick, found[0].location.position) == (trick + 1, position + 1)


@PROPERTY
@given(players, seeds, joffre_options, st.data())
def test_a_bid_not_higher_is_caught(n: int, seed: int, options: dict[str, Any], data: st.DataObject) -> None:
    """joffre.bid.higher: a call changed to a bid no higher than the highest before it is reported there."""
    record = generated(n, seed, deals=3, options=options)
    if not record:
        return
    opts = JoffreOptions.model_validate(record["options"])
    places = []
    for d, deal in enumerate(record["deals"]):
        for i in range(1, len(deal["auction"])):
            values = [bid_value(c) or 0 for c in deal["auction"][:i]]
            highest = max(values)
            dealer_speaks = (deal["dealer"] + 1 + i) % n == deal["dealer"]
            for number in range(opts.min_bid, highest // 2 + 1):
                if 2 * number < highest or not (dealer_speaks and opts.dealer_may_equal):
                    places.append((d, i, str(number)))
    if not places:
        return
    deal_index, call, bid = data.draw(st.sampled_from(places))
    record["deals"][deal_index]["auction"][call] = bid
    found = [
        d for d in diagnostics_of(record) if d.location.deal == deal_index + 1 and d.rule != "format.hint"
    ]
    assert found[0].code == "JOFFRE-BID-NOT-HIGHER"
    assert found[0].location.path == f"deals[{deal_index}].auction[{call}]"


@PROPERTY
@given(players, seeds, joffre_options, st.data())
def test_a_wrong_score_is_caught(n: int, seed: int, options: dict[str, Any], data: st.DataObject) -> None:
    """joffre.score: one seat's score changed on the sheet (the totals carried along) is SCORE-MISMATCH."""
    record = generated(n, seed, deals=3, options=options)
    if not record:
        return
    deal_index = data.draw(st.integers(0, len(record["deals"]) - 1))
    seat = data.draw(st.integers(0, n - 1))
    delta = data.draw(st.sampled_from([-5, -3, -1, 1, 3, 5]))
    record["deals"][deal_index]["result"]["scores"][seat] += delta
    for later in record["deals"][deal_index:]:
        later["totals"][seat] += delta
    codes = {d.code for d in diagnostics_of(record) if d.location.deal == deal_index + 1}
    assert "SCORE-MISMATCH" in codes


# --- the fast path ------------------------------------------------------------------------------


@PROPERTY
@given(players, seeds, joffre_options)
def test_generated_games_take_the_fast_path(n: int, seed: int, options: dict[str, Any]) -> None:
    """Every game the generator plays, under every option, min_bid and target, is proven clean by
    the fast path (`joffre.quick`) without the full replay."""
    data = generated(n, seed, deals=4, options=options)
    if data:
        assert clean_deals(data) == len(data["deals"])


CAPPED = {"opponent_cap": "kaiser47", "target": 100}
"""Seed 22 at three players: in deal 11 seat 0, at 49 and not bidding, keeps 0 of his 7 (the cap)."""


def test_kaiser_cap_on_the_fast_path() -> None:
    """joffre.score.cap: the fast path caps the deal from the running totals before it, as the full
    replay does; a sheet that writes the deal uncapped, its totals carried along so that totals
    less scores would tell another 'before', is caught."""
    data = generated(3, 22, deals=12, options=CAPPED)
    assert clean_deals(data) == 12
    assert data["deals"][10]["result"]["scores"] == [0, 3, 2]
    assert data["deals"][9]["totals"][0] == 49
    uncapped = copy.deepcopy(data)
    uncapped["deals"][10]["result"]["scores"][0] = 7
    for later in uncapped["deals"][10:]:
        later["totals"][0] += 7
    assert clean_deals(uncapped) is None
    assert "SCORE-MISMATCH" in codes_of(uncapped)


def test_kaiser_cap_without_totals_takes_the_running_totals() -> None:
    """joffre.score.cap: with a deal's totals left out, the totals before the next deal are still
    the running totals, which the fast path is given as the full replay is: the capped deal is
    proven clean on the fast path, the same deal written uncapped is reported."""
    data = generated(3, 22, deals=12, options=CAPPED)
    del data["deals"][10]["totals"]
    assert clean_deals(data) == 12
    assert codes_of(data) == []
    data["deals"][10]["result"]["scores"][0] = 7
    for later in data["deals"][11:]:
        later["totals"][0] += 7
    assert codes_of(data) == ["SCORE-MISMATCH"]
