"""French Tarot: 3, 4 and 5 players, FFT rules, with the source's variants as options."""

from recordkit.rules.french_tarot.ruleset import FrenchTarot

__all__ = ["FrenchTarot"]
