"""PNG charts of a pack: the difficulty by tier, solution counts against the odds, each player's win chance by tier, the win rate by block.

Charts are drawn with matplotlib's object API (a :class:`~matplotlib.figure.Figure`
saved through the Agg renderer; pyplot and the global backend are never
touched), in matplotlib's default style whatever the user's ``matplotlibrc``
says, and saved without the ``Software`` text chunk: the same table gives the
same bytes for a given matplotlib. Each chart is exactly ``WIDTH`` x
``HEIGHT`` pixels and replaces its file atomically (:func:`pipeline.files.replacing`).
A table with nothing to plot gives an empty chart that says so.

The first two charts plot the solvable deals graded exactly
(:mod:`pipeline.stages.grade`), coloured by tier; deals graded without tiers
are ``ungraded`` (grey). The difficulty is counted in the units the pack's
metadata names (``dead ends of lookahead-2, with undo``...), with the tier
thresholds drawn across. The third shows, for each tier, how the chance that
one attempt without undo wins spreads over its deals for each player model of
the ladder (:mod:`pipeline.game.players`), one colour a player. The fourth is
the win rate of each block of :data:`~pipeline.tally.BLOCK` deals by deal index (for PySol FC
deals, by deal number), with its 95 % Wilson band, beside the published rate:
a correct dealer and solver give a flat line within the bands. Axes read in
words: a chance as ``1 in 1,000``, a count as ``27 billion``, never a logarithm.

:func:`report_pack` is ``blackhole report``: a pack folder's description and
its charts, by default in ``output/reports/NAME`` beside ``output/packs/NAME``;
or a pack file's (``solve``, ``crosscheck`` or ``grade`` wrote it), its charts by
default in ``STEM-charts`` beside it.
The pack is read and tallied batch by batch by :mod:`pipeline.tally`
(:class:`~pipeline.tally.PackTally`, :class:`~pipeline.tally.BlockCounts`);
this module draws what it tallied.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from pipeline.files import (
    check_folder_writable,
    check_outside_inputs,
    check_writable,
    made_folder,
    replacing,
    resolved,
)
from pipeline.game.players import PLAYERS, Player
from pipeline.game.stats import PUBLISHED_WIN_RATE, wilson_interval
from pipeline.packs.labels import PACK_TIERS, SOLVABLE_TIERS, UNGRADED
from pipeline.packs.parquet import (
    BATCH_ROWS,
)
from pipeline.reports import words
from pipeline.stages.tiers import THRESHOLDS, Tiers
from pipeline.tally import BlockCounts, PackDescription, PackTally, tally_saved_pack

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.axis import Axis
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
PLAYER_COLOURS = {
    Player.RANDOM: "#999999",
    Player.TIPS: "#e69f00",
    Player.LOOKAHEAD_2: "#56b4e9",
    Player.LOOKAHEAD_4: "#009e73",
    Player.LOOKAHEAD_8: "#cc79a7",
}
"""One colour a player model of the ladder (Okabe and Ito's colour-blind safe palette, grey for random play)."""
THRESHOLD_COLOUR = "#6a3d9a"  # the tier thresholds across the difficulty histogram
EMPTY_NOTE = "no graded deals"
LOG_SPAN = (
    10.0  # the difficulty histogram goes to a log scale when the largest is this many times the smallest
)


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


def draw_pack_charts(
    tally: PackTally, blocks: BlockCounts, folder: Path, *, published: float | None = PUBLISHED_WIN_RATE
) -> list[Path]:
    """The charts of a pack's ``tally`` and ``blocks`` into ``folder`` (made if missing), as :func:`chart_paths`
    names them; ``published`` is the game's published win rate (None: none to draw)."""
    paths = chart_paths(Path(folder))
    with made_folder(Path(folder)):  # a folder made here goes again if a chart cannot be written
        difficulty_histogram(tally, paths[0])
        solutions_vs_odds(tally, paths[1])
        win_chance_by_tier(tally, paths[2])
        win_rate_by_block(blocks, paths[3], published=published)
    return paths


def chart_paths(folder: Path) -> list[Path]:
    """The files of the charts in ``folder``, in the order :func:`draw_pack_charts` draws them.

    >>> [path.name for path in chart_paths(Path("charts"))]
    ['difficulty.png', 'solutions-vs-odds.png', 'win-chance-by-tier.png', 'win-rate-by-block.png']
    """
    names = ("difficulty.png", "solutions-vs-odds.png", "win-chance-by-tier.png", "win-rate-by-block.png")
    return [folder / name for name in names]


def difficulty_histogram(tally: PackTally, path: Path) -> None:
    """Write a PNG histogram of the difficulty of a pack's graded solvable deals, stacked by tier.

    The axis says what the difficulty counts, as the pack's metadata names it
    (``dead ends of lookahead-2, with undo``); the tier thresholds are drawn
    across. Difficulties spanning :data:`LOG_SPAN` times or more are binned on a log scale.
    """
    difficulty, tiers = tally.graded("difficulty"), tally.graded_tiers()
    chosen = ~np.isnan(difficulty) & np.isin(tiers, _codes(SOLVABLE_TIERS))
    graded = difficulty[chosen]
    reference = tally.thresholds
    label = difficulty_label(reference)
    logarithmic = bool(len(graded)) and graded.min() > 0 and graded.max() >= LOG_SPAN * graded.min()
    title = f"Difficulty of {len(graded)} graded deals (of {tally.total} in the pack)"
    x_label = f"{label} (log scale)" if logarithmic else label
    with png_figure(path) as figure:
        axes = _axes(figure, title, x_label, "deals", empty=not len(graded))
        if axes is None:
            return
        if logarithmic:
            edges = 10 ** np.histogram_bin_edges(np.log10(graded), bins="auto")
            axes.set_xscale("log")
            _plain_ticks(axes.xaxis, words.amount_text)
        else:
            edges = np.histogram_bin_edges(graded, bins="auto")
        by_tier = [difficulty[chosen & (tiers == _code(tier))] for tier in SOLVABLE_TIERS]
        axes.hist(
            by_tier,
            bins=edges.tolist(),
            stacked=True,
            color=[TIER_COLOURS[tier] for tier in SOLVABLE_TIERS],
            label=[f"{tier} ({len(values)})" for tier, values in zip(SOLVABLE_TIERS, by_tier, strict=True)],
            edgecolor="white",
            linewidth=0.5,
        )
        if reference is not None:
            thresholds = [getattr(reference, name) for name in THRESHOLDS]
            legend = f"tiers start at {', '.join(map(words.amount_text, thresholds))}"
            for number, threshold in enumerate(thresholds):
                line = None if number else legend  # one legend entry for the three lines
                axes.axvline(threshold, color=THRESHOLD_COLOUR, linestyle="--", linewidth=1, label=line)
        axes.legend(title="tier")


def difficulty_label(reference: Tiers | None) -> str:
    """What the difficulty axis counts, as the pack's metadata says (``reference``, None when it says nothing).

    >>> from pipeline.game.players import Player
    >>> from pipeline.stages.tiers import Difficulty, Figure
    >>> difficulty_label(Tiers(3, 8, 20, Difficulty(Player.LOOKAHEAD_2, Figure.DEAD_ENDS))), difficulty_label(None)
    ('dead ends of lookahead-2, with undo', 'difficulty')
    """
    return "difficulty" if reference is None else words.figure_label(reference.difficulty)


def solutions_vs_odds(tally: PackTally, path: Path) -> None:
    """Write a PNG scatter of the solution count against random play's win chance, both on log scales, coloured by tier."""
    solutions, odds, tiers = (
        tally.graded("log10_solutions"),
        tally.graded("random_win_probability"),
        tally.graded_tiers(),
    )
    chosen = ~np.isnan(solutions) & (odds > 0)
    count = int(np.count_nonzero(chosen))
    title = f"Winning lines against random play: {count} graded solvable deals"
    x_label = "chance that uniformly random legal moves win (log scale)"
    with png_figure(path) as figure:
        axes = _axes(figure, title, x_label, "winning move sequences (log scale)", empty=not count)
        if axes is None:
            return
        for tier in (*SOLVABLE_TIERS, UNGRADED):
            of_tier = chosen & (tiers == _code(tier))
            if of_tier.any():
                axes.scatter(
                    odds[of_tier],
                    10 ** solutions[of_tier],
                    s=36,
                    color=TIER_COLOURS[tier],
                    label=f"{tier} ({np.count_nonzero(of_tier)})",
                    alpha=0.8,
                    linewidths=0,
                )
        axes.set_xscale("log")
        axes.set_yscale("log")
        _plain_ticks(axes.xaxis, _odds_tick)
        _plain_ticks(axes.yaxis, words.count_text)
        axes.grid(alpha=0.3)
        axes.legend(title="tier")


def win_chance_by_tier(tally: PackTally, path: Path) -> None:
    """Write a PNG of each player's chance that one attempt without undo wins, by tier: box plots on a
    log scale, a group of boxes a tier, one colour a player (its box from the lower to the upper
    quartile, its line the median, its whiskers the lowest and highest), the legend in a player's words."""
    tiers = tally.graded_tiers()
    chances = {player: tally.graded(player.win_column) for player in PLAYERS}
    in_tiers = np.isin(tiers, _codes(SOLVABLE_TIERS))
    count = int(np.count_nonzero(in_tiers & np.any([chance > 0 for chance in chances.values()], axis=0)))
    title = f"Chance that one attempt without undo wins, by tier and player: {count} graded deals"
    y_label = "chance that one attempt wins (log scale)"
    from matplotlib.patches import Patch

    with png_figure(path) as figure:
        axes = _axes(figure, title, "tier", y_label, empty=not count)
        if axes is None:
            return
        width = 0.8 / len(PLAYERS)
        for number, player in enumerate(PLAYERS):
            chance = chances[player]
            boxes, positions = [], []
            for place, tier in enumerate(SOLVABLE_TIERS):
                values = chance[(tiers == _code(tier)) & (chance > 0)]  # NaN is not above 0
                if len(values):
                    boxes.append(values)
                    positions.append(place + (number - (len(PLAYERS) - 1) / 2) * width)
            if boxes:
                colour = PLAYER_COLOURS[player]
                axes.boxplot(
                    boxes,
                    positions=positions,
                    widths=width * 0.85,
                    whis=(0, 100),
                    showfliers=False,
                    patch_artist=True,
                    boxprops={"facecolor": colour, "edgecolor": "0.2"},
                    medianprops={"color": "black"},
                    manage_ticks=False,
                )
        deals = [int(np.count_nonzero(tiers == _code(tier))) for tier in SOLVABLE_TIERS]
        axes.set_xticks(range(len(SOLVABLE_TIERS)))
        axes.set_xticklabels([f"{tier} ({n})" for tier, n in zip(SOLVABLE_TIERS, deals, strict=True)])
        axes.set_xlim(-0.5, len(SOLVABLE_TIERS) - 0.5)
        axes.set_yscale("log")
        _plain_ticks(axes.yaxis, _odds_tick)
        axes.grid(axis="y", alpha=0.3)
        handles = [
            Patch(facecolor=PLAYER_COLOURS[player], edgecolor="0.2", label=player.words) for player in PLAYERS
        ]
        figure.legend(handles=handles, loc="outside lower center", ncols=2, frameon=False, fontsize="small")


def _odds_tick(chance: float) -> str:
    """A chance on an axis: ``1 in 1,000``; ``every game`` at 1 or more."""
    return "every game" if chance >= 1 else words.odds_text(chance)


def _plain_ticks(axis: Axis, text: Callable[[float], str]) -> None:
    """Label a log-scaled ``axis`` at 1, 2 and 5 times each power of ten, each tick's value in words by ``text``."""
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    axis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    axis.set_major_formatter(FuncFormatter(lambda value, _: text(value) if value > 0 else ""))
    axis.set_minor_formatter(NullFormatter())


def _code(tier: str) -> int:
    """The code of ``tier`` in :meth:`PackTally.graded_tiers`."""
    return PACK_TIERS.index(tier)


def _codes(tiers: tuple[str, ...]) -> list[int]:
    return [_code(tier) for tier in tiers]


def win_rate_by_block(
    blocks: BlockCounts, path: Path, *, published: float | None = PUBLISHED_WIN_RATE
) -> None:
    """Write a PNG of the win rate of each block of deals by deal index, with 95 % bands.

    Counting from the lowest index (0 for seeded deals, 1 for a PySol FC census),
    the deals ``first + k * block`` to ``first + (k + 1) * block - 1`` (by the
    ``index`` column) are block ``k``; its rate is solved / (solved + unsolvable),
    unknown verdicts left out, and its band the Wilson interval. The ``published``
    rate (the game's) is drawn across, when there is one.
    """
    numbers, solved, decided = blocks.arrays()
    block = blocks.block
    title = f"Win rate by block of {block:,} deals, {blocks.rows:,} deals in all"
    with png_figure(path) as figure:
        axes = _axes(figure, title, f"deal index (block of {block:,})", "win rate", empty=not len(numbers))
        if axes is None:
            return
        starts = blocks.first + numbers * block
        rates = solved / decided
        bands = np.array([wilson_interval(int(s), int(d)) for s, d in zip(solved, decided, strict=True)])
        axes.fill_between(starts, bands[:, 0], bands[:, 1], step="mid", color="#377eb8", alpha=0.25)
        axes.plot(starts, rates, marker="o", markersize=3, color="#377eb8", label="win rate, 95 % band")
        if published is not None:
            axes.axhline(published, color="#e41a1c", linestyle="--", label="published (PySol FC)")
        axes.set_ylim(max(0.0, float(bands[:, 0].min()) - 0.02), min(1.0, float(bands[:, 1].max()) + 0.02))
        axes.grid(alpha=0.3)
        axes.legend()


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
    """Where a pack's charts go by default: ``output/reports/NAME`` for the pack folder ``output/packs/NAME``,
    ``STEM-charts`` beside the pack file ``STEM.parquet``.

    >>> default_charts_folder(Path("/srv/output/packs/default"))
    PosixPath('/srv/output/reports/default')
    """
    pack = resolved(Path(pack))
    if pack.is_file():
        return pack.with_name(f"{pack.stem}-charts")
    return pack.parent.parent / "reports" / pack.name


@dataclass(frozen=True)
class PackReport:
    """A pack's description (counts, win rate, metric spreads) and the charts drawn of it."""

    description: PackDescription
    charts: list[Path]
    notes: tuple[str, ...] = ()  # what the pack could not say (a pack file not graded)


def report_pack(
    pack: Path, folder: Path | None = None, *, draw: bool = True, batch_rows: int = BATCH_ROWS
) -> PackReport:
    """Describe ``pack``, a pack folder or a pack file, and draw its charts into ``folder`` (default:
    :func:`default_charts_folder`); with ``draw`` False, describe it only.

    The pack is read ``batch_rows`` rows at a time (:func:`pipeline.tally.tally_saved_pack`, which says
    what a pack file not graded counts). DestinationError, before the pack is read, when the charts cannot be
    written there: a file where the folder (or a folder above it) should be,
    a folder that cannot be written in, or something other than a file where a chart goes.
    """
    if draw:
        folder = check_folder_writable(default_charts_folder(pack) if folder is None else folder)
        check_outside_inputs(folder, [pack])
        for chart in chart_paths(folder) if folder.is_dir() else ():
            check_writable(chart)
    tallied = tally_saved_pack(pack, batch_rows=batch_rows)
    published = tallied.description.published
    drawn = (
        draw_pack_charts(tallied.tally, tallied.blocks, folder, published=published)
        if folder is not None and draw
        else []
    )
    return PackReport(tallied.description, drawn, tallied.notes)
