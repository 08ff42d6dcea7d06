"""The engine's default budgets, in a module light enough for the command line to read without Numba.

Budgets count work (nodes, positions, deterministic seconds), never wall-clock
time, so a verdict or a grade is the same on a busy machine as on an idle one.
"""

MAX_BUDGET = 2**62
"""The largest node or position budget accepted: the searches count in 64-bit integers."""
MAX_TIME_LIMIT = 86_400.0
"""The largest CP-SAT limit accepted, in deterministic seconds per deal (about a day)."""

DEFAULT_MAX_NODES = 50_000_000
"""Solver nodes per deal: many times what the hardest deal measured needed (docs/benchmarks.md gives how many)."""
DEFAULT_MAX_POSITIONS = 22_000_000
"""Game-tree positions entered per deal when grading: enough to count nearly every winnable deal exactly;
docs/benchmarks.md gives what it costs."""
DEFAULT_TIME_LIMIT = 30.0
"""CP-SAT deterministic seconds per deal (units of work, not of wall clock): no deal measured has needed them
all; docs/benchmarks.md gives what they cost."""
DEFAULT_REFERENCE_NODES = 1_000_000_000
"""Nodes of the plain reference search, which settles a deal when CP-SAT cannot."""
