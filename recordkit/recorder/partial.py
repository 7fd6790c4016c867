"""Deals recorded without (all) their hands: each action is judged by the engine replaying the deal
so far as a partial record, the hands left out derived from the cards played.

The rulesets judge a card against the hand that holds it, which a scorekeeper does not know. The
engine does know what the cards seen prove: replayed with the hands derived from the play
(`recordkit.engine.replay_deal`), a deal not yet played out keeps only the checks proven by the
cards present (a card played twice, a card in a hand that was given, a revoke shown by a later
card). So an action is refused when it brings the deal so far a finding it did not have: exactly
what the validator would then report on the record. The checks that need whole hands run when
the last card makes them whole; what they find is reported, not refused (spec/RECORDER.md).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any

from recordkit.diagnostics import Diagnostic, Severity
from recordkit.engine import DealReplay, replay_deal
from recordkit.recorder.live import LiveDeal, diagnostic, in_progress, record_form, rewrite
from recordkit.recorder.refusal import RefusedError, refusal
from recordkit.rules.base import NOT_CHECKED, Ruleset, run
from recordkit.rules.values import Action, Table

Unchecked = frozenset[tuple[str, int | None]]
"""The checks a replay could not run, as (code, seat: None for every seat)."""


@dataclass(slots=True)
class Judgement:
    """The engine's replay of a partial deal so far: its state and actions, every finding (as the
    validator reports it for this deal of the record, notes aside) and the checks it left out."""

    replay: DealReplay
    findings: list[Diagnostic] = field(default_factory=list)
    unchecked: Unchecked = frozenset()
    notes: list[Diagnostic] = field(default_factory=list)
    """What the engine says it derived and could not check (`DEAL-NOT-CHECKED`)."""

    @property
    def unreadable(self) -> list[Diagnostic]:
        """The errors that kept the deal from being replayed at all (an unknown card or call)."""
        return [] if self.replay.replayed else errors_of(self.findings)


def judge(
    ruleset: Ruleset[Any, Any, Any], table: Table, live: LiveDeal, deal: Any, finished: bool = False
) -> Judgement:
    """Replay `deal` (the live deal with what it holds now) as the validator would: in progress
    (a trick being played reads as the last, short trick) unless `finished` or thrown in."""
    ongoing = not finished and deal.status == "played"
    replay = replay_deal(ruleset, table, in_progress(deal) if ongoing else deal, live.before, sheets=False)
    found = [diagnostic(v, live.number) for v in replay.violations]
    notes = [d for d in found if d.code == NOT_CHECKED]
    completion = replay.completion
    unchecked: Unchecked = frozenset(completion.unchecked) if completion is not None else frozenset()
    return Judgement(replay, [d for d in found if d.code != NOT_CHECKED], unchecked, notes)


@dataclass(slots=True)
class Attempt:
    """An action tried in a partial deal: the engine's judgement of the deal with it, the new
    actions and their seats, and its new findings: refused, or reported (the full check)."""

    judged: Judgement
    new: list[Action]
    actors: list[int | None]
    refused: list[Diagnostic]
    reported: list[Diagnostic]


def attempt(
    ruleset: Ruleset[Any, Any, Any], table: Table, live: LiveDeal, written: Any, text: str, seat: int | None
) -> Attempt:
    """What the action `text` typed by `seat`, written into the deal as `written`, would give,
    the deal left as it is: the engine's replay and its new findings. RefusedError when it cannot
    be read, does not extend the deal, or is a card typed for another seat than the rules'."""
    judged = judge(ruleset, table, live, written)
    if judged.unreadable:
        raise RefusedError(judged.unreadable)
    actions, before = judged.replay.actions, len(live.compiled)
    if len(actions) <= before or any(
        (a.kind, a.value) != (b.kind, b.value) for a, b in zip(actions, live.compiled, strict=False)
    ):
        raise refusal(f"{text!r} cannot be written in the record at this point of the deal")
    new = actions[before:]
    over = ruleset.turn(judged.replay.state) is None
    if over:  # judged as played out, not abandoned
        judged = final(ruleset, table, live, [*live.actions, *new])[1]
    turn = ruleset.turn(live.state)
    if seat is not None and turn is not None and turn.seat != seat and any(a.kind == "play" for a in new):
        raise refusal(f"it is seat {turn.seat}'s turn to play, not seat {seat}'s")
    found = news(live.findings, judged.findings)
    reported = now_checked(found, live.unchecked) if over else []
    refused = [d for d in found if d not in reported]
    return Attempt(judged, new, actors(judged.replay.state, new), refused, reported)


