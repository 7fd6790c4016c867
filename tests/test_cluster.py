"""`--scheduler`: a Dask cluster finds exactly what one process finds, in the same order."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from distributed import Client
from typer.testing import CliRunner

import recordkit.cluster
import recordkit.convert.distributed
from recordkit.archive import archive_records, read_manifest
from recordkit.archive.manifest import part_file
from recordkit.archive.tables import TABLES
from recordkit.cli import app
from recordkit.cluster import cluster_map, connect, validate_on_cluster
from recordkit.columnar import archive_items
from recordkit.convert.archive import to_archive
from recordkit.convert.distributed import to_archive_on_cluster
from recordkit.inputs import validate_inputs
from recordkit.parallel import chunked
from recordkit.validate import RecordReport, Settings
from tests.test_parallel import corrupted_records, findings

ROOT = Path(__file__).parent.parent
SAMPLES = [str(ROOT / "samples")]
runner = CliRunner()


@pytest.fixture(scope="module")
def client() -> Iterator[Client]:
    """A local cluster of two worker processes, started once for the module."""
    with connect("local", workers=2) as client:
        yield client


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Generated games, every third one with an illegal card, as JSON lines."""
    path = tmp_path_factory.mktemp("cluster") / "games.jsonl"
    path.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in corrupted_records()))
    return path


@pytest.fixture(scope="module")
def archive(records: Path) -> Path:
    """The same games as an archive of many row groups."""
    target = records.parent / "archive"
    to_archive([str(records)], target, batch_deals=20)
    return target


def test_chunks_come_back_in_order(client: Client) -> None:
    sums = [sum(chunk) for chunk in chunked(range(100), 7)]
    assert list(cluster_map(sum, chunked(range(100), 7), client)) == sums


def test_only_a_few_chunks_are_in_flight(client: Client) -> None:
    """Memory stays flat: chunks are read only as results come back (two per worker thread)."""
    pulled = 0

    def chunks() -> Iterator[list[int]]:
        nonlocal pulled
        for chunk in chunked(range(1000), 10):
            pulled += 1
            yield chunk

    results = cluster_map(sum, chunks(), client)
    assert next(results) == sum(range(10)) and pulled <= 4
    assert len(list(results)) == 99 and pulled == 100


@pytest.mark.parametrize("settings", [Settings(), Settings(strict=False)], ids=["strict", "lenient"])
def test_the_cluster_reports_exactly_what_one_process_reports(
    client: Client, records: Path, settings: Settings
) -> None:
    """Same diagnostics, same places, same order: all the samples, valid and invalid (broken
    JSON, truncated files, unknown games), and generated games with violations."""
    paths = [*SAMPLES, str(records)]
    alone = findings(list(validate_inputs(paths, settings)))
    together = findings(list(validate_on_cluster(paths, settings, client)))
    assert together == alone
    assert sum(1 for found in alone if found[-1]) >= 40


def test_an_archive_on_the_cluster_reports_the_same(client: Client, archive: Path) -> None:
    alone = findings(list(validate_inputs([str(archive)], Settings())))
    together = findings(list(validate_on_cluster([str(archive)], Settings(), client)))
    assert together == alone and len(alone) == 36
    assert sum(1 for _where, _deals, found in alone if found) >= 6


def test_validate_cli_on_a_scheduler_gives_the_same_output(client: Client, records: Path) -> None:
    address = client.scheduler.address
    for paths in ([str(records)], SAMPLES):
        one = runner.invoke(app, ["validate", *paths, "--format", "jsonl"])
        there = runner.invoke(app, ["validate", *paths, "--format", "jsonl", "--scheduler", address])
        assert one.exit_code == there.exit_code != 0
        assert one.stdout == there.stdout and one.stdout.count("\n") >= 12


def test_validate_cli_on_a_local_cluster_gives_the_same_output() -> None:
    one = runner.invoke(app, ["validate", *SAMPLES])
    local = runner.invoke(app, ["validate", *SAMPLES, "--scheduler", "local", "--jobs", "2"])
    assert one.exit_code == local.exit_code == 2
    assert (one.stdout, one.stderr) == (local.stdout, local.stderr)


def test_violations_written_on_the_cluster_are_the_same(
    client: Client, archive: Path, tmp_path: Path
) -> None:
    assert runner.invoke(app, ["validate", str(archive), "-q", "--violations"]).exit_code == 1
    alone = pq.read_table(archive / "violations")
    command = ["validate", str(archive), "-q", "--violations", "--scheduler", client.scheduler.address]
    assert runner.invoke(app, command).exit_code == 1
    assert pq.read_table(archive / "violations").equals(alone) and alone.num_rows >= 12


def test_an_unreachable_scheduler_is_one_line_and_exit_2(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(recordkit.cluster, "CONNECT_SECONDS", 0.5)
    for address in ("tcp://127.0.0.1:1", "nowhere"):
        result = runner.invoke(app, ["validate", *SAMPLES, "--scheduler", address])
        assert result.exit_code == 2 and result.stdout == ""
        assert result.stderr.startswith(f"cannot reach the dask scheduler at {address}")
        assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


def test_without_dask_it_says_so_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)
    result = runner.invoke(app, ["validate", *SAMPLES, "--scheduler", "local"])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == "--scheduler needs dask: pip install 'recordkit[dask]'\n"


PART_BYTES = 20_000
"""Parts of a few records each, so that a small input makes many parts."""


def table_rows(archive: Path, table: str) -> pa.Table:
    """A table's rows over every part and game, in game_id order (each game's rows as written)."""
    manifest = read_manifest(archive)
    files = [
        part_file(archive, table, part, game) for part in manifest.parts for game in manifest.units(part)
    ]
    return pa.concat_tables(pq.read_table(path) for path in files).sort_by("game_id")


