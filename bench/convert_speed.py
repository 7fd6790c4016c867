"""Conversion speed and peak memory: JSONL -> Parquet archive -> JSONL on generated French Tarot deals.

Usage: python bench/convert_speed.py [--deals 100000] [--unique 20000] [--players 4] [--seed 1]
The input holds `--unique` generated deals repeated up to `--deals` (generation is the slow part and
repetition does not change what conversion costs). Each direction runs in a child process so
that its peak resident memory is measured alone.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from recordkit.codec import dumps
from recordkit.games import RULESETS
from recordkit.generate import generate_record

DEALS_PER_RECORD = 10


def child(direction: str, source: str, target: str) -> None:
    """Run one conversion and print seconds and peak RSS (MB)."""
    from recordkit.archive import from_archive, to_archive

    started = time.perf_counter()
    if direction == "to":
        to_archive([source], Path(target))
    else:
        from_archive(Path(source), Path(target))
    elapsed = time.perf_counter() - started
    print(elapsed, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)


def measure(direction: str, source: Path, target: Path) -> tuple[float, float]:
    out = subprocess.run(
        [sys.executable, __file__, "--child", direction, str(source), str(target)],
        capture_output=True,
        text=True,
        check=True,
    )
    seconds, peak = out.stdout.split()
    return float(seconds), float(peak)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--unique", type=int, default=20_000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    ruleset = RULESETS["french-tarot"]
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "games.jsonl"
        lines = [
            dumps(generate_record(ruleset, args.players, DEALS_PER_RECORD, args.seed + i)) + "\n"
            for i in range(min(args.unique, args.deals) // DEALS_PER_RECORD)
        ]
        with source.open("w") as out:
            for index in range(args.deals // DEALS_PER_RECORD):
                out.write(lines[index % len(lines)])
        size = source.stat().st_size
        deals = args.deals
        to_seconds, to_peak = measure("to", source, Path(folder) / "archive")
        archive_size = sum(p.stat().st_size for p in (Path(folder) / "archive").rglob("*") if p.is_file())
        back_seconds, back_peak = measure("back", Path(folder) / "archive", Path(folder) / "back.jsonl")
        identical = (Path(folder) / "back.jsonl").read_bytes() == source.read_bytes()
    print(
        f"french-tarot, {args.players} players, {deals:,} deals, {size / 1e6:.1f} MB JSONL -> {archive_size / 1e6:.1f} MB archive"
    )
    print(
        f"  JSONL -> Parquet  {deals / to_seconds:>10,.0f} deals/s  {size / 1e6 / to_seconds:6.2f} MB/s  peak RSS {to_peak:6.0f} MB"
    )
    print(
        f"  Parquet -> JSONL  {deals / back_seconds:>10,.0f} deals/s  {size / 1e6 / back_seconds:6.2f} MB/s  peak RSS {back_peak:6.0f} MB"
    )
    print(f"  round trip exact  {identical}")


if __name__ == "__main__":
    main()
