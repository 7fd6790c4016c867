"""The generator's players: who chooses each action of a generated deal among the legal ones.

`random` picks uniformly (shaped by the ruleset's `weight`), which is what the property tests need:
every legal path of the rules gets tried. `heuristic` bids from its hand's strength and plays a
reasonable card, game by game (`recordkit/rules/<game>/player.py`), so that generated archives
look like real tables'. Both choose only among `Ruleset.legal()`, so neither can move illegally.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Literal

from recordkit.rules.base import Ruleset
from recordkit.rules.charlemagne import player as charlemagne
from recordkit.rules.french_tarot import player as french_tarot
from recordkit.rules.joffre import player as joffre
from recordkit.rules.karnoffel import player as karnoffel
from recordkit.rules.values import Action

PlayerName = Literal["heuristic", "random"]
PLAYER_NAMES: tuple[PlayerName, ...] = ("heuristic", "random")

Player = Callable[[Any, list[Action], random.Random], Action]
"""Chooses one of the legal actions (never empty) in a deal's state, with the generator's rng."""

HEURISTICS: dict[str, Player] = {
    "french-tarot": french_tarot.choose,
    "charlemagne": charlemagne.choose,
    "karnoffel": karnoffel.choose,
    "joffre": joffre.choose,
}
"""Each game's heuristic player, by the ruleset's name."""


def random_player(ruleset: Ruleset[Any, Any, Any]) -> Player:
    """The uniform player: any legal action, as likely as the ruleset's `weight` says."""

    def choose(state: Any, choices: list[Action], rng: random.Random) -> Action:
        """One legal action drawn at random by weight."""
        return rng.choices(choices, weights=[ruleset.weight(state, a) for a in choices])[0]

    return choose


def player_for(ruleset: Ruleset[Any, Any, Any], name: PlayerName) -> Player:
    """The named player for a game (a game without a heuristic player plays at random)."""
    if name == "heuristic" and ruleset.name in HEURISTICS:
        return HEURISTICS[ruleset.name]
    if name not in PLAYER_NAMES:
        raise ValueError(f"the generator's player is one of {', '.join(PLAYER_NAMES)}, not {name!r}")
    return random_player(ruleset)
