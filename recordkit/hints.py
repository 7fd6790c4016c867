"""One cause, one hint: the likely slip behind a deal's flood of problems (spec/FORMAT.md, `format.hint`).

A dealer written a seat off, a trick written in seat order (seat 0 first) instead of from its
leader, an auction written from the wrong seat: each moves every later card or call to another
seat, and the replay reports a problem at each. `hint` tries those alternatives of the parsed
deal (the dealer changed, a trick or every trick turned to start at its leader, the auction
turned), replays each through the game's ruleset with `replay_deal`, and when one replays clean,
or nearly, says so in one note (severity info) to put above the deal's other diagnostics. Only
a deal with several errors, or with scores that point at a slip, is tried, with a few replays;
nothing here knows a game.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from recordkit.diagnostics import Severity, Violation
from recordkit.engine import DealReplay, replay_deal
from recordkit.model import Trick, trick_codes
from recordkit.rules.base import Ruleset, run
from recordkit.rules.values import Action, PlayedTrick, Table

HINT_RULE = "format.hint"

MIN_ERRORS = 3
"""A deal is tried for a hint from this many errors on: a clean or lightly faulty deal costs nothing."""

NEARLY = 2
"""An alternative that leaves at most this many problems (and at most a third of them), and
gives the scores written, is still worth a hint, which names what remains."""


@dataclass(frozen=True, slots=True)
class Alternative:
    """One reading of the deal: the deal so read, and how the hint says it."""

    code: str
    deal: Any
    cause: str
    """What the record seems to have done, and how it reads instead (a clause of the message)."""
    expected: str
    """The fix, for the diagnostic's `expected` field."""
    path: str
    trick: int | None = None


def hint(
    ruleset: Ruleset[Any, Any, Any],
    table: Table,
    deal: Any,
    replay: DealReplay,
    before: Sequence[int | float] | None = None,
    dealer: int | None = None,
) -> list[Violation]:
    """At most one hint for a replayed deal (`before`: the running totals it was replayed with;
    `dealer`: who deals it by the rotation from the deal before, when known): [] unless the deal
    has several errors (or scores that hint at a slip) and one likely alternative of it replays
    clean or nearly. The deal itself is left as it is."""
    if not _worth_trying(deal, replay):
        return []
    found = _problems(replay.violations)
    best: tuple[Alternative, list[Violation]] | None = None
    for group in _alternatives(ruleset, table, deal, replay, dealer):
        tried = [(alt, replay_deal(ruleset, table, alt.deal, before)) for alt in group]
        clean = [alt for alt, again in tried if not _problems(again.violations)]
        if clean:
            chosen = _together(clean, deal)
            other = None
            if chosen.code == "HINT-DEALER" and dealer is None:
                other = _clean_auction(ruleset, table, deal, replay, before)
            return [_note(chosen, found, [], other)]
        for alt, again in tried:
            left = _problems(again.violations)
            if _nearly(deal, again, found, left) and (best is None or len(left) < len(best[1])):
                best = (alt, left)
    return [] if best is None else [_note(best[0], found, best[1])]


def _worth_trying(deal: Any, replay: DealReplay) -> bool:
    """A replayed deal with several errors; or with scores the rules do not give, when the deal
    leaves its hands out (the hands derived from the play absorb a slip, and the scores are all
    that shows it) or when they are the rules' scores given to seats a few places on."""
    if not replay.replayed or replay.sheet:
        return False
    errors = sum(v.severity == Severity.ERROR for v in replay.violations)
    if errors >= MIN_ERRORS:
        return True
    return _scores_off(deal, replay) and (replay.completion is not None or _scores_turned(deal, replay))


def _scores_off(deal: Any, replay: DealReplay) -> bool:
    """Whether the deal writes scores and the rules give it others."""
    return deal.result is not None and replay.scores is not None and list(deal.result.scores) != replay.scores


def _scores_turned(deal: Any, replay: DealReplay) -> bool:
    """Whether the written scores are the rules' scores given to the seats a few places on."""
    computed = list(replay.scores or [])
    written = list(deal.result.scores)
    if len(written) != len(computed):
        return False
    return any(written == [*computed[k:], *computed[:k]] for k in range(1, len(computed)))


def _nearly(deal: Any, again: DealReplay, found: list[Violation], left: list[Violation]) -> bool:
    """Whether an alternative whose replay `again` leaves `left` of the deal's problems `found`
    is still their likely cause: a few left, a small part of them, and the scores written are
    the ones it gives (a bid typed wrong moves the bidder too, and an auction turned to put him
    back replays the cards clean, but not the score of the bid written)."""
    if len(left) > NEARLY or 3 * len(left) > len(found):
        return False
    return deal.result is None or again.scores is None or list(deal.result.scores) == again.scores


def _problems(violations: list[Violation]) -> list[Violation]:
    """The errors and warnings of a replay (its notes say nothing wrong)."""
    return [v for v in violations if v.severity != Severity.INFO]


