"""Walk the floor of game trees for bench/bench_walk_floor.py's before-and-after comparison, in a process of
its own.

bench_walk_floor.py starts this script with ``PYTHONPATH`` set to a checkout
of an earlier commit, so that ``pipeline`` here is that commit's, and sends
it one JSON line per deal: ``{"seed": ..., "index": ..., "keys": PATH}``,
where PATH is a NumPy file of the deal's winnable positions' keys. For each
it answers one JSON line: the least CPU seconds of ROUNDS walks of the floor
(:func:`pipeline.engine.gametree.floor_walk`) and the winnable positions it
stored.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

import numpy as np

from pipeline.game.rules import Position
from pipeline.game.shuffles import seeded_deal

ROUNDS = 2  # the least of two walks: the machine is shared


def timed_floor(seed: int, index: int, keys: np.ndarray) -> dict[str, Any]:
    """The least CPU seconds of ROUNDS walks of seeded deal ``index``'s floor, given its winnable ``keys``, with
    the ``pipeline`` this process imports, and the winnable positions the walk stored."""
    from pipeline.engine.gametree import floor_walk  # the checkout's, through PYTHONPATH, in the worker

    deal = seeded_deal(seed, index)
    start = Position.start(deal)
    least, stored = float("inf"), 0
    for _ in range(ROUNDS):
        began = time.process_time()
        stored = floor_walk(deal, start, keys)
        least = min(least, time.process_time() - began)
    return {"cpu_seconds": least, "winnable": stored}


def main() -> None:
    for request in sys.stdin:
        asked = json.loads(request)
        walked = timed_floor(asked["seed"], asked["index"], np.load(asked["keys"]))
        print(json.dumps(walked), flush=True)


if __name__ == "__main__":
    main()
