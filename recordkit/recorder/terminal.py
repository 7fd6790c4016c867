"""The interactive `recordkit record` prompt: a scorekeeper types the cards dealt, as far as they are
known (none, or only his own hand), then each call and card as it happens; the recorder checks each
one, and the record is saved after every deal.

Plain lines in and out, so it works the same in a terminal and with piped input (spec/RECORDER.md).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import orjson
from rich.console import Console
from rich.markup import escape

from recordkit.cards import CardError
from recordkit.diagnostics import Diagnostic, Severity
from recordkit.engine import format_scores
from recordkit.jsonread import CHUNK, MAX_RECORD_BYTES
from recordkit.model import FORMAT_NAME, FORMAT_VERSION, to_data
from recordkit.notation.keys import STRUCTURE, keywords
from recordkit.notation.lines import LineReader
from recordkit.recorder.journal import JournalError
from recordkit.recorder.recorder import Recorder
from recordkit.recorder.refusal import RefusedError

HELP = """\
Type the lines of the recordkit notation (spec/NOTATION.md), as in a .rkn file: the prompt reads
them with the file reader, so seat names, suit symbols, commas and card aliases are read alike.
A call, card or announcement may also be typed alone: garde, HK, T21, pass, 6, raise,
"poignee simple T21 T20 ..."; "SEAT: ..." says who acts when it is not the seat whose turn it is.
Before a deal, give what you know of the cards dealt; the deal starts with the first call, or once
every hand and group is given. A hand not given is derived from the cards it plays.
                [event "Club night"]   a tag, before the first deal (meta tags are recorded)
                deal N dealer D   the next deal (its number and dealer are checked)
                hand SEAT CARDS   one seat's hand as dealt (your own, say; any order of seats)
                dog CARDS         the game's other dealt cards (dog, kitty, faceup)
                status annulled   a deal thrown in by rule (French Tarot's petit sec)
                auction CALLS     the calls in turn; discard CARDS, call CARD, trump SUIT...
                CARDS             a trick, from its leader (or any cards, played in turn)
                announce ...      poignee SEAT LEVEL CARDS, slam SEAT, misere SEAT KIND
                knock SEAT T A    a knock after card A of trick T, made when the play is there
                scores ..., totals ..., contract ...   checked against the rules' score
                deal              start the deal now with what was given
                random [SEED]     deal at random (a demonstration)
Commands:       ? or legal        what may be typed now (with a hand not known: what is still possible)
                show              whose turn, the trick so far, the scores
                undo              take back the last step (reopens a finished deal)
                abandon           the deal stops here, not scored
                save              write the record now (it is written after every deal)
                quit              save and leave; run the same command again to resume"""


class UnreadLineError(Exception):
    """A line typed that is not read: longer than a record may be, or not UTF-8; says which."""


def read_line(prompt: str) -> str:
    """One line typed, without its line break: in a terminal by `input` (its line editing), else
    from standard input within the reading limit, a longer line read on to its end in chunks and
    refused (UnreadLineError), as a line that is not UTF-8 is; EOFError at the end of input."""
    if sys.stdin.isatty():
        try:
            line = input(prompt)
            size = len(line.encode())
        except UnicodeError:  # bytes not UTF-8 (read as escapes, or not read at all)
            raise UnreadLineError("the line is not UTF-8 text") from None
        if size > MAX_RECORD_BYTES:
            raise UnreadLineError(_TOO_LONG)
        return line
    sys.stdout.write(prompt)
    sys.stdout.flush()
    stream = sys.stdin.buffer
    data = stream.readline(MAX_RECORD_BYTES + 1)
    if not data:
        raise EOFError
    if len(data) > MAX_RECORD_BYTES and not data.endswith(b"\n"):
        while (rest := stream.readline(CHUNK)) and not rest.endswith(b"\n"):
            pass
        raise UnreadLineError(_TOO_LONG)
    try:
        return data.decode().removesuffix("\n").removesuffix("\r")
    except UnicodeDecodeError as error:
        raise UnreadLineError(f"the line is not UTF-8 text (byte {error.start + 1} cannot be read)") from None


_TOO_LONG = (
    f"the line takes more than {MAX_RECORD_BYTES // (1024 * 1024)} MB, the most recordkit reads as one record"
)


@dataclass(slots=True)
class Session:
    """One sitting at the prompt: the recorder, where to save, and the cards of the next deal so far."""

    recorder: Recorder
    out: Path
    console: Console
    deals: int | None = None
    """Stop once this many deals are over (None: when the game's rules end it, or at quit)."""
    random_deal: int | None = None
    """Deal every deal at random from this seed instead of reading the hands."""
    echo: bool = False
    """Write each line read after its prompt (for transcripts of piped input)."""
    pending: dict[str, Any] = field(default_factory=dict)
    unsaved: bool = True
    """Whether something was recorded since the record was last written."""
    knocks: list[tuple[int, int, str]] = field(default_factory=list)
    """Knocks written for a place the play has not reached yet: (trick, after, action)."""
    lines: LineReader = field(init=False)
    """The notation's reader, one line at a time, for this game and its players."""
    keywords: frozenset[str] = field(init=False)
    """The notation's keywords in this game: a line starting with one is read as the notation."""

    def __post_init__(self) -> None:
        self.lines = LineReader(self.recorder.ruleset.name, self.recorder.players)
        self.keywords = frozenset(keywords(self.recorder.ruleset.name)) | STRUCTURE

    def run(self, read: Callable[[str], str]) -> int:
        """Read lines until the game ends, `quit`, or the end of input; the record is saved each time."""
        self.show()
        while not self.finished():
            if self.recorder.current is None and self.random_deal is not None:
                rng = random.Random(f"{self.random_deal}:{self.recorder.deal_number}")
                self.deal(partial(self.recorder.deal_random, rng))
                continue
            try:
                line = read(self.prompt())
            except EOFError:
                self.say("")
                break
            except UnreadLineError as unread:
                self.say(f"[red]refused: {escape(str(unread))}; it is not read")
                continue
            if self.echo:
                self.say(escape(line))
            if not self.command(line.strip()):
                break
        if self.unsaved:
            self.save()
        if self.recorder.over:
            self.say(f"the game is over: totals {self.scores(self.recorder.totals)}")
        return 0

    def finished(self) -> bool:
        """The game is won, or the deals asked for are all over."""
        if self.recorder.current is not None:
            return False
        done = len(self.recorder.deals)
        return self.recorder.over or (self.deals is not None and done >= self.deals)

    # --- reading a line ---------------------------------------------------------------------

    def command(self, line: str) -> bool:
        """Carry out one line; False to leave."""
        word, _, rest = line.partition(" ")
        word = word.lower()
        if not line:
            return True
        if word in ("quit", "exit"):
            return False
        commands: dict[str, Callable[[], None]] = {
            "help": lambda: self.say(escape(HELP)),
            "?": self.legal,
            "legal": self.legal,
            "show": self.show,
            "undo": self.undo,
            "abandon": self.abandon,
            "save": self.save,
        }
        if word in commands and not rest.strip():
            commands[word]()
        elif self.recorder.current is None and word == "random":
            seed = int(rest) if rest.strip().isdigit() else self.recorder.deal_number
            self.deal(partial(self.recorder.deal_random, random.Random(seed)))
        elif self.recorder.current is None and word == "deal" and not rest.strip():
            self.deal(lambda: self.recorder.deal(**self.pending))
        else:
            self.notation(line)
        return True

    # --- a line of the notation -------------------------------------------------------------

    def notation(self, line: str) -> None:
        """A line of the recordkit notation, read by the notation's own reader (spec/NOTATION.md):
        a tag before the first deal, a `deal` line, the cards dealt, the calls, a trick, an
        announcement, or the result checked against the rules' score. A line the notation does not
        read and whose first word is not one of its keywords is an action as the recorder reads it
        (`pass`, `garde`, `2: knock`)."""
        rec = self.recorder
        if self.listed(line):
            self.action(line)
            return
        read = self.lines.read(line, rec.deal_number)
        problems = [note for note in read.notes if note.severity == Severity.ERROR]
        if problems:
            first = line.strip().partition(" ")[0].lower()
            if read.tags is None and first not in self.keywords:
                self.action(line)
                return
            for note in problems:
                self.say(f"[red]refused: {note.code} {escape(f'[{note.rule}]')}: {escape(note.message)}")
            return
        for note in read.notes:
            self.say(f"read as: {escape(note.message)}")
        if read.tags is not None:
            self.tags(read.tags)
            return
        if read.deal and not self.deal_header(read.fields):
            return
        for key, value in read.fields.items():
            if (key != "dealer" or not read.deal) and not self.field(key, value):
                return

    def listed(self, line: str) -> bool:
        """Whether a line that starts with a keyword of the notation is an action `?` lists, which
        is taken as typed (Karnöffel's `surrender`, French Tarot's `slam`, Charlemagne's `knock`)."""
        first = line.partition(" ")[0].lower()
        if self.recorder.current is None or first not in self.keywords:
            return False
        return line.lower() in {action.lower() for action in self.recorder.legal()}

    def tags(self, tags: dict[str, Any]) -> None:
        """Tag lines: the game, players and options are the session's (checked), meta tags are
        recorded; all before the first deal, as in a file."""
        rec = self.recorder
        if rec.deals:
            self.say("[red]refused: the tags come before the first deal")
            return
        options = rec.table.options.model_dump(mode="json")
        session = {
            "game": rec.ruleset.name,
            "players": rec.players,
            "format": FORMAT_NAME,
            "version": FORMAT_VERSION,
        }
        for name, value in tags.items():
            if name in session and value != session[name]:
                self.say(
                    f"[red]refused: this game's {name} is {escape(str(session[name]))}, not {escape(str(value))}"
                )
            elif name == "options":
                for option, wanted in value.items():
                    if options.get(option, wanted) != wanted or option not in options:
                        self.say(
                            f"[red]refused: the option {escape(option)} is {escape(str(options.get(option)))} here; "
                            "options are given when the recording starts (-o NAME=VALUE)"
                        )
            elif name == "meta":
                for tag, text in value.items():
                    if not isinstance(text, str | int | float | bool):
                        self.say(f"[red]refused: the tag {escape(tag)} is text, a number or true/false here")
                        continue
                    rec.tag(tag, text)
                    self.unsaved = True
            elif name == "comment":
                self.say("[red]refused: the record's comment is not taken at the prompt")

    def deal_header(self, fields: dict[str, Any]) -> bool:
        """A `deal N` line: the number checked by the reader, the dealer here (the game's rotation
        chooses it: a dealer written is checked). False when refused."""
        rec = self.recorder
        if rec.current is not None:
            self.say(
                f"[red]refused: deal {rec.current.number} is in progress: finish it (or abandon it) first"
            )
            return False
        dealer = fields.get("dealer", rec.dealer)
        if dealer != rec.dealer:
            hint = " (start the recording with --dealer to choose the first)" if not rec.deals else ""
            self.say(
                f"[red]refused: deal {rec.deal_number} is dealt by seat {rec.dealer}, not {dealer}{hint}"
            )
            return False
        return True

    def field(self, key: str, value: Any) -> bool:
        """One field a line of the notation wrote, carried out: the cards dealt kept for the deal,
        an action recorded, a result checked. False when refused (the rest of the line is not)."""
        rec = self.recorder
        if key == "hands" or key in rec.deal_fields() or key in _STATED:
            return self.dealt(key, value)
        if key in ("result", "totals"):
            return self.check(key, value)
        if key == "dealer":
            return self.deal_header({"dealer": value})
        if key == "knocks" and isinstance(value, list) and isinstance(value[0], dict):
            return self.knock(value[0])
        texts = _actions(key, value)
        if texts is None:
            self.say(
                f"[red]refused: {escape(key)} is not typed at the prompt (the recorder writes what it holds)"
            )
            return False
        if key == "tricks":
            return self.play(texts[0])
        if key == "proposals":
            return self.windows(value)
        return all(self.action(text) for text in texts)

    def windows(self, windows: list[list[Any]]) -> bool:
        """Karnöffel's proposal windows, each call made in its window: the windows written empty
        (`-`) and the end of each window are the passes the record leaves unsaid."""
        for number, window in enumerate(windows, start=1):
            for call in window:
                if not self.in_window(_call(call), number):
                    return False
        return True

    def in_window(self, text: str, number: int) -> bool:
        """A call made in window `number`: passing first while it would land in an earlier one."""
        rec = self.recorder
        for _ in range(4 * rec.table.players):
            if not self.action(text):
                return False
            live = rec.current or rec.deals[-1]
            if len(to_data(live.written).get("proposals") or []) >= number:
                return True
            rec.undo()
            if "pass" not in rec.legal():
                break
            rec.act("pass")
        self.say(f"[red]refused: {escape(text)} cannot be made in proposal window {number}")
        return False

    def play(self, cards: str) -> bool:
        """A trick's cards, as a file writes it: the calls the record leaves unsaid before it are
        passes (Karnöffel's proposal windows closed), and the knocks written for a place in it are
        made there; otherwise the line is played as typed."""
        if all(self.recorder.is_card(word) for word in cards.replace(",", " ").split()):
            self.unsaid()
        if not self.knocks:
            return self.action(cards)
        for card in cards.replace(",", " ").split():
            if not self.action(card):
                return False
            self.due()
        return True

    def unsaid(self) -> None:
        """Pass while calls are asked for and no card may be played, if passing up to the play
        leaves the deal as written unchanged: that is what a record's silence means (Karnöffel's
        proposal windows that nobody opened). Otherwise nothing is passed."""
        rec = self.recorder
        live = rec.current
        if live is None or rec.turn is None or "play" in rec.turn.kinds:
            return
        written, passed, refused = to_data(live.written), 0, False
        while rec.turn is not None and "play" not in rec.turn.kinds and "pass" in rec.legal():
            try:
                rec.act("pass")
            except RefusedError:  # the deal as typed refuses even a pass (a card no deck has, say)
                refused = True
                break
            passed += 1
        if refused or rec.turn is None or "play" not in rec.turn.kinds or to_data(live.written) != written:
            for _ in range(passed):
                rec.undo()

    def knock(self, knock: dict[str, Any]) -> bool:
        """A knock written with its place (Charlemagne): made now if the play is there, else when
        the play reaches it, as a file lists it before the tricks."""
        texts = _actions("knocks", [knock])
        if (
            texts is None
            or not isinstance(knock.get("trick"), int)
            or not isinstance(knock.get("after"), int)
        ):
            self.say("[red]refused: a knock is written knock SEAT TRICK AFTER")
            return False
        self.knocks.append((knock["trick"], knock["after"], texts[0]))
        self.due()
        return True

    def due(self) -> None:
        """Make the knocks whose place the play has reached."""
        rec = self.recorder
        live, turn = rec.current, rec.turn
        if live is None or turn is None or "play" not in turn.kinds:
            return
        tricks, so_far = live.state.tricks, len(rec.trick_so_far())
        places = {(len(tricks) + 1, so_far)}
        if tricks and not so_far:  # after the last card of a trick
            places.add((len(tricks), len(tricks[-1].cards)))
        for knock in [k for k in self.knocks if k[:2] in places]:
            self.knocks.remove(knock)
            self.act(knock[2])

    def dealt(self, key: str, value: Any) -> bool:
        """A hand, the dog, kitty or face-up cards, or the status, kept for the next deal."""
        if self.recorder.current is not None:
            self.say("[red]refused: the cards dealt are given before the deal's first call, not during it")
            return False
        if key == "hands" and value == []:  # no hand dealt (Karnöffel: a surrender in window 1)
            self.pending["hands"] = []
        elif key == "hands":
            if not isinstance(value, list) or len(value) != self.recorder.table.players:
                self.say("[red]refused: write a hand as: hand SEAT CARDS")
                return False
            hands = self.pending.get("hands")
            if not hands:  # none given yet, or `hands = []` (no hand dealt) given before
                hands = self.pending["hands"] = [None] * self.recorder.table.players
            for seat, cards in enumerate(value):
                if cards is not None:
                    hands[seat] = cards
        else:
            self.pending[key] = value
        if not self.missing() and not _STATED & self.keywords - {"status"} - set(self.pending):
            self.deal(lambda: self.recorder.deal(**self.pending))
        return True

    def action(self, text: str) -> bool:
        """An action typed or written in the notation: the deal's first starts it. False when refused."""
        if self.recorder.current is None:
            return self.first_call(text)
        return self.act(text)

    def check(self, key: str, value: Any) -> bool:
        """The result or totals written after a deal, checked against what the rules gave it."""
        rec = self.recorder
        if rec.current is not None or not rec.deals:
            self.say(f"[red]refused: {key} are written once the deal is over")
            return False
        live = rec.deals[-1]
        held = to_data(live.final) if live.final is not None else {}
        if key == "totals":
            wrong = {"totals": (value, held.get("totals"))} if value != held.get("totals") else {}
        else:
            result = held.get("result") or {}
            wrong = {
                name: (typed, result.get(name)) for name, typed in value.items() if result.get(name) != typed
            }
        for name, (typed, found) in wrong.items():
            self.say(
                f"[red]refused: deal {live.number}'s {escape(name)} is {escape(_shown(found))} by the rules, "
                f"not {escape(_shown(typed))}"
            )
        return not wrong

    def act(self, line: str) -> bool:
        """A call, card or announcement (or several cards): recorded, or refused with the reason.
        False when nothing of the line was recorded."""
        live = self.recorder.current
        assert live is not None
        tricks, steps = len(live.state.tricks), len(live.steps)
        try:
            flags = self.recorder.act(line)
        except RefusedError as refused:
            self.unsaved |= refused.accepted > 0
            if refused.accepted:
                self.say(f"recorded the first {refused.accepted} card(s) of the line")
            if refused.why:
                self.say(f"[red]refused: {escape(refused.why)}")
            self.report("refused", refused.diagnostics)
            return refused.accepted > 0
        self.unsaved = True
        reported = [flag for step in live.steps[steps:] for flag in step.reported]
        self.report("recorded with an irregularity", [flag for flag in flags if flag not in reported])
        self.report("found by the full check, on the hands derived from the play", reported)
        self.after(live, tricks)
        return True

    def after(self, live: Any, tricks: int) -> None:
        """Say which tricks the last line completed, and the deal's result once it is over."""
        names = self.recorder.players
        for number, trick in enumerate(live.state.tricks[tricks:], start=tricks + 1):
            cards = " ".join(self.recorder.table.deck.codes[card] for card in trick.cards)
            winner = f"{names[trick.winner]} ({trick.winner})" if trick.winner is not None else "nobody"
            self.say(f"trick {number}: {cards}, won by {winner}")
        if live.end is not None:
            self.deal_over(live)

    def deal_over(self, live: Any) -> None:
        """The result of a finished deal, the running totals, and the record saved."""
        result = live.final.result
        scores = f"scores {format_scores(result.scores)}" if result is not None else "not scored"
        self.say(f"deal {live.number} is over ({live.end}): {scores}; totals {self.scores(live.totals())}")
        for trick, after, _ in self.knocks:
            self.say(
                f"[red]refused: the knock after card {after} of trick {trick} is not a place in this deal's play"
            )
        self.knocks.clear()
        self.save()

    # --- the cards dealt --------------------------------------------------------------------

    def first_call(self, line: str) -> bool:
        """A deal's first call (or card) typed before it started: the deal starts with the cards
        given so far; if nothing of the line can be recorded, it is taken back, the cards kept.
        False when nothing of it was recorded."""
        given = {
            name: list(value) if isinstance(value, list) else value for name, value in self.pending.items()
        }
        if not self.deal(lambda: self.recorder.deal(**self.pending), quiet=True):
            return False
        live = self.recorder.deals[-1]
        if live.end is not None:  # thrown in at once (annulled): the line is the next deal's
            return self.action(line)
        if not self.act(line):
            self.recorder.undo()
            self.pending = given
            self.say(f"deal {live.number} is not started; type ? for what it may be given")
            return False
        dealer = self.recorder.players[live.dealt.dealer]
        unknown = "" if not live.partial else ": the cards not given are derived from the play"
        self.say(f"deal {live.number}, dealt by {dealer} ({live.dealt.dealer}), started{unknown}")
        return True

    def missing(self) -> list[str]:
        """What of the next deal's cards is not given yet, in the words of the commands."""
        hands = self.pending.get("hands") or [None] * self.recorder.table.players
        needed = [f"hand {seat}" for seat, hand in enumerate(hands) if hand is None]
        return needed + [
            name for name in self.recorder.deal_fields() if name != "hands" and name not in self.pending
        ]

    def deal(self, start: Callable[[], list[Diagnostic]], quiet: bool = False) -> bool:
        """Start the deal; if the cards are refused, say why and keep them to be corrected. `quiet`
        leaves out who dealt (the first call says it). False when the deal did not start."""
        try:
            flags = start()
        except RefusedError as refused:
            self.report("the deal is refused", refused.diagnostics)
            return False
        except CardError as error:  # a group the record form of a deal without its hands cannot read
            self.say(f"[red]the deal is refused: {escape(str(error))}")
            return False
        self.pending = {}
        self.unsaved = True
        self.report("dealt with an irregularity", flags)
        live = self.recorder.deals[-1]
        if not quiet or live.end is not None:
            dealer = self.recorder.players[live.dealt.dealer]
            self.say(f"deal {live.number}, dealt by {dealer} ({live.dealt.dealer})")
        if live.end is not None:
            self.deal_over(live)
        return True

    # --- commands ---------------------------------------------------------------------------

    def legal(self) -> None:
        """What may be typed now: with the hand of the seat to act not known, what is still possible."""
        if self.recorder.current is None:
            self.say(self.next_deal())
            return
        turn = self.recorder.turn
        known = turn is None or turn.seat is None or self.recorder.known(turn.seat)
        label = "legal" if known else "possible (the hand is not known)"
        self.say(f"{label}: " + escape(", ".join(self.recorder.legal())))

    def next_deal(self) -> str:
        """What the next deal may be given before its first call."""
        missing = self.missing()
        if not missing:
            return "the next deal has all its cards: type deal to start it"
        return (
            f"the next deal may be given: {', '.join(missing)}; or start it with the first call (or deal): "
            f"what is not given is derived from the cards played"
        )

    def show(self) -> None:
        """The game at a glance: totals, the deal, whose turn, the trick so far."""
        rec = self.recorder
        seats = "  ".join(
            f"{name} ({seat}): {total:g}"
            for seat, (name, total) in enumerate(zip(rec.players, rec.totals, strict=True))
        )
        self.say(
            f"{rec.ruleset.title}, deal {rec.deal_number}, dealer {rec.players[rec.dealer]} ({rec.dealer})"
        )
        self.say(f"totals: {seats}")
        last = rec.last_trick()
        if last is not None and last.winner is not None:
            cards = " ".join(rec.table.deck.codes[card] for card in last.cards)
            self.say(f"last trick: {cards}, won by {rec.players[last.winner]} ({last.winner})")
        turn = rec.turn
        if turn is not None:
            self.say(
                f"to act: {self.who(turn.seat)}, {' or '.join(sorted(turn.kinds))}; trick so far: {self.trick()}"
            )
        elif rec.current is None and not self.finished():
            self.say(self.next_deal())

    def undo(self) -> None:
        """Take back the last step."""
        try:
            self.say(escape(self.recorder.undo()))
            self.unsaved = True
        except RefusedError as refused:
            self.report("cannot undo", refused.diagnostics)

    def abandon(self) -> None:
        """The deal stops here."""
        live = self.recorder.current
        if live is None:
            self.say("[red]no deal is in progress")
            return
        self.recorder.abandon()
        self.deal_over(live)

    def save(self) -> None:
        """Write the record (atomically)."""
        self.recorder.save(self.out)
        self.unsaved = False
        self.say(f"saved {self.out}")

    # --- what is shown ----------------------------------------------------------------------

    def prompt(self) -> str:
        """Where the deal stands and who acts, e.g. `deal 1, trick 3 [H3 H5] Claire (2) play> `."""
        rec = self.recorder
        live = rec.current
        turn = rec.turn
        if live is None or turn is None:
            missing = self.missing()
            give = f"give {', '.join(missing)} or the first call" if missing else "type deal"
            return f"deal {rec.deal_number}, {give}> "
        where = f"deal {live.number}"
        if live.state.tricks or rec.trick_so_far():
            where += f", trick {len(live.state.tricks) + 1}"
        if rec.trick_so_far():
            where += f" [{self.trick()}]"
        return f"{where} {self.who(turn.seat)} {'/'.join(sorted(turn.kinds))}> "

    def trick(self) -> str:
        """The trick so far as cards."""
        return " ".join(code for _, code in self.recorder.trick_so_far())

    def who(self, seat: int | None) -> str:
        """A seat by name and number."""
        return "any player" if seat is None else f"{self.recorder.players[seat]} ({seat})"

    def scores(self, values: list[int | float]) -> str:
        """Totals as a score sheet shows them."""
        return " ".join(f"{value:g}" for value in values)

    def report(self, what: str, found: list[Diagnostic]) -> None:
        """Diagnostics in plain words, one a line; the trick they are about when it is not the one
        being played (a card that shows an earlier revoke)."""
        live = self.recorder.current
        now = len(live.state.tricks) + 1 if live is not None else None
        for diagnostic in found:
            rule = f" [{diagnostic.rule}]" if diagnostic.rule else ""
            tail = f" (expected: {diagnostic.expected})" if diagnostic.expected else ""
            trick = diagnostic.location.trick
            if trick is not None and trick != now and f"trick {trick}" not in diagnostic.message:
                tail += f" (in trick {trick})"
            self.say(
                f"[red]{what}: {diagnostic.code}{escape(rule)}: {escape(diagnostic.message)}{escape(tail)}"
            )

    def say(self, text: str) -> None:
        """One line of output."""
        self.console.print(text, markup=True)


_STATED = frozenset({"status", "chosen_suit"})
"""Deal fields given with the cards dealt, before the first call: the status (a deal thrown in),
and what the rules check against the cards (Karnöffel's chosen suit: a game that has it starts
the deal with its first call or `deal`, not once every card is given, so that it may follow)."""
_ONE_ACTION = frozenset({"call", "partner_card", "defender_card", "trump", "discard", "defender_discard"})
"""Deal fields whose value is one action as typed (a discard: its cards, played in turn)."""


def _actions(key: str, value: Any) -> list[str] | None:
    """The actions a field of a deal written in the notation holds, in order, as the recorder
    takes them typed (`SEAT: text` for a seat written); None for a field that holds none, or a
    comment or time, which the prompt does not keep."""
    try:
        if key in _ONE_ACTION and isinstance(value, str):
            return [value]
        if key in ("auction", "defence"):
            return [_call(call) for call in value]
        if key == "proposals":
            return [_call(call) for window in value for call in window]
        if key == "tricks" and isinstance(value[0], str):
            return [value[0]]
        if key == "announcements":
            made = value[0]
            words = {
                "poignee": f"poignee {made.get('level')} {made.get('cards')}",
                "misere": f"misere {made.get('kind')}",
            }
            return [
                _seated(
                    made, words.get(made["type"], made["type"]), {"type", "seat", "level", "cards", "kind"}
                )
            ]
        if key == "knocks":
            return [_seated(value[0], "knock", {"seat", "trick", "after"})]
        if key == "claim":
            return [_seated(value, f"claim {value['tricks']}", {"seat", "tricks"})]
    except (TypeError, KeyError, IndexError, ValueError, AttributeError):  # a value of another shape
        return None
    return None


def _call(call: Any) -> str:
    """A call as typed: its words, after its seat when written (`1: raise`)."""
    if isinstance(call, str):
        return call
    return _seated(call, str(call["call"]), {"call", "seat"})


def _seated(item: dict[str, Any], text: str, holds: set[str]) -> str:
    """An action with its seat, if written; ValueError for what the prompt does not keep (a comment)."""
    if set(item) - holds:
        raise ValueError("a comment or time is not kept at the prompt")
    seat = item.get("seat")
    return text if seat is None else f"{seat}: {text}"


def _shown(value: Any) -> str:
    """A value of the record as a message shows it: numbers one space apart, the rest as JSON."""
    if isinstance(value, list) and all(isinstance(item, int | float) for item in value):
        return " ".join(f"{item:g}" for item in value)
    return value if isinstance(value, str) else orjson.dumps(value).decode()


def open_recorder(
    game: str,
    players: list[str] | None,
    options: dict[str, Any],
    journal: Path,
    dealer: int,
    keep_irregular: bool,
) -> tuple[Recorder, list[str]]:
    """Resume from the journal if it exists (it must be of the same game and players), else start
    a new game journaled there. Returns the recorder and what to tell the user. ValueError says why not."""
    if not journal.exists():
        if not players:
            raise ValueError("give the players in seat order: --players Anne,Bruno,Claire,Denis")
        recorder = Recorder(
            game, players, options, dealer=dealer, journal=journal, keep_irregular=keep_irregular
        )
        return recorder, [f"recording {recorder.ruleset.title} in {journal}"]
    try:
        recorder = Recorder.resume(journal, keep_irregular=keep_irregular or None)
    except JournalError as error:
        raise ValueError(str(error)) from None
    asked = Recorder(game, players or recorder.players, options)
    if asked.ruleset.name != recorder.ruleset.name or asked.players != recorder.players:
        recorder.close()
        raise ValueError(
            f"{journal} records {recorder.ruleset.name} by {','.join(recorder.players)}; give the same game and "
            f"players to resume it, or another --journal"
        )
    if options and asked.table.options != recorder.table.options:
        recorder.close()
        raise ValueError(f"{journal} was recorded with other options; leave -o out to resume it")
    notes = [*recorder.warnings, f"resumed from {journal}: deal {recorder.deal_number}"]
    return recorder, notes
