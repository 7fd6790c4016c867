"""What a record's values may be and how a bad value is reported (issues 15 and 16): numbers in
their range and of their type, the value limits, repeated diagnostics capped, ASCII-only case
folding, and schema messages in the project's own words. Each test starts from a failing input."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import recordkit
from recordkit.cards import ascii_lower, ascii_upper
from recordkit.cli import app
from recordkit.codec import RecordError
from recordkit.diagnostics import Diagnostic
from recordkit.games import RULESETS
from recordkit.generate import generate_record
from recordkit.model import RecordBase, to_data
from tests.budget import examples
from tests.helpers import diagnostics_of, file_codes, generated

runner = CliRunner()

RECORDS = {
    (game, players): to_data(generate_record(RULESETS[game], players, 2, seed=7))
    for game, players in (
        ("french-tarot", 4),
        ("french-tarot", 5),
        ("joffre", 4),
        ("karnoffel", 4),
        ("charlemagne", 4),
    )
}
"""One generated record of each game (two player counts for French Tarot), as canonical JSON."""


def record(game: str = "french-tarot", players: int = 4) -> dict[str, Any]:
    """A fresh copy of a generated record."""
    return copy.deepcopy(RECORDS[(game, players)])


def schema_errors(data: Any, strict: bool = True) -> list[Diagnostic]:
    """The diagnostics of the format's own rules (schema, limits) that a record gets."""
    return [d for d in diagnostics_of(data, strict) if (d.rule or "").startswith("format.")]


def only(data: Any, strict: bool = True) -> Diagnostic:
    """The single format diagnostic of a record."""
    found = schema_errors(data, strict)
    assert len(found) == 1, [(d.code, d.location.path, d.message) for d in found]
    return found[0]


# --- 1. numbers outside the format's range ----------------------------------------------------


@pytest.mark.parametrize("huge", [1e19, 18446744073709551616, -(2**70), 1e300, 1_000_000_001])
def test_a_huge_score_is_a_schema_error_at_its_path_not_a_crash_of_dumps(huge: float) -> None:
    data = record()
    data["deals"][0]["result"]["scores"] = [huge, 3, -4, -1]
    text = json.dumps(data)  # orjson refuses to write 2**64, the reader's JSON does not
    with pytest.raises(RecordError) as refused:
        recordkit.loads(text)
    [found] = refused.value.diagnostics
    assert (found.code, found.location.path) == ("RECORD-SCHEMA", "deals[0].result.scores[0]")
    assert "from -1,000,000,000 to 1,000,000,000" in found.message


def test_a_huge_total_points_or_meta_number_is_reported_where_it_is() -> None:
    totals = record()
    totals["deals"][1]["totals"][2] = 18446744073709551615
    assert only(totals).location.path == "deals[1].totals[2]"
    meta = record()
    meta["meta"]["seed"] = 2**63
    assert only(meta).location.path == "meta.seed"


def test_the_largest_numbers_the_format_allows_round_trip() -> None:
    data = record()
    data["meta"]["big"] = 2**53 - 1
    data["deals"][0]["result"]["scores"][0] = 1_000_000_000
    parsed = recordkit.loads(orjson.dumps(data))
    assert recordkit.loads(recordkit.dumps(parsed)) == parsed


# --- 2. numbers as text, and the canonical form a fixed point ----------------------------------


@pytest.mark.parametrize("strict", [True, False])
def test_a_score_written_as_text_is_a_schema_error_in_both_modes(strict: bool) -> None:
    data = record()
    data["deals"][0]["result"]["scores"][0] = "1e3"
    found = only(data, strict)
    assert (found.code, found.location.path) == ("RECORD-SCHEMA", "deals[0].result.scores[0]")
    assert "got the text '1e3'" in found.message


