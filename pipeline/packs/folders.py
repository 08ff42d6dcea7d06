"""Pack folders: a Parquet dataset partitioned by tier (hive style) and a manifest, written atomically.

A pack folder holds one file per tier that has deals, and ``_manifest.json``::

    output/packs/default/
        _manifest.json
        tier=easy/part-0.parquet
        tier=medium/part-0.parquet
        ...
        tier=unsolvable/part-0.parquet
        tier=ungraded/part-0.parquet     deals with no tier (unknown verdict, out of budget)

Hive style: the ``tier`` column lives in the folder name, not in the files,
so ``pyarrow.dataset.dataset(folder, partitioning="hive")``, ``pandas.read_parquet(folder)``,
Polars' ``scan_parquet(folder, hidden_file_prefix="_")`` and DuckDB's
``read_parquet('folder/**/*.parquet', hive_partitioning = true)`` give it back
(the manifest's leading ``_`` marks it as no data file; ``tests/packs/test_readers.py``).
Every file has the same explicit schema (the columns of a graded pack but
``tier``), zstd compression, and schema metadata repeating the provenance.
Within a file, rows keep the order they were given in (deal index for a run's
pack, the curated order for a curated one), in row groups of at most
:data:`ROW_GROUP_ROWS`, so the bytes depend on the rows alone.

The folder is built beside its final place (``.NAME.tmp-<pid>``) and renamed
into it when complete: a reader sees the old pack or the new one, never a
partial file. The manifest lists every data file with its row count and
SHA-256, and counts the deals by verdict and tier, with the win rate and its
95 % confidence interval, and the tier thresholds the files' metadata records.
A pack of format 1 (``manifest.json``, ``solution_count`` as decimal text) is
read as today's (:func:`pipeline.packs.parquet.upgraded`).

>>> [tier for tier in PACK_TIERS]
['easy', 'medium', 'hard', 'expert', 'unsolvable', 'ungraded']
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from pipeline.files import replacing_folder
from pipeline.free_text import folder_name_problem
from pipeline.game.deal import Deal
from pipeline.game.stats import published_win_rate, win_rate
from pipeline.game.verdicts import Verdict
from pipeline.packs.family import GameMixError, pack_game
from pipeline.packs.labels import PACK_TIERS, UNGRADED, PackKind
from pipeline.packs.manifest import (
    MANIFEST,
    FileEntry,
    Manifest,
    Origin,
    TierThresholds,
    WinRateRecord,
    read_manifest,
)
from pipeline.packs.parquet import (
    BATCH_ROWS,
    READ_ERRORS,
    PackError,
    abandon_writer,
    batches_of,
    check_rows,
    metadata,
    metadata_problem,
    undecodable_metadata,
    unreadable,
    upgraded,
    upgraded_schema,
)
from pipeline.packs.rows import REPLAYED_WITH
from pipeline.packs.schema import LEVEL_FIELD, PACK_FIELDS, bare

if TYPE_CHECKING:
    import pyarrow.dataset as ds

TIER_PARTITIONING_SCHEMA = pa.schema([pa.field("tier", pa.string())])
_TIER = pa.field("tier", pa.string(), nullable=False)  # the column a pack folder's reads add
_replayed: set[str] = set()
"""The SHA-256 of each data file whose every row this process has checked, solutions replayed: a
later read of the same bytes (report reads a pack twice) reads and replays the solutions no more."""
DATA_FILE = "part-0.parquet"
ROW_GROUP_ROWS = 10_000


def write_pack_folder(
    target: Path,
    tables: Iterable[pa.Table],
    *,
    origin: Origin,
    provenance: dict[str, str],
) -> Manifest:
    """Write the rows of ``tables`` as the pack folder ``target``; return its manifest.

    ``tables`` come in pack order, each with a ``tier`` column (null meaning
    ungraded) and the same other columns; they are read once, one at a time.
    ``origin`` opens the manifest (name, kind, config...): PackError, before
    anything is written, when a name in it is one its readers would refuse
    (:func:`~pipeline.free_text.folder_name_problem`); ``provenance`` goes
    into every file's schema metadata.
    """
    target = Path(target)
    for name in (origin.name, origin.curated_from):  # the rule every reader of the manifest keeps to
        if name is not None and (problem := folder_name_problem(name)) is not None:
            raise PackError(f"{target}: pack name {name!r} is not a folder name ({problem})")
    target.parent.mkdir(parents=True, exist_ok=True)
    with replacing_folder(target) as staging:
        files = {tier: _TierFile(staging, tier, provenance) for tier in PACK_TIERS}
        try:
            counts = _Counts()
            for table in tables:
                counts.note_metadata(metadata(table) | provenance)
                for tier, tier_file in files.items():
                    selected = _rows_of_tier(table, tier)
                    if selected.num_rows:
                        counts.add(selected, tier)
                        tier_file.add(selected.drop(["tier"]))
            entries = [entry for tier_file in files.values() if (entry := tier_file.close()) is not None]
            manifest = counts.manifest(origin, tuple(entries))
            (staging / MANIFEST).write_text(manifest.to_json(), encoding="utf-8")
        except BaseException:
            for tier_file in files.values():
                tier_file.abandon()
            raise
    return manifest


class _TierFile:
    """One tier's data file, opened with its first rows, written in row groups of ROW_GROUP_ROWS."""

    def __init__(self, staging: Path, tier: str, provenance: dict[str, str]) -> None:
        self.path = staging / f"tier={tier}" / DATA_FILE
        self.relative = f"tier={tier}/{DATA_FILE}"
        self.tier, self.provenance = tier, provenance
        self.writer: pq.ParquetWriter | None = None
        self.sink: BinaryIO | None = None  # ours to close: a writer that fails part-way leaves its own open
        self.buffered: list[pa.Table] = []
        self.buffered_rows = self.rows = 0

    def add(self, data: pa.Table) -> None:
        if self.writer is None:
            self.path.parent.mkdir()
            schema = file_schema(data.schema).with_metadata(metadata(data) | self.provenance)
            self.sink = open(self.path, "wb")
            self.writer = pq.ParquetWriter(self.sink, schema, compression="zstd")
        self.buffered.append(data.replace_schema_metadata(self.writer.schema.metadata))
        self.buffered_rows += data.num_rows
        self.rows += data.num_rows
        if self.buffered_rows >= ROW_GROUP_ROWS:
            self._flush()

    def close(self) -> FileEntry | None:
        """Finish the file; its manifest entry, or None when the tier had no rows."""
        if self.writer is None:
            return None
        self._flush()
        self.writer.close()
        if self.sink is not None:
            self.sink.close()
        self.writer = self.sink = None
        return FileEntry(self.relative, self.tier, self.rows, sha256_of(self.path))

    def abandon(self) -> None:
        """Close the file after an error (:func:`~pipeline.packs.parquet.abandon_writer`); its folder is
        deleted with the staging folder."""
        abandon_writer(self.writer, self.sink)
        self.writer = self.sink = None

    def _flush(self) -> None:
        if self.buffered:
            assert self.writer is not None  # add() opened it before buffering any rows
            table = pa.concat_tables(self.buffered).combine_chunks()
            self.writer.write_table(table, row_group_size=ROW_GROUP_ROWS)
            self.buffered, self.buffered_rows = [], 0


