"""The ruleset interface every game implements, with the defaults its partial-record hooks share.

The values a replay is made of are in `recordkit.rules.values`, the violations the games build
alike in `recordkit.rules.violations`.

A ruleset is the only place a game's rules live. The engine (`recordkit.engine`) walks the actions
of a deal and asks the ruleset to check and apply each one; the generator asks it what is legal;
the validator asks it what a deal scores. Nothing else knows any game.
"""

from __future__ import annotations

import copy
import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from pydantic import BaseModel

from recordkit.diagnostics import Violation
from recordkit.model import RecordBase, Result
from recordkit.rules.values import (
    Action,
    Completion,
    DealState,
    DealSummary,
    PlayedTrick,
    QuickDeal,
    Table,
    Turn,
)

if TYPE_CHECKING:
    from recordkit.rules.columns import Bools, ColumnRows, Proof
    from recordkit.rules.written_columns import WrittenForm


NOT_CHECKED = "DEAL-NOT-CHECKED"
"""The code of the note that says which checks a partial deal left without their facts."""
PARTIAL_RULE = "format.partial"
"""The rule a partial deal's notes cite (spec/FORMAT.md, "Partial records")."""

OptionsT = TypeVar("OptionsT", bound=BaseModel)
DealT = TypeVar("DealT", bound=BaseModel)
StateT = TypeVar("StateT", bound=DealState)


