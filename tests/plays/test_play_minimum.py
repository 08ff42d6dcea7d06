"""blackhole calibrate plays states the data it had, leaves hinted moves out of the likelihood, measures
one-attempt games, and names no best predictor below its minimum (8 deals, 40 attempts counted)."""

from __future__ import annotations

import copy
import math
import re
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pipeline.calibration import CalibrationError, fit_tiers
from pipeline.cli import app
from pipeline.errors import ExitCode
from pipeline.game.deal import Deal
from pipeline.game.players import PlayerFigures
from pipeline.plays.events import replay_events
from pipeline.plays.exports import Attempt, Mode, Outcome
from pipeline.plays.importing import import_plays
from pipeline.plays.likelihood import counted, log_likelihood, own_part
from pipeline.plays.model_check import MIN_PREDICTOR_ATTEMPTS, MIN_PREDICTOR_DEALS, Measure, check_models
from pipeline.plays.played import played_pack
from pipeline.reports.play_tables import NO_ONE_ATTEMPT
from pipeline.stages.tiers import Figure
from tests.plays.conftest import BOT
from tests.plays.making import attempt, deal_entry, document, write
from tests.plays.remaking import with_attempts
from tests.plays.test_report import stuck_line


def imported(folder: Path, found: dict[str, Any], pack: Path) -> Path:
    out = folder / "PLAYS.parquet"
    import_plays([write(folder / "plays.json", found)], pack, out)
    return out


def bots_at(bot_export: dict[str, Any], deals: int, attempts: int, *, drop: int = 0) -> dict[str, Any]:
    """The bots' export cut to its first ``deals`` deals and ``attempts`` attempts at each, less ``drop`` at the last."""
    entries = copy.deepcopy(bot_export["deals"][:deals])
    for entry in entries:
        entry["attempts"] = entry["attempts"][:attempts]
    if drop:
        entries[-1]["attempts"] = entries[-1]["attempts"][:-drop]
    return document(entries)


def calibrate(plays: Path, pack: Path, folder: Path, *more: str) -> Any:
    return CliRunner().invoke(
        app,
        [
            "calibrate",
            "plays",
            "--plays",
            str(plays),
            "--pack",
            str(pack),
            "--charts",
            str(folder / "charts"),
            *more,
        ],
        env={"COLUMNS": "300"},
    )


def test_the_minimum_is_what_the_bots_evidence_supports():
    assert (MIN_PREDICTOR_DEALS, MIN_PREDICTOR_ATTEMPTS) == (8, 40)


def test_40_attempts_at_8_deals_name_the_model_and_39_do_not(bot_export, play_pack, tmp_path_factory):
    enough = imported(tmp_path_factory.mktemp("enough"), bots_at(bot_export, 8, 5), play_pack)
    check = check_models(played_pack(enough, play_pack))
    assert (check.counted.attempts, check.counted.deals) == (40, 8)
    assert check.refused is None and check.best is not None  # the bots' own model 95 times in 100
    short = imported(tmp_path_factory.mktemp("short"), bots_at(bot_export, 8, 5, drop=1), play_pack)
    check = check_models(played_pack(short, play_pack))
    assert check.best is None
    assert check.refused == (
        "too few to name a best predictor: the likelihood counts 39 attempts at 8 deals; "
        "it needs at least 40 attempts at 8 deals"
    )
    seven = imported(tmp_path_factory.mktemp("seven"), bots_at(bot_export, 7, 6), play_pack)
    assert check_models(played_pack(seven, play_pack)).refused == (
        "too few to name a best predictor: the likelihood counts 42 attempts at 7 deals; "
        "it needs at least 40 attempts at 8 deals"
    )


@pytest.fixture(scope="module")
def few_plays(tmp_path_factory: pytest.TempPathFactory, play_pack: Path, bot_export: dict[str, Any]) -> Path:
    """Two attempts of the bots at each of 6 deals: 12 attempts, too few."""
    return imported(tmp_path_factory.mktemp("few"), bots_at(bot_export, 6, 2), play_pack)


