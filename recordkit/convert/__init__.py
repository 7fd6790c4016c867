"""Converting records between their forms (`recordkit convert`): record files (JSON, JSON lines,
the notation) to one another (`convert.records`), records to a Parquet archive and back
(`convert.archive`), and an archive built on a Dask cluster (`convert.distributed`).

Each submodule is imported on its own, by the command that needs it: the archive's need pyarrow.
"""
