"""One line of the recordkit notation read on its own, as the recorder's prompt reads what is typed.

The prompt and a file are one language (spec/NOTATION.md, "At the recorder's prompt"): each line
typed is read by the file reader itself, in a record of the game and players being recorded, and
what it wrote is handed back as the JSON the record would hold (a deal's fields, or the envelope's).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from recordkit.diagnostics import Diagnostic
from recordkit.model import FORMAT_NAME, FORMAT_VERSION
from recordkit.notation.keys import canonical_codes, keywords
from recordkit.notation.read import _Reader


@dataclass(slots=True)
class LineRead:
    """What one line says: for a tag line, the envelope it writes (`game`, `players`, an option, a
    meta tag, the comment); for a deal's line, the fields it writes, in the order written (a hand is
    `hands` with the other seats null, a trick `tricks` of one); `deal` when it is a `deal` line."""

    tags: dict[str, Any] | None = None
    fields: dict[str, Any] = field(default_factory=dict)
    deal: bool = False
    notes: list[Diagnostic] = field(default_factory=list)
    """The reader's findings: errors (NOTATION-*, RECORD-TOO-DEEP: the line is not read) and
    NOTATION-NORMALISED."""


class LineReader:
    """The file reader, one line at a time, in a record of one game and its players."""

    def __init__(self, game: str, players: list[str]) -> None:
        self.game, self.players = game, list(players)
        self.reader = _Reader(None)

    def read(self, text: str, deal_number: int) -> LineRead:
        """Read one line typed while deal `deal_number` (from 1) is in progress or next; a `deal N`
        line is checked against that number."""
        reader = self.reader
        reader.done.clear()
        reader.record = None
        reader._new_record()
        record = reader.record
        assert record is not None
        tag = text.lstrip()[:1] == "["
        if not tag:
            record.data.update(game=self.game, players=list(self.players))
            record.data["deals"] = [{} for _ in range(deal_number - 1)]
            reader.keys, reader.codes = keywords(self.game), canonical_codes(self.game)
            reader.deal = {}
            reader.base = f"deals[{deal_number - 1}]"
        reader.line(1, text)
        record = reader.record
        assert record is not None
        notes = [*record.notes, *([record.refused] if record.refused is not None else [])]
        if tag:
            unset = {"format": FORMAT_NAME, "version": FORMAT_VERSION, "game": None, "deals": []}
            tags = {
                k: v
                for k, v in record.data.items()
                if v not in ([], {}) and (k not in unset or unset[k] != v)
            }
            return LineRead(tags=tags, notes=notes)
        deals = record.data["deals"]
        if len(deals) == deal_number:  # a `deal` line: the deal it starts, with its statements
            return LineRead(fields=deals[-1], deal=True, notes=notes)
        return LineRead(fields=reader.deal or {}, notes=notes)