def test_below_the_minimum_the_command_shows_the_data_and_why_no_model_is_named(
    few_plays, play_pack, tmp_path
):
    result = calibrate(few_plays, play_pack, tmp_path)
    assert result.exit_code == 0, result.output
    out = result.stdout
    lines = out.splitlines()
    assert lines[0] == "data: 6 deals played and graded, 12 finished attempts"
    assert lines[1] == "finished attempts by mode: 12 relaxed, 0 one-attempt; 0 timed, 0 out of time"
    assert lines[2] == NO_ONE_ATTEMPT
    assert lines[3].endswith(", 0 of them right after a hint (0 %)")
    assert lines[4].startswith("the likelihood counts 12 attempts at 6 deals (won, or with a dead end")
    assert "Each model against play: rank correlation over the 6 deals played and graded" in out
    assert "Which model plays like these players" in out
    assert (
        "too few to name a best predictor: the likelihood counts 12 attempts at 6 deals; "
        "it needs at least 40 attempts at 8 deals"
    ) in lines
    assert "best predictor of these" not in out
    assert not re.search(r"│ +best +│", out)  # no model marked best in the likelihood's table
    assert (
        "no tier thresholds fitted: fitting tier thresholds to play needs at least 30 deals" in result.stderr
    )


def test_below_the_minimum_writing_tiers_fails_in_one_line(few_plays, play_pack, tmp_path):
    out = tmp_path / "tiers.toml"
    result = calibrate(few_plays, play_pack, tmp_path, "--out", str(out))
    assert result.exit_code == ExitCode.BAD_INPUT
    assert result.stderr.splitlines()[-1] == (
        f"error: {out}: not written: fitting tier thresholds to play needs at least 30 deals with at least "
        "5 finished attempts each; of the 6 deals played and graded, 0 have that many"
    )
    assert not out.exists()
    check = check_models(played_pack(few_plays, play_pack), min_attempts=2)
    with pytest.raises(
        CalibrationError, match="^fitting tier thresholds to play needs a best predictor: too few"
    ):
        fit_tiers(check, Figure.ATTEMPTS, min_deals=1)


def test_one_deal_is_one_deal(bot_export, play_pack, tmp_path):
    plays = imported(tmp_path, bots_at(bot_export, 1, 2), play_pack)
    result = calibrate(plays, play_pack, tmp_path, "--out", str(tmp_path / "tiers.toml"))
    assert result.exit_code == ExitCode.BAD_INPUT
    assert result.stdout.splitlines()[0] == "data: 1 deal played and graded, 2 finished attempts"
    assert "rank correlation over the 1 deal played and graded" in result.stdout
    assert "counts 2 attempts at 1 deal;" in result.stdout
    assert "of the 1 deal played and graded, 0 have that many" in result.stderr
    assert "1 deals" not in result.output


# ---------------------------------------------------------------- one-attempt games


@pytest.fixture(scope="module")
def one_attempt_plays(
    tmp_path_factory: pytest.TempPathFactory, play_pack: Path, bot_export: dict[str, Any]
) -> Path:
    """The bots' records with each game played without undo (every third attempt) in the one-attempt mode."""
    folder = tmp_path_factory.mktemp("one")
    plays = imported(folder, bot_export, play_pack)

    def change(deal_id: str, place: int, found: Attempt) -> Attempt:
        return replace(found, mode=Mode.ONE_ATTEMPT) if found.undos == found.restarts == 0 else found

    return with_attempts(plays, folder / "ONE.parquet", change)


