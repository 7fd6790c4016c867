"""The state of a Joffre deal during replay: hands as bitmasks, the auction, the trump, the tricks."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum

from recordkit.rules.joffre.cards import JoffreCards
from recordkit.rules.values import PlayedTrick, Table


class Phase(IntEnum):
    """The steps of a deal, in order; a card played closes the auction."""

    AUCTION = 0
    PLAY = 1
    DONE = 2


@dataclass(slots=True)
class JoffreState:
    """Everything the rules need to know at one point of a deal."""

    table: Table
    cards: JoffreCards
    dealer: int
    dealt: list[int]
    hands: list[int]
    status: str = "played"
    phase: Phase = Phase.AUCTION
    calls_made: int = 0
    contract: int = 0
    """The highest bid so far, compiled (0 while nobody has bid)."""
    bidder: int | None = None
    trump: int | None = None
    """Nation index of the trump, NO_TRUMP for a no-trump deal, None before the first lead."""
    written_trump: str | None = None
    before: list[int | float] | None = None
    """Each seat's total before this deal, when the record's totals tell it (for opponent_cap)."""
    tricks: list[PlayedTrick] = field(default_factory=list)
    current: PlayedTrick | None = None
    leader: int = 0
    played_in: dict[int, int] = field(default_factory=dict)
    recorded: list[tuple[int | None, int | None]] = field(default_factory=list)
    scorable: bool = True
    overrun_reported: bool = False

    @property
    def players(self) -> int:
        """Number of players at the table."""
        return self.table.players

    @property
    def teams(self) -> bool:
        """Whether partners play together (option mode = teams)."""
        return bool(self.table.options.mode == "teams")

    def seat_after(self, seat: int, steps: int = 1) -> int:
        """The seat `steps` places later in the order of play (clockwise)."""
        return (seat + steps) % self.table.players

    def side(self, seat: int) -> int:
        """The side a seat scores for (`side_of`)."""
        return side_of(self.teams, seat)

    def to_play(self) -> int:
        """The seat whose card comes next: the bidder leads the first trick, the winner the next."""
        if self.current is None:
            return self.leader
        return self.seat_after(self.current.leader, len(self.current.cards))


def side_of(teams: bool, seat: int) -> int:
    """joffre.deal.teams: the side a seat scores for: its team (0 or 1) in team play, else the seat itself."""
    return seat % 2 if teams else seat
