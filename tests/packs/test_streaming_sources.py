"""generate and import, batch by batch: the rows of one big batch, row groups of a small one, nothing left on error."""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq
import pytest

from pipeline.game.deal import BoardError, read_boards
from pipeline.game.shuffles import seeded_deal
from pipeline.packs.sources import imported_batches, imported_deals, pysol_deals, seeded_deals, write_deals

BOARDS = [seeded_deal(5, index).to_board_text() for index in range(12)]


def row_groups(path: Path) -> list[int]:
    """The row count of each row group of the Parquet file at ``path``."""
    meta = pq.ParquetFile(path).metadata
    return [meta.row_group(group).num_rows for group in range(meta.num_row_groups)]


def written_files(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.iterdir())


def boards_file(folder: Path, boards: list[str], name: str = "boards.txt") -> Path:
    path = folder / name
    path.write_text("\n".join(boards), encoding="utf-8")
    return path


def with_bad_card(board: str) -> str:
    """``board`` with the first card of its third pile (its fourth line) replaced by ZZ."""
    lines = board.splitlines()
    lines[3] = "ZZ " + lines[3].split(" ", 1)[1]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    ("options", "whole"),
    [
        ({"seed": 9, "start": 3, "count": 23}, seeded_deals(seed=9, start=3, count=23)),
        ({"first": 40, "count": 23}, pysol_deals(first=40, count=23)),
    ],
    ids=["seeded", "pysol"],
)
def test_generate_writes_batches_of_the_rows_of_one_table(tmp_path, options, whole):
    write_deals(tmp_path / "small.parquet", batch_rows=5, **options)
    write_deals(tmp_path / "big.parquet", **options)
    assert row_groups(tmp_path / "small.parquet") == [5, 5, 5, 5, 3]
    for name in ("small.parquet", "big.parquet"):
        table = pq.read_table(tmp_path / name)
        assert table.equals(whole)
        assert table.schema.equals(whole.schema, check_metadata=True)


def test_generate_of_no_deals_still_writes_an_empty_pack(tmp_path):
    assert write_deals(tmp_path / "none.parquet", seed=1, count=0, batch_rows=5) == 0
    table = pq.read_table(tmp_path / "none.parquet")
    assert table.num_rows == 0
    assert table.schema.equals(seeded_deals(seed=1, count=0).schema, check_metadata=True)


def test_a_pysol_number_out_of_range_in_a_late_batch_leaves_nothing(tmp_path):
    from pipeline.game.shuffles import MAX_PYSOL_DEAL

    with pytest.raises(ValueError, match=str(MAX_PYSOL_DEAL)):
        write_deals(tmp_path / "deals.parquet", first=MAX_PYSOL_DEAL - 10, count=14, batch_rows=5)
    assert written_files(tmp_path) == []


def test_import_writes_batches_of_the_rows_of_one_table(tmp_path):
    path = boards_file(tmp_path, BOARDS)
    assert write_deals(tmp_path / "small.parquet", boards=path, batch_rows=5) == 12
    write_deals(tmp_path / "big.parquet", boards=path)
    assert row_groups(tmp_path / "small.parquet") == [5, 5, 2]
    whole = imported_deals(path)
    assert whole.column("board").to_pylist() == BOARDS
    assert whole.column("index").to_pylist() == list(range(12))
    for name in ("small.parquet", "big.parquet"):
        table = pq.read_table(tmp_path / name)
        assert table.equals(whole)
        assert table.schema.equals(whole.schema, check_metadata=True)


def test_import_yields_a_batch_before_it_reads_the_end_of_the_file(tmp_path):
    path = boards_file(tmp_path, BOARDS[:11] + [with_bad_card(BOARDS[11])])
    batches = imported_batches(path, batch_rows=5)
    assert next(batches).num_rows == 5  # a whole-file parse would raise here
    with pytest.raises(BoardError, match=r":213: unknown card 'ZZ'"):
        list(batches)


@pytest.mark.parametrize(
    ("boards", "message"),
    [
        (BOARDS[:11] + [with_bad_card(BOARDS[11])], "{path}:213: unknown card 'ZZ'"),
        (BOARDS + [BOARDS[7]], "{path}:229: this board repeats the board on line 134"),
        (BOARDS[:9] + [BOARDS[8]] + BOARDS[9:], "{path}:172: this board repeats the board on line 153"),
        # the repeat is reported where it is read, before the bad board after it
        (
            BOARDS[:3] + [BOARDS[0]] + BOARDS[3:11] + [with_bad_card(BOARDS[11])],
            "{path}:58: this board repeats the board on line 1",
        ),
        ([], "{path}: no board found (empty input)"),
    ],
    ids=["bad-card", "repeat-across-batches", "repeat-within-a-batch", "repeat-before-a-bad-card", "empty"],
)
def test_a_bad_board_late_in_the_file_leaves_the_old_pack(tmp_path, boards, message):
    path = boards_file(tmp_path, boards)
    out = tmp_path / "deals.parquet"
    out.write_bytes(b"old pack")
    with pytest.raises(BoardError) as caught:
        write_deals(out, boards=path, batch_rows=5)
    assert str(caught.value) == message.format(path=path)
    assert out.read_bytes() == b"old pack"
    assert written_files(tmp_path) == ["boards.txt", "deals.parquet"]


@pytest.mark.parametrize(
    "text",
    [
        "\r\n".join(board.replace("\n", "\r\n") for board in BOARDS[:4]),
        "\n\n\n".join(BOARDS[:4]),
        "\ufeff" + "\x0c".join(BOARDS[:4]),
        "\r".join(board.replace("\n", "\r") for board in BOARDS[:4]),
    ],
    ids=["crlf", "blank-lines", "bom-form-feed", "cr"],
)
def test_lines_are_numbered_as_the_whole_file_reader_numbers_them(tmp_path, text):
    path = tmp_path / "boards.txt"
    path.write_text(text + "\n" + with_bad_card(BOARDS[4]), encoding="utf-8", newline="")
    with pytest.raises(BoardError) as whole:
        read_boards(path)
    with pytest.raises(BoardError) as streamed:
        list(imported_batches(path, batch_rows=2))
    assert str(streamed.value) == str(whole.value)


def test_a_file_that_is_not_utf8_late_leaves_nothing(tmp_path):
    path = tmp_path / "boards.txt"
    path.write_bytes("\n".join(BOARDS).encode() + b"\n\xff\n")
    with pytest.raises(BoardError, match=r"boards\.txt: not UTF-8 text \(invalid start byte\)"):
        write_deals(tmp_path / "deals.parquet", boards=path, batch_rows=5)
    assert written_files(tmp_path) == ["boards.txt"]
