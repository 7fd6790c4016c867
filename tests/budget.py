"""How many examples each property test runs, by hypothesis profile.

The README's `python -m pytest` runs the `quick` profile: each property test runs a share of its
examples (QUICK_SHARE), so the suite stays well under 10 minutes on a busy 2-core machine. CI runs
the `thorough` profile (`HYPOTHESIS_PROFILE=thorough`, set by `.ci/run`): every test's full count.
"""

from __future__ import annotations

import os

PROFILES = ("quick", "thorough")
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "quick")
if PROFILE not in PROFILES:
    raise ValueError(f"HYPOTHESIS_PROFILE is one of {', '.join(PROFILES)}, not {PROFILE!r}")
QUICK_SHARE = 0.5
"""The share of each property test's examples that the quick profile runs."""


def examples(full: int) -> int:
    """The examples a property test runs under the active profile, of the `full` count CI runs."""
    return full if PROFILE == "thorough" else max(1, round(full * QUICK_SHARE))
