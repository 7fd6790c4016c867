"""What the tests of every game's columnar check share: an archive of records, its findings
through the columns and through the full replay, records rescored by the rules, and the two
checks every game's tests run (clean archives proven, changed copies never proven wrongly).
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
from hypothesis import strategies as st

from recordkit.columnar import archive_items
from recordkit.convert.archive import to_archive
from recordkit.diagnostics import Location
from recordkit.rules.base import Ruleset
from recordkit.sources import RawRecord
from recordkit.validate import RecordReport, Settings, findings, validate_record
from tests.test_quick import _found, full_replays, mutate

Mistake = Callable[[dict[str, Any], st.DataObject], None]
"""One change a person typing a record makes, in place."""


def archive_of(records: list[dict[str, Any]], folder: str) -> Path:
    """The archive `recordkit convert` writes of these records, in `folder`."""
    source, archive = Path(folder) / "games.jsonl", Path(folder) / "archive"
    source.write_bytes(b"".join(orjson.dumps(record) + b"\n" for record in records))
    to_archive([str(source)], archive)
    return archive


def both_ways(archive: Path) -> tuple[list[Any], list[Any], list[bool]]:
    """The findings through the columnar check, through the full replay, and which records the
    columnar check proved."""
    items = list(archive_items(archive, Settings()))
    return (
        [_found(findings(item, Settings())) for item in items],
        [_found(report) for report in full_replays(archive)],
        [isinstance(item, RecordReport) for item in items],
    )


def rescored(record: dict[str, Any]) -> None:
    """Write the scores and running totals the rules give for each deal as it now stands (a
    recorder who counts right what was wrongly played), so that no fault hides behind a score."""
    if not isinstance(record.get("players"), list) or not isinstance(record.get("deals"), list):
        return
    report = validate_record(RawRecord(orjson.loads(orjson.dumps(record)), Location()))
    totals: list[int | float] = [0] * len(record["players"])
    for deal, replay in zip(record["deals"], report.replays, strict=False):
        if replay is None or replay.scores is None or not isinstance(deal, dict):
            return
        deal["result"] = {"scores": list(replay.scores)}
        totals = [total + score for total, score in zip(totals, replay.scores, strict=True)]
        deal["totals"] = totals


def played(records: list[dict[str, Any]]) -> bool:
    """Whether any card is played in these records (an archive without plays rows takes the
    record path: its plays file has no statistics to align its row groups by)."""
    return any(deal.get("tricks") for record in records for deal in record["deals"])


def proven_clean(records: list[dict[str, Any]]) -> list[bool]:
    """Which of these clean records the columns prove, once the archive's findings are checked
    to be the full replay's (none)."""
    with tempfile.TemporaryDirectory() as folder:
        columnar, full, proven = both_ways(archive_of(records, folder))
    assert columnar == full
    assert all(not report[1] for report in full)
    return proven


def changed_copies(
    record: dict[str, Any],
    data: st.DataObject,
    ruleset: Ruleset[Any, Any, Any],
    mistake: Mistake | None,
    count: int,
    mistaken: int,
) -> list[dict[str, Any]]:
    """`count` copies of a record: the first `mistaken` each with one `mistake` (one `mutate`
    without one), every other of them scored by the rules (`rescored`) so that no fault hides
    behind a wrong score; the rest each with one change anywhere (`mutate`)."""
    copies = [orjson.loads(orjson.dumps(record)) for _ in range(count)]
    for number, copy in enumerate(copies):
        if number < mistaken:
            if mistake is None:
                mutate(copy, data, ruleset)
            else:
                mistake(copy, data)
            if number % 2:
                rescored(copy)
        else:
            mutate(copy, data, ruleset)
    return copies


def never_proven_wrongly(records: list[dict[str, Any]]) -> None:
    """Assert the columns prove no record of an archive that the full replay objects to, and that
    the findings of the whole archive are the full replay's."""
    with tempfile.TemporaryDirectory() as folder:
        columnar, full, proven = both_ways(archive_of(records, folder))
    for report, was_proven in zip(full, proven, strict=True):
        assert not (was_proven and report[1]), report
    assert columnar == full


