"""French Tarot announcements: the slam, poignées and misères, checked and offered.

Rules `tarot.slam.*`, `tarot.poignee.*`, `tarot.misere.*` and `tarot.goulash.announce`.
"""

from __future__ import annotations

from recordkit.cards import ids_of
from recordkit.diagnostics import Violation
from recordkit.rules.french_tarot.cards import (
    BOUTS,
    DECK,
    EXCUSE,
    EXCUSE_BIT,
    HONOURS,
    TRUMPS,
    popcount,
)
from recordkit.rules.french_tarot.scoring import POIGNEE_LEVELS, POIGNEE_THRESHOLDS
from recordkit.rules.french_tarot.state import Poignee as ShownPoignee
from recordkit.rules.french_tarot.state import TarotState
from recordkit.rules.values import Action

MISERE_SPOILERS = {"trumps": TRUMPS | EXCUSE_BIT, "honours": HONOURS | BOUTS}
"""The cards that make a misère false, by kind (tarot.misere.trumps, tarot.misere.honours)."""


def take_announcement(state: TarotState, action: Action) -> list[Violation]:
    """A slam, poignée or misère announced before the first card."""
    kind = action.value[0]
    seat = action.seat
    assert seat is not None
    if seat >= state.players:
        return [
            Violation(
                "RECORD-SEAT",
                "tarot.players",
                f"seat {seat} is not at a table of {state.players}",
                path=action.path,
            )
        ]
    if state.goulash and kind != "misere":
        return [
            Violation(
                "TAROT-GOULASH-ANNOUNCE",
                "tarot.goulash.announce",
                f"seat {seat} announced a {kind}: in a goulash there is no slam and no poignée",
                seat=seat,
                path=action.path,
            )
        ]
    if kind == "slam":
        return slam(state, seat, action)
    if kind == "poignee":
        return poignee(state, seat, action)
    return misere(state, seat, action)


def slam(state: TarotState, seat: int, action: Action) -> list[Violation]:
    """tarot.slam.who: only the taker announces a slam; he then leads the first trick."""
    if seat != state.taker:
        return [
            Violation(
                "TAROT-SLAM-NOT-TAKER",
                "tarot.slam.who",
                f"seat {seat} announced a slam, but only the taker (seat {state.taker}) may",
                seat=seat,
                path=action.path,
            )
        ]
    state.slam = True
    return []


def poignee(state: TarotState, seat: int, action: Action) -> list[Violation]:
    """tarot.poignee.*: exactly the threshold of trumps, all held, the Excuse only as the last trump."""
    _, level, cards = action.value
    shown = DECK.mask(cards)
    threshold = POIGNEE_THRESHOLDS[state.players][POIGNEE_LEVELS.index(level)]
    problems: list[Violation] = []

    def problem(code: str, rule: str, message: str, expected: str | None = None) -> None:
        problems.append(Violation(code, rule, message, seat=seat, path=action.path, expected=expected))

    if seat in state.poignees:
        problem("TAROT-POIGNEE-TWICE", "tarot.poignee.once", f"seat {seat} showed a second poignée")
    if len(cards) != threshold or popcount(shown) != len(cards):
        problem(
            "TAROT-POIGNEE-COUNT",
            "tarot.poignee.count",
            f"seat {seat} showed {len(cards)} cards for a {level} poignée; exactly {threshold} are shown "
            f"at {state.players} players",
            expected=f"{threshold} trumps",
        )
    not_trumps = shown & ~(TRUMPS | EXCUSE_BIT)
    if not_trumps:
        problem(
            "TAROT-POIGNEE-CARD",
            "tarot.poignee.trumps",
            f"seat {seat} showed {DECK.format_mask(not_trumps)} in a poignée: only trumps (and the "
            f"Excuse in place of one) are shown",
        )
    discarded_trumps = state.discard & TRUMPS if seat == state.taker else 0
    hand = state.hands[seat] | discarded_trumps
    not_held = shown & ~hand
    if not_held:
        problem(
            "TAROT-POIGNEE-NOT-HELD",
            "tarot.poignee.held",
            f"seat {seat} showed {DECK.format_mask(not_held)} in a poignée without holding it",
        )
    hidden_trumps = hand & TRUMPS & ~shown
    if shown & EXCUSE_BIT and hidden_trumps:
        problem(
            "TAROT-POIGNEE-EXCUSE",
            "tarot.poignee.excuse",
            f"seat {seat} showed the Excuse in a poignée while holding the trump(s) "
            f"{DECK.format_mask(hidden_trumps)}: the Excuse may stand in for a trump only when the player "
            f"has no other trump",
        )
    state.poignees.setdefault(seat, ShownPoignee(level, shown))
    return problems


def misere(state: TarotState, seat: int, action: Action) -> list[Violation]:
    """tarot.misere.*: the declared misère must be true of the hand as dealt."""
    kind = action.value[1]
    if not state.table.options.misere:
        return [
            Violation(
                "TAROT-MISERE-DISABLED",
                "tarot.misere.enabled",
                f"seat {seat} declared a misère, but the record's options do not allow misères "
                f'(set "misere": true)',
                seat=seat,
                path=action.path,
            )
        ]
    if (seat, kind) in state.miseres:
        return [
            Violation(
                "TAROT-MISERE-TWICE",
                "tarot.misere.once",
                f"seat {seat} declared the misère of {kind} twice",
                seat=seat,
                path=action.path,
            )
        ]
    state.miseres.append((seat, kind))
    dealt = state.dealt[seat]
    spoiler = dealt & MISERE_SPOILERS[kind]
    if spoiler:
        what = "no trump and no Excuse" if kind == "trumps" else "no King, Queen, Knight, Jack or bout"
        return [
            Violation(
                "TAROT-MISERE-FALSE",
                f"tarot.misere.{kind}",
                f"seat {seat} declared the misère of {kind} but was dealt "
                f"{DECK.format_mask(spoiler)}; that misère needs {what}",
                seat=seat,
                path=action.path,
            )
        ]
    return []


def legal_announcements(state: TarotState) -> list[Action]:
    """The announcements open before the first card: one canonical showing per poignée level."""
    actions: list[Action] = []
    if state.goulash:
        return actions
    if state.taker is not None and not state.slam:
        actions.append(Action("announce", ("slam",), state.taker))
    for seat in range(state.players):
        if seat in state.poignees:
            continue
        hand = state.hands[seat] | (state.discard & TRUMPS if seat == state.taker else 0)
        trumps = ids_of(hand & TRUMPS)
        for level, threshold in zip(POIGNEE_LEVELS, POIGNEE_THRESHOLDS[state.players], strict=True):
            if len(trumps) >= threshold:
                shown = tuple(trumps[-threshold:])
            elif len(trumps) + 1 == threshold and hand & EXCUSE_BIT:
                shown = (*trumps, EXCUSE)
            else:
                continue
            actions.append(Action("announce", ("poignee", level, shown), seat))
    if state.table.options.misere:
        for seat in range(state.players):
            for kind, spoiler in MISERE_SPOILERS.items():
                if not state.dealt[seat] & spoiler and (seat, kind) not in state.miseres:
                    actions.append(Action("announce", ("misere", kind), seat))
    return actions
