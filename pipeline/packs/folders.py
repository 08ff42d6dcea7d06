"""Pack folders: a Parquet dataset partitioned by tier (hive style) and a manifest, written atomically.

A pack folder holds one file per tier that has deals, and ``manifest.json``::

    output/packs/default/
        manifest.json
        tier=easy/part-0.parquet
        tier=medium/part-0.parquet
        ...
        tier=unsolvable/part-0.parquet
        tier=ungraded/part-0.parquet     deals with no tier (unknown verdict, out of budget)

Hive style: the ``tier`` column lives in the folder name, not in the files,
so ``pyarrow.dataset.dataset(folder, partitioning="hive")`` and DuckDB's
``read_parquet('folder/*/*.parquet', hive_partitioning = true)`` give it back.
Every file has the same explicit schema (the columns of a graded pack but
``tier``), zstd compression, and schema metadata repeating the provenance.
Within a file, rows keep the order they were given in (deal index for a run's
pack, the curated order for a curated one), in row groups of at most
:data:`ROW_GROUP_ROWS`, so the bytes depend on the rows alone.

The folder is built beside its final place (``.NAME.tmp-<pid>``) and renamed
into it when complete: a reader sees the old pack or the new one, never a
partial file. The manifest lists every data file with its row count and
SHA-256, and counts the deals by verdict and tier, with the win rate and its
95 % confidence interval.

>>> [tier for tier in PACK_TIERS]
['easy', 'medium', 'hard', 'expert', 'unsolvable', 'ungraded']
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from pipeline.files import replacing_folder
from pipeline.game.deal import Deal
from pipeline.game.stats import PUBLISHED_WIN_RATE, win_rate
from pipeline.game.verdicts import Verdict
from pipeline.packs.manifest import MANIFEST, FileEntry, Manifest, Origin, WinRateRecord, read_manifest
from pipeline.packs.parquet import BATCH_ROWS, PackError, batches_of, metadata
from pipeline.packs.schema import LEVEL_FIELD, PACK_FIELDS, PACK_TIERS, UNGRADED, bare

if TYPE_CHECKING:
    import pyarrow.dataset as ds

TIER_PARTITIONING_SCHEMA = pa.schema([pa.field("tier", pa.string())])
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
    ``origin`` opens the manifest (name, kind, config...); ``provenance`` goes
    into every file's schema metadata.
    """
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    with replacing_folder(target) as staging:
        files = {tier: _TierFile(staging, tier, provenance) for tier in PACK_TIERS}
        try:
            counts = _Counts()
            for table in tables:
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
        self.buffered: list[pa.Table] = []
        self.buffered_rows = self.rows = 0

    def add(self, data: pa.Table) -> None:
        if self.writer is None:
            self.path.parent.mkdir()
            schema = file_schema(data.schema).with_metadata(metadata(data) | self.provenance)
            self.writer = pq.ParquetWriter(self.path, schema, compression="zstd")
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
        self.writer = None
        return FileEntry(self.relative, self.tier, self.rows, sha256_of(self.path))

    def abandon(self) -> None:
        if self.writer is not None:
            self.writer.close()

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
    fields = PACK_FIELDS + ((LEVEL_FIELD,) if "level" in schema.names else ())
    expected = bare(pa.schema(fields))
    if not schema.remove_metadata().equals(expected):
        raise ValueError(f"rows for a pack have the schema\n{schema}\nnot\n{expected}")
    return expected


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

    def add(self, table: pa.Table, tier: str) -> None:
        self.tiers[tier] += table.num_rows
        for verdict in table.column("verdict").to_pylist():
            self.verdicts[verdict] += 1

    def manifest(self, origin: Origin, files: tuple[FileEntry, ...]) -> Manifest:
        rate = win_rate(
            solved=self.verdicts["solved"],
            unsolvable=self.verdicts["unsolvable"],
            unknown=self.verdicts["unknown"],
        )
        record = WinRateRecord(
            rate.rate, rate.low, rate.high, PUBLISHED_WIN_RATE, rate.contains(PUBLISHED_WIN_RATE)
        )
        return Manifest(origin, sum(self.tiers.values()), self.verdicts, self.tiers, record, files)


