"""The tables and helpers Charlemagne's replays use instead of slower spellings of the same thing:
each is held to what it stands for."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from recordkit.cards import ids_of
from recordkit.rules.charlemagne import state as state_module
from recordkit.rules.charlemagne.cards import PLAYERS, popcount
from recordkit.rules.charlemagne.partial import _lowest
from recordkit.rules.charlemagne.state import Phase, next_seats, trick_seats
from recordkit.rules.charlemagne.steps import PHASES


def test_the_steps_by_number_and_by_name_are_the_phases() -> None:
    """The steps of a deal (Phase): `PHASES[n]` is `Phase(n)`, and each step's module name is its member."""
    assert [PHASES[number] for number in range(len(Phase))] == [Phase(number) for number in range(len(Phase))]
    for phase in Phase:
        assert getattr(state_module, phase.name) is phase


def test_a_tricks_seats_are_the_players_in_the_play_from_its_leader() -> None:
    """charlemagne.play.lead: the seats of a trick, by leader, are the leader then each next seat in
    the play (those of `out` sit out), for every set of seats that may sit out."""
    for out in range(1 << PLAYERS):
        if out.bit_count() == PLAYERS:
            continue
        after = next_seats(out)
        for leader, order in enumerate(trick_seats(out)):
            expected = [leader]
            while len(expected) < PLAYERS - out.bit_count():
                expected.append(after[expected[-1]])
            assert list(order) == expected


@given(st.integers(min_value=0, max_value=(1 << 34) - 1), st.integers(min_value=0, max_value=34))
def test_the_lowest_cards_of_a_group_are_its_first_ids(mask: int, count: int) -> None:
    """format.partial: the cards a guess gives a group first (`partial._lowest`) are the group's
    `count` lowest ids, and `popcount` counts a group's cards."""
    assert ids_of(_lowest(mask, count)) == ids_of(mask)[:count]
    assert popcount(mask) == len(ids_of(mask))
