"""The hypothesis profiles (tests/budget.py says which runs which) and their defaults for the
property tests that set no count of their own."""

from __future__ import annotations

from hypothesis import settings

from tests.budget import PROFILE, examples

settings.register_profile("thorough", max_examples=100)
settings.register_profile("quick", max_examples=examples(100))
settings.load_profile(PROFILE)
