"""The Recorder API: every game recorded action by action, refusals as the validator words them,
irregularities kept, undo, and the journal that a crash cannot empty."""

from __future__ import annotations

import random
import re
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import recordkit
from recordkit.codec import dumps
from recordkit.diagnostics import Diagnostic, Severity
from recordkit.engine import replay_deal
from recordkit.model import trick_codes
from recordkit.recorder import JournalError, Recorder, RefusedError
from tests.budget import examples
from tests.recording import (
    GAMES,
    actions_of,
    choose,
    damaged_journal,
    dealt_fields,
    forgotten,
    players,
    scripted_game,
    unknown_fields,
)


def same(found: Diagnostic) -> tuple[Any, ...]:
    """What must match between the recorder's diagnostic and the validator's: all but the file."""
    where = found.location
    return (
        found.code,
        found.rule,
        found.message,
        found.expected,
        where.deal,
        where.trick,
        where.position,
        where.path,
    )


def state_of(rec: Recorder) -> tuple[Any, ...]:
    """Everything a resumed recorder must reproduce."""
    return (dumps(rec.record()), rec.legal(), rec.totals, rec.deal_number, rec.turn, rec.flags)


@pytest.mark.parametrize(("game", "count", "options"), GAMES, ids=lambda v: str(v))
def test_every_game_recorded_by_a_random_policy_validates_clean(
    game: str, count: int, options: dict[str, Any]
) -> None:
    """Every legal action, written in notation, is read back and accepted; whole games validate clean."""
    script = scripted_game(game, count, options, seed=11, deals=4)
    record = script.recorder.record()
    assert record.deals and all(deal.status != "abandoned" for deal in record.deals)
    assert recordkit.validate(record) == []
    assert list(record.deals[-1].totals) == script.recorder.totals


@pytest.mark.parametrize(("game", "count", "options"), GAMES[::2], ids=lambda v: str(v))
def test_games_with_a_target_end_by_their_rules(game: str, count: int, options: dict[str, Any]) -> None:
    """A game with a target stops at it: no deal after the end."""
    script = scripted_game(game, count, options, seed=3, deals=40)
    rec = script.recorder
    if game == "french-tarot":  # played over a fixed number of deals
        assert not rec.over
        return
    assert rec.over
    with pytest.raises(RefusedError, match="the game is over"):
        rec.deal_random(random.Random(1))


def illegal_card(rec: Recorder, rng: random.Random) -> str:
    """Play on at random until the seat to play holds a card it may not play; that card."""
    while True:
        if rec.current is None:  # the deal ended first: deal again
            rec.deal_random(rng)
        live = rec.current
        assert live is not None
        turn = rec.turn
        assert turn is not None
        if "play" in turn.kinds and turn.seat is not None:
            legal = {a.value for a in rec.legal_actions() if a.kind == "play"}
            held = [c for c in range(len(rec.table.deck)) if live.state.hands[turn.seat] >> c & 1]
            wrong = [c for c in held if c not in legal]
            if wrong:
                return rec.table.deck.codes[wrong[0]]
        rec.act(choose(rec, rng))


@pytest.mark.parametrize(("game", "count", "options"), GAMES, ids=lambda v: str(v))
def test_illegal_card_refused_with_the_validators_diagnostic(
    game: str, count: int, options: dict[str, Any]
) -> None:
    """Refused with the very diagnostic the validator gives; kept and flagged with keep_irregular,
    and the validator then reports it on the record."""
    rng = random.Random(7)
    rec = Recorder(game, players(count), {k: v for k, v in options.items() if k != "target"})
    rec.deal_random(rng)
    card = illegal_card(rec, rng)
    before = dumps(rec.record())
    with pytest.raises(RefusedError) as refused:
        rec.act(card)
    assert dumps(rec.record()) == before, "a refused card leaves no trace"
    rec.keep_irregular = True
    flags = rec.act(card)
    assert [same(d) for d in flags] == [same(d) for d in refused.value.diagnostics]
    assert rec.flags == flags
    reported = [same(d) for d in recordkit.validate(rec.record())]
    assert all(same(d) in reported for d in flags)


def test_unreadable_input_refused_as_the_validator_reports_it() -> None:
    """An unknown call and an unknown card: the diagnostics of a record holding them."""
    rec = Recorder("french-tarot", players(4))
    rec.deal_random(random.Random(2))
    with pytest.raises(RefusedError) as refused:
        rec.act("grande")
    record = recordkit.codec.to_data(rec.record())
    record["deals"][0]["auction"] = ["grande"]
    validated = recordkit.validate(recordkit.loads(orjson.dumps(record)))
    assert [same(d) for d in refused.value.diagnostics] == [same(d) for d in validated]
    with pytest.raises(RefusedError) as refused:
        rec.act("poignee huge T21")
    assert [d.code for d in refused.value.diagnostics] == ["RECORD-SCHEMA"]
    for call in ("g", "passe", "p", "p"):  # aliases, as in records
        rec.act(call)
    assert rec.record().deals[0].auction[0].call == "garde"


