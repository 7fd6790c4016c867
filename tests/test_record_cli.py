"""`recordkit record` driven as a scorekeeper drives it: typed lines through a pipe or a terminal."""

from __future__ import annotations

import io
import os
import random
import select
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

import recordkit
from recordkit.codec import dumps
from recordkit.diagnostics import Severity
from recordkit.games import RULESETS
from recordkit.generate import generate_record
from recordkit.jsonread import MAX_RECORD_BYTES
from recordkit.recorder import Recorder
from recordkit.recorder.terminal import Session
from tests.budget import examples
from tests.recording import GAMES, actions_of, damaged_journal, players, scripted_game

DEAL_WORDS = ("hand ", "dog ", "kitty ", "faceup ", "status ")


def record_command(game: str, count: int, out: Path, options: dict[str, Any], *extra: str) -> list[str]:
    """The command line of a recording."""
    args = [sys.executable, "-m", "recordkit", "record", game, "--players", ",".join(players(count))]
    for name, value in options.items():
        args += ["-o", f"{name}={value}"]
    return [*args, "--out", str(out), *extra]


def type_in(command: list[str], lines: list[str]) -> subprocess.CompletedProcess[str]:
    """Run the prompt with these lines piped in, as a user would type them."""
    return subprocess.run(
        command, input="".join(line + "\n" for line in lines), capture_output=True, text=True, timeout=120
    )


WHOLE_GAMES = [
    ("french-tarot", 4, {}, 3),
    ("charlemagne", 4, {}, 40),
    ("charlemagne", 4, {"variant": "maine"}, 40),
    ("karnoffel", 4, {"target": 21}, 40),
    ("joffre", 4, {"mode": "teams", "target": 12}, 40),
]


@pytest.mark.parametrize(("game", "count", "options", "deals"), WHOLE_GAMES, ids=lambda v: str(v))
def test_a_whole_game_typed_at_the_prompt_validates_clean(
    tmp_path: Path, game: str, count: int, options: dict[str, Any], deals: int
) -> None:
    """A scripted scorekeeper types each hand, call and card; the record saved is the game played,
    ends where the rules end it (French Tarot: after the deals agreed), and validates clean."""
    script = scripted_game(game, count, options, seed=2, deals=deals)
    out = tmp_path / "game.json"
    extra = ["--deals", str(deals)] if game == "french-tarot" else []
    done = type_in(record_command(game, count, out, options, *extra), script.lines)
    assert done.returncode == 0, done.stderr
    assert "refused" not in done.stdout
    record = recordkit.load(out)
    assert recordkit.validate(record) == []
    assert dumps(record) == dumps(script.recorder.record())
    if game != "french-tarot":
        assert "the game is over" in done.stdout


def test_quit_and_a_killed_prompt_both_resume_from_the_journal(tmp_path: Path) -> None:
    """Quit in one deal, go on; kill -9 in the middle of the next; run again: nothing is lost."""
    script = scripted_game("french-tarot", 4, {}, seed=8, deals=3)
    lines = script.lines
    out = tmp_path / "game.json"
    command = record_command("french-tarot", 4, out, {}, "--deals", "3")
    quit_at = script.deal_starts[1] - 10
    first = type_in(command, [*lines[:quit_at], "quit"])
    assert first.returncode == 0 and (tmp_path / "game.json.journal").exists()
    assert recordkit.load(out).deals[0].status == "abandoned"  # the deal in progress, saved as it stood
    kill_at = script.deal_starts[2] + 40
    journaled = 1 + sum(1 for line in lines[:kill_at] if not line.startswith(DEAL_WORDS)) + 3
    child = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    assert child.stdin is not None
    child.stdin.write("".join(line + "\n" for line in lines[quit_at:kill_at]).encode())
    child.stdin.flush()
    journal = tmp_path / "game.json.journal"
    deadline = time.monotonic() + 60
    while len(journal.read_bytes().splitlines()) < journaled and time.monotonic() < deadline:
        time.sleep(0.05)
    child.send_signal(signal.SIGKILL)
    child.wait()
    assert len(journal.read_bytes().splitlines()) == journaled
    last = type_in(command, lines[kill_at:])
    assert last.returncode == 0, last.stderr
    assert "resumed from" in last.stderr
    record = recordkit.load(out)
    assert dumps(record) == dumps(script.recorder.record())
    assert recordkit.validate(record) == []


