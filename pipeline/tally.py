"""A pack tallied for its report: verdict, tier and grade-status counts, the win rate, metric quartiles,
what each player meets, and the win rate block by block; read batch by batch. The reports render it.

:func:`describe_pack` reads a pack table (any pack with the grade columns of
:mod:`pipeline.stages.grade`) into a :class:`PackDescription`; a
:class:`PackTally` folds a pack one table at a time into the same
description, so a pack of any size is described batch by batch, and
:class:`BlockCounts` the wins and decided deals of each block of
:data:`BLOCK` deals by index. :func:`tally_saved_pack` reads a pack folder
or a pack file (``solve``, ``crosscheck`` or ``grade`` wrote it) into both,
only the columns they need: memory grows only by the numbers of the graded
deals (129 bytes a deal), whatever the pack's size. Every count lists each
verdict, tier and status, zeros included, in their declared order; a row
whose tier is null (or ``ungraded``) counts as ``ungraded``, and one with no
grade status (a pack file that was solved, not graded) in no status. The metric
distributions cover the solvable rows graded exactly, each over its non-null
values; so do each player's figures, tier by tier. The tiers the pack was
graded with (its reference player, figure and thresholds) are read from its
schema metadata (:meth:`pipeline.stages.tiers.Tiers.from_metadata`).

>>> import pyarrow as pa
>>> table = pa.table({
...     "verdict": ["solved", "solved", "unsolvable"],
...     "grade_status": ["exact", "exact", "exact"],
...     "tier": ["easy", "hard", "unsolvable"],
...     **{metric: [1.0, 3.0, None] for metric in TALLIED_METRICS},
... })
>>> description = describe_pack(table)
>>> description.verdicts
{'solved': 2, 'unsolvable': 1, 'unknown': 0}
>>> description.tiers
{'easy': 1, 'medium': 0, 'hard': 1, 'expert': 0, 'unsolvable': 1, 'ungraded': 0}
>>> description.metrics["traps"]
Distribution(count=2, minimum=1.0, q1=1.5, median=2.0, q3=2.5, maximum=3.0)
>>> description.players["hard"][Player.TIPS].dead_ends.median
3.0
"""

from __future__ import annotations

import dataclasses
import statistics
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.game.players import PLAYER_COLUMNS, PLAYERS, Player
from pipeline.game.stats import PUBLISHED_WIN_RATE, WinRate, published_win_rate, win_rate
from pipeline.game.verdicts import Verdict
from pipeline.packs.folders import pack_folder_batches, pack_metadata
from pipeline.packs.labels import PACK_TIERS, SOLVABLE_TIERS, UNGRADED, GradeStatus, PackKind
from pipeline.packs.manifest import read_manifest
from pipeline.packs.parquet import (
    BATCH_ROWS,
    PackError,
    metadata,
    pack_file_game,
    pack_file_schema,
    read_pack_file_batches,
)
from pipeline.packs.schema import GRADE_FIELDS
from pipeline.stages.tiers import Tiers

VERDICTS = tuple(verdict.value for verdict in Verdict)
STATUSES = tuple(status.value for status in GradeStatus)
SPREAD_METRICS = (
    "difficulty",
    "log10_solutions",
    "random_win_probability",
    "winnable_share",
    "branching_winnable",
    "traps",
    "forced_moves",
)
TALLIED_METRICS = tuple(
    dict.fromkeys(
        (
            *SPREAD_METRICS,
            *PLAYER_COLUMNS,
        )
    )
)
"""What a :class:`PackTally` keeps of each graded deal: the :data:`SPREAD_METRICS`, then each player's
win chance and dead ends (``random_win_probability`` once)."""
SUMMARY_COLUMNS = ("verdict", "grade_status", *TALLIED_METRICS)
"""The columns a :class:`PackTally` reads, with ``tier`` (which a pack folder's batches carry)."""
BLOCK = 10_000  # deals per block of the win rate by block
REPORT_COLUMNS = ("index", *SUMMARY_COLUMNS)
"""The columns of a pack that :func:`tally_saved_pack` reads (with ``tier``, which a pack folder's batches carry)."""
_TIER = "tier"