def test_several_cards_on_one_line_are_played_in_turn() -> None:
    """A whole trick typed at once is four actions; a refused card stops the line there."""
    script = scripted_game("joffre", 4, {}, seed=5, deals=1)
    first_trick = next(i for i, line in enumerate(script.lines) if " " not in line and line[0] in "EFRG")
    rec = Recorder("joffre", players(4))
    fields = script.recorder.record().deals[0]
    rec.deal(hands=fields.hands)
    for line in script.lines[4:first_trick]:
        rec.act(line)
    trick = script.lines[first_trick : first_trick + 4]
    rec.act(", ".join(trick))
    assert len(rec.current.state.tricks) == 1  # type: ignore[union-attr]
    assert [step.text for step in rec.current.steps[-4:]] == trick  # type: ignore[union-attr]


def test_undo_takes_back_actions_deals_and_abandons() -> None:
    """Undo restores exactly the state before the step, reopening a finished deal."""
    rng = random.Random(4)
    rec = Recorder("charlemagne", players(4))
    with pytest.raises(RefusedError, match="nothing to undo"):
        rec.undo()
    rec.deal_random(rng)
    dealt = state_of(rec)
    rec.act(choose(rec, rng))
    assert "taken back" in rec.undo()
    assert state_of(rec) == dealt
    while rec.current is not None:
        last = state_of(rec)
        line = choose(rec, rng)
        rec.act(line)
    finished = state_of(rec)
    rec.undo()
    assert state_of(rec) == last and rec.totals == [0, 0, 0, 0]
    rec.act(line)
    assert state_of(rec) == finished
    rec.deal_random(rng)
    rec.abandon()
    assert rec.record().deals[-1].status == "abandoned"
    rec.undo()
    assert rec.current is not None
    rec.undo()
    assert state_of(rec) == finished


def test_resume_rebuilds_exactly_the_state_reached(tmp_path: Path) -> None:
    """Deals, actions, undos and irregularities journaled; refusals are not. Resume reproduces it all."""
    journal = tmp_path / "game.journal"
    rng = random.Random(9)
    rec = Recorder("karnoffel", players(4), journal=journal)
    rec.deal_random(rng)
    for _ in range(12):
        rec.act(choose(rec, rng))
        if rec.current is None:
            rec.deal_random(rng)
    rec.undo()
    rec.keep_irregular = True
    card = illegal_card(rec, rng)
    assert rec.act(card)
    rec.keep_irregular = False
    with pytest.raises(RefusedError):
        rec.act("S5 not-a-card")
    reached = state_of(rec)
    rec.close()
    resumed = Recorder.resume(journal)
    assert state_of(resumed) == reached and resumed.warnings == []
    resumed.act(choose(resumed, rng))
    resumed.close()
    assert Recorder.resume(journal).legal() == resumed.legal()


def one_action_journaled(journal: Path, count: int, rng: random.Random) -> tuple[Any, ...]:
    """A Joffre game at `count` players journaled at `journal`: dealt, one action, closed; the
    state it reached."""
    rec = Recorder("joffre", players(count), journal=journal)
    rec.deal_random(rng)
    rec.act(choose(rec, rng))
    reached = state_of(rec)
    rec.close()
    return reached


def resumed_with_warning(
    journal: Path, reached: tuple[Any, ...], warning: str, rng: random.Random
) -> tuple[Any, ...]:
    """Resume a journal: it reaches `reached` with one warning saying `warning`, takes one more
    action and is closed; the state after that action."""
    resumed = Recorder.resume(journal)
    assert state_of(resumed) == reached
    assert len(resumed.warnings) == 1 and warning in resumed.warnings[0]
    resumed.act(choose(resumed, rng))
    after = state_of(resumed)
    resumed.close()
    return after


def test_a_torn_last_line_is_dropped_with_a_warning(tmp_path: Path) -> None:
    """A crash in the middle of writing an entry: that entry is ignored, and recording goes on."""
    journal, rng = tmp_path / "game.journal", random.Random(1)
    reached = one_action_journaled(journal, 3, rng)
    with journal.open("ab") as handle:
        handle.write(b'{"act": "pa')
    after = resumed_with_warning(journal, reached, "cut short", rng)
    again = Recorder.resume(journal)
    assert state_of(again) == after and again.warnings == []


