"""Lines of play for the tests: one that ends at a dead end."""

from __future__ import annotations

from collections.abc import Sequence

from pipeline.game.deal import Deal
from pipeline.game.rules import Position


def stuck_line(deal: Deal, opening: Sequence[int] = ()) -> list[int]:
    """Moves from ``opening`` (the deal's opening position when empty) that end with cards left and no legal
    move: always the lowest legal move, else (when that line wins) always the highest."""
    for pick in (min, max):
        moves = list(opening)
        position = Position.after(deal, moves)
        while legal := position.legal_moves():
            moves.append(pick(legal))
            position = position.play(moves[-1])
        if not position.is_won:
            return moves
    raise AssertionError("both greedy lines win")
