"""Pack tables: schemas, ids, metadata, atomic writes and checked reads."""

import hashlib
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from pipeline import __version__
from pipeline.files import DestinationError
from pipeline.game.deal import BoardError, Deal
from pipeline.game.shuffles import PYSOL_SCHEME, SEEDED_SCHEME, pysol_deal, seeded_deal
from pipeline.game.verdicts import SolveResult, Verdict
from pipeline.packs.parquet import (
    PackError,
    deals_of,
    metadata,
    pack_file_row_count,
    read_pack_file,
    read_pack_file_batches,
    write_pack_file,
    writing_pack_file,
)
from pipeline.packs.schema import DEALS_SCHEMA, SOLVED_SCHEMA
from pipeline.packs.sources import imported_deals, pysol_deals, seeded_deals
from pipeline.stages.settings import SolveSettings
from pipeline.stages.solve import solved_table

SOLVED = SolveResult(Verdict.SOLVED, tuple(range(17)) * 3, 120, 0.5, 51)
UNSOLVABLE = SolveResult(Verdict.UNSOLVABLE, (), 40, 0.25, 9)


def test_seeded_deals_ids_boards_and_metadata():
    table = seeded_deals(seed=42, count=3, start=5)
    assert table.schema.equals(DEALS_SCHEMA)
    assert table.column("deal_id").to_pylist() == ["seed-42-5", "seed-42-6", "seed-42-7"]
    assert table.column("source").to_pylist() == ["seed"] * 3
    assert table.column("seed").to_pylist() == [42] * 3
    assert table.column("index").to_pylist() == [5, 6, 7]
    assert table.column("board").to_pylist() == [seeded_deal(42, i).to_board_text() for i in (5, 6, 7)]
    assert metadata(table) == {"blackhole_version": __version__, "dealing_scheme": SEEDED_SCHEME}


def test_largest_seed_fits_the_uint64_column():
    table = seeded_deals(seed=2**64 - 1, count=1)
    assert table.column("seed").to_pylist() == [2**64 - 1]


def test_pysol_deals_ids_boards_and_metadata():
    table = pysol_deals(first=10, count=2)
    assert table.schema.equals(DEALS_SCHEMA)
    assert table.column("deal_id").to_pylist() == ["pysol-10", "pysol-11"]
    assert table.column("seed").to_pylist() == [None, None]
    assert table.column("index").to_pylist() == [10, 11]
    assert table.column("board").to_pylist() == [pysol_deal(n).to_board_text() for n in (10, 11)]
    assert metadata(table)["dealing_scheme"] == PYSOL_SCHEME


def _spelled_oddly(board: str) -> str:
    """The same deal in lower case, with 10 for T and a trailing blank."""
    header, *piles = board.splitlines()
    return "\n".join([header] + [pile.lower().replace("t", "10") + "  " for pile in piles]) + "\n"


def test_imported_ids_hash_the_canonical_board(tmp_path):
    boards = [seeded_deal(1, i).to_board_text() for i in range(3)]
    path = tmp_path / "boards.txt"
    path.write_text(boards[0] + "\n" + _spelled_oddly(boards[1]) + "\n\n" + boards[2])
    table = imported_deals(path)
    assert table.schema.equals(DEALS_SCHEMA)
    expected = [f"import-{hashlib.sha256(b.encode()).hexdigest()[:16]}" for b in boards]
    assert table.column("deal_id").to_pylist() == expected
    assert table.column("board").to_pylist() == boards
    assert table.column("index").to_pylist() == [0, 1, 2]
    assert table.column("seed").to_pylist() == [None] * 3
    assert metadata(table)["dealing_scheme"] == "import"


def test_imported_repeat_names_both_lines(tmp_path):
    board = seeded_deal(1, 0).to_board_text()
    other = seeded_deal(1, 1).to_board_text()
    path = tmp_path / "boards.txt"
    path.write_text(board + "\n" + other + "\n" + _spelled_oddly(board))
    with pytest.raises(BoardError) as caught:
        imported_deals(path)
    assert str(caught.value) == f"{path}:39: this board repeats the board on line 1"


