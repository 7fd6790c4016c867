"""The fast path's derivation (`Ruleset.quick_completed`) held to the full one (`recordkit.derive`).

A game may derive a partial deal's hands straight from JSON, to validate tricks-only records near
the speed of whole ones; that restates how the rules seat each card and complete the dealt groups,
so every deal it completes must be the full derivation's, with the same derived groups and the same
checks left without their facts (format.partial). Its guess is proven by the fast replay of the
completed deal, so a wrong guess can only cost time; these tests say it is never wrong.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given

from recordkit.derive import derive
from recordkit.rules.base import Ruleset
from tests.test_properties import PROPERTY, games, play


def _partial(ruleset: Ruleset[Any, Any, Any], record: dict[str, Any], seed: int) -> dict[str, Any]:
    """The record with, deal by deal, all its derivable groups left out or only some hands."""
    rng = random.Random(seed)
    table, _ = ruleset.table(
        ruleset.Options.model_validate(record.get("options", {})), len(record["players"])
    )
    for deal in record["deals"]:
        model = ruleset.Deal.model_validate(deal)
        if ruleset.is_sheet(model):
            continue
        forgotten = ruleset.forget(table, model).model_dump(mode="json", exclude_none=True)
        if rng.random() < 0.5 or type(deal.get("hands")) is not list:
            deal.clear()
            deal.update(forgotten)
        else:
            deal["hands"] = [None if rng.random() < 0.5 else hand for hand in deal["hands"]]
    return record


def _completions(game: tuple[Ruleset[Any, Any, Any], int, dict[str, Any], int]) -> list[tuple[Any, Any]]:
    """(fast, full) derivations of each partial deal of a generated game."""
    ruleset = game[0]
    record = play(game)
    if not record:
        return []
    record = _partial(ruleset, record, game[3])
    table, _ = ruleset.table(
        ruleset.Options.model_validate(record.get("options", {})), len(record["players"])
    )
    pairs = []
    for deal in record["deals"]:
        fast = ruleset.quick_completed(table, deal)
        if fast is None:
            continue
        full, _problems = derive(ruleset, table, ruleset.Deal.model_validate(deal))
        pairs.append((fast, full))
    return pairs


@PROPERTY
@given(games)
def test_a_fast_derivation_is_the_full_one(game: Any) -> None:
    """format.partial: whenever a game derives a deal on the fast path, the completed deal, its
    derived groups and its unchecked facts are those of the full derivation."""
    for fast, full in _completions(game):
        assert full is not None
        assert fast.deal == full.deal.model_dump(mode="json", exclude_none=True)
        assert fast.derived == full.derived
        assert fast.unchecked == full.unchecked
