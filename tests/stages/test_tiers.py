"""Difficulty scores and tiers: the formula, the boundaries, the TOML file and its errors."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from pipeline.calibration import round_value
from pipeline.config import ConfigError
from pipeline.game.players import Player, PlayerFigures
from pipeline.stages.tiers import (
    Difficulty,
    Figure,
    OldUnitsError,
    Tier,
    Tiers,
    load_tiers,
    parse_tiers,
    tree_score,
)

ROOT = Path(__file__).resolve().parents[2]
TIERS = Tiers(medium=8.5, hard=10.0, expert=12.25, difficulty=Difficulty(Player.TIPS, Figure.DEAD_ENDS))
GOOD = '[difficulty]\nplayer = "tips"\nfigure = "dead_ends"\n\n[tiers]\nmedium = 8.5\nhard = 10\nexpert = 12.25\n'
OLD = "[score]\nodds_weight = 1.0\nshare_weight = 0.5\ntrap_weight = 0.1\n\n[tiers]\nmedium = 5.8446\nhard = 6.4731\nexpert = 7.2398\n"


def test_the_tree_score_weighs_its_three_terms():
    found = tree_score(random_win_probability=1e-6, winnable_share=0.1, traps=8)
    assert found == pytest.approx(1.0 * 6 + 0.5 * 1 + 0.1 * 8)
    assert tree_score(random_win_probability=1.0, winnable_share=1.0, traps=0) == 0.0


def test_the_difficulty_is_the_reference_players_figure():
    ladder = [PlayerFigures(0.5 / (row + 1), 10.0 + row) for row in range(5)]
    assert Difficulty(Player.TIPS, Figure.DEAD_ENDS).of(ladder) == 11.0
    assert Difficulty(Player.LOOKAHEAD_2, Figure.ATTEMPTS).of(ladder) == pytest.approx(6.0)
    assert Difficulty().of(ladder) == pytest.approx(8.0)  # lookahead-4's attempts
    assert math.isinf(Figure.ATTEMPTS.of(PlayerFigures(0.0, math.inf)))


@pytest.mark.parametrize(
    ("difficulty", "tier"),
    [
        (0.0, Tier.EASY),
        (math.nextafter(8.5, 0), Tier.EASY),
        (8.5, Tier.MEDIUM),  # a difficulty exactly at a threshold starts that tier
        (math.nextafter(10.0, 0), Tier.MEDIUM),
        (10.0, Tier.HARD),
        (12.25, Tier.EXPERT),
        (1e9, Tier.EXPERT),
    ],
)
def test_a_threshold_is_the_fewest_of_its_tier(difficulty, tier):
    assert TIERS.tier_of(difficulty) is tier


def test_the_file_round_trips():
    assert parse_tiers(GOOD) == TIERS
    assert parse_tiers(TIERS.to_toml(note="a note\nover two lines")) == TIERS
    assert TIERS.to_toml(note="a note").startswith("# a note\n")
    assert TIERS.metadata() == {
        "difficulty_player": "tips",
        "difficulty_figure": "dead_ends",
        "tier_medium": "8.5",
        "tier_hard": "10.0",
        "tier_expert": "12.25",
    }


def test_a_file_in_the_old_units_is_refused_with_one_line_saying_what_changed():
    for text, line in ((OLD, 1), (OLD.split("\n\n")[1], 1), ("# old\n" + OLD, 2)):
        with pytest.raises(OldUnitsError) as caught:
            parse_tiers(text, source="t.toml")
        message = str(caught.value)
        assert message.startswith(f"t.toml:{line}: this tiers file is in the old units")
        assert "a player's dead ends or attempts" in message and "blackhole calibrate" in message
        assert "\n" not in message


def test_the_project_tiers_file_is_calibrated_in_player_units():
    path = ROOT / "pipeline" / "stages" / "tiers.toml"
    tiers = load_tiers(path)
    assert tiers.difficulty == Difficulty(Player.LOOKAHEAD_4, Figure.ATTEMPTS)
    assert 1 < tiers.medium < tiers.hard < tiers.expert
    assert all(round_value(value) == value for value in (tiers.medium, tiers.hard, tiers.expert))
    assert "blackhole calibrate" in path.read_text()


TIER_ERRORS = {
    "unknown-table": (GOOD + "[tier]\nmedium = 1\n", r"t\.toml:9: unknown key 'tier'"),
    "unknown-key": (GOOD.replace("hard = 10", "hrad = 10"), r"t\.toml:7: \[tiers\] has unknown key 'hrad'"),
    "unknown-reference-key": (GOOD.replace("figure =", "figures ="), r"t\.toml:3: \[difficulty\] has unknown key 'figures'"),
    "unknown-player": (GOOD.replace('"tips"', '"expert"'), r"t\.toml:2: \[difficulty\] player must be one of the players random, tips, lookahead-2, lookahead-4, lookahead-8, got 'expert'"),
    "unknown-figure": (GOOD.replace('"dead_ends"', '"score"'), r"t\.toml:3: \[difficulty\] figure must be one of the figures dead_ends, attempts, got 'score'"),
    "missing-figure": (GOOD.replace('figure = "dead_ends"\n', ""), r"t\.toml:1: \[difficulty\] needs 'figure'"),
    "wrong-type": (GOOD.replace("hard = 10", 'hard = "10"'), r"t\.toml:7: \[tiers\] hard must be a number, not a string"),
    "boolean": (GOOD.replace("hard = 10", "hard = true"), r"t\.toml:7: .* not a boolean"),
    "not-finite": (GOOD.replace("expert = 12.25", "expert = inf"), r"t\.toml:8: \[tiers\] expert must be a finite number"),
    "zero": (GOOD.replace("medium = 8.5", "medium = 0"), r"t\.toml:6: \[tiers\] medium must be above 0, got 0"),
    "out-of-order": (GOOD.replace("expert = 12.25", "expert = 10"), r"t\.toml:8: \[tiers\] expert must be above hard \(10\.0\), got 10\.0"),
    "missing-threshold": (GOOD.replace("medium = 8.5\n", ""), r"t\.toml:5: \[tiers\] needs 'medium'"),
    "missing-table": ('[difficulty]\nplayer = "tips"\nfigure = "attempts"\n', r"t\.toml: \[tiers\] needs 'medium'"),
    "no-reference": ("", r"t\.toml:1: needs a \[difficulty\] table"),
    "not-a-table": ('tiers = 3\n[difficulty]\nplayer = "tips"\nfigure = "attempts"\n', r"t\.toml:1: tiers must be a table"),
    "syntax": (GOOD + "medium = \n", r"t\.toml:9: .*column"),
}  # fmt: skip


@pytest.mark.parametrize("case", TIER_ERRORS, ids=list(TIER_ERRORS))
def test_errors_name_the_file_and_line(case):
    text, pattern = TIER_ERRORS[case]
    with pytest.raises(ConfigError) as caught:
        parse_tiers(text, source="t.toml")
    assert re.match(pattern, str(caught.value)), str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_missing_file_is_named(tmp_path):
    with pytest.raises(ConfigError, match=r"none\.toml: no such file"):
        load_tiers(tmp_path / "none.toml")