def test_one_attempt_games_are_a_measure_held_against_the_win_chance(one_attempt_plays, play_pack, tmp_path):
    check = check_models(played_pack(one_attempt_plays, play_pack))
    assert check.data.modes.one_attempt == 17 * 2 and check.data.modes.relaxed == 17 * 4
    assert Measure.ONE_ATTEMPT_RATE.against_win_chance
    found = check.correlations[BOT][Measure.ONE_ATTEMPT_RATE]
    assert found.deals == 17
    rates = [deal.observed.one_attempt for deal in check.deals]
    assert all(rate.trials == 2 for rate in rates)
    assert check.best is BOT  # the same attempts, the same likelihood
    result = calibrate(one_attempt_plays, play_pack, tmp_path)
    assert result.exit_code == 0, result.output
    assert "finished attempts by mode: 68 relaxed, 34 one-attempt; 0 timed, 0 out of time" in result.stdout
    assert "one-attempt win rate" in result.stdout
    assert "the one-attempt win rate over the 17 deals with a one-attempt game" in " ".join(
        result.stdout.split()
    )
    assert NO_ONE_ATTEMPT not in " ".join(result.stdout.split())


# ---------------------------------------------------------------- hints


def test_an_attempt_counts_up_to_its_first_hint(pack_rows):
    row = next(row for row in pack_rows.to_pylist() if row["tier"] == "easy" and row["verdict"] == "solved")
    deal = Deal.from_board_text(row["board"])
    line = stuck_line(deal)
    events = [*line, *["undo"] * len(line), *[event for pile in row["solution"] for event in ("hint", pile)]]
    tally = replay_events(deal, events)
    moment = datetime(2026, 12, 1, tzinfo=UTC)
    found = Attempt("h1", moment, moment, 9.0, Outcome.WON, tuple(events), **tally.counts(), clean=False)
    own = own_part(found, deal)
    assert own.events == tuple([*line, *["undo"] * len(line)])
    assert (own.outcome, own.dead_ends, own.undos, own.hints, own.moves) == (
        Outcome.ABANDONED,
        1,
        len(line),
        0,
        len(line),
    )
    assert counted(own)  # a dead end before the hint: censored, not won
    assert log_likelihood(own, PlayerFigures(0.01, 3.0)) == pytest.approx(math.log(0.75))
    plain = replace(found, events=tuple(line), outcome=Outcome.STUCK)
    assert own_part(plain, deal) is plain


@pytest.fixture(scope="module")
def hinted_plays(tmp_path_factory: pytest.TempPathFactory, play_pack: Path, pack_rows: Any) -> Path:
    """The gallery's solution player at 8 deals, 5 times each: every move a hint's (hint, move, hint, ...)."""
    rows = [row for row in pack_rows.to_pylist() if row["verdict"] == "solved"][:8]
    entries = []
    for number, row in enumerate(rows):
        deal = Deal.from_board_text(row["board"])
        events = [event for pile in row["solution"] for event in ("hint", int(pile))]
        tally = replay_events(deal, events)
        made = [
            attempt(
                f"s{number}x{k}-aaaaaaaa",
                events,
                outcome="won",
                started=10 * (5 * number + k),
                seconds=60,
                **tally.counts(),
            )
            for k in range(5)
        ]
        entries.append(deal_entry(row["deal_id"], made))
    return imported(tmp_path_factory.mktemp("hinted"), document(entries), play_pack)


def test_hinted_moves_are_left_out_and_said(hinted_plays, play_pack, tmp_path):
    check = check_models(played_pack(hinted_plays, play_pack))
    moves = check.data.moves
    assert check.data.attempts == 40 and check.data.hinted == moves > 0
    assert (check.counted.attempts, check.counted.cut_at_hint) == (0, 40)
    assert check.counted.left_out == check.counted.hinted_left_out == moves
    assert check.best is None
    result = calibrate(hinted_plays, play_pack, tmp_path)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert f"{moves:,} moves, {moves:,} of them right after a hint (100 %)" in out
    assert (
        f"left out: {moves:,} moves from an attempt's first hint on ({moves:,} of them a hint's own), "
        "in 40 attempts cut at their first hint"
    ) in out
    assert "most moves came right after a hint: they are the hint engine's, not the player's" in out
    assert (
        "too few to name a best predictor: the likelihood counts 0 attempts at 0 deals; "
        "it needs at least 40 attempts at 8 deals"
    ) in out