def test_a_byte_order_mark_is_skipped_with_a_warning(tmp_path: Path) -> None:
    """Issue 33: a journal saved by an editor that writes a byte-order mark was refused ("not a
    recordkit journal"), where every other input warns and reads on."""
    journal, rng = tmp_path / "game.journal", random.Random(4)
    reached = one_action_journaled(journal, 4, rng)
    journal.write_bytes(b"\xef\xbb\xbf" + journal.read_bytes())
    after = resumed_with_warning(journal, reached, "byte-order mark", rng)
    with journal.open("ab") as handle:
        handle.write(b'{"act": "pa')  # torn after the mark: cut off at the right place
    again = Recorder.resume(journal)
    assert state_of(again) == after and len(again.warnings) == 2
    again.close()
    assert state_of(Recorder.resume(journal)) == after


def test_a_journal_over_the_limit_is_refused_unread(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A journal larger than any record's is refused before it is read, in bounded memory, as every
    other input over its limit is (issue 33)."""
    from recordkit.recorder import journal

    path = tmp_path / "huge.journal"
    path.write_bytes(b'{"journal": "recordkit"}\n' + b"x" * 2_000)
    monkeypatch.setattr(journal, "JOURNAL_LIMIT", 1_000)
    with pytest.raises(JournalError, match="more than 1,000 bytes"):
        journal.read(path)


def test_journal_problems_are_clear_errors(tmp_path: Path) -> None:
    """Not a journal, a damaged entry, an existing journal: plain errors, never a traceback."""
    journal = tmp_path / "game.journal"
    Recorder("joffre", players(4), journal=journal).close()
    with pytest.raises(JournalError, match="already exists"):
        Recorder("joffre", players(4), journal=journal)
    lines = journal.read_text()
    journal.write_text(lines + "garbage\n" + '{"undo": true}\n')
    with pytest.raises(JournalError, match="line 2"):
        Recorder.resume(journal)
    journal.write_text(lines + '{"undo": true}\n')
    with pytest.raises(JournalError, match="nothing to undo"):
        Recorder.resume(journal)
    other = tmp_path / "other.journal"
    other.write_text('{"format": "recordkit"}\n')
    with pytest.raises(JournalError, match="not a recordkit journal"):
        Recorder.resume(other)
    with pytest.raises(ValueError, match="unknown game"):
        Recorder("bridge", players(4))
    with pytest.raises(ValueError, match="option"):
        Recorder("joffre", players(4), {"target": "many"})


@pytest.mark.parametrize(
    ("arguments", "says"),
    [
        ({"players": "ABCD"}, "`players` is the list of the players' names"),
        ({"meta": [1]}, "`meta` is an object"),
        ({"meta": {"where": [1]}}, "`meta` is an object"),
        ({"dealer": True}, "`dealer` is the first dealer's seat"),
    ],
)
def test_a_recorder_is_started_with_the_shapes_a_journal_header_holds(
    arguments: dict[str, Any], says: str
) -> None:
    """Started from Python, the same shapes as a journal's header: "ABCD" is not four players A, B,
    C and D, and a `meta` the record cannot hold is refused at once, not when the record is written."""
    given: dict[str, Any] = {"players": players(4), **arguments}
    with pytest.raises(ValueError, match=re.escape(says)):
        Recorder("joffre", given.pop("players"), **given)


# (header changed, last entry, line named, what the message says): the inputs of issue 15 item 6
DAMAGED_JOURNALS: list[tuple[dict[str, Any], Any, int, str]] = [
    ({}, {"act": 5}, 3, "`act` is the text of the action typed, not the number 5"),
    ({}, None, 3, "a journal entry is an object"),
    ({}, ["SK"], 3, "a journal entry is an object"),
    ({}, {"act": None}, 3, "`act` is the text"),
    ({}, {"act": "pass", "seat": True}, 3, "`seat` is the seat that acted"),
    ({}, {"deal": None}, 3, "`deal` is an object"),
    ({}, {"undo": 5}, 3, "`undo` is written `true`"),
    ({}, {"act": "pass", "undo": True}, 3, "exactly one of"),
    ({"meta": [1]}, "none", 1, "`meta` is an object"),
    ({"meta": {"where": [1]}}, "none", 1, "`meta` is an object"),
    (
        {"players": "ABCD"},
        "none",
        1,
        '`players` is the list of the players\' names, in seat order, not the text "ABCD"',
    ),
    ({"players": [1, 2, 3, 4]}, "none", 1, "`players` is the list"),
    ({"options": [1]}, "none", 1, "`options` is an object"),
    ({"dealer": "0"}, "none", 1, "`dealer` is the first dealer's seat"),
    ({"keep_irregular": "yes"}, "none", 1, "`keep_irregular` is true or false"),
]


@pytest.mark.parametrize("game", ["french-tarot", "charlemagne"])
@pytest.mark.parametrize(("header", "entry", "line", "says"), DAMAGED_JOURNALS, ids=lambda v: repr(v)[:30])
def test_a_journal_line_of_the_wrong_shape_is_a_journal_error_naming_it(
    tmp_path: Path, game: str, header: dict[str, Any], entry: Any, line: int, says: str
) -> None:
    """Entries of the wrong type, a header whose fields have the wrong type: each is refused as the
    JournalError the spec promises, naming the line, before any ruleset sees it (these reached
    `write_action` as AttributeError, resumed and crashed later, or made "ABCD" four players)."""
    journal = damaged_journal(tmp_path / "game.journal", game, header, entry)
    with pytest.raises(JournalError) as raised:
        Recorder.resume(journal)
    assert f"line {line}: " in str(raised.value) and says in str(raised.value)


def test_the_cards_dealt_are_checked_as_far_as_they_are_given(tmp_path: Path) -> None:
    """Every hand given: checked as the validator checks a deal (sizes, every card once); some of
    them: what they prove (a card given twice), the rest once the play makes the hands known."""
    rec = Recorder("french-tarot", players(4))
    assert rec.deal_fields() == ["hands", "dog"]
    with pytest.raises(RefusedError) as refused:
        rec.deal(hands=["S1 S2"] * 4, dog="T1")
    assert "DEAL-HAND-SIZE" in {d.code for d in refused.value.diagnostics}
    with pytest.raises(RefusedError) as refused:
        rec.deal(hands=["S1 S2 S3", None, None, None], dog="S3 T1 T2 T3 T4 T5")
    assert "DEAL-DUPLICATE-CARD" in {d.code for d in refused.value.diagnostics}
    with pytest.raises(RefusedError, match="dealer"):
        rec.deal(dealer=2, hands=[], dog="")
    with pytest.raises(RefusedError, match="no deal is in progress"):
        rec.act("garde")
    assert Recorder("karnoffel", players(4)).deal_fields() == ["faceup", "hands"]


KILLED_CHILD = """
import sys
from recordkit.recorder import Recorder
rec = Recorder.resume(sys.argv[1])
for line in sys.stdin:
    kind, _, text = line.rstrip("\\n").partition(" ")
    if kind == "deal":
        import orjson
        rec.deal(**orjson.loads(text))
    else:
        rec.act(text)
    print("ok", flush=True)
"""


def test_a_killed_recording_resumes_with_nothing_lost(tmp_path: Path) -> None:
    """SIGKILL in the middle of a deal: every action acknowledged before the kill is there after resume."""
    script = scripted_game("french-tarot", 4, {}, seed=21, deals=2)
    reference = script.recorder
    journal = tmp_path / "game.journal"
    Recorder("french-tarot", players(4), journal=journal).close()
    lines = []
    for live in reference.deals:
        fields = {"hands": live.dealt.hands, "dog": live.dealt.dog}
        lines.append("deal " + orjson.dumps(fields).decode())
        lines += ["act " + step.text for step in live.steps]
    second_deal = [index for index, line in enumerate(lines) if line.startswith("deal ")][1]
    kill_at = second_deal + 25  # in the middle of the second deal's play
    child = subprocess.Popen(
        [sys.executable, "-c", KILLED_CHILD, str(journal)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdin is not None and child.stdout is not None
    for line in lines[:kill_at]:
        child.stdin.write(line + "\n")
    child.stdin.flush()
    for _ in range(kill_at):
        assert child.stdout.readline() == "ok\n"
    child.send_signal(signal.SIGKILL)
    child.wait()
    resumed = Recorder.resume(journal)
    partial = Recorder("french-tarot", players(4))
    for line in lines[:kill_at]:
        kind, _, text = line.partition(" ")
        partial.deal(**orjson.loads(text)) if kind == "deal" else partial.act(text)
    assert partial.current is not None and partial.current.steps, "killed in the middle of a deal"
    assert state_of(resumed) == state_of(partial)
    for line in lines[kill_at:]:
        kind, _, text = line.partition(" ")
        resumed.deal(**orjson.loads(text)) if kind == "deal" else resumed.act(text)
    assert dumps(resumed.record()) == dumps(reference.record())
    resumed.close()


# --- deals recorded without their hands ------------------------------------------------------------


def findings(record: Any) -> list[Diagnostic]:
    """What the validator finds in a record, its notes of what a partial deal leaves unchecked aside."""
    return [d for d in recordkit.validate(record) if d.severity != Severity.INFO]


def needs_derivation(ref: Recorder, given: Callable[[Any], Any]) -> None:
    """Skip when the engine cannot yet derive this game's dealt cards from the play: the game
    recorded with its hands, written as `given` writes each deal, does not validate clean, or a
    deal of it that scores anything is not scored so (then nothing typed without the hands can
    be judged, or scored, by the cards seen)."""
    record = ref.record()
    deals = [given(deal) for deal in record.deals]
    found = sorted({d.code for d in findings(record.model_copy(update={"deals": deals}))})
    if found:
        pytest.skip(
            f"{ref.ruleset.name}: the engine does not derive its dealt cards from the play yet "
            f"(a legal game written without its hands gets {', '.join(found)})"
        )
    for number, (deal, partial) in enumerate(zip(record.deals, deals, strict=True), start=1):
        scores = replay_deal(ref.ruleset, ref.table, deal).scores
        if any(scores or []) and replay_deal(ref.ruleset, ref.table, partial).scores != scores:
            pytest.skip(
                f"{ref.ruleset.name}: the engine does not score a deal without its hands yet "
                f"(deal {number} scores {scores} with them)"
            )


def as_scored(ref: Recorder, deal: Any) -> Any:
    """A deal written without its hands, with the result the engine gives it so: none where the
    engine cannot score a deal without its hands (French Tarot: a deal everybody passed)."""
    replayed = replay_deal(ref.ruleset, ref.table, deal)
    return deal if replayed.scores is not None else deal.model_copy(update={"result": None})


SHOWING = re.compile(r"^((?:\d+: )?poignee \S+) ")
"""A poignée as typed: its seat (when not the turn's) and level, then the trumps it shows."""


def offered(line: str, legal: list[str]) -> bool:
    """Whether a typed action is among those `legal` lists as still possible. A poignée is listed
    once a level, with one canonical showing (tarot.poignee.count): with the hand not
    known, the one of a hand holding every trump not yet seen, so a poignée is offered when one of
    its level and seat is."""
    showing = SHOWING.match(line)
    if showing is None:
        return line in legal
    return any(listed.startswith(showing.group(1) + " ") for listed in legal)


@pytest.mark.parametrize(("game", "count", "options"), GAMES, ids=lambda v: str(v))
@settings(max_examples=examples(3), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**16), probe=st.integers(0, 12))
def test_a_game_typed_without_the_hands_gives_the_same_record(
    game: str, count: int, options: dict[str, Any], seed: int, probe: int
) -> None:
    """Typed card by card with no hands, a game gives the record it gives with them, less the
    hands (and the groups the game derives); every action typed is among those `legal` lists as
    still possible; the record validates clean."""
    script = scripted_game(game, count, options, seed=seed, deals=2)
    ref = script.recorder
    needs_derivation(ref, lambda deal: forgotten(ref, deal))
    rec = Recorder(game, players(count), options)
    step = 0
    for live, lines in zip(ref.deals, actions_of(script), strict=True):
        assert rec.deal(**unknown_fields(rec, live.dealt)) == []
        for line in lines:
            if step % 13 == probe:
                assert offered(line, rec.legal()), line
            assert rec.act(line) == [], line
            step += 1
    expected = [as_scored(ref, forgotten(ref, deal)).model_dump(mode="json") for deal in ref.record().deals]
    assert [deal.model_dump(mode="json") for deal in rec.record().deals] == expected
    assert rec.totals == ref.totals and findings(rec.record()) == []


FOLLOWS: dict[str, Callable[[str], bool]] = {
    "french-tarot": lambda code: code != "EX",  # tarot.play.follow, tarot.play.excuse
    "joffre": lambda code: True,  # joffre.play.follow: the nation is the first letter
    "charlemagne": lambda code: code[1:] in {"7", "8", "10", "Q", "K", "A"},  # charlemagne.play.follow
}
"""The cards that surely belong to their printed suit (its first letter) for following it, in the
games with a duty to follow suit: a seat that played such a card of another suit on such a lead
held no card of the suit led. Not the Excuse; not Charlemagne's jacks, nines and jokers, which
may count as trumps. Karnöffel has no duty to follow (karnoffel.play.any-card)."""


def proven_illegal(rec: Recorder, truth: Recorder, seat: int, known: frozenset[int]) -> list[tuple[str, str]]:
    """Cards the cards seen prove that `seat` cannot play now, each with what its refusal must
    say (a pattern): one already played (its trick), one of the cards given (seat 0's hand, the dog...)
    that another seat holds now (`truth` is the deal recorded with every hand), and, for a seat
    whose hand is not `known`, one of a suit it failed to follow (the trick where it showed void)."""
    live, real = rec.current, truth.current
    assert live is not None and real is not None
    codes = rec.table.deck.codes
    tricks = live.state.tricks
    proofs: list[tuple[str, str]] = []
    if tricks:
        proofs.append((codes[tricks[-1].cards[0]], f"trick {len(tricks)}"))
    dealt = live.written.model_dump(mode="json", exclude_none=True)
    given = {code for name in rec.deal_fields() for code in " ".join(flat(dealt.get(name))).split()}
    elsewhere = [
        code
        for holder, hand in enumerate(real.state.hands)
        if holder != seat
        for card, code in enumerate(codes)
        if hand >> card & 1 and code in given
    ]
    if elsewhere:
        proofs.append((elsewhere[0], "as dealt|holds it|not in his hand"))
    follows = FOLLOWS.get(rec.ruleset.name)
    if follows is None or seat in known:
        return proofs
    for number, trick in enumerate(tricks, start=1):
        lead = codes[trick.cards[0]]
        mine = codes[trick.cards[trick.seats.index(seat)]] if seat in trick.seats else lead
        if follows(lead) and follows(mine) and mine[0] != lead[0]:
            mentioned = set(words(dealt))  # played, given, discarded, shown or called
            unseen = [
                code for code in codes if code[0] == lead[0] and follows(code) and code not in mentioned
            ]
            if unseen:
                proofs.append((unseen[0], f"trick {number}"))
                break
    return proofs


def words(value: Any) -> list[str]:
    """Every word of a JSON value's texts (a deal's card codes among them)."""
    if isinstance(value, str):
        return value.split()
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else []
    return [word for item in items for word in words(item)]


def flat(value: Any) -> list[str]:
    """A deal field's card groups as texts (a hand, a list of hands, a list of codes)."""
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    return [text for item in value for text in flat(item)]


def a_defender(ref: Recorder) -> int:
    """The first seat on neither the declarer's side nor his partner's in the reference's deal:
    the scorekeeper whose hand is given is a defender. (A French Tarot derivation that does not
    yet link the dog and the taker's hand in a deal not played out would refuse a legal card when
    the taker's hand is given and the dog not, for the derivation's sake, not the recorder's.)"""
    summary = ref.ruleset.summary(ref.deals[0].state)
    side = {summary.declarer, summary.partner}
    return next(seat for seat in range(ref.table.players) if seat not in side)


@pytest.mark.parametrize(("game", "count", "options"), GAMES, ids=lambda v: str(v))
@settings(max_examples=examples(3), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**16))
def test_a_card_the_cards_seen_prove_illegal_is_refused(
    game: str, count: int, options: dict[str, Any], seed: int
) -> None:
    """With one defender's hand given (the scorekeeper's own), the rest not: a card already
    played, a card given that another seat holds, and a card of a suit the seat failed to follow
    are refused at once, saying where the card is or the trick that shows it; the deal is then
    recorded as with every hand, less the others."""
    script = scripted_game(game, count, options, seed=seed, deals=1)
    ref = script.recorder
    dealt = ref.deals[0].dealt
    known = frozenset({a_defender(ref)})
    needs_derivation(ref, lambda deal: forgotten(ref, deal, known))
    rec = Recorder(game, players(count), options)
    truth = Recorder(game, players(count), options)
    rec.deal(**unknown_fields(rec, dealt, known))
    truth.deal(**dealt_fields(truth, dealt))
    for line in actions_of(script)[0]:
        turn = rec.turn
        if turn is not None and "play" in turn.kinds and turn.seat is not None:
            for card, proof in proven_illegal(rec, truth, turn.seat, known):
                before = dumps(rec.record())
                with pytest.raises(RefusedError) as refused:
                    rec.act(card)
                assert re.search(proof, str(refused.value)), (card, str(refused.value))
                assert dumps(rec.record()) == before
        assert rec.act(line) == [], line
        truth.act(line)
    deal = as_scored(ref, forgotten(ref, ref.record().deals[0], known))
    assert rec.record().deals[0].model_dump(mode="json") == deal.model_dump(mode="json")


