"""The record format: schema kept in sync, canonical writing, versions, and bad input of every kind."""

from __future__ import annotations

import json
from pathlib import Path

import orjson
import pytest

from recordkit.codec import RecordError, dumps, loads
from recordkit.schema import schema_files
from tests.helpers import bump_score, codes_of, diagnostics_of, file_codes, generated

SCHEMA_DIR = Path(__file__).parent.parent / "spec" / "schema"


def test_checked_in_schema_matches_the_models() -> None:
    """format.schema: spec/schema is generated from the models; run `recordkit schema` after a change."""
    files = schema_files()
    assert sorted(files) == sorted(p.name for p in SCHEMA_DIR.glob("*.json"))
    for name, text in files.items():
        assert (SCHEMA_DIR / name).read_text() == text, f"{name} is stale: run `recordkit schema spec/schema`"


def test_schema_accepts_compact_and_object_forms() -> None:
    """The schema documents both the bare and the object form of tricks and calls."""
    schema = json.loads(next(iter(schema_files().values())))
    trick = schema["$defs"]["TarotDeal"]["properties"]["tricks"]["items"]["anyOf"]
    assert trick == [
        {"type": "string"},
        {"items": {"type": "string"}, "type": "array"},
        {"$ref": "#/$defs/Trick"},
    ]
    call = schema["$defs"]["Call"]["anyOf"]
    assert call[0] == {"type": "string"} and call[1]["type"] == "object"


def test_canonical_form_writes_defaults_and_no_nulls() -> None:
    """Options are written out in full; absent optional fields stay absent."""
    data = generated(4, 7, deals=1)
    data["options"] = {}
    text = dumps(loads(orjson.dumps(data)))
    written = json.loads(text)
    assert written["options"]["discard_policy"] == "fft"
    assert "null" not in text


def test_comments_and_times_survive_and_come_last() -> None:
    """Every action may carry a comment and a timestamp; canonical order puts them last."""
    data = generated(4, 11, deals=1)
    deal = data["deals"][0]
    first = deal["tricks"][0].split()
    deal["tricks"][0] = {
        "comment": "opening lead",
        "cards": [{"time": "20:01", "card": first[0]}, *first[1:]],
    }
    deal["auction"][0] = {
        "comment": "thought long",
        "call": deal["auction"][0],
        "seat": (deal["dealer"] + 1) % 4,
    }
    record = loads(orjson.dumps(data))
    again = json.loads(dumps(record))
    assert list(again["deals"][0]["tricks"][0]) == ["cards", "comment"]
    assert again["deals"][0]["tricks"][0]["cards"][0] == {"card": first[0], "time": "20:01"}
    assert list(again["deals"][0]["auction"][0]) == ["call", "seat", "comment"]
    assert loads(dumps(record)) == record
    assert codes_of(data) == []


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"version": "2.0"}, "RECORD-VERSION"),
        ({"version": "one"}, "RECORD-VERSION"),
        ({"format": "pgn"}, "RECORD-FORMAT"),
        ({"game": "whist"}, "RECORD-UNKNOWN-GAME"),
        ({"game": "bridge"}, "RECORD-UNKNOWN-GAME"),
        ({"options": {"discard_policy": "fft", "kitty": 2}}, "RECORD-UNKNOWN-OPTION"),
        ({"options": {"discard_policy": "anything"}}, "RECORD-BAD-OPTION"),
        ({"players": ["A", "B"]}, "RECORD-PLAYERS"),
        ({"referee": "Jean"}, "RECORD-UNKNOWN-KEY"),
    ],
)
def test_envelope_problems_get_their_code(change: dict[str, object], code: str) -> None:
    """format.envelope: each problem of the envelope has its own code."""
    data = generated(4, 3, deals=1)
    data.update(change)
    assert codes_of(data) == [code]


def test_newer_minor_version_is_read_with_a_warning() -> None:
    """format.envelope: a newer minor version of the same major is read, with a warning."""
    data = generated(4, 3, deals=1)
    data["version"] = "1.7"
    assert codes_of(data) == ["RECORD-NEWER-MINOR"]
    assert codes_of(data, strict=False) == ["RECORD-NEWER-MINOR"]


