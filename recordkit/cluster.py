"""Validation on a Dask cluster (`--scheduler`): the per-record work of `--jobs`, on many machines.

Record files are read here, line by line, and their records go to the workers unparsed, in
chunks, through `findings_of`, the function a `--jobs` worker runs. An archive is spread by its
units (a part's files of one game): each worker reads and checks a unit (column by column where
it can, `recordkit.columnar`), and the units are merged here as one process merges them. The
findings come back in input order; at most two tasks per worker thread are in flight, so memory
stays flat however large the input. Every worker needs recordkit, and an archive's folder on a
file system it shares (a record file need only be readable here). Building an archive on the
cluster is `convert.distributed`. Dask is optional (`pip install 'recordkit[dask]'`) and
imported only when a cluster is asked for.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import CancelledError
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from recordkit.diagnostics import Diagnostic, Location, Severity
from recordkit.parallel import chunked
from recordkit.validate import Item as Record
from recordkit.validate import RecordReport, Settings, findings, findings_of

if TYPE_CHECKING:
    from distributed import Client, Future

Item = TypeVar("Item")
Result = TypeVar("Result")

LOCAL = "local"
"""The `--scheduler` that starts a cluster of worker processes on this machine."""
CHUNK_RECORDS = 128
"""Records in one task: a Dask task costs about a millisecond to schedule, so chunks are larger
than `--jobs`'s, and still small enough to stream."""
CONNECT_SECONDS = 10.0
"""How long to try to reach a scheduler before saying it cannot be reached."""
DASK_CONFIG = {"distributed.admin.low-level-log-length": 0}
"""Dask's developer logs keep the last 1,000 messages of each connection whole, chunks of records
included (up to a megabyte each): off here, or memory grows by up to a gigabyte a connection."""


class ClusterError(Exception):
    """The cluster cannot be used (dask missing, scheduler unreachable, workers lost): one line to show."""


@contextmanager
def connect(scheduler: str, workers: int = 1) -> Iterator[Client]:
    """A client of the scheduler at `scheduler` (tcp://host:8786), or of a local cluster of
    `workers` processes when it is "local"; closed (the local cluster stopped) on leaving."""
    try:
        import dask.config
        from distributed import Client, LocalCluster
    except ImportError:
        raise ClusterError("--scheduler needs dask: pip install 'recordkit[dask]'") from None
    with dask.config.set(DASK_CONFIG), ExitStack() as stack:
        if scheduler == LOCAL:
            cluster = LocalCluster(  # type: ignore[no-untyped-call]
                n_workers=max(workers, 1),
                threads_per_worker=1,
                processes=True,
                dashboard_address=":0",  # any free port: never a clash with another cluster
                silence_logs=logging.ERROR,
            )
            stack.enter_context(cluster)
            client = Client(cluster)  # type: ignore[no-untyped-call]
        else:
            try:
                client = Client(scheduler, timeout=CONNECT_SECONDS)  # type: ignore[no-untyped-call]
            except (OSError, ValueError) as error:
                raise ClusterError(f"cannot reach the dask scheduler at {scheduler}: {error}") from None
        with client:
            yield client


def validate_on_cluster(
    paths: Iterable[str], settings: Settings, client: Client
) -> Iterator[RecordReport | Diagnostic]:
    """What validating every record of `paths` finds, worked out on the cluster, in input order
    (exactly what `validate_inputs` gives): record files in chunks of records, archives a part's
    files of a game (a unit) to a task."""
    from recordkit.sources import record_files

    files: list[Path | Diagnostic] = []  # record files in a row go as one stream of chunks
    for path in record_files(paths):
        if isinstance(path, Path) and path.is_dir():
            yield from _records_on_cluster(files, settings, client)
            files = []
            yield from _archive_on_cluster(path, settings, client)
        else:
            files.append(path)
    yield from _records_on_cluster(files, settings, client)


def _records_on_cluster(
    files: list[Path | Diagnostic], settings: Settings, client: Client
) -> Iterator[RecordReport | Diagnostic]:
    """The findings of record files' records, read here and checked on the workers."""
    from recordkit.reading import read_records

    def items() -> Iterator[Record]:
        for path in files:
            if isinstance(path, Diagnostic):
                yield path
            else:
                yield from read_records(path, parse=False)

    for found in cluster_map(partial(findings_of, settings), chunked(items(), CHUNK_RECORDS), client):
        yield from found