def _number_paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place of a JSON value that holds a number (not true/false)."""
    if isinstance(value, dict):
        return [p for key, item in value.items() for p in _number_paths(item, (*path, key))]
    if isinstance(value, list):
        return [p for index, item in enumerate(value) for p in _number_paths(item, (*path, index))]
    return [path] if type(value) in (int, float) else []


def _put(data: Any, path: tuple[Any, ...], value: Any) -> None:
    for key in path[:-1]:
        data = data[key]
    data[path[-1]] = value


NUMBER_MUTANTS = st.one_of(
    st.integers(min_value=-(2**64), max_value=2**64),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([0.5, -0.0, 25.0, 1e19, 1e-300, True, False, None, "3", "1e3", "", [], {}]),
)


def _fixed_point(text: bytes) -> None:
    """Whatever `loads` accepts, its canonical form is a fixed point; whatever it refuses, it
    refuses with diagnostics, never another exception."""
    try:
        parsed = recordkit.loads(text)
    except RecordError as refused:
        assert refused.diagnostics
        return
    written = recordkit.dumps(parsed)
    again = recordkit.loads(written)
    assert again == parsed
    assert recordkit.dumps(again) == written


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(key=st.sampled_from(sorted(RECORDS)), data=st.data())
def test_canonical_form_is_a_fixed_point_for_every_number_mutant(key: tuple[str, int], data: Any) -> None:
    value = record(*key)
    _fixed_point(orjson.dumps(value))
    where = data.draw(st.sampled_from(_number_paths(value)))
    _put(value, where, data.draw(NUMBER_MUTANTS))
    _fixed_point(json.dumps(value).encode())
    for found in diagnostics_of(value):
        _in_our_words(found)


# --- 3. no lax coercions -----------------------------------------------------------------------


@pytest.mark.parametrize("seat", ["3", True, 2.0, -1, 8])
def test_a_seat_is_a_whole_number_from_0_to_7(seat: Any) -> None:
    data = record()
    data["deals"][0]["dealer"] = seat
    found = only(data)
    assert (found.code, found.location.path) == ("RECORD-SCHEMA", "deals[0].dealer")
    assert "a seat is a whole number from 0 to 7" in found.message


def test_a_trick_leader_written_as_text_is_refused_in_lenient_mode_too() -> None:
    data = record("joffre")
    data["deals"][0]["tricks"][0] = {"cards": data["deals"][0]["tricks"][0], "leader": "1"}
    assert only(data, strict=False).location.path == "deals[0].tricks[0].leader"


@pytest.mark.parametrize(
    ("option", "value"), [("misere", "true"), ("misere", 1), ("defence_slam_bonus", "200")]
)
def test_an_option_of_another_type_is_a_bad_option(option: str, value: Any) -> None:
    data = record()
    data["options"][option] = value
    found = only(data)
    assert (found.code, found.location.path) == ("RECORD-BAD-OPTION", f"options.{option}")


def test_lenient_mode_still_drops_unknown_keys_with_a_warning() -> None:
    data = record()
    data["deals"][0]["tricks_note"] = "x"
    found = only(data, strict=False)
    assert (found.code, found.severity) == ("RECORD-UNKNOWN-KEY", "warning")


# --- 4. ASCII-only case folding ----------------------------------------------------------------


def test_case_folding_is_ascii_only() -> None:
    assert ascii_upper("ſ6 hk ﬀ") == "ſ6 HK ﬀ"
    assert ascii_lower("\u212a GARDE") == "\u212a garde"


def test_a_long_s_is_not_an_s_in_a_hand() -> None:
    data = record()
    hand = data["deals"][0]["hands"][0].split()
    spades = next(code for code in hand if code.startswith("S"))
    data["deals"][0]["hands"][0] = " ".join("ſ" + code[1:] if code == spades else code for code in hand)
    assert "CARD-UNKNOWN" in [d.code for d in diagnostics_of(data)]
    lower = record()
    lower["deals"][0]["hands"][0] = lower["deals"][0]["hands"][0].lower()
    assert diagnostics_of(lower) == []


def test_a_long_s_is_not_an_s_in_a_karnoffel_suit() -> None:
    data = record("karnoffel")
    data["deals"][0]["chosen_suit"] = "ſpades"
    assert only(data).location.path == "deals[0].chosen_suit"


# --- 5. value limits ---------------------------------------------------------------------------


def test_a_hand_of_a_million_cards_is_refused_before_the_work() -> None:
    data = record()
    data["deals"][0]["hands"][0] = " ".join(["HK"] * 10**6)
    found = diagnostics_of(data)
    assert [(d.code, d.location.path) for d in found if d.rule == "format.limits"] == [
        ("RECORD-VALUE-LIMIT", "deals[0].hands[0]")
    ]
    assert all(d.location.deal != 1 or d.code == "RECORD-VALUE-LIMIT" for d in found)


def test_an_auction_of_a_million_calls_is_refused_and_the_other_deals_are_read() -> None:
    data = record()
    data["deals"][0]["auction"] = ["pass"] * 10**6
    data["deals"][1]["result"]["scores"][0] += 1
    found = [(d.code, d.location.deal) for d in diagnostics_of(data) if d.severity == "error"]
    assert ("RECORD-VALUE-LIMIT", 1) in found and ("SCORE-MISMATCH", 2) in found


@pytest.mark.parametrize(
    ("where", "value", "path"),
    [
        (("comment",), "x" * 10_001, "comment"),
        (("meta",), {f"k{i}": i for i in range(1_001)}, "meta"),
        (("deals",), [{"dealer": 0}] * 10_001, "deals"),
    ],
    ids=["comment", "meta", "deals"],
)
def test_a_header_over_the_limits_refuses_the_record(where: tuple[str], value: Any, path: str) -> None:
    data = record()
    _put(data, where, value)
    assert [(d.code, d.location.path) for d in diagnostics_of(data)] == [("RECORD-VALUE-LIMIT", path)]
    with pytest.raises(RecordError):
        recordkit.loads(orjson.dumps(data))


def test_a_card_group_of_more_than_100_cards_is_refused() -> None:
    data = record()
    data["deals"][0]["tricks"][0] = ["HK"] * 101
    found = only(data)
    assert (found.code, found.location.path) == ("RECORD-VALUE-LIMIT", "deals[0].tricks[0]")


def test_a_hand_over_the_limits_through_the_cli_exits_1(tmp_path: Path) -> None:
    data = record()
    data["deals"][0]["hands"][0] = " ".join(["HK"] * 10**6)
    path = tmp_path / "hand.json"
    path.write_bytes(orjson.dumps(data))
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 1
    assert "RECORD-VALUE-LIMIT" in result.stdout and len(result.stdout.splitlines()) < 10


# --- 6. repeated diagnostics capped ------------------------------------------------------------


def _unknown_cards_trick(tmp_path: Path) -> Path:
    """A record whose first trick is 100 codes that are no cards (the hostile trick, within limits)."""
    data = generated(4, 1, deals=2)
    data["deals"][0]["tricks"][0] = " ".join(["ZZ"] * 100)
    path = tmp_path / "trick.jsonl"
    path.write_bytes(orjson.dumps(data) + b"\n")
    return path


def test_diagnostics_of_one_code_in_a_deal_are_capped_at_five_and_counted(tmp_path: Path) -> None:
    path = _unknown_cards_trick(tmp_path)
    result = runner.invoke(app, ["validate", "--format", "jsonl", str(path)])
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    unknown = [line for line in lines if line["code"] == "CARD-UNKNOWN"]
    assert len(unknown) == 6
    assert unknown[-1]["message"] == "and 95 more CARD-UNKNOWN in this deal (only the first 5 are listed)"
    assert unknown[-1]["path"] == "deals[0]"
    text = runner.invoke(app, ["validate", str(path)])
    assert text.stdout.count(" CARD-UNKNOWN [") == 6 and len(text.stdout.splitlines()) == len(lines)
    assert "CARD-UNKNOWN" in file_codes(path)  # the fast path and the full replay agree


# --- 7. messages in the project's words ---------------------------------------------------------

MODEL_NAMES = {cls.__name__ for cls in RecordBase.__subclasses__()} | {
    "Trick",
    "Play",
    "Call",
    "Note",
    "Compact",
    "Result",
    "Strict",
    *(model.__name__ for ruleset in RULESETS.values() for model in (ruleset.Deal, ruleset.Options)),
}


def _in_our_words(found: Diagnostic) -> None:
    """A schema diagnostic names no pydantic text, URL or model."""
    if found.rule not in ("format.schema", "format.limits"):
        return
    for leak in ("Input should", "pydantic", "http", "function-", "tagged-union", "form:", "[type="):
        assert leak not in found.message and leak not in (found.location.path or ""), found
    assert not MODEL_NAMES & set(re.findall(r"\w+", f"{found.message} {found.location.path}")), found


@pytest.mark.parametrize(
    ("game", "words"),
    [
        ("french-tarot", "a call is pass, petite, garde, garde_sans or garde_contre; got the number 4"),
        (
            "joffre",
            "a call is 'pass' or a bid written in quotes: '6' (or '6 no trump' where allowed); got the number 4",
        ),
        ("karnoffel", None),
        ("charlemagne", "got the number 4"),
    ],
)
def test_a_bid_typed_as_a_number_says_what_a_call_is(game: str, words: str | None) -> None:
    data = record(game)
    deal = data["deals"][0]
    if game == "karnoffel":
        deal["proposals"] = [[4]]
        words = "a call is pass, raise, accept or surrender; got the number 4"
        path = "deals[0].proposals[0][0]"
    else:
        deal["auction"][0] = 4
        path = "deals[0].auction[0]"
    found = only(data)
    assert (found.code, found.location.path) == ("RECORD-SCHEMA", path)
    assert found.message == f"{path}: {words}" or (words in found.message)
    _in_our_words(found)


@pytest.mark.parametrize(
    ("rename", "path", "suggestion"),
    [
        (("deals", 0, "tricks", "trics"), "deals[0].trics", "tricks"),
        (("deals", 0, "result", "scores", "score"), "deals[0].result.score", "scores"),
        (("options", "misere", "misery"), "options.misery", "misere"),
        (("players", "player"), "player", "players"),
    ],
)
def test_an_unknown_key_close_to_a_known_one_gets_did_you_mean(
    rename: tuple[Any, ...], path: str, suggestion: str
) -> None:
    data = record()
    *where, old, new = rename
    holder = data
    for key in where:
        holder = holder[key]
    holder[new] = holder.pop(old)
    found = [d for d in schema_errors(data) if d.code.startswith("RECORD-UNKNOWN")]
    assert [d.location.path for d in found] == [path]
    assert found[0].message.endswith(f"did you mean {suggestion!r}?")


def test_an_unknown_key_far_from_any_gets_no_suggestion() -> None:
    data = record()
    data["deals"][0]["zzzz"] = 1
    assert only(data).message == "unknown key 'zzzz'"


@pytest.mark.parametrize(
    ("where", "value", "words"),
    [
        (
            ("deals", 0, "status"),
            "done",
            "should be 'played', 'annulled' or 'abandoned'; got the text 'done'",
        ),
        (("deals", 0, "comment"), 4, "should be text in quotes; got the number 4"),
        (
            ("deals", 0, "tricks", 0),
            5,
            "a group of cards is a string like 'HK T21 EX' or a list of card codes",
        ),
        (("deals", 0, "tricks", 0), {"cards": ["H3", {"card": 5}]}, "a card is one code such as 'HK'"),
        (
            ("deals", 0, "announcements"),
            [{"type": "poignees", "seat": 1}],
            "'type' is 'poignees', which is not",
        ),
        (("deals", 0), 5, "should be an object {...}; got the number 5"),
        (("players",), ["Anne"], "holds at least 2 item(s); it has 1"),
    ],
)
def test_schema_messages_say_what_a_value_should_be(where: tuple[Any, ...], value: Any, words: str) -> None:
    data = record()
    _put(data, where, value)
    found = only(data)
    assert words in found.message
    _in_our_words(found)


ODD_VALUES = st.sampled_from([5, -1, 2.5, "x", "", True, None, [], [1], {}, {"x": 1}, 10**30])


def _all_paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place of a JSON value below the top."""
    here = [path] if path else []
    if isinstance(value, dict):
        return here + [p for key, item in value.items() for p in _all_paths(item, (*path, key))]
    if isinstance(value, list):
        return here + [p for index, item in enumerate(value) for p in _all_paths(item, (*path, index))]
    return here


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(key=st.sampled_from(sorted(RECORDS)), data=st.data())
def test_no_schema_diagnostic_leaks_pydantic_for_any_odd_value(key: tuple[str, int], data: Any) -> None:
    value = record(*key)
    where = data.draw(st.sampled_from(_all_paths(value)))
    _put(value, where, data.draw(ODD_VALUES))
    for found in diagnostics_of(value):
        _in_our_words(found)
    _fixed_point(json.dumps(value).encode())


@pytest.mark.parametrize("strict", [True, False])
def test_an_unknown_key_in_a_trick_object_is_one_diagnostic_at_its_own_path(strict: bool) -> None:
    data = record()
    data["deals"][0]["tricks"][0] = {"cards": data["deals"][0]["tricks"][0], "note": "x"}
    found = only(data, strict)  # was also a card-group error, at deals[0].tricks[0].Trick.note
    assert (found.code, found.location.path) == ("RECORD-UNKNOWN-KEY", "deals[0].tricks[0].note")
    assert found.severity == ("error" if strict else "warning")


def test_schema_diagnostics_of_one_code_are_capped_too() -> None:
    data = record()
    data["deals"][1].update({f"note{i}": i for i in range(12)})
    found = [(d.code, d.location.deal, d.message) for d in diagnostics_of(data)]
    assert len(found) == 6 and found[-1] == (
        "RECORD-UNKNOWN-KEY",
        2,
        "and 7 more RECORD-UNKNOWN-KEY in this deal (only the first 5 are listed)",
    )