class Ruleset(ABC, Generic[OptionsT, DealT, StateT]):
    """A game: its options, its record models, and one method per step of a deal."""

    name: ClassVar[str]
    """The `game` value in records, e.g. "french-tarot"."""
    title: ClassVar[str]
    spec: ClassVar[str]
    """The rules document, e.g. "spec/rules/french-tarot.md"."""
    rule_prefix: ClassVar[str]
    """The first part of this game's rule ids, e.g. "tarot" in `tarot.play.follow`."""
    player_counts: ClassVar[tuple[int, ...]]
    """The numbers of players the game is played by."""
    Options: type[OptionsT]
    Deal: type[DealT]
    Record: type[RecordBase]

    @abstractmethod
    def table(self, options: OptionsT, players: int) -> tuple[Table | None, list[Violation]]:
        """The table for this many players under these options, or the reasons it cannot be."""

    def wrong_player_count(self, players: int, how: str = "") -> Violation:
        """RECORD-PLAYERS (rule `<prefix>.players`): the game is not played by this many."""
        *most, last = [str(count) for count in self.player_counts]
        counts = f"{', '.join(most)} or {last}" if most else last
        return Violation(
            "RECORD-PLAYERS",
            f"{self.rule_prefix}.players",
            f"{self.title} is played by {counts} players{how}, not {players}",
            expected=f"{counts} players",
        )

    @abstractmethod
    def compile(self, table: Table, deal: DealT) -> tuple[list[Action], list[Violation]]:
        """The deal's actions in record order, with card codes turned into ids.

        Errors here (an unknown card or call) make the deal impossible to replay.
        """

    @abstractmethod
    def start(
        self, table: Table, deal: DealT, before: Sequence[int | float] | None = None
    ) -> tuple[StateT, list[Violation]]:
        """The state after the deal, with deck integrity, hand sizes and the deal's status checked.

        `before` holds the running totals before this deal when the caller knows them (the
        validator's chain, the generator's match), for rules that depend on the score.
        """

    @abstractmethod
    def turn(self, state: StateT) -> Turn | None:
        """Who acts next and what kinds of action are open; None once the deal is over."""

    @abstractmethod
    def advance(self, state: StateT, action: Action) -> list[Violation]:
        """Carry the action out and return every rule it breaks.

        An illegal action is still carried out wherever the state allows (a revoke is played and
        the deal goes on, as at a real table), so that one replay reports every problem.
        """

    def check(self, state: StateT, action: Action) -> list[Violation]:
        """Every rule the action would break, leaving the state as it is."""
        return self.advance(copy.deepcopy(state), action)

    @abstractmethod
    def finish(self, state: StateT) -> list[Violation]:
        """What is missing once the record's actions are exhausted (calls, discards, tricks)."""

    @abstractmethod
    def legal(self, state: StateT) -> list[Action]:
        """The legal actions now, one per distinct choice (for the generator and the recorder)."""

    @abstractmethod
    def score(self, state: StateT) -> list[int | float] | None:
        """Each seat's score for the finished deal, or None if the deal did not reach its end."""

    @abstractmethod
    def result(self, scores: list[int | float]) -> Result:
        """The score-sheet line for computed scores."""

    def result_checks(self, state: StateT, deal: DealT) -> list[Violation]:
        """Checks of result fields beyond the scores (e.g. the card points written down)."""
        return []

    def trick_points(self, trick: PlayedTrick) -> int | float | None:
        """Card points in a trick, for the replay view; None for games that do not count them."""
        return None

    def card_points(self, table: Table, card: int) -> int | float | None:
        """A card's own points by the game's count (`trick_points` of the card alone), for the
        archive's plays table; None for games that count tricks rather than cards."""
        return self.trick_points(PlayedTrick(0, [card], [0], 0))

    def deal_shares(self, table: Table, state: StateT) -> list[list[int | float]] | None:
        """Each trick's `trick_shares`, for the archive's tricks table (a game may compute them
        all at once); None for games that do not count card points."""
        shares: list[list[int | float]] = []
        for number in range(1, len(state.tricks) + 1):
            share = self.trick_shares(table, state, number)
            if share is None:
                return None
            shares.append(share)
        return shares

    def declaring_side(
        self, table: Table, state: StateT, summary: DealSummary | None = None
    ) -> list[bool] | None:
        """Which seats score with the declarer (he and his partners), for the scores table's side;
        None when nobody declared (a goulash, a deal passed out). By default the deal's `summary`
        (computed when not given): its declarer and partner; games with fixed partnerships say so."""
        summary = summary if summary is not None else self.summary(state)
        if summary.declarer is None:
            return None
        return [seat in (summary.declarer, summary.partner) for seat in range(table.players)]

    def trick_shares(self, table: Table, state: StateT, number: int) -> list[int | float] | None:
        """Each seat's card points from trick `number` (1-based), for the replay view's running
        points: the trick's points (`trick_points`) to its winner; games whose rules leave a card
        with another seat (French Tarot's Excuse) say so. None for games that do not count them."""
        trick = state.tricks[number - 1]
        points = self.trick_points(trick)
        if points is None or trick.winner is None:
            return None
        return [points if seat == trick.winner else 0 for seat in range(table.players)]

    def weight(self, state: StateT, action: Action) -> float:
        """How likely the generator is to choose a legal action (1.0: as likely as any other).

        Only shapes generated games toward what real tables do (passing is common, slams rare);
        it never makes an action legal or illegal.
        """
        return 1.0

    def trick_notes(self, state: StateT, trick: int) -> list[tuple[int, str]]:
        """What else happened inside trick `trick` (1-based) for the replay view, as (cards played
        before it, text) in play order: a knock, say. Most games have nothing to add."""
        return []

    def summary(self, state: StateT) -> DealSummary:
        """The deal's contract, declarer, result and trump, for archives and statistics."""
        return DealSummary()

    def score_working(self, table: Table, state: StateT) -> list[tuple[str, int | float | str]]:
        """How the rules reach the deal's score, step by step, as (what, value) in the rules'
        order (French Tarot: the margin, multiplier and bonuses), for the replay views; games
        whose score needs no working beyond the summary say nothing."""
        return []

    def is_trump(self, state: StateT, card: int) -> bool:
        """Whether a card counted as a trump in this deal (for the plays table)."""
        return False

    def describe(self, table: Table, action: Action) -> str:
        """An action's value in record notation (a call's name, a card's code), for the calls table."""
        if isinstance(action.value, int) and action.kind in {"play", "discard", "call"}:
            return table.deck.codes[action.value]
        return str(action.value)

    # --- partial records: what the record leaves out (spec/FORMAT.md, "Partial records") --------

    check_names: ClassVar[dict[str, str]] = {}
    """Plain words for this game's checks that a partial record can leave unchecked (by code),
    for the note that says so: "the Petit sec"."""

    def unknown(self, table: Table, deal: DealT) -> list[str]:
        """The paths of the dealt groups the record leaves out (`hands[2]`, `dog`), which the
        replay derives from the play; [] for a deal written whole. Games with other dealt groups
        than the hands add them."""
        return missing_hands(table, deal)

    def blank(self, table: Table, deal: DealT) -> DealT:
        """The deal with every group it leaves out written empty: the replay of it finds who
        played each card (leaders and winners by the rules), whatever it says of the hands."""
        hands = deal.hands or [None] * table.players  # type: ignore[attr-defined]
        return deal.model_copy(update={"hands": [hand or "" for hand in hands]})

    def complete(self, table: Table, deal: DealT, played: list[list[int]], state: StateT) -> Completion:
        """The deal with the groups it leaves out derived from `played`, the cards each seat
        played (`state` is the replay of `blank` that found them). Each unknown hand is the cards
        its seat played; unless every card of the deck was played, hand sizes and the cards dealt
        to nobody cannot be checked. Games with other dealt groups, or cards that are not all
        played, say more."""
        return complete_hands(table, deal, played, sum(map(len, played)) == len(table.deck))

    def forget(self, table: Table, deal: DealT) -> DealT:
        """The deal as a magazine prints it: its calls and tricks, without the hands or any other
        group the play lets the replay derive (the inverse of `complete`, for the generator and
        the tests)."""
        return deal.model_copy(update={"hands": None})

    def sheet_of(self, table: Table, deal: DealT, state: StateT) -> DealT:
        """The deal as a score sheet writes it, from its replay (`state`): its dealer, status,
        result with every fact the game's sheet holds, and totals; no cards and no calls. Games
        without score-sheet deals return the deal as it is."""
        return deal

    def is_sheet(self, deal: DealT) -> bool:
        """Whether the deal is a score sheet's line only (no cards, no calls): its scores are
        checked from the facts written in its result (`sheet_scores`)."""
        return False

    def sheet_scores(
        self, table: Table, deal: DealT, before: Sequence[int | float] | None = None
    ) -> tuple[list[int | float] | None, list[Violation]]:
        """A score-sheet deal's scores by the rules, from the facts its result gives, with every
        fact that breaks a rule (None when the facts do not determine them)."""
        return None, []

    def sheet_state(self, table: Table, deal: DealT) -> StateT | None:
        """What a score-sheet deal's facts say of its end, as a final state for `next_dealer` and
        `game_over` (who surrendered to whom, say); None: nothing beyond the running totals."""
        return None

    @abstractmethod
    def deal_random(self, table: Table, dealer: int, rng: random.Random) -> DealT:
        """A freshly shuffled deal (hands and any dog or kitty, no actions yet)."""

    @abstractmethod
    def record_deal(self, table: Table, dealt: DealT, actions: Sequence[Action]) -> DealT:
        """The deal model with these actions written in (the inverse of `compile`)."""

    @abstractmethod
    def write_action(self, table: Table, deal: DealT, state: StateT, text: str, seat: int | None) -> DealT:
        """The deal with one more action written in after what it holds: `text` typed in record
        notation (a call's name, a card's code, an announcement) by `seat`, or by whoever acts in
        `state` when None. This is how the live recorder reads input: the deal model and `compile`
        then read the text with their aliases and diagnostics, exactly as in a record. Raises
        pydantic's ValidationError when the text does not fit the deal's model."""

    @abstractmethod
    def next_dealer(self, table: Table, dealer: int, previous: StateT | None = None) -> int:
        """Who deals after `dealer`; `previous` is that deal's final state when it was replayed."""

    score_rule: ClassVar[str]
    """Rule id that the score check cites."""
    totals_rule: ClassVar[str]
    """Rule id that the running-totals check cites."""
    dealer_rule: ClassVar[str]
    """Rule id that the dealer-rotation check cites."""
    end_rule: ClassVar[str] = ""
    """Rule id of the game's end (target score), cited when deals follow the end."""

    def game_over(self, table: Table, totals: Sequence[int | float], last: StateT | None = None) -> bool:
        """True once the match is decided (`last` is the final state of the deal that gave these
        totals, when it was replayed); games played over a fixed number of deals never end."""
        return False

    # --- optional speed hooks (spec/ENGINE.md, "Speed") -------------------------------------------
    # A game needs none of them: each default proves nothing (None, False, an empty set), so every
    # record of a game without them goes through the full replay, as correct, only slower. A game
    # that has them must never prove what the full replay would object to (the tests hold every
    # fast path to the full replay).

    quick_result_fields: ClassVar[frozenset[str]] = frozenset()
    """Fields of a deal's result besides the scores that `quick_deal` checks itself."""

    def quick_deal(
        self, table: Table, deal: dict[str, Any], before: Sequence[int | float]
    ) -> QuickDeal | None:
        """The fast path: a deal straight from parsed JSON, when replaying it in full would report
        nothing at all (its `result` and `totals` aside: the caller checks them against the scores,
        and a result holds only `scores`); `before` is the running totals before the deal, as
        `start` gets them. A deal whose record leaves dealt cards out comes here completed, as
        `derive` completes it and the model writes it. None whenever that is not certain, so that
        the full replay explains it; None is always safe, and is what a game without a fast path
        says."""
        return None

    def as_written(self, table: Table, deal: dict[str, Any], state: StateT, calls: list[Action]) -> bool:
        """Whether an archive's calls and plays rows (`calls`, `state.tricks`) are this deal's
        record exactly as written, so that checking the rows checks the record (the columnar path
        of `recordkit.columnar`). Games without a columnar check say False."""
        return False

    def prove_columns(self, rows: ColumnRows) -> Bools | Proof | None:
        """Which of these records (by games row) the full validation would find nothing wrong
        with, checked a whole row group at a time, or a `Proof` that also names the deals whose
        replay is wanted only for a note; None when the game has no columnar check. A record it
        cannot prove goes to the record path, so it must never prove a faulty one."""
        return None

    def written_form(self) -> WrittenForm | None:
        """How this game's deals are written in the bare form `prove_columns` reads from parsed
        JSON (`recordkit.rules.written_columns`), so that bulk JSON takes the columnar check;
        None when its bulk takes the record path."""
        return None

    def trump_flags(self, state: StateT, cards: list[int]) -> list[bool]:
        """`is_trump` of each of a deal's cards at once, for the plays table (a speed hook: a game
        whose trumps do not depend on the deal may answer from a table)."""
        return [self.is_trump(state, card) for card in cards]


