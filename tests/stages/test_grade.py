"""Grading solved packs: metrics from the game tree, nulls when it cannot tell, tiers, the command.

The game tree of most deals holds millions of positions, so these tests grade
a few deals that are cheap to count in full (found by timing ``tree_of`` on
seeded deals) and give the others a budget they run out of.
"""

from __future__ import annotations

import dataclasses
import math
import re
import tomllib
from importlib import resources
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import typer
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.engine.budgets import DEFAULT_MAX_MEMORY_MIB, DEFAULT_MAX_POSITIONS, LEAST_MAX_MEMORY_MIB
from pipeline.engine.gametree import tree_of
from pipeline.files import DestinationError
from pipeline.game.players import PLAYERS
from pipeline.game.rules import Position
from pipeline.game.shuffles import seeded_deal
from pipeline.packs.labels import GradeStatus, Tier
from pipeline.packs.parquet import PackError, metadata, write_pack_file
from pipeline.packs.schema import CHECK_FIELDS, GRADE_FIELDS, SOLVED_SCHEMA
from pipeline.packs.sources import seeded_deals
from pipeline.stages.crosscheck import checked_table
from pipeline.stages.grade import Grade, GradeStage, grade_deal, grade_pack, summarize_grades
from pipeline.stages.settings import DEFAULT_TIERS, GradeSettings, PassOptions, SolveSettings
from pipeline.stages.solve import solve_deals, solved_table
from pipeline.stages.tiers import Tiers, load_tiers
from tests.stages.samples import (
    BUDGET,
    CHEAP,
    CHEAP_BUDGET,
    EXACT_ROWS,
    OUT_OF_BUDGET_ROWS,
    ROWS,
    STATUSES,
    UNKNOWN_ROW,
    UNSOLVABLE_ROW,
)

TIERS = Tiers(medium=200.0, hard=600.0, expert=2000.0)  # lookahead-4's expected attempts
UNTIMED = PassOptions(timings=False)
TREE_METRICS = [field.name for field in GRADE_FIELDS if field.name not in ("grade_status", "grade_seconds")]


def _solved_pack(path: Path) -> Path:
    """The solved pack of ROWS, with UNKNOWN_ROW's verdict rewritten to unknown."""
    deals = pa.concat_tables([seeded_deals(seed=seed, count=1, start=index) for seed, index in ROWS])
    results = solve_deals([seeded_deal(seed, index) for seed, index in ROWS])
    table = solved_table(deals, results, SolveSettings(max_nodes=50_000_000), timings=False)
    columns = {name: table.column(name).to_pylist() for name in ("verdict", "solution", "max_cards_played")}
    columns["verdict"][UNKNOWN_ROW], columns["solution"][UNKNOWN_ROW] = "unknown", []
    columns["max_cards_played"][UNKNOWN_ROW] = None
    for name, values in columns.items():
        index = table.column_names.index(name)
        table = table.set_column(
            index, table.schema.field(name), pa.array(values, table.schema.field(name).type)
        )
    write_pack_file(table, path)
    return path


@pytest.fixture(scope="module")
def solved(tmp_path_factory) -> Path:
    return _solved_pack(tmp_path_factory.mktemp("grading") / "solved.parquet")


@pytest.fixture(scope="module")
def graded(solved) -> pa.Table:
    target = solved.with_name("graded.parquet")
    grade_pack(solved, target, GradeSettings(max_positions=BUDGET), UNTIMED, tiers=TIERS)
    return pq.read_table(target)


def _row(table: pa.Table, row: int) -> dict:
    return table.slice(row, 1).to_pylist()[0]


def test_the_sample_pack_has_every_kind_of_row(solved):
    verdicts = pq.read_table(solved).column("verdict").to_pylist()
    assert verdicts[UNSOLVABLE_ROW] == "unsolvable" and verdicts[UNKNOWN_ROW] == "unknown"
    assert verdicts.count("solved") == 4


