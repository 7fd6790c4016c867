"""Joffre's score sheet (spec/rules/joffre.md, "Partial records", `joffre.sheet*`): a deal that is
only its line on the sheet, scored from the facts written by the same scoring as a played deal;
and the facts a played deal's result writes, checked against its replay.

The facts themselves are read by `sheet_facts`.
"""

from __future__ import annotations

from collections.abc import Sequence

from recordkit.diagnostics import Severity, Violation
from recordkit.rules.joffre.deal import check_line, totals_before
from recordkit.rules.joffre.options import JoffreOptions
from recordkit.rules.joffre.record import (
    PASS,
    JoffreDeal,
    JoffreResult,
    bid_name,
    bid_value,
    is_no_trump,
)
from recordkit.rules.joffre.scoring import DealFacts, facts_of, seat_scores
from recordkit.rules.joffre.sheet_facts import SheetReader, not_a_bid, tricks_words, trump_check, wrong_count
from recordkit.rules.joffre.state import JoffreState
from recordkit.rules.values import Table

REPLAY_RULE = "joffre.sheet.replay"


def is_sheet(deal: JoffreDeal) -> bool:
    """joffre.sheet: a deal with a result and no hands, calls or cards is a score sheet's line."""
    return deal.result is not None and not deal.auction and not deal.tricks and not any(deal.hands or [])


def sheet_scores(
    table: Table, deal: JoffreDeal, before: Sequence[int | float] | None
) -> tuple[list[int | float] | None, list[Violation]]:
    """joffre.sheet.facts: a sheet line's scores by the rules (`scoring.seat_scores`), from its
    facts; None when a fact is impossible or missing, or the deal was abandoned (not scored)."""
    assert deal.result is not None
    reader = SheetReader(table, deal.result, played_out=deal.status != "abandoned")
    facts = reader.facts()
    problems = check_line(table, deal) + reader.problems + trump_check(deal) + reader.missing_note()
    if facts is None or deal.status == "abandoned":
        return None, problems
    before = totals_before(deal, before)
    problems += cap_unknown(table.options, before, facts.bidder)
    return seat_scores(table.options, table.players, facts, before), problems


def sheet_of(table: Table, deal: JoffreDeal, state: JoffreState) -> JoffreDeal:
    """The deal as the score sheet writes it: dealer, status, every fact, scores and totals."""
    facts = facts_of(state)
    scores: list[int | float] = list(deal.result.scores) if deal.result is not None else [0] * table.players
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
        return [not_a_bid(written)]
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
        return [wrong_count(written, n)]
    actual = [played.tricks[state.side(seat)] for seat in range(n)]
    wrong = [seat for seat in range(n) if written[seat] != actual[seat]]
    if not wrong:
        return []
    said = _seats_took([(seat, written[seat]) for seat in wrong])
    real = _seats_took([(seat, actual[seat]) for seat in wrong])
    whose = " (for his team)" if state.teams else ""
    return [_mismatch("tricks", f"the sheet says {said}{whose}; in the tricks {real}")]


def _mismatch(name: str, message: str) -> Violation:
    """SHEET-MISMATCH at `result.<name>`."""
    return Violation("SHEET-MISMATCH", REPLAY_RULE, message, path=f"result.{name}")


def _auction_words(played: DealFacts) -> str:
    """What the auction gives, in words."""
    if played.bidder is None:
        return "in the auction everybody passed"
    return f"in the auction seat {played.bidder} took the contract with {bid_name(played.contract)}"


def _seats_took(counts: list[tuple[int, int]]) -> str:
    """`seat 0 took 2 tricks, seat 1 3 and seat 3 1`."""
    (first, taken), *rest = counts
    words = [f"seat {first} took {tricks_words(taken)}", *(f"seat {seat} {taken}" for seat, taken in rest)]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
