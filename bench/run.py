"""Every speed figure of issues 19 and 29 in one run, side by side with its target and its reference.

Usage: python bench/run.py [--deals 20000] [--unique 4000] [--per-game 600] [--per-game-deals 4000]
                           [--convert-deals 4000] [--seed 1] [--repeat 3] [--convert-only]

Generates 4-player French Tarot games with a fixed seed (`--unique` distinct deals repeated up
to `--deals`: generating is the slow part, and repeating does not change what checking costs),
then times, each in a fresh child process so that its peak memory is its own:
orjson.loads and pydantic's validate_json of the file (references), `python -m recordkit validate
FILE` from the command line (start-up included), `validate` with 1 and 2 processes (clean records
take the fast path) and with the full replay of every record, the same records without their hands
and dog (tricks only: the hands derived from the play), JSONL -> Parquet with 1 and 2 processes,
Parquet -> JSONL, `validate` of the archive; `--jobs 2`'s speedup beside the machine's ceiling
(two pure-Python loops on one and on two processes, interleaved with the runs it is compared to);
every game's validation cost per card (fast path, full replay, tricks only) against Tarot's, and
its JSONL -> Parquet and archive validation rates (`--convert-deals` deals, its records repeated);
and python-chess reading up to 100,000 moves of PGN (`pip install -e '.[bench]'`). Each figure is
the fastest of `--repeat` runs. `--convert-only` times the big-archive steps alone, with their
peak memory (`--deals 1000000 --repeat 1` for the issue's million deals). A step that fails (the
code under it changing) prints why on its row; the others still run. Tests never assert timings.
"""

from __future__ import annotations

import argparse
import compileall
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # time the recordkit of this checkout, not an installed one
    sys.path.insert(0, str(ROOT))

DEALS_PER_RECORD = 10
CHESS_MOVES = 100_000
"""Moves of PGN for the python-chess comparison (at most; per move figures do not need more)."""
SPIN_ROUNDS = 10_000_000
"""Rounds of the pure-Python loop that measures the machine's ceiling for two processes."""
TARGETS = {  # issues 19 and 29, one core unless said, generated deals
    "cli_validate": 18_000,  # deals/s, 4-player Tarot, `python -m recordkit validate`, start-up included
    "max_cli_to_orjson": 25.0,  # the same command at most 25x orjson.loads of the same file
    "max_card_cost_to_tarot": 2.0,  # every game's validation cost per card within 2x of Tarot's
    "convert": 20_000,  # deals/s, JSONL -> archive, every game
    "validate_archive": 50_000,  # deals/s, every game
    "jobs_fraction": 0.85,  # --jobs 2's speedup as a fraction of the machine's ceiling
    "peak_mb": 300,  # at a million deals
    "max_tricks_only_ratio": 1.5,  # issue 29: the tricks-only form through the columns, at most 1.5x the full
}
ARCHIVE_STEPS = {"to_archive", "from_archive", "columnar"}
"""The steps that load pyarrow whatever their input."""


# --- the measured steps, each run in a child process ----------------------------------------------


def step(name: str, source: str, target: str, jobs: int) -> dict[str, Any]:
    """Run one step and return its figures (seconds, peak RSS in MB, units done).

    The modules are imported before the clock starts: a long run does not pay for them again.
    pyarrow only for the steps that read or write archives, as the command line does (`--jobs`
    forks its workers only from a process without pyarrow's threads)."""
    import recordkit.inputs

    if name in ARCHIVE_STEPS or Path(source).is_dir():
        import recordkit.convert.archive  # noqa: F401

    started = time.perf_counter()
    done = STEPS[name](Path(source), Path(target), jobs)
    seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return {"seconds": seconds, "peak_mb": max(peak, children), "done": done}


def _orjson(source: Path, _target: Path, _jobs: int) -> int:
    with source.open("rb") as lines:
        return sum(len(orjson.loads(line)["deals"]) for line in lines)


