"""Bad input in partial records, for every game (spec/FORMAT.md, "Partial records"): tricks
that cannot be given to seats get a clear diagnostic with their place, never a traceback, and
the other deals of the record are still checked."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from recordkit.diagnostics import Diagnostic, Severity
from recordkit.games import RULESETS
from recordkit.generate import generate_record
from recordkit.model import to_data
from tests.helpers import diagnostics_of

GAMES = [(name, ruleset.player_counts[-1]) for name, ruleset in RULESETS.items()]


def tricks_only(name: str, players: int) -> dict[str, Any]:
    """A generated record of three deals without their hands whose first two deals are played
    to at least two tricks (the seeds are searched, not chosen by hand)."""
    for seed in range(200):
        data = to_data(generate_record(RULESETS[name], players, 3, seed, form="tricks", player="random"))
        if len(data["deals"]) == 3 and all(len(deal["tricks"]) >= 2 for deal in data["deals"][:2]):
            return data
    raise AssertionError(f"no generated {name} record plays its first two deals")


def cards_of(trick: Any) -> list[str]:
    return (trick if isinstance(trick, str) else trick["cards"]).split()


def errors(data: dict[str, Any]) -> list[Diagnostic]:
    return [d for d in diagnostics_of(data) if d.severity != Severity.INFO]


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_a_clean_record_without_hands_has_no_error(name: str, players: int) -> None:
    """format.partial: the generated record without its hands replays clean (the reference)."""
    assert errors(tricks_only(name, players)) == []


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_a_trick_too_short_is_reported_at_its_place(name: str, players: int) -> None:
    """A trick a card short cannot be given to seats: PLAY-TRICK-SIZE at that trick, and the
    deal after it is still checked (its scores changed are still caught)."""
    data = tricks_only(name, players)
    first = data["deals"][0]["tricks"]
    first[1] = " ".join(cards_of(first[1])[:-1])
    data["deals"][1]["result"]["scores"][0] += 1
    found = [(d.code, d.location.deal, d.location.trick) for d in errors(data)]
    assert ("PLAY-TRICK-SIZE", 1, 2) in found
    assert any(code == "SCORE-MISMATCH" and deal == 2 for code, deal, _trick in found)


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_a_card_played_twice_is_reported(name: str, players: int) -> None:
    """A card the tricks hold twice: the derived hands cannot hold it twice, so the deal is
    faulty (a duplicate, or a card not held at the trick that plays it again), never clean."""
    data = tricks_only(name, players)
    tricks = data["deals"][0]["tricks"]
    last = cards_of(tricks[-1])
    last[-1] = cards_of(tricks[0])[0]
    tricks[-1] = " ".join(last)
    assert any(d.location.deal == 1 for d in errors(data))


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_a_hand_too_many_is_the_count_not_a_crash(name: str, players: int) -> None:
    """`hands` with one null too many: DEAL-HAND-COUNT, and the record is still read."""
    data = tricks_only(name, players)
    data["deals"][0]["hands"] = [None] * (players + 1)
    assert "DEAL-HAND-COUNT" in [d.code for d in errors(data) if d.location.deal == 1]


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_no_hands_and_no_play_is_a_clear_finding(name: str, players: int) -> None:
    """A played deal with neither hands nor tricks nor a score sheet's facts: the record says
    the deal is incomplete (or what else is missing), with no traceback."""
    data = tricks_only(name, players)
    bare = copy.deepcopy(data["deals"][0])
    for key in ("tricks", "auction", "proposals", "result", "totals"):
        bare.pop(key, None)
    data["deals"] = [bare]
    assert errors(data) != []
