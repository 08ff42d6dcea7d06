"""The player models' policies, compiled: every model's probability of every legal move, in one call.

The models and their rules are those of :mod:`pipeline.game.players` (the
plain reference these are checked against, and where the factors are set);
here they are computed together, for the game-tree walk and for play-outs,
on the kernel's arrays: ``ranks``, ``heights`` and ``tops`` (the piles by the
rank of their free card). The looking-ahead models share one bounded search
per move, to the deepest lookahead of the ladder.

Rows of ``chances`` follow :data:`pipeline.game.players.PLAYERS`: ``random``,
``tips``, then each lookahead in :data:`LOOKAHEADS`.
"""

from __future__ import annotations

import numba
import numpy as np

from pipeline.engine.kernel import fill_moves, put_back, take
from pipeline.engine.reductions import Reduction
from pipeline.game.cards import NUM_RANKS
from pipeline.game.deal import NUM_PILES
from pipeline.game.players import (
    LONE_CARD_FACTOR,
    OPENING_FACTOR,
    PLAYERS,
    STUCK_FACTOR,
    TALLER_FACTOR,
    Player,
)

LOOKAHEADS = np.array([p.lookahead for p in PLAYERS if p.lookahead is not None], dtype=np.int64)
PLAYER_COUNT = len(PLAYERS)
FIGURES = 2 * PLAYER_COUNT
"""A position's player figures: each player's (win chance, dead ends), in the order of PLAYERS."""
RANDOM_ROW, TIPS_ROW = PLAYERS.index(Player.RANDOM), PLAYERS.index(Player.TIPS)
FIRST_LOOKAHEAD_ROW = 2
DEEPEST = int(LOOKAHEADS.max())
assert PLAYERS[:FIRST_LOOKAHEAD_ROW] == (Player.RANDOM, Player.TIPS)


