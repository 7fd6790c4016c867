"""Properties every game must have, checked over games the generator plays through each ruleset:
they replay clean, canonical round trips are exact, and a changed score or total is caught."""

from __future__ import annotations

import typing
from typing import Any

import orjson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from recordkit.codec import dumps, loads
from recordkit.games import RULESETS
from recordkit.generate import generate_record
from recordkit.model import to_data
from recordkit.rules.base import Ruleset
from tests.budget import examples
from tests.helpers import codes_of

PROPERTY = settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def option_values(options: type[BaseModel]) -> st.SearchStrategy[dict[str, Any]]:
    """Any combination of a game's variant options: every Literal value, both booleans, the default number."""
    choices: dict[str, st.SearchStrategy[Any]] = {}
    for name, field in options.model_fields.items():
        annotation = field.annotation
        if typing.get_origin(annotation) is typing.Literal:
            choices[name] = st.sampled_from(typing.get_args(annotation))
        elif annotation is bool:
            choices[name] = st.booleans()
    return st.fixed_dictionaries({}, optional=choices)


games = st.sampled_from(sorted(RULESETS)).flatmap(
    lambda name: st.tuples(
        st.just(RULESETS[name]),
        st.sampled_from(RULESETS[name].player_counts),
        option_values(RULESETS[name].Options),
        st.integers(0, 2**31),
    )
)


def play(game: tuple[Ruleset[Any, Any, Any], int, dict[str, Any], int], deals: int = 3) -> dict[str, Any]:
    ruleset, players, options, seed = game
    try:
        record = generate_record(ruleset, players, deals, seed, options, player="random")
    except ValueError:  # an option that this number of players does not allow
        return {}
    return orjson.loads(orjson.dumps(to_data(record)))


@PROPERTY
@given(games)
def test_generated_games_replay_clean(game: Any) -> None:
    """Every game the generator plays through the rules validates with no diagnostic at all."""
    data = play(game)
    if data:
        assert codes_of(data) == []


@PROPERTY
@given(games)
def test_scores_add_up_to_the_totals(game: Any) -> None:
    """The running totals are the sum of the deals' scores."""
    data = play(game)
    totals = [0] * len(data.get("players", []))
    for deal in data.get("deals", []):
        totals = [t + s for t, s in zip(totals, deal["result"]["scores"], strict=True)]
        assert deal["totals"] == totals


@PROPERTY
@given(games)
def test_canonical_round_trip_is_exact(game: Any) -> None:
    """parse(write(r)) == r, in the one-line and the indented form, and writing again changes nothing."""
    data = play(game)
    if not data:
        return
    record = loads(orjson.dumps(data))
    assert loads(dumps(record)) == record
    assert loads(dumps(record, indent=True)) == record
    assert dumps(loads(dumps(record))) == dumps(record)


@PROPERTY
@given(games, st.data())
def test_a_wrong_score_or_total_is_caught(game: Any, data: st.DataObject) -> None:
    """One number changed on the score sheet is always reported, as a score or as a total."""
    record = play(game)
    scored = [deal for deal in record.get("deals", []) if "result" in deal]
    if not scored:
        return
    deal = data.draw(st.sampled_from(scored))
    seat = data.draw(st.integers(0, len(record["players"]) - 1))
    delta = data.draw(st.sampled_from([-10, -1, 1, 5, 20]))
    if data.draw(st.booleans()):
        deal["result"]["scores"][seat] += delta
        assert "SCORE-MISMATCH" in codes_of(record)
    else:
        deal["totals"][seat] += delta
        assert "TOTAL-MISMATCH" in codes_of(record)


@PROPERTY
@given(games, st.sampled_from([[], [1], [0, 0, 0, 0, 0, 0, 0, 0, 0]]))
def test_running_totals_of_the_wrong_length_are_reported(game: Any, totals: list[int]) -> None:
    """Each game's totals rule: a totals line with too few or too many numbers is a TOTAL-MISMATCH, and the
    rest of the record is still checked (it used to end the validation with an IndexError)."""
    record = play(game)
    if not record:
        return
    record["deals"][0]["totals"] = totals
    assert "TOTAL-MISMATCH" in codes_of(record)
