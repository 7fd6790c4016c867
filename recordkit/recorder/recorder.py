"""Recording a game live: each action checked by its ruleset as it happens, journaled to disk.

The recorder knows no game. It asks the ruleset whose turn it is and what is legal, has it write
each typed action into the deal's record form (`Ruleset.write_action`) and read it back with
`compile`, and replays it with `advance`, so that an illegal action gets the very diagnostic the
validator gives for it in a record. Finished deals are scored and totalled as the generator does.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import orjson
from pydantic import ValidationError

from recordkit.cards import ascii_upper
from recordkit.codec import dumps
from recordkit.diagnostics import Diagnostic, Severity
from recordkit.games import RULESETS
from recordkit.model import RecordBase
from recordkit.recorder import partial
from recordkit.recorder.journal import Journal, JournalError, read
from recordkit.recorder.live import LiveDeal, Step, diagnostic, errors, in_progress, replay, rewrite
from recordkit.recorder.refusal import RefusedError, refusal, schema_refusal
from recordkit.recorder.shapes import header_problem
from recordkit.rules.base import Ruleset
from recordkit.rules.values import Action, PlayedTrick, Turn
from recordkit.sources import write_atomic

_SEAT_PREFIX = re.compile(r"^\s*(\d+)\s*:\s*(.*)$", re.S)


class Recorder:
    """A game recorded live, deal by deal and action by action, journaled if given a journal path.

    >>> rec = Recorder("joffre", ["Anne", "Bruno", "Claire", "Denis"], journal="game.journal")
    >>> rec.deal(hands=["E7 F7 ...", ...])     # or rec.deal_random(random.Random(1))
    >>> rec.act("6"); rec.act("pass"); rec.legal()

    A deal may start without its hands, or with some (`rec.deal()`, `rec.deal(hands=["E7 F7 ...",
    None, None, None])`): each card is then judged by what the cards seen prove (spec/RECORDER.md).
    """

    def __init__(
        self,
        game: str,
        players: list[str],
        options: dict[str, Any] | None = None,
        *,
        dealer: int = 0,
        journal: str | Path | None = None,
        keep_irregular: bool = False,
        meta: dict[str, Any] | None = None,
    ) -> None:
        problem = header_problem(  # the shapes a journal's header is held to (recorder/shapes.py)
            {
                "game": game,
                "players": players,
                "options": options if options is not None else {},
                "dealer": dealer,
                "keep_irregular": keep_irregular,
                "meta": meta if meta is not None else {},
            }
        )
        if problem is not None:
            raise ValueError(problem)
        ruleset = RULESETS.get(game)
        if ruleset is None:
            raise ValueError(f"unknown game {game!r}; recordkit knows: {', '.join(RULESETS)}")
        try:
            opts = ruleset.Options.model_validate(options or {})
        except ValidationError as error:
            raise ValueError("; ".join(_option_problem(e) for e in error.errors(include_url=False))) from None
        table, problems = ruleset.table(opts, len(players))
        if table is None:
            raise ValueError("; ".join(p.message for p in problems))
        if not 0 <= dealer < len(players):
            raise ValueError(f"the first dealer is a seat from 0 to {len(players) - 1}, not {dealer}")
        self.ruleset: Ruleset[Any, Any, Any] = ruleset
        self.table = table
        self.players = list(players)
        self.keep_irregular = keep_irregular
        self.meta: dict[str, Any] = meta if meta is not None else {"source": "recordkit record"}
        self.first_dealer = dealer
        self.warnings: list[str] = []
        """What resuming found in the journal: a last entry cut short by a crash."""
        self._deals: list[LiveDeal] = []
        self._groups: list[str] | None = None
        self._replaying = False
        self._journal: Journal | None = None
        if journal is not None:
            header = {
                "game": game,
                "players": self.players,
                "options": opts.model_dump(mode="json"),
                "dealer": dealer,
                "keep_irregular": keep_irregular,
                "meta": self.meta,
            }
            self._journal = Journal.create(Path(journal), header)

    # --- resuming ---------------------------------------------------------------------------

    @classmethod
    def resume(cls, journal: str | Path, keep_irregular: bool | None = None) -> Recorder:
        """The recorder exactly as it was after the last entry of its journal, appending to it again.

        A last entry cut short by a crash is dropped (see `warnings`); anything else unreadable is a
        JournalError naming the line."""
        path = Path(journal)
        contents = read(path)
        header = contents.header
        try:
            recorder = cls(
                header["game"],
                header["players"],
                header.get("options"),
                dealer=header.get("dealer", 0),
                keep_irregular=header.get("keep_irregular", False)
                if keep_irregular is None
                else keep_irregular,
                meta=header.get("meta"),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise JournalError(f"{path}, line 1: the header does not start a game: {error}") from None
        recorder.warnings = list(contents.warnings)
        recorder._replaying = True
        for number, entry in zip(contents.lines, contents.entries, strict=True):
            try:
                recorder._replay(entry)
            except (RefusedError, KeyError, TypeError) as error:
                raise JournalError(f"{path}, line {number} ({_shortened(entry)}): {error}") from None
        recorder._replaying = False
        recorder._journal = Journal.reopen(path, contents)
        return recorder

    def _replay(self, entry: dict[str, Any]) -> None:
        """Carry out one journal entry through the same steps as when it was recorded."""
        if "deal" in entry:
            self._start_deal(entry["deal"])
        elif "act" in entry:
            self._act_one(entry["act"], entry.get("seat"))
        elif "undo" in entry:
            self._undo()
        elif "meta" in entry:
            self.meta.update(entry["meta"])
        else:  # the journal checked that an entry is one of the four kinds
            self._abandon()

    # --- where the game stands --------------------------------------------------------------

    @property
    def current(self) -> LiveDeal | None:
        """The deal in progress, if any."""
        return self._deals[-1] if self._deals and self._deals[-1].end is None else None

    @property
    def deals(self) -> list[LiveDeal]:
        """Every deal so far, the one in progress last."""
        return list(self._deals)

    @property
    def deal_number(self) -> int:
        """The number of the deal in progress, or of the next one (from 1)."""
        return len(self._deals) + (0 if self.current is not None else 1)

    @property
    def dealer(self) -> int:
        """Who deals the deal in progress, or the next one, by the game's rotation."""
        if self.current is not None:
            return int(self.current.dealt.dealer)
        if not self._deals:
            return self.first_dealer
        last = self._deals[-1]
        return self.ruleset.next_dealer(self.table, last.dealt.dealer, last.state)

    @property
    def totals(self) -> list[int | float]:
        """The running totals after the last finished deal."""
        finished = [d for d in self._deals if d.end is not None]
        return finished[-1].totals() if finished else [0] * self.table.players

    @property
    def over(self) -> bool:
        """True once the game has been won (the rules' target reached); games of a fixed number of
        deals never end by themselves."""
        if not self._deals or self._deals[-1].end is None:
            return False
        return self.ruleset.game_over(self.table, self.totals, self._deals[-1].state)

    @property
    def turn(self) -> Turn | None:
        """Whose turn it is in the deal in progress and what kinds of action are open; None between deals."""
        live = self.current
        return self.ruleset.turn(live.state) if live is not None else None

    @property
    def flags(self) -> list[Diagnostic]:
        """Every irregularity recorded so far (kept by keep_irregular), deal by deal."""
        return [flag for live in self._deals for flag in live.flags]

    def known(self, seat: int) -> bool:
        """Whether the seat's hand as dealt is known in the deal in progress (given when it started)."""
        live = self.current
        return live is None or not live.partial or partial.known(self.ruleset, self.table, live, seat)

    def legal_actions(self) -> list[Action]:
        """The legal actions now, as the ruleset gives them; in a deal without some of its hands,
        every action still possible by the cards seen (each one tried as `act` would judge it)."""
        live = self.current
        if live is None:
            return []
        if not live.partial:
            return self.ruleset.legal(live.state)
        return [a for a in partial.candidates(self.ruleset, self.table, live) if self._possible(live, a)]

    def legal(self) -> list[str]:
        """The legal actions now in record notation, `SEAT: ` first when another seat than the one
        whose turn it is may act; each is accepted as it is by `act`."""
        return [self.notation(action) for action in self.legal_actions()]

    def notation(self, action: Action) -> str:
        """An action as it is typed: its record notation, after its seat when not the turn's."""
        text = self.ruleset.describe(self.table, action)
        turn = self.turn
        if action.seat is not None and (turn is None or turn.seat != action.seat):
            return f"{action.seat}: {text}"
        return text

    def trick_so_far(self) -> list[tuple[int | None, str]]:
        """The cards of the trick in progress as (seat, code), in play order."""
        live = self.current
        if live is None:
            return []
        number = len(live.state.tricks) + 1
        return [
            (seat, self.table.deck.codes[action.value])
            for action, seat in zip(live.actions, live.actors, strict=True)
            if action.kind == "play" and action.trick == number
        ]

    def last_trick(self) -> PlayedTrick | None:
        """The last finished trick of the deal in progress."""
        live = self.current
        tricks: list[PlayedTrick] = live.state.tricks if live is not None else []
        return tricks[-1] if tricks else None

    def deal_fields(self) -> list[str]:
        """The fields of a deal as dealt (`hands`, and the dog, kitty or face-up cards the game has):
        what `deal` takes before the first call, each one if known. Read from a shuffled deal."""
        if self._groups is None:
            sample = self.ruleset.deal_random(self.table, 0, random.Random(0))
            dumped = sample.model_dump(mode="json", exclude_defaults=True, exclude_none=True)
            self._groups = [name for name in dumped if name not in ("dealer", "status")]
        return list(self._groups)

    # --- recording --------------------------------------------------------------------------

    def deal(self, **fields: Any) -> list[Diagnostic]:
        """Start the next deal with the cards as dealt, as far as they are known: `hands` (one card
        group per seat, None for a hand not known; left out when none is) and the game's other
        deal fields (`dog`, `kitty`, `faceup`...; left out when not known), `status="annulled"`
        for a deal thrown in by rule. Returns the irregularities kept; RefusedError if the deal is
        not allowed."""
        try:
            fields = orjson.loads(orjson.dumps(fields))
        except TypeError:
            raise refusal("a deal's fields are card groups written as text or lists of codes") from None
        flags = self._start_deal(fields)
        self._log({"deal": fields})
        return flags

    def deal_random(self, rng: random.Random) -> list[Diagnostic]:
        """Start the next deal with cards shuffled by the ruleset (for demonstrations and tests)."""
        dealt = self.ruleset.deal_random(self.table, self.dealer, rng)
        dumped = dealt.model_dump(mode="json", exclude_none=True)
        wanted = self.deal_fields()
        fields = {k: v for k, v in dumped.items() if k in wanted or (k == "status" and v != "played")}
        return self.deal(**fields)

    def act(self, text: str, seat: int | None = None) -> list[Diagnostic]:
        """Record what was typed: one action in record notation (`garde`, `HK`, `2: poignee simple
        ...`), or several cards at once (a whole trick, a discard), each checked in turn.

        Returns the irregularities kept (with keep_irregular). Raises RefusedError, with the validator's
        diagnostics, for an illegal action; the cards of a line before it stay recorded."""
        typed = _SEAT_PREFIX.match(text)
        if typed is not None:
            seat, text = int(typed[1]), typed[2]
        text = text.strip()
        if not text:
            raise refusal("nothing to record: type a call, a card or an announcement")
        words = text.replace(",", " ").split()
        parts = words if len(words) > 1 and all(self.is_card(w) for w in words) else [text]
        flags: list[Diagnostic] = []
        for done, part in enumerate(parts):
            try:
                flags += self._act_one(part, seat)
            except RefusedError as refused:
                raise RefusedError(refused.diagnostics, done, refused.why) from None
            self._log({"act": part} if seat is None else {"act": part, "seat": seat})
        return flags

    def undo(self) -> str:
        """Take back the last step (an action, an abandon, or the deal itself if nothing was played
        in it); a finished deal is reopened. Returns what was undone, in words."""
        done = self._undo()
        self._log({"undo": True})
        return done

    def tag(self, name: str, value: str | int | float | bool) -> None:
        """Set one of the record's meta tags (`event`, `date`...): the notation's tag lines typed at
        the prompt. Journaled, so that resuming keeps it."""
        self.meta[name] = value
        self._log({"meta": {name: value}})

    def abandon(self) -> None:
        """The deal in progress stops here: it is kept as played so far, marked abandoned, not scored."""
        self._abandon()
        self._log({"abandon": True})

    def record(self, current: bool = True) -> RecordBase:
        """The record of the game so far; the deal in progress (with `current`) is written as
        abandoned, the journal keeping it open."""
        deals = [live.final for live in self._deals if live.final is not None]
        live = self.current
        if current and live is not None:
            deals.append(in_progress(live.written))
        return self.ruleset.Record(
            game=self.ruleset.name,
            players=self.players,
            options=self.table.options,
            meta=self.meta,
            deals=deals,
        )

    def save(self, path: str | Path, current: bool = True) -> None:
        """Write the record atomically: one indented record for .json, one line for .jsonl."""
        target = Path(path)
        record = self.record(current)
        text = dumps(record, indent=True) if target.suffix.lower() == ".json" else dumps(record) + "\n"
        write_atomic(target, text.encode())

    def close(self) -> None:
        """Close the journal (every entry is already on disk)."""
        if self._journal is not None:
            self._journal.close()
            self._journal = None

    # --- the steps, shared by recording and resuming ----------------------------------------

    def _log(self, entry: dict[str, Any]) -> None:
        """Append an accepted step to the journal (on disk before returning)."""
        if self._journal is not None:
            self._journal.append(entry)

    def _start_deal(self, fields: dict[str, Any]) -> list[Diagnostic]:
        """Check the cards dealt with the ruleset and open the deal (closed at once if annulled);
        a deal without some of its cards is checked by the engine as a partial deal."""
        if self.current is not None:
            raise refusal(f"deal {self.current.number} is in progress: finish it, abandon it or undo")
        if self.over:
            raise refusal("the game is over: its target has been reached")
        if "dealer" in fields:
            raise refusal(f"the dealer follows the rotation of the game: seat {self.dealer} deals")
        number = len(self._deals) + 1
        try:
            dealt = self.ruleset.Deal.model_validate({"dealer": self.dealer, **fields})
        except ValidationError as error:
            raise RefusedError(schema_refusal(error, number)) from None
        live = LiveDeal(number, dealt, self.totals, None, groups=self.deal_fields())
        live.partial = bool(self.ruleset.unknown(self.table, dealt))
        if live.partial:
            rewrite(self.ruleset, self.table, live)
            judged = partial.judge(self.ruleset, self.table, live, live.written)
            if judged.unreadable:
                raise RefusedError(judged.unreadable)
            found = judged.findings
            self._judge(found)
            partial.adopt(live, judged)
        else:
            live.state, problems = self.ruleset.start(self.table, dealt, self.totals)
            found = [diagnostic(v, number) for v in problems]
            self._judge(found)
            rewrite(self.ruleset, self.table, live)
        live.flags += found
        self._deals.append(live)
        live.flags += self._close_if_over(live)
        return live.flags

    def _act_one(self, text: str, seat: int | None) -> list[Diagnostic]:
        """Write one typed action into the deal, read it back with `compile`, judge it with `advance`
        (a partial deal: by the engine's replay of the deal so far); a refusal leaves the deal as
        it was."""
        live = self.current
        if live is None:
            raise refusal(
                "no deal is in progress: deal the cards first" if not self.over else "the game is over"
            )
        if live.partial:
            return self._act_partial(live, text, seat)
        try:
            written = self.ruleset.write_action(self.table, live.written, live.state, text, seat)
        except ValidationError as error:
            raise RefusedError(schema_refusal(error, live.number)) from None
        compiled, problems = self.ruleset.compile(self.table, in_progress(written))
        unreadable = [diagnostic(v, live.number) for v in problems if v.severity == Severity.ERROR]
        if unreadable:
            raise RefusedError(unreadable)
        before = len(live.compiled)
        if len(compiled) <= before or any(
            (a.kind, a.value) != (b.kind, b.value) for a, b in zip(compiled, live.compiled, strict=False)
        ):
            raise refusal(f"{text!r} cannot be written in the record at this point of the deal")
        new = compiled[before:]
        actors: list[int | None] = []
        found: list[Diagnostic] = []
        for action in new:
            turn = self.ruleset.turn(live.state)
            if action.seat is None and action.kind != "play":
                action.seat = turn.seat if turn is not None else None
            if action.kind == "play" and seat is not None and turn is not None and turn.seat != seat:
                replay(self.ruleset, self.table, live)
                raise refusal(f"it is seat {turn.seat}'s turn to play, not seat {seat}'s")
            found += [diagnostic(v, live.number) for v in self.ruleset.advance(live.state, action)]
            actors.append(action.seat if action.seat is not None else turn.seat if turn is not None else None)
        try:
            self._judge(found)
        except RefusedError:
            replay(self.ruleset, self.table, live)
            raise
        live.actions += new
        live.actors += actors
        live.steps.append(Step(text, seat, len(new), found))
        live.flags += found
        rewrite(self.ruleset, self.table, live)
        self._close_if_over(live)
        return found

    def _act_partial(self, live: LiveDeal, text: str, seat: int | None) -> list[Diagnostic]:
        """One typed action in a deal without some of its hands: refused when the engine's replay
        of the deal so far finds something new in it, but for the checks the action makes possible
        for the first time (they need whole hands): those are the end of the deal's full check,
        reported and kept."""
        attempt = self._attempt(live, text, seat)
        if errors(attempt.refused) and not (self.keep_irregular or self._replaying):
            why = partial.explain(self.table, live, attempt.new[0], attempt.actors[0], attempt.refused)
            raise RefusedError(partial.errors_of(attempt.refused), why=why)
        live.actions += attempt.new
        live.actors += attempt.actors
        partial.adopt(live, attempt.judged)
        rewrite(self.ruleset, self.table, live)
        reported = attempt.reported + self._close_if_over(live)
        found = attempt.refused + reported
        live.steps.append(Step(text, seat, len(attempt.new), found, reported))
        live.flags += found
        return found

    def _attempt(self, live: LiveDeal, text: str, seat: int | None) -> partial.Attempt:
        """What an action typed in a partial deal would give, the deal left as it is."""
        try:
            written = self.ruleset.write_action(self.table, live.written, live.state, text, seat)
        except ValidationError as error:
            raise RefusedError(schema_refusal(error, live.number)) from None
        return partial.attempt(self.ruleset, self.table, live, written, text, seat)

    def _possible(self, live: LiveDeal, action: Action) -> bool:
        """Whether an action would be accepted now in a partial deal, as `act` would judge it."""
        turn = self.ruleset.turn(live.state)
        seat = (
            action.seat if action.seat is not None and turn is not None and turn.seat != action.seat else None
        )
        try:
            attempt = self._attempt(live, self.ruleset.describe(self.table, action), seat)
        except RefusedError:
            return False
        return not errors(attempt.refused)

    def _judge(self, found: list[Diagnostic]) -> None:
        """Refuse what breaks a rule, unless irregularities are kept (or were, when it was journaled)."""
        if errors(found) and not (self.keep_irregular or self._replaying):
            raise RefusedError(found)

    def _close_if_over(self, live: LiveDeal) -> list[Diagnostic]:
        """Once the rules say the deal is over: score it and write its result and running totals.
        A partial deal gets the engine's full check, on the hands derived from the play: what it
        finds beyond what the deal so far had is returned, to be reported."""
        if self.ruleset.turn(live.state) is not None:
            return []
        found: list[Diagnostic] = []
        if live.partial:
            deal, judged = partial.final(self.ruleset, self.table, live, live.actions)
            found = partial.news(live.findings, judged.findings)
            if judged.replay.replayed:
                partial.adopt(live, judged)
        else:
            deal = self.ruleset.record_deal(self.table, live.dealt.model_copy(deep=True), live.actions)
            scores = self.ruleset.score(live.state)
            if scores is not None:
                deal.result = self.ruleset.result(scores)
        line = list(deal.result.scores) if deal.result is not None else [0] * self.table.players
        deal.totals = [t + s for t, s in zip(live.before, line, strict=True)]
        live.final = deal
        live.end = "played"
        return found

    def _undo(self) -> str:
        """Take back the last step of the last deal (see `undo`)."""
        if not self._deals:
            raise refusal("nothing to undo")
        live = self._deals[-1]
        if live.end == "abandoned":
            live.end, live.final = None, None
            return f"deal {live.number} is no longer abandoned"
        if not live.steps:
            self._deals.pop()
            return f"deal {live.number} is taken back: its cards are to be dealt again"
        live.end, live.final = None, None
        step = live.steps.pop()
        keep = len(live.actions) - step.actions
        del live.actions[keep:]
        del live.actors[keep:]
        for flag in step.flags:
            live.flags.remove(flag)
        if live.partial:
            partial.restore(self.ruleset, self.table, live)
        else:
            replay(self.ruleset, self.table, live)
            rewrite(self.ruleset, self.table, live)
        return f"{step.text!r} is taken back" + ("" if step.seat is None else f" (seat {step.seat})")

    def _abandon(self) -> None:
        """Close the deal in progress as abandoned, totals unchanged."""
        live = self.current
        if live is None:
            raise refusal("no deal is in progress")
        deal = in_progress(live.written)
        deal.totals = list(live.before)
        live.final = deal
        live.end = "abandoned"

    def is_card(self, word: str) -> bool:
        """Whether a word is a card code of this game (aliases included)."""
        return ascii_upper(word) in self.table.deck.index


def _shortened(entry: dict[str, Any]) -> str:
    """A journal entry as a message quotes it: its JSON, cut after 60 characters."""
    text = orjson.dumps(entry).decode()
    return text if len(text) <= 60 else text[:57] + "..."


def _option_problem(item: Any) -> str:
    """An option error in plain words."""
    name = ".".join(str(part) for part in item["loc"])
    if item["type"] == "extra_forbidden":
        return f"unknown option {name!r}"
    return f"option {name}: {item['msg']}"
