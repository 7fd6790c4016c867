"""Diagnostics: what the validator reports, where, and under which rule (DESIGN.md, Diagnostics)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from enum import StrEnum
from typing import Any


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
    }
)


@dataclass(frozen=True, slots=True)
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

    def text(self) -> str:
        """A short human form, e.g. `game.json:12 record 1, deal 3, trick 5, card 2, seat 1`."""
        head = self.file or "<input>"
        if self.line is not None:
            head += f":{self.line}"
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


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One finding: stable code, severity, location, plain-words message, rule id, expectation."""

    code: str
    severity: Severity
    message: str
    location: Location = field(default_factory=Location)
    rule: str | None = None
    expected: str | None = None

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
