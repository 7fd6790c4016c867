"""The record format, version 1: the envelope and the building blocks every game's deal model uses.

A record is one game (a match): the envelope (format name and version, game, variant options,
players, free-form metadata) and its deals. Each game adds its own deal model and options in its
ruleset package; `recordkit.games` finds the ruleset (and so the models) of a record by its `game`.

Compact forms keep hand-typed records short: a card group is one string (`"HK T21 EX"`, a list
is accepted too), a trick is its cards in play order (`"H3 H5 HK H1"`), a call is its name
(`"garde"`). The object form adds a comment, a timestamp or an explicit seat, leader or winner.
Canonical output writes the compact form whenever nothing else is set, and never writes nulls.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
    GetJsonSchemaHandler,
    SerializerFunctionWrapHandler,
    Tag,
    WithJsonSchema,
    model_serializer,
    model_validator,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, PydanticCustomError

from recordkit.cards import PLAIN_GROUP, Deck, ascii_lower, ascii_upper, split_codes
from recordkit.diagnostics import describe

FORMAT_NAME = "recordkit"
FORMAT_VERSION = "1.1"
FORMAT_MAJOR = 1
FORMAT_MINOR = 1
_VERSION = re.compile(r"^([0-9]+)\.([0-9]+)$")

POINTS_LIMIT = 1_000_000_000
"""Scores, totals and card points lie within ±POINTS_LIMIT; whole numbers other than seats too."""
META_LIMIT = 2**53 - 1
"""A number in `meta` lies within ±META_LIMIT: the integers every JSON reader holds exactly."""
SEATS = 8
"""Seats are 0 to SEATS - 1 (a record has at most 8 players); each game narrows it to its table."""
MAX_CARDS = 100
"""Codes in one card group (a hand, a trick, the dog...): the largest deck has 78 cards."""
MAX_GROUP_TEXT = 1_000
"""Characters in one card group written as a string."""


def parse_version(text: object) -> tuple[int, int] | None:
    """(major, minor) of a version string like "1.0", or None if it is not one."""
    if not isinstance(text, str):
        return None
    match = _VERSION.match(text.strip())
    return (int(match[1]), int(match[2])) if match else None


def _join_codes(value: Any) -> Any:
    """A card group given as a string or a list, as one space-separated upper-case string; a group
    longer than the format allows is refused before it is split (spec/FORMAT.md, "Limits")."""
    if isinstance(value, str):
        if len(value) > MAX_GROUP_TEXT:
            raise _too_many_cards(f"{len(value):,} characters")
        if PLAIN_GROUP.fullmatch(value):
            if value.count(" ") >= MAX_CARDS:
                raise _too_many_cards(f"{value.count(' ') + 1:,} cards")
            return value
    elif not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
        raise PydanticCustomError(
            "card_group",
            "a group of cards is a string like 'HK T21 EX' or a list of card codes; got {got}",
            {"got": describe(value)},
        )
    codes = split_codes(value)
    if len(codes) > MAX_CARDS:
        raise _too_many_cards(f"{len(codes):,} cards")
    return " ".join(ascii_upper(code) for code in codes)


def _too_many_cards(size: str) -> PydanticCustomError:
    """The error of a card group longer than the format allows."""
    return PydanticCustomError(
        "card_limit",
        "a group of cards holds at most {cards} cards and {chars} characters; this one has {size}",
        {"cards": MAX_CARDS, "chars": f"{MAX_GROUP_TEXT:,}", "size": size},
    )


def _one_code(value: Any) -> Any:
    """A single card code, stripped and upper-cased (aliases are resolved by the game's deck)."""
    if (
        isinstance(value, str)
        and len(value) <= MAX_GROUP_TEXT
        and value.strip()
        and len(split_codes(value)) == 1
    ):
        return ascii_upper(value.strip())
    raise PydanticCustomError(
        "card_code", "a card is one code such as 'HK', 'T21' or 'EX'; got {got}", {"got": describe(value)}
    )


CardText = Annotated[str, BeforeValidator(_join_codes, json_schema_input_type=str | list[str])]
"""A group of cards: canonical form is codes separated by single spaces."""

CardCode = Annotated[str, BeforeValidator(_one_code)]
"""One card code."""

Hands = list[CardText | None] | None
"""The hands as dealt, seat 0 first; a hand the record does not know is null, and a deal that
knows none leaves `hands` out: the replay derives them from the play (spec/FORMAT.md, "Partial
records")."""


def points(value: Any) -> Any:
    """A score, total or count of card points: a JSON number within ±POINTS_LIMIT, never text or
    true/false; written as an integer when it is whole (25, not 25.0), halves stay (40.5)."""
    if type(value) is int and -POINTS_LIMIT <= value <= POINTS_LIMIT:
        return value
    if type(value) is float and -POINTS_LIMIT <= value <= POINTS_LIMIT:  # NaN and infinities fail
        return int(value) if value.is_integer() else value
    raise PydanticCustomError(
        "points",
        "a number of points is a number from -{limit} to {limit} (whole, or a half such as 40.5); got {got}",
        {"limit": f"{POINTS_LIMIT:,}", "got": describe(value)},
    )


Points = Annotated[
    int | float,
    BeforeValidator(points),
    WithJsonSchema({"type": "number", "minimum": -POINTS_LIMIT, "maximum": POINTS_LIMIT}),
]
"""A score as written on the score sheet: a whole number, or a half for French Tarot."""


def _seat(value: Any) -> Any:
    """A seat: a whole JSON number from 0 to 7, never text, true/false or 2.0."""
    if type(value) is int and 0 <= value < SEATS:
        return value
    raise PydanticCustomError(
        "seat",
        "a seat is a whole number from 0 to {last} (its place in the order of play); got {got}",
        {"last": SEATS - 1, "got": describe(value)},
    )


Seat = Annotated[int, Field(ge=0, le=SEATS - 1), BeforeValidator(_seat)]
"""A seat number, 0-based in the order of play (seat i+1 plays after seat i)."""


def _whole(value: Any) -> Any:
    """A whole number other than a seat (a count of bouts or tricks, a round's value): a JSON
    integer within ±POINTS_LIMIT, never text, true/false or 2.0; its game checks what it means."""
    if type(value) is int and -POINTS_LIMIT <= value <= POINTS_LIMIT:
        return value
    raise PydanticCustomError(
        "whole",
        "a whole number from -{limit} to {limit} goes here; got {got}",
        {"limit": f"{POINTS_LIMIT:,}", "got": describe(value)},
    )


Whole = Annotated[
    int,
    BeforeValidator(_whole),
    WithJsonSchema({"type": "integer", "minimum": -POINTS_LIMIT, "maximum": POINTS_LIMIT}),
]
"""A whole number that is not a seat: bouts, tricks, a knock's place, a Karnöffel round's value."""


def _meta_value(value: Any) -> Any:
    """A tag's value in `meta`: text, true/false, or a number every JSON reader holds exactly."""
    if type(value) in (str, bool):
        return value
    if type(value) in (int, float) and -META_LIMIT <= value <= META_LIMIT:
        return value
    raise PydanticCustomError(
        "meta_value",
        "a tag's value is text, a number from -{limit} to {limit}, true or false; got {got}",
        {"limit": f"{META_LIMIT:,}", "got": describe(value)},
    )


MetaValue = Annotated[
    str | int | float | bool,
    BeforeValidator(_meta_value),
    WithJsonSchema(
        {
            "anyOf": [
                {"type": "string"},
                {"type": "number", "minimum": -META_LIMIT, "maximum": META_LIMIT},
                {"type": "boolean"},
            ]
        }
    ),
]
"""A value of the free-form `meta` tags."""


class Strict(BaseModel):
    """Base of every record model: unknown keys are reported, not silently dropped, and a value is
    of the type the format says (no text for a number, no true for a seat: issue 16)."""

    model_config = ConfigDict(extra="forbid", frozen=False, strict=True)


class Note(Strict):
    """What any action may carry: a free comment and a timestamp (ISO 8601 recommended)."""

    comment: str | None = None
    time: str | None = None

    @model_serializer(mode="wrap")
    def _notes_last(self, handler: SerializerFunctionWrapHandler) -> Any:
        return notes_last(handler(self))


def notes_last(out: Any) -> Any:
    """Canonical key order puts an action's comment and time after what it says."""
    if isinstance(out, dict):
        for key in ("comment", "time"):
            if key in out:
                out[key] = out.pop(key)
    return out


class Compact(Note):
    """An action that is written bare (`"garde"`, `"HK"`) when it carries nothing but its value."""

    _bare: ClassVar[str]
    _bare_schema: ClassVar[dict[str, Any]] = {"type": "string"}

    @model_validator(mode="before")
    @classmethod
    def _from_bare(cls, data: Any) -> Any:
        return data if isinstance(data, dict) else {cls._bare: data}

    @model_serializer(mode="wrap")
    def _to_bare(self, handler: SerializerFunctionWrapHandler) -> Any:
        out = handler(self)
        if isinstance(out, dict) and all(
            value is None for key, value in self.__dict__.items() if key != self._bare
        ):
            return out[self._bare]
        return notes_last(out)

    @classmethod
    def __get_pydantic_json_schema__(
        cls, core_schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        full = handler(core_schema)
        return {"anyOf": [dict(cls._bare_schema), full]}


class Play(Compact):
    """One card played; bare form is the card code."""

    _bare = "card"
    card: CardCode


def _split_text(value: Any) -> Any:
    """A trick's cards may be written as one string: "H3 H5 HK H1"; a list or string longer than a
    card group may be is refused before it is split."""
    if isinstance(value, str):
        if len(value) > MAX_GROUP_TEXT:
            raise _too_many_cards(f"{len(value):,} characters")
        value = split_codes(value)
    if isinstance(value, list) and len(value) > MAX_CARDS:
        raise _too_many_cards(f"{len(value):,} cards")
    return value


def _compact_play(entry: Any) -> Any:
    """A card with nothing but its code is written as the bare code."""
    if isinstance(entry, Play) and entry.comment is None and entry.time is None:
        return entry.card
    return entry


def _card_text(value: Any) -> Any:
    """A card of a trick's list written bare is text (its code is checked against the deck later)."""
    if isinstance(value, str):
        return value
    raise PydanticCustomError(
        "card_code", "a card is one code such as 'HK', 'T21' or 'EX'; got {got}", {"got": describe(value)}
    )


class FlatForms:
    """The JSON Schema of a value written in one of several forms: one flat `anyOf` of the forms
    (as before the forms were told apart by `written_form`), not a `oneOf` of nested unions."""

    def __get_pydantic_json_schema__(
        self, core_schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        """The forms of the union, one level deep."""
        schema = handler(core_schema)
        forms: list[Any] = []
        for form in schema.pop("oneOf", []):
            forms.extend(form["anyOf"] if list(form) == ["anyOf"] else [form])
        return {"anyOf": forms, **schema} if forms else schema


def written_form(value: Any) -> str:
    """Which form a compact-or-object value is written in, so that only that form is validated
    and a mistake gets one diagnostic in its own words, not one per form tried (a parsed object is
    written in its object form). The tag names no key: `validate.json_path` leaves it out."""
    return "form:object" if isinstance(value, dict | BaseModel) else "form:compact"


CardEntry = Annotated[
    Annotated[str, BeforeValidator(_card_text), Tag("form:compact")] | Annotated[Play, Tag("form:object")],
    Discriminator(written_form),
    FlatForms(),
    AfterValidator(_compact_play),
]
"""One card in a trick: its code, or {"card": ..., "comment": ..., "time": ...}."""


class Trick(Note):
    """A trick in object form: its cards in play order from the leader, plus what else was noted.

    `leader` and `winner` are optional: the rules derive them, and the validator checks them when
    they are written. A trick with nothing but plain cards is written as one string instead.
    """

    cards: Annotated[
        list[CardEntry],
        BeforeValidator(_split_text, json_schema_input_type=str | list[str | Play]),
    ]
    leader: Seat | None = None
    winner: Seat | None = None

    @model_serializer(mode="wrap")
    def _cards_as_text(self, handler: SerializerFunctionWrapHandler) -> Any:
        out = handler(self)
        if all(isinstance(card, str) for card in out["cards"]):
            out["cards"] = " ".join(out["cards"])
        return notes_last(out)

    def codes(self) -> list[str]:
        """The card codes of the trick in play order."""
        return [card if isinstance(card, str) else card.card for card in self.cards]


def _compact_trick(entry: Any) -> Any:
    """A trick object that says nothing but its cards is written as the cards' string."""
    if (
        isinstance(entry, Trick)
        and entry.leader is None
        and entry.winner is None
        and entry.comment is None
        and entry.time is None
        and all(isinstance(card, str) for card in entry.cards)
    ):
        return " ".join(entry.codes())
    return entry


TrickEntry = Annotated[
    Annotated[CardText, Tag("form:compact")] | Annotated[Trick, Tag("form:object")],
    Discriminator(written_form),
    FlatForms(),
    AfterValidator(_compact_trick),
]
"""A trick: its cards as one string ("H3 H5 HK H1", or a list), or a Trick object."""


def trick_codes(entry: str | Trick) -> list[str]:
    """The card codes of a trick entry in play order."""
    return entry.split() if isinstance(entry, str) else entry.codes()


def trick_claims(entry: str | Trick) -> tuple[int | None, int | None]:
    """The leader and winner a trick entry states, if any."""
    return (None, None) if isinstance(entry, str) else (entry.leader, entry.winner)


def _call_word(value: Any) -> Any:
    """A call is written as text; the validator names the game's calls (`Deal.call_words`)."""
    if isinstance(value, str):
        return value
    raise PydanticCustomError(
        "call_word", "a call is a word such as 'pass'; got {got}", {"got": describe(value)}
    )


class Call(Compact):
    """One call of an auction (a bid, a pass, a proposal...); bare form is its name.

    Seats are derived from the order of speaking; a written `seat` is checked.
    """

    _bare = "call"
    call: Annotated[str, BeforeValidator(_call_word)]
    seat: Seat | None = None


def canonical_cards(deck: Deck, text: str) -> str:
    """A card group with every known code in its canonical spelling; unknown codes are kept."""
    if deck.is_canonical(text):
        return text
    return " ".join(canonical_code(deck, code) for code in text.split())


def canonical_code(deck: Deck, code: str) -> str:
    """The canonical spelling of one code if the deck knows it; otherwise the code in upper case."""
    found = deck.index.get(code)
    if found is None:
        code = ascii_upper(code.strip())
        found = deck.index.get(code)
    return deck.codes[found] if found is not None else code


def canonical_groups(deck: Deck, groups: list[str | None] | None) -> list[str | None] | None:
    """Card groups (the hands) with every known code in canonical spelling; unknown ones (None) kept."""
    if groups is None or (None not in groups and _all_canonical(deck, groups)):  # type: ignore[arg-type]
        return groups
    return [None if group is None else canonical_cards(deck, group) for group in groups]


def _all_canonical(deck: Deck, groups: list[str] | list[str | Trick]) -> bool:
    """Whether every group is a string already canonical: one check over them all, the common case."""
    try:
        return deck.is_canonical(" ".join(groups))  # type: ignore[arg-type]
    except TypeError:  # a trick written as an object
        return False


def canonical_tricks(deck: Deck, tricks: list[str | Trick]) -> list[str | Trick]:
    """The tricks with every card code in canonical spelling."""
    if _all_canonical(deck, tricks):
        return tricks
    out: list[str | Trick] = []
    for trick in tricks:
        if isinstance(trick, str):
            out.append(canonical_cards(deck, trick))
            continue
        for index, card in enumerate(trick.cards):
            if isinstance(card, str):
                trick.cards[index] = canonical_code(deck, card)
            else:
                card.card = canonical_code(deck, card.card)
        out.append(trick)
    return out


def canonical_calls(names: dict[str, str], calls: list[Call]) -> None:
    """Rewrite call names through a game's alias table (lower-case keys), in place."""
    for call in calls:
        key = ascii_lower(call.call.strip())
        call.call = names.get(key, key)


class Result(Strict):
    """The deal's result as written on the score sheet: each seat's score for this deal."""

    scores: list[Points]


Status = Literal["played", "annulled", "abandoned"]
"""played: the deal is complete; annulled: thrown in by rule (checked); abandoned: stopped early."""


class RecordBase(Strict):
    """The envelope shared by every game's record; subclasses fix `game`, `options` and `deals`."""

    format: str = FORMAT_NAME
    version: str = FORMAT_VERSION
    game: str
    options: Any = None
    players: list[str] = Field(min_length=2, max_length=8)
    meta: dict[str, MetaValue] = Field(default_factory=dict)
    comment: str | None = None
    deals: list[Any] = Field(default_factory=list)


def to_data(record: RecordBase) -> dict[str, Any]:
    """The canonical JSON value of a record: fixed key order, defaults written, no nulls."""
    return record.model_dump(mode="json", exclude_none=True)
