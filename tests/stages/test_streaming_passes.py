"""solve, crosscheck and grade stream: batches of rows in, row groups out, the same rows whatever the batch size.

Each pass runs over COUNT deals in batches of BATCH rows, which must give the
rows, types and schema metadata of one big batch, name a bad row by its row in
the file, and print the same summary as the rows it wrote.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.errors import ExitCode
from pipeline.game.deal import BoardError
from pipeline.packs.parquet import PackError, write_pack_file
from pipeline.packs.schema import SOLVED_SCHEMA
from pipeline.packs.sources import seeded_deals
from pipeline.stages import crosscheck, grade, pack_pass, solve
from pipeline.stages.settings import CrosscheckSettings, GradeSettings, PassOptions, SolveSettings
from pipeline.stages.tiers import Tiers

SEED = 2026
COUNT = 23
BATCH = 7
BATCHES = [7, 7, 7, 2]  # COUNT rows in batches of BATCH
MAX_NODES = 20_000  # the 23 deals: 20 solved, 3 unsolvable (rows 0, 5 and 19)
SAMPLE = 0.2  # with seed 0, checks the 3 unsolvable rows and solved row 2
MAX_POSITIONS = 20_000  # 4 rows graded exactly (the 3 unsolvable and one win), 19 out of budget
TIERS = Tiers(medium=8.0, hard=9.0, expert=10.0)
TIERS_FILE = Path(__file__).resolve().parents[2] / "pipeline" / "stages" / "tiers.toml"


def run_solve(source: Path, target: Path, **options: Any) -> Any:
    return solve.solve_pack(
        source, target, SolveSettings(max_nodes=MAX_NODES), PassOptions(timings=False, **options)
    )


def run_crosscheck(source: Path, target: Path, **options: Any) -> Any:
    settings = CrosscheckSettings(sample=SAMPLE)
    return crosscheck.crosscheck_pack(source, target, settings, PassOptions(timings=False, **options))


def run_grade(source: Path, target: Path, **options: Any) -> Any:
    settings = GradeSettings(max_positions=MAX_POSITIONS)
    return grade.grade_pack(source, target, settings, PassOptions(timings=False, **options), tiers=TIERS)


# Each pass: how to run it, and the fixture holding its input.
PASSES: dict[str, tuple[Callable[..., Any], str]] = {
    "solve": (run_solve, "deals"),
    "crosscheck": (run_crosscheck, "solved"),
    "grade": (run_grade, "solved"),
}


@pytest.fixture(scope="module")
def deals(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("streaming") / "deals.parquet"
    write_pack_file(seeded_deals(seed=SEED, count=COUNT), path)
    return path


@pytest.fixture(scope="module")
def solved(deals) -> Path:
    path = deals.with_name("solved.parquet")
    run_solve(deals, path)
    return path


def row_groups(path: Path) -> list[int]:
    """The number of rows in each row group of the Parquet file at ``path``."""
    found = pq.ParquetFile(path).metadata
    return [found.row_group(group).num_rows for group in range(found.num_row_groups)]


def recording_batches(monkeypatch) -> list[int]:
    """The number of rows of each batch that a stage's pass maps on the pool, as the pass runs."""
    seen: list[int] = []
    mapped = pack_pass.map_rows

    def map_rows(batch: pack_pass.PackBatch, *arguments: Any, **options: Any) -> Any:
        seen.append(batch.table.num_rows)
        return mapped(batch, *arguments, **options)

    monkeypatch.setattr(pack_pass, "map_rows", map_rows)
    return seen


@pytest.fixture
def small_batches(monkeypatch) -> None:
    """Every pass reads its source BATCH rows at a time, whatever batch size it asks for."""
    read = pack_pass.read_pack_file_batches

    def read_pack_file_batches(path: Path, schema: pa.Schema, *, batch_rows: int) -> Any:
        return read(path, schema, batch_rows=BATCH)

    monkeypatch.setattr(pack_pass, "read_pack_file_batches", read_pack_file_batches)


