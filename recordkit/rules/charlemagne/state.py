"""The state of a Charlemagne deal during replay: hands as bitmasks, the phase, the contract, who plays."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from functools import cache

from recordkit.rules.charlemagne.bids import LADDERS, Bid
from recordkit.rules.charlemagne.cards import PLAYERS, TRICKS, Context, context
from recordkit.rules.values import PlayedTrick, Table


class Phase(IntEnum):
    """The steps of a deal, in order; an action of a later step closes the earlier ones."""

    AUCTION = 0
    PARTNER_CARD = 1
    DISCARD = 2
    TRUMP = 3
    DEFENCE = 4
    DEFENDER_CARD = 5
    DEFENDER_DISCARD = 6
    PLAY = 7
    DONE = 8


AUCTION, PARTNER_CARD, DISCARD, TRUMP, DEFENCE, DEFENDER_CARD, DEFENDER_DISCARD, PLAY, DONE = Phase
"""The steps under names of their own, for the code each action runs: Python 3.11 looks an enum's
member up through its class's metaclass (`Phase.PLAY`), at several times the cost of a global."""

PHASE_OF_KIND = {
    "bid": Phase.AUCTION,
    "partner_card": Phase.PARTNER_CARD,
    "discard": Phase.DISCARD,
    "trump": Phase.TRUMP,
    "defence": Phase.DEFENCE,
    "defender_card": Phase.DEFENDER_CARD,
    "defender_discard": Phase.DEFENDER_DISCARD,
    "knock": Phase.PLAY,
    "play": Phase.PLAY,
    "claim": Phase.PLAY,
}


def sits_out(out: int, seat: int) -> bool:
    """Whether the seat is among those of the bitmask `out`, who do not take part in the play."""
    return bool(out >> seat & 1)


@cache
def next_seats(out: int) -> tuple[int, ...]:
    """The next seat after each seat that takes part in the play, when the seats of the bitmask
    `out` sit out (a lone hand's partner): worked out once for each such table."""
    after = []
    for seat in range(PLAYERS):
        nxt = (seat + 1) % PLAYERS
        while sits_out(out, nxt):
            nxt = (nxt + 1) % PLAYERS
        after.append(nxt)
    return tuple(after)


@cache
def trick_seats(out: int) -> tuple[tuple[int, ...], ...]:
    """The seats of a trick in the order of play, by its leader, when the seats of the bitmask
    `out` sit out (for the fast path, which seats a whole trick at once)."""
    after = next_seats(out)
    size = PLAYERS - out.bit_count()
    orders = []
    for leader in range(PLAYERS):
        order = [leader]
        while len(order) < size:
            order.append(after[order[-1]])
        orders.append(tuple(order))
    return tuple(orders)


@dataclass(slots=True)
class CharlemagneState:
    """Everything the rules need to know at one point of a deal (cards as ids and bitmasks)."""

    table: Table
    variant: str
    dealer: int
    dealt: list[int]
    hands: list[int]
    kitty: int
    status: str = "played"
    phase: Phase = Phase.AUCTION
    calls_made: int = 0
    bid: int = 0
    bidder: int | None = None
    kitty_taken: bool = False
    exchange: str = ""
    partner_card: int | None = None
    to_discard: int = 0
    discard_due: int = 0
    discard: int = 0
    trump: int | None = None
    trump_named: bool = False
    answers: list[tuple[int, str]] = field(default_factory=list)
    defender: int | None = None
    defender_card: int | None = None
    defender_discard: int = 0
    out: int = 0
    tricks: list[PlayedTrick] = field(default_factory=list)
    current: PlayedTrick | None = None
    leader: int = 0
    cards_played: int = 0
    played_in: dict[int, int] = field(default_factory=dict)
    recorded: list[tuple[int | None, int | None]] = field(default_factory=list)
    knocks: list[tuple[int, int, int]] = field(default_factory=list)
    claim: tuple[int, int] | None = None
    claimed: tuple[int, int] = (0, 0)
    exposed: bool = False
    checked: bool = True
    scorable: bool = True
    overrun_reported: bool = False

    @property
    def maine(self) -> bool:
        """True in the Maine variant."""
        return self.variant == "maine"

    @property
    def contract(self) -> Bid:
        """The highest bid so far (pass while nobody has bid)."""
        return LADDERS[self.variant][self.bid]

    @property
    def ctx(self) -> Context:
        """The suits and powers of the cards under this deal's trump (or no trump)."""
        return context(self.variant, self.trump)

    def seat_after(self, seat: int, steps: int = 1) -> int:
        """The seat `steps` places later in the order of play (clockwise)."""
        return (seat + steps) % PLAYERS

    def partner(self, seat: int) -> int:
        """The partner sits opposite."""
        return (seat + 2) % PLAYERS

    def active(self, seat: int) -> bool:
        """Whether the seat takes part in the play (a lone hand's partner does not)."""
        return not sits_out(self.out, seat)

    def next_active(self, seat: int) -> int:
        """The next seat after `seat` that takes part in the play."""
        return next_seats(self.out)[seat]

    def active_count(self) -> int:
        """Players in the play: 4, 3 with one lone hand, 2 when a Maine defender goes alone too."""
        return PLAYERS - self.out.bit_count()

    def bidding_side(self, seat: int) -> bool:
        """Whether the seat belongs to the bidder's partnership."""
        return self.bidder is not None and seat % 2 == self.bidder % 2

    def first_leader(self) -> int:
        """Who leads the first trick (charlemagne.play.lead): the bidder, or his left for Five to Eight."""
        assert self.bidder is not None
        if self.contract.bidder_leads:
            return self.bidder
        return self.next_active(self.bidder)

    def to_play(self) -> int:
        """The seat whose card comes next in the current (or next) trick."""
        if self.current is None:
            return self.first_leader() if not self.tricks else self.leader
        return self.next_active(self.current.seats[-1]) if self.current.seats else self.current.leader

    def remaining(self) -> int:
        """Tricks still to play."""
        return TRICKS - len(self.tricks)
