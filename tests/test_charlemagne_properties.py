"""Charlemagne properties over generated games, both variants and every option combination:
every game replays clean, only one side scores and partners score alike, tricks hold one card per
player in the play, hand-typed spellings read as the canonical record, knocks change nothing, and
a single corrupted card, bid, discard or passed card is caught with the right code at its place."""

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
from recordkit.rules.charlemagne.bids import INDEX, LADDERS
from recordkit.rules.charlemagne.cards import DECKS
from recordkit.rules.charlemagne.options import CharlemagneOptions
from recordkit.rules.charlemagne.play import legal_mask
from recordkit.rules.charlemagne.record import CharlemagneDeal
from recordkit.rules.values import Table
from tests.budget import examples
from tests.helpers import Swap, codes_of, diagnostics_of, put_card, reported_at_swap
from tests.test_properties import option_values

PROPERTY = settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
CHARLEMAGNE = RULESETS["charlemagne"]

variants = st.sampled_from(["standard", "maine"])
seeds = st.integers(0, 2**31)
any_options = st.tuples(variants, option_values(CharlemagneOptions)).map(lambda t: {**t[1], "variant": t[0]})


def generated(seed: int, options: dict[str, Any], deals: int = 3) -> dict[str, Any]:
    """A generated Charlemagne record as a canonical JSON value (a fresh copy each time)."""
    record = generate_record(CHARLEMAGNE, 4, deals, seed, options, player="random")
    return copy.deepcopy(orjson.loads(orjson.dumps(to_data(record))))


def table_of(data: dict[str, Any]) -> Table:
    options = CharlemagneOptions.model_validate(data["options"])
    return Table(options, 4, DECKS[options.variant])


def final_states(data: dict[str, Any]) -> list[Any]:
    """Each deal's state at the end of its replay."""
    table = table_of(data)
    states = []
    for raw in data["deals"]:
        *_, (_, _, state) = steps(CHARLEMAGNE, table, CharlemagneDeal.model_validate(raw))
        states.append(state)
    return states


@PROPERTY
@given(seeds, any_options)
def test_generated_games_replay_clean(seed: int, options: dict[str, Any]) -> None:
    """Every game the generator plays through the rules validates with no diagnostic at all."""
    assert codes_of(generated(seed, options)) == []


@PROPERTY
@given(seeds, any_options)
def test_one_side_scores_and_partners_score_alike(seed: int, options: dict[str, Any]) -> None:
    """charlemagne.score.*: in each deal only one partnership scores, both partners the same, and
    only a value of the contract table."""
    data = generated(seed, options)
    target = data["options"]["maine_target"] if data["options"]["variant"] == "maine" else 32
    values = {
        "standard": {0, 5, 6, 7, 8, 15, 16, 30, 32},
        "maine": {0, 5, 6, 7, 8, target},
    }[data["options"]["variant"]]
    for deal in data["deals"]:
        s = deal["result"]["scores"]
        assert s[0] == s[2] and s[1] == s[3]
        assert min(s[0], s[1]) == 0
        assert s[0] in values and s[1] in values


@PROPERTY
@given(seeds, any_options)
def test_every_card_is_accounted_for(seed: int, options: dict[str, Any]) -> None:
    """charlemagne.trick.size, charlemagne.lone.out: each trick has one card per player in the play;
    tricks, discards, the unused kitty and the hands set aside hold the whole deck exactly once."""
    data = generated(seed, options)
    deck_size = 34 if data["options"]["variant"] == "standard" else 32
    for state in final_states(data):
        if state.bidder is None:
            continue
        players = state.active_count()
        assert all(len(trick.cards) == players for trick in state.tricks)
        assert len(state.tricks) == 8 or state.claim is not None
        played = [card for trick in state.tricks for card in trick.cards]
        seen = played + list(_ids(state.discard | state.defender_discard))
        if not state.kitty_taken:
            seen += _ids(state.kitty)
        for seat in range(4):
            seen += _ids(state.hands[seat])  # out-of-play hands, and cards left after a claim
        assert sorted(seen) == list(range(deck_size))


def _ids(mask: int) -> list[int]:
    return [c for c in range(mask.bit_length()) if mask >> c & 1]


# --- spellings -------------------------------------------------------------------------------------

CALL_SPELLINGS = {
    "5": ["five", "Five"],
    "6": ["six"],
    "7": ["seven", "SEVEN"],
    "8": ["eight"],
    "mulot": ["Mulot"],
    "charlemagne": ["Petit Charles", "CHARLEMAGNE"],
    "gros_mulot": ["gros mulot", "Gros-Mulot"],
    "gros_charlemagne": ["Gros Charlemagne"],
    "le_petit": ["le petit", "Le Petit"],
    "high_card_no_trump": ["High Card No Trump", "hcnt"],
    "pass": ["Pass", "passe", "p"],
}
SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def respell_call(call: str, rng: Any) -> str:
    """The same call the way people say it: words for numbers and suits, any case."""
    if call in CALL_SPELLINGS:
        return str(rng.choice(CALL_SPELLINGS[call]))
    if len(call) == 2 and call[0].isdigit():  # Maine "5H"
        return f"{call[0]} {SUIT_WORDS[call[1]]}" if rng.random() < 0.5 else call.lower()
    if call.startswith("charlemagne "):
        parts = call.split()
        return " ".join(["Charlemagne", SUIT_WORDS[parts[1]], *parts[2:]])
    return call.upper()


