"""How generated deals bid and score, per game and player: contracts, how often they are made,
and deals per second, for the random and the heuristic player (`recordkit generate`'s players).

    python bench/generated_rates.py [--deals 2000] [--seed 1] [--only GAME]

Each line is one table (game, players, options) and one player: its deals per second (the
generator's loop alone), the share of deals with a contract, the share of those made, and the
contracts' distribution with each one's made rate. Karnöffel's "contract" is the value played for
after raises; "made" is whether the side of the last raise won the deal (no raise: no contract).
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from typing import Any

from recordkit.games import RULESETS
from recordkit.generate import generate_deal
from recordkit.players import PLAYER_NAMES, player_for

TABLES: tuple[tuple[str, int, dict[str, Any]], ...] = (
    ("french-tarot", 3, {}),
    ("french-tarot", 4, {}),
    ("french-tarot", 5, {}),
    ("joffre", 3, {}),
    ("joffre", 4, {}),
    ("joffre", 4, {"mode": "teams"}),
    ("charlemagne", 4, {}),
    ("charlemagne", 4, {"variant": "maine"}),
    ("karnoffel", 2, {}),
    ("karnoffel", 4, {}),
)


def rates(game: str, players: int, options: dict[str, Any], name: str, deals: int, seed: int) -> str:
    """One table's line for one player: deals/s, contracts, made rates."""
    ruleset = RULESETS[game]
    table, problems = ruleset.table(ruleset.Options.model_validate(options), players)
    assert table is not None, problems
    chooser = player_for(ruleset, name)  # type: ignore[arg-type]
    rng = random.Random(seed)
    contracts: Counter[str] = Counter()
    made: Counter[str] = Counter()
    started = time.perf_counter()
    for number in range(deals):
        _deal, state = generate_deal(ruleset, table, number % players, rng, None, chooser)
        summary = ruleset.summary(state)
        if summary.contract is None or summary.made is None:
            contracts["-"] += 1
            continue
        contracts[summary.contract] += 1
        made[summary.contract] += summary.made
    elapsed = time.perf_counter() - started
    taken = deals - contracts["-"]
    share = f"{100 * taken / deals:4.0f}% contracts, {100 * sum(made.values()) / max(taken, 1):4.1f}% made"
    spread = ", ".join(
        f"{c} {100 * n / deals:.0f}%/{100 * made[c] / n:.0f}%"
        for c, n in sorted(contracts.items(), key=lambda item: _order(item[0]))
        if c != "-"
    )
    where = f"{game} {players}p {' '.join(f'{k}={v}' for k, v in options.items())}".strip()
    return f"{where:34} {name:9} {deals / elapsed:7.0f} deals/s  {share}  [{spread}]"


def _order(contract: str) -> tuple[int, str]:
    """Contracts in their numeric order where they are numbers, else by name."""
    head = contract.split()[0]
    return (int(head), contract) if head.isdigit() else (1000, contract)


def main() -> None:
    """Print every table's line for both players."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", default=None, help="one game's tables only")
    args = parser.parse_args()
    for game, players, options in TABLES:
        if args.only is None or args.only == game:
            for name in reversed(PLAYER_NAMES):
                print(rates(game, players, options, name, args.deals, args.seed), flush=True)


if __name__ == "__main__":
    main()
