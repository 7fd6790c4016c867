"""`recordkit replay`: one deal of the replay model (`recordkit.view.model`) on the terminal, the
contract and dealt groups, each trick with the running points as the rules count them, and the
score with its working. It renders the model only: no rule is counted here."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table as RichTable

from recordkit.engine import format_scores
from recordkit.view.cards import label

DERIVED_MARK = "*"
"""The mark of a hand (or other dealt group) the record leaves out, derived from the tricks."""


def show_deal(out: Console, model: dict[str, Any], number: int, hands: bool = False) -> None:
    """Deal `number` of the record's model: a score sheet's line as such, a deal that could not
    be replayed as such, else its groups, contract, calls, tricks and score; `hands`: each seat's
    hand before each trick too."""
    deal = model["deals"][number - 1]
    names = [f"{seat}:{name}" for seat, name in enumerate(model["players"])]
    title = f"Deal {number} (dealer {names[deal['dealer']]})"
    symbols = (out.encoding or "").lower().replace("-", "").startswith("utf8")
    text = _Text(model["cards"], names, symbols)
    if deal["kind"] == "sheet":
        _show_sheet(out, deal, title)
        return
    if deal["kind"] == "unreplayed":
        out.print("[red]the deal cannot be replayed (see the errors above)")
        return
    _show_groups(out, deal, text)
    _show_contract(out, deal, text)
    _show_tricks(out, deal, text, title)
    if hands:
        _show_hands(out, deal, text)
    _show_end(out, deal, text)


class _Text:
    """Seats and cards as text: names by seat, cards with their symbols where the terminal has them."""

    def __init__(self, faces: dict[str, Any], names: list[str], symbols: bool) -> None:
        self.faces = faces
        self.names = names
        self.symbols = symbols

    def cards(self, codes: Sequence[str | None] | str) -> str:
        """A group of cards (`?` for a card not known)."""
        items = codes.split() if isinstance(codes, str) else codes
        return " ".join("?" if c is None else label(self.faces[c], self.symbols) for c in items)

    def maybe_cards(self, words: str) -> str:
        """A call's text, with its symbols if it names cards (a discard, a called card)."""
        codes = words.split()
        return self.cards(codes) if codes and all(c in self.faces for c in codes) else words

    def suit(self, letter: str) -> str:
        """A suit (or nation) by its letter, with its symbol and name: `H (♥ hearts)`."""
        face = next((f for f in self.faces.values() if f["suit"] == letter), None)
        if face is None:
            return letter
        symbol = f"{face['symbol']} " if self.symbols and face["symbol"] != letter else ""
        return f"{letter} ({symbol}{face['suit_name']})"

    def seat(self, seat: int | None) -> str:
        """A seat by number and name (`-` for none)."""
        return "-" if seat is None else self.names[seat]


def _show_groups(out: Console, deal: dict[str, Any], text: _Text) -> None:
    """The hands and other dealt groups as replayed, those derived from the tricks marked, with
    a line that says so."""
    groups = deal["groups"]
    if not groups:
        return
    view = RichTable(title="Hands as dealt")
    view.add_column("seat")
    view.add_column("cards")
    for group in groups:
        name = text.seat(group["seat"]) if group["seat"] is not None else group["name"]
        view.add_row(
            escape(name) + (f" {DERIVED_MARK}" if group["derived"] else ""), text.cards(group["cards"])
        )
    derived = [g for g in groups if g["derived"]]
    if derived:
        view.caption = f"{DERIVED_MARK} derived from the tricks"
        seats = [text.seat(g["seat"]) for g in derived if g["seat"] is not None]
        others = [g["name"] for g in derived if g["seat"] is None]
        said = ([f"the hands of {', '.join(seats)}"] if seats else []) + [f"the {name}" for name in others]
        out.print(escape(f"derived from the tricks: {'; '.join(said)} (marked {DERIVED_MARK})"))
    out.print(view)
    for unchecked in deal["unchecked"]:
        out.print(escape(f"not checked: {unchecked['code']} ({unchecked['why']})"))


def _show_contract(out: Console, deal: dict[str, Any], text: _Text) -> None:
    """The calls in order, then the contract, declarer, partner and trump by the ruleset's summary."""
    calls: list[list[Any]] = []
    for call in deal["calls"]:
        if calls and call["kind"] == "discard" and calls[-1][:2] == [call["seat"], "discard"]:
            calls[-1][2] += f" {call['text']}"  # a discard is one card a call: shown as one group
        else:
            calls.append([call["seat"], call["kind"], call["text"]])
    if calls:
        said = [f"{text.seat(seat)} {kind} {text.maybe_cards(what)}" for seat, kind, what in calls]
        out.print(escape("calls: " + ", ".join(said)))
    summary = deal["summary"]
    if summary["contract"] is None:
        return
    line = f"contract: {summary['contract']}"
    if summary["declarer"] is not None:
        line += f" by {text.seat(summary['declarer'])}"
        line += f" with {text.seat(summary['partner'])}" if summary["partner"] is not None else ""
    if summary["trump"] is not None:
        line += f"; trump {text.suit(summary['trump'])}"
    out.print(escape(line))


