"""The replay model: a record as the engine replays it, in JSON-able form, for the views to render.

Every fact here comes from the engine or the ruleset (spec/VIEW.md lists the fields): the tricks,
their winners and each seat's card points (`Ruleset.deal_shares`), the sides
(`Ruleset.declaring_side`), the contract and its count (`Ruleset.summary`), the working of the
score (`Ruleset.score_working`), the diagnostics (`validate_record`). The views state no rule.
"""

from __future__ import annotations

import re
from dataclasses import asdict, replace
from typing import Any

from recordkit.cards import Deck
from recordkit.diagnostics import Diagnostic, Severity
from recordkit.engine import DealReplay, steps
from recordkit.games import RULESETS
from recordkit.notation.read import NORMALISED
from recordkit.raw import RawRecord
from recordkit.rules.base import Ruleset
from recordkit.rules.values import DealSummary, Table
from recordkit.validate import RecordReport, Settings, validate_record
from recordkit.view.cards import faces

NOT_GROUPS = frozenset({"dealer", "hands", "tricks", "status", "result", "totals", "comment", "time"})
"""A deal's fields that are never a dealt group of cards (every other field that reads as cards is)."""

DEAL_PATH = re.compile(r"^deals\[(\d+)\]\.?")


UNKNOWN_KEYS = frozenset({"RECORD-UNKNOWN-KEY", "RECORD-UNKNOWN-OPTION"})
"""The codes of the keys lenient validation leaves out of what it reads, and strict refuses."""


def view_report(raw: RawRecord, strict: bool) -> RecordReport:
    """A record's report as the views show it: read leniently, so that a part holding an unknown
    key is still shown (strict validation would leave it unread), with each finding as
    validation in the mode given says it: in strict mode an unknown key or option is an error and
    a tolerant spelling of the notation a note, so that the views fail where `validate` does."""
    report = validate_record(raw, Settings(strict=False))
    if strict:
        report.diagnostics = [_as_strict(d) for d in report.diagnostics]
    return report


def _as_strict(diagnostic: Diagnostic) -> Diagnostic:
    """A finding of lenient validation with the severity strict validation gives it."""
    if diagnostic.severity != Severity.WARNING:
        return diagnostic
    if diagnostic.code in UNKNOWN_KEYS:
        return replace(diagnostic, severity=Severity.ERROR)
    if diagnostic.code == NORMALISED:
        return replace(diagnostic, severity=Severity.INFO)
    return diagnostic


def deals_read(report: RecordReport, written: Any) -> list[Any | None]:
    """Each deal of a record as validation read it, None for one it could not: the record's own
    deals or, when it came back without them (a part did not parse at once: an unknown key, a
    deal of the wrong shape, so each part was read on its own), each deal's JSON (`written`, the
    record as read) parsed again where validation replayed it."""
    record = report.record
    assert record is not None, "a record that could not be read has no deals"
    listed = written.get("deals") if type(written) is dict else None
    if record.deals or type(listed) is not list:
        return list(record.deals)
    parse = RULESETS[record.game].Deal.model_validate
    replays = report.replays
    return [
        parse(deal, extra="ignore") if i < len(replays) and replays[i] is not None else None
        for i, deal in enumerate(listed)
    ]


def record_model(report: RecordReport, written: Any, only: int | None = None) -> dict[str, Any]:
    """The whole record's model: its game, seats, the diagnostics outside any deal, and each deal's
    model (`deal_model`, or `unread_model` for a deal that could not be read); the report must come
    from `validate_record` (with its replays) of `written`, the record as read. With `only`, the
    other deals are null (the terminal shows one deal)."""
    record = report.record
    assert record is not None, "a record that could not be read has no replay"
    ruleset = RULESETS[record.game]
    table, _ = ruleset.table(record.options, len(record.players))
    outside = [diagnostic_model(d) for d in report.diagnostics if d.location.deal is None]
    model: dict[str, Any] = {
        "game": record.game,
        "title": ruleset.title,
        "players": list(record.players),
        "comment": record.comment,
        "diagnostics": outside,
        "cards": {},
        "deals": [],
    }
    if table is None:
        return model
    model["cards"] = {face["code"]: face for face in faces(table.deck, list(range(len(table.deck))))}
    for index, deal in enumerate(deals_read(report, written)):
        if only is not None and index + 1 != only:
            model["deals"].append(None)
            continue
        found = [d for d in report.diagnostics if d.location.deal == index + 1]
        if deal is None:
            model["deals"].append(unread_model(index + 1, found))
            continue
        replayed = report.replays[index] if index < len(report.replays) else None
        model["deals"].append(deal_model(ruleset, table, deal, replayed, index + 1, found))
    return model