def _pydantic(source: Path, _target: Path, _jobs: int) -> int:
    from recordkit.games import RULESETS

    model = RULESETS["french-tarot"].Record
    with source.open("rb") as lines:
        return sum(len(model.model_validate_json(line).deals) for line in lines)


def _validate(source: Path, _target: Path, jobs: int) -> int:
    from recordkit.inputs import validate_inputs
    from recordkit.validate import RecordReport, Settings

    deals = 0
    for item in validate_inputs([str(source)], Settings(), jobs):
        if isinstance(item, RecordReport):
            deals += item.deals
            _clean(item)
    return deals


def _clean(report: Any) -> None:
    """Fail the step on a finding: the records are generated clean. Notes of what a partial
    record leaves unchecked are not findings."""
    from recordkit.diagnostics import Severity

    found = [d for d in report.diagnostics if d.severity != Severity.INFO]
    assert not found, found[0].text()


def _columnar(source: Path, _target: Path, _jobs: int) -> int:
    """The deals of an archive its columnar checks prove clean, without validating the others
    (their records are only read back)."""
    from recordkit.columnar import archive_items
    from recordkit.validate import RecordReport, Settings

    return sum(
        item.deals
        for item in archive_items(source, Settings(), parse=False)
        if isinstance(item, RecordReport)
    )


def _validate_full(source: Path, _target: Path, _jobs: int) -> int:
    from recordkit.validate import RecordReport, Settings, validate_paths

    deals = 0
    for item in validate_paths([str(source)], Settings()):  # every record replayed in full
        if isinstance(item, RecordReport):
            deals += item.deals
            _clean(item)
    return deals


def _to_archive(source: Path, target: Path, jobs: int) -> int:
    from recordkit.convert.archive import to_archive

    return to_archive([str(source)], target, replace=True, jobs=jobs).deals


def _from_archive(source: Path, target: Path, _jobs: int) -> int:
    from recordkit.archive import read_manifest
    from recordkit.convert.archive import from_archive

    from_archive(source, target)
    return read_manifest(source).deals


def _chess(source: Path, _target: Path, _jobs: int) -> int:
    import chess.pgn

    moves = 0
    with source.open() as pgn:
        while (game := chess.pgn.read_game(pgn)) is not None:
            moves += sum(1 for _ in game.mainline_moves())
    return moves


def _spin(rounds: int) -> int:
    """A pure-Python loop: the work of the machine's ceiling."""
    total = 0
    for number in range(rounds):
        total += number * number
    return total


def _ceiling(_source: Path, _target: Path, jobs: int) -> int:
    """Two loops of SPIN_ROUNDS on `jobs` worker processes started before the clock (one process
    runs both in turn), as `--jobs` runs its chunks: the ceiling is the ratio of the two times."""
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(jobs) as pool:
        list(pool.map(_spin, [1000] * jobs))  # every worker up
        started = time.perf_counter()
        list(pool.map(_spin, [SPIN_ROUNDS, SPIN_ROUNDS]))
        return int((time.perf_counter() - started) * 1e6)  # microseconds: see measure_ceiling


STEPS = {
    "orjson": _orjson,
    "pydantic": _pydantic,
    "validate": _validate,
    "columnar": _columnar,
    "validate_full": _validate_full,
    "to_archive": _to_archive,
    "from_archive": _from_archive,
    "chess": _chess,
    "ceiling": _ceiling,
}


REPEAT = 3
"""Runs of each step; the fastest counts (this machine's neighbours make single runs noisy)."""


Figures = dict[str, Any]
"""One step's figures: seconds, peak_mb, done (units of work); or `failed` (why) instead."""


def measure(
    name: str, source: Path, target: Path | None = None, jobs: int = 1, repeat: int = REPEAT
) -> Figures:
    """The fastest of `repeat` runs of one step, each in a fresh interpreter (so that imports and
    peak memory are its own); the peak is the highest of the runs. A step that fails says why
    (its last line of error) instead of stopping the bench."""
    runs = []
    for _ in range(repeat):
        command = [sys.executable, __file__, "--step", name, str(source), str(target or ""), str(jobs)]
        out = subprocess.run(command, capture_output=True, text=True, check=False, cwd=ROOT)
        if out.returncode != 0:
            return {"failed": (out.stderr.strip().splitlines() or ["no output"])[-1][:100]}
        runs.append(dict(orjson.loads(out.stdout.splitlines()[-1])))
    return fastest(runs)


