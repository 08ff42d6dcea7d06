"""Where a deals pack's rows come from: seeded shuffles, PySol FC deal numbers, board text files.

``deal_id`` is ``seed-<seed>-<index>`` for a seeded deal, ``pysol-<number>``
for a PySol FC deal, and ``import-<h>`` for an imported one, where ``<h>`` is
the first 16 hex digits of the SHA-256 of the deal's canonical board text
(:meth:`Deal.to_board_text`): the same deal gets the same id whichever file,
spelling (``10H``/``TH``, ``♥``) or position it came from, so a board may
appear only once in an imported file.

>>> table = seeded_deals(seed=7, count=2)
>>> table.column("deal_id").to_pylist()
['seed-7-0', 'seed-7-1']
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pyarrow as pa

from pipeline.game.deal import BoardError, read_boards
from pipeline.game.shuffles import PYSOL_SCHEME, SEEDED_SCHEME, pysol_deal, seeded_deal
from pipeline.packs.parquet import with_metadata, write_pack
from pipeline.packs.schema import DEAL_FIELDS, DEALS_SCHEMA, IMPORT_SCHEME, bare


def seeded_deals(*, seed: int, count: int, start: int = 0) -> pa.Table:
    """Deals ``start .. start + count - 1`` of root ``seed`` (the pinned scheme of pipeline.game.shuffles)."""
    indices = range(start, start + count)
    boards = [seeded_deal(seed, index).to_board_text() for index in indices]
    ids = [f"seed-{seed}-{index}" for index in indices]
    return _deals_table(ids, "seed", [seed] * count, list(indices), boards, SEEDED_SCHEME)


def pysol_deals(*, first: int, count: int) -> pa.Table:
    """PySol FC Black Hole deals ``first .. first + count - 1``."""
    numbers = range(first, first + count)
    boards = [pysol_deal(number).to_board_text() for number in numbers]
    ids = [f"pysol-{number}" for number in numbers]
    return _deals_table(ids, "pysol", [None] * count, list(numbers), boards, PYSOL_SCHEME)


def imported_deals(path: Path) -> pa.Table:
    """Every board of the text file at ``path``; raises BoardError naming the file and line."""
    deals = read_boards(path)
    boards = [deal.to_board_text() for deal in deals]
    ids = [f"import-{hashlib.sha256(board.encode()).hexdigest()[:16]}" for board in boards]
    first_seen: dict[str, int] = {}
    for position, deal_id in enumerate(ids):
        if deal_id in first_seen:
            starts = _board_start_lines(path.read_text(encoding="utf-8"))
            raise BoardError(
                f"this board repeats the board on line {starts[first_seen[deal_id]]}",
                source=str(path),
                line=starts[position],
            )
        first_seen[deal_id] = position
    return _deals_table(ids, "import", [None] * len(deals), list(range(len(deals))), boards, IMPORT_SCHEME)


def _board_start_lines(text: str) -> list[int]:
    """Line number (from 1) of the first line of each blank-line-separated board."""
    starts, previous_blank = [], True
    for number, line in enumerate(text.splitlines(), start=1):
        blank = not line.strip()
        if previous_blank and not blank:
            starts.append(number)
        previous_blank = blank
    return starts


def _deals_table(
    ids: list[str], source: str, seeds: list[int | None], indices: list[int], boards: list[str], scheme: str
) -> pa.Table:
    columns = [ids, [source] * len(ids), seeds, indices, boards]
    table = pa.Table.from_arrays(
        [pa.array(c, f.type) for c, f in zip(columns, DEAL_FIELDS, strict=True)], schema=bare(DEALS_SCHEMA)
    )
    return with_metadata(table, dealing_scheme=scheme)


def write_deals(
    path: Path,
    *,
    count: int = 0,
    seed: int | None = None,
    start: int = 0,
    first: int | None = None,
    boards: Path | None = None,
) -> int:
    """Write a deals pack to ``path``; how many deals it holds.

    The deals are those of ``boards`` (a board text file, :func:`imported_deals`)
    when given, else ``count`` seeded deals of ``seed`` from ``start``
    (:func:`seeded_deals`) when ``seed`` is given, else ``count`` PySol FC
    deals from ``first`` (:func:`pysol_deals`, default 1).
    """
    if boards is not None:
        table = imported_deals(boards)
    elif seed is not None:
        table = seeded_deals(seed=seed, count=count, start=start)
    else:
        table = pysol_deals(first=1 if first is None else first, count=count)
    write_pack(table, path)
    rows: int = table.num_rows
    return rows
