"""blackhole calibrate plays: bots of one model named by the likelihood, thresholds fitted and written, refusals."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pipeline.calibration import MIN_DEALS, from_plays
from pipeline.cli import app
from pipeline.errors import ExitCode
from pipeline.game.players import PLAYERS
from pipeline.plays.importing import import_plays
from pipeline.plays.intervals import Correlation
from pipeline.plays.model_check import MIN_ATTEMPTS, Measure, check_models
from pipeline.plays.played import played_pack
from pipeline.stages.tiers import Figure, load_tiers
from tests.plays.conftest import BOT, BOT_ATTEMPTS
from tests.plays.making import write


@pytest.fixture(scope="module")
def bot_plays(tmp_path_factory: pytest.TempPathFactory, play_pack: Path, bot_export: dict[str, Any]) -> Path:
    folder = tmp_path_factory.mktemp("bots")
    out = folder / "PLAYS.parquet"
    import_plays([write(folder / "bots.json", bot_export)], play_pack, out)
    return out


@pytest.fixture(scope="module")
def check(bot_plays: Path, play_pack: Path) -> Any:
    return check_models(played_pack(bot_plays, play_pack))


def test_the_likelihood_names_the_bots_own_model(check):
    assert check.best is BOT
    means = {player: check.fits[player].mean for player in PLAYERS}
    assert all(mean is not None and mean < 0 for mean in means.values())
    assert max(means, key=lambda player: means[player]) is BOT
    fit = check.fits[BOT]
    assert fit.attempts == 17 * BOT_ATTEMPTS  # every attempt won or met a dead end
    assert fit.with_undo == 17 * 4  # two in three with undo
    assert 0 < (fit.typical_chance or 0) < 1


def test_every_model_has_a_rank_correlation_with_an_interval_for_every_measure(check):
    assert len(check.deals) == 17 and check.enough == 17
    for player in PLAYERS:
        assert check.correlations[player][Measure.ONE_ATTEMPT_RATE] == Correlation(0, None, None, None)
        for measure in Measure:
            found = check.correlations[player][measure]
            assert found.deals == (0 if measure is Measure.ONE_ATTEMPT_RATE else 17)
            if found.rho is not None:
                assert -1 <= found.low <= found.rho <= found.high <= 1 or found.low is None
    assert check.correlations[BOT][Measure.MISTAKES].rho > 0  # harder for the model, more mistakes


def test_the_bootstrap_is_seeded(check, bot_plays, play_pack):
    again = check_models(played_pack(bot_plays, play_pack))
    assert again.correlations == check.correlations


def test_thresholds_are_fitted_and_written_with_enough_deals(bot_plays, play_pack, tmp_path):
    out = tmp_path / "tiers.toml"
    made = from_plays(bot_plays, play_pack, out=out, min_deals=10)
    assert made.refused is None and made.written == out and made.fitted is not None
    tiers = load_tiers(out)
    assert tiers == made.fitted.tiers
    assert tiers.difficulty.player is BOT and tiers.difficulty.figure is Figure.ATTEMPTS  # the pack's figure
    assert 0 < tiers.medium < tiers.hard < tiers.expert
    assert made.fitted.deals == 17 and 0 <= made.fitted.agreeing <= 17
    assert out.read_text().startswith("# Written by blackhole calibrate --plays PLAYS.parquet --pack p")
    assert made.player is BOT and list(tmp_path.iterdir()) == [out]  # the chart is the command's


def test_below_30_deals_with_5_attempts_the_command_refuses_and_writes_nothing(
    bot_plays, play_pack, tmp_path
):
    assert (MIN_DEALS, MIN_ATTEMPTS) == (30, 5)
    out = tmp_path / "tiers.toml"
    result = CliRunner().invoke(
        app,
        [
            "calibrate",
            "plays",
            "--plays",
            str(bot_plays),
            "--pack",
            str(play_pack),
            "--out",
            str(out),
            "--charts",
            str(tmp_path),
        ],
        env={"COLUMNS": "200"},
    )
    assert result.exit_code == ExitCode.BAD_INPUT, result.output
    assert (
        "best predictor of these players: random, a player who plays any legal move at random"
        in result.stdout
    )
    assert result.stderr.splitlines()[-1] == (
        f"error: {out}: not written: fitting tier thresholds to play needs at least 30 deals with at least "
        "5 finished attempts each; of the 17 deals played and graded, 17 have that many"
    )
    assert not out.exists()
    assert (tmp_path / "play-calibration.png").exists()


def test_without_out_the_command_reports_and_says_why_no_tiers_were_fitted(bot_plays, play_pack, tmp_path):
    result = CliRunner().invoke(
        app,
        ["calibrate", "--plays", str(bot_plays), "--pack", str(play_pack), "--charts", str(tmp_path)],
        env={"COLUMNS": "200"},
    )
    assert result.exit_code == 0, result.output
    assert "Which model plays like these players" in result.stdout
    assert (tmp_path / "play-calibration.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (
        "no tier thresholds fitted: fitting tier thresholds to play needs at least 30 deals" in result.stderr
    )


@pytest.mark.parametrize(
    ("args", "problem"),
    [
        (["plays", "--pack", "p"], "Missing option '--plays'"),
        (["sample", "--plays", "P.parquet"], "No such option: --plays"),
        (["--plays", "P.parquet"], "Missing option '--pack'"),  # the form before the subcommands
        (["--plays", "P.parquet", "--pack", "p", "--seed", "1"], "No such option: --seed"),
        (["--seed", "1", "--count", "4"], "Missing option '--out'"),
    ],
)
def test_the_two_kinds_of_calibration_do_not_mix(args, problem):
    result = CliRunner().invoke(app, ["calibrate", *args], env={"COLUMNS": "300"})
    assert result.exit_code == ExitCode.USAGE
    assert problem in " ".join(result.output.split())


def test_an_infinite_measure_ranks_hardest():
    assert math.isinf(Measure.MISTAKES.of(_never_won()))


def _never_won() -> Any:
    from pipeline.plays.intervals import MeanInterval, Rate
    from pipeline.plays.observed import Observed

    return Observed(1, 3, 0, Rate.of(0, 3), Rate.of(0, 3), MeanInterval.of([]), MeanInterval.of([]))
