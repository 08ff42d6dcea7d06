"""Intervals and rank correlations for what players met: Wilson for rates, Student's t for means,
Spearman's rank correlation with a seeded bootstrap over deals.

Everything is exact or seeded: the same numbers give the same intervals.
Student's t quantile is found by bisection on its distribution function, which
for a whole number of degrees of freedom is a finite sum (Abramowitz and
Stegun 26.7.3 and 26.7.4), so no statistics library is needed.

>>> round(t_quantile(1), 3), round(t_quantile(10), 3), round(t_quantile(1000), 3)
(12.706, 2.228, 1.962)
>>> mean = MeanInterval.of([4.0, 6.0, 8.0])
>>> mean.count, mean.mean, round(mean.low, 3), round(mean.high, 3)
(3, 6.0, 1.032, 10.968)
>>> round(spearman([1, 2, 3, 4], [10, 40, 90, 160]), 6), round(spearman([1, 2, 3], [3, 1, 2]), 6)
(1.0, -0.5)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from pipeline.game.stats import Z_95, wilson_interval

LEVEL = 0.95
"""The confidence of every interval."""
RESAMPLES = 2000
"""Bootstrap resamples of the deals for a rank correlation's interval."""
NORMAL_FROM = 1000  # from these degrees of freedom on, t's quantile is the normal's to 3 decimals


@dataclass(frozen=True)
class Rate:
    """``successes`` of ``trials``, with the 95 % Wilson interval of the true rate."""

    successes: int
    trials: int
    low: float
    high: float

    @classmethod
    def of(cls, successes: int, trials: int) -> Rate:
        """The rate of ``successes`` in ``trials``.

        >>> rate = Rate.of(3, 8)
        >>> rate.rate, round(rate.low, 3), round(rate.high, 3)
        (0.375, 0.137, 0.694)
        """
        low, high = wilson_interval(successes, trials)
        return cls(successes, trials, low, high)

    @property
    def rate(self) -> float | None:
        return self.successes / self.trials if self.trials else None


@dataclass(frozen=True)
class MeanInterval:
    """The mean of ``count`` values and its 95 % Student t interval (None below 2 values; no mean of none)."""

    count: int
    mean: float | None
    low: float | None
    high: float | None

    @classmethod
    def of(cls, values: Sequence[float]) -> MeanInterval:
        if not values:
            return cls(0, None, None, None)
        mean = math.fsum(values) / len(values)
        if len(values) < 2:
            return cls(1, mean, None, None)
        spread = math.sqrt(math.fsum((value - mean) ** 2 for value in values) / (len(values) - 1))
        half = t_quantile(len(values) - 1) * spread / math.sqrt(len(values))
        return cls(len(values), mean, mean - half, mean + half)


def t_quantile(freedom: int, level: float = LEVEL) -> float:
    """The ``t`` with P(|T| < t) = ``level`` for Student's t with ``freedom`` degrees of freedom (1 or more)."""
    if freedom < 1:
        raise ValueError(f"t needs 1 degree of freedom or more, got {freedom}")
    if freedom >= NORMAL_FROM and level == LEVEL:
        return Z_95 * (1 + (1 + Z_95**2) / (4 * freedom))  # Cornish-Fisher, exact to 1e-6 here
    low, high = 0.0, 1.0
    while _central(high, freedom) < level:
        high *= 2
    for _ in range(100):  # past the precision of a double
        middle = (low + high) / 2
        low, high = (middle, high) if _central(middle, freedom) < level else (low, middle)
    return (low + high) / 2