@pytest.mark.parametrize("stage", PASSES)
def test_a_pass_maps_small_batches_and_writes_the_rows_of_one_big_batch(
    request, tmp_path, monkeypatch, stage
):
    run, source_fixture = PASSES[stage]
    source = request.getfixturevalue(source_fixture)
    whole, batched = tmp_path / "whole.parquet", tmp_path / "batched.parquet"
    in_one = run(source, whole)
    seen = recording_batches(monkeypatch)
    in_batches = run(source, batched, batch_rows=BATCH)
    assert seen == BATCHES
    assert row_groups(batched) == BATCHES and row_groups(whole) == [COUNT]
    assert pq.read_table(batched).equals(pq.read_table(whole), check_metadata=True)
    assert pq.read_schema(batched).equals(pq.read_schema(whole), check_metadata=True)
    if stage == "solve":  # a tally holds arrays of seconds: compare what it says
        assert in_batches.counts == in_one.counts and in_batches.total == COUNT
    else:
        assert in_batches == in_one


@pytest.mark.parametrize("stage", PASSES)
def test_the_default_batch_gives_the_same_bytes_for_one_or_two_jobs(request, tmp_path, stage):
    run, source_fixture = PASSES[stage]
    source = request.getfixturevalue(source_fixture)
    run(source, tmp_path / "one.parquet", jobs=1)
    run(source, tmp_path / "two.parquet", jobs=2)
    assert (tmp_path / "one.parquet").read_bytes() == (tmp_path / "two.parquet").read_bytes()


