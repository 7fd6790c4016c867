"""Where a deal's time goes on the bulk path (`recordkit.batch`), stage by stage, per game.

Usage: python bench/columns.py [--records 400] [--repeat 3] [--seed 1] [--form full|tricks]

For each game, generates records of 10 deals (fixed seeds, heuristic players) as JSON lines, then
times in this process, in batches of about 4,096 deals: parsing each line (`orjson.loads`, the
reference), appending each record's written values (`WrittenColumns.add`), building the tables
(`WrittenColumns.rows`) and the game's columnar check (`prove_columns`); and, beside them,
pyarrow's JSON reader over the same lines (`pyarrow.json.read_json`, the other way to the
columns: it parses into nested columns at once, but one line off the schema it infers fails the
whole block, and the place of each record is only its row number) and the fast path of the same
records (`quick.clean_deals`). `--form tricks` writes the records without their hands (the
tricks-only form). Each figure is the fastest of `--repeat` runs, in µs a deal of CPU time.
Tests never assert timings.
"""

from __future__ import annotations

import argparse
import io
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pyarrow.json as pa_json

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # time the recordkit of this checkout, not an installed one
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))  # the tables run.py compares

from run import GAMES as TABLES  # noqa: E402

from recordkit.batch import canonical_options  # noqa: E402
from recordkit.games import RULESETS  # noqa: E402
from recordkit.generate import generate_record  # noqa: E402
from recordkit.model import to_data  # noqa: E402
from recordkit.quick import clean_deals, clean_header  # noqa: E402
from recordkit.rules.columns import proof_of  # noqa: E402
from recordkit.rules.written_columns import WrittenColumns  # noqa: E402

BATCH_DEALS = 4096
COLUMN_STAGES = (
    "parse (orjson.loads)",
    "append the written values",
    "build the tables",
    "the columnar check",
)
"""The stages of the bulk path; pyarrow's JSON reader is timed beside them, as the alternative to
the first two (it reads the lines into nested columns at once)."""


def fastest(repeat: int, work: Callable[[], Any]) -> float:
    """The fewest CPU seconds of `repeat` runs of `work`."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        work()
        best = min(best, time.process_time() - start)
    return best


def stages(lines: list[bytes], repeat: int) -> tuple[dict[str, float], float]:
    """Seconds of each stage over all the lines, and the share of deals the columns proved."""
    records = [orjson.loads(line) for line in lines]
    ruleset, table = clean_header(records[0]) or (None, None)
    assert ruleset is not None and table is not None
    form = ruleset.written_form()
    per_batch = max(1, BATCH_DEALS // max(1, len(records[0]["deals"])))
    batches = [records[i : i + per_batch] for i in range(0, len(records), per_batch)]
    built: list[WrittenColumns] = []

    def add() -> None:
        built.clear()
        for batch in batches:
            columns = WrittenColumns(form) if form is not None else None
            for game_id, record in enumerate(batch):
                header = clean_header(record)
                if columns is not None and header is not None:
                    columns.add(game_id, header[1], canonical_options(header[1]), record["deals"])
            if columns is not None:
                built.append(columns)

    figures = {"parse (orjson.loads)": fastest(repeat, lambda: [orjson.loads(line) for line in lines])}
    text = b"\n".join(lines)
    figures["pyarrow.json.read_json"] = fastest(
        repeat, lambda: pa_json.read_json(io.BytesIO(text), pa_json.ReadOptions(block_size=len(text) + 1))
    )
    figures["append the written values"] = fastest(repeat, add)
    tables = [columns.rows() for columns in built]
    figures["build the tables"] = fastest(repeat, lambda: [columns.rows() for columns in built])
    verdicts: list[Any] = []
    figures["the columnar check"] = fastest(
        repeat, lambda: verdicts.extend(ruleset.prove_columns(rows) for rows in tables)
    )
    figures["fast path of the same records"] = fastest(repeat, lambda: [clean_deals(r) for r in records])
    proofs = [proof_of(v, rows) for v, rows in zip(verdicts, tables, strict=False) if v is not None]
    proven = sum(int(proof.games.sum()) for proof in proofs) if form else 0
    share = proven / len(records)
    return figures, share


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--form", choices=("full", "tricks"), default="full", help="the records' form")
    args = parser.parse_args()
    print(f"µs a deal, CPU time, fastest of {args.repeat}; {args.records} records of 10 deals a table")
    header = None
    for name, players, options in TABLES:
        ruleset = RULESETS[name]
        records = [
            to_data(generate_record(ruleset, players, 10, args.seed + i, options, form=args.form))
            for i in range(args.records)
        ]
        lines = [orjson.dumps(record) for record in records]
        deals = sum(len(record["deals"]) for record in records)
        figures, share = stages(lines, args.repeat)
        if header is None:
            header = list(figures)
            print(
                f"{'table':30}"
                + "".join(f"{label[:16]:>18}" for label in header)
                + "  records proven  deals/s (columns)"
            )
        label = f"{name} {players}p" + "".join(f" {k}={v}" for k, v in options.items())
        cells = "".join(f"{figures[stage] / deals * 1e6:18.1f}" for stage in header)
        columns = sum(figures[stage] for stage in header if stage in COLUMN_STAGES)
        print(f"{label:30}{cells}   {share:13.1%}  {deals / columns:9,.0f}")


if __name__ == "__main__":
    main()
