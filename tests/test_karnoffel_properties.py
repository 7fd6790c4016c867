"""Karnöffel properties over generated games: every player count and option combination replays
clean and ends as the rules say, hand-typed spellings read as the canonical record, a single
corrupted card, word or suit is caught with the right code at the right place, and the fast path
(`recordkit.rules.karnoffel.quick`) accepts every generated game and no corrupted one."""

from __future__ import annotations

import copy
from typing import Any

import orjson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recordkit.codec import loads
from recordkit.games import RULESETS
from recordkit.generate import generate_record
from recordkit.model import to_data
from recordkit.quick import clean_deals
from recordkit.rules.karnoffel.options import KarnoffelOptions
from recordkit.rules.karnoffel.record import CALLS
from tests.budget import examples
from tests.helpers import codes_of, diagnostics_of
from tests.test_properties import option_values
from tests.test_quick import MANY, mutate

PROPERTY = settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
KARNOFFEL = RULESETS["karnoffel"]
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = "SCHD"

players = st.sampled_from([2, 4, 6, 8])
seeds = st.integers(0, 2**31)
options = st.tuples(
    option_values(KarnoffelOptions), st.sampled_from([11, 21, 31, 51, 101]), st.integers(1, 4)
).map(lambda drawn: {**drawn[0], "target": drawn[1], "max_total_raises": drawn[2]})
"""Every Literal and boolean option, small targets (so that the going-out cap comes into play) and
a few limits on the number of raises."""


def generated(n: int, seed: int, opts: dict[str, Any], deals: int = 4) -> dict[str, Any]:
    """A generated Karnöffel record as a canonical JSON value."""
    record = generate_record(KARNOFFEL, n, deals, seed, opts, player="random")
    return copy.deepcopy(orjson.loads(orjson.dumps(to_data(record))))


def words(deal: dict[str, Any]) -> list[str]:
    """Every word of every window, in order (canonical records write bare words)."""
    return [word for window in deal["proposals"] for word in window]


def lowest(faceup: list[str], tiebreak: str) -> str:
    """The suit letter of the lowest face-up card (ties: first dealt, or the lowest suit)."""
    rank = min(RANKS.index(code[1:]) for code in faceup)
    tied = [code for code in faceup if RANKS.index(code[1:]) == rank]
    return max(tied, key=lambda code: SUITS.index(code[0]))[0] if tiebreak == "suit_rank" else tied[0][0]


@PROPERTY
@given(players, seeds, options)
def test_generated_games_replay_clean(n: int, seed: int, opts: dict[str, Any]) -> None:
    """Every game the generator plays, at every player count and under every option, validates clean."""
    assert codes_of(generated(n, seed, opts)) == []


@PROPERTY
@given(players, seeds, options)
def test_deals_are_dealt_and_end_as_the_rules_say(n: int, seed: int, opts: dict[str, Any]) -> None:
    """karnoffel.deal.*, karnoffel.trick.early-end, karnoffel.score: the staged deal's sizes, the
    chosen suit, the Devil never opening, five tricks at most (all five with play_out), and one side
    scoring the value for each of its seats."""
    record = generated(n, seed, opts)
    settled = KarnoffelOptions.model_validate(record["options"])
    for deal in record["deals"]:
        said = words(deal)
        faceup = deal["faceup"].split()
        surrendered = "surrender" in said
        window = next((w for w, calls in enumerate(deal["proposals"], 1) if "surrender" in calls), 4)
        assert len(faceup) == (2 if window == 1 else n)
        assert [len(hand.split()) for hand in deal["hands"]] == (
            [] if window == 1 else [{2: 2}.get(window, 4)] * n
        )
        if window > 1 or n == 2:
            assert deal["chosen_suit"] == lowest(faceup, settled.chosen_suit_tiebreak)
        if surrendered:
            assert deal["tricks"] == []
        else:
            assert deal["tricks"][0].split()[0] != deal["chosen_suit"] + "7"
            assert len(deal["tricks"]) == 5 if settled.play_out else 3 <= len(deal["tricks"]) <= 5
        scores = deal["result"]["scores"]
        winners = {seat % 2 for seat in range(n) if scores[seat]}
        assert len(winners) == 1
        side = winners.pop()
        assert scores == [scores[side] if seat % 2 == side else 0 for seat in range(n)]
        assert (scores[side] - settled.base_value) % settled.raise_step == 0 and scores[
            side
        ] >= settled.base_value


