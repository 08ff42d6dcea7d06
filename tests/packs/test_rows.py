"""Every reader checks the rows it reads: allowed values, finite numbers, no contradictions, wins that replay.

First the checks themselves (:mod:`pipeline.packs.rows`), then bad rows
through the command line: each is one ``error:`` line naming the file and
the deal, exit 1, no traceback, nothing written, so a damaged file stops a
command before its rows reach a pack, an export or a report.
"""

from __future__ import annotations

import math
import zlib
from pathlib import Path

import pyarrow as pa
import pytest
from typer.testing import CliRunner

from pipeline import __version__
from pipeline.cli import app
from pipeline.game.deal import BoardError
from pipeline.game.shuffles import SEEDED_SCHEME
from pipeline.packs import folders
from pipeline.packs.folders import pack_folder_batches, read_pack_folder, write_pack_folder
from pipeline.packs.manifest import Origin
from pipeline.packs.parquet import (
    PackError,
    batches_of,
    check_rows,
    read_pack_file,
    read_pack_file_batches,
    write_pack_file,
)
from pipeline.packs.rows import row_problem
from pipeline.packs.schema import SOLVED_SCHEMA

# Rows of the pack of tests/conftest.py (seed 77): 0 is a win graded expert and not cross-checked,
# 1 a win CP-SAT agreed with, 4 a loss CP-SAT agreed with.
WIN, CHECKED_WIN, LOSS = 0, 1, 4


def changed(table: pa.Table, row: int, **values: object) -> pa.Table:
    """``table`` with the cells of ``row`` in the columns named set to ``values``."""
    for name, value in values.items():
        cells = table.column(name).to_pylist()
        cells[row] = value
        index = table.column_names.index(name)
        table = table.set_column(index, table.field(index), pa.array(cells, table.field(index).type))
    return table


def reversed_solution(table: pa.Table, row: int) -> pa.Table:
    return changed(table, row, solution=table.column("solution")[row].as_py()[::-1])


def test_the_rows_of_every_stage_pass(pack_rows):
    assert row_problem(pack_rows, source="p.parquet") is None
    assert row_problem(pack_rows.select(SOLVED_SCHEMA.names), source="p.parquet") is None
    check_rows(pack_rows, source="p.parquet")


