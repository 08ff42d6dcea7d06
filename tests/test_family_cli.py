"""The commands with the family's other games: generate, import, solve and crosscheck with --game; the game
travels with the pack; mixing games, grading them and running them refused in one line."""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.game.games import BLACK_HOLE, GAMES, game_named
from pipeline.game.rules import replay
from pipeline.game.shuffles import seeded_deal
from pipeline.packs.parquet import deals_of, metadata

OTHERS = [game.name for game in GAMES if game is not BLACK_HOLE]


def invoke(*args: object):
    return CliRunner().invoke(app, [str(arg) for arg in args])


def ok(*args: object):
    result = invoke(*args)
    assert result.exit_code == 0, result.output
    return result


def fails(*args: object, pattern: str, code: int = 1):
    result = invoke(*args, "-q")
    assert result.exit_code == code, result.output
    [line] = result.stderr.splitlines()
    assert line.startswith("error: ") and pattern in line, line
    return line


@pytest.fixture(scope="module")
def checked(tmp_path_factory) -> dict[str, Path]:
    """For each game but Black Hole: 6 seeded deals generated, solved, and 3 of them cross-checked."""
    folder = tmp_path_factory.mktemp("family")
    found = {}
    for name in OTHERS:
        deals, solved, out = (folder / f"{name}-{step}.parquet" for step in ("deals", "solved", "checked"))
        ok("generate", "-o", deals, "-n", 6, "--seed", 3, "--game", name, "-q")
        ok("solve", deals, "-o", solved, "--no-timings", "-q")
        first3 = folder / f"{name}-3.parquet"
        pq.write_table(pq.read_table(solved).slice(0, 3), first3)
        ok("crosscheck", first3, "-o", out, "--sample", 1, "--game", name, "--no-timings", "-q")
        found[name] = out
    return found


@pytest.mark.parametrize("name", OTHERS)
def test_generate_solve_crosscheck_a_game(checked, name):
    game = game_named(name)
    table = pq.read_table(checked[name])
    assert metadata(table)["game"] == name  # kept through solve and crosscheck
    assert metadata(table)["dealing_scheme"] == f"{game.layout}-sha256-v1"
    deals = deals_of(table, source=name)
    assert deals == [seeded_deal(3, index, game) for index in range(3)]
    for deal, row in zip(deals, table.to_pylist(), strict=True):
        assert row["agree"] is True, row
        if row["verdict"] == "solved":
            assert row["max_cards_played"] == game.pile_cards
            replay(deal, row["solution"])


def test_generate_pysol_deals_of_a_game(tmp_path):
    out = tmp_path / "d.parquet"
    ok("generate", "-o", out, "-n", 3, "--source", "pysol", "--game", "all_in_a_row", "-q")
    table = pq.read_table(out)
    assert metadata(table)["game"] == "all_in_a_row" and metadata(table)["dealing_scheme"] == "pysol-fc"


def test_a_black_hole_pack_says_no_game(tmp_path):
    out = tmp_path / "d.parquet"
    ok("generate", "-o", out, "-n", 2, "--seed", 1, "-q")
    assert "game" not in metadata(pq.read_table(out))


def test_the_solve_summary_gives_no_published_rate_for_another_game(checked, tmp_path):
    deals = tmp_path / "d.parquet"
    ok("generate", "-o", deals, "-n", 2, "--seed", 1, "--game", "golf", "-q")
    result = ok("solve", deals, "-o", tmp_path / "s.parquet")
    assert "published" not in result.stdout


def _golf_boards(path: Path) -> Path:
    golf = game_named("golf")
    path.write_text("\n".join(seeded_deal(9, index, golf).to_board_text() for index in range(3)))
    return path


def test_import_golf_boards(tmp_path):
    out = tmp_path / "d.parquet"
    ok("import", _golf_boards(tmp_path / "golf.txt"), "-o", out, "--game", "golf", "-q")
    table = pq.read_table(out)
    assert metadata(table)["game"] == "golf" and table.num_rows == 3


def test_import_golf_boards_as_all_in_a_row_is_refused_naming_file_and_line(tmp_path):
    boards = _golf_boards(tmp_path / "golf.txt")
    line = fails(
        "import", boards, "-o", tmp_path / "d.parquet", "--game", "all_in_a_row", pattern=f"{boards}:1:"
    )
    assert "All in a Row has no talon" in line
    assert not (tmp_path / "d.parquet").exists()


def test_solving_a_pack_as_another_game_is_refused(checked, tmp_path):
    line = fails(
        "crosscheck",
        checked["golf"],
        "-o",
        tmp_path / "c.parquet",
        "--game",
        "relaxed_golf",
        pattern="a Golf pack",
    )
    assert "games are never mixed" in line
    fails(
        "solve",
        checked["golf"],
        "-o",
        tmp_path / "s.parquet",
        "--game",
        "black_hole",
        pattern="not Black Hole",
    )
    assert not (tmp_path / "c.parquet").exists() and not (tmp_path / "s.parquet").exists()


def test_grading_a_golf_pack_is_refused_in_one_line(checked, tmp_path):
    fails(
        "grade",
        checked["golf"],
        "-o",
        tmp_path / "g.parquet",
        pattern="grading Golf packs is not built yet: only Black Hole packs are graded",
    )
    assert not (tmp_path / "g.parquet").exists()


def _config(folder: Path, text: str) -> Path:
    path = folder / "run.toml"
    path.write_text(text)
    return path


def test_run_game_is_validated_naming_file_and_line(tmp_path):
    config = _config(tmp_path, '[run]\nname = "x"\nseed = 1\ncount = 2\ngame = "chess"\n')
    line = fails("run", "--config", config, pattern=f"{config}:5: [run] game must be black_hole or")
    assert "'chess'" in line


def test_a_run_of_another_game_is_refused_before_any_work(tmp_path):
    config = _config(tmp_path, '[run]\nname = "x"\nseed = 1\ncount = 2\ngame = "golf"\noutput = "out"\n')
    fails("run", "--config", config, pattern="grading Golf packs is not built yet")
    assert not (tmp_path / "out").exists()
    fails(
        "run",
        "--config",
        _config(tmp_path, '[run]\nname = "x"\nseed = 1\ncount = 2\noutput = "out"\n'),
        "--set",
        "run.game=all_in_a_row",
        pattern="grading All in a Row packs is not built yet",
    )
