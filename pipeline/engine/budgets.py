"""The engine's default budgets, in a module light enough for the command line to read without Numba.

Budgets count work (nodes, positions, deterministic seconds) or memory, never
wall-clock time, so a verdict or a grade is the same on a busy machine as on
an idle one.

>>> walk_table_bytes(DEFAULT_MAX_MEMORY_MIB) == (DEFAULT_MAX_MEMORY_MIB - WORKER_BASE_MIB) * 2**20
True
"""

MAX_BUDGET = 2**62
"""The largest node or position budget accepted: the searches count in 64-bit integers."""
MAX_TIME_LIMIT = 86_400.0
"""The largest CP-SAT limit accepted, in deterministic seconds per deal (about a day)."""

DEFAULT_MAX_NODES = 50_000_000
"""Solver nodes per deal: many times what the hardest deal measured needed (docs/benchmarks.md gives how many)."""
DEFAULT_MAX_MEMORY_MIB = 1024
"""What one grading worker may hold, in MiB: the budget that decides which deals are graded exactly. The
game-tree walk's tables get what :data:`WORKER_BASE_MIB` leaves of it (:func:`walk_table_bytes`)."""
WORKER_BASE_MIB = 320
"""What a grading worker holds beside its walk's tables, in MiB: Python, the compiled engine, pyarrow,
OR-Tools, the worker's rows and what the stages before grading left.

Measured on 2026-12-06 (the walk's tables, what forgetting records takes
included, capped at the rest of 1,024 MiB): loky workers of the grade stage
held 197 to 203 MiB once the engine was loaded, 241 to 261 MiB at the
high-water mark after grading small deals; a process that had solved one of
the default run's four largest trees (seed 20261129: 116, 408, 567, 669)
held 186 MiB before grading it and peaked at 908 MiB; the two workers of a
fresh clone's ``make run``, which also solve and cross-check, peaked at 999.6
and 999.8 MiB.
"""
MAX_MEMORY_MIB = 2**20
"""The largest memory budget accepted, in MiB (1 TiB)."""
LEAST_MAX_MEMORY_MIB = WORKER_BASE_MIB + 40
"""The least memory budget accepted, in MiB: the worker's base and the least tables the walk takes (the
tables it starts with and a few records: about 36.5 MiB), rounded up to 40 MiB."""
DEFAULT_MAX_POSITIONS = 250_000_000
"""Game-tree positions entered per deal when grading: a guard against a walk that, under a memory budget set
low, forgets and walks the same positions again for a very long time (about two minutes of walking, at about
2 million positions a second). Not what decides which deals are graded: the memory budget does."""
DEFAULT_TIME_LIMIT = 30.0
"""CP-SAT deterministic seconds per deal (units of work, not of wall clock): no deal measured has needed them
all; docs/benchmarks.md gives what they cost."""
DEFAULT_REFERENCE_NODES = 1_000_000_000
"""Nodes of the plain reference search, which settles a deal when CP-SAT cannot."""


def walk_table_bytes(max_memory_mib: int) -> int:
    """The bytes a grading worker's walk may give its tables within ``max_memory_mib`` MiB: the budget less
    :data:`WORKER_BASE_MIB` (``max_bytes`` of :func:`pipeline.engine.gametree.tree_of`).

    >>> walk_table_bytes(LEAST_MAX_MEMORY_MIB) // 2**20
    40
    """
    return (max_memory_mib - WORKER_BASE_MIB) * 2**20
