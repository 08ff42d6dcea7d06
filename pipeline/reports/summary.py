"""What a pack holds: verdict, tier and grade-status counts, the win rate, metric quartiles, and what each player meets.

:func:`describe_pack` reads a pack table (any pack with the grade columns of
:mod:`pipeline.stages.grade`) into a :class:`PackDescription`; a
:class:`PackTally` folds a pack one table at a time into the same
description, so a pack of any size is described batch by batch;
:func:`report_tables` renders one for the terminal, in words
(:mod:`pipeline.reports.words`), and :func:`description_json` as one JSON
object (``report --json``). Every count lists each
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

import statistics
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.game.players import PLAYER_COLUMNS, PLAYERS, Player
from pipeline.game.stats import PUBLISHED_WIN_RATE, WinRate, win_rate
from pipeline.game.verdicts import Verdict
from pipeline.packs.folders import pack_metadata
from pipeline.packs.labels import PACK_TIERS, SOLVABLE_TIERS, UNGRADED, GradeStatus
from pipeline.packs.parquet import metadata
from pipeline.reports import words
from pipeline.reports.tables import STATUS_LABELS
from pipeline.stages.tiers import THRESHOLDS, Tiers

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


def description_json(description: PackDescription) -> dict[str, Any]:
    """``description`` as one JSON object, for ``report --json`` (docs/running.md lists its keys).

    ``deals``; ``verdicts``, ``tiers`` and ``statuses``: counts of each, zeros
    included, in their declared order; ``win_rate``: ``rate`` (null when no deal
    was decided), ``low`` and ``high`` (the 95 % interval), ``published`` (the
    game's published rate, null when none) and ``published_inside`` (whether the
    interval holds it; null without one); ``thresholds``: the tiers the pack was
    graded with (``player``, ``figure``, then the least difficulty of ``medium``,
    ``hard`` and ``expert``), null when not graded; ``metrics``: each of
    :data:`SPREAD_METRICS` over the solvable deals graded exactly, as
    ``count``, ``min``, ``q1``, ``median``, ``q3``, ``max`` (null without values);
    ``players``: by solvable tier, then by player model (``random``, ``tips``,
    ``lookahead-2``...), its ``win_probability`` (the columns ``<player>_win_probability``) and
    ``dead_ends`` spread the same way.

    >>> document = description_json(describe_pack(pa.table({
    ...     "verdict": ["solved", "unsolvable"], "grade_status": ["exact", "exact"], "tier": ["easy", "unsolvable"],
    ...     **{metric: [2.0, None] for metric in TALLIED_METRICS},
    ... })))
    >>> document["deals"], document["verdicts"], document["win_rate"]["rate"], document["metrics"]["traps"]["median"]
    (2, {'solved': 1, 'unsolvable': 1, 'unknown': 0}, 0.5, 2.0)
    >>> list(document["players"]["easy"]["tips"])
    ['win_probability', 'dead_ends']
    """
    rate, published, thresholds = description.win_rate, description.published, description.thresholds
    return {
        "deals": description.total,
        "verdicts": dict(description.verdicts),
        "win_rate": {
            "rate": rate.rate,
            "low": rate.low,
            "high": rate.high,
            "published": published,
            "published_inside": None if published is None else rate.contains(published),
        },
        "tiers": dict(description.tiers),
        "thresholds": None
        if thresholds is None
        else {
            "player": thresholds.difficulty.player.value,
            "figure": thresholds.difficulty.figure.value,
            **{name: float(getattr(thresholds, name)) for name in THRESHOLDS},
        },
        "statuses": dict(description.statuses),
        "metrics": {name: _distribution_json(spread) for name, spread in description.metrics.items()},
        "players": {
            tier: {
                player.value: {
                    "win_probability": _distribution_json(spread.win_chance),
                    "dead_ends": _distribution_json(spread.dead_ends),
                }
                for player, spread in players.items()
            }
            for tier, players in description.players.items()
        },
    }


def _distribution_json(spread: Distribution) -> dict[str, float | int | None]:
    return {
        "count": spread.count,
        "min": spread.minimum,
        "q1": spread.q1,
        "median": spread.median,
        "q3": spread.q3,
        "max": spread.maximum,
    }


def report_tables(description: PackDescription) -> list[Table]:
    """Rich tables of ``description``, in words: verdicts, win rate, tiers and what they mean, what each
    player meets in each tier, grade statuses, metric quartiles."""
    from rich.table import Table

    total = description.total
    verdicts = Table(title=f"Verdicts of {words.counted(total, 'deal')}")
    verdicts.add_column("verdict")
    verdicts.add_column("deals", justify="right")
    verdicts.add_column("share", justify="right")
    for verdict, count in description.verdicts.items():
        verdicts.add_row(verdict, str(count), _share(count, total))

    rate = description.win_rate
    shown = "n/a" if rate.rate is None else f"{rate.rate:.2%}"
    if description.verdicts[Verdict.UNKNOWN.value]:
        shown += " of decided"
    rates = Table(title="Win rate", show_header=False)
    rates.add_column("measure")
    rates.add_column("value", justify="right")
    rates.add_row("win rate [95 % CI]", f"{shown} [{rate.low:.2%}, {rate.high:.2%}]")
    published = description.published
    if published is not None:
        inside = "inside" if rate.contains(published) else "OUTSIDE"
        rates.add_row("published (PySol FC)", f"{published:.2%}, {inside} the interval")

    statuses = Table(title="Grade status")
    statuses.add_column("status")
    statuses.add_column("deals", justify="right")
    for status, count in description.statuses.items():
        statuses.add_row(STATUS_LABELS[status], str(count))
    return [
        verdicts,
        rates,
        tiers_table(description),
        *player_tables(description),
        statuses,
        metrics_table(description),
    ]


def tiers_table(description: PackDescription) -> Table:
    """How many deals each tier has, and what each tier means when the pack says how it was graded."""
    from rich.table import Table

    meanings = {} if description.thresholds is None else words.tier_meanings(description.thresholds)
    tiers = Table(title="Tiers")
    tiers.add_column("tier")
    tiers.add_column("deals", justify="right")
    tiers.add_column("share", justify="right")
    if meanings:
        tiers.add_column("what it means, on average")
    for tier, count in description.tiers.items():
        tiers.add_row(
            tier,
            str(count),
            _share(count, description.total),
            *([meanings.get(tier, "")] if meanings else []),
        )
    return tiers


def player_tables(description: PackDescription) -> list[Table]:
    """One table per solvable tier with deals: each player model, in words, with the medians over the
    tier's deals of its chance that one attempt wins and of its dead ends with undo."""
    from rich.table import Table

    tables = []
    for tier, players in description.players.items():
        deals = description.tiers[tier]
        if not deals:
            continue
        table = Table(
            title=f"Tier {tier}: what each player meets, medians over its {words.counted(deals, 'deal')}",
            caption="a dead end: stuck before the win, then undo back to the last position a win was open from",
        )
        table.add_column("player")
        table.add_column("one attempt without undo wins", justify="right")
        table.add_column("dead ends with undo", justify="right")
        for player, spread in players.items():
            table.add_row(
                player.words,
                words.chance_words(spread.win_chance.median),
                words.dead_ends_words(spread.dead_ends.median),
            )
        tables.append(table)
    return tables


