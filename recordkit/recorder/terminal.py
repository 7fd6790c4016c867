"""The interactive `recordkit record` prompt: a scorekeeper types the cards dealt, as far as they are
known (none, or only his own hand), then each call and card as it happens; the recorder checks each
one, and the record is saved after every deal.

Plain lines in and out, so it works the same in a terminal and with piped input (spec/RECORDER.md).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from recordkit.diagnostics import Diagnostic
from recordkit.engine import format_scores
from recordkit.recorder.journal import JournalError
from recordkit.recorder.recorder import Recorder
from recordkit.recorder.refusal import RefusedError

HELP = """\
Type each call, card or announcement as the record writes it (aliases accepted): garde, HK, T21,
pass, 6, raise, "poignee simple T21 T20 ...". Several cards on one line are played in turn (a whole
trick, a discard). "SEAT: ..." says who acts when it is not the seat whose turn it is (2: knock).
Before a deal, give what you know of the cards dealt; the deal starts with the first call, or once
every hand and group is given. A hand not given is derived from the cards it plays.
                hand SEAT CARDS   one seat's hand as dealt (your own, say; any order of seats)
                FIELD CARDS       the game's other deal fields (dog, kitty, faceup)
                status annulled   a deal thrown in by rule (French Tarot's petit sec)
                deal              start the deal now with what was given
                random [SEED]     deal at random (a demonstration)
Commands:       ? or legal        what may be typed now (with a hand not known: what is still possible)
                show              whose turn, the trick so far, the scores
                undo              take back the last step (reopens a finished deal)
                abandon           the deal stops here, not scored
                save              write the record now (it is written after every deal)
                quit              save and leave; run the same command again to resume"""


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
        elif self.recorder.current is None:
            self.deal_line(word, rest.strip(), line)
        else:
            self.act(line)
        return True

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
        self.save()

    # --- the cards dealt --------------------------------------------------------------------

    def deal_line(self, word: str, rest: str, line: str) -> None:
        """One field of the next deal (`hand 2 ...`, `dog ...`, `status annulled`, `random`), `deal`
        to start it with what was given, or its first call, which starts it."""
        if word == "random":
            seed = int(rest) if rest.isdigit() else self.recorder.deal_number
            self.deal(partial(self.recorder.deal_random, random.Random(seed)))
            return
        if word == "deal" and not rest:
            self.deal(lambda: self.recorder.deal(**self.pending))
            return
        fields = self.recorder.deal_fields()
        if word == "hand":
            seat, _, cards = rest.partition(" ")
            players = self.recorder.table.players
            if not seat.isdigit() or int(seat) >= players or not cards.strip():
                self.say(f"[red]write a hand as: hand SEAT CARDS, with a seat from 0 to {players - 1}")
                return
            hands = self.pending.setdefault("hands", [None] * players)
            hands[int(seat)] = cards.strip()
        elif word in fields or word == "status":
            self.pending[word] = rest
        else:
            self.first_call(line)
            return
        if not self.missing():
            self.deal(lambda: self.recorder.deal(**self.pending))

    def first_call(self, line: str) -> None:
        """A deal's first call (or card) typed before it started: the deal starts with the cards
        given so far; if nothing of the line can be recorded, it is taken back, the cards kept."""
        given = {
            name: list(value) if isinstance(value, list) else value for name, value in self.pending.items()
        }
        if not self.deal(lambda: self.recorder.deal(**self.pending), quiet=True):
            return
        live = self.recorder.deals[-1]
        if live.end is not None:  # thrown in at once (annulled): the line is the next deal's
            self.command(line)
            return
        if not self.act(line):
            self.recorder.undo()
            self.pending = given
            self.say(f"deal {live.number} is not started; type ? for what it may be given")
            return
        dealer = self.recorder.players[live.dealt.dealer]
        unknown = "" if not live.partial else ": the cards not given are derived from the play"
        self.say(f"deal {live.number}, dealt by {dealer} ({live.dealt.dealer}), started{unknown}")

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