def group_of(deal: dict[str, Any], key: str, index: int | None) -> list[str]:
    """The cards of one group of a deal: `deal[key]`, or its `index`th group when it is a list."""
    value: Any = deal.get(key)
    text = value if index is None or type(value) is str else value[index]
    return str(text or "").split()


def set_group(deal: dict[str, Any], key: str, index: int | None, cards: list[str]) -> None:
    """Write one group of a deal's cards back where `group_of` read it."""
    if index is None or type(deal.get(key)) is str:
        deal[key] = " ".join(cards)
    else:
        deal[key][index] = " ".join(cards)


def swap_or_replace(
    deal: dict[str, Any],
    kind: str,
    places: list[tuple[str, int | None]],
    codes: list[str] | tuple[str, ...],
    data: st.DataObject,
    resize: bool = False,
) -> None:
    """A card of one of the deal's groups (`places`: each group's key and index) replaced by a
    card of `codes` (`kind` "replace"; with `resize`, now and then one dropped or one added
    instead), or swapped with a card of the same group or another ("swap")."""
    first = data.draw(st.sampled_from(places))
    cards = group_of(deal, *first)
    i = data.draw(st.integers(0, len(cards) - 1))
    if kind == "replace":
        change = data.draw(st.integers(0, 5)) if resize else 2
        if change == 0:
            cards.pop(i)
        elif change == 1:
            cards.insert(i, data.draw(st.sampled_from(codes)))
        else:
            cards[i] = data.draw(st.sampled_from(codes))
    else:
        second = data.draw(st.sampled_from(places))
        other = group_of(deal, *second) if second != first else cards
        j = data.draw(st.integers(0, len(other) - 1))
        cards[i], other[j] = other[j], cards[i]
        set_group(deal, *second, other)
    set_group(deal, *first, cards)


SHARED_MISTAKES = ("replace", "dealer", "status", "score", "total", "tricks", "rotate", "leader", "winner")
"""The mistakes of `shared_mistake`, which a record of any game can take."""


def shared_mistake(
    deal: dict[str, Any], kind: str, n: int, codes: list[str], steps: list[int], data: st.DataObject
) -> None:
    """One of the mistakes a typist makes in a deal of any game at a table of `n` (`kind`, one of
    `SHARED_MISTAKES`): a card of a trick replaced by one of `codes`, the dealer or the status
    changed, a score or a total moved by one of `steps`, two tricks swapped, a trick's cards
    rotated, a trick's leader or winner written (rightly or not)."""
    tricks: list[Any] = deal.get("tricks", [])
    if kind == "replace" and tricks:
        i = data.draw(st.integers(0, len(tricks) - 1))
        cards = tricks[i].split()
        cards[data.draw(st.integers(0, n - 1))] = data.draw(st.sampled_from(codes))
        tricks[i] = " ".join(cards)
    elif kind == "dealer":
        deal["dealer"] = (deal["dealer"] + data.draw(st.integers(1, n))) % (n + 1)
    elif kind == "status":
        deal["status"] = data.draw(st.sampled_from(["annulled", "abandoned"]))
    elif kind in ("score", "total") and deal.get("result"):
        values = deal["result"]["scores"] if kind == "score" else deal["totals"]
        values[data.draw(st.integers(0, n - 1))] += data.draw(st.sampled_from(steps))
    elif kind == "tricks" and len(tricks) > 1:
        i, j = data.draw(st.lists(st.integers(0, len(tricks) - 1), min_size=2, max_size=2, unique=True))
        tricks[i], tricks[j] = tricks[j], tricks[i]
    elif kind == "rotate" and tricks:
        i = data.draw(st.integers(0, len(tricks) - 1))
        cards = tricks[i].split()
        tricks[i] = " ".join(cards[1:] + cards[:1])
    elif kind in ("leader", "winner") and tricks:
        i = data.draw(st.integers(0, len(tricks) - 1))
        tricks[i] = {"cards": tricks[i], kind: data.draw(st.integers(0, n - 1))}