HAND_TYPED = [
    "show",
    # the hands of samples/french-tarot/club-evening-4p.json, deal 1, typed with aliases
    "hand 2 S5 S8 S9 S10 SC SD H7 DA D5 D8 DR C7 T01 T02 T7 T8 T19 T20",
    "hand 0 S6 S7 H2 H4 H6 H8 HV D3 D4 DC DD C2 C3 C6 CV CC T5 T10",
    "hand 1 S4 SR H3 H5 HD HR D2 D7 C4 C8 CD T3 T6 T9 T12 T15 T17 T21",
    "hand 3 S1 S3 SV H1 H10 HC D6 D9 D10 C5 C9 CR T11 T13 T14 T16 T18 FOOL",
    "dog S2 H9 DV C1 C10 T4",
    "?",
    "prise",
    "passe",
    "p",
    "pass",
    "S02 S4 D2 D7 DV CA",
    "SR",
    "H7",
    "S5 S1 S6",
    "HR H7 H1 H2",
    "HD T2 HC HV",
    "DA D6 D3 T3",
    "T6 T8",
    "undo",
    "T7 T11 T5",
    "CR C2 C4 C7",
    "D10 D4 T4 D5",
    "T9 T19 T13 T10",
    "S8 S3 S7 T12",
    "T15 T20 T14 C3",
    "SC SV H4 T17",
    "T21 T8 T16 C6",
    "H3 T01 H10 H6",
    "DR D9 DD H5",
    "SD EXCUSE CV C8",
    "S10 T18 DC H9",
    "C9 CC CD S9",
    "C10 D8 C5 H8",
]


def test_a_hand_typed_deal_with_aliases_a_revoke_refused_and_an_undo(tmp_path: Path) -> None:
    """A real deal typed by hand: aliases everywhere, a revoke refused with the rule and corrected,
    a card taken back; the record is the sample's deal, scored as its score sheet says."""
    out = tmp_path / "evening.json"
    done = type_in(record_command("french-tarot", 4, out, {}, "--deals", "1"), HAND_TYPED)
    assert done.returncode == 0, done.stderr
    assert "legal: pass, petite, garde, garde_sans, garde_contre" in done.stdout
    assert "refused: TAROT-REVOKE [tarot.play.follow]: seat 2 played H7 on a spades lead" in done.stdout
    assert "'T8' is taken back" in done.stdout
    assert "deal 1 is over (played): scores +34 -102 +34 +34" in done.stdout
    record = recordkit.load(out)
    sample = recordkit.load("samples/french-tarot/club-evening-4p.json").deals[0]
    deal = record.deals[0]
    assert (deal.hands, deal.dog, deal.discard) == (sample.hands, sample.dog, sample.discard)
    assert [str(t) if isinstance(t, str) else " ".join(t.codes()) for t in sample.tricks] == deal.tricks
    assert list(deal.result.scores) == [34, -102, 34, 34]
    assert recordkit.validate(record) == []


def test_a_deal_typed_without_the_hands_at_the_prompt(tmp_path: Path) -> None:
    """The scorekeeper gives only his own hand (seat 0); the first call starts the deal; a card
    already played is refused naming its trick; ? lists what is still possible; quit in the middle
    and resume; the record saved leaves the other hands out and validates with notes only."""
    script = scripted_game("joffre", 4, {}, seed=6, deals=1)
    reference = script.recorder.record().deals[0]
    plays = actions_of(script)[0]
    out = tmp_path / "table.json"
    command = record_command("joffre", 4, out, {}, "--deals", "1")
    first = type_in(command, ["?", f"hand 0 {reference.hands[0]}", *plays[:12], "?", plays[4], "quit"])
    assert first.returncode == 0, first.stderr
    assert "the next deal may be given: hand 0, hand 1, hand 2, hand 3" in first.stdout
    assert "dealt by Anne (0), started: the cards not given are derived from the play" in first.stdout
    assert f"refused: {plays[4]} was already played, in trick 1 by seat" in first.stdout
    assert "refused: DEAL-DUPLICATE-CARD" in first.stdout or "refused: PLAY-NOT-HELD" in first.stdout
    assert "possible (the hand is not known): " in first.stdout or "legal: " in first.stdout
    saved = recordkit.load(out).deals[0]
    assert saved.status == "abandoned" and saved.hands == [reference.hands[0], None, None, None]
    last = type_in(command, plays[12:])
    assert last.returncode == 0, last.stderr
    assert "resumed from" in last.stderr and "refused" not in last.stdout
    assert "deal 1 is over (played)" in last.stdout
    record = recordkit.load(out)
    assert record.deals[0].hands == [reference.hands[0], None, None, None]
    assert record.deals[0].tricks == reference.tricks and record.deals[0].result == reference.result
    assert [d for d in recordkit.validate(record) if d.severity != Severity.INFO] == []