METRIC_WORDS = {
    "difficulty": ("difficulty", "what the tiers are cut on"),
    "log10_solutions": ("winning lines", "distinct winning move sequences"),
    "random_win_probability": ("random play wins", "the chance that one attempt of random legal moves wins"),
    "winnable_share": ("winnable share", "of the positions reached, those a win is still open from"),
    "branching_winnable": ("moves to choose", "legal moves in a position a win is open from"),
    "traps": ("traps", "choices along the solution with a move that loses the deal"),
    "forced_moves": ("forced moves", "positions along the solution with one legal move"),
}
"""How the metrics table names each of :data:`SPREAD_METRICS`, short, and what the caption says it is."""


def metrics_table(description: PackDescription) -> Table:
    """The quartiles of each of :data:`SPREAD_METRICS` over the solvable deals graded exactly, in words:
    short names in the rows, what each is in the caption (the difficulty's units from the pack's metadata)."""
    from rich.table import Table

    meanings = {name: meaning for name, meaning in METRIC_WORDS.values()}
    if description.thresholds is not None:
        meanings["difficulty"] = words.figure_label(description.thresholds.difficulty)
    caption = "; ".join(f"{name}: {meaning}" for name, meaning in meanings.items())
    counts = {spread.count for spread in description.metrics.values()}
    if len(counts) == 1:  # as for a pack's own rows: every graded win has every metric
        [count] = counts
        title = f"Metrics of the {count} solvable deals graded exactly"
    else:
        title = "Metrics of the solvable deals graded exactly"
    metrics = Table(title=title, caption=caption)
    metrics.add_column("metric")
    headings = ("min", "25 %", "median", "75 %", "max")
    for heading in headings if len(counts) == 1 else ("deals", *headings):
        metrics.add_column(heading, justify="right")
    for metric, spread in description.metrics.items():
        values = (spread.minimum, spread.q1, spread.median, spread.q3, spread.maximum)
        cells = [_metric_text(metric, value) for value in values]
        metrics.add_row(
            METRIC_WORDS[metric][0], *(cells if len(counts) == 1 else [str(spread.count), *cells])
        )
    return metrics


def _share(count: int, total: int) -> str:
    return f"{count / total:.2%}" if total else "n/a"


def _metric_text(metric: str, value: float | None) -> str:
    """A metric's value as the metrics table shows it: counts and odds in words, no exponent.

    >>> _metric_text("log10_solutions", 10.43), _metric_text("random_win_probability", 3.441e-05)
    ('27 billion', '1 in 29,000')
    >>> _metric_text("winnable_share", 0.6366), _metric_text("difficulty", 518.54), _metric_text("traps", None)
    ('63.7 %', '519', 'n/a')
    """
    if value is None:
        return "n/a"
    if metric == "log10_solutions":
        return words.count_text(10**value)
    if metric == "random_win_probability":
        return words.odds_text(value) if value > 0 else "never"
    if metric == "winnable_share":
        return f"{value:.1%}".replace("%", " %")
    return _number(value)


def _number(value: float) -> str:
    """A number with no exponent: whole from 100 up, else three significant digits (two below 1).

    >>> _number(2887.1), _number(16.75), _number(2.4587), _number(0.0521), _number(19.0)
    ('2,887', '16.8', '2.46', '0.052', '19')
    """
    if value >= 100 or float(value).is_integer():
        return f"{value:,.0f}"
    return f"{value:.3g}" if value >= 1 else f"{value:.2g}" if value >= 0.001 else f"{value:.4f}"
