"""What the game-tree tests count along a line by hand: forced moves, decisions and traps."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pipeline.game.rules import Position


def line_counts(
    start: Position, line: Sequence[int], winnable: Callable[[Position], bool]
) -> tuple[int, int, int, int]:
    """(forced moves, decisions, traps, first trap) along ``line`` from ``start``: a position with one legal
    move is forced, one with more is a decision, and a decision is a trap when one of its moves leads to a
    position that is not ``winnable``; the first trap is the moves played before it (-1 when none)."""
    forced = decisions = traps = 0
    first_trap = -1
    position = start
    for step, move in enumerate(line):
        moves = position.legal_moves()
        if len(moves) == 1:
            forced += 1
        else:
            decisions += 1
            if not all(winnable(position.play(m)) for m in moves):
                traps += 1
                first_trap = step if first_trap < 0 else first_trap
        position = position.play(move)
    return forced, decisions, traps, first_trap
