"""Win rate, Wilson interval and batch summaries."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline.game.stats import PUBLISHED_WIN_RATE, Z_95, summarize, wilson_interval, win_rate
from pipeline.game.verdicts import SolveResult, Verdict


def wilson_by_quadratic(successes: int, trials: int) -> tuple[float, float]:
    """The Wilson bounds as the roots of (p_hat - p)^2 = z^2 p (1 - p) / n."""
    p_hat, z2 = successes / trials, Z_95 * Z_95
    a, b, c = 1 + z2 / trials, -(2 * p_hat + z2 / trials), p_hat * p_hat
    root = math.sqrt(b * b - 4 * a * c)
    return (-b - root) / (2 * a), (-b + root) / (2 * a)


@given(st.integers(1, 10**7).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_wilson_matches_the_quadratic_and_holds_the_estimate(case):
    successes, trials = case
    low, high = wilson_interval(successes, trials)
    expected_low, expected_high = wilson_by_quadratic(successes, trials)
    assert low == pytest.approx(max(0.0, expected_low), abs=1e-9)
    assert high == pytest.approx(min(1.0, expected_high), abs=1e-9)
    assert 0.0 <= low <= successes / trials <= high <= 1.0


def test_wilson_edges():
    assert wilson_interval(0, 0) == (0.0, 1.0)
    assert wilson_interval(0, 10)[0] == 0.0
    assert wilson_interval(10, 10)[1] == 1.0
    with pytest.raises(ValueError):
        wilson_interval(11, 10)
    with pytest.raises(ValueError):
        wilson_interval(-1, 10)


def test_published_rate_sits_in_its_own_interval():
    """Shlomi Fish's million deals: 86.94 %, CI about +-0.07 % (docs/rules.md)."""
    low, high = wilson_interval(869_400, 1_000_000)
    assert low <= PUBLISHED_WIN_RATE <= high
    assert high - low == pytest.approx(0.0013, abs=0.0001)


def test_unknowns_widen_the_interval_to_both_extremes():
    plain = win_rate(solved=80, unsolvable=20, unknown=0)
    assert (plain.low, plain.high) == wilson_interval(80, 100)
    assert plain.rate == 0.8
    wide = win_rate(solved=80, unsolvable=10, unknown=10)
    assert wide.low == wilson_interval(80, 100)[0]
    assert wide.high == wilson_interval(90, 100)[1]
    assert wide.contains(0.8) and wide.contains(0.9) and not wide.contains(0.5)
    assert win_rate(solved=0, unsolvable=0, unknown=3).rate is None


def test_summarize_counts_every_verdict_and_times():
    results = [
        SolveResult(Verdict.SOLVED, (0,) * 51, 10, 0.25, 51),
        SolveResult(Verdict.SOLVED, (0,) * 51, 10, 0.75, 51),
        SolveResult(Verdict.UNKNOWN, (), 99, 2.0, 40),
    ]
    summary = summarize(results)
    assert summary.counts == {Verdict.SOLVED: 2, Verdict.UNSOLVABLE: 0, Verdict.UNKNOWN: 1}
    assert summary.total == 3
    assert summary.win_rate.rate == 1.0
    assert (summary.mean_seconds, summary.median_seconds, summary.max_seconds) == (1.0, 0.75, 2.0)
    empty = summarize([])
    assert empty.total == 0 and empty.max_seconds == 0.0