@pytest.mark.parametrize(
    ("row", "values", "problem"),
    [
        (WIN, {"verdict": "banana"}, "verdict 'banana' is not one of solved, unsolvable, unknown"),
        (WIN, {"source": "elsewhere"}, "source 'elsewhere' is not one of seed, pysol, import"),
        (CHECKED_WIN, {"cpsat_verdict": "maybe"}, "cpsat_verdict 'maybe' is not one of solved, unsolvable"),
        (CHECKED_WIN, {"checked_by": "oracle"}, "checked_by 'oracle' is not one of cpsat, reference"),
        (WIN, {"grade_status": "done"}, "grade_status 'done' is not one of exact, out_of_budget, overflow"),
        (WIN, {"tier": "legendary"}, "tier 'legendary' is not one of easy, medium, hard, expert, unsolvable"),
        (WIN, {"verdict": None}, "verdict is null"),
        (WIN, {"grade_status": None}, "grade_status is null"),
        (WIN, {"difficulty": math.nan}, "difficulty is nan (not a finite number)"),
        (WIN, {"winnable_share": math.inf}, "winnable_share is inf (not a finite number)"),
        (LOSS, {"seconds": -math.inf}, "seconds is -inf (not a finite number)"),
        (WIN, {"solution": []}, "verdict 'solved' without a solution"),
        (
            WIN,
            {"verdict": "unsolvable", "tier": "unsolvable", "difficulty": None, "max_cards_played": 50},
            "verdict 'unsolvable' with a solution of 51 moves (a solution is empty unless solved)",
        ),
        (
            WIN,
            {"verdict": "unknown", "grade_status": "unknown", "tier": None, "difficulty": None},
            "verdict 'unknown' with a solution of 51 moves",
        ),
        (
            LOSS,
            {"max_cards_played": 51},
            "verdict 'unsolvable' with max_cards_played 51 (51 exactly when solved)",
        ),
        (WIN, {"max_cards_played": 50}, "verdict 'solved' with max_cards_played 50"),
        (LOSS, {"max_cards_played": 52}, "max_cards_played is 52, above 51"),
        (LOSS, {"max_cards_played": -1}, "max_cards_played is -1, below 0"),
        (WIN, {"nodes": -5}, "nodes is -5, below 0"),
        (WIN, {"solution_count": -2}, "solution_count is -2, below 0"),
        (WIN, {"winnable_share": 1.5}, "winnable_share is 1.5, above 1"),
        (WIN, {"first_moves": 18}, "first_moves is 18, above 17"),
        (LOSS, {"seconds": -0.5}, "seconds is -0.5, below 0"),
        (LOSS, {"tier": "easy"}, "tier 'easy' on a row whose verdict is 'unsolvable' (not solved)"),
        (
            WIN,
            {"tier": "unsolvable", "difficulty": None},
            "tier 'unsolvable' on a row whose verdict is 'solved'",
        ),
        (WIN, {"grade_status": "out_of_budget"}, "tier 'expert' with grade_status 'out_of_budget'"),
        (
            WIN,
            {"grade_status": "unknown", "tier": None, "difficulty": None},
            "grade_status 'unknown' on a row whose verdict is 'solved'",
        ),
        (
            LOSS,
            {"verdict": "unknown", "tier": None, "max_cards_played": None},
            "grade_status 'exact' on a row whose verdict is 'unknown'",
        ),
        (
            LOSS,
            {"grade_status": "not_sampled", "tier": None},
            "grade_status 'not_sampled' on a row whose verdict is 'unsolvable' (only wins are sampled)",
        ),
        (LOSS, {"difficulty": 5.0}, "difficulty 5.0 on a row unsolvable and graded exact"),
        (
            WIN,
            {"tier": None, "grade_status": "out_of_budget"},
            "on a row solved and graded out_of_budget (a difficulty needs a win graded exactly)",
        ),
        (CHECKED_WIN, {"cpsat_verdict": None}, "checked_by 'cpsat' without a cpsat_verdict"),
        (CHECKED_WIN, {"agree": None}, "checked_by 'cpsat' with agree None (both null or neither)"),
        (WIN, {"agree": True}, "checked_by None with agree True"),
    ],
)
def test_a_broken_row_is_named_by_file_row_and_deal(pack_rows, row, values, problem):
    broken = changed(pack_rows, row, **values)
    message = row_problem(broken, source="p.parquet")
    assert message is not None and message.startswith(f"p.parquet[{row}]: deal seed-77-{row}: "), message
    assert problem in message
    with pytest.raises(PackError) as caught:
        check_rows(broken, source="p.parquet")
    assert str(caught.value) == message


def test_a_solution_that_does_not_win_is_named_with_the_referee_s_words(pack_rows):
    message = row_problem(reversed_solution(pack_rows, 3), source="p.parquet")
    assert message is not None
    assert message.startswith("p.parquet[3]: deal seed-77-3: the solution does not replay (move 1: ")


def test_a_null_move_is_a_broken_row(pack_rows):
    moves = pack_rows.column("solution")[2].as_py()
    moves[7] = None
    message = row_problem(changed(pack_rows, 2, solution=moves), source="p.parquet")
    assert message == "p.parquet[2]: deal seed-77-2: the solution has a null move"


def test_a_bad_board_is_a_board_error_naming_the_row_and_deal(pack_rows):
    board = pack_rows.column("board")[3].as_py()
    first_pile = board.splitlines()[1]
    broken = changed(pack_rows, 3, board=board.replace(first_pile, first_pile[:-2] + "XX"))
    with pytest.raises(BoardError, match=r"^p\.parquet\[3\]: deal seed-77-3:2: unknown card 'XX'$"):
        row_problem(broken, source="p.parquet")


def test_a_board_in_another_spelling_is_read_all_the_same(pack_rows):
    lowered = changed(pack_rows, WIN, board=pack_rows.column("board")[WIN].as_py().lower().replace(" ", "  "))
    assert row_problem(lowered, source="p.parquet") is None
    assert row_problem(reversed_solution(lowered, WIN), source="p.parquet") is not None


def test_rows_are_numbered_in_the_file_from_start(pack_rows):
    message = row_problem(changed(pack_rows, 5, verdict="banana"), source="p.parquet", start=100)
    assert message is not None and message.startswith("p.parquet[105]: deal seed-77-5: ")


def test_a_broken_row_far_down_a_long_table_is_found_and_numbered(pack_rows):
    table = pa.concat_tables([pack_rows] * 1000)  # more rows than are checked at once
    row = 17_003
    message = row_problem(reversed_solution(table, row), source="p.parquet")
    assert message is not None and message.startswith(f"p.parquet[{row}]: deal seed-77-3: the solution")


