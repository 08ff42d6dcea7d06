"""Pack files: one Parquet file of a pack's rows, read checked and written atomically, with its provenance metadata.

A *pack file* is what ``generate``, ``import``, ``solve``, ``crosscheck`` and
``grade`` read and write; a *pack folder* (a run's, tier-partitioned, with its
manifest) is :mod:`pipeline.packs.folders`' business. Every column is declared
in :mod:`pipeline.packs.schema`; this module reads a pack file and checks it
holds a schema's columns with the right types and no nulls where none may be,
and that its rows say nothing they may not (:func:`check_rows`) when it has
verdicts (:func:`read_pack_file`, :func:`read_pack_file_batches`), writes a
table whole or not at all (:func:`write_pack_file`, zstd), adds columns
(:func:`with_columns`) and keeps the schema metadata that says where a file
came from: ``blackhole_version`` (the package that wrote it),
``dealing_scheme`` (``blackhole-sha256-v1``, ``pysol-fc``, ``import``, or
another game's seeded scheme, ``golf-sha256-v1``...), ``game`` (the game's name,
absent in a Black Hole pack: :mod:`pipeline.packs.family`) and the settings of
each stage that ran (``max_nodes``, ...).

>>> from pipeline.packs.sources import seeded_deals
>>> metadata(seeded_deals(seed=7, count=2))["dealing_scheme"]
'blackhole-sha256-v1'
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import BinaryIO

import pyarrow as pa
import pyarrow.parquet as pq

from pipeline.errors import BlackholeError
from pipeline.files import check_writable, discard, naming_write_errors, replacing
from pipeline.game.deal import Deal
from pipeline.game.games import Game
from pipeline.packs.family import pack_game
from pipeline.packs.rows import row_problem
from pipeline.packs.schema import DEALS_SCHEMA, FORMAT_1_TYPES, GRADE_FIELDS
from pipeline.version import VERSION


class PackError(BlackholeError, ValueError):
    """A pack file or folder this package cannot read; the message names the file."""


READ_ERRORS = (pa.ArrowException, OSError)
"""What reading a damaged Parquet file can raise: any of Arrow's errors (a bad footer, a page that will not
decompress or decode, a size past memory) or the system's (a file cut short); :func:`unreadable` words it."""


def unreadable(path: Path, error: Exception, *, checksummed: bool = False) -> PackError:
    """The PackError of the file at ``path``, which Arrow or the system (``error``) could not read as Parquet;
    ``checksummed``: a pack folder's file whose SHA-256 is its manifest's, so damaged when it was signed.

    >>> print(unreadable(Path("p/tier=easy/part-0.parquet"), OSError("Couldn't deserialize thrift"), checksummed=True))
    p/tier=easy/part-0.parquet: a damaged file: its SHA-256 is the manifest's, but it is not readable Parquet (Couldn't deserialize thrift)
    """
    reason = str(error).splitlines()[0] if str(error) else type(error).__name__
    if checksummed:
        return PackError(
            f"{path}: a damaged file: its SHA-256 is the manifest's, but it is not readable Parquet ({reason})"
        )
    return PackError(f"{path}: not a readable Parquet file ({reason})")


_TODAYS_TYPES = {field.name: field.type for field in GRADE_FIELDS if field.name in FORMAT_1_TYPES}


GRADED_WITH = ("difficulty_player", "difficulty_figure", "tier_medium", "tier_hard", "tier_expert")
"""The schema metadata that records the tiers a pack's deals were graded with (the grade stage writes it)."""


def undecodable_metadata(schema: pa.Schema) -> str | None:
    """The schema metadata entry of a pack file that is not UTF-8 text, named; None when every one is.

    >>> undecodable_metadata(pa.schema([]).with_metadata({b"blackhole_version": b"\\xff\\xfe"}))
    'schema metadata blackhole_version: not UTF-8 text'
    """
    for key, value in (schema.metadata or {}).items():
        try:
            name = key.decode()
        except UnicodeDecodeError:
            return f"schema metadata: a key that is not UTF-8 text ({key[:40]!r})"
        try:
            value.decode()
        except UnicodeDecodeError:
            return f"schema metadata {name[:40]}: not UTF-8 text"
    return None


