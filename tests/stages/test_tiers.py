"""Difficulty scores and tiers: the formula, the boundaries, the TOML file and its errors, calibration."""

from __future__ import annotations

import math
import random
import re
from pathlib import Path

import pytest

from pipeline.config import ConfigError
from pipeline.files import DestinationError
from pipeline.stages.tiers import (
    CalibrationError,
    Score,
    Tier,
    Tiers,
    calibrated,
    load_score,
    load_tiers,
    parse_tiers,
    write_tiers,
)

ROOT = Path(__file__).resolve().parents[2]
TIERS = Tiers(medium=8.5, hard=10.0, expert=12.25, score=Score(2.0, 0.25, 0.5))
GOOD = "[score]\nodds_weight = 2\nshare_weight = 0.25\ntrap_weight = 0.5\n\n[tiers]\nmedium = 8.5\nhard = 10\nexpert = 12.25\n"


def test_the_score_weighs_its_three_terms():
    score = Score(odds_weight=2.0, share_weight=0.5, trap_weight=0.25)
    found = score.of(random_win_probability=1e-6, winnable_share=0.1, traps=8)
    assert found == pytest.approx(2.0 * 6 + 0.5 * 1 + 0.25 * 8)
    assert Score().of(random_win_probability=1.0, winnable_share=1.0, traps=0) == 0.0


@pytest.mark.parametrize(
    ("difficulty", "tier"),
    [
        (-1.0, Tier.EASY),
        (math.nextafter(8.5, 0), Tier.EASY),
        (8.5, Tier.MEDIUM),  # a score exactly at a threshold starts that tier
        (math.nextafter(10.0, 0), Tier.MEDIUM),
        (10.0, Tier.HARD),
        (12.25, Tier.EXPERT),
        (1e9, Tier.EXPERT),
    ],
)
def test_a_threshold_is_the_lowest_score_of_its_tier(difficulty, tier):
    assert TIERS.tier_of(difficulty) is tier


def test_the_file_round_trips_and_weights_default():
    assert parse_tiers(GOOD) == TIERS
    assert parse_tiers(TIERS.to_toml(note="a note\nover two lines")) == TIERS
    assert TIERS.to_toml(note="a note").startswith("# a note\n")
    defaults = parse_tiers("[tiers]\nmedium = 1\nhard = 2\nexpert = 3\n")
    assert defaults.score == Score(1.0, 0.5, 0.1)
    assert TIERS.metadata() == {
        "tier_medium": "8.5",
        "tier_hard": "10.0",
        "tier_expert": "12.25",
        "score_odds_weight": "2.0",
        "score_share_weight": "0.25",
        "score_trap_weight": "0.5",
    }


def test_the_project_tiers_file_is_calibrated():
    tiers = load_tiers(ROOT / "pipeline" / "stages" / "tiers.toml")
    assert tiers.score == Score()
    assert 0 < tiers.medium < tiers.hard < tiers.expert
    assert "blackhole calibrate" in (ROOT / "pipeline" / "stages" / "tiers.toml").read_text()


TIER_ERRORS = {
    "unknown-table": (GOOD + "[tier]\nmedium = 1\n", r"t\.toml:10: unknown key 'tier'"),
    "unknown-key": (GOOD.replace("hard = 10", "hrad = 10"), r"t\.toml:8: \[tiers\] has unknown key 'hrad'"),
    "wrong-type": (GOOD.replace("hard = 10", 'hard = "10"'), r"t\.toml:8: \[tiers\] hard must be a number, not a string"),
    "boolean": (GOOD.replace("trap_weight = 0.5", "trap_weight = true"), r"t\.toml:4: .* not a boolean"),
    "not-finite": (GOOD.replace("expert = 12.25", "expert = inf"), r"t\.toml:9: \[tiers\] expert must be a finite number"),
    "negative-weight": (GOOD.replace("share_weight = 0.25", "share_weight = -1"), r"t\.toml:3: .* at least 0, got -1"),
    "out-of-order": (GOOD.replace("expert = 12.25", "expert = 10"), r"t\.toml:9: \[tiers\] expert must be above hard \(10\.0\), got 10\.0"),
    "missing-threshold": (GOOD.replace("medium = 8.5\n", ""), r"t\.toml:6: \[tiers\] needs 'medium'"),
    "missing-table": ("[score]\nodds_weight = 1\n", r"t\.toml: \[tiers\] needs 'medium'"),
    "not-a-table": ("tiers = 3\n", r"t\.toml:1: tiers must be a table"),
    "syntax": (GOOD + "medium = \n", r"t\.toml:10: .*column"),
}  # fmt: skip


@pytest.mark.parametrize("case", TIER_ERRORS, ids=list(TIER_ERRORS))
def test_errors_name_the_file_and_line(case):
    text, pattern = TIER_ERRORS[case]
    with pytest.raises(ConfigError) as caught:
        parse_tiers(text, source="t.toml")
    assert re.match(pattern, str(caught.value)), str(caught.value)
    assert "\n" not in str(caught.value)


def test_the_score_can_be_read_without_thresholds(tmp_path):
    path = tmp_path / "weights.toml"
    path.write_text("[score]\ntrap_weight = 0.3\n")
    assert load_score(path) == Score(trap_weight=0.3)
    with pytest.raises(ConfigError, match=r"weights\.toml: \[tiers\] needs 'medium'"):
        load_tiers(path)
    with pytest.raises(ConfigError, match=r"none\.toml: no such file"):
        load_tiers(tmp_path / "none.toml")


def test_calibration_splits_its_own_sample_into_quarters():
    rng = random.Random(5)
    scores = [rng.lognormvariate(2.0, 0.4) for _ in range(401)]
    tiers = calibrated(Score(trap_weight=0.3), scores)
    assert tiers.score == Score(trap_weight=0.3)
    counts = {tier: sum(tiers.tier_of(s) is tier for s in scores) for tier in Tier}
    assert counts[Tier.UNSOLVABLE] == 0
    assert all(99 <= counts[tier] <= 102 for tier in (Tier.EASY, Tier.MEDIUM, Tier.HARD, Tier.EXPERT)), counts


def test_calibration_needs_four_distinct_scores():
    with pytest.raises(CalibrationError, match="at least 4 scored deals, got 3"):
        calibrated(Score(), [1.0, 2.0, 3.0])
    with pytest.raises(CalibrationError, match="do not rise"):
        calibrated(Score(), [1.0, 2.0, 2.0, 2.0, 2.0, 2.0, 3.0])


def test_writing_is_whole_or_nothing(tmp_path):
    path = tmp_path / "tiers.toml"
    write_tiers(TIERS, path, note="first")
    assert load_tiers(path) == TIERS
    assert [p.name for p in tmp_path.iterdir()] == ["tiers.toml"]
    with pytest.raises(DestinationError, match="cannot write, no directory"):
        write_tiers(TIERS, tmp_path / "no" / "tiers.toml")
