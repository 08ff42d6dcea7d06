"""The exact solver (placeholder while the compiled search is written: it calls the reference)."""

from __future__ import annotations

from pipeline.deal import Deal
from pipeline.reference import reference_solve
from pipeline.rules import Position
from pipeline.verdicts import SolveResult

DEFAULT_MAX_NODES = 50_000_000


def solve(deal: Deal, *, max_nodes: int = DEFAULT_MAX_NODES, start: Position | None = None) -> SolveResult:
    """Solve ``deal`` from ``start`` (default: its opening)."""
    import sys

    sys.setrecursionlimit(10_000)
    return reference_solve(deal, max_nodes=max_nodes, start=start)
