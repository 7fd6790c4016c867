"""The French Tarot ruleset: 3, 4 and 5 players, FFT rules with the source's variants as options.

Each check cites its rule id in spec/rules/french-tarot.md. Seats follow the order of play, so
the player "on the dealer's right" of the FFT text is seat dealer+1.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from recordkit.cards import TAROT_TRUMP_SUIT, ids_of
from recordkit.diagnostics import Violation
from recordkit.model import Call, trick_claims, trick_codes
from recordkit.rules.base import Ruleset, add_card, dealt_hands, scores_as_written
from recordkit.rules.french_tarot import (
    announcements,
    contract,
    partial,
    play,
    quick,
    shares,
    sheet,
)
from recordkit.rules.french_tarot.cards import (
    DECK,
    DOG_SIZES,
    EXCUSE_BIT,
    HAND_SIZES,
    PETIT,
    TRUMPS,
    bit,
    half_points,
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
    written_announcement,
)
from recordkit.rules.french_tarot.scoring import (
    GARDE,
    as_points,
    contract_count,
    deal_scores,
)
from recordkit.rules.french_tarot.scoring import working as scoring_working
from recordkit.rules.french_tarot.state import PHASE_OF_KIND, Phase, TarotState
from recordkit.rules.values import Action, Completion, DealSummary, PlayedTrick, QuickDeal, Table, Turn
from recordkit.rules.violations import at, card_list, deck_integrity, incomplete, size_check, unknown_card

if TYPE_CHECKING:
    from recordkit.rules.columns import ColumnRows, Proof
    from recordkit.rules.written_columns import WrittenForm

_PLAYING = Phase.PLAY
"""A module constant: looking up an enum member costs 0.2 µs, once per card played."""
TRUMP_FLAGS = tuple(bool(bit(card) & TRUMPS) for card in range(len(DECK.codes)))
"""Whether each card is a trump (the Excuse is not), for the archive's plays table."""