def fastest(runs: list[Figures]) -> Figures:
    """The fastest run, with the highest peak of them all."""
    best = min(runs, key=lambda run: float(run["seconds"]))
    return {**best, "peak_mb": max(run["peak_mb"] for run in runs)}


def measure_cli(source: Path, deals: int, repeat: int = REPEAT) -> Figures:
    """`python -m recordkit validate FILE -q` from this checkout, start-up included: the fastest
    of `repeat` runs, with the command's peak memory. The package's bytecode is compiled first, as
    `pip install` compiles it (with PYTHONDONTWRITEBYTECODE set, every run would compile the source
    again: about 0.2 s of start-up an installed tool does not pay)."""
    compileall.compile_dir(ROOT / "recordkit", quiet=1)
    runs = []
    for _ in range(repeat):
        started = time.perf_counter()
        process = subprocess.Popen(
            [sys.executable, "-m", "recordkit", "validate", str(source), "-q"],
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        _pid, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - started
        errors = process.stderr.read().decode() if process.stderr else ""
        if os.waitstatus_to_exitcode(status) != 0:
            return {"failed": (errors.strip().splitlines() or ["exit status != 0"])[-1][:100]}
        runs.append({"seconds": seconds, "peak_mb": usage.ru_maxrss / 1024, "done": deals})
    return fastest(runs)


def measure_jobs(
    name: str, source: Path, target: Path | None, repeat: int = REPEAT
) -> tuple[Figures, Figures, float]:
    """A step on 1 and on 2 processes, and the machine's ceiling for two processes, interleaved
    run by run (so that the neighbours' load weighs on each alike), fastest of `repeat` each.

    The ceiling is measured as fairly as the speedup: both loops in worker processes started
    before the clock, one process running them in turn against two running one each."""
    ones, twos, serial, parallel = [], [], [], []
    for _ in range(repeat):
        ones.append(measure(name, source, target, jobs=1, repeat=1))
        twos.append(measure(name, source, target, jobs=2, repeat=1))
        serial.append(measure("ceiling", source, None, jobs=1, repeat=1))
        parallel.append(measure("ceiling", source, None, jobs=2, repeat=1))
    runs = [ones, twos, serial, parallel]
    broken = next((run for group in runs for run in group if "failed" in run), None)
    if broken is not None:
        return broken, broken, 0.0
    one, two = fastest(ones), fastest(twos)
    ceiling = min(float(r["done"]) for r in serial) / min(float(r["done"]) for r in parallel)
    return one, two, ceiling


def interleaved(runs: list[tuple[str, Path]], repeat: int) -> list[Figures]:
    """Each (step, file) run once in turn, `repeat` times over, and the fastest of each, with the
    seconds of each round (`rounds`, for `paired`): steps compared with each other share the
    machine's load alike."""
    done: list[list[Figures]] = [[] for _ in runs]
    for _ in range(repeat):
        for figures, (name, source) in zip(done, runs, strict=True):
            figures.append(measure(name, source, repeat=1))
    found: list[Figures] = []
    for group in done:
        failures = [run for run in group if "failed" in run]
        found.append(
            failures[0] if failures else {**fastest(group), "rounds": [run["seconds"] for run in group]}
        )
    return found


def paired(base: Figures, other: Figures) -> float:
    """`other`'s time over `base`'s, as the median of the rounds' ratios (both from one
    `interleaved`): each round's two runs ran back to back, so a change of the machine's speed
    between rounds (by half on this project's machine) weighs on both alike, where the ratio of
    the two fastest runs would pair runs of different rounds."""
    rounds: list[tuple[float, float]] = list(zip(base["rounds"], other["rounds"], strict=True))
    return statistics.median(b / a for a, b in rounds)


# --- data -------------------------------------------------------------------------------------------


def write_tarot(path: Path, tricks: Path, deals: int, unique: int, seed: int) -> None:
    """`deals` 4-player French Tarot deals, `unique` of them distinct, in records of ten deals;
    and the same records without their hands and dog at `tricks` (`Ruleset.forget`)."""
    from recordkit.games import RULESETS
    from recordkit.generate import generate_record

    ruleset = RULESETS["french-tarot"]
    records = [
        generate_record(ruleset, 4, DEALS_PER_RECORD, seed + i, player="random")
        for i in range(max(1, min(unique, deals) // DEALS_PER_RECORD))
    ]
    for target, lines in zip((path, tricks), _both_forms(ruleset, records), strict=True):
        with target.open("w") as out:
            for index in range(deals // DEALS_PER_RECORD):
                out.write(lines[index % len(lines)])


def _both_forms(ruleset: Any, records: list[Any]) -> tuple[list[str], list[str]]:
    """Each record as a JSON line, as generated and with every deal in its tricks-only form
    (the calls and tricks, no hands nor any other dealt group the play lets the replay derive)."""
    from recordkit.codec import dumps

    full, tricks = [], []
    for record in records:
        table, _ = ruleset.table(record.options, len(record.players))
        full.append(dumps(record) + "\n")
        forgotten = record.model_copy(update={"deals": [ruleset.forget(table, d) for d in record.deals]})
        tricks.append(dumps(forgotten) + "\n")
    return full, tricks


def cards_played(path: Path) -> int:
    """The number of cards played in every trick of a record file."""
    from recordkit.model import trick_codes

    total = 0
    with path.open("rb") as lines:
        for line in lines:
            for deal in orjson.loads(line)["deals"]:
                for trick in deal.get("tricks", []):
                    if isinstance(trick, str):
                        total += len(trick.split())
                    else:
                        total += len(trick_codes(_trick_object(trick)))
    return total


def _trick_object(trick: dict[str, Any]) -> Any:
    from recordkit.model import Trick

    return Trick.model_validate(trick)


GAMES = [  # every game the per-card comparison covers
    ("french-tarot", 4, {}),
    ("french-tarot", 5, {}),
    ("charlemagne", 4, {}),
    ("charlemagne", 4, {"variant": "maine"}),
    ("karnoffel", 4, {}),
    ("karnoffel", 2, {}),
    ("joffre", 4, {}),
    ("joffre", 3, {}),
]
CONVERTED = [GAMES[i] for i in (0, 1, 2, 3, 4, 6)]
"""The games the issue times JSONL -> archive and archive validation on (4p and 5p Tarot,
Charlemagne, Maine, Karnöffel, Joffre)."""


def write_game(
    path: Path, tricks: Path, game: str, players: int, options: dict[str, Any], deals: int, seed: int
) -> int:
    """Generated records of one game until `deals` deals are written, and the same records in
    their tricks-only form at `tricks`; returns the deals written."""
    from recordkit.games import RULESETS
    from recordkit.generate import generate_record

    ruleset = RULESETS[game]
    records = []
    written = 0
    while written < deals:
        records.append(
            generate_record(ruleset, players, DEALS_PER_RECORD, seed + written, options, player="random")
        )
        written += len(records[-1].deals)
    for target, lines in zip((path, tricks), _both_forms(ruleset, records), strict=True):
        target.write_text("".join(lines))
    return written


def repeated(path: Path, target: Path, deals: int) -> int:
    """The records of `path` repeated (whole records) until at least `deals` deals are written at
    `target`: conversion and archive figures need more deals than generating each game affords."""
    lines = path.read_bytes().splitlines(keepends=True)
    counts = [len(orjson.loads(line)["deals"]) for line in lines]
    written = 0
    with target.open("wb") as out:
        while written < deals:
            for line, count in zip(lines, counts, strict=True):
                out.write(line)
                written += count
    return written


def write_pgn(path: Path, moves: int, seed: int) -> int:
    """Random legal chess games (at most 120 plies each) until `moves` moves are written."""
    import chess
    import chess.pgn

    rng = random.Random(seed)
    written = 0
    with path.open("w") as out:
        while written < moves:
            board = chess.Board()
            while not board.is_game_over() and board.ply() < 120 and written < moves:
                board.push(rng.choice(list(board.legal_moves)))
                written += 1
            print(chess.pgn.Game.from_board(board), file=out, end="\n\n")
    return written


def findings_in(path: Path) -> int:
    """The errors and warnings of a record file (notes of what was not checked aside): a game's
    tricks-only records are timed only when its rules derive their hands cleanly."""
    from recordkit.diagnostics import Severity
    from recordkit.validate import RecordReport, Settings, validate_paths

    return sum(
        sum(d.severity != Severity.INFO for d in item.diagnostics) if isinstance(item, RecordReport) else 1
        for item in validate_paths([str(path)], Settings())
    )


# --- the report -------------------------------------------------------------------------------------


def rate(figures: Figures) -> float:
    return float(figures["done"]) / float(figures["seconds"])


def verdict(value: float, target: float, higher_is_better: bool = True) -> str:
    met = value >= target if higher_is_better else value <= target
    if met:
        return "met"
    factor = target / value if higher_is_better else value / target
    return f"missed ({factor:.1f}x short)"


def failed(*runs: Figures) -> str | None:
    """Why one of these steps failed, if one did."""
    return next((f"step failed: {run['failed']}" for run in runs if "failed" in run), None)


def row(label: str, figures: Figures, cards: float, size: int, note: str = "") -> None:
    """One line of the main table: deals a second, microseconds a card, MB a second, peak MB."""
    if "failed" in figures:
        print(f"{label:<40}{failed(figures)}")
        return
    per_card = figures["seconds"] / (figures["done"] * cards) * 1e6
    print(
        f"{label:<40}{rate(figures):>10,.0f}{per_card:>9.2f}{size / 1e6 / figures['seconds']:>8.1f}"
        f"{figures['peak_mb']:>9.0f}  {note}"
    )


def jobs_line(what: str, one: Figures, two: Figures, ceiling: float) -> None:
    """--jobs 2's speedup on a step, the machine's ceiling measured with it, and the fraction."""
    why = failed(one, two)
    if why:
        print(f"{what:<34}{why}")
        return
    speedup = one["seconds"] / two["seconds"]
    fraction = speedup / ceiling
    print(
        f"{what:<34}{speedup:6.2f}x of a ceiling of {ceiling:.2f}x = {fraction:5.2f}   "
        f"{verdict(fraction, TARGETS['jobs_fraction'])} (at least {TARGETS['jobs_fraction']})"
    )


def convert_only(source: Path, here: Path, size: int, deals: int, timed: Callable[..., Figures]) -> None:
    """The big-archive steps alone, each printed as it is done, with its peak memory and how long
    it takes: JSONL -> Parquet on 1 and 2 processes, back, validating the JSON lines (2 processes)
    and the archive."""
    started = time.perf_counter()
    steps = [
        ("JSONL -> Parquet, 1 process", "to_archive", source, here / "archive", 1),
        ("JSONL -> Parquet, 2 processes", "to_archive", source, here / "archive", 2),
        ("Parquet -> JSONL", "from_archive", here / "archive", here / "back.jsonl", 1),
        ("validate JSONL, 2 processes", "validate", source, None, 2),
        ("validate the archive, 1 process", "validate", here / "archive", None, 1),
    ]
    print(f"{'':<34}{'deals/s':>10}{'MB/s':>8}{'seconds':>9}{'peak MB':>9}  target (peak)", flush=True)
    for label, name, given, target, jobs in steps:
        figures = timed(name, given, target, jobs=jobs)
        if "failed" in figures:
            print(f"{label:<34}{failed(figures)}", flush=True)
            continue
        print(
            f"{label:<34}{rate(figures):>10,.0f}{size / 1e6 / figures['seconds']:>8.1f}"
            f"{figures['seconds']:>9.0f}{figures['peak_mb']:>9.0f}  "
            f"{verdict(figures['peak_mb'], TARGETS['peak_mb'], False)} (under {TARGETS['peak_mb']} MB)",
            flush=True,
        )
    archive_size = sum(p.stat().st_size for p in (here / "archive").rglob("*") if p.is_file())
    print(f"archive: {archive_size / 1e6:.1f} MB for {size / 1e6:.1f} MB of JSONL")
    exact = (here / "back.jsonl").is_file() and (here / "back.jsonl").read_bytes() == source.read_bytes()
    print(f"round trip exact: {exact}")
    print(f"the whole run, {deals:,} deals: {time.perf_counter() - started:.0f} s")


def tarot_figures(source: Path, tricks: Path, here: Path, deals: int, args: argparse.Namespace) -> Figures:
    """The main table (4-player French Tarot) and the figures beside it; returns the 1-process
    validation's figures, which the chess comparison uses."""
    timed = partial(measure, repeat=args.repeat)
    size, tricks_size, cards = source.stat().st_size, tricks.stat().st_size, cards_played(source) / deals
    parse = timed("orjson", source)
    typed = timed("pydantic", source)
    cli = measure_cli(source, deals, args.repeat)
    one, two, ceiling = measure_jobs("validate", source, None, args.repeat)
    whole, tricks_one, full, tricks_full = interleaved(  # each pair compared back to back
        [("validate", source), ("validate", tricks), ("validate_full", source), ("validate_full", tricks)],
        args.repeat,
    )
    to_one, to_two, convert_ceiling = measure_jobs("to_archive", source, here / "archive", args.repeat)
    back = timed("from_archive", here / "archive", here / "back.jsonl")
    archived = timed("validate", here / "archive", jobs=1)
    columnar = timed("columnar", here / "archive")
    exact = (here / "back.jsonl").is_file() and (here / "back.jsonl").read_bytes() == source.read_bytes()

    rows = [
        ("orjson.loads (reference)", parse, ""),
        ("pydantic validate_json (reference)", typed, ""),
        ("validate from the CLI (start-up incl.)", cli, ""),
        ("validate, 1 process", one, ""),
        ("validate, 2 processes", two, ""),
        ("validate, full replay of every record", full, ""),
        ("tricks only: validate, 1 process", tricks_one, ""),
        ("tricks only: full replay", tricks_full, ""),
        ("JSONL -> Parquet, 1 process", to_one, ""),
        ("JSONL -> Parquet, 2 processes", to_two, ""),
        ("Parquet -> JSONL", back, ""),
        ("validate an archive", archived, ""),
        ("  the columnar check (deals it proves)", columnar, ""),
    ]
    if "failed" not in cli:
        rows[2] = (
            rows[2][0],
            cli,
            f"{verdict(rate(cli), TARGETS['cli_validate'])} (at least {TARGETS['cli_validate']:,})",
        )
    if "failed" not in to_one:
        rows[8] = (
            rows[8][0],
            to_one,
            f"{verdict(rate(to_one), TARGETS['convert'])} (at least {TARGETS['convert']:,})",
        )
    if "failed" not in archived:
        rows[11] = (rows[11][0], archived, f"{verdict(rate(archived), TARGETS['validate_archive'])}")
    print(f"\n{'path':<40}{'deals/s':>10}{'us/card':>9}{'MB/s':>8}{'peak MB':>9}  target")
    for label, figures, note in rows:
        row(label, figures, cards, tricks_size if label.startswith("tricks only") else size, note)

    print()
    if not failed(cli, parse):
        ratio = cli["seconds"] / parse["seconds"]
        most = TARGETS["max_cli_to_orjson"]
        print(
            f"validate from the CLI / orjson.loads {ratio:6.1f}x   {verdict(ratio, most, False)} (at most {most}x)"
        )
    jobs_line("validate, 2 processes speedup", one, two, ceiling)
    jobs_line("convert, 2 processes speedup", to_one, to_two, convert_ceiling)
    print(
        "  (the ceiling: two pure-Python loops on two worker processes against one, interleaved with the runs)"
    )
    most = TARGETS["max_tricks_only_ratio"]
    for what, partial_run, whole_run, target in (
        ("validate, 1 process", tricks_one, whole, True),
        ("full replay        ", tricks_full, full, False),  # the record path: a blank replay derives first
    ):
        if not failed(partial_run, whole_run):
            ratio = paired(whole_run, partial_run)
            said = f"{verdict(ratio, most, False)} (at most {most}x; " if target else "(the record path; "
            print(
                f"tricks only / full, {what} {ratio:6.2f}x   {said}"
                f"fastest over fastest {partial_run['seconds'] / whole_run['seconds']:.2f}x)"
            )
    peak = max((f["peak_mb"] for _, f, _ in rows if "failed" not in f), default=0.0)
    print(f"highest peak memory           {peak:8.0f} MB (at {deals:,} deals; --convert-only for a million)")
    print(f"round trip exact              {exact!s:>8}")
    if not failed(columnar):
        print(
            f"deals proven column by column {columnar['done'] / deals:8.1%}   (the others take the record path)"
        )
    return one


def game_figures(here: Path, args: argparse.Namespace) -> None:
    """Every game: validation cost per card against 4-player Tarot's (fast path, full replay,
    tricks only), then JSONL -> Parquet and archive validation with the columns' proven share.

    Each game's `--per-game` generated deals are repeated (whole records) to `--per-game-deals`,
    so that a run lasts long enough to time, and its three validations run in turn, repeat by
    repeat, so that the machine's load weighs on the full and the tricks-only records alike."""
    timed = partial(measure, repeat=args.repeat)
    most = TARGETS["max_card_cost_to_tarot"]
    print(
        f"\n{'game':<30}{'deals/s':>9}{'us/card':>8}{'/tarot':>7}{'full':>8}{'us/card':>8}"
        f"{'tricks':>8}{'us/card':>8}{'ratio':>7}   (validate, 1 process, {args.per_game} deals"
        f" repeated to {args.per_game_deals:,}; /tarot: cost per card against 4-player Tarot's,"
        f" at most {most}x; ratio: tricks only / validate, the median of the rounds' ratios)"
    )
    tarot_card = None
    archives = []
    for game, players, options in GAMES:
        path, path_tricks = here / f"{game}-{players}.jsonl", here / f"{game}-{players}-tricks.jsonl"
        label = f"{game} {players}p" + "".join(f" {k}={v}" for k, v in options.items())
        write_game(path, path_tricks, game, players, options, args.per_game, args.seed)
        if (game, players, options) in CONVERTED:
            archives.append((label, path))
        wrong = findings_in(path_tricks)
        many, many_tricks = here / f"{path.stem}-timed.jsonl", here / f"{path_tricks.stem}-timed.jsonl"
        written = repeated(path, many, args.per_game_deals)
        repeated(path_tricks, many_tricks, args.per_game_deals)
        played = cards_played(many)
        runs: list[tuple[str, Path]] = [("validate", many), ("validate_full", many)]
        if not wrong:
            runs.insert(1, ("validate", many_tricks))  # back to back with the full records it is held to
        fast, *tricks, slow = interleaved(runs, args.repeat)
        why = failed(fast, slow)
        if why:
            print(f"{label:<30}{why}")
            continue
        card = fast["seconds"] / played * 1e6
        tarot_card = tarot_card or card
        line = (
            f"{label:<30}{written / fast['seconds']:>9,.0f}{card:>8.2f}{card / tarot_card:>6.2f}x"
            f"{written / slow['seconds']:>8,.0f}{slow['seconds'] / played * 1e6:>8.2f}"
        )
        derived: Figures = tricks[0] if tricks else {"failed": f"{wrong} finding(s)"}
        if "failed" in derived:
            print(f"{line}   tricks only: {derived['failed']}; {verdict(card / tarot_card, most, False)}")
            continue
        print(
            f"{line}{written / derived['seconds']:>8,.0f}{derived['seconds'] / played * 1e6:>8.2f}"
            f"{paired(fast, derived):>6.2f}x   {verdict(card / tarot_card, most, False)}"
        )

    print(
        f"\n{'game':<30}{'convert':>9}{'':<22}{'archive':>9}{'':<22}{'proven':>7}"
        f"   (deals/s, 1 process, {args.convert_deals:,} deals, records repeated)"
    )
    for label, path in archives:
        source, archive = here / f"{path.stem}-many.jsonl", here / f"{path.stem}-archive"
        written = repeated(path, source, args.convert_deals)
        there = timed("to_archive", source, archive)
        if "failed" in there:
            print(f"{label:<30}convert: {failed(there)}")
            continue
        checked, proven = timed("validate", archive), timed("columnar", archive)
        first = f"{label:<30}{rate(there):>9,.0f} {verdict(rate(there), TARGETS['convert']):<21}"
        why = failed(checked, proven)
        if why:
            print(f"{first}{why}")
            continue
        print(
            f"{first}{rate(checked):>9,.0f} {verdict(rate(checked), TARGETS['validate_archive']):<21}"
            f"{proven['done'] / written:>7.1%}"
        )
    print(
        f"  (targets: convert at least {TARGETS['convert']:,}, archive validation at least {TARGETS['validate_archive']:,})"
    )


def chess_figures(here: Path, one: Figures, cards: int, seed: int, repeat: int) -> None:
    """python-chess reading PGN against recordkit validating cards, per move and per card."""
    try:
        pgn = here / "games.pgn"
        moves = write_pgn(pgn, min(cards, CHESS_MOVES), seed)
    except ImportError:
        print("\npython-chess is not installed: pip install -e '.[bench]' to compare with it")
        return
    chess = measure("chess", pgn, repeat=repeat)
    if failed(chess, one):
        print(f"\npython-chess: {failed(chess, one)}")
        return
    chess_us = chess["seconds"] / moves * 1e6
    ours_us = one["seconds"] / cards * 1e6
    print(
        f"\npython-chess reading {moves:,} moves of PGN: {chess_us:.2f} us/move ({rate(chess):,.0f} moves/s)"
    )
    print(
        f"recordkit validate:                          {ours_us:.2f} us/card ({ours_us / chess_us:.2f}x chess)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--unique", type=int, default=4_000)
    parser.add_argument("--per-game", type=int, default=600, help="distinct deals generated of each game")
    parser.add_argument(
        "--per-game-deals", type=int, default=4000, help="deals of each game's validation (records repeated)"
    )
    parser.add_argument("--convert-deals", type=int, default=4_000, help="deals of each game's conversion")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--convert-only", action="store_true", help="only the big-archive steps")
    parser.add_argument("--repeat", type=int, default=REPEAT, help="runs of each step; the fastest counts")
    parser.add_argument("--step", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.step:
        name, source, target, jobs = args.step
        print(orjson.dumps(step(name, source, target, int(jobs))).decode())
        return

    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    with tempfile.TemporaryDirectory() as folder:
        here = Path(folder)
        source, tricks = here / "tarot.jsonl", here / "tarot-tricks.jsonl"
        write_tarot(source, tricks, args.deals, args.unique, args.seed)
        size, cards = source.stat().st_size, cards_played(source)
        deals = args.deals
        print(
            f"data: {deals:,} 4-player French Tarot deals, {size / deals:.0f} B a deal, {cards / deals:.0f} cards"
        )
        if args.convert_only:
            convert_only(source, here, size, deals, partial(measure, repeat=args.repeat))
            return
        one = tarot_figures(source, tricks, here, deals, args)
        game_figures(here, args)
        chess_figures(here, one, cards, args.seed, args.repeat)


if __name__ == "__main__":
    main()
