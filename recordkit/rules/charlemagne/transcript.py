"""Charlemagne records to actions and back: `compile` and `record_deal` of the ruleset (ENGINE.md).

Actions come out in the order things happen at the table: the calls, the partner's card, the
discard, the trump, the Maine defenders' answers and exchange, then the cards with the knocks
between them at their places, and a claim last.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace

from recordkit.cards import Deck, ascii_upper
from recordkit.diagnostics import Violation
from recordkit.model import Call, trick_codes
from recordkit.rules.base import add_card, dealt_hands
from recordkit.rules.charlemagne.auction import winning_call
from recordkit.rules.charlemagne.bids import DEFENCE_CALLS, INDEX, LADDERS
from recordkit.rules.charlemagne.cards import DECKS, PLAYERS, SUIT_LETTERS
from recordkit.rules.charlemagne.record import SUIT_ALIASES, CharlemagneDeal, Claim, Knock
from recordkit.rules.charlemagne.state import CharlemagneState, Phase
from recordkit.rules.values import Action, Table
from recordkit.rules.violations import card_list, unknown_card

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
    for index, hand in enumerate(dealt_hands(deal)):
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


_KNOCK_PLACE = re.compile(r"^after card (\d+) of trick (\d+)$")


def write_typed(
    table: Table, deal: CharlemagneDeal, state: CharlemagneState, text: str, seat: int | None
) -> CharlemagneDeal:
    """The deal with one typed action written in: the step in progress says which field it goes to."""
    data = deal.model_dump(mode="json", exclude_none=True)
    words = text.split()
    head = words[0].lower() if words else ""
    phase = state.phase
    if phase == Phase.AUCTION:
        data["auction"].append(_call(text, seat))
    elif phase == Phase.PARTNER_CARD and text.strip().lower() in SUIT_ALIASES:
        data["trump"] = text
    elif phase == Phase.PARTNER_CARD:
        field = "discard" if _takes_kitty(table, state, text, seat) else "partner_card"
        data[field] = f"{data.get(field, '')} {text}".strip()
    elif phase in (Phase.DISCARD, Phase.DEFENDER_DISCARD):
        field = "discard" if phase == Phase.DISCARD else "defender_discard"
        data[field] = f"{data.get(field, '')} {text}".strip()
    elif phase == Phase.TRUMP:
        data["trump"] = text
    elif phase == Phase.DEFENCE:
        data.setdefault("defence", []).append(_call(text, seat))
    elif phase == Phase.DEFENDER_CARD:
        data["defender_card"] = text
    elif head == "knock":
        data.setdefault("knocks", []).append(_knock(state, " ".join(words[1:]), seat))
    elif head == "claim":
        claim: dict[str, object] = {"seat": seat if seat is not None else state.to_play()}
        if len(words) > 1:
            claim["tricks"] = " ".join(words[1:])
        data["claim"] = claim
    else:
        trick_open = state.current is not None and bool(state.current.cards)
        data["tricks"] = add_card(data["tricks"], text, trick_open)
    return CharlemagneDeal.model_validate(data)


def _call(text: str, seat: int | None) -> str | dict[str, object]:
    """A call in record form, with its seat when one was given."""
    return text if seat is None else {"call": text, "seat": seat}


def _takes_kitty(table: Table, state: CharlemagneState, text: str, seat: int | None) -> bool:
    """Gros Charlemagne's choice: a card the bidder discards (he took the kitty) rather than one his
    partner passes him; told by the seat that acted, else by who holds the card."""
    if state.contract.exchange != "kitty_or_partner" or state.bidder is None:
        return False
    if seat is not None:
        return seat == state.bidder
    card = table.deck.index.get(ascii_upper(text.strip()))
    partner = state.partner(state.bidder)
    return card is None or not state.hands[partner] >> card & 1


def _knock(state: CharlemagneState, place: str, seat: int | None) -> dict[str, object]:
    """A knock where the play stands now (or at the place typed: `after card 2 of trick 3`), by the
    seat that played the last card unless another is given."""
    current = state.current if state.current is not None and state.current.cards else None
    last = current or (state.tricks[-1] if state.tricks else None)
    trick = len(state.tricks) + (1 if current is not None or last is None else 0)
    after = len(last.cards) if last is not None else 0
    typed = _KNOCK_PLACE.match(place.strip().lower())
    if typed is not None:
        after, trick = int(typed[1]), int(typed[2])
    elif place.strip():
        return {"seat": seat, "trick": place}  # not a place: the model says so
    knocker = seat if seat is not None else (last.seats[-1] if last is not None and last.seats else None)
    return {"seat": knocker, "trick": trick, "after": after}