def _show_tricks(out: Console, deal: dict[str, Any], text: _Text, title: str) -> None:
    """Each trick: leader, cards with their seats (and what else happened in it), winner, its
    points, each seat's running points and the sides' (the declarer's side first)."""
    sides = any(t["running_sides"] is not None for t in deal["tricks"])
    view = RichTable(
        title=title, caption="sides: the declaring side's points, the others'" if sides else None
    )
    columns = ["trick", "leader", "cards (from the leader)", "winner", "points", "running points"]
    for column in columns + (["sides"] if sides else []):
        wide = column.startswith("cards")  # the cards wrap; the points stay whole
        view.add_column(column, min_width=18 if wide else None, no_wrap=column in ("running points", "sides"))
    for trick in deal["tricks"]:
        cards = [f"{text.cards([c['code']])}({c['seat']})" for c in trick["cards"]]
        for note in reversed(trick["notes"]):
            cards.insert(note["after"], note["text"])
        running = trick["running"]
        row = [
            str(trick["number"]),
            text.seat(trick["leader"]),
            " ".join(cards),
            text.seat(trick["winner"]),
            "" if trick["points"] is None else f"{trick['points']:g}",
            "" if running is None else " ".join(f"{p:g}" for p in running),
        ]
        if sides:
            both = trick["running_sides"]
            row.append("" if both is None else f"{both['declarer']:g}, {both['others']:g}")
        view.add_row(*map(escape, row))
    out.print(view)


def _show_hands(out: Console, deal: dict[str, Any], text: _Text) -> None:
    """Each seat's hand before each trick (after any exchange), as the engine's replay has them."""
    view = RichTable(title="Hands before each trick")
    view.add_column("trick")
    for name in text.names:
        view.add_column(escape(name))
    for trick in deal["tricks"]:
        if trick["hands"] is not None:
            view.add_row(str(trick["number"]), *(text.cards(hand) for hand in trick["hands"]))
    out.print(view)


def _show_end(out: Console, deal: dict[str, Any], text: _Text) -> None:
    """The deal's end: the declaring side's points, bouts, target and margin, Joffre's captures,
    the working of the score, and the scores by the rules beside the sheet's."""
    summary = deal["summary"]
    if summary["declarer_points"] is not None:
        line = f"declaring side's card points: {summary['declarer_points']:g}"
        if summary["bouts"] is not None:
            line += f" with {summary['bouts']} bout(s)"
        if summary["target"] is not None:
            line += f", target {summary['target']:g}"
        if summary["margin"] is not None:
            margin = summary["margin"]
            line += f": made by {margin:g}" if margin >= 0 else f": down by {-margin:g}"
        out.print(escape(line))
    captures = [
        ("the Joffre taken by", summary["joffre_won_by"]),
        ("the Kaiser taken by", summary["kaiser_won_by"]),
        ("the Joffre captured by the Kaiser from", summary["joffre_captured"]),
    ]
    for what, seat in captures:
        if seat is not None:
            out.print(escape(f"{what} {text.seat(seat)}"))
    if summary["made"] is not None:
        out.print("contract made" if summary["made"] else "contract failed")
    if deal["working"]:
        out.print(escape("working: " + "; ".join(f"{what} {value}" for what, value in deal["working"])))
    _show_scores(out, deal)


def _show_sheet(out: Console, deal: dict[str, Any], title: str) -> None:
    """A score sheet's line: the facts it writes, its scores by the rules and as written."""
    out.print(escape(f"{title}: a score-sheet line; its calls and cards were not recorded"))
    facts = deal["facts"]
    if facts:
        out.print(
            escape("facts on the sheet: " + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in facts.items()))
        )
    _show_scores(out, deal)


def _show_scores(out: Console, deal: dict[str, Any]) -> None:
    """The scores by the rules and on the sheet."""
    scores = deal["scores"]
    if scores["rules"] is not None:
        out.print(f"scores by the rules: {format_scores(scores['rules'])}")
    if scores["written"] is not None:
        out.print(f"scores on the sheet: {format_scores(scores['written'])}")