def metadata_problem(schema: pa.Schema) -> str | None:
    """What the schema metadata of a pack file says that it may not, naming the entry; None when nothing.

    Every entry UTF-8 text (:func:`undecodable_metadata`); the tiers it was graded with (:data:`GRADED_WITH`), when it records a
    player: all five entries, a player of the ladder, and thresholds that are
    finite numbers above 0 rising from medium to expert; what a reader would
    otherwise use as they are. (A file graded in the old units, with
    thresholds and no player, has none of them read.)

    >>> metadata_problem(pa.schema([]).with_metadata({"difficulty_player": "tips", "difficulty_figure": "attempts",
    ...     "tier_medium": "nan", "tier_hard": "8", "tier_expert": "20"}))
    "schema metadata tier_medium: 'nan' is not a finite number above 0"
    """
    from pipeline.game.players import PLAYERS

    problem = undecodable_metadata(schema)
    if problem is not None:
        return problem
    entries = {key.decode(): value.decode() for key, value in (schema.metadata or {}).items()}
    if "difficulty_player" not in entries and "difficulty_figure" not in entries:
        return None
    missing = [key for key in GRADED_WITH if key not in entries]
    if missing:
        return f"schema metadata: {missing[0]} missing beside difficulty_player and difficulty_figure"
    if entries["difficulty_player"] not in {player.value for player in PLAYERS}:
        return f"schema metadata difficulty_player: {entries['difficulty_player'][:40]!r} is no player of the ladder"
    thresholds = []
    for key in GRADED_WITH[2:]:
        try:
            value = float(entries[key])
        except ValueError:
            value = float("nan")
        if not (math.isfinite(value) and value > 0):
            return f"schema metadata {key}: {entries[key][:40]!r} is not a finite number above 0"
        thresholds.append(value)
    if not thresholds[0] < thresholds[1] < thresholds[2]:
        return "schema metadata: tier_medium, tier_hard and tier_expert do not rise ({}, {}, {})".format(
            *thresholds
        )
    return None


def upgraded_schema(schema: pa.Schema) -> pa.Schema:
    """``schema`` with each column that format 1 wrote in another type (:data:`~pipeline.packs.schema.FORMAT_1_TYPES`)
    given today's: what :func:`upgraded` makes of a table of that schema.

    >>> upgraded_schema(pa.schema([("solution_count", pa.string())])).field("solution_count").type
    DataType(int64)
    """
    for name, old in FORMAT_1_TYPES.items():
        index = schema.get_field_index(name)
        if index >= 0 and schema.field(index).type == old:
            schema = schema.set(index, schema.field(index).with_type(_TODAYS_TYPES[name]))
    return schema


def upgraded(table: pa.Table, *, source: str) -> pa.Table:
    """``table`` as today's format holds it: a column format 1 wrote in another type cast to today's
    (``solution_count``'s decimal text to int64); PackError naming ``source`` when a value will not cast.

    >>> upgraded(pa.table({"solution_count": ["0", "12", None]}), source="p").column("solution_count").to_pylist()
    [0, 12, None]
    """
    schema = upgraded_schema(table.schema)
    if schema.equals(table.schema, check_metadata=True):
        return table
    try:
        return table.cast(schema)
    except pa.ArrowException as error:
        reason = str(error).splitlines()[0]
        raise PackError(
            f"{source}: a column of an earlier pack format will not read as today's ({reason})"
        ) from None


def check_rows(table: pa.Table, *, source: str, start: int = 0) -> None:
    """PackError naming ``source``, the row and its deal when a row of ``table`` says what it may not.

    The checks are :func:`pipeline.packs.rows.row_problem`'s; ``start`` is the
    row of the file ``table`` begins at, when it is one batch of a file.
    """
    problem = row_problem(table, source=source, start=start)
    if problem is not None:
        raise PackError(problem)


def with_columns(
    table: pa.Table, fields: Sequence[pa.Field], columns: Mapping[str, Sequence[object]]
) -> pa.Table:
    """``table`` with ``fields`` appended in order, values from ``columns``; columns of those names are replaced."""
    names = {field.name for field in fields}
    table = table.select([name for name in table.column_names if name not in names])
    for field in fields:
        table = table.append_column(field.remove_metadata(), pa.array(columns[field.name], field.type))
    return table


def with_metadata(table: pa.Table, **entries: str) -> pa.Table:
    """``table`` with ``blackhole_version`` and ``entries`` merged into its schema metadata."""
    merged = metadata(table) | {"blackhole_version": VERSION} | entries
    return table.replace_schema_metadata(merged)


