"""Karnöffel's columnar check (`recordkit.rules.karnoffel.columnar`) against the record path.

Generated archives of every option and player count are proven column by column with the full
replay's verdicts; copies
with injected faults are never proven when the full replay objects; and each rule the NumPy form
restates is held to the ruleset's own function: the windows (`proposals.take_call`), the trick's
winner (`powers.winning_index`), the chosen suit (`deal.choosing_card`), the sizes of the rounds
(`deal.faceup_size`, `deal.hand_sizes`) and the end of the play (`play.end_trick`).
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from recordkit.cards import ids_of
from recordkit.diagnostics import Location
from recordkit.games import RULESETS
from recordkit.rules.karnoffel import proposals
from recordkit.rules.karnoffel.cards import cards_of
from recordkit.rules.karnoffel.columnar import (
    CALLS,
    chosen_suit,
    dealt_sizes,
    devil_leads,
    play,
    windows,
    winners,
)
from recordkit.rules.karnoffel.deal import choosing_card, dealt_state, faceup_size, hand_sizes
from recordkit.rules.karnoffel.options import KarnoffelOptions
from recordkit.rules.karnoffel.play import playable
from recordkit.rules.karnoffel.powers import winning_index
from recordkit.rules.karnoffel.state import WINDOWS, Said
from recordkit.rules.values import Action
from recordkit.sources import RawRecord
from recordkit.validate import validate_record
from tests.budget import examples
from tests.columnar_helpers import (
    SHARED_MISTAKES,
    changed_copies,
    group_of,
    never_proven_wrongly,
    played,
    proven_clean,
    set_group,
    shared_mistake,
)
from tests.test_properties import PROPERTY, option_values
from tests.test_properties import play as play_game

KARNOFFEL = RULESETS["karnoffel"]
MANY = settings(PROPERTY, max_examples=int(os.environ.get("RECORDKIT_COLUMNAR_EXAMPLES", examples(8))))
RULES = settings(PROPERTY, max_examples=examples(60))
"""Each restated rule against the ruleset's function: cheap, so many examples."""
karnoffel_games = st.tuples(
    st.just(KARNOFFEL),
    st.sampled_from([2, 4, 6, 8]),
    st.tuples(option_values(KarnoffelOptions), st.sampled_from([{}, {"target": 21}, {"target": 51}])).map(
        lambda both: {**both[0], **both[1]}
    ),
    st.integers(0, 2**31),
)
"""Karnöffel games of every option (an early end of the game, the going-out cap), 2 to 8 players."""


@MANY
@given(st.lists(karnoffel_games, min_size=1, max_size=4))
def test_generated_karnoffel_archives_are_proven_column_by_column(games: list[Any]) -> None:
    """Every clean generated record is proven without its JSON, and the findings are the full
    replay's (none)."""
    records = [play_game(game, deals=5) for game in games]
    assert proven_clean(records) == [played(records)] * len(records)


def mistake(record: dict[str, Any], data: st.DataObject) -> None:
    """One change a person typing a Karnöffel record makes, which still reads as a record: two
    cards swapped between tricks, hands and the face-up round, a card replaced, a word changed,
    added, dropped or moved to another window, the dealer, the status, a score or a total changed,
    two tricks swapped, a trick rotated, dropped or played on, a leader, winner, chosen suit or
    sheet fact written (rightly or not)."""
    deal = data.draw(st.sampled_from(record["deals"]))
    n = len(record["players"])
    kind = data.draw(
        st.sampled_from(
            [
                *("swap", "hand", "faceup", "replace", "word", "add", "drop", "window", "merge"),
                *("dealer", "status", "score", "total", "tricks", "rotate", "cut", "more"),
                *("leader", "winner", "suit", "fact", "move", "on", "devil", "devil"),
            ]
        )
    )
    tricks: list[Any] = deal.get("tricks", [])
    groups = [("faceup", None)] + [("hands", seat) for seat in range(len(deal.get("hands", [])))]
    groups += [("tricks", i) for i in range(len(tricks))]
    if kind in ("swap", "hand", "faceup") and len(groups) > 1:
        (a, i), (b, j) = data.draw(st.lists(st.sampled_from(groups), min_size=2, max_size=2, unique=True))
        first, second = group_of(deal, a, i), group_of(deal, b, j)
        if first and second:
            p, q = data.draw(st.integers(0, len(first) - 1)), data.draw(st.integers(0, len(second) - 1))
            first[p], second[q] = second[q], first[p]
            set_group(deal, a, i, first), set_group(deal, b, j, second)
    elif kind in ("word", "add", "drop", "window", "merge"):
        windows_written = deal.setdefault("proposals", [])
        _words(windows_written, kind, data)
    elif kind in SHARED_MISTAKES:
        shared_mistake(deal, kind, n, ["S7", "HJ", "D2", "CA", "SA", "X9"], [1, -4, 3, 7], data)
    elif kind == "cut" and tricks:
        tricks.pop()
    elif kind == "more" and tricks:
        tricks.append(tricks[-1])
    elif kind == "suit":
        deal["chosen_suit"] = data.draw(st.sampled_from(["S", "C", "H", "D"]))
    elif kind == "fact" and deal.get("result"):
        deal["result"]["value"] = data.draw(st.sampled_from([4, 7, 10]))
    elif kind == "move" and len(groups) > 1:
        (a, i), (b, j) = data.draw(st.lists(st.sampled_from(groups), min_size=2, max_size=2, unique=True))
        first = group_of(deal, a, i)
        if first:
            set_group(deal, b, j, [*group_of(deal, b, j), first.pop()]), set_group(deal, a, i, first)
    elif kind in ("on", "devil"):
        replayed(record, record["deals"].index(deal), kind)