def file_schema(schema: pa.Schema) -> pa.Schema:
    """The pack file schema ``schema`` must be: the pack columns, then ``level`` in a curated pack.

    Raises ValueError when ``schema`` (metadata aside) is anything else.
    """
    expected = _file_schema_for(schema.names)
    if not schema.remove_metadata().equals(expected):
        raise ValueError(f"rows for a pack have the schema\n{schema}\nnot\n{expected}")
    return expected


def _file_schema_for(names: list[str]) -> pa.Schema:
    fields = PACK_FIELDS + ((LEVEL_FIELD,) if LEVEL_FIELD.name in names else ())
    return bare(pa.schema(fields))


def file_schema_problem(schema: pa.Schema) -> str | None:
    """How ``schema`` differs from the pack file schema (:func:`file_schema`), naming the column; None when it does not.

    >>> file_schema_problem(pa.schema([pa.field("deal_id", pa.string(), nullable=False)]))
    "no column 'source'"
    """
    expected = _file_schema_for(schema.names)
    missing = [name for name in expected.names if name not in schema.names]
    if missing:
        return f"no column '{missing[0]}'"
    unknown = [name for name in schema.names if name not in expected.names]
    if unknown:
        return f"a column '{unknown[0]}', which no pack has"
    for found, wanted in zip(schema.names, expected.names, strict=False):
        if found != wanted:
            return f"column '{found}' where '{wanted}' should be"
    if len(schema) != len(expected):
        return f"column '{schema.names[len(expected)]}' twice"
    for wanted in expected:
        field = schema.field(wanted.name)
        if field.type != wanted.type:
            return f"column '{wanted.name}' is {field.type}, expected {wanted.type}"
        if field.nullable != wanted.nullable:
            return (
                f"column '{wanted.name}' {'may' if field.nullable else 'may not'} hold nulls, unlike a pack's"
            )
    return None


