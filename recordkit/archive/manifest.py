"""An archive's manifest: its shape checked in one place, and the only paths it may lead to.

The manifest, `_recordkit.json`, lists the committed parts, what each holds (by game) and each
file's SHA-256. Every path a reader opens is built here from names the manifest gives, after they
are checked to be names recordkit writes, and resolved: none may lead outside the archive's folder,
through `..`, an absolute path or a link.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import orjson

from recordkit.archive.tables import ARCHIVE_FORMAT, ARCHIVE_VERSION, TABLES, required_tables
from recordkit.model import FORMAT_VERSION
from recordkit.version import __version__

MANIFEST = "_recordkit.json"
PARTITIONED = 4
"""The archive version from which each table is partitioned by game (`<table>/game=<game>/`)."""
PART_NAME = re.compile(r"part-[0-9]{5,9}")
GAME_NAME = re.compile(r"[a-z][a-z0-9-]{0,39}")
TABLE_NAME = re.compile(r"[a-z][a-z_]{0,39}")
CHECKSUM = re.compile(r"[0-9a-f]{64}")
MANIFEST_BYTES = 64 * 1024 * 1024
"""The largest manifest read (a million parts take about 200 MB; no archive has so many)."""


class ArchiveError(Exception):
    """An archive that cannot be read or written; the message names the file (`path`, when given
    apart from what is wrong with it, `reason`)."""

    def __init__(self, reason: str, path: Path | None = None) -> None:
        super().__init__(reason if path is None else f"{path}: {reason}")
        self.reason, self.path = reason, path


@dataclass
class Manifest:
    """What an archive holds: its parts in order, their games and counts, and their files' SHA-256."""

    format: str = ARCHIVE_FORMAT
    version: int = ARCHIVE_VERSION
    record_format: str = FORMAT_VERSION
    tool: str = f"recordkit {__version__}"
    parts: list[str] = field(default_factory=list)
    games: int = 0
    deals: int = 0
    extra_tables: list[str] = field(default_factory=list)
    contents: dict[str, dict[str, dict[str, int]]] = field(default_factory=dict)
    """Version 4: for each part, the games it holds and their counts (`{"games": 3, "deals": 12}`)."""
    checksums: dict[str, dict[str, str]] = field(default_factory=dict)
    """SHA-256 of each part's table files as written (by table name before version 4, by the
    file's path in the archive from version 4): the columnar check trusts a part's rows only while
    its files are the ones recordkit wrote from the records."""

    def dumps(self) -> bytes:
        """The manifest file's content."""
        return orjson.dumps(asdict(self), option=orjson.OPT_INDENT_2) + b"\n"

    def units(self, part: str) -> list[str | None]:
        """The games of a part, each with its own files (version 4); [None] for the single set of
        files of an older part."""
        if self.version < PARTITIONED:
            return [None]
        return [*sorted(self.contents.get(part, {}))]

    def checksum(self, part: str, table: str, game: str | None) -> str | None:
        """The SHA-256 recorded for a table's file of a part (and game), if any."""
        written = self.checksums.get(part, {})
        return written.get(table if game is None else relative_file(table, part, game))

    def counts(self, part: str, game: str | None) -> dict[str, int] | None:
        """The records and deals the manifest says a part holds of a game (version 4)."""
        return None if game is None else self.contents.get(part, {}).get(game)


def relative_file(table: str, part: str, game: str | None) -> str:
    """A table's file of a part, as a path inside the archive."""
    return f"{table}/{part}.parquet" if game is None else f"{table}/game={game}/{part}.parquet"


def is_archive(path: Path) -> bool:
    """True for a directory that has an archive manifest."""
    return (path / MANIFEST).is_file()


def read_manifest(path: Path) -> Manifest:
    """The manifest of an archive, checked: its shape, format, version, and every file of every
    part present and inside the archive."""
    manifest_path = path / MANIFEST
    if not path.is_dir():
        raise ArchiveError(f"{path}: not a directory, so not a recordkit archive")
    if not manifest_path.is_file():
        raise ArchiveError(f"{path}: not a recordkit archive (no {MANIFEST})")
    inside(path, manifest_path)
    try:
        with manifest_path.open("rb") as file:
            text = file.read(MANIFEST_BYTES + 1)
        data = orjson.loads(text) if len(text) <= MANIFEST_BYTES else None
    except OSError as error:
        raise ArchiveError(f"{manifest_path}: cannot be read ({error.strerror})") from None
    except orjson.JSONDecodeError:
        raise ArchiveError(f"{manifest_path}: unreadable manifest (not JSON)") from None
    if data is None:
        raise ArchiveError(f"{manifest_path}: the manifest is larger than {MANIFEST_BYTES} bytes")
    manifest = checked(data, manifest_path)
    for part in manifest.parts:
        for game in manifest.units(part):
            for table in required_tables(manifest.version):
                part_path = part_file(path, table, part, game)
                if not part_path.is_file():
                    raise ArchiveError(f"{part_path}: missing; the archive's table {table!r} is incomplete")
    return manifest


