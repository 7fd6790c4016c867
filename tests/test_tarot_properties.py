"""French Tarot properties over generated games: every variant replays clean, card points total 91,
hand-typed spellings read as the canonical record, and a single corrupted card or call is caught."""

from __future__ import annotations

from typing import Any

import orjson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recordkit.cards import ids_of
from recordkit.codec import loads
from recordkit.engine import steps
from recordkit.model import trick_codes
from recordkit.rules.french_tarot.cards import DECK, EXCUSE, TRUMP_SUIT, suit_of
from recordkit.rules.french_tarot.options import TarotOptions
from recordkit.rules.french_tarot.play import legal_mask, play_trick, winning_index
from recordkit.rules.french_tarot.quick import SEAT_ORDERS
from recordkit.rules.french_tarot.record import BIDS, TarotDeal
from recordkit.rules.french_tarot.scoring import excuse_wins
from recordkit.rules.french_tarot.state import Phase
from recordkit.rules.values import PlayedTrick, Table
from tests.budget import examples
from tests.helpers import (
    TAROT,
    Swap,
    codes_of,
    diagnostics_of,
    generated,
    put_card,
    reported_at_swap,
    swap_in,
)
from tests.test_properties import option_values

PROPERTY = settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])

tarot_options = option_values(TarotOptions)
players = st.sampled_from([3, 4, 5])
seeds = st.integers(0, 2**31)


@PROPERTY
@given(players, seeds, tarot_options)
def test_generated_games_replay_clean(n: int, seed: int, options: dict[str, Any]) -> None:
    """Every game the generator plays through the rules validates with no diagnostic at all."""
    assert codes_of(generated(n, seed, options=options)) == []


@PROPERTY
@given(players, seeds, tarot_options)
def test_scores_are_zero_sum_and_card_points_total_91(n: int, seed: int, options: dict[str, Any]) -> None:
    """tarot.score.split: every deal's scores sum to zero; tricks and dog (or discard) hold 91 points."""
    data = generated(n, seed, options=options)
    table = table_of(data)
    for raw in data["deals"]:
        assert sum(raw["result"]["scores"]) == 0
        deal = TarotDeal.model_validate(raw)
        if not deal.tricks:
            continue
        *_, (_, _, state) = steps(TAROT, table, deal)
        set_aside = TAROT.trick_points(PlayedTrick(0, DECK.cards(deal.discard or deal.dog)))
        assert sum(TAROT.trick_points(trick) for trick in state.tricks) + set_aside == 91


def winner_by_rank(trick: list[int]) -> int:
    """tarot.trick.winner read straight from the rule: the highest trump, else the highest card
    of the suit led (the Excuse never wins by rank); the position in the trick."""
    trumps = [card for card in trick if suit_of(card) == TRUMP_SUIT]
    suits = [suit_of(card) for card in trick if card != EXCUSE]
    led = [card for card in trick if suits and suit_of(card) == suits[0]]
    return trick.index(max(trumps or led))


@PROPERTY
@given(players, seeds, tarot_options)
def test_the_trick_played_as_numbers_agrees_with_the_whole_trick(
    n: int, seed: int, options: dict[str, Any]
) -> None:
    """tarot.play.follow .. excuse and tarot.trick.winner: at every card of every deal, `play_trick`
    takes from the hand exactly the cards `legal_mask` allows on the trick so far, and the card
    winning by rank is the one the rule's text names."""
    data = generated(n, seed, options=options)
    table = table_of(data)
    for raw in data["deals"]:
        deal = TarotDeal.model_validate(raw)
        for action, _problems, state in steps(TAROT, table, deal):
            trick = state.current
            if action is None or action.kind != "play" or trick is None or state.phase != Phase.PLAY:
                continue
            if len(trick.cards) < n:
                seat = state.to_play()
                hand = state.hands[seat]
                legal = legal_mask(hand, trick.cards)
                for card in ids_of(hand):
                    taken = play_trick(
                        list(state.hands), [*trick.seats, seat], [*trick.cards, card], len(trick.cards)
                    )
                    assert (taken >= 0) == bool(legal >> card & 1)
            if trick.cards:
                assert trick.cards == [EXCUSE] or winning_index(trick.cards) == winner_by_rank(trick.cards)
            if (
                state.tricks
                and len(state.tricks[-1].cards) == n
                and not excuse_wins(state, len(state.tricks) - 1, state.tricks[-1])
            ):
                last = state.tricks[-1]
                assert last.winner == last.seats[winner_by_rank(last.cards)]