class FrenchTarot(Ruleset[TarotOptions, TarotDeal, TarotState]):
    """French Tarot (FFT rules; the source's misère and goulash as options)."""

    name: ClassVar[str] = "french-tarot"
    title: ClassVar[str] = "French Tarot"
    spec: ClassVar[str] = "spec/rules/french-tarot.md"
    rule_prefix: ClassVar[str] = "tarot"
    player_counts: ClassVar[tuple[int, ...]] = (3, 4, 5)
    score_rule: ClassVar[str] = "tarot.score"
    totals_rule: ClassVar[str] = "tarot.score.totals"
    dealer_rule: ClassVar[str] = "tarot.deal.rotation"
    quick_result_fields: ClassVar[frozenset[str]] = frozenset({"points"})
    check_names: ClassVar[dict[str, str]] = partial.CHECK_NAMES
    Options = TarotOptions
    Deal = TarotDeal
    Record = TarotRecord

    # --- setting up -------------------------------------------------------------------------

    def table(self, options: TarotOptions, players: int) -> tuple[Table | None, list[Violation]]:
        if players not in HAND_SIZES:
            return None, [self.wrong_player_count(players)]
        return Table(options, players, DECK), []

    def compile(self, table: Table, deal: TarotDeal) -> tuple[list[Action], list[Violation]]:
        problems: list[Violation] = []
        actions: list[Action] = []
        for index, hand in enumerate(dealt_hands(deal)):
            problems += card_list(DECK, hand, f"hands[{index}]", f"seat {index}'s hand")[1]
        problems += card_list(DECK, deal.dog or "", "dog", "the dog")[1]
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

    def start(
        self, table: Table, deal: TarotDeal, before: Sequence[int | float] | None = None
    ) -> tuple[TarotState, list[Violation]]:
        n = table.players
        problems: list[Violation] = []
        hands = [card_list(DECK, hand, "", "")[0] for hand in dealt_hands(deal)]
        dog = card_list(DECK, deal.dog or "", "", "")[0]
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
                problems.append(at(v, path=f"hands[{seat}]", seat=seat))
        for v in size_check("the dog", dog, DOG_SIZES[n], "tarot.deal.sizes", "DEAL-DOG-SIZE"):
            problems.append(at(v, path="dog"))
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
            seat for seat, hand in enumerate(state.dealt) if hand & (TRUMPS | EXCUSE_BIT) == bit(PETIT)
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
        if action.kind == "play" and state.phase == _PLAYING:  # the per-card path first
            return play.play_card(state, action)
        if state.phase == Phase.DONE:
            return self._after_end(state, action)
        target = PHASE_OF_KIND[action.kind]
        if target < state.phase or (action.kind == "announce" and (state.tricks or state.current)):
            return self._out_of_place(state, action)
        problems = self._close_phases(state, target)
        if _over(state):  # an all-pass auction closed by a later action
            return problems + self._after_end(state, action)
        if state.phase > target:  # the same, in a goulash: the deal skips the call and the dog
            return problems + self._out_of_place(state, action)
        handlers = {
            "bid": contract.take_bid,
            "call": contract.take_call,
            "discard": contract.take_discard,
            "announce": announcements.take_announcement,
            "play": play.play_card,
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
                contract.end_auction(state)
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
                contract.after_call(state)
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
            if action.position not in (None, 1) and (state.taker is None or state.contract > GARDE):
                return []  # reported once, at the discard's first card
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

    # --- the five-player call -----------------------------------------------------------------

    # --- the discard --------------------------------------------------------------------------

    # --- announcements ------------------------------------------------------------------------

    # --- card play ----------------------------------------------------------------------------

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
        return [incomplete(steps[state.phase], "tarot.trick.count")]

    def unknown(self, table: Table, deal: TarotDeal) -> list[str]:
        return partial.unknown(table, deal)

    def blank(self, table: Table, deal: TarotDeal) -> TarotDeal:
        return partial.blank(table, deal)

    def complete(
        self, table: Table, deal: TarotDeal, played: list[list[int]], state: TarotState
    ) -> Completion:
        return partial.complete(table, deal, played, state)

    def forget(self, table: Table, deal: TarotDeal) -> TarotDeal:
        return partial.forget(table, deal)

    def score(self, state: TarotState) -> list[int | float] | None:
        if state.status == "abandoned" or state.phase != Phase.DONE:
            return None
        if state.status == "annulled" or (state.taker is None and not state.goulash):
            return [0] * state.players  # thrown in: nothing is counted, whatever the hands held
        return deal_scores(state) if state.scorable else None

    def quick_deal(
        self, table: Table, deal: dict[str, Any], before: Sequence[int | float]
    ) -> QuickDeal | None:
        return quick.quick_deal(table, deal)

    def next_dealer(self, table: Table, dealer: int, previous: TarotState | None = None) -> int:
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
            return [Action("call", card, seat) for card in contract.callable_cards(state)]
        if state.phase == Phase.DISCARD:
            return [Action("discard", card, seat) for card in ids_of(contract.discardable(state))]
        actions = [Action("play", card, seat) for card in ids_of(play.playable(state, seat))]
        if "announce" in turn.kinds:
            actions += announcements.legal_announcements(state)
        return actions

    # --- building records ---------------------------------------------------------------------

    def deal_random(self, table: Table, dealer: int, rng: random.Random) -> TarotDeal:
        cards = list(range(len(DECK)))
        rng.shuffle(cards)
        size = HAND_SIZES[table.players]
        hands = [DECK.format(sorted(cards[i * size : (i + 1) * size])) for i in range(table.players)]
        dog = DECK.format(sorted(cards[table.players * size :]))
        deal = TarotDeal(dealer=dealer, hands=[*hands], dog=dog)
        petit_sec = any(DECK.mask(DECK.cards(hand)) & (TRUMPS | EXCUSE_BIT) == bit(PETIT) for hand in hands)
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

    def write_action(
        self, table: Table, deal: TarotDeal, state: TarotState, text: str, seat: int | None
    ) -> TarotDeal:
        """A call, the called card, a discarded card, an announcement (`poignee simple T21 ...`,
        `slam`, `misere trumps`) or a card played, written where the record keeps it."""
        data = deal.model_dump(mode="json", exclude_none=True)
        turn = self.turn(state)
        kinds = turn.kinds if turn is not None else frozenset()
        words = text.split()
        announced = ANNOUNCEMENT_WORDS.get(words[0].lower()) if words else None
        if announced is not None:
            who = seat if seat is not None else (turn.seat if turn is not None else None)
            data["announcements"].append(_typed_announcement(announced, words[1:], who))
        elif "bid" in kinds:
            data["auction"].append(text if seat is None else {"call": text, "seat": seat})
        elif "call" in kinds:
            data["call"] = text
        elif "discard" in kinds:
            data["discard"] = f"{data.get('discard', '')} {text}".strip()
        else:
            trick_open = state.current is not None and bool(state.current.cards)
            data["tricks"] = add_card(data["tricks"], text, trick_open)
        return TarotDeal.model_validate(data)

    def result(self, scores: list[int | float]) -> TarotResult:
        return TarotResult(scores=scores)

    def result_checks(self, state: TarotState, deal: TarotDeal) -> list[Violation]:
        return sheet.result_checks(state, deal)

    def is_sheet(self, deal: TarotDeal) -> bool:
        return sheet.is_sheet(deal)

    def sheet_scores(
        self, table: Table, deal: TarotDeal, before: Sequence[int | float] | None = None
    ) -> tuple[list[int | float] | None, list[Violation]]:
        return sheet.sheet_scores(table, deal)

    def sheet_of(self, table: Table, deal: TarotDeal, state: TarotState) -> TarotDeal:
        return sheet.sheet_of(table, deal, state)

    def trick_points(self, trick: PlayedTrick) -> int | float:
        return as_points(half_points(DECK.mask(trick.cards)))

    def trick_shares(self, table: Table, state: TarotState, number: int) -> list[int | float]:
        """By the count (`shares.trick_shares`): the Excuse stays with the side that played it."""
        return shares.trick_shares(state, number)

    def deal_shares(self, table: Table, state: TarotState) -> list[list[int | float]]:
        """Every trick's shares at once (`shares.deal_shares`), for the archive's tricks table."""
        return shares.deal_shares(state)

    def weight(self, state: TarotState, action: Action) -> float:
        """Generated auctions look like a club's: most players pass, few guard without or against."""
        if action.kind == "bid":
            return BID_WEIGHTS[action.value]
        if action.kind == "announce" and action.value[0] == "slam":
            return 0.02
        return 1.0

    def summary(self, state: TarotState) -> DealSummary:
        if state.taker is None:
            return DealSummary(contract="goulash" if state.goulash else None)
        count = contract_count(state) if state.phase == Phase.DONE and state.scorable else None
        return DealSummary(
            contract=BIDS[state.contract],
            declarer=state.taker,
            partner=state.partner,
            made=count.won if count else None,
            trump=TAROT_TRUMP_SUIT,
            declarer_points=count.half_points / 2 if count else None,
            bouts=count.bouts if count else None,
            target=count.target if count else None,
            margin=count.half_points / 2 - count.target if count else None,
        )

    def is_trump(self, state: TarotState, card: int) -> bool:
        return TRUMP_FLAGS[card]

    def trump_flags(self, state: TarotState, cards: list[int]) -> list[bool]:
        """From `TRUMP_FLAGS`: French Tarot's trumps are the same in every deal."""
        return list(map(TRUMP_FLAGS.__getitem__, cards))

    def score_working(self, table: Table, state: TarotState) -> list[tuple[str, int | float | str]]:
        """The contract's count step by step (`scoring.working`)."""
        return scoring_working(state)

    def prove_columns(self, rows: ColumnRows) -> Proof:
        from recordkit.rules.french_tarot import columnar  # NumPy and pyarrow: only for archives

        return columnar.prove_columns(rows)

    def written_form(self) -> WrittenForm:
        from recordkit.rules.french_tarot import columnar  # NumPy and pyarrow: only for bulk input

        return columnar.WRITTEN

    def as_written(self, table: Table, deal: dict[str, Any], state: TarotState, calls: list[Action]) -> bool:
        """The auction, call, discard, announcements and tricks written as bare words and codes
        (no seats but the announcements', no leaders, winners or card points) and one score and
        total a seat, so that the calls, plays and scores rows hold them all, in order."""
        tricks, auction = deal.get("tricks", []), deal.get("auction", [])
        discard = deal.get("discard")
        call = deal.get("call")
        if (discard is not None and type(discard) is not str) or (call is not None and type(call) is not str):
            return False
        if any(type(t) is not str for t in tricks) or any(type(a) is not str for a in auction):
            return False
        if not scores_as_written(table, deal):
            return False
        written: list[tuple[str, Any, int | None]] = [("bid", word, None) for word in auction]
        written += [("call", call, None)] * (call is not None)
        written += [("discard", code, None) for code in (discard or "").split()]
        for announcement in deal.get("announcements") or []:
            words = written_announcement(announcement)
            if words is None:
                return False
            written.append(("announce", *words))
        described = [
            (a.kind, self.describe(table, a), a.seat if a.kind == "announce" else None) for a in calls
        ]
        if described != written:
            return False
        return [t.split() for t in tricks] == [[DECK.codes[c] for c in trick.cards] for trick in state.tricks]

    def describe(self, table: Table, action: Action) -> str:
        if action.kind == "bid":
            return BIDS[action.value]
        if action.kind == "announce":
            kind, *rest = action.value
            if kind == "poignee":
                return f"poignee {rest[0]} {DECK.format(rest[1])}"
            return " ".join(str(part) for part in action.value)
        card: int = action.value
        return DECK.codes[card]


BID_WEIGHTS = (6.0, 3.0, 2.0, 0.5, 0.25)
"""Generator weights for pass, petite, garde, garde sans, garde contre."""


ANNOUNCEMENT_WORDS = {
    "poignee": "poignee",
    "poignée": "poignee",
    "handful": "poignee",
    "slam": "slam",
    "chelem": "slam",
    "misere": "misere",
    "misère": "misere",
}
"""The words that open a typed announcement, and the announcement each stands for."""


def _typed_announcement(kind: str, words: list[str], seat: int | None) -> dict[str, object]:
    """A typed announcement in record form: `poignee LEVEL CARDS...`, `slam`, `misere KIND`."""
    data: dict[str, object] = {"type": kind}
    if seat is not None:
        data["seat"] = seat
    if kind == "poignee" and words:
        data["level"] = words[0].lower()
        data["cards"] = " ".join(words[1:])
    elif words:  # a misère's kind; after a slam, words the model then reports as unknown
        data["kind"] = " ".join(words).lower()
    return data


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


def _unknown(code: str, path: str, where: str, trick: int, position: int) -> Violation:
    return unknown_card(DECK, code, path, where, trick=trick, position=position)


def _over(state: TarotState) -> bool:
    """True once the deal has ended (a helper so that type checkers re-read the phase)."""
    return state.phase == Phase.DONE
