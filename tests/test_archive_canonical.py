"""The converter stores a deal the fast path proved as written only when that text is the model's
canonical dump (`recordkit.archive.canonical`): held here on generated deals of every game, form
and option, and on the same deals changed into every other form the format accepts."""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pyarrow.parquet as pq
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recordkit.archive import archive_records
from recordkit.archive.canonical import deal_is_canonical, written_canonical
from recordkit.convert.archive import to_archive
from recordkit.games import RULESETS
from recordkit.generate import generate_record
from recordkit.model import FORMAT_VERSION, to_data
from recordkit.quick import clean_replays
from tests.budget import examples
from tests.test_properties import games

Deal = dict[str, Any]
CARD_FIELDS = ("dog", "discard", "kitty", "faceup", "call", "partner_card")


def _first_key(deal: Deal, keys: tuple[str, ...]) -> str | None:
    return next((key for key in keys if key in deal), None)


def _move_last(deal: Deal) -> None:
    """A key moved out of its place (to the end)."""
    key = next(iter(deal))
    deal[key] = deal.pop(key)


def _drop_default(deal: Deal) -> None:
    """A field the canonical form writes out though it holds its default, left out."""
    key = _first_key(deal, ("status", "tricks", "auction", "announcements", "proposals"))
    if key is not None:
        del deal[key]


def _null(deal: Deal) -> None:
    """A field written as null, which the canonical form leaves out."""
    deal[_first_key(deal, ("call", "discard", "trump", "chosen_suit", "kitty")) or "comment"] = None


def _lower_card(deal: Deal) -> None:
    """A card code in lower case, in a hand, a trick or another group."""
    for key in ("hands", "tricks"):
        if deal.get(key) and type(deal[key][0]) is str and deal[key][0]:
            deal[key][0] = deal[key][0][0].lower() + deal[key][0][1:]
            return
    other = _first_key(deal, CARD_FIELDS)
    if other is not None and type(deal[other]) is str:
        deal[other] = deal[other].lower()


def _double_space(deal: Deal) -> None:
    """Two spaces between two cards of a group."""
    for key in ("hands", "tricks"):
        if deal.get(key) and type(deal[key][0]) is str and " " in deal[key][0]:
            deal[key][0] = deal[key][0].replace(" ", "  ", 1)
            return
    other = _first_key(deal, ("dog", "discard", "kitty", "faceup"))
    if other is not None and type(deal[other]) is str:
        deal[other] = deal[other].replace(" ", "  ", 1)


def _as_list(deal: Deal) -> None:
    """A card group written as a list of codes."""
    key = _first_key(deal, ("hands", "dog", "faceup", "discard", "kitty"))
    if key == "hands" and deal["hands"] and type(deal["hands"][0]) is str:
        deal["hands"][0] = deal["hands"][0].split()
    elif key is not None and type(deal[key]) is str:
        deal[key] = deal[key].split()


def _whole_float(deal: Deal) -> None:
    """A whole number of points written as a float (25.0)."""
    for key in ("totals",):
        if deal.get(key):
            deal[key][0] = float(deal[key][0])
    if type(deal.get("result")) is dict and deal["result"].get("scores"):
        deal["result"]["scores"][0] = float(deal["result"]["scores"][0])


def _call_object(deal: Deal) -> None:
    """A call written as an object, with nothing else or with its seat."""
    calls = deal.get("auction") or (deal.get("proposals") or [[]])[0]
    if calls and type(calls[0]) is str:
        calls[0] = {"call": calls[0]}


def _call_case(deal: Deal) -> None:
    """A call in other letters: upper case, or with a space around it."""
    calls = deal.get("auction") or (deal.get("proposals") or [[]])[0]
    if calls and type(calls[0]) is str:
        calls[0] = calls[0].upper() if calls[0] != calls[0].upper() else f" {calls[0]}"


def _trick_object(deal: Deal) -> None:
    """A trick written as an object with its cards only (or its cards as a list)."""
    tricks = deal.get("tricks")
    if tricks and type(tricks[0]) is str:
        tricks[0] = {"cards": tricks[0]}
        if len(tricks) > 1 and type(tricks[1]) is str:
            tricks[1] = tricks[1].split()


def _suit_case(deal: Deal) -> None:
    """A suit or status in other letters."""
    key = _first_key(deal, ("trump", "chosen_suit"))
    if key is not None and type(deal[key]) is str:
        deal[key] = deal[key].lower()
    elif type(deal.get("status")) is str:
        deal["status"] = deal["status"].title()


def _announcement_order(deal: Deal) -> None:
    """An announcement's keys in another order."""
    for announcement in deal.get("announcements") or []:
        if type(announcement) is dict:
            announcement["type"] = announcement.pop("type")
            return


def _comment(deal: Deal) -> None:
    """A comment, at the end (canonical) or first."""
    deal["comment"] = "noted"
    if len(deal) % 2:
        deal.update({key: deal.pop(key) for key in list(deal) if key != "comment"})


def _result_fact(deal: Deal) -> None:
    """A fact on the score line beside the scores, or the scores in another place."""
    result = deal.get("result")
    if type(result) is dict and "scores" in result:
        deal["result"] = {"contract": "pass", **result} if "contract" not in result else result


MUTATIONS: list[Callable[[Deal], None]] = [
    _move_last,
    _drop_default,
    _null,
    _lower_card,
    _double_space,
    _as_list,
    _whole_float,
    _call_object,
    _call_case,
    _trick_object,
    _suit_case,
    _announcement_order,
    _comment,
    _result_fact,
]


