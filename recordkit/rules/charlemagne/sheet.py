"""Charlemagne score sheets: a deal written as its line on a club's sheet, and the facts a played
deal's result writes next to its scores (spec/rules/charlemagne.md, §8 "Partial records").

A sheet line holds the contract, the seat that bid it and the tricks the bidding side won; the
scores follow from them by the same function that scores a played deal (`scoring.scores_of`).
"""

from __future__ import annotations

from collections.abc import Sequence

from recordkit.diagnostics import Severity, Violation
from recordkit.rules.charlemagne.bids import FORCED_LEVEL, INDEX, LADDERS, PASS, Bid
from recordkit.rules.charlemagne.cards import PLAYERS, TRICKS
from recordkit.rules.charlemagne.record import CharlemagneDeal, CharlemagneResult
from recordkit.rules.charlemagne.scoring import scores_of, side_tricks
from recordkit.rules.charlemagne.state import CharlemagneState, Phase
from recordkit.rules.values import Table

FACTS_RULE = "charlemagne.sheet.facts"
MATCH_RULE = "charlemagne.sheet.match"
NOTHING_PLAYED = (
    "hands",
    "kitty",
    "auction",
    "partner_card",
    "discard",
    "trump",
    "defence",
    "defender_card",
    "defender_discard",
    "tricks",
    "knocks",
    "claim",
)
"""The fields of a deal that a score sheet does not have: the cards and the calls."""


def is_sheet(deal: CharlemagneDeal) -> bool:
    """charlemagne.sheet: a deal with a result and neither cards nor calls (an annulled deal is
    reported by the replay, whatever it holds)."""
    if deal.result is None or deal.status == "annulled":
        return False
    return not any(getattr(deal, name) for name in NOTHING_PLAYED if name != "hands") and not any(
        hand is not None for hand in deal.hands or []
    )


def sheet_scores(
    table: Table, deal: CharlemagneDeal, before: Sequence[int | float] | None = None
) -> tuple[list[int | float] | None, list[Violation]]:
    """charlemagne.sheet: a sheet line's scores from its contract, bidder and tricks, with every fact
    that no deal can have; None when the facts do not settle the scores (or the deal was abandoned)."""
    result = deal.result
    assert result is not None
    contract, problems = bad_facts(table, result)
    if problems or deal.status == "abandoned":
        return None, problems
    if contract is None or (contract is not PASS and (result.bidder is None or result.tricks is None)):
        return None, [_not_scored(result)]
    tricks = result.tricks if result.tricks is not None else 0
    return list(scores_of(table, contract, result.bidder if contract is not PASS else None, tricks)), []


def _not_scored(result: CharlemagneResult) -> Violation:
    """DEAL-NOT-CHECKED: the sheet leaves out a fact its scores depend on."""
    missing = [
        name
        for name, value in (
            ("the contract", result.contract),
            ("the bidder", result.bidder),
            ("the bidding side's tricks", result.tricks),
        )
        if value is None
    ]
    said = " and ".join([", ".join(missing[:-1]), missing[-1]] if len(missing) > 1 else missing)
    return Violation(
        "DEAL-NOT-CHECKED",
        "format.partial",
        f"the sheet does not write {said}, so its scores are not checked",
        severity=Severity.INFO,
        path="result",
    )


def bad_facts(table: Table, result: CharlemagneResult) -> tuple[Bid | None, list[Violation]]:
    """charlemagne.sheet.facts: the contract as a bid of the variant's ladder (None when not written or
    not a contract), and SHEET-BAD-FACT for each fact no deal can have."""
    variant: str = table.options.variant
    problems: list[Violation] = []
    contract: Bid | None = None
    if result.contract is not None:
        index = INDEX[variant].get(result.contract)
        if index is None:
            problems.append(_bad("contract", f"{result.contract!r} is not a contract of {_game(variant)}"))
        else:
            contract = LADDERS[variant][index]
            why = _never_played(table, contract)
            if why:
                problems.append(_bad("contract", why))
                contract = None
    if result.bidder is not None and result.bidder >= PLAYERS:
        problems.append(_bad("bidder", f"seat {result.bidder} is not a seat: the four players sit 0 to 3"))
    if result.tricks is not None and result.tricks > TRICKS:
        problems.append(
            _bad("tricks", f"the sheet gives the bidding side {result.tricks} tricks; a deal has {TRICKS}")
        )
    if contract is PASS:
        for name in ("bidder", "tricks"):
            if getattr(result, name) is not None:
                what = "bidder" if name == "bidder" else "bidding side to take tricks"
                problems.append(_bad(name, f"the sheet says everybody passed, so there is no {what}"))
    return contract, problems


