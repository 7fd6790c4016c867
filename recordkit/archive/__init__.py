"""Parquet archives of records: tables analysts query, and the lossless records to convert back."""

from recordkit.archive.convert import ConvertReport, from_archive, to_archive
from recordkit.archive.read import archive_records
from recordkit.archive.store import ArchiveError, is_archive, read_manifest

__all__ = [
    "ArchiveError",
    "ConvertReport",
    "archive_records",
    "from_archive",
    "is_archive",
    "read_manifest",
    "to_archive",
]
