"""The notation reader's speed on its own canonical output, beside orjson.loads of the same records.

Usage: python bench/notation.py [--deals 4000] [--repeat 3] [--seed 1]

For each game, generates records of 10 deals (fixed seed, heuristic players), writes them as the
notation's canonical text and as JSON lines, and times reading each back to the record's JSON data
on one core: `read_text` (the reader, with the map of lines and columns) against `orjson.loads`
of every line. Each figure is the fastest of `--repeat` runs, in CPU time of this process (one
core; the machine's other work does not count). Tests never assert timings; this
prints them (target: 20,000 deals a second of text, issue 17).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # time the recordkit of this checkout, not an installed one
    sys.path.insert(0, str(ROOT))

from recordkit.codec import dumps  # noqa: E402
from recordkit.games import RULESETS  # noqa: E402
from recordkit.generate import generate_record  # noqa: E402
from recordkit.notation.read import read_text  # noqa: E402

TARGET = 20_000
DEALS_PER_RECORD = 10
TABLES = (("french-tarot", 4), ("french-tarot", 5), ("joffre", 4), ("karnoffel", 4), ("charlemagne", 4))


def fastest(run: Callable[[], int], repeat: int) -> tuple[float, int]:
    """The shortest time of `repeat` runs of `run`, and what it counted."""
    best, counted = float("inf"), 0
    for _ in range(repeat):
        start = time.process_time()
        counted = run()
        best = min(best, time.process_time() - start)
    return best, counted


def _read(text: str) -> int:
    """Read a text in the notation: the deals read."""
    return sum(len(record.data["deals"]) for record in read_text(text))


def _parse(lines: list[bytes]) -> int:
    """Parse JSON lines with orjson: the deals parsed."""
    return sum(len(orjson.loads(line)["deals"]) for line in lines)


def main() -> None:
    """Print one row a game: text and JSON sizes, reader and orjson deals/s, their ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=4000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    records = max(1, args.deals // DEALS_PER_RECORD)
    print(
        f"about {records * DEALS_PER_RECORD:,} deals a game, up to {DEALS_PER_RECORD} a record; fastest of {args.repeat}"
    )
    print(
        f"{'game':<18}{'text B/deal':>12}{'JSON B/deal':>12}{'reader deals/s':>16}{'orjson deals/s':>16}{'ratio':>8}  target"
    )
    for game, players in TABLES:
        made = [
            generate_record(RULESETS[game], players, DEALS_PER_RECORD, args.seed + i) for i in range(records)
        ]
        text = "\n".join(dumps(r, form="text") for r in made)
        lines = [dumps(r).encode() for r in made]
        deals = sum(len(r.deals) for r in made)  # a game may end before its tenth deal
        read, counted = fastest(partial(_read, text), args.repeat)
        assert counted == deals
        parsed, _ = fastest(partial(_parse, lines), args.repeat)
        rate, reference = deals / read, deals / parsed
        met = "met" if rate >= TARGET else f"missed ({TARGET / rate:.1f}x short)"
        size, json_size = len(text.encode()) / deals, sum(map(len, lines)) / deals
        name = f"{game} {players}p"
        print(
            f"{name:<18}{size:>12,.0f}{json_size:>12,.0f}{rate:>16,.0f}{reference:>16,.0f}{reference / rate:>7.1f}x  {met}"
        )


if __name__ == "__main__":
    main()
