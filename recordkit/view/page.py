"""`recordkit view`: one self-contained HTML page (inline CSS and JavaScript, cards drawn as text;
no network) that renders the replay model embedded in it. The page's script only draws the
model: every fact, point and score in it comes from the engine and the rulesets."""

from __future__ import annotations

import copy
from importlib import resources
from itertools import pairwise
from typing import Any

import orjson

TEMPLATE = "page.html"
"""The page's HTML, CSS and script (`recordkit/view/page.html`), with `/*MODEL*/` where the model goes."""


def compact(model: dict[str, Any]) -> dict[str, Any]:
    """The model as the page embeds it: a trick's `hands` left out (null) where they are exactly
    the previous trick's hands less the cards played in it, which the page then shows as such;
    checked here trick by trick, so the page infers nothing the model does not say."""
    out = copy.deepcopy(model)
    for deal in out["deals"]:
        tricks = deal.get("tricks") or []
        for earlier, trick in reversed(list(pairwise(tricks))):
            if earlier["hands"] is not None and trick["hands"] == _less(earlier):
                trick["hands"] = None
                trick["hands_follow"] = True
    return out


def _less(trick: dict[str, Any]) -> list[str]:
    """The hands before a trick less the cards each seat played to it."""
    played = {(card["seat"], card["code"]) for card in trick["cards"]}
    return [
        " ".join(code for code in hand.split() if (seat, code) not in played)
        for seat, hand in enumerate(trick["hands"])
    ]


def render(model: dict[str, Any], deal: int | None = None) -> bytes:
    """The page for a record's model, opening at deal `deal` (from 1) or at the score sheet."""
    template = resources.files("recordkit.view").joinpath(TEMPLATE).read_text(encoding="utf-8")
    data = orjson.dumps({"model": compact(model), "open": deal}).decode()
    data = data.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    title = f"{model['title']}: {', '.join(model['players'])}"
    escaped = title.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return template.replace("/*TITLE*/", escaped).replace("/*MODEL*/", data).encode()
