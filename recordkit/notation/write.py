"""Writing a record in the canonical form of the recordkit notation (spec/NOTATION.md, "Canonical form").

One form for every record: the tags, then each deal as `deal N` and its statements in a fixed
order, the short form of each value where it holds the value exactly, `keyword = JSON` where it
does not. Reading the text back gives the record's JSON data exactly.
"""

from __future__ import annotations

import json
import re
from typing import Any

from recordkit.model import FORMAT_NAME, FORMAT_VERSION
from recordkit.notation.keys import STRUCTURE, Keys, Kind, keywords

_BARE = re.compile(r"[A-Za-z0-9_.+\-]+")
_NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?")
_CARD = re.compile(r"[A-Z0-9]+")
_DEFAULTS: dict[str, Any] = {
    "auction": [],
    "tricks": [],
    "announcements": [],
    "proposals": [],
    "status": "played",
}
"""Deal fields left out of the text when they hold their default (the reader's record gets it back)."""
_RESERVED_TAGS = frozenset({"game", "format", "version", "players", "option", "comment", "meta"})


def write_text(data: dict[str, Any], defaults: dict[str, Any] | None = None) -> str:
    """The canonical text of a record's canonical JSON data; `defaults` are the game's default
    options, left out of the text."""
    lines = _envelope(data, defaults or {})
    keys = keywords(str(data.get("game")))
    players = len(data.get("players") or [])
    for number, deal in enumerate(data.get("deals") or [], start=1):
        lines.append("")
        lines.extend(_deal(number, deal, keys, players))
    return "\n".join(lines) + "\n"


def _envelope(data: dict[str, Any], defaults: dict[str, Any]) -> list[str]:
    """The tag lines: game, format and version when not the current ones, players, options,
    meta tags and the record's comment."""
    lines = [f"[Game {_quoted(data.get('game'))}]"]
    if data.get("format", FORMAT_NAME) != FORMAT_NAME:
        lines.append(f"[Format {_quoted(data['format'])}]")
    if data.get("version", FORMAT_VERSION) != FORMAT_VERSION:
        lines.append(f"[Version {_quoted(data['version'])}]")
    lines.append("[Players " + " ".join(_quoted(name) for name in data.get("players") or []) + "]")
    for name, value in (data.get("options") or {}).items():
        if defaults.get(name, _MISSING) != value:
            lines.append(f"[Option {_name(name)} {_tag_value(value)}]")
    for name, value in (data.get("meta") or {}).items():
        if _BARE.fullmatch(name) and name.lower() not in _RESERVED_TAGS:
            lines.append(f"[{name} {_tag_value(value)}]")
        else:
            lines.append(f"[Meta {_quoted(name)} {_tag_value(value)}]")
    if "comment" in data:
        lines.append(f"[Comment {_quoted(data['comment'])}]")
    return lines


_MISSING = object()


def _deal(number: int, deal: dict[str, Any], keys: Keys, players: int) -> list[str]:
    """The lines of one deal: `deal N` with the dealer, the hands, the statements, the tricks,
    the result and totals."""
    head = f"deal {number}"
    lines: list[str] = []
    rest = dict(deal)
    if type(rest.get("dealer")) is int:
        head += f" dealer {rest.pop('dealer')}"
    hands = rest.pop("hands", _MISSING)
    if hands is not _MISSING:
        lines.extend(_hands(hands, players))
    tricks = rest.pop("tricks", [])
    result = rest.pop("result", _MISSING)
    totals = rest.pop("totals", _MISSING)
    announcements = rest.pop("announcements", [])
    knocks = rest.pop("knocks", None)
    claim = rest.pop("claim", None)
    for key, value in rest.items():
        if _DEFAULTS.get(key, _MISSING) != value:
            lines.append(_statement(key, value, keys))
    lines.extend(_announcement(item) for item in announcements)
    if knocks is not None:
        short = isinstance(knocks, list) and bool(knocks)
        lines.extend(
            _seated_line("knock", k, ("seat", "trick", "after")) for k in knocks
        ) if short else lines.append(_json_statement("knocks", knocks))
    if claim is not None:
        lines.append(_seated_line("claim", claim, ("seat", "tricks")))
    if isinstance(tricks, list):
        lines.extend(_trick(trick) for trick in tricks)
    else:
        lines.append(_json_statement("tricks", tricks))
    facts = len(lines)
    if result is not _MISSING:
        lines.extend(_result(result, keys))
    if totals is not _MISSING:
        lines.append(_statement("totals", totals, keys))
    if facts == 0 and 0 < len(lines) <= 2 and "=" not in " ".join(lines):
        return [" ".join([head, *lines])]
    return [head, *lines]


