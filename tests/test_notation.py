"""The recordkit notation (spec/NOTATION.md): round trips, the samples' text twins, tolerant
reading, and diagnostics at the text's line and column."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recordkit import validate
from recordkit.codec import RecordError, dumps, load_all, loads
from recordkit.diagnostics import Severity
from recordkit.games import RULESETS
from recordkit.generate import generate_record
from recordkit.model import to_data
from recordkit.reading import read_records
from recordkit.sources import RawRecord
from recordkit.validate import Settings, validate_paths
from tests.budget import examples
from tests.helpers import file_codes

SAMPLES = Path(__file__).parent.parent / "samples"
VALID = sorted(p for p in SAMPLES.rglob("*") if p.suffix in (".json", ".jsonl") and "invalid" not in p.parts)
"""The valid JSON samples; each has its text twin under samples/text/."""
NOTATION_INVALID = sorted((SAMPLES / "invalid" / "notation").glob("*.rkn"))
FORMS = ("full", "tricks", "sheet")


def text_twin(path: Path) -> Path:
    """A sample's text twin: samples/text/<game>/<name>.rkn for samples/<game>/<name>.json."""
    return SAMPLES / "text" / path.parent.name / (path.stem + ".rkn")


games = st.tuples(
    st.sampled_from(sorted(RULESETS)), st.sampled_from(FORMS), st.integers(0, 2**31), st.integers(0, 9)
)


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_json_to_text_to_json_is_exact_and_text_is_canonical(game: tuple[str, str, int, int]) -> None:
    """JSON -> text -> JSON gives the record exactly; text -> JSON -> text the same text."""
    name, form, seed, pick = game
    ruleset = RULESETS[name]
    players = ruleset.player_counts[pick % len(ruleset.player_counts)]
    record = generate_record(ruleset, players, 3, seed, form=form, player="random")  # type: ignore[arg-type]
    text = dumps(record, form="text")
    back = loads(text)
    assert to_data(back) == to_data(record)
    assert dumps(back, form="text") == text


@pytest.mark.parametrize("path", VALID, ids=lambda p: str(p.relative_to(SAMPLES)))
def test_every_sample_has_a_text_twin_with_the_same_records_and_verdict(path: Path) -> None:
    twin = text_twin(path)
    assert twin.is_file(), f"{twin} is missing: recordkit convert {path} {twin}"
    assert [to_data(r) for r in load_all(twin)] == [to_data(r) for r in load_all(path)]
    assert file_codes(twin) == file_codes(path) == set()


@pytest.mark.parametrize("path", VALID, ids=lambda p: str(p.relative_to(SAMPLES)))
def test_every_text_twin_is_in_canonical_form(path: Path) -> None:
    twin = text_twin(path)
    assert "\n".join(dumps(r, form="text") for r in load_all(path)) == twin.read_text()


@pytest.mark.parametrize("path", NOTATION_INVALID, ids=lambda p: p.name)
def test_invalid_text_sample_raises_exactly_its_code(path: Path) -> None:
    """Each reader's code in its own sample; a tolerant spelling is a warning in lenient mode."""
    code = path.stem.split("--")[0]
    assert file_codes(path, strict=code != "NOTATION-NORMALISED") == {code}


def test_the_reader_codes_have_their_samples() -> None:
    assert {p.stem for p in NOTATION_INVALID} == {
        "NOTATION-SYNTAX",
        "NOTATION-TAG",
        "NOTATION-VALUE",
        "NOTATION-DEAL-NUMBER",
        "NOTATION-NORMALISED",
    }


def test_a_tolerant_spelling_is_a_note_in_strict_mode() -> None:
    found = _diagnostics(SAMPLES / "invalid" / "notation" / "NOTATION-NORMALISED.rkn", strict=True)
    assert {d.severity for d in found if d.code == "NOTATION-NORMALISED"} == {Severity.INFO}


JOFFRE = """\
[Game "joffre"]  # a remark
[Players "Gérard" "Lucie" "Marcel" "Thérèse"]
[event "Soirée"]

deal 1 dealer 0
hand 0 E2 E0 F5 F3 R4 G3 G2 G1
hand 1 E6 E5 F0 R5 R1 R0 G6 G5
hand 2 E4 E3 F7 F4 F2 R7 R6 G0
hand 3 E7 E1 F6 F1 R3 R2 G7 G4
auction 3 4 pass pass
R7 R2 R4 R1
R6 R3 G2 R0
F7 F1 F3 F0
E3 E7 E2 E5
G7 G3 G5 G0
F6 F5 R5 F4
E6 E4 E1 E0
G6 F2 G4 G1
scores 0 3 -4 -1
totals 0 3 -4 -1
"""


def _diagnostics(path: Path, strict: bool = True) -> list[Any]:
    return [d for item in validate_paths([str(path)], Settings(strict=strict)) for d in _of(item)]


