"""Places of diagnostics (recordkit.diagnostics)."""

from dataclasses import fields, replace

from recordkit.diagnostics import Location


def test_a_place_narrowed_to_a_deal_is_what_replace_gives() -> None:
    """`Location.at_deal`, the notes' shortcut, keeps every other field (all of them set)."""
    values = {
        f.name: (f"v{i}" if f.name in ("file", "path") else i + 1) for i, f in enumerate(fields(Location))
    }
    place = Location(**values)
    assert place.at_deal(9, "deals[8]") == replace(place, deal=9, path="deals[8]")