def _hands(hands: Any, players: int) -> list[str]:
    """`hand SEAT cards` for each known hand; `hands = JSON` when the hands do not fit that form."""
    if (
        isinstance(hands, list)
        and len(hands) == players
        and any(hand is not None for hand in hands)
        and all(hand is None or _cards_fit(hand) for hand in hands)
    ):
        return [f"hand {seat} {hand}".rstrip() for seat, hand in enumerate(hands) if hand is not None]
    return [_json_statement("hands", hands)]


def _seated_line(key: str, item: Any, fields: tuple[str, ...]) -> str:
    """`knock SEAT TRICK AFTER` or `claim SEAT TRICKS`, a comment in quotes at the end; or `= JSON`."""
    if (
        isinstance(item, dict)
        and set(item) - {"comment"} == set(fields)
        and all(type(item[f]) is int and item[f] >= 0 for f in fields)
        and isinstance(item.get("comment", ""), str)
    ):
        tail = f" {_quoted(item['comment'])}" if "comment" in item else ""
        return f"{key} " + " ".join(str(item[f]) for f in fields) + tail
    return _json_statement(key, item)


def _trick(trick: Any) -> str:
    """A trick as its cards from the leader (then its leader, winner and comment if written), or
    `trick = JSON`."""
    if isinstance(trick, str) and trick and _cards_fit(trick) and not _keyword_like(trick.split(" ")[0]):
        return trick
    if (
        isinstance(trick, dict)
        and set(trick) - {"leader", "winner", "comment"} == {"cards"}
        and isinstance(trick["cards"], str)
        and trick["cards"]
        and _cards_fit(trick["cards"])
        and not _keyword_like(trick["cards"].split(" ")[0])
        and isinstance(trick.get("comment", ""), str)
        and all(type(trick[k]) is int and trick[k] >= 0 for k in ("leader", "winner") if k in trick)
    ):
        tail = "".join(f" {k} {trick[k]}" for k in ("leader", "winner") if k in trick)
        if "comment" in trick:
            tail += f" {_quoted(trick['comment'])}"
        return trick["cards"] + tail
    return _json_statement("trick", trick)


def _announcement(item: Any) -> str:
    """`announce poignee|slam|misere ...` in its short form (its comment in quotes at the end),
    or `announce = JSON`."""
    if isinstance(item, dict) and isinstance(item.get("comment"), str):
        bare = _announcement({k: v for k, v in item.items() if k != "comment"})
        return bare if "=" in bare else f"{bare} {_quoted(item['comment'])}"
    if isinstance(item, dict) and type(item.get("seat")) is int:
        kind = item.get("type")
        fields = set(item)
        if kind == "slam" and fields == {"type", "seat"}:
            return f"announce slam {item['seat']}"
        if kind == "misere" and fields == {"type", "seat", "kind"} and _word_fits(item["kind"]):
            return f"announce misere {item['seat']} {item['kind']}"
        if (
            kind == "poignee"
            and fields == {"type", "seat", "level", "cards"}
            and _word_fits(item["level"])
            and isinstance(item["cards"], str)
            and _cards_fit(item["cards"])
        ):
            return f"announce poignee {item['seat']} {item['level']} {item['cards']}".rstrip()
    return _json_statement("announce", item)


def _result(result: Any, keys: Keys) -> list[str]:
    """The result's statements, the scores last; `result = JSON` when a field has no keyword."""
    if not isinstance(result, dict) or any(keys.get(k, ("deal",))[0] != "result" for k in result):
        return [_json_statement("result", result)]
    facts = [_statement(k, v, keys) for k, v in result.items() if k != "scores"]
    line = " ".join(facts)
    tail = [_statement("scores", result["scores"], keys)] if "scores" in result else []
    if line and len(line) <= 60 and all("=" not in fact for fact in facts):
        return [line + (" " + tail[0] if tail else "")]
    return [*facts, *tail]


def _statement(key: str, value: Any, keys: Keys) -> str:
    """`keyword value` in the short form of the keyword's kind, or `keyword = JSON`."""
    kind = keys.get(key, ("deal", None))[1]
    short = _short(kind, value) if kind is not None and key not in STRUCTURE else None
    return f"{key} {short}".rstrip() if short is not None else _json_statement(key, value)


