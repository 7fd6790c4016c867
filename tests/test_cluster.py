"""`--scheduler`: a Dask cluster finds exactly what one process finds, in the same order."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import orjson
import pyarrow.parquet as pq
import pytest
from distributed import Client
from typer.testing import CliRunner

import recordkit.cluster
from recordkit.archive import to_archive
from recordkit.cli import app
from recordkit.cluster import cluster_map, connect, validate_on_cluster
from recordkit.inputs import validate_inputs
from recordkit.parallel import chunked
from recordkit.validate import Settings
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
