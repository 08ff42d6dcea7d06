"""``blackhole calibrate --plays``: the models checked against play, the chart, and tiers fitted when asked.

:func:`calibrate_from_plays` reads the records with their pack
(:func:`pipeline.plays.played.played_pack`), checks every model against
them (:func:`pipeline.plays.calibration.check_models`), draws
:func:`~pipeline.reports.play_charts.predicted_vs_observed` into the report
folder (by default ``output/reports/NAME``, as ``blackhole report`` does), and
fits the tier thresholds (:func:`~pipeline.plays.calibration.fit_tiers`) in
the figure the pack's tiers count. With ``out``, fitted thresholds are written
there as a tiers file (atomically); when there are not enough attempts (30
deals with 5 finished attempts each, and a best predictor, which needs 40
attempts counted at 8 deals: :mod:`pipeline.plays.calibration`), the reason
is returned, for the command to print after the rest, and to fail with when
``out`` was asked for.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pipeline.files import check_folder_writable, check_outside_inputs, check_writable
from pipeline.plays.calibration import (
    MIN_ATTEMPTS,
    MIN_DEALS,
    FittedTiers,
    ModelCheck,
    check_models,
    fit_tiers,
)
from pipeline.plays.intervals import RESAMPLES
from pipeline.plays.played import played_pack
from pipeline.reports.charts import default_charts_folder
from pipeline.reports.play_charts import CHART, predicted_vs_observed
from pipeline.stages.tiers import CalibrationError, Difficulty, write_tiers


@dataclass(frozen=True)
class PlayCalibration:
    """What ``calibrate --plays`` found: the models' check, the chart, the tiers fitted (None, with the
    reason in ``refused``, when there were not enough attempts), and whether they were written."""

    check: ModelCheck
    chart: Path
    fitted: FittedTiers | None
    refused: str | None
    written: Path | None


def calibrate_from_plays(
    plays: Path,
    pack: Path,
    *,
    out: Path | None = None,
    charts_folder: Path | None = None,
    seed: int = 0,
    resamples: int = RESAMPLES,
    min_deals: int = MIN_DEALS,
    min_attempts: int = MIN_ATTEMPTS,
) -> PlayCalibration:
    """Check the models against the records ``plays`` of the pack folder ``pack``; fit tiers, write them to ``out``.

    ``out`` and the chart's place are checked before anything is read.
    """
    if out is not None:
        out = check_writable(out, inputs=[plays, pack])
    folder = check_folder_writable(default_charts_folder(pack) if charts_folder is None else charts_folder)
    check_outside_inputs(folder, [pack])
    chart = check_writable(folder / CHART) if folder.is_dir() else folder / CHART
    played = played_pack(plays, pack)
    check = check_models(played, seed=seed, resamples=resamples, min_attempts=min_attempts)
    reference = played.pack.tiers.difficulty if played.pack.tiers is not None else Difficulty()
    folder.mkdir(parents=True, exist_ok=True)
    predicted_vs_observed(check, check.best or reference.player, chart)
    try:
        fitted = fit_tiers(check, reference.figure, min_deals=min_deals)
    except CalibrationError as error:
        return PlayCalibration(check, chart, None, str(error), None)
    if out is not None:
        note = (
            f"Written by blackhole calibrate --plays {Path(plays).name} --pack {played.pack.name}: fitted on the\n"
            f"{fitted.deals} deals with at least {min_attempts} finished attempts. The player is the model whose\n"
            "likelihood of the attempts is highest; each threshold is the cut of its figure that puts the fewest\n"
            "of those deals on the wrong side of a quarter of what the players met (mistakes before a win)."
        )
        write_tiers(fitted.tiers, out, note=note)
    return PlayCalibration(check, chart, fitted, None, out)
