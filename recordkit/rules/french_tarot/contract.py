"""French Tarot: settling the contract — the auction, the five-player call, the dog and the discard.

Rules `tarot.auction.*`, `tarot.call.*`, `tarot.dog.*` and `tarot.discard.*` of spec/rules/french-tarot.md.
"""

from __future__ import annotations

from recordkit.diagnostics import Violation
from recordkit.rules.french_tarot.cards import (
    BOUTS,
    DECK,
    DOG_SIZES,
    EXCUSE_BIT,
    FIRST_TRUMP,
    HONOUR_RANKS,
    KINGS,
    TRUMPS,
    bit,
    plain,
    popcount,
    rank_of,
)
from recordkit.rules.french_tarot.record import BIDS
from recordkit.rules.french_tarot.scoring import GARDE
from recordkit.rules.french_tarot.state import Phase, TarotState
from recordkit.rules.values import Action

RANK_NAMES = {14: "King", 13: "Queen", 12: "Knight", 11: "Jack"}
RESTRICTED = BOUTS | KINGS | TRUMPS
"""The cards the discard rules restrict (tarot.discard.bout, .king, .trump); any other held card may go."""


def take_bid(state: TarotState, action: Action) -> list[Violation]:
    """tarot.auction.*: one call of the auction, in turn, each bid above the last."""
    problems: list[Violation] = []
    seat = state.seat_after(state.dealer, 1 + state.calls_made)
    if action.seat is not None and action.seat != seat:
        problems.append(
            Violation(
                "TAROT-AUCTION-ORDER",
                "tarot.auction.order",
                f"call {state.calls_made + 1} of the auction is seat {seat}'s turn, not seat {action.seat}'s",
                seat=action.seat,
                path=action.path,
                expected=f"seat {seat}",
            )
        )
    bid = action.value
    if bid and bid <= state.contract:
        problems.append(
            Violation(
                "TAROT-BID-NOT-HIGHER",
                "tarot.auction.higher",
                f"seat {seat} bid {BIDS[bid]} after {BIDS[state.contract]}: a bid must be higher than "
                f"the one before it",
                seat=seat,
                path=action.path,
                expected=f"pass or a bid above {BIDS[state.contract]}",
            )
        )
    elif bid:
        state.contract = bid
        state.taker = seat
    state.calls_made += 1
    if state.calls_made == state.players:
        end_auction(state)
    return problems


def end_auction(state: TarotState) -> None:
    """After the last call: the call, the dog, the play, a goulash, or a redeal (tarot.auction.all-pass)."""
    if state.taker is None:
        if state.table.options.all_pass == "goulash":
            state.goulash = True
            state.phase = Phase.PLAY
        else:
            state.phase = Phase.DONE
    elif state.players == 5:
        state.phase = Phase.CALL
    else:
        after_call(state)


def take_call(state: TarotState, action: Action) -> list[Violation]:
    """tarot.call.*: the five-player taker calls a King (or a lower honour holding all higher)."""
    card = action.value
    problems: list[Violation] = []
    assert state.taker is not None
    if not is_honour(card):
        problems.append(
            Violation(
                "TAROT-CALL-CARD",
                "tarot.call.card",
                f"the taker called {DECK.codes[card]}: the called card is a King (or a Queen, Knight "
                f"or Jack when holding all the higher honours)",
                seat=state.taker,
                path=action.path,
            )
        )
    else:
        rank = rank_of(card)
        missing = needed_honours(card) & ~state.dealt[state.taker]
        if missing:
            problems.append(
                Violation(
                    "TAROT-CALL-RANK",
                    "tarot.call.rank",
                    f"the taker called {DECK.codes[card]}, a {RANK_NAMES[rank]}, without holding "
                    f"{DECK.format_mask(missing)}: a {RANK_NAMES[rank]} may be called only by a taker "
                    f"holding every higher honour",
                    seat=state.taker,
                    path=action.path,
                    expected=callable_text(state),
                )
            )
    state.called = card
    holders = [seat for seat, hand in enumerate(state.dealt) if hand & bit(card)]
    state.partner = holders[0] if holders and holders[0] != state.taker else None
    after_call(state)
    return problems


def is_honour(card: int) -> bool:
    """tarot.call.card: whether a card may be called at all (a King, Queen, Knight or Jack)."""
    return card < FIRST_TRUMP and rank_of(card) in HONOUR_RANKS