def unread_model(number: int, diagnostics: list[Diagnostic]) -> dict[str, Any]:
    """The model of a deal that could not be read (its JSON does not fit the format): its number
    and its diagnostics, which say why."""
    return {
        "number": number,
        "dealer": None,
        "status": None,
        "kind": "unread",
        "comment": None,
        "scores": {"rules": None, "written": None, "totals": None},
        "facts": {},
        "faulty": True,
        "diagnostics": [diagnostic_model(d) for d in diagnostics],
    }


def deal_model(
    ruleset: Ruleset[Any, Any, Any],
    table: Table,
    deal: Any,
    replayed: DealReplay | None,
    number: int,
    diagnostics: list[Diagnostic],
) -> dict[str, Any]:
    """One deal's model: a score sheet's line, a deal that could not be replayed, or a played deal
    with its dealt groups, calls, tricks, running points, summary and scores."""
    written = deal.result.model_dump(mode="json", exclude_none=True) if deal.result is not None else None
    model: dict[str, Any] = {
        "number": number,
        "dealer": deal.dealer % table.players,
        "status": deal.status,
        "kind": "played",
        "comment": deal.comment,
        "scores": {
            "rules": list(replayed.scores) if replayed is not None and replayed.scores is not None else None,
            "written": list(deal.result.scores) if deal.result is not None else None,
            "totals": list(deal.totals) if deal.totals is not None else None,
        },
        "facts": {k: v for k, v in (written or {}).items() if k != "scores"},
        "faulty": any(d.severity == Severity.ERROR for d in diagnostics),
        "diagnostics": [diagnostic_model(d) for d in diagnostics],
    }
    if replayed is not None and replayed.sheet:
        model["kind"] = "sheet"
        return model
    if replayed is None or replayed.state is None:
        model["kind"] = "unreplayed"
        return model
    state = replayed.state
    summary = ruleset.summary(state)
    side = ruleset.declaring_side(table, state, summary)
    completion = replayed.completion
    dealt = completion.deal if completion is not None else deal
    model.update(
        groups=_groups(table.deck, dealt, completion.derived if completion is not None else []),
        unchecked=[
            {"code": code, "seat": seat, "why": why}
            for (code, seat), why in (completion.unchecked.items() if completion is not None else [])
        ],
        calls=[
            {"seat": a.seat, "kind": a.kind, "text": ruleset.describe(table, a), "path": a.path}
            for a in replayed.actions
            if a.kind != "play"
        ],
        summary=_summary(summary),
        side=side,
        tricks=_tricks(ruleset, table, dealt, state, side),
        end_hands=[table.deck.format_mask(hand) for hand in getattr(state, "hands", [])],
        working=ruleset.score_working(table, state),
    )
    return model


def _summary(summary: DealSummary) -> dict[str, Any]:
    """The ruleset's summary of the deal, as a dict of its fields (None where they do not apply)."""
    return asdict(summary)


def _groups(deck: Deck, deal: Any, derived: list[str]) -> list[dict[str, Any]]:
    """The deal's dealt groups as the replay read them: each hand, then every other field whose
    value reads as cards (dog, kitty, discard, face-up round, a called card), derived ones marked."""
    groups = [
        {"path": f"hands[{seat}]", "name": "hand", "seat": seat, "cards": _cards(deck, hand) or []}
        for seat, hand in enumerate(deal.hands or [])
    ]
    for name, value in deal:
        if name in NOT_GROUPS or value is None:
            continue
        cards = _cards(deck, value)
        if cards:
            groups.append({"path": name, "name": name.replace("_", " "), "seat": None, "cards": cards})
    for group in groups:
        group["derived"] = group["path"] in derived
    return groups