def test_a_graded_pack_is_the_solved_pack_with_the_grade_columns(solved, graded):
    source = pq.read_table(solved)
    assert graded.schema.names == source.schema.names + [field.name for field in GRADE_FIELDS]
    assert (
        graded.select(SOLVED_SCHEMA.names)
        .drop(["max_cards_played"])
        .equals(source.drop(["max_cards_played"]))
    )
    for field in GRADE_FIELDS:
        assert graded.schema.field(field.name).type == field.type, field.name
    assert graded.column("grade_status").null_count == 0
    budgets = {"grade_max_positions": str(BUDGET), "grade_max_memory_mib": str(DEFAULT_MAX_MEMORY_MIB)}
    assert metadata(graded) == metadata(source) | budgets | TIERS.metadata()


def test_statuses_row_by_row(graded):
    assert graded.column("grade_status").to_pylist() == STATUSES
    assert graded.column("deal_id").to_pylist() == [f"seed-{seed}-{index}" for seed, index in ROWS]


def test_out_of_budget_gives_nulls_never_an_estimate(graded):
    for row in OUT_OF_BUDGET_ROWS:
        found = _row(graded, row)
        assert all(found[name] is None for name in TREE_METRICS), found
        assert found["max_cards_played"] == 51 and found["verdict"] == "solved"


def test_an_unsolvable_deal_is_graded_without_a_walk(graded):
    found = _row(graded, UNSOLVABLE_ROW)
    known = {
        "solution_count": 0,
        "random_win_probability": 0.0,
        "winnable_states": 0,
        "winning_first_moves": 0,
        "tier": "unsolvable",
        **{player.win_column: 0.0 for player in PLAYERS},  # no player ever wins
    }
    assert {name: found[name] for name in known} == known
    assert found["max_cards_played"] == 0  # seed 1 deal 97 has no legal first move
    assert all(found[name] is None for name in TREE_METRICS if name not in known)


def test_an_unknown_verdict_is_not_graded(graded):
    found = _row(graded, UNKNOWN_ROW)
    assert found["grade_status"] == "unknown"
    assert all(found[name] is None for name in TREE_METRICS + ["max_cards_played"])


@pytest.mark.parametrize("row", EXACT_ROWS)
def test_an_exact_row_holds_the_tree_numbers_the_players_and_the_difficulty(graded, row):
    found = _row(graded, row)
    deal = seeded_deal(*ROWS[row])
    tree = tree_of(deal, Position.start(deal), line=tuple(found["solution"]), max_positions=BUDGET)
    assert found["solution_count"] == tree.solution_count > 0
    assert found["log10_solutions"] == pytest.approx(math.log10(tree.solution_count))
    assert (found["winnable_states"], found["reachable_states"]) == (
        tree.winnable_states,
        tree.reachable_states,
    )
    assert found["winnable_share"] == pytest.approx(tree.winnable_states / tree.reachable_states)
    assert found["random_win_probability"] == tree.random_win_probability
    assert found["branching_winning_lines"] == tree.branching_winning_lines
    assert found["branching_winnable"] == tree.branching_winnable
    assert (found["winning_first_moves"], found["first_moves"]) == (
        tree.winning_first_moves,
        tree.first_moves,
    )
    assert found["forced_moves"] + found["decisions"] == 51  # counted along the pack's solution
    assert (found["traps"], found["first_trap"]) == (
        tree.traps,
        None if tree.first_trap < 0 else tree.first_trap,
    )
    assert 0 <= found["traps"] <= found["decisions"]
    expected = (
        -math.log10(found["random_win_probability"])
        + 0.5 * -math.log10(found["winnable_share"])
        + 0.1 * found["traps"]
    )
    assert found["tree_score"] == pytest.approx(expected)
    for player, figures in zip(PLAYERS, tree.players, strict=True):
        assert (found[player.win_column], found[player.dead_ends_column]) == (
            figures.win_probability,
            figures.dead_ends,
        )
    assert found["difficulty"] == 1 / found["lookahead4_win_probability"]  # the default reference
    assert found["tier"] == TIERS.tier_of(found["difficulty"]).value


@pytest.fixture(scope="module")
def cheap_grades() -> list[Grade]:
    """Full grades of the CHEAP deals, without tiers."""
    grades = []
    for seed, index in CHEAP:
        deal = seeded_deal(seed, index)
        [result] = solve_deals([deal])
        grades.append(grade_deal(deal, result, max_positions=CHEAP_BUDGET))
    return grades