def replayed(record: dict[str, Any], index: int, kind: str) -> None:
    """A fault that needs the replay of deal `index`: a trick more played after the end from the
    cards the seats still hold (`on`), or the forehand's first lead swapped with the Devil he
    plays later (`devil`), both still held."""
    report = validate_record(RawRecord(orjson.loads(orjson.dumps(record)), Location()))
    replay = report.replays[index]
    state = replay.state if replay is not None else None
    if state is None or not state.tricks:
        return
    tricks = record["deals"][index]["tricks"]
    if kind == "on" and all(state.hands):
        order = [(state.leader + step) % state.players for step in range(state.players)]
        tricks.append(" ".join(state.cards.code(min(ids_of(state.hands[seat]))) for seat in order))
    for t, trick in enumerate(state.tricks[1:], start=1):
        if (
            kind == "devil"
            and state.devil in trick.cards
            and trick.seats[trick.cards.index(state.devil)] == state.forehand
        ):
            first, later = tricks[0].split(), tricks[t].split()
            p = trick.cards.index(state.devil)
            first[0], later[p] = later[p], first[0]
            tricks[0], tricks[t] = " ".join(first), " ".join(later)


def _words(written: list[list[Any]], kind: str, data: st.DataObject) -> None:
    """A word of the windows changed, added or dropped; a window's words moved one window on
    (an empty window put before it); two windows merged."""
    if kind == "window":
        written.insert(data.draw(st.integers(0, len(written))), [])
        del written[WINDOWS:]
        return
    filled = [i for i, window in enumerate(written) if window]
    if kind == "merge" and len(filled) > 1:
        written[filled[0]] += written.pop(filled[1])
        return
    if not written:
        written.append([])
    i = data.draw(st.integers(0, len(written) - 1))
    window = written[i]
    word = data.draw(st.sampled_from(list(CALLS)))
    if kind == "add" or not window:
        window.insert(data.draw(st.integers(0, len(window))), word)
    elif kind == "word":
        window[data.draw(st.integers(0, len(window) - 1))] = word
    else:
        del window[data.draw(st.integers(0, len(window) - 1))]


@MANY
@given(karnoffel_games, st.data())
def test_no_single_change_slips_through_the_columns(game: Any, data: st.DataObject) -> None:
    """Karnöffel records with a typist's mistake (`mistake`: cards swapped or replaced, a word
    of the windows, a trick played on...) or any change: never proven wrongly (`columnar_helpers.never_proven_wrongly`)."""
    record = play_game(game, deals=4)
    never_proven_wrongly([record, *changed_copies(record, data, KARNOFFEL, mistake, 10, 8)])


tables = st.tuples(
    st.sampled_from([2, 4, 6, 8]),
    st.fixed_dictionaries(
        {
            "reraise": st.sampled_from(["unlimited", "single", "max_total_raises"]),
            "max_total_raises": st.integers(1, 3),
            "raise_cap_when_game_reachable": st.booleans(),
        }
    ),
)
"""Tables with every rule of the windows: the raise limits and the going-out cap."""


