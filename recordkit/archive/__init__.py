"""Parquet archives of records: tables analysts query, and the lossless records to convert back."""

from recordkit.archive.read import archive_records
from recordkit.archive.store import ArchiveError, is_archive, read_manifest

__all__ = [
    "ArchiveError",
    "archive_records",
    "is_archive",
    "read_manifest",
]
