"""Validating records: the envelope, the schema, every deal through its ruleset, and the match.

`validate_record` checks one parsed record; `validate_paths` streams files and directories. Both
keep going after a problem so that one pass reports every problem, and never raise on bad input.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

import orjson
from pydantic import ValidationError

from recordkit.derive import not_checked
from recordkit.diagnostics import (
    Diagnostic,
    Location,
    Severity,
    Violation,
    cap_repeats,
    first_repeats,
    from_violation,
)
from recordkit.engine import DealReplay, replay_deal
from recordkit.games import RULESETS, ruleset_for
from recordkit.hints import hint
from recordkit.limits import oversized, within_limits
from recordkit.model import FORMAT_MAJOR, FORMAT_MINOR, FORMAT_NAME, RecordBase, parse_version
from recordkit.quick import clean_header, clean_replays
from recordkit.raw import nesting_error, too_deep
from recordkit.reading import raw_records
from recordkit.rules.base import Ruleset
from recordkit.rules.values import QuickDeal, Table
from recordkit.sources import RawLine, RawRecord, Source, parsed
from recordkit.wording import did_you_mean, explain


@dataclass(frozen=True, slots=True)
class Settings:
    """How to validate: strict (unknown keys are errors, warnings fail) and an expected game."""

    strict: bool = True
    game: str | None = None


@dataclass(slots=True)
class RecordReport:
    """Everything found in one record, with the parsed record and each deal's replay."""

    location: Location
    diagnostics: list[Diagnostic] = field(default_factory=list)
    record: RecordBase | None = None
    replays: list[DealReplay | None] = field(default_factory=list)
    deal_count: int | None = None
    """The number of deals, kept when the record and replays are dropped (see `findings`)."""

    @property
    def deals(self) -> int:
        """Number of deals in the record (parsed or not)."""
        return self.deal_count if self.deal_count is not None else len(self.replays)

    def findings(self) -> RecordReport:
        """Only what was found, without the parsed record and replays: cheap to send between processes."""
        return RecordReport(self.location, self.diagnostics, deal_count=self.deals)


BATCH_DEALS = 4096
"""The deals of a batch the columns check at once (`recordkit.batch`): enough that NumPy's cost
per call vanishes behind the work per deal, few enough to keep memory flat."""
WORKER_RECORDS = 256
"""Records a `--jobs` worker validates at a time: a batch for the columns (32, `parallel`'s chunk,
made batches of 320 deals whose fixed cost took a tenth of the time: 0.95 s against 0.84 s for
20,000 deals on two processes, 2026-12-04)."""
SMALL_BATCH = 64
"""A batch of fewer deals (a club's evening, a short file) goes straight to the record path:
there the columns would cost more than they save, and validating a small file imports neither
NumPy nor pyarrow (spec/ENGINE.md, "Speed")."""

Item = Source | RecordReport
"""What validation takes: a reader's item, or a record already proven clean (by an archive's
columnar check), which passes through."""


def validate_paths(
    paths: Iterable[str], settings: Settings, jobs: int = 1, findings_only: bool = False
) -> Iterator[RecordReport | Diagnostic]:
    """Every record of every file, as reports; file-level problems as bare diagnostics."""
    return validate_items(raw_records(paths, parse=jobs <= 1), settings, jobs, findings_only)


def validate_items(
    items: Iterable[Item], settings: Settings, jobs: int = 1, findings_only: bool = False
) -> Iterator[RecordReport | Diagnostic]:
    """A report for each record, in order; diagnostics pass through.

    With `findings_only` the reports carry only what was found (no parsed record or replays),
    which lets the records go through the columns a batch at a time (`recordkit.batch`) and a
    clean record take the fast path (`recordkit.quick`). With `jobs` > 1 the records are parsed
    and checked on that many processes, and the reports are always findings only."""
    if jobs <= 1 and not findings_only:
        for item in items:
            yield _check(item, settings)
        return
    if jobs <= 1:
        for batch in batches(items):
            yield from batch_findings(batch, settings)
        return
    from recordkit.parallel import chunked, ordered_map  # multiprocessing, for `--jobs` only

    for found in ordered_map(partial(findings_of, settings), chunked(items, WORKER_RECORDS), jobs):
        yield from found


