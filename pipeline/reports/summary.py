"""What a pack holds: verdict, tier and grade-status counts, the win rate, and metric quartiles.

:func:`describe_pack` reads a pack table (any pack with the grade columns of
:mod:`pipeline.stages.grade`) into a :class:`PackDescription`; a
:class:`PackTally` folds a pack one table at a time into the same
description, so a pack of any size is described batch by batch;
:func:`report_tables` renders one for the terminal. Every count lists each
verdict, tier and status, zeros included, in their declared order; a row
whose tier is null (or ``ungraded``) counts as ``ungraded``. The metric
distributions cover the solvable rows graded exactly, each over its non-null values.

>>> import pyarrow as pa
>>> table = pa.table({
...     "verdict": ["solved", "solved", "unsolvable"],
...     "grade_status": ["exact", "exact", "exact"],
...     "tier": ["easy", "hard", "unsolvable"],
...     **{metric: [1.0, 3.0, None] for metric in SPREAD_METRICS},
... })
>>> description = describe_pack(table)
>>> description.verdicts
{'solved': 2, 'unsolvable': 1, 'unknown': 0}
>>> description.tiers
{'easy': 1, 'medium': 0, 'hard': 1, 'expert': 0, 'unsolvable': 1, 'ungraded': 0}
>>> description.metrics["traps"]
Distribution(count=2, minimum=1.0, q1=1.5, median=2.0, q3=2.5, maximum=3.0)
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.game.stats import PUBLISHED_WIN_RATE, WinRate, win_rate
from pipeline.game.verdicts import Verdict
from pipeline.packs.labels import PACK_TIERS, UNGRADED, GradeStatus

if TYPE_CHECKING:
    from rich.table import Table

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
SUMMARY_COLUMNS = ("verdict", "grade_status", *SPREAD_METRICS)
"""The columns a :class:`PackTally` reads, with ``tier`` (which a pack folder's batches carry)."""
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
class PackDescription:
    """Counts of every verdict, tier and grade status, the win rate, and the metric distributions."""

    total: int
    verdicts: dict[str, int]
    win_rate: WinRate
    tiers: dict[str, int]
    statuses: dict[str, int]
    metrics: dict[str, Distribution]


def describe_pack(table: pa.Table) -> PackDescription:
    """The counts, win rate and metric distributions of a graded pack ``table``."""
    return PackTally.of([table]).description()


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
    exactly (:func:`solvable_exact`) its :data:`SPREAD_METRICS` as float64
    (NaN for null) and its tier as one byte (its place in ``PACK_TIERS``, -1
    for any other): 57 bytes a graded deal; nothing else grows with the pack.
    A table needs the :data:`SUMMARY_COLUMNS` and ``tier``.

    >>> tally = PackTally.of([pa.table({
    ...     "verdict": ["solved", "unsolvable"], "grade_status": ["exact", "exact"], "tier": ["hard", "unsolvable"],
    ...     **{metric: [2.5, None] for metric in SPREAD_METRICS},
    ... })])
    >>> tally.total, tally.graded("difficulty"), tally.graded_tiers()
    (2, array([2.5]), array([2], dtype=int8))
    """

    def __init__(self) -> None:
        self.total = 0
        self.verdicts: Counter[str | None] = Counter()
        self.tiers: Counter[str | None] = Counter()
        self.statuses: Counter[str | None] = Counter()
        self._graded: dict[str, list[np.ndarray]] = {name: [] for name in (*SPREAD_METRICS, _TIER)}

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
        tiers = pc.fill_null(table.column("tier"), UNGRADED)
        self.verdicts.update(_value_counts(table.column("verdict")))
        self.tiers.update(_value_counts(tiers))
        self.statuses.update(_value_counts(table.column("grade_status")))
        graded = solvable_exact(table.set_column(table.column_names.index("tier"), _TIER, tiers))
        for metric in SPREAD_METRICS:
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
        metrics = {}
        for metric in SPREAD_METRICS:
            values = self.graded(metric)
            metrics[metric] = Distribution.of(values[~np.isnan(values)].tolist())
        return PackDescription(self.total, verdicts, rate, tiers, statuses, metrics)


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


def report_tables(description: PackDescription) -> list[Table]:
    """Rich tables of ``description``: verdicts, win rate, tiers, grade statuses, metric quartiles."""
    from rich.table import Table

    total = description.total
    verdicts = Table(title=f"Verdicts of {total} deals")
    verdicts.add_column("verdict")
    verdicts.add_column("deals", justify="right")
    verdicts.add_column("share", justify="right")
    for verdict, count in description.verdicts.items():
        verdicts.add_row(verdict, str(count), _share(count, total))

    rate = description.win_rate
    shown = "n/a" if rate.rate is None else f"{rate.rate:.2%}"
    if description.verdicts[Verdict.UNKNOWN.value]:
        shown += " of decided"
    inside = "inside" if rate.contains(PUBLISHED_WIN_RATE) else "OUTSIDE"
    rates = Table(title="Win rate", show_header=False)
    rates.add_column("measure")
    rates.add_column("value", justify="right")
    rates.add_row("win rate [95 % CI]", f"{shown} [{rate.low:.2%}, {rate.high:.2%}]")
    rates.add_row("published (PySol FC)", f"{PUBLISHED_WIN_RATE:.2%}, {inside} the interval")

    tiers = Table(title="Tiers")
    tiers.add_column("tier")
    tiers.add_column("deals", justify="right")
    tiers.add_column("share", justify="right")
    for tier, count in description.tiers.items():
        tiers.add_row(tier, str(count), _share(count, total))

    statuses = Table(title="Grade status")
    statuses.add_column("status")
    statuses.add_column("deals", justify="right")
    for status, count in description.statuses.items():
        statuses.add_row(status, str(count))

    metrics = Table(title="Metrics of the solvable deals graded exactly")
    metrics.add_column("metric")
    for heading in ("n", "min", "25 %", "median", "75 %", "max"):
        metrics.add_column(heading, justify="right")
    for metric, spread in description.metrics.items():
        values = (spread.minimum, spread.q1, spread.median, spread.q3, spread.maximum)
        metrics.add_row(metric, str(spread.count), *(_number(value) for value in values))
    return [verdicts, rates, tiers, statuses, metrics]


def _share(count: int, total: int) -> str:
    return f"{count / total:.2%}" if total else "n/a"


def _number(value: float | None) -> str:
    """Four significant digits, or ``n/a``.

    >>> _number(4.68694e-06), _number(16.75), _number(None)
    ('4.687e-06', '16.75', 'n/a')
    """
    return "n/a" if value is None else f"{value:.4g}"
