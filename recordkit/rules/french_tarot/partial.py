"""French Tarot deals that leave the hands, the dog or the discard out: what the play says of
them (spec/rules/french-tarot.md, "Partial records").

Played out, every card is played but the discard's (petite, garde) or the dog's (garde sans,
garde contre, a goulash), and only the taker's exchange moves cards between groups: so each
other seat's hand is the cards it played (`tarot.partial.hands`), what nobody played is the
discard or the dog (`tarot.partial.discard`), and the taker's hand and the dog together are what
he played and laid aside. One of the two written gives the other; when neither is, the dog is
taken as the split most favourable to the record, so that a check of the taker's hand as dealt
reports only what every split proves, and those whose answer depends on the split are listed
as not run (`tarot.partial.taker`).

Not played out (abandoned, cut short), a hand left out holds what its seat is known to have held:
the cards it played, the trumps it showed, and for the taker the cards he laid aside
(`tarot.partial.cut-short`). Every check that a card's presence proves still runs on them (a
revoke, a trump discarded while plain cards were known to be there); those that need the whole
hand are listed as not run.
"""

from __future__ import annotations

from recordkit.cards import ids_of
from recordkit.rules.base import missing_hands
from recordkit.rules.french_tarot.announcements import MISERE_SPOILERS
from recordkit.rules.french_tarot.cards import (
    DECK,
    DOG_SIZES,
    EXCUSE_BIT,
    FULL_DECK,
    HAND_SIZES,
    PETIT,
    SUIT_MASKS,
    TRUMPS,
    bit,
    popcount,
    suit_of,
)
from recordkit.rules.french_tarot.contract import needed_honours
from recordkit.rules.french_tarot.play import banned_lead
from recordkit.rules.french_tarot.record import BIDS, Misere, Poignee, TarotDeal
from recordkit.rules.french_tarot.scoring import GARDE
from recordkit.rules.french_tarot.state import Phase, TarotState
from recordkit.rules.values import Completion, Table

CHECK_NAMES = {
    "TAROT-PETIT-SEC": "the Petit sec",
    "TAROT-MISERE-FALSE": "the misère against the hand as dealt",
    "TAROT-CALL-RANK": "the rank of the called card",
    "DEAL-DOG-SIZE": "the dog's size",
    "TAROT-DISCARD-SIZE": "the discard's size",
    "TAROT-ANNUL-NO-REASON": "the reason for an annulled deal",
    "TAROT-DISCARD-KING": "no King in the discard",
    "TAROT-DISCARD-BOUT": "no bout in the discard",
    "TAROT-DISCARD-TRUMP": "trumps in the discard only when needed",
    "TAROT-REVOKE": "following suit",
    "TAROT-MUST-TRUMP": "trumping",
    "TAROT-OVERTRUMP": "overtrumping",
    "TAROT-UNDERTRUMP": "playing a lower trump",
    "TAROT-CALLED-SUIT-LEAD": "the first lead in the called suit",
}
"""Plain words for the checks a partial deal can leave without their facts, for the note."""

TAKER_UNKNOWN = (
    "neither the taker's hand nor the dog is written, so which of his cards he was dealt is not known"
)
CUT_SHORT = "the deal is not played out, so the hands are known only from the cards played"


def unknown(table: Table, deal: TarotDeal) -> list[str]:
    """The hands, the dog and the discard the record leaves out; the discard only after a petite
    or a garde whose play is written (before the play, it is still to come)."""
    paths = missing_hands(table, deal) + (["dog"] if deal.dog is None else [])
    if deal.discard is None and takes_dog(deal) and deal.tricks:
        paths.append("discard")
    return paths


def takes_dog(deal: TarotDeal) -> bool:
    """Whether the auction ends in a petite or a garde, so that the taker takes the dog and discards."""
    bids = [BIDS.index(call.call) for call in deal.auction if call.call in BIDS]
    return bool(bids) and 0 < max(bids) <= GARDE


def dog_taken_by_taker(state: TarotState) -> bool:
    """Whether the replayed deal's taker took the dog into his hand (petite, garde: tarot.dog.contract)."""
    return state.taker is not None and state.contract <= GARDE and not state.goulash


def blank(table: Table, deal: TarotDeal) -> TarotDeal:
    """The deal with its unknown hands and dog empty (a missing discard stays missing)."""
    hands = deal.hands or [None] * table.players
    return deal.model_copy(update={"hands": [hand or "" for hand in hands], "dog": deal.dog or ""})


def forget(table: Table, deal: TarotDeal) -> TarotDeal:
    """The deal as a magazine prints it: calls and tricks, no hands and no dog, and no discard
    when the tricks are all there to tell it."""
    update: dict[str, object] = {"hands": None, "dog": None}
    if deal.status == "played" and len(deal.tricks) == HAND_SIZES[table.players]:
        update["discard"] = None
    return deal.model_copy(update=update)


