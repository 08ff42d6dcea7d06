"""PNG charts of a pack: the difficulty scores by tier, solution counts against the odds, the win rate by block.

Charts are drawn with matplotlib's object API (a :class:`~matplotlib.figure.Figure`
saved through the Agg renderer; pyplot and the global backend are never
touched), in matplotlib's default style whatever the user's ``matplotlibrc``
says, and saved without the ``Software`` text chunk: the same table gives the
same bytes for a given matplotlib. Each chart is exactly ``WIDTH`` x
``HEIGHT`` pixels and replaces its file atomically (:func:`pipeline.files.replacing`).
A table with nothing to plot gives an empty chart that says so.

The first two charts plot the solvable deals graded exactly
(:mod:`pipeline.stages.grade`), coloured by tier; deals graded without tiers
are ``ungraded`` (grey). The third is the win rate of each block of
:data:`BLOCK` deals by deal index (for PySol FC deals, by deal number), with
its 95 % Wilson band, beside the published rate: a correct dealer and solver
give a flat line within the bands.

:func:`report_pack` is ``blackhole report``: a pack folder's description and
both charts, by default in ``output/reports/NAME`` beside ``output/packs/NAME``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.files import check_writable, replacing
from pipeline.game.stats import PUBLISHED_WIN_RATE, wilson_interval
from pipeline.packs.folders import read_pack_folder
from pipeline.packs.schema import SOLVABLE_TIERS, UNGRADED
from pipeline.reports.summary import PackDescription, describe_pack, solvable_exact

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

WIDTH = 1200
HEIGHT = 800
DPI = 100  # pixels per inch: the figure is WIDTH / DPI by HEIGHT / DPI inches

TIER_COLOURS = {
    "easy": "#4daf4a",
    "medium": "#377eb8",
    "hard": "#ff7f00",
    "expert": "#e41a1c",
    UNGRADED: "#999999",
}
EMPTY_NOTE = "no graded deals"
BLOCK = 10_000  # deals per point of the win-rate chart


@contextmanager
def png_figure(path: Path, *, width: int = WIDTH, height: int = HEIGHT) -> Iterator[Figure]:
    """A blank figure of ``width`` x ``height`` pixels to draw on, saved as a PNG at ``path`` when the block ends.

    The block runs in matplotlib's default style (restored after); if it
    raises, or saving fails, ``path`` is left as it was. A missing directory is
    a PackError before anything is drawn.
    """
    path = check_writable(path)
    import matplotlib.style
    from matplotlib.figure import Figure

    with matplotlib.style.context("default"):
        figure = Figure(figsize=(width / DPI, height / DPI), dpi=DPI)
        yield figure
        with replacing(path) as sink:
            figure.savefig(sink, format="png", dpi=DPI, metadata={"Software": None})


def draw_pack_charts(table: pa.Table, folder: Path) -> list[Path]:
    """The charts of ``table`` into ``folder`` (made if missing): ``difficulty.png``,
    ``solutions-vs-odds.png`` and ``win-rate-by-block.png``."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = [folder / "difficulty.png", folder / "solutions-vs-odds.png", folder / "win-rate-by-block.png"]
    difficulty_histogram(table, paths[0])
    solutions_vs_odds(table, paths[1])
    win_rate_by_block(table, paths[2])
    return paths


def difficulty_histogram(table: pa.Table, path: Path) -> None:
    """Write a PNG histogram of the difficulty scores of ``table``'s graded solvable deals, stacked by tier."""
    rows = solvable_exact(table)
    rows = rows.filter(
        pc.and_(
            pc.is_valid(rows.column("difficulty")), pc.is_in(rows.column("tier"), pa.array(SOLVABLE_TIERS))
        )
    )
    scores = rows.column("difficulty").to_numpy()
    title = f"Difficulty of {rows.num_rows} graded deals (of {table.num_rows} in the pack)"
    with png_figure(path) as figure:
        axes = _axes(figure, title, "difficulty score", "deals", empty=not rows.num_rows)
        if axes is None:
            return
        edges = np.histogram_bin_edges(scores, bins="auto")
        by_tier = [_where(rows, "tier", tier, "difficulty") for tier in SOLVABLE_TIERS]
        axes.hist(
            by_tier,
            bins=edges.tolist(),
            stacked=True,
            color=[TIER_COLOURS[tier] for tier in SOLVABLE_TIERS],
            label=[f"{tier} ({len(values)})" for tier, values in zip(SOLVABLE_TIERS, by_tier, strict=True)],
            edgecolor="white",
            linewidth=0.5,
        )
        axes.legend(title="tier")


