"""The Recorder API: every game recorded action by action, refusals as the validator words them,
irregularities kept, undo, and the journal that a crash cannot empty."""

from __future__ import annotations

import random
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson
import pytest

import recordkit
from recordkit.codec import dumps
from recordkit.diagnostics import Diagnostic
from recordkit.recorder import JournalError, Recorder, RefusedError
from tests.recording import GAMES, choose, players, scripted_game


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


def test_a_torn_last_line_is_dropped_with_a_warning(tmp_path: Path) -> None:
    """A crash in the middle of writing an entry: that entry is ignored, and recording goes on."""
    journal = tmp_path / "game.journal"
    rng = random.Random(1)
    rec = Recorder("joffre", players(3), journal=journal)
    rec.deal_random(rng)
    rec.act(choose(rec, rng))
    reached = state_of(rec)
    rec.close()
    with journal.open("ab") as handle:
        handle.write(b'{"act": "pa')
    resumed = Recorder.resume(journal)
    assert state_of(resumed) == reached
    assert len(resumed.warnings) == 1 and "cut short" in resumed.warnings[0]
    resumed.act(choose(resumed, rng))
    after = state_of(resumed)
    resumed.close()
    again = Recorder.resume(journal)
    assert state_of(again) == after and again.warnings == []


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


def test_deals_need_every_hand_and_are_checked(tmp_path: Path) -> None:
    """The ruleset judges every card against the hands, so a deal starts with all of them, checked."""
    rec = Recorder("french-tarot", players(4))
    assert rec.deal_fields() == ["hands", "dog"]
    with pytest.raises(RefusedError) as refused:
        rec.deal(hands=["S1 S2"] * 4, dog="T1")
    assert "DEAL-HAND-SIZE" in {d.code for d in refused.value.diagnostics}
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
