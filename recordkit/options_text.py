"""A game's variant options as the command line takes them (`-o NAME=VALUE`), and what is wrong
with them in the project's words: the option named, the values it takes, the nearest one."""

from __future__ import annotations

import difflib
import types
from typing import Any, Literal, Union, get_args, get_origin

import annotated_types
import orjson
from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo


class OptionError(ValueError):
    """Options a game does not take: one line for each problem."""


def parse_options(pairs: list[str]) -> dict[str, Any]:
    """`NAME=VALUE` pairs as options: a value that reads as JSON (true, 3) is that, else its text."""
    options: dict[str, Any] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise OptionError(f"-o takes NAME=VALUE (e.g. -o misere=true), not {pair!r}")
        try:
            options[name.strip()] = orjson.loads(value)
        except orjson.JSONDecodeError:
            options[name.strip()] = value
    return options


def check_options(title: str, model: type[BaseModel], options: dict[str, Any]) -> None:
    """Raise OptionError, in words, if the game `title` (its options `model`) does not take them."""
    try:
        model.model_validate(options)
    except ValidationError as error:
        problems = [_problem(title, model, e["loc"], options) for e in error.errors()]
        raise OptionError("\n".join(dict.fromkeys(problems))) from None


def _problem(title: str, model: type[BaseModel], loc: tuple[Any, ...], options: dict[str, Any]) -> str:
    """One option's problem: an unknown name (with the nearest names), or a value it does not take."""
    name = str(loc[0]) if loc else ""
    field = model.model_fields.get(name)
    if field is None:
        known = list(model.model_fields)
        return f"{title} has no option {name!r}.{_nearest(name, known)} Its options: {', '.join(known)}"
    value = options.get(name)
    allowed, choices = _allowed(field)
    given = value if isinstance(value, str) else orjson.dumps(value).decode()
    nearest = _nearest(given, choices) if choices else ""
    return f"-o {name}={given}: {name} is {allowed}, not {given}.{nearest}\n  {name}: {field.description}"


def _allowed(field: FieldInfo) -> tuple[str, list[str]]:
    """What a field takes, in words, and its choices as typed on the command line."""
    annotation = field.annotation
    if get_origin(annotation) in (Union, types.UnionType):
        annotation = next(a for a in get_args(annotation) if a is not type(None))
    if get_origin(annotation) is Literal:
        choices = [_typed(value) for value in get_args(annotation)]
        return f"one of {', '.join(choices)}", choices
    if annotation is bool:
        return "true or false", ["true", "false"]
    if annotation is int:
        return _bounded("a whole number", field), []
    if annotation is float:
        return _bounded("a number", field), []
    return "a value of another kind", []


def _typed(value: object) -> str:
    """A choice as it is typed after `=`."""
    return value if isinstance(value, str) else orjson.dumps(value).decode()


def _bounded(kind: str, field: FieldInfo) -> str:
    """`a whole number from 1 to 100`, `at least 0`: a number's bounds, in words."""
    low = high = None
    for bound in field.metadata:
        if isinstance(bound, annotated_types.Ge):
            low = bound.ge
        elif isinstance(bound, annotated_types.Le):
            high = bound.le
    if low is not None and high is not None:
        return f"{kind} from {low} to {high}"
    if low is not None:
        return f"{kind}, at least {low}"
    return f"{kind}, at most {high}" if high is not None else kind


def _nearest(given: str, choices: list[str]) -> str:
    """` Did you mean misere?` when a choice is close to what was typed."""
    close = difflib.get_close_matches(given, choices, n=1, cutoff=0.6)
    return f" Did you mean {close[0]}?" if close else ""