@dataclass(frozen=True)
class Distribution:
    """How many values a metric has, and their minimum, quartiles and maximum (None when there are none).

    Quartiles interpolate between the sorted values (``statistics.quantiles``
    with ``method="inclusive"``, numpy's default), as calibration does.

    >>> Distribution.of([4, 1, 3, 2])
    Distribution(count=4, minimum=1.0, q1=1.75, median=2.5, q3=3.25, maximum=4.0)
    >>> Distribution.of([7]).median, Distribution.of([]).median
    (7.0, None)
    """

    count: int
    minimum: float | None
    q1: float | None
    median: float | None
    q3: float | None
    maximum: float | None

    @classmethod
    def of(cls, values: Sequence[float]) -> Distribution:
        values = sorted(float(value) for value in values)
        if not values:
            return cls(0, None, None, None, None, None)
        if len(values) == 1:
            [value] = values
            return cls(1, value, value, value, value, value)
        q1, median, q3 = statistics.quantiles(values, n=4, method="inclusive")
        return cls(len(values), values[0], q1, median, q3, values[-1])


@dataclass(frozen=True)
class PlayerSpread:
    """How one player's figures spread over the deals of a tier: win chance without undo, dead ends with undo."""

    win_chance: Distribution
    dead_ends: Distribution


@dataclass(frozen=True)
class PackDescription:
    """Counts of every verdict, tier and grade status, the win rate, the metric distributions, each
    player's figures by solvable tier, and the tiers the pack was graded with (None when not known)."""

    total: int
    verdicts: dict[str, int]
    win_rate: WinRate
    tiers: dict[str, int]
    statuses: dict[str, int]
    metrics: dict[str, Distribution]
    players: dict[str, dict[Player, PlayerSpread]]  # by solvable tier, then by player, weakest first
    thresholds: Tiers | None = None
    published: float | None = PUBLISHED_WIN_RATE  # the game's published win rate; None when there is none


def describe_pack(table: pa.Table) -> PackDescription:
    """The counts, win rate and metric distributions of a graded pack ``table``."""
    return PackTally.of([table]).description()


def pack_tiers(folder: Path) -> Tiers | None:
    """The tiers the pack folder ``folder`` was graded with, from its files' schema metadata (its
    manifest checked; no rows read); None when it was not graded."""
    return Tiers.from_metadata(pack_metadata(folder))


def solvable_exact(table: pa.Table) -> pa.Table:
    """The rows of ``table`` that are solvable and graded exactly: the rows that have a full set of metrics."""
    return table.filter(
        pc.and_(
            pc.equal(table.column("verdict"), Verdict.SOLVED.value),
            pc.equal(table.column("grade_status"), GradeStatus.EXACT.value),
        )
    )


class PackTally:
    """What a pack's description and charts need of its rows, folded one table at a time, in pack order.

    Counts of every value of ``verdict``, ``tier`` (null counted as
    ``ungraded``) and ``grade_status``, and for each solvable row graded
    exactly (:func:`solvable_exact`) its :data:`TALLIED_METRICS` as float64
    (NaN for null) and its tier as one byte (its place in ``PACK_TIERS``, -1
    for any other): 129 bytes a graded deal; nothing else grows with the pack.
    A table needs the :data:`SUMMARY_COLUMNS` and ``tier``; the tiers the
    pack was graded with are those of the first table whose metadata has them.

    >>> tally = PackTally.of([pa.table({
    ...     "verdict": ["solved", "unsolvable"], "grade_status": ["exact", "exact"], "tier": ["hard", "unsolvable"],
    ...     **{metric: [2.5, None] for metric in TALLIED_METRICS},
    ... })])
    >>> tally.total, tally.graded("difficulty"), tally.graded_tiers()
    (2, array([2.5]), array([2], dtype=int8))
    """

    def __init__(self) -> None:
        self.total = 0
        self.verdicts: Counter[str | None] = Counter()
        self.tiers: Counter[str | None] = Counter()
        self.statuses: Counter[str | None] = Counter()
        self.thresholds: Tiers | None = None
        self._graded: dict[str, list[np.ndarray]] = {name: [] for name in (*TALLIED_METRICS, _TIER)}

    @classmethod
    def of(cls, tables: Iterable[pa.Table]) -> PackTally:
        """The tally of ``tables``, in order."""
        tally = cls()
        for table in tables:
            tally.add(table)
        return tally

    def add(self, table: pa.Table) -> None:
        """Fold the rows of ``table`` in, after those already added."""
        self.total += table.num_rows
        if self.thresholds is None:
            self.thresholds = Tiers.from_metadata(metadata(table))
        tiers = pc.fill_null(table.column("tier"), UNGRADED)
        self.verdicts.update(_value_counts(table.column("verdict")))
        self.tiers.update(_value_counts(tiers))
        statuses = _value_counts(table.column("grade_status"))
        self.statuses.update({status: count for status, count in statuses.items() if status is not None})
        graded = solvable_exact(table.set_column(table.column_names.index("tier"), _TIER, tiers))
        for metric in TALLIED_METRICS:
            values = pc.cast(graded.column(metric), pa.float64()).to_numpy(zero_copy_only=False)
            self._graded[metric].append(values)
        codes = pc.fill_null(pc.index_in(graded.column(_TIER), value_set=pa.array(PACK_TIERS)), -1)
        self._graded[_TIER].append(codes.to_numpy().astype(np.int8))

    def graded(self, metric: str) -> np.ndarray:
        """The ``metric`` of each solvable row graded exactly, in pack order (NaN for null)."""
        return self._joined(metric)

    def graded_tiers(self) -> np.ndarray:
        """The tier of each solvable row graded exactly, in pack order: its place in ``PACK_TIERS``, -1 for another."""
        return self._joined(_TIER)

    def _joined(self, name: str) -> np.ndarray:
        chunks = self._graded[name]
        if len(chunks) != 1:
            kind = np.int8 if name == _TIER else np.float64
            chunks[:] = [np.concatenate(chunks) if chunks else np.empty(0, kind)]
        return chunks[0]

    def description(self) -> PackDescription:
        """The counts, win rate and metric distributions of the rows added."""
        verdicts = _counts("verdict", self.verdicts, VERDICTS)
        tiers = _counts("tier", self.tiers, PACK_TIERS)
        statuses = _counts("grade_status", self.statuses, STATUSES)
        rate = win_rate(
            solved=verdicts[Verdict.SOLVED.value],
            unsolvable=verdicts[Verdict.UNSOLVABLE.value],
            unknown=verdicts[Verdict.UNKNOWN.value],
        )
        metrics = {metric: _spread(self.graded(metric)) for metric in SPREAD_METRICS}
        players = {}
        for tier in SOLVABLE_TIERS:
            of_tier = self.graded_tiers() == PACK_TIERS.index(tier)
            players[tier] = {
                player: PlayerSpread(
                    _spread(self.graded(player.win_column)[of_tier]),
                    _spread(self.graded(player.dead_ends_column)[of_tier]),
                )
                for player in PLAYERS
            }
        return PackDescription(self.total, verdicts, rate, tiers, statuses, metrics, players, self.thresholds)


