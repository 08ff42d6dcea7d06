"""Calibrating the tiers: thresholds set from a seeded sample of deals, or fitted to play records.

Both ways end in a tiers file (:mod:`pipeline.stages.tiers` reads it back)
written here, atomically, with a note at its head that says how it was made,
and both return the tiers they found.

**From a sample** (:func:`from_sample`, ``blackhole calibrate sample``, which
``make calibrate`` runs): the deals are solved and graded, and each threshold
moves to the round value (:data:`ROUND_VALUES`) nearest a quartile of their
difficulties, to two significant digits when two of those coincide
(:func:`quartile_tiers`). The reference (player and figure) of an existing
file is kept, so only the thresholds move; a new file, or one in the old
units, takes the default reference for the game whose shipped tiers are the
package's default (Black Hole's), and that default file's reference for the
others, so that every game's tiers count the same player's figure.

**From play** (:func:`from_plays`, ``blackhole calibrate plays``): every
model of the ladder is checked against the records
(:func:`pipeline.plays.model_check.check_models`), and :func:`fit_tiers`
fits thresholds of the best predictor's figure (the one the pack's tiers
count, ``dead_ends`` or ``attempts``). It needs at least :data:`MIN_DEALS`
deals with at least :data:`~pipeline.plays.model_check.MIN_ATTEMPTS`
finished attempts each (CalibrationError below, saying how many have
enough), and a best predictor named. Those deals are ranked by their
mistakes before a win (ties share their mean rank); the easiest quarter is
what players found easy, the next medium, then hard, then expert. Each
threshold is then the value of the model's figure that puts the fewest of
these deals on the wrong side of its boundary (a deal of an easier quarter
at or above the threshold, or of a harder one below it); of several such
cuts, the middle one (the geometric mean of the two figures it falls
between). The thresholds are moved to the nearest round values as from a
sample, to two significant digits when two coincide; thresholds that do not
rise are refused.
"""

from __future__ import annotations

import bisect
import math
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from pipeline.errors import BlackholeError
from pipeline.files import check_writable, replacing
from pipeline.game.deal import Deal
from pipeline.game.games import Game
from pipeline.game.players import PLAYERS, Player
from pipeline.packs.family import one_game
from pipeline.packs.labels import SOLVABLE_TIERS
from pipeline.plays.intervals import RESAMPLES, ranks
from pipeline.plays.model_check import MIN_ATTEMPTS, Measure, ModelCheck, check_models, counted_text
from pipeline.plays.played import played_pack
from pipeline.stages.grade import Grade, grade_deals
from pipeline.stages.settings import DEFAULT_TIERS, GradeSettings, PassOptions, SolveSettings
from pipeline.stages.solve import solve_deals
from pipeline.stages.tiers import THRESHOLDS, Difficulty, Figure, OldUnitsError, Tiers, load_tiers

ROUND_STEPS = (1.0, 1.5, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0)
"""The round values thresholds are calibrated to: these times a power of ten (0.1 to 1,000,000)."""
ROUND_VALUES = tuple(step * 10.0**power for power in range(-1, 7) for step in ROUND_STEPS)
MIN_DEALS = 30
"""Deals with enough finished attempts that tier thresholds fitted to play need."""


class CalibrationError(BlackholeError, ValueError):
    """A sample or play that cannot set thresholds (too few graded deals, or thresholds that round alike)."""


def round_value(value: float) -> float:
    """The round value (:data:`ROUND_VALUES`) nearest ``value`` on a log scale.

    >>> [round_value(v) for v in (2.4, 2.5, 13.0, 0.01)]
    [2.0, 3.0, 15.0, 0.1]
    """
    if value <= ROUND_VALUES[0]:
        return ROUND_VALUES[0]
    at = bisect.bisect_left(ROUND_VALUES, value)
    if at == len(ROUND_VALUES):
        return ROUND_VALUES[-1]
    low, high = ROUND_VALUES[at - 1], ROUND_VALUES[at]
    return low if math.log(value / low) < math.log(high / value) else high


def quartile_tiers(difficulty: Difficulty, difficulties: Sequence[float]) -> Tiers:
    """Tiers with the reference ``difficulty`` whose thresholds are the round values nearest the quartiles
    of ``difficulties``; when two of those coincide, the quartiles to two significant digits.

    >>> quartile_tiers(Difficulty(), [1.0, 2.1, 2.9, 4.2, 9.0]).medium
    2.0
    """
    if len(difficulties) < 4:
        raise CalibrationError(f"calibration needs at least 4 graded deals, got {len(difficulties)}")
    quartiles = statistics.quantiles(difficulties, n=4, method="inclusive")
    medium, hard, expert = (round_value(q) for q in quartiles)
    if not medium < hard < expert:  # quartiles close together: two significant digits
        medium, hard, expert = (float(f"{q:.2g}") for q in quartiles)
    if not medium < hard < expert:
        raise CalibrationError(
            f"the quartiles {', '.join(f'{q:.3g}' for q in quartiles)} round to {medium:g}, {hard:g}, "
            f"{expert:g}, which do not rise; grade more deals"
        )
    return Tiers(medium, hard, expert, difficulty)


