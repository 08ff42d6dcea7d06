"""After a warm-up, the stages compile nothing: every compiled function they call on a game's deals is ready."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from pipeline.game.games import GAMES, Game

# a seed whose first two deals are a win and a loss, and quick to grade, for each game
WIN_AND_LOSS = {"black_hole": 37, "all_in_a_row": 1, "dead_king_golf": 3, "golf": 3, "relaxed_golf": 3}

# In a fresh process: warm the game, then put two deals through every stage as a run's worker does (no CP-SAT
# check: not Numba's, and seconds on a Golf loss; the reference search stands for the check's compiled
# part), and print each compiled function that had to be compiled or loaded from the cache for it.
AFTER_WARMING = """\
import sys
from numba.core.registry import CPUDispatcher
from pipeline.engine.reference import reference_solve
from pipeline.engine.warm import warm
from pipeline.game.games import game_named
from pipeline.game.shuffles import seeded_deal
from pipeline.stages.chain import StageSettings, process_deal
from pipeline.stages.settings import CrosscheckSettings

def ready():
    return {{
        (f"{{module.__name__}}.{{name}}", str(signature))
        for module in list(sys.modules.values()) if module.__name__.startswith("pipeline.engine")
        for name, value in vars(module).items() if isinstance(value, CPUDispatcher)
        for signature in value.signatures
    }}

game = game_named({game!r})
warm([game])
before = ready()
settings = StageSettings(crosscheck=CrosscheckSettings(sample=0.0, loss_sample=0.0))
for index in range(2):
    deal = seeded_deal({seed}, index, game)
    process_deal(deal, f"warm-{{index}}", settings)  # solve, a loss's longest play, a win's grade
    reference_solve(deal, max_nodes=10_000)
print(sorted(ready() - before))
"""


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.name)
def test_after_a_warm_up_a_games_deals_go_through_every_stage_compiling_nothing(game: Game) -> None:
    script = textwrap.dedent(AFTER_WARMING.format(game=game.name, seed=WIN_AND_LOSS[game.name]))
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=600
    )

    assert done.stdout.strip() == "[]"  # nothing compiled, nor loaded from the cache, after the warm-up
