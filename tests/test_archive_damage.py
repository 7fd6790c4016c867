"""Archives damaged or rewritten by another tool, paths that leave them, silent loss, the layout
by game that other readers open, and a record that cannot be archived (issues 15 and 16)."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

import orjson
import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner, Result

from recordkit.archive import archive_records
from recordkit.archive.tables import TABLES, Rows
from recordkit.cli import app
from recordkit.columnar import archive_items
from recordkit.convert.archive import to_archive
from recordkit.games import RULESETS
from recordkit.generate import generate_record
from recordkit.model import to_data
from recordkit.sources import RawRecord
from recordkit.validate import RecordReport, Settings
from tests.helpers import flat_archive, generated

runner = CliRunner()
TAROT = "game=french-tarot"


def records() -> list[dict[str, Any]]:
    """Five records of two games, interleaved: French Tarot, Joffre, French Tarot..."""
    joffre = [
        orjson.loads(orjson.dumps(to_data(generate_record(RULESETS["joffre"], 4, 2, s)))) for s in (1, 2)
    ]
    tarot = [generated(4, seed, deals=2) for seed in (1, 2, 3)]
    return [tarot[0], joffre[0], tarot[1], joffre[1], tarot[2]]


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("template")
    source = folder / "in.jsonl"
    source.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in records()))
    to_archive([str(source)], folder / "archive")
    return folder / "archive"


@pytest.fixture()
def archive(template: Path, tmp_path: Path) -> Path:
    """A fresh copy of an archive of five records of two games, to damage."""
    return Path(shutil.copytree(template, tmp_path / "archive"))


def invoke(*args: str) -> Result:
    """A command run in-process; no exception may escape it."""
    result = runner.invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def manifest_of(archive: Path) -> dict[str, Any]:
    data: dict[str, Any] = orjson.loads((archive / "_recordkit.json").read_bytes())
    return data


def write_manifest(archive: Path, data: Any) -> None:
    (archive / "_recordkit.json").write_bytes(orjson.dumps(data))


def rewrite(path: Path, column: str, row: int, value: Any) -> None:
    """Set one cell of a Parquet file, as another tool might."""
    table = pq.read_table(path)
    values = table.column(column).to_pylist()
    values[row] = value
    index = table.schema.get_field_index(column)
    pq.write_table(
        table.set_column(index, table.schema.field(index), pa.array(values, table.schema.field(index).type)),
        path,
    )


def records_back(archive: Path, tmp_path: Path) -> tuple[Result, list[bytes]]:
    output = tmp_path / "back.jsonl"
    result = invoke("convert", str(archive), str(output))
    return result, output.read_bytes().splitlines() if output.exists() else []


# --- the layout: each table its own dataset, partitioned by game ----------------------------------


def test_each_table_is_its_own_dataset_partitioned_by_game(archive: Path) -> None:
    """pyarrow.dataset at a table's folder gives that table's columns (with `game` from the folder
    names) and rows; a filter on the game reads only that game's files."""
    for table, schema in TABLES.items():
        dataset = ds.dataset(archive / table, format="parquet", partitioning="hive")
        assert set(dataset.schema.names) == set(schema.names) | {"game"}, table
    games = ds.dataset(archive / "games", format="parquet", partitioning="hive").to_table()
    assert sorted(games.column("game").to_pylist()) == ["french-tarot"] * 3 + ["joffre"] * 2
    plays = ds.dataset(archive / "plays", format="parquet", partitioning="hive")
    fragments = plays.get_fragments(filter=ds.field("game") == "joffre")
    assert {Path(fragment.path).parent.name for fragment in fragments} == {"game=joffre"}
    assert plays.count_rows(filter=ds.field("game") == "joffre") == 2 * 2 * 32  # 2 records, 2 deals, 8 tricks


def test_the_documented_duckdb_line_reads_each_table(archive: Path) -> None:
    duckdb = pytest.importorskip("duckdb")
    text = (Path(__file__).parent.parent / "spec" / "ARCHIVE.md").read_text()
    assert "read_parquet('out/archive/deals/*/*.parquet', hive_partitioning = true)" in text
    for table in TABLES:
        query = f"SELECT game, count(*) FROM read_parquet('{archive}/{table}/*/*.parquet', hive_partitioning = true) GROUP BY game ORDER BY game"
        rows = duckdb.sql(query).fetchall()
        assert [game for game, _count in rows] == ["french-tarot", "joffre"], table
    assert duckdb.sql(
        f"SELECT count(*) FROM read_parquet('{archive}/deals/*/*.parquet', hive_partitioning = true)"
    ).fetchall() == [(10,)]


