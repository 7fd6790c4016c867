"""TarotClub's played-deal logs as French Tarot records (spec/IMPORT.md).

A log is the JSON object TarotClub writes at the end of a deal (`version` "3", `deal_info` with
the taker, the contract, the slam, the first leader, the dog and the two poignées, and `tricks`,
each trick its cards from the leader), or the `EndOfDeal` message its server sends, which wraps
that object in `deal` beside the card points, bouts and bonuses it counted. The log holds no
hands: the record leaves them out and the rules derive them from the tricks. A log that cannot be
read is a diagnostic (`IMPORT-TAROTCLUB`) naming the file and the key, never an exception, and the
other logs are still read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from recordkit.diagnostics import Diagnostic, Location, Severity, describe
from recordkit.engine import replay_deal
from recordkit.jsonread import MAX_RECORD_BYTES, too_large
from recordkit.model import FORMAT_VERSION, POINTS_LIMIT
from recordkit.raw import RawRecord, json_error
from recordkit.rules.french_tarot import FrenchTarot
from recordkit.rules.french_tarot.options import TarotOptions
from recordkit.rules.french_tarot.record import TarotDeal
from recordkit.rules.french_tarot.scoring import POIGNEE_LEVELS, POIGNEE_THRESHOLDS
from recordkit.rules.values import Table

CODE = "IMPORT-TAROTCLUB"
RULE = "format.import"
LOG_VERSIONS = ("3", "2.0")
"""The deal-log versions read: 3 (Deal.cpp, TarotContext.cpp: DEAL_RESULT_FILE_VERSION) and the
2.0 that TarotClub 2.3 wrote (the players' names, no dog or poignées)."""
SIDES = ("attack", "defense")
"""The two poignées a log writes: `attack_handle`, `defense_handle`."""
SEATS = ("South", "East", "North", "West", "Fifth")
"""TarotClub's places in its order of play (Place::Next): recordkit's seats 0 to 4."""
CONTRACTS = {
    "take": "petite",
    "guard": "garde",
    "guard without": "garde_sans",
    "guard against": "garde_contre",
    "prise": "petite",
    "garde": "garde",
    "garde sans": "garde_sans",
    "garde contre": "garde_contre",
}
"""TarotClub's contract names (Contract::ToString, and the French names) as recordkit's calls."""
TRICKS = {3: 24, 4: 18}
"""Tricks in a deal by number of players; five is refused (the log does not name the called King)."""
HONOURS = {11: "J", 12: "N", 13: "Q", 14: "K"}
"""TarotClub's face values (Card.cpp: points 0.5 + value - 10) as recordkit's rank letters."""
TARGETS = (56, 51, 41, 36)
"""The points the attack needs with 0 to 3 bouts (Common.cpp, Tarot::PointsToDo)."""
PETIT_SIDES = {0: "attack", 1: "defence"}
"""`little_bonus` of an EndOfDeal message: TarotClub's Team numbers (Common.cpp)."""
RULESET = FrenchTarot()
TRAILING_COMMA = re.compile(rb",(\s*[}\]])")
"""A comma left before a closing brace or bracket, which TarotClub's JsonReader accepts."""
PASSED = "not in the logs: everybody passed and TarotClub dealt again without writing a log"
DECK = 78
"""The cards of a Tarot deck: no deck string of a log (a trick, the dog, a poignée) holds more."""
SHOWN = 40
"""The most characters of a log's value a message quotes."""


STATED_KEYS = {
    "result.bouts": "oudlers",
    "result.points": "points",
    "result.petit_au_bout": "little_bonus",
    "result.slam": "slam_bonus",
}
"""The key of an EndOfDeal message that states each fact of the score sheet."""


class LogError(Exception):
    """A log that is not a TarotClub deal log: the key at fault and why, in plain words."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(message)
        self.path = path
        self.message = message


@dataclass(frozen=True, slots=True)
class Imported:
    """One log read: its number of players and its deal in the record format."""

    file: str
    players: int
    deal: dict[str, Any]
    taker: int
    contract: str
    slam: bool
    names: tuple[str, ...] | None = None


def log_error(file: str, path: str | None, message: str) -> Diagnostic:
    """IMPORT-TAROTCLUB at a file and a key of the log (named in the message too, as the text
    form of a place shows no path)."""
    text = f"{path}: {message}" if path else message
    return Diagnostic(CODE, Severity.ERROR, text, Location(file=file, path=path or None), rule=RULE)


def read_log(path: Path) -> Imported | Diagnostic:
    """One log file read as a deal, or why it cannot be."""
    file = str(path)
    try:
        with path.open("rb") as handle:
            content = handle.read(MAX_RECORD_BYTES + 1)
    except OSError as error:
        return Diagnostic(
            "FILE-UNREADABLE", Severity.ERROR, f"cannot read the file: {error.strerror}", Location(file=file)
        )
    if len(content) > MAX_RECORD_BYTES:  # a deal's log takes a few kB
        return too_large(Location(file=file))
    try:
        data = orjson.loads(content)
    except orjson.JSONDecodeError as error:
        try:  # TarotClub's own reader takes a comma before a closing brace; so does the import
            data = orjson.loads(TRAILING_COMMA.sub(rb"\1", content))
        except orjson.JSONDecodeError:
            return json_error(error, content, Location(file=file))
    try:
        return deal_of(data, file)
    except LogError as error:
        return log_error(file, error.path, error.message)


def deal_of(data: Any, file: str) -> Imported:
    """A log's JSON as a deal of the record format (LogError when it is not a TarotClub log)."""
    envelope = _object(data, "", "a TarotClub deal log is a JSON object")
    if "FirstPlayer" in envelope and "Dog" in envelope:
        raise LogError(
            "",
            "this is a TarotClub deal file (the hands to deal, written by its deal editor), "
            "not the log of a played deal",
        )
    log = _object(envelope["deal"], "deal", "the deal is an object") if "deal" in envelope else envelope
    prefix = "deal." if log is not envelope else ""
    if log.get("version") not in LOG_VERSIONS:
        raise LogError(
            f"{prefix}version",
            f"the log's version is {_shown(log.get('version'))}; TarotClub writes version 3 (2.0 before)",
        )
    info = _object(log.get("deal_info"), f"{prefix}deal_info", "deal_info is missing or not an object")
    where = f"{prefix}deal_info."
    names = _names(info, where)
    players = _players(info, names, where)
    taker = _seat(info.get("taker"), players, f"{where}taker")
    leader = _seat(info.get("first_trick_lead"), players, f"{where}first_trick_lead")
    contract = _contract(info.get("contract"), f"{where}contract")
    slam = info.get("slam")
    if not isinstance(slam, bool):
        raise LogError(f"{where}slam", f"the slam is true or false, not {_shown(slam)}")
    dealer = ((taker if slam else leader) - 1) % players
    deal: dict[str, Any] = {
        "dealer": dealer,
        "auction": auction(dealer, taker, contract, players),
        "announcements": [{"type": "slam", "seat": taker}] if slam else [],
        "tricks": _tricks(log.get("tricks"), players, f"{prefix}tricks"),
        "comment": f"TarotClub log {Path(file).name}: {info['contract'].strip()} by {SEATS[taker]}",
    }
    dog = _cards(info.get("dog", ""), f"{where}dog")
    if dog:  # an empty or missing dog is left for the rules to derive
        deal = {"dealer": dealer, "dog": " ".join(dog)} | deal
    handles = [(side, _cards(info.get(f"{side}_handle", ""), f"{where}{side}_handle")) for side in SIDES]
    deal["announcements"] += _poignees(deal, players, taker, handles, where)
    stated = _stated(envelope, info, where) if log is not envelope else _stated_in_info(info, where)
    if stated is not None:
        deal["result"] = _result(stated, deal, players, taker, contract)
    else:
        scores = replay_deal(RULESET, _table(players), TarotDeal.model_validate(deal)).scores
        if scores is not None:
            deal["result"] = {"scores": list(scores)}
            deal["comment"] += "; the log states no score: these are the rules' own"
    return Imported(file, players, deal, taker, contract, slam, names)


def _names(info: dict[str, Any], where: str) -> tuple[str, ...] | None:
    """The players' names a version 2.0 log writes (`players`, in TarotClub's place order)."""
    names = info.get("players")
    if names is None:
        return None
    if not isinstance(names, list) or not all(isinstance(name, str) and name.strip() for name in names):
        raise LogError(f"{where}players", "the players are a list of names")
    return tuple(names)


def _players(info: dict[str, Any], names: tuple[str, ...] | None, where: str) -> int:
    """The number of players: `number_of_players` (version 3), or the names (version 2.0)."""
    players = info.get("number_of_players", len(names) if names is not None else None)
    if players == 5:
        raise LogError(
            f"{where}number_of_players",
            "a five-player log does not say which King the taker called, so its deal cannot be scored",
        )
    if type(players) is not int or players not in TRICKS:
        raise LogError(
            f"{where}number_of_players",
            f"the number of players is {_shown(players)}: TarotClub plays 3, 4 or 5",
        )
    if names is not None and len(names) != players:
        raise LogError(f"{where}players", f"{len(names)} names for {players} players")
    return players


def auction(dealer: int, taker: int, contract: str, players: int) -> list[str]:
    """The auction as the log allows it: the taker's contract, and a pass from every other seat
    (the log keeps only the contract: a lower bid before it is written as a pass)."""
    return [contract if (dealer + 1 + i) % players == taker else "pass" for i in range(players)]


def _object(value: Any, path: str, message: str) -> dict[str, Any]:
    """`value` when it is a JSON object, else LogError."""
    if not isinstance(value, dict):
        raise LogError(path, message)
    return value


def _shown(value: Any) -> str:
    """A value of the log as a message quotes it: a text or number as written (cut short), a
    list or an object by its kind (which no nesting, however deep, keeps from being said)."""
    if value is None:
        return "missing"
    if isinstance(value, (dict, list)) or (isinstance(value, int) and abs(value) >= 2**63):
        return describe(value)
    return orjson.dumps(value[:SHOWN] if isinstance(value, str) else value).decode()[:SHOWN]


def _seat(value: Any, players: int, path: str) -> int:
    """A TarotClub place name as a seat of this table."""
    if isinstance(value, str) and value in SEATS[:players]:
        return SEATS.index(value)
    raise LogError(
        path, f"{_shown(value)} is not a place at {players} players ({', '.join(SEATS[:players])})"
    )


def _contract(value: Any, path: str) -> str:
    """TarotClub's contract name as a recordkit call; Pass is no contract (TarotClub redeals)."""
    if isinstance(value, str) and value.strip().lower() in CONTRACTS:
        return CONTRACTS[value.strip().lower()]
    raise LogError(path, f"{_shown(value)} is not a contract (Take, Guard, Guard without, Guard against)")


def card_code(text: str, path: str) -> str:
    """TarotClub's card name (`14-H`, `00-T`: value, dash, suit of SHDCT) as a recordkit code."""
    value, dash, suit = text[:2], text[2:3], text[3:]
    if len(text) != 4 or dash != "-" or not value.isdigit() or suit not in "SHDCT" or not suit:
        raise LogError(path, f"{_shown(text)} is not a TarotClub card (two digits, a dash, S H D C or T)")
    number = int(value)
    if suit == "T" and number <= 21:
        return f"T{number}" if number else "EX"
    if suit != "T" and 1 <= number <= 14:
        return f"{suit}{HONOURS.get(number, number)}"
    raise LogError(path, f"{text} is not a card: suits go from 01 to 14, trumps from 00 (the Excuse) to 21")


def _cards(value: Any, path: str) -> list[str]:
    """A TarotClub deck string (names separated by semicolons) as recordkit codes."""
    if not isinstance(value, str):
        raise LogError(path, f'the cards are a text like "14-H;00-T", not {_shown(value)}')
    names = [name.strip() for name in value.split(";") if name.strip()]
    if len(names) > DECK:
        raise LogError(path, f"more cards than the {DECK} of a Tarot deck")
    return [card_code(name, path) for name in names]


def _tricks(value: Any, players: int, path: str) -> list[str]:
    """The log's tricks, each its cards from the leader, as recordkit tricks."""
    if not isinstance(value, list):
        raise LogError(path, "the tricks are a list of texts, one a trick")
    if len(value) != TRICKS[players]:
        raise LogError(path, f"{len(value)} tricks: a deal at {players} players has {TRICKS[players]}")
    tricks = []
    for number, trick in enumerate(value):
        cards = _cards(trick, f"{path}[{number}]")
        if len(cards) != players:
            raise LogError(f"{path}[{number}]", f"trick {number + 1} has {len(cards)} cards, not {players}")
        tricks.append(" ".join(cards))
    return tricks


def _table(players: int) -> Table:
    """The table of the imported records: the default options (TarotClub's readings, IMPORT.md)."""
    table, _ = RULESET.table(TarotOptions(), players)
    assert table is not None
    return table


def _poignees(
    deal: dict[str, Any], players: int, taker: int, handles: list[tuple[str, list[str]]], where: str
) -> list[dict[str, Any]]:
    """The log's poignées with their seats: the attack's is the taker's; the defence's is the
    defender's whose cards (derived from the tricks) hold it."""
    shown = [(side, cards) for side, cards in handles if cards]
    if not shown:
        return []
    replay = replay_deal(RULESET, _table(players), TarotDeal.model_validate(deal))
    hands = replay.completion.deal.hands if replay.completion is not None else None
    poignees = []
    for side, cards in shown:
        path = f"{where}{side}_handle"
        if len(cards) not in POIGNEE_THRESHOLDS[players]:
            raise LogError(
                path,
                f"a poignée of {len(cards)} trumps: at {players} players it has "
                + ", ".join(map(str, POIGNEE_THRESHOLDS[players])),
            )
        seat = taker if side == "attack" else _holder(hands, set(cards), taker, path)
        level = POIGNEE_LEVELS[POIGNEE_THRESHOLDS[players].index(len(cards))]
        poignees.append({"type": "poignee", "seat": seat, "level": level, "cards": " ".join(cards)})
    return poignees


def _holder(hands: list[str | None] | None, cards: set[str], taker: int, path: str) -> int:
    """The defender whose hand, derived from the tricks, holds every card of a poignée."""
    for seat, hand in enumerate(hands or []):
        if seat != taker and hand is not None and cards <= set(hand.split()):
            return seat
    raise LogError(path, "no defender played every trump of the defence's poignée")


@dataclass(frozen=True, slots=True)
class Stated:
    """What a log states of the deal's outcome: the attack's card points and bouts, the side
    that took the Petit au bout and whether a slam was made (EndOfDeal), or the score of each
    defender as TarotClub counted it (`deal_info.score`)."""

    points: int
    bouts: int
    petit: str | None = None
    slam_done: bool | None = None
    score: int | None = None


def _whole(source: dict[str, Any], key: str, path: str) -> int:
    """A whole number the log states, within what a record holds (a wrong count is then checked
    against the tricks; one beyond the record's limit could not even be written down)."""
    value = source.get(key)
    if type(value) is not int:
        raise LogError(path, f"{key} is a whole number, not {_shown(value)}")
    if abs(value) > POINTS_LIMIT:
        raise LogError(
            path, f"{key} is {_shown(value)}: a record holds counts up to {POINTS_LIMIT:,} either way"
        )
    return value


def _stated(envelope: dict[str, Any], info: dict[str, Any], where: str) -> Stated:
    """The outcome an EndOfDeal message states beside its deal (PlayingTable.cpp)."""
    petit = envelope.get("little_bonus", 255)
    if type(petit) is not int:
        raise LogError("little_bonus", f"little_bonus is a team number (0, 1 or 255), not {_shown(petit)}")
    done = envelope.get("slam_bonus", False)
    if not isinstance(done, bool):
        raise LogError("slam_bonus", f"slam_bonus is true or false (a slam was made), not {_shown(done)}")
    return Stated(
        _whole(envelope, "points", "points"),
        _whole(envelope, "oudlers", "oudlers"),
        PETIT_SIDES.get(petit),
        done,
    )


def _stated_in_info(info: dict[str, Any], where: str) -> Stated | None:
    """The outcome a log's `deal_info.score` states (TarotClub 2.3 and some version 3 logs)."""
    if "score" not in info:
        return None
    score = _object(info["score"], f"{where}score", "the score is an object")
    path = f"{where}score."
    return Stated(
        _whole(score, "attacker_points", f"{path}attacker_points"),
        _whole(score, "oudlers", f"{path}oudlers"),
        score=_whole(score, "attacker_score", f"{path}attacker_score"),
    )


def _result(stated: Stated, deal: dict[str, Any], players: int, taker: int, contract: str) -> dict[str, Any]:
    """The score-sheet facts a log states, with its scores: validation checks each against the
    tricks. The scores are TarotClub's when it states them (`attacker_score`, each defender's
    share), else the rules' for the facts stated."""
    facts: dict[str, Any] = {
        "contract": contract,
        "taker": taker,
        "bouts": stated.bouts,
        "points": stated.points,
    }
    if stated.petit is not None:
        facts["petit_au_bout"] = stated.petit
    slam = _slam(bool(deal["announcements"]) and deal["announcements"][0]["type"] == "slam", stated)
    if slam is not None:
        facts["slam"] = slam
    poignees = [
        {"seat": a["seat"], "level": a["level"]} for a in deal["announcements"] if a["type"] == "poignee"
    ]
    if poignees:
        facts["poignees"] = poignees
    if stated.score is not None:
        sign = 1 if _attack_won(stated) else -1
        scores = [
            sign * stated.score * (players - 1) if seat == taker else -sign * stated.score
            for seat in range(players)
        ]
        return {"scores": scores, **facts}
    sheet = TarotDeal.model_validate({"dealer": deal["dealer"], "result": {"scores": [0] * players, **facts}})
    computed, problems = RULESET.sheet_scores(_table(players), sheet)
    if computed is None:
        key = STATED_KEYS.get(problems[0].path or "", "points") if problems else "points"
        raise LogError(key, "; ".join(p.message for p in problems) or "the stated facts give no score")
    return {"scores": computed, **facts}


def _attack_won(stated: Stated) -> bool:
    """TarotClub's winner (Score.cpp, Points::Winner): the attack made its target for its bouts."""
    return stated.points >= TARGETS[min(max(stated.bouts, 0), 3)]


def _slam(announced: bool, stated: Stated) -> str | None:
    """The slam fact as TarotClub scores it (Score.cpp): made by the side that won the deal."""
    if stated.slam_done is None:
        return None
    if stated.slam_done:
        side = "announced_" if announced else ""
        return f"{side}made" if _attack_won(stated) else f"{side}defence"
    return "announced_failed" if announced else None


def records(paths: Iterable[Path | Diagnostic], name: str | None = None) -> Iterator[RawRecord | Diagnostic]:
    """One record of every log read (one per number of players, in the order of the logs), and
    a diagnostic for each log that cannot be read (or path that is not there)."""
    by_players: dict[int, list[Imported]] = {}
    for path in paths:
        found = path if isinstance(path, Diagnostic) else read_log(path)
        if isinstance(found, Diagnostic):
            yield found
        else:
            by_players.setdefault(found.players, []).append(found)
    for players, logs in by_players.items():
        yield RawRecord(record_of(logs, players), Location(file=name or logs[0].file))


def log_records(paths: Iterable[Path | Diagnostic]) -> Iterator[RawRecord | Diagnostic]:
    """Each log as a record of its own deal, placed at its file: what `validate --from tarotclub` reads."""
    for path in paths:
        found = path if isinstance(path, Diagnostic) else read_log(path)
        yield (
            found
            if isinstance(found, Diagnostic)
            else RawRecord(record_of([found], found.players), Location(file=found.file))
        )


def record_of(logs: list[Imported], players: int) -> dict[str, Any]:
    """The record of some logs of one table: TarotClub's place names as the players, and the
    deals in the order of the logs, the deal passing to the right between them."""
    files = ", ".join(Path(log.file).name for log in logs)
    return {
        "format": "recordkit",
        "version": FORMAT_VERSION,
        "game": "french-tarot",
        "options": TarotOptions().model_dump(),
        "players": list(_player_names(logs, players)),
        "meta": {"source": f"TarotClub deal logs: {files}"},
        "deals": list(_in_rotation(logs, players)),
    }


def _player_names(logs: list[Imported], players: int) -> tuple[str, ...]:
    """The names the logs give, when they all give the same; else TarotClub's place names."""
    names = {log.names for log in logs}
    found = names.pop() if len(names) == 1 else None
    return found if found is not None else SEATS[:players]


def _in_rotation(logs: list[Imported], players: int) -> Iterator[dict[str, Any]]:
    """The logs' deals with the deal passing to the right: a slam's dealer (which the log cannot
    tell) continues the rotation, and a deal where everybody passed, which TarotClub redeals
    without a log, is written for each dealer skipped between two logs."""
    previous: int | None = None
    for log in logs:
        deal = log.deal
        if previous is not None and log.slam:
            dealer = (previous + 1) % players
            deal = deal | {"dealer": dealer, "auction": auction(dealer, log.taker, log.contract, players)}
        while previous is not None and (previous + 1) % players != deal["dealer"]:
            previous = (previous + 1) % players
            yield {"dealer": previous, "auction": ["pass"] * players, "comment": PASSED}
        previous = deal["dealer"]
        yield deal
