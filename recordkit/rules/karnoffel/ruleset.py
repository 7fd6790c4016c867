"""The Karnöffel ruleset: 2, 4, 6 or 8 players, the staged deal with raises, the old card powers.

Each check cites its rule id in spec/rules/karnoffel.md. Seats follow the order of play (clockwise),
so the forehand, on the dealer's left, is seat dealer+1; partners sit alternately (even v odd seats).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from recordkit.cards import KARNOFFEL_SUITS
from recordkit.diagnostics import Violation
from recordkit.model import trick_codes
from recordkit.rules.base import Ruleset, add_card, dealt_hands, scores_as_written
from recordkit.rules.karnoffel import build, partial, proposals, quick, sheet
from recordkit.rules.karnoffel.cards import POWER_RANKS, cards_of, side_of
from recordkit.rules.karnoffel.deal import (
    dealt_state,
    faceup_entries,
    faceup_size,
    hand_sizes,
    set_up,
    stage_of_words,
)
from recordkit.rules.karnoffel.options import KarnoffelOptions
from recordkit.rules.karnoffel.play import legal_plays, play_card
from recordkit.rules.karnoffel.record import CALLS, KarnoffelDeal, KarnoffelRecord, KarnoffelResult
from recordkit.rules.karnoffel.scoring import deal_scores, dealer_after, reached
from recordkit.rules.karnoffel.state import TRICKS, WINDOWS, KarnoffelState, Phase, Said
from recordkit.rules.values import Action, Completion, DealSummary, QuickDeal, Table, Turn
from recordkit.rules.violations import card_list, incomplete, unknown_card

if TYPE_CHECKING:
    from recordkit.rules.columns import ColumnRows, Proof
    from recordkit.rules.written_columns import WrittenForm

PLAYER_COUNTS = (2, 4, 6, 8)
CALL_WEIGHTS = {"pass": 4.0, "raise": 1.0, "accept": 2.0, "surrender": 1.0}
"""Generated windows look like a table's: most windows are quiet, most raises are taken."""