def complete(table: Table, deal: TarotDeal, played: list[list[int]], state: TarotState) -> Completion:
    """The hands, dog and discard from the play (`state` replayed the deal with them empty)."""
    n = table.players
    written = list(deal.hands or [None] * n)
    written += [None] * (n - len(written))
    masks = [DECK.mask(cards) for cards in played]
    if state.phase == Phase.DONE and len(state.tricks) == state.tricks_per_deal:
        found, unchecked = _played_out(table, deal, written, masks, state)
    else:
        found, unchecked = _cut_short(table, deal, written, masks, state)
    hands = [
        hand if hand is not None else DECK.format_mask(found.get(f"hands[{seat}]", 0))
        for seat, hand in enumerate(written)
    ]
    derived = unknown(table, deal)
    update: dict[str, object] = {"hands": hands}
    update["dog"] = deal.dog if deal.dog is not None else DECK.format_mask(found.get("dog", 0))
    if "discard" in found and "discard" in derived:
        update["discard"] = DECK.format_mask(found["discard"])
    return Completion(deal.model_copy(update=update), derived, unchecked)


Found = dict[str, int]
"""The derived groups by path, as card masks."""
Unchecked = dict[tuple[str, int | None], str]
"""The checks left without their facts, as `Completion.unchecked` holds them."""


def _played_out(
    table: Table, deal: TarotDeal, written: list[str | None], masks: list[int], state: TarotState
) -> tuple[Found, Unchecked]:
    """tarot.partial.hands, .discard and .taker: a played-out deal's groups from the cards played."""
    unplayed = FULL_DECK & ~_union(masks)
    taker = state.taker
    dog_taken = dog_taken_by_taker(state)
    found = {
        f"hands[{seat}]": masks[seat]
        for seat in range(table.players)
        if written[seat] is None and not (dog_taken and seat == taker)
    }
    if not dog_taken:
        found["dog"] = unplayed
        return found, {}
    assert taker is not None
    kept = masks[taker] | unplayed  # the taker's hand and the dog: what he played and laid aside
    if deal.discard is None:
        found["discard"] = unplayed
    hand, dog = written[taker], deal.dog
    if hand is None and dog is not None:
        found[f"hands[{taker}]"] = kept & ~DECK.mask(DECK.cards(dog))
        return found, {}
    if hand is not None and dog is None:
        found["dog"] = kept & ~DECK.mask(DECK.cards(hand))
        return found, {}
    if hand is not None:
        return found, {}
    dog_guess, unchecked = _split(table, deal, state, kept, unplayed)
    found[f"hands[{taker}]"], found["dog"] = kept & ~dog_guess, dog_guess
    return found, unchecked


def _split(table: Table, deal: TarotDeal, state: TarotState, kept: int, laid: int) -> tuple[int, Unchecked]:
    """tarot.partial.taker: the dog out of the taker's cards (`kept`) when neither his hand nor
    the dog is written, chosen so that no check of his hand as dealt fails unless every split
    makes it fail: the Petit and a declared misère's cards go to the dog, the honours a called
    Queen (Knight, Jack) needs stay in his hand. The checks whose answer depends on the split."""
    size = DOG_SIZES[table.players]
    options = table.options
    taker = state.taker
    unchecked: Unchecked = {}
    first = [kept & bit(PETIT)]  # the cards the dog takes first, in turn
    others = kept & (TRUMPS | EXCUSE_BIT) & ~bit(PETIT)
    if options.petit_sec == "annul" and kept & bit(PETIT) and popcount(others) <= size:
        unchecked[("TAROT-PETIT-SEC", taker)] = TAKER_UNKNOWN
    if options.misere:
        for announcement in deal.announcements:
            if isinstance(announcement, Misere) and announcement.seat == taker:
                spoilers = kept & MISERE_SPOILERS[announcement.kind]
                if 0 < popcount(spoilers) <= size:
                    unchecked[("TAROT-MISERE-FALSE", taker)] = TAKER_UNKNOWN
                    first.append(spoilers)
    needed = needed_honours(state.called) if state.called is not None else 0
    if needed and not needed & ~kept:
        unchecked[("TAROT-CALL-RANK", taker)] = TAKER_UNKNOWN
    dog = 0
    for group in [*first, laid, kept]:  # each group's cards in deck order, until the dog is full
        room = size - dog.bit_count()
        if not room:
            break
        for card in ids_of(group & kept & ~needed & ~dog)[:room]:
            dog |= bit(card)
    return dog, unchecked


