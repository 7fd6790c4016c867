"""Karnöffel's fast derivation (`Ruleset.quick_completed`): a partial deal completed from parsed JSON.

It covers the form a magazine prints and the generator writes as `tricks`: round 1 written whole,
the chosen suit stated, the calls bare, the tricks as plain strings, and the face-down hands left
out (all, or some seats as null). The chosen suit then says who won each trick (the fast path's
`end_trick`, by the powers of `karnoffel.powers`), so who led the next and who played each card;
each hand left out is written as the cards its seat played that are not its face-up card, exactly
as `partial.complete` writes it, with the same derived groups and the same checks left without
their facts (a hand whose cards were not all played: its size). Anything else returns None and
the full derivation runs: round 1 or the chosen suit not known (the suit is then fitted to the
play), calls or tricks as objects, a surrender with cards after it, a play that does not end
where the record does. The guess is proven by the fast replay of the completed deal, which is given
the completion (`Ruleset.quick_deal`) and so leaves the sizes of the hands known only in part
unchecked, as the full replay does. Derivation and replay are one pass: the completion carries its
reading of the cards (`Completion.read`), of the windows and the face-up cards, and the play it
found (`Replayed`), whose tricks the fast replay takes once it has held each card to the seat that
played it.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from recordkit.cards import ids_of
from recordkit.model import POINTS_LIMIT
from recordkit.rules import fastread
from recordkit.rules.karnoffel import quick
from recordkit.rules.karnoffel.cards import cards_of
from recordkit.rules.karnoffel.deal import FACE_DOWN, owners
from recordkit.rules.karnoffel.partial import NOTHING_PLAYED, UNPLAYED, Played
from recordkit.rules.karnoffel.play import end_trick
from recordkit.rules.karnoffel.quick import CARD_IDS, DEAL_KEYS, SEAT_ORDERS
from recordkit.rules.karnoffel.record import CALLS, SUIT_LETTERS
from recordkit.rules.karnoffel.state import WINDOWS, KarnoffelState, Phase
from recordkit.rules.values import Completion, Deferred, PlayedTrick, Table

NOTES = ("comment", "time")
INT = frozenset({int})
BITS = [1 << card for card in range(52)]
"""Each card id's bit."""
CALLS_SET = frozenset(CALLS)
WHOLE: dict[str, list[int]] = {"scores": []}
"""A result that says nothing beyond the scores: the only form the record model writes back as read."""


class Replayed(Deferred):
    """A fast derivation's completion with the play it found (one pass for both): its state after
    `end_trick` of each trick (`play`), which the fast replay (`quick._held`) takes once it holds
    every card to the seat that played it; None when no card is played. The derived hands' texts
    are written when the deal is first read."""

    __slots__ = ("faceup", "play", "played", "proposed")
    play: KarnoffelState | None
    played: list[int]
    """Each seat's cards played (its face-up card among them) as a bitmask, no card twice."""
    proposed: quick.Proposed
    """What the deal's proposal windows do (`quick.windows_of` of its dealer and words)."""
    faceup: list[int]
    """The face-up cards' ids, as read."""


def quick_completed(table: Table, deal: dict[str, Any]) -> Completion | None:
    """The completion `partial.complete` gives a deal whose face-down hands (some or all) are left
    out, from its JSON when it is in the covered form, with its reading of the cards
    (`Completion.read`) for the fast replay; None otherwise."""
    n = table.players
    dealer = deal.get("dealer")
    words = deal.get("proposals", [])
    if (
        type(dealer) is not int
        or not 0 <= dealer < n
        or deal.get("status", "played") != "played"
        or not DEAL_KEYS.issuperset(deal)
        or not _bare(words)
        or not _plain(deal)
    ):
        return None
    proposed = quick.windows_of(table, dealer, words)  # words that break a rule: the full path's
    if proposed is None:
        return None
    expected = FACE_DOWN[proposed.stage]
    options = table.options
    ids = CARD_IDS[options.deck]
    faceup = fastread.card_ids(ids, deal.get("faceup"))
    written = _written(ids, deal.get("hands"), n)
    if not expected or faceup is None or len(faceup) != n or written is None or (None, 0) not in written:
        return None
    stated = deal.get("chosen_suit")  # the proof holds it to the face-up cards (`deal.stated_suit`)
    tricks = deal.get("tricks", [])
    if stated not in SUIT_LETTERS or type(tricks) is not list:
        return None
    cards = cards_of(options.deck)
    chosen = SUIT_LETTERS.index(stated)
    read = fastread.tricks(ids, tricks, n)
    replayed = _played(table, chosen, dealer, tricks, read, proposed.surrendered)
    if replayed is None or read is None:
        return None
    played, play = replayed
    played_masks = [sum(map(BITS.__getitem__, cards)) for cards in played]
    if sum(played_masks).bit_count() != len(read) * n:  # a card played twice: the full path says so
        return None
    up = dict(zip(owners(dealer, n, faceup), [BITS[card] for card in faceup], strict=True))  # by seat
    hands: list[str | None] = [text for text, _mask in written]
    masks = [mask for _text, mask in written]
    paths: list[str] = []
    unchecked: dict[tuple[str, int | None], str] = {}
    later: list[tuple[int, int]] = []  # each derived hand's cards, its text written when read
    for seat, text in enumerate(hands):
        if text is not None:
            continue
        masks[seat] = mine = played_masks[seat] & ~up[seat]
        later.append((seat, mine))
        if played[seat]:
            paths.append(fastread.HAND_PATHS[seat])
        if mine.bit_count() < expected:
            unchecked[("DEAL-HAND-SIZE", seat)] = UNPLAYED if mine else NOTHING_PLAYED
    completed = {**deal, "hands": hands, "proposals": words, "tricks": tricks, "status": "played"}
    trick_ids = [cards for cards, _leader, _winner in read]
    texts = functools.partial(_write_hands, cards.deck.codes, later)
    completion = Replayed(completed, texts, paths, unchecked, (masks, trick_ids))
    completion.play, completion.played = play, played_masks
    completion.proposed, completion.faceup = proposed, faceup
    return completion


