"""The French Tarot ruleset: 3, 4 and 5 players, FFT rules with the source's variants as options.

Each check cites its rule id in spec/rules/french-tarot.md. Seats follow the order of play, so
the player "on the dealer's right" of the FFT text is seat dealer+1.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import ClassVar

from recordkit.cards import ids_of
from recordkit.diagnostics import Violation
from recordkit.model import Call, trick_claims, trick_codes
from recordkit.rules.base import (
    Action,
    PlayedTrick,
    Ruleset,
    Table,
    Turn,
    card_list,
    deck_integrity,
    size_check,
    unknown_card,
)
from recordkit.rules.french_tarot import play as rules_play
from recordkit.rules.french_tarot.cards import (
    BOUTS,
    DECK,
    EXCUSE,
    EXCUSE_BIT,
    HONOUR_RANKS,
    HONOURS,
    KINGS,
    PETIT,
    SUIT_MASKS,
    TRUMPS,
    half_points,
    plain,
    rank_of,
    suit_of,
)
from recordkit.rules.french_tarot.options import TarotOptions
from recordkit.rules.french_tarot.record import (
    BIDS,
    Misere,
    Poignee,
    Slam,
    TarotDeal,
    TarotRecord,
    TarotResult,
)
from recordkit.rules.french_tarot.scoring import (
    GARDE,
    POIGNEE_LEVELS,
    POIGNEE_THRESHOLDS,
    as_points,
    contract_count,
    deal_scores,
    excuse_wins,
)
from recordkit.rules.french_tarot.state import PHASE_OF_KIND, Phase, TarotState
from recordkit.rules.french_tarot.state import Poignee as ShownPoignee

HAND_SIZES = {3: 24, 4: 18, 5: 15}
DOG_SIZES = {3: 6, 4: 6, 5: 3}
RANK_NAMES = {14: "King", 13: "Queen", 12: "Knight", 11: "Jack"}


def _bit(card: int) -> int:
    return 1 << card


def _count(mask: int) -> int:
    return bin(mask).count("1")


class FrenchTarot(Ruleset[TarotOptions, TarotDeal, TarotState]):
    """French Tarot (FFT rules; the source's misère and goulash as options)."""

    name: ClassVar[str] = "french-tarot"
    title: ClassVar[str] = "French Tarot"
    spec: ClassVar[str] = "spec/rules/french-tarot.md"
    score_rule: ClassVar[str] = "tarot.score"
    totals_rule: ClassVar[str] = "tarot.score.totals"
    dealer_rule: ClassVar[str] = "tarot.deal.rotation"
    Options = TarotOptions
    Deal = TarotDeal
    Record = TarotRecord

    # --- setting up -------------------------------------------------------------------------

    def table(self, options: TarotOptions, players: int) -> tuple[Table | None, list[Violation]]:
        if players not in HAND_SIZES:
            return None, [
                Violation(
                    "RECORD-PLAYERS",
                    "tarot.players",
                    f"French Tarot is played by 3, 4 or 5 players, not {players}",
                    expected="3, 4 or 5 players",
                )
            ]
        return Table(options, players, DECK), []

    def compile(self, table: Table, deal: TarotDeal) -> tuple[list[Action], list[Violation]]:
        problems: list[Violation] = []
        actions: list[Action] = []
        for index, hand in enumerate(deal.hands):
            problems += card_list(DECK, hand, f"hands[{index}]", f"seat {index}'s hand")[1]
        problems += card_list(DECK, deal.dog, "dog", "the dog")[1]
        for index, call in enumerate(deal.auction):
            path = f"auction[{index}]"
            if call.call not in BIDS:
                problems.append(
                    Violation(
                        "RECORD-UNKNOWN-CALL",
                        "tarot.auction.calls",
                        f"{call.call!r} is not a call of French Tarot; the calls are {', '.join(BIDS)}",
                        path=path,
                    )
                )
                continue
            actions.append(Action("bid", BIDS.index(call.call), call.seat, path, note=call))
        if deal.call is not None:
            ids, bad = card_list(DECK, deal.call, "call", "the called card")
            problems += bad
            actions += [Action("call", card, None, "call") for card in ids]
        if deal.discard is not None:
            ids, bad = card_list(DECK, deal.discard, "discard", "the discard")
            problems += bad
            actions += [
                Action("discard", card, None, "discard", position=i + 1) for i, card in enumerate(ids)
            ]
        for index, announcement in enumerate(deal.announcements):
            path = f"announcements[{index}]"
            if isinstance(announcement, Poignee):
                ids, bad = card_list(DECK, announcement.cards, path + ".cards", "the poignée")
                problems += bad
                value: tuple[object, ...] = ("poignee", announcement.level, tuple(ids))
            elif isinstance(announcement, Slam):
                value = ("slam",)
            else:
                value = ("misere", announcement.kind)
            actions.append(Action("announce", value, announcement.seat, path, note=announcement))
        for number, trick in enumerate(deal.tricks, start=1):
            path = f"tricks[{number - 1}]"
            codes = trick_codes(trick)
            partial_allowed = deal.status == "abandoned" and number == len(deal.tricks)
            if len(codes) != table.players and not (partial_allowed and len(codes) < table.players):
                problems.append(
                    Violation(
                        "PLAY-TRICK-SIZE",
                        "tarot.trick.size",
                        f"trick {number} has {len(codes)} cards; every trick has one card from each of "
                        f"the {table.players} players",
                        path=path,
                        trick=number,
                    )
                )
            for position, code in enumerate(codes, start=1):
                found = DECK.index.get(code)
                if found is None:
                    problems.append(
                        _unknown(code, path, f"card {position} of trick {number}", number, position)
                    )
                    continue
                actions.append(Action("play", found, None, path, number, position))
        return actions, problems

    def start(self, table: Table, deal: TarotDeal) -> tuple[TarotState, list[Violation]]:
        n = table.players
        problems: list[Violation] = []
        hands = [card_list(DECK, hand, "", "")[0] for hand in deal.hands]
        dog = card_list(DECK, deal.dog, "", "")[0]
        if len(hands) != n:
            problems.append(
                Violation(
                    "DEAL-HAND-COUNT",
                    "tarot.deal.sizes",
                    f"the deal gives {len(hands)} hands for {n} players",
                    expected=f"{n} hands",
                    path="hands",
                )
            )
            hands = (hands + [[] for _ in range(n)])[:n]
        for seat, hand in enumerate(hands):
            for v in size_check(
                f"seat {seat}'s hand", hand, HAND_SIZES[n], "tarot.deal.sizes", "DEAL-HAND-SIZE"
            ):
                problems.append(_at(v, path=f"hands[{seat}]", seat=seat))
        for v in size_check("the dog", dog, DOG_SIZES[n], "tarot.deal.sizes", "DEAL-DOG-SIZE"):
            problems.append(_at(v, path="dog"))
        groups = [(f"seat {seat}'s hand", hand) for seat, hand in enumerate(hands)] + [("the dog", dog)]
        problems += deck_integrity(DECK, groups, "tarot.deck")
        masks = [DECK.mask(hand) for hand in hands]
        state = TarotState(
            table=table,
            dealer=deal.dealer % n,
            dealt=list(masks),
            hands=list(masks),
            dog=DECK.mask(dog),
            tricks_per_deal=HAND_SIZES[n],
            status=deal.status,
            recorded=[trick_claims(t) for t in deal.tricks],
        )
        if deal.dealer >= n:
            problems.append(
                Violation(
                    "RECORD-SEAT",
                    "tarot.players",
                    f"dealer {deal.dealer} is not a seat of {n} players",
                    path="dealer",
                )
            )
        state.scorable = not problems
        problems += self._petit_sec(state)
        if deal.status == "annulled":
            state.phase = Phase.DONE
        return state, problems

    def _petit_sec(self, state: TarotState) -> list[Violation]:
        """tarot.deal.petit-sec: the Petit alone without the Excuse voids the deal (option)."""
        holders = [
            seat for seat, hand in enumerate(state.dealt) if hand & (TRUMPS | EXCUSE_BIT) == _bit(PETIT)
        ]
        annul = state.table.options.petit_sec == "annul"
        if state.status == "annulled" and not (annul and holders):
            why = "no player holds the Petit sec" if annul else "the option petit_sec is 'ignore'"
            return [
                Violation(
                    "TAROT-ANNUL-NO-REASON",
                    "tarot.deal.petit-sec",
                    f"the deal is marked annulled but {why}; a deal is annulled only for a Petit sec",
                    path="status",
                )
            ]
        if state.status != "annulled" and annul and holders:
            return [
                Violation(
                    "TAROT-PETIT-SEC",
                    "tarot.deal.petit-sec",
                    f"seat {holders[0]} holds the Petit sec (T1 as only trump, no Excuse): the deal must be "
                    f'annulled and dealt again (mark it "status": "annulled")',
                    seat=holders[0],
                    path="status",
                )
            ]
        return []

    # --- whose turn ---------------------------------------------------------------------------

    def turn(self, state: TarotState) -> Turn | None:
        phase = state.phase
        if phase == Phase.AUCTION:
            return Turn(state.seat_after(state.dealer, 1 + state.calls_made), frozenset({"bid"}))
        if phase == Phase.CALL:
            return Turn(state.taker, frozenset({"call"}))
        if phase == Phase.DISCARD:
            return Turn(state.taker, frozenset({"discard"}))
        if phase == Phase.PLAY:
            kinds = {"play", "announce"} if not state.tricks and state.current is None else {"play"}
            return Turn(state.to_play(), frozenset(kinds))
        return None

    # --- one action ---------------------------------------------------------------------------

    def advance(self, state: TarotState, action: Action) -> list[Violation]:
        if state.phase == Phase.DONE:
            return self._after_end(state, action)
        if action.kind == "play" and state.phase == Phase.PLAY:
            return self._play(state, action)
        target = PHASE_OF_KIND[action.kind]
        if target < state.phase or (action.kind == "announce" and (state.tricks or state.current)):
            return self._out_of_place(state, action)
        problems = self._close_phases(state, target)
        if _over(state):  # an all-pass auction closed by a later action
            return problems + self._after_end(state, action)
        handlers = {
            "bid": self._bid,
            "call": self._call,
            "discard": self._discard,
            "announce": self._announce,
            "play": self._play,
        }
        return problems + handlers[action.kind](state, action)

    def _close_phases(self, state: TarotState, target: Phase) -> list[Violation]:
        """Move to the action's phase, reporting each step the record skipped."""
        problems: list[Violation] = []
        while state.phase < target:
            if state.phase == Phase.AUCTION:
                problems.append(
                    Violation(
                        "TAROT-AUCTION-INCOMPLETE",
                        "tarot.auction.once",
                        f"only {state.calls_made} of the {state.players} players spoke in the auction; "
                        f"each player speaks once",
                        path="auction",
                    )
                )
                self._end_auction(state)
            elif state.phase == Phase.CALL:
                problems.append(
                    Violation(
                        "TAROT-CALL-MISSING",
                        "tarot.call.when",
                        "with five players the taker calls a card (a King) before the dog is turned; "
                        "the record names none",
                        seat=state.taker,
                        path="call",
                    )
                )
                state.scorable = False
                self._after_call(state)
            elif state.phase == Phase.DISCARD:
                dog_size = DOG_SIZES[state.players]
                problems.append(
                    Violation(
                        "TAROT-DISCARD-SIZE",
                        "tarot.discard.size",
                        f"the taker took the dog and discarded {state.discarded} cards, not {dog_size}",
                        seat=state.taker,
                        path="discard",
                        expected=f"{dog_size} cards",
                    )
                )
                state.scorable = False
                state.phase = Phase.PLAY
        return problems

    def _out_of_place(self, state: TarotState, action: Action) -> list[Violation]:
        """An action whose step is already over, or that this deal does not have."""
        if action.kind == "bid":
            return [
                Violation(
                    "TAROT-AUCTION-EXTRA",
                    "tarot.auction.once",
                    f"every player has already spoken once; call {BIDS[action.value]!r} is one too many",
                    path=action.path,
                )
            ]
        if action.kind == "call":
            why = (
                "only five-player games call a partner"
                if state.players != 5
                else "nobody took, so there is no call"
                if state.taker is None
                else "the taker calls only once"
            )
            return [
                Violation(
                    "TAROT-CALL-NOT-ALLOWED",
                    "tarot.call.when",
                    f"a card is called but {why}",
                    path=action.path,
                )
            ]
        if action.kind == "discard":
            if state.taker is None or state.contract > GARDE:
                contract = BIDS[state.contract] if state.taker is not None else "no contract"
                return [
                    Violation(
                        "TAROT-DISCARD-NOT-ALLOWED",
                        "tarot.dog.contract",
                        f"with {contract} the taker does not take the dog, so there is no discard",
                        path=action.path,
                    )
                ]
            return [
                Violation(
                    "TAROT-DISCARD-SIZE",
                    "tarot.discard.size",
                    f"the discard has more than the {DOG_SIZES[state.players]} cards of the dog",
                    path=action.path,
                    expected=f"{DOG_SIZES[state.players]} cards",
                )
            ]
        return [
            Violation(
                "TAROT-ANNOUNCE-LATE",
                "tarot.announce.when",
                "announcements are made before the first card is played",
                seat=action.seat,
                path=action.path,
            )
        ]

    def _after_end(self, state: TarotState, action: Action) -> list[Violation]:
        """Something recorded after the deal ended: report it once."""
        if state.overrun_reported:
            return []
        state.overrun_reported = True
        state.scorable = False
        if state.status == "annulled":
            return [
                Violation(
                    "DEAL-ANNULLED-PLAYED",
                    "tarot.deal.petit-sec",
                    "the deal is annulled, yet the record goes on with calls or cards",
                    path=action.path,
                )
            ]
        if state.taker is None and not state.goulash:
            return [
                Violation(
                    "TAROT-ALL-PASS-PLAYED",
                    "tarot.auction.all-pass",
                    "everybody passed, so the cards are dealt again (option all_pass='redeal'), "
                    "yet the record goes on",
                    path=action.path,
                )
            ]
        return [
            Violation(
                "DEAL-EXTRA-TRICK",
                "tarot.trick.count",
                f"all {state.tricks_per_deal} tricks are played; the record has more",
                path=action.path,
                trick=action.trick,
            )
        ]

    # --- auction ------------------------------------------------------------------------------

    def _bid(self, state: TarotState, action: Action) -> list[Violation]:
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
            self._end_auction(state)
        return problems

    def _end_auction(self, state: TarotState) -> None:
        if state.taker is None:
            if state.table.options.all_pass == "goulash":
                state.goulash = True
                state.phase = Phase.PLAY
            else:
                state.phase = Phase.DONE
        elif state.players == 5:
            state.phase = Phase.CALL
        else:
            self._after_call(state)

    # --- the five-player call -----------------------------------------------------------------

    def _call(self, state: TarotState, action: Action) -> list[Violation]:
        card = action.value
        problems: list[Violation] = []
        assert state.taker is not None
        if card >= 56 or rank_of(card) not in HONOUR_RANKS:
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
            held = state.dealt[state.taker]
            needed = [r for r in HONOUR_RANKS if r > rank]
            missing = [
                DECK.codes[plain(s, r)] for r in needed for s in range(4) if not held & _bit(plain(s, r))
            ]
            if missing:
                problems.append(
                    Violation(
                        "TAROT-CALL-RANK",
                        "tarot.call.rank",
                        f"the taker called {DECK.codes[card]}, a {RANK_NAMES[rank]}, without holding "
                        f"{' '.join(missing)}: a {RANK_NAMES[rank]} may be called only by a taker "
                        f"holding every higher honour",
                        seat=state.taker,
                        path=action.path,
                        expected=self._callable_text(state),
                    )
                )
        state.called = card
        holders = [seat for seat, hand in enumerate(state.dealt) if hand & _bit(card)]
        state.partner = holders[0] if holders and holders[0] != state.taker else None
        self._after_call(state)
        return problems

    def _callable(self, state: TarotState) -> list[int]:
        """The cards the taker may call: the lowest honour rank he does not hold all four of."""
        assert state.taker is not None
        held = state.dealt[state.taker]
        for rank in HONOUR_RANKS:
            cards = [plain(s, rank) for s in range(4)]
            if not all(held & _bit(c) for c in cards):
                return cards
        return [plain(s, HONOUR_RANKS[-1]) for s in range(4)]

    def _callable_text(self, state: TarotState) -> str:
        return " ".join(DECK.codes[c] for c in self._callable(state))

    def _after_call(self, state: TarotState) -> None:
        assert state.taker is not None
        if state.contract <= GARDE:
            state.phase = Phase.DISCARD
            hand = state.hands[state.taker] | state.dog
            state.hands[state.taker] = hand
            pool = hand & ~(TRUMPS | EXCUSE_BIT | KINGS)
            state.trumps_allowed_in_discard = _count(pool) < DOG_SIZES[state.players]
        else:
            state.phase = Phase.PLAY

    # --- the discard --------------------------------------------------------------------------

    def _discard(self, state: TarotState, action: Action) -> list[Violation]:
        card = action.value
        assert state.taker is not None
        taker = state.taker
        code = DECK.codes[card]
        problems: list[Violation] = []
        permissive = state.table.options.discard_policy == "source_permissive"
        if not state.hands[taker] & _bit(card):
            problems.append(
                Violation(
                    "TAROT-DISCARD-NOT-HELD",
                    "tarot.discard.held",
                    f"the taker discarded {code}, which is neither in his hand nor in the dog",
                    seat=taker,
                    path=action.path,
                )
            )
        elif _bit(card) & BOUTS:
            problems.append(
                Violation(
                    "TAROT-DISCARD-BOUT",
                    "tarot.discard.bout",
                    f"the taker discarded {code}: a bout (T1, T21, the Excuse) may never be discarded",
                    seat=taker,
                    path=action.path,
                )
            )
        elif _bit(card) & KINGS and not permissive:
            problems.append(
                Violation(
                    "TAROT-DISCARD-KING",
                    "tarot.discard.king",
                    f"the taker discarded {code}: a King may not be discarded",
                    seat=taker,
                    path=action.path,
                )
            )
        elif _bit(card) & TRUMPS and not permissive and not state.trumps_allowed_in_discard:
            problems.append(
                Violation(
                    "TAROT-DISCARD-TRUMP",
                    "tarot.discard.trump",
                    f"the taker discarded the trump {code} while he had enough plain cards (not Kings) "
                    f"to discard: trumps go to the discard only when nothing else can",
                    seat=taker,
                    path=action.path,
                )
            )
        state.hands[taker] &= ~_bit(card)
        state.discard |= _bit(card)
        state.discarded += 1
        if state.discarded == DOG_SIZES[state.players]:
            state.phase = Phase.PLAY
        return problems

    # --- announcements ------------------------------------------------------------------------

    def _announce(self, state: TarotState, action: Action) -> list[Violation]:
        kind = action.value[0]
        seat = action.seat
        assert seat is not None
        if seat >= state.players:
            return [
                Violation(
                    "RECORD-SEAT",
                    "tarot.players",
                    f"seat {seat} is not at a table of {state.players}",
                    path=action.path,
                )
            ]
        if state.goulash and kind != "misere":
            return [
                Violation(
                    "TAROT-GOULASH-ANNOUNCE",
                    "tarot.goulash.announce",
                    f"seat {seat} announced a {kind}: in a goulash there is no slam and no poignée",
                    seat=seat,
                    path=action.path,
                )
            ]
        if kind == "slam":
            return self._slam(state, seat, action)
        if kind == "poignee":
            return self._poignee(state, seat, action)
        return self._misere(state, seat, action)

    def _slam(self, state: TarotState, seat: int, action: Action) -> list[Violation]:
        if seat != state.taker:
            return [
                Violation(
                    "TAROT-SLAM-NOT-TAKER",
                    "tarot.slam.who",
                    f"seat {seat} announced a slam, but only the taker (seat {state.taker}) may",
                    seat=seat,
                    path=action.path,
                )
            ]
        state.slam = True
        return []

    def _poignee(self, state: TarotState, seat: int, action: Action) -> list[Violation]:
        _, level, cards = action.value
        shown = DECK.mask(cards)
        threshold = POIGNEE_THRESHOLDS[state.players][POIGNEE_LEVELS.index(level)]
        problems: list[Violation] = []

        def problem(code: str, rule: str, message: str, expected: str | None = None) -> None:
            problems.append(Violation(code, rule, message, seat=seat, path=action.path, expected=expected))

        if seat in state.poignees:
            problem("TAROT-POIGNEE-TWICE", "tarot.poignee.once", f"seat {seat} showed a second poignée")
        if len(cards) != threshold or _count(shown) != len(cards):
            problem(
                "TAROT-POIGNEE-COUNT",
                "tarot.poignee.count",
                f"seat {seat} showed {len(cards)} cards for a {level} poignée; exactly {threshold} are shown "
                f"at {state.players} players",
                expected=f"{threshold} trumps",
            )
        not_trumps = shown & ~(TRUMPS | EXCUSE_BIT)
        if not_trumps:
            problem(
                "TAROT-POIGNEE-CARD",
                "tarot.poignee.trumps",
                f"seat {seat} showed {DECK.format_mask(not_trumps)} in a poignée: only trumps (and the "
                f"Excuse in place of one) are shown",
            )
        discarded_trumps = state.discard & TRUMPS if seat == state.taker else 0
        hand = state.hands[seat] | discarded_trumps
        not_held = shown & ~hand
        if not_held:
            problem(
                "TAROT-POIGNEE-NOT-HELD",
                "tarot.poignee.held",
                f"seat {seat} showed {DECK.format_mask(not_held)} in a poignée without holding it",
            )
        hidden_trumps = hand & TRUMPS & ~shown
        if shown & EXCUSE_BIT and hidden_trumps:
            problem(
                "TAROT-POIGNEE-EXCUSE",
                "tarot.poignee.excuse",
                f"seat {seat} showed the Excuse in a poignée while holding the trump(s) "
                f"{DECK.format_mask(hidden_trumps)}: the Excuse may stand in for a trump only when the player "
                f"has no other trump",
            )
        state.poignees.setdefault(seat, ShownPoignee(level, shown))
        return problems

    def _misere(self, state: TarotState, seat: int, action: Action) -> list[Violation]:
        kind = action.value[1]
        if not state.table.options.misere:
            return [
                Violation(
                    "TAROT-MISERE-DISABLED",
                    "tarot.misere.enabled",
                    f"seat {seat} declared a misère, but the record's options do not allow misères "
                    f'(set "misere": true)',
                    seat=seat,
                    path=action.path,
                )
            ]
        if (seat, kind) in state.miseres:
            return [
                Violation(
                    "TAROT-MISERE-TWICE",
                    "tarot.misere.once",
                    f"seat {seat} declared the misère of {kind} twice",
                    seat=seat,
                    path=action.path,
                )
            ]
        state.miseres.append((seat, kind))
        dealt = state.dealt[seat]
        spoiler = dealt & (TRUMPS | EXCUSE_BIT) if kind == "trumps" else dealt & (HONOURS | BOUTS)
        if spoiler:
            what = "no trump and no Excuse" if kind == "trumps" else "no King, Queen, Knight, Jack or bout"
            return [
                Violation(
                    "TAROT-MISERE-FALSE",
                    f"tarot.misere.{kind}",
                    f"seat {seat} declared the misère of {kind} but was dealt "
                    f"{DECK.format_mask(spoiler)}; that misère needs {what}",
                    seat=seat,
                    path=action.path,
                )
            ]
        return []

    # --- card play ----------------------------------------------------------------------------

    def _play(self, state: TarotState, action: Action) -> list[Violation]:
        card = action.value
        problems: list[Violation] = []
        number = len(state.tricks) + 1
        if state.current is None:
            leader = state.to_play()
            state.current = PlayedTrick(leader)
            recorded = state.recorded[number - 1][0] if number <= len(state.recorded) else None
            if recorded is not None and recorded != leader:
                problems.append(
                    Violation(
                        "PLAY-LEADER-MISMATCH",
                        "tarot.trick.leader",
                        f"the record says seat {recorded} led trick {number}, but by the rules seat "
                        f"{leader} leads it",
                        seat=recorded,
                        trick=number,
                        path=action.path,
                        expected=f"seat {leader}",
                    )
                )
        trick = state.current
        seat = (trick.leader + len(trick.cards)) % state.players
        hand = state.hands[seat]
        bit = 1 << card
        wrong = None
        if not hand & bit:
            wrong = self._not_held(state, seat, card)
            state.scorable = False
        elif not rules_play.legal_mask(hand, trick.cards) & bit:
            wrong = rules_play.wrong_card(hand, trick.cards, card, seat)
        elif state.called is not None and number == 1:
            wrong = self._first_lead(state, trick, card, seat)
        if wrong is not None:
            where = {"seat": seat, "trick": number, "position": len(trick.cards) + 1, "path": action.path}
            problems.append(_at(wrong, **where))
        state.hands[seat] = hand & ~bit
        state.played_in.setdefault(card, number)
        trick.cards.append(card)
        trick.seats.append(seat)
        if len(trick.cards) == state.players:
            problems += self._close_trick(state, trick, number, action)
        return problems

    def _not_held(self, state: TarotState, seat: int, card: int) -> Violation:
        code = DECK.codes[card]
        if card in state.played_in:
            why = f"it was already played in trick {state.played_in[card]}"
        else:
            holders = [s for s, h in enumerate(state.hands) if h & _bit(card)]
            why = f"seat {holders[0]} holds it" if holders else "it is not in his hand"
        return Violation("PLAY-NOT-HELD", "tarot.play.held", f"seat {seat} played {code}, but {why}")

    def _first_lead(self, state: TarotState, trick: PlayedTrick, card: int, seat: int) -> Violation | None:
        """tarot.play.first-lead: five players, the opening lead avoids the called suit."""
        ban = state.table.options.called_suit_first_lead_ban
        if state.called is None or state.tricks or ban == "off" or state.called >= 56:
            return None
        suit_setting = trick.cards == [] or (ban == "suit_setting_card" and trick.cards == [EXCUSE])
        called_suit = suit_of(state.called)
        if not suit_setting or suit_of(card) != called_suit or card == state.called:
            return None
        if not state.hands[seat] & ~SUIT_MASKS[called_suit]:
            return None  # nothing else to lead
        return Violation(
            "TAROT-CALLED-SUIT-LEAD",
            "tarot.play.first-lead",
            f"seat {seat} opened with {DECK.codes[card]} in the suit of the called card "
            f"{DECK.codes[state.called]}: the first lead may not be in that suit, except the called card itself",
        )

    def _close_trick(
        self, state: TarotState, trick: PlayedTrick, number: int, action: Action
    ) -> list[Violation]:
        index = number - 1
        if excuse_wins(state, index, trick):
            trick.winner = trick.seats[trick.cards.index(EXCUSE)]
        else:
            trick.winner = trick.seats[rules_play.winning_index(trick.cards)]
        problems: list[Violation] = []
        recorded = state.recorded[index][1] if index < len(state.recorded) else None
        if recorded is not None and recorded != trick.winner:
            problems.append(
                Violation(
                    "PLAY-WINNER-MISMATCH",
                    "tarot.trick.winner",
                    f"the record says seat {recorded} won trick {number}, but seat {trick.winner} wins it "
                    f"with {DECK.codes[trick.cards[trick.seats.index(trick.winner)]]}",
                    trick=number,
                    path=action.path,
                    expected=f"seat {trick.winner}",
                )
            )
        state.tricks.append(trick)
        state.current = None
        state.leader = trick.winner
        if len(state.tricks) == state.tricks_per_deal:
            state.phase = Phase.DONE
        return problems

    # --- the end ------------------------------------------------------------------------------

    def finish(self, state: TarotState) -> list[Violation]:
        if state.phase == Phase.DONE or state.status != "played":
            return []
        state.scorable = False
        steps = {
            Phase.AUCTION: f"the auction stops after {state.calls_made} of {state.players} calls",
            Phase.CALL: "the taker's call is missing",
            Phase.DISCARD: f"the discard has {state.discarded} of {DOG_SIZES[state.players]} cards",
            Phase.PLAY: f"only {len(state.tricks)} of {state.tricks_per_deal} tricks are recorded",
        }
        return [
            Violation(
                "DEAL-INCOMPLETE",
                "tarot.trick.count",
                f'the deal is not complete: {steps[state.phase]}; mark it "status": "abandoned" if play '
                f"stopped there",
            )
        ]

    def score(self, state: TarotState) -> list[int | float] | None:
        if state.status == "abandoned" or state.phase != Phase.DONE or not state.scorable:
            return None
        return deal_scores(state)

    def next_dealer(self, table: Table, dealer: int) -> int:
        return (dealer + 1) % table.players

    # --- choices, for the generator and the recorder ------------------------------------------

    def legal(self, state: TarotState) -> list[Action]:
        turn = self.turn(state)
        if turn is None or turn.seat is None:
            return []
        seat = turn.seat
        if state.phase == Phase.AUCTION:
            return [Action("bid", bid, seat) for bid in range(len(BIDS)) if bid == 0 or bid > state.contract]
        if state.phase == Phase.CALL:
            return [Action("call", card, seat) for card in self._callable(state)]
        if state.phase == Phase.DISCARD:
            return [Action("discard", card, seat) for card in ids_of(self._discardable(state))]
        actions = [Action("play", card, seat) for card in ids_of(self._playable(state, seat))]
        if "announce" in turn.kinds:
            actions += self._announcements(state)
        return actions

    def _discardable(self, state: TarotState) -> int:
        assert state.taker is not None
        hand = state.hands[state.taker]
        remaining = DOG_SIZES[state.players] - state.discarded
        if state.table.options.discard_policy == "source_permissive":
            return hand & ~BOUTS
        pool = hand & ~(TRUMPS | EXCUSE_BIT | KINGS)
        return pool if _count(pool) >= remaining else pool | (hand & TRUMPS & ~BOUTS)

    def _playable(self, state: TarotState, seat: int) -> int:
        trick = state.current.cards if state.current else []
        legal = rules_play.legal_mask(state.hands[seat], trick)
        probe = state.current or PlayedTrick(seat)
        kept = 0
        for card in ids_of(legal):
            if self._first_lead(state, probe, card, seat) is None:
                kept |= _bit(card)
        return kept

    def _announcements(self, state: TarotState) -> list[Action]:
        actions: list[Action] = []
        if state.goulash:
            return actions
        if state.taker is not None and not state.slam:
            actions.append(Action("announce", ("slam",), state.taker))
        for seat in range(state.players):
            if seat in state.poignees:
                continue
            hand = state.hands[seat] | (state.discard & TRUMPS if seat == state.taker else 0)
            trumps = ids_of(hand & TRUMPS)
            for level, threshold in zip(POIGNEE_LEVELS, POIGNEE_THRESHOLDS[state.players], strict=True):
                if len(trumps) >= threshold:
                    shown = tuple(trumps[-threshold:])
                elif len(trumps) + 1 == threshold and hand & EXCUSE_BIT:
                    shown = (*trumps, EXCUSE)
                else:
                    continue
                actions.append(Action("announce", ("poignee", level, shown), seat))
        if state.table.options.misere:
            for seat in range(state.players):
                for kind, spoiler in (("trumps", TRUMPS | EXCUSE_BIT), ("honours", HONOURS | BOUTS)):
                    if not state.dealt[seat] & spoiler and (seat, kind) not in state.miseres:
                        actions.append(Action("announce", ("misere", kind), seat))
        return actions

    # --- building records ---------------------------------------------------------------------

    def deal_random(self, table: Table, dealer: int, rng: random.Random) -> TarotDeal:
        cards = list(range(len(DECK)))
        rng.shuffle(cards)
        size = HAND_SIZES[table.players]
        hands = [DECK.format(sorted(cards[i * size : (i + 1) * size])) for i in range(table.players)]
        dog = DECK.format(sorted(cards[table.players * size :]))
        deal = TarotDeal(dealer=dealer, hands=hands, dog=dog)
        petit_sec = any(
            DECK.mask(DECK.cards(hand)) & (TRUMPS | EXCUSE_BIT) == _bit(PETIT) for hand in deal.hands
        )
        if petit_sec and table.options.petit_sec == "annul":
            deal.status = "annulled"
        return deal

    def record_deal(self, table: Table, dealt: TarotDeal, actions: Sequence[Action]) -> TarotDeal:
        deal = dealt.model_copy(deep=True)
        plays: list[int] = []
        discard: list[int] = []
        for action in actions:
            if action.kind == "bid":
                deal.auction.append(Call(call=BIDS[action.value]))
            elif action.kind == "call":
                deal.call = DECK.codes[action.value]
            elif action.kind == "discard":
                discard.append(action.value)
            elif action.kind == "announce":
                deal.announcements.append(_announcement_model(action))
            else:
                plays.append(action.value)
        if discard:
            deal.discard = DECK.format(discard)
        n = table.players
        deal.tricks = [DECK.format(plays[i : i + n]) for i in range(0, len(plays), n)]
        return deal

    def result(self, scores: list[int | float]) -> TarotResult:
        return TarotResult(scores=scores)

    def result_checks(self, state: TarotState, deal: TarotDeal) -> list[Violation]:
        """tarot.score.points: card points written on the sheet match the count (either rounding)."""
        if deal.result is None or deal.result.points is None or state.taker is None:
            return []
        if state.goulash or not state.scorable or state.phase != Phase.DONE or state.status != "played":
            return []
        count = contract_count(state)
        accepted = {count.half_points / 2, float((count.half_points + 1) // 2), float(count.half_points // 2)}
        if float(deal.result.points) in accepted:
            return []
        return [
            Violation(
                "SCORE-POINTS-MISMATCH",
                "tarot.score.points",
                f"the sheet says the taker's side made {deal.result.points} card points; the tricks give "
                f"{as_points(count.half_points)}",
                path="result.points",
                expected=str(as_points(count.half_points)),
            )
        ]

    def trick_points(self, trick: PlayedTrick) -> int | float:
        return as_points(half_points(DECK.mask(trick.cards)))


def _announcement_model(action: Action) -> Poignee | Slam | Misere:
    kind = action.value[0]
    assert action.seat is not None
    if kind == "slam":
        return Slam(type="slam", seat=action.seat)
    if kind == "poignee":
        return Poignee(
            type="poignee", seat=action.seat, level=action.value[1], cards=DECK.format(action.value[2])
        )
    return Misere(type="misere", seat=action.seat, kind=action.value[1])


def _at(violation: Violation, **where: object) -> Violation:
    """The violation with location fields set (those already set are kept)."""
    fields = {k: v for k, v in where.items() if getattr(violation, k) is None}
    if not fields:
        return violation
    return replace(violation, **fields)  # type: ignore[arg-type]


def _unknown(code: str, path: str, where: str, trick: int, position: int) -> Violation:
    return unknown_card(DECK, code, path, where, trick=trick, position=position)


def _over(state: TarotState) -> bool:
    """True once the deal has ended (a helper so that type checkers re-read the phase)."""
    return state.phase == Phase.DONE
