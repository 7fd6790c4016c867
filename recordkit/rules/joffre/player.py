"""Stub."""

from __future__ import annotations

import random
from typing import Any

from recordkit.rules.base import Action


def choose(state: Any, choices: list[Action], rng: random.Random) -> Action:
    """Stub."""
    return choices[0]
