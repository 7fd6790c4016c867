"""The staged Karnöffel deal: what each round gives, the chosen suit, and the scores before the deal.

Rules `karnoffel.deal.*` and `karnoffel.deck` of spec/rules/karnoffel.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from itertools import islice

from recordkit.cards import KARNOFFEL_SUITS
from recordkit.diagnostics import Violation
from recordkit.model import trick_claims
from recordkit.rules.base import dealt_hands
from recordkit.rules.karnoffel.cards import DEVIL, SUIT_NAMES, Cards, cards_of, side_of
from recordkit.rules.karnoffel.record import KarnoffelDeal
from recordkit.rules.karnoffel.state import WINDOWS, KarnoffelState
from recordkit.rules.values import Table
from recordkit.rules.violations import at, card_list, deck_integrity

FACE_DOWN = {1: 0, 2: 2, 3: 4, 4: 4}
SIZES_ONLY = frozenset({"DEAL-HAND-SIZE"})
"""Deal problems that leave the deal scored: how many face-down cards a seat holds does not change
who won the tricks (and a hand known only from the cards played is short by the unplayed ones)."""
"""Face-down cards each seat holds when the deal stops after window 1, 2, 3, or is played."""
WHEN_SIZED = {
    0: "the deal ended in window 1, before any face-down card",
    2: "the deal ended in window 2, after round 2",
    4: "rounds 2 and 3 give two cards each",
}
"""Why a seat holds that many face-down cards, by the number (for DEAL-HAND-SIZE)."""


def stage_of(deal: KarnoffelDeal) -> int:
    """How far the cards were dealt: the window where a raise was surrendered, or 4 (all of them).

    Only a surrender that answers a raise counts, so that a misplaced word does not also make the
    rounds look the wrong size."""
    return stage_of_words([call.call for call in calls] for calls in deal.proposals)


def stage_of_words(windows: Iterable[Iterable[str]]) -> int:
    """`stage_of` for the windows' words (call names), shared by the full replay and the fast path."""
    for window, words in enumerate(islice(windows, WINDOWS), start=1):
        pending, passes = False, 0
        for word in words:
            if word == "raise":
                pending = True
            elif pending and word == "surrender":
                return window
            elif pending and word == "accept":
                break
            elif not pending and word == "pass":
                passes += 1
                if passes == 2:
                    break
    return WINDOWS + 1


def owners(dealer: int, players: int, faceup: Sequence[object]) -> tuple[int, ...]:
    """The seat each face-up card went to: dealt one by one from the forehand."""
    return _owners(dealer, players, len(faceup))


@cache
def _owners(dealer: int, players: int, count: int) -> tuple[int, ...]:
    """`owners` of `count` face-up cards, worked out once for each dealer and table size."""
    return tuple((dealer + 1 + index) % players for index in range(count))


def choosing_card(cards: Cards, faceup: list[int], tiebreak: str) -> int:
    """karnoffel.deal.chosen-suit: the lowest face-up card, whose suit is chosen; a tie goes to the
    first dealt, or with the option suit_rank to the lower suit (diamonds lowest)."""
    lowest = min(cards.rank[card] for card in faceup)
    tied = [card for card in faceup if cards.rank[card] == lowest]
    if tiebreak == "suit_rank":
        return max(tied, key=lambda card: cards.suit[card])
    return tied[0]


def before_deal(deal: KarnoffelDeal, players: int, given: Sequence[int | float] | None) -> list[int] | None:
    """Each side's score before the deal (karnoffel.propose.cap): the deal's own totals less its
    own scores when it writes both, else the running totals the caller knows; None when neither says.
    The deal's own line comes first: it is what the record says of the scores this deal was played
    at, where the running totals before a record's first deal are only assumed to be zero."""
    seats: list[int] | None = [int(total) for total in given] if given is not None else None
    if deal.totals is not None and deal.result is not None:
        totals, scores = deal.totals, deal.result.scores
        if len(totals) == players == len(scores):
            seats = [int(t - s) for t, s in zip(totals, scores, strict=True)]
    return sides_before(seats, players)


def sides_before(seats: Sequence[int] | None, players: int) -> list[int] | None:
    """Each side's score before the deal from each seat's (the best of the partners), or None when
    the seats' scores are not known; shared by the full replay and the fast path."""
    if seats is None or len(seats) != players:
        return None
    return [max([seats[seat] for seat in side]) for side in side_seats(players)]