def _alternatives(
    ruleset: Ruleset[Any, Any, Any], table: Table, deal: Any, replay: DealReplay, dealer: int | None
) -> Iterator[list[Alternative]]:
    """The likely slips, most likely first, in groups tried together (the other dealers), built
    lazily so that the work stops at the first group that replays clean. Another dealer comes
    first unless the rotation from the deal before vouches for the one written, and then not at
    all (an auction read from another seat can replay clean with another dealer too)."""
    if dealer is None or dealer != deal.dealer:
        yield sorted(_dealers(table, deal), key=lambda alt: alt.deal.dealer != dealer)
    yield from ([alt] for alt in _auctions(table, deal, replay))
    yield from ([alt] for alt in _single_tricks(deal, replay))
    every = _every_trick(ruleset, table, deal, replay)
    if every is not None:
        yield [every]


def _shifts(players: int) -> list[int]:
    """Seat shifts from the nearest: 1, -1, 2, -2... as seats of the table (1, n-1, 2, n-2...)."""
    order: list[int] = []
    for k in range(1, players):
        for shift in (k % players, -k % players):
            if shift and shift not in order:
                order.append(shift)
    return order


def _dealers(table: Table, deal: Any) -> Iterator[Alternative]:
    """The deal dealt by each other seat."""
    for shift in _shifts(table.players):
        dealer = (deal.dealer + shift) % table.players
        yield Alternative(
            "HINT-DEALER",
            deal.model_copy(update={"dealer": dealer}),
            f"with dealer {dealer}, not {deal.dealer},",
            f"dealer {dealer}",
            "dealer",
        )


def _together(clean: list[Alternative], deal: Any) -> Alternative:
    """One alternative for several that replay clean: only other dealers can (a partnership game
    read with the partner dealing), and the hint names them all."""
    if len(clean) == 1:
        return clean[0]
    dealers = " or ".join(str(d) for d in sorted(alt.deal.dealer for alt in clean))
    return replace(clean[0], cause=f"with dealer {dealers}, not {deal.dealer},", expected=f"dealer {dealers}")


def _auctions(table: Table, deal: Any, replay: DealReplay) -> Iterator[Alternative]:
    """The auction read from each other seat, when every seat speaks once (one round): a call
    list written from the dealer, or another seat, instead of the first to speak."""
    calls = getattr(deal, "auction", None)
    players = table.players
    if not isinstance(calls, list) or len(calls) != players:
        return
    first = next((a.seat for a in replay.actions if a.path == "auction[0]" and a.seat is not None), None)
    if first is None:
        return
    for shift in _shifts(players):
        turned = [*calls[shift:], *calls[:shift]]
        written_from = (first - shift) % players
        who = " (the dealer)" if written_from == deal.dealer else ""
        names = ", ".join(call.call for call in turned)
        yield Alternative(
            "HINT-AUCTION-ORDER",
            deal.model_copy(update={"auction": turned}),
            f"the auction looks written from seat {written_from}{who} instead of seat {first}, "
            f"who speaks first: read from seat {first},",
            f"the auction from seat {first}: {names}",
            "auction",
        )


def _played(replay: DealReplay) -> list[PlayedTrick]:
    """The tricks as the replay played them, with the one in progress."""
    state = replay.state
    if state is None:
        return []
    current = getattr(state, "current", None)
    return [*state.tricks, *([current] if current is not None else [])]


def _from_leader(entry: str | Trick, seats: list[int], leader: int) -> str | Trick | None:
    """A trick written in seat order (lowest seat first) rewritten from its leader; None when
    that is the same trick, or the trick is not one card per seat."""
    order = sorted(seats)
    if leader not in order or len(trick_codes(entry)) != len(order) or order.index(leader) == 0:
        return None
    k = order.index(leader)
    if isinstance(entry, str):
        codes = entry.split()
        return " ".join([*codes[k:], *codes[:k]])
    return entry.model_copy(update={"cards": [*entry.cards[k:], *entry.cards[:k]]})


def _single_tricks(deal: Any, replay: DealReplay) -> Iterator[Alternative]:
    """A few tricks, each rewritten from its leader as if it alone had been written in seat
    order: the first faulty trick and the one before (a whole record goes wrong from the trick
    on), the last faulty trick and the one after (in a record without hands, the hands derived
    from the wrong seats show revokes in the tricks before it). The leaders up to the trick are
    right if the tricks before it are."""
    faulty = [v.trick for v in _problems(replay.violations) if v.trick is not None]
    if not faulty:
        return
    played = _played(replay)
    first, last = min(faulty), max(faulty)
    for number in dict.fromkeys((first, first - 1, last, last + 1)):
        if not 1 <= number <= min(len(played), len(deal.tricks)):
            continue
        trick = played[number - 1]
        turned = _from_leader(deal.tricks[number - 1], trick.seats, trick.leader)
        if turned is None:
            continue
        tricks = [*deal.tricks]
        tricks[number - 1] = turned
        yield Alternative(
            "HINT-TRICK-ORDER",
            deal.model_copy(update={"tricks": tricks}),
            f"trick {number} looks written in seat order (seat {min(trick.seats)} first) instead of "
            f"from its leader, seat {trick.leader}: written from seat {trick.leader},",
            f"trick {number}: {' '.join(trick_codes(turned))}",
            f"tricks[{number - 1}]",
            number,
        )