def respell_answer(answer: str | dict[str, Any], rng: Any) -> str | dict[str, Any]:
    """A defender's answer in capitals, or in object form with its seat."""
    if isinstance(answer, dict):
        return {**answer, "call": answer["call"].upper()}
    return answer.upper() if rng.random() < 0.5 else {"call": answer}


def respell_cards(text: str, rng: Any) -> str:
    """The same cards: T for 10, lower case."""
    out = []
    for code in text.split():
        if code.endswith("10") and rng.random() < 0.5:
            code = code[0] + "T"
        out.append(code.lower() if rng.random() < 0.4 else code)
    return " ".join(out)


@PROPERTY
@given(seeds, any_options, st.randoms(use_true_random=False))
def test_hand_written_spellings_parse_to_the_canonical_record(
    seed: int, options: dict[str, Any], rng: Any
) -> None:
    """charlemagne.auction.calls: aliases, words, lower case and lists read as the canonical record."""
    data = generated(seed, options, deals=2)
    canonical = loads(orjson.dumps(data))
    for deal in data["deals"]:
        deal["hands"] = [
            respell_cards(h, rng).split() if rng.random() < 0.5 else respell_cards(h, rng)
            for h in deal["hands"]
        ]
        deal["auction"] = [respell_call(c, rng) for c in deal["auction"]]
        deal["tricks"] = [
            {"cards": respell_cards(t, rng)} if rng.random() < 0.3 else respell_cards(t, rng)
            for t in deal["tricks"]
        ]
        if "trump" in deal:
            deal["trump"] = SUIT_WORDS[deal["trump"]] if rng.random() < 0.5 else deal["trump"].lower()
        if "discard" in deal:
            deal["discard"] = respell_cards(deal["discard"], rng)
        if "defence" in deal:
            deal["defence"] = [respell_answer(answer, rng) for answer in deal["defence"]]
    assert loads(orjson.dumps(data)) == canonical


# --- knocks --------------------------------------------------------------------------------------


@PROPERTY
@given(seeds, any_options, st.data())
def test_knocks_change_nothing(seed: int, options: dict[str, Any], data: st.DataObject) -> None:
    """charlemagne.play.knock: knocks at any place of the play, by a player whose partner is in
    the play too, leave the record clean; one after the last trick's place is reported as
    misplaced, one by a lone hand or its partner as from a seat that may not knock."""
    record = generated(seed, options, deals=2)
    played = [index for index, deal in enumerate(record["deals"]) if deal["tricks"]]
    if not played:
        return
    index = data.draw(st.sampled_from(played))
    state = final_states(record)[index]
    deal = record["deals"][index]
    tricks = deal["tricks"]
    places = [
        (t + 1, after) for t, trick in enumerate(tricks) for after in range(len(trick_codes(trick)) + 1)
    ]
    chosen = data.draw(st.lists(st.sampled_from(places), min_size=1, max_size=4))
    allowed = [seat for seat in range(4) if state.active(seat) and state.active(state.partner(seat))]
    barred = [seat for seat in range(4) if seat not in allowed]
    if allowed:
        seats = st.sampled_from(allowed)
        deal["knocks"] = [{"seat": data.draw(seats), "trick": t, "after": a} for t, a in chosen]
        assert codes_of(record) == []
    if barred:
        deal["knocks"] = [{"seat": data.draw(st.sampled_from(barred)), "trick": 1, "after": 0}]
        assert codes_of(record) == ["CHARLEMAGNE-KNOCK-SEAT"]
    deal["knocks"] = [{"seat": 0, "trick": len(tricks) + 1, "after": 0}]
    assert codes_of(record) == ["CHARLEMAGNE-KNOCK-PLACE"]


# --- single corruptions -------------------------------------------------------------------------


@PROPERTY
@given(seeds, any_options, st.data())
def test_an_illegal_card_is_caught_where_it_was_played(
    seed: int, options: dict[str, Any], data: st.DataObject
) -> None:
    """charlemagne.play.follow / joker-void / joker-led: a player plays, instead of his card, one of his
    cards that was not legal there; it is reported at that trick and card."""
    record = generated(seed, options, deals=2)
    candidates = illegal_swaps(record)
    if not candidates:
        return
    found = reported_at_swap(record, data.draw(st.sampled_from(candidates)))
    assert found, "the illegal card was not reported"
    assert found[0].code in {"CHARLEMAGNE-REVOKE", "CHARLEMAGNE-JOKER-DUTY", "CHARLEMAGNE-JOKER-CALLED"}