def sha256_of(path: Path) -> str:
    """The SHA-256 of the file at ``path``, in hex."""
    digest = hashlib.sha256()
    with open(path, "rb") as source:
        for block in iter(lambda: source.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def read_pack_folder(folder: Path, *, columns: list[str] | None = None) -> pa.Table:
    """Every row of the pack folder ``folder``, tier by tier in pack order, with ``tier`` as the last column.

    Each file is checked against the manifest (SHA-256, row count) as it is
    read; a mismatch raises PackError naming the file. ``columns`` picks columns
    (``tier`` is always added).
    """
    folder = Path(folder)
    manifest = read_manifest(folder)
    tables = []
    for entry in manifest.files:
        table = pq.read_table(pa.BufferReader(_checked_bytes(folder / entry.path, entry)), columns=columns)
        tier = pa.array([entry.tier] * table.num_rows, pa.string())
        tables.append(table.append_column(pa.field("tier", pa.string(), nullable=False), tier))
    if not tables:
        raise PackError(f"{folder}: the pack holds no deals")
    return pa.concat_tables(tables)


def pack_folder_batches(
    folder: Path, *, columns: list[str] | None = None, batch_rows: int = BATCH_ROWS
) -> Iterator[pa.Table]:
    """The rows of the pack folder ``folder`` as :func:`read_pack_folder` gives them, in tables of at most ``batch_rows``.

    Each file's SHA-256 and row count are checked against the manifest before
    its first batch (PackError naming the file), so memory holds one batch
    whatever the pack's size. ``columns`` picks columns (``tier`` is always added).
    """
    folder = Path(folder)
    manifest = read_manifest(folder)
    if not manifest.files:
        raise PackError(f"{folder}: the pack holds no deals")
    for entry in manifest.files:
        path = folder / entry.path
        parquet = pq.ParquetFile(_checked_file(path, entry))
        for batch in batches_of(parquet, batch_rows=batch_rows, columns=columns):
            tier = pa.array([entry.tier] * batch.num_rows, pa.string())
            table = pa.Table.from_batches([batch])
            yield table.append_column(pa.field("tier", pa.string(), nullable=False), tier)


def _checked_file(path: Path, entry: FileEntry) -> Path:
    """``path``, once the file there has the manifest ``entry``'s SHA-256 and row count (read in blocks)."""
    try:
        digest = sha256_of(path)
    except FileNotFoundError:
        raise PackError(f"{path}: listed in the manifest but missing") from None
    if digest != entry.sha256:
        raise PackError(f"{path}: SHA-256 differs from the manifest's (changed since it was written)")
    rows = pq.ParquetFile(path).metadata.num_rows
    if rows != entry.rows:
        raise PackError(f"{path}: {rows} rows, the manifest says {entry.rows}")
    return path


def _checked_bytes(path: Path, entry: FileEntry) -> bytes:
    """The bytes of the file at ``path``, once they have the manifest ``entry``'s SHA-256 and row count."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise PackError(f"{path}: listed in the manifest but missing") from None
    if hashlib.sha256(data).hexdigest() != entry.sha256:
        raise PackError(f"{path}: SHA-256 differs from the manifest's (changed since it was written)")
    rows = pq.ParquetFile(pa.BufferReader(data)).metadata.num_rows
    if rows != entry.rows:
        raise PackError(f"{path}: {rows} rows, the manifest says {entry.rows}")
    return data


def find_deal(folder: Path, deal_id: str) -> Deal:
    """The deal with id ``deal_id`` in the pack folder ``folder``; PackError naming both when absent."""
    table = read_pack_folder(folder, columns=["deal_id", "board"])
    found = table.filter(pc.equal(table.column("deal_id"), deal_id))
    if not found.num_rows:
        raise PackError(f"{folder}: no deal {deal_id!r}")
    return Deal.from_board_text(found.column("board")[0].as_py(), source=f"{folder} {deal_id}")
