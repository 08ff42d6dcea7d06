"""The node limit is honoured exactly: a solve never reports more nodes than ``max_nodes``."""

from __future__ import annotations

import pytest

from pipeline.engine.solver import solve
from pipeline.game.games import GAMES
from pipeline.game.shuffles import pysol_deal
from pipeline.game.verdicts import Verdict


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.name)
@pytest.mark.parametrize("max_nodes", [1, 2, 3, 17, 500])
def test_nodes_never_pass_the_limit(game, max_nodes):
    for number in range(1, 6):
        result = solve(pysol_deal(number, game), max_nodes=max_nodes)
        assert result.nodes <= max_nodes, (number, result)


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.name)
def test_a_limit_of_the_nodes_a_solve_took_keeps_its_result(game):
    """A deal solved in n nodes is solved alike with a limit of n, and stopped with n - 1 when the verdict
    needed them all."""
    for number in range(1, 4):
        deal = pysol_deal(number, game)
        full = solve(deal)
        exact = solve(deal, max_nodes=full.nodes)
        assert (exact.verdict, exact.nodes, exact.max_cards_played) == (
            full.verdict,
            full.nodes,
            full.max_cards_played,
        )
        if full.nodes > 1:
            short = solve(deal, max_nodes=full.nodes - 1)
            assert short.nodes <= full.nodes - 1
            assert short.verdict is full.verdict or short.verdict is Verdict.UNKNOWN
