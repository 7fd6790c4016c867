"""The violations every game's handlers build alike: a card not held or unknown, a deck's integrity,
a group's size, a stated leader or winner checked, and where a card is."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from recordkit.cards import Deck
from recordkit.diagnostics import Violation
from recordkit.rules.values import PlayedTrick


def at(violation: Violation, **where: Any) -> Violation:
    """The violation with its location fields set, keeping those it already has."""
    fields = {k: v for k, v in where.items() if getattr(violation, k) is None}
    return replace(violation, **fields) if fields else violation


Claims = list[tuple[int | None, int | None]]
"""The leader and winner each recorded trick states (None where it states nothing)."""


def check_leader(claims: Claims, number: int, leader: int, rule: str, path: str) -> list[Violation]:
    """PLAY-LEADER-MISMATCH when trick `number` states a leader the rules do not give."""
    stated = claims[number - 1][0] if number <= len(claims) else None
    if stated is None or stated == leader:
        return []
    return [
        Violation(
            "PLAY-LEADER-MISMATCH",
            rule,
            f"the record says seat {stated} led trick {number}, but by the rules seat {leader} leads it",
            seat=stated,
            trick=number,
            path=path,
            expected=f"seat {leader}",
        )
    ]


def check_winner(
    claims: Claims, number: int, trick: PlayedTrick, deck: Deck, rule: str, path: str
) -> list[Violation]:
    """PLAY-WINNER-MISMATCH when trick `number` states a winner the rules do not give."""
    stated = claims[number - 1][1] if number <= len(claims) else None
    if stated is None or stated == trick.winner:
        return []
    card = deck.codes[trick.cards[trick.seats.index(trick.winner)]] if trick.winner in trick.seats else "?"
    return [
        Violation(
            "PLAY-WINNER-MISMATCH",
            rule,
            f"the record says seat {stated} won trick {number}, but seat {trick.winner} wins it with {card}",
            trick=number,
            path=path,
            expected=f"seat {trick.winner}",
        )
    ]


def where_is(card: int, hands: Sequence[int], played_in: dict[int, int]) -> str:
    """Where a card that a player did not hold really is: played earlier, or in another hand."""
    if card in played_in:
        return f"it was already played in trick {played_in[card]}"
    holders = [seat for seat, hand in enumerate(hands) if hand >> card & 1]
    return f"seat {holders[0]} holds it" if holders else "it is not in his hand"


def not_held(deck: Deck, seat: int, card: int, why: str, rule: str) -> Violation:
    """PLAY-NOT-HELD: a seat played a card it did not hold at that moment."""
    return Violation("PLAY-NOT-HELD", rule, f"seat {seat} played {deck.codes[card]}, but {why}")


def incomplete(what: str, rule: str) -> Violation:
    """DEAL-INCOMPLETE: the record stops before the deal's end without saying it was abandoned."""
    return Violation(
        "DEAL-INCOMPLETE",
        rule,
        f'the deal is not complete: {what}; mark it "status": "abandoned" if play stopped there',
    )


def card_list(deck: Deck, text: str, path: str, what: str) -> tuple[list[int], list[Violation]]:
    """Ids of a card group; every unknown code is reported with its place in the group."""
    try:
        return [deck.index[code] for code in text.split()], []
    except KeyError:
        pass
    ids: list[int] = []
    problems: list[Violation] = []
    for position, code in enumerate(text.split(), start=1):
        found = deck.index.get(code)
        if found is None:
            problems.append(unknown_card(deck, code, path, f"card {position} of {what}"))
        else:
            ids.append(found)
    return ids, problems


def unknown_card(deck: Deck, code: str, path: str, where: str, **place: Any) -> Violation:
    """The CARD-UNKNOWN violation for a code that is not in the deck."""
    sample = ", ".join(deck.codes[i] for i in (0, len(deck) // 2, len(deck) - 1))
    return Violation(
        code="CARD-UNKNOWN",
        rule="format.cards",
        message=f"{code!r} ({where}) is not a card of {deck.name}; cards are written like {sample}",
        path=path,
        **place,
    )


def deck_integrity(deck: Deck, groups: Sequence[tuple[str, list[int]]], rule: str) -> list[Violation]:
    """Each card of the deck exactly once across the named groups (hands, dog, kitty...)."""
    dealt = [card for _name, ids in groups for card in ids]
    if len(dealt) == len(deck) and len(set(dealt)) == len(deck):
        return []  # the common case, settled without looking card by card
    problems: list[Violation] = []
    seen: dict[int, str] = {}
    for name, ids in groups:
        for card in ids:
            if card in seen:
                problems.append(
                    Violation(
                        "DEAL-DUPLICATE-CARD",
                        rule,
                        f"{deck.codes[card]} is dealt twice: in {seen[card]} and in {name}",
                    )
                )
            else:
                seen[card] = name
    missing = [deck.codes[i] for i in range(len(deck)) if i not in seen]
    if missing and not problems:
        problems.append(
            Violation(
                "DEAL-MISSING-CARD",
                rule,
                f"{len(missing)} card(s) of the deck are dealt to nobody: {' '.join(missing)}",
            )
        )
    return problems


def size_check(name: str, ids: Sequence[int], expected: int, rule: str, code: str) -> list[Violation]:
    """One violation if a hand, dog or kitty does not hold the expected number of cards."""
    if len(ids) == expected:
        return []
    return [Violation(code, rule, f"{name} has {len(ids)} cards, not {expected}", expected=str(expected))]
