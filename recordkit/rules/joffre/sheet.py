"""Joffre's score sheet (spec/rules/joffre.md, "Partial records", `joffre.sheet*`): a deal that is
only its line on the sheet, scored from the facts written by the same scoring as a played deal;
and the facts a played deal's result writes, checked against its replay.

A sheet's facts are the bid and the bidder, each seat's tricks (in team play each partner writes
his team's), who took the Joffre's trick and who took the Kaiser's, and whose Joffre the Kaiser
took. Each is optional: a sheet that leaves out one the scores need is not scored (a note says so).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from recordkit.derive import NOT_CHECKED, PARTIAL_RULE
from recordkit.diagnostics import Severity, Violation
from recordkit.rules.base import Table
from recordkit.rules.joffre.auction import max_bid
from recordkit.rules.joffre.cards import cards_for
from recordkit.rules.joffre.deal import check_line, totals_before
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
from recordkit.rules.joffre.scoring import DealFacts, facts_of, seat_scores
from recordkit.rules.joffre.state import JoffreState, side_of

FACTS_RULE = "joffre.sheet.facts"
REPLAY_RULE = "joffre.sheet.replay"
FACT_NAMES = {
    "bid": "the bid",
    "bidder": "the bidder",
    "tricks": "each seat's tricks",
    "joffre": "who took the Joffre",
    "kaiser": "who took the Kaiser",
}
"""The facts a sheet needs for its scores to be worked out, in words."""


def is_sheet(deal: JoffreDeal) -> bool:
    """joffre.sheet: a deal with a result and no hands, calls or cards is a score sheet's line."""
    return deal.result is not None and not deal.auction and not deal.tricks and not any(deal.hands or [])


def sheet_scores(
    table: Table, deal: JoffreDeal, before: Sequence[int | float] | None
) -> tuple[list[int | float] | None, list[Violation]]:
    """joffre.sheet.facts: a sheet line's scores by the rules (`scoring.seat_scores`), from its
    facts; None when a fact is impossible or missing, or the deal was abandoned (not scored)."""
    assert deal.result is not None
    reader = _Reader(table, deal.result, played_out=deal.status != "abandoned")
    facts = reader.facts()
    problems = check_line(table, deal) + reader.problems + _trump(deal) + reader.missing_note()
    if facts is None or deal.status == "abandoned":
        return None, problems
    before = totals_before(deal, before)
    problems += cap_unknown(table.options, before, facts.bidder)
    return seat_scores(table.options, table.players, facts, before), problems


def sheet_of(table: Table, deal: JoffreDeal, state: JoffreState) -> JoffreDeal:
    """The deal as the score sheet writes it: dealer, status, every fact, scores and totals."""
    facts = facts_of(state)
    scores = list(deal.result.scores) if deal.result is not None else [0] * table.players
    result = JoffreResult(scores=scores, bid=bid_name(facts.contract))
    if facts.bidder is not None:
        result.bidder = facts.bidder
        result.tricks = [facts.tricks[state.side(seat)] for seat in range(table.players)]
        result.joffre, result.kaiser, result.joffre_taken = facts.joffre, facts.kaiser, facts.taken
    return JoffreDeal(dealer=deal.dealer, status=deal.status, result=result, totals=deal.totals)


def cap_unknown(
    options: JoffreOptions, before: Sequence[int | float] | None, bidder: int | None
) -> list[Violation]:
    """joffre.score.cap: the Kaiser cap needs the totals before the deal to know who is at 47."""
    if options.opponent_cap != "kaiser47" or before is not None or bidder is None:
        return []
    return [
        Violation(
            "JOFFRE-CAP-UNKNOWN",
            "joffre.score.cap",
            "with option opponent_cap = kaiser47 the score depends on the totals before the deal; "
            "write the running totals so that the cap can be checked (scored here without it)",
            severity=Severity.WARNING,
            path="totals",
        )
    ]


