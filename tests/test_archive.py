"""Parquet archives: exact round trips, the documented queries against Python, atomic writes, bad input."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import orjson
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from recordkit.archive import archive_records, read_manifest
from recordkit.archive.stats import connect
from recordkit.archive.store import ArchiveWriter
from recordkit.cli import app
from recordkit.codec import dumps, loads
from recordkit.convert.archive import from_archive, to_archive
from recordkit.diagnostics import Location
from recordkit.games import RULESETS
from recordkit.generate import generate_record
from recordkit.model import to_data
from recordkit.notation import text_sources
from recordkit.sources import RawRecord
from recordkit.validate import Settings, validate_record
from tests.budget import examples
from tests.helpers import generated
from tests.test_properties import games as any_game
from tests.test_tarot_properties import play_one_illegal_card

ROOT = Path(__file__).parent.parent
runner = CliRunner()


def write_jsonl(path: Path, records: list[dict[str, Any]]) -> Path:
    path.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in records))
    return path


def canonical_lines(records: list[dict[str, Any]]) -> list[bytes]:
    return [dumps(loads(orjson.dumps(r))).encode() for r in records]


def back(archive: Path) -> list[bytes]:
    return [text for _id, text in archive_records(archive)]


@settings(
    max_examples=examples(15),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(st.lists(any_game, min_size=1, max_size=4))
def test_round_trip_is_exact_for_every_game(
    tmp_path_factory: pytest.TempPathFactory, games: list[Any]
) -> None:
    """records -> archive -> records gives back exactly the canonical records, for every game and variant."""
    folder = tmp_path_factory.mktemp("rt")
    records = []
    for ruleset, players, options, seed in games:
        try:
            records.append(to_data(generate_record(ruleset, players, 2, seed, options, player="random")))
        except ValueError:
            continue
    source = write_jsonl(folder / "in.jsonl", records)
    report = to_archive([str(source)], folder / "archive", batch_deals=3)
    assert report.records == len(records) and not report.skipped
    assert back(folder / "archive") == canonical_lines(records)


def test_samples_round_trip_exactly(tmp_path: Path) -> None:
    """`recordkit convert --keep-invalid samples/ out/archive && recordkit convert out/archive
    back.jsonl` gives back every readable record exactly."""
    archive, output = tmp_path / "archive", tmp_path / "back.jsonl"
    assert (
        runner.invoke(app, ["convert", "--keep-invalid", str(ROOT / "samples"), str(archive)]).exit_code == 0
    )
    assert runner.invoke(app, ["convert", str(archive), str(output)]).exit_code == 0
    readable = []
    for path in sorted(p for p in (ROOT / "samples").rglob("*") if p.suffix in (".json", ".jsonl", ".rkn")):
        if path.suffix == ".rkn":  # the notation's text twins (spec/NOTATION.md)
            raws = list(text_sources(path.read_text(), str(path)))
        else:
            raws = []
            for line in path.read_bytes().splitlines() if path.suffix == ".jsonl" else [path.read_bytes()]:
                try:
                    raws.append(RawRecord(orjson.loads(line), Location()))
                except orjson.JSONDecodeError:
                    continue
        for raw in raws:
            report = validate_record(raw, Settings())
            if report.record is not None and len(report.record.deals) == len(report.replays):
                readable.append(dumps(report.record).encode())
    assert output.read_bytes().splitlines() == readable


def test_append_continues_the_archive(tmp_path: Path) -> None:
    first = [generated(4, seed) for seed in range(3)]
    second = [generated(5, seed) for seed in range(2)]
    archive = tmp_path / "archive"
    to_archive([str(write_jsonl(tmp_path / "a.jsonl", first))], archive)
    to_archive([str(write_jsonl(tmp_path / "b.jsonl", second))], archive, append=True)
    manifest = read_manifest(archive)
    assert manifest.parts == ["part-00000", "part-00001"] and manifest.games == 5
    assert [game_id for game_id, _ in archive_records(archive)] == [0, 1, 2, 3, 4]
    assert back(archive) == canonical_lines(first + second)


def test_existing_archive_is_not_overwritten_without_asking(tmp_path: Path) -> None:
    archive = tmp_path / "archive"
    to_archive([str(write_jsonl(tmp_path / "a.jsonl", [generated(4, 1)]))], archive)
    before = snapshot(archive)
    result = runner.invoke(app, ["convert", str(tmp_path / "a.jsonl"), str(archive)])
    assert result.exit_code == 2 and "--append" in result.output
    assert snapshot(archive) == before


def test_files_carry_version_and_options_metadata(tmp_path: Path) -> None:
    archive = tmp_path / "archive"
    to_archive([str(write_jsonl(tmp_path / "a.jsonl", [generated(4, 1, options={"misere": True})]))], archive)
    metadata = pq.ParquetFile(
        archive / "plays" / "game=french-tarot" / "part-00000.parquet"
    ).metadata.metadata
    assert metadata[b"recordkit.archive_version"] == b"4"
    assert metadata[b"recordkit.record_format"] == b"1.1"
    assert metadata[b"recordkit.tool"].startswith(b"recordkit ")
    assert orjson.loads(metadata[b"recordkit.options"])["french-tarot"][0].count('"misere":true') == 1


# --- the documented queries against the same figures computed in Python ---------------------------


def documented_queries() -> dict[str, str]:
    text = (ROOT / "spec" / "ARCHIVE.md").read_text()
    return dict(re.findall(r"```sql\n-- query: (\w+)\n(.*?)```", text, flags=re.S))


@pytest.fixture(scope="module")
def analysed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Any]]:
    """A generated archive of 3, 4 and 5 players with a few revokes, validated with --violations."""
    folder = tmp_path_factory.mktemp("queries")
    records = [generated(n, seed, deals=4) for n in (3, 4, 5) for seed in range(6)]
    for record in records[::5]:
        play_one_illegal_card(record)
    archive = folder / "archive"
    to_archive([str(write_jsonl(folder / "g.jsonl", records))], archive)
    assert runner.invoke(app, ["validate", str(archive), "--violations", "-q"]).exit_code == 1
    reports = [
        validate_record(RawRecord(r, Location(record=i + 1)), Settings()) for i, r in enumerate(records)
    ]
    return archive, reports


def run(archive: Path, name: str) -> list[tuple[Any, ...]]:
    with connect(archive) as connection:
        return connection.execute(documented_queries()[name]).fetchall()


def deals_of(reports: list[Any]) -> list[tuple[Any, Any, Any, Any]]:
    """(record, deal model, replay, summary) for every replayed deal."""
    out = []
    for report in reports:
        ruleset = RULESETS[report.record.game]
        for deal, replay in zip(report.record.deals, report.replays, strict=True):
            if replay is not None and replay.state is not None:
                out.append((report.record, deal, replay, ruleset.summary(replay.state)))
    return out


def test_documented_queries_are_all_tested() -> None:
    assert set(documented_queries()) == {
        "success_rate",
        "score_by_bid",
        "excuse_changes_sides",
        "tricks_by_seat",
        "deals_by_form",
        "points_by_trick",
        "violations_by_code",
        "revokes_with_cards",
    }


def test_query_success_rate(analysed: tuple[Path, list[Any]]) -> None:
    archive, reports = analysed
    groups: dict[tuple[str, int, str], list[bool]] = defaultdict(list)
    for record, _deal, _replay, summary in deals_of(reports):
        if summary.contract is not None and summary.made is not None:
            groups[(record.game, len(record.players), summary.contract)].append(summary.made)
    expected = [(*key, len(v), pytest.approx(sum(v) / len(v))) for key, v in sorted(groups.items())]
    assert run(archive, "success_rate") == expected


def test_query_score_by_bid(analysed: tuple[Path, list[Any]]) -> None:
    archive, reports = analysed
    groups: dict[str, list[float]] = defaultdict(list)
    for _record, deal, _replay, summary in deals_of(reports):
        if summary.declarer is not None and deal.result is not None:
            groups[summary.contract].append(deal.result.scores[summary.declarer])
    expected = [(k, pytest.approx(sum(v) / len(v)), len(v)) for k, v in sorted(groups.items())]
    assert run(archive, "score_by_bid") == expected


def test_query_excuse_changes_sides(analysed: tuple[Path, list[Any]]) -> None:
    archive, reports = analysed
    played = changed = 0
    for _record, _deal, replay, summary in deals_of(reports):
        if summary.declarer is None:
            continue
        for number, trick in enumerate(replay.state.tricks, 1):
            for card, seat in zip(trick.cards, trick.seats, strict=True):
                if card == 77:
                    played += 1
                    last = number == len(replay.state.tricks)
                    changed += last and seat != trick.winner  # tarot.excuse.last-trick, to_other_side
    assert run(archive, "excuse_changes_sides") == [(played, changed)]


def test_query_tricks_by_seat(analysed: tuple[Path, list[Any]]) -> None:
    archive, reports = analysed
    counts: Counter[tuple[int, int]] = Counter()
    for record, deal, replay, _summary in deals_of(reports):
        n = len(record.players)
        for trick in replay.state.tricks:
            counts[(n, (trick.winner - deal.dealer) % n)] += 1
    expected = sorted(
        ((n, seat, won) for (n, seat), won in counts.items()), key=lambda r: (r[0], -r[2], r[1])
    )
    assert run(archive, "tricks_by_seat") == expected


def test_query_points_by_trick(analysed: tuple[Path, list[Any]]) -> None:
    archive, reports = analysed
    groups: dict[tuple[int, int], list[float]] = defaultdict(list)
    for record, _deal, replay, summary in deals_of(reports):
        if summary.declarer is None:
            continue
        ruleset = RULESETS[record.game]
        table, _ = ruleset.table(record.options, len(record.players))
        assert table is not None
        attack = {summary.declarer, summary.partner}
        for number in range(1, len(replay.state.tricks) + 1):
            shares = ruleset.trick_shares(table, replay.state, number)
            assert shares is not None
            ours = sum(float(share) for seat, share in enumerate(shares) if seat in attack)
            groups[(len(record.players), number)].append(ours)
    expected = [(*key, pytest.approx(sum(v) / len(v)), len(v)) for key, v in sorted(groups.items())]
    assert run(archive, "points_by_trick") == expected


def test_query_violations_by_code(analysed: tuple[Path, list[Any]]) -> None:
    archive, reports = analysed
    counts = Counter(d.code for report in reports for d in report.diagnostics)
    assert counts  # the injected revokes are there
    assert run(archive, "violations_by_code") == sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))


def test_query_revokes_with_cards(analysed: tuple[Path, list[Any]]) -> None:
    archive, reports = analysed
    expected = []
    for index, report in enumerate(reports):
        for d in report.diagnostics:
            if d.code == "TAROT-REVOKE" and d.location.trick is not None:  # not "and N more"
                deal = report.record.deals[d.location.deal - 1]
                trick = deal.tricks[d.location.trick - 1]
                expected.append(
                    (
                        index,
                        d.location.deal,
                        d.location.trick,
                        d.location.seat,
                        trick.split()[d.location.position - 1],
                    )
                )
    assert run(archive, "revokes_with_cards") == sorted(expected)


def test_stats_on_archive_and_on_jsonl(analysed: tuple[Path, list[Any]], tmp_path: Path) -> None:
    archive, _reports = analysed
    result = runner.invoke(app, ["stats", str(archive)])
    assert result.exit_code == 0 and "success_rate" in result.output and "french-tarot" in result.output
    source = write_jsonl(tmp_path / "g.jsonl", [generated(4, 2)])
    result = runner.invoke(app, ["stats", str(source)])
    assert (result.exit_code == 0 and "garde" in result.output) or "petite" in result.output


# --- interrupted writes ---------------------------------------------------------------------------


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under a folder (relative name -> bytes)."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_failed_append_leaves_the_archive_intact(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    archive = tmp_path / "archive"
    to_archive([str(write_jsonl(tmp_path / "a.jsonl", [generated(4, s) for s in range(3)]))], archive)
    before = snapshot(archive)
    calls = {"n": 0}
    original = ArchiveWriter.write

    def failing(self: ArchiveWriter, *args: Any) -> None:
        calls["n"] += 1
        if calls["n"] == 2:
            raise RuntimeError("disk full")
        original(self, *args)

    monkeypatch.setattr(ArchiveWriter, "write", failing)
    source = write_jsonl(tmp_path / "b.jsonl", [generated(4, s) for s in range(10, 16)])
    with pytest.raises(RuntimeError):
        to_archive([str(source)], archive, append=True, batch_deals=2)
    assert snapshot(archive) == before
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_killed_conversion_leaves_the_archive_intact(tmp_path: Path) -> None:
    """SIGKILL in the middle of an append: the archive is as before; the next write cleans up."""
    archive = tmp_path / "archive"
    to_archive([str(write_jsonl(tmp_path / "a.jsonl", [generated(4, 1)]))], archive)
    before = snapshot(archive)
    big = write_jsonl(tmp_path / "big.jsonl", [generated(4, s, deals=5) for s in range(200)])
    process = subprocess.Popen(
        [sys.executable, "-m", "recordkit", "convert", str(big), str(archive), "--append"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while not any(p.name.startswith(".archive.staging-") for p in tmp_path.iterdir()):
        assert time.monotonic() < deadline and process.poll() is None, "the conversion never started"
        time.sleep(0.01)
    time.sleep(0.3)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    assert snapshot(archive) == before
    assert back(archive) == canonical_lines([generated(4, 1)])
    to_archive([str(write_jsonl(tmp_path / "c.jsonl", [generated(4, 2)]))], archive, append=True)
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_converting_back_is_atomic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    archive = tmp_path / "archive"
    to_archive([str(write_jsonl(tmp_path / "a.jsonl", [generated(4, s) for s in range(3)]))], archive)
    output = tmp_path / "back.jsonl"
    output.write_bytes(b"old content\n")
    first = next(archive_records(archive))

    def failing(_archive: Path) -> Any:
        yield first
        raise OSError("disk full")

    monkeypatch.setattr("recordkit.convert.archive.archive_entries", failing)
    with pytest.raises(OSError):
        from_archive(archive, output)
    assert output.read_bytes() == b"old content\n"


# --- bad input ------------------------------------------------------------------------------------


@pytest.fixture()
def small_archive(tmp_path: Path) -> Path:
    archive = tmp_path / "archive"
    to_archive([str(write_jsonl(tmp_path / "a.jsonl", [generated(4, s) for s in range(2)]))], archive)
    return archive


def test_truncated_parquet_is_named(small_archive: Path, tmp_path: Path) -> None:
    part = small_archive / "games" / "game=french-tarot" / "part-00000.parquet"
    part.write_bytes(part.read_bytes()[:100])
    result = runner.invoke(app, ["convert", str(small_archive), str(tmp_path / "out.jsonl")])
    assert result.exit_code == 2 and "games/game=french-tarot/part-00000.parquet" in result.output
    assert (tmp_path / "out.jsonl").read_bytes() == b""  # the only records were in that file
    result = runner.invoke(app, ["validate", str(small_archive)])
    assert result.exit_code == 2 and "ARCHIVE-UNREADABLE" in result.output


def test_missing_table_is_named(small_archive: Path, tmp_path: Path) -> None:
    (small_archive / "plays" / "game=french-tarot" / "part-00000.parquet").unlink()
    result = runner.invoke(app, ["stats", str(small_archive)])
    assert result.exit_code == 2 and "plays/game=french-tarot/part-00000.parquet" in result.output


def test_newer_archive_version_is_refused(small_archive: Path, tmp_path: Path) -> None:
    manifest = orjson.loads((small_archive / "_recordkit.json").read_bytes())
    manifest["version"] = 99
    (small_archive / "_recordkit.json").write_bytes(orjson.dumps(manifest))
    result = runner.invoke(app, ["convert", str(small_archive), str(tmp_path / "out.jsonl")])
    assert result.exit_code == 2 and "newer" in result.output


def test_directory_that_is_not_an_archive(tmp_path: Path) -> None:
    (tmp_path / "notes").mkdir()
    result = runner.invoke(app, ["convert", str(tmp_path / "notes"), str(tmp_path / "out.jsonl")])
    assert result.exit_code == 2 and "not a recordkit archive" in result.output
