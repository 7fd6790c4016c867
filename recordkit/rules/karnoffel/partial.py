"""Karnöffel deals that leave dealt cards out: what the play says of them (spec/rules/karnoffel.md,
"Partial records").

A seat holds five cards: its face-up card of round 1 and four face-down cards. Once the tricks are
written, the chosen suit says who won each trick and so who led the next: the rules say who played
each card. A seat's face-down cards are then the cards it played that are not its face-up card, and
its face-up card is the card it played that is not among its face-down cards. The play often stops
early (three tricks win, or a surrender), so cards stay unplayed: a hand is then known in part.
When the record gives neither the face-up cards nor the chosen suit, the suit is the one under
which the play holds together (`suit_fits`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from recordkit.diagnostics import Severity
from recordkit.rules.base import Ruleset, missing_hands, run
from recordkit.rules.karnoffel.cards import SUIT_NAMES, Cards, cards_of, side_of
from recordkit.rules.karnoffel.deal import (
    FACE_DOWN,
    choosing_card,
    faceup_entries,
    faceup_ids,
    owners,
    round_one,
    stage_of,
)
from recordkit.rules.karnoffel.record import SUIT_LETTERS, KarnoffelDeal
from recordkit.rules.karnoffel.scoring import scores_of
from recordkit.rules.karnoffel.state import KarnoffelState
from recordkit.rules.values import Completion, Table

UNPLAYED = "the deal ended before every card was played, so some face-down cards are not known"
NOTHING_PLAYED = "no card was played, so the face-down cards are not known"
NO_FACEUP = "the face-up card is not known, so it is not told apart from the face-down cards"
FACEUP_UNKNOWN = "the face-up cards are not all known"

CHECK_NAMES = {
    "KARNOFFEL-CHOSEN-SUIT": "the chosen suit",
    "PLAY-NOT-HELD": "who held each card played",
}
"""Plain words for the checks a partial Karnöffel deal can leave without their facts."""

SHAPE = frozenset(
    {
        "KARNOFFEL-PLAYED-ON",
        "DEAL-EXTRA-TRICK",
        "DEAL-INCOMPLETE",
        "PLAY-LEADER-MISMATCH",
        "PLAY-WINNER-MISMATCH",
    }
)
"""What a wrong chosen suit breaks in a play written from its leaders: the deal ends at another
trick than the record's, a written leader or winner differs."""

Played = list[list[int]]
"""The cards each seat played, in play order."""


def unknown(table: Table, deal: KarnoffelDeal) -> list[str]:
    """karnoffel.partial.hands, karnoffel.partial.faceup: the face-down hands and face-up cards the
    record leaves out. A deal surrendered in window 1 dealt no face-down card, so `hands` left out
    there says what `[]` says (as in format 1.0)."""
    paths = missing_hands(table, deal) if FACE_DOWN[stage_of(deal)] else []
    entries = faceup_entries(deal)
    if entries is None:
        return [*paths, "faceup"]
    return paths + [f"faceup[{position}]" for position, code in enumerate(entries) if code is None]


def blank(ruleset: Ruleset[Any, Any, Any], table: Table, deal: KarnoffelDeal) -> KarnoffelDeal:
    """The deal with its unknown hands empty, and the chosen suit the play fits when the record
    says neither it nor every face-up card (karnoffel.partial.suit)."""
    blanked = _blank_hands(table, deal)
    if not needs_suit(table, deal):
        return blanked
    fits = suit_fits(ruleset, table, deal)
    if not fits:
        return blanked
    return with_suit(blanked, best(fits).suit)


def needs_suit(table: Table, deal: KarnoffelDeal) -> bool:
    """Whether the chosen suit must come from the play: a suit was chosen, cards were played, and
    the record states neither the suit nor every face-up card."""
    stage = stage_of(deal)
    faceup = faceup_ids(cards_of(table.options.deck), deal, stage, table.players)
    return (
        deal.chosen_suit is None
        and bool(deal.tricks)
        and None in faceup
        and round_one(len(faceup), table.players, stage)
    )