def test_the_tally_of_batches_is_the_summary_of_every_result(deals, tmp_path):
    tally = run_solve(deals, tmp_path / "solved.parquet", batch_rows=BATCH)
    summary = tally.summary()
    verdicts = pq.read_table(tmp_path / "solved.parquet").column("verdict").to_pylist()
    assert {verdict.value: count for verdict, count in summary.counts.items()} == {
        verdict: verdicts.count(verdict) for verdict in ("solved", "unsolvable", "unknown")
    }
    seconds = sorted(second for batch in tally.seconds for second in batch)
    assert len(seconds) == COUNT and summary.max_seconds == seconds[-1]
    assert summary.median_seconds == seconds[COUNT // 2]
    assert solve.SolveTally().summary().median_seconds == 0.0


def _with_column(path: Path, name: str, values: list[Any], target: Path) -> Path:
    table = pq.read_table(path)
    field = table.schema.field(name)
    write_pack_file(
        table.set_column(table.column_names.index(name), field, pa.array(values, field.type)), target
    )
    return target


def test_a_bad_board_in_a_later_batch_is_named_by_its_row_in_the_file(deals, tmp_path):
    boards = pq.read_table(deals).column("board").to_pylist()
    row = 10  # row 3 of the second batch
    lines = boards[row].splitlines()
    lines[2] = lines[2].replace(lines[2].split()[0], "XX", 1)
    boards[row] = "\n".join(lines) + "\n"
    bad = _with_column(deals, "board", boards, tmp_path / "bad.parquet")
    with pytest.raises(BoardError, match=rf"bad\.parquet\[{row}\]:3: unknown card 'XX'"):
        run_solve(bad, tmp_path / "out.parquet", batch_rows=BATCH)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["bad.parquet"]


def test_a_solution_that_does_not_replay_in_a_later_batch_is_named_by_its_row(solved, tmp_path):
    table = pq.read_table(solved)
    row = table.column("verdict").to_pylist().index("solved", 2 * BATCH)  # in the third batch
    solutions = table.column("solution").to_pylist()
    solutions[row] = solutions[row][1:] + solutions[row][:1]
    bad = _with_column(solved, "solution", solutions, tmp_path / "bad.parquet")
    with pytest.raises(PackError, match=rf"bad\.parquet\[{row}\]: deal [^:]+: the solution does not replay"):
        run_grade(bad, tmp_path / "out.parquet", batch_rows=BATCH)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["bad.parquet"]


def test_an_empty_pack_gives_an_empty_pack_with_every_pass_s_schema(deals, solved, tmp_path):
    empty = tmp_path / "deals.parquet"
    write_pack_file(pq.read_table(deals).slice(0, 0), empty)
    run_solve(empty, tmp_path / "solved.parquet", batch_rows=BATCH)
    run_crosscheck(tmp_path / "solved.parquet", tmp_path / "checked.parquet", batch_rows=BATCH)
    run_grade(tmp_path / "solved.parquet", tmp_path / "graded.parquet", batch_rows=BATCH)
    run_crosscheck(solved, tmp_path / "full-checked.parquet")
    run_grade(solved, tmp_path / "full-graded.parquet")
    for name, full in [
        ("solved", solved),
        ("checked", tmp_path / "full-checked.parquet"),
        ("graded", tmp_path / "full-graded.parquet"),
    ]:
        written = tmp_path / f"{name}.parquet"
        assert pq.read_table(written).num_rows == 0, name
        assert pq.read_schema(written).equals(pq.read_schema(full), check_metadata=True), name
    assert pq.read_schema(tmp_path / "solved.parquet").equals(SOLVED_SCHEMA)


# --- the summaries the commands print, over several batches ------------------------------------


def invoke(*args: object):
    return CliRunner().invoke(app, [str(arg) for arg in args])


def test_solve_prints_the_counts_of_the_rows_it_wrote(deals, tmp_path, small_batches):
    out = tmp_path / "solved.parquet"
    result = invoke("solve", deals, "--out", out, "--max-nodes", MAX_NODES, "--no-timings")
    assert result.exit_code == 0, result.output
    assert row_groups(out) == BATCHES
    verdicts = pq.read_table(out).column("verdict").to_pylist()
    assert f"wrote {COUNT} results to {out}" in result.stderr
    for verdict in ("solved", "unsolvable", "unknown"):
        count = verdicts.count(verdict)
        assert re.search(rf"{verdict} +│ +{count} \({count / COUNT:.2%}\)", result.stdout), verdict


def test_grade_prints_the_counts_of_the_rows_it_wrote(solved, tmp_path, small_batches):
    out = tmp_path / "graded.parquet"
    result = invoke(
        "grade", solved, "--out", out, "--tiers", TIERS_FILE, "--max-positions", MAX_POSITIONS, "-q"
    )
    assert result.exit_code == 0, result.output
    assert row_groups(out) == BATCHES
    table = pq.read_table(out)
    tiers, statuses = table.column("tier").to_pylist(), table.column("grade_status").to_pylist()
    assert re.search(rf"deals +│ +{COUNT} ", result.stdout)
    assert re.search(rf"tier unsolvable +│ +{tiers.count('unsolvable')} ", result.stdout)
    assert re.search(rf"graded exactly +│ +{statuses.count('exact')} ", result.stdout)
    assert re.search(rf"out of budget \(no tier\) +│ +{statuses.count('out_of_budget')} ", result.stdout)


def test_crosscheck_counts_and_names_a_disagreement_in_a_later_batch(solved, tmp_path, small_batches):
    verdicts = pq.read_table(solved).column("verdict").to_pylist()
    row = verdicts.index("solved", 2 * BATCH)  # in the third batch
    verdicts[row] = "unsolvable"  # planted: every unsolvable row is checked
    planted = _with_column(solved, "verdict", verdicts, tmp_path / "planted.parquet")
    for name in ("solution", "max_cards_played"):  # a loss has no solution, nor 51 cards played
        values = pq.read_table(planted).column(name).to_pylist()
        values[row] = [] if name == "solution" else None
        _with_column(planted, name, values, planted)
    out = tmp_path / "checked.parquet"
    result = invoke("crosscheck", planted, "--out", out, "--sample", SAMPLE)
    assert result.exit_code == ExitCode.DISAGREEMENT, result.output
    assert row_groups(out) == BATCHES
    table = pq.read_table(out)
    checked = COUNT - table.column("cpsat_verdict").null_count
    decided = COUNT - table.column("checked_by").null_count
    assert f"{checked} deals checked, {decided} decided, 1 disagreement" in result.stderr
    assert f"seed-{SEED}-{row} (row {row}): the pack says unsolvable, cpsat says solved" in result.stdout
    assert table.column("agree").to_pylist().count(False) == 1
