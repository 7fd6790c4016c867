"""Progress of long commands on standard error: a rich bar with the total, the rate and the time
left, shown only on a terminal (never when standard error is piped, nor with --quiet).

Rich takes standard error for a terminal when `FORCE_COLOR` (or `TTY_COMPATIBLE=1`) is set, which
shows the bar in a pipe too. The totals are records: counted up front (JSON lines files line by
line, JSON files parsed, archives from their manifest), which costs about one per cent of the
work, and only when the bar is shown.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import orjson

from recordkit.sources import JSONL_SUFFIXES, RECORD_SUFFIXES

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import ProgressColumn

Tally = Callable[[int, int], None]
"""Told (records, deals) done so far."""

REFRESH_SECONDS = 0.1
"""The bar is updated at most this often: a tally per record stays cheap at 20,000 records a second."""
MANIFEST = "_recordkit.json"
"""The file that makes a directory an archive (recordkit.archive.store)."""


def _rate_column() -> ProgressColumn:
    """A column of records a second (`1,234/s`), once rich has measured a rate; rich's progress
    module is imported only when a bar is shown (a piped run does not pay for it)."""
    from rich.progress import ProgressColumn, Task
    from rich.text import Text

    class RateColumn(ProgressColumn):
        """Records a second, or nothing before the rate is known."""

        def render(self, task: Task) -> Text:
            """The rate, or nothing before it is known."""
            speed = task.finished_speed or task.speed
            return Text("" if speed is None else f"{speed:,.0f}/s", style="progress.data.speed")

    return RateColumn()


def _nothing(records: int, deals: int) -> None:
    """The tally when no bar is shown."""


@contextmanager
def progress_bar(
    console: Console, what: str, total: int | None, shown: bool = True, deals: bool = True
) -> Iterator[Tally]:
    """A tally that moves a transient bar `what` towards `total` records on `console` (with the
    deals done, if `deals`), or does nothing when the console is not a terminal or `shown` is False."""
    if not shown or not console.is_terminal:
        yield _nothing
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    columns = (
        TextColumn("{task.description}"),
        BarColumn(bar_width=20),
        MofNCompleteColumn(),
        TextColumn("records · {task.fields[deals]:,} deals ·" if deals else "records ·"),
        _rate_column(),
        TextColumn("·"),
        TimeRemainingColumn(),
        TextColumn("left"),
    )
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task(what, total=total, deals=0)
        shown_at = 0.0

        def tally(records: int, deals: int) -> None:
            nonlocal shown_at
            now = time.monotonic()
            if now - shown_at >= REFRESH_SECONDS or records == total:
                shown_at = now
                bar.update(task, completed=records, deals=deals)

        yield tally


def shows_progress(console: Console, quiet: bool = False) -> bool:
    """Whether a bar would be shown (so that totals are counted only then)."""
    return console.is_terminal and not quiet


def count_records(paths: Iterable[str]) -> int:
    """How many records the paths hold: JSON lines files' non-blank lines, JSON files' records,
    archives' games (from the manifest); a directory's files and archives below it."""
    return sum(_count(Path(name)) for name in paths)


def _count(path: Path) -> int:
    """The records of one path; what cannot be read counts as one (it is reported as one)."""
    if (path / MANIFEST).is_file():
        return _archive_games(path)
    if path.is_dir():
        total = 0
        for folder, names, files in os.walk(path):
            archives = [name for name in names if (Path(folder) / name / MANIFEST).is_file()]
            total += sum(_archive_games(Path(folder) / name) for name in archives)
            names[:] = sorted(set(names) - set(archives))
            total += sum(_count_file(Path(folder) / f) for f in files if f != MANIFEST and _is_record(f))
        return total
    return _count_file(path)


def _is_record(name: str) -> bool:
    return Path(name).suffix.lower() in RECORD_SUFFIXES


def _archive_games(path: Path) -> int:
    """An archive's games, from its manifest."""
    try:
        games = orjson.loads((path / MANIFEST).read_bytes()).get("games", 0)
    except (OSError, orjson.JSONDecodeError, AttributeError):
        return 0
    return games if isinstance(games, int) else 0


def _count_file(path: Path) -> int:
    """A record file's records: lines of JSON lines, the items of a JSON list, else one."""
    try:
        if path.suffix.lower() in JSONL_SUFFIXES:
            with path.open("rb") as handle:
                return sum(1 for line in handle if line.strip())
        data = orjson.loads(path.read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return 1
    return len(data) if isinstance(data, list) else 1