@PROPERTY
@given(players, seeds, options)
def test_no_raise_once_a_side_can_go_out(n: int, seed: int, opts: dict[str, Any]) -> None:
    """karnoffel.propose.cap: a deal that starts with a side able to go out holds no raise, and a
    raise written into it is caught where it was written."""
    opts = {**opts, "raise_cap_when_game_reachable": True}
    record = generated(n, seed, opts, deals=8)
    settled = KarnoffelOptions.model_validate(record["options"])
    totals = [0] * n
    for index, deal in enumerate(record["deals"]):
        if max(totals) + settled.base_value >= settled.target:
            assert "raise" not in words(deal)
            corrupted = copy.deepcopy(record)
            corrupted["deals"][index]["proposals"] = [["raise", "accept"], *deal["proposals"][1:]]
            found = [
                d for d in diagnostics_of(corrupted) if d.location.path == f"deals[{index}].proposals[0][0]"
            ]
            assert [d.code for d in found] == ["KARNOFFEL-RAISE-CAPPED"]
            return
        totals = deal["totals"]


@PROPERTY
@given(players, seeds, options, st.data())
def test_a_devil_opening_is_caught(n: int, seed: int, opts: dict[str, Any], data: st.DataObject) -> None:
    """karnoffel.play.devil-lead: the forehand's opening card and the Devil trade places in the deal
    (both face down); the Devil's lead is reported at trick 1, card 1."""
    record = generated(n, seed, opts)
    places = []
    for index, deal in enumerate(record["deals"]):
        face_down = " ".join(deal["hands"]).split()
        if (
            deal["tricks"]
            and deal["chosen_suit"] + "7" in face_down
            and deal["tricks"][0].split()[0] in face_down
        ):
            places.append(index)
    if not places:
        return
    index = data.draw(st.sampled_from(places))
    deal = record["deals"][index]
    swap_cards(deal, deal["tricks"][0].split()[0], deal["chosen_suit"] + "7")
    found = [
        d.code
        for d in diagnostics_of(record)
        if (d.location.deal, d.location.trick, d.location.position) == (index + 1, 1, 1)
    ]
    assert found == ["KARNOFFEL-DEVIL-LEAD"]


def swap_cards(deal: dict[str, Any], one: str, other: str) -> None:
    """Two cards trade places everywhere in a deal's face-down cards and tricks."""

    def swapped(text: str) -> str:
        """A card group with the two codes exchanged."""
        return " ".join(other if code == one else one if code == other else code for code in text.split())

    deal["hands"] = [swapped(hand) for hand in deal["hands"]]
    deal["tricks"] = [swapped(trick) for trick in deal["tricks"]]


@PROPERTY
@given(players, seeds, options, st.data())
def test_a_card_not_held_is_caught_where_it_was_played(
    n: int, seed: int, opts: dict[str, Any], data: st.DataObject
) -> None:
    """karnoffel.play.held: a card played is replaced by one of the pack that nobody was dealt."""
    record = generated(n, seed, opts)
    places = [
        (d, t, p)
        for d, deal in enumerate(record["deals"])
        for t, trick in enumerate(deal["tricks"])
        for p in range(n)
    ]
    if not places:
        return
    index, trick, position = data.draw(st.sampled_from(places))
    deal = record["deals"][index]
    dealt = set(deal["faceup"].split()) | set(" ".join(deal["hands"]).split())
    deck = [s + r for s in SUITS for r in RANKS[: 13 if record["options"]["deck"] == 52 else 12]]
    stranger = data.draw(st.sampled_from([code for code in deck if code not in dealt]))
    cards = deal["tricks"][trick].split()
    cards[position] = stranger
    deal["tricks"][trick] = " ".join(cards)
    found = [
        d.code
        for d in diagnostics_of(record)
        if (d.location.deal, d.location.trick, d.location.position) == (index + 1, trick + 1, position + 1)
    ]
    assert found[:1] == ["PLAY-NOT-HELD"]


