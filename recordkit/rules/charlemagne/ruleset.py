"""The Charlemagne ruleset: the standard (Canadian) game and the Maine game as its variant.

Each check cites its rule id in spec/rules/charlemagne.md. Seats follow the order of play
(clockwise); partners sit opposite (seats 0 and 2 against 1 and 3); the deal passes to the left.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, Any, ClassVar

from recordkit.cards import ids_of
from recordkit.diagnostics import Violation
from recordkit.model import trick_claims
from recordkit.rules.base import Ruleset, dealt_hands
from recordkit.rules.charlemagne import (
    claim,
    defence,
    flow,
    partial,
    play,
    quick,
    scoring,
    sheet,
    transcript,
    written,
)
from recordkit.rules.charlemagne.auction import dealer_forced
from recordkit.rules.charlemagne.bids import LADDERS
from recordkit.rules.charlemagne.cards import DECKS, HAND_SIZE, KITTY_SIZE, PLAYERS, SUIT_LETTERS, TRICKS
from recordkit.rules.charlemagne.options import CharlemagneOptions
from recordkit.rules.charlemagne.record import CharlemagneDeal, CharlemagneRecord, CharlemagneResult
from recordkit.rules.charlemagne.state import (
    AUCTION,
    DEFENCE,
    DEFENDER_CARD,
    DEFENDER_DISCARD,
    DISCARD,
    DONE,
    PARTNER_CARD,
    PHASE_OF_KIND,
    PLAY,
    TRUMP,
    CharlemagneState,
    Phase,
)
from recordkit.rules.values import Action, Completion, DealSummary, QuickDeal, Table, Turn
from recordkit.rules.violations import at, card_list, deck_integrity, incomplete, size_check

if TYPE_CHECKING:
    from recordkit.rules.columns import ColumnRows, Proof
    from recordkit.rules.written_columns import WrittenForm

CLAIM_OFFER_TRICKS = 3
"""The generator offers a claim only when this many tricks or fewer remain (claims are checked fast)."""
KINDS = {kind: frozenset({kind}) for kind in PHASE_OF_KIND}
"""The kinds of action open in each step that takes only one."""


@cache
def _turn(seat: int | None, kinds: frozenset[str]) -> Turn:
    """A turn, built once for each seat and kinds (`turn` is asked before many actions)."""
    return Turn(seat, kinds)


BID_WEIGHTS: dict[str, dict[int, float]] = {
    "standard": {0: 6.0, 1: 2.0, 2: 1.5, 3: 1.0, 4: 0.4, 5: 0.6, 6: 0.3, 7: 0.2, 8: 0.12},
    "maine": {0: 8.0, 1: 0.3, 2: 0.3, 3: 0.3, 4: 0.3, 5: 0.6, 6: 0.4, 7: 0.25, 8: 0.5, 9: 0.4, 10: 0.06},
}
"""Generator weights of the calls by level (Maine numbered bids come in four suits each)."""
OTHER_WEIGHTS: dict[tuple[str, object], float] = {
    ("knock", None): 0.04,
    ("claim", None): 0.5,
    ("defence", "alone"): 0.6,
}
"""Generator weights of the other actions that are not plain choices of a card."""


class Charlemagne(Ruleset[CharlemagneOptions, CharlemagneDeal, CharlemagneState]):
    """Charlemagne, standard (34 cards, kitty, game to 32) and Maine (32 cards, game to 21)."""

    name: ClassVar[str] = "charlemagne"
    title: ClassVar[str] = "Charlemagne"
    spec: ClassVar[str] = "spec/rules/charlemagne.md"
    rule_prefix: ClassVar[str] = "charlemagne"
    player_counts: ClassVar[tuple[int, ...]] = (PLAYERS,)
    score_rule: ClassVar[str] = "charlemagne.score"
    totals_rule: ClassVar[str] = "charlemagne.score.totals"
    dealer_rule: ClassVar[str] = "charlemagne.deal.rotation"
    end_rule: ClassVar[str] = "charlemagne.score.game"
    check_names: ClassVar[dict[str, str]] = partial.CHECK_NAMES
    Options = CharlemagneOptions
    Deal = CharlemagneDeal
    Record = CharlemagneRecord

    # --- setting up -------------------------------------------------------------------------

    def table(self, options: CharlemagneOptions, players: int) -> tuple[Table | None, list[Violation]]:
        """Four players, partners opposite; the deck follows the variant (charlemagne.players)."""
        if players != PLAYERS:
            return None, [self.wrong_player_count(players, " in two partnerships")]
        return Table(options, players, DECKS[options.variant]), []

    def compile(self, table: Table, deal: CharlemagneDeal) -> tuple[list[Action], list[Violation]]:
        """The deal's actions in table order (see `transcript.compile_deal`)."""
        return transcript.compile_deal(table, deal, lambda d, actions: self._rehearse(table, d, actions))

    def _rehearse(
        self, table: Table, deal: CharlemagneDeal, actions: list[Action]
    ) -> tuple[int | None, list[Violation]]:
        """Players in the play once the contract is settled (sizes the tricks), or None if nobody plays,
        and the problems of the deal, the calls and the exchanges (those of the cards as dealt left
        out when the record does not give them all)."""
        state, problems = self.start(table, deal)
        for action in actions:
            if action.seat is None:
                turn = self.turn(state)
                action.seat = turn.seat if turn is not None else None
            problems += flow.advance(state, action)
        if state.phase < Phase.PLAY:
            problems += flow.close_phases(state, Phase.PLAY)
        if self.unknown(table, deal):
            problems = [p for p in problems if p.code not in partial.DEALT_CHECKS]
        return (state.active_count() if state.phase == Phase.PLAY else None), problems

    def start(
        self, table: Table, deal: CharlemagneDeal, before: Sequence[int | float] | None = None
    ) -> tuple[CharlemagneState, list[Violation]]:
        """The hands and kitty as dealt, checked: 8 cards each, 2 in the kitty (none in Maine), each card once."""
        variant = table.options.variant
        deck = DECKS[variant]
        problems: list[Violation] = []
        hands = [card_list(deck, hand, "", "")[0] for hand in dealt_hands(deal)]
        kitty = card_list(deck, deal.kitty or "", "", "")[0]
        if len(hands) != PLAYERS:
            problems.append(
                Violation(
                    "DEAL-HAND-COUNT",
                    "charlemagne.deal.sizes",
                    f"the deal gives {len(hands)} hands for {PLAYERS} players",
                    expected=f"{PLAYERS} hands",
                    path="hands",
                )
            )
            hands = (hands + [[] for _ in range(PLAYERS)])[:PLAYERS]
        for seat, hand in enumerate(hands):
            for v in size_check(
                f"seat {seat}'s hand", hand, HAND_SIZE, "charlemagne.deal.sizes", "DEAL-HAND-SIZE"
            ):
                problems.append(at(v, path=f"hands[{seat}]", seat=seat))
        if len(kitty) != KITTY_SIZE[variant]:
            problems.append(_kitty_size(variant, len(kitty)))
        groups = [(f"seat {seat}'s hand", hand) for seat, hand in enumerate(hands)] + [("the kitty", kitty)]
        problems += deck_integrity(deck, groups, "charlemagne.deck")
        masks = [deck.mask(hand) for hand in hands]
        state = CharlemagneState(
            table=table,
            variant=variant,
            dealer=deal.dealer % PLAYERS,
            dealt=list(masks),
            hands=list(masks),
            kitty=deck.mask(kitty),
            status=deal.status,
            recorded=[trick_claims(t) for t in deal.tricks],
        )
        if deal.dealer >= PLAYERS:
            problems.append(
                Violation(
                    "RECORD-SEAT",
                    "charlemagne.players",
                    f"dealer {deal.dealer} is not a seat of 4 players",
                    path="dealer",
                )
            )
        state.scorable = not problems
        if deal.status == "annulled":
            state.phase = Phase.DONE
            problems.append(
                Violation(
                    "CHARLEMAGNE-ANNULLED",
                    "charlemagne.deal.status",
                    "no rule of Charlemagne throws a deal in after the deal; when everybody passes, record the four "
                    "passes (the next dealer deals)",
                    path="status",
                )
            )
        return state, problems

    # --- whose turn ---------------------------------------------------------------------------

    def turn(self, state: CharlemagneState) -> Turn | None:
        """Who acts next and which kinds of action are open."""
        phase = state.phase
        bidder = state.bidder
        if phase == AUCTION:
            return _turn(state.seat_after(state.dealer, 1 + state.calls_made), KINDS["bid"])
        assert bidder is not None or phase == DONE
        if phase == PARTNER_CARD and bidder is not None:
            if state.contract.exchange == "kitty_or_partner":
                kinds = {"partner_card", "discard"}
                if state.table.options.gros_charlemagne_allow_no_exchange:
                    kinds.add("trump")
                return _turn(bidder, frozenset(kinds))
            return _turn(state.partner(bidder), KINDS["partner_card"])
        if phase in (DISCARD, TRUMP):
            return _turn(bidder, KINDS[phase.name.lower()])
        if phase == DEFENCE:
            seat = None if defence.either(state) else defence.next_to_answer(state)
            return _turn(seat, KINDS["defence"])
        if phase == DEFENDER_CARD and state.defender is not None:
            return _turn(state.partner(state.defender), KINDS["defender_card"])
        if phase == DEFENDER_DISCARD:
            return _turn(state.defender, KINDS["defender_discard"])
        if phase == PLAY:
            kinds = {"play", "knock"}
            if state.current is None and state.table.options.allow_early_claim:
                kinds.add("claim")
            return _turn(state.to_play(), frozenset(kinds))
        return None

    # --- one action ---------------------------------------------------------------------------

    def advance(self, state: CharlemagneState, action: Action) -> list[Violation]:
        """Check the action and carry it out (see `flow.advance`)."""
        problems = flow.advance(state, action)
        if any(p.code == "CHARLEMAGNE-DEALER-FORCED" for p in problems):
            state.scorable = False
        return problems

    def finish(self, state: CharlemagneState) -> list[Violation]:
        """What is missing when the record stops before the end of the deal."""
        if state.phase == Phase.DONE or state.status != "played":
            return []
        state.scorable = False
        steps = {
            Phase.AUCTION: f"the auction stops after {state.calls_made} of {PLAYERS} calls",
            Phase.PARTNER_CARD: "the exchange is missing",
            Phase.DISCARD: f"the discard has {state.discard_due - state.to_discard} of {state.discard_due} cards",
            Phase.TRUMP: "the trump is not named",
            Phase.DEFENCE: "the defenders' answers stop there",
            Phase.DEFENDER_CARD: "the lone defender's card is missing",
            Phase.DEFENDER_DISCARD: "the lone defender's discard is missing",
            Phase.PLAY: f"only {len(state.tricks)} of {TRICKS} tricks are recorded",
        }
        return [incomplete(steps[state.phase], "charlemagne.trick.count")]

    def score(self, state: CharlemagneState) -> list[int | float] | None:
        """Each seat's score once the deal is over and scorable (charlemagne.score)."""
        if state.status == "abandoned" or state.phase != Phase.DONE or not state.scorable:
            return None
        return list(scoring.deal_scores(state))

    def result(self, scores: list[int | float]) -> CharlemagneResult:
        """The score-sheet line for computed scores."""
        return CharlemagneResult(scores=scores)

    def result_checks(self, state: CharlemagneState, deal: CharlemagneDeal) -> list[Violation]:
        """charlemagne.sheet.match, charlemagne.score.tricks: the contract, bidder and tricks written
        on the sheet match the calls and the play (see `sheet.result_checks`)."""
        return sheet.result_checks(state, deal)

    quick_result_fields: ClassVar[frozenset[str]] = frozenset({"tricks"})

    def quick_deal(
        self, table: Table, deal: dict[str, Any], before: Sequence[int | float]
    ) -> QuickDeal | None:
        """The fast path: a clean deal straight from parsed JSON (see `quick.quick_deal`)."""
        return quick.quick_deal(table, deal, self.turn)

    # --- partial records (spec/rules/charlemagne.md §8) ----------------------------------------

    def unknown(self, table: Table, deal: CharlemagneDeal) -> list[str]:
        """The hands and the standard kitty the record leaves out."""
        return partial.unknown(table, deal)

    def blank(self, table: Table, deal: CharlemagneDeal) -> CharlemagneDeal:
        """The deal with its unknown hands null (read as empty), for finding who played what."""
        return partial.blank(table, deal)

    def complete(
        self, table: Table, deal: CharlemagneDeal, played: list[list[int]], state: CharlemagneState
    ) -> Completion:
        """The hands, kitty and discards left out, from the play and the exchanges (see `partial`)."""
        return partial.complete(table, deal, played, state)

    def forget(self, table: Table, deal: CharlemagneDeal) -> CharlemagneDeal:
        """The deal without its hands and kitty."""
        return partial.forget(deal)

    def is_sheet(self, deal: CharlemagneDeal) -> bool:
        """A score sheet's line: a result, and no cards nor calls (charlemagne.sheet)."""
        return sheet.is_sheet(deal)

    def sheet_scores(
        self, table: Table, deal: CharlemagneDeal, before: Sequence[int | float] | None = None
    ) -> tuple[list[int | float] | None, list[Violation]]:
        """A sheet line's scores from its contract, bidder and tricks (charlemagne.sheet)."""
        return sheet.sheet_scores(table, deal, before)

    def sheet_of(self, table: Table, deal: CharlemagneDeal, state: CharlemagneState) -> CharlemagneDeal:
        """The deal as a club's score sheet writes it."""
        return sheet.sheet_of(table, deal, state)

    def next_dealer(self, table: Table, dealer: int, previous: CharlemagneState | None = None) -> int:
        """The deal passes to the left (charlemagne.deal.rotation)."""
        return (dealer + 1) % PLAYERS

    def game_over(
        self, table: Table, totals: Sequence[int | float], last: CharlemagneState | None = None
    ) -> bool:
        """A side has reached the target: 32, or 21 in the Maine game (charlemagne.score.game)."""
        return max(totals, default=0) >= scoring.target(table)

    # --- choices, for the generator and the recorder ------------------------------------------

    def legal(self, state: CharlemagneState) -> list[Action]:
        """Every legal action now, one per distinct choice."""
        turn = self.turn(state)
        if turn is None:
            return []
        phase = state.phase
        if phase == Phase.AUCTION:
            return self._legal_bids(state, turn.seat)
        bidder = state.bidder
        assert bidder is not None
        if phase == Phase.PARTNER_CARD:
            giver = state.partner(bidder)
            actions = [Action("partner_card", card, giver) for card in ids_of(state.hands[giver])]
            if state.contract.exchange == "kitty_or_partner":
                actions += [Action("discard", c, bidder) for c in ids_of(state.hands[bidder] | state.kitty)]
                if "trump" in turn.kinds:
                    actions += [Action("trump", suit, bidder) for suit in range(4)]
            return actions
        if phase == Phase.DISCARD:
            return [Action("discard", card, bidder) for card in ids_of(state.hands[bidder])]
        if phase == Phase.TRUMP:
            return [Action("trump", suit, bidder) for suit in range(4)]
        if phase == Phase.DEFENCE:
            answered = {seat for seat, _ in state.answers}
            seats = [s for s in defence.defenders(state) if s not in answered]
            if turn.seat is not None:
                seats = [turn.seat]
            return [Action("defence", answer, seat) for seat in seats for answer in ("pass", "alone")]
        if phase == Phase.DEFENDER_CARD:
            assert state.defender is not None
            giver = state.partner(state.defender)
            return [Action("defender_card", card, giver) for card in ids_of(state.hands[giver])]
        if phase == Phase.DEFENDER_DISCARD:
            return [
                Action("defender_discard", card, state.defender)
                for card in ids_of(state.hands[state.defender or 0])
            ]
        return self._legal_play(state)

    def _legal_bids(self, state: CharlemagneState, seat: int | None) -> list[Action]:
        """Pass and every bid above the highest; a forced dealer may not pass or bid below Five."""
        assert seat is not None
        ladder = LADDERS[state.variant]
        return [
            Action("bid", index, seat)
            for index, bid in enumerate(ladder)
            if (bid.level == 0 or bid.level > state.contract.level)
            and dealer_forced(state, seat, bid) is None
        ]

    def _legal_play(self, state: CharlemagneState) -> list[Action]:
        """The playable cards; in the Maine game a knock by the player who just played, when his
        partner is in the play too (charlemagne.play.knock); a claim."""
        seat = state.to_play()
        number = len(state.tricks) + 1
        position = len(state.current.cards) + 1 if state.current else 1
        actions = [
            Action("play", card, seat, "", number, position) for card in ids_of(play.playable(state, seat))
        ]
        if state.maine and state.cards_played:
            last = state.current if state.current and state.current.cards else state.tricks[-1]
            knocker = last.seats[-1]
            if state.active(state.partner(knocker)) and all(knock[0] != knocker for knock in state.knocks):
                place = (number if last is state.current else number - 1, len(last.cards), state.cards_played)
                actions.append(Action("knock", place, knocker))
        remaining = state.remaining()
        if (
            state.current is None
            and state.table.options.allow_early_claim
            and remaining <= CLAIM_OFFER_TRICKS
        ):
            sure = claim.guarantee(state, seat)
            if sure is not None and state.checked:
                actions.append(Action("claim", (seat, sure), seat))
        return actions

    def weight(self, state: CharlemagneState, action: Action) -> float:
        """How often the generator picks an action: most players pass, big contracts and knocks are rare."""
        if action.kind == "bid":
            return BID_WEIGHTS[state.variant].get(LADDERS[state.variant][action.value].level, 1.0)
        return OTHER_WEIGHTS.get((action.kind, action.value if action.kind == "defence" else None), 1.0)

    # --- building records ---------------------------------------------------------------------

    def deal_random(self, table: Table, dealer: int, rng: random.Random) -> CharlemagneDeal:
        """A shuffled deal: eight cards each, and the kitty's two in the standard game."""
        deck = table.deck
        cards = list(range(len(deck)))
        rng.shuffle(cards)
        hands: list[str | None] = [
            deck.format(sorted(cards[i * HAND_SIZE : (i + 1) * HAND_SIZE])) for i in range(PLAYERS)
        ]
        rest = sorted(cards[PLAYERS * HAND_SIZE :])
        return CharlemagneDeal(dealer=dealer, hands=hands, kitty=deck.format(rest) if rest else None)

    def record_deal(self, table: Table, dealt: CharlemagneDeal, actions: Sequence[Action]) -> CharlemagneDeal:
        """The deal model with these actions written in."""
        return transcript.record_deal(table, dealt, actions)

    def write_action(
        self, table: Table, deal: CharlemagneDeal, state: CharlemagneState, text: str, seat: int | None
    ) -> CharlemagneDeal:
        """A call, an exchanged or discarded card, a trump, a defender's answer, a card played, a knock
        or a claim, written where the record keeps it (see `transcript.write_typed`)."""
        return transcript.write_typed(table, deal, state, text, seat)

    # --- views --------------------------------------------------------------------------------

    def summary(self, state: CharlemagneState) -> DealSummary:
        """The contract, the bidder, his partner if in the play, the result, and the trump."""
        if state.bidder is None:
            return DealSummary()
        partner = state.partner(state.bidder)
        over = state.phase == Phase.DONE and state.scorable
        return DealSummary(
            contract=state.contract.name,
            declarer=state.bidder,
            partner=partner if state.active(partner) else None,
            made=scoring.made(state) if over else None,
            trump=SUIT_LETTERS[state.trump] if state.trump is not None else None,
        )

    def declaring_side(
        self, table: Table, state: CharlemagneState, summary: DealSummary | None = None
    ) -> list[bool] | None:
        """The bidder's partnership, his partner in it even when he sits out a lone hand."""
        if state.bidder is None:
            return None
        return [state.bidding_side(seat) for seat in range(table.players)]

    def trick_notes(self, state: CharlemagneState, trick: int) -> list[tuple[int, str]]:
        """Knocks in trick `trick` (1-based) as (cards played before the knock, text), for a replay view."""
        return [(after, f"knock({seat})") for seat, number, after in state.knocks if number == trick]

    def is_trump(self, state: CharlemagneState, card: int) -> bool:
        """Whether the card counted as a trump in this deal (jokers and le petit bar included)."""
        return state.ctx.is_trump(card)

    def as_written(
        self, table: Table, deal: dict[str, Any], state: CharlemagneState, calls: list[Action]
    ) -> bool:
        """The calls, exchanges, defence, knocks and tricks written as bare words and codes, the
        kitty the cards the hands leave, no claim, one score and total a seat: the archive's rows
        hold the whole deal (see `written.as_written`)."""
        return written.as_written(table, deal, state, [(a.kind, self.describe(table, a)) for a in calls])

    def prove_columns(self, rows: ColumnRows) -> Proof:
        """Which records the columns prove clean, but for the deals noted (see `columnar.prove_columns`)."""
        from recordkit.rules.charlemagne import columnar  # NumPy and pyarrow: only for archives

        return columnar.prove_columns(rows)

    def written_form(self) -> WrittenForm:
        from recordkit.rules.charlemagne import columnar  # NumPy and pyarrow: only for bulk input

        return columnar.WRITTEN

    def describe(self, table: Table, action: Action) -> str:
        """An action's value in record notation."""
        variant: str = table.options.variant
        value: int = action.value if isinstance(action.value, int) else 0
        if action.kind == "bid":
            return LADDERS[variant][value].name
        if action.kind == "trump":
            return SUIT_LETTERS[value]
        if action.kind == "defence":
            return str(action.value)
        if action.kind == "knock":
            return f"knock after card {action.value[1]} of trick {action.value[0]}"
        if action.kind == "claim":
            return f"claim {action.value[1]}"
        return DECKS[variant].codes[value]


def _kitty_size(variant: str, size: int) -> Violation:
    """DEAL-KITTY-SIZE: two cards in the standard kitty, none in the Maine game."""
    expected = KITTY_SIZE[variant]
    message = (
        f"the Maine game has no kitty: all 32 cards are dealt, yet the kitty holds {size}"
        if variant == "maine"
        else f"the kitty has {size} cards, not {expected}"
    )
    return Violation(
        "DEAL-KITTY-SIZE", "charlemagne.deal.sizes", message, expected=str(expected), path="kitty"
    )
