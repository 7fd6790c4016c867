"""Joffre card play: the bidder's lead sets the trump, follow suit, who wins a trick (`joffre.play.*`,
`joffre.trick.*`)."""

from __future__ import annotations

from collections.abc import Sequence

from recordkit.diagnostics import Violation
from recordkit.rules.joffre.cards import NO_TRUMP, JoffreCards, nation_name
from recordkit.rules.joffre.record import is_no_trump
from recordkit.rules.joffre.state import JoffreState, Phase
from recordkit.rules.values import Action, PlayedTrick
from recordkit.rules.violations import at, where_is
from recordkit.rules.violations import not_held as base_not_held

TRUMP_LETTERS = ("E", "F", "R", "G")


def legal_mask(cards: JoffreCards, hand: int, trick: Sequence[int]) -> int:
    """joffre.play.follow: the cards of `hand` that may go on `trick` (the led nation if held, else any)."""
    if not trick:
        return hand
    following = hand & cards.nation_masks[cards.nation[trick[0]]]
    return following or hand


def winning_index(cards: JoffreCards, trump: int, trick: Sequence[int]) -> int:
    """joffre.trick.winner: index of the highest trump in the trick, else of the highest card led
    (one pass: the best card so far is the highest of the nation led until a trump beats it)."""
    nation = cards.nation
    best = trick[0]
    best_nation = nation[best]
    for card in trick:
        card_nation = nation[card]
        if card_nation == best_nation:
            if card > best:
                best = card
        elif card_nation == trump:
            best, best_nation = card, card_nation
    return trick.index(best)


def play_card(state: JoffreState, action: Action) -> list[Violation]:
    """joffre.play.*: one card, checked against the hand and the trick, then played."""
    card: int = action.value
    problems: list[Violation] = []
    number = len(state.tricks) + 1
    if state.current is None:
        problems += _open_trick(state, number, action)
    trick = state.current
    assert trick is not None
    seat = state.seat_after(trick.leader, len(trick.cards))
    hand = state.hands[seat]
    bit = 1 << card
    wrong = None
    if not hand & bit:
        wrong = not_held(state, seat, card)
        state.scorable = False
    elif not legal_mask(state.cards, hand, trick.cards) & bit:
        wrong = revoke(state.cards, hand, trick.cards, card, seat)
    if wrong is not None:
        where = {"seat": seat, "trick": number, "position": len(trick.cards) + 1, "path": action.path}
        problems.append(at(wrong, **where))
    if number == 1 and not trick.cards:
        problems += set_trump(state, card, action)
    state.hands[seat] = hand & ~bit
    state.played_in.setdefault(card, number)
    trick.cards.append(card)
    trick.seats.append(seat)
    if len(trick.cards) == state.players:
        problems += close_trick(state, trick, number, action)
    return problems


def _open_trick(state: JoffreState, number: int, action: Action) -> list[Violation]:
    """joffre.play.lead / joffre.trick.leader: start a trick, checking a leader the record writes."""
    leader = state.to_play()
    state.current = PlayedTrick(leader)
    recorded = state.recorded[number - 1][0] if number <= len(state.recorded) else None
    if recorded is None or recorded == leader:
        return []
    why = "the bidder leads the first trick" if number == 1 else "the winner of a trick leads the next"
    return [
        Violation(
            "PLAY-LEADER-MISMATCH",
            "joffre.play.lead" if number == 1 else "joffre.trick.leader",
            f"the record says seat {recorded} led trick {number}, but seat {leader} leads it: {why}",
            seat=recorded,
            trick=number,
            path=action.path,
            expected=f"seat {leader}",
        )
    ]


def set_trump(state: JoffreState, card: int, action: Action) -> list[Violation]:
    """joffre.play.trump: the nation of the bidder's first card is trump (none after a no-trump bid)."""
    state.trump = NO_TRUMP if is_no_trump(state.contract) else state.cards.nation[card]
    written = state.written_trump
    actual = "none" if state.trump == NO_TRUMP else TRUMP_LETTERS[state.trump]
    if written is None or written == actual:
        return []
    code = state.cards.deck.codes[card]
    how = (
        "after a no-trump bid there is no trump"
        if state.trump == NO_TRUMP
        else f"the bidder led {code}, so {nation_name(state.trump)} is trump"
    )
    return [
        Violation(
            "JOFFRE-TRUMP-MISMATCH",
            "joffre.play.trump",
            f"the sheet says trump was {written}, but {how}",
            path="trump",
            expected=actual,
        )
    ]


def revoke(cards: JoffreCards, hand: int, trick: Sequence[int], card: int, seat: int) -> Violation:
    """JOFFRE-REVOKE: a card of another nation played while holding the nation led."""
    led = cards.nation[trick[0]]
    held = cards.deck.format_mask(hand & cards.nation_masks[led])
    return Violation(
        "JOFFRE-REVOKE",
        "joffre.play.follow",
        f"seat {seat} played {cards.deck.codes[card]} on a lead of {nation_name(led)} but held {held}: "
        f"a player must follow the nation led",
        expected=f"a card of {nation_name(led)}: {held}",
    )


def not_held(state: JoffreState, seat: int, card: int) -> Violation:
    """PLAY-NOT-HELD, saying where the card really is."""
    why = where_is(card, state.hands, state.played_in)
    return base_not_held(state.cards.deck, seat, card, why, "joffre.play.held")


def settle_trick(state: JoffreState, trick: PlayedTrick) -> int:
    """joffre.trick.winner / joffre.trick.count: decide a full trick, pass the lead to its winner and
    end the deal after the last trick; the index of the winning card (the replay and the fast path
    share it)."""
    index = winning_index(state.cards, NO_TRUMP if state.trump is None else state.trump, trick.cards)
    trick.winner = trick.seats[index]
    state.tricks.append(trick)
    state.current = None
    state.leader = trick.winner
    if len(state.tricks) == state.cards.hand_size:
        state.phase = Phase.DONE
    return index


def close_trick(state: JoffreState, trick: PlayedTrick, number: int, action: Action) -> list[Violation]:
    """joffre.trick.winner: decide the trick, check a written winner, and pass the lead to the winner."""
    index = settle_trick(state, trick)
    problems: list[Violation] = []
    recorded = state.recorded[number - 1][1] if number <= len(state.recorded) else None
    if recorded is not None and recorded != trick.winner:
        problems.append(
            Violation(
                "PLAY-WINNER-MISMATCH",
                "joffre.trick.winner",
                f"the record says seat {recorded} won trick {number}, but seat {trick.winner} wins it "
                f"with {state.cards.deck.codes[trick.cards[index]]}",
                trick=number,
                path=action.path,
                expected=f"seat {trick.winner}",
            )
        )
    return problems


def playable(state: JoffreState, seat: int) -> int:
    """The cards the seat may play now."""
    trick = state.current.cards if state.current else []
    return legal_mask(state.cards, state.hands[seat], trick)
