"""Joffre: the Québec nations deck, 3 or 4 players (4 in teams); the source's rules, Kaiser's as options."""

from recordkit.rules.joffre.ruleset import Joffre

__all__ = ["Joffre"]
