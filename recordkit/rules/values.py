"""The values a deal's replay is made of: actions, turns, tricks, the table, what a derived deal's
completion holds, and the fast path's replayed deal (`QuickDeal`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from recordkit.cards import Deck
from recordkit.diagnostics import Violation
from recordkit.model import Call, Note, Result, Status, Trick


@dataclass(slots=True)
class Action:
    """One thing that happens in a deal, in compiled form (card ids, not codes).

    `seat` is None where the rules say who acts (plays, auction order); `path` is the JSON path
    of the action in the deal, `trick` and `position` are 1-based for play actions.
    """

    kind: str
    value: Any
    seat: int | None = None
    path: str = ""
    trick: int | None = None
    position: int | None = None
    note: Note | None = None


@dataclass(frozen=True, slots=True)
class Turn:
    """Whose turn it is and what kinds of action are open (None seat: any player may act)."""

    seat: int | None
    kinds: frozenset[str]


@dataclass(slots=True)
class PlayedTrick:
    """A trick as replayed: who led, the cards in play order with their seats, who won it."""

    leader: int
    cards: list[int] = field(default_factory=list)
    seats: list[int] = field(default_factory=list)
    winner: int | None = None


@dataclass(frozen=True, slots=True)
class DealSummary:
    """What an analyst wants to know about a replayed deal, in the same columns for every game.

    `contract` is the winning bid's canonical name, `declarer` the seat that made it, `partner`
    the declarer's partner (a called or fixed partner; None alone), `made` whether the contract
    succeeded, `trump` the trump suit's letter, `declarer_points` the card points the declaring
    side took in games that count them. Every field is None where it does not apply.
    """

    contract: str | None = None
    declarer: int | None = None
    partner: int | None = None
    made: bool | None = None
    trump: str | None = None
    declarer_points: float | None = None
    bouts: int | None = None
    """French Tarot: the bouts the declaring side took (its target depends on them)."""
    target: float | None = None
    """The card points the declaring side needs (French Tarot: 56, 51, 41 or 36 by its bouts)."""
    margin: float | None = None
    """`declarer_points` less `target`: by how much the contract was made (>= 0) or failed."""
    joffre_won_by: int | None = None
    """Joffre: the seat that won the trick holding the Joffre (its side takes 5 more)."""
    kaiser_won_by: int | None = None
    """Joffre: the seat that won the trick holding the Kaiser (its side takes 3 less)."""
    joffre_captured: int | None = None
    """Joffre: the seat whose Joffre the Kaiser took (its side loses 5), when it happened."""


@dataclass(slots=True)
class QuickDeal:
    """A deal the fast path (`recordkit.quick`) proved clean: its dealer, the scores the rules
    give it, its final state and its actions before and beside the cards (for the next dealer,
    the end of the game and the archive's tables). Not frozen: a frozen dataclass's `__init__`
    costs several microseconds, once a deal on the fast path."""

    dealer: int
    scores: list[int | float] | None
    """None when the rules give the deal no score, as the full replay says (everybody passed and
    the hands are not known): the written scores then stand, as in the full validation."""
    state: Any
    actions: list[Action]
    """The actions other than cards played, with their seats, as the full replay has them (for
    the archive's calls table)."""
    completion: Completion | None = None
    """For a deal whose record leaves dealt cards out: the deal as proven, with them derived."""
    notes: list[Violation] = field(default_factory=list)
    """The notes the full replay gives the deal besides its completion's (a score-sheet deal's)."""
    sheet: bool = False
    """True for a score-sheet deal: `state` is what `Ruleset.sheet_state` says of its end, for
    the next dealer and the end of the game; it has no replay."""


@dataclass(frozen=True, slots=True)
class Table:
    """What stays fixed across a record's deals: the options, the number of players, the deck."""

    options: Any
    players: int
    deck: Deck


@dataclass(slots=True)
class Completion:
    """A deal whose record leaves dealt cards out, with them derived from its play
    (`Ruleset.complete`): what was derived, and which checks that leaves without their facts."""

    deal: Any
    """The deal with every group it could derive written in, as if it had been recorded."""
    derived: list[str] = field(default_factory=list)
    """The paths of the groups written in (`hands[1]`, `dog`), as the record would hold them."""
    unchecked: dict[tuple[str, int | None], str] = field(default_factory=dict)
    """Each check that could not run, as (code, seat: None for every seat), with the fact the
    record does not give; its findings are dropped, since they would rest on a guess."""
    played_twice: dict[str, list[int]] = field(default_factory=dict)
    """Each card the tricks hold more than once, with the numbers of its tricks (set by
    `recordkit.derive`), for the message of the duplicate it puts in the derived hands."""


class DealLike(Protocol):
    """The fields every game's deal model has; the engine and the validator use only these."""

    dealer: int
    hands: list[str | None] | None
    auction: list[Call]
    tricks: list[str | Trick]
    status: Status
    result: Result | None
    totals: list[int | float] | None


class DealState(Protocol):
    """What the engine and the viewer read from any game's state."""

    tricks: list[PlayedTrick]
    current: PlayedTrick | None