def pack_dataset(folder: Path) -> ds.Dataset:
    """The pack folder ``folder`` as a ``pyarrow.dataset.Dataset``, ``tier`` read from the folder names."""
    import pyarrow.dataset as ds

    partitioning = ds.partitioning(TIER_PARTITIONING_SCHEMA, flavor="hive")
    return ds.dataset(
        folder, format="parquet", partitioning=partitioning, ignore_prefixes=[".", "_", "manifest"]
    )


def _rows_of_tier(table: pa.Table, tier: str) -> pa.Table:
    column = table.column("tier")
    mask = pc.is_null(column) if tier == UNGRADED else pc.equal(column, tier)
    return table.filter(pc.fill_null(mask, False))


class _Counts:
    """Deals by verdict and by tier, as the manifest reports them."""

    def __init__(self) -> None:
        self.verdicts = {verdict.value: 0 for verdict in Verdict}
        self.tiers = dict.fromkeys(PACK_TIERS, 0)
        self.thresholds: TierThresholds | None = None
        self.noted = False

    def note_metadata(self, entries: dict[str, str]) -> None:
        """Take the tier thresholds of the first table's schema metadata ``entries`` (what every file repeats)."""
        if not self.noted:
            self.thresholds, self.noted = TierThresholds.from_metadata(entries), True

    def add(self, table: pa.Table, tier: str) -> None:
        self.tiers[tier] += table.num_rows
        for verdict in table.column("verdict").to_pylist():
            self.verdicts[verdict] += 1

    def manifest(self, origin: Origin, files: tuple[FileEntry, ...]) -> Manifest:
        rate = win_rate(
            solved=self.verdicts[Verdict.SOLVED],
            unsolvable=self.verdicts[Verdict.UNSOLVABLE],
            unknown=self.verdicts[Verdict.UNKNOWN],
        )
        # A curated pack's deals are chosen wins: its rate says nothing of the game's, so no comparison.
        published = None if origin.kind == PackKind.CURATED else published_win_rate(origin.played)
        inside = None if published is None else rate.contains(published)
        record = WinRateRecord(rate.rate, rate.low, rate.high, published, inside)
        deals = sum(self.tiers.values())
        return Manifest(origin, deals, self.verdicts, self.tiers, record, files, self.thresholds)


def _thresholds_text(thresholds: TierThresholds | None) -> str:
    if thresholds is None:
        return "none"
    return f"{thresholds.figure} of {thresholds.player}: {thresholds.medium:g}, {thresholds.hard:g}, {thresholds.expert:g}"