def final(
    ruleset: Ruleset[Any, Any, Any], table: Table, live: LiveDeal, actions: list[Action]
) -> tuple[Any, Judgement]:
    """A deal over by the rules, as the record keeps it (played out, with the result the engine
    gives it), and the engine's judgement of it: the full check on the derived hands."""
    deal = record_form(ruleset, table, live, actions)
    judged = judge(ruleset, table, live, deal, finished=True)
    scores = judged.replay.scores
    if scores is not None:  # judged again with its result, as the validator will see it
        deal.result = ruleset.result(scores)
        judged = judge(ruleset, table, live, deal, finished=True)
    return deal, judged


def adopt(live: LiveDeal, judged: Judgement) -> None:
    """Make the judged replay the live deal's state: its findings and the checks it left out."""
    replay = judged.replay
    live.state = replay.state
    live.findings = judged.findings
    live.unchecked = judged.unchecked
    live.completion = replay.completion


def restore(ruleset: Ruleset[Any, Any, Any], table: Table, live: LiveDeal) -> None:
    """Rebuild a partial deal's state from its actions (after an undo), by the engine's replay."""
    rewrite(ruleset, table, live)
    adopt(live, judge(ruleset, table, live, live.written))


def actors(state: Any, actions: list[Action]) -> list[int | None]:
    """The seat that made each action: for a card, the seat the replay found playing it."""
    tricks = [*state.tricks, *([state.current] if state.current is not None else [])]
    out: list[int | None] = []
    for action in actions:
        if action.kind == "play" and action.trick is not None and action.position is not None:
            trick = tricks[action.trick - 1] if action.trick <= len(tricks) else None
            seats = trick.seats if trick is not None else []
            out.append(seats[action.position - 1] if action.position <= len(seats) else None)
        else:
            out.append(action.seat)
    return out


def news(before: list[Diagnostic], after: list[Diagnostic]) -> list[Diagnostic]:
    """The findings of `after` that `before` did not have (each counted as often as it occurs)."""
    had = Counter(before)
    new: list[Diagnostic] = []
    for found in after:
        if had[found] > 0:
            had[found] -= 1
        else:
            new.append(found)
    return new


def now_checked(found: list[Diagnostic], unchecked: Unchecked) -> list[Diagnostic]:
    """The findings of checks that the deal so far could not run, for an action that ends the deal
    (its hands, derived from the play, are whole now): the full check at the end of the deal,
    reported and not refused. Before the end a check that can run has its facts, the action
    among them (a King typed into the discard: `tarot.discard.king`), and what it finds is
    refused, as the validator reports it on the record holding the action."""
    return [d for d in found if (d.code, None) in unchecked or (d.code, d.location.seat) in unchecked]


def errors_of(found: list[Diagnostic]) -> list[Diagnostic]:
    """The errors among the findings."""
    return [d for d in found if d.severity == Severity.ERROR]


# --- what may be typed now, with hands unknown ------------------------------------------------


def candidates(ruleset: Ruleset[Any, Any, Any], table: Table, live: LiveDeal) -> list[Action]:
    """The actions that may be open now, to be tried one by one: what the rules offer with the
    hands as derived so far and with each hand left out holding every card not yet seen, and,
    for a seat whose hand is not known, every card not yet seen as its play."""
    turn = ruleset.turn(live.state)
    if turn is None:
        return []
    unseen = sorted(set(range(len(table.deck))) - seen(ruleset, table, live))
    offered = ruleset.legal(live.state) + ruleset.legal(filled(ruleset, table, live, unseen))
    if "play" in turn.kinds and turn.seat is not None and not known(ruleset, table, live, turn.seat):
        offered += [Action("play", card) for card in unseen]
    out: list[Action] = []
    keys: set[tuple[str, str, int | None]] = set()
    for action in offered:
        key = (action.kind, repr(action.value), None if action.seat == turn.seat else action.seat)
        if key not in keys:
            keys.add(key)
            out.append(action)
    return out