def test_round_trip_keeps_schema_metadata_and_uses_zstd(tmp_path):
    table = seeded_deals(seed=9, count=4)
    path = tmp_path / "deals.parquet"
    write_pack_file(table, path)
    back = read_pack_file(path)
    assert back.equals(table)
    assert back.schema.equals(table.schema, check_metadata=True)
    meta = pq.ParquetFile(path).metadata
    codecs = {meta.row_group(g).column(c).compression for g in range(meta.num_row_groups) for c in range(5)}
    assert codecs == {"ZSTD"}
    assert deals_of(back, source=str(path)) == [seeded_deal(9, i) for i in range(4)]


def test_solved_table_adds_typed_result_columns():
    deals = seeded_deals(seed=3, count=2)
    solved = solved_table(deals, [SOLVED, UNSOLVABLE], SolveSettings(max_nodes=1000))
    assert solved.schema.equals(SOLVED_SCHEMA)
    assert solved.column("verdict").to_pylist() == ["solved", "unsolvable"]
    assert solved.column("solution").to_pylist() == [list(SOLVED.solution), []]
    assert solved.column("nodes").to_pylist() == [120, 40]
    assert solved.column("seconds").to_pylist() == [0.5, 0.25]
    assert solved.column("max_cards_played").to_pylist() == [51, 9]
    assert metadata(solved) == {
        "blackhole_version": __version__,
        "dealing_scheme": SEEDED_SCHEME,
        "max_nodes": "1000",
    }


def test_solved_table_without_timings_and_resolving_replaces_results():
    deals = seeded_deals(seed=3, count=2)
    once = solved_table(deals, [SOLVED, UNSOLVABLE], SolveSettings(max_nodes=1000), timings=False)
    assert once.column("seconds").to_pylist() == [None, None]
    again = solved_table(once, [UNSOLVABLE, SOLVED], SolveSettings(max_nodes=5000))
    assert again.schema.equals(SOLVED_SCHEMA)
    assert again.column("verdict").to_pylist() == ["unsolvable", "solved"]
    assert metadata(again)["max_nodes"] == "5000" and "longest_play" not in metadata(again)
    verdicts_only = solved_table(
        again, [SOLVED, UNSOLVABLE], SolveSettings(max_nodes=5000, longest_play=False)
    )
    assert metadata(verdicts_only)["longest_play"] == "false"
    assert "longest_play" not in metadata(
        solved_table(verdicts_only, [SOLVED, UNSOLVABLE], SolveSettings(max_nodes=5000))
    )
    with pytest.raises(ValueError, match="1 results for 2 deals"):
        solved_table(deals, [SOLVED], SolveSettings(max_nodes=1000))


def test_failed_write_leaves_the_old_file_and_no_temporary(tmp_path):
    path = tmp_path / "deals.parquet"
    write_pack_file(seeded_deals(seed=1, count=1), path)
    before = path.read_bytes()
    unwritable = pa.table({"when": pa.array([(1, 2, 3)], pa.month_day_nano_interval())})
    with pytest.raises(pa.ArrowNotImplementedError):
        write_pack_file(unwritable, path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["deals.parquet"]


def test_write_into_a_missing_folder_is_a_destination_error(tmp_path):
    with pytest.raises(DestinationError, match="no directory"):
        write_pack_file(seeded_deals(seed=1, count=1), tmp_path / "nowhere" / "deals.parquet")
    assert list(tmp_path.iterdir()) == []


def _parquet(tmp_path: Path, table: pa.Table) -> Path:
    path = tmp_path / "pack.parquet"
    pq.write_table(table, path)
    return path


def _null_board() -> pa.Table:
    table = seeded_deals(seed=1, count=2)
    schema = table.schema.set(4, pa.field("board", pa.string()))
    return pa.Table.from_arrays([*table.columns[:4], pa.array([None, "x"])], schema=schema)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda d: None, "no such file"),
        (lambda d: (d / "pack.parquet").write_text("deal_id,board\n"), "not a readable Parquet file"),
        (lambda d: (d / "pack.parquet").mkdir(), "is a directory"),
        (lambda d: _parquet(d, seeded_deals(seed=1, count=2).drop(["board"])), "missing column 'board'"),
        (
            lambda d: _parquet(d, seeded_deals(seed=1, count=2).set_column(3, "index", pa.array(["0", "1"]))),
            "column 'index' is string, expected int64",
        ),
        (lambda d: _parquet(d, _null_board()), "column 'board' has 1 null values"),
    ],
    ids=["missing", "csv", "directory", "no-board", "index-type", "null-board"],
)
def test_read_pack_errors_name_the_file(tmp_path, make, message):
    make(tmp_path)
    path = tmp_path / "pack.parquet"
    with pytest.raises(PackError) as caught:
        read_pack_file(path)
    assert str(caught.value).startswith(f"{path}: ")
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_bad_board_in_a_pack_names_file_and_row(tmp_path):
    table = seeded_deals(seed=1, count=3)
    broken = table.column("board").to_pylist()
    broken[2] = broken[2].replace("Foundations: AS", "Foundations: KS")
    table = table.set_column(4, DEALS_SCHEMA.field("board"), pa.array(broken))
    with pytest.raises(BoardError, match=r"^deals\.parquet\[2\]:1: foundation is KS"):
        deals_of(table, source="deals.parquet")


