"""Calibrating the tiers: how a sample of deals falls into them, and thresholds moved to round values
near the sample's quartiles.

``make calibrate`` (``blackhole calibrate``) solves and grades a seeded
sample and writes ``pipeline/stages/tiers.toml``, the tiers shipped with the
package. The reference (player and figure) of an existing file is kept, so
only the thresholds move, each to the round value nearest a quartile of the
sample's difficulties (:func:`pipeline.stages.tiers.calibrated`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from pipeline.files import check_writable
from pipeline.game.deal import Deal
from pipeline.game.games import BLACK_HOLE, Game
from pipeline.packs.family import one_game
from pipeline.stages.grade import Grade, grade_deals
from pipeline.stages.settings import DEFAULT_TIERS, GradeSettings, PassOptions, SolveSettings
from pipeline.stages.solve import solve_deals
from pipeline.stages.tiers import Difficulty, OldUnitsError, Tiers, calibrated, load_tiers, write_tiers


@dataclass(frozen=True)
class Calibration:
    """The tiers a calibration wrote, and its sample's grades under them and under the tiers it replaced."""

    tiers: Tiers
    grades: list[Grade]
    scored: int  # the solvable deals graded exactly, whose difficulties set the thresholds
    before: Tiers | None = None  # the tiers of the file it replaced, None when there was none
    grades_before: list[Grade] | None = None  # the sample's grades under ``before``


def calibrate(
    target: Path,
    deals: Iterable[Deal],
    *,
    origin: str,
    solving: SolveSettings = SolveSettings(),
    grading: GradeSettings = GradeSettings(),
    options: PassOptions = PassOptions(),
) -> Calibration:
    """Solve and grade the sample ``deals``, and write tiers to ``target`` at round values near the quartiles
    of their difficulties.

    The reference of an existing ``target`` is kept (when there is none, or when it is in the old units,
    the default for Black Hole and Black Hole's shipped one for the other games), and the sample is also tiered by its old thresholds, so that a
    caller can show how it fell before; ``origin`` says in the file where the
    sample came from. Deals whose grading ran out of budget are left out of
    the quartiles. Raises CalibrationError, before writing, when fewer than 4
    deals have a difficulty.
    ``target`` is checked (:func:`pipeline.files.check_writable`) before the
    first of ``deals`` (which may be a generator) is dealt.
    """
    check_writable(target)  # before the sample is dealt
    deals = list(deals)
    before = _replaced(Path(target))
    reference = before.difficulty if before is not None else _first_reference(one_game(deals))
    results = solve_deals(deals, solving, options)
    grades = grade_deals(deals, results, grading, options)
    found = [grade.difficulty_by(reference) for grade in grades]
    difficulties = [difficulty for difficulty in found if difficulty is not None]
    tiers = calibrated(reference, difficulties)
    note = (
        f"Written by blackhole calibrate ({origin}, --max-positions {grading.max_positions}): the thresholds\n"
        f"are the round values nearest the quartiles of the {len(difficulties)} solvable deals graded exactly."
    )
    write_tiers(tiers, target, note=note)
    return Calibration(
        tiers,
        [grade.tiered(tiers) for grade in grades],
        len(difficulties),
        before,
        None if before is None else [grade.tiered(before) for grade in grades],
    )


def _first_reference(game: Game) -> Difficulty:
    """The reference of a new tiers file for ``game``: the default for Black Hole; for another game, that of
    Black Hole's shipped tiers, so that every game's tiers count the same player's figure."""
    return Difficulty() if game is BLACK_HOLE else load_tiers(DEFAULT_TIERS).difficulty


def _replaced(target: Path) -> Tiers | None:
    """The tiers of the file a calibration replaces: None when there is none, or when it is in the old units
    (then the default reference is used: a calibration is how such a file is brought up to date)."""
    if not target.exists():
        return None
    try:
        return load_tiers(target)
    except OldUnitsError:
        return None