@settings(max_examples=examples(600), deadline=None)
@given(st.sampled_from([3, 4, 5]), st.randoms(use_true_random=False), st.integers(0, 4))
def test_the_fast_paths_trick_loop_agrees_with_the_rules(n: int, rng: Any, legal_cards: int) -> None:
    """tarot.play.* and tarot.trick.winner: the one-loop trick both replays play (`play_trick`)
    refuses a trick exactly when a card is not legal by `legal_mask` for the hand and the trick so
    far, and otherwise names the card `winner_by_rank` names, as `winning_index` does on any trick. Hands are dealt at random (of random sizes) and the
    first `legal_cards` cards are chosen among the legal ones (so most tricks get far), the rest
    at random from the hand
    (half the time from its trumps, where the overtrumping rules bite)."""
    cards = list(range(len(DECK)))
    rng.shuffle(cards)
    size = len(cards) // n
    hands = [  # of 1 to a full hand of cards: short hands are often void in a suit
        sum(1 << card for card in cards[seat * size : seat * size + rng.randint(1, size)])
        for seat in range(n)
    ]
    leader = rng.randrange(n)
    seats = SEAT_ORDERS[n][leader]
    trick: list[int] = []
    expected_legal = True
    for position, seat in enumerate(seats):
        held = ids_of(hands[seat])
        legal = ids_of(legal_mask(hands[seat], trick))
        trumps = [card for card in held if suit_of(card) == TRUMP_SUIT]
        card = rng.choice(
            legal if position < legal_cards else trumps if trumps and rng.random() < 0.5 else held
        )
        expected_legal = expected_legal and card in legal
        trick.append(card)
    position = play_trick(list(hands), seats, trick)
    by_rank = 0 if trick == [EXCUSE] else winner_by_rank(trick)
    if not expected_legal:
        assert position == -1
    else:
        assert position == by_rank
    for length in range(1, n + 1):  # the full replay's winner, on every trick so far, legal or not
        assert winning_index(trick[:length]) == play_trick([], (), trick[:length], length)
    assert winning_index(trick) == by_rank


def orjson_text(data: dict[str, Any]) -> str:
    return orjson.dumps(data).decode()


def table_of(data: dict[str, Any]) -> Table:
    return Table(TarotOptions.model_validate(data["options"]), len(data["players"]), DECK)


@PROPERTY
@given(players, seeds, st.randoms(use_true_random=False))
def test_hand_written_spellings_parse_to_the_canonical_record(n: int, seed: int, rng: Any) -> None:
    """Aliases, lower case, lists instead of strings and object forms all read as the canonical record."""
    data = generated(n, seed, deals=1)
    canonical = loads(orjson_text(data))
    deal = data["deals"][0]
    deal["hands"] = [
        respell(hand, rng).split() if rng.random() < 0.5 else respell(hand, rng) for hand in deal["hands"]
    ]
    deal["tricks"] = [
        {"cards": respell(trick, rng)} if rng.random() < 0.3 else respell(trick, rng).split()
        for trick in deal["tricks"]
    ]
    deal["auction"] = [{"call": call.upper()} if rng.random() < 0.5 else call for call in deal["auction"]]
    assert loads(orjson_text(data)) == canonical


ALIASES = {"K": ["R", "k"], "Q": ["D", "q"], "N": ["C", "n"], "J": ["V", "j"], "1": ["A", "01"]}


def respell(text: str, rng: Any) -> str:
    """The same cards written the way people type them: French rank letters, lower case, aliases."""
    out = []
    for code in text.split():
        if code == "EX":
            out.append(rng.choice(["EX", "ex", "Fool", "EXC"]))
        elif code[0] in "SHDC" and code[1:] in ALIASES and rng.random() < 0.7:
            out.append(code[0] + rng.choice(ALIASES[code[1:]]))
        elif rng.random() < 0.3:
            out.append(code.lower())
        else:
            out.append(code)
    return " ".join(out)


# --- single corruptions -------------------------------------------------------------------------