def test_bad_starts_are_plain_errors(tmp_path: Path) -> None:
    """Unknown game, missing players, a journal of another game: a message and status 2."""
    out = tmp_path / "game.json"
    for command in (
        [sys.executable, "-m", "recordkit", "record", "bridge", "--players", "A,B,C,D", "--out", str(out)],
        [sys.executable, "-m", "recordkit", "record", "joffre", "--out", str(out)],
    ):
        done = type_in(command, [])
        assert done.returncode == 2 and "Traceback" not in done.stderr
    assert type_in(record_command("joffre", 4, out, {}), ["quit"]).returncode == 0
    done = type_in(record_command("karnoffel", 4, out, {}), ["quit"])
    assert done.returncode == 2 and "records joffre" in done.stderr


@pytest.mark.parametrize(
    ("header", "entry", "line"),
    [
        ({}, {"act": 5}, 3),
        ({}, {"act": None}, 3),
        ({}, {"act": ["SK"]}, 3),
        ({"meta": [1]}, "none", 1),
        ({"players": "ABCD"}, "none", 1),
    ],
    ids=["act-5", "act-null", "act-list", "meta-list", "players-text"],
)
def test_a_damaged_journal_is_a_message_naming_the_line(
    tmp_path: Path, header: dict[str, Any], entry: Any, line: int
) -> None:
    """`recordkit record` resuming from a journal line of the wrong shape: a message naming the
    line and exit status 2, no traceback (these crashed in the ruleset or later, with pydantic's words)."""
    out = tmp_path / "game.json"
    damaged_journal(tmp_path / "game.json.journal", "french-tarot", header, entry)
    done = type_in(record_command("french-tarot", 4, out, {}), ["quit"])
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"line {line}:" in " ".join(done.stderr.split())
    assert "pydantic" not in done.stderr and not out.exists()


def test_random_deals_for_a_demonstration(tmp_path: Path) -> None:
    """--random-deal deals every deal from a seed; an abandoned deal is saved as played so far."""
    out = tmp_path / "demo.jsonl"
    command = record_command(
        "charlemagne", 4, out, {"variant": "maine"}, "--random-deal", "4", "--deals", "1"
    )
    done = type_in(command, ["show", "pass", "abandon"])
    assert done.returncode == 0, done.stderr
    assert "deal 1 is over (abandoned): not scored" in done.stdout
    record = recordkit.loads(out.read_text())
    assert record.deals[0].status == "abandoned" and record.deals[0].auction[0].call == "pass"
    assert recordkit.validate(record) == []


def read_until(master: int, wanted: str, timeout: float = 30) -> str:
    """Terminal output up to and including `wanted`."""
    seen = ""
    deadline = time.monotonic() + timeout
    while wanted not in seen:
        ready, _, _ = select.select([master], [], [], max(0.0, deadline - time.monotonic()))
        if not ready:
            raise AssertionError(f"{wanted!r} never came; the terminal showed:\n{seen}")
        seen += os.read(master, 4096).decode(errors="replace")
    return seen


def test_the_prompt_in_a_terminal(tmp_path: Path) -> None:
    """In a pseudo-terminal: the prompt shows the deal and whose turn, lists the legal calls,
    refuses a card that is not one, and saves on quit."""
    out = tmp_path / "game.json"
    master, slave = os.openpty()
    env = {**os.environ, "COLUMNS": "200", "TERM": "dumb"}
    child = subprocess.Popen(
        record_command("joffre", 4, out, {}), stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True
    )
    os.close(slave)
    try:
        read_until(master, "deal 1, give hand 0")
        os.write(master, b"random 5\n")
        read_until(master, "Bruno (1) bid> ")
        os.write(master, b"?\n")
        assert "legal: " in read_until(master, "bid> ")
        os.write(master, b"ZZ\n")
        assert "refused: RECORD-UNKNOWN-CALL" in read_until(master, "bid> ")
        os.write(master, b"quit\n")
        read_until(master, "saved")
        assert child.wait(timeout=30) == 0
    finally:
        os.close(master)
        if child.poll() is None:
            child.kill()
    assert recordkit.validate(recordkit.load(out)) == []