def test_pandas_and_polars_read_a_table(archive: Path) -> None:
    """The documented pandas and Polars lines, where they are installed."""
    try:
        import pandas as pd

        assert len(pd.read_parquet(archive / "deals")) == 10
    except ImportError:
        pass
    try:
        import polars as pl

        assert pl.read_parquet(archive / "deals" / "*" / "*.parquet", hive_partitioning=True).height == 10
    except ImportError:
        pass


def test_records_of_several_games_come_back_in_order(archive: Path, tmp_path: Path) -> None:
    result, lines = records_back(archive, tmp_path)
    assert result.exit_code == 0
    assert [orjson.loads(line)["game"] for line in lines] == ["french-tarot", "joffre"] * 2 + ["french-tarot"]
    assert invoke("validate", str(archive)).exit_code == 0
    assert invoke("stats", str(archive)).exit_code == 0


def test_an_archive_of_version_3_is_still_read(tmp_path: Path) -> None:
    """The layout before version 4 (`<table>/part-NNNNN.parquet`) is read by all three commands."""
    source = tmp_path / "in.jsonl"
    source.write_bytes(b"".join(orjson.dumps(generated(4, s)) + b"\n" for s in range(3)))
    to_archive([str(source)], tmp_path / "archive")
    before = [text for _id, text in archive_records(tmp_path / "archive")]
    flat_archive(tmp_path / "archive", 3)
    assert [text for _id, text in archive_records(tmp_path / "archive")] == before
    items = list(archive_items(tmp_path / "archive", Settings()))
    assert all(isinstance(item, RecordReport) for item in items)  # still proven by the columns
    assert invoke("validate", str(tmp_path / "archive")).exit_code == 0
    assert invoke("stats", str(tmp_path / "archive")).exit_code == 0
    result = invoke("convert", str(source), str(tmp_path / "archive"), "--append")
    assert result.exit_code == 2 and "convert it back" in result.output


# --- the manifest ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("version", "2", "version"),
        ("version", None, "version"),
        ("version", [], "version"),
        ("version", True, "version"),
        ("parts", None, "parts"),
        ("parts", "part-00000", "parts"),
        ("parts", [3], "parts"),
        ("checksums", "x", "checksums"),
        ("checksums", {"part-00000": 5}, "checksums"),
        ("checksums", {"part-00000": {"games": 5}}, "checksums"),
        ("contents", None, "contents"),
        ("contents", {"part-00000": {"joffre": 2}}, "contents"),
        ("games", -1, "games"),
        ("deals", "10", "deals"),
        ("extra_tables", ["games"], "extra_tables"),
        ("tool", 4, "tool"),
    ],
)
def test_a_manifest_field_of_the_wrong_shape_is_named(
    archive: Path, tmp_path: Path, field: str, value: Any, said: str
) -> None:
    write_manifest(archive, {**manifest_of(archive), field: value})
    for args in (
        ["validate", str(archive)],
        ["convert", str(archive), str(tmp_path / "o.jsonl")],
        ["stats", str(archive)],
    ):
        result = invoke(*args)
        assert result.exit_code == 2 and said in result.output and "_recordkit.json" in result.output, args


@pytest.mark.parametrize("content", [b"", b"[]", b"{", b"null", b'"recordkit-archive"'])
def test_a_manifest_that_is_not_an_object_is_named(archive: Path, content: bytes) -> None:
    (archive / "_recordkit.json").write_bytes(content)
    result = invoke("validate", str(archive))
    assert result.exit_code == 2 and "_recordkit.json" in result.output


def test_a_part_listed_twice_is_refused(archive: Path, tmp_path: Path) -> None:
    manifest = manifest_of(archive)
    write_manifest(archive, {**manifest, "parts": ["part-00000", "part-00000"]})
    result, lines = records_back(archive, tmp_path)
    assert result.exit_code == 2 and "more than once" in result.output and lines == []


def test_a_part_copied_under_another_name_is_read_once(archive: Path, tmp_path: Path) -> None:
    """A part's files copied as a new part (the manifest's counts and checksums made to match):
    its records come again with the same game ids, and are reported rather than doubled."""
    manifest = manifest_of(archive)
    for path in list(archive.rglob("part-00000.parquet")):
        shutil.copy(path, path.with_name("part-00001.parquet"))
    manifest["parts"].append("part-00001")
    manifest["contents"]["part-00001"] = manifest["contents"]["part-00000"]
    manifest["checksums"]["part-00001"] = {
        key.replace("part-00000", "part-00001"): digest
        for key, digest in manifest["checksums"]["part-00000"].items()
    }
    manifest.update(games=10, deals=20)
    write_manifest(archive, manifest)
    result, lines = records_back(archive, tmp_path)
    assert result.exit_code == 2 and "comes again" in result.output and len(lines) == 5
    result = invoke("validate", str(archive))
    assert result.exit_code == 2 and "5 record(s), 10 deal(s)" in result.output