def batches(items: Iterable[Item]) -> Iterator[list[Item]]:
    """The items parsed, in lists of about BATCH_DEALS deals (the columns' batch)."""
    batch: list[Item] = []
    deals = 0
    for item in items:
        read = parsed(item) if not isinstance(item, RecordReport) else item
        batch.append(read)
        deals += _deal_count(read)
        if deals >= BATCH_DEALS:
            yield batch
            batch, deals = [], 0
    if batch:
        yield batch


def _deal_count(item: Any) -> int:
    """How many deals a parsed record has (0 for anything else)."""
    data = item.data if isinstance(item, RawRecord) else None
    deals = data.get("deals") if type(data) is dict else None
    return len(deals) if type(deals) is list else 0


def findings_of(settings: Settings, items: list[Item]) -> list[RecordReport | Diagnostic]:
    """What validating each record finds (a worker's job): reports without the parsed records."""
    return batch_findings(items, settings)


def batch_findings(items: list[Item], settings: Settings) -> list[RecordReport | Diagnostic]:
    """What validating each of a batch of records finds: the records the columns prove clean
    (`recordkit.batch`, for a batch of SMALL_BATCH deals or more) reported so at once, every other
    record as `findings` reports it."""
    read = [item if isinstance(item, RecordReport) else parsed(item) for item in items]
    raws = [item for item in read if isinstance(item, RawRecord)]
    proven: dict[int, tuple[tuple[int, int], ...]] = {}
    if sum(map(_deal_count, raws)) >= SMALL_BATCH:
        from recordkit.batch import proofs  # NumPy and pyarrow: for bulk input only

        proven = {
            id(raw): noted
            for raw, noted in zip(raws, proofs(raws, settings.game), strict=True)
            if noted is not None
        }
    reports: list[RecordReport | Diagnostic] = []
    for item in read:
        report = _proven(item, proven[id(item)], settings) if id(item) in proven else None
        reports.append(findings(item, settings) if report is None else report)
    return reports


NOTES_KEPT = 4096
"""How many notes of partial deals `_proven` keeps, by table and note key, before starting afresh."""
_NOTES: dict[tuple[Any, ...], list[Violation]] = {}


def _proven(raw: Item, noted: tuple[tuple[int, int], ...], settings: Settings) -> RecordReport | None:
    """The report of a record the columns proved clean but for the notes of the deals `noted`:
    each note as the replay of the first deal of its table and key wrote it (the deal replayed
    alone, as the record path replays it), with a notation record's reader notes; None when that
    replay finds more than a note, for the record path."""
    assert isinstance(raw, RawRecord)
    found: list[Diagnostic] = []
    data = raw.data
    for index, key in noted:
        kept = (data["game"], len(data["players"]), orjson.dumps(data.get("options")), key)
        notes = _NOTES.get(kept)
        if notes is None:
            notes = _deal_notes(raw, index, settings)
            if notes is None:
                return None
            if len(_NOTES) >= NOTES_KEPT:
                _NOTES.clear()
            _NOTES[kept] = notes
        where = replace(raw.location, deal=index + 1)
        found += [
            from_violation(
                replace(v, path=f"deals[{index}].{v.path}" if v.path else f"deals[{index}]"), where
            )
            for v in notes
        ]
    if raw.places is not None:  # a record read from the notation (spec/NOTATION.md)
        from recordkit.notation import located

        found = located(raw, found, settings.strict)
    return RecordReport(raw.location, found, deal_count=_deal_count(raw))


def _deal_notes(raw: RawRecord, index: int, settings: Settings) -> list[Violation] | None:
    """The notes of deal `index` of a record whose every other fact the columns proved, replayed
    from the running totals the record writes before it; None when its replay finds more."""
    header = clean_header(raw.data, settings.game)
    if header is None:
        return None
    ruleset, table = header
    deals = raw.data["deals"]
    try:
        deal = ruleset.Deal.model_validate(deals[index])
    except ValidationError:
        return None
    replay = replay_deal(ruleset, table, deal, _written_before(deals, index, table.players))
    if any(v.severity != Severity.INFO for v in replay.violations):
        return None
    return list(replay.violations)


def _written_before(deals: list[Any], index: int, players: int) -> list[int | float]:
    """The running totals before deal `index` as the record path counts them (`_check_totals`):
    the last totals written, plus the scores written after them."""
    totals: list[int | float] = [0] * players
    for deal in deals[:index]:
        if "totals" in deal:
            totals = list(deal["totals"])
        elif "result" in deal:
            totals = [t + s for t, s in zip(totals, deal["result"]["scores"], strict=True)]
    return totals