def solutions_vs_odds(table: pa.Table, path: Path) -> None:
    """Write a PNG scatter of log10 solution count against log10 random-play win chance, coloured by tier."""
    rows = solvable_exact(table)
    rows = rows.filter(
        pc.and_(
            pc.is_valid(rows.column("log10_solutions")), pc.greater(rows.column("random_win_probability"), 0)
        )
    )
    rows = rows.set_column(
        rows.column_names.index("tier"), "tier", pc.fill_null(rows.column("tier"), UNGRADED)
    )
    title = f"Winning lines against random play: {rows.num_rows} graded solvable deals"
    x_label = "log10 chance that uniformly random legal moves win"
    with png_figure(path) as figure:
        axes = _axes(
            figure, title, x_label, "log10 number of winning move sequences", empty=not rows.num_rows
        )
        if axes is None:
            return
        for tier in (*SOLVABLE_TIERS, UNGRADED):
            odds = _where(rows, "tier", tier, "random_win_probability")
            if len(odds):
                solutions = _where(rows, "tier", tier, "log10_solutions")
                axes.scatter(
                    np.log10(odds),
                    solutions,
                    s=36,
                    color=TIER_COLOURS[tier],
                    label=f"{tier} ({len(odds)})",
                    alpha=0.8,
                    linewidths=0,
                )
        axes.grid(alpha=0.3)
        axes.legend(title="tier")


def win_rate_by_block(table: pa.Table, path: Path, *, block: int = BLOCK) -> None:
    """Write a PNG of the win rate of each ``block`` deals of ``table`` by deal index, with 95 % bands.

    Counting from the lowest index (0 for seeded deals, 1 for a PySol FC census),
    the deals ``first + k * block`` to ``first + (k + 1) * block - 1`` (by the
    ``index`` column) are block ``k``; its rate is solved / (solved + unsolvable),
    unknown verdicts left out, and its band the Wilson interval. The published
    rate is drawn across.
    """
    blocks, solved, decided = block_counts(table, block)
    first = int(pc.min(table.column("index")).as_py() or 0) if table.num_rows else 0
    title = f"Win rate by block of {block:,} deals, {table.num_rows:,} deals in all"
    with png_figure(path) as figure:
        axes = _axes(figure, title, f"deal index (block of {block:,})", "win rate", empty=not len(blocks))
        if axes is None:
            return
        starts = first + blocks * block
        rates = solved / decided
        bands = np.array([wilson_interval(int(s), int(d)) for s, d in zip(solved, decided, strict=True)])
        axes.fill_between(starts, bands[:, 0], bands[:, 1], step="mid", color="#377eb8", alpha=0.25)
        axes.plot(starts, rates, marker="o", markersize=3, color="#377eb8", label="win rate, 95 % band")
        axes.axhline(PUBLISHED_WIN_RATE, color="#e41a1c", linestyle="--", label="published (PySol FC)")
        axes.set_ylim(max(0.0, float(bands[:, 0].min()) - 0.02), min(1.0, float(bands[:, 1].max()) + 0.02))
        axes.grid(alpha=0.3)
        axes.legend()


def block_counts(table: pa.Table, block: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per block (counted from the lowest index) with a decided deal, in order: the block numbers,
    their wins, their decided deals."""
    index = table.column("index").to_numpy()
    index = index - index.min() if len(index) else index
    verdict = table.column("verdict")
    won = pc.equal(verdict, "solved").to_numpy(zero_copy_only=False)
    decided = pc.is_in(verdict, pa.array(["solved", "unsolvable"])).to_numpy(zero_copy_only=False)
    number = index // block
    blocks = np.unique(number[decided])
    wins = np.array([np.count_nonzero(won & (number == b)) for b in blocks], dtype=np.int64)
    counts = np.array([np.count_nonzero(decided & (number == b)) for b in blocks], dtype=np.int64)
    return blocks, wins, counts


def _where(rows: pa.Table, column: str, value: str, wanted: str) -> np.ndarray:
    """The ``wanted`` column of the ``rows`` whose ``column`` is ``value``, as a numpy array."""
    values: np.ndarray = rows.filter(pc.equal(rows.column(column), value)).column(wanted).to_numpy()
    return values


def _axes(figure: Figure, title: str, x_label: str, y_label: str, *, empty: bool) -> Axes | None:
    """The chart's axes, titled and labelled; None when ``empty``, after saying so on the chart."""
    figure.set_layout_engine("constrained")
    axes = figure.add_subplot()
    axes.set_title(title)
    axes.set_xlabel(x_label)
    axes.set_ylabel(y_label)
    if empty:
        _empty(axes)
        return None
    return axes


def _empty(axes: Axes) -> None:
    axes.text(
        0.5, 0.5, EMPTY_NOTE, transform=axes.transAxes, ha="center", va="center", fontsize=16, color="0.4"
    )
    axes.set_xticks([])
    axes.set_yticks([])


def default_charts_folder(pack: Path) -> Path:
    """Where a pack folder's charts go by default: ``output/reports/NAME`` for ``output/packs/NAME``.

    >>> default_charts_folder(Path("/srv/output/packs/default"))
    PosixPath('/srv/output/reports/default')
    """
    pack = Path(pack).resolve()
    return pack.parent.parent / "reports" / pack.name


@dataclass(frozen=True)
class PackReport:
    """A pack's description (counts, win rate, metric spreads) and the charts drawn of it."""

    description: PackDescription
    charts: list[Path]


def report_pack(pack: Path, folder: Path | None = None) -> PackReport:
    """Describe the pack folder ``pack`` and draw its charts into ``folder`` (default: :func:`default_charts_folder`)."""
    table = read_pack_folder(pack)
    drawn = draw_pack_charts(table, default_charts_folder(pack) if folder is None else folder)
    return PackReport(describe_pack(table), drawn)
