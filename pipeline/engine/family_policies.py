"""The player models' policies for the other games of the family, compiled: every model's probability of
every legal move, in one call.

The models and their rules are those of :mod:`pipeline.game.players`, the
plain reference these are checked against; Black Hole's are compiled apart
(:mod:`pipeline.engine.policies`), on its own kernel's arrays. Here a
position is the family search's numbers (:mod:`pipeline.engine.family_search`):
``ranks``, ``heights``, ``tops`` (the piles by the rank of their free card),
the foundation rank (-1 while empty), the talon's ranks and how many are
dealt; a move is a pile, or ``piles`` for a talon deal.

The looking-ahead models share one bounded search per move, to the deepest
lookahead of the ladder: it finds the longest line of moves (a line that
wins counting as long as the search looks) and the shortest win, so each
lookahead reads its own answer off the same search. Same-rank dominance
leaves out moves another stands in for, which keeps every line's length and
whether it wins (the proof in :mod:`pipeline.engine.family_search`).
"""

from __future__ import annotations

import numba
import numpy as np

from pipeline.engine.kernel import fill_moves_of, fitting_piles, neighbour_piles
from pipeline.engine.kernel import take as take_free_card
from pipeline.engine.policies import (
    DEEPEST,
    FIRST_LOOKAHEAD_ROW,
    LOOKAHEADS,
    RANDOM_ROW,
    TIPS_ROW,
    keep_tips_weights,
    normalise,
    same_rank_factor,
)
from pipeline.engine.reductions import Reduction
from pipeline.game.cards import NUM_RANKS
from pipeline.game.players import (
    EARLY_DEAL_FACTOR,
    OPENING_FACTOR,
    STUCK_FACTOR,
)

NO_WIN = DEEPEST + 1  # the shortest win of a line that shows none within the deepest lookahead


