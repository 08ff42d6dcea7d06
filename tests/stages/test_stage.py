"""A stage is one object: the chain, the pack passes and the face each go through it, and say the same."""

from __future__ import annotations

import pickle

from pipeline.game.games import game_named
from pipeline.game.shuffles import seeded_deal
from pipeline.game.verdicts import SolveResult, Verdict
from pipeline.packs.labels import GradeStatus
from pipeline.stages.chain import StageSettings
from pipeline.stages.crosscheck import CrosscheckStage
from pipeline.stages.face_solve import solve
from pipeline.stages.grade import GradeStage, tiers_of_game
from pipeline.stages.settings import CrosscheckSettings, GradeSettings, SolveSettings
from pipeline.stages.stage import SolveStage, stage_batch, through
from pipeline.stages.tiers import Tiers

TIERS = Tiers(medium=8.0, hard=9.0, expert=10.0)


def test_a_run_s_metadata_says_every_stage_s_settings_then_the_samples_then_the_tiers():
    settings = StageSettings(
        solve=SolveSettings(max_nodes=10, longest_play=False),
        crosscheck=CrosscheckSettings(loss_sample=0.5),
        grade=GradeSettings(sample=0.5),
        tiers=TIERS,
    )
    assert list(settings.metadata()) == [
        "max_nodes",
        "longest_play",
        "cpsat_time_limit",
        "crosscheck_sample",
        "crosscheck_seed",
        "grade_max_positions",
        "grade_max_memory_mib",
        "crosscheck_loss_sample",
        "grade_sample",
        "grade_seed",
        *TIERS.metadata(),
    ]


def test_a_full_run_s_metadata_is_the_separate_passes_one_after_the_other():
    solving, checking, grading = StageSettings(tiers=TIERS).stages
    passes = {}
    for stage in (solving, checking, grading):
        passes |= stage.metadata() | stage.sample_metadata()
    assert StageSettings(tiers=TIERS).metadata() == passes
    assert list(StageSettings(tiers=TIERS).metadata()) == list(passes)


def test_a_deal_a_stage_does_not_pick_gets_what_the_stage_says():
    deal = seeded_deal(20261129, 0)
    won = SolveResult(Verdict.SOLVED, (), 1, 0.0, deal.game.pile_cards)
    skipped = through(GradeStage(GradeSettings(sample=0.0)), deal, "seed-20261129-0", won)
    assert (
        skipped.grade_status is GradeStatus.NOT_SAMPLED and skipped.max_cards_played == won.max_cards_played
    )
    assert through(CrosscheckStage(CrosscheckSettings(sample=0.0)), deal, "seed-20261129-0", won) is None


def test_the_worker_task_the_face_and_the_stage_give_the_same_result():
    deal = seeded_deal(20261129, 1)
    stage = SolveStage(SolveSettings(max_nodes=50_000))
    start, (found,) = stage_batch(3, [deal.to_board_text()], [None], stage, deal.game)
    assert start == 3
    assert found.verdict == stage.apply(deal).verdict == solve(deal, stage.settings).verdict


def test_a_stage_travels_whole_to_the_workers():
    golf = game_named("golf")
    stage = GradeStage(GradeSettings(max_positions=7), tiers_of_game(GradeSettings(), golf))
    assert pickle.loads(pickle.dumps(stage)) == stage
    assert stage.tiers == tiers_of_game(GradeSettings(), golf)
