"""Diagnostics: what the validator reports, where, and under which rule (DESIGN.md, Diagnostics)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from enum import StrEnum
from typing import Any, TypeVar

from typing_extensions import dataclass_transform

_Class = TypeVar("_Class", bound=type)


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def _value(cls: _Class) -> _Class:
    """A value class: a slotted dataclass, hashed and compared by its fields, that type checkers
    hold frozen (no field is assigned). At run time it is not frozen, so that its `__init__` stores
    each field directly: a frozen one goes through `object.__setattr__` for each, five times the
    cost, and a validation builds a place and a note for every deal of a partial record."""
    return dataclass(slots=True, unsafe_hash=True)(cls)  # type: ignore[return-value]


class Severity(StrEnum):
    """An error breaks a rule or makes input unusable; a warning is suspicious but not illegal;
    a note says what the record left unchecked (a partial record) and never fails validation."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


# Codes that mean the input could not be read as records at all: the validator exits 2 for them.
UNUSABLE_CODES = frozenset(
    {
        "FILE-UNREADABLE",
        "FILE-EMPTY",
        "ARCHIVE-UNREADABLE",
        "RECORD-BAD-JSON",
        "RECORD-TRUNCATED",
        "RECORD-VERSION",
        "RECORD-FORMAT",
        "RECORD-TOO-LARGE",
        "RECORD-TOO-DEEP",
        "IMPORT-TAROTCLUB",
    }
)


@_value
class Location:
    """Where a diagnostic points: file and line, then record, deal, trick, position and seat.

    Deal and trick numbers are 1-based as players count them; position is the card's place in the
    trick (1 = led); seat is the 0-based seat of the record; path is the JSON path in the record.
    """

    file: str | None = None
    line: int | None = None
    record: int | None = None
    deal: int | None = None
    trick: int | None = None
    position: int | None = None
    seat: int | None = None
    path: str | None = None
    column: int | None = None
    """The 1-based column in the line, for a text file in the notation (spec/NOTATION.md)."""

    def at_deal(self, deal: int, path: str) -> Location:
        """This place narrowed to a deal (1-based) and a JSON path in the record: what
        `dataclasses.replace` gives, at a fraction of its cost (a note per partial deal)."""
        return Location(
            self.file, self.line, self.record, deal, self.trick, self.position, self.seat, path, self.column
        )

    def text(self) -> str:
        """A short human form, e.g. `game.json:12 record 1, deal 3, trick 5, card 2, seat 1`."""
        head = self.file or "<input>"
        if self.line is not None:
            head += f":{self.line}" + (f":{self.column}" if self.column is not None else "")
        parts = []
        for label, value in (
            ("record", self.record),
            ("deal", self.deal),
            ("trick", self.trick),
            ("card", self.position),
            ("seat", self.seat),
        ):
            if value is not None:
                parts.append(f"{label} {value}")
        return head + (" " + ", ".join(parts) if parts else "")


@dataclass(frozen=True, slots=True)
class Violation:
    """A broken rule as a ruleset reports it; the engine adds the location to make a Diagnostic."""

    code: str
    rule: str
    message: str
    severity: Severity = Severity.ERROR
    expected: str | None = None
    seat: int | None = None
    trick: int | None = None
    position: int | None = None
    path: str | None = None


@_value
class Diagnostic:
    """One finding: stable code, severity, location, plain-words message, rule id, expectation."""

    code: str
    severity: Severity
    message: str
    location: Location = field(default_factory=Location)
    rule: str | None = None
    expected: str | None = None
    repeats: int = field(default=1, compare=False, repr=False)
    """How many findings of its code this one stands for: more than 1 only for the first one past
    `REPEATS_SHOWN` in a deal when the rest were never made diagnostics (`cap_repeats`)."""

    @property
    def unusable(self) -> bool:
        """True when the input could not be read as records (exit status 2)."""
        return self.code in UNUSABLE_CODES

    def text(self) -> str:
        """One line for people: `place: severity CODE [rule]: message (expected: ...)`."""
        rule = f" [{self.rule}]" if self.rule else ""
        tail = f" (expected: {self.expected})" if self.expected else ""
        return f"{self.location.text()}: {self.severity} {self.code}{rule}: {self.message}{tail}"

    def as_dict(self) -> dict[str, Any]:
        """A flat JSON-ready dict, one per line in JSON-lines output."""
        out: dict[str, Any] = {"code": self.code, "severity": str(self.severity), "message": self.message}
        out.update({k: v for k, v in asdict(self.location).items() if v is not None})
        if self.rule:
            out["rule"] = self.rule
        if self.expected:
            out["expected"] = self.expected
        return out

    def at(self, **where: Any) -> Diagnostic:
        """The same diagnostic with location fields filled in (those given replace the old)."""
        return replace(self, location=replace(self.location, **where))