@cache
def side_seats(players: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The seats of each side (`side_of`) at a table of `players`, worked out once per size."""
    sides = tuple(tuple(seat for seat in range(players) if side_of(seat) == side) for side in (0, 1))
    return sides[0], sides[1]


def faceup_entries(deal: KarnoffelDeal) -> list[str | None] | None:
    """The face-up cards as written, in dealing order (a card not known is None), or None when the
    record leaves round 1 out."""
    if deal.faceup is None:
        return None
    if isinstance(deal.faceup, str):
        return [*deal.faceup.split()]
    return list(deal.faceup)


def faceup_count(stage: int, n: int) -> int:
    """karnoffel.deal.faceup: how many face-up cards were dealt: two when window 1 ended the deal."""
    return 2 if stage == 1 else n


def faceup_ids(cards: Cards, deal: KarnoffelDeal, stage: int, n: int) -> list[int | None]:
    """The face-up cards' ids in dealing order, None where the record does not know the card (every
    one of them when it leaves round 1 out); unknown codes are dropped (compile reports them)."""
    entries = faceup_entries(deal)
    if entries is None:
        return [None] * faceup_count(stage, n)
    ids = cards.deck.index
    return [ids[code] if code is not None else None for code in entries if code is None or code in ids]


def dealer_seat(deal: KarnoffelDeal, n: int) -> tuple[int, list[Violation]]:
    """karnoffel.players: the dealer's seat at this table, and RECORD-SEAT when it is not one."""
    if deal.dealer < n:
        return deal.dealer, []
    return deal.dealer % n, [
        Violation(
            "RECORD-SEAT",
            "karnoffel.players",
            f"dealer {deal.dealer} is not a seat of {n} players",
            path="dealer",
        )
    ]


def set_up(
    table: Table, deal: KarnoffelDeal, before: Sequence[int | float] | None = None
) -> tuple[KarnoffelState, list[Violation]]:
    """The state after the deal, with the rounds' sizes, the deck and the chosen suit checked.

    A face-up card the record does not know is nobody's card here, and the chosen suit is then the
    one the record states (`chosen_suit`; the partial-record derivation writes it in)."""
    cards = cards_of(table.options.deck)
    n = table.players
    stage = stage_of(deal)
    dealer, problems = dealer_seat(deal, n)
    faceup = faceup_ids(cards, deal, stage, n)
    if deal.faceup is not None:
        problems += faceup_size(faceup, n, stage, deal.status)
    downs = [card_list(cards.deck, hand, "", "")[0] for hand in dealt_hands(deal)]
    problems += hand_sizes([len(hand) for hand in downs], n, stage, deal.status)
    downs = (downs + [[] for _ in range(n)])[:n]
    groups = [
        (f"the face-up card of seat {seat}", [card])
        for card, seat in zip(faceup, owners(dealer, n, faceup), strict=True)
        if card is not None
    ]
    groups += [(f"seat {seat}'s face-down cards", hand) for seat, hand in enumerate(downs)]
    dealt_mask = cards.deck.mask(card for _, group in groups for card in group)
    rest = [card for card in range(len(cards.deck)) if not dealt_mask >> card & 1]
    problems += deck_integrity(cards.deck, [*groups, ("the undealt pack", rest)], "karnoffel.deck")
    stated = KARNOFFEL_SUITS.index(deal.chosen_suit) if deal.chosen_suit is not None else None
    state, choosing = dealt_state(table, dealer, faceup, downs, stage, deal.status, stated)
    state.before = before_deal(deal, n, before)
    state.recorded = [trick_claims(trick) for trick in deal.tricks]
    state.scorable = not [problem for problem in problems if problem.code not in SIZES_ONLY]
    if None not in faceup or not round_one(len(faceup), n, stage):
        problems += stated_suit(deal.chosen_suit, cards, choosing)
    problems += status_problems(deal)
    return state, problems


def round_one(dealt: int, n: int, stage: int) -> bool:
    """Whether round 1 was dealt to the end (every face-up card), so that a suit was chosen."""
    return dealt == n and (stage > 1 or n == 2)


def dealt_state(
    table: Table,
    dealer: int,
    faceup: Sequence[int | None],
    downs: list[list[int]],
    stage: int,
    status: str,
    stated: int | None = None,
) -> tuple[KarnoffelState, int | None]:
    """The state once the cards are dealt (hands, chosen suit, value; the scores before the deal
    unknown), and the face-up card that chose the suit (None while round 1 is not complete, or
    when a face-up card is not known: the suit is then `stated`); shared by the full replay, the
    fast path and the score sheet."""
    deck = table.deck
    return state_of_hands(table, dealer, faceup, [deck.mask(hand) for hand in downs], stage, status, stated)