@dataclass
class _Found:
    """What validating an archive's record found, kept apart from a damage diagnostic in the
    merge of a part's units (only records are checked for a game_id read twice)."""

    found: RecordReport | Diagnostic


def _archive_on_cluster(
    archive: Path, settings: Settings, client: Client
) -> Iterator[RecordReport | Diagnostic]:
    """The findings of an archive's records, each unit checked on a worker (column by column
    where its files are recordkit's own) and the units merged here in game_id order, as
    `archive_items` merges them; at most two units per worker thread in flight."""
    from recordkit.archive.manifest import ArchiveError, read_manifest
    from recordkit.archive.read import count_problems, in_order

    try:
        manifest = read_manifest(archive)
        yield from count_problems(archive, manifest)
        units = [(part, game) for part in manifest.parts for game in manifest.units(part)]
        window = 2 * max(sum(client.nthreads().values()), 1)  # type: ignore[no-untyped-call]
        pending: dict[tuple[str, str | None], Future[list[Checked]]] = {}
        submitted = 0
        check = partial(_unit_findings, archive, settings)

        def unit(part: str, game: str | None) -> Iterator[tuple[int | None, Any]]:
            """One unit's findings, its task and those of the next units submitted first (a
            unit's findings are dropped from the cluster once they are here)."""
            nonlocal submitted
            for ahead in units[submitted : units.index((part, game)) + window]:
                pending[ahead] = client.submit(check, *ahead, pure=False)
                submitted += 1
            for game_id, damaged, found in pending.pop((part, game)).result():
                yield game_id, found if damaged else _Found(found)

        with cluster_errors(client, lambda: list(pending.values())):
            for item in in_order(archive, manifest, unit):
                yield item.found if isinstance(item, _Found) else item
    except ArchiveError as error:
        yield Diagnostic("ARCHIVE-UNREADABLE", Severity.ERROR, str(error), Location(file=str(archive)))


Checked = tuple[int | None, bool, RecordReport | Diagnostic]
"""A unit's record (or damage) found: its game_id, whether it was a damage diagnostic, the finding."""


def _unit_findings(archive: Path, settings: Settings, part: str, game: str | None) -> list[Checked]:
    """What validating one unit of an archive finds, in its order (a worker's job)."""
    from recordkit.archive.manifest import read_manifest
    from recordkit.columnar import _unit_items

    manifest = read_manifest(archive)
    return [
        (game_id, isinstance(item, Diagnostic), findings(item, settings))
        for game_id, item in _unit_items(archive, manifest, part, game, settings, parse=True)
    ]


def cluster_map(
    function: Callable[[list[Item]], Result], chunks: Iterable[list[Item]], client: Client
) -> Iterator[Result]:
    """`function` over each chunk on the cluster, results in the chunks' order, a bounded number
    of chunks in flight (two per worker thread, as in `parallel.ordered_map`)."""
    window = 2 * max(sum(client.nthreads().values()), 1)  # type: ignore[no-untyped-call]
    pending: deque[Future[Result]] = deque()
    with cluster_errors(client, lambda: list(pending)):
        for chunk in chunks:
            pending.append(client.submit(function, chunk, pure=False))
            if len(pending) >= window:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()


@contextmanager
def cluster_errors(client: Client, held: Callable[[], Sequence[Future[Any]]]) -> Iterator[None]:
    """The cluster's failures as one-line ClusterErrors; the futures still `held` cancelled on
    leaving (an error, or a caller that stopped early)."""
    from distributed import KilledWorker

    try:
        yield
    except ModuleNotFoundError as error:
        raise ClusterError(
            f"a dask worker cannot run recordkit ({error}): install it on every worker"
        ) from None
    except (OSError, KilledWorker, CancelledError) as error:
        raise ClusterError(f"the dask cluster failed: {' '.join(str(error).split())}") from None
    finally:
        pending = held()
        if pending:
            client.cancel(list(pending))  # type: ignore[no-untyped-call]
