"""The shapes of a journal's lines: which fields a header and each kind of entry hold, of which type.

Every line of a journal is checked here before the recorder acts on it, so that a line written by
hand or damaged on disk is refused with a message naming what is wrong (spec/RECORDER.md), never
passed on to a ruleset as a value of the wrong type.
"""

from __future__ import annotations

from typing import Any

import orjson

_HEADER_OPTIONAL = {"options", "dealer", "keep_irregular", "meta"}
_ENTRY_FIELDS = {
    "deal": {"deal"},
    "act": {"act", "seat"},
    "undo": {"undo"},
    "abandon": {"abandon"},
    "meta": {"meta"},
}


def header_problem(header: dict[str, Any]) -> str | None:
    """What is wrong with the fields of a header line (its name and version already checked), or None."""
    unknown = sorted(set(header) - {"journal", "version", "game", "players"} - _HEADER_OPTIONAL)
    if unknown:
        return f"it has fields no journal of version 1 has: {', '.join(unknown)}"
    if not isinstance(header.get("game"), str):
        return f"`game` names the game as text, not {_shown(header.get('game'))}"
    players = header.get("players")
    if not isinstance(players, list) or not all(isinstance(name, str) for name in players):
        return f"`players` is the list of the players' names, in seat order, not {_shown(players)}"
    if "options" in header and not isinstance(header["options"], dict):
        return f"`options` is an object of option names and values, not {_shown(header['options'])}"
    if "dealer" in header and not _is_int(header["dealer"]):
        return f"`dealer` is the first dealer's seat, a whole number, not {_shown(header['dealer'])}"
    if "keep_irregular" in header and not isinstance(header["keep_irregular"], bool):
        return f"`keep_irregular` is true or false, not {_shown(header['keep_irregular'])}"
    if "meta" in header and not _is_meta(header["meta"]):
        return (
            f"`meta` is an object whose values are text, numbers or true/false, not {_shown(header['meta'])}"
        )
    return None


def entry_problem(entry: Any) -> str | None:
    """What is wrong with the shape of an entry line, or None: an object with one of `deal` (an
    object of the dealt fields), `act` (text, with an optional whole-number `seat`), `undo` or
    `abandon` (true), `meta` (the record's meta tags typed, an object of text, numbers, true/false)."""
    if not isinstance(entry, dict):
        return (
            "a journal entry is an object (a deal, an action, an undo, an abandon or meta tags), "
            f"not {_shown(entry)}"
        )
    kinds = [kind for kind in _ENTRY_FIELDS if kind in entry]
    if len(kinds) != 1:
        return "a journal entry names exactly one of a deal, an action, an undo, an abandon or meta tags"
    kind = kinds[0]
    unknown = sorted(set(entry) - _ENTRY_FIELDS[kind])
    if unknown:
        return f"an entry of kind `{kind}` has no field {', '.join(unknown)}"
    value = entry[kind]
    if kind == "deal" and not isinstance(value, dict):
        return f"`deal` is an object of the fields dealt (`{{}}` when none is known), not {_shown(value)}"
    if kind == "act" and not isinstance(value, str):
        return f"`act` is the text of the action typed, not {_shown(value)}"
    if kind == "act" and entry.get("seat") is not None and not _is_int(entry["seat"]):
        return f"`seat` is the seat that acted, a whole number, not {_shown(entry['seat'])}"
    if kind == "meta" and not _is_meta(value):
        return f"`meta` is an object whose values are text, numbers or true/false, not {_shown(value)}"
    if kind in ("undo", "abandon") and value is not True:
        return f"`{kind}` is written `true`, not {_shown(value)}"
    return None


def _is_int(value: Any) -> bool:
    """A JSON whole number (true and false are not numbers here)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _is_meta(value: Any) -> bool:
    """What a record's `meta` holds: an object of text, numbers and true/false."""
    return isinstance(value, dict) and all(
        isinstance(item, str | int | float | bool) for item in value.values()
    )


def _shown(value: Any) -> str:
    """A value as a message shows it: `null`, `true`, `a list`, `an object`, or `the number 5`,
    `the text "ABCD"` (the value left out when long)."""
    if value is None or isinstance(value, bool):
        return orjson.dumps(value).decode()
    if isinstance(value, dict | list):
        return "an object" if isinstance(value, dict) else "a list"
    text = orjson.dumps(value).decode()
    if len(text) > 30:
        return "a long text" if isinstance(value, str) else "a long number"
    return f"the text {text}" if isinstance(value, str) else f"the number {text}"