def _spread(values: np.ndarray) -> Distribution:
    """The distribution of the finite ``values`` (NaN is null)."""
    return Distribution.of(values[np.isfinite(values)].tolist())


def _value_counts(values: pa.ChunkedArray) -> dict[str | None, int]:
    """How many times each value (null included) is in ``values``."""
    counted = pc.value_counts(values)
    return dict(zip(counted.field("values").to_pylist(), counted.field("counts").to_pylist(), strict=True))


def _counts(column: str, tally: Counter[str | None], names: Sequence[str]) -> dict[str, int]:
    """How many rows of the ``column`` ``tally`` counts hold each of ``names``.

    Any other value is a ValueError naming the column: the counts must add up to the rows.
    """
    unexpected = sorted(tally.keys() - set(names), key=str)
    if unexpected:
        raise ValueError(
            f"column {column!r} holds {', '.join(map(repr, unexpected))}, expected one of {', '.join(names)}"
        )
    return {name: tally[name] for name in names}


class BlockCounts:
    """Wins and decided deals per block of ``block`` deals by index, counted from index ``first``,
    folded one table at a time (each needs ``index`` and ``verdict``): memory holds a few numbers a block.

    ``first`` is the pack's lowest index (:func:`lowest_index`), so a PySol FC
    census from deal 1 has no stray last block.

    >>> counts = BlockCounts(first=1, block=10)
    >>> counts.add(pa.table({"index": [1, 2, 11], "verdict": ["solved", "unsolvable", "solved"]}))
    >>> [array.tolist() for array in counts.arrays()]
    [[0, 1], [1, 1], [2, 1]]
    """

    def __init__(self, first: int, block: int = BLOCK) -> None:
        self.first, self.block = first, block
        self.rows = 0
        self.wins: Counter[int] = Counter()
        self.decided: Counter[int] = Counter()

    @classmethod
    def of(cls, table: pa.Table, block: int = BLOCK) -> BlockCounts:
        """The block counts of ``table``, counted from its lowest index."""
        counts = cls(lowest_index([table]) or 0, block)
        counts.add(table)
        return counts

    def add(self, table: pa.Table) -> None:
        """Fold the rows of ``table`` in."""
        self.rows += table.num_rows
        number = (table.column("index").to_numpy() - self.first) // self.block
        verdict = table.column("verdict")
        won = pc.equal(verdict, Verdict.SOLVED.value).to_numpy(zero_copy_only=False)
        decided = pc.is_in(verdict, pa.array([Verdict.SOLVED.value, Verdict.UNSOLVABLE.value]))
        decided = decided.to_numpy(zero_copy_only=False)
        for counter, chosen in ((self.wins, won), (self.decided, decided)):
            blocks, counts = np.unique(number[chosen], return_counts=True)
            counter.update(dict(zip(blocks.tolist(), counts.tolist(), strict=True)))

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per block with a decided deal, in order: the block numbers, their wins, their decided deals."""
        blocks = sorted(self.decided)
        return (
            np.array(blocks, np.int64),
            np.array([self.wins[number] for number in blocks], np.int64),
            np.array([self.decided[number] for number in blocks], np.int64),
        )


def lowest_index(tables: Iterable[pa.Table]) -> int | None:
    """The lowest ``index`` of the rows of ``tables``; None when they have none."""
    lows = [pc.min(table.column("index")).as_py() for table in tables if table.num_rows]
    return min(lows) if lows else None


def block_counts(table: pa.Table, block: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per block of ``table`` (counted from its lowest index) with a decided deal, in order: the block
    numbers, their wins, their decided deals (:meth:`BlockCounts.arrays`)."""
    return BlockCounts.of(table, block).arrays()