def test_unknown_key_is_a_warning_in_lenient_mode_and_the_rest_is_checked() -> None:
    """An unknown key is an error in strict mode, a warning in lenient mode where checks go on."""
    data = generated(4, 5, deals=2)
    data["deals"][1]["trics"] = []
    bump_score(data, 1, 0, 1)
    assert sorted(codes_of(data)) == ["RECORD-UNKNOWN-KEY"]
    lenient = diagnostics_of(data, strict=False)
    assert sorted((d.code, d.severity) for d in lenient) == [
        ("RECORD-UNKNOWN-KEY", "warning"),
        ("SCORE-MISMATCH", "error"),
    ]


def test_a_broken_deal_does_not_stop_the_others() -> None:
    """A deal that does not parse is reported; the other deals of the record are still replayed."""
    data = generated(4, 9, deals=3)
    data["deals"][0]["dealer"] = "north"
    bump_score(data, 2, 1, 5)
    found = diagnostics_of(data)
    assert [(d.code, d.location.deal) for d in found] == [("RECORD-SCHEMA", 1), ("SCORE-MISMATCH", 3)]
    assert found[0].location.path == "deals[0].dealer"


def test_unknown_card_names_its_place() -> None:
    """format.cards: the message names the code and where it is."""
    data = generated(4, 2, deals=1)
    data["deals"][0]["hands"][2] = data["deals"][0]["hands"][2].replace(
        data["deals"][0]["hands"][2].split()[3], "HZ"
    )
    found = diagnostics_of(data)
    assert [d.code for d in found] == ["CARD-UNKNOWN"]
    assert "'HZ'" in found[0].message and "card 4 of seat 2's hand" in found[0].message
    assert found[0].location.path == "deals[0].hands[2]"


@pytest.mark.parametrize(
    ("content", "code", "line"),
    [
        (
            b'{"format": "recordkit", "version": "1.0", "game": "french-tarot", "players": ["A", "B"',
            "RECORD-TRUNCATED",
            1,
        ),
        (b'{"format": "recordkit",\n "version": "1.0" "game": 1}', "RECORD-BAD-JSON", 2),
        (b"", "FILE-EMPTY", None),
        (b"[1, 2]", "RECORD-SCHEMA", None),
    ],
)
def test_unreadable_json_files(tmp_path: Path, content: bytes, code: str, line: int | None) -> None:
    """format.json: malformed, truncated or empty files get a diagnostic with their place."""
    path = tmp_path / "game.json"
    path.write_bytes(content)
    assert code in file_codes(path)


def test_jsonl_with_a_broken_line_checks_the_others(tmp_path: Path) -> None:
    """format.json: one broken line in a JSON-lines file; the records around it are checked."""
    good = orjson.dumps(generated(4, 1, deals=1))
    bad = generated(4, 2, deals=1)
    bump_score(bad, 0, 0, 1)
    path = tmp_path / "games.jsonl"
    path.write_bytes(good + b"\n" + good[:-20] + b"\n" + orjson.dumps(bad) + b"\n")
    assert file_codes(path) == {"RECORD-BAD-JSON", "SCORE-MISMATCH"}


def test_loads_raises_record_error_not_a_traceback_of_pydantic() -> None:
    """The Python API reports unreadable records as RecordError carrying diagnostics."""
    with pytest.raises(RecordError) as caught:
        loads('{"format": "recordkit", "version": "9.0", "game": "french-tarot"}')
    assert caught.value.diagnostics[0].code == "RECORD-VERSION"
    with pytest.raises(RecordError):
        loads("{not json")


def test_every_valid_sample_conforms_to_the_checked_in_schema() -> None:
    """format.schema: the JSON Schema accepts every hand-typed sample (compact and object forms)."""
    jsonschema = pytest.importorskip("jsonschema")
    samples = Path(__file__).parent.parent / "samples"
    checked = 0
    for schema_path in SCHEMA_DIR.glob("*.schema.json"):
        game = schema_path.name.split(".")[0]
        validator = jsonschema.Draft202012Validator(json.loads(schema_path.read_text()))
        for path in sorted((samples / game).iterdir()):
            lines = path.read_text().splitlines() if path.suffix == ".jsonl" else [path.read_text()]
            for text in filter(str.strip, lines):
                errors = [e.message for e in validator.iter_errors(json.loads(text))]
                assert errors == [], f"{path.name}: {errors[:3]}"
                checked += 1
    assert checked >= 10
