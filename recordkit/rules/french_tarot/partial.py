"""French Tarot deals that leave the hands or the dog out: what the play says of them
(spec/rules/french-tarot.md, "Partial records").

Every card but the dog's is played when a deal is played out, and the taker's exchange moves only
the dog and the discard: so each defender's hand is the cards he played, the discard is whatever
was not played, and the dog (garde sans or contre) too. The taker's hand and the dog are told
apart only by one of them being written; when neither is, the checks of the taker's hand as
dealt cannot run.
"""

from __future__ import annotations

from recordkit.rules.base import HAND_CHECKS, Completion, Table, missing_hands
from recordkit.rules.french_tarot.cards import DECK, FULL_DECK
from recordkit.rules.french_tarot.record import TarotDeal
from recordkit.rules.french_tarot.scoring import GARDE
from recordkit.rules.french_tarot.state import Phase, TarotState

DEALT_CHECKS: tuple[str, ...] = ("TAROT-PETIT-SEC", "TAROT-MISERE-FALSE", "TAROT-CALL-RANK")
"""Checks of a seat's hand as dealt (petit sec, misère, the called rank)."""

PARTIAL_HAND_CHECKS = (
    *DEALT_CHECKS,
    "TAROT-POIGNEE-NOT-HELD",
    "TAROT-DISCARD-TRUMP",
    "TAROT-DISCARD-NOT-HELD",
)
"""Checks that need every card of a hand: not run on a hand known only from the cards played."""

CHECK_NAMES = {
    "TAROT-PETIT-SEC": "the Petit sec",
    "TAROT-MISERE-FALSE": "a misère without its hand",
    "TAROT-CALL-RANK": "the rank of the called card",
    "TAROT-POIGNEE-NOT-HELD": "a poignée's cards in the hand",
    "TAROT-DISCARD-TRUMP": "trumps in the discard only as needed",
    "TAROT-DISCARD-NOT-HELD": "the discard from the taker's cards",
    "DEAL-DOG-SIZE": "the dog's size",
    "TAROT-ANNUL-NO-REASON": "the reason for an annulled deal",
}
"""Plain words for the checks above, for the note that says they did not run."""


def unknown(table: Table, deal: TarotDeal) -> list[str]:
    """The hands and the dog the record leaves out."""
    return missing_hands(table, deal) + (["dog"] if deal.dog is None else [])


def blank(table: Table, deal: TarotDeal) -> TarotDeal:
    """The deal with its unknown hands and dog empty."""
    hands = deal.hands or [None] * table.players
    return deal.model_copy(update={"hands": [hand or "" for hand in hands], "dog": deal.dog or ""})


def complete(table: Table, deal: TarotDeal, played: list[list[int]], state: TarotState) -> Completion:
    """The hands and dog from the play (`state` replayed it with them empty)."""
    n = table.players
    written = list(deal.hands or [None] * n)
    written += [None] * (n - len(written))
    masks = [DECK.mask(seat_cards) for seat_cards in played]
    found: dict[str, int] = {}
    derived = unknown(table, deal)
    unchecked: dict[tuple[str, int | None], str] = {}
    if not (state.phase == Phase.DONE and len(state.tricks) == state.tricks_per_deal):
        why = "the deal is not played out, so the hands are known only from the cards played"
        for seat in range(n):
            if written[seat] is None:
                found[f"hands[{seat}]"] = masks[seat]
                unchecked.update(dict.fromkeys(((code, seat) for code in PARTIAL_HAND_CHECKS), why))
        codes = (*HAND_CHECKS, "DEAL-DOG-SIZE", "TAROT-ANNUL-NO-REASON")
        unchecked.update(dict.fromkeys(((code, None) for code in codes), why))
        return _completion(deal, written, found, derived, unchecked)
    unplayed = FULL_DECK & ~_union(masks)
    taker = state.taker
    takes_dog = taker is not None and state.contract <= GARDE and not state.goulash
    for seat in range(n):
        if written[seat] is None and not (takes_dog and seat == taker):
            found[f"hands[{seat}]"] = masks[seat]
    if not takes_dog:
        found["dog"] = unplayed
    else:
        assert taker is not None
        kept = masks[taker] | unplayed  # the taker's hand and the dog: what he played and laid aside
        hand, dog = written[taker], deal.dog
        if hand is None and dog is not None:
            found[f"hands[{taker}]"] = kept & ~DECK.mask(DECK.cards(dog))
        elif hand is not None and dog is None:
            found["dog"] = kept & ~DECK.mask(DECK.cards(hand))
        elif hand is None and dog is None:
            found[f"hands[{taker}]"], found["dog"] = masks[taker], unplayed  # a guess; see below
            why = "neither the taker's hand nor the dog is written, so the taker's hand as dealt is not known"
            dealt = DEALT_CHECKS if n == 5 else DEALT_CHECKS[:2]  # only five players call a card
            unchecked.update({(code, taker): why for code in dealt})
    return _completion(deal, written, found, derived, unchecked)


def _completion(
    deal: TarotDeal,
    written: list[str | None],
    found: dict[str, int],
    derived: list[str],
    unchecked: dict[tuple[str, int | None], str],
) -> Completion:
    """The deal with the groups it leaves out written in (in deck order; empty where nothing is known)."""
    hands = [
        hand if hand is not None else DECK.format_mask(found.get(f"hands[{seat}]", 0))
        for seat, hand in enumerate(written)
    ]
    dog = deal.dog if deal.dog is not None else DECK.format_mask(found.get("dog", 0))
    return Completion(deal.model_copy(update={"hands": hands, "dog": dog}), derived, unchecked)


def _union(masks: list[int]) -> int:
    """The cards of all the masks."""
    out = 0
    for mask in masks:
        out |= mask
    return out