def test_only_the_columns_a_table_has_are_checked(pack_rows):
    without_board = reversed_solution(pack_rows, WIN).drop_columns(["board"])
    assert row_problem(without_board, source="p.parquet") is None
    without_ids = changed(pack_rows, WIN, verdict="banana").drop_columns(["deal_id"])
    assert row_problem(without_ids, source="p.parquet") == (
        "p.parquet[0]: verdict 'banana' is not one of solved, unsolvable, unknown"
    )


def test_a_column_of_another_type_is_named(pack_rows):
    index = pack_rows.column_names.index("agree")
    table = pack_rows.set_column(index, "agree", pa.array([1] * pack_rows.num_rows, pa.int8()))
    assert row_problem(table, source="p.parquet") == "p.parquet: column 'agree' is int8, expected bool"


# --- the readers ------------------------------------------------------------------------------


def test_the_file_readers_check_rows_with_verdicts_and_read_what_the_checks_need(pack_rows, tmp_path):
    path = tmp_path / "w.parquet"
    write_pack_file(reversed_solution(pack_rows, 12).select(SOLVED_SCHEMA.names), path)
    with pytest.raises(PackError, match=r"w\.parquet\[12\]: deal seed-77-12: the solution does not replay"):
        read_pack_file(path, SOLVED_SCHEMA)
    with pytest.raises(PackError, match=r"w\.parquet\[12\]: deal seed-77-12: the solution does not replay"):
        list(read_pack_file_batches(path, SOLVED_SCHEMA, batch_rows=5, columns=["index"]))
    batches = list(read_pack_file_batches(path, pa.schema([]), batch_rows=5, columns=["index"]))  # unchecked
    assert [batch.column_names for batch in batches] == [["index"]] * 4


def test_a_checked_read_hands_back_only_the_columns_asked_for(pack_rows, tmp_path):
    path = tmp_path / "w.parquet"
    write_pack_file(pack_rows.select(SOLVED_SCHEMA.names), path)
    batches = list(read_pack_file_batches(path, SOLVED_SCHEMA, batch_rows=8, columns=["nodes", "index"]))
    assert [batch.column_names for batch in batches] == [["nodes", "index"]] * 3
    assert pa.concat_tables(batches).equals(pack_rows.select(["nodes", "index"]))


def pack_folder(path: Path, rows: pa.Table) -> Path:
    write_pack_folder(
        path, [rows], origin=Origin(path.name, "pack", __version__, SEEDED_SCHEME), provenance={}
    )
    return path


def test_the_folder_readers_check_rows_and_hand_back_the_columns_asked_for(pack_rows, tmp_path):
    folder = pack_folder(tmp_path / "packs" / "p", reversed_solution(pack_rows, WIN))
    expected = rf"{folder}/tier=expert/part-0\.parquet\[0\]: deal seed-77-0: the solution does not replay"
    with pytest.raises(PackError, match=expected):
        read_pack_folder(folder, columns=["index"])
    with pytest.raises(PackError, match=expected):
        list(pack_folder_batches(folder, columns=["index"]))
    sound = pack_folder(tmp_path / "packs" / "q", pack_rows)
    assert read_pack_folder(sound, columns=["index"]).column_names == ["index", "tier"]
    assert {tuple(batch.column_names) for batch in pack_folder_batches(sound, columns=["difficulty"])} == {
        ("difficulty", "tier")
    }


def test_a_file_replayed_whole_is_not_read_for_its_solutions_again(pack_rows, tmp_path, monkeypatch):
    """Report reads a pack twice: the second read of the same bytes checks all but the replay."""
    salt = zlib.crc32(str(tmp_path).encode())  # every file's bytes unlike those any other test reads
    nodes = pa.array([count + salt for count in pack_rows.column("nodes").to_pylist()], pa.int64())
    unique = pack_rows.set_column(pack_rows.column_names.index("nodes"), pack_rows.field("nodes"), nodes)
    folder = pack_folder(tmp_path / "packs" / "p", unique)
    read: list[list[str] | None] = []

    def recording(parquet, *, batch_rows, columns=None):
        read.append(columns)
        return batches_of(parquet, batch_rows=batch_rows, columns=columns)

    monkeypatch.setattr(folders, "batches_of", recording)
    list(pack_folder_batches(folder, columns=["index"]))
    first = read[:]
    read.clear()
    assert [batch.column_names for batch in pack_folder_batches(folder, columns=["index"])] == [
        ["index", "tier"]
    ] * len(first)
    assert all({"board", "solution"} <= set(columns or ()) for columns in first)
    assert read and not any({"board", "solution"} & set(columns or ()) for columns in read)
    assert read_pack_folder(folder, columns=["verdict"]).num_rows == pack_rows.num_rows