def typed(deal: Any) -> list[str]:
    """What a scorekeeper types of a French Tarot or Joffre deal from its record: each call, the
    called card, each card of the discard, each card of each trick."""
    lines = [call.call for call in deal.auction]
    lines += [deal.call] if getattr(deal, "call", None) else []
    lines += deal.discard.split() if getattr(deal, "discard", None) else []
    return lines + [code for trick in deal.tricks for code in trick_codes(trick)]


@pytest.mark.parametrize("sample", ["french-tarot/TAROT-REVOKE", "joffre/JOFFRE-REVOKE"])
def test_a_revoke_is_refused_at_the_card_that_proves_it(sample: str) -> None:
    """A deal with a revoke typed without its hands: every card is taken until one proves the
    revoke, which is refused naming the trick where the seat showed void (the trick the validator
    reports on the record with its hands)."""
    record = recordkit.load(f"samples/invalid/{sample}.json")
    deal = record.deals[0]
    (revoke,) = recordkit.validate(record)
    rec = Recorder(record.game, record.players, record.options.model_dump(), dealer=deal.dealer)
    rec.deal()
    with pytest.raises(RefusedError) as refused:
        for line in typed(deal):
            rec.act(line)
    assert f"trick {revoke.location.trick}" in refused.value.why
    assert {d.location.trick for d in refused.value.diagnostics} == {revoke.location.trick}


