"""Walk game trees for bench/bench_grading.py's before-and-after comparison, in a process of their own.

bench_grading.py starts this script with ``PYTHONPATH`` set to a checkout of
an earlier commit, so that ``pipeline`` here is that commit's, and sends it
one JSON line per deal: ``{"seed": ..., "index": ..., "solution": [...]}``.
For each it walks the deal's tree from the start with the default budget and
answers one JSON line: the CPU seconds of the walk and the figures a pack
takes from it (:func:`figures_of`), which the comparison checks are the same.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

from pipeline.game.rules import Position
from pipeline.game.shuffles import seeded_deal


def figures_of(tree: Any) -> list[Any]:
    """The numbers a pack takes from a walk, as JSON can carry them exactly (floats by their repr); of a walk
    that did not finish, its status alone (it claims nothing, and the grade stage writes no number of it)."""
    # statuses by name: the old commit's walk names them alike but numbers them otherwise
    if tree.status.name != "EXACT":
        return [tree.status.name]
    return [
        tree.status.name, tree.solution_count, repr(tree.random_win_probability), tree.winnable_states,
        tree.reachable_states, repr(tree.branching_winning_lines), repr(tree.branching_winnable),
        tree.winning_first_moves, tree.first_moves, tree.forced_moves, tree.decisions, tree.traps,
        tree.first_trap, [[repr(p.win_probability), repr(p.dead_ends)] for p in tree.players],
    ]  # fmt: skip


def timed_walk(seed: int, index: int, solution: tuple[int, ...]) -> dict[str, Any]:
    """Walk seeded deal ``index``'s tree from the start with the default budget, with the ``pipeline`` this
    process imports: the CPU seconds of the walk and the figures a pack takes from it (:func:`figures_of`)."""
    from pipeline.engine.gametree import tree_of  # the checkout's, through PYTHONPATH, in the worker

    deal = seeded_deal(seed, index)
    began = time.process_time()
    tree = tree_of(deal, Position.start(deal), line=solution)
    seconds = time.process_time() - began
    return {"cpu_seconds": seconds, "figures": figures_of(tree)}


def main() -> None:
    for request in sys.stdin:
        asked = json.loads(request)
        walked = timed_walk(asked["seed"], asked["index"], tuple(asked["solution"]))
        print(json.dumps(walked), flush=True)


if __name__ == "__main__":
    main()
