"""`recordkit view` in a real headless Chromium (the system's, /usr/bin/chromium, driven by
Playwright): pages of every game stepped through a whole deal with the keyboard show the model's
tricks, winners, running points and scores, and a fault is pinned on its card."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from recordkit.cli import app
from recordkit.reading import read_records
from recordkit.sources import RawRecord, parsed
from recordkit.validate import Settings, validate_record
from recordkit.view.model import record_model

CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SAMPLES = {
    "french-tarot": "samples/french-tarot/club-evening-4p.json",
    "charlemagne": "samples/charlemagne/standard-club-evening.json",
    "karnoffel": "samples/karnoffel/gasthaus-evening-4p.json",
    "joffre": "samples/joffre/club-evening-4-players.json",
}
SHOTS = Path(os.environ.get("RECORDKIT_SCREENSHOTS", "out/screenshots"))
"""Where the tests leave a screenshot of each game's page (ignored by git: `out/`)."""

runner = CliRunner()

if not Path(CHROMIUM).exists() and not os.environ.get("CI"):
    pytest.skip("the system's Chromium is not installed (apt-get install chromium)", allow_module_level=True)
pytest.importorskip("playwright.sync_api")  # the test extra installs it
from playwright.sync_api import BrowserContext, Page, sync_playwright  # noqa: E402


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrowserContext]:
    """One headless Chromium for the module, with a fresh profile."""
    profile = tmp_path_factory.mktemp("chromium-profile")
    with sync_playwright() as driver:
        context = driver.chromium.launch_persistent_context(
            str(profile),
            executable_path=CHROMIUM,
            args=FLAGS,
            headless=True,
            viewport={"width": 1100, "height": 900},
        )
        yield context
        context.close()
    shutil.rmtree(profile, ignore_errors=True)


def page_of(browser: BrowserContext, record: str, out: Path, deal: int = 1) -> Page:
    """The page `recordkit view` writes for a record, opened at a deal; no script error allowed."""
    result = runner.invoke(app, ["view", record, "--deal", str(deal), "-o", str(out)])
    assert result.exit_code == (1 if "invalid" in record else 0), result.output
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(out.as_uri())
    assert errors == []
    return page


def model_of(record: str) -> dict[str, Any]:
    """The replay model of a record file's first record."""
    item = parsed(next(iter(read_records(Path(record)))))
    assert isinstance(item, RawRecord)
    return record_model(validate_record(item, Settings(strict=False)), item.data)


def signed(value: float) -> str:
    """A score as the page writes it."""
    text = f"{value:g}"
    return f"+{text}" if value > 0 else text


@pytest.mark.parametrize("game", sorted(SAMPLES))
def test_a_whole_deal_stepped_with_the_keyboard(browser: BrowserContext, game: str, tmp_path: Path) -> None:
    """Deal 1 trick by trick with the right arrow: the trick in the middle, its cards and winner,
    the running points, then the scores by the rules and on the sheet, all as the model has them."""
    model = model_of(SAMPLES[game])
    deal = model["deals"][0]
    page = page_of(browser, SAMPLES[game], tmp_path / f"{game}.html")
    assert page.locator("#deal-title").inner_text().startswith("Deal 1")
    for trick in deal["tricks"]:
        page.keyboard.press("ArrowRight")
        middle = page.locator("#trick")
        assert middle.get_attribute("data-number") == str(trick["number"])
        played = middle.locator(".played-cards .card")
        assert played.evaluate_all("nodes => nodes.map(n => n.dataset.code)") == [
            c["code"] for c in trick["cards"]
        ]
        assert middle.locator(".card.won").get_attribute("data-seat") == str(trick["winner"])
        assert f"{trick['winner']}: {model['players'][trick['winner']]} won" in middle.inner_text()
        if trick["running"] is not None:
            assert (
                json.loads(page.locator("#running").get_attribute("data-running") or "") == trick["running"]
            )
        shown = page.locator(".seat .hand").evaluate_all("nodes => nodes.map(n => n.children.length)")
        after = deal["end_hands"] if trick is deal["tricks"][-1] else deal["tricks"][trick["number"]]["hands"]
        assert shown == [len(hand.split()) for hand in after]
    page.keyboard.press("ArrowRight")
    rules = page.locator("#scores-rules td").all_inner_texts()
    assert rules == [signed(score) for score in deal["scores"]["rules"]]
    assert page.locator("#scores-written td").all_inner_texts() == [
        signed(s) for s in deal["scores"]["written"]
    ]
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.keyboard.press("ArrowLeft")
    page.screenshot(path=str(SHOTS / f"{game}.png"), full_page=True)
    page.close()


def test_a_fault_is_pinned_on_its_card(browser: BrowserContext, tmp_path: Path) -> None:
    """TAROT-REVOKE at trick 2, card 2: on that trick, that card is marked with the diagnostic."""
    page = page_of(browser, "samples/invalid/french-tarot/TAROT-REVOKE.json", tmp_path / "revoke.html")
    page.keyboard.press("ArrowRight")
    assert page.locator(".played-cards .card.faulty").count() == 0
    page.keyboard.press("ArrowRight")
    faulty = page.locator(".played-cards .card.faulty")
    assert faulty.count() == 1 and faulty.get_attribute("data-position") == "2"
    assert "TAROT-REVOKE" in (faulty.locator(".pin").get_attribute("title") or "")
    assert "TAROT-REVOKE" in page.locator("#trick").inner_text()
    page.close()


def test_the_score_sheet_opens_a_deal(browser: BrowserContext, tmp_path: Path) -> None:
    """The sheet lists every deal, marks the sheet-only ones, and a click opens a deal."""
    record = "samples/french-tarot/score-sheet-evening.json"
    out = tmp_path / "sheet.html"
    assert runner.invoke(app, ["view", record, "-o", str(out)]).exit_code == 0
    page = browser.new_page()
    page.goto(out.as_uri())
    rows = page.locator("tr.deal")
    assert rows.count() == len(model_of(record)["deals"])
    assert "(sheet)" in rows.first.inner_text()
    rows.nth(1).click()
    assert page.locator("#deal-title").inner_text().startswith("Deal 2")
    assert "score-sheet line" in page.locator("#deal-title").inner_text()
    page.keyboard.press("Escape")
    assert page.locator("#sheet").is_visible()
    page.close()


def test_hostile_names_are_text_in_the_page(browser: BrowserContext, tmp_path: Path) -> None:
    """Issue 33: names and comments that write markup, a script's end or a marker of the template
    show as text; the page runs no script of theirs."""
    names = [
        "</script><script>window.hacked=1</script>",
        "/*MODEL*/",
        '<img src=x onerror="window.hacked=1">',
        "[b]&amp;",
    ]
    data = json.loads(Path(SAMPLES["french-tarot"]).read_text(encoding="utf-8"))
    data["players"] = names
    data["comment"] = data["deals"][0]["comment"] = "<!-- ]]> </title>"
    record = tmp_path / "hostile.json"
    record.write_text(json.dumps(data), encoding="utf-8")
    page = page_of(browser, str(record), tmp_path / "hostile.html")
    assert page.evaluate("window.hacked") is None
    assert page.locator("script").count() == 2 and page.locator("img").count() == 0
    assert page.title() == "French Tarot: " + ", ".join(names)
    assert [page.locator(f'.seat[data-seat="{s}"] .name').inner_text() for s in range(4)] == [
        f"{seat}: {name}" for seat, name in enumerate(names)
    ]
    page.close()