def test_the_full_check_at_the_end_is_reported_as_the_validator_gives_it() -> None:
    """tarot.deal.petit-sec, typed without the hands: no card proves the Petit sec before the last
    (until then a seat may hold more trumps); the last card makes the hands known, the deal is
    recorded, and the full check's finding is returned, as the validator reports it on the record."""
    record = recordkit.load("samples/invalid/french-tarot/TAROT-PETIT-SEC.json")
    deal = record.deals[0]
    rec = Recorder(record.game, record.players, record.options.model_dump(), dealer=deal.dealer)
    rec.deal()
    *lines, last = typed(deal)
    assert all(rec.act(line) == [] for line in lines)
    found = rec.act(last)
    assert [d.code for d in found] == ["TAROT-PETIT-SEC"]
    assert rec.current is None and rec.flags == found
    assert rec.deals[0].steps[-1].reported == found
    assert [same(d) for d in findings(rec.record())] == [same(d) for d in found]
    assert rec.undo() == f"{last!r} is taken back" and rec.flags == []


def taker_discards(hands: dict[str, Any] | None = None, **options: Any) -> Recorder:
    """A French Tarot deal typed without some of its cards (`hands`: the fields given), seat 1
    taking a petite: the discard is next."""
    rec = Recorder("french-tarot", players(4), options)
    rec.deal(**(hands or {}))
    for call in ("petite", "pass", "pass", "pass"):
        rec.act(call)
    return rec


