"""Karnöffel: 2, 4, 6 or 8 players, the staged deal with raises, the old powers of the chosen suit."""

from recordkit.rules.karnoffel.ruleset import Karnoffel

__all__ = ["Karnoffel"]
