"""The board stream: boards read from several inputs in order, errors in their place, answers in input order."""

from __future__ import annotations

import json

from pipeline.game.deal import EXAMPLE_BOARD, BoardError, Deal
from pipeline.game.games import game_named
from pipeline.game.shuffles import pysol_deal
from pipeline.stages.board_stream import read_boards, solve_boards
from pipeline.stages.settings import SolveSettings

BAD = "Foundations: AS\nJD KS\n"
SETTINGS = SolveSettings(max_nodes=3000)


def _kinds(items) -> list[str]:
    return ["deal" if isinstance(item.found, Deal) else "error" for item in items]


def test_positions_run_across_inputs_and_each_board_knows_where_it_starts(tmp_path):
    first, second = tmp_path / "a.txt", tmp_path / "b.txt"
    first.write_text("\n\n" + EXAMPLE_BOARD + "\n" + EXAMPLE_BOARD)
    second.write_text(EXAMPLE_BOARD)
    items = list(read_boards([str(first), str(second)]))
    assert [(item.position, item.where, item.alone) for item in items] == [
        (1, f"{first}:3", False),
        (2, f"{first}:22", False),
        (3, f"{second}:1", True),
    ]


def test_a_bad_board_is_an_item_in_its_place_with_its_line(tmp_path):
    path = tmp_path / "boards.txt"
    path.write_text("\n" + EXAMPLE_BOARD + "\n" + BAD + "\n" + EXAMPLE_BOARD)
    items = list(read_boards([str(path)]))
    assert _kinds(items) == ["deal", "error", "deal"]
    error = items[1].found
    assert isinstance(error, BoardError) and (error.line, error.problem) == (22, "expected 17 piles, found 1")


def test_a_block_that_runs_on_is_one_error_and_reading_resumes_after_the_next_blank_line():
    lines = [*EXAMPLE_BOARD.splitlines(), "JD KS TH", "2D 9D 8H", "", *EXAMPLE_BOARD.splitlines()]
    items = list(read_boards(["-"], stdin=lines))
    assert _kinds(items) == ["error", "deal"] and items[1].line == 22


def test_inputs_that_cannot_be_read_are_errors_and_the_others_are_read(tmp_path):
    empty, binary = tmp_path / "empty.txt", tmp_path / "binary.txt"
    empty.write_text("\n\n")
    binary.write_bytes(b"\xff\xfe\x00")
    names = [str(tmp_path / "missing.txt"), str(empty), str(binary), str(tmp_path), "-"]
    items = list(read_boards(names, stdin=("\ufeff" + EXAMPLE_BOARD).splitlines(keepends=True)))
    assert _kinds(items) == ["error", "error", "error", "error", "deal"]
    problems = [item.found.problem for item in items[:4]]
    assert problems[0] == "No such file or directory" and problems[1] == "no board found (empty input)"
    assert problems[2].startswith("not UTF-8 text") and problems[3] == "Is a directory"
    assert items[4].where == "<stdin>:1"


def test_json_lines_with_ids_and_their_errors():
    golf = game_named("golf")
    board = pysol_deal(3, golf).to_board_text()
    lines = [
        "",
        json.dumps({"board": board, "id": 7}),
        "[1]",
        json.dumps({"board": 5}),
        json.dumps({"id": "x"}),
    ]
    items = list(read_boards(["-"], golf, stdin=lines))
    assert [(item.line, item.key) for item in items] == [(2, 7), (3, None), (4, None), (5, "x")]
    assert _kinds(items) == ["deal", "error", "error", "error"]
    assert items[0].found == pysol_deal(3, golf)


def test_answers_keep_input_order_on_two_workers_with_errors_anywhere():
    boards = [pysol_deal(number).to_board_text() for number in range(1, 12)]
    # errors first, two together (a batch of errors alone), between deals, and last
    text = [BAD, *boards[:3], BAD, BAD, *boards[3:], BAD]
    lines = "\n".join(text).splitlines()
    one = list(solve_boards(read_boards(["-"], stdin=lines), SETTINGS))
    two = list(solve_boards(read_boards(["-"], stdin=lines), SETTINGS, jobs=2, batch_size=2))
    assert [answer.item.position for answer in two] == list(range(1, len(text) + 1))
    for first, second in zip(one, two, strict=True):
        assert (first.item.position, first.item.line, str(first.error)) == (
            second.item.position,
            second.item.line,
            str(second.error),
        )
        assert (first.result is None) == (second.result is None) == (first.error is not None)
        if first.result and second.result:
            assert (first.result.verdict, first.result.nodes, first.result.solution) == (
                second.result.verdict,
                second.result.nodes,
                second.result.solution,
            )