def state_of_hands(
    table: Table,
    dealer: int,
    faceup: Sequence[int | None],
    hands: list[int],
    stage: int,
    status: str,
    stated: int | None = None,
) -> tuple[KarnoffelState, int | None]:
    """`dealt_state` with each seat's face-down cards as a bitmask (`hands`, which it fills with
    the face-up cards): the fast path reads the hands as masks straight from their codes."""
    cards = cards_of(table.options.deck)
    n = table.players
    dealt = faceup[:n]
    for card, seat in zip(dealt, owners(dealer, n, dealt), strict=True):
        if card is not None:
            hands[seat] |= 1 << card
    complete = round_one(len(faceup), n, stage)
    known = [card for card in faceup if card is not None]
    choosing = None
    if complete and len(known) == len(faceup):
        choosing = choosing_card(cards, known, table.options.chosen_suit_tiebreak)
    chosen = cards.suit[choosing] if choosing is not None else stated if complete else None
    state = KarnoffelState(
        table=table,
        cards=cards,
        dealer=dealer,
        hands=hands,
        chosen=chosen,
        devil=cards.card(chosen, DEVIL) if chosen is not None else None,
        before=None,
        status=status,
        value=table.options.base_value,
        leader=(dealer + 1) % n,
    )
    return state, choosing


def faceup_size(faceup: Sequence[object], n: int, stage: int, status: str) -> list[Violation]:
    """karnoffel.deal.faceup: one face-up card each, only two of them if window 1 ended the deal."""
    expected = faceup_count(stage, n)
    if len(faceup) == expected or (status == "abandoned" and len(faceup) <= n):
        return []
    why = (
        "the deal ended by a surrender in window 1, when only the forehand and the next player had their "
        "face-up card"
        if stage == 1 and n > 2
        else "each player gets one face-up card in round 1"
    )
    return [
        Violation(
            "KARNOFFEL-FACEUP-SIZE",
            "karnoffel.deal.faceup",
            f"the record has {len(faceup)} face-up cards, not {expected}: {why}",
            path="faceup",
            expected=f"{expected} cards",
        )
    ]


def hand_sizes(sizes: Sequence[int], n: int, stage: int, status: str) -> list[Violation]:
    """karnoffel.deal.rounds: two face-down cards each in round 2 and two in round 3, as far as dealt
    (`sizes`: how many face-down cards the record gives each seat)."""
    expected = FACE_DOWN[stage]
    if not sizes and (expected == 0 or status == "abandoned"):
        return []
    if len(sizes) != n:
        hint = "; leave `hands` out when they are not known" if not sizes else ""
        return [
            Violation(
                "DEAL-HAND-COUNT",
                "karnoffel.deal.rounds",
                f"the record gives face-down cards for {len(sizes)} seats; there are {n} players{hint}",
                path="hands",
                expected=f"{n} hands",
            )
        ]
    problems = []
    for seat, size in enumerate(sizes):
        if size != expected and not (status == "abandoned" and size <= FACE_DOWN[4]):
            when = WHEN_SIZED[expected]
            problems.append(
                at(
                    Violation(
                        "DEAL-HAND-SIZE",
                        "karnoffel.deal.rounds",
                        f"seat {seat} has {size} face-down cards, not {expected}: {when}",
                        expected=str(expected),
                    ),
                    seat=seat,
                    path=f"hands[{seat}]",
                )
            )
    return problems


def stated_suit(stated: str | None, cards: Cards, choosing: int | None) -> list[Violation]:
    """karnoffel.deal.chosen-suit: a chosen suit written in the record must be the one the cards set."""
    if stated is None:
        return []
    if choosing is None:
        message = (
            "the record names a chosen suit, but round 1 was not dealt to the end, so no suit was chosen"
        )
        expected = "no chosen suit"
    else:
        chosen = KARNOFFEL_SUITS[cards.suit[choosing]]
        if chosen == stated:
            return []
        named = SUIT_NAMES[KARNOFFEL_SUITS.index(stated)]
        message = (
            f"the record says {named} were chosen, but the lowest face-up card is {cards.code(choosing)}, "
            f"which chooses {SUIT_NAMES[cards.suit[choosing]]}"
        )
        expected = chosen
    return [
        Violation(
            "KARNOFFEL-CHOSEN-SUIT",
            "karnoffel.deal.chosen-suit",
            message,
            path="chosen_suit",
            expected=expected,
        )
    ]


def status_problems(deal: KarnoffelDeal) -> list[Violation]:
    """karnoffel.deal.status: Karnöffel never throws a deal in; it is played, surrendered or abandoned."""
    if deal.status != "annulled":
        return []
    return [
        Violation(
            "KARNOFFEL-ANNULLED",
            "karnoffel.deal.status",
            "the deal is marked annulled, but Karnöffel has no rule that throws a deal in; mark it "
            '"abandoned" if play stopped',
            path="status",
        )
    ]