def test_duckdb_reads_a_pack_in_row_order(tmp_path):
    duckdb = pytest.importorskip("duckdb")
    path = tmp_path / "solved.parquet"
    write_pack_file(
        solved_table(seeded_deals(seed=5, count=2), [UNSOLVABLE, SOLVED], SolveSettings(max_nodes=10)), path
    )
    rows = duckdb.sql(f"select deal_id, verdict, len(solution) from '{path}'").fetchall()
    assert rows == [("seed-5-0", "unsolvable", 0), ("seed-5-1", "solved", 51)]


def test_every_board_round_trips_through_a_pack(tmp_path):
    deals = [Deal.from_board_text(b) for b in pysol_deals(first=1, count=3).column("board").to_pylist()]
    path = tmp_path / "p.parquet"
    write_pack_file(pysol_deals(first=1, count=3), path)
    assert deals_of(read_pack_file(path), source="p") == deals == [pysol_deal(n) for n in (1, 2, 3)]


def test_streamed_writes_and_reads_give_the_rows_back_a_row_group_at_a_time(tmp_path):
    table = seeded_deals(seed=7, count=25)
    with writing_pack_file(tmp_path / "deals.parquet") as write:
        for start in range(0, 25, 10):
            write(table.slice(start, 10))  # row groups of 10, 10 and 5
    assert [group.num_rows for group in _row_groups(tmp_path / "deals.parquet")] == [10, 10, 5]
    batches = list(read_pack_file_batches(tmp_path / "deals.parquet", batch_rows=7))
    assert [batch.num_rows for batch in batches] == [7, 3, 7, 3, 5]  # never across a row group
    assert pa.concat_tables(batches).equals(table)
    assert batches[0].schema.metadata == table.schema.metadata
    assert pack_file_row_count(tmp_path / "deals.parquet") == 25


def test_a_streamed_write_that_fails_or_writes_nothing_leaves_no_file(tmp_path):
    with writing_pack_file(tmp_path / "none.parquet"):
        pass
    with pytest.raises(KeyError), writing_pack_file(tmp_path / "failed.parquet") as write:
        write(seeded_deals(seed=7, count=3))
        raise KeyError("late")
    assert list(tmp_path.iterdir()) == []


def test_a_streamed_read_checks_columns_first_and_nulls_batch_by_batch(tmp_path):
    table = seeded_deals(seed=7, count=12)
    board = table.column("board").to_pylist()
    broken = table.set_column(
        table.column_names.index("board"), "board", pa.array(board[:9] + [None] + board[10:], pa.string())
    )
    write_pack_file(broken, tmp_path / "nulls.parquet")
    batches = read_pack_file_batches(tmp_path / "nulls.parquet", batch_rows=5)
    assert next(batches).num_rows == 5  # the first batch has no null: it comes before the error
    with pytest.raises(PackError, match="column 'board' has 1 null values"):
        next(batches)
    write_pack_file(table.drop_columns(["board"]), tmp_path / "short.parquet")
    with pytest.raises(PackError, match="missing column 'board'"):
        next(read_pack_file_batches(tmp_path / "short.parquet"))


def _row_groups(path):
    parquet = pq.ParquetFile(path)
    return [parquet.metadata.row_group(group) for group in range(parquet.num_row_groups)]