def replay_checks(state: JoffreState, result: JoffreResult) -> list[Violation]:
    """joffre.sheet.replay: every fact a played deal's result writes, against its replay."""
    played = facts_of(state)
    problems = _bid_against(state, result.bid, played)
    if result.bidder is not None and result.bidder != played.bidder:
        problems.append(
            _mismatch("bidder", f"the sheet says seat {result.bidder} bid; {_auction_words(played)}")
        )
    if result.tricks is not None:
        problems += _tricks_against(state, result.tricks, played)
    for name, seat, took, card in (
        ("joffre", result.joffre, played.joffre, "Joffre"),
        ("kaiser", result.kaiser, played.kaiser, "Kaiser"),
    ):
        if seat is not None and seat != took:
            problems.append(
                _mismatch(
                    name, f"the sheet says seat {seat} took the {card}; in the tricks seat {took} took it"
                )
            )
    if result.joffre_taken is not None and result.joffre_taken != played.taken:
        actual = (
            "in the tricks the Kaiser took nobody's Joffre"
            if played.taken is None
            else f"in the tricks it took seat {played.taken}'s"
        )
        said = f"the sheet says the Kaiser took seat {result.joffre_taken}'s Joffre"
        problems.append(_mismatch("joffre_taken", f"{said}; {actual}"))
    return problems


def _bid_against(state: JoffreState, written: str | None, played: DealFacts) -> list[Violation]:
    """The bid on the sheet against the contract of the auction (a no-trump mark counting for
    nothing where the auction does not count it either)."""
    if written is None:
        return []
    value = bid_value(written)
    if value is None:
        return [_not_a_bid(written)]
    if is_no_trump(value) and not state.table.options.allow_no_trump:
        value -= 1
    if value == played.contract:
        return []
    said = "everybody passed" if value == PASS else f"the bid was {bid_name(value)}"
    return [_mismatch("bid", f"the sheet says {said}; {_auction_words(played)}")]


def _tricks_against(state: JoffreState, written: list[int], played: DealFacts) -> list[Violation]:
    """The tricks the sheet gives each seat against the tricks it took (its team's in team play)."""
    n = state.players
    if len(written) != n:
        return [_wrong_count(written, n)]
    actual = [played.tricks[state.side(seat)] for seat in range(n)]
    wrong = [seat for seat in range(n) if written[seat] != actual[seat]]
    if not wrong:
        return []
    said = _seats_took([(seat, written[seat]) for seat in wrong])
    real = _seats_took([(seat, actual[seat]) for seat in wrong])
    whose = " (for his team)" if state.teams else ""
    return [_mismatch("tricks", f"the sheet says {said}{whose}; in the tricks {real}")]


@dataclass
class _Reader:
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
        self.problems.append(_bad(name, message, seat))

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
            self.problems.append(_not_a_bid(written))
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
            self.problems.append(_wrong_count(written, n))
            return None
        for seat, taken in enumerate(written):
            if not 0 <= taken <= total:
                self.bad(
                    "tricks", f"the sheet says seat {seat} took {_tricks(taken)}; a deal has {total}", seat
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


def _trump(deal: JoffreDeal) -> list[Violation]:
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


def _bad(name: str, message: str, seat: int | None = None) -> Violation:
    """SHEET-BAD-FACT at `result.<name>`: a fact no deal can have."""
    return Violation("SHEET-BAD-FACT", FACTS_RULE, message, seat=seat, path=f"result.{name}")


def _not_a_bid(written: str) -> Violation:
    """SHEET-BAD-FACT for a bid that is no call of Joffre."""
    return _bad("bid", f"{written!r} is not a bid of Joffre: a bid is a number such as '5', or 'pass'")


def _wrong_count(written: list[int], players: int) -> Violation:
    """SHEET-BAD-FACT for tricks that are not one number per seat."""
    return _bad("tricks", f"the sheet gives {len(written)} numbers of tricks for {players} players")


def _mismatch(name: str, message: str) -> Violation:
    """SHEET-MISMATCH at `result.<name>`."""
    return Violation("SHEET-MISMATCH", REPLAY_RULE, message, path=f"result.{name}")


def _bid_words(contract: int) -> str:
    """A contract as the sheet states it."""
    return "everybody passed" if contract == PASS else f"the bid was {bid_name(contract)}"


def _auction_words(played: DealFacts) -> str:
    """What the auction gives, in words."""
    if played.bidder is None:
        return "in the auction everybody passed"
    return f"in the auction seat {played.bidder} took the contract with {bid_name(played.contract)}"


def _seats_took(counts: list[tuple[int, int]]) -> str:
    """`seat 0 took 2 tricks, seat 1 3 and seat 3 1`."""
    (first, taken), *rest = counts
    words = [f"seat {first} took {_tricks(taken)}", *(f"seat {seat} {taken}" for seat, taken in rest)]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _tricks(count: int) -> str:
    """`1 trick`, `3 tricks`."""
    return f"{count} trick" if count == 1 else f"{count} tricks"