@numba.njit(cache=True)
def new_scratch(piles: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Scratch for :func:`fill_chances` in a layout of ``piles`` piles: each move's reach and shortest win,
    then the bounded search's stack (moves, next move and move count at each depth)."""
    moves = piles + 1
    return (
        np.zeros((2, moves), dtype=np.int64),
        np.zeros((DEEPEST + 1, moves), dtype=np.int64),
        np.zeros(DEEPEST + 1, dtype=np.int64),
        np.zeros(DEEPEST + 1, dtype=np.int64),
    )


@numba.njit(cache=True, _nrt=False)
def next_to(a: int, b: int, wrap: bool) -> bool:
    """Whether ranks ``a`` and ``b`` are one apart (K and A only where ranks wrap)."""
    gap = abs(a - b)
    return gap == 1 or (wrap and gap == NUM_RANKS - 1)


@numba.njit(cache=True, _nrt=False)
def _put_back(ranks: np.ndarray, heights: np.ndarray, tops: np.ndarray, pile: int) -> None:
    """Put the card taken from ``pile`` back (the tops alone: the search keeps no counts)."""
    height = heights[pile]
    if height > 0:
        tops[ranks[pile, height - 1]] &= ~(1 << pile)
    tops[ranks[pile, height]] |= 1 << pile
    heights[pile] = height + 1


@numba.njit(cache=True, _nrt=False)
def line_ahead(
    ranks, heights, tops, foundation, talon, dealt, left, wrap, dead_king, stack, nexts, counts
) -> tuple[int, int, int]:  # fmt: skip
    """(reach, shortest win, positions visited) from the position, looking DEEPEST moves ahead.

    ``reach`` is the most moves playable in a row, counted up to DEEPEST, a
    line that wins counting as DEEPEST; the shortest win is the fewest moves
    of a line that empties the piles, NO_WIN if none within DEEPEST. ``left``
    is the pile cards left. The position is restored.
    """
    if left == 0:
        return DEEPEST, 0, 0
    piles = ranks.shape[0]
    talon_size = talon.shape[0]
    dominance = Reduction.DOMINANCE.value
    counts[0] = fill_moves_of(
        ranks, heights, tops, foundation, dealt < talon_size, wrap, dead_king, dominance, stack, 0
    )
    fewest = left  # the fewest moves a win can take: one a pile card
    nexts[0] = 0
    depth = best = visited = 0
    shortest = NO_WIN
    while True:
        if nexts[depth] < counts[depth] and depth + 1 < shortest:
            move = stack[depth, nexts[depth]]
            nexts[depth] += 1
            visited += 1
            if move == piles:
                dealt += 1
                rank = talon[dealt - 1]
            else:
                rank = ranks[move, heights[move] - 1]
                take_free_card(ranks, heights, tops, move)
                left -= 1
            depth += 1
            if left == 0:
                shortest = depth  # the deeper lines left can only win later
                best = DEEPEST
            elif depth > best:
                best = depth
            if left == 0 or depth == DEEPEST:
                counts[depth] = 0
            else:
                counts[depth] = fill_moves_of(
                    ranks, heights, tops, rank, dealt < talon_size, wrap, dead_king, dominance, stack, depth
                )
            nexts[depth] = 0
            if best == DEEPEST and (shortest == fewest or fewest > DEEPEST):
                break  # no shorter win can be found
        elif depth == 0:
            return best, shortest, visited
        else:
            depth -= 1
            move = stack[depth, nexts[depth] - 1]
            if move == piles:
                dealt -= 1
            else:
                _put_back(ranks, heights, tops, move)
                left += 1
    for level in range(depth - 1, -1, -1):
        move = stack[level, nexts[level] - 1]
        if move != piles:
            _put_back(ranks, heights, tops, move)
    return best, shortest, visited


@numba.njit(cache=True, _nrt=False)
def fill_chances(
    ranks, heights, tops, foundation, talon, dealt, left, wrap, dead_king, moves, row, count, winning, chances,
    ahead, stack, nexts, counts,
) -> int:  # fmt: skip
    """Fill ``chances[player, i]`` with each player's probability of the move ``moves[row, i]`` (``count``
    legal moves); return how many positions the lookahead visited.

    ``left`` is the pile cards left; ``tops`` and ``heights`` are used as
    scratch and restored; ``ahead`` and the stack are :func:`new_scratch`'s.
    ``winning`` is a bit set of moves (bit ``piles`` for the talon deal)
    known to leave a win open: such a move reaches as far as any lookahead
    looks, and when more pile cards are left than the deepest lookahead
    looks, it shows no win within it either, so its search is not needed.
    """
    piles = ranks.shape[0]
    pile_moves = 0
    for i in range(count):
        pile_moves += moves[row, i] < piles
    # the tips weights, into the tips row
    for i in range(count):
        move = moves[row, i]
        weight = 1.0
        if move == piles:
            if left > 0 and fitting_piles(tops, talon[dealt], wrap, dead_king) == 0:
                weight *= STUCK_FACTOR
            if pile_moves > 0:
                weight *= EARLY_DEAL_FACTOR
            chances[TIPS_ROW, i] = weight
            chances[RANDOM_ROW, i] = 1.0 / count
            continue
        height = heights[move]
        rank = ranks[move, height - 1]
        others = fitting_piles(tops, rank, wrap, dead_king) & ~(1 << move)
        uncovers = height > 1
        below = ranks[move, height - 2] if uncovers else 0
        fits_below = uncovers and next_to(below, rank, wrap) and not (dead_king and rank == NUM_RANKS - 1)
        if left > 1 and others == 0 and not fits_below:
            weight *= STUCK_FACTOR
        weight *= same_rank_factor(ranks, heights, moves, row, count, move, piles)
        if uncovers and neighbour_piles(tops, below, wrap) & ~(1 << move) == 0:
            weight *= OPENING_FACTOR
        chances[TIPS_ROW, i] = weight
        chances[RANDOM_ROW, i] = 1.0 / count
    # each move's reach and shortest win, up to the deepest lookahead
    visited = 0
    for i in range(count):
        move = moves[row, i]
        after = left if move == piles else left - 1
        if (winning >> move) & 1 and after > DEEPEST:
            ahead[0, i], ahead[1, i] = DEEPEST, NO_WIN
            continue
        if move == piles:
            ahead[0, i], ahead[1, i], seen = line_ahead(
                ranks,
                heights,
                tops,
                talon[dealt],
                talon,
                dealt + 1,
                after,
                wrap,
                dead_king,
                stack,
                nexts,
                counts,
            )
        else:
            rank = ranks[move, heights[move] - 1]
            take_free_card(ranks, heights, tops, move)
            ahead[0, i], ahead[1, i], seen = line_ahead(
                ranks, heights, tops, rank, talon, dealt, after, wrap, dead_king, stack, nexts, counts
            )
            _put_back(ranks, heights, tops, move)
        visited += seen
    for player in range(FIRST_LOOKAHEAD_ROW, FIRST_LOOKAHEAD_ROW + LOOKAHEADS.shape[0]):
        depth = LOOKAHEADS[player - FIRST_LOOKAHEAD_ROW]
        wins = opens = 0
        for i in range(count):
            if ahead[1, i] <= depth:
                wins |= 1 << i
            elif ahead[0, i] >= depth:
                opens |= 1 << i
        keep_tips_weights(chances, player, wins, opens, count)
    normalise(chances, count)
    return visited