def _typed_text(
    game: str, count: int, options: dict[str, Any], text: str, tmp_path: Path, *extra: str
) -> Any:
    """A text of the notation piped into `recordkit record`; the record it saves, and `recordkit
    convert` of the same text, as JSON data."""
    source, out, converted = tmp_path / "evening.rkn", tmp_path / "typed.json", tmp_path / "converted.json"
    source.write_text(text, encoding="utf-8")
    done = type_in(record_command(game, count, out, options, *extra), text.splitlines())
    assert done.returncode == 0, done.stderr
    assert "refused" not in done.stdout, done.stdout
    subprocess.run([sys.executable, "-m", "recordkit", "convert", str(source), str(converted)], check=True)
    return orjson.loads(out.read_bytes()), orjson.loads(converted.read_bytes())


TYPED_TABLES = [GAMES[2], GAMES[4], GAMES[5], GAMES[7]]
"""One table a game, the richest: five players' called King, Maine knocks, proposal windows, teams."""


@pytest.mark.parametrize(("game", "count", "options"), TYPED_TABLES, ids=lambda v: str(v))
def test_a_notation_file_piped_into_the_prompt_is_the_record_convert_gives(
    tmp_path: Path, game: str, count: int, options: dict[str, Any]
) -> None:
    """What a secretary types in an editor and a scorekeeper types live are one language: the text
    of a recorded game (hands, calls, tricks, knocks, proposal windows, scores, totals), piped into
    the prompt, gives the record `convert` gives of that text, and the game as it was recorded.
    (Seed 3 has no Karnöffel deal given up before its cards were all dealt: such a deal's cards
    cannot be given at the prompt, spec/RECORDER.md.)"""
    script = scripted_game(game, count, options, seed=3, deals=3)
    text = dumps(script.recorder.record(), form="text")
    typed, converted = _typed_text(game, count, options, text, tmp_path, "--deals", "3")
    assert typed == converted == orjson.loads(dumps(script.recorder.record()))


@pytest.mark.parametrize(
    ("game", "count", "options"),
    [("joffre", 4, {})],
    ids=lambda v: str(v),
)
def test_a_generated_evening_in_the_notation_types_in_whole(
    tmp_path: Path, game: str, count: int, options: dict[str, Any]
) -> None:
    """A generated evening's text, its tags included (meta tags are recorded), typed at the prompt
    started with the evening's first dealer: the same record as `convert` of the text."""
    record = generate_record(RULESETS[game], count, 3, 7, options=options)
    text = dumps(record, form="text")
    extra = ("--deals", "3", "--dealer", str(record.deals[0].dealer))
    typed, converted = _typed_text(game, count, options, text, tmp_path, *extra)
    assert typed == converted


def test_the_prompt_reads_the_notations_tolerant_spellings_and_checks_what_it_is_told(tmp_path: Path) -> None:
    """Seat names, suit symbols and commas read as in a file, said as read; a score or a dealer
    that the rules contradict, a tag of another game, and an unreadable line are refused."""
    out = tmp_path / "game.json"
    lines = [
        '[Game "charlemagne"]',
        '[Game "joffre"]',
        '[event "Club night"]',
        "deal 1 dealer 2",
        "hand Anne ♠Q, H8 H10 HQ HK D7 DK CQ",
        "auction pass pass pass",
        "hand 1 S9",
        "pass",
        "deal 2 dealer 1",
        "quit",
    ]
    done = type_in(record_command("charlemagne", 4, out, {}), lines)
    assert done.returncode == 0, done.stderr
    said = done.stdout
    assert "refused: this game's game is charlemagne, not joffre" in said
    assert "read as: the player Anne read as seat 0" in said and "read as: the card ♠Q read as SQ" in said
    assert "refused: deal 1 is dealt by seat 0, not 2" in said
    assert "refused: the cards dealt are given before the deal's first call" in said
    record = recordkit.load(out)
    assert record.meta["event"] == "Club night"
    assert record.deals[0].hands is not None and record.deals[0].hands[0] == "SQ H8 H10 HQ HK D7 DK CQ"