def scores_as_written(table: Table, deal: dict[str, Any]) -> bool:
    """Whether a deal's result holds only its scores, one a seat, and its totals (when written)
    one a seat: what the scores rows hold, one score and one total a seat (for `as_written`)."""
    result, totals = deal.get("result"), deal.get("totals")
    if result is not None:
        scores = result.get("scores", []) if type(result) is dict else None
        if type(scores) is not list or len(scores) != table.players or result.keys() - {"scores"}:
            return False
    return not totals or (type(totals) is list and len(totals) == table.players)


def missing_hands(table: Table, deal: Any) -> list[str]:
    """The paths of the hands a deal leaves out: all of them when it has no `hands`, else each
    one written as null."""
    hands = deal.hands
    if hands is None:
        return [f"hands[{seat}]" for seat in range(table.players)]
    return [f"hands[{seat}]" for seat, hand in enumerate(hands) if hand is None]


def dealt_hands(deal: Any) -> list[str]:
    """A deal's hands as the replay reads them: the engine has derived every hand the record
    leaves out (`Completion`), so one still unknown here has no cards to show (empty)."""
    return [hand or "" for hand in deal.hands or []]


HAND_CHECKS = ("DEAL-HAND-SIZE", "DEAL-MISSING-CARD")
"""The deal checks that need every card of each hand: not run on hands known only in part."""


