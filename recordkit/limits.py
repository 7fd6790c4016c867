"""The value limits of the format (spec/FORMAT.md, "Limits"): how long a text, a list and an
object of a record may be, checked on the parsed JSON before the record's model is built, so that
a hostile size costs a walk over what was read and nothing more. A record or deal whose JSON
is short enough is settled without the walk.

A card group's own limit (`model.MAX_CARDS`) is checked by the model before the group is split.
"""

from __future__ import annotations

from typing import Any

import orjson

MAX_TEXT = 10_000
"""Characters in any text of a record: a name, a comment, a card group, a key."""
MAX_ITEMS = 1_000
"""Items in any list of a record but its deals: the calls of an auction, the tricks of a deal..."""
MAX_DEALS = 10_000
"""Deals in one record."""
MAX_KEYS = 1_000
"""Keys in any object of a record (the free-form `meta` tags included)."""

Path = tuple[str | int, ...]


def within_limits(data: Any, text: bytes | None = None) -> bool:
    """Whether no text, list or object of a parsed record is longer than the format allows: the
    record, else each deal, settled by its JSON when that is short (`short_text`: the `text` it
    was parsed from when given, else its compact JSON), and only what is not walked over its
    containers, without building a path."""
    if type(data) is not dict and type(data) is not list:
        return True
    if (text is not None and short_text(text)) or _short(data):
        return True
    stack = [data]
    if type(data) is dict and type(data.get("deals")) is list:
        if len(data["deals"]) > MAX_DEALS or any(
            type(deal) is str and len(deal) > MAX_TEXT for deal in data["deals"]
        ):  # a deal written as a text is a text of the record, too
            return False
        stack = [
            {**data, "deals": None},
            *(deal for deal in data["deals"] if type(deal) in (dict, list) and not _short(deal)),
        ]
    return _walk(stack)


def _short(node: dict[str, Any] | list[Any]) -> bool:
    """True when a list or object is within the limits by its compact JSON alone (`short_text`);
    False when that does not settle it (or orjson cannot write it)."""
    try:
        text = orjson.dumps(node)
    except TypeError:  # orjson.JSONEncodeError: too deep, a number over 64 bits, a key not text
        return False
    return short_text(text)


def short_text(text: bytes) -> bool:
    """True when the value of a JSON text (UTF-8) is within the limits by the text alone: a text
    in it has no more characters than its bytes there, and a list of n items or an object of n
    keys writes n - 1 commas of its own, so under `MAX_TEXT` bytes and `MAX_ITEMS` commas nothing
    in it can be too long."""
    return len(text) <= MAX_TEXT and text.count(b",") < MAX_ITEMS


def _walk(stack: list[Any]) -> bool:
    """Whether no text, list or object in or under the lists and objects of `stack` is too long."""
    while stack:
        node = stack.pop()
        if type(node) is dict:
            if len(node) > MAX_KEYS or (node and max(map(len, node)) > MAX_TEXT):
                return False
            values: Any = node.values()
        elif len(node) > MAX_ITEMS:
            return False
        else:
            values = node
        for value in values:
            kind = type(value)
            if kind is str:
                if len(value) > MAX_TEXT:
                    return False
            elif kind is dict or kind is list:
                stack.append(value)
    return True


def oversized(data: Any) -> list[tuple[Path, str]]:
    """Each place of a parsed record that is longer than the format allows, with what it holds
    and what is allowed, in the record's order; the walk does not go into a list or object that is
    too long."""
    found: list[tuple[Path, str]] = []
    stack: list[tuple[Path, Any]] = [((), data)]
    while stack:
        path, node = stack.pop()
        if type(node) is str:
            if len(node) > MAX_TEXT:
                found.append(
                    (path, f"a text holds at most {MAX_TEXT:,} characters; this one has {len(node):,}")
                )
        elif type(node) is list:
            cap, what = (MAX_DEALS, "deals") if path == ("deals",) else (MAX_ITEMS, "items")
            if len(node) > cap:
                found.append((path, f"a list holds at most {cap:,} {what}; this one has {len(node):,}"))
            else:
                stack.extend(reversed([((*path, index), value) for index, value in enumerate(node)]))
        elif type(node) is dict:
            long_keys = [key for key in node if len(key) > MAX_TEXT]
            if len(node) > MAX_KEYS or long_keys:
                shown = f"{len(node):,} keys" if len(node) > MAX_KEYS else "a key too long"
                found.append(
                    (
                        path,
                        f"an object holds at most {MAX_KEYS:,} keys of {MAX_TEXT:,} characters; this one has {shown}",
                    )
                )
            else:
                stack.extend(reversed([((*path, key), value) for key, value in node.items()]))
    return found