def known(ruleset: Ruleset[Any, Any, Any], table: Table, live: LiveDeal, seat: int) -> bool:
    """Whether the seat's hand was given when the deal started."""
    return f"hands[{seat}]" not in ruleset.unknown(table, live.written)


def seen(ruleset: Ruleset[Any, Any, Any], table: Table, live: LiveDeal) -> set[int]:
    """Every card whose place is known: in a group given or derived so far, or played."""
    completion = live.completion
    dealt = completion.deal if completion is not None else live.written
    cards = {card for name in live.groups for card in card_ids(table, getattr(dealt, name, None))}
    for trick in [*live.state.tricks, *([live.state.current] if live.state.current else [])]:
        cards.update(trick.cards)
    return cards


def filled(ruleset: Ruleset[Any, Any, Any], table: Table, live: LiveDeal, unseen: list[int]) -> Any:
    """The state the deal so far reaches when each hand left out holds, besides the cards it has
    played, every card not yet seen: what the rules would offer if it held any of them."""
    completion = live.completion
    dealt = completion.deal if completion is not None else live.written
    hands = list(dealt.hands or [])
    hands += [None] * (table.players - len(hands))
    extra = table.deck.format(unseen)
    for path in ruleset.unknown(table, live.written):
        if path.startswith("hands["):
            seat = int(path[len("hands[") : -1])
            hands[seat] = f"{hands[seat] or ''} {extra}".strip()
    deal = dealt.model_copy(update={"hands": hands})
    state, _ = ruleset.start(table, deal, live.before)
    run(ruleset, state, [replace(action) for action in live.actions])  # copies: the live deal keeps its own
    return state


def card_ids(table: Table, value: Any) -> list[int]:
    """The ids of the cards a dealt field holds, as the deal model keeps it: a group's text, or a
    list of them (the hands, None for a hand not known)."""
    texts = value if isinstance(value, list) else [value]
    return [
        table.deck.index[code] for text in texts if text for code in text.split() if code in table.deck.index
    ]


# --- why a card is refused, in words ----------------------------------------------------------


def explain(table: Table, live: LiveDeal, action: Action, seat: int | None, refused: list[Diagnostic]) -> str:
    """What the refusal of a card means at the table: where the card was seen already, or which
    earlier tricks show that the seat did not hold it. Empty when the diagnostics say it all."""
    if action.kind != "play" or not isinstance(action.value, int):
        return ""
    card = action.value
    code = table.deck.codes[card]
    for number, trick in enumerate([*live.state.tricks, live.state.current], start=1):
        if trick is not None and card in trick.cards:
            return (
                f"{code} was already played, in trick {number} by seat {trick.seats[trick.cards.index(card)]}"
            )
    if any(d.location.trick is None for d in refused):  # a finding about the cards dealt
        where = given_place(table, live, card, seat)
        if where:
            return f"{code} is {where}, as dealt"
    current = len(live.state.tricks) + 1
    earlier = sorted({d.location.trick for d in refused if d.location.trick and d.location.trick < current})
    played = [
        f"{table.deck.codes[trick.cards[trick.seats.index(seat)]]} in trick {number}"
        for number in earlier
        for trick in [live.state.tricks[number - 1]]
        if seat in trick.seats
    ]
    if seat is None or not played:
        return ""
    cards = played[0] if len(played) == 1 else f"{', '.join(played[:-1])} and {played[-1]}"
    return f"seat {seat} cannot hold {code}: it played {cards}, which it could not have done holding {code}"


def given_place(table: Table, live: LiveDeal, card: int, seat: int | None) -> str:
    """Where a group given when the deal started puts the card (another seat's hand, the dog...)."""
    for name in live.groups:
        value = getattr(live.written, name, None)
        if name == "hands" and isinstance(value, list):
            for holder, hand in enumerate(value):
                if holder != seat and card in card_ids(table, hand):
                    return f"in seat {holder}'s hand"
        elif card in card_ids(table, value):
            return f"in the {name}"
    return ""
