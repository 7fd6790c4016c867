"""Reading a Joffre score sheet's facts (spec/rules/joffre.md, `joffre.sheet.facts`): each fact a
sheet line writes into the facts the scoring reads (`scoring.DealFacts`), with every one that no
deal can have (`SHEET-BAD-FACT`) and every one the scores need that the line leaves out.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from recordkit.diagnostics import Severity, Violation
from recordkit.rules.base import NOT_CHECKED, PARTIAL_RULE
from recordkit.rules.joffre.auction import max_bid
from recordkit.rules.joffre.cards import cards_for
from recordkit.rules.joffre.options import JoffreOptions
from recordkit.rules.joffre.record import (
    PASS,
    JoffreDeal,
    JoffreResult,
    bid_name,
    bid_number,
    bid_value,
    is_no_trump,
)
from recordkit.rules.joffre.scoring import DealFacts
from recordkit.rules.joffre.state import side_of
from recordkit.rules.values import Table

FACTS_RULE = "joffre.sheet.facts"
FACT_NAMES = {
    "bid": "the bid",
    "bidder": "the bidder",
    "tricks": "each seat's tricks",
    "joffre": "who took the Joffre",
    "kaiser": "who took the Kaiser",
}
"""The facts a sheet needs for its scores to be worked out, in words."""


@dataclass
class SheetReader:
    """Reads a sheet's facts into `DealFacts`, noting each one no deal can have and each one missing."""

    table: Table
    result: JoffreResult
    played_out: bool
    problems: list[Violation] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)

    @property
    def options(self) -> JoffreOptions:
        """The record's options."""
        options: JoffreOptions = self.table.options
        return options

    @property
    def teams(self) -> bool:
        """Whether the sides are teams."""
        return self.options.mode == "teams"

    def bad(self, name: str, message: str, seat: int | None = None) -> None:
        """SHEET-BAD-FACT at `result.<name>`."""
        self.problems.append(bad(name, message, seat))

    def facts(self) -> DealFacts | None:
        """The facts, or None when one is impossible or one the scores need is missing."""
        result = self.result
        contract = self.bid()
        bidder = self.seat("bidder", "bid")
        tricks = self.tricks()
        joffre = self.seat("joffre", "took the Joffre")
        kaiser = self.seat("kaiser", "took the Kaiser")
        taken = self.seat("joffre_taken", "lost his Joffre")
        if contract == PASS:
            if not self.problems:
                self.nobody_bid()
            return None if self.problems else DealFacts(PASS, None, [0] * self.sides(), None, None, None)
        self.took_a_trick("joffre", joffre, "Joffre", tricks)
        self.took_a_trick("kaiser", kaiser, "Kaiser", tricks)
        self.capture(joffre, kaiser, taken)
        needed = {"bid": contract, "bidder": bidder, "tricks": tricks, "joffre": joffre, "kaiser": kaiser}
        self.missing = [
            name for name, value in needed.items() if value is None and getattr(result, name) is None
        ]
        if self.problems or self.missing:
            return None
        assert contract is not None and bidder is not None and tricks is not None
        return DealFacts(contract, bidder, tricks, joffre, kaiser, taken)

    def sides(self) -> int:
        """The number of sides."""
        return 2 if self.teams else self.table.players

    def bid(self) -> int | None:
        """joffre.bid.range, joffre.bid.no-trump, joffre.bid.opening: the bid, if written and possible."""
        written = self.result.bid
        if written is None:
            return None
        value = bid_value(written)
        if value is None:
            self.problems.append(not_a_bid(written))
            return None
        options = self.options
        if value == PASS:
            if options.opening_bid_forced:
                self.bad(
                    "bid",
                    "the sheet says everybody passed, but the player on the dealer's left must open "
                    "the bidding (option opening_bid_forced)",
                )
                return None
            return PASS
        number, top = bid_number(value), max_bid(cards_for(self.table.players).hand_size, options.bid_unit)
        unit = "points" if options.bid_unit == "points" else "tricks"
        if not options.min_bid <= number <= top:
            self.bad(
                "bid", f"the sheet says the bid was {number}: bids go from {options.min_bid} to {top} {unit}"
            )
            return None
        if is_no_trump(value) and not options.allow_no_trump:
            self.bad(
                "bid",
                f"the sheet says {written}, but no-trump bids are not played here (option allow_no_trump)",
            )
            return None
        return value

    def seat(self, name: str, what: str) -> int | None:
        """A seat the sheet names, if it is one of the table."""
        seat: int | None = getattr(self.result, name)
        if seat is None or seat < self.table.players:
            return seat
        self.bad(name, f"the sheet says seat {seat} {what}, but there are {self.table.players} players")
        return None

    def tricks(self) -> list[int] | None:
        """joffre.trick.count: each side's tricks, one number per seat, adding up to the deal's tricks."""
        written = self.result.tricks
        if written is None:
            return None
        n, total = self.table.players, cards_for(self.table.players).hand_size
        if len(written) != n:
            self.problems.append(wrong_count(written, n))
            return None
        for seat, taken in enumerate(written):
            if not 0 <= taken <= total:
                self.bad(
                    "tricks",
                    f"the sheet says seat {seat} took {tricks_words(taken)}; a deal has {total}",
                    seat,
                )
                return None
        if self.teams and (written[0] != written[2] or written[1] != written[3]):
            self.bad(
                "tricks",
                f"in team play both partners write their team's tricks; the sheet gives seats 0 and 2 "
                f"{written[0]} and {written[2]}, seats 1 and 3 {written[1]} and {written[3]}",
            )
            return None
        by_side = written[:2] if self.teams else list(written)
        if sum(by_side) > total or (self.played_out and sum(by_side) != total):
            sides = "the two teams'" if self.teams else "the"
            self.bad("tricks", f"{sides} tricks on the sheet add up to {sum(by_side)}; a deal has {total}")
            return None
        return by_side

    def took_a_trick(self, name: str, seat: int | None, card: str, tricks: list[int] | None) -> None:
        """Taking the Joffre or the Kaiser is taking the trick that holds it."""
        if seat is None or tricks is None or tricks[side_of(self.teams, seat)] > 0:
            return
        whom = "his team" if self.teams else "him"
        self.bad(name, f"the sheet says seat {seat} took the {card}, but gives {whom} no trick", seat)

    def capture(self, joffre: int | None, kaiser: int | None, taken: int | None) -> None:
        """joffre.score.capture: the Kaiser takes the Joffre in the trick it wins, from another seat."""
        if taken is None:
            return
        if self.options.kaiser_capture == "none":
            self.bad(
                "joffre_taken", "the Kaiser never takes the Joffre here (option kaiser_capture = none)", taken
            )
        elif joffre is not None and kaiser is not None and joffre != kaiser:
            self.bad(
                "joffre_taken",
                f"the Kaiser takes the Joffre in the trick that holds both, so one seat takes both; the sheet "
                f"says seat {joffre} took the Joffre and seat {kaiser} the Kaiser",
                taken,
            )
        elif joffre is not None and taken == joffre:
            self.bad(
                "joffre_taken",
                f"the sheet says the Kaiser took seat {taken}'s Joffre, and that seat {taken} took the trick",
                taken,
            )

    def nobody_bid(self) -> None:
        """joffre.bid.all-pass: when everybody passed, the cards are thrown in: no bidder, no tricks."""
        given = [
            name
            for name in ("bidder", "tricks", "joffre", "kaiser", "joffre_taken")
            if getattr(self.result, name) is not None
        ]
        if given:
            said = ", ".join(given)
            self.bad(
                given[0], f"the sheet says everybody passed, so the cards were thrown in; yet it gives {said}"
            )

    def missing_note(self) -> list[Violation]:
        """DEAL-NOT-CHECKED when the sheet leaves out a fact the scores need."""
        if not self.missing or self.problems:
            return []
        names = [FACT_NAMES[name] for name in self.missing]
        said = ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]
        return [
            Violation(
                NOT_CHECKED,
                PARTIAL_RULE,
                f"the sheet does not give {said}, so its scores could not be worked out from the facts "
                f"(only the running totals were checked)",
                severity=Severity.INFO,
            )
        ]