def complete_hands(table: Table, deal: Any, played: list[list[int]], whole: bool) -> Completion:
    """The deal with each hand it leaves out written as the cards its seat played (`whole`:
    those are the whole hand; otherwise the hand sizes and the deck's count are left unchecked)."""
    deck = table.deck
    hands = list(deal.hands) if deal.hands is not None else [None] * table.players
    derived: list[str] = []
    for seat, hand in enumerate(hands):
        if hand is None and seat < len(played):
            hands[seat] = deck.format(sorted(played[seat]))
            derived.append(f"hands[{seat}]")
    why = "the hands are known only from the cards played"
    unchecked: dict[tuple[str, int | None], str] = {}
    if derived and not whole:
        unchecked = {(code, None): why for code in HAND_CHECKS}
    return Completion(deal.model_copy(update={"hands": hands}), derived, unchecked)


def add_card(tricks: list[Any], code: str, trick_open: bool) -> list[Any]:
    """Tricks as written (JSON form) with one more card: in the trick in progress, or opening the next."""
    if not trick_open or not tricks:
        return [*tricks, code]
    last = tricks[-1]
    if isinstance(last, dict):
        cards = last["cards"]
        last = {**last, "cards": f"{cards} {code}" if isinstance(cards, str) else [*cards, code]}
    else:
        last = f"{last} {code}"
    return [*tricks[:-1], last]


def run(
    ruleset: Ruleset[Any, Any, Any], state: Any, actions: list[Action], just_in_time: bool = False
) -> list[Violation]:
    """Carry the actions out in order, each non-play action by the seat whose turn it is when
    the record does not say; every rule they break, in order. `just_in_time` puts each card
    played in every hand just as it falls (and takes it back after), so that a deal replayed with
    blank hands (to find who played what) plays every card as held, cheaply and without a finding."""
    problems: list[Violation] = []
    hands = state.hands
    for action in actions:
        if action.seat is None and action.kind != "play":
            turn = ruleset.turn(state)
            action.seat = turn.seat if turn is not None else None
        elif just_in_time and action.kind == "play":  # every seat holds it as it falls
            card = 1 << action.value
            for seat in range(len(hands)):
                hands[seat] |= card
            problems += ruleset.advance(state, action)
            for seat in range(len(hands)):
                hands[seat] &= ~card
            continue
        problems += ruleset.advance(state, action)
    return problems
