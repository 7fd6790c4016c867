"""Validation speed on generated 4-player French Tarot games, against orjson.loads of the same file.

Usage: python bench/validate_speed.py [--deals 10000] [--players 4] [--seed 1]
Prints deals/s, microseconds per card, and the ratio to parsing the JSON alone.
"""

from __future__ import annotations

import argparse
import resource
import tempfile
import time
from pathlib import Path

import orjson

from recordkit.codec import dumps
from recordkit.games import RULESETS
from recordkit.generate import generate_record
from recordkit.validate import RecordReport, Settings, validate_paths

DEALS_PER_RECORD = 10


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    ruleset = RULESETS["french-tarot"]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "games.jsonl"
        started = time.perf_counter()
        with path.open("w") as out:
            for index in range(args.deals // DEALS_PER_RECORD):
                record = generate_record(ruleset, args.players, DEALS_PER_RECORD, args.seed + index)
                out.write(dumps(record) + "\n")
        generated = time.perf_counter() - started
        size = path.stat().st_size
        cards = args.deals * 78 - args.deals * (6 if args.players < 5 else 3)

        started = time.perf_counter()
        with path.open("rb") as handle:
            for line in handle:
                orjson.loads(line)
        parse = time.perf_counter() - started

        started = time.perf_counter()
        deals = errors = 0
        for item in validate_paths([str(path)], Settings()):
            if isinstance(item, RecordReport):
                deals += item.deals
                errors += len(item.diagnostics)
        validate = time.perf_counter() - started

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"french-tarot, {args.players} players, {deals} deals, {size / 1e6:.1f} MB JSONL ({size / deals:.0f} B/deal)"
    )
    print(f"  generate          {args.deals / generated:>10,.0f} deals/s")
    print(f"  orjson.loads      {args.deals / parse:>10,.0f} deals/s")
    print(
        f"  validate          {deals / validate:>10,.0f} deals/s   {validate / cards * 1e6:.2f} us/card played"
    )
    print(f"  validate / parse  {validate / parse:>10.1f} x")
    print(f"  diagnostics       {errors:>10}")
    print(f"  peak RSS          {peak:>10.0f} MB")


if __name__ == "__main__":
    main()