def findings(item: Item, settings: Settings) -> RecordReport | Diagnostic:
    """What validating one record finds: a clean record proven so on the fast path, any other
    record replayed in full and reported without its parsed form."""
    if isinstance(item, RecordReport):
        return item
    raw = parsed(item)
    if isinstance(raw, Diagnostic):
        return unreadable(raw)
    deals = clean_replays(raw.data, settings.game, item.text if isinstance(item, RawLine) else None)
    if deals is not None:
        found = _notes(raw, deals)
        if raw.places is not None:  # a record read from the notation (spec/NOTATION.md)
            from recordkit.notation import located

            found = located(raw, found, settings.strict)
        return RecordReport(raw.location, found, deal_count=len(deals))
    return validate_record(raw, settings).findings()


def _notes(raw: RawRecord, deals: list[QuickDeal]) -> list[Diagnostic]:
    """The notes of a record proven clean on the fast path: what each deal that left dealt cards
    out could not check, and each score-sheet deal's, as the full replay says them."""
    ruleset = RULESETS[raw.data["game"]]
    found = []
    for index, deal in enumerate(deals):
        found += [
            from_violation(
                replace(v, path=f"deals[{index}].{v.path}" if v.path else f"deals[{index}]"),
                replace(raw.location, deal=index + 1),
            )
            for v in deal.notes
        ]
        if deal.completion is not None and deal.completion.unchecked:  # a note with no place of its own
            note = not_checked(ruleset, deal.completion)
            where = raw.location.at_deal(index + 1, f"deals[{index}]")
            found.append(Diagnostic(note.code, note.severity, note.message, where, note.rule, note.expected))
    return found


def _check(item: Item, settings: Settings) -> RecordReport | Diagnostic:
    if isinstance(item, RecordReport):
        return item
    raw = parsed(item)
    return unreadable(raw) if isinstance(raw, Diagnostic) else validate_record(raw, settings)


def unreadable(problem: Diagnostic) -> RecordReport | Diagnostic:
    """A problem of one record (a line that is not JSON, a record over the limit) as the report of
    an unreadable record, so that it is counted among the records; a file's problem, or an
    archive's (whose counts are checked against its manifest on their own), as it is."""
    if problem.location.record is None or problem.code == "ARCHIVE-UNREADABLE":
        return problem
    return RecordReport(problem.location, [problem], deal_count=0)


def validate_record(raw: RawRecord, settings: Settings = Settings()) -> RecordReport:
    """Check one record end to end; of the diagnostics of one code in one deal the first few are
    listed and the rest counted (`cap_repeats`), whichever path found them."""
    report = _validate_record(raw, settings)
    report.diagnostics = cap_repeats(report.diagnostics)
    if raw.places is not None:  # a record read from the notation (spec/NOTATION.md)
        from recordkit.notation import located

        report.diagnostics = located(raw, report.diagnostics, settings.strict)
    return report


def _validate_record(raw: RawRecord, settings: Settings) -> RecordReport:
    """Check one record end to end: envelope, value limits, schema, rules, match."""
    report = RecordReport(raw.location)
    ruleset = _envelope(raw.data, report, settings)
    if ruleset is None:
        return report
    skipped = _over_limits(raw.data, report)
    if skipped is None:
        return report
    record, deals = _parse(ruleset, raw.data, report, settings, skipped)
    if record is None:
        return report
    report.record = record
    table, problems = ruleset.table(record.options, len(record.players))
    report.diagnostics += [from_violation(v, raw.location) for v in problems]
    if table is None:
        return report
    _replay_deals(ruleset, table, deals, report)
    return report


# --- the envelope -----------------------------------------------------------------------------


