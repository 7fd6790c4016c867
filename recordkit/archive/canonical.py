"""Deciding from parsed JSON, without pydantic, that a deal the fast path proved is already written
in canonical form, so that the archive stores its text as it is (spec/ARCHIVE.md, "Converting").

Canonical form is what `codec.to_data` writes: the model's key order, defaults written, no nulls,
the compact forms (a card group as one string, a bare call), whole numbers of points as integers.
A deal is accepted only in the plain form every writer of recordkit produces; anything else (an
object form, a fact on the score line, a null, a list for a card group) is refused and the record
takes the pydantic round trip, so a refusal costs time, never a byte. The spelling of each card
and call the fast path has already proven (`recordkit.rules.fastread` reads canonical codes and
call names only). `tests/test_archive_canonical.py` holds the decision to the model's dump on
generated and mutated deals of every game.
"""

from __future__ import annotations

import typing
from collections.abc import Callable
from functools import cache
from typing import Any

from pydantic import BaseModel

from recordkit.cards import PLAIN_GROUP
from recordkit.games import RULESETS
from recordkit.model import MAX_CARDS, POINTS_LIMIT, SEATS, Call, Status
from recordkit.rules.values import QuickDeal

Check = Callable[[Any], bool]
NOTES = ("comment", "time")
"""The fields `model.notes_last` writes after all others."""


def _seat(value: Any) -> bool:
    return type(value) is int and 0 <= value < SEATS


def _cards(value: Any) -> bool:
    """A card group as one string of upper-case codes separated by single spaces."""
    return type(value) is str and value.count(" ") < MAX_CARDS and PLAIN_GROUP.fullmatch(value) is not None


def _code(value: Any) -> bool:
    return _cards(value) and " " not in value


def _groups(value: Any) -> bool:
    """Card groups (the hands, the tricks) as strings: the fast path reads each as canonical
    codes split at single spaces (`fastread.group_masks`, `fastread.tricks`), or not at all."""
    if type(value) is not list:
        return False
    try:
        " ".join(value)  # strings only: anything else is refused in C
    except TypeError:
        return False
    return True


def _calls(value: Any) -> bool:
    """Calls written bare (their spelling is the fast path's to prove)."""
    return type(value) is list and all(type(call) is str for call in value)


def _windows(value: Any) -> bool:
    """Karnöffel's proposal windows: lists of bare calls."""
    return type(value) is list and all(_calls(window) for window in value)


def _points(value: Any) -> bool:
    """A number of points as canonical form writes it: whole numbers as integers."""
    kind = type(value)
    if kind is int:
        return bool(-POINTS_LIMIT <= value <= POINTS_LIMIT)
    return kind is float and -POINTS_LIMIT <= value <= POINTS_LIMIT and not value.is_integer()


def _numbers(value: Any) -> bool:
    return type(value) is list and all(_points(v) for v in value)


def _result(value: Any) -> bool:
    """A score line with the scores only (facts beside them take the round trip)."""
    return type(value) is dict and list(value) == ["scores"] and _numbers(value["scores"])


def _text(value: Any) -> bool:
    return type(value) is str


def _whole(value: Any) -> bool:
    return type(value) is int and -POINTS_LIMIT <= value <= POINTS_LIMIT


def _answers(value: Any) -> bool:
    """Maine's defence: answers written bare, or with the seat that says them where the model
    writes it (either defender may answer: `maine_lone_defender_priority` "either"); an empty
    list is left out of the canonical form."""
    return (
        type(value) is list
        and len(value) > 0
        and all(
            type(answer) is str
            or (type(answer) is dict and "seat" in answer and _object(SEATED_CALL, answer))
            for answer in value
        )
    )


def _knocks(value: Any) -> bool:
    """Charlemagne's knocks as objects of their model, in the order of play (the model sorts
    them); an empty list is left out of the canonical form."""
    if type(value) is not list or not value:
        return False
    if not all(type(knock) is dict and _object(KNOCK, knock) for knock in value):
        return False
    places = [(knock["trick"], knock["after"]) for knock in value]
    return places == sorted(places)


def _claim(value: Any) -> bool:
    return type(value) is dict and _object(CLAIM, value)


def _one_of(*choices: str) -> Check:
    """A value of a Literal written exactly as one of its choices (no alias, no other case)."""
    return lambda value: type(value) is str and value in choices


def _announcements(value: Any) -> bool:
    """French Tarot's announcements as objects of their own model, in its canonical key order."""
    return type(value) is list and all(
        type(entry) is dict and _object(ANNOUNCEMENTS.get(str(entry.get("type"))), entry) for entry in value
    )


def _literal_choices(model: type[BaseModel], name: str) -> tuple[str, ...]:
    """The choices of a model's Literal field, as its schema states them."""
    return typing.get_args(model.model_fields[name].annotation)


def _announcement_fields() -> dict[str, tuple[type[BaseModel], dict[str, Check]]]:
    """Each announcement's model and the check of each of its fields, by its `type`."""
    from recordkit.rules.french_tarot.record import Misere, Poignee, Slam

    return {
        "poignee": (
            Poignee,
            {
                "type": _one_of("poignee"),
                "seat": _seat,
                "level": _one_of(*_literal_choices(Poignee, "level")),
                "cards": _cards,
            },
        ),
        "slam": (Slam, {"type": _one_of("slam"), "seat": _seat}),
        "misere": (
            Misere,
            {"type": _one_of("misere"), "seat": _seat, "kind": _one_of(*_literal_choices(Misere, "kind"))},
        ),
    }