def _central(t: float, freedom: int) -> float:
    """P(|T| < t) for Student's t with ``freedom`` degrees of freedom (Abramowitz and Stegun 26.7.3-4)."""
    theta = math.atan(t / math.sqrt(freedom))
    cos2 = math.cos(theta) ** 2
    if freedom % 2:  # odd
        total, term = 0.0, math.sin(theta) * math.cos(theta)
        for k in range(1, (freedom - 1) // 2 + 1):
            total += term
            term *= cos2 * (2 * k) / (2 * k + 1)
        return (2 / math.pi) * (theta + total)
    total, term = 0.0, math.sin(theta)
    for k in range(1, freedom // 2 + 1):
        total += term
        term *= cos2 * (2 * k - 1) / (2 * k)
    return total


def ranks(values: Sequence[float] | np.ndarray) -> np.ndarray:
    """The ranks of ``values`` from 1, ties given the mean of their ranks (infinities rank last, tied)."""
    array = np.asarray(values, dtype=np.float64)
    order = np.argsort(array, kind="stable")
    ranked = np.empty(len(array))
    ranked[order] = np.arange(1, len(array) + 1)
    sorted_values = array[order]
    start = 0
    for end in range(1, len(array) + 1):
        if end == len(array) or sorted_values[end] != sorted_values[start]:
            if end - start > 1:
                ranked[order[start:end]] = (start + 1 + end) / 2
            start = end
    return ranked


def spearman(a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray) -> float:
    """Spearman's rank correlation of ``a`` and ``b``: Pearson's of their ranks; NaN when either is constant."""
    first, second = ranks(a), ranks(b)
    first, second = first - first.mean(), second - second.mean()
    scale = math.sqrt(float((first**2).sum() * (second**2).sum()))
    return float((first * second).sum() / scale) if scale > 0 else math.nan


@dataclass(frozen=True)
class Correlation:
    """Spearman's rank correlation over ``deals`` deals, with a 95 % bootstrap interval (None when not known)."""

    deals: int
    rho: float | None
    low: float | None
    high: float | None


def correlation(
    a: Sequence[float], b: Sequence[float], *, seed: int = 0, resamples: int = RESAMPLES
) -> Correlation:
    """Spearman's rho of ``a`` and ``b`` (one value per deal) and its percentile bootstrap interval: the
    deals resampled with replacement ``resamples`` times (NumPy's generator seeded by ``seed``), the
    2.5th and 97.5th percentiles of rho over the resamples where it is defined."""
    count = len(a)
    rho = spearman(a, b) if count >= 3 else math.nan
    if math.isnan(rho):
        return Correlation(count, None, None, None)
    first, second = ranks(a), ranks(b)  # the same order and ties as the values, and finite
    draws = np.random.default_rng(seed).integers(0, count, size=(resamples, count))
    found = _row_pearson(_row_ranks(first[draws]), _row_ranks(second[draws]))
    found = found[~np.isnan(found)]
    if not len(found):
        return Correlation(count, rho, None, None)
    tail = (1 - LEVEL) / 2 * 100
    low, high = np.percentile(found, [tail, 100 - tail])
    return Correlation(count, rho, float(low), float(high))


def _row_ranks(values: np.ndarray) -> np.ndarray:
    """The ranks within each row of ``values`` (finite, from 1 to the row's length), ties given their mean rank.

    Every row is shifted past the one before, so that one sort and two binary searches rank them all.
    """
    rows, width = values.shape
    span = float(values.max() - values.min()) + 1.0
    shifted = values + (np.arange(rows) * span)[:, None]
    flat = np.sort(shifted.ravel())
    before = np.searchsorted(flat, shifted, side="left") - (np.arange(rows) * width)[:, None]
    through = np.searchsorted(flat, shifted, side="right") - (np.arange(rows) * width)[:, None]
    ranked: np.ndarray = (before + through + 1) / 2
    return ranked


def _row_pearson(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Pearson's correlation of each row of ``a`` with the same row of ``b``; NaN where either is constant."""
    a = a - a.mean(axis=1, keepdims=True)
    b = b - b.mean(axis=1, keepdims=True)
    scale = np.sqrt((a**2).sum(axis=1) * (b**2).sum(axis=1))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(scale > 0, (a * b).sum(axis=1) / scale, np.nan)
