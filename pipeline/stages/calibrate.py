"""Calibrating the tiers: thresholds at the quartiles of the difficulty scores of a sample of deals.

``make calibrate`` (``blackhole calibrate``) solves and grades a seeded
sample and writes ``pipeline/stages/tiers.toml``, the tiers shipped with the package; the score's weights of an existing
file are kept, so only the thresholds move.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pipeline.engine.budgets import DEFAULT_MAX_NODES, DEFAULT_MAX_POSITIONS
from pipeline.files import check_writable
from pipeline.game.deal import Deal
from pipeline.stages.grade import Grade, grade_deals
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
    deals: Sequence[Deal],
    *,
    origin: str,
    jobs: int = 1,
    max_positions: int = DEFAULT_MAX_POSITIONS,
    max_nodes: int = DEFAULT_MAX_NODES,
    progress: bool = False,
    backend: str = "loky",
) -> Calibration:
    """Solve and grade the sample ``deals``, and write tiers to ``target`` at the quartiles of their scores.

    The score weights of an existing ``target`` are kept (the defaults when
    there is none); ``origin`` says in the file where the sample came from.
    Deals whose grading ran out of budget are left out of the quartiles.
    Raises CalibrationError, before writing, when fewer than 4 deals have a score.
    """
    check_writable(target)
    score = load_score(target) if Path(target).exists() else Score()
    results = solve_deals(deals, jobs=jobs, max_nodes=max_nodes, progress=progress, backend=backend)
    rows = [(result.verdict.value, result.solution, result.max_cards_played) for result in results]
    grades = grade_deals(
        deals, rows, tiers=None, jobs=jobs, max_positions=max_positions, progress=progress, backend=backend
    )
    scores = [grade.scored(score) for grade in grades]
    difficulties = [difficulty for difficulty in scores if difficulty is not None]
    tiers = calibrated(score, difficulties)
    note = (
        f"Written by blackhole calibrate ({origin}, --max-positions {max_positions}): the thresholds\n"
        f"are the quartiles of the scores of the {len(difficulties)} solvable deals graded exactly."
    )
    write_tiers(tiers, target, note=note)
    return Calibration(tiers, [grade.tiered(tiers) for grade in grades], len(difficulties))