class Karnoffel(Ruleset[KarnoffelOptions, KarnoffelDeal, KarnoffelState]):
    """Karnöffel: the von Leyden/Dummett card powers, the Kaiserspiel's staged deal and raises."""

    name: ClassVar[str] = "karnoffel"
    title: ClassVar[str] = "Karnöffel"
    spec: ClassVar[str] = "spec/rules/karnoffel.md"
    rule_prefix: ClassVar[str] = "karnoffel"
    player_counts: ClassVar[tuple[int, ...]] = PLAYER_COUNTS
    score_rule: ClassVar[str] = "karnoffel.score"
    totals_rule: ClassVar[str] = "karnoffel.score.totals"
    dealer_rule: ClassVar[str] = "karnoffel.deal.rotation"
    end_rule: ClassVar[str] = "karnoffel.game.end"
    Options = KarnoffelOptions
    Deal = KarnoffelDeal
    Record = KarnoffelRecord

    # --- setting up -------------------------------------------------------------------------

    def table(self, options: KarnoffelOptions, players: int) -> tuple[Table | None, list[Violation]]:
        """karnoffel.players: two players alone, or two teams of 2, 3 or 4."""
        if players not in PLAYER_COUNTS:
            return None, [self.wrong_player_count(players)]
        return Table(options, players, cards_of(options.deck).deck), []

    def compile(self, table: Table, deal: KarnoffelDeal) -> tuple[list[Action], list[Violation]]:
        """The calls of each window, then the cards of each trick, as ids; unknown codes stop the deal."""
        deck = table.deck
        problems = [
            unknown_card(deck, code, "faceup", f"card {position} of the face-up cards")
            for position, code in enumerate(faceup_entries(deal) or [], start=1)
            if code is not None and code not in deck.index
        ]
        for seat, hand in enumerate(dealt_hands(deal)):
            problems += card_list(deck, hand, f"hands[{seat}]", f"seat {seat}'s face-down cards")[1]
        actions: list[Action] = []
        for window, calls in enumerate(deal.proposals, start=1):
            for index, call in enumerate(calls):
                path = f"proposals[{window - 1}][{index}]"
                if call.call not in CALLS:
                    problems.append(
                        Violation(
                            "RECORD-UNKNOWN-CALL",
                            "karnoffel.propose.calls",
                            f"{call.call!r} is not said in a Karnöffel proposal window; the words are "
                            f"{', '.join(CALLS)}",
                            path=path,
                        )
                    )
                    continue
                actions.append(Action("call", Said(window, call.call, call.seat), call.seat, path, note=call))
        for number, trick in enumerate(deal.tricks, start=1):
            path = f"tricks[{number - 1}]"
            codes = trick_codes(trick)
            partial = deal.status == "abandoned" and number == len(deal.tricks) and len(codes) < table.players
            if len(codes) != table.players and not partial:
                problems.append(
                    Violation(
                        "PLAY-TRICK-SIZE",
                        "karnoffel.trick.size",
                        f"trick {number} has {len(codes)} cards; every trick has one card from each of the "
                        f"{table.players} players",
                        path=path,
                        trick=number,
                    )
                )
            for position, code in enumerate(codes, start=1):
                found = deck.index.get(code)
                if found is None:
                    where = f"card {position} of trick {number}"
                    problems.append(unknown_card(deck, code, path, where, trick=number, position=position))
                    continue
                actions.append(Action("play", found, None, path, number, position))
        return actions, problems

    def start(
        self, table: Table, deal: KarnoffelDeal, before: Sequence[int | float] | None = None
    ) -> tuple[KarnoffelState, list[Violation]]:
        """The staged deal checked: sizes by round, every card once, the chosen suit."""
        return set_up(table, deal, before)

    # --- whose turn ---------------------------------------------------------------------------

    def turn(self, state: KarnoffelState) -> Turn | None:
        """The side to speak in the open window (by its usual speaker), then the seat to play."""
        if state.phase == Phase.WINDOWS:
            return Turn(state.speaker(state.side_to_speak()), frozenset({"call"}))
        if state.phase == Phase.PLAY:
            return Turn(state.to_play(), frozenset({"play"}))
        return None

    # --- one action ---------------------------------------------------------------------------

    def advance(self, state: KarnoffelState, action: Action) -> list[Violation]:
        """A call of a window or a card, checked and carried out; anything after the end is reported once."""
        if state.phase == Phase.DONE:
            return self._after_end(state, action)
        if action.kind == "call":
            return proposals.take_call(state, action)
        problems = proposals.skip_to(state, WINDOWS + 1)
        return problems + play_card(state, action)

    def _after_end(self, state: KarnoffelState, action: Action) -> list[Violation]:
        """A call or card recorded after the deal ended: reported once, the rest ignored."""
        if state.overrun_reported:
            return []
        state.overrun_reported = True
        if state.surrendered:
            return [
                Violation(
                    "KARNOFFEL-AFTER-SURRENDER",
                    "karnoffel.propose.surrender",
                    f"the deal ended when seat {state.raiser}'s raise was refused (surrender), yet the record "
                    f"goes on; nothing more is dealt, said or played",
                    path=action.path,
                    trick=action.trick,
                )
            ]
        if len(state.tricks) < TRICKS:
            assert state.decided is not None
            return [
                Violation(
                    "KARNOFFEL-PLAYED-ON",
                    "karnoffel.trick.early-end",
                    f"{state.side_name(state.decided)} won three tricks in trick {len(state.tricks)}, which ends "
                    f"the deal, yet the record plays trick {len(state.tricks) + 1} (set play_out to record "
                    f"every trick)",
                    path=action.path,
                    trick=action.trick,
                )
            ]
        return [
            Violation(
                "DEAL-EXTRA-TRICK",
                "karnoffel.trick.count",
                f"all {TRICKS} tricks are played; the record has more",
                path=action.path,
                trick=action.trick,
            )
        ]

    # --- the end ------------------------------------------------------------------------------

    def finish(self, state: KarnoffelState) -> list[Violation]:
        """karnoffel.trick.count: a played deal ends by a surrender or when a side has three tricks
        (all five with play_out)."""
        if state.phase == Phase.DONE or state.status != "played":
            return []
        state.scorable = False
        if state.phase == Phase.WINDOWS and state.pending:
            return proposals.skip_to(state, WINDOWS + 1)
        if state.phase == Phase.WINDOWS:
            where = f"the record stops in window {state.window}, before the play"
        elif state.decided is not None:
            where = f"only {len(state.tricks)} of the {TRICKS} tricks are recorded (option play_out)"
        else:
            where = f"only {len(state.tricks)} tricks are recorded and no side has three yet"
        return [incomplete(where, "karnoffel.trick.count")]

    def score(self, state: KarnoffelState) -> list[int | float] | None:
        """The round value to the side that won the deal, once it is over: also in a deal marked
        abandoned whose play reached the end the rules give it (a side's third trick, a surrender),
        the other cards being left unplayed by rule (karnoffel.deal.status)."""
        if state.status == "annulled" or state.phase != Phase.DONE or not state.scorable:
            return None
        return list(deal_scores(state))

    def result(self, scores: list[int | float]) -> KarnoffelResult:
        """The score-sheet line: each seat's score."""
        return KarnoffelResult(scores=scores)

    def result_checks(self, state: KarnoffelState, deal: KarnoffelDeal) -> list[Violation]:
        """karnoffel.sheet.check: the value, winner and surrender a played deal's result writes."""
        return sheet.result_checks(state, deal)

    # --- partial records (spec/rules/karnoffel.md, "Partial records") -------------------------

    check_names: ClassVar[dict[str, str]] = partial.CHECK_NAMES

    def unknown(self, table: Table, deal: KarnoffelDeal) -> list[str]:
        """karnoffel.partial.*: the face-down hands and face-up cards the record leaves out."""
        return partial.unknown(table, deal)

    def blank(self, table: Table, deal: KarnoffelDeal) -> KarnoffelDeal:
        """The deal with its unknown hands empty and, when it says neither, the suit the play fits."""
        return partial.blank(self, table, deal)

    def complete(
        self, table: Table, deal: KarnoffelDeal, played: list[list[int]], state: KarnoffelState
    ) -> Completion:
        """The hands and face-up cards from the play, and what the unplayed cards leave unchecked."""
        return partial.complete(self, table, deal, played, state)

    def forget(self, table: Table, deal: KarnoffelDeal) -> KarnoffelDeal:
        """The deal without its face-down hands, as a magazine prints it."""
        return partial.forget(deal)

    def is_sheet(self, deal: KarnoffelDeal) -> bool:
        """karnoffel.sheet: no face-up cards, no hands, no tricks."""
        return sheet.is_sheet(deal)

    def sheet_scores(
        self, table: Table, deal: KarnoffelDeal, before: Sequence[int | float] | None = None
    ) -> tuple[list[int | float] | None, list[Violation]]:
        """karnoffel.sheet: the scores the sheet's facts give, by the rules of a played deal."""
        return sheet.sheet_scores(self, table, deal, before)

    def sheet_state(self, table: Table, deal: KarnoffelDeal) -> KarnoffelState | None:
        """The sheet deal's end (value, winner, surrender, raiser), for the next dealer."""
        return sheet.sheet_state(self, table, deal)

    def sheet_of(self, table: Table, deal: KarnoffelDeal, state: KarnoffelState) -> KarnoffelDeal:
        """The deal as a score sheet writes it: the scores, value, winner and surrender; no cards."""
        return sheet.sheet_of(deal, state)

    def quick_deal(
        self, table: Table, deal: dict[str, Any], before: Sequence[int | float]
    ) -> QuickDeal | None:
        """The fast path (`recordkit.rules.karnoffel.quick`): a clean deal proven so from its JSON."""
        return quick.quick_deal(table, deal, before)

    def next_dealer(self, table: Table, dealer: int, previous: KarnoffelState | None = None) -> int:
        """karnoffel.deal.rotation: the forehand deals next; after a surrender, as the option says."""
        return dealer_after(previous) if previous is not None else (dealer + 1) % table.players

    def game_over(
        self, table: Table, totals: Sequence[int | float], last: KarnoffelState | None = None
    ) -> bool:
        """karnoffel.game.end: the first side to reach the target wins."""
        options: KarnoffelOptions = table.options
        return reached(options.target, totals)

    # --- choices, for the generator and the recorder ------------------------------------------

    def legal(self, state: KarnoffelState) -> list[Action]:
        """The words open in the window, or the cards the seat to play may play."""
        if state.phase == Phase.WINDOWS:
            return proposals.legal_calls(state)
        if state.phase == Phase.PLAY:
            return legal_plays(state)
        return []

    def weight(self, state: KarnoffelState, action: Action) -> float:
        """Quiet windows are the rule and most raises are accepted; every card is as likely."""
        if action.kind == "call":
            said: Said = action.value
            return CALL_WEIGHTS[said.name]
        return 1.0

    # --- views --------------------------------------------------------------------------------

    def summary(self, state: KarnoffelState) -> DealSummary:
        """The value played for, the last raiser and whether his side won, the chosen suit."""
        made = None
        if state.raiser is not None and state.decided is not None:
            made = side_of(state.raiser) == state.decided
        return DealSummary(
            contract=str(state.value) if state.decided is not None else None,
            declarer=state.raiser,
            made=made,
            trump=KARNOFFEL_SUITS[state.chosen] if state.chosen is not None else None,
        )

    def declaring_side(
        self, table: Table, state: KarnoffelState, summary: DealSummary | None = None
    ) -> list[bool] | None:
        """The last raiser's side: partners sit alternately (seats 0 and 2 against 1 and 3)."""
        raiser = state.raiser
        if raiser is None:
            return None
        return [side_of(seat) == side_of(raiser) for seat in range(table.players)]

    def is_trump(self, state: KarnoffelState, card: int) -> bool:
        """The chosen suit's cards of power (J, 7, 6, 2, 3, 4, 5); its K, Q, 10, 9, 8 are plain."""
        return state.chosen == state.cards.suit[card] and state.cards.rank[card] in POWER_RANKS

    def prove_columns(self, rows: ColumnRows) -> Proof:
        """The deals of an archive's row group checked with NumPy (`karnoffel.columnar`)."""
        from recordkit.rules.karnoffel import columnar  # NumPy and pyarrow: only for archives

        return columnar.prove_columns(rows)

    def written_form(self) -> WrittenForm:
        from recordkit.rules.karnoffel import columnar  # NumPy and pyarrow: only for bulk input

        return columnar.WRITTEN

    def as_written(
        self, table: Table, deal: dict[str, Any], state: KarnoffelState, calls: list[Action]
    ) -> bool:
        """Round 1 written whole as one group (the deals' `dog` column holds it), a chosen suit
        only as the cards choose it, the windows' words and the tricks as bare words and codes,
        one score and total a seat with no sheet facts: so that the rows hold the whole deal. An
        archive's calls rows do not say which window a word was in, so each window written must be
        the one its words make when read in turn (a quiet one may be `[]`), and the rounds dealt
        the sizes its surrender's window gives."""
        tricks, windows = deal.get("tricks", []), deal.get("proposals", [])
        faceup, hands = deal.get("faceup"), deal.get("hands", [])
        if type(faceup) is not str or type(hands) is not list or any(type(h) is not str for h in hands):
            return False
        if any(type(t) is not str for t in tricks) or any(
            type(w) is not list or any(type(c) is not str for c in w) for w in windows
        ):
            return False
        stated = deal.get("chosen_suit")
        if stated is not None and (state.chosen is None or stated != KARNOFFEL_SUITS[state.chosen]):
            return False
        if not scores_as_written(table, deal):
            return False
        words = [word for window in windows for word in window]
        if [(a.kind, self.describe(table, a)) for a in calls] != [("call", word) for word in words]:
            return False
        scratch, _ = dealt_state(table, state.dealer, [], [], WINDOWS + 1, "played")
        read: list[list[str]] = [[] for _ in range(WINDOWS + 1)]
        for word in words:  # each word in the window open when it comes, by the rules of the windows
            read[min(scratch.window, WINDOWS + 1) - 1].append(word)
            proposals.take_call(scratch, Action("call", Said(scratch.window, word, None), None))
        if [window for window in windows if window] != [window for window in read if window]:
            return False
        stage = stage_of_words(windows)
        sizes = [len(hand.split()) for hand in hands]
        if faceup_size(faceup.split(), table.players, stage, "played") or hand_sizes(
            sizes, table.players, stage, "played"
        ):
            return False
        return [t.split() for t in tricks] == [[table.deck.codes[c] for c in t.cards] for t in state.tricks]

    def describe(self, table: Table, action: Action) -> str:
        """A call's word or a card's code."""
        if action.kind == "call":
            said: Said = action.value
            return said.name
        card: int = action.value
        return table.deck.codes[card]

    # --- building records ---------------------------------------------------------------------

    def deal_random(self, table: Table, dealer: int, rng: random.Random) -> KarnoffelDeal:
        """A shuffled staged deal (every round dealt; a surrender trims it in record_deal)."""
        return build.deal_random(table, dealer, rng)

    def record_deal(self, table: Table, dealt: KarnoffelDeal, actions: Sequence[Action]) -> KarnoffelDeal:
        """The deal with its windows and tricks written in."""
        return build.record_deal(table, dealt, actions)

    def write_action(
        self, table: Table, deal: KarnoffelDeal, state: KarnoffelState, text: str, seat: int | None
    ) -> KarnoffelDeal:
        """A word (`pass`, `raise`, `accept`, `surrender`) in the open window, else a card played."""
        data = deal.model_dump(mode="json", exclude_none=True)
        if state.phase == Phase.WINDOWS:
            windows = data["proposals"]
            windows += [[] for _ in range(state.window - len(windows))]
            windows[state.window - 1].append(text if seat is None else {"call": text, "seat": seat})
        else:
            trick_open = state.current is not None and bool(state.current.cards)
            data["tricks"] = add_card(data["tricks"], text, trick_open)
        return KarnoffelDeal.model_validate(data)