def canonical_deals(data: dict[str, Any]) -> list[bytes]:
    """Each deal's canonical text, by the model."""
    record = RULESETS[data["game"]].Record.model_validate({**data, "version": FORMAT_VERSION})
    return [orjson.dumps(deal) for deal in to_data(record)["deals"]]


def assert_stored_text_is_canonical(data: dict[str, Any]) -> int:
    """For a record the fast path proves, every deal accepted as canonical is written as its
    canonical text; the number of deals accepted."""
    proven = clean_replays(data)
    if proven is None:
        return 0
    expected = canonical_deals(data)
    accepted = 0
    for deal, quick, text in zip(data["deals"], proven, expected, strict=True):
        if written_canonical(data["game"], [deal], [quick]):
            assert orjson.dumps(deal) == text
            accepted += 1
    return accepted


PROPERTY = settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(games, st.sampled_from(("full", "tricks", "sheet")), st.data())
def test_a_deal_stored_as_written_is_its_canonical_dump(game: Any, form: str, data: st.DataObject) -> None:
    ruleset, players, options, seed = game
    try:
        record = generate_record(ruleset, players, 2, seed, options, form, "random")  # type: ignore[arg-type]
    except ValueError:  # an option that this number of players does not allow
        return
    written = orjson.loads(orjson.dumps(to_data(record)))
    accepted = assert_stored_text_is_canonical(written)
    if form != "tricks" and clean_replays(written) is not None:
        assert accepted, "generated deals in the plain form are stored as written"
    changed = copy.deepcopy(written)
    index = data.draw(st.integers(0, len(changed["deals"]) - 1))
    for mutation in data.draw(st.lists(st.sampled_from(MUTATIONS), min_size=1, max_size=3)):
        mutation(changed["deals"][index])
    assert_stored_text_is_canonical(changed)


def test_every_form_the_format_accepts_is_told_apart_on_each_game() -> None:
    """Each change of a generated deal of each game into another accepted form: the deal is
    stored as written only if it is still the canonical text."""
    for name, ruleset in RULESETS.items():
        for players in ruleset.player_counts[:2]:
            written = orjson.loads(orjson.dumps(to_data(generate_record(ruleset, players, 3, 7))))
            assert assert_stored_text_is_canonical(written) == len(written["deals"]), name
            for mutation in MUTATIONS:
                changed = copy.deepcopy(written)
                for deal in changed["deals"]:
                    mutation(deal)
                assert_stored_text_is_canonical(changed)


def test_a_clean_record_in_another_form_is_archived_as_its_canonical_text(tmp_path: Path) -> None:
    """End to end: a clean record written with keys out of order, whole points as floats and a
    call as an object converts back as its canonical text, with the same rows as that text's."""
    written = orjson.loads(orjson.dumps(to_data(generate_record(RULESETS["french-tarot"], 4, 3, 5))))
    changed = copy.deepcopy(written)
    for mutation in (_move_last, _whole_float, _call_object):
        mutation(changed["deals"][1])
    assert clean_replays(changed) is not None and canonical_deals(changed) == canonical_deals(written)
    archives = []
    for name, data in (("canonical", written), ("changed", changed)):
        source = tmp_path / f"{name}.jsonl"
        source.write_bytes(orjson.dumps(data) + b"\n")
        to_archive([str(source)], tmp_path / name)
        archives.append(tmp_path / name)
    assert [text for _id, text in archive_records(archives[1])] == [orjson.dumps(written)]
    for table in ("deals", "calls", "plays", "scores", "tricks"):
        tables = [pq.read_table(archive / table).drop_columns(["game"]) for archive in archives]
        assert tables[0].equals(tables[1]), table


def test_a_record_that_leaves_its_deals_out_is_archived_with_none(tmp_path: Path) -> None:
    """A record with no `deals` key (the default, no deal) takes the fast path too."""
    written = orjson.loads(orjson.dumps(to_data(generate_record(RULESETS["joffre"], 4, 1, 5))))
    del written["deals"]
    source = tmp_path / "in.jsonl"
    source.write_bytes(orjson.dumps(written) + b"\n")
    to_archive([str(source)], tmp_path / "archive")
    assert [text for _id, text in archive_records(tmp_path / "archive")] == [
        orjson.dumps({**written, "deals": []})
    ]


def test_a_defence_answer_written_with_its_seat_is_canonical() -> None:
    """charlemagne.defence.*: with `maine_lone_defender_priority` "either", the model writes a
    lone defender's answer with its seat (`{"call": "alone", "seat": 1}`); a deal so written is
    its canonical dump, stored as written; an answer object without its seat is not."""
    ruleset = RULESETS["charlemagne"]
    options = {"variant": "maine", "maine_lone_defender_priority": "either"}
    written = orjson.loads(
        orjson.dumps(to_data(generate_record(ruleset, 4, 2, 5, options, "full", "random")))
    )
    seated = [deal for deal in written["deals"] if any(type(a) is dict for a in deal.get("defence", []))]
    assert seated, "the generated game has a seated answer"
    assert assert_stored_text_is_canonical(written) == len(written["deals"])
    seated[0]["defence"] = [
        {"call": answer["call"]} if type(answer) is dict else answer for answer in seated[0]["defence"]
    ]
    assert not deal_is_canonical("charlemagne", seated[0])