def metadata(table: pa.Table) -> dict[str, str]:
    """The schema metadata of ``table`` as text (pandas' entry left out)."""
    raw = (
        table.schema.metadata or {}
    )  # a file's readers refused bytes that are not UTF-8 (:func:`undecodable_metadata`)
    return {k.decode(errors="replace"): v.decode(errors="replace") for k, v in raw.items() if k != b"pandas"}


def write_pack_file(table: pa.Table, path: Path) -> None:
    """Write ``table`` to ``path`` (zstd) atomically (:func:`replacing`): all of it or, on any error, nothing."""
    path = check_writable(path)
    with replacing(path) as sink:
        pq.write_table(table, sink, compression="zstd")


def read_pack_file(path: Path, schema: pa.Schema = DEALS_SCHEMA) -> pa.Table:
    """The table in the Parquet file at ``path``, checked to hold ``schema``'s columns, and its rows checked.

    Raises PackError naming the file when it is missing, not Parquet, lacks a
    column, has one of another type, or has nulls where none may be; and
    naming the row and deal when the file has verdicts and a row says what it
    may not (:func:`check_rows`). An empty ``schema``
    reads a file unchecked (a stage's own temporary files).
    """
    parquet = _open_parquet(path)
    try:
        table = parquet.read()
    except READ_ERRORS as error:
        raise unreadable(path, error) from None
    table = upgraded(table, source=str(path))
    for field in schema:
        if field.name not in table.column_names:
            raise PackError(f"{path}: missing column '{field.name}'")
        column = table.column(field.name)
        if column.type != field.type:
            raise PackError(f"{path}: column '{field.name}' is {column.type}, expected {field.type}")
        if not field.nullable and column.null_count:
            raise PackError(f"{path}: column '{field.name}' has {column.null_count} null values")
    if _rows_checked(schema, table.column_names):
        check_rows(table, source=str(path))
    return table


def _rows_checked(schema: pa.Schema, names: Sequence[str]) -> bool:
    """Whether the rows of a file with columns ``names``, read as ``schema``, are checked: when it has verdicts."""
    return len(schema) > 0 and "verdict" in names


def deals_of(table: pa.Table, *, source: str, start: int = 0) -> list[Deal]:
    """The deals in the ``board`` column, of the game ``table``'s metadata names (:func:`pack_game`); a
    bad board raises BoardError naming ``source`` and its row (from 0), e.g. ``deals.parquet[3]:5: unknown card 'XX'``.

    ``start`` is the row of the file that ``table`` begins at, when it is one
    batch of a file read in batches: the message names the row in the file."""
    game = pack_game(table, source=source)
    return [
        Deal.from_board_text(board, source=f"{source}[{start + row}]", game=game)
        for row, board in enumerate(table.column("board").to_pylist())
    ]


BATCH_ROWS = 10_000  # rows a streaming read or write holds at a time; also the row group size it writes


def read_pack_file_batches(
    path: Path,
    schema: pa.Schema = DEALS_SCHEMA,
    *,
    batch_rows: int = BATCH_ROWS,
    columns: Sequence[str] | None = None,
) -> Iterator[pa.Table]:
    """The rows of the Parquet file at ``path`` in tables of at most ``batch_rows``, checked as :func:`read_pack_file` checks.

    The file's columns and types are checked before the first batch (PackError
    naming the file), nulls where none may be and the rows as each batch is
    read, so memory holds one batch whatever the file's size. ``columns`` picks
    columns (all by default); the column checks cover only ``schema``'s fields
    among them, while the rows' checks of a file with verdicts read every
    column beside those picked, so that every reader refuses the same rows.
    """
    parquet = _open_parquet(path)
    found = upgraded_schema(parquet.schema_arrow)
    wanted = list(found.names) if columns is None else list(dict.fromkeys(columns))
    for field in schema:
        if columns is not None and field.name not in wanted:
            continue
        if field.name not in found.names:
            raise PackError(f"{path}: missing column '{field.name}'")
        kind = found.field(field.name).type
        if kind != field.type:
            raise PackError(f"{path}: column '{field.name}' is {kind}, expected {field.type}")
    checked = _rows_checked(schema, found.names)  # then every column is read, so rows are refused alike
    read = wanted + [name for name in found.names if checked and name not in wanted]
    required = [field.name for field in schema if not field.nullable and field.name in read]
    start = 0
    try:
        for batch in batches_of(parquet, batch_rows=batch_rows, columns=read):
            table = upgraded(pa.Table.from_batches([batch]), source=str(path)).replace_schema_metadata(
                found.metadata
            )
            for name in required:
                nulls = table.column(name).null_count
                if nulls:
                    raise PackError(f"{path}: column '{name}' has {nulls} null values")
            if checked:
                check_rows(table, source=str(path), start=start)
                start += table.num_rows
            yield table if len(read) == len(wanted) else table.select(wanted)
    except READ_ERRORS as error:
        raise unreadable(path, error) from None


