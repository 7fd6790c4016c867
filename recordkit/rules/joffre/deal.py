"""Reading a Joffre deal: card codes into ids, the deal's integrity and its sizes (`joffre.deck*`,
`joffre.deal.*`, `joffre.bid.calls`, `joffre.trick.size`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from recordkit.diagnostics import Violation
from recordkit.model import trick_codes
from recordkit.rules.base import dealt_hands
from recordkit.rules.joffre.cards import FULL_DECK, cards_for
from recordkit.rules.joffre.record import JoffreDeal, bid_value
from recordkit.rules.values import Action, Table
from recordkit.rules.violations import at, deck_integrity, size_check, unknown_card


def unknown(table: Table, code: str, path: str, where: str, **place: Any) -> Violation:
    """CARD-UNKNOWN for a code not in this game's deck; E0 and R0 at three players say why."""
    if table.players == 3 and code in FULL_DECK.index:
        return Violation(
            "CARD-UNKNOWN",
            "joffre.deck.three",
            f"{code} ({where}) is not played at three players: the two unnamed cards E0 and R0 are "
            f"left out of the deck",
            path=path,
            **place,
        )
    return unknown_card(table.deck, code, path, where, **place)


def hand_ids(table: Table, text: str, path: str, what: str) -> tuple[list[int], list[Violation]]:
    """Ids of a hand; every unknown code is reported with its place."""
    ids: list[int] = []
    problems: list[Violation] = []
    for position, code in enumerate(text.split(), start=1):
        found = table.deck.index.get(code)
        if found is None:
            problems.append(unknown(table, code, path, f"card {position} of {what}"))
        else:
            ids.append(found)
    return ids, problems


def compile_deal(table: Table, deal: JoffreDeal) -> tuple[list[Action], list[Violation]]:
    """The deal's calls and cards in record order as actions (card ids, compiled call values)."""
    problems: list[Violation] = []
    actions: list[Action] = []
    for index, hand in enumerate(dealt_hands(deal)):
        problems += hand_ids(table, hand, f"hands[{index}]", f"seat {index}'s hand")[1]
    for index, call in enumerate(deal.auction):
        path = f"auction[{index}]"
        value = bid_value(call.call)
        if value is None:
            problems.append(
                Violation(
                    "RECORD-UNKNOWN-CALL",
                    "joffre.bid.calls",
                    f"{call.call!r} is not a call of Joffre; a call is 'pass', a number such as '5', "
                    f"or (with no-trump bids allowed) '5 no trump'",
                    path=path,
                )
            )
            continue
        actions.append(Action("bid", value, call.seat, path, note=call))
    for number, trick in enumerate(deal.tricks, start=1):
        actions += _trick(table, deal, number, trick_codes(trick), problems)
    return actions, problems


def _trick(
    table: Table, deal: JoffreDeal, number: int, codes: list[str], problems: list[Violation]
) -> list[Action]:
    """The play actions of one trick; its size and unknown codes are added to `problems`."""
    path = f"tricks[{number - 1}]"
    partial_allowed = deal.status == "abandoned" and number == len(deal.tricks)
    if len(codes) != table.players and not (partial_allowed and len(codes) < table.players):
        problems.append(
            Violation(
                "PLAY-TRICK-SIZE",
                "joffre.trick.size",
                f"trick {number} has {len(codes)} cards; every trick has one card from each of the "
                f"{table.players} players",
                path=path,
                trick=number,
            )
        )
    actions = []
    for position, code in enumerate(codes, start=1):
        found = table.deck.index.get(code)
        if found is None:
            where = f"card {position} of trick {number}"
            problems.append(unknown(table, code, path, where, trick=number, position=position))
            continue
        actions.append(Action("play", found, None, path, number, position))
    return actions


def check_deal(table: Table, deal: JoffreDeal, hands: list[list[int]]) -> list[Violation]:
    """joffre.deal.sizes, joffre.deck, joffre.players and joffre.deal.status: the deal as dealt."""
    n = table.players
    size = cards_for(n).hand_size
    problems: list[Violation] = []
    if len(dealt_hands(deal)) != n:
        problems.append(
            Violation(
                "DEAL-HAND-COUNT",
                "joffre.deal.sizes",
                f"the deal gives {len(dealt_hands(deal))} hands for {n} players",
                expected=f"{n} hands",
                path="hands",
            )
        )
    for seat, hand in enumerate(hands):
        for v in size_check(f"seat {seat}'s hand", hand, size, "joffre.deal.sizes", "DEAL-HAND-SIZE"):
            problems.append(at(v, path=f"hands[{seat}]", seat=seat))
    groups = [(f"seat {seat}'s hand", hand) for seat, hand in enumerate(hands)]
    problems += deck_integrity(table.deck, groups, "joffre.deck")
    return problems + check_line(table, deal)


def check_line(table: Table, deal: JoffreDeal) -> list[Violation]:
    """joffre.players and joffre.deal.status: a dealer at the table, and no annulled deal (for
    played deals and score-sheet lines alike)."""
    problems: list[Violation] = []
    if deal.dealer >= table.players:
        problems.append(
            Violation(
                "RECORD-SEAT",
                "joffre.players",
                f"dealer {deal.dealer} is not a seat of {table.players} players",
                path="dealer",
            )
        )
    if deal.status == "annulled":
        problems.append(
            Violation(
                "JOFFRE-ANNULLED",
                "joffre.deal.status",
                'Joffre has no rule that voids a deal; a deal where everybody passes is written "played" '
                'with its passes, and a deal stopped early is "abandoned"',
                path="status",
            )
        )
    return problems


def totals_before(deal: JoffreDeal, before: Sequence[int | float] | None) -> list[int | float] | None:
    """joffre.score.cap: each seat's total before the deal, as the caller knows it, or else as
    the sheet gives it (the deal's totals less its scores); None when neither tells."""
    if before is None and (
        deal.totals is not None and deal.result is not None and len(deal.totals) == len(deal.result.scores)
    ):
        before = [t - s for t, s in zip(deal.totals, deal.result.scores, strict=True)]
    return list(before) if before is not None else None
