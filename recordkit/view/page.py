"""`recordkit view`: one self-contained HTML page (inline CSS and JavaScript, cards drawn as text;
no network) that renders the replay model embedded in it. The page's script only draws the
model: every fact, point and score in it comes from the engine and the rulesets."""

from __future__ import annotations

import copy
from dataclasses import fields
from importlib import resources
from itertools import pairwise
from typing import Any

import orjson

from recordkit.rules.values import DealSummary

TEMPLATE = "page.html"
"""The page's HTML, CSS and script (`recordkit/view/page.html`), with `/*TITLE*/` where the title
goes, then `/*MODEL*/` where the model goes, each once."""
TITLE_MARKER = "/*TITLE*/"
MODEL_MARKER = "/*MODEL*/"


TRICK_FIELDS = (
    "leader",
    "winner",
    "cards",
    "seats",
    "points",
    "running",
    "running_sides",
    "notes",
    "hands",
)
"""A trick's fields as the page packs them, in order (`pack_trick`)."""


SUMMARY_FIELDS = tuple(field.name for field in fields(DealSummary))
"""The summary's fields as the page packs them, in order."""


def compact(model: dict[str, Any]) -> dict[str, Any]:
    """The model as the page embeds it, packed to stay small (a record of 1,000 deals in well under
    2 MB): each trick an array of `TRICK_FIELDS` with its cards and seats apart, each call an
    array, each group and summary an array, each group's cards one string (`?` for a card not known), and a trick's `hands` null
    where they are exactly the previous trick's hands less the cards played in it (the first
    trick's, each hand that is exactly as dealt); checked here
    trick by trick, so that unpacking them infers nothing the model does not say. The shares are
    left out: the page shows the running points. The words the deals repeat (a call's kind, a
    step of the working) are numbers into `words`; hands all empty at the end are null."""
    out = copy.deepcopy(model)
    words: dict[str, int] = {}

    def word(text: str) -> int:
        """The number of a word the deals repeat (a call's kind, a step of the working)."""
        return words.setdefault(text, len(words))

    for deal in out["deals"]:
        tricks = deal.get("tricks") or []
        follows = [False] + [trick["hands"] == _less(earlier) for earlier, trick in pairwise(tricks)]
        dealt = {
            g["path"]: " ".join("?" if c is None else c for c in g["cards"]) for g in deal.get("groups", [])
        }
        deal["tricks"] = (
            [
                pack_trick(t, follow, dealt if index == 0 else {})
                for index, (t, follow) in enumerate(zip(tricks, follows, strict=True))
            ]
            if tricks
            else None
        )
        deal["groups"] = [
            [
                g["path"],
                g["name"],
                g["seat"],
                " ".join("?" if c is None else c for c in g["cards"]),
                g["derived"],
            ]
            for g in deal.get("groups", [])
        ]
        if deal.get("summary") is not None:
            deal["summary"] = [deal["summary"][name] for name in SUMMARY_FIELDS]
        deal["calls"] = [[c["seat"], word(c["kind"]), c["text"], c["path"]] for c in deal.get("calls", [])]
        deal["working"] = [[word(what), value] for what, value in deal.get("working", [])]
        if not any(deal.get("end_hands") or []):
            deal["end_hands"] = None
    out["words"] = list(words)
    out["trick_fields"] = list(TRICK_FIELDS)
    out["summary_fields"] = list(SUMMARY_FIELDS)
    return out


def pack_trick(trick: dict[str, Any], follows: bool, dealt: dict[str, str]) -> list[Any]:
    """A trick as an array of `TRICK_FIELDS`: its cards as one string and their seats as a list,
    its hands null when they follow from the previous trick's, and a hand null where it is the
    hand as dealt (`dealt`, the deal's groups by path: given for the first trick)."""
    sides = trick["running_sides"]
    hands = [
        None if dealt.get(f"hands[{seat}]") == hand else hand for seat, hand in enumerate(trick["hands"])
    ]
    return [
        trick["leader"],
        trick["winner"],
        " ".join(card["code"] for card in trick["cards"]),
        [card["seat"] for card in trick["cards"]],
        trick["points"],
        trick["running"],
        None if sides is None else [sides["declarer"], sides["others"]],
        [[note["after"], note["text"]] for note in trick["notes"]] or None,
        None if follows else hands,
    ]


def _less(trick: dict[str, Any]) -> list[str]:
    """The hands before a trick less the cards each seat played to it."""
    played = {(card["seat"], card["code"]) for card in trick["cards"]}
    return [
        " ".join(code for code in hand.split() if (seat, code) not in played)
        for seat, hand in enumerate(trick["hands"])
    ]


def render(model: dict[str, Any], deal: int | None = None) -> bytes:
    """The page for a record's model, opening at deal `deal` (from 1) or at the score sheet. The
    title and the model go in their markers' one place each, whatever they hold: a name that
    writes a marker is text, not a place to fill."""
    template = resources.files("recordkit.view").joinpath(TEMPLATE).read_text(encoding="utf-8")
    data = orjson.dumps({"model": compact(model), "open": deal}).decode()
    data = data.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    title = f"{model['title']}: {', '.join(model['players'])}"
    escaped = title.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    head, rest = template.split(TITLE_MARKER)
    middle, tail = rest.split(MODEL_MARKER)
    return "".join((head, escaped, middle, data, tail)).encode()
