"""What the game-tree walk's two loops share: the count limit, a winnable position's player
figures from its moves', and a move a lost sibling's stands in for.

The walk (:mod:`pipeline.engine.gametree`) keeps its positions one of two
ways, chosen by the layout as the search's memo is; both loops work out a
position's figures from its moves' by the same recurrence, written here once.
"""

from __future__ import annotations

import numba

from pipeline.engine.kernel import lowest_bit, stands_in_for
from pipeline.engine.policies import PLAYER_COUNT

COUNT_LIMIT = 1 << 62
"""The most a count may reach: a walk whose count would pass it stops (``OVERFLOW``)."""


@numba.njit(cache=True, _nrt=False)
def player_figures(chances, count, won, child_figures, figures) -> None:
    """Every player's figures in a winnable position, into ``figures``, from its ``count`` legal moves':
    ``chances[player, i]`` is the player's chance of move ``i``, ``won`` the bit set of the moves after which
    a win exists, and ``child_figures[i]`` the figures of the position after move ``i`` (read for those alone).

    A player wins with the chance of the move chosen times that move's win
    chance (0 for a move with no win behind it). With undo, a move with no win
    behind it is one dead end and a new choice from here: the tries until a
    winning move are geometric, ``lost / good`` dead ends on average (``good``
    the chance of choosing a winning move, ``lost`` that of the others), and
    then the dead ends of the winning move chosen, each in proportion to its chance.
    """
    for row in range(PLAYER_COUNT):
        win = good = lost = ahead = 0.0
        for index in range(count):
            chance = chances[row, index]
            if (won >> index) & 1:
                win += chance * child_figures[index, 2 * row]
                ahead += chance * child_figures[index, 2 * row + 1]
                good += chance
            else:
                lost += chance
        figures[2 * row] = win
        figures[2 * row + 1] = (lost + ahead) / good


@numba.njit(cache=True, _nrt=False)
def stood_in_for(ranks, heights, tops, pile, losers) -> bool:
    """Whether the move from ``pile`` is lost because a move proved lost from the same position (``losers``,
    a bit set of piles) stands in for it by same-rank dominance (proved in :mod:`pipeline.engine.gametree`)."""
    height = heights[pile]
    others = tops[ranks[pile, height - 1]] & losers & ~(1 << pile)
    while others:
        other = lowest_bit(others)
        others &= others - 1
        if heights[other] >= height and stands_in_for(ranks, heights, other, pile):
            return True
    return False
