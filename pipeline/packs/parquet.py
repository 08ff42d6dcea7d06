"""Packs as Parquet files: the schemas, building the tables, atomic writes, checked reads.

A *deals* pack has one row per deal:

==========  ==========  ==========================================================
column      type        meaning
==========  ==========  ==========================================================
deal_id     string      stable id (below), unique within a pack
source      string      ``seed``, ``pysol`` or ``import``
seed        uint64      root seed of a seeded deal, null otherwise
index       int64       seeded: deal index; pysol: PySol FC deal number;
                        import: position of the board in its file, from 0
board       string      the deal as board text (docs/rules.md), canonical spelling
==========  ==========  ==========================================================

``deal_id`` is ``seed-<seed>-<index>`` for a seeded deal, ``pysol-<number>``
for a PySol FC deal, and ``import-<h>`` for an imported one, where ``<h>`` is
the first 16 hex digits of the SHA-256 of the deal's canonical board text
(:meth:`Deal.to_board_text`): the same deal gets the same id whichever file,
spelling (``10H``/``TH``, ``♥``) or position it came from, so a board may
appear only once in an imported file.

A *solved* pack keeps those columns, in order, and adds ``verdict`` (string:
solved/unsolvable/unknown), ``solution`` (list<uint8>: pile numbers, empty
unless solved), ``nodes`` (int64), ``seconds`` (float64, null when written
without timings) and ``max_cards_played`` (int8: most cards that can be
played; null when not known).

The schema metadata names ``blackhole_version`` (the package that wrote the
file), ``dealing_scheme`` (``blackhole-sha256-v1``, ``pysol-fc`` or
``import``) and, in solved packs, ``max_nodes``. Files are zstd-compressed.

>>> table = seeded_deals(seed=7, count=2)
>>> table.column("deal_id").to_pylist()
['seed-7-0', 'seed-7-1']
>>> metadata(table)["dealing_scheme"]
'blackhole-sha256-v1'
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

import pyarrow as pa
import pyarrow.parquet as pq

from pipeline import __version__
from pipeline.errors import BlackholeError
from pipeline.game.deal import BoardError, Deal, read_boards
from pipeline.game.shuffles import PYSOL_SCHEME, SEEDED_SCHEME, pysol_deal, seeded_deal
from pipeline.game.verdicts import SolveResult

IMPORT_SCHEME = "import"

DEAL_FIELDS = (
    pa.field("deal_id", pa.string(), nullable=False),
    pa.field("source", pa.string(), nullable=False),
    pa.field("seed", pa.uint64()),
    pa.field("index", pa.int64(), nullable=False),
    pa.field("board", pa.string(), nullable=False),
)
RESULT_FIELDS = (
    pa.field("verdict", pa.string(), nullable=False),
    pa.field("solution", pa.list_(pa.uint8()), nullable=False),
    pa.field("nodes", pa.int64(), nullable=False),
    pa.field("seconds", pa.float64()),
    pa.field("max_cards_played", pa.int8()),
)
DEALS_SCHEMA = pa.schema(DEAL_FIELDS)
SOLVED_SCHEMA = pa.schema(DEAL_FIELDS + RESULT_FIELDS)


class PackError(BlackholeError, ValueError):
    """A file that is not a pack this package can read; the message names the file."""


def seeded_deals(*, seed: int, count: int, start: int = 0) -> pa.Table:
    """Deals ``start .. start + count - 1`` of root ``seed`` (pinned scheme in dealing.py)."""
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
        [pa.array(c, f.type) for c, f in zip(columns, DEAL_FIELDS, strict=True)], schema=DEALS_SCHEMA
    )
    return with_metadata(table, dealing_scheme=scheme)


def solved_table(
    deals: pa.Table, results: Sequence[SolveResult], *, max_nodes: int, timings: bool = True
) -> pa.Table:
    """``deals`` with the result columns of ``results`` (one per row, same order) added.

    Result columns already in ``deals`` are replaced. Without ``timings`` the
    ``seconds`` column is null, so the same deals and settings give the same
    bytes on every run.
    """
    if len(results) != deals.num_rows:
        raise ValueError(f"{len(results)} results for {deals.num_rows} deals")
    columns = {
        "verdict": [result.verdict.value for result in results],
        "solution": [list(result.solution) for result in results],
        "nodes": [result.nodes for result in results],
        "seconds": [result.seconds if timings else None for result in results],
        "max_cards_played": [result.max_cards_played for result in results],
    }
    return with_metadata(with_columns(deals, RESULT_FIELDS, columns), max_nodes=str(max_nodes))


def with_columns(table: pa.Table, fields: Sequence[pa.Field], columns: dict[str, list]) -> pa.Table:
    """``table`` with ``fields`` appended in order, values from ``columns``; columns of those names are replaced."""
    names = {field.name for field in fields}
    table = table.select([name for name in table.column_names if name not in names])
    for field in fields:
        table = table.append_column(field, pa.array(columns[field.name], field.type))
    return table


def with_metadata(table: pa.Table, **entries: str) -> pa.Table:
    """``table`` with ``blackhole_version`` and ``entries`` merged into its schema metadata."""
    merged = metadata(table) | {"blackhole_version": __version__} | entries
    return table.replace_schema_metadata(merged)


def metadata(table: pa.Table) -> dict[str, str]:
    """The schema metadata of ``table`` as text (pandas' entry left out)."""
    raw = table.schema.metadata or {}
    return {k.decode(): v.decode() for k, v in raw.items() if k != b"pandas"}


def write_pack(table: pa.Table, path: Path) -> None:
    """Write ``table`` to ``path`` (zstd) atomically (:func:`replacing`): all of it or, on any error, nothing."""
    path = check_writable(path)
    with replacing(path) as sink:
        pq.write_table(table, sink, compression="zstd")


def check_writable(path: Path) -> Path:
    """``path`` as a Path, once its directory exists (PackError otherwise): checked before long work too."""
    path = Path(path)
    if not path.parent.is_dir():
        raise PackError(f"{path}: cannot write, no directory {str(path.parent)!r}")
    return path


@contextmanager
def replacing(path: Path) -> Iterator[BinaryIO]:
    """A binary file to write that replaces ``path`` when the block ends; on any error ``path`` is untouched.

    The bytes go to a hidden temporary file beside ``path`` (``.<name>.tmp-<pid>``,
    so globs for ``*.parquet`` never see it), flushed to disk, then renamed over ``path``.
    """
    temporary = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        with open(temporary, "wb") as sink:
            yield sink
            sink.flush()
            os.fsync(sink.fileno())
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def read_pack(path: Path, schema: pa.Schema = DEALS_SCHEMA) -> pa.Table:
    """The table in the Parquet file at ``path``, checked to hold ``schema``'s columns.

    Raises PackError naming the file when it is missing, not Parquet, lacks a
    column, has one of another type, or has nulls where none may be.
    """
    path = Path(path)
    if path.is_dir():
        raise PackError(f"{path}: is a directory, expected a Parquet file")
    try:
        table = pq.ParquetFile(path).read()
    except FileNotFoundError:
        raise PackError(f"{path}: no such file") from None
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError, OSError) as error:
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise PackError(f"{path}: not a readable Parquet file ({reason})") from None
    for field in schema:
        if field.name not in table.column_names:
            raise PackError(f"{path}: missing column '{field.name}'")
        column = table.column(field.name)
        if column.type != field.type:
            raise PackError(f"{path}: column '{field.name}' is {column.type}, expected {field.type}")
        if not field.nullable and column.null_count:
            raise PackError(f"{path}: column '{field.name}' has {column.null_count} null values")
    return table


def deals_of(table: pa.Table, *, source: str) -> list[Deal]:
    """The deals in the ``board`` column; a bad board raises BoardError naming
    ``source`` and its row (from 0), e.g. ``deals.parquet[3]:5: unknown card 'XX'``."""
    return [
        Deal.from_board_text(board, source=f"{source}[{row}]")
        for row, board in enumerate(table.column("board").to_pylist())
    ]
