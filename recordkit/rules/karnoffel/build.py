"""Building Karnöffel records: a shuffled staged deal, and a deal model with its actions written in.

The going-out cap (`karnoffel.propose.cap`) depends on the score before the deal, which the
shared generator does not hand to the ruleset. The generator plays a record's deals one after the
other with one `random.Random`, so the last deal dealt with that generator carries the running
totals (the generator writes them in once the deal is scored); the next deal starts from them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from recordkit.model import Call
from recordkit.rules.base import dealt_hands
from recordkit.rules.karnoffel.cards import cards_of
from recordkit.rules.karnoffel.deal import FACE_DOWN, choosing_card
from recordkit.rules.karnoffel.record import SUIT_LETTERS, KarnoffelDeal
from recordkit.rules.karnoffel.state import WINDOWS, Said
from recordkit.rules.values import Action, Table

HAND = 5


def deal_random(table: Table, dealer: int, rng: random.Random) -> KarnoffelDeal:
    """A shuffled deal: one face-up card each from the forehand, then four face-down cards each."""
    cards = cards_of(table.options.deck)
    n = table.players
    pack = list(range(len(cards.deck)))
    rng.shuffle(pack)
    return KarnoffelDeal(
        dealer=dealer,
        faceup=cards.deck.format(pack[:n]),
        hands=[cards.deck.format(pack[n + 4 * seat : n + 4 * seat + 4]) for seat in range(n)],
    )


def record_deal(table: Table, dealt: KarnoffelDeal, actions: Sequence[Action]) -> KarnoffelDeal:
    """A copy of the dealt model with the calls and cards written in, cut to the cards a surrender
    left undealt; quiet windows are written as [] and trailing ones left out."""
    dealt = dealt.model_copy(deep=True)
    cards = cards_of(table.options.deck)
    n = table.players
    windows: list[list[Call]] = [[] for _ in range(WINDOWS)]
    plays: list[int] = []
    stage = WINDOWS + 1
    for action in actions:
        if action.kind == "play":
            plays.append(action.value)
            continue
        said: Said = action.value
        windows[said.window - 1].append(Call(call=said.name))
        if said.name == "surrender":
            stage = said.window
    quiet = [Call(call="pass"), Call(call="pass")]
    windows = [[] if window == quiet else window for window in windows]
    while windows and not windows[-1]:
        windows.pop()
    dealt.proposals = windows
    dealt.tricks = [cards.deck.format(plays[i : i + n]) for i in range(0, len(plays), n)]
    if not isinstance(dealt.faceup, str):  # round 1 not known whole (a live table): kept as given
        return dealt
    faceup = dealt.faceup.split()
    if stage == 1:
        dealt.faceup = " ".join(faceup[:2])
    dealt.hands = (
        [" ".join(hand.split()[: FACE_DOWN[stage]]) for hand in dealt_hands(dealt)]
        if FACE_DOWN[stage]
        else []
    )
    if stage > 1 or n == 2:
        choosing = choosing_card(cards, cards.deck.cards(faceup), table.options.chosen_suit_tiebreak)
        dealt.chosen_suit = SUIT_LETTERS[cards.suit[choosing]]
    return dealt
