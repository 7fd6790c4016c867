"""Schema errors in the project's words: what a value should be and what was written instead,
never pydantic's own text, its URLs or the names of the models (issue 16)."""

from __future__ import annotations

import difflib
from typing import Any, get_args

from pydantic import BaseModel
from pydantic_core import core_schema

from recordkit.diagnostics import describe

_PYDANTIC_TYPES = frozenset(get_args(core_schema.ErrorType))
"""pydantic's own error types; any other is one of ours (PydanticCustomError) and says itself."""

_SHOULD_BE = {
    "string_type": "text in quotes",
    "int_type": "a whole number",
    "int_parsing": "a whole number",
    "int_from_float": "a whole number",
    "float_type": "a number",
    "float_parsing": "a number",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "list_type": "a list [...]",
    "tuple_type": "a list [...]",
    "set_type": "a list [...]",
    "dict_type": "an object {...}",
    "model_type": "an object {...}",
    "model_attributes_type": "an object {...}",
    "dataclass_type": "an object {...}",
    "none_required": "null",
}
"""What a value of the wrong type should have been, by pydantic error type."""

_BOUNDS = {
    "greater_than_equal": ("at least", "ge"),
    "greater_than": ("more than", "gt"),
    "less_than_equal": ("at most", "le"),
    "less_than": ("less than", "lt"),
}


def explain(error: Any, subject: str, model: Any = None) -> str:
    """One pydantic error as a sentence about `subject` (a path, or "option NAME")."""
    kind = error["type"]
    ctx = error.get("ctx") or {}
    got = describe(error.get("input"))
    if kind == "call_word" and isinstance(getattr(model, "call_words", None), str):
        return f"{subject}: a call is {model.call_words}; got {got}"
    if kind not in _PYDANTIC_TYPES:
        return f"{subject}: {error['msg']}"
    if kind in _SHOULD_BE:
        return f"{subject} should be {_SHOULD_BE[kind]}; got {got}"
    if kind in ("literal_error", "enum"):
        return f"{subject} should be {ctx.get('expected', 'one of the values the format lists')}; got {got}"
    if kind in _BOUNDS:
        words, key = _BOUNDS[kind]
        return f"{subject} should be {words} {ctx.get(key)}; got {got}"
    if kind in ("too_short", "too_long", "string_too_short", "string_too_long"):
        return _length(kind, ctx, subject)
    if kind == "union_tag_invalid":
        return (
            f"{subject}: {ctx.get('discriminator')} is {ctx.get('tag')!r}, "
            f"which is not one of {ctx.get('expected_tags')}"
        )
    if kind == "union_tag_not_found":
        return f"{subject} needs its {ctx.get('discriminator')} key"
    if kind in ("value_error", "assertion_error"):
        return f"{subject}: {str(error['msg']).split(', ', 1)[-1]}"
    return f"{subject}: this value is not accepted here; got {got}"


def _length(kind: str, ctx: dict[str, Any], subject: str) -> str:
    """A list or a text shorter or longer than its place allows."""
    unit = "character(s)" if kind.startswith("string") else "item(s)"
    if kind.endswith("too_short"):
        bound = f"at least {ctx.get('min_length')}"
    else:
        bound = f"at most {ctx.get('max_length')}"
    has = f"; it has {ctx['actual_length']}" if ctx.get("actual_length") is not None else ""
    return f"{subject} holds {bound} {unit}{has}"


def did_you_mean(key: str, model: Any, loc: tuple[str | int, ...]) -> str:
    """`; did you mean 'tricks'?` for an unknown key close to one its place allows, else ''."""
    if model is None:
        return ""
    close = difflib.get_close_matches(key, sorted(keys_at(model, loc)), n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""


def keys_at(model: type[BaseModel], loc: tuple[str | int, ...]) -> set[str]:
    """The keys allowed at the object holding the last key of `loc`, inside a part of `model`:
    the fields of every model the path can lead to (all forms of a union)."""
    candidates = [model]
    for part in loc[:-1]:
        if not isinstance(part, str):
            continue
        inner = [
            found
            for candidate in candidates
            if part in candidate.model_fields
            for found in _models_in(candidate.model_fields[part].annotation)
        ]
        candidates = inner or candidates
    return {name for candidate in candidates for name in candidate.model_fields}


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    """The models a field's type holds: in lists, unions and annotations, at any depth."""
    found: list[type[BaseModel]] = []
    stack = [annotation]
    while stack:
        current = stack.pop()
        if isinstance(current, type) and issubclass(current, BaseModel):
            found.append(current)
        else:
            stack.extend(get_args(current))
    return found