def _never_played(table: Table, contract: Bid) -> str:
    """Why a call of the ladder cannot be a deal's contract: a pass when the dealer is forced, a Maine
    bid of One to Four (the forced dealer always bids over them); "" when it can."""
    variant: str = table.options.variant
    forced = variant == "maine" or table.options.all_pass == "dealer_forced_5"
    if contract is PASS and forced:
        where = "in the Maine game" if variant == "maine" else "under the option all_pass = dealer_forced_5"
        return f"a deal cannot be passed out {where}: when nobody bids Five, the dealer must"
    if contract is not PASS and contract.level < FORCED_LEVEL[variant]:
        return f"{contract.title} is never the contract: when nobody bids Five, the dealer must bid at least Five"
    return ""


def _game(variant: str) -> str:
    """The variant's name in a sentence."""
    return "the Maine game" if variant == "maine" else "standard Charlemagne"


def _bad(name: str, message: str) -> Violation:
    """SHEET-BAD-FACT at the sheet's field."""
    return Violation("SHEET-BAD-FACT", FACTS_RULE, message, path=f"result.{name}")


def sheet_of(table: Table, deal: CharlemagneDeal, state: CharlemagneState) -> CharlemagneDeal:
    """The deal as a club's score sheet writes it: the dealer, the status, the contract, the bidder,
    the bidding side's tricks and the scores, and the totals; no cards and no calls."""
    scores: list[int | float] = deal.result.scores if deal.result is not None else [0] * PLAYERS
    bid = state.bidder is not None
    result = CharlemagneResult(
        scores=scores,
        contract=state.contract.name if bid else PASS.name,
        bidder=state.bidder,
        tricks=side_tricks(state) if bid else None,
    )
    return CharlemagneDeal(dealer=deal.dealer, status=deal.status, result=result, totals=deal.totals)


def result_checks(state: CharlemagneState, deal: CharlemagneDeal) -> list[Violation]:
    """charlemagne.sheet.match and charlemagne.score.tricks: each fact the result of a played deal
    writes, against the replay; and the facts no deal can have."""
    result = deal.result
    if result is None or state.phase != Phase.DONE:
        return []
    contract, problems = bad_facts(state.table, result)
    played = state.contract if state.bidder is not None else PASS
    if contract is not None and contract is not played:
        gives = "everybody passed" if played is PASS else f"the auction gives {played.title}"
        says = "everybody passed" if contract is PASS else f"the contract was {contract.title}"
        problems.append(_mismatch("contract", f"the sheet says {says}; {gives}", played.name))
    if result.bidder is not None and result.bidder < PLAYERS and result.bidder != state.bidder:
        gives = (
            "nobody bid" if state.bidder is None else f"the auction gives the contract to seat {state.bidder}"
        )
        says = f"the sheet says seat {result.bidder} bid the contract"
        problems.append(
            _mismatch(
                "bidder", f"{says}; {gives}", "nobody" if state.bidder is None else f"seat {state.bidder}"
            )
        )
    if result.tricks is not None and result.tricks <= TRICKS and state.bidder is not None:
        tricks = side_tricks(state)
        if result.tricks != tricks:
            problems.append(
                Violation(
                    "CHARLEMAGNE-TRICKS-MISMATCH",
                    "charlemagne.score.tricks",
                    f"the sheet says the bidding side took {result.tricks} tricks; the play gives {tricks}",
                    path="result.tricks",
                    expected=str(tricks),
                )
            )
    return problems


def _mismatch(name: str, message: str, expected: str) -> Violation:
    """SHEET-MISMATCH at the sheet's field: what it says, and what the calls and cards give."""
    return Violation("SHEET-MISMATCH", MATCH_RULE, message, path=f"result.{name}", expected=expected)
