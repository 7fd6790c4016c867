"""The fast path (`recordkit.quick`) against the full replay: the same verdict on every record.

A record the fast path accepts must be one the full replay finds nothing in; every record the
tests validate through `tests.helpers.diagnostics_of` is checked so, and here: generated games of
every game and variant take the fast path, every sample gets the same findings either way, and
any single change to a generated record is never accepted when the full replay objects to it.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from recordkit import quick
from recordkit.archive.read import archive_records
from recordkit.convert.archive import rows_of, to_archive
from recordkit.diagnostics import Location
from recordkit.games import RULESETS
from recordkit.inputs import validate_inputs
from recordkit.quick import clean_deals
from recordkit.reading import raw_records
from recordkit.rules import fastread
from recordkit.rules.base import Ruleset
from recordkit.rules.french_tarot.cards import DECK as TAROT_DECK
from recordkit.sources import RawRecord
from recordkit.validate import RecordReport, Settings, validate_paths, validate_record
from tests.budget import examples
from tests.helpers import codes_of
from tests.test_properties import PROPERTY, games, play

SAMPLES = Path(__file__).parent.parent / "samples"
MANY = settings(PROPERTY, max_examples=int(os.environ.get("RECORDKIT_QUICK_EXAMPLES", examples(150))))


def has_fast_path(ruleset: Ruleset[Any, Any, Any]) -> bool:
    """Whether a game implements `quick_deal` (the others always replay in full)."""
    return type(ruleset).quick_deal is not Ruleset.quick_deal


def test_french_tarot_has_a_fast_path() -> None:
    assert has_fast_path(RULESETS["french-tarot"])


@PROPERTY
@given(games)
def test_generated_games_take_the_fast_path(game: Any) -> None:
    """A legal game as the generator plays it is proven clean without the full replay."""
    data = play(game)
    if data and has_fast_path(game[0]):
        assert clean_deals(data) == len(data["deals"])
        assert codes_of(data) == []


def test_every_sample_gets_the_same_findings_either_way() -> None:
    """Valid and invalid samples: the findings with the fast path are the full replay's."""
    files = sorted(str(path) for path in SAMPLES.rglob("*") if path.suffix in (".json", ".jsonl"))
    assert len(files) > 50
    for strict in (True, False):
        settings = Settings(strict=strict)
        full = [_found(item) for item in validate_paths(files, settings)]
        fast = [_found(item) for item in validate_paths(files, settings, findings_only=True)]
        assert fast == full


def _found(item: Any) -> Any:
    return (item.location, item.diagnostics, item.deals) if hasattr(item, "diagnostics") else item


@MANY
@given(games, st.data())
def test_no_single_change_slips_through_the_fast_path(game: Any, data: st.DataObject) -> None:
    """Change one value anywhere in a generated record (a card, a bid, a seat, a score, a key):
    `codes_of` fails if the fast path accepts what the full replay reports."""
    record = play(game)
    if not record:
        return
    for _ in range(3):
        mutate(record, data, game[0])
        codes_of(record)


def mutate(node: Any, data: st.DataObject, ruleset: Ruleset[Any, Any, Any]) -> None:
    """One change at a random place of a JSON value, in place."""
    while True:
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        if not keys:
            return
        key = data.draw(st.sampled_from(keys))
        child = node[key]
        if isinstance(child, dict | list) and child and data.draw(st.integers(0, 3)):
            node = child
            continue
        node[key] = changed(child, data, ruleset)
        if isinstance(node, dict) and data.draw(st.integers(0, 9)) == 0:
            del node[key]
        return


