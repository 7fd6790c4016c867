"""Charlemagne records to actions and back: `compile` and `record_deal` of the ruleset (ENGINE.md).

Actions come out in the order things happen at the table: the calls, the partner's card, the
discard, the trump, the Maine defenders' answers and exchange, then the cards with the knocks
between them at their places, and a claim last.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from recordkit.cards import Deck
from recordkit.diagnostics import Violation
from recordkit.model import Call, trick_codes
from recordkit.rules.base import Action, Table, card_list, unknown_card
from recordkit.rules.charlemagne.auction import winning_call
from recordkit.rules.charlemagne.bids import DEFENCE_CALLS, INDEX, LADDERS
from recordkit.rules.charlemagne.cards import DECKS, PLAYERS, SUIT_LETTERS
from recordkit.rules.charlemagne.record import CharlemagneDeal, Claim, Knock

Rehearsal = Callable[[CharlemagneDeal, list[Action]], tuple[int | None, list[Violation]]]
"""Replays a deal's actions up to the first card: how many players are in the play, and what those
actions break."""


def compile_deal(
    table: Table, deal: CharlemagneDeal, rehearse: Rehearsal
) -> tuple[list[Action], list[Violation]]:
    """The deal's actions in table order, card codes as ids; unknown cards or calls and wrong-sized tricks
    are errors that stop the replay of this deal."""
    variant = table.options.variant
    deck = DECKS[variant]
    problems: list[Violation] = []
    for index, hand in enumerate(deal.hands):
        problems += card_list(deck, hand, f"hands[{index}]", f"seat {index}'s hand")[1]
    if deal.kitty is not None:
        problems += card_list(deck, deal.kitty, "kitty", "the kitty")[1]
    actions = _calls(variant, deal.auction, "auction", "bid", problems)
    actions += _cards(deck, deal.partner_card, "partner_card", "the partner's card", problems)
    actions += _cards(deck, deal.discard, "discard", "the discard", problems)
    if deal.trump is not None:
        actions.append(Action("trump", SUIT_LETTERS.index(deal.trump), None, "trump"))
    actions += _calls(variant, deal.defence or [], "defence", "defence", problems)
    actions += _cards(deck, deal.defender_card, "defender_card", "the defender's card", problems)
    actions += _cards(deck, deal.defender_discard, "defender_discard", "the defender's discard", problems)
    if problems:
        return actions, problems
    size, before_play = rehearse(deal, [replace(a) for a in actions])
    plays = _plays(deck, deal, size, problems)
    if problems:  # the play cannot be replayed: still report what the calls and exchanges break
        problems = before_play + problems
    actions += _with_knocks(deal, plays)
    if deal.claim is not None:
        claim = deal.claim
        actions.append(Action("claim", (claim.seat, claim.tricks), claim.seat, "claim", note=claim))
    return actions, problems


def _calls(variant: str, calls: list[Call], field: str, kind: str, problems: list[Violation]) -> list[Action]:
    """Auction calls (as ladder indices) or defenders' answers; unknown names are reported."""
    actions: list[Action] = []
    for index, call in enumerate(calls):
        path = f"{field}[{index}]"
        known = INDEX[variant] if kind == "bid" else {name: name for name in DEFENCE_CALLS}
        if call.call not in known:
            problems.append(_unknown_call(variant, call.call, kind, path))
            continue
        value: int | str = known[call.call]
        actions.append(Action(kind, value, call.seat, path, note=call))
    return actions


def _unknown_call(variant: str, name: str, kind: str, path: str) -> Violation:
    """RECORD-UNKNOWN-CALL, with the calls of this variant."""
    if kind == "defence":
        calls = "'alone' or 'pass'"
    elif variant == "maine":
        calls = "pass, 1S ... 7C (a number and the trump suit), le_petit, high_card_no_trump, charlemagne H, charlemagne H alone"
    else:
        calls = "pass, 5, 6, 7, 8, mulot, charlemagne, gros_mulot, gros_charlemagne (trump is named after the exchange)"
    game = "the Maine game" if variant == "maine" else "standard Charlemagne"
    return Violation(
        "RECORD-UNKNOWN-CALL",
        "charlemagne.auction.calls",
        f"{name!r} is not a call of {game}; the calls are {calls}",
        path=path,
    )


def _cards(deck: Deck, text: str | None, path: str, what: str, problems: list[Violation]) -> list[Action]:
    """One action per card of a card field (the partner's card, a discard)."""
    if text is None:
        return []
    ids, bad = card_list(deck, text, path, what)
    problems += bad
    kind = path
    return [Action(kind, card, None, path, position=i + 1) for i, card in enumerate(ids)]