def _envelope(data: Any, report: RecordReport, settings: Settings) -> Ruleset[Any, Any, Any] | None:
    """Format name, version and game, checked before the schema so that each gets a clear message."""

    def fail(code: str, message: str, severity: Severity = Severity.ERROR) -> None:
        report.diagnostics.append(
            Diagnostic(code, severity, message, report.location, rule="format.envelope")
        )

    if not isinstance(data, dict):
        fail("RECORD-SCHEMA", f"a record is a JSON object, not {_kind(data)}")
        return None
    if too_deep(data):
        report.diagnostics.append(nesting_error(report.location))
        return None
    if data.get("format") != FORMAT_NAME:
        fail(
            "RECORD-FORMAT",
            f'this is not a recordkit record: "format" is {_shown(data.get("format"))}, not {FORMAT_NAME!r}',
        )
        return None
    version = parse_version(data.get("version"))
    if version is None:
        fail("RECORD-VERSION", f'"version" is {_shown(data.get("version"))}; it is written like "1.0"')
        return None
    if version[0] != FORMAT_MAJOR:
        fail(
            "RECORD-VERSION",
            f"format version {data['version']} is not readable by this recordkit, "
            f"which reads versions {FORMAT_MAJOR}.x",
        )
        return None
    if version[1] > FORMAT_MINOR:
        fail(
            "RECORD-NEWER-MINOR",
            f"format version {data['version']} is newer than this recordkit "
            f"({FORMAT_MAJOR}.{FORMAT_MINOR}); fields it does not know are reported",
            Severity.WARNING,
        )
    game = data.get("game")
    ruleset = ruleset_for(game) if isinstance(game, str) else None
    if ruleset is None:
        known = ", ".join(RULESETS)
        fail("RECORD-UNKNOWN-GAME", f"unknown game {_shown(game)}; recordkit replays: {known}")
        return None
    if settings.game is not None and game != settings.game:
        fail("RECORD-WRONG-GAME", f"this is a record of {game}, not of {settings.game}")
        return None
    return ruleset


# --- the value limits -------------------------------------------------------------------------


def _over_limits(data: dict[str, Any], report: RecordReport) -> frozenset[int] | None:
    """RECORD-VALUE-LIMIT at each place longer than the format allows (spec/FORMAT.md, "Limits"),
    before any model is built: the deals that hold one are not read; None when the header or the
    list of deals does, and the record is not read at all."""
    if within_limits(data):
        return frozenset()
    skipped: set[int] = set()
    whole = False
    for loc, message in oversized(data):
        deal = loc[1] if len(loc) > 1 and loc[0] == "deals" and isinstance(loc[1], int) else None
        place = replace(report.location, deal=None if deal is None else deal + 1, path=json_path(loc))
        report.diagnostics.append(
            Diagnostic("RECORD-VALUE-LIMIT", Severity.ERROR, message, place, rule="format.limits")
        )
        if deal is None:
            whole = True
        else:
            skipped.add(deal)
    return None if whole else frozenset(skipped)


SHOWN_CHARACTERS = 40
"""The most of a value a message quotes."""


def _shown(value: Any) -> str:
    """A value as a message quotes it: a short one as written, a long one cut, a list or an
    object named (never a repr of the whole, which deep nesting would break)."""
    if isinstance(value, (dict, list)) or value is None:
        return _kind(value)
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return "a number too large to be a version"
    text = repr(value)
    return text if len(text) <= SHOWN_CHARACTERS else text[: SHOWN_CHARACTERS - 3] + "..."


def _kind(value: Any) -> str:
    """What kind of JSON value this is, in words."""
    kinds = {dict: "an object", list: "a list", str: "a string", bool: "true or false", type(None): "null"}
    return kinds.get(type(value), "a number")


# --- the schema -------------------------------------------------------------------------------


def _parse(
    ruleset: Ruleset[Any, Any, Any],
    data: dict[str, Any],
    report: RecordReport,
    settings: Settings,
    skipped: frozenset[int] = frozenset(),
) -> tuple[RecordBase | None, list[Any | None]]:
    """The record and its deals; a deal that does not parse, or is `skipped` (over the limits),
    is None and the others are kept."""
    data = {**data, "version": f"{FORMAT_MAJOR}.{FORMAT_MINOR}"}
    if not skipped:
        try:
            record = ruleset.Record.model_validate(data)
            return record, list(record.deals)
        except ValidationError:
            pass
    raw_deals = data.get("deals", [])
    header = {**data, "deals": []}
    header_record: RecordBase | None = _validated(ruleset.Record, header, (), report, settings)
    if header_record is None:
        return None, []
    if not isinstance(raw_deals, list):
        report.diagnostics.append(
            Diagnostic(
                "RECORD-SCHEMA",
                Severity.ERROR,
                '"deals" is a list of deals',
                replace(report.location, path="deals"),
                rule="format.envelope",
            )
        )
        return header_record, []
    deals = [
        None if i in skipped else _validated(ruleset.Deal, deal, ("deals", i), report, settings)
        for i, deal in enumerate(raw_deals)
    ]
    return header_record, deals


