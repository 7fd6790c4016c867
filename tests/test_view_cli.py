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
    model = record_model(validate_record(item, Settings(strict=False)), item.data)
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


def record_with(tmp_path: Path, change: Any, name: str = "record.json") -> Path:
    """The club evening (5 deals) changed in place by `change`, written to a file."""
    data = json.loads(Path(RECORD).read_text(encoding="utf-8"))
    change(data)
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def page_model(path: Path) -> dict[str, Any]:
    """The model a page written by `view` embeds."""
    return embedded(path.read_text(encoding="utf-8"))["model"]  # type: ignore[no-any-return]


def severities(model: dict[str, Any], code: str) -> list[str]:
    """The severities of a code's diagnostics in a page's model, the record's and its deals'."""
    found = model["diagnostics"] + [d for deal in model["deals"] for d in deal["diagnostics"]]
    return [d["severity"] for d in found if d["code"] == code]


def test_an_unknown_key_shows_the_deals_and_fails_as_validate_does(tmp_path: Path) -> None:
    """Issue 33: one unknown key (in a deal, or in the record) gave a page of 0 deals, no
    diagnostic and exit 0; `replay` said "the record has 0 deal(s)"."""
    in_deal = record_with(tmp_path, lambda d: d["deals"][1].update(foo=1), "in-deal.json")
    in_record = record_with(tmp_path, lambda d: d.update(foo=1), "in-record.json")
    for path in (in_deal, in_record):
        out = tmp_path / "page.html"
        strict = runner.invoke(app, ["view", str(path), "-o", str(out)])
        assert strict.exit_code == runner.invoke(app, ["validate", str(path)]).exit_code == 1, strict.output
        assert "1 error(s) pinned" in strict.output
        model = page_model(out)
        assert len(model["deals"]) == 5 and all(deal["kind"] == "played" for deal in model["deals"])
        assert severities(model, "RECORD-UNKNOWN-KEY") == ["error"]
        lenient = runner.invoke(app, ["view", "--lenient", str(path), "-o", str(out)])
        assert lenient.exit_code == runner.invoke(app, ["validate", "--lenient", str(path)]).exit_code == 0
        assert "1 warning(s) pinned" in lenient.output
        model = page_model(out)
        assert len(model["deals"]) == 5 and severities(model, "RECORD-UNKNOWN-KEY") == ["warning"]
        replayed = runner.invoke(app, ["replay", str(path), "--deal", "2"])
        assert replayed.exit_code == 0 and "RECORD-UNKNOWN-KEY" in replayed.output, replayed.output
        assert "scores by the rules" in replayed.output


def test_a_deal_that_cannot_be_read_is_shown_unread_among_the_others(tmp_path: Path) -> None:
    """A deal of the wrong shape used to leave the page with no deals at all."""
    path = record_with(tmp_path, lambda d: d["deals"][1].update(dealer="x"))
    out = tmp_path / "page.html"
    result = runner.invoke(app, ["view", str(path), "-o", str(out)])
    assert result.exit_code == 1, result.output
    kinds = [deal["kind"] for deal in page_model(out)["deals"]]
    assert kinds == ["played", "unread", "played", "played", "played"]
    assert [d["code"] for d in page_model(out)["deals"][1]["diagnostics"]] == ["RECORD-SCHEMA"]
    assert runner.invoke(app, ["replay", str(path), "--deal", "3"]).exit_code == 0
    result = runner.invoke(app, ["replay", str(path), "--deal", "2"])
    assert result.exit_code == 2 and "deal 2 cannot be read" in result.output


def test_a_byte_order_mark_is_a_warning_for_view_and_replay(tmp_path: Path) -> None:
    """Issue 33: every reader skips a byte-order mark with a warning; view and replay refused the file."""
    path = tmp_path / "notepad.json"
    path.write_bytes(b"\xef\xbb\xbf" + Path(RECORD).read_bytes())
    out = tmp_path / "page.html"
    strict = runner.invoke(app, ["view", str(path), "-o", str(out)])
    assert strict.exit_code == runner.invoke(app, ["validate", str(path)]).exit_code == 1, strict.output
    assert severities(page_model(out), "FILE-BOM") == ["warning"] and len(page_model(out)["deals"]) == 5
    assert runner.invoke(app, ["view", "--lenient", str(path), "-o", str(out)]).exit_code == 0
    replayed = runner.invoke(app, ["replay", str(path)])
    assert replayed.exit_code == 0 and "FILE-BOM" in replayed.output


def test_a_name_that_writes_a_marker_stays_a_name(tmp_path: Path) -> None:
    """Issue 33: a player named /*MODEL*/ put the page's data into its <title>."""
    path = record_with(tmp_path, lambda d: d.update(players=["/*MODEL*/", "/*TITLE*/", "<b>&", "Yann"]))
    out = tmp_path / "page.html"
    assert runner.invoke(app, ["view", str(path), "-o", str(out)]).exit_code == 0
    page = out.read_text(encoding="utf-8")
    title = re.search(r"<title>(.*?)</title>", page, re.S)
    assert title is not None and title.group(1) == "French Tarot: /*MODEL*/, /*TITLE*/, &lt;b&gt;&amp;, Yann"
    assert page.count('<script id="data"') == 1 and page_model(out)["players"][0] == "/*MODEL*/"
