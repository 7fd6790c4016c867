"""The registry of games: each ruleset by its `game` name, imported when a record of it is met.

A ruleset's modules (its rules and its pydantic models) take tens of milliseconds to import, so a
command that reads only Tarot records does not import the other games."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from recordkit.rules.base import Ruleset

GAMES: dict[str, tuple[str, str]] = {
    "french-tarot": ("recordkit.rules.french_tarot", "FrenchTarot"),
    "joffre": ("recordkit.rules.joffre", "Joffre"),
    "karnoffel": ("recordkit.rules.karnoffel", "Karnoffel"),
    "charlemagne": ("recordkit.rules.charlemagne", "Charlemagne"),
}
"""Each game's name, and the package and class of its ruleset, in the order the games are listed."""


class Rulesets(Mapping[str, "Ruleset[Any, Any, Any]"]):
    """The rulesets by game name: a ruleset is imported and made on first access by its name;
    the names are known without importing any (iterating the values imports them all)."""

    def __init__(self, games: Mapping[str, tuple[str, str]]) -> None:
        self._games = dict(games)
        self._made: dict[str, Ruleset[Any, Any, Any]] = {}

    def __getitem__(self, name: str) -> Ruleset[Any, Any, Any]:
        """The ruleset of game `name`, imported and made the first time; KeyError for no game."""
        made = self._made.get(name)
        if made is not None:
            return made
        package, cls = self._games[name]
        ruleset: Ruleset[Any, Any, Any] = getattr(import_module(package), cls)()
        return self._made.setdefault(name, ruleset)  # the first one made, if two threads race

    def __iter__(self) -> Iterator[str]:
        return iter(self._games)

    def __len__(self) -> int:
        return len(self._games)

    def __contains__(self, name: object) -> bool:
        return name in self._games

    def __repr__(self) -> str:
        return f"Rulesets({list(self._games)})"


RULESETS: Mapping[str, Ruleset[Any, Any, Any]] = Rulesets(GAMES)
"""Every game recordkit can replay, by the `game` value of its records."""


def ruleset_for(game: str) -> Ruleset[Any, Any, Any] | None:
    """The ruleset of a game name, or None."""
    return RULESETS.get(game)