@PROPERTY
@given(players, seeds, st.data())
def test_an_illegal_card_is_caught_where_it_was_played(n: int, seed: int, data: st.DataObject) -> None:
    """tarot.play.*: a player plays, instead of his card, one of his cards that was not legal there."""
    record = generated(n, seed, deals=2)
    candidates = illegal_swaps(record)
    if not candidates:
        return
    found = reported_at_swap(record, data.draw(st.sampled_from(candidates)))
    assert found, "the illegal card was not reported"
    assert found[0].code in {"TAROT-REVOKE", "TAROT-MUST-TRUMP", "TAROT-OVERTRUMP", "TAROT-UNDERTRUMP"}


def illegal_swaps(record: dict[str, Any]) -> list[Swap]:
    """Places where the player to play held a card that was illegal there, and where he played it later."""
    table = table_of(record)
    found: list[Swap] = []
    for deal_index, raw in enumerate(record["deals"]):
        deal = TarotDeal.model_validate(raw)
        place = {
            code: (t, p) for t, trick in enumerate(deal.tricks) for p, code in enumerate(trick_codes(trick))
        }
        actions, _ = TAROT.compile(table, deal)
        state, _ = TAROT.start(table, deal)
        for action in actions:
            if action.kind == "play" and state.current is not None:
                seat, hand = state.to_play(), state.hands[state.to_play()]
                illegal = hand & ~legal_mask(hand, state.current.cards)
                if illegal:
                    card = DECK.codes[(illegal & -illegal).bit_length() - 1]
                    trick, position = len(state.tricks), len(state.current.cards)
                    found.append((deal_index, trick, position, card, DECK.codes[action.value], place[card]))
                    del seat
            TAROT.advance(state, action)
    return found


def play_one_illegal_card(record: dict[str, Any]) -> None:
    """Swap the first card a player could not legally play into its place (if any), in place."""
    for swap in illegal_swaps(record)[:1]:
        swap_in(record, swap)


@PROPERTY
@given(players, seeds, st.data())
def test_an_unknown_card_code_is_caught(n: int, seed: int, data: st.DataObject) -> None:
    """format.cards: a misspelt card anywhere in the tricks is reported as CARD-UNKNOWN at its place."""
    record = generated(n, seed, deals=1)
    tricks = record["deals"][0]["tricks"]
    if not tricks:
        return
    trick = data.draw(st.integers(0, len(tricks) - 1))
    position = data.draw(st.integers(0, n - 1))
    put_card(tricks, trick, position, data.draw(st.sampled_from(["T22", "HZ", "S11", "XX", "E7"])))
    found = diagnostics_of(record)
    assert [d.code for d in found] == ["CARD-UNKNOWN"]
    assert (found[0].location.trick, found[0].location.position) == (trick + 1, position + 1)


@PROPERTY
@given(players, seeds, st.data())
def test_a_bid_not_higher_is_caught(n: int, seed: int, data: st.DataObject) -> None:
    """tarot.auction.higher: a call changed to a bid no higher than the one before it."""
    record = generated(n, seed, deals=3)
    places = [
        (d, i, max((BIDS.index(c) for c in deal["auction"][:i]), default=0))
        for d, deal in enumerate(record["deals"])
        for i in range(1, len(deal["auction"]))
        if any(c != "pass" for c in deal["auction"][:i])
    ]
    if not places:
        return
    deal_index, call, highest = data.draw(st.sampled_from(places))
    record["deals"][deal_index]["auction"][call] = BIDS[data.draw(st.integers(1, highest))]
    assert "TAROT-BID-NOT-HIGHER" in codes_of(record)


@PROPERTY
@given(st.sampled_from([5]), seeds)
def test_a_call_of_a_queen_without_the_four_kings_is_caught(n: int, seed: int) -> None:
    """tarot.call.rank: the called King changed to a Queen, the taker not holding the four Kings."""
    record = generated(n, seed, deals=3)
    for deal in record["deals"]:
        if "call" in deal:
            deal["call"] = deal["call"][0] + "Q"
            assert "TAROT-CALL-RANK" in codes_of(record) or holds_four_kings(deal)
            return


def holds_four_kings(deal: dict[str, Any]) -> bool:
    return any(all(k in hand.split() for k in ("SK", "HK", "DK", "CK")) for hand in deal["hands"])
