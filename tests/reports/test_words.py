"""Figures and tiers in words: odds, counts and dead ends rounded as a player reads them, tiers in the reference's words."""

from __future__ import annotations

import math
import re
import tomllib
from pathlib import Path

import pytest

from pipeline.game.players import PLAYERS, Player
from pipeline.reports.words import (
    WORDS,
    WORDS_FILE,
    attempts_words,
    chance_words,
    count_text,
    dead_ends_words,
    figure_label,
    odds_text,
    tier_meanings,
)
from pipeline.stages.tiers import Difficulty, Figure, Tiers

DEAD_ENDS = Difficulty(Player.LOOKAHEAD_2, Figure.DEAD_ENDS)
ATTEMPTS = Difficulty(Player.LOOKAHEAD_4, Figure.ATTEMPTS)


@pytest.mark.parametrize(
    ("chance", "words"),
    [
        (1 / 40, "about 1 game in 40"),
        (0.000132, "about 1 game in 7,600"),
        (1 / 3.2, "about 1 game in 3"),
        (4.3e-7, "about 1 game in 2.3 million"),
        (0.7, "about 7 games in 10"),
        (0.99, "almost every game"),
        (0.0, "never"),
        (None, "n/a"),
    ],
)
def test_a_win_chance_reads_as_odds(chance, words):
    assert chance_words(chance) == words


@pytest.mark.parametrize(
    ("dead_ends", "words"),
    [
        (5.8, "about 6 dead ends"),
        (1.04, "about 1 dead end"),
        (0.42, "about 0.4 dead ends"),
        (0.01, "almost no dead ends"),
        (20.6, "about 21 dead ends"),
        (1234.0, "about 1,200 dead ends"),
        (None, "no win"),
        (math.inf, "no win"),
        (math.nan, "no win"),
    ],
)
def test_dead_ends_read_as_a_rounded_count(dead_ends, words):
    assert dead_ends_words(dead_ends) == words


def test_counts_and_odds_have_no_exponent():
    for power in range(0, 25):
        for value in (1.0, 2.5, 7.7):
            for text in (count_text(value * 10**power), odds_text(1 / (value * 10**power))):
                assert not re.search(r"\de[+-]?\d", text), text
    assert count_text(8.1e12) == "8.1 trillion" and attempts_words(41.7) == "about 42 attempts"


def test_a_figure_label_names_the_figure_the_player_and_the_undo():
    assert figure_label(DEAD_ENDS) == "dead ends of lookahead-2, with undo"
    assert figure_label(ATTEMPTS) == "attempts of lookahead-4, without undo"


def test_tiers_mean_what_their_reference_player_meets():
    meanings = tier_meanings(Tiers(3, 8, 20, DEAD_ENDS))
    who = "a player who follows the tips and looks 2 moves ahead, with undo"
    assert meanings == {
        "easy": f"fewer than 3 dead ends for {who}",
        "medium": f"at least 3 and fewer than 8 dead ends for {who}",
        "hard": f"at least 8 and fewer than 20 dead ends for {who}",
        "expert": f"20 dead ends or more for {who}",
        "unsolvable": "no win exists",
    }
    attempts = tier_meanings(Tiers(200, 600, 2000, ATTEMPTS))
    assert attempts["expert"] == (
        "2,000 attempts or more for a player who follows the tips and looks 4 moves ahead, without undo"
    )
    assert tier_meanings(Tiers(1, 1.5, 2, DEAD_ENDS))["easy"].startswith("fewer than 1 dead end for ")


@pytest.mark.parametrize("player", PLAYERS)
def test_every_player_of_the_ladder_can_be_the_reference(player):
    meanings = tier_meanings(Tiers(3, 8, 20, Difficulty(player, Figure.DEAD_ENDS)))
    assert all(player.words in text for tier, text in meanings.items() if tier != "unsolvable")


def test_the_words_table_ships_with_the_package_and_holds_every_tier_span():
    """words.json is package data beside words.py (the gallery's words.js reads the same table)."""
    pyproject = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text(encoding="utf-8"))
    assert WORDS_FILE.name in pyproject["tool"]["setuptools"]["package-data"]["pipeline.reports"]
    assert list(WORDS["tier_spans"]) == ["easy", "medium", "hard", "expert"]
    assert set(WORDS["units"]) == set(WORDS["undo"]) == {figure.value for figure in Figure}
