"""Validation on a Dask cluster (`--scheduler`): the per-record work of `--jobs`, on many machines.

The records are read here, as `--jobs` reads them (record files line by line, archives row group
by row group), and go to the workers unparsed, in chunks, through `findings_of`, the function a
`--jobs` worker runs; the findings come back in input order. At most two chunks per worker
thread are in flight, so memory stays flat however large the input. Every worker needs
recordkit (and the files it is given need only be readable here). Dask is optional
(`pip install 'recordkit[dask]'`) and imported only when a cluster is asked for.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import CancelledError
from contextlib import ExitStack, contextmanager
from functools import partial
from typing import TYPE_CHECKING, TypeVar

from recordkit.diagnostics import Diagnostic
from recordkit.parallel import chunked
from recordkit.validate import RecordReport, Settings, findings_of

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
    (exactly what `validate_inputs` gives)."""
    from recordkit.inputs import input_records  # pyarrow: imported by the command that needs it

    chunks = chunked(input_records(paths, settings, parse=False), CHUNK_RECORDS)
    for found in cluster_map(partial(findings_of, settings), chunks, client):
        yield from found


def cluster_map(
    function: Callable[[list[Item]], Result], chunks: Iterable[list[Item]], client: Client
) -> Iterator[Result]:
    """`function` over each chunk on the cluster, results in the chunks' order, a bounded number
    of chunks in flight (two per worker thread, as in `parallel.ordered_map`)."""
    from distributed import KilledWorker

    window = 2 * max(sum(client.nthreads().values()), 1)  # type: ignore[no-untyped-call]
    pending: deque[Future[Result]] = deque()
    try:
        for chunk in chunks:
            pending.append(client.submit(function, chunk, pure=False))
            if len(pending) >= window:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    except ModuleNotFoundError as error:
        raise ClusterError(
            f"a dask worker cannot run recordkit ({error}): install it on every worker"
        ) from None
    except (OSError, KilledWorker, CancelledError) as error:
        raise ClusterError(f"the dask cluster failed: {' '.join(str(error).split())}") from None
    finally:
        if pending:
            client.cancel(list(pending))  # type: ignore[no-untyped-call]