def refused_codes(rec: Recorder, card: str) -> list[tuple[str, str | None]]:
    """The codes and rules a card typed into the discard is refused with, the record unchanged."""
    before = dumps(rec.record())
    with pytest.raises(RefusedError) as refused:
        rec.act(card)
    assert dumps(rec.record()) == before
    return [(d.code, d.rule) for d in refused.value.diagnostics]


def test_a_king_or_a_bout_in_the_discard_is_refused_without_the_hands() -> None:
    """tarot.discard.king, tarot.discard.bout: a King, or a bout, in the discard is illegal
    whatever the hands, so with no hand given it is refused at once, the first card of the discard
    as any other (issue 33: SK was taken, "found by the full check", and the record saved then
    failed); the saved record validates with notes only. Under `source_permissive` a King goes."""
    rec = taker_discards()
    assert refused_codes(rec, "SK") == [("TAROT-DISCARD-KING", "tarot.discard.king")]
    for bout in ("T21", "EX", "T1"):
        assert refused_codes(rec, bout) == [("TAROT-DISCARD-BOUT", "tarot.discard.bout")]
    assert rec.act("S1 S2 S3 S4 S5 S6") == [] and rec.flags == []
    assert all(d.severity == Severity.INFO for d in recordkit.validate(rec.record()))
    assert refused_codes(taker_discards(), "T21") == [("TAROT-DISCARD-BOUT", "tarot.discard.bout")]
    permissive = taker_discards(discard_policy="source_permissive")
    assert permissive.act("SK") == []
    assert refused_codes(permissive, "EX") == [("TAROT-DISCARD-BOUT", "tarot.discard.bout")]


