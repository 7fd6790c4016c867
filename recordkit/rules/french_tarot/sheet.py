"""French Tarot score sheets: a deal written as its line on a club's sheet, and the facts that a
played deal's result writes beside its scores (spec/rules/french-tarot.md, "Score sheets").

A club's sheet writes, per deal, the contract, the taker (and, at five, the called card and the
partner), the bouts and points the attack took, the poignées, the Petit au bout, the slam and the
misères, then each seat's score. A sheet's line is scored from those facts by the same functions
that score a played deal (`scoring.contract_deal_scores`, `scoring.goulash_deal_scores`); on a deal
with cards, each fact written is checked against the replay.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from recordkit.diagnostics import Severity, Violation
from recordkit.rules.base import NOT_CHECKED, PARTIAL_RULE
from recordkit.rules.french_tarot.cards import DECK
from recordkit.rules.french_tarot.contract import is_honour
from recordkit.rules.french_tarot.facts import SLAM_OUTCOMES, ContractFacts
from recordkit.rules.french_tarot.record import BIDS, SheetPoignee, TarotDeal, TarotResult
from recordkit.rules.french_tarot.scoring import (
    POIGNEE_LEVELS,
    as_points,
    contract_count,
    contract_deal_scores,
    contract_facts,
    goulash_deal_scores,
    goulash_taken,
    petit_au_bout_seat,
    points_counted,
    points_match,
)
from recordkit.rules.french_tarot.state import Phase, TarotState
from recordkit.rules.values import Table

FACT_RULE = "tarot.sheet.facts"
MATCH_RULE = "tarot.sheet.match"
FACTS = (
    "contract",
    "taker",
    "called",
    "partner",
    "bouts",
    "points",
    "poignees",
    "petit_au_bout",
    "slam",
    "misere",
    "points_taken",
)
"""The facts of a score sheet's line, in the order the sheet writes them."""
CONTRACT_FACTS = ("taker", "called", "partner", "bouts", "points", "poignees", "petit_au_bout", "slam")
"""The facts only a deal with a taker has."""
SIDES = ("attack", "defence")


def is_sheet(deal: TarotDeal) -> bool:
    """A score sheet's line: no hands, dog, calls, discard, announcements or cards, and a result
    (or a status: an annulled or abandoned deal may be only its line)."""
    return (
        deal.hands is None
        and deal.dog is None
        and not deal.auction
        and deal.call is None
        and deal.discard is None
        and not deal.announcements
        and not deal.tricks
        and (deal.result is not None or deal.status != "played")
    )


def sheet_scores(table: Table, deal: TarotDeal) -> tuple[list[int | float] | None, list[Violation]]:
    """A sheet line's scores by the rules (tarot.sheet), from its facts, with every impossible
    fact; None when an impossible or missing fact leaves them open (the scores are then only
    checked to add up to zero)."""
    n = table.players
    bad = bad_facts(table, deal)
    if deal.status == "annulled":
        return [0] * n, bad
    result = deal.result
    if deal.status == "abandoned" or result is None:
        return None, bad
    if bad:
        return None, bad
    if result.contract == "pass":
        if table.options.all_pass != "goulash":
            return [0] * n, []
        if result.points_taken is None:
            return None, open_scores(table, result, ["the points each seat took"])
        taken = [round(2 * points) for points in result.points_taken]
        return goulash_deal_scores(taken, result.misere or []), []
    facts = sheet_facts(table, result)
    if isinstance(facts, list):
        return None, open_scores(table, result, facts)
    return list(contract_deal_scores(facts, table.options.defence_slam_bonus)), []


def sheet_facts(table: Table, result: TarotResult) -> ContractFacts | list[str]:
    """A sheet line's contract as the facts scoring needs, or the facts it lacks for them."""
    n = table.players
    needed = {
        "the contract": result.contract,
        "the taker": result.taker,
        "the bouts": result.bouts,
        "the points": result.points,
    }
    if n == 5:
        needed["the partner"] = result.partner
    missing = [name for name, value in needed.items() if value is None]
    if missing:
        return missing
    assert result.contract is not None and result.taker is not None
    assert result.bouts is not None and result.points is not None
    taker = result.taker
    partner = result.partner if result.partner != taker else None
    attack = {taker, partner}
    petit = result.petit_au_bout
    side = petit if isinstance(petit, str) or petit is None else SIDES[petit not in attack]
    return ContractFacts(
        players=n,
        contract=BIDS.index(result.contract),
        taker=taker,
        partner=partner,
        half_points=round(2 * result.points),
        bouts=result.bouts,
        petit_au_bout={None: 0, "attack": 1, "defence": -1}[side],
        poignees=tuple(p.level for p in result.poignees or []),
        slam=result.slam,
        miseres=tuple(result.misere or []),
    )