def _validated(
    model: Any, data: Any, prefix: tuple[str | int, ...], report: RecordReport, settings: Settings
) -> Any | None:
    """Validate one part; in lenient mode unknown keys are dropped with a warning and it is retried."""
    for _attempt in range(2):
        try:
            return model.model_validate(data)
        except ValidationError as error:
            errors = error.errors(include_url=False)
        extras = [e for e in errors if e["type"] == "extra_forbidden"]
        if settings.strict or not extras or len(extras) != len(errors):
            report.diagnostics += schema_diagnostics(errors, prefix, report.location, settings, data, model)
            return None
        report.diagnostics += schema_diagnostics(extras, prefix, report.location, settings, data, model)
        data = copy.deepcopy(data)
        for extra in extras:
            _drop(data, extra["loc"])
    return None


def _drop(data: Any, loc: tuple[str | int, ...]) -> None:
    """Remove the unknown key at `loc` from the part's data (lenient mode)."""
    for key in written_loc(data, loc[:-1]):
        data = data[key]
    data.pop(loc[-1], None)


def schema_diagnostics(
    errors: list[Any],
    prefix: tuple[str | int, ...],
    where: Location,
    settings: Settings,
    data: Any = None,
    model: Any = None,
) -> list[Diagnostic]:
    """The pydantic errors of the part at `prefix` as diagnostics, one per place and message (the
    forms of a value a union tried report once)."""
    out: list[Diagnostic] = []
    seen: set[tuple[str | None, str]] = set()
    for error in errors:
        found = schema_diagnostic(error, prefix, where, settings, data, model)
        key = (found.location.path, found.message)
        if key not in seen:
            seen.add(key)
            out.append(found)
    return out


def schema_diagnostic(
    error: Any,
    prefix: tuple[str | int, ...],
    where: Location,
    settings: Settings,
    data: Any = None,
    model: Any = None,
) -> Diagnostic:
    """One pydantic error of the part at `prefix` as the diagnostic a club player reads, in the
    project's words (`recordkit.wording`); `data` (the part as written) places it exactly and
    `model` (the part's model) names what was allowed there."""
    written = error["loc"] if data is None else written_loc(data, error["loc"], error["type"] == "missing")
    loc = prefix + tuple(written)
    path = json_path(loc)
    deal = loc[1] + 1 if len(loc) > 1 and loc[0] == "deals" and isinstance(loc[1], int) else None
    in_options = bool(loc) and loc[0] == "options"
    severity = Severity.ERROR
    rule = "format.schema"
    if error["type"] == "extra_forbidden":
        code = "RECORD-UNKNOWN-OPTION" if in_options else "RECORD-UNKNOWN-KEY"
        key = str(error["loc"][-1])
        message = f"unknown {'option' if in_options else 'key'} {key!r}" + did_you_mean(
            key, model, error["loc"]
        )
        if not settings.strict:
            severity = Severity.WARNING
            message += " (ignored)"
    elif in_options:
        code, message = "RECORD-BAD-OPTION", explain(error, f"option {path.removeprefix('options.')}", model)
    elif error["type"] == "missing":
        code, message = "RECORD-MISSING-FIELD", f"{path} is missing"
    elif error["type"] == "card_limit":
        code, message, rule = "RECORD-VALUE-LIMIT", explain(error, path, model), "format.limits"
    else:
        code, message = "RECORD-SCHEMA", explain(error, path or "the record", model)
    return Diagnostic(code, severity, message, replace(where, deal=deal, path=path), rule=rule)


def written_loc(data: Any, loc: tuple[str | int, ...], keep_last: bool = False) -> list[str | int]:
    """The parts of a pydantic error location that are keys and indexes of the data as written:
    the names pydantic gives the forms a value was tried in, and the key a bare form stands
    for (`"garde"` for `{"call": "garde"}`), are left out; `keep_last` keeps a missing key."""
    out: list[str | int] = []
    node = data
    for index, part in enumerate(loc):
        if (isinstance(part, int) and isinstance(node, list) and 0 <= part < len(node)) or (
            isinstance(part, str) and isinstance(node, dict) and part in node
        ):
            node = node[part]  # type: ignore[index]
        elif not (keep_last and index == len(loc) - 1):
            continue
        out.append(part)
    return out


