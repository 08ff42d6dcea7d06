"""The separate crosscheck and grade commands sample as a run does: the same deals, the same columns."""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq
import pytest

from pipeline.packs.parquet import write_pack_file
from pipeline.packs.sources import DealSpan, deals_table, seeded_deals
from pipeline.stages.chain import StageSettings, outcome_table, process_span
from pipeline.stages.crosscheck import crosscheck_pack, sampled
from pipeline.stages.grade import grade_pack
from pipeline.stages.sampling import graded
from pipeline.stages.settings import CrosscheckSettings, GradeSettings, PassOptions, SolveSettings
from pipeline.stages.solve import solve_pack
from pipeline.stages.tiers import load_tiers

SEED, COUNT = 77, 18  # 18 deals of seed 77: 15 wins, 3 losses (rows 4, 16 and 17)
TIERS_FILE = Path(__file__).resolve().parents[2] / "pipeline" / "stages" / "tiers.toml"
MAX_POSITIONS = 2_000_000
GRADE_COLUMNS = ["deal_id", "grade_status", "solution_count", "winnable_states", "difficulty", "tier"]


@pytest.fixture(scope="module")
def solved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("samples")
    write_pack_file(seeded_deals(seed=SEED, count=COUNT), folder / "deals.parquet")
    solve_pack(folder / "deals.parquet", folder / "solved.parquet", options=PassOptions(timings=False))
    return folder / "solved.parquet"


def test_grade_sample_walks_the_wins_a_run_would_and_leaves_the_rest_not_sampled(solved, tmp_path):
    settings = GradeSettings(max_positions=MAX_POSITIONS, tiers=TIERS_FILE, sample=0.5, seed=3)
    grade_pack(solved, tmp_path / "graded.parquet", settings, PassOptions(timings=False))
    rows = pq.read_table(tmp_path / "graded.parquet").to_pylist()
    for row in rows:
        walked = row["verdict"] != "solved" or graded(row["deal_id"], fraction=0.5, seed=3)
        assert (row["grade_status"] != "not_sampled") == walked, row["deal_id"]
    assert {row["grade_status"] for row in rows} >= {"not_sampled", "exact"}  # the sample took some, not all
    assert pq.read_schema(tmp_path / "graded.parquet").metadata[b"grade_sample"] == b"0.5"

    settings = StageSettings(
        solve=SolveSettings(),
        crosscheck=CrosscheckSettings(sample=0.0, loss_sample=0.0),
        grade=GradeSettings(max_positions=MAX_POSITIONS, sample=0.5, seed=3),
        tiers=load_tiers(TIERS_FILE),
    )
    span = DealSpan("seed", SEED, 0, COUNT)
    _, done, _ = process_span(0, span, settings)
    in_run = outcome_table(
        deals_table(span, [b for b, _ in done]), [o for _, o in done], settings, timings=False
    )
    assert in_run.select(GRADE_COLUMNS).to_pylist() == [{k: row[k] for k in GRADE_COLUMNS} for row in rows]


def test_crosscheck_loss_sample_checks_that_share_of_the_losses_only(solved, tmp_path):
    crosscheck_pack(
        solved,
        tmp_path / "checked.parquet",
        CrosscheckSettings(sample=0.0, loss_sample=0.5, seed=0),
        PassOptions(timings=False),
    )
    rows = pq.read_table(tmp_path / "checked.parquet").to_pylist()
    losses = [row for row in rows if row["verdict"] == "unsolvable"]
    checked = [row for row in losses if row["checked_by"] is not None]
    assert 0 < len(checked) < len(losses), "the sample takes some of seed 77's losses, not all"
    for row in rows:
        chosen = sampled(row["deal_id"], row["verdict"], fraction=0.0, seed=0, loss_fraction=0.5)
        assert (row["checked_by"] is not None) == chosen, row["deal_id"]
        assert row["verdict"] == "unsolvable" or row["checked_by"] is None
    assert pq.read_schema(tmp_path / "checked.parquet").metadata[b"crosscheck_loss_sample"] == b"0.5"