def new_scratch() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Scratch for :func:`fill_chances`: each move's reach, then the bounded search's stack
    (moves, next move and move count at each depth)."""
    return (
        np.zeros(NUM_PILES, dtype=np.int64),
        np.zeros((DEEPEST + 1, NUM_PILES), dtype=np.int64),
        np.zeros(DEEPEST + 1, dtype=np.int64),
        np.zeros(DEEPEST + 1, dtype=np.int64),
    )


@numba.njit(cache=True, _nrt=False)
def _up(rank: int) -> int:
    return rank + 1 if rank < NUM_RANKS - 1 else 0


@numba.njit(cache=True, _nrt=False)
def _down(rank: int) -> int:
    return rank - 1 if rank > 0 else NUM_RANKS - 1


@numba.njit(cache=True, _nrt=False)
def longest_within(ranks, heights, tops, foundation, limit, stack, nexts, counts) -> tuple[int, int]:
    """The most moves playable in a row from the position, counted up to ``limit`` (the position is restored),
    and how many positions the search visited.

    Same-rank dominance leaves out moves another stands in for: it keeps
    every number of cards that can be played (:mod:`pipeline.engine.search`).
    """
    if limit <= 0:
        return 0, 0
    dominance = Reduction.DOMINANCE.value
    counts[0] = fill_moves(ranks, heights, tops, foundation, dominance, stack, 0)
    nexts[0] = 0
    depth = best = visited = 0
    while True:
        if nexts[depth] < counts[depth]:
            pile = stack[depth, nexts[depth]]
            nexts[depth] += 1
            rank = take(ranks, heights, tops, pile)
            visited += 1
            depth += 1
            if depth > best:
                best = depth
            if best == limit:
                break
            counts[depth] = fill_moves(ranks, heights, tops, rank, dominance, stack, depth)
            nexts[depth] = 0
        elif depth == 0:
            return best, visited
        else:
            depth -= 1
            put_back(ranks, heights, tops, stack[depth, nexts[depth] - 1])
    for level in range(depth - 1, -1, -1):
        put_back(ranks, heights, tops, stack[level, nexts[level] - 1])
    return best, visited


@numba.njit(cache=True, _nrt=False)
def fill_chances(
    ranks, heights, tops, remaining, moves, row, count, winning, chances, reach, stack, nexts, counts
) -> int:
    """Fill ``chances[player, i]`` with each player's probability of the move ``moves[row, i]`` (``count`` legal moves);
    return how many positions the lookahead visited.

    ``remaining`` is the cards left in the position; ``tops`` and ``heights``
    are used as scratch and restored; ``reach`` (one slot per pile) and the
    stack of :func:`new_scratch` are scratch. ``winning`` is a bit set of
    piles whose move is known to leave a win open (0 if none is known): a win
    plays every card left, so such a move reaches as far as any lookahead
    looks, and its bounded search is not needed.
    """
    # the tips weights, into the tips row
    for i in range(count):
        pile = moves[row, i]
        height = heights[pile]
        rank = ranks[pile, height - 1]
        weight = 1.0
        others = (tops[_up(rank)] | tops[_down(rank)]) & ~(1 << pile)
        uncovers = height > 1
        below = ranks[pile, height - 2] if uncovers else 0
        fits_below = uncovers and (below == _up(rank) or below == _down(rank))
        if remaining > 1 and others == 0 and not fits_below:
            weight *= STUCK_FACTOR
        weight *= same_rank_factor(ranks, heights, moves, row, count, pile, ranks.shape[0])
        if uncovers and (tops[_up(below)] | tops[_down(below)]) & ~(1 << pile) == 0:
            weight *= OPENING_FACTOR
        chances[TIPS_ROW, i] = weight
        chances[RANDOM_ROW, i] = 1.0 / count
    # each move's reach: how far a line goes after it, up to the deepest lookahead
    visited = 0
    for i in range(count):
        pile = moves[row, i]
        left = remaining - 1
        limit = DEEPEST if DEEPEST < left else left
        if (winning >> pile) & 1:
            reach[i] = limit
            continue
        rank = take(ranks, heights, tops, pile)
        reach[i], seen = longest_within(ranks, heights, tops, rank, limit, stack, nexts, counts)
        visited += seen
        put_back(ranks, heights, tops, pile)
    for player in range(FIRST_LOOKAHEAD_ROW, FIRST_LOOKAHEAD_ROW + LOOKAHEADS.shape[0]):
        depth = LOOKAHEADS[player - FIRST_LOOKAHEAD_ROW]
        wins = opens = 0
        for i in range(count):
            left = remaining - 1
            limit = depth if depth < left else left
            seen = reach[i] if reach[i] < limit else limit
            if seen == limit and left <= depth:
                wins |= 1 << i
            elif seen == limit:
                opens |= 1 << i
        keep_tips_weights(chances, player, wins, opens, count)
    normalise(chances, count)
    return visited


@numba.njit(cache=True, _nrt=False)
def same_rank_factor(ranks, heights, moves, row, count, pile, piles) -> float:
    """``tips``' factor for the move from ``pile`` among the pile moves of ``moves[row]`` (``count`` moves; a
    move of ``piles`` or more is no pile's): TALLER_FACTOR if no other fan offering its rank is taller,
    LONE_CARD_FACTOR if it empties a one-card fan while a taller one offers its rank, else 1."""
    height = heights[pile]
    rank = ranks[pile, height - 1]
    tallest, lone_beaten, shared = True, False, False
    for j in range(count):
        other = moves[row, j]
        if other != pile and other < piles and ranks[other, heights[other] - 1] == rank:
            shared = True
            if heights[other] > height:
                tallest = False
                if height == 1:
                    lone_beaten = True
    factor = 1.0
    if shared and tallest:
        factor *= TALLER_FACTOR
    if lone_beaten:
        factor *= LONE_CARD_FACTOR
    return factor


@numba.njit(cache=True, _nrt=False)
def keep_tips_weights(chances, player, wins, opens, count) -> None:
    """Fill row ``player`` of ``chances`` with the tips weights of the moves in ``wins`` (a bit set of move
    indices) if any, else of those in ``opens`` if any, else of all ``count`` moves; 0 for the others."""
    kept = wins if wins else opens if opens else (1 << count) - 1
    for i in range(count):
        chances[player, i] = chances[TIPS_ROW, i] if (kept >> i) & 1 else 0.0


@numba.njit(cache=True, _nrt=False)
def normalise(chances, count) -> None:
    """Divide each row of ``chances`` from the tips row on by its sum over the ``count`` moves."""
    for player in range(TIPS_ROW, chances.shape[0]):
        total = 0.0
        for i in range(count):
            total += chances[player, i]
        for i in range(count):
            chances[player, i] /= total
