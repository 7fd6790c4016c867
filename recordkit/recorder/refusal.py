"""Why an input is not recorded: the validator's diagnostics for it, or the recorder's own reason."""

from __future__ import annotations

from pydantic import ValidationError

from recordkit.diagnostics import Diagnostic, Location, Severity
from recordkit.validate import Settings, schema_diagnostic


class RefusedError(Exception):
    """What was asked is not recorded: an illegal action (with the validator's diagnostics for it),
    unreadable input, or a step out of place. `accepted` counts the entries of a line that were;
    `why` says in words what a card refused in a deal without its hands contradicts (where it
    was seen already, or the trick that shows its seat did not hold it), when there is more to say
    than the diagnostics."""

    def __init__(self, diagnostics: list[Diagnostic], accepted: int = 0, why: str = "") -> None:
        self.diagnostics = diagnostics
        self.accepted = accepted
        self.why = why
        super().__init__("; ".join([*([why] if why else []), *(d.message for d in diagnostics)]))


def refusal(message: str) -> RefusedError:
    """A refusal that is the recorder's own (not a rule of the game): out of turn, out of place."""
    return RefusedError([Diagnostic("RECORDER-INPUT", Severity.ERROR, message)])


def schema_refusal(error: ValidationError, number: int) -> list[Diagnostic]:
    """Text that does not fit the deal's model, reported as the validator reports such a deal."""
    prefix = ("deals", number - 1)
    return [
        schema_diagnostic(item, prefix, Location(), Settings()) for item in error.errors(include_url=False)
    ]
