"""The curated order by difficulty, easiest first, of a Parquet file of any size: an external sort.

Easiest first, ties by deal_id, null difficulties last (pyarrow's default),
as the Python key ``(difficulty is None, difficulty, deal_id)`` would order
them; :data:`DIFFICULTY_ORDER` says it to pyarrow. Deals *placed* by another
measure (what play-testers met: ``blackhole curate --plays``) swap places
among themselves so that their order follows it, ties keeping the order by
difficulty; every other deal keeps its place.

>>> DIFFICULTY_ORDER
[('difficulty', 'ascending'), ('deal_id', 'ascending')]
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import ExitStack
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from pipeline.packs.parquet import BATCH_ROWS, read_pack_file_batches, writing_pack_file

RANGE_ROWS = 100_000  # rows sorted in memory at a time
DIFFICULTY_ORDER = [("difficulty", "ascending"), ("deal_id", "ascending")]  # as pyarrow's sort_keys
_RANK = "curation_rank"  # the column a sorted range file carries its rows' ranks in
_UNCHECKED = pa.schema([])  # our own temporary files: no columns to check


def sorted_by_difficulty(
    path: Path,
    staging: Path,
    *,
    batch_rows: int = BATCH_ROWS,
    range_rows: int = RANGE_ROWS,
    placed: Mapping[str, float] | None = None,
) -> Iterator[pa.Table]:
    """The rows of the Parquet file at ``path`` easiest first (ties by deal_id), in tables of at most ``range_rows``.

    An external sort: only the sort keys of every row are read at once
    (difficulty and deal_id, with each row's sort index and rank: about
    60 bytes a row). Each row then goes, read ``batch_rows`` at a time, to the
    temporary file in ``staging`` of its range of ``range_rows`` ranks; the
    ranges are read back in order, each sorted in memory by rank, and deleted.
    The rows whose deal_id is a key of ``placed`` take the ranks they hold
    between them in the order of their values there (ties by rank).
    """
    keys = pq.read_table(path, columns=[name for name, _ in DIFFICULTY_ORDER])
    ranks = np.empty(keys.num_rows, np.int64)
    ranks[pc.sort_indices(keys, sort_keys=DIFFICULTY_ORDER).to_numpy()] = np.arange(keys.num_rows)
    if placed:
        _place(ranks, keys.column("deal_id").to_pylist(), placed)
    del keys
    ranges = [staging / f"range-{number}.parquet" for number in range(-(-len(ranks) // range_rows))]
    with ExitStack() as stack:
        writers = [stack.enter_context(writing_pack_file(part)) for part in ranges]
        start = 0
        for batch in read_pack_file_batches(path, _UNCHECKED, batch_rows=batch_rows):
            batch_ranks = ranks[start : start + batch.num_rows]
            start += batch.num_rows
            ranked = batch.append_column(_RANK, pa.array(batch_ranks))
            which = batch_ranks // range_rows
            for number in np.unique(which):
                writers[number](ranked.filter(pa.array(which == number)))
    del ranks
    for part in ranges:
        table = pq.read_table(part)
        part.unlink()
        yield table.take(pc.sort_indices(table.column(_RANK))).drop_columns([_RANK])


def _place(ranks: np.ndarray, deal_ids: list[str], placed: Mapping[str, float]) -> None:
    """Give the rows of ``deal_ids`` found in ``placed`` the ranks they hold, in the order of their values.

    >>> ranks = np.array([0, 1, 2, 3])
    >>> _place(ranks, ["a", "b", "c", "d"], {"a": 9.0, "c": 1.0})
    >>> ranks.tolist()
    [2, 1, 0, 3]
    """
    rows = [row for row, deal_id in enumerate(deal_ids) if deal_id in placed]
    held = sorted(ranks[row] for row in rows)
    for row, rank in zip(
        sorted(rows, key=lambda row: (placed[deal_ids[row]], ranks[row])), held, strict=True
    ):
        ranks[row] = rank
