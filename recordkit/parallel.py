"""Per-record work on a pool of processes (`--jobs`), results in input order, memory bounded.

Records go to the workers in chunks; at most two chunks per worker are in flight, so a file of
millions of records never queues up in memory. Workers are forked from this process when that is
safe (no pyarrow loaded: validating record files), so that they start at once with every module
imported; otherwise they come from a fork server, and while it starts this process works the
first chunks itself. With one job everything runs in this process, through the same functions.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from itertools import islice
from multiprocessing.context import BaseContext
from multiprocessing.process import BaseProcess
from typing import TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")

CHUNK_RECORDS = 32
"""Records sent to a worker at a time: enough to amortise the hand-over, small enough to stream."""


def chunked(items: Iterable[Item], size: int = CHUNK_RECORDS) -> Iterator[list[Item]]:
    """The items in lists of `size` (the last one shorter)."""
    iterator = iter(items)
    while chunk := list(islice(iterator, size)):
        yield chunk


def ordered_map(
    function: Callable[[list[Item]], Result], chunks: Iterable[list[Item]], jobs: int = 1
) -> Iterator[Result]:
    """`function` over each chunk, results in the chunks' order, on `jobs` processes.

    `function` must be picklable (a module-level function or a partial of one), and a program that
    calls this with `jobs` > 1 guards its main module (`if __name__ == "__main__":`). Workers are
    forked while this process has one thread and no pyarrow; otherwise they start with forkserver
    (pyarrow's threads, which fork does not copy), whose server imports `function`'s module once,
    so that each worker starts warm.
    """
    if jobs <= 1:
        yield from map(function, chunks)
        return
    forked = _fork_is_safe()
    context: BaseContext = multiprocessing.get_context("fork" if forked else "forkserver")
    if not forked:
        multiprocessing.get_context("forkserver").set_forkserver_preload([_module_of(function)])
    pool = ProcessPoolExecutor(jobs, mp_context=context, initializer=_start_worker)
    pending: deque[Future[Result]] = deque()
    chunks = iter(chunks)
    try:
        if not forked:
            yield from _while_starting(pool, jobs, function, chunks)
        for chunk in chunks:
            pending.append(pool.submit(function, chunk))
            if len(pending) >= 2 * jobs:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _fork_is_safe() -> bool:
    """Whether workers may be forked from this process: only while it runs one thread and has not
    loaded pyarrow (whose native thread pools fork does not copy). A forked worker starts in
    milliseconds with every module already imported; a forkserver's costs most of a second."""
    return threading.active_count() == 1 and "pyarrow" not in sys.modules


def _while_starting(
    pool: ProcessPoolExecutor,
    jobs: int,
    function: Callable[[list[Item]], Result],
    chunks: Iterator[list[Item]],
) -> Iterator[Result]:
    """The first chunks, worked here while the workers start (most of a second: the fork server
    imports the rules before the first worker exists, and `submit` waits for it), so that this
    process's core is not idle meanwhile. A thread starts them; this one works."""
    ready: list[Future[None]] = []
    starter = threading.Thread(target=_start, args=(pool, jobs, ready), daemon=True)
    starter.start()
    while starter.is_alive() or not all(future.done() for future in ready):
        chunk = next(chunks, None)
        if chunk is None:
            break
        yield function(chunk)
    starter.join()


def _start(pool: ProcessPoolExecutor, jobs: int, ready: list[Future[None]]) -> None:
    """Start the workers, each with a task that does nothing, into `ready`."""
    try:
        ready.extend(pool.submit(_ready) for _ in range(jobs))
    except RuntimeError:  # the pool was shut down first: the caller stopped early
        return


def _ready() -> None:
    """A task that does nothing: done once a worker is up."""


def _start_worker() -> None:
    """Workers ignore Ctrl-C (the parent stops the pool and says so, instead of each worker
    printing a traceback), and end when the parent ends, however it ends (killed, crashed)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_end_with, args=(parent,), daemon=True).start()


def _end_with(parent: BaseProcess) -> None:
    parent.join()
    os._exit(1)


def _module_of(function: Callable[..., object]) -> str:
    """The module that defines a function (or the function a partial wraps)."""
    inner = getattr(function, "func", function)
    return str(inner.__module__)
