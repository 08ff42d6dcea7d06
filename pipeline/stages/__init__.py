"""The stages a deal goes through, each over a pack file or one deal at a time.

- ``settings``: one small settings object per stage, with its defaults (light).
- ``sampling``: the hashed samples of the cross-check and the grader (by seed and deal id).
- ``solve``: the exact solver on the worker pool, every win replayed; a solved pack.
- ``crosscheck``: CP-SAT (and the reference search) on every loss and a seeded sample of wins.
- ``grade``: the game-tree metrics, the difficulty score and the tier of each deal.
- ``tiers``: the difficulty score's weights and the tier thresholds (``tiers.toml``, shipped beside it).
- ``calibrate``: thresholds at the quartiles of a sample's scores.
- ``curate``: graded wins, no duplicates, quotas per tier, levels in difficulty order.
- ``chain``: one deal through solve, cross-check and grade, the worker side of a run.
- ``pack_pass``: the read → map → table → write path that solve, crosscheck and grade share.

Stages use the engine and packs; reports and the command line use the stages.
"""

__all__ = [
    "calibrate",
    "chain",
    "crosscheck",
    "curate",
    "grade",
    "pack_pass",
    "sampling",
    "settings",
    "solve",
    "tiers",
]
