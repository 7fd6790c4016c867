"""Every speed figure of the project in one run, side by side with its references and targets.

Usage: python bench/run.py [--deals 20000] [--unique 4000] [--per-game 600] [--seed 1] [--repeat 3]
                           [--convert-only]

Generates 4-player French Tarot games with a fixed seed (`--unique` distinct deals repeated up
to `--deals`: generating is the slow part, and repeating does not change what checking costs),
then times, each in a fresh child process so that its peak memory is its own:
orjson.loads and pydantic's validate_json of the file (references), `validate` with 1 and 2
processes (clean records take the fast path) and with the full replay of every record, the same
records without their hands and dog (tricks only: the hands derived from the play), JSONL ->
Parquet with 1 and 2 processes, Parquet -> JSONL, `validate` of the archive, every game's
validation cost per card (fast path, full replay, tricks only), and python-chess reading up to 100,000 moves of PGN
(install it with `pip install -e '.[bench]'`); each figure is the fastest of `--repeat` runs.
Tests never assert timings; this prints them.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import resource
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
TARGETS = {  # issue 7, per core, 4-player French Tarot
    "validate": 15_000,
    "validate_archive": 200_000,
    "to_archive": 50_000,
    "parallel_speedup": 1.8,
    "max_ratio_to_orjson": 4.0,
    "peak_mb": 300,
    "max_tricks_only_ratio": 1.5,  # issue 14: deriving the hands costs at most 1.5x the full record
}


# --- the measured steps, each run in a child process ----------------------------------------------


def step(name: str, source: str, target: str, jobs: int) -> dict[str, Any]:
    """Run one step and return its figures (seconds, peak RSS in MB, units done).

    The modules are imported before the clock starts: a long run does not pay for them again."""
    import recordkit.archive
    import recordkit.inputs  # noqa: F401

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
    from recordkit.archive.columnar import archive_items
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
    from recordkit.archive import to_archive

    return to_archive([str(source)], target, replace=True, jobs=jobs).deals


def _from_archive(source: Path, target: Path, _jobs: int) -> int:
    from recordkit.archive import from_archive, read_manifest

    from_archive(source, target)
    return read_manifest(source).deals


def _chess(source: Path, _target: Path, _jobs: int) -> int:
    import chess.pgn

    moves = 0
    with source.open() as pgn:
        while (game := chess.pgn.read_game(pgn)) is not None:
            moves += sum(1 for _ in game.mainline_moves())
    return moves


STEPS = {
    "orjson": _orjson,
    "pydantic": _pydantic,
    "validate": _validate,
    "columnar": _columnar,
    "validate_full": _validate_full,
    "to_archive": _to_archive,
    "from_archive": _from_archive,
    "chess": _chess,
}


REPEAT = 3
"""Runs of each step; the fastest counts (this machine's neighbours make single runs noisy)."""


def measure(
    name: str, source: Path, target: Path | None = None, jobs: int = 1, repeat: int = REPEAT
) -> dict[str, Any]:
    """The fastest of `repeat` runs of one step, each in a fresh interpreter (so that imports and
    peak memory are its own); the peak is the highest of the runs."""
    runs = []
    for _ in range(repeat):
        command = [sys.executable, __file__, "--step", name, str(source), str(target or ""), str(jobs)]
        out = subprocess.run(command, capture_output=True, text=True, check=False)
        if out.returncode != 0:
            raise SystemExit(f"step {name} failed:\n{out.stderr}")
        runs.append(dict(orjson.loads(out.stdout.splitlines()[-1])))
    fastest = min(runs, key=lambda run: float(run["seconds"]))
    return {**fastest, "peak_mb": max(run["peak_mb"] for run in runs)}


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


GAMES = [
    ("french-tarot", 4, {}),
    ("french-tarot", 5, {}),
    ("charlemagne", 4, {}),
    ("charlemagne", 4, {"variant": "maine"}),
    ("karnoffel", 4, {}),
    ("karnoffel", 2, {}),
    ("joffre", 4, {}),
    ("joffre", 3, {}),
]


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


def _spin(rounds: int) -> int:
    total = 0
    for number in range(rounds):
        total += number * number
    return total


def parallel_ceiling(rounds: int = 5_000_000) -> float:
    """How much faster two processes run two pure-Python loops than one process: the most
    `--jobs 2` can gain on this machine (two virtual cores may share one physical core)."""
    from concurrent.futures import ProcessPoolExecutor

    started = time.perf_counter()
    _spin(rounds)
    _spin(rounds)
    serial = time.perf_counter() - started
    with ProcessPoolExecutor(2) as pool:
        list(pool.map(_spin, [1000, 1000]))  # start the workers before the clock
        started = time.perf_counter()
        list(pool.map(_spin, [rounds, rounds]))
        parallel = time.perf_counter() - started
    return serial / parallel


# --- the report -------------------------------------------------------------------------------------


def rate(figures: dict[str, Any]) -> float:
    return float(figures["done"]) / float(figures["seconds"])


def verdict(value: float, target: float, higher_is_better: bool = True) -> str:
    met = value >= target if higher_is_better else value <= target
    if met:
        return "met"
    factor = target / value if higher_is_better else value / target
    return f"missed ({factor:.1f}x short)"


def convert_only(source: Path, here: Path, size: int, timed: Callable[..., dict[str, Any]]) -> None:
    """JSONL -> Parquet (two processes) and back, with peak memory: the figures for big archives."""
    there = timed("to_archive", source, here / "archive", jobs=2)
    back = timed("from_archive", here / "archive", here / "back.jsonl")
    archive_size = sum(p.stat().st_size for p in (here / "archive").rglob("*") if p.is_file())
    print(f"archive: {archive_size / 1e6:.1f} MB for {size / 1e6:.1f} MB of JSONL")
    for label, figures in (("JSONL -> Parquet, 2 processes", there), ("Parquet -> JSONL", back)):
        print(
            f"{label:<32}{rate(figures):>10,.0f} deals/s {size / 1e6 / figures['seconds']:>7.1f} MB/s"
            f"{figures['peak_mb']:>7.0f} MB peak"
        )
    print(f"round trip exact: {(here / 'back.jsonl').read_bytes() == source.read_bytes()}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--unique", type=int, default=4_000)
    parser.add_argument("--per-game", type=int, default=600)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--convert-only", action="store_true", help="only JSONL <-> Parquet (for big runs)")
    parser.add_argument("--repeat", type=int, default=REPEAT, help="runs of each step; the fastest counts")
    parser.add_argument("--step", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.step:
        name, source, target, jobs = args.step
        print(orjson.dumps(step(name, source, target, int(jobs))).decode())
        return

    timed = partial(measure, repeat=args.repeat)
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
            convert_only(source, here, size, timed)
            return
        parse = timed("orjson", source)
        typed = timed("pydantic", source)
        one = timed("validate", source, jobs=1)
        full = timed("validate_full", source)
        tricks_one = timed("validate", tricks, jobs=1)
        tricks_full = timed("validate_full", tricks)
        two = timed("validate", source, jobs=2)
        to_one = timed("to_archive", source, here / "archive", jobs=1)
        to_two = timed("to_archive", source, here / "archive", jobs=2)
        back = timed("from_archive", here / "archive", here / "back.jsonl")
        archived = timed("validate", here / "archive", jobs=1)
        columnar = timed("columnar", here / "archive")
        exact = (here / "back.jsonl").read_bytes() == source.read_bytes()

        tricks_size = tricks.stat().st_size
        rows = [
            ("orjson.loads (reference)", parse, ""),
            ("pydantic validate_json (reference)", typed, ""),
            ("validate, 1 process", one, verdict(rate(one), TARGETS["validate"])),
            ("validate, 2 processes", two, ""),
            ("validate, full replay of every record", full, ""),
            ("tricks only: validate, 1 process", tricks_one, ""),
            ("tricks only: full replay", tricks_full, ""),
            ("JSONL -> Parquet, 1 process", to_one, verdict(rate(to_one), TARGETS["to_archive"])),
            ("JSONL -> Parquet, 2 processes", to_two, ""),
            ("Parquet -> JSONL", back, verdict(rate(back), rate(to_one))),
            ("validate an archive", archived, verdict(rate(archived), TARGETS["validate_archive"])),
            ("  the columnar check (deals it proves)", columnar, ""),
        ]
        print(f"\n{'path':<38}{'deals/s':>10}{'us/card':>9}{'MB/s':>8}{'peak MB':>9}  target")
        for label, figures, note in rows:
            per_card = figures["seconds"] / (figures["done"] * cards / deals) * 1e6
            read = tricks_size if label.startswith("tricks only") else size
            print(
                f"{label:<38}{rate(figures):>10,.0f}{per_card:>9.2f}{read / 1e6 / figures['seconds']:>8.1f}"
                f"{figures['peak_mb']:>9.0f}  {note}"
            )
        ratio = one["seconds"] / parse["seconds"]
        speedup = one["seconds"] / two["seconds"]
        print(
            f"\nvalidate / orjson.loads       {ratio:8.1f}x   {verdict(ratio, TARGETS['max_ratio_to_orjson'], False)}"
        )
        print(
            f"validate, 2 processes speedup {speedup:8.2f}x   {verdict(speedup, TARGETS['parallel_speedup'])}"
        )
        print(
            f"  the machine's ceiling         {parallel_ceiling():8.2f}x   (two pure-Python loops, 2 processes)"
        )
        print(f"convert, 2 processes speedup  {to_one['seconds'] / to_two['seconds']:8.2f}x")
        most = TARGETS["max_tricks_only_ratio"]
        for what, partial_run, whole_run in (
            ("validate, 1 process", tricks_one, one),
            ("full replay        ", tricks_full, full),
        ):
            ratio = partial_run["seconds"] / whole_run["seconds"]
            print(
                f"tricks only / full, {what} {ratio:6.2f}x   {verdict(ratio, most, False)} (at most {most}x)"
            )
        peak = max(f["peak_mb"] for _, f, _ in rows)
        print(f"highest peak memory           {peak:8.0f} MB {verdict(peak, TARGETS['peak_mb'], False)}")
        print(f"round trip exact              {exact!s:>8}")
        print(
            f"deals proven column by column {columnar['done'] / deals:8.1%}   (the others take the record path)"
        )

        print(
            f"\n{'game':<32}{'deals/s':>10}{'us/card':>9}{'full replay':>13}{'us/card':>9}"
            f"{'tricks only':>13}{'us/card':>9}{'ratio':>7}   (validate, 1 process, {args.per_game} deals;"
            " ratio: tricks only / validate)"
        )
        for game, players, options in GAMES:
            path, path_tricks = here / f"{game}-{players}.jsonl", here / f"{game}-{players}-tricks.jsonl"
            written = write_game(path, path_tricks, game, players, options, args.per_game, args.seed)
            played = cards_played(path)
            fast, slow = timed("validate", path, jobs=1), timed("validate_full", path)
            label = f"{game} {players}p" + "".join(f" {k}={v}" for k, v in options.items())
            line = (
                f"{label:<32}{written / fast['seconds']:>10,.0f}{fast['seconds'] / played * 1e6:>9.2f}"
                f"{written / slow['seconds']:>13,.0f}{slow['seconds'] / played * 1e6:>9.2f}"
            )
            wrong = findings_in(path_tricks)
            if wrong:
                print(f"{line}   tricks only: {wrong} finding(s); the game does not derive its hands yet")
                continue
            derived = timed("validate", path_tricks, jobs=1)
            print(
                f"{line}{written / derived['seconds']:>13,.0f}{derived['seconds'] / played * 1e6:>9.2f}"
                f"{derived['seconds'] / fast['seconds']:>6.2f}x"
            )

        try:
            pgn = here / "games.pgn"
            moves = write_pgn(pgn, min(cards, CHESS_MOVES), args.seed)
        except ImportError:
            print("\npython-chess is not installed: pip install -e '.[bench]' to compare with it")
            return
        chess = timed("chess", pgn)
        chess_us = chess["seconds"] / moves * 1e6
        ours_us = one["seconds"] / cards * 1e6
        print(
            f"\npython-chess reading {moves:,} moves of PGN: {chess_us:.2f} us/move ({rate(chess):,.0f} moves/s)"
        )
        print(
            f"recordkit validate:                          {ours_us:.2f} us/card ({ours_us / chess_us:.2f}x chess)"
        )


if __name__ == "__main__":
    main()