def test_cheap_deals_are_graded_in_full(cheap_grades):
    for grade in cheap_grades:
        assert grade.grade_status is GradeStatus.EXACT and grade.solution_count > 0
        assert 0 < grade.random_win_probability <= 1 and 0 < grade.winnable_share <= 1
        assert 1 <= grade.winning_first_moves <= grade.first_moves <= 17
        assert grade.forced_moves + grade.decisions == 51
        assert grade.branching_winning_lines >= 1 and grade.branching_winnable >= 1
        assert grade.difficulty is None and grade.tier is None  # no tiers given
        assert grade.grade_seconds > 0


def test_a_difficulty_exactly_at_a_threshold_starts_the_tier(cheap_grades):
    grade = cheap_grades[0]
    score = grade.difficulty_by(TIERS.difficulty)
    assert score is not None and score > 3
    at = [
        Tiers(score, score + 1, score + 2),
        Tiers(score - 1, score, score + 2),
        Tiers(score - 2, score - 1, score),
        Tiers(math.nextafter(score, math.inf), score + 1, score + 2),
    ]
    assert [grade.tiered(tiers).tier for tiers in at] == [Tier.MEDIUM, Tier.HARD, Tier.EXPERT, Tier.EASY]
    assert grade.tiered(at[0]).difficulty == score


def test_a_small_budget_gives_out_of_budget_and_no_tier():
    deal = seeded_deal(*CHEAP[0])
    [result] = solve_deals([deal])
    grade = grade_deal(
        deal, dataclasses.replace(result, max_cards_played=None), max_positions=10, tiers=TIERS
    )
    assert grade == Grade(GradeStatus.OUT_OF_BUDGET, max_cards_played=51, grade_seconds=grade.grade_seconds)
    assert grade.log10_solutions is None and grade.winnable_share is None


def test_a_memory_budget_set_low_leaves_a_large_tree_out_of_budget():
    """Seed 1's deal 101 has 5.3 million winnable positions: the least budget's tables hold the index of a
    million slots alone, so its walk stops (in about 2 s) when the index would double."""
    deal = seeded_deal(1, 101)
    [result] = solve_deals([deal])
    low = GradeStage(GradeSettings(max_memory_mib=LEAST_MAX_MEMORY_MIB), TIERS)
    grade = low.apply(deal, result)
    assert grade.grade_status is GradeStatus.OUT_OF_BUDGET and grade.tier is None


def test_a_memory_budget_set_low_grades_a_smaller_tree_the_same_walking_again():
    """Seed 20261129's deal 4 has 138,388 winnable positions, more records than the least budget keeps: the
    walk forgets some and walks them again, and every figure is the same."""
    deal = seeded_deal(20261129, 4)
    [result] = solve_deals([deal])
    low, roomy = (
        dataclasses.replace(grade_deal(deal, result, max_memory_mib=budget, tiers=TIERS), grade_seconds=None)
        for budget in (LEAST_MAX_MEMORY_MIB, DEFAULT_MAX_MEMORY_MIB)
    )
    assert low.grade_status is GradeStatus.EXACT and low == roomy


def test_rows_keep_their_order_and_jobs_do_not_matter(solved, graded, tmp_path):
    reversed_pack = tmp_path / "reversed.parquet"
    source = pq.read_table(solved)
    write_pack_file(source.take(list(reversed(range(len(ROWS))))), reversed_pack)
    grade_pack(
        reversed_pack, tmp_path / "one.parquet", GradeSettings(max_positions=BUDGET), UNTIMED, tiers=TIERS
    )
    options = PassOptions(jobs=2, timings=False)
    grade_pack(
        reversed_pack, tmp_path / "two.parquet", GradeSettings(max_positions=BUDGET), options, tiers=TIERS
    )
    assert (tmp_path / "one.parquet").read_bytes() == (tmp_path / "two.parquet").read_bytes()
    regraded = pq.read_table(tmp_path / "one.parquet")
    assert regraded.to_pylist() == list(reversed(graded.to_pylist()))


def test_timings_are_the_walks_seconds(solved, tmp_path):
    grade_pack(solved, tmp_path / "timed.parquet", GradeSettings(max_positions=BUDGET), tiers=TIERS)
    seconds = pq.read_table(tmp_path / "timed.parquet").column("grade_seconds").to_pylist()
    walked = [value is not None for value in seconds]
    assert walked == [row not in (UNSOLVABLE_ROW, UNKNOWN_ROW) for row in range(len(ROWS))]


