"""CP-SAT against the solver: the model's answers, the cross-check stage, planted wrong verdicts."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.engine.cpsat import LOSS_PROBING, build_model, cpsat_solve
from pipeline.errors import ExitCode
from pipeline.game.rules import replay
from pipeline.game.shuffles import seeded_deal
from pipeline.game.verdicts import Verdict
from pipeline.packs.parquet import PackError, write_pack_file
from pipeline.packs.schema import CHECK_FIELDS
from pipeline.packs.sources import seeded_deals
from pipeline.stages import crosscheck
from pipeline.stages.crosscheck import check_deal, crosscheck_pack, sampled
from pipeline.stages.settings import CrosscheckSettings, PassOptions, SolveSettings
from pipeline.stages.solve import solve_deals, solved_table

AGREEMENT_SEED = 2026
AGREEMENT_DEALS = 310  # the first 310 deals of the seed hold 40 unsolvable ones (make test-slow)
AGREEMENT_SAMPLE = 40  # the first 40 hold 7 of them (make test)


def _solved_pack(path, *, seed: int, count: int, start: int = 0):
    deals = seeded_deals(seed=seed, count=count, start=start)
    results = solve_deals([seeded_deal(seed, start + i) for i in range(count)])
    write_pack_file(solved_table(deals, results, SolveSettings(max_nodes=50_000_000), timings=False), path)
    return [result.verdict for result in results]


def _with_verdict(path, row: int, verdict: Verdict) -> None:
    """Plant a wrong verdict: rewrite ``row``'s verdict in the pack at ``path``, with no solution and no
    count of cards played (a pack whose row keeps a win under another verdict is refused when read)."""
    table = pq.read_table(path)
    for name, value in (("verdict", verdict.value), ("solution", []), ("max_cards_played", None)):
        values = table.column(name).to_pylist()
        values[row] = value
        index = table.column_names.index(name)
        table = table.set_column(index, table.schema.field(name), pa.array(values, table[name].type))
    write_pack_file(table, path)


def _agreement(folder, count: int):
    """The solver's and CP-SAT's verdicts on the first ``count`` seeded deals, every one checked."""
    verdicts = _solved_pack(folder / "solved.parquet", seed=AGREEMENT_SEED, count=count)
    outcome = crosscheck_pack(
        folder / "solved.parquet",
        folder / "checked.parquet",
        CrosscheckSettings(sample=1.0),
        PassOptions(jobs=2),
    )
    return verdicts, outcome, pq.read_table(folder / "checked.parquet")


def _assert_agreement(agreement, count: int, unsolvable: int) -> None:
    verdicts, outcome, table = agreement
    assert outcome.checked == count and outcome.disagreements == []
    assert verdicts.count(Verdict.UNSOLVABLE) >= unsolvable
    assert table.column("agree").to_pylist() == [True] * count
    assert table.column("cpsat_verdict").to_pylist() == [verdict.value for verdict in verdicts]
    assert set(table.column("checked_by").to_pylist()) == {"cpsat"}


def test_solver_and_cpsat_agree_on_40_deals_7_of_them_unsolvable(tmp_path):
    _assert_agreement(_agreement(tmp_path, AGREEMENT_SAMPLE), AGREEMENT_SAMPLE, unsolvable=7)


@pytest.mark.slow
def test_solver_and_cpsat_agree_on_310_deals_40_of_them_unsolvable(tmp_path):
    _assert_agreement(_agreement(tmp_path, AGREEMENT_DEALS), AGREEMENT_DEALS, unsolvable=40)


def test_every_cpsat_solution_replays():
    solved = 0
    for index in range(12):
        deal = seeded_deal(AGREEMENT_SEED, index)
        result = cpsat_solve(deal)
        if result.verdict is Verdict.SOLVED:
            assert replay(deal, result.solution).is_won
            solved += 1
    assert solved >= 8


def test_a_loss_is_checked_with_probing_and_a_win_without_and_both_answers_stand(small_pack, monkeypatch):
    _, verdicts = small_pack
    levels = []
    answer = crosscheck.cpsat_solve

    def recording(deal, **options):
        levels.append(options["probing_level"])
        return answer(deal, **options)

    monkeypatch.setattr(crosscheck, "cpsat_solve", recording)
    loss, win = verdicts.index(Verdict.UNSOLVABLE), verdicts.index(Verdict.SOLVED)
    for row in (loss, win):
        check = check_deal(seeded_deal(AGREEMENT_SEED, row), verdicts[row], time_limit=30, reference_nodes=1)
        assert (check.checked_by, check.verdict) == ("cpsat", verdicts[row])
    assert levels == [LOSS_PROBING, 0] and LOSS_PROBING > 0
    probed_win = cpsat_solve(seeded_deal(AGREEMENT_SEED, win), probing_level=LOSS_PROBING)
    assert replay(
        seeded_deal(AGREEMENT_SEED, win), probed_win.solution
    ).is_won  # probing changes speed, not answers


def test_the_model_is_built_from_the_deal_alone():
    play = build_model(seeded_deal(AGREEMENT_SEED, 1))
    assert len(play.card_at) == 51
    assert play.model.proto.variables  # a real model, ready to solve in a worker


@pytest.fixture
def small_pack(tmp_path):
    path = tmp_path / "solved.parquet"
    verdicts = _solved_pack(path, seed=AGREEMENT_SEED, count=10)
    assert Verdict.SOLVED in verdicts and Verdict.UNSOLVABLE in verdicts
    return path, verdicts


@pytest.mark.parametrize(("planted", "truth"), [(Verdict.UNSOLVABLE, Verdict.SOLVED)])
def test_a_planted_wrong_verdict_is_caught_loudly(small_pack, tmp_path, planted, truth):
    path, verdicts = small_pack
    row = verdicts.index(truth)
    _with_verdict(path, row, planted)
    out = tmp_path / "checked.parquet"
    result = CliRunner().invoke(app, ["crosscheck", str(path), "--out", str(out), "--sample", "1", "--quiet"])
    assert result.exit_code == ExitCode.DISAGREEMENT
    assert (
        f"seed-{AGREEMENT_SEED}-{row} (row {row}): the pack says {planted.value}, cpsat says {truth.value}"
        in result.output
    )
    assert seeded_deal(AGREEMENT_SEED, row).to_board_text().strip() in result.output
    agree = pq.read_table(out).column("agree").to_pylist()  # written all the same
    assert agree == [number != row for number in range(len(verdicts))]


def test_a_planted_win_without_a_solution_is_refused_before_any_check(small_pack, tmp_path):
    path, verdicts = small_pack
    row = verdicts.index(Verdict.UNSOLVABLE)
    _with_verdict(path, row, Verdict.SOLVED)
    out = tmp_path / "checked.parquet"
    result = CliRunner().invoke(app, ["crosscheck", str(path), "--out", str(out), "--sample", "1", "--quiet"])
    assert result.exit_code == ExitCode.BAD_INPUT
    assert f"[{row}]: deal seed-{AGREEMENT_SEED}-{row}: verdict 'solved' without a solution" in result.output
    assert not out.exists()


def test_when_cpsat_cannot_tell_the_reference_search_decides(small_pack, tmp_path):
    path, verdicts = small_pack
    out = tmp_path / "checked.parquet"
    outcome = crosscheck_pack(path, out, CrosscheckSettings(sample=1.0, time_limit=0.01))
    table = pq.read_table(out)
    cpsat, checked_by = table.column("cpsat_verdict").to_pylist(), table.column("checked_by").to_pylist()
    for verdict, answer, decider in zip(verdicts, cpsat, checked_by, strict=True):
        if verdict is Verdict.SOLVED:  # no model finds a win that fast (some losses fall in presolve)
            assert answer == "unknown"
        assert decider == (
            "reference" if answer == "unknown" else "cpsat"
        )  # unknown never counts as agreement
    assert table.column("agree").to_pylist() == [True] * len(verdicts)
    assert outcome.decided == len(verdicts)


def test_when_neither_check_can_tell_the_row_is_left_undecided(small_pack, tmp_path):
    path, verdicts = small_pack
    out = tmp_path / "checked.parquet"
    outcome = crosscheck_pack(path, out, CrosscheckSettings(sample=1.0, time_limit=0.01, reference_nodes=1))
    table = pq.read_table(out)
    undecided = [answer == "unknown" for answer in table.column("cpsat_verdict").to_pylist()]
    assert sum(undecided) >= verdicts.count(Verdict.SOLVED)
    for left, decider, agree in zip(
        undecided, table.column("checked_by").to_pylist(), table.column("agree").to_pylist(), strict=True
    ):
        assert (decider, agree) == ((None, None) if left else ("cpsat", True))
    assert (outcome.checked, outcome.decided, outcome.disagreements) == (
        len(verdicts),
        len(verdicts) - sum(undecided),
        [],
    )


def test_by_default_every_unsolvable_verdict_and_a_sample_of_solved_ones_is_checked(small_pack, tmp_path):
    path, verdicts = small_pack
    out = tmp_path / "checked.parquet"
    crosscheck_pack(path, out, CrosscheckSettings(sample=0.0))
    table = pq.read_table(out)
    checked = [value is not None for value in table.column("cpsat_verdict").to_pylist()]
    assert checked == [verdict is Verdict.UNSOLVABLE for verdict in verdicts]
    assert table.schema.names[-len(CHECK_FIELDS) :] == [field.name for field in CHECK_FIELDS]


def test_the_sample_of_solved_deals_is_seeded_and_about_its_fraction():
    ids = [f"seed-1-{index}" for index in range(20_000)]
    chosen = [deal_id for deal_id in ids if sampled(deal_id, "solved", fraction=0.05, seed=3)]
    assert 0.045 < len(chosen) / len(ids) < 0.055
    assert chosen == [deal_id for deal_id in ids if sampled(deal_id, "solved", fraction=0.05, seed=3)]
    assert chosen != [deal_id for deal_id in ids if sampled(deal_id, "solved", fraction=0.05, seed=4)]
    assert not sampled("seed-1-0", "unknown", fraction=1.0, seed=3)


def test_the_checked_pack_is_the_same_bytes_for_one_or_two_jobs(small_pack, tmp_path):
    path, _ = small_pack
    crosscheck_pack(
        path, tmp_path / "one.parquet", CrosscheckSettings(sample=0.3), PassOptions(timings=False)
    )
    crosscheck_pack(
        path, tmp_path / "two.parquet", CrosscheckSettings(sample=0.3), PassOptions(jobs=2, timings=False)
    )
    assert (tmp_path / "one.parquet").read_bytes() == (tmp_path / "two.parquet").read_bytes()


def test_a_deals_pack_is_not_a_solved_pack(tmp_path):
    path = tmp_path / "deals.parquet"
    write_pack_file(seeded_deals(seed=1, count=2), path)
    with pytest.raises(PackError, match="missing column 'verdict'"):
        crosscheck_pack(path, tmp_path / "checked.parquet")
    result = CliRunner().invoke(app, ["crosscheck", str(path), "--out", str(tmp_path / "c.parquet")])
    assert result.exit_code == 1
    assert not (tmp_path / "c.parquet").exists()
