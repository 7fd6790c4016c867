"""The state of a Karnöffel deal during replay: hands as bitmasks, the proposal windows, the tricks."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from typing import NamedTuple

from recordkit.rules.karnoffel.cards import Cards, side_of
from recordkit.rules.karnoffel.options import KarnoffelOptions
from recordkit.rules.values import PlayedTrick, Table

WINDOWS = 3
TRICKS = 5
TRICKS_TO_WIN = 3


class Phase(IntEnum):
    """The steps of a deal, in order: the proposal windows, the play, the end."""

    WINDOWS = 0
    PLAY = 1
    DONE = 2


class Said(NamedTuple):
    """A call as compiled: its window (1-3), its canonical name, and the seat the record wrote."""

    window: int
    name: str
    written: int | None


@dataclass(slots=True)
class KarnoffelState:
    """Everything the rules need to know at one point of a deal."""

    table: Table
    cards: Cards
    dealer: int
    hands: list[int]
    chosen: int | None
    devil: int | None
    """The 7 of the chosen suit, which may not open the play."""
    before: list[int] | None
    """Each side's score before the deal, when the record lets us know it (for the going-out cap)."""
    status: str = "played"
    phase: Phase = Phase.WINDOWS
    window: int = 1
    passes: int = 0
    pending: bool = False
    value: int = 0
    raiser: int | None = None
    """The seat of the last raise (pending, accepted or refused)."""
    raises: int = 0
    window_raises: int = 0
    surrendered: bool = False
    tricks: list[PlayedTrick] = field(default_factory=list)
    current: PlayedTrick | None = None
    leader: int = 0
    won: list[int] = field(default_factory=lambda: [0, 0])
    decided: int | None = None
    """The side that won three tricks (or, after a surrender, the side whose raise was refused)."""
    played_in: dict[int, int] = field(default_factory=dict)
    recorded: list[tuple[int | None, int | None]] = field(default_factory=list)
    scorable: bool = True
    overrun_reported: bool = False

    @property
    def options(self) -> KarnoffelOptions:
        """The record's variant options."""
        options: KarnoffelOptions = self.table.options
        return options

    @property
    def players(self) -> int:
        """Number of players at the table."""
        return self.table.players

    @property
    def forehand(self) -> int:
        """The dealer's next seat: first card, first word in every window, first lead."""
        return (self.dealer + 1) % self.table.players

    def seat_after(self, seat: int, steps: int = 1) -> int:
        """The seat `steps` places later in the order of play."""
        return (seat + steps) % self.players

    def speaker(self, side: int) -> int:
        """The seat that speaks for a side unless the record names another: the forehand for his side,
        the next player for the other (the two who hold a face-up card in window 1)."""
        forehand = self.forehand
        return forehand if side == side_of(forehand) else self.seat_after(forehand)

    def side_to_speak(self) -> int:
        """The side whose word comes next in the open window."""
        if self.pending:
            assert self.raiser is not None
            return 1 - side_of(self.raiser)
        return side_of(self.forehand) if self.passes == 0 else 1 - side_of(self.forehand)

    def pending_value(self) -> int:
        """The value a pending raise proposes."""
        return self.value + self.options.raise_step

    def seats(self, side: int) -> list[int]:
        """The seats of a side."""
        return [seat for seat in range(self.players) if side_of(seat) == side]

    def side_name(self, side: int) -> str:
        """A side in words: `seat 1` alone, `seats 1 and 3`, `seats 1, 3 and 5` for partners."""
        seats = [str(seat) for seat in self.seats(side)]
        return f"seat {seats[0]}" if len(seats) == 1 else f"seats {', '.join(seats[:-1])} and {seats[-1]}"

    def to_play(self) -> int:
        """The seat whose card comes next."""
        if self.current is None:
            return self.leader
        return self.seat_after(self.current.leader, len(self.current.cards))