def json_path(loc: tuple[str | int, ...]) -> str:
    """A pydantic error location as a JSON path: ("deals", 2, "tricks", 5) -> deals[2].tricks[5]."""
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        elif not part.startswith(("function-", "tagged-union", "union", "form:")):
            text += f".{part}" if text else part
    return text


# --- the deals and the match ------------------------------------------------------------------


def _replay_deals(
    ruleset: Ruleset[Any, Any, Any],
    table: Table,
    deals: list[Any | None],
    report: RecordReport,
) -> None:
    """Replay each deal, then check dealer rotation and running totals across deals."""
    totals: list[int | float] | None = [0] * table.players
    previous_dealer: int | None = None
    previous_state: Any = None
    ended_after: int | None = None
    for index, deal in enumerate(deals):
        where = replace(report.location, deal=index + 1)
        if ended_after is not None:
            report.diagnostics.append(
                Diagnostic(
                    "DEAL-AFTER-GAME-END",
                    Severity.ERROR,
                    f"the game was won after deal {ended_after}; no deal is played after the end",
                    replace(where, path=f"deals[{index}]"),
                    rule=ruleset.end_rule,
                )
            )
        if deal is None:
            report.replays.append(None)
            totals, previous_dealer, previous_state = None, None, None
            continue
        replay = replay_deal(ruleset, table, deal, totals)
        report.replays.append(replay)
        expected = (
            ruleset.next_dealer(table, previous_dealer, previous_state)
            if previous_dealer is not None
            else None
        )
        report.diagnostics += [
            replace(
                from_violation(
                    replace(v, path=f"deals[{index}].{v.path}" if v.path else f"deals[{index}]"), where
                ),
                repeats=repeats,
            )
            for v, repeats in first_repeats(
                [*hint(ruleset, table, deal, replay, totals, expected), *replay.violations]
            )
        ]
        if expected is not None and deal.dealer != expected:
            report.diagnostics.append(
                Diagnostic(
                    "DEAL-DEALER-ROTATION",
                    Severity.ERROR,
                    f"seat {deal.dealer} deals, but after seat {previous_dealer} the deal passes to seat "
                    f"{expected}",
                    replace(where, path=f"deals[{index}].dealer"),
                    rule=ruleset.dealer_rule,
                    expected=f"seat {expected}",
                )
            )
        previous_dealer = deal.dealer
        previous_state = ruleset.sheet_state(table, deal) if replay.sheet else replay.state
        totals = _check_totals(ruleset, deal, replay, totals, report, where, index, table.players)
        if ended_after is None and totals is not None and ruleset.game_over(table, totals, previous_state):
            ended_after = index + 1


def _check_totals(
    ruleset: Ruleset[Any, Any, Any],
    deal: Any,
    replay: DealReplay,
    totals: list[int | float] | None,
    report: RecordReport,
    where: Location,
    index: int,
    players: int,
) -> list[int | float] | None:
    """Running totals after a deal: the previous totals plus this deal's (written, else computed)
    scores; a deal thrown in or abandoned that the rules do not score counts nothing, so its
    totals are the totals before it."""
    scores: list[int | float] | None = list(deal.result.scores) if deal.result is not None else replay.scores
    if deal.status in ("annulled", "abandoned") and scores is None:
        scores = [0] * len(totals or [])
    expected = (
        [t + s for t, s in zip(totals, scores, strict=True)]
        if totals is not None and scores is not None and len(scores) == len(totals)
        else None
    )
    if deal.totals is None:
        return expected
    written = list(deal.totals)
    shown = " ".join(f"{t:g}" for t in expected) if expected is not None else None
    if len(written) != players:
        message = f"the running totals have {len(written)} number(s) for {players} players"
        report.diagnostics.append(_totals_mismatch(ruleset, message, where, index, shown))
        return expected
    if expected is not None and written != expected:
        message = (
            "the running totals are "
            + " ".join(f"{t:g}" for t in written)
            + f", but the totals before this deal plus its scores make {shown}"
        )
        report.diagnostics.append(_totals_mismatch(ruleset, message, where, index, shown))
    return written


def _totals_mismatch(
    ruleset: Ruleset[Any, Any, Any], message: str, where: Location, index: int, expected: str | None
) -> Diagnostic:
    """TOTAL-MISMATCH at a deal's totals."""
    return Diagnostic(
        "TOTAL-MISMATCH",
        Severity.ERROR,
        message,
        replace(where, path=f"deals[{index}].totals"),
        rule=ruleset.totals_rule,
        expected=expected,
    )
