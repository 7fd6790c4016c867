"""French Tarot card play: the legal plays, which rule a wrong card breaks, and who wins a trick.

Rules T4 of RULES-NOTES and `tarot.play.*` / `tarot.trick.*` in spec/rules/french-tarot.md.
"""

from __future__ import annotations

from collections.abc import Sequence

from recordkit.diagnostics import Violation
from recordkit.rules.french_tarot.cards import (
    DECK,
    EXCUSE,
    EXCUSE_BIT,
    SUIT_MASKS,
    TRUMP_SUIT,
    TRUMPS,
    TRUMPS_ABOVE,
    suit_of,
)

SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs", "trumps", "the Excuse")


def suit_setter(trick: Sequence[int]) -> int | None:
    """The card that sets the suit to follow: the first card that is not the Excuse."""
    for card in trick:
        if card != EXCUSE:
            return card
    return None


def highest_trump(trick: Sequence[int]) -> int | None:
    """The highest trump in the trick so far, if any (trump ids grow with rank)."""
    trumps = [card for card in trick if suit_of(card) == TRUMP_SUIT]
    return max(trumps) if trumps else None


def legal_mask(hand: int, trick: Sequence[int]) -> int:
    """The cards of `hand` that may be played to `trick` (rules tarot.play.follow .. excuse)."""
    led = suit_setter(trick)
    if led is None:
        return hand
    led_suit = suit_of(led)
    if led_suit != TRUMP_SUIT:
        following = hand & SUIT_MASKS[led_suit]
        if following:
            return following | (hand & EXCUSE_BIT)
    trumps = hand & TRUMPS
    if not trumps:
        return hand
    high = highest_trump(trick)
    over = trumps & TRUMPS_ABOVE[high] if high is not None else trumps
    return (over or trumps) | (hand & EXCUSE_BIT)


def wrong_card(hand: int, trick: Sequence[int], card: int, seat: int) -> Violation:
    """The violation for a card that is held but not among the legal plays."""
    code = DECK.codes[card]
    led = suit_setter(trick)
    assert led is not None, "a lead is always legal"
    led_suit = suit_of(led)
    trumps = hand & TRUMPS
    high = highest_trump(trick)
    if led_suit != TRUMP_SUIT and hand & SUIT_MASKS[led_suit]:
        held = DECK.format_mask(hand & SUIT_MASKS[led_suit])
        return Violation(
            "TAROT-REVOKE",
            "tarot.play.follow",
            f"seat {seat} played {code} on a {SUIT_NAMES[led_suit]} lead but held {held}: "
            f"a player must follow suit",
            expected=f"a card of {SUIT_NAMES[led_suit]}: {held}",
        )
    over = trumps & TRUMPS_ABOVE[high] if high is not None else trumps
    if suit_of(card) == TRUMP_SUIT and over:
        return Violation(
            "TAROT-OVERTRUMP",
            "tarot.play.overtrump",
            f"seat {seat} played {code} but had to overtrump {DECK.codes[high or 0]} "
            f"and held {DECK.format_mask(over)}",
            expected=f"a trump higher than {DECK.codes[high or 0]}: {DECK.format_mask(over)}",
        )
    if led_suit == TRUMP_SUIT:
        return Violation(
            "TAROT-REVOKE",
            "tarot.play.follow",
            f"seat {seat} played {code} on a trump lead but held trumps {DECK.format_mask(trumps)}: "
            f"a player must follow suit",
            expected=f"a trump: {DECK.format_mask(over or trumps)}",
        )
    if high is not None and not over:
        return Violation(
            "TAROT-UNDERTRUMP",
            "tarot.play.undertrump",
            f"seat {seat} played {code}: void in {SUIT_NAMES[led_suit]} and unable to beat "
            f"{DECK.codes[high]}, he still had to play a trump and held {DECK.format_mask(trumps)}",
            expected=f"a trump: {DECK.format_mask(trumps)}",
        )
    return Violation(
        "TAROT-MUST-TRUMP",
        "tarot.play.trump",
        f"seat {seat} played {code}: void in {SUIT_NAMES[led_suit]}, he had to trump and held "
        f"{DECK.format_mask(trumps)}",
        expected=f"a trump: {DECK.format_mask(over or trumps)}",
    )


def winning_index(trick: Sequence[int]) -> int:
    """Index of the card that wins by rank: the highest trump, else the highest of the led suit.

    The Excuse never wins here; the cases where it does (slam, goulash) are decided by the caller.
    """
    high = highest_trump(trick)
    if high is not None:
        return trick.index(high)
    led = suit_setter(trick)
    if led is None:
        return 0
    led_suit = suit_of(led)
    best = max(card for card in trick if suit_of(card) == led_suit)
    return trick.index(best)
