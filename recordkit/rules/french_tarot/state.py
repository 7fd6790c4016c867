"""The state of a French Tarot deal during replay: hands as bitmasks, the phase, the sides."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum

from recordkit.rules.french_tarot.facts import ContractFacts
from recordkit.rules.values import PlayedTrick, Table


class Phase(IntEnum):
    """The steps of a deal, in order; an action of a later step closes the earlier ones."""

    AUCTION = 0
    CALL = 1
    DISCARD = 2
    PLAY = 3
    DONE = 4


PHASE_OF_KIND = {
    "bid": Phase.AUCTION,
    "call": Phase.CALL,
    "discard": Phase.DISCARD,
    "announce": Phase.PLAY,
    "play": Phase.PLAY,
}


@dataclass(slots=True)
class Poignee:
    """A poignée as shown: its level and the cards shown (bitmask)."""

    level: str
    shown: int


@dataclass(slots=True)
class TarotState:
    """Everything the rules need to know at one point of a deal."""

    table: Table
    dealer: int
    dealt: list[int]
    hands: list[int]
    dog: int
    tricks_per_deal: int
    status: str = "played"
    phase: Phase = Phase.AUCTION
    calls_made: int = 0
    contract: int = 0
    taker: int | None = None
    called: int | None = None
    partner: int | None = None
    discard: int = 0
    discarded: int = 0
    trumps_needed_in_discard: int = 0
    slam: bool = False
    goulash: bool = False
    poignees: dict[int, Poignee] = field(default_factory=dict)
    miseres: list[tuple[int, str]] = field(default_factory=list)
    tricks: list[PlayedTrick] = field(default_factory=list)
    current: PlayedTrick | None = None
    leader: int = 0
    played_in: dict[int, int] = field(default_factory=dict)
    recorded: list[tuple[int | None, int | None]] = field(default_factory=list)
    scorable: bool = True
    overrun_reported: bool = False
    facts: ContractFacts | None = None
    """The finished contract's count, once the fast path has settled it (`scoring.settle`), for
    the score, the points check and the archive's summary to share."""

    @property
    def players(self) -> int:
        """Number of players at the table."""
        return self.table.players

    def seat_after(self, seat: int, steps: int = 1) -> int:
        """The seat `steps` places later in the order of play."""
        return (seat + steps) % self.table.players

    def attack(self) -> frozenset[int]:
        """The taker and his partner (if any); empty when nobody took."""
        if self.taker is None:
            return frozenset()
        return frozenset({self.taker} if self.partner is None else {self.taker, self.partner})

    def to_play(self) -> int:
        """The seat whose card comes next in the current (or next) trick."""
        if self.current is None:
            return self.first_leader() if not self.tricks else self.leader
        return self.seat_after(self.current.leader, len(self.current.cards))

    def first_leader(self) -> int:
        """Who leads the first trick: the taker after a slam announcement, else the dealer's next."""
        if self.slam and self.taker is not None:
            return self.taker
        return self.seat_after(self.dealer)