@RULES
@given(
    tables,
    st.integers(0, 7),
    st.lists(st.sampled_from([0, 60, 88, 91, 94, 97, 100]), min_size=2, max_size=2),
    st.data(),
)
def test_the_windows_are_the_rulesets(
    table: Any, dealer: int, before: list[int], data: st.DataObject
) -> None:
    """karnoffel.propose.*: words read in turn (mostly words that answer what is waiting, now and
    then any word) are clean in the columns exactly when `proposals.take_call` (and closing the
    windows before the play) finds nothing in them, with the same value, surrender, winning side
    and last raiser."""
    n, options = table
    said: list[str] = []
    state = _windows_state(n, options, dealer, before)
    while len(said) < 9 and data.draw(st.integers(0, 5)):
        answers = ["raise", "accept", "surrender"] if state.pending else ["pass", "raise"]
        said.append(data.draw(st.sampled_from(answers if data.draw(st.integers(0, 7)) else list(CALLS))))
        proposals.take_call(state, Action("call", Said(state.window, said[-1], None), None))
    _windows_agree(n, options, dealer, before, said)


@pytest.mark.parametrize(
    ("options", "before", "clean"),
    [
        ({"reraise": "max_total_raises", "max_total_raises": 1}, [0, 0], False),
        ({"reraise": "max_total_raises", "max_total_raises": 2}, [0, 0], True),
        ({"raise_cap_when_game_reachable": True}, [94, 0], False),
        ({"raise_cap_when_game_reachable": True}, [90, 0], True),
    ],
)
def test_the_raise_limits_bind_a_counter_raise(
    options: dict[str, Any], before: list[int], clean: bool
) -> None:
    """karnoffel.propose.reraise, .cap: a counter-raise is the deal's second raise (over a limit
    of one), and is capped by the value it first accepts (4 + 3 = 7: 94 + 7 reaches 101, 90 + 7
    does not); the columns object exactly when the ruleset does."""
    words = ["raise", "raise", "accept", "pass", "pass", "pass", "pass"]
    assert _windows_agree(4, options, 0, before, words) == clean


def _windows_state(n: int, options: dict[str, Any], dealer: int, before: list[int]) -> Any:
    """The ruleset's state of a deal just dealt, at its first window, with `before` scored."""
    karnoffel, _ = KARNOFFEL.table(KarnoffelOptions.model_validate(options), n)
    assert karnoffel is not None
    state, _ = dealt_state(karnoffel, dealer % n, [], [], WINDOWS + 1, "played")
    state.before = list(before)
    return state


def _windows_agree(n: int, options: dict[str, Any], dealer: int, before: list[int], said: list[str]) -> bool:
    """Assert the columns' windows find `said` clean exactly when `proposals.take_call` (and
    closing the windows before the play) does, with the same value, surrender, side and last
    raiser; return whether it was clean."""
    state = _windows_state(n, options, dealer, before)
    problems = []
    for word in said:
        problems += proposals.take_call(state, Action("call", Said(state.window, word, None), None))
    problems += proposals.skip_to(state, WINDOWS + 1)
    indices = [CALLS.index(word) for word in said]
    value, decided, surrendered, raiser, ok = windows(
        state.options,
        np.array([indices + [-1] * (10 - len(said))]),
        np.array([len(said)]),
        np.array([(dealer % n + 1) % n]),
        n,
        np.array([before], float),
    )
    assert bool(ok[0]) == (not problems)
    if not problems:
        assert (int(value[0]), bool(surrendered[0])) == (state.value, state.surrendered)
        assert int(raiser[0]) == (state.raiser if state.raiser is not None else -1)
        if state.surrendered:
            assert int(decided[0]) == state.decided
    return not problems


@RULES
@given(
    st.sampled_from([48, 52]),
    st.sampled_from(["led_suit_exceptions", "linear_faq", "any_suit_exceptions"]),
    st.data(),
)
def test_the_winner_is_the_rulesets(size: int, reading: str, data: st.DataObject) -> None:
    """karnoffel.trick.winner: the columns' winner of a trick is `powers.winning_index` under
    every reading of the partial trumps (the card-by-card one too), whatever the chosen suit, the
    Devil led or not."""
    n = data.draw(st.sampled_from([2, 4, 6, 8]))
    trick = data.draw(st.lists(st.integers(0, size - 1), min_size=n, max_size=n, unique=True))
    chosen = data.draw(st.integers(0, 3))
    options = KarnoffelOptions(deck=size, partial_trumps=reading)  # type: ignore[arg-type]
    tricks = np.full((1, 5, n), -1)
    tricks[0, 0] = trick
    assert int(winners(options, tricks, np.array([chosen]))[0, 0]) == winning_index(
        trick, size, reading, chosen
    )