def same_archive(built: Path, alone: Path) -> None:
    """An archive built on the cluster holds what one process writes: the same records back, the
    same rows and game ids in every table, the same counts, the same verdicts, and parts the
    columnar checks trust (their checksums are right)."""
    assert list(archive_records(built)) == list(archive_records(alone))
    for table in TABLES:
        assert table_rows(built, table).equals(table_rows(alone, table)), table
    ours, theirs = read_manifest(built), read_manifest(alone)
    assert (ours.games, ours.deals) == (theirs.games, theirs.deals)
    verdicts = [findings(list(validate_inputs([str(path)], Settings()))) for path in (built, alone)]
    assert orjson.dumps(verdicts[0]).replace(str(built).encode(), b"ARCHIVE") == orjson.dumps(
        verdicts[1]
    ).replace(str(alone).encode(), b"ARCHIVE")
    assert proven(built) > 0


def proven(archive: Path) -> int:
    """The deals of an archive its columnar checks prove clean."""
    items = archive_items(archive, Settings(), parse=False)
    return sum(item.deals for item in items if isinstance(item, RecordReport) and not item.diagnostics)


def said(report: Any) -> tuple[int, int, list[dict[str, Any]]]:
    return report.records, report.deals, [d.as_dict() for d in report.skipped]


def test_an_archive_built_on_the_cluster_is_the_one_one_process_writes(
    client: Client, records: Path, tmp_path: Path
) -> None:
    """Every sample (valid and invalid: the same records skipped, in the same order) and generated
    games with violations, in many parts of a few records each."""
    paths = [*SAMPLES, str(records)]
    alone = to_archive(paths, tmp_path / "alone", valid_only=True)
    built = to_archive_on_cluster(paths, tmp_path / "built", client, valid_only=True, part_bytes=PART_BYTES)
    assert said(built) == said(alone) and len(alone.skipped) >= 20
    assert len(read_manifest(tmp_path / "built").parts) >= 10
    same_archive(tmp_path / "built", tmp_path / "alone")
    assert not [p for p in (tmp_path / "built").rglob("*") if p.name.startswith(".")]


def test_an_append_on_the_cluster_is_one_process_s_append(
    client: Client, records: Path, tmp_path: Path
) -> None:
    to_archive([str(records)], tmp_path / "alone")
    to_archive([str(records)], tmp_path / "alone", append=True)
    to_archive([str(records)], tmp_path / "built")
    to_archive_on_cluster([str(records)], tmp_path / "built", client, append=True, part_bytes=PART_BYTES)
    same_archive(tmp_path / "built", tmp_path / "alone")


def die_at_first_write(marker: str) -> None:
    """Run on each worker: its next part written kills the worker, the first time on the cluster
    (afterwards, or on a worker started since, parts are written as usual)."""
    write = recordkit.convert.distributed._write_part

    def dying(*args: Any) -> Any:
        if not os.path.exists(marker):
            Path(marker).touch()
            os._exit(1)
        return write(*args)

    recordkit.convert.distributed._write_part = dying  # type: ignore[assignment]


def test_a_lost_worker_s_part_is_redone(client: Client, records: Path, tmp_path: Path) -> None:
    """A worker killed while it writes a part: Dask redoes what it held on another, and the
    archive is the one one process writes."""
    marker = tmp_path / "killed"
    client.run(die_at_first_write, str(marker))
    to_archive_on_cluster([str(records)], tmp_path / "built", client, part_bytes=PART_BYTES)
    assert marker.exists()
    to_archive([str(records)], tmp_path / "alone")
    same_archive(tmp_path / "built", tmp_path / "alone")


def test_convert_cli_on_a_scheduler_says_the_same(client: Client, records: Path, tmp_path: Path) -> None:
    one = runner.invoke(app, ["convert", *SAMPLES, str(records), str(tmp_path / "one")])
    command = [
        "convert",
        *SAMPLES,
        str(records),
        str(tmp_path / "two"),
        "--scheduler",
        client.scheduler.address,
    ]
    there = runner.invoke(app, command)
    assert one.exit_code == there.exit_code == 0
    assert one.stderr.replace(str(tmp_path / "one"), "OUT") == there.stderr.replace(
        str(tmp_path / "two"), "OUT"
    )
    assert "skipped" in one.stderr
    assert list(archive_records(tmp_path / "one")) == list(archive_records(tmp_path / "two"))
    assert runner.invoke(app, command).exit_code == 2  # the archive exists: refused, as one process refuses


def test_validate_spreads_a_damaged_archive_of_many_parts_and_reports_the_same(
    client: Client, records: Path, tmp_path: Path
) -> None:
    """An archive of many parts, one part's plays overwritten by another's (its checksum then
    fails: the record path) and another's deals file cut short: the same findings as one process."""
    archive = tmp_path / "built"
    to_archive_on_cluster([str(records)], archive, client, part_bytes=PART_BYTES)
    parts = read_manifest(archive).parts
    plays = [part_file(archive, "plays", part, "french-tarot") for part in parts[:2]]
    shutil.copy(plays[1], plays[0])
    deals = part_file(archive, "deals", parts[2], "french-tarot")
    deals.write_bytes(deals.read_bytes()[:100])
    alone = findings(list(validate_inputs([str(archive)], Settings())))
    together = findings(list(validate_on_cluster([str(archive)], Settings(), client)))
    assert together == alone
    assert sum(1 for item in alone if item[0] == "file") >= 1 and sum(1 for item in alone if item[-1]) >= 6
