"""The statistics of the player models' validation: a win count's z-score, against direct sums, and the
Spearman ranks it uses (pipeline.plays.intervals)."""

from __future__ import annotations

import math
import statistics

import numpy as np
import pytest

from pipeline.engine.playouts import Simulated
from pipeline.plays.intervals import ranks, spearman


def binomial_z(wins: int, games: int, chance: float) -> float:
    return Simulated(games, wins / games, 0.0).z_score(chance, bernoulli=True)


def mid_p_z(wins: int, games: int, chance: float) -> float:
    """The same z from the binomial's terms summed one by one with exact binomial coefficients."""
    pmf = [math.comb(games, k) * chance**k * (1 - chance) ** (games - k) for k in range(games + 1)]
    lower = sum(pmf[:wins]) + pmf[wins] / 2
    upper = sum(pmf[wins + 1 :]) + pmf[wins] / 2
    normal = statistics.NormalDist()
    return -normal.inv_cdf(upper) if upper < lower else normal.inv_cdf(lower)


@pytest.mark.parametrize(
    ("wins", "games", "chance"), [(0, 40, 0.05), (2, 40, 0.05), (9, 40, 0.05), (30, 60, 0.3)]
)
def test_the_binomial_z_is_the_exact_tails_normal_quantile(wins, games, chance):
    assert binomial_z(wins, games, chance) == pytest.approx(mid_p_z(wins, games, chance), rel=1e-9)


def test_few_expected_wins_give_a_smaller_z_than_the_normal_approximation():
    wins, games, chance = 9, 100_000, 2.47e-5  # seed-2027-12's random play: 9 wins, 2.47 expected
    normal = (wins / games - chance) / math.sqrt(chance * (1 - chance) / games)
    assert normal > 4 > binomial_z(wins, games, chance) > 3
    assert binomial_z(0, games, chance) < 0 < binomial_z(3, games, chance)


def test_spearman_ranks_ties_by_their_mean_rank():
    assert ranks(np.array([3.0, 1.0, 3.0, 2.0])).tolist() == [3.5, 1.0, 3.5, 2.0]
    assert spearman(np.array([1.0, 2.0, 3.0, 4.0]), np.array([10.0, 40.0, 90.0, 160.0])) == pytest.approx(1.0)
    assert spearman(np.array([1.0, 2.0, 3.0]), np.array([3.0, 2.0, 1.0])) == pytest.approx(-1.0)