def _short(kind: Kind, value: Any) -> str | None:
    """A value in its kind's short form, or None where the short form would not read back as it."""
    if kind in ("seat", "whole"):
        return str(value) if type(value) is int and (kind == "whole" or value >= 0) else None
    if kind == "number":
        return _number(value)
    if kind == "scalar":
        return (
            str(value)
            if type(value) is int and value >= 0
            else value
            if _word_fits(value) and not _NUMBER.fullmatch(value)
            else None
        )
    if kind == "word":
        return value if _word_fits(value) else _quoted(value) if isinstance(value, str) else None
    if kind == "card":
        return value if isinstance(value, str) and _CARD.fullmatch(value) else None
    if kind == "cards":
        return value if isinstance(value, str) and (value == "" or _cards_fit(value)) else None
    if kind == "text":
        return _quoted(value) if isinstance(value, str) else None
    if not isinstance(value, list):
        return None
    if kind == "numbers":
        numbers = [_number(v) for v in value]
        return " ".join(numbers) if value and None not in numbers else None  # type: ignore[arg-type]
    if kind == "seats":
        return (
            " ".join(str(v) for v in value)
            if value and all(type(v) is int and v >= 0 for v in value)
            else None
        )
    if kind == "pairs":
        ok = value and all(
            isinstance(p, dict)
            and set(p) == {"seat", "level"}
            and type(p["seat"]) is int
            and p["seat"] >= 0
            and _word_fits(p["level"])
            and not _NUMBER.fullmatch(p["level"])
            for p in value
        )
        return " ".join(f"{p['seat']} {p['level']}" for p in value) if ok else None
    if kind == "calls":
        calls = [_call(v) for v in value]
        if not value or not all(calls):
            return None
        spaced = any(" " in (v if isinstance(v, str) else v["call"]) for v in value)
        return (", " if spaced else " ").join(calls)
    if kind == "windows":
        if not value or not all(isinstance(w, list) for w in value):
            return None
        windows = [_short("calls", w) if w else "-" for w in value]
        if None in windows or any(call in ("-", {"call": "-"}) for window in value for call in window):
            return None
        return " / ".join(str(w) for w in windows)
    return None


def _call(value: Any) -> str:
    """A call as its words (`word@SEAT` with its seat, its comment in quotes after it); '' when it
    has no short form."""
    if (
        isinstance(value, dict)
        and isinstance(value.get("comment", ""), str)
        and set(value) - {"seat", "comment"} == {"call"}
    ):
        seat = value.get("seat")
        if "seat" in value and not (type(seat) is int and seat >= 0):
            return ""
        words = _call(value["call"])
        if not words or (seat is not None and " " in words):
            return ""
        words += f"@{seat}" if seat is not None else ""
        return f"{words} {_quoted(value['comment'])}" if "comment" in value else words
    if (
        not isinstance(value, str)
        or not value
        or value != " ".join(value.split(" "))
        or not all(_word_fits(w) for w in value.split(" "))
    ):
        return ""
    return value


def _number(value: Any) -> str | None:
    """A number as JSON writes it, or None for anything else."""
    if type(value) is int or (type(value) is float and value == value and abs(value) != float("inf")):
        text = json.dumps(value)
        return text if _NUMBER.fullmatch(text) else None
    return None


def _word_fits(value: Any) -> bool:
    """True for text that reads back as itself as one bare word."""
    return isinstance(value, str) and _BARE.fullmatch(value) is not None


def _cards_fit(text: str) -> bool:
    """True for a card group of upper-case codes separated by single spaces."""
    return all(_CARD.fullmatch(code) for code in text.split(" ")) if text else False


def _keyword_like(code: str) -> bool:
    """True for a card code the reader would take for a misspelt keyword (letters only, four or more)."""
    return len(code) >= 4 and code.isalpha()


def _json_statement(key: str, value: Any) -> str:
    """`keyword = JSON`: the exact form for any value."""
    return f"{key} = {json.dumps(value, ensure_ascii=False)}"


def _quoted(value: Any) -> str:
    """Text in quotes, JSON's escapes."""
    return json.dumps(value if isinstance(value, str) else str(value), ensure_ascii=False)


def _name(name: str) -> str:
    """An option's name, quoted when it is not one bare word."""
    return name if _BARE.fullmatch(name) else _quoted(name)


def _tag_value(value: Any) -> str:
    """A tag's value: text in quotes, a number, true or false; anything else as `= JSON`."""
    if isinstance(value, str):
        return _quoted(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    number = _number(value)
    return number if number is not None else "= " + json.dumps(value, ensure_ascii=False)