def _of(item: Any) -> list[Any]:
    return [item] if not hasattr(item, "diagnostics") else item.diagnostics


def test_a_revoke_points_at_the_tricks_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "g.rkn"
    path.write_text(JOFFRE.replace("F7 F1 F3 F0", "F7 F1 F3 E0").replace("E6 E4 E1 E0", "E6 E4 E1 F0"))
    revoke = [d for d in _diagnostics(path) if d.code == "JOFFRE-REVOKE"]
    where = revoke[0].location
    assert (where.deal, where.trick, where.position) == (1, 6, 3)  # R5 on a lead of France, holding F0
    assert (where.line, where.column) == (16, 1)  # the sixth trick's line


def test_a_score_points_at_its_statement(tmp_path: Path) -> None:
    path = tmp_path / "g.rkn"
    path.write_text(JOFFRE.replace("scores 0 3 -4 -1", "  scores 0 4 -4 -1"))
    found = [d for d in _diagnostics(path) if d.code == "SCORE-MISMATCH"]
    assert found and (found[0].location.line, found[0].location.column) == (19, 3)


def test_an_unreadable_line_is_said_and_the_other_deals_are_read() -> None:
    text = JOFFRE + "\ndeal 2 dealer 1 scores 0 0 0 0\nwhat is this\n\ndeal 3 dealer 2 scores 0 0 0 0\n"
    (raw,) = list(_sources(text))
    assert len(raw.data["deals"]) == 3
    (syntax,) = raw.notes
    assert (syntax.code, syntax.location.line, syntax.location.column, syntax.location.deal) == (
        "NOTATION-SYNTAX",
        23,
        1,
        2,
    )
    with pytest.raises(RecordError):
        loads(text)


def test_tolerant_forms_read_as_the_canonical_ones() -> None:
    typed = (
        JOFFRE.replace("dealer 0", "dealer gérard")
        .replace("R7 R2 R4 R1", "r7, r2,  r4 , R1")
        .replace("auction 3 4 pass pass", "auction 3, 4, PASS, pass")
    )
    assert to_data(loads(typed)) == to_data(loads(JOFFRE))
    codes = [n.code for n in next(iter(_sources(typed))).notes]
    assert codes == ["NOTATION-NORMALISED"]  # the seat's name; case and commas are the format's own


def test_suit_symbols_and_t_for_ten_in_tarot() -> None:
    text = '[Game "french-tarot"]\n[Players "A" "B" "C" "D"]\ndeal 1 dealer 0\nhand 0 ♠T ♥10 ST T21 EX\n'
    (raw,) = list(_sources(text))
    assert raw.data["deals"][0]["hands"][0] == "S10 H10 S10 T21 EX"
    assert [n.location.column for n in raw.notes] == [8, 11, 15]


def test_loads_tells_text_from_json_and_dumps_writes_either() -> None:
    record = loads(JOFFRE)
    assert loads(dumps(record)) == record
    assert loads(dumps(record, form="text")) == record
    with pytest.raises(ValueError):
        dumps(record, form="xml")


def test_any_value_without_a_short_form_is_written_as_json() -> None:
    record = loads(
        JOFFRE.replace(
            "R6 R3 G2 R0", 'trick = {"cards": ["R6", {"card": "R3", "time": "21:02"}, "G2", "R0"]}'
        )
    )
    text = dumps(record, form="text")
    assert 'trick = {"cards": ["R6", {"card": "R3", "time": "21:02"}, "G2", "R0"]}' in text
    assert loads(text) == record


def _sources(text: str) -> list[RawRecord]:
    from recordkit.notation import text_sources

    return list(text_sources(text, None))


def test_a_file_read_by_its_extension(tmp_path: Path) -> None:
    path = tmp_path / "evening.rkn"
    path.write_text(JOFFRE + JOFFRE)
    items = list(read_records(path))
    assert [type(i) for i in items] == [RawRecord, RawRecord]
    assert [i.location.line for i in items if isinstance(i, RawRecord)] == [1, 21]


def test_the_specs_examples_validate_clean() -> None:
    spec = (Path(__file__).parent.parent / "spec" / "NOTATION.md").read_text()
    examples = spec.split("## A complete example per game")[1].split("```\n")[1::2]
    assert len(examples) == 4
    for text in examples:
        record = loads(text)
        assert [d.code for d in validate(record) if d.severity != Severity.INFO] == []
        assert dumps(record, form="text") == text  # the examples are in canonical form


def test_the_readmes_evening_reads_and_validates_clean() -> None:
    readme = (Path(__file__).parent.parent / "README.md").read_text()
    text = readme.split("### In the notation")[1].split("```\n")[1]
    record = loads(text)
    assert [d.code for d in validate(record) if d.severity != Severity.INFO] == []
    assert len(record.deals) == 3 and record.deals[0].dealer == 0
