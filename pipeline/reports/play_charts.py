"""The chart of predicted against observed: what a player model expects of each deal, and what players met.

One PNG of two panels, a point a deal played and graded, coloured by tier,
with its 95 % interval as a bar:

- the model's dead ends with undo (across) against the players' mistakes
  before a win (up), with the line where the two are equal; a deal never won
  is drawn at the top, as a triangle; the axes fit the points, intervals may
  run past them;
- the model's chance that one attempt without undo wins (across, log scale)
  against the share of the players' attempts won (up).

The model is the best predictor of the calibration (or, when no attempt
says anything, the pack's reference player).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pipeline.files import check_folder_writable, check_outside_inputs, check_writable
from pipeline.game.players import PLAYERS, Player
from pipeline.plays.model_check import ModelCheck
from pipeline.reports import words
from pipeline.reports.charts import EMPTY_NOTE, TIER_COLOURS, default_charts_folder, png_figure

CHART = "play-calibration.png"
"""The chart's file name in the report folder."""
NEVER_WON = "#444444"


def chart_place(pack: Path, folder: Path | None = None) -> Path:
    """Where the chart of the records of the pack folder ``pack`` goes: in ``folder``, by default the pack's
    report folder (:func:`~pipeline.reports.charts.default_charts_folder`); DestinationError when it cannot
    be written there, checked before anything is read."""
    folder = check_folder_writable(default_charts_folder(pack) if folder is None else folder)
    check_outside_inputs(folder, [pack])
    return check_writable(folder / CHART) if folder.is_dir() else folder / CHART


def predicted_vs_observed(check: ModelCheck, player: Player, path: Path) -> Path:
    """Write the chart of ``player``'s figures against the play of ``check``'s deals to ``path`` (its folder
    made if missing)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    number = PLAYERS.index(player)
    deals = check.deals
    with png_figure(path) as figure:
        figure.set_layout_engine("constrained")
        left, right = figure.subplots(1, 2)
        figure.suptitle(
            f"Predicted against observed: {player.value}, {words.counted(len(deals), 'deal')} played and graded"
        )
        left.set_xlabel(f"dead ends with undo of {player.value} (predicted)")
        left.set_ylabel("mistakes before a win (observed, 95 % interval)")
        right.set_xlabel(f"chance one attempt of {player.value} wins, without undo (predicted, log scale)")
        right.set_ylabel("share of attempts won (observed, 95 % interval)")
        if not deals:
            for axes in (left, right):
                axes.text(
                    0.5, 0.5, EMPTY_NOTE, transform=axes.transAxes, ha="center", va="center", color="0.4"
                )
            return path
        won = [deal for deal in deals if deal.observed.mistakes.mean is not None]
        means = [float(deal.observed.mistakes.mean or 0.0) for deal in won]
        top = max([*means, *(deal.figures[number].dead_ends for deal in deals), 1.0]) * 1.15
        for tier, colour in TIER_COLOURS.items():
            of_tier = [deal for deal in won if deal.tier == tier]
            if of_tier:
                xs = [deal.figures[number].dead_ends for deal in of_tier]
                ys = [float(deal.observed.mistakes.mean or 0.0) for deal in of_tier]
                below = [
                    y - (deal.observed.mistakes.low if deal.observed.mistakes.low is not None else y)
                    for y, deal in zip(ys, of_tier, strict=True)
                ]
                above = [
                    (deal.observed.mistakes.high if deal.observed.mistakes.high is not None else y) - y
                    for y, deal in zip(ys, of_tier, strict=True)
                ]
                _points(
                    left, xs, ys, [[max(b, 0.0) for b in below], above], colour, f"{tier} ({len(of_tier)})"
                )
            played = [deal for deal in deals if deal.tier == tier]
            if played:
                xs = [deal.figures[number].win_probability for deal in played]
                ys = [deal.observed.wins.rate or 0.0 for deal in played]
                yerr = [
                    [y - deal.observed.wins.low for y, deal in zip(ys, played, strict=True)],
                    [deal.observed.wins.high - y for y, deal in zip(ys, played, strict=True)],
                ]
                _points(right, xs, ys, yerr, colour, f"{tier} ({len(played)})")
        unwon = [deal for deal in deals if deal.observed.mistakes.mean is None]
        if unwon:
            left.scatter(
                [deal.figures[number].dead_ends for deal in unwon],
                [top] * len(unwon),
                marker="^",
                color=NEVER_WON,
                label=f"never won ({len(unwon)})",
            )
        left.plot([0, top], [0, top], color="0.5", linestyle="--", linewidth=1, label="as predicted")
        left.set_xlim(0, top)
        left.set_ylim(0, top * 1.05)
        chances = [
            deal.figures[number].win_probability for deal in deals if deal.figures[number].win_probability > 0
        ]
        if chances:
            from matplotlib.ticker import FuncFormatter

            right.set_xscale("log")
            right.set_xlim(min(chances) / 2, min(1.0, max(chances) * 2))
            right.xaxis.set_major_formatter(
                FuncFormatter(lambda value, _: words.odds_text(value) if 0 < value < 1 else "")
            )
        right.set_ylim(-0.02, 1.02)
        for axes in (left, right):
            axes.grid(alpha=0.3)
            axes.legend(title="tier", fontsize="small")
    return path


def _points(
    axes: Any, xs: list[float], ys: list[float], yerr: list[list[float]], colour: str, label: str
) -> None:
    """One tier's deals on ``axes``: a dot each, with its 95 % interval below and above."""
    axes.errorbar(
        xs, ys, yerr=yerr, fmt="o", color=colour, label=label, capsize=2, elinewidth=0.8, alpha=0.85
    )