@PROPERTY
@given(players, seeds, options, st.data())
def test_an_unknown_card_code_is_caught(n: int, seed: int, opts: dict[str, Any], data: st.DataObject) -> None:
    """format.cards: a misspelt card in a trick is CARD-UNKNOWN at its place, and nothing else."""
    record = generated(n, seed, opts, deals=1)
    tricks = record["deals"][0]["tricks"]
    if not tricks:
        return
    trick = data.draw(st.integers(0, len(tricks) - 1))
    position = data.draw(st.integers(0, n - 1))
    cards = tricks[trick].split()
    cards[position] = data.draw(st.sampled_from(["H1", "S11", "ZZ", "T5", "C0"]))
    tricks[trick] = " ".join(cards)
    found = diagnostics_of(record)
    assert [(d.code, d.location.trick, d.location.position) for d in found] == [
        ("CARD-UNKNOWN", trick + 1, position + 1)
    ]


@PROPERTY
@given(players, seeds, options, st.data())
def test_a_wrong_chosen_suit_is_caught(n: int, seed: int, opts: dict[str, Any], data: st.DataObject) -> None:
    """karnoffel.deal.chosen-suit: the stated suit changed to another one, and nothing else."""
    record = generated(n, seed, opts)
    stated = [index for index, deal in enumerate(record["deals"]) if "chosen_suit" in deal]
    if not stated:
        return
    index = data.draw(st.sampled_from(stated))
    deal = record["deals"][index]
    deal["chosen_suit"] = data.draw(st.sampled_from([s for s in SUITS if s != deal["chosen_suit"]]))
    found = diagnostics_of(record)
    assert [(d.code, d.location.deal, d.location.path) for d in found] == [
        ("KARNOFFEL-CHOSEN-SUIT", index + 1, f"deals[{index}].chosen_suit")
    ]


@PROPERTY
@given(players, seeds, options)
def test_a_trick_after_the_third_is_caught(n: int, seed: int, opts: dict[str, Any]) -> None:
    """karnoffel.trick.early-end: a trick appended to a deal that a side had already won."""
    opts = {**opts, "play_out": False}
    record = generated(n, seed, opts)
    ended = [index for index, deal in enumerate(record["deals"]) if 3 <= len(deal["tricks"]) < 5]
    if not ended:
        return
    index = ended[0]
    tricks = record["deals"][index]["tricks"]
    tricks.append(tricks[0])
    found = diagnostics_of(record)
    assert [(d.code, d.location.deal, d.location.trick) for d in found] == [
        ("KARNOFFEL-PLAYED-ON", index + 1, len(tricks))
    ]


@PROPERTY
@given(players, seeds, options, st.data())
def test_a_missing_answer_is_caught(n: int, seed: int, opts: dict[str, Any], data: st.DataObject) -> None:
    """karnoffel.propose.answer: an 'accept' turned into 'pass' is no answer to the raise."""
    record = generated(n, seed, opts)
    places = [
        (d, w, i)
        for d, deal in enumerate(record["deals"])
        for w, window in enumerate(deal["proposals"])
        for i, word in enumerate(window)
        if word == "accept"
    ]
    if not places:
        return
    index, window, position = data.draw(st.sampled_from(places))
    record["deals"][index]["proposals"][window][position] = "pass"
    path = f"deals[{index}].proposals[{window}][{position}]"
    assert [d.code for d in diagnostics_of(record) if d.location.path == path] == [
        "KARNOFFEL-ANSWER-EXPECTED"
    ]


@PROPERTY
@given(players, seeds, options, st.data())
def test_a_wrong_written_winner_is_caught(
    n: int, seed: int, opts: dict[str, Any], data: st.DataObject
) -> None:
    """karnoffel.trick.winner: of the n seats a trick object may name as its winner, exactly one
    passes; every other is reported at that trick."""
    record = generated(n, seed, opts, deals=2)
    places = [(d, t) for d, deal in enumerate(record["deals"]) for t in range(len(deal["tricks"]))]
    if not places:
        return
    index, trick = data.draw(st.sampled_from(places))
    cards = record["deals"][index]["tricks"][trick]
    verdicts = []
    for seat in range(n):
        record["deals"][index]["tricks"][trick] = {"cards": cards, "winner": seat}
        verdicts.append([(d.code, d.location.trick) for d in diagnostics_of(record)])
    assert sorted(verdicts) == [[]] + [[("PLAY-WINNER-MISMATCH", trick + 1)]] * (n - 1)