def test_a_king_in_the_discard_is_refused_at_the_prompt(tmp_path: Path) -> None:
    """tarot.discard.king at the prompt, no hand given: SK is refused with the rule, the next card
    taken, and the record saved validates (exit 0) without the King."""
    out = tmp_path / "evening.json"
    command = [sys.executable, "-m", "recordkit", "record", "french-tarot", "--players", ",".join(players(4))]
    lines = ["petite", "pass", "pass", "pass", "SK", "S1", "quit"]
    done = subprocess.run(
        [*command, "--out", str(out)],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "refused: TAROT-DISCARD-KING [tarot.discard.king]: the taker discarded SK" in done.stdout
    assert "found by the full check" not in done.stdout
    assert recordkit.load(out).deals[0].discard == "S1"


def test_a_trump_in_the_discard_waits_for_the_takers_cards() -> None:
    """tarot.discard.trump: whether a trump may go depends on the taker's plain cards, so with his
    hand not given a trump is taken (a later card of his may prove him wrong); with his hand given
    and plain cards to spare it is refused at once."""
    rec = Recorder("french-tarot", players(4))
    dealt = rec.ruleset.deal_random(rec.table, 0, random.Random(5))  # seat 1: 13 plain cards
    assert dealt.hands is not None
    assert taker_discards().act("T6") == []
    mine = {"hands": [None, dealt.hands[1], None, None]}
    assert refused_codes(taker_discards(mine), "T6") == [("TAROT-DISCARD-TRUMP", "tarot.discard.trump")]


def test_a_deal_without_hands_resumes_undoes_and_keeps_irregularities(tmp_path: Path) -> None:
    """The journal keeps a deal started with only seat 0's hand, then one with none; resuming in
    the middle of either rebuilds the same state; undo reopens a finished deal; with keep_irregular
    a card already played is kept, flagged as the validator then reports it."""
    script = scripted_game("joffre", 4, {}, seed=3, deals=2)
    ref = script.recorder
    journal = tmp_path / "game.journal"
    rec = Recorder("joffre", players(4), journal=journal)
    plays = actions_of(script)
    rec.deal(**unknown_fields(rec, ref.deals[0].dealt, frozenset({0})))
    for line in plays[0][:20]:
        rec.act(line)
    with pytest.raises(RefusedError, match="already played"):
        rec.act(rec.table.deck.codes[rec.current.state.tricks[0].cards[0]])  # type: ignore[union-attr]
    rec.undo()
    reached = state_of(rec)
    rec.close()
    rec = Recorder.resume(journal)
    assert state_of(rec) == reached and rec.current is not None and rec.current.partial
    for line in plays[0][19:]:
        rec.act(line)
    finished = state_of(rec)
    rec.undo()
    assert rec.current is not None and rec.totals == [0, 0, 0, 0]
    rec.act(plays[0][-1])
    assert state_of(rec) == finished
    rec.deal()
    for line in plays[1][:15]:
        rec.act(line)
    rec.keep_irregular = True
    twice = rec.table.deck.codes[rec.current.state.tricks[0].cards[1]]  # type: ignore[union-attr]
    flags = rec.act(twice)
    assert flags and all(same(d) in [same(f) for f in findings(rec.record())] for d in flags)
    reached = state_of(rec)
    rec.close()
    assert state_of(Recorder.resume(journal)) == reached
    deals = rec.record().deals
    assert deals[0].hands == [ref.deals[0].dealt.hands[0], None, None, None] and deals[1].hands is None


def test_with_hands_unknown_legal_lists_what_is_still_possible() -> None:
    """joffre.play.lead, joffre.play.follow: the bidder leads any card, so with his hand not given
    every card not seen is possible; a card played is not any more, and a seat that failed to
    follow a nation holds none of it; a hand given plays by its own cards."""
    mine = ["E0", "E1", "E2", "E3", "F0", "F1", "F2", "F3"]
    rec = Recorder("joffre", players(4))  # seat 0 deals, seat 1 speaks first
    rec.deal(hands=[" ".join(mine), None, None, None])
    for call in ("3", "pass", "pass", "pass"):  # seat 1 bids 3 and leads
        rec.act(call)
    assert rec.known(0) and not rec.known(1) and rec.turn is not None and rec.turn.seat == 1
    others = [code for code in rec.table.deck.codes if code not in mine]
    assert rec.legal() == others
    rec.act("R7")  # Russia is trump, and R7 its best card
    assert set(rec.legal()) == set(others) - {"R7"}
    rec.act("G5")  # seat 2 shows void in Russia
    rec.act("R3")
    assert rec.legal() == mine  # seat 0 has no Russia: any of its cards
    rec.act("E0")
    assert rec.turn is not None and rec.turn.seat == 1  # R7 won trick 1
    rec.act("R6")
    assert rec.turn is not None and rec.turn.seat == 2
    possible = rec.legal()
    assert possible and not any(code.startswith("R") for code in possible)
    assert "G5" not in possible and "E1" not in possible  # played; seat 0's


def test_a_karnoffel_deal_starts_without_its_face_up_round() -> None:
    """karnoffel.partial.faceup: a deal started with nothing given (no face-up round, no hands)
    opens without an error, whose turn it is being the rules' (the forehand's first call), and
    takes the window's calls as they are said."""
    rec = recordkit.Recorder("karnoffel", ["Anne", "Bruno", "Claire", "Denis"])
    rec.deal()
    assert rec.turn is not None and "call" in rec.turn.kinds
    first = rec.turn.seat
    rec.act("pass")  # a deal in progress with only calls is not read as a score sheet's line
    assert rec.turn is not None and rec.turn.seat != first


def test_a_meta_tag_typed_is_journaled_and_resumed(tmp_path: Path) -> None:
    """`Recorder.tag` (the notation's tag lines at the prompt) is a journal entry of its own: the
    record keeps it, resuming sets it again, and a `meta` entry of another shape is refused."""
    journal = tmp_path / "game.journal"
    rec = Recorder("joffre", ["Anne", "Bruno", "Claire", "Denis"], journal=journal)
    rec.tag("event", "Club night")
    rec.close()
    assert orjson.loads(journal.read_bytes().splitlines()[-1]) == {"meta": {"event": "Club night"}}
    again = Recorder.resume(journal)
    assert again.record().meta == {"source": "recordkit record", "event": "Club night"}
    again.close()
    with journal.open("ab") as handle:
        handle.write(b'{"meta": {"event": [1]}}\n{"undo": true}\n')
    with pytest.raises(JournalError, match="meta"):
        Recorder.resume(journal)