def _write_hands(codes: Sequence[str], hands: list[tuple[int, int]], deal: dict[str, Any]) -> None:
    """Write each derived hand (a seat and its cards as a bitmask) into a deal's JSON, in deck order."""
    written = deal["hands"]
    for seat, cards in hands:
        written[seat] = " ".join(map(codes.__getitem__, ids_of(cards)))


def _bare(windows: Any) -> bool:
    """Whether the proposal windows (at most three) hold only words written bare in their
    canonical names (the form the record model writes back)."""
    if type(windows) is not list or len(windows) > WINDOWS:
        return False
    try:
        return all(type(words) is list and CALLS_SET.issuperset(words) for words in windows)
    except TypeError:  # a call written as an object
        return False


def _plain(deal: dict[str, Any]) -> bool:
    """Whether the deal's result, totals and notes are as the record model writes them back: a
    result of whole scores only, whole totals, text notes."""
    result = deal.get("result", WHOLE)
    return (
        type(result) is dict
        and result.keys() == WHOLE.keys()
        and _whole(result["scores"])
        and _whole(deal.get("totals", []))
        and all(key not in deal or type(deal[key]) is str for key in NOTES)
    )


def _whole(values: Any) -> bool:
    """A JSON list of whole numbers (never true or false) the record model keeps as written."""
    return (
        type(values) is list
        and INT.issuperset(map(type, values))
        and (not values or (min(values) >= -POINTS_LIMIT and max(values) <= POINTS_LIMIT))
    )


def _written(ids: fastread.CardIds, hands: Any, n: int) -> list[tuple[str | None, int]] | None:
    """Each seat's face-down cards as written (None where left out) with their bitmask, when each
    one written is in canonical codes, no card twice; None when `hands` is in another form."""
    if hands is None:
        return [(None, 0)] * n
    if type(hands) is not list or len(hands) != n:
        return None
    written: list[tuple[str | None, int]] = []
    for hand in hands:
        if hand is None:
            written.append((None, 0))
            continue
        cards = fastread.card_ids(ids, hand)
        if cards is None or len(set(cards)) != len(cards):
            return None
        written.append((hand, sum(map(BITS.__getitem__, cards))))
    return written


def _played(
    table: Table,
    chosen: int,
    dealer: int,
    tricks: list[Any],
    read: list[fastread.ReadTrick] | None,
    surrendered: bool,
) -> tuple[Played, KarnoffelState | None] | None:
    """The cards each seat played, each trick (`read`) led by the rules' leader (the forehand, then
    each trick's winner under the chosen suit), with the state after the tricks (None when none is
    played); None when a surrender is followed by cards, or the play does not end with the
    record's last trick."""
    if read is None:
        return None
    n = table.players
    if not read or surrendered:
        return ([[] for _ in range(n)], None) if not read and surrendered else None
    if not all(type(trick) is str for trick in tricks):
        return None
    state = KarnoffelState(table, cards_of(table.options.deck), dealer, [], chosen, None, None)
    state.leader = state.forehand
    orders = SEAT_ORDERS[n]
    by_seat = []  # each trick's cards in seat order: card k of a trick led by seat l is seat (l + k)'s
    for trick, _leader, _winner in read:
        if state.phase == Phase.DONE:
            return None
        leader = state.leader
        by_seat.append(trick[n - leader :] + trick[: n - leader])
        end_trick(state, PlayedTrick(leader, trick, orders[leader][:]))
    played: Played = list(map(list, zip(*by_seat, strict=True)))
    return (played, state) if state.phase == Phase.DONE else None