def test_a_line_too_deep_or_too_long_is_refused_and_the_prompt_goes_on(tmp_path: Path) -> None:
    """A JSON value nested about 980 levels after `=` is refused with RECORD-TOO-DEEP, as in a file;
    a line over 8 MB is read on to its end in chunks and refused in plain words; a line that is not
    UTF-8 too; and the prompt goes on to the next line (issue 33)."""
    out = tmp_path / "game.json"
    deep = "[" * 980 + "]" * 980
    lines = [
        "random 5",
        f"trump = {deep}",
        f"auction = {deep}",
        f"[event = {deep}]",
        "S" * (MAX_RECORD_BYTES + 10),
    ]
    command = record_command("joffre", 4, out, {}, "--deals", "1")
    done = subprocess.run(
        command,
        input="".join(line + "\n" for line in [*lines, "?", "quit"]).encode() + b"\xff\n",
        capture_output=True,
        timeout=120,
    )
    said = done.stdout.decode()
    assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr.decode()[-2000:]
    assert said.count("refused: RECORD-TOO-DEEP [format.limits]: lists and objects nest more than 32") == 3
    assert "refused: the line takes more than 8 MB, the most recordkit reads as one record" in said
    assert "legal: " in said and "saved" in said
    unread = subprocess.run(command, input=b"\xff\xfe\n?\nquit\n", capture_output=True, timeout=120)
    assert unread.returncode == 0 and "refused: the line is not UTF-8 text" in unread.stdout.decode()


def test_surrender_as_the_prompt_lists_it(tmp_path: Path) -> None:
    """Karnöffel's `surrender` is a keyword of the notation (the result's `surrender SEAT`) and a
    call: what `?` lists is taken as typed (it was refused: `surrender takes one value`)."""
    out = tmp_path / "game.json"
    done = type_in(
        record_command("karnoffel", 4, out, {}, "--deals", "1"), ["random 0", "raise", "?", "surrender"]
    )
    assert done.returncode == 0, done.stderr
    assert "legal: accept, surrender, raise" in done.stdout and "refused" not in done.stdout
    calls = [call for window in recordkit.load(out).deals[0].proposals for call in window]
    assert [str(getattr(call, "call", call)) for call in calls][-1] == "surrender"


@settings(max_examples=examples(30), deadline=None)
@given(st.sampled_from(GAMES), st.integers(0, 2**16))
def test_whatever_the_prompt_lists_is_taken_as_typed(
    table: tuple[str, int, dict[str, Any]], seed: int
) -> None:
    """A game played at the prompt by typing, at each turn, one of the actions `?` lists exactly as
    listed: each is recorded, none refused, in every game (issue 33, Karnöffel's `surrender`)."""
    game, count, options = table
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder:
        rec = Recorder(game, players(count), options)
        shown = io.StringIO()
        session = Session(rec, Path(folder) / "game.json", Console(file=shown, width=300))
        for _ in range(3):
            if rec.over:
                break
            session.deal(lambda: rec.deal_random(rng))
            while rec.current is not None:
                live = rec.current
                steps, line = len(live.steps), rng.choice(rec.legal())
                session.command(line)
                assert len(live.steps) > steps, f"{line!r} was listed, then: {shown.getvalue()[-300:]}"


def test_odd_values_at_the_prompt_are_refused_without_a_traceback(tmp_path: Path) -> None:
    """What the fuzzing of the prompt found (tests/test_fuzz_notation.py): a face-up card that is
    not one in a deal without its hands, a hand after `hands = []`, `announce = 5`: each refused
    or taken in plain words, and the prompt goes on."""
    lines = ["faceup D7X S2 S3 S4", "pass", "hands = []", "hand 0 S2 S3 S4 S5", "random 3", "announce = 5"]
    done = type_in(record_command("karnoffel", 4, tmp_path / "game.json", {}), [*lines, "quit"])
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-2000:]
    assert "the deal is refused: unknown card 'D7X'" in done.stdout
    assert "deal 1, give hand 1, hand 2, hand 3 or the first call" in done.stdout
    assert "refused: announcements is not typed at the prompt" in done.stdout
