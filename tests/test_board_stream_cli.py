"""``blackhole solve-board`` over many boards, and in black-hole-solver's dialect: through CliRunner and a process."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.game.deal import EXAMPLE_BOARD
from pipeline.game.games import game_named
from pipeline.game.shuffles import pysol_deal, seeded_deal

DATA = Path(__file__).resolve().parent / "data" / "black_hole_solver"
WINNABLE = seeded_deal(20261129, 0).to_board_text()
LOST = EXAMPLE_BOARD  # PySol FC deal 1: at most 3 cards
HARD = (DATA / "26464608654870335080.bh.board.txt").read_text()  # solved, in more than 5 nodes
BAD = "Foundations: AS\nJD KS\n"
BLACKHOLE = Path(sys.executable).parent / "blackhole"


def invoke(*args: object, input: str | None = None):
    return CliRunner().invoke(app, [str(a) for a in args], input=input)


def _lines(result) -> list[dict]:
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_many_boards_from_stdin_one_json_line_each_in_order():
    result = invoke("solve-board", "-f", "jsonl", input="\n".join([WINNABLE, LOST, WINNABLE]))
    assert result.exit_code == 0, result.output
    found = _lines(result)
    assert [(f["position"], f["source"], f["verdict"]) for f in found] == [
        (1, "<stdin>:1", "solved"),
        (2, "<stdin>:20", "unsolvable"),
        (3, "<stdin>:39", "solved"),
    ]
    assert set(found[0]) == {
        "position",
        "source",
        "verdict",
        "solution",
        "nodes",
        "seconds",
        "max_cards_played",
    }


def test_a_bad_board_mid_stream_is_one_error_line_and_the_stream_goes_on(tmp_path):
    path = tmp_path / "boards.txt"
    path.write_text("\n".join([WINNABLE, BAD, LOST]))
    result = invoke("solve-board", path, "--format", "jsonl")
    assert result.exit_code == 1
    found = _lines(result)
    assert found[1] == {"position": 2, "source": f"{path}:21", "error": "expected 17 piles, found 1"}
    assert [f.get("verdict") for f in found] == ["solved", None, "unsolvable"]
    assert result.stderr == ""


def test_stop_on_error_stops_there(tmp_path):
    result = invoke("solve-board", "-f", "jsonl", "--stop-on-error", input="\n".join([WINNABLE, BAD, LOST]))
    assert result.exit_code == 1
    assert [f["position"] for f in _lines(result)] == [1, 2]


def test_text_with_several_boards_names_each_and_puts_errors_on_stderr(tmp_path):
    first, second = tmp_path / "a.txt", tmp_path / "b.txt"
    first.write_text(LOST)
    second.write_text(BAD)
    result = invoke("solve-board", first, second, first)
    assert result.exit_code == 1
    assert result.stdout.startswith(f"board 1 ({first}:1)\nunsolvable: at most 3 of 51 cards can be played\n")
    assert f"board 3 ({first}:1)\n" in result.stdout and "board 2" not in result.stdout
    assert result.stderr == f"error: {second}:2: expected 17 piles, found 1\n"


def test_json_lines_input_with_ids_and_a_bad_line(tmp_path):
    golf = game_named("golf")
    lines = [json.dumps({"id": f"deal-{n}", "board": pysol_deal(n, golf).to_board_text()}) for n in (1, 2)]
    path = tmp_path / "boards.jsonl"
    path.write_text("\n".join(["", lines[0], "{not json", json.dumps({"board": BAD}), lines[1], ""]))
    result = invoke("solve-board", path, "-g", "golf", "-f", "jsonl")
    assert result.exit_code == 1
    found = _lines(result)
    assert [(f["position"], f["source"], f.get("id"), "error" in f) for f in found] == [
        (1, f"{path}:2", "deal-1", False),
        (2, f"{path}:3", None, True),
        (3, f"{path}:4", None, True),
        (4, f"{path}:5", "deal-2", False),
    ]
    assert found[2]["error"].startswith("board line 2: no 'Talon:' line")


def test_order_is_kept_with_two_jobs(tmp_path):
    boards = [pysol_deal(n).to_board_text() for n in range(1, 41)]
    path = tmp_path / "boards.txt"
    path.write_text("\n".join([*boards[:20], BAD, *boards[20:]]))
    one = _lines(invoke("solve-board", path, "-f", "jsonl", "--max-nodes", 3000))
    two = _lines(invoke("solve-board", path, "-f", "jsonl", "--max-nodes", 3000, "--jobs", 2))
    for found in (one, two):
        for line in found:
            line.pop("seconds", None)
    assert one == two and [line["position"] for line in two] == list(range(1, 42))
    assert "error" in two[20]


def test_one_board_prints_as_before():
    text = invoke("solve-board", input=LOST)
    assert text.exit_code == 0 and text.stdout.startswith(
        "unsolvable: at most 3 of 51 cards can be played\nnodes: "
    )
    assert json.loads(invoke("solve-board", "--json", input=LOST).stdout)["max_cards_played"] == 3
    assert json.loads(invoke("solve-board", "-f", "json", input=LOST).stdout)["verdict"] == "unsolvable"


@pytest.mark.parametrize(
    ("board", "options", "code", "verdict"),
    [
        (HARD, [], 0, "Solved!"),
        (LOST, [], 255, "Unsolved!"),
        (HARD, ["--max-iters", 5], 254, "Intractable!"),
        (HARD, ["--max-nodes", 5], 254, "Intractable!"),
    ],
)
def test_bhs_exits_as_black_hole_solver_does(board, options, code, verdict):
    result = invoke("solve-board", "--format", "bhs", *options, input=board)
    assert result.exit_code == code, result.output
    assert result.stdout.splitlines()[0] == verdict
    assert re.search(r"\n\n--------------------\nTotal number of states checked is \d+\.\n", result.stdout)


@pytest.mark.parametrize("form", ["text", "json", "jsonl"])
def test_other_formats_exit_0_whatever_the_verdict(form):
    for board, options in ((LOST, []), (HARD, ["--max-nodes", 5])):
        assert invoke("solve-board", "-f", form, *options, input=board).exit_code == 0


def test_the_node_limit_is_honoured_exactly():
    found = json.loads(invoke("solve-board", "--json", "--max-nodes", 1, input=HARD).stdout)
    assert found["verdict"] == "unknown" and found["nodes"] == 1
    bhs = invoke("solve-board", "-f", "bhs", "--max-iters", 7, input=HARD).stdout
    assert "Total number of states checked is 7.\n" in bhs


def test_bhs_with_several_boards_wraps_each_as_multi_bhs_solver_and_exits_0(tmp_path):
    result = invoke("solve-board", "-f", "bhs", DATA / "1.bh.board.txt", "-", input=LOST + "\n" + HARD)
    assert result.exit_code == 0, result.output
    starts = re.findall(r"^\[= Starting file (.*) =\]$", result.stdout, flags=re.MULTILINE)
    assert starts == [str(DATA / "1.bh.board.txt"), "<stdin>:1", "<stdin>:20"]
    assert re.findall(r"^(Solved!|Unsolved!)$", result.stdout, flags=re.MULTILINE) == [
        "Unsolved!",
        "Unsolved!",
        "Solved!",
    ]
    assert result.stdout.endswith("[= END of file <stdin>:20 =]\n")


def test_bhs_prints_black_hole_solvers_text_for_its_unsolved_test_board():
    result = invoke("solve-board", "-f", "bhs", DATA / "1.bh.board.txt")
    expected = (DATA / "1.bh.sol.txt").read_text()
    assert result.exit_code == 255
    assert re.sub(r"\d+", "N", result.stdout) == re.sub(r"\d+", "N", expected)


def test_json_and_another_format_is_a_usage_error():
    assert invoke("solve-board", "--json", "-f", "bhs", input=LOST).exit_code == 2


def test_a_process_reads_boards_from_stdin_and_answers_each():
    done = subprocess.run(
        [str(BLACKHOLE), "solve-board", "-f", "jsonl", "-j", "2"],
        input="\n".join([LOST, BAD, WINNABLE]),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 1, done.stderr
    found = [json.loads(line) for line in done.stdout.splitlines()]
    assert [f.get("verdict", "error") for f in found] == ["unsolvable", "error", "solved"]
    bhs = subprocess.run(
        [str(BLACKHOLE), "solve-board", "-f", "bhs"], input=LOST, capture_output=True, text=True, timeout=300
    )
    assert bhs.returncode == 255 and bhs.stdout.startswith("Unsolved!\n")
