"""CP-SAT's model for the rest of the family: the talon as a move with its own order, an empty foundation,
the Golf rule sets' ends of ranks; its verdicts against the exact solver's, its wins replayed."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.engine.cpsat import LOSS_PROBING, PlayModel, allowed_pairs, build_model, cpsat_solve
from pipeline.engine.reference import reference_solve
from pipeline.engine.solver import solve
from pipeline.errors import ExitCode
from pipeline.game.cards import NUM_RANKS
from pipeline.game.games import BLACK_HOLE, GAMES, game_named
from pipeline.game.rules import replay
from pipeline.game.shuffles import pysol_deal, seeded_deal
from pipeline.game.verdicts import Verdict
from pipeline.packs.parquet import write_pack_file

FAMILY = [game for game in GAMES if game is not BLACK_HOLE]
# PySol FC deals of each game with a win and a loss among them (the test checks both kinds are there)
PYSOL_NUMBERS = {"all_in_a_row": (1, 3), "dead_king_golf": (1, 2), "golf": (1, 2), "relaxed_golf": (2, 30)}


@pytest.mark.parametrize("game", FAMILY, ids=lambda game: game.name)
def test_cpsat_agrees_with_the_solver_on_pysol_deals(game):
    verdicts = []
    for number in PYSOL_NUMBERS[game.name]:
        deal = pysol_deal(number, game)
        exact = solve(deal).verdict
        probing = LOSS_PROBING if exact is Verdict.UNSOLVABLE else 0
        checked = cpsat_solve(deal, time_limit=30, probing_level=probing)
        assert checked.verdict is exact, (game.name, number)
        if checked.verdict is Verdict.SOLVED:
            assert replay(deal, checked.solution).is_won
        verdicts.append(exact)
    assert set(verdicts) == {Verdict.SOLVED, Verdict.UNSOLVABLE}, game.name  # both kinds were checked


@pytest.mark.parametrize("game", FAMILY, ids=lambda game: game.name)
def test_the_model_has_a_step_for_every_card_of_the_piles_and_the_talon(game):
    play = build_model(seeded_deal(5, 0, game))
    assert len(play.card_at) == game.pile_cards + game.talon_size
    assert play.game is game


def test_a_golf_win_is_cut_after_its_last_pile_card():
    golf = game_named("golf")
    play = PlayModel(build_model(seeded_deal(5, 0, golf)).model, [], golf)
    # pile cards are numbered 5 p + level (so card 12 is pile 2's), talon cards 35 on
    assert play.moves([35, 12, 36, 0, 37, 38]) == (7, 2, 7, 0)
    assert play.moves([35, 36]) == ()


def test_golf_rule_sets_differ_only_at_the_ends_of_the_ranks():
    dead_king, golf, relaxed = (game_named(name) for name in ("dead_king_golf", "golf", "relaxed_golf"))
    king, queen, ace = NUM_RANKS - 1, NUM_RANKS - 2, 0
    assert (king, queen) not in allowed_pairs(dead_king) and (king, queen) in allowed_pairs(golf)
    assert (king, ace) not in allowed_pairs(golf) and (king, ace) in allowed_pairs(relaxed)
    assert (queen, king) in allowed_pairs(dead_king)  # a king may still go on a queen
    inner = [(a, b) for a, b in allowed_pairs(relaxed) if {a, b} != {king, ace}]
    assert inner == [(a, b) for a, b in allowed_pairs(golf) if (a, b) != (king, ace)]


def test_a_talon_card_may_follow_anything_in_the_model():
    """A deal whose only way on is the talon: its first fan cards fit nothing, yet CP-SAT wins by dealing."""
    golf = game_named("relaxed_golf")
    deal = next(
        seeded_deal(9, index, golf)
        for index in range(200)
        if solve(seeded_deal(9, index, golf)).solution[:1] == (golf.talon_move,)
    )
    result = cpsat_solve(deal, time_limit=30)
    assert result.verdict is Verdict.SOLVED
    assert golf.talon_move in result.solution and replay(deal, result.solution).is_won


@pytest.mark.parametrize("game", FAMILY, ids=lambda game: game.name)
def test_the_reference_search_settles_what_cpsat_cannot(game):
    """The cross-check's last word: the plain reference search, with its own budget, on every game."""
    for number in PYSOL_NUMBERS[game.name]:
        deal = pysol_deal(number, game)
        exact, settled = solve(deal), reference_solve(deal)
        assert (settled.verdict, settled.max_cards_played) == (exact.verdict, exact.max_cards_played)
        assert settled.nodes > 0
        if settled.verdict is Verdict.SOLVED:
            assert replay(deal, settled.solution).is_won
    assert reference_solve(pysol_deal(1, game), max_nodes=5).verdict is Verdict.UNKNOWN


def test_a_planted_wrong_verdict_in_a_golf_pack_is_caught_loudly(tmp_path):
    golf = game_named("golf")
    deals, solved, checked = (
        tmp_path / "deals.parquet",
        tmp_path / "solved.parquet",
        tmp_path / "checked.parquet",
    )
    runner = CliRunner()
    for arguments in (
        ["generate", "--game", "golf", "--source", "pysol", "--first", "1", "--count", "2", "--out", deals],
        ["solve", deals, "--out", solved],
    ):
        assert runner.invoke(app, [str(argument) for argument in arguments]).exit_code == 0
    table = pq.read_table(solved)
    assert table.column("verdict").to_pylist() == ["unsolvable", "solved"]  # PySol FC Golf deals 1 and 2
    # row 1's win planted as a loss, with no solution and no count of cards played (as a loss has none)
    planted = table
    for name, values in (
        ("verdict", ["unsolvable", "unsolvable"]),
        ("solution", [[], []]),
        ("max_cards_played", [table["max_cards_played"][0].as_py(), None]),
    ):
        index = planted.column_names.index(name)
        planted = planted.set_column(index, planted.schema.field(name), pa.array(values, table[name].type))
    write_pack_file(planted, solved)
    result = runner.invoke(
        app, ["crosscheck", str(solved), "--out", str(checked), "--sample", "1", "--quiet"]
    )
    assert result.exit_code == ExitCode.DISAGREEMENT, result.output
    assert "pysol-2 (row 1): the pack says unsolvable, cpsat says solved" in result.output
    assert pysol_deal(2, golf).to_board_text().strip() in result.output
