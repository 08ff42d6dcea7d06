"""The largest game trees of the default run (seed 20261129), walked whole within the grade stage's default
budget (1,024 MiB a worker, of which the walk's tables get 704).

Each holds 6 to 8 million winnable positions, whose records alone pass the
budget: the walk forgets records and walks those positions again, and must
give the figures of a walk with no cap (taken from one, 2026-12-06). Slow:
about 20 s and 990 MiB each.
"""

from __future__ import annotations

import pytest

from pipeline.engine.budgets import walk_table_bytes
from pipeline.engine.gametree import tree_of
from pipeline.engine.solver import solve
from pipeline.engine.status import Status
from pipeline.game.rules import Position
from pipeline.game.shuffles import seeded_deal
from pipeline.stages.settings import GradeSettings

GRADING = GradeSettings()  # the grade stage's default budgets: memory and the positions' guard

# index: winnable positions, reachable positions, solutions, random play's win chance (exact), and the
# positions the walk entered with no cap
UNCAPPED = {
    116: (6_123_282, 9_376_595, 1_754_746_119_050, 0.00018523644772995302, 24_704_517),
    408: (7_721_341, 11_584_431, 619_159_507_774, 0.0002968772539771938, 30_527_413),
    567: (7_461_146, 11_305_631, 4_402_052_411_939, 0.00026273881943068253, 31_411_977),
    669: (7_303_585, 11_161_330, 1_786_488_633_232, 0.00017064260370390876, 37_090_462),
}


@pytest.mark.slow
@pytest.mark.parametrize("index", sorted(UNCAPPED))
def test_a_largest_tree_walked_within_the_default_budget_gives_the_uncapped_figures(index):
    deal = seeded_deal(20261129, index)
    line = tuple(solve(deal).solution)
    winnable, reachable, solutions, chance, entered = UNCAPPED[index]
    tree = tree_of(
        deal,
        Position.start(deal),
        line,
        max_positions=GRADING.max_positions,
        max_bytes=walk_table_bytes(GRADING.max_memory_mib),
    )
    assert tree.status is Status.EXACT
    assert tree.positions > entered  # it forgot records and walked their positions again
    assert (tree.winnable_states, tree.reachable_states, tree.solution_count) == (
        winnable,
        reachable,
        solutions,
    )
    assert tree.random_win_probability == chance