def with_suit(deal: KarnoffelDeal, suit: int) -> KarnoffelDeal:
    """The deal with its chosen suit written in."""
    return deal.model_copy(update={"chosen_suit": SUIT_LETTERS[suit]})


@dataclass(frozen=True, slots=True)
class Fit:
    """How the play holds together under one chosen suit: the rules it would break, and who
    would have played each card."""

    suit: int
    faults: int
    played: tuple[tuple[int, ...], ...]


def suit_fits(ruleset: Ruleset[Any, Any, Any], table: Table, deal: KarnoffelDeal) -> list[Fit]:
    """karnoffel.partial.suit: the play replayed under each suit, with the faults each reading
    gives (the shape of the play, the Devil opening it, the result written, the cards of the
    written groups, the suit the face-up cards would then choose); [] when the deal cannot be
    compiled."""
    fits = []
    for suit in range(len(SUIT_LETTERS)):
        trial = with_suit(_blank_hands(table, deal), suit)
        actions, problems = ruleset.compile(table, trial)
        if any(problem.severity == Severity.ERROR for problem in problems):
            return []
        state, _ = ruleset.start(table, trial)
        found = run(ruleset, state, actions) + ruleset.finish(state)
        played = cards_played(state, table.players)
        faults = sum(problem.code in SHAPE for problem in found) + _result_faults(deal, state)
        opening = [*state.tricks, *([state.current] if state.current is not None else [])][:1]
        faults += bool(opening) and opening[0].cards[0] == state.devil
        faults += _holding_faults(table, deal, played, suit)
        fits.append(Fit(suit, faults, tuple(map(tuple, played))))
    return fits


def best(fits: list[Fit]) -> Fit:
    """The suit under which the play breaks the fewest rules (the first in suit order on a tie)."""
    return min(fits, key=lambda fit: fit.faults)


def cards_played(state: KarnoffelState, players: int) -> Played:
    """The cards each seat played in a replay, in play order."""
    played: Played = [[] for _ in range(players)]
    for trick in [*state.tricks, *([state.current] if state.current is not None else [])]:
        for card, seat in zip(trick.cards, trick.seats, strict=True):
            played[seat].append(card)
    return played


def _result_faults(deal: KarnoffelDeal, state: KarnoffelState) -> int:
    """1 for each of the written scores and winner that the replay under a suit contradicts."""
    result = deal.result
    if result is None or state.decided is None:
        return 0
    faults = int(list(result.scores) != scores_of(state.players, state.value, state.decided))
    return faults + int(result.winner is not None and side_of(result.winner) != state.decided)


def _holding_faults(table: Table, deal: KarnoffelDeal, played: Played, suit: int) -> int:
    """The cards no reading of the written groups lets their seat hold, the cards two groups would
    then hold, and 1 when the face-up cards the play gives would choose another suit."""
    cards = cards_of(table.options.deck)
    faceup = faceup_from_play(table, deal, played)
    stage = stage_of(deal)
    written = written_hands(cards, deal, table.players)
    up = seat_faceup(table, deal, faceup)
    faults = 0
    dealt = [card for card in faceup if card is not None]
    for seat, mine in enumerate(played):
        others = [card for card in dict.fromkeys(mine) if card != up.get(seat)]
        hand = written[seat] if seat < len(written) else None
        if hand is not None:
            faults += len(set(others) - hand)
            dealt += hand
        else:
            room = FACE_DOWN[stage] + (seat in up and up[seat] is None)
            faults += max(0, len(others) - room)
            dealt += others
    faults += len(dealt) - len(set(dealt))
    if None not in faceup and round_one(len(faceup), table.players, stage):
        known = [card for card in faceup if card is not None]
        faults += cards.suit[choosing_card(cards, known, table.options.chosen_suit_tiebreak)] != suit
    return faults


def written_hands(cards: Cards, deal: KarnoffelDeal, players: int) -> list[set[int] | None]:
    """Each seat's face-down cards as written (None where the record does not know them)."""
    hands = deal.hands if deal.hands is not None else [None] * players
    ids = cards.deck.index
    return [None if hand is None else {ids[code] for code in hand.split() if code in ids} for hand in hands]


