"""French Tarot's shortcuts in the count and the derivation, each held to the plain form it
replaces: the cards a side took as one mask (`scoring.owners`), the slam's part of S
(`scoring.slam_term`), and the dog taken out of the taker's cards when neither his hand nor the dog
is written (`partial._split`)."""

from __future__ import annotations

from functools import reduce
from operator import or_

from hypothesis import given
from hypothesis import strategies as st

from recordkit.cards import ids_of
from recordkit.rules.french_tarot import partial
from recordkit.rules.french_tarot.cards import BITS, DECK, DOG_SIZES, EXCUSE, HAND_SIZES, PETIT, bit
from recordkit.rules.french_tarot.contract import needed_honours
from recordkit.rules.french_tarot.facts import SLAM_OUTCOMES
from recordkit.rules.french_tarot.options import TarotOptions
from recordkit.rules.french_tarot.record import TarotDeal
from recordkit.rules.french_tarot.scoring import owners, slam_term
from recordkit.rules.french_tarot.state import TarotState
from recordkit.rules.values import PlayedTrick, Table

CARDS = st.lists(st.integers(0, EXCUSE - 1), min_size=4, max_size=4)
"""A trick's cards with no Excuse, repeats allowed (a faulty replay may play a card twice)."""
NO_ANNOUNCEMENTS = TarotDeal.model_construct(dealer=0, announcements=[])
"""A deal with no misère, all `partial._split` reads of a deal."""


def _state(n: int, tricks: list[PlayedTrick]) -> TarotState:
    """A state holding only the tricks (all the count reads of a trick without the Excuse)."""
    state = TarotState(Table(TarotOptions(), n, DECK), 0, [0] * n, [0] * n, 0, HAND_SIZES[n])
    state.tricks = tricks
    return state


@given(st.lists(st.tuples(CARDS, st.integers(0, 3)), min_size=1, max_size=18))
def test_a_sides_cards_are_the_or_of_the_cards_it_took(tricks: list[tuple[list[int], int]]) -> None:
    """tarot.excuse.exchange: each side's cards are the `or` of its tricks' cards (the sum of
    their bits is used only when no card repeats)."""
    played = [PlayedTrick(0, cards, [0, 1, 2, 3], winner) for cards, winner in tricks]
    won, adjust = owners(_state(4, played), [0, 1, 0, 1])
    for side in (0, 1):
        cards = [card for trick in played if trick.winner in (side, side + 2) for card in trick.cards]
        assert won[side] == reduce(or_, map(BITS.__getitem__, cards), 0)
    assert adjust == [0, 0]


def test_the_slams_part_of_s() -> None:
    """tarot.score.slam: +200 made, +400 announced and made, -200 announced and failed, and the
    defence's bonus taken off when the defence wins every trick."""
    terms = {None: 0, "made": 200, "announced_made": 400, "announced_failed": -200}
    terms.update(defence=-150, announced_defence=-350)
    assert {slam: slam_term(slam, 150) for slam in (None, *SLAM_OUTCOMES)} == terms


def _split_card_by_card(table: Table, state: TarotState, kept: int, laid: int, first: list[int]) -> int:
    """`partial._split`'s dog as the rule reads: the Petit and the misère's cards first, then the
    cards nobody played, then the rest, each in deck order, while the dog has room."""
    size = DOG_SIZES[table.players]
    needed = needed_honours(state.called) if state.called is not None else 0
    dog = 0
    for card in [*first, *ids_of(laid), *ids_of(kept)]:
        if bin(dog).count("1") < size and bit(card) & kept & ~needed:
            dog |= bit(card)
    return dog


@given(st.sampled_from(sorted(HAND_SIZES)), st.data())
def test_the_dog_split_fills_in_turn(n: int, data: st.DataObject) -> None:
    """tarot.partial.taker: the dog is the Petit, then what nobody played, then the taker's other
    cards in deck order, until it holds the dog's size, never a card a called honour needs."""
    deck = data.draw(st.permutations(range(len(DECK))))
    kept = DECK.mask(deck[: HAND_SIZES[n] + DOG_SIZES[n]])
    laid = DECK.mask(deck[: DOG_SIZES[n]])
    table = Table(TarotOptions(petit_sec="ignore"), n, DECK)
    state = TarotState(table, 0, [0] * n, [0] * n, 0, HAND_SIZES[n], taker=0)
    state.called = data.draw(st.sampled_from([None, DECK.card("SQ"), DECK.card("HJ")]))
    dog, _unchecked = partial._split(table, NO_ANNOUNCEMENTS, state, kept, laid)
    assert dog == _split_card_by_card(table, state, kept, laid, ids_of(kept & bit(PETIT)))