def write_tiers(tiers: Tiers, path: Path, *, note: str = "") -> None:
    """Write ``tiers`` as TOML to ``path`` atomically: all of it or, on any error, nothing."""
    path = check_writable(path)
    with replacing(path) as sink:
        sink.write(tiers.to_toml(note=note).encode())


@dataclass(frozen=True)
class Calibration:
    """The tiers a calibration on a sample wrote, and its sample's grades under them and under the tiers it
    replaced."""

    tiers: Tiers
    grades: list[Grade]
    scored: int  # the solvable deals graded exactly, whose difficulties set the thresholds
    before: Tiers | None = None  # the tiers of the file it replaced, None when there was none
    grades_before: list[Grade] | None = None  # the sample's grades under ``before``


def from_sample(
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

    The reference of an existing ``target`` is kept (see the module), and the
    sample is also tiered by its old thresholds, so that a caller can show how
    it fell before; ``origin`` says in the file where the sample came from.
    Deals whose grading ran out of budget are left out of the quartiles.
    Raises CalibrationError, before writing, when fewer than 4 deals have a
    difficulty. ``target`` is checked (:func:`pipeline.files.check_writable`)
    before the first of ``deals`` (which may be a generator) is dealt.
    """
    check_writable(target)  # before the sample is dealt
    deals = list(deals)
    before = _replaced(Path(target))
    reference = before.difficulty if before is not None else _first_reference(one_game(deals))
    results = solve_deals(deals, solving, options)
    grades = grade_deals(deals, results, grading, options)
    found = [grade.difficulty_by(reference) for grade in grades]
    difficulties = [difficulty for difficulty in found if difficulty is not None]
    tiers = quartile_tiers(reference, difficulties)
    budgets = f"--max-positions {grading.max_positions} --max-memory {grading.max_memory_mib}"
    note = (
        f"Written by blackhole calibrate ({origin}, {budgets}): the thresholds\n"
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
    """The reference of a new tiers file for ``game``: the default for the game whose shipped tiers are the
    package's default; for another game, that default file's, so that every game's tiers count the same
    player's figure."""
    return Difficulty() if game.tiers_file == DEFAULT_TIERS.name else load_tiers(DEFAULT_TIERS).difficulty


def _replaced(target: Path) -> Tiers | None:
    """The tiers of the file a calibration replaces: None when there is none, or when it is in the old units
    (then the default reference is used: a calibration is how such a file is brought up to date)."""
    if not target.exists():
        return None
    try:
        return load_tiers(target)
    except OldUnitsError:
        return None


@dataclass(frozen=True)
class FittedTiers:
    """Tier thresholds fitted to play: the tiers, the deals they were fitted on, and how many of those the
    thresholds put in the tier their players' quarter says."""

    tiers: Tiers
    deals: int
    agreeing: int


@dataclass(frozen=True)
class PlayCalibration:
    """What a calibration on play found: the models' check, the pack's reference, the tiers fitted (None,
    with the reason in ``refused``, when there were not enough attempts), and where they were written."""

    check: ModelCheck
    reference: Difficulty
    fitted: FittedTiers | None
    refused: str | None
    written: Path | None

    @property
    def player(self) -> Player:
        """The model the chart of predicted against observed shows: the best predictor (the pack's reference
        player when none is named)."""
        return self.check.best or self.reference.player


def from_plays(
    plays: Path,
    pack: Path,
    *,
    out: Path | None = None,
    seed: int = 0,
    resamples: int = RESAMPLES,
    min_deals: int = MIN_DEALS,
    min_attempts: int = MIN_ATTEMPTS,
) -> PlayCalibration:
    """Check the models against the records ``plays`` of the pack folder ``pack``; fit tiers, write them to
    ``out`` (checked before anything is read).

    When there are not enough attempts (:data:`MIN_DEALS` deals with
    ``min_attempts`` finished attempts each, and a best predictor, which
    needs 40 attempts counted at 8 deals: :mod:`pipeline.plays.model_check`),
    the reason is returned in ``refused`` and nothing is written.
    """
    if out is not None:
        out = check_writable(out, inputs=[plays, pack])
    played = played_pack(plays, pack)
    check = check_models(played, seed=seed, resamples=resamples, min_attempts=min_attempts)
    reference = played.pack.tiers.difficulty if played.pack.tiers is not None else Difficulty()
    try:
        fitted = fit_tiers(check, reference.figure, min_deals=min_deals)
    except CalibrationError as error:
        return PlayCalibration(check, reference, None, str(error), None)
    if out is not None:
        note = (
            f"Written by blackhole calibrate --plays {Path(plays).name} --pack {played.pack.name}: fitted on the\n"
            f"{fitted.deals} deals with at least {min_attempts} finished attempts. The player is the model whose\n"
            "likelihood of the attempts is highest; each threshold is the cut of its figure that puts the fewest\n"
            "of those deals on the wrong side of a quarter of what the players met (mistakes before a win)."
        )
        write_tiers(fitted.tiers, out, note=note)
    return PlayCalibration(check, reference, fitted, None, out)


def fit_tiers(check: ModelCheck, figure: Figure, *, min_deals: int = MIN_DEALS) -> FittedTiers:
    """Thresholds of the best model's ``figure`` fitted to the deals of ``check`` with enough attempts (see
    the module); CalibrationError when fewer than ``min_deals`` have them, or the thresholds do not rise."""
    chosen = [deal for deal in check.deals if deal.observed.attempts >= check.min_attempts]
    if len(chosen) < min_deals:
        raise CalibrationError(
            f"fitting tier thresholds to play needs at least {counted_text(min_deals, 'deal')} with at least "
            f"{counted_text(check.min_attempts, 'finished attempt')} each; of the "
            f"{counted_text(len(check.deals), 'deal')} played and graded, {len(chosen)} "
            f"{'has' if len(chosen) == 1 else 'have'} that many"
        )
    if check.best is None:
        raise CalibrationError(
            "fitting tier thresholds to play needs a best predictor: "
            + (check.refused or "no attempt says anything yet (none won, none met a dead end)")
        )
    reference = Difficulty(check.best, figure)
    values = np.array([figure.of(deal.figures[PLAYERS.index(check.best)]) for deal in chosen])
    quarters = _quarters([Measure.MISTAKES.of(deal.observed) for deal in chosen])
    raw = [_best_cut(values, quarters > boundary) for boundary in range(len(THRESHOLDS))]
    if not all(low < high for low, high in zip(raw, raw[1:], strict=False)):
        raise CalibrationError(
            f"the fitted thresholds {', '.join(f'{value:.3g}' for value in raw)} of {reference.player.value}'s "
            f"{figure.value} do not rise: these players' order is too far from the model's; play more deals"
        )
    thresholds = [round_value(value) for value in raw]
    if not all(low < high for low, high in zip(thresholds, thresholds[1:], strict=False)):
        thresholds = [float(f"{value:.2g}") for value in raw]
    if not all(low < high for low, high in zip(thresholds, thresholds[1:], strict=False)):
        raise CalibrationError(
            f"the fitted thresholds {', '.join(f'{value:.3g}' for value in raw)} round alike; play more deals"
        )
    medium, hard, expert = thresholds
    tiers = Tiers(medium, hard, expert, reference)
    agreeing = sum(
        tiers.tier_of(float(value)).value == SOLVABLE_TIERS[quarter]
        for value, quarter in zip(values, quarters, strict=True)
    )
    return FittedTiers(tiers, len(chosen), agreeing)


def _quarters(difficulties: Sequence[float]) -> np.ndarray:
    """Each deal's quarter (0 easiest .. 3 hardest) by its rank in ``difficulties``, ties sharing their mean rank."""
    ranked = ranks(difficulties)
    quarters: np.ndarray = np.minimum((4 * (ranked - 0.5) / len(ranked)).astype(int), 3)
    return quarters


def _best_cut(values: np.ndarray, harder: np.ndarray) -> float:
    """The cut of ``values`` with the fewest deals on the wrong side (``harder`` ones below it, others at or
    above it); of several, the middle one. A cut lies between two neighbouring values (their geometric mean,
    or their mean when one is 0), below them all (half the least, when above 0) or above them all (twice the most)."""
    order = np.unique(values)
    between = [
        math.sqrt(low * high) if low > 0 else (low + high) / 2
        for low, high in zip(order, order[1:], strict=False)
    ]
    cuts = [*([order[0] / 2] if order[0] > 0 else []), *between, max(order[-1] * 2, 1.0)]
    wrong = [
        int(np.count_nonzero(harder & (values < cut)) + np.count_nonzero(~harder & (values >= cut)))
        for cut in cuts
    ]
    fewest = min(wrong)
    best = [cut for cut, count in zip(cuts, wrong, strict=True) if count == fewest]
    return float(best[(len(best) - 1) // 2])