def checked(data: Any, where: Path) -> Manifest:
    """The manifest a JSON value describes, or an ArchiveError saying which field is wrong."""
    if not isinstance(data, dict):
        raise ArchiveError(f"{where}: the manifest is not a JSON object")
    unknown = sorted(set(data) - set(Manifest.__dataclass_fields__))
    if unknown:
        raise ArchiveError(f"{where}: the manifest has fields recordkit does not know: {', '.join(unknown)}")
    if data.get("format") != ARCHIVE_FORMAT:
        raise ArchiveError(f"{where}: format {_shown(data.get('format'))} is not {ARCHIVE_FORMAT!r}")
    version = data.get("version")
    if not isinstance(version, int) or not _is_count(version) or version < 1:
        raise ArchiveError(f"{where}: the archive version {_shown(version)} is not a whole number from 1")
    if version > ARCHIVE_VERSION:
        raise ArchiveError(
            f"{where}: archive version {version} is newer than this recordkit reads "
            f"({ARCHIVE_VERSION}); upgrade recordkit"
        )
    for name in ("record_format", "tool"):
        if name in data and not isinstance(data[name], str):
            raise ArchiveError(f"{where}: {name} is {_shown(data[name])}, not text")
    for name in ("games", "deals"):
        if name in data and not _is_count(data[name]):
            raise ArchiveError(f"{where}: {name} is {_shown(data[name])}, not a count")
    parts = _names(data.get("parts"), PART_NAME, "parts", where)
    extra = _names(data.get("extra_tables", []), TABLE_NAME, "extra_tables", where)
    if set(extra) & set(TABLES):
        raise ArchiveError(f"{where}: extra_tables names one of the archive's own tables")
    contents = _contents(data.get("contents", {}), parts, version, where)
    checksums = _checksums(data.get("checksums", {}), where)
    return Manifest(
        format=ARCHIVE_FORMAT,
        version=version,
        record_format=data.get("record_format", FORMAT_VERSION),
        tool=data.get("tool", ""),
        parts=parts,
        games=data.get("games", 0),
        deals=data.get("deals", 0),
        extra_tables=extra,
        contents=contents,
        checksums=checksums,
    )


def _names(value: Any, pattern: re.Pattern[str], name: str, where: Path) -> list[str]:
    """A list of distinct names each of the form recordkit writes (so none is a path)."""
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ArchiveError(f"{where}: {name} is {_shown(value)}, not a list of names")
    for item in value:
        if not pattern.fullmatch(item):
            raise ArchiveError(f"{where}: {name} lists {item!r}, which is not a name recordkit writes")
    twice = sorted({item for item in value if value.count(item) > 1})
    if twice:
        raise ArchiveError(f"{where}: {name} lists {', '.join(twice)} more than once")
    return list(value)


def _contents(
    value: Any, parts: list[str], version: int, where: Path
) -> dict[str, dict[str, dict[str, int]]]:
    """Each part's games and their counts; every part of a version 4 archive has its entry."""
    if not isinstance(value, dict):
        raise ArchiveError(f"{where}: contents is {_shown(value)}, not an object")
    for part, games in value.items():
        if not isinstance(games, dict):
            raise ArchiveError(f"{where}: contents of {part!r} is {_shown(games)}, not an object")
        for game, counts in games.items():
            if not GAME_NAME.fullmatch(game):
                raise ArchiveError(f"{where}: contents of {part!r} names {game!r}, which is not a game name")
            if (
                not isinstance(counts, dict)
                or set(counts) != {"games", "deals"}
                or not all(_is_count(n) for n in counts.values())
            ):
                raise ArchiveError(f"{where}: contents of {part!r}, {game!r} is {_shown(counts)}, not counts")
    if version >= PARTITIONED:
        missing = [part for part in parts if part not in value]
        if missing:
            raise ArchiveError(f"{where}: contents does not say what {missing[0]!r} holds")
    return value


def _checksums(value: Any, where: Path) -> dict[str, dict[str, str]]:
    """Each part's files' SHA-256, as hex text."""
    if not isinstance(value, dict) or not all(isinstance(files, dict) for files in value.values()):
        raise ArchiveError(f"{where}: checksums is {_shown(value)}, not an object of objects")
    for files in value.values():
        for digest in files.values():
            if not isinstance(digest, str) or not CHECKSUM.fullmatch(digest):
                raise ArchiveError(f"{where}: checksums holds {_shown(digest)}, not a SHA-256 in hex")
    return value


def _is_count(value: Any) -> bool:
    return type(value) is int and value >= 0


def _shown(value: Any) -> str:
    """A value of the manifest as the message shows it, cut short."""
    text = orjson.dumps(value).decode() if not isinstance(value, str) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def inside(archive: Path, path: Path) -> Path:
    """`path`, after checking that it resolves (links followed) to a place inside `archive`."""
    try:
        resolved, root = path.resolve(), archive.resolve()
    except (OSError, RuntimeError):
        raise ArchiveError(f"{path}: cannot be resolved (a loop of links?)") from None
    if not resolved.is_relative_to(root):
        raise ArchiveError(f"{path}: leads outside the archive's folder; recordkit does not read it")
    return path


def part_file(archive: Path, table: str, part: str, game: str | None) -> Path:
    """The file of a table's part (and game) that readers open, checked to lie inside the archive."""
    return inside(archive, archive / relative_file(table, part, game))


def extra_files(archive: Path, table: str) -> list[Path]:
    """The Parquet files of an extra table (the violations), each checked to lie inside the archive."""
    folder = inside(archive, archive / table)
    return [inside(archive, path) for path in sorted(folder.glob("*.parquet"))] if folder.is_dir() else []


def file_checksum(path: Path) -> str:
    """The SHA-256 of a file, in hex."""
    with path.open("rb") as file:
        return hashlib.file_digest(file, "sha256").hexdigest()
