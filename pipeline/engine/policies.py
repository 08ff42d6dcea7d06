"""The player models' policies, compiled: every model's probability of every legal move, in one call.

The models and their rules are those of :mod:`pipeline.game.players` (the
plain reference these are checked against, and where the factors are set);
here they are computed together, for the game-tree walk and for play-outs,
for every game of the family, on the kernel's arrays
(:mod:`pipeline.engine.kernel`): ``ranks``, ``heights``, ``tops`` (the piles
by the rank of their free card), the foundation rank (-1 while empty), the
talon's ranks and how many are dealt (a game without a talon has none), and
the game's two rules of rank, ``wrap`` and ``dead_king``. A move is a pile,
or the number of piles for a talon deal.

The looking-ahead models share one bounded search per move, to the deepest
lookahead of the ladder: it finds the longest line of moves (a line that
wins counting as long as the search looks) and the shortest win, so each
lookahead reads its own answer off the same search. Same-rank dominance
leaves out moves another stands in for, which keeps every line's length and
whether it wins (the proof in :mod:`pipeline.engine.search`).

Rows of ``chances`` follow :data:`pipeline.game.players.PLAYERS`: ``random``,
``tips``, then each lookahead in :data:`LOOKAHEADS`.
"""

from __future__ import annotations

import numba
import numpy as np

from pipeline.engine.kernel import (
    fitting_piles,
    moves_in_pile_order,
    neighbour_piles,
    put_back,
    take,
)
from pipeline.engine.reductions import Reduction
from pipeline.game.cards import NUM_RANKS
from pipeline.game.players import (
    EARLY_DEAL_FACTOR,
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
NO_WIN = DEEPEST + 1  # the shortest win of a line that shows none within the deepest lookahead
NO_TALON = np.zeros(0, dtype=np.int64)
# the lookahead follows the moves same-rank dominance leaves, in pile order: the order changes no answer of
# its search, only when it ends early, and pile order is the cheapest to make
_DOMINANCE = Reduction.DOMINANCE.value
"""The talon of a game without one (Black Hole, All in a Row), for :func:`fill_chances`."""
assert PLAYERS[:FIRST_LOOKAHEAD_ROW] == (Player.RANDOM, Player.TIPS)


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
    counts[0] = moves_in_pile_order(
        ranks, heights, tops, foundation, dealt < talon_size, wrap, dead_king, _DOMINANCE, stack, 0
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
                rank = take(ranks, heights, tops, move)
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
                counts[depth] = moves_in_pile_order(
                    ranks, heights, tops, rank, dealt < talon_size, wrap, dead_king, _DOMINANCE, stack, depth
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
                put_back(ranks, heights, tops, move)
                left += 1
    for level in range(depth - 1, -1, -1):
        move = stack[level, nexts[level] - 1]
        if move != piles:
            put_back(ranks, heights, tops, move)
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
    looks, so its search is not needed where what it would find of the
    shortest win is known too: none within the deepest lookahead when more
    pile cards are left than it looks, and else, once no talon card is left,
    a win of one move a pile card.
    """
    piles = ranks.shape[0]
    talon_size = talon.shape[0]
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
        if (winning >> move) & 1 and dealt + (move == piles) == talon_size:
            ahead[0, i], ahead[1, i] = DEEPEST, after
            continue
        if move == piles:
            ahead[0, i], ahead[1, i], seen = line_ahead(
                ranks, heights, tops, talon[dealt], talon, dealt + 1, after, wrap, dead_king, stack, nexts, counts
            )  # fmt: skip
        else:
            rank = take(ranks, heights, tops, move)
            ahead[0, i], ahead[1, i], seen = line_ahead(
                ranks, heights, tops, rank, talon, dealt, after, wrap, dead_king, stack, nexts, counts
            )
            put_back(ranks, heights, tops, move)
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
