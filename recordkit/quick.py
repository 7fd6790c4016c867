"""The fast path of validation: proving a record clean without the machinery that explains faults.

Most records in an archive are clean, and a clean record needs no diagnostics, no pydantic deal
models and no action objects. `clean_deals` replays a parsed record through each game's
`Ruleset.quick_deal` and says how many deals it has when the full replay would report nothing at
all; at the first doubt it says None and the record goes through `validate.validate_record`, which
finds and explains what is wrong. So the verdicts are the full path's by construction, and the
tests check it on generated, corrupted and sample records.
"""

from __future__ import annotations

from typing import Any

import orjson
from pydantic import ConfigDict, TypeAdapter, ValidationError

from recordkit.derive import derive
from recordkit.diagnostics import Severity
from recordkit.engine import replay_completed, replay_sheet
from recordkit.games import RULESETS
from recordkit.limits import within_limits
from recordkit.model import FORMAT_MAJOR, FORMAT_MINOR, FORMAT_NAME, MetaValue, parse_version
from recordkit.rules.base import Ruleset
from recordkit.rules.values import QuickDeal, Table

_NUMBER = frozenset({int, float})
_SCORES = frozenset({"scores"})
HEADERS_KEPT = 64
"""The most headers whose verdict `clean_header` keeps (all are forgotten when it is full)."""
_HEADERS: dict[bytes, Table | None] = {}
"""The table of each header seen (its JSON without the deals and `meta`), or None if refused."""
_META: TypeAdapter[dict[str, MetaValue]] = TypeAdapter(dict[str, MetaValue], config=ConfigDict(strict=True))
"""The record model's own validation of the `meta` tags (the type `RecordBase.meta` declares;
`Strict` models are strict)."""


def clean_deals(data: Any, game: str | None = None) -> int | None:
    """The number of deals of a parsed record that the full validation would find nothing wrong
    with (expecting `game` when given), or None when that is not certain."""
    deals = clean_replays(data, game)
    return None if deals is None else len(deals)


def clean_replays(data: Any, game: str | None = None, text: bytes | None = None) -> list[QuickDeal] | None:
    """Each deal of a parsed record as the fast path replayed it, when the full validation would
    find nothing wrong with the record (expecting `game` when given; `text`: the JSON it was
    parsed from, when known, which spares the limits a walk); else None."""
    deals = data.get("deals", []) if type(data) is dict else None
    if type(deals) is not list or not within_limits(data, text):
        return None
    header = clean_header(data, game)
    if header is None:
        return None
    ruleset, table = header
    totals: list[int | float] = [0] * table.players
    replays: list[QuickDeal] = []
    for index, deal in enumerate(deals):
        if type(deal) is not dict:
            return None
        if "hands" not in deal and deal.get("tricks"):  # played, its hands left out: derived first
            found = _quick_derived(ruleset, table, deal, totals) or ruleset.quick_deal(table, deal, totals)
        else:
            found = ruleset.quick_deal(table, deal, totals) or _quick_derived(ruleset, table, deal, totals)
        if found is None:
            return None
        if replays and found.dealer != ruleset.next_dealer(table, replays[-1].dealer, replays[-1].state):
            return None
        totals_after = _totals_after(ruleset, deal, found.scores, totals)
        if totals_after is None:
            return None
        totals = totals_after
        if index < len(deals) - 1 and ruleset.game_over(table, totals, found.state):
            return None
        replays.append(found)
    return replays


def _quick_derived(
    ruleset: Ruleset[Any, Any, Any], table: Table, deal: dict[str, Any], before: list[int | float]
) -> QuickDeal | None:
    """The fast path of a deal that leaves dealt cards out: derived exactly as the full replay
    derives them (`recordkit.derive`), then the completed deal on the game's fast path, else its
    full replay when that finds only the note; a score sheet's line scored from its facts; None
    for any other deal the fast path did not prove."""
    try:
        model = ruleset.Deal.model_validate(deal)
    except ValidationError:
        return None
    if ruleset.is_sheet(model):
        return _quick_sheet(ruleset, table, model, before)
    if not ruleset.unknown(table, model):
        return None
    completion, _problems = derive(ruleset, table, model)
    if completion is None:
        return None
    found = ruleset.quick_deal(table, completion.deal.model_dump(mode="json", exclude_none=True), before)
    if found is not None:
        found.completion = completion  # written in: building another replay costs a microsecond
        return found
    replay = replay_completed(ruleset, table, model, completion, before)  # derived once, replayed in full
    if replay.scores is None or any(v.severity != Severity.INFO for v in replay.violations):
        return None
    calls = [action for action in replay.actions if action.kind != "play"]
    return QuickDeal(model.dealer, replay.scores, replay.state, calls, replay.completion)


