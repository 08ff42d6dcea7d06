"""The exact engines: the solver, the game-tree walk, the reference search and the CP-SAT model.

- ``compiled_cache``: Numba's cache of the compiled engine, emptied when a module it was built from changed;
  the one line said when compiling begins.
- ``cache_folder``: where that cache is: the package's folder, or the first other one that can be written.
- ``warm``: every game's compiled functions compiled into the cache ahead of use (``make setup``, a run's parent).
- ``budgets``: default budgets (nodes, positions, deterministic seconds, a grading worker's memory), light enough
  for the CLI.
- ``kernel``: the compiled kernel shared by the searches: bit tricks, hash sets,
  the transposition table, move generation and position keys.
- ``conditions``: necessary conditions for a win, used to prune (each a proof
  that no win is lost by pruning; see docs/solver.md).
- ``search`` and ``solver``: the solver's depth-first search (for every game) and its Python face,
  :func:`~pipeline.engine.solver.solve`.
- ``gametree``: an exact walk of a deal's whole game tree (solution counts,
  every player model's win chance and dead ends, traps) for the grader, for every game: one loop, compiled
  once for each way of keeping positions (by the search's keys, or each decided once and marked);
  ``tree_figures``: what the walk does at one position (entering it, its moves, its figures' recurrence).
- ``policies``: the player models' policies, compiled for the walk and the play-outs, for every game.
- ``playouts``: games played by a player model, to check the walk's figures by simulation.
- ``status``: how a compiled search or walk ended (one status for both).
- ``reductions``: the one set of flags that switches the searches' and the walk's sound reductions.
- ``reference``: a plain search with none of the prunes, the referee of last resort.
- ``cpsat``: the OR-Tools CP-SAT model of a move sequence (imports OR-Tools).

Compiled with Numba on first use (or ahead of it by ``warm``) and cached beside the modules
(``compiled_cache`` keeps the cache in step with every module the compiled code is built from). The engine
imports :mod:`pipeline.game` and nothing above it.
"""

__all__ = [
    "budgets",
    "cache_folder",
    "compiled_cache",
    "conditions",
    "cpsat",
    "gametree",
    "kernel",
    "playouts",
    "policies",
    "reductions",
    "reference",
    "search",
    "solver",
    "status",
    "tree_figures",
    "warm",
]
