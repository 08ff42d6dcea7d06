"""The player models checked against play: how each ranks the deals as players met them, and which predicts them best.

:func:`check_models` measures each played deal (:mod:`pipeline.plays.observed`:
attempts, win rate, wins without undo, one-attempt win rate, mistakes and
seconds to a win), and for each model of the ladder gives Spearman's rank
correlation, with a seeded bootstrap interval over the deals, of the model's
figure against each measure: its win chance against the three rates (the
one-attempt win rate over the deals with a one-attempt game), its dead ends
with undo against the others. Deals count when they are graded exactly and
have a finished attempt; a deal never won has infinite mistakes and seconds
to a win (it ranks hardest). Which model predicts these players best is told
by the likelihood of their attempts (:mod:`pipeline.plays.likelihood`), not
by the correlations: the models rank deals alike.

The likelihood names a best predictor only from :data:`MIN_PREDICTOR_ATTEMPTS`
attempts it counts (won or with a dead end before any hint) at
:data:`MIN_PREDICTOR_DEALS` deals or more; below that, :attr:`ModelCheck.refused`
says why in one line. The minimum comes from bots of the ``random`` model on
the tests' curated pack (8 deals, two a tier; each bot as the gallery's
play-test records it), 100 seedings for each count: with 8 deals, 5 attempts
with undo at each (40) named ``random`` 99 times in 100, 4 at each and a game
without undo (40) 95 times, 2 at each (16) 91 times, 1 at each 84 times; with
4 deals, 32 attempts named it 97 times but 16 only 89 times; with 6 deals, 36
attempts 94 to 96 times. At 40 attempts over 8 deals or more, the model
named is the players' own at least 95 times in 100; below, one in ten names
another.

Tier thresholds fitted to these checks are :func:`pipeline.calibration.fit_tiers`'s.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum

from pipeline.game.players import PLAYERS, Player, PlayerFigures
from pipeline.plays.intervals import RESAMPLES, Correlation, correlation
from pipeline.plays.likelihood import Counted, ModelFit, best_model, counted_attempts, fits_of
from pipeline.plays.observed import Observed
from pipeline.plays.played import PlayedPack

MIN_ATTEMPTS = 5
"""Finished attempts a deal needs to count in the thresholds (and to be placed by play in a curation)."""
MIN_PREDICTOR_DEALS = 8
"""Deals with an attempt the likelihood counts that naming a best predictor needs (see the module)."""
MIN_PREDICTOR_ATTEMPTS = 40
"""Attempts the likelihood counts that naming a best predictor needs (see the module)."""


class Measure(Enum):
    """What is measured of a deal's play, and which of a model's figures it is held against."""

    ATTEMPTS = "attempts"
    WIN_RATE = "win rate"
    CLEAN_RATE = "wins without undo"
    ONE_ATTEMPT_RATE = "one-attempt win rate"
    MISTAKES = "mistakes before a win"
    SECONDS = "seconds to a win"

    @property
    def against_win_chance(self) -> bool:
        """Whether the model's win chance is held against it (else its dead ends with undo)."""
        return self in (Measure.WIN_RATE, Measure.CLEAN_RATE, Measure.ONE_ATTEMPT_RATE)

    def known(self, observed: Observed) -> bool:
        """Whether a deal's ``observed`` play has this measure: the one-attempt win rate needs a one-attempt game."""
        return self is not Measure.ONE_ATTEMPT_RATE or observed.one_attempt.trials > 0

    def of(self, observed: Observed) -> float:
        """This measure of a deal's ``observed`` play (a deal never won: infinite mistakes and seconds)."""
        if self is Measure.ATTEMPTS:
            return float(observed.attempts)
        if self is Measure.WIN_RATE:
            return observed.wins.rate or 0.0
        if self is Measure.CLEAN_RATE:
            return observed.clean.rate or 0.0
        if self is Measure.ONE_ATTEMPT_RATE:
            return observed.one_attempt.rate or 0.0
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
    """The models against play: the deals measured and their play pooled, each model's rank correlations by
    measure, each model's likelihood and what it counted, the best predictor (None, with the reason in
    ``refused``, below the minimum), and how many deals have :data:`MIN_ATTEMPTS` finished attempts."""

    deals: tuple[MeasuredDeal, ...]
    correlations: dict[Player, dict[Measure, Correlation]]
    fits: dict[Player, ModelFit]
    best: Player | None
    enough: int
    min_attempts: int
    data: Observed = Observed.of([])
    counted: Counted = Counted(0, 0, 0, 0, 0)
    refused: str | None = None


def check_models(
    played: PlayedPack,
    *,
    seed: int = 0,
    resamples: int = RESAMPLES,
    min_attempts: int = MIN_ATTEMPTS,
    min_deals: int = MIN_PREDICTOR_DEALS,
    min_counted: int = MIN_PREDICTOR_ATTEMPTS,
) -> ModelCheck:
    """The models of the ladder against the play of ``played`` (see the module); a best predictor named
    only from ``min_counted`` attempts the likelihood counts at ``min_deals`` deals or more."""
    deals, attempts = [], []
    for deal in played.records.deals:
        packed = played.pack.deals[deal.deal_id]
        observed = Observed.of([deal.attempts])
        if packed.figures is not None and observed.attempts:
            deals.append(MeasuredDeal(deal.deal_id, packed.tier, packed.figures, observed))
            attempts.append(deal.attempts)
    correlations: dict[Player, dict[Measure, Correlation]] = {}
    for number, player in enumerate(PLAYERS):
        correlations[player] = {}
        for measure in Measure:
            known = [deal for deal in deals if measure.known(deal.observed)]
            correlations[player][measure] = correlation(
                [_figure(deal.figures[number], measure) for deal in known],
                [measure.of(deal.observed) for deal in known],
                seed=seed,
                resamples=resamples,
            )
    pairs, counted = counted_attempts(played)
    fits = fits_of(pairs)
    refused = predictor_refusal(counted, min_deals=min_deals, min_counted=min_counted)
    best = None if refused is not None else best_model(fits)
    enough = sum(deal.observed.attempts >= min_attempts for deal in deals)
    return ModelCheck(
        tuple(deals), correlations, fits, best, enough, min_attempts, Observed.of(attempts), counted, refused
    )


def predictor_refusal(
    counted: Counted, *, min_deals: int = MIN_PREDICTOR_DEALS, min_counted: int = MIN_PREDICTOR_ATTEMPTS
) -> str | None:
    """Why no best predictor may be named from the attempts ``counted``, in one line; None when enough.

    >>> predictor_refusal(Counted(12, 6, 0, 0, 0))
    'too few to name a best predictor: the likelihood counts 12 attempts at 6 deals; it needs at least 40 attempts at 8 deals'
    >>> predictor_refusal(Counted(1, 1, 0, 0, 0), min_deals=1, min_counted=1) is None
    True
    """
    if counted.attempts >= min_counted and counted.deals >= min_deals:
        return None
    return (
        f"too few to name a best predictor: the likelihood counts {counted_text(counted.attempts, 'attempt')} "
        f"at {counted_text(counted.deals, 'deal')}; it needs at least {counted_text(min_counted, 'attempt')} "
        f"at {counted_text(min_deals, 'deal')}"
    )


def counted_text(count: int, one: str) -> str:
    """``1 deal``, ``2 deals``."""
    return f"{count:,} {one}{'' if count == 1 else 's'}"


def _figure(figures: PlayerFigures, measure: Measure) -> float:
    return figures.win_probability if measure.against_win_chance else figures.dead_ends