def test_counts_that_do_not_match_the_tables_are_reported(archive: Path) -> None:
    write_manifest(archive, {**manifest_of(archive), "games": 6})
    result = invoke("validate", str(archive))
    assert result.exit_code == 2 and "counts 6 record(s)" in result.output and "5 record(s)" in result.output


# --- paths that leave the archive -----------------------------------------------------------------


@pytest.mark.parametrize("part", ["../../outside/games/part-00000", "/etc/passwd", "part-00000/../x", ""])
def test_a_part_name_that_is_a_path_is_refused(archive: Path, part: str) -> None:
    write_manifest(archive, {**manifest_of(archive), "parts": [part]})
    for command in ("validate", "stats"):
        result = invoke(command, str(archive))
        assert result.exit_code == 2 and "not a name recordkit writes" in result.output


def test_a_game_or_table_name_that_is_a_path_is_refused(archive: Path) -> None:
    manifest = manifest_of(archive)
    write_manifest(archive, {**manifest, "contents": {"part-00000": {"../../x": {"games": 1, "deals": 1}}}})
    assert "not a game name" in invoke("validate", str(archive)).output
    write_manifest(archive, {**manifest, "extra_tables": ["../violations"]})
    assert "not a name recordkit writes" in invoke("stats", str(archive)).output


def test_a_link_out_of_the_archive_is_not_followed(archive: Path, tmp_path: Path) -> None:
    """A part file, or a table's folder, that is a link to a place outside the archive."""
    outside = tmp_path / "outside"
    outside.mkdir()
    part = archive / "deals" / TAROT / "part-00000.parquet"
    shutil.copy(part, outside / "part-00000.parquet")
    part.unlink()
    part.symlink_to(outside / "part-00000.parquet")
    for args in (
        ["validate", str(archive)],
        ["convert", str(archive), str(tmp_path / "o.jsonl")],
        ["stats", str(archive)],
    ):
        result = invoke(*args)
        assert result.exit_code == 2 and "leads outside the archive" in result.output, args
    part.unlink()
    shutil.move(archive / "plays", outside / "plays")
    (archive / "plays").symlink_to(outside / "plays")
    shutil.copy(outside / "part-00000.parquet", part)
    result = invoke("stats", str(archive))
    assert result.exit_code == 2 and "leads outside the archive" in result.output


# --- damaged files and rows -----------------------------------------------------------------------


@pytest.mark.parametrize("cut", [0, 100])
def test_stats_on_a_truncated_or_emptied_part_exits_2(archive: Path, cut: int) -> None:
    part = archive / "deals" / "game=joffre" / "part-00000.parquet"
    part.write_bytes(part.read_bytes()[:cut])
    result = invoke("stats", str(archive))
    assert result.exit_code == 2 and "deals/game=joffre/part-00000.parquet" in result.output
    assert "magic" not in result.output.lower()


def test_a_damaged_part_of_one_game_leaves_the_other_game(archive: Path, tmp_path: Path) -> None:
    (archive / "games" / "game=joffre" / "part-00000.parquet").write_bytes(b"PAR1 not really")
    result, lines = records_back(archive, tmp_path)
    assert result.exit_code == 2 and "games/game=joffre/part-00000.parquet" in result.output
    assert [orjson.loads(line)["game"] for line in lines] == ["french-tarot"] * 3
    result = invoke("validate", str(archive))
    assert result.exit_code == 2 and "3 record(s)" in result.output


