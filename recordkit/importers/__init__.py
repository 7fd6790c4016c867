"""Readers of other programs' game logs, each turning them into recordkit records (spec/IMPORT.md)."""

from __future__ import annotations

SOURCES = ("tarotclub",)
"""The programs whose logs recordkit reads: `recordkit import SOURCE`, `validate --from SOURCE`."""
