"""Calibrating the tiers: thresholds at the quartiles of the difficulty scores of a sample of deals.

``make calibrate`` (``blackhole calibrate``) solves and grades a seeded
sample and writes ``pipeline/stages/tiers.toml``, the tiers shipped with the package; the score's weights of an existing
file are kept, so only the thresholds move.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from pipeline.files import check_writable
from pipeline.game.deal import Deal
from pipeline.stages.grade import Grade, grade_deals
from pipeline.stages.settings import GradeSettings, PassOptions, SolveSettings
from pipeline.stages.solve import solve_deals
from pipeline.stages.tiers import Score, Tiers, calibrated, load_score, write_tiers


@dataclass(frozen=True)
class Calibration:
    """The tiers a calibration wrote, and its sample's grades under them."""

    tiers: Tiers
    grades: list[Grade]
    scored: int  # the solvable deals graded exactly, whose scores set the thresholds


def calibrate(
    target: Path,
    deals: Iterable[Deal],
    *,
    origin: str,
    solving: SolveSettings = SolveSettings(),
    grading: GradeSettings = GradeSettings(),
    options: PassOptions = PassOptions(),
) -> Calibration:
    """Solve and grade the sample ``deals``, and write tiers to ``target`` at the quartiles of their scores.

    The score weights of an existing ``target`` are kept (the defaults when
    there is none); ``origin`` says in the file where the sample came from.
    Deals whose grading ran out of budget are left out of the quartiles.
    Raises CalibrationError, before writing, when fewer than 4 deals have a score.
    ``target`` is checked (:func:`pipeline.files.check_writable`) before the
    first of ``deals`` (which may be a generator) is dealt.
    """
    check_writable(target)  # before the sample is dealt
    deals = list(deals)
    score = load_score(target) if Path(target).exists() else Score()
    results = solve_deals(deals, solving, options)
    grades = grade_deals(deals, results, grading, options)
    scores = [grade.scored(score) for grade in grades]
    difficulties = [difficulty for difficulty in scores if difficulty is not None]
    tiers = calibrated(score, difficulties)
    note = (
        f"Written by blackhole calibrate ({origin}, --max-positions {grading.max_positions}): the thresholds\n"
        f"are the quartiles of the scores of the {len(difficulties)} solvable deals graded exactly."
    )
    write_tiers(tiers, target, note=note)
    return Calibration(tiers, [grade.tiered(tiers) for grade in grades], len(difficulties))