@pytest.mark.parametrize(
    ("table", "column", "value", "said"),
    [
        ("deals", "deal_json", "{not json", "deal_json of deal 2 is not JSON"),
        ("deals", "deal_json", None, "deal_json of deal 2 is empty"),
        ("games", "record", None, "its record is empty"),
        ("games", "record", "[1, 2", "its record is not JSON"),
        ("games", "record", "[1, 2]", "its record is not a JSON object"),
        ("games", "n_deals", None, "n_deals is null"),
        ("games", "n_deals", -5, "n_deals is -5"),
        ("games", "n_deals", 1, "n_deals says 1 deal(s), but the deals table holds 2"),
        ("deals", "deal", 7, "not numbered 1 to n_deals"),
        ("games", "game_id", None, "has no game_id"),
    ],
)
def test_a_bad_cell_is_named_and_the_other_records_read(
    archive: Path, tmp_path: Path, table: str, column: str, value: Any, said: str
) -> None:
    """One cell of the second French Tarot record (game_id 2: its deals are rows 2 and 3)."""
    rewrite(archive / table / TAROT / "part-00000.parquet", column, 1 if table == "games" else 3, value)
    result = invoke("validate", str(archive))
    assert (
        result.exit_code == 2
        and said in result.output
        and f"{table}/{TAROT}/part-00000.parquet" in result.output
    )
    assert "4 record(s)" in result.output
    if column != "game_id":
        assert "record 3" in result.output
    result, lines = records_back(archive, tmp_path)
    assert result.exit_code == 2 and said in result.output and len(lines) == 4
    assert all(orjson.loads(line)["deals"] for line in lines)


def test_n_deals_negative_no_longer_passes_as_clean(archive: Path) -> None:
    """Issue 15: `games.n_deals = -5` made validate say "0 deals" and exit 0."""
    rewrite(archive / "games" / TAROT / "part-00000.parquet", "n_deals", 0, -5)
    result = invoke("validate", str(archive))
    assert result.exit_code == 2 and "n_deals is -5" in result.output


def test_a_table_file_replaced_by_another_tables_is_named(archive: Path, tmp_path: Path) -> None:
    shutil.copy(
        archive / "plays" / TAROT / "part-00000.parquet", archive / "deals" / TAROT / "part-00000.parquet"
    )
    for args in (
        ["validate", str(archive)],
        ["convert", str(archive), str(tmp_path / "o.jsonl")],
        ["stats", str(archive)],
    ):
        result = invoke(*args)
        assert result.exit_code == 2 and "not the archive's deals table" in result.output, args
        assert "KeyError" not in result.output


def test_deal_rows_of_no_record_are_reported(archive: Path, tmp_path: Path) -> None:
    rewrite(archive / "deals" / TAROT / "part-00000.parquet", "game_id", 5, 3)
    result, _lines = records_back(archive, tmp_path)
    assert result.exit_code == 2 and "game_id 3, which no games row has" in result.output


# --- large row groups written by another tool -----------------------------------------------------