def needed_honours(card: int) -> int:
    """tarot.call.rank: the cards a taker must hold to call this honour, every card of each higher
    honour rank (none for a King, or for a card that is no honour)."""
    if not is_honour(card):
        return 0
    rank = rank_of(card)
    return DECK.mask([plain(suit, r) for r in HONOUR_RANKS if r > rank for suit in range(4)])


def callable_cards(state: TarotState) -> list[int]:
    """The cards the taker may call: the lowest honour rank he does not hold all four of."""
    assert state.taker is not None
    held = state.dealt[state.taker]
    for rank in HONOUR_RANKS:
        cards = [plain(s, rank) for s in range(4)]
        if not all(held & bit(c) for c in cards):
            return cards
    return [plain(s, HONOUR_RANKS[-1]) for s in range(4)]


def callable_text(state: TarotState) -> str:
    return " ".join(DECK.codes[c] for c in callable_cards(state))


def after_call(state: TarotState) -> None:
    """Petite and garde take the dog into the taker's hand and open the discard; the others play."""
    assert state.taker is not None
    if state.contract <= GARDE:
        state.phase = Phase.DISCARD
        hand = state.hands[state.taker] | state.dog
        state.hands[state.taker] = hand
        pool = hand & ~(TRUMPS | EXCUSE_BIT | KINGS)
        state.trumps_needed_in_discard = max(0, DOG_SIZES[state.players] - popcount(pool))
    else:
        state.phase = Phase.PLAY


def take_discard(state: TarotState, action: Action) -> list[Violation]:
    """tarot.discard.*: one card of the taker's discard; a held card that is no trump, King or
    bout (the common one) is taken without looking further."""
    card_bit = 1 << action.value
    taker = state.taker
    assert taker is not None
    hand = state.hands[taker]
    problems = [] if hand & card_bit and not card_bit & RESTRICTED else _discard_problems(state, action)
    state.hands[taker] = hand & ~card_bit
    state.discard |= card_bit
    state.discarded += 1
    if state.discarded == DOG_SIZES[state.players]:
        state.phase = Phase.PLAY
    return problems


def _discard_problems(state: TarotState, action: Action) -> list[Violation]:
    """What is wrong with discarding this card, if anything (tarot.discard.*)."""
    card = action.value
    assert state.taker is not None
    taker = state.taker
    code = DECK.codes[card]
    problems: list[Violation] = []
    permissive = state.table.options.discard_policy == "source_permissive"
    if not state.hands[taker] & bit(card):
        problems.append(
            Violation(
                "TAROT-DISCARD-NOT-HELD",
                "tarot.discard.held",
                f"the taker discarded {code}, which is neither in his hand nor in the dog",
                seat=taker,
                path=action.path,
            )
        )
    elif bit(card) & BOUTS:
        problems.append(
            Violation(
                "TAROT-DISCARD-BOUT",
                "tarot.discard.bout",
                f"the taker discarded {code}: a bout (T1, T21, the Excuse) may never be discarded",
                seat=taker,
                path=action.path,
            )
        )
    elif bit(card) & KINGS and not permissive:
        problems.append(
            Violation(
                "TAROT-DISCARD-KING",
                "tarot.discard.king",
                f"the taker discarded {code}: a King may not be discarded",
                seat=taker,
                path=action.path,
            )
        )
    elif (
        bit(card) & TRUMPS
        and not permissive
        and popcount(state.discard & TRUMPS) >= state.trumps_needed_in_discard
    ):
        needed = state.trumps_needed_in_discard
        problems.append(
            Violation(
                "TAROT-DISCARD-TRUMP",
                "tarot.discard.trump",
                f"the taker discarded the trump {code}, but his plain cards (not Kings) left room for "
                f"{'no trump' if needed == 0 else f'only {needed} trump(s)'} in the discard: trumps go to "
                f"the discard only when nothing else can",
                seat=taker,
                path=action.path,
                expected=f"at most {needed} trump(s) in the discard",
            )
        )
    return problems


def discardable(state: TarotState) -> int:
    """The cards the taker may put in the discard next."""
    assert state.taker is not None
    hand = state.hands[state.taker]
    remaining = DOG_SIZES[state.players] - state.discarded
    if state.table.options.discard_policy == "source_permissive":
        return hand & ~BOUTS
    pool = hand & ~(TRUMPS | EXCUSE_BIT | KINGS)
    return pool if popcount(pool) >= remaining else pool | (hand & TRUMPS & ~BOUTS)
