"""French Tarot's count settled once (`scoring.settle`): the fast path's state carries the facts
the score, the points check and the archive's summary share, and they are the replay's own count."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recordkit.games import RULESETS
from recordkit.quick import clean_replays
from recordkit.rules.french_tarot.options import TarotOptions
from recordkit.rules.french_tarot.scoring import as_points, contract_facts, deal_scores, points_counted
from recordkit.rules.french_tarot.state import TarotState
from tests.budget import examples
from tests.helpers import codes_of, generated
from tests.test_properties import option_values

PROPERTY = settings(max_examples=examples(15), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _states(data: dict[str, Any]) -> list[TarotState]:
    """The fast path's final state of each deal of a clean record."""
    replays = clean_replays(data)
    assert replays is not None
    return [replay.state for replay in replays]


@PROPERTY
@given(st.sampled_from([3, 4, 5]), st.integers(0, 2**31), option_values(TarotOptions))
def test_the_settled_count_is_the_replays_own(n: int, seed: int, options: dict[str, Any]) -> None:
    """tarot.score.*: the facts the fast path settles are the ones counted afresh from the same
    state, and so are the scores and the summary drawn from them."""
    ruleset = RULESETS["french-tarot"]
    for state in _states(generated(n, seed, options=options)):
        assert (state.facts is not None) == points_counted(state)
        if state.facts is None:
            continue
        fresh = replace(state, facts=None)
        assert contract_facts(fresh) == state.facts
        assert deal_scores(fresh) == deal_scores(state)
        assert ruleset.summary(fresh) == ruleset.summary(state)


def test_points_written_are_checked_against_the_settled_count() -> None:
    """tarot.score.points: the count written on the sheet is accepted rounded either way, and a
    wrong one is refused by the fast path and reported by the full replay."""
    data = generated(4, 7, deals=6)
    states = _states(data)
    counted = [index for index, state in enumerate(states) if state.facts is not None]
    assert counted
    for index in counted:
        facts = states[index].facts
        assert facts is not None
        data["deals"][index]["result"]["points"] = as_points(facts.half_points)
    assert clean_replays(data) is not None
    assert codes_of(data) == []
    data["deals"][counted[0]]["result"]["points"] += 3
    assert clean_replays(data) is None
    assert codes_of(data) != []
