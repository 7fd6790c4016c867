"""Legal games, played through the same ruleset that validates them; reproducible by seed.

Who chooses each action is a player (`recordkit.players`): the heuristic one by default, whose
games look like a real table's, or the uniform random one the property tests explore the rules with.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Literal

from recordkit.model import RecordBase, points
from recordkit.players import Player, PlayerName, player_for, random_player
from recordkit.rules.base import Ruleset

DEFAULT_NAMES = ("Anne", "Bruno", "Claire", "Denis", "Elise", "Farid", "Gilles", "Hélène")

Form = Literal["full", "tricks", "sheet"]
"""How much of each deal a generated record writes: everything (`full`), the calls and tricks
without the hands, as a magazine prints them (`tricks`), or the score sheet's line (`sheet`)."""


def generate_record(
    ruleset: Ruleset[Any, Any, Any],
    players: int,
    deals: int,
    seed: int,
    options: dict[str, Any] | None = None,
    form: Form = "full",
    player: PlayerName = "heuristic",
) -> RecordBase:
    """A whole game of `deals` legal deals chosen by `player` (`random`: uniform, for property
    tests), scored by the rules, with running totals, each deal written in `form` (the same game
    whatever the form, for a seed and a player)."""
    chooser = player_for(ruleset, player)
    rng = random.Random(seed)
    opts = ruleset.Options.model_validate(options or {})
    table, problems = ruleset.table(opts, players)
    if table is None:
        raise ValueError("; ".join(p.message for p in problems))
    dealer = rng.randrange(players)
    totals: list[int | float] = [0] * players
    written = []
    for _ in range(deals):
        deal, state = generate_deal(ruleset, table, dealer, rng, totals, chooser)
        scores = list(deal.result.scores) if deal.result is not None else [0] * players
        totals = [points(t + s) for t, s in zip(totals, scores, strict=True)]  # 40.0 written 40, as read
        deal.totals = totals
        written.append(written_as(ruleset, table, deal, state, form))
        dealer = ruleset.next_dealer(table, dealer, state)
        if ruleset.game_over(table, totals, state):
            break
    return ruleset.Record(
        game=ruleset.name,
        players=list(DEFAULT_NAMES[:players]),
        options=opts,
        meta={"source": "recordkit generate", "seed": seed},
        deals=written,
    )


def written_as(ruleset: Ruleset[Any, Any, Any], table: Any, deal: Any, state: Any, form: Form) -> Any:
    """A generated deal (with its final state) in the form asked for."""
    if form == "tricks":
        return ruleset.forget(table, deal)
    if form == "sheet":
        return ruleset.sheet_of(table, deal, state)
    return deal


def generate_deal(
    ruleset: Ruleset[Any, Any, Any],
    table: Any,
    dealer: int,
    rng: random.Random,
    before: Sequence[int | float] | None = None,
    player: Player | None = None,
) -> tuple[Any, Any]:
    """One legal deal, each action chosen by `player` (uniform random when None), with its result
    as the rules score it, and its final state."""
    choose = player or random_player(ruleset)
    dealt = ruleset.deal_random(table, dealer, rng)
    state, problems = ruleset.start(table, dealt, before)
    if problems:
        raise AssertionError(f"{ruleset.name} dealt an irregular deal: {problems}")
    actions = []
    while ruleset.turn(state) is not None:
        choices = ruleset.legal(state)
        action = choose(state, choices, rng)
        problems = ruleset.advance(state, action)
        if problems:
            raise AssertionError(f"{ruleset.name} offered an illegal action {action}: {problems}")
        actions.append(action)
    deal = ruleset.record_deal(table, dealt, actions)
    scores = ruleset.score(state)
    if scores is not None:
        deal.result = ruleset.result(scores)
    return deal, state
