"""After a warm-up, the stages compile nothing: every compiled function they call on a game's deals is ready."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

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


def test_a_warm_up_compiles_the_walk_that_forgets_records_within_its_cap() -> None:
    """The grade stage caps the walk's tables; under the cap a large walk forgets records, which a small
    walk within a grading budget never does: the warm-up compiles that too."""
    script = (
        "from pipeline.engine import gametree\n"
        "from pipeline.engine.warm import warm\n"
        "from pipeline.game.games import BLACK_HOLE\n"
        "warm([BLACK_HOLE])\n"
        "print(len(gametree._forget.signatures))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=600
    )
    assert done.stdout.strip() == "1"


def test_before_workers_a_game_is_warmed_once_and_marked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pipeline.engine import warm as warming
    from pipeline.game.games import BLACK_HOLE, game_named

    golf = game_named("golf")
    warmed: list[list[str]] = []
    monkeypatch.setattr(warming, "cache_folder_of", lambda function: tmp_path)
    monkeypatch.setattr(warming, "warm", lambda games: warmed.append([game.name for game in games]) or True)
    warming.warm_before_workers([BLACK_HOLE, golf])
    warming.warm_before_workers([BLACK_HOLE])  # marked: only a glance at the folder
    assert warmed == [["black_hole"], ["golf"]]
    assert sorted(path.name for path in tmp_path.iterdir()) == ["warmed-black_hole", "warmed-golf"]


def test_a_changed_engine_loses_its_warmed_marks(tmp_path: Path) -> None:
    from pipeline.engine.compiled_cache import refresh

    (tmp_path / "warmed-black_hole").write_bytes(b"")
    assert refresh(tmp_path, "another engine")
    assert not (tmp_path / "warmed-black_hole").exists()


def test_without_a_cache_folder_nothing_is_warmed_ahead(monkeypatch: pytest.MonkeyPatch) -> None:
    from pipeline.engine import warm as warming
    from pipeline.game.games import BLACK_HOLE

    monkeypatch.setattr(warming, "cache_folder_of", lambda function: None)
    monkeypatch.setattr(warming, "warm", lambda games: pytest.fail("warmed without a cache to keep it"))
    warming.warm_before_workers([BLACK_HOLE])