@PROPERTY
@given(players, seeds, st.randoms(use_true_random=False))
def test_hand_written_spellings_parse_to_the_canonical_record(n: int, seed: int, rng: Any) -> None:
    """Lower case, T for 10, lists for strings, word aliases and object forms read as the canonical record."""
    data = generated(n, seed, {}, deals=2)
    canonical = loads(orjson.dumps(data))
    aliases = {
        "raise": ["propose", "Raise", "counter"],
        "surrender": ["refuse", "fold"],
        "accept": ["ACCEPT"],
    }
    for deal in data["deals"]:
        deal["faceup"] = [code.lower() for code in deal["faceup"].split()]
        deal["hands"] = [hand.replace("10", "T") for hand in deal["hands"]]
        deal["tricks"] = [
            {"cards": trick.lower()} if rng.random() < 0.5 else trick.split() for trick in deal["tricks"]
        ]
        deal["proposals"] = [
            [
                rng.choice(aliases.get(word, [word])) if rng.random() < 0.7 else {"call": word}
                for word in window
            ]
            for window in deal["proposals"]
        ]
        if "chosen_suit" in deal:
            deal["chosen_suit"] = {"S": "spades", "C": "♣", "H": "h", "D": "Diamonds"}[deal["chosen_suit"]]
    assert loads(orjson.dumps(data)) == canonical


# --- the fast path ------------------------------------------------------------------------------


@PROPERTY
@given(players, seeds, options)
def test_generated_games_take_the_fast_path(n: int, seed: int, opts: dict[str, Any]) -> None:
    """Every generated game, at every player count and under every option (small targets, so that
    the going-out cap comes into play), is proven clean on the fast path."""
    record = generated(n, seed, opts)
    assert clean_deals(record) == len(record["deals"])


@MANY
@given(players, seeds, options, st.data())
def test_no_single_change_slips_through_the_fast_path(
    n: int, seed: int, opts: dict[str, Any], data: st.DataObject
) -> None:
    """Up to three changes anywhere in a generated record (`tests.test_quick.mutate`): `codes_of`
    fails if the fast path accepts what the full replay reports."""
    record = generated(n, seed, opts)
    for _ in range(3):
        mutate(record, data, KARNOFFEL)
        codes_of(record)


@MANY
@given(players, seeds, options, st.data())
def test_no_changed_word_seat_or_claim_slips_through_the_fast_path(
    n: int, seed: int, opts: dict[str, Any], data: st.DataObject
) -> None:
    """Karnöffel's own places to go wrong, one to three at a time: a word said, moved or dropped, a
    seat written for a word, a trick's stated leader or winner, a deal's totals left out (the scores
    before it, for the going-out cap, are then the running totals alone), a quiet window added."""
    record = generated(n, seed, opts)
    for _ in range(data.draw(st.integers(1, 3))):
        deal = data.draw(st.sampled_from(record["deals"]))
        change = data.draw(st.sampled_from(["word", "seat", "claim", "no totals", "window"]))
        windows = deal.setdefault("proposals", [])
        if change == "claim" and deal["tricks"]:
            index = data.draw(st.integers(0, len(deal["tricks"]) - 1))
            trick = deal["tricks"][index]
            cards = trick["cards"] if isinstance(trick, dict) else trick
            key = data.draw(st.sampled_from(["leader", "winner"]))
            deal["tricks"][index] = {"cards": cards, key: data.draw(st.integers(0, n - 1))}
        elif change == "no totals":
            deal.pop("totals", None)
        elif change == "window" and len(windows) < 3:
            windows.insert(data.draw(st.integers(0, len(windows))), [])
        elif windows and any(windows):
            window = data.draw(st.sampled_from([window for window in windows if window]))
            place = data.draw(st.integers(0, len(window) - 1))
            word = window[place] if isinstance(window[place], str) else window[place]["call"]
            if change == "seat":
                window[place] = {"call": word, "seat": data.draw(st.integers(0, n - 1))}
            elif data.draw(st.booleans()):
                window[place] = data.draw(st.sampled_from(CALLS))
            else:
                del window[place]
        codes_of(record)
