"""One pass of a stage over a pack file: read and check it, map the work over its deals, add columns, write.

``blackhole solve``, ``crosscheck`` and ``grade`` each take a pack file and
write another with their columns added; :func:`over_pack` is the path they
share, so each checks its destination before any work, reads the same way,
names bad rows the same way and writes atomically the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import pyarrow as pa

from pipeline.files import check_writable
from pipeline.game.deal import Deal
from pipeline.packs.parquet import deals_of, read_pack, write_pack

R = TypeVar("R")


@dataclass(frozen=True)
class PackRows:
    """The rows of a pack file as read: the table, its deals parsed, and the file they came from."""

    source: Path
    table: pa.Table
    deals: list[Deal]


def over_pack(
    source: Path,
    target: Path,
    *,
    schema: pa.Schema,
    work: Callable[[PackRows], R],
    table_of: Callable[[pa.Table, R], pa.Table],
) -> R:
    """``work`` over the pack file ``source``; ``table_of(rows, result)`` written to ``target``; the result.

    ``target``'s folder is checked first, then ``source`` is read and checked
    to hold ``schema`` and parse as deals (PackError, BoardError naming it),
    all before any work; ``target`` is written whole or not at all.
    """
    check_writable(target)
    table = read_pack(source, schema)
    rows = PackRows(Path(source), table, deals_of(table, source=str(source)))
    result = work(rows)
    write_pack(table_of(table, result), target)
    return result
