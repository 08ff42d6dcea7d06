"""The stages a deal goes through, each over a pack file or one deal at a time.

- ``stage``: a stage as one object (settings, what it adds to a deal, columns, metadata), the one worker
  task of every stage, and the solve stage (the cross-check's and the grader's are in their modules).
- ``settings``: one small settings object per stage, with its defaults and bounds,
  and ``PassOptions``, how a pass runs (light).
- ``face_solve``, ``face_grade``, ``face_crosscheck``: each stage from Python, on one deal
  (``solve``, ``grade``, ``crosscheck``) or on a stream of them on the worker pool (``solve_many``...);
  ``face_solve`` loads the engine alone.
- ``face_batches``: what the batch calls share: arguments checked, chunks of one game, results in order.
- ``face_results``: whether a solve result given to ``grade`` or ``crosscheck`` is of its deal.
- ``pack_entries``: a pack folder read as typed objects (``open_pack``, ``Pack``, ``PackEntry``).
- ``sampling``: the hashed samples of the cross-check and the grader (by seed and deal id).
- ``solve``: the exact solver on the worker pool, every win replayed; a solved pack.
- ``board_stream``: many boards from files or standard input (board text or JSON Lines), answered in order.
- ``crosscheck``: CP-SAT (and the reference search) on every loss and a seeded sample of wins.
- ``grade``: the game-tree metrics, the difficulty score and the tier of each deal.
- ``tiers``: the difficulty score's weights and the tier thresholds (``tiers.toml``, shipped beside it).
- ``curation_rules``: what a puzzle pack keeps: graded wins, undisputed, playable, no duplicates, quotas.
- ``quotas``: the deals wanted per tier, read from ``easy=50,...`` or checked as a mapping.
- ``difficulty_sort``: the curated order by difficulty, an external sort of a Parquet file.
- ``curate``: a pack folder curated into a puzzle pack beside it, with levels in the curated order.
- ``chain``: one deal through solve, cross-check and grade, the worker side of a run.
- ``pack_pass``: one pass of a stage over a pack file (read → map → table → write), for every stage.

Stages use the engine and packs; reports and the command line use the stages.
"""

__all__ = [
    "board_stream",
    "chain",
    "crosscheck",
    "curate",
    "curation_rules",
    "difficulty_sort",
    "face_batches",
    "face_crosscheck",
    "face_grade",
    "face_results",
    "face_solve",
    "grade",
    "pack_entries",
    "pack_pass",
    "quotas",
    "sampling",
    "settings",
    "solve",
    "stage",
    "tiers",
]
