"""A plain reference search: every legal move in pile order, nothing pruned.

It keeps only a set of positions already explored (so a position reached by
two move orders is searched once), which changes no verdict. It shares no
code with the fast solver and exists to check it; it is slow on purpose.
"""

from __future__ import annotations

import time

from pipeline.cards import rank_of
from pipeline.deal import NUM_PILES, Deal
from pipeline.rules import WINNING_LENGTH, Position
from pipeline.verdicts import SolveResult, Verdict


def reference_solve(deal: Deal, *, max_nodes: int = 50_000_000, start: Position | None = None) -> SolveResult:
    """Solve ``deal`` (from ``start``, default its opening) by exhaustive search."""
    began = time.perf_counter()
    position = start or Position.start(deal)
    piles = deal.piles
    heights = list(position.heights)
    explored: set[tuple[tuple[int, ...], int]] = set()
    path: list[int] = []
    base_played = position.cards_played
    best = base_played
    nodes = 0

    def search(foundation: int) -> bool | None:
        nonlocal nodes, best
        nodes += 1
        if nodes > max_nodes:
            return None
        played = WINNING_LENGTH - sum(heights)
        best = max(best, played)
        if played == WINNING_LENGTH:
            return True
        key = (tuple(heights), foundation)
        if key in explored:
            return False
        explored.add(key)
        for pile in range(NUM_PILES):
            height = heights[pile]
            if not height:
                continue
            rank = rank_of(piles[pile][height - 1])
            if (rank - foundation) % 13 not in (1, 12):
                continue
            heights[pile] -= 1
            path.append(pile)
            found = search(rank)
            heights[pile] += 1
            if found is None or found:
                return found
            path.pop()
        return False

    found = search(position.foundation_rank)
    seconds = time.perf_counter() - began
    if found is None:
        return SolveResult(Verdict.UNKNOWN, (), nodes, seconds, best)
    if found:
        return SolveResult(Verdict.SOLVED, tuple(path), nodes, seconds, WINNING_LENGTH)
    return SolveResult(Verdict.UNSOLVABLE, (), nodes, seconds, best)