@RULES
@given(st.sampled_from([48, 52]), st.sampled_from(["first_dealt", "suit_rank"]), st.data())
def test_the_chosen_suit_is_the_rulesets(size: int, tiebreak: str, data: st.DataObject) -> None:
    """karnoffel.deal.chosen-suit: the columns' chosen suit is that of `deal.choosing_card`."""
    n = data.draw(st.sampled_from([2, 4, 6, 8]))
    faceup = data.draw(st.lists(st.integers(0, size - 1), min_size=n, max_size=n, unique=True))
    options = KarnoffelOptions(deck=size, chosen_suit_tiebreak=tiebreak)  # type: ignore[arg-type]
    cards = cards_of(size)
    assert (
        int(chosen_suit(options, np.array([faceup]))[0]) == cards.suit[choosing_card(cards, faceup, tiebreak)]
    )


@RULES
@given(st.sampled_from([2, 4, 6, 8]), st.integers(0, 8), st.integers(0, 9), st.integers(0, 5), st.booleans())
def test_the_sizes_of_the_rounds_are_the_rulesets(
    n: int, shown: int, groups: int, size: int, gave_up: bool
) -> None:
    """karnoffel.deal.faceup, .rounds: the columns take a deal's rounds as dealt right exactly when
    `faceup_size` and `hand_sizes` find nothing at the stage its words reach (a played deal), or
    at one of the stages a surrender stops (a surrendered deal: `as_written` holds it to its own)."""
    groups = min(groups, n + 1)
    downs = [size] * max(groups, 0)
    stages = (1, 2, 3) if gave_up else (WINDOWS + 1,)
    right = any(
        not faceup_size([0] * shown, n, s, "played") and not hand_sizes(downs, n, s, "played") for s in stages
    )
    sizes = np.array([[size if g < groups else -1 for g in range(n + 1)]])
    found = dealt_sizes(np.array([shown]), np.array([groups]), sizes, n, np.array([gave_up]))
    assert bool(found[0]) == right


def test_the_end_of_the_play_is_the_rulesets() -> None:
    """karnoffel.trick.early-end: for every generated deal that was played, the columns end it
    at the trick the replay (`play.end_trick`) ends it, with the same side winning."""
    for seed in range(6):
        for n, options in ((4, {}), (2, {"play_out": True}), (6, {"deck": 52})):
            record = play_game((KARNOFFEL, n, options, seed), deals=4)
            report = validate_record(RawRecord(orjson.loads(orjson.dumps(record)), Location()))
            for replay in report.replays:
                state = replay.state if replay is not None else None
                if state is None or not state.tricks:
                    continue
                owner = np.full((1, len(state.cards.deck)), -1)
                tricks = np.full((1, 5, n), -1)
                for t, trick in enumerate(state.tricks):
                    tricks[0, t] = trick.cards
                    owner[0, trick.cards] = trick.seats
                ok, side, _ = play(
                    state.options, owner, tricks, np.array([len(state.tricks)]),
                    np.array([state.forehand]), np.array([state.chosen]),
                )  # fmt: skip
                assert bool(ok[0]) and int(side[0]) == state.decided


@RULES
@given(st.sampled_from([48, 52]), st.integers(0, 51), st.integers(0, 3), st.sampled_from([2, 4]))
def test_the_devil_lead_is_the_rulesets(size: int, card: int, chosen: int, n: int) -> None:
    """karnoffel.play.devil-lead: the columns refuse a first lead exactly when `play.playable`
    takes it out of the forehand's hand."""
    card %= size
    options = KarnoffelOptions(deck=size)  # type: ignore[arg-type]
    table, _ = KARNOFFEL.table(options, n)
    assert table is not None
    state, _ = dealt_state(table, 0, [], [[] for _ in range(n)], WINDOWS + 1, "played")
    state.chosen, state.devil = chosen, cards_of(size).card(chosen, 7)
    state.hands[state.forehand] = 1 << card
    tricks = np.full((1, 5, n), -1)
    tricks[0, 0, 0] = card
    assert bool(devil_leads(options, tricks, np.array([chosen]))[0]) == (not playable(state, state.forehand))
