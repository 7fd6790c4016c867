"""The registry of games: each ruleset by its `game` name, and the record union over all of them."""

from __future__ import annotations

from typing import Any

from recordkit.rules.base import Ruleset
from recordkit.rules.charlemagne import Charlemagne
from recordkit.rules.french_tarot import FrenchTarot
from recordkit.rules.joffre import Joffre
from recordkit.rules.karnoffel import Karnoffel

RULESETS: dict[str, Ruleset[Any, Any, Any]] = {
    ruleset.name: ruleset for ruleset in (FrenchTarot(), Joffre(), Karnoffel(), Charlemagne())
}
"""Every game recordkit can replay, by the `game` value of its records."""


def ruleset_for(game: str) -> Ruleset[Any, Any, Any] | None:
    """The ruleset of a game name, or None."""
    return RULESETS.get(game)