def open_scores(table: Table, result: TarotResult, missing: list[str]) -> list[Violation]:
    """A sheet line whose facts do not settle its scores: the scores must still add up to zero
    (tarot.score.split), and a note says what the sheet lacks."""
    scores = result.scores
    problems: list[Violation] = []
    if len(scores) != table.players or sum(scores) != 0:
        problems.append(
            Violation(
                "SCORE-MISMATCH",
                "tarot.score.split",
                f"the sheet's {len(scores)} scores add up to {sum(scores):+g}; a deal's "
                f"{table.players} scores always add up to 0",
                path="result.scores",
            )
        )
    said = ", ".join(missing)
    problems.append(
        Violation(
            NOT_CHECKED,
            PARTIAL_RULE,
            f"the sheet does not give {said}, so its scores are checked only for adding up to zero",
            severity=Severity.INFO,
        )
    )
    return problems


# --- facts no deal can have ---------------------------------------------------------------------


def bad_facts(table: Table, deal: TarotDeal) -> list[Violation]:
    """SHEET-BAD-FACT (tarot.sheet.facts) for every fact of the result that no deal of this
    table can have: a value out of range, or a fact the rest of the line rules out."""
    result = deal.result
    if result is None:
        return []
    problems: list[Violation] = []
    for name in FACTS:
        value = getattr(result, name)
        if value is None:
            continue
        why = _impossible(table, deal, result, name, value)
        if why is not None:
            problems.append(Violation("SHEET-BAD-FACT", FACT_RULE, why, path=f"result.{name}"))
    return problems


def _impossible(table: Table, deal: TarotDeal, result: TarotResult, name: str, value: Any) -> str | None:
    """Why one fact of the sheet cannot be, or None."""
    if deal.status == "annulled":
        return f"the deal is annulled and dealt again, so the sheet has no {name.replace('_', ' ')} for it"
    goulash = table.options.all_pass == "goulash"
    if result.contract == "pass" and name in CONTRACT_FACTS:
        what = "no Petit au bout, poignée or slam in a goulash" if goulash else "no contract"
        return (
            f"nobody took (contract pass), so there is {what}: the sheet writes no {name.replace('_', ' ')}"
        )
    if name == "points_taken" and not (goulash and result.contract in (None, "pass")):
        return "the points each seat took are a goulash's (option all_pass = goulash, contract pass)"
    if name == "misere" and result.contract == "pass" and not goulash:
        return "nobody took and the cards are dealt again, so nobody declared a misère"
    checks: dict[str, Callable[[Table, TarotResult, Any], str | None]] = {
        "contract": _contract,
        "taker": _seat_fact,
        "called": _called,
        "partner": _partner,
        "bouts": _bouts,
        "points": _points,
        "poignees": _poignees,
        "petit_au_bout": _petit,
        "slam": _slam,
        "misere": _misere,
        "points_taken": _points_taken,
    }
    return checks[name](table, result, value)


def _contract(table: Table, result: TarotResult, value: str) -> str | None:
    """The contract is a call of the auction."""
    if value in BIDS:
        return None
    return f"{value!r} is not a contract of French Tarot; the sheet writes {', '.join(BIDS)}"


def _seat_fact(table: Table, result: TarotResult, value: int) -> str | None:
    """A seat at the table."""
    return None if 0 <= value < table.players else f"seat {value} is not at a table of {table.players}"


def _called(table: Table, result: TarotResult, value: str) -> str | None:
    """Five players call a King (or a lower honour); nobody else calls."""
    if table.players != 5:
        return f"only five players call a card; this table has {table.players}"
    card = DECK.index.get(value)
    if card is None or not is_honour(card):
        return f"the taker calls a King, Queen, Knight or Jack, not {value}"
    return None


def _partner(table: Table, result: TarotResult, value: int) -> str | None:
    """Five players: the partner's seat (the taker's own when alone)."""
    if table.players != 5:
        return f"only five players have a called partner; this table has {table.players}"
    return _seat_fact(table, result, value)


def _bouts(table: Table, result: TarotResult, value: int) -> str | None:
    """There are three bouts."""
    return None if 0 <= value <= 3 else f"{value} bouts: there are only three (T1, T21, the Excuse)"


