"""The player models checked against play, and tier thresholds fitted to what the players met.

:func:`check_models` measures each played deal (:mod:`pipeline.plays.observed`:
attempts, win rate, wins without undo, mistakes and seconds to a win), and
for each model of the ladder gives Spearman's rank correlation, with a seeded
bootstrap interval over the deals, of the model's figure against each
measure: its win chance against the two rates, its dead ends with undo
against the others. Deals count when they are graded exactly and have a
finished attempt; a deal never won has infinite mistakes and seconds to a
win (it ranks hardest). Which model predicts these players best is told by the
likelihood of their attempts (:mod:`pipeline.plays.likelihood`), not by the
correlations: the models rank deals alike.

:func:`fit_tiers` needs at least :data:`MIN_DEALS` deals with at least
:data:`MIN_ATTEMPTS` finished attempts each (CalibrationError below, saying
how many have enough). The player of the thresholds is the best predictor;
the figure is the one the pack's tiers count (``dead_ends`` or ``attempts``).
Those deals are ranked by their mistakes before a win (ties share their mean
rank); the easiest quarter is what players found easy, the next medium, then
hard, then expert. Each threshold is then the value of the model's figure
that puts the fewest of these deals on the wrong side of its boundary (a deal
of an easier quarter at or above the threshold, or of a harder one below
it); of several such cuts, the middle one (the geometric mean of the two
figures it falls between). The thresholds are moved to the nearest round
values as ``blackhole calibrate`` does (:func:`pipeline.stages.tiers.round_value`),
to two significant digits when two coincide; thresholds that do not rise
are refused.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

import numpy as np

from pipeline.game.players import PLAYERS, Player, PlayerFigures
from pipeline.packs.labels import SOLVABLE_TIERS
from pipeline.plays.intervals import RESAMPLES, Correlation, correlation, ranks
from pipeline.plays.likelihood import ModelFit, best_model, model_fits
from pipeline.plays.observed import Observed
from pipeline.plays.played import PlayedPack
from pipeline.stages.tiers import THRESHOLDS, CalibrationError, Difficulty, Figure, Tiers, round_value

MIN_DEALS = 30
"""Deals with enough finished attempts that tier thresholds need."""
MIN_ATTEMPTS = 5
"""Finished attempts a deal needs to count in the thresholds (and to be placed by play in a curation)."""


class Measure(Enum):
    """What is measured of a deal's play, and which of a model's figures it is held against."""

    ATTEMPTS = "attempts"
    WIN_RATE = "win rate"
    CLEAN_RATE = "wins without undo"
    MISTAKES = "mistakes before a win"
    SECONDS = "seconds to a win"

    @property
    def against_win_chance(self) -> bool:
        """Whether the model's win chance is held against it (else its dead ends with undo)."""
        return self in (Measure.WIN_RATE, Measure.CLEAN_RATE)

    def of(self, observed: Observed) -> float:
        """This measure of a deal's ``observed`` play (a deal never won: infinite mistakes and seconds)."""
        if self is Measure.ATTEMPTS:
            return float(observed.attempts)
        if self is Measure.WIN_RATE:
            return observed.wins.rate or 0.0
        if self is Measure.CLEAN_RATE:
            return observed.clean.rate or 0.0
        mean = (observed.mistakes if self is Measure.MISTAKES else observed.seconds).mean
        return math.inf if mean is None else float(mean)


@dataclass(frozen=True)
class MeasuredDeal:
    """A played deal graded exactly: its tier, every model's figures and what its players met."""

    deal_id: str
    tier: str
    figures: tuple[PlayerFigures, ...]
    observed: Observed


@dataclass(frozen=True)
class ModelCheck:
    """The models against play: the deals measured, each model's rank correlations by measure, each
    model's likelihood, the best predictor, and how many deals have :data:`MIN_ATTEMPTS` finished attempts."""

    deals: tuple[MeasuredDeal, ...]
    correlations: dict[Player, dict[Measure, Correlation]]
    fits: dict[Player, ModelFit]
    best: Player | None
    enough: int
    min_attempts: int


def check_models(
    played: PlayedPack, *, seed: int = 0, resamples: int = RESAMPLES, min_attempts: int = MIN_ATTEMPTS
) -> ModelCheck:
    """The models of the ladder against the play of ``played`` (see the module)."""
    deals = []
    for deal in played.records.deals:
        packed = played.pack.deals[deal.deal_id]
        observed = Observed.of([deal.attempts])
        if packed.figures is not None and observed.attempts:
            deals.append(MeasuredDeal(deal.deal_id, packed.tier, packed.figures, observed))
    correlations = {}
    for number, player in enumerate(PLAYERS):
        correlations[player] = {
            measure: correlation(
                [_figure(deal.figures[number], measure) for deal in deals],
                [measure.of(deal.observed) for deal in deals],
                seed=seed,
                resamples=resamples,
            )
            for measure in Measure
        }
    fits = model_fits(played)
    enough = sum(deal.observed.attempts >= min_attempts for deal in deals)
    return ModelCheck(tuple(deals), correlations, fits, best_model(fits), enough, min_attempts)


def _figure(figures: PlayerFigures, measure: Measure) -> float:
    return figures.win_probability if measure.against_win_chance else figures.dead_ends


@dataclass(frozen=True)
class FittedTiers:
    """Tier thresholds fitted to play: the tiers, the deals they were fitted on, and how many of those the
    thresholds put in the tier their players' quarter says."""

    tiers: Tiers
    deals: int
    agreeing: int


def fit_tiers(check: ModelCheck, figure: Figure, *, min_deals: int = MIN_DEALS) -> FittedTiers:
    """Thresholds of the best model's ``figure`` fitted to the deals of ``check`` with enough attempts (see
    the module); CalibrationError when fewer than ``min_deals`` have them, or the thresholds do not rise."""
    chosen = [deal for deal in check.deals if deal.observed.attempts >= check.min_attempts]
    if len(chosen) < min_deals or check.best is None:
        raise CalibrationError(
            f"fitting tier thresholds to play needs at least {min_deals} deals with at least "
            f"{check.min_attempts} finished attempts each; {len(chosen)} of the {len(check.deals)} deals "
            f"played and graded {'has' if len(chosen) == 1 else 'have'} that many"
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
