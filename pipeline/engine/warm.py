"""The engine compiled ahead of use: every compiled function a game's stages call, compiled once into Numba's cache.

Numba compiles a function the first time it is called, which for the whole
engine takes about a minute. :func:`warm` calls each entry point the
stages use (the solver, the game-tree walk, the reference search) once, on a
small deal of each game asked for, with budgets that stop each search
almost at once, so that each function is compiled and cached (the walk with
its tables capped, as the grade stage walks, and so tightly that it
forgets records, which an uncapped walk never does); when they
are cached already it only loads them (a fraction of a second). ``make
setup`` runs it for every game; a run warms its game in the parent before
it starts workers, which then load the engine rather than each compile it::

    python -m pipeline.engine.warm   # every game; says how long it took and where the cache is
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable
from pathlib import Path

from numba.core import event

from pipeline.engine.compiled_cache import WARMED_PREFIX, cache_folder_of, keep_in_step
from pipeline.engine.gametree import table_bytes, tree_of, warm_growth
from pipeline.engine.reference import reference_solve
from pipeline.engine.solver import solve
from pipeline.files import replacing
from pipeline.game.games import GAMES, Game
from pipeline.game.rules import Position
from pipeline.game.shuffles import seeded_deal

WARM_NODES = 1_000  # a warm-up search's budget: enough to enter every loop, too little to take any time
WARM_POSITIONS = 1_000  # the game-tree walk's
WARM_RECORDS = 64  # records the warm-up's walk may keep: the fewest tree_of takes, so that it forgets some


def warm(games: Iterable[Game] = GAMES) -> bool:
    """Compile (or load from the cache) every compiled function the stages call on deals of ``games``.

    Returns whether anything was compiled rather than loaded.

    >>> warm(GAMES[:1]) in (True, False)
    True
    """
    with event.install_recorder("numba:compile") as compiled:
        for game in games:
            deal = seeded_deal(0, 0, game)
            start = Position.start(deal)
            solve(deal, max_nodes=WARM_NODES)
            reference_solve(deal, max_nodes=WARM_NODES)
            tree_of(deal, start, max_positions=WARM_POSITIONS, max_bytes=table_bytes(WARM_RECORDS))
            warm_growth()
    return bool(compiled.buffer)


def warmed_mark(game: Game) -> Path | None:
    """The file whose presence says ``game``'s engine is in the cache (emptied with it); None without a cache."""
    folder = cache_folder_of(keep_in_step)
    return None if folder is None else folder / f"{WARMED_PREFIX}{game.name}"


def warm_before_workers(games: Iterable[Game]) -> None:
    """Compile here, once, what workers about to start would each compile: the engine of each of ``games``
    not yet marked as cached; then mark it.

    Costs a glance at the cache folder when it is warm (as ``make setup``
    leaves it), and spares each worker of a first run the same compiling.
    """
    for game in games:
        mark = warmed_mark(game)
        if mark is None or mark.exists():
            continue
        warm([game])
        with replacing(mark) as sink:
            sink.write(b"")


def main() -> None:
    """``python -m pipeline.engine.warm``: warm every game's engine and say how long it took and where it is cached."""
    began = time.perf_counter()
    compiled = warm()
    for game in GAMES:
        mark = warmed_mark(game)
        if mark is not None:
            with replacing(mark) as sink:
                sink.write(b"")
    seconds = time.perf_counter() - began
    done = f"compiled in {seconds:.0f} s" if compiled else f"already compiled (loaded in {seconds:.1f} s)"
    print(
        f"blackhole: the solver engine is {done}; cached in {cache_folder_of(keep_in_step)}", file=sys.stderr
    )


if __name__ == "__main__":
    main()
