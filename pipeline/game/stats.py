"""Summaries of a batch of solve results: verdict counts, win rate, timings.

The win rate carries a 95 % Wilson score interval. Deals whose verdict is
``unknown`` could go either way, so the interval runs from the low end for
"every unknown is a loss" to the high end for "every unknown is a win"; with
no unknowns it is the ordinary Wilson interval.

>>> rate = win_rate(solved=8694, unsolvable=1306, unknown=0)
>>> round(rate.rate, 4), round(rate.low, 4), round(rate.high, 4)
(0.8694, 0.8627, 0.8759)
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from pipeline.game.games import PUBLISHED_WIN_RATE as PUBLISHED_WIN_RATE  # Black Hole's, the reports' default
from pipeline.game.games import Game
from pipeline.game.verdicts import SolveResult, Verdict


def published_win_rate(game: Game) -> float | None:
    """The published win rate of ``game`` (:attr:`~pipeline.game.games.Game.published_win_rate`), None when
    none was found.

    >>> from pipeline.game.games import BLACK_HOLE, GOLF
    >>> published_win_rate(BLACK_HOLE), published_win_rate(GOLF)
    (0.8694, None)
    """
    return game.published_win_rate


Z_95 = 1.959963984540054


def wilson_interval(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval for ``successes`` out of ``trials`` (95 % by default).

    >>> low, high = wilson_interval(87, 100)
    >>> round(low, 4), round(high, 4)
    (0.7902, 0.9224)
    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    >>> wilson_interval(5, 5)[1]
    1.0
    """
    if not 0 <= successes <= trials:
        raise ValueError(f"need 0 <= successes <= trials, got {successes} of {trials}")
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


@dataclass(frozen=True)
class WinRate:
    """Solved share of the decided deals, and a 95 % interval for the true win rate.

    ``rate`` is None when no deal was decided.
    """

    rate: float | None
    low: float
    high: float

    def contains(self, value: float) -> bool:
        return self.low <= value <= self.high


def win_rate(*, solved: int, unsolvable: int, unknown: int) -> WinRate:
    """Win rate of a batch; ``unknown`` deals widen the interval both ways.

    >>> r = win_rate(solved=80, unsolvable=10, unknown=10)
    >>> round(r.rate, 4), round(r.low, 4), round(r.high, 4)
    (0.8889, 0.7112, 0.9448)
    """
    total = solved + unsolvable + unknown
    decided = solved + unsolvable
    low, _ = wilson_interval(solved, total)
    _, high = wilson_interval(solved + unknown, total)
    return WinRate(solved / decided if decided else None, low, high)


@dataclass(frozen=True)
class Summary:
    """Counts per verdict, the win rate and the solve times of a batch."""

    counts: dict[Verdict, int]
    win_rate: WinRate
    mean_seconds: float
    median_seconds: float
    max_seconds: float

    @property
    def total(self) -> int:
        return sum(self.counts.values())


def summarize(results: Iterable[SolveResult]) -> Summary:
    """Summarize ``results`` (times are 0 for an empty batch).

    >>> from pipeline.game.verdicts import SolveResult, Verdict
    >>> s = summarize([SolveResult(Verdict.SOLVED, (), 10, 0.5, 51),
    ...                SolveResult(Verdict.UNSOLVABLE, (), 4, 1.5, 9)])
    >>> s.counts[Verdict.SOLVED], s.counts[Verdict.UNKNOWN], s.median_seconds
    (1, 0, 1.0)
    """
    results = list(results)
    tally = Counter(result.verdict for result in results)
    counts = {verdict: tally.get(verdict, 0) for verdict in Verdict}
    rate = win_rate(
        solved=counts[Verdict.SOLVED], unsolvable=counts[Verdict.UNSOLVABLE], unknown=counts[Verdict.UNKNOWN]
    )
    seconds = [result.seconds for result in results] or [0.0]
    return Summary(counts, rate, statistics.fmean(seconds), statistics.median(seconds), max(seconds))
