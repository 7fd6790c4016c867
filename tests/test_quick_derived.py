"""The fast path of a partial deal held to the full one: a deal that leaves dealt cards out is
derived exactly as the full replay derives it (`recordkit.derive`), then its completed deal is
proven on the game's fast path (or by its full replay, when that finds only the note), and a
score sheet's line is scored from its facts; the verdicts and notes are the full path's
(format.partial).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest

from recordkit.codec import dumps
from recordkit.convert.archive import from_archive, to_archive
from recordkit.games import RULESETS
from recordkit.generate import generate_record
from recordkit.model import to_data
from recordkit.quick import clean_deals, clean_replays
from tests.helpers import diagnostics_of, file_codes

PASSED_TABLES = [
    ("french-tarot", 3, {}),
    ("french-tarot", 4, {}),
    ("french-tarot", 5, {"petit_sec": "ignore"}),
    ("charlemagne", 4, {}),
]
"""Tables at which everybody may pass (in the Maine game the dealer must bid, see below)."""


def _passed_record(game: str, players: int, options: dict[str, Any], deal: dict[str, Any]) -> dict[str, Any]:
    """A record of one deal, as parsed JSON."""
    return {
        "format": "recordkit",
        "version": "1.1",
        "game": game,
        "options": options,
        "players": [f"p{seat}" for seat in range(players)],
        "deals": [deal],
    }


@pytest.mark.parametrize(("game", "players", "options"), PASSED_TABLES)
def test_a_passed_deal_without_its_hands_is_noted_on_both_paths(
    game: str, players: int, options: dict[str, Any]
) -> None:
    """format.partial: a deal everybody passed, written without its hands, with or without its
    result and totals, gets only the note of what was not checked, on the fast path and the
    full path alike (`diagnostics_of` holds the two together)."""
    passed = {"dealer": players - 1, "auction": ["pass"] * players, "tricks": []}
    for extra in (
        {},
        {"result": {"scores": [0] * players}},
        {"result": {"scores": [0] * players}, "totals": [0] * players},
        {"status": "played", "comment": "redeal"},
    ):
        record = _passed_record(game, players, options, {**passed, **extra})
        assert [d.code for d in diagnostics_of(record)] == ["DEAL-NOT-CHECKED"]


def test_a_maine_dealer_who_passes_too_is_not_proven() -> None:
    """charlemagne.auction.dealer-forced: in the Maine game four passes break a rule, also in a
    deal written without its hands: the fast path does not prove it, and the full path says which."""
    deal = {"dealer": 3, "auction": ["pass"] * 4, "tricks": [], "result": {"scores": [0] * 4}}
    record = _passed_record("charlemagne", 4, {"variant": "maine"}, deal)
    assert clean_deals(record) is None
    assert any(d.rule == "charlemagne.auction.dealer-forced" for d in diagnostics_of(record))


def test_a_score_sheet_line_takes_the_fast_path_with_its_note(tmp_path: Path) -> None:
    """format.partial: an evening whose thrown-in deal is only its line on the score sheet (a
    Petit sec, annulled) and whose other deals are tricks only is proven on the fast path with the
    full path's notes, and converts to an archive and back as it was."""
    tarot = RULESETS["french-tarot"]
    record = to_data(generate_record(tarot, 4, 2, 7, form="tricks", player="random"))
    deals = record["deals"]
    totals = deals[-1]["totals"]
    deals.append({"dealer": (deals[-1]["dealer"] + 1) % 4, "status": "annulled"})
    deals[-1].update(result={"scores": [0] * 4}, totals=totals)
    replays = clean_replays(record)
    assert replays is not None and replays[-1].sheet
    path = tmp_path / "evening.jsonl"
    path.write_bytes(orjson.dumps(record) + b"\n")
    assert file_codes(path) == set()  # the fast path's notes are the full path's
    assert to_archive([str(path)], tmp_path / "archive").records == 1
    from_archive(tmp_path / "archive", tmp_path / "back.jsonl")
    assert (tmp_path / "back.jsonl").read_bytes() == dumps(
        tarot.Record.model_validate(record)
    ).encode() + b"\n"
