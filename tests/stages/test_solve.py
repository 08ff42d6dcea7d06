"""Batch solving: order, independence from workers and batches, replay checks, whole runs."""

import dataclasses

import pyarrow.parquet as pq
import pytest

from pipeline.engine.solver import solve
from pipeline.game.shuffles import seeded_deal
from pipeline.game.verdicts import SolveResult, Verdict
from pipeline.packs.parquet import write_pack_file
from pipeline.packs.schema import SOLVED_SCHEMA
from pipeline.packs.sources import seeded_deals
from pipeline.stages.settings import PassOptions, SolveSettings
from pipeline.stages.solve import solve_deals, solve_pack

SEED = 20261129
MAX_NODES = 20_000  # small enough that some of these deals come back unknown
DEALS = [seeded_deal(SEED, i) for i in range(12)]


def without_seconds(result: SolveResult) -> SolveResult:
    return dataclasses.replace(result, seconds=0.0)


@pytest.fixture(scope="module")
def expected() -> list[SolveResult]:
    return [without_seconds(solve(deal, max_nodes=MAX_NODES)) for deal in DEALS]


def test_expected_results_cover_more_than_one_verdict(expected):
    assert len({result.verdict for result in expected}) >= 2


@pytest.mark.parametrize(
    ("jobs", "backend", "batch_size"),
    [(1, "loky", None), (2, "loky", None), (3, "threading", 1), (2, "threading", 5)],
)
def test_results_come_back_in_input_order(expected, jobs, backend, batch_size):
    results = solve_deals(
        DEALS,
        SolveSettings(max_nodes=MAX_NODES),
        PassOptions(jobs=jobs, backend=backend),
        batch_size=batch_size,
    )
    assert [without_seconds(result) for result in results] == expected


def test_no_deals_no_results():
    assert solve_deals([], options=PassOptions(jobs=2)) == []


def test_progress_bar_goes_to_stderr(capsys):
    solve_deals(DEALS[:2], SolveSettings(max_nodes=MAX_NODES), PassOptions(progress=True))
    captured = capsys.readouterr()
    assert "solving" in captured.err
    assert captured.out == ""


def test_solve_pack_keeps_rows_and_order(tmp_path, expected):
    source, target = tmp_path / "deals.parquet", tmp_path / "solved.parquet"
    write_pack_file(seeded_deals(seed=SEED, count=len(DEALS)), source)
    tally = solve_pack(source, target, SolveSettings(max_nodes=MAX_NODES), PassOptions(jobs=2, timings=False))
    assert tally.counts == {verdict: [r.verdict for r in expected].count(verdict) for verdict in Verdict}
    table = pq.read_table(target)
    assert table.schema.equals(SOLVED_SCHEMA)
    assert table.column("deal_id").to_pylist() == [f"seed-{SEED}-{i}" for i in range(len(DEALS))]
    assert table.column("verdict").to_pylist() == [r.verdict.value for r in expected]
    assert table.column("seconds").null_count == len(DEALS)
    assert table.column("solution").to_pylist() == [list(r.solution) for r in expected]
    assert table.column("nodes").to_pylist() == [r.nodes for r in expected]


def test_solve_pack_without_longest_plays_leaves_losses_without_a_most(tmp_path, expected):
    source, target = tmp_path / "deals.parquet", tmp_path / "solved.parquet"
    write_pack_file(seeded_deals(seed=SEED, count=len(DEALS)), source)
    settings = SolveSettings(max_nodes=MAX_NODES, longest_play=False)
    solve_pack(source, target, settings, PassOptions(jobs=1, timings=False))
    table = pq.read_table(target)
    assert table.column("verdict").to_pylist() == [r.verdict.value for r in expected]
    most = [None if r.verdict is Verdict.UNSOLVABLE else r.max_cards_played for r in expected]
    assert None in most and table.column("max_cards_played").to_pylist() == most
    assert table.schema.metadata[b"longest_play"] == b"false"