def changed(value: Any, data: st.DataObject, ruleset: Ruleset[Any, Any, Any]) -> Any:
    """Another value of about the same kind: a nearby number, a card group with one card moved or
    replaced, another word, or a value of another type."""
    if isinstance(value, bool) or value is None:
        return data.draw(st.sampled_from([True, False, None, 0, "x"]))
    if isinstance(value, int | float):
        return data.draw(st.sampled_from([value + 1, value - 1, value + 10, -value, 0, 7, 1.5, str(value)]))
    if isinstance(value, str):
        words = value.split(" ")
        choice = data.draw(st.integers(0, 4))
        if choice == 0 and len(words) > 1:
            i, j = data.draw(st.integers(0, len(words) - 1)), data.draw(st.integers(0, len(words) - 1))
            words[i], words[j] = words[j], words[i]
        elif choice == 1:
            words[data.draw(st.integers(0, len(words) - 1))] = data.draw(st.sampled_from(_codes(ruleset)))
        elif choice == 2:
            words.pop(data.draw(st.integers(0, len(words) - 1)))
        elif choice == 3:
            words.append(data.draw(st.sampled_from([*_codes(ruleset), "pass", "x"])))
        else:
            return data.draw(st.sampled_from([value.lower(), value + " ", "", 3, None, [value]]))
        return " ".join(words)
    if isinstance(value, list):
        return data.draw(st.sampled_from([value[:-1], value + value[-1:], value[::-1], [], None]))
    return data.draw(st.sampled_from([{}, None, []]))


@PROPERTY
@given(games, st.sampled_from(["scores", "totals"]), st.data())
def test_a_score_or_total_written_as_true_or_false_is_left_to_the_full_path(
    game: Any, where: str, data: st.DataObject
) -> None:
    """format.schema: a number is not true or false, though Python holds True == 1 and False == 0,
    so a written score or running total of 0 or 1 turned into a bool is never proven clean."""
    record = play(game)
    places = [
        (numbers, index)
        for deal in record.get("deals", [])
        for numbers in [deal.get("result", {}).get("scores") if where == "scores" else deal.get("totals")]
        for index, value in enumerate(numbers or [])
        if value in (0, 1)
    ]
    if not places:
        return
    numbers, index = data.draw(st.sampled_from(places))
    numbers[index] = bool(numbers[index])
    assert clean_deals(record) is None
    assert codes_of(record)


meta_values = st.one_of(
    st.text(max_size=3),
    st.booleans(),
    st.none(),
    st.integers(),
    st.floats(),
    st.lists(st.integers(), max_size=2),
)


@MANY
@given(games, st.data())
def test_a_header_verdict_kept_by_its_json_is_the_record_models(game: Any, data: st.DataObject) -> None:
    """format.schema: `clean_header` keeps the verdict on a header but its `meta` by that part's
    JSON and validates `meta` apart; after headers that share the kept part, each changed once
    anywhere or given other tags, its verdict and table are the record model's on the whole."""
    record = play(game, deals=1)
    if not record:
        return
    header = {key: value for key, value in record.items() if key != "deals"}
    for _ in range(4):
        changed_header = orjson.loads(orjson.dumps(header))
        if data.draw(st.booleans()):
            mutate(changed_header, data, game[0])
        else:
            changed_header["meta"] = data.draw(st.dictionaries(st.text(max_size=3), meta_values, max_size=3))
        ruleset = quick._ruleset(changed_header, None)
        expected = None if ruleset is None else quick._header_table(ruleset, changed_header)
        for _ in range(2):  # the second time from what was kept
            found = quick.clean_header({**changed_header, "deals": []})
            assert (None if found is None else found[1]) == expected


def _codes(ruleset: Ruleset[Any, Any, Any]) -> list[str]:
    """Every card code of the game's decks (for replacing a card by another)."""
    codes: set[str] = set()
    for players in ruleset.player_counts:
        table, _ = ruleset.table(ruleset.Options(), players)
        if table is not None:
            codes.update(table.deck.codes)
    return sorted(codes)