def test_a_checked_pack_keeps_its_columns_and_a_graded_one_is_regraded(solved, graded, tmp_path):
    checked = tmp_path / "checked.parquet"
    write_pack_file(checked_table(pq.read_table(solved), [None] * len(ROWS)), checked)
    grade_pack(checked, tmp_path / "a.parquet", GradeSettings(max_positions=BUDGET), UNTIMED, tiers=TIERS)
    from_checked = pq.read_table(tmp_path / "a.parquet")
    solved_columns = len(SOLVED_SCHEMA)
    assert from_checked.schema.names[solved_columns : solved_columns + len(CHECK_FIELDS)] == [
        field.name for field in CHECK_FIELDS
    ]
    assert from_checked.drop([field.name for field in CHECK_FIELDS]).equals(graded)
    regraded_path = tmp_path / "b.parquet"
    write_pack_file(graded, tmp_path / "graded.parquet")
    grade_pack(
        tmp_path / "graded.parquet", regraded_path, GradeSettings(max_positions=BUDGET), UNTIMED, tiers=TIERS
    )
    assert pq.read_table(regraded_path).equals(graded)


def test_a_solution_that_does_not_replay_stops_before_grading(solved, tmp_path):
    table = pq.read_table(solved)
    solutions = table.column("solution").to_pylist()
    row = EXACT_ROWS[0]
    solutions[row] = solutions[row][1:] + solutions[row][:1]
    index = table.column_names.index("solution")
    field = table.schema.field("solution")
    write_pack_file(table.set_column(index, field, pa.array(solutions, field.type)), tmp_path / "bad.parquet")
    with pytest.raises(PackError, match=rf"bad\.parquet\[{row}\]: deal [^:]+: the solution does not replay"):
        grade_pack(
            tmp_path / "bad.parquet",
            tmp_path / "out.parquet",
            GradeSettings(max_positions=BUDGET),
            tiers=TIERS,
        )
    assert not (tmp_path / "out.parquet").exists()


def test_the_summary_counts_statuses_and_tiers():
    grades = [
        Grade(GradeStatus.EXACT, solution_count=0, tier=Tier.UNSOLVABLE),
        Grade(GradeStatus.EXACT, solution_count=3, tier=Tier.HARD),
        Grade(GradeStatus.OUT_OF_BUDGET),
        Grade(GradeStatus.UNKNOWN),
    ]
    summary = summarize_grades(grades)
    assert summary.total == 4
    assert list(summary.statuses.values()) == [
        2,
        1,
        0,
        1,
        0,
    ]  # exact, out of budget, overflow, unknown, not sampled
    assert summary.tiers == {Tier.EASY: 0, Tier.MEDIUM: 0, Tier.HARD: 1, Tier.EXPERT: 0, Tier.UNSOLVABLE: 1}


# --- the command -------------------------------------------------------------------------------


def invoke(*args):
    return CliRunner().invoke(app, [str(arg) for arg in args])


def _tiers_file(folder: Path) -> Path:
    path = folder / "tiers.toml"
    path.write_text(TIERS.to_toml())
    return path


def test_the_grade_command_writes_the_pack_and_a_summary(solved, graded, tmp_path):
    out = tmp_path / "graded.parquet"
    args = ("--max-positions", BUDGET, "--tiers", _tiers_file(tmp_path), "--no-timings", "--jobs", 2)
    result = invoke("grade", solved, "--out", out, *args)
    assert result.exit_code == 0, result.output
    assert pq.read_table(out).equals(graded)
    assert f"wrote {len(ROWS)} grades to {out}" in result.stderr and "grading" in result.stderr
    lines = {" ".join(line.replace("│", " ").split()) for line in result.stdout.splitlines()}
    assert {
        f"deals {len(ROWS)}",
        "tier unsolvable 1",
        f"graded exactly {STATUSES.count('exact')}",
        f"out of budget (no tier) {STATUSES.count('out_of_budget')}",
    } <= lines
    quiet = invoke("grade", solved, "--out", out, *args, "--quiet")
    assert quiet.exit_code == 0 and quiet.stderr == ""


