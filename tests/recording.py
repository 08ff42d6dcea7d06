"""A stand-in for pack_folder_batches that records what a command read, for the streaming tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pyarrow as pa

from pipeline.packs.folders import pack_folder_batches


class Recorder:
    """pack_folder_batches, recording the columns asked for and the rows of each batch handed out."""

    def __init__(self) -> None:
        self.columns: list[list[str] | None] = []
        self.batches: list[int] = []

    def __call__(
        self, folder: Path, *, columns: list[str] | None = None, batch_rows: int
    ) -> Iterator[pa.Table]:
        self.columns.append(columns)
        for batch in pack_folder_batches(folder, columns=columns, batch_rows=batch_rows):
            self.batches.append(batch.num_rows)
            yield batch