ANNOUNCEMENTS = _announcement_fields()


def _charlemagne_fields() -> tuple[
    tuple[type[BaseModel], dict[str, Check]], tuple[type[BaseModel], dict[str, Check]]
]:
    """Charlemagne's knock and claim models and the check of each of their fields."""
    from recordkit.rules.charlemagne.record import Claim, Knock

    notes = {"comment": _text, "time": _text}
    return (
        (Knock, {"seat": _seat, "trick": _whole, "after": _whole, **notes}),
        (Claim, {"seat": _seat, "tricks": _whole, **notes}),
    )


KNOCK, CLAIM = _charlemagne_fields()
SEATED_CALL: tuple[type[BaseModel], dict[str, Check]] = (Call, {"call": _text, "seat": _seat})
"""A call whose seat is written beside it, as the model dumps it (a bare call is a text)."""

COMMON: dict[str, Check] = {
    "dealer": _seat,
    "hands": _groups,
    "tricks": _groups,
    "status": _one_of(*typing.get_args(Status)),
    "result": _result,
    "totals": _numbers,
    "comment": _text,
    "time": _text,
}
"""The fields every game's deal has, and how each is written in plain canonical form."""

FIELDS: dict[str, dict[str, Check]] = {
    "french-tarot": {
        **COMMON,
        "dog": _cards,
        "auction": _calls,
        "call": _code,
        "discard": _cards,
        "announcements": _announcements,
    },
    "charlemagne": {
        **COMMON,
        "kitty": _cards,
        "auction": _calls,
        "partner_card": _code,
        "discard": _cards,
        "trump": _one_of("S", "H", "D", "C"),
        "defence": _answers,
        "defender_card": _code,
        "defender_discard": _cards,
        "knocks": _knocks,
        "claim": _claim,
    },
    "joffre": {**COMMON, "auction": _calls, "trump": _one_of("E", "F", "R", "G", "none")},
    "karnoffel": {
        **COMMON,
        "faceup": _cards,
        "chosen_suit": _one_of("S", "C", "H", "D"),
        "proposals": _windows,
    },
}
"""By game, the deal's fields accepted in plain form; a deal with any other field takes the round
trip."""


def canonical_order(model: type[BaseModel]) -> tuple[list[str], set[str]]:
    """A model's fields in the order its canonical dump writes them, and those it always writes
    (a default other than null is written out)."""
    names = [name for name in model.model_fields if name not in NOTES]
    names += [name for name in NOTES if name in model.model_fields]
    always = {
        name
        for name, info in model.model_fields.items()
        if info.is_required() or info.default_factory is not None or info.default is not None
    }
    return names, always


def _keys_canonical(model: type[BaseModel], keys: tuple[str, ...], known: dict[str, Check]) -> bool:
    """Whether an object's keys, in the order written, are its model's canonical ones: known to
    the plain form, in the dump's order, with every field the dump always writes."""
    order, always = canonical_order(model)
    if not set(known).issuperset(keys) or not always.issubset(keys):
        return False
    places = [order.index(key) for key in keys]
    return places == sorted(places)


KEYS_SEEN: dict[tuple[type[BaseModel], tuple[str, ...]], list[Check] | None] = {}
"""For each model and keys met so far (a few of each), the checks of their values in order when
the keys are canonical (`_keys_canonical`), else None."""


def _object(found: tuple[type[BaseModel], dict[str, Check]] | None, value: dict[str, Any]) -> bool:
    """Whether an object is its model's canonical dump, by its keys and each field's check."""
    if found is None:
        return False
    model, checks = found
    keys = (model, tuple(value))
    if keys not in KEYS_SEEN:
        canonical = _keys_canonical(model, keys[1], checks)
        KEYS_SEEN[keys] = [checks[key] for key in keys[1]] if canonical else None
    ordered = KEYS_SEEN[keys]
    return ordered is not None and all(
        check(item) for check, item in zip(ordered, value.values(), strict=True)
    )


@cache
def _deal_checks(game: str) -> tuple[type[BaseModel], dict[str, Check]]:
    return RULESETS[game].Deal, FIELDS[game]


def deal_is_canonical(game: str, deal: Any) -> bool:
    """Whether a deal's parsed JSON is its canonical form already, so that storing its text as
    written is storing the model's dump (for a deal the fast path read whole: its codes and calls
    are canonical, see `written_canonical`)."""
    return type(deal) is dict and game in FIELDS and _object(_deal_checks(game), deal)


def written_canonical(game: str, deals: list[Any], proven: list[QuickDeal]) -> bool:
    """Whether every deal of a record the fast path proved is written in canonical form. A deal
    with dealt cards left out is not: the fast path read it completed (`QuickDeal.completion`),
    so it vouches for the spelling of what it derived, not of what was written."""
    return all(
        quick.completion is None and deal_is_canonical(game, deal)
        for deal, quick in zip(deals, proven, strict=True)
    )
