"""Charlemagne: the standard (Canadian) game with jokers and kitty, and the Maine game as its variant."""

from recordkit.rules.charlemagne.ruleset import Charlemagne

__all__ = ["Charlemagne"]
