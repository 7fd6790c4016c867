"""The value limits of the format (spec/FORMAT.md, "Limits"): how long a text, a list and an
object of a record may be, checked on the parsed JSON before the record's model is built, so that
a hostile size costs a walk over what was read and nothing more.

A card group's own limit (`model.MAX_CARDS`) is checked by the model before the group is split.
"""

from __future__ import annotations

from typing import Any

MAX_TEXT = 10_000
"""Characters in any text of a record: a name, a comment, a card group, a key."""
MAX_ITEMS = 1_000
"""Items in any list of a record but its deals: the calls of an auction, the tricks of a deal..."""
MAX_DEALS = 10_000
"""Deals in one record."""
MAX_KEYS = 1_000
"""Keys in any object of a record (the free-form `meta` tags included)."""

Path = tuple[str | int, ...]


def within_limits(data: Any) -> bool:
    """Whether no text, list or object of a parsed record is longer than the format allows: one
    walk over the containers, without building a path (the common case costs little)."""
    if type(data) is not dict and type(data) is not list:
        return True
    stack = [data]
    if type(data) is dict and type(data.get("deals")) is list:
        if len(data["deals"]) > MAX_DEALS:
            return False
        stack = [{**data, "deals": None}, *(deal for deal in data["deals"] if type(deal) in (dict, list))]
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
