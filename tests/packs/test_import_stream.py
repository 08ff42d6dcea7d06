"""import reads a board file as it parses it: an error comes at its line, before the rest of the file is read.

Each bad file here ends, far past the error, in a byte that is not UTF-8: a
reader that went on (or read the file whole first) would report that byte
instead of the error, so the tests prove how far the file was read without
timing anything.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from pipeline.game.deal import EXAMPLE_BOARD, LONGEST_LINE, BoardError, read_boards
from pipeline.packs.sources import imported_batches, imported_deals, seeded_deals, write_deals

BOARDS = seeded_deals(seed=3, count=40).column("board").to_pylist()
NOT_UTF8 = b"\xff\n"
FAR = 1 << 20  # characters of padding between an error and the byte that is not UTF-8: more than a read takes


def with_bad_card(board: str) -> str:
    """``board`` with the first card of its third pile (its fourth line) replaced by ZZ."""
    lines = board.splitlines()
    lines[3] = "ZZ " + lines[3].split(" ", 1)[1]
    return "\n".join(lines) + "\n"


def board_file(folder: Path, text: str, tail: bytes = b"") -> Path:
    path = folder / "boards.txt"
    path.write_bytes(text.encode() + tail)
    return path


def import_error(path: Path) -> str:
    """The message of the error importing ``path`` (nothing may be written)."""
    out = path.parent / "deals.parquet"
    with pytest.raises(BoardError) as caught:
        write_deals(out, boards=path, batch_rows=7)
    assert not out.exists()
    return str(caught.value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (BOARDS[0] + "\n" + BOARDS[0], "{path}:20: this board repeats the board on line 1"),
        ("\n".join(BOARDS[:10] + [BOARDS[1]]), "{path}:191: this board repeats the board on line 20"),
        (BOARDS[0] + "\n" + with_bad_card(BOARDS[1]), "{path}:23: unknown card 'ZZ'"),
        ("\n".join(BOARDS[:2]) + "\n" + BOARDS[2][:-7], "{path}:56: pile 16 has 1 cards, expected 3"),
    ],
    ids=["second-repeats-first", "repeat-in-a-later-batch", "bad-card", "short-pile"],
)
def test_an_error_comes_before_the_rest_of_the_file_is_read(tmp_path, text, message):
    path = board_file(tmp_path, text + "\n" * FAR, NOT_UTF8)
    assert import_error(path) == message.format(path=path)


def test_a_repeat_of_a_board_long_before_names_its_line(tmp_path):
    # more boards than the ids the import keeps in a set before it sorts them into its array
    boards = seeded_deals(seed=4, count=9000).column("board").to_pylist()
    path = board_file(tmp_path, "\n".join(boards + [boards[5]]) + "\n" * FAR, NOT_UTF8)
    assert import_error(path) == f"{path}:{9000 * 19 + 1}: this board repeats the board on line {5 * 19 + 1}"


def test_one_giant_line_is_an_error_at_line_1(tmp_path):
    path = board_file(tmp_path, "JD " * FAR, NOT_UTF8)
    assert import_error(path) == f"{path}:1: a line of more than {LONGEST_LINE} characters: no board has one"


def test_a_block_longer_than_a_board_is_an_error_at_its_line_too_many(tmp_path):
    piles = EXAMPLE_BOARD.splitlines()[1:]
    text = EXAMPLE_BOARD + "\n".join(piles[at % len(piles)] for at in range(FAR // 9))
    path = board_file(tmp_path, text, NOT_UTF8)
    assert import_error(path) == f"{path}:19: expected 17 piles, found 18 or more"


# --- long blank runs and lines split across reads: as the whole-file reader sees them ---

FIRST, *PILES = EXAMPLE_BOARD.splitlines()


@pytest.mark.parametrize(
    "text",
    [
        " " * 3 * FAR + "\n" + EXAMPLE_BOARD,  # a blank line longer than any
        FIRST + " " * 3 * FAR + "\n" + "\n".join(PILES),  # blanks after the text of a line are ignored
        "\n".join([FIRST, " " * 3 * FAR + PILES[0], *PILES[1:]]),  # and before it
    ],
    ids=["blank", "trailing", "leading"],
)
def test_a_line_long_only_in_blanks_is_read(tmp_path, text):
    path = board_file(tmp_path, text)
    assert imported_deals(path).column("board").to_pylist() == [EXAMPLE_BOARD]
    assert read_boards(path) == [read_boards(board_file(tmp_path, EXAMPLE_BOARD))[0]]


def test_a_long_line_across_reads_is_the_error_the_whole_file_reader_gives(tmp_path):
    text = "\n".join(BOARDS[:5]) + "\n" + "\n".join([FIRST, PILES[0] + " " * FAR + "KH", *PILES[1:]])
    path = board_file(tmp_path, text)
    with pytest.raises(BoardError) as whole:
        read_boards(path)
    assert (
        import_error(path)
        == str(whole.value)
        == f"{path}:97: a line of more than {LONGEST_LINE} characters: no board has one"
    )


@pytest.mark.parametrize("shift", range(4))
@pytest.mark.parametrize("end", ["\r\n", "\r", "\n", "\x0c", "\u2028"])
def test_line_ends_split_across_reads_count_as_in_the_whole_file(tmp_path, end, shift):
    # runs of blank lines long enough that reads end inside them, at every place of a two-character end
    text = (
        " " * shift + end * (FAR // 8) + end.join(board.replace("\n", end) for board in BOARDS[:3]) + end * 3
    )
    path = board_file(tmp_path, text + with_bad_card(BOARDS[3]).replace("\n", end))
    with pytest.raises(BoardError) as whole:
        read_boards(path)
    assert import_error(path) == str(whole.value)
    good = board_file(tmp_path, text)
    assert imported_deals(good).column("board").to_pylist() == BOARDS[:3]


def test_a_good_file_of_many_reads_keeps_its_boards_ids_and_order(tmp_path):
    boards = seeded_deals(seed=6, count=800).column("board").to_pylist()
    path = board_file(tmp_path, "\n\n".join(boards))
    assert path.stat().st_size > 2 * 65536
    batches = list(imported_batches(path, batch_rows=300))
    assert [batch.num_rows for batch in batches] == [300, 300, 200]
    table = imported_deals(path)
    assert table.column("board").to_pylist() == boards
    assert table.column("index").to_pylist() == list(range(800))
    expected = [f"import-{hashlib.sha256(board.encode()).hexdigest()[:16]}" for board in boards]
    assert table.column("deal_id").to_pylist() == expected