def faceup_from_play(table: Table, deal: KarnoffelDeal, played: Played) -> list[int | None]:
    """karnoffel.partial.faceup: round 1 in dealing order, each card the record leaves out taken
    from the play where it can be: the first card its seat played outside its written face-down
    cards (None where that seat's hand is not written, or it played none)."""
    cards = cards_of(table.options.deck)
    n = table.players
    faceup = faceup_ids(cards, deal, stage_of(deal), n)
    written = written_hands(cards, deal, n)
    for position, seat in enumerate(owners(deal.dealer % n, n, faceup)):
        hand = written[seat] if seat < len(written) else None
        if faceup[position] is None and hand is not None:
            faceup[position] = next((card for card in played[seat] if card not in hand), None)
    return faceup


def seat_faceup(table: Table, deal: KarnoffelDeal, faceup: Sequence[int | None]) -> dict[int, int | None]:
    """Each seat that was dealt a face-up card, with that card (None where it is not known)."""
    n = table.players
    return dict(zip(owners(deal.dealer % n, n, faceup), faceup, strict=True))


def complete(
    ruleset: Ruleset[Any, Any, Any], table: Table, deal: KarnoffelDeal, played: Played, state: KarnoffelState
) -> Completion:
    """The face-down hands and face-up cards from the play (`state` replayed the deal with them
    blank), the chosen suit the play was read with, and the checks the cards left unplayed keep
    from running."""
    cards = state.cards
    n = table.players
    expected = FACE_DOWN[stage_of(deal)]
    faceup = faceup_from_play(table, deal, played)
    entries = faceup_entries(deal)
    derived = [
        f"faceup[{position}]"
        for position, card in enumerate(faceup)
        if card is not None and (entries is None or entries[position] is None)
    ]
    up = seat_faceup(table, deal, faceup)
    unchecked: dict[tuple[str, int | None], str] = {}
    hands: list[str] | None = None
    if expected:
        hands = []
        written = deal.hands if deal.hands is not None else [None] * n
        for seat, hand in enumerate(written):
            if hand is not None or seat >= n:  # a hand too many is the count's problem (DEAL-HAND-COUNT)
                hands.append(hand or "")
                continue
            mine = [card for card in dict.fromkeys(played[seat]) if card != up.get(seat)]
            hands.append(cards.deck.format(sorted(mine)))
            if played[seat]:
                derived.append(f"hands[{seat}]")
            why = _size_unknown(mine, seat in up and up[seat] is None, expected, deal.status)
            if why is not None:
                unchecked[("DEAL-HAND-SIZE", seat)] = why
    suit = _suit_used(ruleset, table, deal, state, faceup, hands, derived, unchecked)
    written_up = deal.faceup if entries is not None and None not in entries else _faceup_text(cards, faceup)
    update = {"faceup": written_up, "hands": hands, "chosen_suit": suit}
    return Completion(deal.model_copy(update=update), derived, unchecked)


def _size_unknown(mine: list[int], faceup_unknown: bool, expected: int, status: str) -> str | None:
    """Why a derived hand's size cannot be checked (None: it can): its face-up card is among the
    cards played, or some of its face-down cards were not played (an abandoned deal's hands are
    only checked against holding too many)."""
    if faceup_unknown and mine:
        return NO_FACEUP
    if status == "abandoned" or len(mine) >= expected:
        return None
    return UNPLAYED if mine else NOTHING_PLAYED


