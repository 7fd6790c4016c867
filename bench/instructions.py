"""Tricks-only against full validation in instructions, per game: the figure load does not move.

Usage: python bench/instructions.py [--records 20] [--seed 1]

On a machine whose speed swings between runs (by up to half on this project's), the time ratio of
two forms of the same deals moves by a tenth or more from run to run. The number of instructions
the CPU executes for the same work does not. For every game of `bench/run.py`'s per-game rows,
this writes `--records` generated records of 10 deals in both forms (the same deals, written
whole and without their hands: `run.write_game`), and counts with valgrind's callgrind the
instructions of `validate_inputs` over each file, one process, after its first records (a batch
the columns take) have warmed the caches (the header's, the memos, the imports of NumPy and
pyarrow). It prints the instructions a deal of each form and their ratio
beside issue 29's target (issue 14's before it): deriving the hands costs at most 1.5 times the full record's validation.

callgrind counts only inside `itertools.dropwhile`'s `__next__`, which the measured run is
wrapped in (`--toggle-collect`: it names C functions, not Python ones). About 4 minutes for 20
records a game; needs valgrind (Debian's `valgrind` package). Tests never assert these figures.
"""

from __future__ import annotations

import argparse
import gc
import itertools
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # count the recordkit of this checkout, not an installed one
    sys.path.insert(0, str(ROOT))

from bench.run import GAMES, TARGETS, verdict, write_game  # noqa: E402

TOGGLE = "dropwhile_next"
"""The C function callgrind counts inside: `itertools.dropwhile`'s `__next__`."""
TOTALS = re.compile(rb"^(?:summary|totals): (\d+)", re.MULTILINE)


def count(source: Path) -> tuple[int, int]:
    """The instructions of validating `source` (after a first record of it) and its deals, from a
    callgrind run of this script's `--count` mode in a child process."""
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "callgrind.out"
        command = [
            "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={out}",
            "--collect-atstart=no",
            f"--toggle-collect={TOGGLE}",
            sys.executable,
            __file__,
            "--count",
            str(source),
        ]
        run = subprocess.run(command, capture_output=True, text=True, check=False, cwd=ROOT)
        found = TOTALS.search(out.read_bytes()) if out.exists() else None
        if run.returncode != 0 or found is None:
            said = [line for line in run.stderr.splitlines() if line.strip() and not line.startswith("==")]
            raise CountError((said or ["no instruction total"])[-1][:100])
        return int(found.group(1)), int(run.stdout.split()[-1])


class CountError(Exception):
    """A count that did not come out (the code under it changing): its row says why."""


def measured(source: Path) -> None:
    """Validate `source` once inside `itertools.dropwhile` (what callgrind counts), after its
    first records alone, as many as make a batch the columns take (`SMALL_BATCH` deals: so that
    NumPy and pyarrow are imported before the count); print the deals validated."""
    from recordkit.inputs import validate_inputs
    from recordkit.validate import SMALL_BATCH, RecordReport, Settings

    first = source.with_suffix(".first.jsonl")
    lines = source.read_bytes().splitlines(keepends=True)
    dealt = itertools.accumulate(len(orjson.loads(line)["deals"]) for line in lines)
    first.write_bytes(b"".join(lines[: next(i for i, deals in enumerate(dealt, 1) if deals >= SMALL_BATCH)]))
    list(validate_inputs([str(first)], Settings(), 1))
    gc.collect()
    deals = [0]

    def validate() -> bool:
        reports = validate_inputs([str(source)], Settings(), 1)
        deals[0] = sum(report.deals for report in reports if isinstance(report, RecordReport))
        return False

    list(itertools.dropwhile(lambda _: validate(), [0]))
    print(deals[0])


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--records", type=int, default=20, help="records of 10 deals a game (default 20)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=Path, help=argparse.SUPPRESS)  # the child callgrind runs
    args = parser.parse_args()
    if args.count is not None:
        measured(args.count)
        return
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed: apt-get install valgrind")
    target = TARGETS["max_tricks_only_ratio"]
    print(f"instructions a deal, validate, 1 process, {args.records} records of 10 deals a game")
    print(f"{'game':32} {'full':>10} {'tricks only':>12} {'ratio':>7}  target")
    with tempfile.TemporaryDirectory() as scratch:
        for game, players, options in GAMES:
            name = f"{game} {players}p" + "".join(f" {k}={v}" for k, v in options.items())
            full, tricks = Path(scratch) / "full.jsonl", Path(scratch) / "tricks.jsonl"
            write_game(full, tricks, game, players, options, args.records * 10, args.seed)
            try:
                (full_ir, deals), (tricks_ir, tricks_deals) = count(full), count(tricks)
            except CountError as failure:
                print(f"{name:32} failed: {failure}")
                continue
            assert deals == tricks_deals, (deals, tricks_deals)
            ratio = tricks_ir / full_ir
            shown = f"{name:32} {full_ir / deals:10,.0f} {tricks_ir / deals:12,.0f} {ratio:6.3f}x"
            print(f"{shown}  {verdict(ratio, target, higher_is_better=False)} (at most {target}x)")


if __name__ == "__main__":
    main()
