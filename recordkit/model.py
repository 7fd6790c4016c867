"""The record format, version 1: the envelope and the building blocks every game's deal model uses.

A record is one game (a match): the envelope (format name and version, game, variant options,
players, free-form metadata) and its deals. Each game adds its own deal model and options in its
ruleset package; `recordkit.games` joins them in a union discriminated on `game`.

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
    Field,
    GetJsonSchemaHandler,
    SerializerFunctionWrapHandler,
    model_serializer,
    model_validator,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, PydanticCustomError

from recordkit.cards import PLAIN_GROUP, Deck, split_codes

FORMAT_NAME = "recordkit"
FORMAT_VERSION = "1.1"
FORMAT_MAJOR = 1
FORMAT_MINOR = 1
_VERSION = re.compile(r"^(\d+)\.(\d+)$")


def parse_version(text: object) -> tuple[int, int] | None:
    """(major, minor) of a version string like "1.0", or None if it is not one."""
    if not isinstance(text, str):
        return None
    match = _VERSION.match(text.strip())
    return (int(match[1]), int(match[2])) if match else None


def _join_codes(value: Any) -> Any:
    """A card group given as a string or a list, as one space-separated upper-case string."""
    if isinstance(value, str) and PLAIN_GROUP.fullmatch(value):
        return value
    if isinstance(value, str) or (isinstance(value, list) and all(isinstance(v, str) for v in value)):
        return " ".join(code.upper() for code in split_codes(value))
    raise PydanticCustomError(
        "card_group", "a group of cards is a string like 'HK T21 EX' or a list of card codes"
    )


def _one_code(value: Any) -> Any:
    """A single card code, stripped and upper-cased (aliases are resolved by the game's deck)."""
    if isinstance(value, str) and value.strip() and len(split_codes(value)) == 1:
        return value.strip().upper()
    raise PydanticCustomError("card_code", "a card is one code such as 'HK', 'T21' or 'EX'")


CardText = Annotated[str, BeforeValidator(_join_codes, json_schema_input_type=str | list[str])]
"""A group of cards: canonical form is codes separated by single spaces."""

CardCode = Annotated[str, BeforeValidator(_one_code)]
"""One card code."""

Hands = list[CardText | None] | None
"""The hands as dealt, seat 0 first; a hand the record does not know is null, and a deal that
knows none leaves `hands` out: the replay derives them from the play (spec/FORMAT.md, "Partial
records")."""


def _whole_if_integral(value: Any) -> Any:
    """Scores are written as integers when they are whole (25, not 25.0); halves stay (40.5)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


Points = Annotated[int | float, BeforeValidator(_whole_if_integral)]
"""A score as written on the score sheet: a whole number, or a half for French Tarot."""

Seat = Annotated[int, Field(ge=0, le=7)]
"""A seat number, 0-based in the order of play (seat i+1 plays after seat i)."""


class Strict(BaseModel):
    """Base of every record model: unknown keys are reported, not silently dropped."""

    model_config = ConfigDict(extra="forbid", frozen=False)


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
    """A trick's cards may be written as one string: "H3 H5 HK H1"."""
    return split_codes(value) if isinstance(value, str) else value


def _compact_play(entry: Any) -> Any:
    """A card with nothing but its code is written as the bare code."""
    if isinstance(entry, Play) and entry.comment is None and entry.time is None:
        return entry.card
    return entry


CardEntry = Annotated[str | Play, AfterValidator(_compact_play)]
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


TrickEntry = Annotated[CardText | Trick, Field(union_mode="left_to_right"), AfterValidator(_compact_trick)]
"""A trick: its cards as one string ("H3 H5 HK H1", or a list), or a Trick object."""


def trick_codes(entry: str | Trick) -> list[str]:
    """The card codes of a trick entry in play order."""
    return entry.split() if isinstance(entry, str) else entry.codes()


def trick_claims(entry: str | Trick) -> tuple[int | None, int | None]:
    """The leader and winner a trick entry states, if any."""
    return (None, None) if isinstance(entry, str) else (entry.leader, entry.winner)


class Call(Compact):
    """One call of an auction (a bid, a pass, a proposal...); bare form is its name.

    Seats are derived from the order of speaking; a written `seat` is checked.
    """

    _bare = "call"
    call: str
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
        code = code.strip().upper()
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
        key = call.call.strip().lower()
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
    meta: dict[str, str | int | float | bool] = Field(default_factory=dict)
    comment: str | None = None
    deals: list[Any] = Field(default_factory=list)
