"""Scripted scorekeepers for the recorder tests: games chosen at random among the legal actions, written
down as the lines a person would type (the hands dealt, then each call and card in notation)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

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
        fields = dealt_fields(rec, dealt)
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


def dealt_fields(rec: Recorder, dealt: Any) -> dict[str, Any]:
    """The fields a deal is started with when every card dealt is known (the game server's path)."""
    dumped = dealt.model_dump(mode="json", exclude_none=True)
    return {k: v for k, v in dumped.items() if k in rec.deal_fields() or (k == "status" and v != "played")}


def unknown_fields(rec: Recorder, dealt: Any, known: frozenset[int] = frozenset()) -> dict[str, Any]:
    """The fields a scorekeeper who does not see the cards dealt starts the deal with: the dealt
    groups the game's `forget` keeps (those the play does not give: Karnöffel's round 1, say),
    and the hands of the seats in `known` (his own, say)."""
    fields = dealt_fields(rec, rec.ruleset.forget(rec.table, dealt))
    fields.pop("hands", None)
    if known:
        fields["hands"] = [hand if seat in known else None for seat, hand in enumerate(dealt.hands)]
    return fields


def forgotten(rec: Recorder, deal: Any, known: frozenset[int] = frozenset()) -> Any:
    """A recorded deal as it reads when it was started with `unknown_fields`: the dealt groups
    that were not given left out, the hands not given null; everything typed kept."""
    kept = unknown_fields(rec, deal, known)
    update = {name: kept.get(name) for name in rec.deal_fields()}
    return deal.model_copy(update=update)


def actions_of(script: Script) -> list[list[str]]:
    """The lines typed in each deal after its cards: the calls, cards and announcements."""
    ends = [*script.deal_starts[1:], len(script.lines)]
    return [
        [line for line in script.lines[start:end] if not line.startswith(DEAL_WORDS)]
        for start, end in zip(script.deal_starts, ends, strict=True)
    ]


DEAL_WORDS = ("hand ", "dog ", "kitty ", "faceup ", "status ")
"""How the lines that give a deal's cards begin."""


def damaged_journal(path: Path, game: str, header: dict[str, Any], entry: Any) -> Path:
    """A journal of one random deal of the game, its header changed as given, then `entry` as a
    last line (none when `entry` is the string "none")."""
    source = path.with_suffix(".source")
    rec = Recorder(game, players(4), journal=source)
    rec.deal_random(random.Random(3))
    rec.close()
    lines = source.read_bytes().splitlines()
    lines[0] = orjson.dumps({**orjson.loads(lines[0]), **header})
    if entry != "none":
        lines.append(orjson.dumps(entry))
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path