def _points(table: Table, result: TarotResult, value: int | float) -> str | None:
    """0 to 91 card points in half points, within what the bouts allow; whole at four players,
    unless an Excuse played to the last trick may change sides alone (tarot.score.rounding)."""
    if not 0 <= value <= 91 or value * 2 != int(value * 2):
        return f"{value:g} card points: the attack takes 0 to 91 points, in half points"
    whole = table.players == 4 and table.options.excuse_last_trick == "to_trick_winner"
    if whole and value != int(value):
        return f"{value:g} card points: at four players the count is always whole"
    bouts = result.bouts
    if bouts is None or not 0 <= bouts <= 3:
        return None
    least = 4.5 * bouts - 0.5 if bouts else 0.0
    most = 91 - (4.5 * (3 - bouts) - 0.5) if bouts < 3 else 91.0
    if least <= value <= most:
        return None
    bound = f"at least {least:g}" if value < least else f"at most {most:g}"
    return (
        f"{value:g} card points with {bouts} bout(s): each bout is worth 4.5 (4 for an Excuse exchanged), "
        f"so the attack holds {bound}"
    )


def _poignees(table: Table, result: TarotResult, value: list[SheetPoignee]) -> str | None:
    """Each poignée by a seat at the table, of a level, one per seat."""
    for poignee in value:
        if not 0 <= poignee.seat < table.players:
            return f"a poignée by seat {poignee.seat}, who is not at a table of {table.players}"
        if poignee.level not in POIGNEE_LEVELS:
            return f"a poignée is {', '.join(POIGNEE_LEVELS)}, not {poignee.level!r}"
    twice = [seat for seat, count in Counter(p.seat for p in value).items() if count > 1]
    if twice:
        return f"seat {twice[0]} shows two poignées; a player shows one at most"
    return None


def _petit(table: Table, result: TarotResult, value: int | str) -> str | None:
    """The Petit au bout goes to a side, or to the seat that won it."""
    if isinstance(value, str):
        return (
            None
            if value in SIDES
            else f"the Petit au bout goes to attack or defence (or a seat), not {value!r}"
        )
    return _seat_fact(table, result, value)


def _slam(table: Table, result: TarotResult, value: str) -> str | None:
    """The slam is one of the outcomes the sheet writes."""
    return None if value in SLAM_OUTCOMES else f"the slam is {', '.join(SLAM_OUTCOMES)}, not {value!r}"


def _misere(table: Table, result: TarotResult, value: list[int]) -> str | None:
    """Misères are played by option; a seat declares each kind once."""
    if not table.options.misere:
        return 'misères are not played under these options (set "misere": true)'
    for seat in value:
        if not 0 <= seat < table.players:
            return f"a misère by seat {seat}, who is not at a table of {table.players}"
    thrice = [seat for seat, count in Counter(value).items() if count > 2]
    if thrice:
        return f"seat {thrice[0]} declares {Counter(value)[thrice[0]]} misères; there are two kinds"
    return None


def _points_taken(table: Table, result: TarotResult, value: list[int | float]) -> str | None:
    """A goulash: one count per seat, in half points, no more than the deck's 91 between them."""
    if len(value) != table.players:
        return f"the sheet gives {len(value)} counts of points taken for {table.players} players"
    if any(not 0 <= p <= 91 or p * 2 != int(p * 2) for p in value):
        return "each seat takes 0 to 91 card points, in half points"
    if sum(value) > 91:
        return f"the seats took {sum(value):g} card points between them; the deck has 91"
    return None


# --- a played deal's sheet ----------------------------------------------------------------------


def replay_facts(state: TarotState) -> dict[str, Any]:
    """A replayed deal's facts as its score sheet writes them (only those it has)."""
    if state.status == "annulled":
        return {}
    miseres = sorted(seat for seat, _kind in state.miseres)
    facts: dict[str, Any] = {}
    if state.taker is None:
        facts["contract"] = "pass"
        if state.goulash and state.phase == Phase.DONE:
            facts["points_taken"] = [as_points(half) for half in goulash_taken(state)]
        if miseres:
            facts["misere"] = miseres
        return facts
    count = contract_facts(state)
    facts["contract"], facts["taker"] = BIDS[state.contract], state.taker
    if state.players == 5 and state.called is not None:
        facts["called"] = DECK.codes[state.called]
        facts["partner"] = state.taker if state.partner is None else state.partner
    facts["bouts"] = count.bouts
    facts["points"] = as_points(count.half_points)
    if state.poignees:
        facts["poignees"] = [SheetPoignee(seat=s, level=p.level) for s, p in sorted(state.poignees.items())]
    if count.petit_au_bout:
        facts["petit_au_bout"] = SIDES[count.petit_au_bout < 0]
    if count.slam is not None:
        facts["slam"] = count.slam
    if miseres:
        facts["misere"] = miseres
    return facts


