"""Calibration: thresholds at the quartiles of a sample's scores, the weights kept, the command."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.config import ConfigError
from pipeline.files import DestinationError
from pipeline.game.shuffles import seeded_deal
from pipeline.packs.labels import Tier
from pipeline.stages.calibrate import calibrate
from pipeline.stages.grade import summarize_grades
from pipeline.stages.settings import GradeSettings
from pipeline.stages.tiers import CalibrationError, Score, load_tiers
from tests.stages.samples import BUDGET, CHEAP, CHEAP_BUDGET, OUT_OF_BUDGET_ROWS, ROWS, UNSOLVABLE_ROW


def invoke(*args):
    return CliRunner().invoke(app, [str(arg) for arg in args])


def test_calibration_splits_its_sample_into_quarters_and_keeps_the_weights(tmp_path):
    target = tmp_path / "tiers.toml"
    target.write_text("[score]\ntrap_weight = 0.2\n")  # weights only: thresholds come from calibration
    deals = [seeded_deal(seed, index) for seed, index in CHEAP]
    calibration = calibrate(
        target, deals, origin="cheap deals", grading=GradeSettings(max_positions=CHEAP_BUDGET)
    )
    tiers = load_tiers(target)
    assert tiers == calibration.tiers and tiers.score == Score(trap_weight=0.2)
    assert calibration.scored == len(CHEAP)
    assert "cheap deals" in target.read_text()
    counts = summarize_grades(calibration.grades).tiers
    assert [counts[tier] for tier in (Tier.EASY, Tier.MEDIUM, Tier.HARD, Tier.EXPERT)] == [2, 2, 2, 2]


def test_calibration_with_too_few_scores_writes_nothing(tmp_path):
    target = tmp_path / "tiers.toml"
    deals = [seeded_deal(*ROWS[row]) for row in (*OUT_OF_BUDGET_ROWS, UNSOLVABLE_ROW)]
    with pytest.raises(CalibrationError, match="got 0"):
        calibrate(target, deals, origin="three deals", grading=GradeSettings(max_positions=BUDGET))
    assert list(tmp_path.iterdir()) == []


def test_the_calibrate_command_writes_the_tiers_and_prints_the_quartiles(tmp_path):
    out = tmp_path / "tiers.toml"
    # seed 653, deals 0..5: one lost, four trees counted within 600,000 positions, one needing 16 million
    result = invoke("calibrate", "--seed", 653, "--count", 6, "--out", out, "--max-positions", 2_000_000)
    assert result.exit_code == 0, result.output
    tiers = load_tiers(out)
    assert f"quartiles: medium {tiers.medium}, hard {tiers.hard}, expert {tiers.expert}" in result.stdout
    lines = {" ".join(line.replace("│", " ").split()) for line in result.stdout.splitlines()}
    assert {f"tier {tier} 1" for tier in ("easy", "medium", "hard", "expert", "unsolvable")} <= lines
    assert "out of budget (no tier) 1" in lines
    assert "thresholds from 4 scored deals" in result.stderr


def test_calibrate_command_errors_are_one_line(tmp_path):
    out = tmp_path / "tiers.toml"
    result = invoke("calibrate", "--seed", 1, "--count", 2, "--out", out, "--max-positions", 10, "-q")
    assert result.exit_code == 1
    assert re.fullmatch(r"error: calibration needs at least 4 scored deals, got 0\n", result.stderr)
    assert not out.exists()
    bad = tmp_path / "bad.toml"
    bad.write_text("[score]\nodds_weight = -1\n")
    result = invoke("calibrate", "--seed", 1, "--count", 2, "--out", bad, "-q")
    assert result.exit_code == 1
    assert re.fullmatch(
        r"error: .*bad\.toml:2: \[score\] odds_weight must be at least 0, got -1\n", result.stderr
    )
    with pytest.raises(ConfigError):
        load_tiers(bad)  # left as it was


def test_a_target_without_a_folder_fails_before_any_work(tmp_path):
    with pytest.raises(DestinationError, match="cannot write, no directory"):
        calibrate(tmp_path / "no" / "tiers.toml", [], origin="nothing")
