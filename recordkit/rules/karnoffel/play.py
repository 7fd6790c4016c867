"""Karnöffel card play: any card may be played, the Devil never leads the first trick, and the deal
stops as soon as a side has three tricks.

Rules `karnoffel.play.*` and `karnoffel.trick.*` of spec/rules/karnoffel.md.
"""

from __future__ import annotations

from recordkit.cards import ids_of
from recordkit.diagnostics import Violation
from recordkit.rules.karnoffel.cards import SUIT_NAMES, side_of
from recordkit.rules.karnoffel.powers import winning_index
from recordkit.rules.karnoffel.state import TRICKS, TRICKS_TO_WIN, KarnoffelState, Phase
from recordkit.rules.values import Action, PlayedTrick
from recordkit.rules.violations import at, check_leader, check_winner, where_is
from recordkit.rules.violations import not_held as base_not_held

NO_SUIT = -1
"""Stands for the chosen suit when the record never completed round 1 (already reported)."""


def play_card(state: KarnoffelState, action: Action) -> list[Violation]:
    """karnoffel.play.*: one card from the hand of the seat to play, then the trick if it is complete."""
    card = action.value
    problems: list[Violation] = []
    number = len(state.tricks) + 1
    if state.current is None:
        state.current = PlayedTrick(state.leader)
        problems += check_leader(state.recorded, number, state.leader, "karnoffel.trick.leader", action.path)
    trick = state.current
    seat = state.to_play()
    hand = state.hands[seat]
    wrong = None
    if not hand >> card & 1:
        wrong = _not_held(state, seat, card)
        state.scorable = False
    elif not playable_cards(hand, state.devil, number == 1 and not trick.cards) >> card & 1:
        wrong = Violation(
            "KARNOFFEL-DEVIL-LEAD",
            "karnoffel.play.devil-lead",
            f"seat {seat} led the Devil ({state.cards.code(card)}, the 7 of {SUIT_NAMES[state.chosen or 0]}, "
            f"the chosen suit) to the first trick: any card but the Devil may open the play",
            expected="any other card: " + state.cards.codes(hand & ~(1 << card)),
        )
    if wrong is not None:
        problems.append(at(wrong, seat=seat, trick=number, position=len(trick.cards) + 1, path=action.path))
    state.hands[seat] = hand & ~(1 << card)
    state.played_in.setdefault(card, number)
    trick.cards.append(card)
    trick.seats.append(seat)
    if len(trick.cards) == state.players:
        problems += close_trick(state, trick, number, action)
    return problems


def close_trick(state: KarnoffelState, trick: PlayedTrick, number: int, action: Action) -> list[Violation]:
    """karnoffel.trick.winner: the trick ended, then the winner the record states checked."""
    end_trick(state, trick)
    deck = state.cards.deck
    return check_winner(state.recorded, number, trick, deck, "karnoffel.trick.winner", action.path)


def end_trick(state: KarnoffelState, trick: PlayedTrick) -> None:
    """karnoffel.trick.winner: the winner by the card powers leads next; three tricks decide the deal
    (the bookkeeping of a complete trick, shared by the full replay and the fast path)."""
    options = state.options
    chosen = NO_SUIT if state.chosen is None else state.chosen
    winner = trick.seats[winning_index(trick.cards, options.deck, options.partial_trumps, chosen)]
    trick.winner = winner
    tricks = state.tricks
    tricks.append(trick)
    state.current = None
    state.leader = winner
    side = side_of(winner)
    won = state.won
    won[side] += 1
    if state.decided is None and won[side] == TRICKS_TO_WIN:
        state.decided = side
    if len(tricks) == TRICKS or (state.decided is not None and not options.play_out):
        state.phase = Phase.DONE


def playable_cards(hand: int, devil: int | None, opening: bool) -> int:
    """karnoffel.play.any-card and karnoffel.play.devil-lead, stated once: every card of `hand`, but
    the Devil (`devil`, None when there is none) when the card would open the deal's play."""
    if opening and devil is not None:
        return hand & ~(1 << devil)
    return hand


def playable(state: KarnoffelState, seat: int) -> int:
    """The cards the seat may play now (`playable_cards`): the players and the fast path ask it."""
    opening = not state.tricks and state.current is None
    return playable_cards(state.hands[seat], state.devil, opening)


def legal_plays(state: KarnoffelState) -> list[Action]:
    """One play action per card the seat to play may play."""
    seat = state.to_play()
    return [Action("play", card, seat) for card in ids_of(playable(state, seat))]


def _not_held(state: KarnoffelState, seat: int, card: int) -> Violation:
    """PLAY-NOT-HELD, saying where the card really is."""
    why = where_is(card, state.hands, state.played_in)
    return base_not_held(state.cards.deck, seat, card, why, "karnoffel.play.held")