def sheet_of(table: Table, deal: TarotDeal, state: TarotState) -> TarotDeal:
    """The deal as its score sheet writes it: dealer, status, the result with every fact the
    replay gives, totals; no cards and no calls."""
    result = None
    if deal.result is not None:
        facts = replay_facts(state) if state.phase == Phase.DONE and state.scorable else {}
        result = TarotResult(scores=list(deal.result.scores), **facts)
    return TarotDeal(
        dealer=deal.dealer,
        status=deal.status,
        result=result,
        totals=deal.totals,
        comment=deal.comment,
        time=deal.time,
    )


def result_checks(state: TarotState, deal: TarotDeal) -> list[Violation]:
    """Every fact a scored deal's result writes, against its replay: SHEET-BAD-FACT for one no
    deal can have, SHEET-MISMATCH (tarot.sheet.match) for one the replay does not give, and
    SCORE-POINTS-MISMATCH for the card points, impossible or not (tarot.score.points)."""
    result = deal.result
    if result is None:
        return []
    problems = [p for p in bad_facts(state.table, deal) if p.path != "result.points"]
    bad = {problem.path for problem in problems}  # the card points: the count decides (below)
    actual = replay_facts(state)
    for name in FACTS:
        written = getattr(result, name)
        if written is None or f"result.{name}" in bad:
            continue
        if name == "points":
            problems += _points_check(state, written)
        elif not _same(state, name, written, actual.get(name)):
            problems.append(_mismatch(state, name, written, actual.get(name)))
    return problems


def _same(state: TarotState, name: str, written: Any, actual: Any) -> bool:
    """Whether a fact written on the sheet is the replay's."""
    if name == "poignees":
        return sorted((p.seat, p.level) for p in written) == sorted((p.seat, p.level) for p in actual or [])
    if name == "misere":
        return sorted(written) == (actual or [])
    if name == "petit_au_bout" and not isinstance(written, str):
        return state.taker is not None and written == petit_au_bout_seat(state)
    return bool(written == actual)


def _mismatch(state: TarotState, name: str, written: Any, actual: Any) -> Violation:
    """SHEET-MISMATCH: "the sheet says 3 bouts; the tricks give 2"."""
    if name == "petit_au_bout" and not isinstance(written, str) and state.taker is not None:
        seat = petit_au_bout_seat(state)
        actual = None if seat is None else f"seat {seat}"
    source = {
        "contract": "the auction gives",
        "taker": "the auction gives",
        "called": "the record calls",
        "partner": "the hands give",
        "poignees": "the announcements give",
        "misere": "the announcements give",
    }.get(name, "the tricks give")
    replayed = _value_words(name, actual)
    return Violation(
        "SHEET-MISMATCH",
        MATCH_RULE,
        f"the sheet says {_fact_words(name, written)}; {source} {replayed}",
        path=f"result.{name}",
        expected=replayed,
    )


def _fact_words(name: str, value: Any) -> str:
    """A fact as the sheet states it, in words: "3 bouts", "seat 2 took"."""
    words = {
        "taker": f"seat {value} took",
        "partner": f"seat {value} was the partner",
        "called": f"{value} was called",
        "bouts": f"{value} bout{'s' * (value != 1)}",
        "points_taken": "the seats took " + _value_words(name, value),
        "contract": f"the contract was {value}",
    }
    if name in words:
        return words[name]
    return _value_words(name, value)


def _value_words(name: str, value: Any) -> str:
    """A fact's value in words: "2", "seat 1", "no poignée"."""
    if value is None or value == []:
        return {
            "taker": "nobody",
            "partner": "none",
            "petit_au_bout": "no Petit au bout",
            "slam": "no slam",
            "poignees": "no poignée",
            "misere": "no misère",
        }.get(name, "none")
    if name in ("taker", "partner"):
        return f"seat {value}"
    if name == "poignees":
        return "poignées " + ", ".join(f"seat {p.seat} {p.level}" for p in value)
    if name == "petit_au_bout":
        return f"the Petit au bout to {value if isinstance(value, str) else f'seat {value}'}"
    if name == "slam":
        return f"slam {value.replace('_', ' ')}"
    if name == "misere":
        return "misères by seat " + ", ".join(map(str, sorted(value)))
    if name == "points_taken":
        return " ".join(f"{p:g}" for p in value)
    return str(value)


def _points_check(state: TarotState, points: int | float) -> list[Violation]:
    """tarot.score.points: card points written on the sheet match the count (either rounding)."""
    if not points_counted(state) or points_match(state, points):
        return []
    count = as_points(contract_count(state).half_points)
    return [
        Violation(
            "SCORE-POINTS-MISMATCH",
            "tarot.score.points",
            f"the sheet says the taker's side made {points} card points; the tricks give {count}",
            path="result.points",
            expected=str(count),
        )
    ]
