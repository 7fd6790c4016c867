"""The Joffre ruleset: the Québec nations deck, 3 or 4 players (4 in teams), Kaiser's rules as options.

Each check cites its rule id in spec/rules/joffre.md. Seats follow the order of play (clockwise), so
the player "on the dealer's left" of the source is seat dealer+1.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from recordkit.cards import ids_of
from recordkit.diagnostics import Violation
from recordkit.model import Call, trick_claims
from recordkit.rules.base import Ruleset, add_card, dealt_hands, scores_as_written
from recordkit.rules.joffre import auction, ending, partial, play, quick, sheet
from recordkit.rules.joffre.cards import NO_TRUMP, cards_for, trick_value
from recordkit.rules.joffre.deal import check_deal, compile_deal, hand_ids, totals_before
from recordkit.rules.joffre.options import JoffreOptions
from recordkit.rules.joffre.record import JoffreDeal, JoffreRecord, JoffreResult, bid_name
from recordkit.rules.joffre.scoring import count, deal_scores, facts_of
from recordkit.rules.joffre.scoring import working as scoring_working
from recordkit.rules.joffre.state import JoffreState, Phase
from recordkit.rules.values import (
    Action,
    Completion,
    DealSummary,
    PlayedTrick,
    QuickDeal,
    Table,
    Turn,
)
from recordkit.rules.violations import incomplete

if TYPE_CHECKING:
    from recordkit.rules.columns import ColumnRows, Proof
    from recordkit.rules.written_columns import WrittenForm


class Joffre(Ruleset[JoffreOptions, JoffreDeal, JoffreState]):
    """Joffre (Québec, source 000): the source's rules by default, Kaiser's readings as options."""

    name: ClassVar[str] = "joffre"
    title: ClassVar[str] = "Joffre"
    spec: ClassVar[str] = "spec/rules/joffre.md"
    rule_prefix: ClassVar[str] = "joffre"
    player_counts: ClassVar[tuple[int, ...]] = (3, 4)
    score_rule: ClassVar[str] = "joffre.score"
    totals_rule: ClassVar[str] = "joffre.score.totals"
    dealer_rule: ClassVar[str] = "joffre.deal.rotation"
    end_rule: ClassVar[str] = "joffre.end.target"
    Options = JoffreOptions
    Deal = JoffreDeal
    Record = JoffreRecord

    # --- setting up -------------------------------------------------------------------------

    def table(self, options: JoffreOptions, players: int) -> tuple[Table | None, list[Violation]]:
        """joffre.players, joffre.deal.teams, joffre.bid.range: the table, or why it cannot be."""
        if players not in self.player_counts:
            return None, [self.wrong_player_count(players)]
        problems = []
        if options.mode == "teams" and players != 4:
            problems.append(
                Violation(
                    "JOFFRE-TEAMS-PLAYERS",
                    "joffre.deal.teams",
                    f"team play needs four players (two against two), not {players}",
                    expected="4 players, or mode individual",
                )
            )
        top = auction.max_bid(cards_for(players).hand_size, options.bid_unit)
        if options.min_bid > top:
            problems.append(
                Violation(
                    "RECORD-BAD-OPTION",
                    "joffre.bid.range",
                    f"option min_bid is {options.min_bid}, above the highest possible bid ({top}) "
                    f"at {players} players",
                    expected=f"min_bid from 1 to {top}",
                )
            )
        if problems:
            return None, problems
        return Table(options, players, cards_for(players).deck), []

    def compile(self, table: Table, deal: JoffreDeal) -> tuple[list[Action], list[Violation]]:
        """The deal's calls and cards as actions; unknown cards and calls stop this deal's replay."""
        return compile_deal(table, deal)

    def start(
        self, table: Table, deal: JoffreDeal, before: Sequence[int | float] | None = None
    ) -> tuple[JoffreState, list[Violation]]:
        """The state after the deal: the hands checked, the totals before the deal as the caller
        knows them, or else as the sheet gives them (this deal's totals less its scores)."""
        n = table.players
        hands = [hand_ids(table, hand, "", "")[0] for hand in dealt_hands(deal)]
        hands = (hands + [[] for _ in range(n)])[:n]
        problems = check_deal(table, deal, hands)
        masks = [table.deck.mask(hand) for hand in hands]
        state = JoffreState(
            table=table,
            cards=cards_for(n),
            dealer=deal.dealer % n,
            dealt=list(masks),
            hands=list(masks),
            status=deal.status,
            written_trump=deal.trump,
            before=totals_before(deal, before),
            recorded=[trick_claims(t) for t in deal.tricks],
        )
        state.scorable = not any(p.code != "JOFFRE-ANNULLED" for p in problems)
        return state, problems

    # --- whose turn, one action -------------------------------------------------------------

    def turn(self, state: JoffreState) -> Turn | None:
        """The speaker in the auction, then the seat to play; None once the deal is over."""
        if state.phase == Phase.AUCTION:
            return Turn(auction.speaker(state), frozenset({"bid"}))
        if state.phase == Phase.PLAY:
            return Turn(state.to_play(), frozenset({"play"}))
        return None

    def advance(self, state: JoffreState, action: Action) -> list[Violation]:
        """Check the call or card and carry it out; a card closes an unfinished auction."""
        if state.phase == Phase.DONE:
            return self._after_end(state, action)
        if action.kind == "bid":
            if state.phase == Phase.PLAY:
                return [self._extra_call(state, action)]
            return auction.take_bid(state, action)
        problems: list[Violation] = []
        if state.phase == Phase.AUCTION:
            problems.append(
                Violation(
                    "JOFFRE-AUCTION-INCOMPLETE",
                    "joffre.bid.order",
                    f"only {state.calls_made} of the {state.players} players spoke before the first card; "
                    f"each player speaks once, from the dealer's left round to the dealer",
                    path="auction",
                )
            )
            auction.end_auction(state)
            if _over(state):
                return problems + self._after_end(state, action)
        return problems + play.play_card(state, action)

    def _extra_call(self, state: JoffreState, action: Action) -> Violation:
        """A call after every player has spoken once."""
        return Violation(
            "JOFFRE-AUCTION-EXTRA",
            "joffre.bid.order",
            f"every player has already spoken once; call {bid_name(action.value)!r} is one too many",
            path=action.path,
        )

    def _after_end(self, state: JoffreState, action: Action) -> list[Violation]:
        """Something recorded after the deal ended: an extra call, or cards (reported once)."""
        if action.kind == "bid":
            return [self._extra_call(state, action)]
        if state.overrun_reported:
            return []
        state.overrun_reported = True
        state.scorable = False
        if state.bidder is None:
            return [
                Violation(
                    "JOFFRE-ALL-PASS-PLAYED",
                    "joffre.bid.all-pass",
                    "nobody bid, so the cards are thrown in and the next dealer deals; "
                    "yet the record goes on with cards",
                    path=action.path,
                )
            ]
        return [
            Violation(
                "DEAL-EXTRA-TRICK",
                "joffre.trick.count",
                f"all {state.cards.hand_size} tricks are played; the record has more",
                path=action.path,
                trick=action.trick,
            )
        ]

    def finish(self, state: JoffreState) -> list[Violation]:
        """joffre.trick.count: a played deal has its whole auction and every trick."""
        if state.phase == Phase.DONE or state.status == "abandoned":
            return []
        state.scorable = False
        step = (
            f"the auction stops after {state.calls_made} of {state.players} calls"
            if state.phase == Phase.AUCTION
            else f"only {len(state.tricks)} of {state.cards.hand_size} tricks are recorded"
        )
        return [incomplete(step, "joffre.trick.count")]

    # --- scores and the end -----------------------------------------------------------------

    def score(self, state: JoffreState) -> list[int | float] | None:
        """Each seat's score (partners equal in team play), or None if the deal did not reach its end."""
        if state.status == "abandoned" or state.phase != Phase.DONE or not state.scorable:
            return None
        return deal_scores(state)

    def result(self, scores: list[int | float]) -> JoffreResult:
        """The score-sheet line."""
        return JoffreResult(scores=scores)

    def result_checks(self, state: JoffreState, deal: JoffreDeal) -> list[Violation]:
        """joffre.sheet.replay: the facts the result writes, against the replay; joffre.score.cap:
        the Kaiser cap needs the running totals to know who is at 47."""
        problems = sheet.replay_checks(state, deal.result) if deal.result is not None else []
        return problems + sheet.cap_unknown(state.table.options, state.before, state.bidder)

    def quick_deal(
        self, table: Table, deal: dict[str, Any], before: Sequence[int | float]
    ) -> QuickDeal | None:
        """The fast path: a clean deal proven so straight from its JSON (`joffre.quick`)."""
        return quick.quick_deal(table, deal, before)

    # --- partial records (spec/rules/joffre.md, "Partial records") ----------------------------

    check_names: ClassVar[dict[str, str]] = partial.CHECK_NAMES

    def complete(
        self, table: Table, deal: JoffreDeal, played: list[list[int]], state: JoffreState
    ) -> Completion:
        """joffre.partial.*: each unknown hand is the cards its seat played."""
        return partial.complete(table, deal, played)

    def is_sheet(self, deal: JoffreDeal) -> bool:
        """joffre.sheet: a deal that is only its line on the score sheet."""
        return sheet.is_sheet(deal)

    def sheet_scores(
        self, table: Table, deal: JoffreDeal, before: Sequence[int | float] | None = None
    ) -> tuple[list[int | float] | None, list[Violation]]:
        """joffre.sheet.facts: the scores from the facts the sheet writes, by the rules' scoring."""
        return sheet.sheet_scores(table, deal, before)

    def sheet_of(self, table: Table, deal: JoffreDeal, state: JoffreState) -> JoffreDeal:
        """The deal as the score sheet writes it (every fact, no cards)."""
        return sheet.sheet_of(table, deal, state)

    def next_dealer(self, table: Table, dealer: int, previous: JoffreState | None = None) -> int:
        """joffre.deal.rotation: the deal passes to the left."""
        return (dealer + 1) % table.players

    def game_over(self, table: Table, totals: Sequence[int | float], last: JoffreState | None = None) -> bool:
        """joffre.end.target and joffre.end.tiebreak: decided with the last deal's bidder when it was
        replayed, else by the totals alone (a tie at the top is then left open)."""
        if last is None or last.bidder is None:
            return ending.game_over(table.options, totals)
        return ending.winner(table.options, totals, last.side(last.bidder)) is not None

    # --- choices, for the generator and the recorder ----------------------------------------

    def legal(self, state: JoffreState) -> list[Action]:
        """Every legal call or card for the seat whose turn it is."""
        turn = self.turn(state)
        if turn is None or turn.seat is None:
            return []
        if state.phase == Phase.AUCTION:
            return [Action("bid", value, turn.seat) for value in auction.legal_calls(state)]
        return [Action("play", card, turn.seat) for card in ids_of(play.playable(state, turn.seat))]

    # --- building records -------------------------------------------------------------------

    def deal_random(self, table: Table, dealer: int, rng: random.Random) -> JoffreDeal:
        """joffre.deal.one-at-a-time: every card dealt one at a time from the dealer's left."""
        n = table.players
        cards = list(range(len(table.deck)))
        rng.shuffle(cards)
        hands: list[list[int]] = [[] for _ in range(n)]
        for index, card in enumerate(cards):
            hands[(dealer + 1 + index) % n].append(card)
        return JoffreDeal(dealer=dealer, hands=[table.deck.format(sorted(hand)) for hand in hands])

    def record_deal(self, table: Table, dealt: JoffreDeal, actions: Sequence[Action]) -> JoffreDeal:
        """The deal with its calls and tricks written in (the inverse of `compile`)."""
        deal = dealt.model_copy(deep=True)
        plays = [action.value for action in actions if action.kind == "play"]
        deal.auction = [Call(call=bid_name(action.value)) for action in actions if action.kind == "bid"]
        n = table.players
        deal.tricks = [table.deck.format(plays[i : i + n]) for i in range(0, len(plays), n)]
        return deal

    def write_action(
        self, table: Table, deal: JoffreDeal, state: JoffreState, text: str, seat: int | None
    ) -> JoffreDeal:
        """A call (`pass`, `6`, `6 no trump`) in the auction, else a card in the trick in progress."""
        data = deal.model_dump(mode="json", exclude_none=True)
        if state.phase == Phase.AUCTION:
            data["auction"].append(text if seat is None else {"call": text, "seat": seat})
        else:
            trick_open = state.current is not None and bool(state.current.cards)
            data["tricks"] = add_card(data["tricks"], text, trick_open)
        return JoffreDeal.model_validate(data)

    # --- views ------------------------------------------------------------------------------

    def trick_points(self, trick: PlayedTrick) -> int | None:
        """A trick's points: 1, +5 with the Joffre, -3 with the Kaiser (the deck follows the trick's size)."""
        if len(trick.cards) not in self.player_counts:
            return None
        return trick_value(cards_for(len(trick.cards)), trick.cards)

    def score_working(self, table: Table, state: JoffreState) -> list[tuple[str, int | float | str]]:
        """Each side's tricks, points and capture loss, and the contract's outcome (`scoring.working`)."""
        if state.phase != Phase.DONE or not state.scorable:
            return []
        return scoring_working(state)

    def summary(self, state: JoffreState) -> DealSummary:
        """The contract, bidder, partner, result, trump and the bidding side's points."""
        if state.bidder is None:
            return DealSummary()
        done = state.phase == Phase.DONE and state.scorable
        result = count(state) if done else None
        facts = facts_of(state) if done else None
        trump = None if state.trump is None or state.trump == NO_TRUMP else play.TRUMP_LETTERS[state.trump]
        return DealSummary(
            contract=bid_name(state.contract),
            declarer=state.bidder,
            partner=state.seat_after(state.bidder, 2) if state.teams else None,
            made=result.made if result else None,
            trump=trump,
            declarer_points=result.points[state.side(state.bidder)] if result else None,
            joffre_won_by=facts.joffre if facts else None,
            kaiser_won_by=facts.kaiser if facts else None,
            joffre_captured=facts.taken if facts else None,
        )

    def is_trump(self, state: JoffreState, card: int) -> bool:
        """Whether the card is of the deal's trump nation."""
        return state.trump is not None and state.trump != NO_TRUMP and state.cards.nation[card] == state.trump

    def prove_columns(self, rows: ColumnRows) -> Proof:
        """The deals of an archive's row group checked with NumPy (`joffre.columnar`)."""
        from recordkit.rules.joffre import columnar  # NumPy and pyarrow: only for archives

        return columnar.prove_columns(rows)

    def written_form(self) -> WrittenForm:
        from recordkit.rules.joffre import columnar  # NumPy and pyarrow: only for bulk input

        return columnar.WRITTEN

    def as_written(self, table: Table, deal: dict[str, Any], state: JoffreState, calls: list[Action]) -> bool:
        """The auction and tricks written as bare words and codes (no seats, leaders or winners), a
        trump written only as the play sets it, and one score and total a seat with no sheet facts,
        so that the calls, plays and scores rows hold the whole deal, in order."""
        tricks, auction_calls = deal.get("tricks", []), deal.get("auction", [])
        trump = deal.get("trump")
        if any(type(t) is not str for t in tricks) or any(type(a) is not str for a in auction_calls):
            return False
        if trump is not None and (state.trump is None or trump != self._trump_letter(state.trump)):
            return False
        if not scores_as_written(table, deal):
            return False
        if [(a.kind, self.describe(table, a)) for a in calls] != [("bid", call) for call in auction_calls]:
            return False
        return [t.split() for t in tricks] == [[table.deck.codes[c] for c in t.cards] for t in state.tricks]

    @staticmethod
    def _trump_letter(trump: int) -> str:
        """The trump as a deal writes it: a nation's letter, or `none`."""
        return "none" if trump == NO_TRUMP else play.TRUMP_LETTERS[trump]

    def describe(self, table: Table, action: Action) -> str:
        """A call's name or a card's code."""
        if action.kind == "bid":
            return bid_name(action.value)
        return super().describe(table, action)


def _over(state: JoffreState) -> bool:
    """True once the deal has ended (a helper so that type checkers re-read the phase)."""
    return state.phase == Phase.DONE