def _suit_used(
    ruleset: Ruleset[Any, Any, Any],
    table: Table,
    deal: KarnoffelDeal,
    state: KarnoffelState,
    faceup: list[int | None],
    hands: list[str] | None,
    derived: list[str],
    unchecked: dict[tuple[str, int | None], str],
) -> str | None:
    """The completed deal's `chosen_suit`: as written; left to the face-up cards when the play
    gives them all and they choose the suit it was read with; else the suit it was read with, and
    what that leaves unchecked. Updates `faceup`, `hands`, `derived` and `unchecked` in place."""
    cards = state.cards
    if state.chosen is None:
        return deal.chosen_suit
    suit: str | None = SUIT_LETTERS[state.chosen]
    if None not in faceup and round_one(len(faceup), table.players, stage_of(deal)):
        known = [card for card in faceup if card is not None]
        choosing = choosing_card(cards, known, table.options.chosen_suit_tiebreak)
        if cards.suit[choosing] == state.chosen:
            suit = deal.chosen_suit  # round 1 is known whole: its lowest card says the suit
        else:
            _set_aside(table, deal, faceup, hands, choosing, unchecked)
            unchecked[("KARNOFFEL-CHOSEN-SUIT", None)] = (
                f"the face-up cards the play gives choose {SUIT_NAMES[cards.suit[choosing]]}, not the "
                f"{SUIT_NAMES[state.chosen]} it is read with"
            )
    elif deal.chosen_suit is not None:
        unchecked[("KARNOFFEL-CHOSEN-SUIT", None)] = FACEUP_UNKNOWN
    if deal.chosen_suit is None:
        unchecked.update(_fit_notes(ruleset, table, deal, state.chosen))
        if suit is not None:
            derived.append("chosen_suit")
    return suit


def _set_aside(
    table: Table,
    deal: KarnoffelDeal,
    faceup: list[int | None],
    hands: list[str] | None,
    choosing: int,
    unchecked: dict[tuple[str, int | None], str],
) -> None:
    """Leave the choosing face-up card unknown (the play gives round 1 whole, but it chooses
    another suit than the play was read with): its seat still holds it, in its hand."""
    n = table.players
    position = faceup.index(choosing)
    seat = owners(deal.dealer % n, n, faceup)[position]
    faceup[position] = None
    if hands is not None and seat < len(hands):
        cards = cards_of(table.options.deck)
        hands[seat] = cards.deck.format(sorted([*cards.deck.cards(hands[seat]), choosing]))
        unchecked[("DEAL-HAND-SIZE", seat)] = NO_FACEUP


def _fit_notes(
    ruleset: Ruleset[Any, Any, Any], table: Table, deal: KarnoffelDeal, used: int
) -> dict[tuple[str, int | None], str]:
    """What a chosen suit taken from the play leaves unchecked: nothing when one suit fits; the
    suit itself when several fit alike; who played which card when they give other leaders."""
    fits = suit_fits(ruleset, table, deal)
    good = [fit for fit in fits if fit.faults == 0]
    if len(good) == 1:
        return {}
    if not good:
        why = f"no chosen suit fits the play; it is replayed with {SUIT_NAMES[used]}, which breaks the fewest rules"
        return {("KARNOFFEL-CHOSEN-SUIT", None): why}
    names = " and ".join([", ".join(SUIT_NAMES[fit.suit] for fit in good[:-1]), SUIT_NAMES[good[-1].suit]])
    if len({fit.played for fit in good}) == 1:
        return {
            ("KARNOFFEL-CHOSEN-SUIT", None): f"{names} fit the play alike, so the chosen suit is not known"
        }
    why = f"{names} fit the play but give the tricks other leaders, so who played which card is not known"
    return {(code, None): why for code in ("KARNOFFEL-CHOSEN-SUIT", "PLAY-NOT-HELD", "DEAL-DUPLICATE-CARD")}


def _blank_hands(table: Table, deal: KarnoffelDeal) -> KarnoffelDeal:
    """The deal with its unknown face-down hands empty (no chosen suit written in)."""
    if not FACE_DOWN[stage_of(deal)]:
        return deal
    hands = deal.hands if deal.hands is not None else [None] * table.players
    return deal.model_copy(update={"hands": [hand or "" for hand in hands]})


def _faceup_text(cards: Cards, faceup: list[int | None]) -> str | list[str | None] | None:
    """Round 1 as the record writes it: one string when every card is known, a list with nulls
    when some are, nothing when none is."""
    if all(card is None for card in faceup):
        return None
    if None not in faceup:
        return cards.deck.format(card for card in faceup if card is not None)
    return [None if card is None else cards.code(card) for card in faceup]


def forget(deal: KarnoffelDeal) -> KarnoffelDeal:
    """The deal as a magazine prints it: round 1, the chosen suit, the proposals and the tricks,
    without the face-down hands (the face-up cards are not derivable from the play)."""
    return deal.model_copy(update={"hands": None})
