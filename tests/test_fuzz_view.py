"""Hostile strings in a record's names, comments and tags (issue 33): the page is made without an
exception, and no string of the record reaches the page's markup but in the title's text (HTML
escaped) and in the embedded model (JSON with `<`, `>` and `&` escaped), which gives the model back.
"""

from __future__ import annotations

import json
import re
from importlib import resources
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recordkit.diagnostics import Location
from recordkit.games import RULESETS
from recordkit.generate import generate_record
from recordkit.model import to_data
from recordkit.sources import RawRecord
from recordkit.view.model import record_model, view_report
from recordkit.view.page import MODEL_MARKER, TEMPLATE, TITLE_MARKER, compact, render
from tests.budget import examples

PIECES = [
    "</script><script>alert(1)</script>",
    "<!--",
    "-->",
    "<![CDATA[",
    "]]>",
    "/*MODEL*/",
    "/*TITLE*/",
    "</title>",
    '<img src=x onerror="alert(1)">',
    "&amp;",
    "&#60;",
    '"',
    "'",
    "`${alert(1)}`",
    "\\",
    "\u2028",
    "\u2029",
    "\u0000",
    "[bold]x[/]",
    "{{x}}",
    "é",
    "♠",
    " ",
]
hostile = st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=5)), min_size=1, max_size=6).map(
    "".join
)


def template_parts() -> tuple[str, str, str]:
    """The page's template around its two markers: before the title, between, after the model."""
    template = resources.files("recordkit.view").joinpath(TEMPLATE).read_text(encoding="utf-8")
    head, rest = template.split(TITLE_MARKER)
    middle, tail = rest.split(MODEL_MARKER)
    return head, middle, tail


def hostile_record(game: str, players: int, seed: int, names: list[str], texts: list[str]) -> dict[str, Any]:
    """A generated record whose players, comments and meta tags are hostile strings."""
    data: dict[str, Any] = json.loads(json.dumps(to_data(generate_record(RULESETS[game], players, 2, seed))))
    data["players"] = [f"{name}{seat}" for seat, name in enumerate(names[:players])]  # distinct names
    data["comment"] = texts[0]
    data["meta"] = {texts[1]: texts[2], "event": texts[0]}
    for deal, text in zip(data["deals"], texts, strict=False):
        deal["comment"] = text
    return data


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from([("french-tarot", 4), ("charlemagne", 4), ("karnoffel", 4), ("joffre", 4)]),
    st.integers(0, 1_000),
    st.lists(hostile, min_size=4, max_size=4),
    st.lists(hostile, min_size=3, max_size=3),
    st.booleans(),
)
def test_hostile_strings_reach_the_page_only_escaped(
    game: tuple[str, int], seed: int, names: list[str], texts: list[str], strict: bool
) -> None:
    data = hostile_record(*game, seed, names, texts)
    raw = RawRecord(data, Location())
    report = view_report(raw, strict)
    if report.record is None:  # a name the format refuses (a control character): nothing to show
        return
    model = record_model(report, data)
    page = render(model, 1).decode()
    head, middle, tail = template_parts()
    assert page.startswith(head) and page.endswith(tail), "the page's markup was changed"
    title, _, data_text = page[len(head) : len(page) - len(tail)].partition(middle)
    assert not re.search(r"[<>]|&(?!amp;|lt;|gt;)", title), title
    assert not re.search(r"[<>&]", data_text), "the model must not be able to end its script"
    assert json.loads(data_text) == json.loads(json.dumps({"model": compact(model), "open": 1}))
    shown = title.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
    assert shown == f"{model['title']}: {', '.join(model['players'])}"