def _cards(deck: Deck, value: Any) -> list[str | None] | None:
    """The canonical codes of a group of cards (a string or a list, unknown cards null), or None
    when the value is not a group of cards."""
    codes = value.split() if isinstance(value, str) else value if isinstance(value, list) else None
    if not codes or not all(code is None or (isinstance(code, str) and code in deck.index) for code in codes):
        return None
    return [deck.codes[deck.index[code]] if code is not None else None for code in codes]


def _tricks(
    ruleset: Ruleset[Any, Any, Any], table: Table, deal: Any, state: Any, side: list[bool] | None
) -> list[dict[str, Any]]:
    """Each trick: leader, cards by seat, winner, points, each seat's share by the count
    (`deal_shares`), the running points by seat and by side, and the hands before it."""
    deck = table.deck
    shares = ruleset.deal_shares(table, state)
    hands = hands_before_tricks(ruleset, table, deal)
    running: list[int | float] = [0] * table.players
    tricks = []
    for number, trick in enumerate(state.tricks, start=1):
        share = shares[number - 1] if shares is not None else None
        if share is not None:
            running = [total + part for total, part in zip(running, share, strict=True)]
        tricks.append(
            {
                "number": number,
                "leader": trick.leader,
                "winner": trick.winner,
                "cards": [
                    {"seat": seat, "position": position, "code": deck.codes[card]}
                    for position, (card, seat) in enumerate(zip(trick.cards, trick.seats, strict=True), 1)
                ],
                "points": ruleset.trick_points(trick),
                "shares": share,
                "running": list(running) if share is not None else None,
                "running_sides": _sides(running, side) if share is not None else None,
                "notes": [
                    {"after": after, "text": text} for after, text in ruleset.trick_notes(state, number)
                ],
                "hands": [deck.format_mask(hand) for hand in hands[number - 1]]
                if number <= len(hands)
                else None,
            }
        )
    return tricks


def _sides(running: list[int | float], side: list[bool] | None) -> dict[str, int | float] | None:
    """The running points of the declaring side and of the others (None when nobody declared)."""
    if side is None:
        return None
    ours = sum(points for points, with_declarer in zip(running, side, strict=True) if with_declarer)
    theirs = sum(points for points, with_declarer in zip(running, side, strict=True) if not with_declarer)
    return {"declarer": ours, "others": theirs}


def hands_before_tricks(ruleset: Ruleset[Any, Any, Any], table: Table, deal: Any) -> list[list[int]]:
    """Each seat's hand (a bitmask) just before each trick's lead, from the engine's step-by-step
    replay (`engine.steps`): after any exchange the rules make (a dog taken, a discard)."""
    before: list[int] = []
    out: list[list[int]] = []
    for action, _found, state in steps(ruleset, table, deal):
        current = state.current
        if action is not None and action.kind == "play" and current is not None and len(current.cards) == 1:
            out.append(before)
        before = list(getattr(state, "hands", []))
    return out


def diagnostic_model(diagnostic: Diagnostic) -> dict[str, Any]:
    """A diagnostic with the place it points at: its trick and card, seat, the path inside the
    deal, and what it is pinned to in the views (a card, trick, hand, call, score or the deal)."""
    where = diagnostic.location
    path = DEAL_PATH.sub("", where.path or "") if where.path else None
    return {
        "code": diagnostic.code,
        "severity": str(diagnostic.severity),
        "rule": diagnostic.rule,
        "message": diagnostic.message,
        "expected": diagnostic.expected,
        "deal": where.deal,
        "trick": where.trick,
        "position": where.position,
        "seat": where.seat,
        "path": path,
        "pin": _pin(where.trick, where.position, path),
        "text": diagnostic.text(),
    }


def _pin(trick: int | None, position: int | None, path: str | None) -> str:
    """What a diagnostic is pinned to in the views, from its place."""
    if trick is not None:
        return "card" if position is not None else "trick"
    head = re.split(r"[.\[]", path or "")[0]
    if head == "hands":
        return "hand"
    if head in ("result", "totals"):
        return "score"
    if head in ("", "dealer", "status"):
        return "deal"
    return "call"