def test_a_large_row_group_is_read_in_batches_not_whole(
    archive: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A row group larger than the columnar check reads whole (here 2 games) takes the record
    path, in bounded batches, with the same verdicts, even when its checksums match."""
    kinds = [type(item) for item in archive_items(archive, Settings())]
    assert kinds == [RecordReport] * 5  # French Tarot and Joffre both have a columnar check
    monkeypatch.setattr("recordkit.columnar.GROUP_DEALS", 2)
    monkeypatch.setattr("recordkit.archive.read.READ_ROWS", 1)
    assert [type(item) for item in archive_items(archive, Settings())] == [RawRecord] * 5
    assert invoke("validate", str(archive)).exit_code == 0


# --- a record that cannot be archived -------------------------------------------------------------


def test_a_number_too_large_to_archive_skips_its_record_only(tmp_path: Path) -> None:
    """Issue 15: a score of 2**64 ended the whole conversion with orjson's TypeError."""
    huge = generated(4, 2)
    huge["deals"][0]["result"]["scores"][0] = 18446744073709551616
    lines = [orjson.dumps(generated(4, 1)), json.dumps(huge).encode(), orjson.dumps(generated(4, 3))]
    source = tmp_path / "in.jsonl"
    source.write_bytes(b"".join(line + b"\n" for line in lines))
    result = invoke("convert", str(source), str(tmp_path / "archive"))
    assert result.exit_code == 0 and "in.jsonl:2" in result.output and "skipped 1" in result.output
    assert len(list(archive_records(tmp_path / "archive"))) == 2


def test_any_failure_building_a_records_rows_skips_that_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The last line of defence: whatever building one record's rows raises, that record is
    reported with its place and the others land."""
    original = Rows.add

    def failing(self: Rows, game_id: int, report: Any, source: str) -> None:
        if source.endswith(":2"):
            raise RuntimeError("unexpected")
        original(self, game_id, report, source)

    monkeypatch.setattr(Rows, "add", failing)
    source = tmp_path / "in.jsonl"
    source.write_bytes(b"".join(orjson.dumps(generated(4, s)) + b"\n" for s in range(4)))
    result = invoke("convert", str(source), str(tmp_path / "archive"))
    assert result.exit_code == 0 and "RECORD-UNARCHIVABLE" in result.output and "in.jsonl:2" in result.output
    assert "unexpected" not in result.output
    assert len(list(archive_records(tmp_path / "archive"))) == 3


def test_checksums_are_of_the_files_as_written(archive: Path) -> None:
    manifest = manifest_of(archive)
    for key, digest in manifest["checksums"]["part-00000"].items():
        assert hashlib.sha256((archive / key).read_bytes()).hexdigest() == digest
    assert manifest["contents"]["part-00000"] == {
        "french-tarot": {"games": 3, "deals": 6},
        "joffre": {"games": 2, "deals": 4},
    }


# --- files changed since recordkit wrote them (issue 33) ------------------------------------------


def trust(archive: Path, path: Path) -> None:
    """Make the manifest's checksum of a file the file's own (as a tool hiding its change would)."""
    manifest = manifest_of(archive)
    manifest["checksums"]["part-00000"][str(path.relative_to(archive))] = hashlib.sha256(
        path.read_bytes()
    ).hexdigest()
    write_manifest(archive, manifest)


@pytest.mark.parametrize(
    ("table", "column", "value"), [("games", "n_deals", -5), ("scores", "score", 0), ("deals", "made", None)]
)
def test_stats_refuses_a_file_changed_since_it_was_written(
    archive: Path, table: str, column: str, value: Any
) -> None:
    """Issue 33: `n_deals = -5` gave negative deal counts and zeroed scores an average of 0.0,
    exit 0: stats now checks the manifest's checksums of the files it reads, as validation does."""
    path = archive / table / TAROT / "part-00000.parquet"
    for row in range(2):
        rewrite(path, column, row, value)
    result = invoke("stats", str(archive))
    assert result.exit_code == invoke("validate", str(archive)).exit_code == 2
    assert (
        f"{table}/{TAROT}/part-00000.parquet: error ARCHIVE-UNREADABLE: changed since recordkit wrote it"
        in (result.output)
    )
    assert "no figures are given" in result.output and "Games" not in result.output


def test_stats_refuses_counts_of_deals_that_disagree_even_with_the_checksum_made_to_match(
    archive: Path,
) -> None:
    path = archive / "games" / TAROT / "part-00000.parquet"
    rewrite(path, "n_deals", 0, -5)
    trust(archive, path)
    result = invoke("stats", str(archive))
    assert result.exit_code == 2 and "record 1: error ARCHIVE-UNREADABLE: n_deals is -5, but the deals" in (
        result.output
    )


def test_validate_reports_a_derived_table_changed_since_it_was_written(archive: Path) -> None:
    """Issue 33: the records validate from their JSON, but a calls, plays, tricks or scores file
    no longer the one recordkit wrote said nothing; it is now reported (exit 2, as damage)."""
    assert invoke("validate", str(archive)).exit_code == 0
    for table in ("calls", "plays", "tricks", "scores"):
        path = archive / table / "game=joffre" / "part-00000.parquet"
        shutil.copy(path, path.with_suffix(".keep"))
        pq.write_table(pq.read_table(path).slice(1), path)  # a row dropped
        result = invoke("validate", str(archive))
        assert result.exit_code == 2, table
        assert f"{table}/game=joffre/part-00000.parquet: error ARCHIVE-UNREADABLE: changed" in result.output
        assert "5 record(s), 10 deal(s): 1 error(s)" in result.output
        shutil.move(path.with_suffix(".keep"), path)


def test_a_deals_file_without_deal_json_is_reported_by_validate_as_by_the_others(tmp_path: Path) -> None:
    """Issue 33: with its checksum made to match, a deals file without `deal_json` gave KeyError
    in `validate` (of records the columns do not prove: here a wrong score)."""
    wrong = generated(4, 1, deals=2)
    wrong["deals"][0]["result"]["scores"][0] += 1
    source = tmp_path / "in.jsonl"
    source.write_bytes(orjson.dumps(wrong) + b"\n" + orjson.dumps(generated(4, 2, deals=2)) + b"\n")
    to_archive([str(source)], tmp_path / "archive", valid_only=False)
    archive = tmp_path / "archive"
    path = archive / "deals" / TAROT / "part-00000.parquet"
    pq.write_table(pq.read_table(path).drop_columns(["deal_json"]), path)
    trust(archive, path)
    for args in (
        ["validate", str(archive)],
        ["convert", str(archive), str(tmp_path / "o.jsonl")],
        ["stats", str(archive)],
    ):
        result = invoke(*args)
        assert result.exit_code == 2 and "has no column 'deal_json'" in result.output, (args, result.output)
        assert "KeyError" not in result.output