def batches_of(
    parquet: pq.ParquetFile, *, batch_rows: int, columns: Sequence[str] | None = None
) -> Iterator[pa.RecordBatch]:
    """The rows of ``parquet`` in record batches of at most ``batch_rows``, read one row group at a time.

    One reader per row group: a single ``iter_batches`` over a whole file
    keeps the memory it has read, more with every row (docs/benchmarks.md
    gives how much; apache/arrow#39808 reports the same of datasets), while
    a reader per row group gives it back.
    """
    for group in range(parquet.num_row_groups):
        yield from parquet.iter_batches(
            batch_size=batch_rows, row_groups=[group], columns=columns, use_threads=False
        )


def pack_file_row_count(path: Path) -> int:
    """The number of rows in the Parquet file at ``path`` (read off its footer; PackError when unreadable)."""
    rows: int = _open_parquet(path).metadata.num_rows
    return rows


def pack_file_schema(path: Path) -> pa.Schema:
    """The columns and metadata of the pack file at ``path``, read off its footer (PackError when unreadable)."""
    schema: pa.Schema = _open_parquet(path).schema_arrow
    return schema


def pack_file_game(path: Path) -> Game:
    """The game of the pack file at ``path``, read off its schema (:func:`~pipeline.packs.family.pack_game`)."""
    return pack_game(_open_parquet(path).schema_arrow, source=str(path))


def _open_parquet(path: Path) -> pq.ParquetFile:
    """The Parquet file at ``path``, once its footer reads and its schema metadata says nothing it may not
    (:func:`metadata_problem`); PackError naming the file otherwise."""
    path = Path(path)
    if path.is_dir():
        raise PackError(f"{path}: is a directory, expected a Parquet file")
    try:
        parquet = pq.ParquetFile(path)
    except FileNotFoundError:
        raise PackError(f"{path}: no such file") from None
    except READ_ERRORS as error:
        raise unreadable(path, error) from None
    problem = metadata_problem(parquet.schema_arrow)
    if problem is not None:
        raise PackError(f"{path}: {problem}")
    return parquet


@contextmanager
def writing_pack_file(path: Path) -> Iterator[Callable[[pa.Table], None]]:
    """A function that appends a table's rows to the Parquet file ``path``, which appears when the block ends.

    Each call writes its rows as row groups (zstd) of at most
    :data:`BATCH_ROWS`; the first call fixes the schema and its metadata, and
    later tables are cast to it. The file is staged beside ``path``
    (``.<name>.tmp-<pid>``), flushed to disk and renamed over it: on any error
    ``path`` is untouched. A block that writes no table leaves ``path``
    untouched too; use :func:`write_pack_file` for a table that may be empty.
    """
    path = check_writable(path)
    temporary = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    writer: pq.ParquetWriter | None = None
    staged: BinaryIO | None = None

    def write(table: pa.Table) -> None:
        nonlocal writer, staged
        if writer is None:
            staged = open(temporary, "wb")  # ours to close: a writer that fails part-way leaves its own open
            writer = pq.ParquetWriter(staged, table.schema, compression="zstd")
        writer.write_table(table.cast(writer.schema), row_group_size=BATCH_ROWS)

    try:
        with naming_write_errors(path, temporary):
            yield write
            if writer is not None and staged is not None:
                writer.close()
                staged.flush()
                os.fsync(staged.fileno())
                staged.close()
                os.replace(temporary, path)
    except BaseException:
        abandon_writer(writer, staged)
        discard(temporary)
        raise


def abandon_writer(writer: pq.ParquetWriter | None, sink: BinaryIO | None) -> None:
    """Close ``writer`` and the file ``sink`` it wrote to, after an error: what fails in closing them (a full
    disk fails again) is let go, for the error being raised says what went wrong; the file is closed all the same."""
    if writer is not None:
        with suppress(OSError, ValueError):
            writer.close()
    if sink is not None:
        with suppress(OSError):
            sink.close()