@dataclass(frozen=True)
class TalliedPack:
    """A saved pack tallied: its rows (:class:`PackTally`), its blocks (:class:`BlockCounts`), its
    description (with the game's published win rate, None for a curated pack), and what it could not say."""

    tally: PackTally
    blocks: BlockCounts
    description: PackDescription
    notes: tuple[str, ...] = ()  # a pack file not graded


def tally_saved_pack(pack: Path, *, batch_rows: int = BATCH_ROWS) -> TalliedPack:
    """Tally ``pack``, a pack folder or a pack file, ``batch_rows`` rows at a time.

    A pack file needs verdicts (PackError for a deals pack file); one not
    graded counts every deal ``ungraded``, in no grade status, with no metrics,
    and the ``notes`` say so. The pack is read twice: its ``index`` column
    first, for the lowest index the blocks count from, then the columns of
    :data:`REPORT_COLUMNS`, folded as they come.
    """
    is_file = Path(pack).is_file()
    notes = _pack_file_notes(pack) if is_file else ()
    batches = _pack_file_batches if is_file else _pack_folder_batches
    first = lowest_index(batches(pack, ["index"], batch_rows))
    tally, blocks = PackTally(), BlockCounts(first or 0)
    for batch in batches(pack, list(REPORT_COLUMNS), batch_rows):
        tally.add(batch)
        blocks.add(batch)
    if is_file:
        published = published_win_rate(pack_file_game(pack))
    else:
        manifest = read_manifest(pack)
        # A curated pack's deals are chosen wins: its rate is no sample of the game's, so nothing to compare.
        published = None if manifest.kind == PackKind.CURATED else published_win_rate(manifest.played)
    description = dataclasses.replace(tally.description(), published=published)
    return TalliedPack(tally, blocks, description, notes)


def _pack_folder_batches(pack: Path, columns: list[str], batch_rows: int) -> Iterator[pa.Table]:
    return pack_folder_batches(pack, columns=columns, batch_rows=batch_rows)


def _pack_file_batches(pack: Path, columns: list[str], batch_rows: int) -> Iterator[pa.Table]:
    """The rows of the pack file ``pack`` with ``columns`` and ``tier``, as a pack folder's batches have them: a
    column the file lacks (the grades of a file not graded) all null; PackError for a file without verdicts."""
    found = pack_file_schema(pack).names
    if "verdict" not in found:
        raise PackError(f"{pack}: no verdicts (a deals pack file): blackhole solve it before a report")
    types = {field.name: field.type for field in GRADE_FIELDS}
    wanted = list(dict.fromkeys([*columns, "tier"]))
    present = [name for name in wanted if name in found]
    for batch in read_pack_file_batches(pack, columns=present, batch_rows=batch_rows):
        for name in wanted:
            if name not in found:
                batch = batch.append_column(name, pa.nulls(batch.num_rows, types.get(name, pa.float64())))
        yield batch.select(wanted)


def _pack_file_notes(pack: Path) -> tuple[str, ...]:
    """What a report of the pack file ``pack`` cannot say: the grades, when it was not graded."""
    if "grade_status" in pack_file_schema(pack).names:
        return ()
    return (
        f"{pack}: not graded: every deal counts as ungraded, with no grade status or metrics (blackhole grade adds them)",
    )