@PROPERTY
@given(games)
def test_deals_in_the_wrong_order_are_not_accepted(game: Any) -> None:
    """Two deals swapped, the totals written anew: each deal is legal, the rotation is not."""
    record = play(game, deals=3)
    deals = record.get("deals", [])
    if len(deals) < 2 or deals[0]["dealer"] == deals[1]["dealer"]:
        return
    deals[0], deals[1] = deals[1], deals[0]
    totals = [0] * len(record["players"])
    for deal in deals:
        if "result" in deal and "totals" in deal:
            totals = [t + s for t, s in zip(totals, deal["result"]["scores"], strict=True)]
            deal["totals"] = totals
    assert "DEAL-DEALER-ROTATION" in codes_of(record)


@PROPERTY
@given(games)
def test_conversion_on_the_fast_path_writes_the_same_rows(game: Any) -> None:
    """The archive's rows of a record replayed on the fast path are the full replay's, table by table."""
    data = play(game)
    if data:
        assert_same_rows([RawRecord(data, Location(file="generated", line=1))])


def test_conversion_of_the_samples_writes_the_same_rows_either_way() -> None:
    files = sorted(str(path) for path in SAMPLES.rglob("*") if path.suffix in (".json", ".jsonl"))
    assert_same_rows(list(raw_records(files)))


def assert_same_rows(items: list[Any]) -> None:
    fast, full = rows_of(items), rows_of(items, fast=False)
    assert (fast.games, fast.deals, fast.skipped) == (full.games, full.deals, full.skipped)
    for name, batch in full.batches.items():
        assert fast.batches[name].equals(batch), name


@given(st.lists(st.integers(0, 77), min_size=1, max_size=20), st.integers(1, 20))
def test_a_card_group_is_read_as_a_mask_only_when_its_cards_are_different(
    cards: list[int], size: int
) -> None:
    """format.cards / the deck's integrity: `group_mask` sums the cards' bits, and refuses a group
    whose size is not `size` or that names a card twice (however the repeated bits carry)."""
    codes = TAROT_DECK.codes
    bits = fastread.card_bits({code: card for card, code in enumerate(codes)})
    mask = fastread.group_mask(bits, " ".join(codes[card] for card in cards), size)
    if len(cards) == size and len(set(cards)) == size:
        assert mask == sum(1 << card for card in set(cards))
    else:
        assert mask is None


def test_a_card_group_in_another_form_is_left_to_the_full_path() -> None:
    bits = fastread.card_bits({"S1": 0, "S2": 1})
    for text in ("S1  S2", " S1 S2", "S1 S2 ", "s1 S2", ["S1", "S2"], None, 3, "S1 SX"):
        assert fastread.group_mask(bits, text, 2) is None
    assert fastread.group_mask(bits, "S2 S1", 2) == 3


@settings(PROPERTY, max_examples=examples(15))
@given(st.lists(games, min_size=1, max_size=3), st.data())
def test_an_archive_with_injected_violations_gets_the_full_replays_verdicts(
    played: list[Any], data: st.DataObject
) -> None:
    """Generated games, some changed in one place (a violation, most often), converted to an
    archive: validating the archive (the columnar check and the fast path, as `recordkit validate
    ARCHIVE` does) reports exactly what replaying each of its records in full reports."""
    records = [record for record in (play(game) for game in played) if record]
    if not records:
        return
    for record, game in zip(records, played, strict=False):
        if data.draw(st.booleans()):
            mutate(record, data, game[0])
    with tempfile.TemporaryDirectory() as folder:
        source, archive = Path(folder) / "games.jsonl", Path(folder) / "archive"
        source.write_bytes(b"".join(orjson.dumps(record) + b"\n" for record in records))
        to_archive([str(source)], archive)
        fast = [_found(item) for item in validate_inputs([str(archive)], Settings())]
        full = [_found(item) for item in full_replays(archive)]
    assert fast == full


def full_replays(archive: Path) -> list[RecordReport]:
    """Every record of an archive replayed in full from its lossless JSON (no fast path, no columns)."""
    return [
        validate_record(
            RawRecord(orjson.loads(text), Location(file=str(archive), record=game_id + 1))
        ).findings()
        for game_id, text in archive_records(archive)
    ]