def test_a_folder_s_tier_is_checked_against_the_rows(pack_rows, tmp_path):
    """The tier comes from the folder: a loss filed under a solvable tier is refused."""
    folder = pack_folder(tmp_path / "packs" / "p", changed(pack_rows, LOSS, tier="easy"))
    with pytest.raises(PackError, match=r"tier=easy/part-0\.parquet\[\d+\]: deal seed-77-4: tier 'easy'"):
        read_pack_folder(folder)


# --- bad rows through the command line: one error line, exit 1, nothing written -------------


def fails(*args: object) -> str:
    """Run ``blackhole ARGS``; it must fail with one error line and exit 1, no traceback. The line."""
    result = CliRunner().invoke(app, [str(arg) for arg in args])
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit) and "Traceback" not in result.output
    [line] = result.stderr.splitlines()
    assert line.startswith("error: "), line
    return line


@pytest.fixture
def solved_pack(pack_rows, tmp_path):
    """A solved pack (S/w.parquet) of the conftest rows, and a function that writes it with some rows changed."""
    path = tmp_path / "S" / "w.parquet"
    path.parent.mkdir()
    solved = pack_rows.select(SOLVED_SCHEMA.names)

    def write(table: pa.Table = solved) -> Path:
        write_pack_file(table, path)
        return path

    return solved, write


@pytest.mark.parametrize("command", ["crosscheck", "grade"])
def test_a_reversed_solution_stops_crosscheck_and_grade(solved_pack, command):
    solved, write = solved_pack
    path = write(reversed_solution(solved, WIN))
    out = path.parent / "c.parquet"
    line = fails(command, path, "--out", out, "--sample", "1", "--quiet")
    assert f"{path}[0]: deal seed-77-0: the solution does not replay (move 1: " in line
    assert sorted(p.name for p in path.parent.iterdir()) == ["w.parquet"]


@pytest.mark.parametrize("command", ["crosscheck", "grade"])
def test_a_verdict_of_banana_stops_crosscheck_and_grade(solved_pack, command):
    solved, write = solved_pack
    path = write(changed(solved, WIN, verdict="banana"))
    line = fails(command, path, "--out", path.parent / "c.parquet", "--quiet")
    assert line == (
        f"error: {path}[0]: deal seed-77-0: verdict 'banana' is not one of solved, unsolvable, unknown"
    )
    assert not (path.parent / "c.parquet").exists()


def test_a_loss_turned_into_a_win_without_a_solution_stops_crosscheck_at_the_default_sample(solved_pack):
    solved, write = solved_pack
    path = write(changed(solved, LOSS, verdict="solved"))
    line = fails("crosscheck", path, "--out", path.parent / "c.parquet", "--quiet")
    assert line == f"error: {path}[4]: deal seed-77-4: verdict 'solved' without a solution"
    assert not (path.parent / "c.parquet").exists()


def test_a_win_turned_into_a_loss_that_keeps_its_solution_is_not_graded(solved_pack):
    solved, write = solved_pack
    path = write(changed(solved, WIN, verdict="unsolvable"))
    line = fails("grade", path, "--out", path.parent / "g.parquet", "--quiet")
    assert line == (
        f"error: {path}[0]: deal seed-77-0: verdict 'unsolvable' with a solution of 51 moves "
        "(a solution is empty unless solved)"
    )
    assert not (path.parent / "g.parquet").exists()


@pytest.mark.parametrize(
    "command",
    [
        ["export", "--format", "json", "--out", "{out}/deals.json"],
        ["export", "--format", "csv", "--out", "{out}/deals.csv"],
        ["export", "--format", "boards", "--out", "{out}/deals.txt"],
        ["curate", "--out", "best"],
        ["report", "--charts", "{out}/charts"],
    ],
)
def test_a_reversed_solution_stops_export_curate_and_report(pack_rows, tmp_path, command):
    folder = pack_folder(tmp_path / "packs" / "p", reversed_solution(pack_rows, WIN))
    out = tmp_path / "out"
    out.mkdir()
    name, *options = (part.format(out=out) for part in command)
    line = fails(name, folder, *options)
    assert f"{folder}/tier=expert/part-0.parquet[0]: deal seed-77-0: the solution does not replay" in line
    assert sorted(path.name for path in (tmp_path / "packs").iterdir()) == ["p"]
    assert not list(out.rglob("*.*"))
