"""`recordkit view` without a browser: one self-contained page, written atomically, with the
model embedded so that unpacking it gives the model back; exit statuses as for `validate`."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from recordkit.cli import app
from recordkit.reading import read_records
from recordkit.sources import RawRecord, parsed
from recordkit.validate import Settings, validate_record
from recordkit.view.model import record_model
from recordkit.view.page import SUMMARY_FIELDS, TRICK_FIELDS

runner = CliRunner()
RECORD = "samples/french-tarot/club-evening-4p.json"


def embedded(page: str) -> dict[str, Any]:
    """The data a page embeds."""
    found = re.search(r'<script id="data" type="application/json">(.*?)</script>', page, re.S)
    assert found is not None
    return json.loads(found.group(1))  # type: ignore[no-any-return]


def unpacked_hands(deal: dict[str, Any]) -> list[list[str]]:
    """Each trick's hands as the page unpacks them: a trick without hands has the previous
    trick's less the cards played in it, and a first trick's hand left out is the hand as dealt."""
    out: list[list[str]] = []
    fields = {name: index for index, name in enumerate(TRICK_FIELDS)}
    dealt = {group[0]: group[3] for group in deal["groups"]}  # path -> cards, as packed
    for index, row in enumerate(deal["tricks"] or []):
        if row[fields["hands"]] is not None:
            hands = row[fields["hands"]]
            out.append([dealt[f"hands[{seat}]"] if h is None else h for seat, h in enumerate(hands)])
            continue
        before = deal["tricks"][index - 1]
        played = set(zip(before[fields["seats"]], before[fields["cards"]].split(), strict=True))
        out.append(
            [
                " ".join(c for c in hand.split() if (seat, c) not in played)
                for seat, hand in enumerate(out[-1])
            ]
        )
    return out


def test_the_page_is_self_contained_and_holds_the_model(tmp_path: Path) -> None:
    out = tmp_path / "page.html"
    result = runner.invoke(app, ["view", RECORD, "--deal", "2", "-o", str(out)])
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    assert not re.search(r"https?://|<script[^>]+src=|<link|@import|url\(", page)
    assert [p.name for p in tmp_path.iterdir()] == ["page.html"]  # written atomically: no temporary left
    data = embedded(page)
    assert data["open"] == 2
    item = parsed(next(iter(read_records(Path(RECORD)))))
    assert isinstance(item, RawRecord)
    model = record_model(validate_record(item, Settings(strict=False)))
    assert data["model"]["summary_fields"] == list(SUMMARY_FIELDS)
    for packed, deal in zip(data["model"]["deals"], model["deals"], strict=True):
        assert unpacked_hands(packed) == [trick["hands"] for trick in deal.get("tricks", [])]
        running = [row[TRICK_FIELDS.index("running")] for row in packed["tricks"] or []]
        assert running == [trick["running"] for trick in deal.get("tricks", [])]


def test_default_output_and_exit_statuses(tmp_path: Path) -> None:
    """The page goes beside the record by default; errors pinned exit 1, a bad deal number 2."""
    record = tmp_path / "revoke.json"
    record.write_bytes(Path("samples/invalid/french-tarot/TAROT-REVOKE.json").read_bytes())
    result = runner.invoke(app, ["view", str(record)])
    assert result.exit_code == 1 and "error(s) pinned" in result.output
    assert "TAROT-REVOKE" in (tmp_path / "revoke.html").read_text(encoding="utf-8")
    assert runner.invoke(app, ["view", str(record), "--deal", "9"]).exit_code == 2
    (tmp_path / "bad.json").write_text("{ not json")
    result = runner.invoke(app, ["view", str(tmp_path / "bad.json")])
    assert result.exit_code == 2 and "Traceback" not in result.output


def test_every_sample_gives_a_page(tmp_path: Path) -> None:
    """Every record of the samples, full, partial or sheet-only, of every game, gives a page."""
    for number, path in enumerate(sorted(Path("samples").glob("[!i]*/*.json"))):
        out = tmp_path / f"{number}.html"
        result = runner.invoke(app, ["view", str(path), "-o", str(out)])
        assert result.exit_code == 0, (path, result.output)
        assert embedded(out.read_text(encoding="utf-8"))["model"]["deals"]
