"""What a pack holds: verdict, tier and grade-status counts, the win rate, and metric quartiles.

:func:`describe_pack` reads a pack table (any pack with the grade columns of
:mod:`pipeline.stages.grade`) into a :class:`PackDescription`; :func:`report_tables`
renders one for the terminal. Every count lists each verdict, tier and status,
zeros included, in their declared order; a row whose tier is null (or
``ungraded``) counts as ``ungraded``. The metric distributions cover the
solvable rows graded exactly, each over its non-null values.

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
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pyarrow as pa
import pyarrow.compute as pc

from pipeline.game.stats import PUBLISHED_WIN_RATE, WinRate, win_rate
from pipeline.game.verdicts import Verdict
from pipeline.packs.schema import PACK_TIERS, UNGRADED, GradeStatus

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
    verdicts = _counts("verdict", table.column("verdict"), VERDICTS)
    tiers = _counts("tier", pc.fill_null(table.column("tier"), UNGRADED), PACK_TIERS)
    statuses = _counts("grade_status", table.column("grade_status"), STATUSES)
    rate = win_rate(
        solved=verdicts[Verdict.SOLVED.value],
        unsolvable=verdicts[Verdict.UNSOLVABLE.value],
        unknown=verdicts[Verdict.UNKNOWN.value],
    )
    graded = solvable_exact(table)
    metrics = {
        metric: Distribution.of(graded.column(metric).drop_null().to_pylist()) for metric in SPREAD_METRICS
    }
    return PackDescription(table.num_rows, verdicts, rate, tiers, statuses, metrics)


def solvable_exact(table: pa.Table) -> pa.Table:
    """The rows of ``table`` that are solvable and graded exactly: the rows that have a full set of metrics."""
    return table.filter(
        pc.and_(
            pc.equal(table.column("verdict"), Verdict.SOLVED.value),
            pc.equal(table.column("grade_status"), GradeStatus.EXACT.value),
        )
    )


def _counts(column: str, values: pa.ChunkedArray, names: Sequence[str]) -> dict[str, int]:
    """How many of ``values`` (the ``column``) are each of ``names``.

    Any other value is a ValueError naming the column: the counts must add up to the rows.
    """
    tally = Counter(values.to_pylist())
    unexpected = sorted(tally.keys() - set(names))
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