def from_violation(violation: Violation, where: Location) -> Diagnostic:
    """Turn a ruleset's Violation into a Diagnostic at the given deal location."""
    location = replace(
        where,
        trick=violation.trick if violation.trick is not None else where.trick,
        position=violation.position if violation.position is not None else where.position,
        seat=violation.seat if violation.seat is not None else where.seat,
        path=violation.path if violation.path is not None else where.path,
    )
    return Diagnostic(
        code=violation.code,
        severity=violation.severity,
        message=violation.message,
        location=location,
        rule=violation.rule,
        expected=violation.expected,
    )


REPEATS_SHOWN = 5
"""Diagnostics of one code shown per deal (or per record, outside the deals); the rest are counted
in one more diagnostic of the same code (spec/FORMAT.md, "Limits")."""


def cap_repeats(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """The first `REPEATS_SHOWN` diagnostics of each code in each deal, in order, and after the
    last of them one of the same code that counts the rest: a hostile deal gives a few lines."""
    seen: dict[tuple[int | None, str], int] = {}
    for found in diagnostics:
        key = (found.location.deal, found.code)
        seen[key] = seen.get(key, 0) + found.repeats
    if all(count <= REPEATS_SHOWN for count in seen.values()):
        return diagnostics
    out: list[Diagnostic] = []
    shown: dict[tuple[int | None, str], int] = {}
    for found in diagnostics:
        key = (found.location.deal, found.code)
        shown[key] = shown.get(key, 0) + 1
        if shown[key] <= REPEATS_SHOWN:
            out.append(found)
        if shown[key] == REPEATS_SHOWN and seen[key] > REPEATS_SHOWN:
            out.append(_more_of(found, seen[key] - REPEATS_SHOWN))
    return out


def first_repeats(violations: list[Violation]) -> list[tuple[Violation, int]]:
    """The violations of one deal worth making diagnostics, each with how many it stands for: the
    first `REPEATS_SHOWN` of each code, then one that stands for all the others of its code (so a
    hostile deal's 100,000 unknown cards cost no 100,000 diagnostics; `cap_repeats` counts them)."""
    total: dict[str, int] = {}
    for violation in violations:
        total[violation.code] = total.get(violation.code, 0) + 1
    if all(count <= REPEATS_SHOWN for count in total.values()):
        return [(violation, 1) for violation in violations]
    kept: list[tuple[Violation, int]] = []
    made: dict[str, int] = {}
    for violation in violations:
        made[violation.code] = made.get(violation.code, 0) + 1
        if made[violation.code] <= REPEATS_SHOWN:
            kept.append((violation, 1))
        elif made[violation.code] == REPEATS_SHOWN + 1:
            kept.append((violation, total[violation.code] - REPEATS_SHOWN))
    return kept


def _more_of(last: Diagnostic, more: int) -> Diagnostic:
    """The diagnostic that stands for `more` further ones of `last`'s code in its deal."""
    deal = last.location.deal
    place = "deal" if deal is not None else "record"
    where = replace(
        last.location,
        trick=None,
        position=None,
        seat=None,
        path=f"deals[{deal - 1}]" if deal is not None else None,
    )
    message = f"and {more} more {last.code} in this {place} (only the first {REPEATS_SHOWN} are listed)"
    return Diagnostic(last.code, last.severity, message, where, rule=last.rule)


def describe(value: Any) -> str:
    """A JSON value as a message names what was written: the number 4, the text "3", true, a list."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int) and abs(value) >= 10**20:
        return f"a number of {int(value.bit_length() * 0.30103) + 1} digits or so"
    if isinstance(value, int | float):
        return f"the number {value!r}"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "…"
        return f"the text {shown!r}"
    if isinstance(value, list):
        return f"a list of {len(value)} item(s)"
    if isinstance(value, dict):
        return "an object"
    return "a value of another kind"