def _quick_sheet(
    ruleset: Ruleset[Any, Any, Any], table: Table, model: Any, before: list[int | float]
) -> QuickDeal | None:
    """A score sheet's line scored from its facts as the full validation scores it
    (`engine.replay_sheet`), when that finds nothing but its notes; None otherwise."""
    replay = replay_sheet(ruleset, table, model, before)
    if any(v.severity != Severity.INFO for v in replay.violations):
        return None
    state = ruleset.sheet_state(table, model)
    return QuickDeal(model.dealer, replay.scores, state, [], notes=replay.violations, sheet=True)


def clean_header(data: Any, game: str | None = None) -> tuple[Ruleset[Any, Any, Any], Table] | None:
    """The ruleset and table of a parsed record whose envelope and header (all but the deals) the
    full validation accepts without a word (expecting `game` when given); else None."""
    ruleset = _ruleset(data, game)
    if ruleset is None:
        return None
    table = _table(ruleset, data)
    return None if table is None else (ruleset, table)


def _ruleset(data: Any, game: str | None) -> Ruleset[Any, Any, Any] | None:
    """The record's ruleset when its envelope is one the full path accepts without a word."""
    if type(data) is not dict or data.get("format") != FORMAT_NAME:
        return None
    version = parse_version(data.get("version"))
    if version is None or version[0] != FORMAT_MAJOR or version[1] > FORMAT_MINOR:
        return None
    name = data.get("game")
    if type(name) is not str or (game is not None and name != game):
        return None
    return RULESETS.get(name)


def _table(ruleset: Ruleset[Any, Any, Any], data: dict[str, Any]) -> Table | None:
    """The table of a record whose header (all but the deals) the schema and the rules accept.
    The verdict on all of it but its free-form `meta` is kept by the exact JSON of that part
    (`_HEADERS`), since a file's records nearly always share it; `meta`, whose tags differ from
    record to record, is validated on its own by the record model's own type of it."""
    try:
        key = orjson.dumps(
            {name: value for name, value in data.items() if name != "deals" and name != "meta"}
        )
    except TypeError:  # orjson.JSONEncodeError: not what orjson writes, so not kept
        return _header_table(ruleset, data)
    if key in _HEADERS:
        table = _HEADERS[key]
    else:
        if len(_HEADERS) >= HEADERS_KEPT:
            _HEADERS.clear()
        table = _HEADERS[key] = _header_table(
            ruleset, {name: value for name, value in data.items() if name != "meta"}
        )
    if table is None or "meta" not in data:
        return table
    try:
        _META.validate_python(data["meta"])
    except ValidationError:
        return None
    return table


def _header_table(ruleset: Ruleset[Any, Any, Any], data: dict[str, Any]) -> Table | None:
    """The table of a record's header, validated by the record model, when the rules accept it."""
    try:
        header = ruleset.Record.model_validate({**data, "deals": []})
    except ValidationError:
        return None
    table, problems = ruleset.table(header.options, len(header.players))
    return None if problems else table


def _totals_after(
    ruleset: Ruleset[Any, Any, Any],
    deal: dict[str, Any],
    scores: list[int | float] | None,
    before: list[int | float],
) -> list[int | float] | None:
    """The running totals after a deal whose written result and totals match the rules' scores
    (a deal the rules do not score: its written scores, as the full validation takes them);
    None when either differs, or when a deal that scores has no result (a warning). Fields of the
    result other than the scores are the game's `quick_result_fields`, which its `quick_deal` checks.
    A JSON value equal to a list of numbers is a list of numbers or of true and false (True == 1),
    so the written lists are compared first and then held to have no bool."""
    result = deal.get("result")
    if result is not None:
        written = result.get("scores") if type(result) is dict else None
        if type(written) is not list or (
            len(result) > 1 and not ruleset.quick_result_fields.issuperset(result.keys() - _SCORES)
        ):
            return None
        if scores is None and len(written) == len(before) and _NUMBER.issuperset(map(type, written)):
            scores = written
        if written != scores or bool in map(type, written):
            return None
    if scores is None or (result is None and any(scores)):
        return None
    expected = [total + score for total, score in zip(before, scores, strict=True)]
    totals = deal.get("totals")
    if totals is None:
        return expected
    return totals if totals == expected and bool not in map(type, totals) else None