def _every_trick(
    ruleset: Ruleset[Any, Any, Any], table: Table, deal: Any, replay: DealReplay
) -> Alternative | None:
    """Every trick rewritten from its leader, as if all had been written in seat order; the
    leaders are those of the play so read (`_leaders_in_seat_order`)."""
    seats = [trick.seats for trick in _played(replay)][: len(deal.tricks)]
    leaders = _leaders_in_seat_order(ruleset, table, deal, seats)
    if leaders is None:
        return None
    tricks = [*deal.tricks]
    changed = False
    for number, (trick_seats, leader) in enumerate(zip(seats, leaders, strict=False)):
        turned = _from_leader(tricks[number], trick_seats, leader)
        if turned is not None:
            tricks[number], changed = turned, True
    if not changed:
        return None
    return Alternative(
        "HINT-TRICK-ORDER",
        deal.model_copy(update={"tricks": tricks}),
        "the tricks look written in seat order (seat 0 first) instead of each from its leader: "
        "written from their leaders,",
        "each trick written from its leader (seats " + " ".join(map(str, leaders)) + ")",
        "tricks",
    )


def _leaders_in_seat_order(
    ruleset: Ruleset[Any, Any, Any], table: Table, deal: Any, seats: list[list[int]]
) -> list[int] | None:
    """The leader of each trick when every trick's cards are read in seat order (`seats`: who
    plays in each trick) and played from the leader the rules give: one replay through the
    ruleset that turns each trick as it comes to it (with the unknown hands blank, as `derive`
    does). The leaders stop at a trick that is not one card per seat; None when the deal cannot
    be replayed."""
    base = ruleset.blank(table, deal) if ruleset.unknown(table, deal) else deal
    actions, problems = ruleset.compile(table, base)
    if any(p.severity == Severity.ERROR for p in problems):
        return None
    state, _ = ruleset.start(table, base)
    plays: dict[int, list[Action]] = {}
    for action in actions:
        if action.kind == "play" and action.trick is not None:
            plays.setdefault(action.trick, []).append(action)
    leaders: list[int] = []
    for action in actions:
        number = action.trick
        if action.kind == "play" and action.position == 1 and number is not None and number <= len(seats):
            leader = _leader(ruleset, state, action)
            order = sorted(seats[number - 1])
            group = plays[number]
            if leader is None or leader not in order or len(group) != len(order):
                return leaders or None
            k = order.index(leader)
            values = [a.value for a in group]
            for played, value in zip(group, [*values[k:], *values[:k]], strict=True):
                played.value = value
            leaders.append(leader)
        run(ruleset, state, [action])
    return leaders


def _leader(ruleset: Ruleset[Any, Any, Any], state: Any, action: Action) -> int | None:
    """Who leads the trick that `action` opens: the seat to play, or, while the ruleset still
    has something else open (a window before the card), the leader of a trick opened on a copy."""
    turn = ruleset.turn(state)
    if turn is not None and turn.seat is not None and "play" in turn.kinds:
        return turn.seat
    probe = copy.deepcopy(state)
    ruleset.advance(probe, replace(action))
    opened = probe.current if probe.current is not None else (probe.tricks[-1] if probe.tricks else None)
    return opened.leader if opened is not None else None


def _clean_auction(
    ruleset: Ruleset[Any, Any, Any],
    table: Table,
    deal: Any,
    replay: DealReplay,
    before: Sequence[int | float] | None,
) -> Alternative | None:
    """An auction read from another seat that replays clean too, for a deal that another dealer
    makes clean when no deal before says who deals it: in a game whose first lead does not
    follow the dealer, both readings explain the flood, and the hint names both."""
    for alt in _auctions(table, deal, replay):
        if not _problems(replay_deal(ruleset, table, alt.deal, before).violations):
            return alt
    return None


def _note(
    alternative: Alternative, found: list[Violation], left: list[Violation], other: Alternative | None = None
) -> Violation:
    """HINT-*: the one likely cause of the deal's problems, what remains once it is fixed, and
    the other reading that replays clean as well, if any."""
    if left:
        remains = "; ".join(v.code + (f" at trick {v.trick}" if v.trick is not None else "") for v in left)
        outcome = f"the deal replays with only {_count(len(left))} left ({remains})"
    else:
        outcome = "the deal replays clean"
    message = f"{_these(len(found))} may have one cause: {alternative.cause} {outcome}"
    expected = alternative.expected
    if other is not None:
        message += f"; or else {other.cause} it replays clean too"
        expected += f", or {other.expected}"
    return Violation(
        alternative.code,
        HINT_RULE,
        message,
        severity=Severity.INFO,
        expected=expected,
        trick=alternative.trick,
        path=alternative.path,
    )


def _count(problems: int) -> str:
    """How many problems, in words: "1 problem", "2 problems"."""
    return f"{problems} problem" + ("" if problems == 1 else "s")


def _these(problems: int) -> str:
    """The problems a hint stands above, counted: "the problem below", "the 12 problems below"."""
    return "the problem below" if problems == 1 else f"the {problems} problems below"
