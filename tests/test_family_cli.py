"""The commands with the family's other games: generate, import, solve, crosscheck, grade and run with --game;
the game travels with the pack; mixing games refused in one line."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.game.cards import card_name
from pipeline.game.deal import Deal, iter_boards
from pipeline.game.games import BLACK_HOLE, GAMES, game_named
from pipeline.game.rules import Position, replay
from pipeline.game.shuffles import seeded_deal
from pipeline.packs.folders import read_pack_folder
from pipeline.packs.manifest import read_manifest
from pipeline.packs.parquet import deals_of, metadata
from pipeline.stages.settings import shipped_tiers
from pipeline.stages.tiers import load_tiers

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


class BuiltOnUse(dict[str, Path]):
    """What ``build(name)`` makes for a game, made the first time the game is asked for: a test worker builds
    only the games of the tests it runs."""

    def __init__(self, build: Callable[[str], Path]) -> None:
        super().__init__()
        self.build = build

    def __missing__(self, name: str) -> Path:
        self[name] = built = self.build(name)
        return built


@pytest.fixture(scope="module")
def checked(tmp_path_factory) -> BuiltOnUse:
    """For each game but Black Hole: 6 seeded deals generated, solved, and 3 of them cross-checked."""
    folder = tmp_path_factory.mktemp("family")

    def check(name: str) -> Path:
        deals, solved, out = (folder / f"{name}-{step}.parquet" for step in ("deals", "solved", "checked"))
        ok("generate", "-o", deals, "-n", 6, "--seed", 3, "--game", name, "-q")
        ok("solve", deals, "-o", solved, "--no-timings", "-q")
        first3 = folder / f"{name}-3.parquet"
        pq.write_table(pq.read_table(solved).slice(0, 3), first3)
        ok("crosscheck", first3, "-o", out, "--sample", 1, "--game", name, "--no-timings", "-q")
        return out

    return BuiltOnUse(check)


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


def test_the_solve_summary_gives_no_published_rate_for_another_game(tmp_path):
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


def test_grading_a_golf_pack_walks_its_tree_and_tiers_it_by_golfs_own_tiers(checked, tmp_path):
    out = tmp_path / "g.parquet"
    ok("grade", checked["golf"], "-o", out, "--no-timings", "-q")
    table = pq.read_table(out)
    assert metadata(table)["game"] == "golf"
    golf_tiers = load_tiers(shipped_tiers(game_named("golf")))
    assert metadata(table)["tier_expert"] == golf_tiers.metadata()["tier_expert"]  # Golf's, not Black Hole's
    rows = table.to_pylist()
    for row in rows:
        assert row["grade_status"] == "exact"
        assert (row["tier"] == "unsolvable") == (row["verdict"] == "unsolvable")
        assert row["max_cards_played"] <= 35
    fails(
        "grade",
        checked["golf"],
        "-o",
        tmp_path / "a.parquet",
        "--game",
        "all_in_a_row",
        pattern="a Golf pack",
    )
    assert not (tmp_path / "a.parquet").exists()


def _config(folder: Path, text: str) -> Path:
    path = folder / "run.toml"
    path.write_text(text)
    return path


def test_run_game_is_validated_naming_file_and_line(tmp_path):
    config = _config(tmp_path, '[run]\nname = "x"\nseed = 1\ncount = 2\ngame = "chess"\n')
    line = fails("run", "--config", config, pattern=f"{config}:5: [run] game must be black_hole or")
    assert "'chess'" in line


@pytest.fixture(scope="module")
def family_runs(tmp_path_factory) -> BuiltOnUse:
    """For Golf and All in a Row: a run of 8 seeded deals, every stage; the output folder of each."""

    def run(name: str) -> Path:
        folder = tmp_path_factory.mktemp(name)
        config = _config(
            folder,
            f'[run]\nname = "x"\nseed = 2\ncount = 8\ngame = "{name}"\noutput = "out"\ntimings = false\n'
            "[crosscheck]\nsample = 0\nloss_sample = 0.25\n",
        )
        result = ok("run", "--config", config, "-q")
        assert (game_named(name).title in result.stdout) and (
            ("published" in result.stdout) == (name != "golf")
        )
        return folder / "out" / "packs"

    return BuiltOnUse(run)


@pytest.mark.parametrize("name", ["golf", "all_in_a_row"])
def test_a_run_of_another_game_makes_its_pack_and_curated_pack(family_runs, name):
    game = game_named(name)
    for folder in ("x", "x-curated"):
        manifest = read_manifest(family_runs[name] / folder)
        assert manifest.played is game
        table = read_pack_folder(family_runs[name] / folder)
        boards, solutions = table.column("board").to_pylist(), table.column("solution").to_pylist()
        for board, solution in zip(boards, solutions, strict=True):
            if solution:
                replay(Deal.from_board_text(board, game=game), solution)
    curated = read_pack_folder(family_runs[name] / "x-curated")
    assert curated.num_rows and set(curated.column("tier").to_pylist()) <= {
        "easy",
        "medium",
        "hard",
        "expert",
    }


@pytest.mark.parametrize("name", ["golf", "all_in_a_row"])
def test_exports_of_another_game_carry_its_layout_and_replay(family_runs, name, tmp_path):
    game = game_named(name)
    pack = family_runs[name] / "x-curated"
    ok("export", pack, "-f", "json", "-o", tmp_path / "d.json", "--game", name, "-q")
    deals = json.loads((tmp_path / "d.json").read_text())["deals"]
    for document in deals:
        deal = Deal.from_board_text(document["board"], game=game)
        assert document["game"] == name
        assert len(document["piles"]) == game.num_piles
        assert document["foundation"] == (None if deal.foundation is None else card_name(deal.foundation))
        assert ("talon" in document) == game.has_talon
        position, played = Position.start(deal), []
        for move in document["solution"]:
            dealt = game.has_talon and move == game.talon_move
            played.append(card_name(deal.talon[position.talon_dealt] if dealt else position.top_card(move)))
            position = position.play(move)
        assert position.is_won and document["moves"] == played
    ok("export", pack, "-f", "boards", "-o", tmp_path / "b.txt", "-q")
    boards = (tmp_path / "b.txt").read_text()
    assert [d.to_board_text() for d in iter_boards(boards, game=game)] == [d["board"] for d in deals]
    fails(
        "export",
        pack,
        "-f",
        "csv",
        "-o",
        tmp_path / "c.csv",
        "--game",
        "black_hole",
        pattern="not Black Hole",
    )
    assert not (tmp_path / "c.csv").exists()


def test_the_report_of_a_golf_pack_gives_no_published_rate_and_all_in_a_rows_its_own(family_runs, tmp_path):
    golf = ok("report", family_runs["golf"] / "x", "--charts", tmp_path / "g", "--game", "golf")
    assert "win rate [95 % CI]" in golf.stdout and "published" not in golf.stdout
    row = ok("report", family_runs["all_in_a_row"] / "x", "--charts", tmp_path / "a")
    assert "67.10%" in row.stdout
    assert (tmp_path / "g" / "win-rate-by-block.png").exists()


def test_curating_a_golf_pack_keeps_its_game_and_refuses_another(family_runs):
    packs = family_runs["golf"]
    ok("curate", packs / "x", "-o", "again", "--game", "golf", "-q")
    assert read_manifest(packs / "again").played is game_named("golf")
    fails("curate", packs / "x", "-o", "other", "--game", "all_in_a_row", pattern="a Golf pack")
    assert not (packs / "other").exists()


def test_show_draws_a_deal_of_the_game_named_and_checks_a_packs(family_runs, tmp_path):
    from tests.support.family import GOLF_1

    shown = ok("show", "pysol-1", "--game", "golf", "--png", tmp_path / "g.png", "-q")
    assert shown.stdout == GOLF_1
    assert (tmp_path / "g.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    pack = family_runs["golf"] / "x"
    fails(
        "show",
        "seed-2-0",
        "--pack",
        pack,
        "--game",
        "black_hole",
        "--png",
        tmp_path / "b.png",
        pattern="a Golf pack",
    )
    fails("gallery", pack, "--out", tmp_path / "site", "--game", "all_in_a_row", pattern="a Golf pack")
    assert not (tmp_path / "b.png").exists() and not (tmp_path / "site").exists()