def illegal_swaps(record: dict[str, Any]) -> list[Swap]:
    """Places where the player to play held a card that was illegal there, and where he played it later."""
    table = table_of(record)
    deck = table.deck
    found: list[Swap] = []
    for deal_index, raw in enumerate(record["deals"]):
        deal = CharlemagneDeal.model_validate(raw)
        place = {
            code: (t, p) for t, trick in enumerate(deal.tricks) for p, code in enumerate(trick_codes(trick))
        }
        actions, _ = CHARLEMAGNE.compile(table, deal)
        state, _ = CHARLEMAGNE.start(table, deal)
        for action in actions:
            if action.kind == "play" and state.current is not None and state.current.cards and state.checked:
                hand = state.hands[state.to_play()]
                illegal = hand & ~legal_mask(state.ctx, hand, state.current.cards)
                if illegal:
                    card = deck.codes[(illegal & -illegal).bit_length() - 1]
                    if card in place:
                        trick, position = len(state.tricks), len(state.current.cards)
                        found.append(
                            (deal_index, trick, position, card, deck.codes[action.value], place[card])
                        )
            if action.seat is None and action.kind != "play":
                turn = CHARLEMAGNE.turn(state)
                action.seat = turn.seat if turn is not None else None
            CHARLEMAGNE.advance(state, action)
    return found


@PROPERTY
@given(seeds, any_options, st.data())
def test_an_unknown_card_code_is_caught(seed: int, options: dict[str, Any], data: st.DataObject) -> None:
    """format.cards: a misspelt card anywhere in the tricks is reported as CARD-UNKNOWN at its place."""
    record = generated(seed, options, deals=1)
    tricks = record["deals"][0]["tricks"]
    if not tricks:
        return
    trick = data.draw(st.integers(0, len(tricks) - 1))
    position = data.draw(st.integers(0, len(trick_codes(tricks[trick])) - 1))
    bad = data.draw(st.sampled_from(["S6", "HZ", "X3", "D11", "T5"]))
    put_card(tricks, trick, position, bad)
    found = diagnostics_of(record)
    assert [d.code for d in found] == ["CARD-UNKNOWN"]
    assert (found[0].location.trick, found[0].location.position) == (trick + 1, position + 1)


@PROPERTY
@given(seeds, any_options, st.data())
def test_a_bid_not_higher_is_caught(seed: int, options: dict[str, Any], data: st.DataObject) -> None:
    """charlemagne.auction.higher: a non-dealer's call changed to a bid no higher than the highest before it."""
    record = generated(seed, options, deals=3)
    variant = record["options"]["variant"]
    ladder = LADDERS[variant]
    places = []
    for d, deal in enumerate(record["deals"]):
        for i in range(1, 3):  # the second and third calls: never the dealer's
            highest = max((ladder[INDEX[variant][c]].level for c in deal["auction"][:i]), default=0)
            if highest:
                places.append((d, i, highest))
    if not places:
        return
    deal_index, call, highest = data.draw(st.sampled_from(places))
    lower = [b.name for b in ladder if 0 < b.level <= highest]
    record["deals"][deal_index]["auction"][call] = data.draw(st.sampled_from(lower))
    assert "CHARLEMAGNE-BID-NOT-HIGHER" in codes_of(record)


@PROPERTY
@given(seeds, any_options, st.data())
def test_a_short_discard_is_caught(seed: int, options: dict[str, Any], data: st.DataObject) -> None:
    """charlemagne.exchange.discard-size: one card taken out of a discard is reported."""
    record = generated(seed, options, deals=3)
    places = [
        (d, field)
        for d, deal in enumerate(record["deals"])
        for field in ("discard", "defender_discard")
        if field in deal
    ]
    if not places:
        return
    deal_index, field = data.draw(st.sampled_from(places))
    deal = record["deals"][deal_index]
    cards = deal[field].split()
    deal[field] = " ".join(cards[:-1])
    assert "CHARLEMAGNE-DISCARD-SIZE" in codes_of(record)


@PROPERTY
@given(seeds, any_options, st.data())
def test_a_passed_card_not_held_is_caught(seed: int, options: dict[str, Any], data: st.DataObject) -> None:
    """charlemagne.exchange.held: the partner's card changed to a card the partner does not hold."""
    record = generated(seed, options, deals=3)
    places = [
        (d, f)
        for d, deal in enumerate(record["deals"])
        for f in ("partner_card", "defender_card")
        if f in deal
    ]
    if not places:
        return
    deal_index, field = data.draw(st.sampled_from(places))
    deal = record["deals"][deal_index]
    state = final_states({**record, "deals": [deal]})[0]
    receiver = state.bidder if field == "partner_card" else state.defender
    giver_hand = deal["hands"][(receiver + 2) % 4].split()
    others = [c for h in deal["hands"][:] for c in h.split() if c not in giver_hand]
    deal[field] = data.draw(st.sampled_from(others))
    assert "CHARLEMAGNE-CARD-NOT-HELD" in codes_of(record)