def _plays(deck: Deck, deal: CharlemagneDeal, size: int | None, problems: list[Violation]) -> list[Action]:
    """The cards of the tricks, each trick checked for one card from each player in the play."""
    plays: list[Action] = []
    for number, trick in enumerate(deal.tricks, start=1):
        path = f"tricks[{number - 1}]"
        codes = trick_codes(trick)
        partial = deal.status == "abandoned" and number == len(deal.tricks)
        if size is not None and len(codes) != size and not (partial and len(codes) < size):
            problems.append(
                Violation(
                    "PLAY-TRICK-SIZE",
                    "charlemagne.trick.size",
                    f"trick {number} has {len(codes)} cards; every trick has one card from each of the {size} "
                    f"players in the play" + (" (a lone hand's partner does not play)" if size < 4 else ""),
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
            plays.append(Action("play", found, None, path, number, position))
    return plays


def _with_knocks(deal: CharlemagneDeal, plays: list[Action]) -> list[Action]:
    """The plays with each knock put in at its place; a knock at no place of the play goes last."""
    offsets = [0]
    for trick in deal.tricks:
        offsets.append(offsets[-1] + len(trick_codes(trick)))
    at_place: dict[int, list[Action]] = {}
    misplaced: list[Action] = []
    for index, knock in enumerate(deal.knocks or []):
        path = f"knocks[{index}]"
        valid = (
            knock.trick <= len(deal.tricks) and knock.after <= offsets[knock.trick] - offsets[knock.trick - 1]
        )
        place = offsets[knock.trick - 1] + knock.after if valid else None
        action = Action("knock", (knock.trick, knock.after, place), knock.seat, path, note=knock)
        if place is None:
            misplaced.append(action)
        else:
            at_place.setdefault(place, []).append(action)
    out: list[Action] = []
    for place, card in enumerate(plays):
        out += at_place.pop(place, [])
        out.append(card)
    for place in sorted(at_place):
        out += at_place[place]
    return out + misplaced


def record_deal(table: Table, dealt: CharlemagneDeal, actions: Sequence[Action]) -> CharlemagneDeal:
    """The deal model with these actions written in (the inverse of `compile_deal`)."""
    variant = table.options.variant
    deck = DECKS[variant]
    deal = dealt.model_copy(deep=True)
    fields: dict[str, list[int]] = {
        "partner_card": [],
        "discard": [],
        "defender_card": [],
        "defender_discard": [],
    }
    tricks: dict[int, list[int]] = {}
    defence: list[Call] = []
    knocks: list[Knock] = []
    for action in actions:
        if action.kind == "bid":
            deal.auction.append(Call(call=LADDERS[variant][action.value].name))
        elif action.kind in fields:
            fields[action.kind].append(action.value)
        elif action.kind == "trump":
            deal.trump = SUIT_LETTERS[action.value]  # type: ignore[assignment]
        elif action.kind == "defence":
            default = _next_defender(variant, deal, defence)
            defence.append(Call(call=action.value, seat=None if action.seat == default else action.seat))
        elif action.kind == "play":
            assert action.trick is not None
            tricks.setdefault(action.trick, []).append(action.value)
        elif action.kind == "knock":
            assert action.seat is not None
            knocks.append(Knock(seat=action.seat, trick=action.value[0], after=action.value[1]))
        elif action.kind == "claim":
            deal.claim = Claim(seat=action.value[0], tricks=action.value[1])
    for name in ("partner_card", "defender_card"):
        if fields[name]:
            setattr(deal, name, deck.codes[fields[name][0]])
    for name in ("discard", "defender_discard"):
        if fields[name]:
            setattr(deal, name, deck.format(fields[name]))
    deal.defence = defence or None
    deal.knocks = knocks or None
    deal.tricks = [deck.format(tricks[number]) for number in sorted(tricks)]
    return deal


def _next_defender(variant: str, deal: CharlemagneDeal, answers: list[Call]) -> int | None:
    """The defender whose answer comes next by default: the bidder's left, then his right."""
    won = winning_call(variant, [INDEX[variant][call.call] for call in deal.auction])
    if won is None:
        return None
    bidder = (deal.dealer + 1 + won[1]) % PLAYERS
    order = [(bidder + 1) % PLAYERS, (bidder + 3) % PLAYERS]
    answered: list[int | None] = []
    for call in answers:
        answered.append(
            call.seat if call.seat is not None else next((s for s in order if s not in answered), None)
        )
    return next((seat for seat in order if seat not in answered), None)
