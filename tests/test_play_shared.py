"""Each play rule is stated once, in a function over plain integers that the full replay and the
fast path both call (spec/ENGINE.md, "Speed"); here each such function is held to the rule's text,
read as plainly as it is written, on random hands and tricks."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from recordkit.rules.charlemagne.cards import DECKS, JOKER_SUIT, context
from recordkit.rules.charlemagne.play import winning_index as charlemagne_winner
from recordkit.rules.karnoffel.play import playable_cards
from tests.budget import examples

SHARED = settings(max_examples=examples(300), deadline=None)


@SHARED
@given(
    st.sampled_from(["standard", "maine"]),
    st.sampled_from([None, 0, 1, 2, 3]),
    st.integers(2, 4),
    st.randoms(use_true_random=False),
)
def test_charlemagne_one_pass_winner_is_the_rule(
    variant: str, trump: int | None, size: int, rng: Any
) -> None:
    """charlemagne.trick.winner: the highest trump (the highest joker in a no-trump deal), else the
    highest card of the suit led; `winning_index` names it in one pass."""
    ctx = context(variant, trump)
    trick = rng.sample(range(len(DECKS[variant])), size)
    top = trump if trump is not None else JOKER_SUIT
    contenders = [i for i, card in enumerate(trick) if ctx.suit[card] == top] or [
        i for i, card in enumerate(trick) if ctx.suit[card] == ctx.suit[trick[0]]
    ]
    assert charlemagne_winner(ctx, trick) == max(contenders, key=lambda i: ctx.power[trick[i]])


@SHARED
@given(st.integers(0, 2**52 - 1), st.one_of(st.none(), st.integers(0, 51)), st.booleans())
def test_karnoffel_playable_cards_is_the_rule(hand: int, devil: int | None, opening: bool) -> None:
    """karnoffel.play.any-card and karnoffel.play.devil-lead: any card held may be played, but the
    Devil may not open the deal's play."""
    for card in range(52):
        allowed = bool(hand >> card & 1) and not (opening and card == devil)
        assert bool(playable_cards(hand, devil, opening) >> card & 1) == allowed
