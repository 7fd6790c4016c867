"""Scripted scorekeepers for the recorder tests: games chosen at random among the legal actions, written
down as the lines a person would type (the hands dealt, then each call and card in notation)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from recordkit.recorder import Recorder

NAMES = ("Anne", "Bruno", "Claire", "Denis", "Elise", "Farid", "Gilles", "Hélène")

GAMES: list[tuple[str, int, dict[str, Any]]] = [
    ("french-tarot", 4, {}),
    ("french-tarot", 3, {}),
    ("french-tarot", 5, {}),
    ("charlemagne", 4, {}),
    ("charlemagne", 4, {"variant": "maine"}),
    ("karnoffel", 4, {"target": 21}),
    ("karnoffel", 2, {"target": 11}),
    ("joffre", 4, {"mode": "teams", "target": 12}),
    ("joffre", 3, {"target": 12}),
]
"""Every game, at several tables; low targets keep whole games short."""


@dataclass
class Script:
    """A game as typed: the lines, where each deal starts in them, and the recorder that played it."""

    lines: list[str]
    deal_starts: list[int]
    recorder: Recorder


def players(count: int) -> list[str]:
    """The first `count` player names."""
    return list(NAMES[:count])


def deal_lines(fields: dict[str, Any]) -> list[str]:
    """A deal's cards as the prompt takes them: the status first, then each hand, then the rest."""
    lines = [f"status {fields['status']}"] if "status" in fields else []
    lines += [f"hand {seat} {hand}" for seat, hand in enumerate(fields["hands"])]
    return lines + [f"{name} {value}" for name, value in fields.items() if name not in ("hands", "status")]


def scripted_game(
    game: str, count: int, options: dict[str, Any], seed: int, deals: int, **recorder: Any
) -> Script:
    """Play a game through a Recorder by a seeded random policy over the legal actions (weighted as the
    generator weights them), up to the game's end or `deals` deals, keeping the typed lines."""
    rng = random.Random(seed)
    rec = Recorder(game, players(count), options, **recorder)
    script = Script([], [], rec)
    while not rec.over and len(rec.deals) < deals:
        dealt = rec.ruleset.deal_random(rec.table, rec.dealer, rng)
        dumped = dealt.model_dump(mode="json", exclude_none=True)
        fields = {
            k: v for k, v in dumped.items() if k in rec.deal_fields() or (k == "status" and v != "played")
        }
        script.deal_starts.append(len(script.lines))
        script.lines += deal_lines(fields)
        assert rec.deal(**fields) == []
        while rec.current is not None:
            line = choose(rec, rng)
            assert rec.act(line) == [], line
            script.lines.append(line)
    return script


def choose(rec: Recorder, rng: random.Random) -> str:
    """One legal action at random, in notation."""
    live = rec.current
    assert live is not None
    choices = rec.legal_actions()
    weights = [rec.ruleset.weight(live.state, action) for action in choices]
    return rec.notation(rng.choices(choices, weights=weights)[0])
