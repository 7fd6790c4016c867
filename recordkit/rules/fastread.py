"""Reading the parts of a record straight from parsed JSON, for the games' fast paths.

Each reader accepts only what the record models accept without a word and without re-spelling
(canonical card codes, call names as the game writes them, seats as integers) and says None to
anything else, so that the full path reads it and explains it. See `recordkit.quick`.
"""

from __future__ import annotations

from itertools import repeat
from typing import Any

CardIds = dict[str, int]
"""A deck's canonical codes and their ids (no aliases: an alias goes to the full path)."""
CardBits = dict[str, int]
"""A deck's canonical codes and their bitmasks (`1 << id`)."""
ReadTrick = tuple[list[int], int | None, int | None]
"""A trick as read: its cards in play order, and the leader and winner it states (None if not)."""

TRICK_KEYS = frozenset({"cards", "leader", "winner", "comment", "time"})
CALL_KEYS = frozenset({"call", "seat", "comment", "time"})
MAX_SEAT = 7
_ONE = 1


def card_ids(deck_ids: CardIds, text: Any) -> list[int] | None:
    """The ids of a card group written as canonical codes separated by single spaces."""
    if type(text) is not str:
        return None
    try:
        return list(map(deck_ids.__getitem__, text.split(" ")))
    except KeyError:
        return None


def card_bits(deck_ids: CardIds) -> CardBits:
    """A deck's canonical codes and their bitmasks (for reading groups of cards as masks)."""
    return {code: 1 << card for code, card in deck_ids.items()}


def group_mask(deck_bits: CardBits, text: Any, size: int) -> int | None:
    """The bitmask of a card group of exactly `size` different cards."""
    masks = group_masks(deck_bits, [text], [size])
    return None if masks is None else masks[0]


def group_masks(deck_bits: CardBits, texts: list[Any], sizes: list[int]) -> list[int] | None:
    """The bitmasks of several card groups (the hands and the dog), each of exactly its size in
    different cards. Each group's bits are summed: with exactly `size` codes, the sum has `size`
    bits set only if no card repeats (a repeated card carries into another bit)."""
    if _code_counts(texts) != [size - 1 for size in sizes]:
        return None
    try:
        masks = [sum(map(deck_bits.__getitem__, text.split(" "))) for text in texts]
    except KeyError:
        return None
    return masks if list(map(int.bit_count, masks)) == sizes else None


def tricks(deck_ids: CardIds, entries: list[Any], size: int) -> list[ReadTrick] | None:
    """Each trick's cards (exactly `size`) with the leader and winner it states, as `trick` reads
    them; tricks written as plain strings, the usual form, are read in one pass."""
    counts = _code_counts(entries)
    if counts is not None and (not entries or set(counts) == {size - 1}):
        cards = card_ids(deck_ids, " ".join(entries)) if entries else []
        if cards is None:
            return None
        return [(cards[start : start + size], None, None) for start in range(0, len(cards), size)]
    read = [trick(deck_ids, entry) for entry in entries]
    if any(entry is None or len(entry[0]) != size for entry in read):
        return None
    return read  # type: ignore[return-value]


def _code_counts(texts: list[Any]) -> list[int] | None:
    """The number of spaces in each of a list of strings (codes - 1 in a canonical group), or None
    if one of them is not a string."""
    try:
        return list(map(str.count, texts, repeat(" ")))
    except TypeError:
        return None


def seat_or_none(value: Any) -> bool:
    """Whether a written seat is absent or a seat number (the model's `Seat | None`)."""
    return value is None or (type(value) is int and 0 <= value <= MAX_SEAT)


def notes_ok(entry: dict[str, Any]) -> bool:
    """Whether an object's `comment` and `time` are absent or text."""
    return all(entry.get(key) is None or type(entry[key]) is str for key in ("comment", "time"))


def trick(deck_ids: CardIds, entry: Any) -> ReadTrick | None:
    """A trick's cards and the leader and winner it states (None where it states none)."""
    if type(entry) is str:
        cards = card_ids(deck_ids, entry)
        return None if cards is None else (cards, None, None)
    if type(entry) is not dict or not TRICK_KEYS.issuperset(entry) or not notes_ok(entry):
        return None
    leader, winner = entry.get("leader"), entry.get("winner")
    cards = card_ids(deck_ids, entry.get("cards"))
    if cards is None or not seat_or_none(leader) or not seat_or_none(winner):
        return None
    return cards, leader, winner


def call(entry: Any) -> tuple[str, int | None] | None:
    """A call's name and the seat it states: a bare name, or an object with `call` and notes."""
    if type(entry) is str:
        return entry, None
    if type(entry) is not dict or not CALL_KEYS.issuperset(entry) or not notes_ok(entry):
        return None
    name, seat = entry.get("call"), entry.get("seat")
    if type(name) is not str or not seat_or_none(seat):
        return None
    return name, seat
