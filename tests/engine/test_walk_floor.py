"""The floor of the walk (gametree.floor_walk), which the benchmark of the walk's bookkeeping times: given the
positions from which a win exists, it enters those alone and stores each once.

Slow (make test-slow): the floor is a compiled loop of its own, which only this test and the benchmark use,
so the suite's warm-up does not compile it and this test would, for most of a minute.
"""

from __future__ import annotations

import numpy as np
import pytest

from pipeline.engine.gametree import floor_walk, tree_of, winnable_keys
from pipeline.game.rules import Position
from pipeline.game.shuffles import seeded_deal

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("index", [0, 19])
def test_the_floor_stores_every_winnable_position_once(index: int) -> None:
    deal = seeded_deal(1, index)
    start = Position.start(deal)
    keys = winnable_keys(deal, start)
    assert floor_walk(deal, start, keys) == len(keys) == tree_of(deal, start).winnable_states


def test_the_floor_takes_a_child_outside_the_oracle_as_lost() -> None:
    deal = seeded_deal(1, 19)  # winnable: its real walk stores thousands of positions
    start = Position.start(deal)
    # an oracle that names no position: every child of the start is taken as lost, so nothing is stored
    assert floor_walk(deal, start, np.zeros(0, dtype=np.int64)) == 0
