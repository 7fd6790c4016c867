"""`--jobs`: several processes give exactly what one process gives, in the same order."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import orjson
import pyarrow.parquet as pq
from typer.testing import CliRunner

from recordkit.archive import archive_records
from recordkit.cli import app
from recordkit.convert.archive import to_archive
from recordkit.diagnostics import Diagnostic
from recordkit.inputs import validate_inputs
from recordkit.parallel import chunked, ordered_map
from recordkit.validate import RecordReport, Settings, validate_paths
from tests.helpers import generated
from tests.test_tarot_properties import play_one_illegal_card

ROOT = Path(__file__).parent.parent
runner = CliRunner()


def findings(items: list[RecordReport | Diagnostic]) -> list[tuple[Any, ...]]:
    """Everything a report says, in order: where, how many deals, and each diagnostic."""
    out: list[tuple[Any, ...]] = []
    for item in items:
        if isinstance(item, Diagnostic):
            out.append(("file", item.as_dict()))
        else:
            out.append((item.location, item.deals, [d.as_dict() for d in item.diagnostics]))
    return out


def corrupted_records() -> list[dict[str, Any]]:
    """Generated games of 3, 4 and 5 players, every third one with an illegal card swapped in."""
    records = [generated(players, seed, deals=3) for players in (3, 4, 5) for seed in range(12)]
    for record in records[::3]:
        play_one_illegal_card(record)
    return records


def test_chunks_come_back_in_order() -> None:
    assert list(chunked(range(7), 3)) == [[0, 1, 2], [3, 4, 5], [6]]
    sums = [sum(chunk) for chunk in chunked(range(100), 7)]
    assert list(ordered_map(sum, chunked(range(100), 7), jobs=2)) == sums


def test_two_jobs_report_exactly_what_one_job_reports(tmp_path: Path) -> None:
    """Same diagnostics, same places, same order, on generated games with violations and on the
    invalid samples (broken JSON, truncated files, unknown games) alike."""
    source = tmp_path / "games.jsonl"
    source.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in corrupted_records()))
    paths = [str(source), str(ROOT / "samples" / "invalid"), str(ROOT / "samples" / "french-tarot")]
    alone = findings(list(validate_paths(paths, Settings())))
    together = findings(list(validate_paths(paths, Settings(), jobs=2)))
    assert together == alone
    assert any(diagnostics for _where, _deals, diagnostics in alone[:30])


def test_an_archive_validated_with_two_jobs_reports_the_same(tmp_path: Path) -> None:
    source = tmp_path / "games.jsonl"
    source.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in corrupted_records()))
    to_archive([str(source)], tmp_path / "archive")
    alone = findings(list(validate_inputs([str(tmp_path / "archive")], Settings())))
    together = findings(list(validate_inputs([str(tmp_path / "archive")], Settings(), jobs=2)))
    assert together == alone and len(alone) == 36
    assert sum(1 for _where, _deals, found in alone if found) >= 12


def test_validate_cli_with_jobs_gives_the_same_output(tmp_path: Path) -> None:
    source = tmp_path / "games.jsonl"
    source.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in corrupted_records()))
    one = runner.invoke(app, ["validate", str(source), "--format", "jsonl"])
    two = runner.invoke(app, ["validate", str(source), "--format", "jsonl", "--jobs", "2"])
    assert one.exit_code == two.exit_code == 1
    assert one.stdout == two.stdout and one.stdout.count("\n") >= 12


def test_forked_workers_give_the_same_output(tmp_path: Path) -> None:
    """The command line forks its workers (it has not loaded pyarrow, as this test process has):
    the output of two forked workers is one process's."""
    source = tmp_path / "games.jsonl"
    source.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in corrupted_records()))
    command = [sys.executable, "-m", "recordkit", "validate", str(source), "--format", "jsonl"]
    one = subprocess.run(command, capture_output=True, cwd=ROOT, check=False)
    two = subprocess.run([*command, "--jobs", "2"], capture_output=True, cwd=ROOT, check=False)
    assert one.returncode == two.returncode == 1
    assert one.stdout == two.stdout and one.stdout.count(b"\n") >= 12


def test_an_archive_converted_with_two_jobs_is_the_same(tmp_path: Path) -> None:
    """Game ids, rows and round trip are independent of the number of processes."""
    source = tmp_path / "games.jsonl"
    source.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in corrupted_records()))
    to_archive([str(source)], tmp_path / "one", batch_deals=20)
    report = to_archive([str(source)], tmp_path / "two", batch_deals=20, jobs=2)
    assert report.records == 36 and not report.skipped
    for table in ("games", "deals", "calls", "plays", "scores"):
        one = pq.read_table(tmp_path / "one" / table / "game=french-tarot" / "part-00000.parquet")
        two = pq.read_table(tmp_path / "two" / table / "game=french-tarot" / "part-00000.parquet")
        assert one.equals(two), table
    assert list(archive_records(tmp_path / "two")) == list(archive_records(tmp_path / "one"))


def descendants(pid: int) -> set[int]:
    """Every living process below `pid` (read from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry.name))
    found: set[int] = set()
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def test_workers_end_when_the_parent_is_killed(tmp_path: Path) -> None:
    """A validation killed with SIGKILL leaves no worker process running on (or waiting) forever."""
    source = tmp_path / "games.jsonl"
    records = corrupted_records()
    source.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in records * 40))
    command = [sys.executable, "-m", "recordkit", "validate", str(source), "-q", "--jobs", "2"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while len(descendants(process.pid)) < 2 and time.monotonic() < deadline:  # 2 workers, forked
        time.sleep(0.1)
    workers = descendants(process.pid)
    assert len(workers) >= 2, "the workers did not start"
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(alive(pid) for pid in workers)
