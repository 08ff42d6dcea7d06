"""Calibration: thresholds at round values near the quartiles of a sample, the reference kept, the command."""

from __future__ import annotations

import random
import re

import pytest
from typer.testing import CliRunner

from pipeline.calibration import CalibrationError, from_sample, quartile_tiers, round_value, write_tiers
from pipeline.cli import app
from pipeline.config import ConfigError
from pipeline.files import DestinationError
from pipeline.game.players import Player
from pipeline.game.shuffles import seeded_deal
from pipeline.stages.grade import summarize_grades
from pipeline.stages.settings import GradeSettings
from pipeline.stages.tiers import Difficulty, Figure, Tier, Tiers, load_tiers
from tests.stages.samples import BUDGET, CHEAP, CHEAP_BUDGET, OUT_OF_BUDGET_ROWS, ROWS, UNSOLVABLE_ROW

TIERS = Tiers(medium=8.5, hard=10.0, expert=12.25, difficulty=Difficulty(Player.TIPS, Figure.DEAD_ENDS))


def invoke(*args):
    return CliRunner().invoke(app, [str(arg) for arg in args])


def test_calibration_moves_the_thresholds_to_round_values_and_keeps_the_reference(tmp_path):
    target = tmp_path / "tiers.toml"
    before = Tiers(1.0, 2.0, 3.0, Difficulty(Player.TIPS, Figure.DEAD_ENDS))
    write_tiers(before, target)
    deals = [seeded_deal(seed, index) for seed, index in CHEAP]
    calibration = from_sample(
        target, deals, origin="cheap deals", grading=GradeSettings(max_positions=CHEAP_BUDGET)
    )
    tiers = load_tiers(target)
    assert tiers == calibration.tiers and tiers.difficulty == before.difficulty
    assert all(float(f"{t:.2g}") == t for t in (tiers.medium, tiers.hard, tiers.expert))  # round values
    assert calibration.scored == len(CHEAP)
    assert "cheap deals" in target.read_text()
    counts = summarize_grades(calibration.grades).tiers
    assert sum(counts[tier] for tier in (Tier.EASY, Tier.MEDIUM, Tier.HARD, Tier.EXPERT)) == len(CHEAP)
    assert counts[Tier.EXPERT] >= 1 and counts[Tier.EASY] >= 1
    # how the sample fell before: every tips player meets more than 3 dead ends, so all were expert
    assert calibration.before == before and calibration.grades_before is not None
    assert summarize_grades(calibration.grades_before).tiers[Tier.EXPERT] == len(CHEAP)


def test_calibration_brings_a_file_in_the_old_units_up_to_date(tmp_path):
    target = tmp_path / "tiers.toml"
    target.write_text("[score]\nodds_weight = 1.0\n\n[tiers]\nmedium = 5.8\nhard = 6.4\nexpert = 7.2\n")
    deals = [seeded_deal(seed, index) for seed, index in CHEAP]
    calibration = from_sample(
        target, deals, origin="cheap", grading=GradeSettings(max_positions=CHEAP_BUDGET)
    )
    assert calibration.before is None and load_tiers(target).difficulty == Difficulty()


def test_calibration_with_too_few_scores_writes_nothing(tmp_path):
    target = tmp_path / "tiers.toml"
    deals = [seeded_deal(*ROWS[row]) for row in (*OUT_OF_BUDGET_ROWS, UNSOLVABLE_ROW)]
    with pytest.raises(CalibrationError, match="got 0"):
        from_sample(target, deals, origin="three deals", grading=GradeSettings(max_positions=BUDGET))
    assert list(tmp_path.iterdir()) == []


def test_the_calibrate_command_writes_the_tiers_and_prints_the_thresholds(tmp_path):
    out = tmp_path / "tiers.toml"
    # seed 653, deals 0..5: one lost, four trees counted within 600,000 positions, one needing 16 million
    result = invoke("calibrate", "sample", "--seed", 653, "-n", 6, "--out", out, "--max-positions", 2_000_000)
    assert result.exit_code == 0, result.output
    tiers = load_tiers(out)
    assert (
        f"thresholds (attempts of lookahead-4, without undo): medium {tiers.medium:g}, hard {tiers.hard:g}, "
        f"expert {tiers.expert:g}"
    ) in result.stdout
    lines = {" ".join(line.replace("│", " ").split()) for line in result.stdout.splitlines()}
    assert "tier unsolvable 1" in lines and "out of budget (no tier) 1" in lines
    assert "thresholds from 4 graded deals" in result.stderr
    assert "the tiers before" not in result.stdout  # there were none
    assert "(--seed 653 --count 6, --max-positions 2000000 --max-memory 1024)" in out.read_text()
    # the form from before the subcommands, options first, is calibrate sample's
    again = invoke(
        "calibrate",
        "--seed",
        653,
        "--count",
        6,
        "--out",
        out,
        "--max-positions",
        2_000_000,
        "--max-memory",
        512,
    )
    assert again.exit_code == 0, again.output
    assert (
        "--max-positions 2000000 --max-memory 512)" in out.read_text()
    )  # the budgets the sample was graded in
    assert (
        "before: thresholds (attempts of lookahead-4" in again.stdout and "the tiers before" in again.stdout
    )