def _cut_short(
    table: Table, deal: TarotDeal, written: list[str | None], masks: list[int], state: TarotState
) -> tuple[Found, Unchecked]:
    """tarot.partial.cut-short: a deal not played out. A hand left out holds the cards its seat
    played or showed; the taker's hand and the dog, what he played, showed and laid aside that no
    one else is known to hold, split as written. The checks that need whole hands are listed."""
    n = table.players
    written_masks = [DECK.mask(DECK.cards(hand)) if hand is not None else 0 for hand in written]
    dog_mask = DECK.mask(DECK.cards(deal.dog)) if deal.dog is not None else 0
    shown = [0] * n
    for announcement in deal.announcements:
        if isinstance(announcement, Poignee) and announcement.seat < n:
            shown[announcement.seat] |= _mask_of(announcement.cards)

    def elsewhere(seat: int) -> int:
        """The cards known to be in another seat's hand (written or played) or in the written dog."""
        return _union([written_masks[s] | masks[s] for s in range(n) if s != seat]) | dog_mask

    found: Found = {
        f"hands[{seat}]": masks[seat] | (shown[seat] & ~elsewhere(seat))
        for seat in range(n)
        if written[seat] is None
    }
    unchecked = _cut_short_unchecked(table, deal, written, state)
    unchecked.update(_first_lead_unknown(table, written, found, state))
    if deal.dog is None and None not in written:
        found["dog"] = FULL_DECK & ~_union(written_masks)  # every hand written: the dog is the rest
    taker = state.taker
    if taker is None or not dog_taken_by_taker(state):
        return found, unchecked
    laid = _mask_of(deal.discard or "") & ~elsewhere(taker)
    own = (masks[taker] | shown[taker] | laid) & ~(elsewhere(taker) & ~masks[taker])
    hand_path = f"hands[{taker}]"
    if written[taker] is not None and "dog" not in found and deal.dog is None:
        found["dog"] = own & ~written_masks[taker]  # what he had beyond his hand came from the dog
    elif written[taker] is None:
        found[hand_path] = own & ~dog_mask
    if deal.discard is None:
        held = (written_masks[taker] | found.get(hand_path, 0)) | (dog_mask | found.get("dog", 0))
        unproven = ids_of(held & ~masks[taker])
        size = DOG_SIZES[n]
        found["discard"] = DECK.mask(unproven[:size])  # a guess: the cards he is not seen to keep
        guessed = "the discard is not written, so which cards the taker laid aside is not known"
        for code in ("TAROT-DISCARD-KING", "TAROT-DISCARD-BOUT", "TAROT-DISCARD-TRUMP"):
            unchecked[(code, taker)] = guessed
        if len(unproven) > size:
            why = "the discard is not written, so the taker's hand during the play is not known"
            for code in PLAY_CHECKS:
                unchecked[(code, taker)] = why
    return found, unchecked


def _first_lead_unknown(
    table: Table, written: list[str | None], found: Found, state: TarotState
) -> Unchecked:
    """tarot.partial.cut-short, tarot.play.first-lead: at five players, a first trick opened in
    the called card's suit by a seat whose hand is left out, and which the cards known of it do
    not show holding another suit: whether it could have led another is not known."""
    tricks = [*state.tricks, *([state.current] if state.current is not None else [])]
    ban = table.options.called_suit_first_lead_ban
    if not tricks or state.called is None:
        return {}
    first, elsewhere = tricks[0], ~SUIT_MASKS[suit_of(state.called)]
    for index, (card, seat) in enumerate(zip(first.cards, first.seats, strict=True)):
        banned = banned_lead(ban, state.called, first.cards[:index], card)
        if banned and written[seat] is None and not found.get(f"hands[{seat}]", 0) & elsewhere:
            return {("TAROT-CALLED-SUIT-LEAD", seat): CUT_SHORT}
    return {}


PLAY_CHECKS = ("TAROT-REVOKE", "TAROT-MUST-TRUMP", "TAROT-OVERTRUMP", "TAROT-UNDERTRUMP")
"""The checks of a card against the hand it was played from."""


def _mask_of(text: str) -> int:
    """The cards of a written group, its unknown codes left out (they are reported elsewhere)."""
    return DECK.mask([DECK.index[code] for code in text.split() if code in DECK.index])


def _cut_short_unchecked(
    table: Table, deal: TarotDeal, written: list[str | None], state: TarotState
) -> Unchecked:
    """The checks a deal not played out leaves without their facts."""
    unchecked: Unchecked = {}
    options = table.options
    dog_taken = dog_taken_by_taker(state)
    for seat, hand in enumerate(written):
        if hand is not None:
            continue
        unchecked[("DEAL-HAND-SIZE", seat)] = CUT_SHORT
        if options.petit_sec == "annul":
            unchecked[("TAROT-PETIT-SEC", seat)] = CUT_SHORT
        if seat == state.taker and state.called is not None and needed_honours(state.called):
            unchecked[("TAROT-CALL-RANK", seat)] = CUT_SHORT
        misere = any(isinstance(a, Misere) and a.seat == seat for a in deal.announcements)
        if seat == state.taker and dog_taken and options.misere and misere:
            unchecked[("TAROT-MISERE-FALSE", seat)] = CUT_SHORT  # his cards may have come from the dog
    if None in written:
        unchecked[("DEAL-MISSING-CARD", None)] = CUT_SHORT
        if deal.status == "annulled":
            unchecked[("TAROT-ANNUL-NO-REASON", None)] = CUT_SHORT
        if deal.dog is None:
            unchecked[("DEAL-DOG-SIZE", None)] = CUT_SHORT
    if deal.discard is None and dog_taken:
        unchecked[("TAROT-DISCARD-SIZE", None)] = CUT_SHORT
    return unchecked


def _union(masks: list[int]) -> int:
    """The cards of all the masks."""
    out = 0
    for mask in masks:
        out |= mask
    return out