def test_the_command_defaults_are_the_modules():
    params = {param.name: param for param in typer.main.get_command(app).commands["grade"].params}
    assert params["max_positions"].default == DEFAULT_MAX_POSITIONS
    assert params["max_memory"].default == DEFAULT_MAX_MEMORY_MIB
    assert params["tiers"].default == DEFAULT_TIERS


def test_the_memory_budget_given_to_the_command_is_the_packs_metadata(solved, graded, tmp_path):
    out = tmp_path / "g.parquet"
    args = ("--max-positions", BUDGET, "--tiers", _tiers_file(tmp_path), "--no-timings", "-q")
    result = invoke("grade", solved, "--out", out, "--max-memory", 2048, *args)
    assert result.exit_code == 0, result.output
    found = metadata(pq.read_table(out))
    assert (found["grade_max_memory_mib"], found["grade_max_positions"]) == ("2048", str(BUDGET))
    assert pq.read_table(out).equals(graded)  # the same rows: every tree walked fits in either budget
    low = invoke("grade", solved, "--out", out, "--max-memory", LEAST_MAX_MEMORY_MIB - 1, *args)
    assert low.exit_code == 2 and f"greater than or equal to {LEAST_MAX_MEMORY_MIB}" in low.stderr


def test_the_default_tiers_ship_with_the_package():
    assert DEFAULT_TIERS == Path(resources.files("pipeline.stages").joinpath("tiers.toml"))
    assert load_tiers(DEFAULT_TIERS).medium > 0
    pyproject = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text(encoding="utf-8"))
    assert "tiers.toml" in pyproject["tool"]["setuptools"]["package-data"]["pipeline.stages"]


def test_the_command_grades_from_any_folder_with_the_packaged_tiers(solved, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no configs/ here
    result = invoke("grade", solved, "--out", "g.parquet", "--max-positions", BUDGET, "--no-timings")
    assert result.exit_code == 0, result.output
    assert metadata(pq.read_table(tmp_path / "g.parquet"))["tier_medium"] == repr(
        load_tiers(DEFAULT_TIERS).medium
    )


GRADE_ERRORS = {
    "missing-pack": (
        lambda d, s: [d / "none.parquet", "--tiers", _tiers_file(d)],
        r"none\.parquet: no such file",
    ),
    "deals-pack": (
        lambda d, s: [_deals_pack(d), "--tiers", _tiers_file(d)],
        r"deals\.parquet: missing column 'verdict'",
    ),
    "bad-tiers": (
        lambda d, s: [
            s,
            "--tiers",
            _write(d / "t.toml", TIERS.to_toml().replace("hard = 600", "hard = 100")),
        ],
        r"t\.toml:8: \[tiers\] hard must be above medium",
    ),
    "missing-tiers": (lambda d, s: [s, "--tiers", d / "none.toml"], r"none\.toml: no such file"),
}


def _write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def _deals_pack(folder: Path) -> Path:
    path = folder / "deals.parquet"
    write_pack_file(seeded_deals(seed=1, count=2), path)
    return path


@pytest.mark.parametrize("case", GRADE_ERRORS, ids=list(GRADE_ERRORS))
def test_bad_input_is_one_line_exit_1_and_nothing_written(solved, tmp_path, case):
    make_args, pattern = GRADE_ERRORS[case]
    args = make_args(tmp_path, solved)
    before = sorted(p.name for p in tmp_path.iterdir())
    result = invoke("grade", *args, "--out", tmp_path / "graded.parquet", "--max-positions", BUDGET)
    assert result.exit_code == 1, result.output
    assert result.stdout == ""
    [line] = result.stderr.splitlines()
    assert re.match(rf"error: .*{pattern}", line), line
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_a_target_without_a_folder_fails_before_any_work(solved, tmp_path):
    missing = tmp_path / "no" / "graded.parquet"
    with pytest.raises(DestinationError, match="cannot write, no directory"):
        grade_pack(solved, missing, GradeSettings(max_positions=BUDGET), tiers=TIERS)


def test_every_way_a_walk_ends_is_a_grade_status_of_its_name():
    from pipeline.engine.status import WALK_ENDS

    assert all(GradeStatus[status.name].value == status.name.lower() for status in WALK_ENDS)