def test_calibrate_command_errors_are_one_line(tmp_path):
    out = tmp_path / "tiers.toml"
    result = invoke(
        "calibrate", "sample", "--seed", 1, "--count", 2, "--out", out, "--max-positions", 10, "-q"
    )
    assert result.exit_code == 1
    assert re.fullmatch(r"error: calibration needs at least 4 graded deals, got 0\n", result.stderr)
    assert not out.exists()
    bad = tmp_path / "bad.toml"
    bad.write_text('[difficulty]\nplayer = "nobody"\nfigure = "attempts"\n')
    result = invoke("calibrate", "--seed", 1, "--count", 2, "--out", bad, "-q")
    assert result.exit_code == 1
    assert re.fullmatch(
        r"error: .*bad\.toml:2: \[difficulty\] player must be one of the players .*, got 'nobody'\n",
        result.stderr,
    )
    with pytest.raises(ConfigError):
        load_tiers(bad)  # left as it was


def test_calibrate_names_its_two_ways_and_takes_the_older_form():
    listed = invoke("calibrate", "--help")
    assert listed.exit_code == 0 and re.search(r"sample +Show how COUNT", listed.stdout)
    assert re.search(r"plays +Check the player models", listed.stdout)
    for old, sub in (
        (["--seed", "1", "--help"], "sample"),
        (["-q", "--plays", "p.parquet", "--help"], "plays"),
    ):
        shown = invoke("calibrate", *old)
        assert shown.exit_code == 0 and f"Usage: blackhole calibrate {sub} [OPTIONS]" in shown.stdout
    missing = invoke("calibrate", "--seed", 1, "-n", 4)
    assert missing.exit_code == 2 and "Missing option '--out'" in missing.stderr


def test_a_target_without_a_folder_fails_before_any_work(tmp_path):
    with pytest.raises(DestinationError, match="cannot write, no directory"):
        from_sample(tmp_path / "no" / "tiers.toml", [], origin="nothing")


def test_calibration_puts_round_values_near_the_quartiles():
    rng = random.Random(5)
    attempts = [rng.lognormvariate(6.0, 1.5) for _ in range(401)]
    reference = Difficulty(Player.TIPS, Figure.ATTEMPTS)
    tiers = quartile_tiers(reference, attempts)
    assert tiers.difficulty == reference
    quartiles = sorted(attempts)[100], sorted(attempts)[200], sorted(attempts)[300]
    for threshold, quartile in zip((tiers.medium, tiers.hard, tiers.expert), quartiles, strict=True):
        assert round_value(threshold) == threshold  # spread-out quartiles: the coarse round values
        assert 1 / 1.5 <= threshold / quartile <= 1.5  # the round values are at most 1.5 apart
    counts = {tier: sum(tiers.tier_of(a) is tier for a in attempts) for tier in Tier}
    assert all(50 <= counts[tier] <= 150 for tier in (Tier.EASY, Tier.MEDIUM, Tier.HARD, Tier.EXPERT)), counts


def test_round_values_read_as_people_say_them():
    assert [round_value(v) for v in (0.01, 1.2, 1.3, 6.9, 7.0, 180.0, 290.0, 1e12)] == [
        0.1, 1.0, 1.5, 6.0, 8.0, 200.0, 300.0, 8_000_000.0
    ]  # fmt: skip


def test_calibration_needs_four_distinct_round_values():
    with pytest.raises(CalibrationError, match="at least 4 graded deals, got 3"):
        quartile_tiers(Difficulty(), [1.0, 2.0, 3.0])
    with pytest.raises(CalibrationError, match="round to 200, 200, 200, which do not rise"):
        quartile_tiers(Difficulty(), [199.0, 200.0, 200.0, 200.0, 201.0])
    close = quartile_tiers(
        Difficulty(), [19.0, 21.4, 23.3, 28.1, 30.0]
    )  # round values 20, 20, 30: two digits
    assert (close.medium, close.hard, close.expert) == (21.0, 23.0, 28.0)


def test_writing_is_whole_or_nothing(tmp_path):
    path = tmp_path / "tiers.toml"
    write_tiers(TIERS, path, note="first")
    assert load_tiers(path) == TIERS
    assert [p.name for p in tmp_path.iterdir()] == ["tiers.toml"]
    with pytest.raises(DestinationError, match="cannot write, no directory"):
        write_tiers(TIERS, tmp_path / "no" / "tiers.toml")