def trump_check(deal: JoffreDeal) -> list[Violation]:
    """joffre.play.trump: a trump written on a sheet agrees with its bid (none only after no trump)."""
    assert deal.result is not None
    value = bid_value(deal.result.bid) if deal.result.bid is not None else None
    if deal.trump is None or value is None or value == PASS or (deal.trump == "none") == is_no_trump(value):
        return []
    if is_no_trump(value):
        message = (
            f"the sheet says trump was {deal.trump}, but a {bid_name(value)} contract is played without trump"
        )
    else:
        message = f"the sheet says there was no trump, but only a no-trump bid is played without; the bid was {bid_name(value)}"
    return [Violation("SHEET-BAD-FACT", FACTS_RULE, message, path="trump")]


def bad(name: str, message: str, seat: int | None = None) -> Violation:
    """SHEET-BAD-FACT at `result.<name>`: a fact no deal can have."""
    return Violation("SHEET-BAD-FACT", FACTS_RULE, message, seat=seat, path=f"result.{name}")


def not_a_bid(written: str) -> Violation:
    """SHEET-BAD-FACT for a bid that is no call of Joffre."""
    return bad("bid", f"{written!r} is not a bid of Joffre: a bid is a number such as '5', or 'pass'")


def wrong_count(written: list[int], players: int) -> Violation:
    """SHEET-BAD-FACT for tricks that are not one number per seat."""
    return bad("tricks", f"the sheet gives {len(written)} numbers of tricks for {players} players")


def tricks_words(count: int) -> str:
    """`1 trick`, `3 tricks`."""
    return f"{count} trick" if count == 1 else f"{count} tricks"