def sha256_of(path: Path) -> str:
    """The SHA-256 of the file at ``path``, in hex."""
    digest = hashlib.sha256()
    with open(path, "rb") as source:
        for block in iter(lambda: source.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def read_pack_folder(folder: Path, *, columns: list[str] | None = None) -> pa.Table:
    """Every row of the pack folder ``folder``, tier by tier in pack order, with ``tier`` as the last column.

    Each file is checked as it is read (:func:`pack_folder_batches` says how),
    a problem raising PackError naming the file. ``columns`` picks columns
    (``tier`` is always added).
    """
    folder = Path(folder)
    manifest = read_manifest(folder)
    _check_listed(folder, manifest)
    tables = []
    for entry in manifest.files:
        path = data_path(folder, entry)
        data = _checked_bytes(path, entry)
        names = _checked_parquet(path, entry, pa.BufferReader(data), manifest).schema_arrow.names
        try:
            table = pq.read_table(pa.BufferReader(data), columns=_read_columns(columns, entry, names))
        except READ_ERRORS as error:
            raise unreadable(path, error, checksummed=True) from None
        table = _with_tier(upgraded(table, source=str(path)), entry.tier)
        _check(table, path, entry)
        _replayed.add(entry.sha256)
        tables.append(_picked(table, columns))
    if not tables:
        raise PackError(f"{folder}: the pack holds no deals")
    return pa.concat_tables(tables)


def pack_folder_batches(
    folder: Path, *, columns: list[str] | None = None, batch_rows: int = BATCH_ROWS
) -> Iterator[pa.Table]:
    """The rows of the pack folder ``folder`` as :func:`read_pack_folder` gives them, in tables of at most ``batch_rows``.

    The folder may hold no Parquet file the manifest does not list, and each
    file is checked before its first batch: that it lies in the folder
    (:func:`data_path`), has the manifest's SHA-256 and row count, is
    Parquet and has the pack file schema (:func:`file_schema_problem`);
    then its rows as each batch is read (:func:`pipeline.packs.parquet.check_rows`,
    reading every column beside ``columns``, so every reader refuses the same rows; the solutions of a file
    whose same bytes were replayed whole before are not replayed again). A
    problem raises PackError naming the file (and the row and deal), so
    memory holds one batch whatever the pack's size. ``columns`` picks
    columns (``tier`` is always added).
    """
    folder = Path(folder)
    manifest = read_manifest(folder)
    if not manifest.files:
        raise PackError(f"{folder}: the pack holds no deals")
    _check_listed(folder, manifest)
    for entry in manifest.files:
        path = data_path(folder, entry)
        parquet = _checked_parquet(path, entry, _checked_file(path, entry), manifest)
        start = 0
        try:
            read = _read_columns(columns, entry, parquet.schema_arrow.names)
            for batch in batches_of(parquet, batch_rows=batch_rows, columns=read):
                table = _with_tier(upgraded(pa.Table.from_batches([batch]), source=str(path)), entry.tier)
                _check(table, path, entry, start=start)
                start += table.num_rows
                yield _picked(table, columns)
        except READ_ERRORS as error:
            raise unreadable(path, error, checksummed=True) from None
        _replayed.add(entry.sha256)  # every batch read and checked


def _check_listed(folder: Path, manifest: Manifest) -> None:
    """PackError naming a Parquet file in ``folder`` that the manifest does not list: a dataset reader
    (:func:`pack_dataset`, DuckDB, Polars) would read its rows as the pack's, this package's readers not."""
    listed = {Path(entry.path) for entry in manifest.files}
    for path in sorted(folder.rglob("*.parquet")):
        relative = path.relative_to(folder)
        if relative not in listed and not any(part.startswith((".", "_")) for part in relative.parts):
            raise PackError(f"{path}: a data file not listed in the manifest")


def data_path(folder: Path, entry: FileEntry) -> Path:
    """Where the manifest ``entry``'s file is: PackError unless it lies inside ``folder``, links followed.

    >>> data_path(Path("packs/p"), FileEntry("tier=easy/../../q/x.parquet", "easy", 1, ""))
    Traceback (most recent call last):
    ...
    pipeline.packs.parquet.PackError: packs/p/tier=easy/../../q/x.parquet: outside the pack folder packs/p
    """
    path = folder / entry.path
    try:
        inside, found = folder.resolve(), path.resolve()
    except (RuntimeError, OSError) as error:  # Python 3.11 raises RuntimeError for a loop of links
        raise PackError(f"{path}: cannot follow its symbolic links ({error})") from None
    if inside not in found.parents:
        raise PackError(f"{path}: outside the pack folder {folder}")
    return path


def _read_columns(columns: list[str] | None, entry: FileEntry, names: list[str]) -> list[str] | None:
    """The columns to read of ``entry``'s file, whose columns are ``names``: those asked for (all when None)
    and every other, so that each reader checks every value of a row as every other does (an ``index``
    of -1 is refused by an export that writes no index too); but not, unless asked for, the solutions and
    boards of a file already replayed."""
    if columns is None:
        return None
    others = [name for name in names if entry.sha256 not in _replayed or name not in REPLAYED_WITH]
    return [*dict.fromkeys(columns), *(name for name in others if name not in columns)]


def _check(table: pa.Table, path: Path, entry: FileEntry, *, start: int = 0) -> None:
    """Check the rows of ``table``, from row ``start`` of ``entry``'s file at ``path``: all but the
    replay when the same bytes were checked whole before."""
    if entry.sha256 in _replayed:
        table = table.drop_columns([name for name in REPLAYED_WITH if name in table.column_names])
    check_rows(table, source=str(path), start=start)


def _with_tier(table: pa.Table, tier: str) -> pa.Table:
    return table.append_column(_TIER, pa.repeat(pa.scalar(tier, pa.string()), table.num_rows))


def _picked(table: pa.Table, columns: list[str] | None) -> pa.Table:
    """``table`` with the ``columns`` asked for and ``tier`` (all its columns when None)."""
    return table if columns is None else table.select([*dict.fromkeys(columns), _TIER.name])


def _checked_parquet(
    path: Path, entry: FileEntry, source: Path | pa.BufferReader, manifest: Manifest
) -> pq.ParquetFile:
    """The Parquet file at ``path`` (read from ``source``), once it is of the pack's game (checked first:
    a file of another game has its own tiers too), has the manifest ``entry``'s row count, the pack file
    schema, sound schema metadata (:func:`~pipeline.packs.parquet.metadata_problem`) and the tiers
    ``manifest`` says; PackError (GameMixError for another game) naming the file otherwise."""
    try:
        parquet = pq.ParquetFile(source)
    except READ_ERRORS as error:
        raise unreadable(path, error, checksummed=True) from None
    problem = undecodable_metadata(parquet.schema_arrow)
    if problem is not None:
        raise PackError(f"{path}: {problem}")
    found = pack_game(parquet.schema_arrow, source=str(path))  # a game this version knows
    if found is not manifest.played:
        raise GameMixError(
            f"{path}: {found.a_title} file in {manifest.played.a_title} pack: games are never mixed in a pack"
        )
    rows = parquet.metadata.num_rows
    if rows != entry.rows:
        raise PackError(f"{path}: {rows} rows, the manifest says {entry.rows}")
    problem = file_schema_problem(upgraded_schema(parquet.schema_arrow))
    if problem is not None:
        raise PackError(f"{path}: not a pack file: {problem}")
    curated = manifest.kind is PackKind.CURATED
    if (LEVEL_FIELD.name in parquet.schema_arrow.names) is not curated:
        mismatch = (
            "no column 'level' in a curated pack" if curated else "a column 'level' in a pack not curated"
        )
        raise PackError(f"{path}: not a file of this pack: {mismatch}")
    problem = metadata_problem(parquet.schema_arrow)
    if problem is not None:
        raise PackError(f"{path}: {problem}")
    graded_with = TierThresholds.from_metadata(metadata(parquet.schema_arrow.empty_table()))
    if manifest.format_version > 1 and graded_with != manifest.tier_thresholds:
        raise PackError(
            f"{path}: graded with other tiers than the manifest's tier_thresholds "
            f"({_thresholds_text(graded_with)}, not {_thresholds_text(manifest.tier_thresholds)})"
        )
    return parquet


def _checked_file(path: Path, entry: FileEntry) -> Path:
    """``path``, once the file there has the manifest ``entry``'s SHA-256 (read in blocks)."""
    try:
        digest = sha256_of(path)
    except FileNotFoundError:
        raise PackError(f"{path}: listed in the manifest but missing") from None
    except OSError as error:
        raise PackError(f"{path}: listed in the manifest but unreadable ({error.strerror})") from None
    if digest != entry.sha256:
        raise PackError(f"{path}: SHA-256 differs from the manifest's (changed since it was written)")
    return path


def _checked_bytes(path: Path, entry: FileEntry) -> pa.Buffer:
    """The bytes of the file at ``path``, in memory Arrow owns, once they have the manifest ``entry``'s SHA-256.

    Arrow's memory, not Python's ``bytes``: ``pq.read_table`` lets go of its
    source on its own threads, at times after it has returned, and letting go
    of Python's memory takes the GIL. When a command fails just after reading,
    the interpreter is exiting by then, and a thread that asks for the GIL is
    ended inside C++: SIGABRT (apache/arrow#34314, bench/exit_aborts.py).
    """
    try:
        with open(path, "rb") as source:
            data = pa.allocate_buffer(os.fstat(source.fileno()).st_size)
            size = source.readinto(memoryview(data))
    except FileNotFoundError:
        raise PackError(f"{path}: listed in the manifest but missing") from None
    except OSError as error:
        raise PackError(f"{path}: listed in the manifest but unreadable ({error.strerror})") from None
    if size != data.size or hashlib.sha256(data).hexdigest() != entry.sha256:
        raise PackError(f"{path}: SHA-256 differs from the manifest's (changed since it was written)")
    return data


def find_deal(folder: Path, deal_id: str) -> Deal:
    """The deal with id ``deal_id`` in the pack folder ``folder``; PackError naming both when absent."""
    table = read_pack_folder(folder, columns=["deal_id", "board"])
    found = table.filter(pc.equal(table.column("deal_id"), deal_id))
    if not found.num_rows:
        raise PackError(f"{folder}: no deal {deal_id!r}")
    game = read_manifest(folder).played
    return Deal.from_board_text(found.column("board")[0].as_py(), source=f"{folder} {deal_id}", game=game)


def pack_metadata(folder: Path) -> dict[str, str]:
    """The schema metadata of the pack folder ``folder``'s first file, the provenance every file repeats
    (its manifest checked, and the file as :func:`pack_folder_batches` checks it before its rows; no rows
    read); empty for a pack with no file."""
    folder = Path(folder)
    manifest = read_manifest(folder)
    if not manifest.files:
        return {}
    _check_listed(folder, manifest)
    path = data_path(folder, manifest.files[0])
    schema = _checked_parquet(
        path, manifest.files[0], _checked_file(path, manifest.files[0]), manifest
    ).schema_arrow
    return {
        key.decode(): value.decode() for key, value in (schema.metadata or {}).items() if key != b"pandas"
    }
