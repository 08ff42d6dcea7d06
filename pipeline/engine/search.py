"""The compiled depth-first search behind :mod:`pipeline.engine.solver`.

One search answers one question: can ``target`` more cards be played from a
position? With ``target`` = every card left that is "can it be won"; with
fewer, it serves the longest-play question for lost deals.

A position is its pile heights and the foundation rank; suits never
matter. A transposition table remembers positions already searched in full
without reaching the target, so they are seldom searched twice. Its key
(:func:`pipeline.engine.kernel.layout_weights`) is an exact number for the multiset of remaining
piles, as rank sequences, with the foundation rank above bit 51: positions
that differ only by which of two piles with the same ranks left is which are
one game, and share a key (docs/benchmarks.md gives what that saved on the
slowest deal known). A move changes the key by a step looked
up per pile and height. Positions with at most ``kernel.UNSTORED`` cards left are
not stored: they are cheaper to search again than to look up.

**Same-rank dominance** (:func:`pipeline.engine.kernel.fill_moves`). Let ``a`` and ``b`` be free cards of
the same rank in piles ``A`` and ``B``, where the ranks under ``a``, read
downwards, begin the ranks under ``b`` (``A`` may be shorter, down to ``a``
alone). Any line of play ``L`` that plays ``a`` now has a twin ``L'`` that
plays ``b`` now: whenever ``L`` plays a card from ``A`` or ``B``, ``L'``
plays the next card of ``B`` if the count of cards ``L`` has played from
that pile becomes strictly the larger of the two, and the next card of
``A`` otherwise. By induction ``L'`` has always played the larger of the
two counts from ``B`` and the smaller from ``A``, each card it plays is
free, and it has the rank of ``L``'s card (the two piles agree down to the
length of ``A``), so the foundation ranks are the same and ``L'`` is as
long as ``L``. So playing
``a`` now is never needed while ``b`` is free; when the two piles hold the
same ranks, the one with the lower number is tried. The rule keeps the
line's length, so it holds for any target.

**Necessary conditions** (:mod:`pipeline.engine.conditions`) cut positions from which
the target cannot be reached: for a win, the Euler walk condition with the
last card a bottom card (or rank reachability alone), and the rank order
condition, which checks the piles against the order the walk's edge counts
impose (docs/benchmarks.md gives what it cut on the slowest deal known); for
a target that spares cards, the cards outside reachable
ranks must not outnumber the spares, and with one spare card the rest must
make an Euler walk.

Speed notes, each measured (``make bench``; docs/benchmarks.md has the
figures for the first two): the helpers are compiled with ``_nrt=False`` and the loop never
rebinds an array, because Numba's atomic reference counts on array
arguments otherwise took a large share of the time; the
table of searched positions is a small lossy cache
(the transposition table of :mod:`pipeline.engine.kernel`), since a main-memory load per position cost
more than searching forgotten positions again; and a child's slot is
fetched while its elder sibling is searched.
"""

from __future__ import annotations

from enum import IntEnum

import numba
import numpy as np

from pipeline.engine.conditions import (
    MAX_ORDERED_ENDS,
    ORDER_WORDS,
    euler_walkable,
    orders_allow,
    pile_orders,
    ranks_reachable,
    reachable_cards,
    walk_orders,
)
from pipeline.engine.kernel import (
    GROW,
    POWERS_OF_5,
    UNSTORED,
    bit_length,
    child_key,
    code_of_counts,
    doubled,
    fill_moves,
    free_cards,
    key_of,
    layout_steps,
    outgrown,
    prefetch,
    put_back,
    recalls,
    remember,
    take,
)
from pipeline.engine.reductions import Reduction
from pipeline.game.cards import NUM_RANKS
from pipeline.game.deal import NUM_PILES


class SearchStatus(IntEnum):
    """How one search ended (the game-tree walk has its own :class:`~pipeline.engine.gametree.WalkStatus`).

    The compiled code reads each member's ``.value``: Numba does no arithmetic on enums.
    """

    REACHED = 1
    """The target was reached; the path holds the piles played."""
    MISSED = 0
    """Every line was searched (up to sound reductions) and none reaches the target."""
    OUT_OF_NODES = -1
    """The node budget ran out first: nothing is claimed."""


_DEPTH, _NODES, _DEEPEST, _STORED, _COUNTS_CODE, _BOTTOM_RANKS = range(6)  # the loop's kept scalars
MEMO_SIZE = 1 << 15
_GOLDEN = np.int64(0x9E3779B97F4A7C15 - (1 << 64))


@numba.njit(cache=True)
def search(ranks, start_heights, start_foundation, target, max_nodes, flags, table):
    """Whether ``target`` cards can be played from the position; returns (status, nodes, deepest, path, table).

    ``ranks[p, level]`` is the rank at ``level`` (0 = bottom) of pile ``p``,
    ``start_heights[p]`` how many cards it holds. ``status`` is a :class:`SearchStatus` value: REACHED (and
    ``path`` holds the piles played), MISSED, or OUT_OF_NODES after
    ``max_nodes`` positions; ``deepest`` is the most cards a line explored.

    ``table`` (from ``kernel.new_table``; the one returned may be a doubled
    copy) holds positions searched in full without reaching a target. Those
    cannot reach a higher target either, so one table may serve searches for
    the same start with rising targets.

    The loop itself is :func:`_descend`, which never rebinds an array: when
    the table should double it returns, the table is doubled here, and it
    carries on from the state kept in the arrays.
    """
    heights = start_heights.copy()
    counts = np.zeros(NUM_RANKS, dtype=np.int64)
    bottoms = np.zeros(NUM_RANKS, dtype=np.int64)
    remaining = 0
    for pile in range(NUM_PILES):
        if heights[pile] > 0:
            bottoms[ranks[pile, 0]] += 1
        for level in range(heights[pile]):
            counts[ranks[pile, level]] += 1
        remaining += heights[pile]
    moves = np.zeros((remaining + 1, NUM_PILES), dtype=np.int64)
    move_count = np.zeros(remaining + 1, dtype=np.int64)
    next_move = np.zeros(remaining + 1, dtype=np.int64)
    keys = np.zeros(remaining + 1, dtype=np.int64)
    entered = np.zeros(remaining + 1, dtype=np.int64)  # nodes when the position at each depth was entered
    path = np.zeros(remaining + 1, dtype=np.int64)
    memo_keys = np.full(MEMO_SIZE, -1, dtype=np.int64)
    memo = np.empty(MEMO_SIZE, dtype=np.int64)  # read only where memo_keys says it was written
    memo_orders = np.empty((MEMO_SIZE, MAX_ORDERED_ENDS, ORDER_WORDS), dtype=np.int64)
    if target <= 0:
        return SearchStatus.REACHED.value, 1, 0, path[:0], table
    bottom_ranks = 0
    for rank in range(NUM_RANKS):
        if bottoms[rank] > 0:
            bottom_ranks |= 1 << rank
    counts_code = code_of_counts(counts)
    spare = remaining - target
    if _lost(
        ranks, heights, counts, start_foundation, counts_code, bottom_ranks, spare, flags,
        memo_keys, memo, memo_orders,
    ):  # fmt: skip
        return SearchStatus.MISSED.value, 1, 0, path[:0], table
    steps = layout_steps(ranks)
    keys[0] = key_of(steps, heights, start_foundation)
    tops = free_cards(ranks, heights)
    move_count[0] = fill_moves(
        ranks, heights, tops, start_foundation, flags & Reduction.DOMINANCE.value, moves, 0
    )
    stored = 0
    for value in table:
        stored += value != 0
    scalars = np.array([0, 1, 0, stored, counts_code, bottom_ranks])
    while True:
        status = _descend(
            ranks, steps, heights, tops, counts, bottoms, moves, move_count, next_move,
            keys, entered, path, table, memo_keys, memo, memo_orders, scalars, remaining, target, max_nodes, flags,
        )  # fmt: skip
        if status != GROW:
            break
        table = doubled(table)
    nodes, deepest = scalars[_NODES], scalars[_DEEPEST]
    return status, nodes, deepest, path[:target] if status == SearchStatus.REACHED.value else path[:0], table


@numba.njit(cache=True)
def _descend(
    ranks, steps, heights, tops, counts, bottoms, moves, move_count, next_move,
    keys, entered, path, table, memo_keys, memo, memo_orders, scalars, remaining, target, max_nodes, flags,
):  # fmt: skip
    """The loop of :func:`search`, from the state in its arguments; returns a status or GROW."""
    depth, nodes, deepest = scalars[_DEPTH], scalars[_NODES], scalars[_DEEPEST]
    stored, counts_code, bottom_ranks = scalars[_STORED], scalars[_COUNTS_CODE], scalars[_BOTTOM_RANKS]
    spare = remaining - target
    status = GROW
    while not outgrown(table, stored):
        if next_move[depth] < move_count[depth]:
            pile = moves[depth, next_move[depth]]
            next_move[depth] += 1
            child = child_key(ranks, steps, heights, keys[depth], pile)
            if remaining - depth - 1 > UNSTORED:
                if next_move[depth] < move_count[depth]:  # warm the next sibling's slot meanwhile
                    prefetch(
                        table, child_key(ranks, steps, heights, keys[depth], moves[depth, next_move[depth]])
                    )
                if recalls(table, child):
                    continue  # searched in full before, by another order of the same moves
            if nodes >= max_nodes:  # the budget is spent: the child is not entered, so nodes never pass it
                status = SearchStatus.OUT_OF_NODES.value
                break
            rank = take(ranks, heights, tops, pile)
            counts[rank] -= 1
            counts_code -= POWERS_OF_5[rank]
            if heights[pile] == 0:
                bottoms[rank] -= 1
                if bottoms[rank] == 0:
                    bottom_ranks &= ~(1 << rank)
            path[depth] = pile
            nodes += 1
            deepest = max(deepest, depth + 1)
            if depth + 1 == target:
                status = SearchStatus.REACHED.value
                break
            # cheap verdicts (a failed condition, no move) are recomputed, not stored
            found = 0
            if not _lost(
                ranks, heights, counts, rank, counts_code, bottom_ranks, spare, flags,
                memo_keys, memo, memo_orders,
            ):  # fmt: skip
                found = fill_moves(
                    ranks, heights, tops, rank, flags & Reduction.DOMINANCE.value, moves, depth + 1
                )
            if found > 0:
                depth += 1
                keys[depth] = child
                entered[depth] = nodes
                move_count[depth] = found
                next_move[depth] = 0
                if remaining - depth - 1 > UNSTORED:
                    prefetch(table, child_key(ranks, steps, heights, child, moves[depth, 0]))
                continue
            if heights[pile] == 0:
                bottoms[rank] += 1
                bottom_ranks |= 1 << rank
            put_back(ranks, heights, tops, pile)
            counts[rank] += 1
            counts_code += POWERS_OF_5[rank]
        else:
            if remaining - depth > UNSTORED:
                remember(table, keys[depth], bit_length(nodes - entered[depth]))
                stored += 1
            if depth == 0:
                status = SearchStatus.MISSED.value
                break
            depth -= 1
            pile = path[depth]
            if heights[pile] == 0:
                bottoms[ranks[pile, 0]] += 1
                bottom_ranks |= 1 << ranks[pile, 0]
            rank = put_back(ranks, heights, tops, pile)
            counts[rank] += 1
            counts_code += POWERS_OF_5[rank]
    scalars[_DEPTH], scalars[_NODES], scalars[_DEEPEST] = depth, nodes, deepest
    scalars[_STORED], scalars[_COUNTS_CODE], scalars[_BOTTOM_RANKS] = stored, counts_code, bottom_ranks
    return status


@numba.njit(cache=True, _nrt=False)
def _lost(
    ranks, heights, counts, foundation, counts_code, bottom_ranks, spare, flags, memo_keys, memo, memo_orders
) -> bool:  # fmt: skip
    """Whether a necessary condition shows that a line from here leaves more than ``spare`` cards.

    A win (no spare card) needs the Euler walk condition, and the rank
    order condition with it (:func:`hopeless`).
    Otherwise cards in ranks that cannot be reached are never played, so they
    must not outnumber the spares; with one spare card the others must make
    an Euler walk (:func:`_one_spare_walkable`).
    """
    if spare == 0:
        return hopeless(
            ranks, heights, counts, foundation, counts_code, bottom_ranks, flags, memo_keys, memo, memo_orders
        )  # fmt: skip
    if not flags & (Reduction.REACHABILITY.value | Reduction.EULER.value):
        return False
    total = 0
    for rank in range(NUM_RANKS):
        total += counts[rank]
    if total - reachable_cards(counts, foundation) > spare:
        return True
    return (
        spare == 1
        and flags & Reduction.EULER.value
        and not _one_spare_walkable(counts, foundation, counts_code, bottom_ranks, memo_keys, memo)
    )


@numba.njit(cache=True, _nrt=False)
def hopeless(
    ranks: np.ndarray,
    heights: np.ndarray,
    counts: np.ndarray,
    foundation: int,
    counts_code: int,
    end_ranks: int,
    flags: int,
    memo_keys: np.ndarray,
    memo: np.ndarray,
    memo_orders: np.ndarray,
) -> bool:
    """Whether a necessary condition for a win fails.

    ``counts_code`` is :func:`code_of_counts` of ``counts`` and ``end_ranks``
    the bit set of ranks of the bottom cards of non-empty piles; the caller
    keeps both up to date. What the conditions ask of the piles depends only
    on the rank counts, the foundation and the end ranks, which pack exactly
    into 56 bits; many positions share them, so it is kept in a small
    direct-mapped memo (``memo_keys``; ``memo`` holds the result of
    :func:`~pipeline.engine.conditions.walk_orders`, -1 if no walk, and ``memo_orders``
    its orders). Only when some order is ruled out are the piles looked at.
    """
    if (
        flags & Reduction.REACHABILITY.value
        and not flags & Reduction.EULER.value
        and not ranks_reachable(counts, foundation)
    ):
        return True  # the Euler walk condition implies reachability
    if flags & Reduction.EULER.value:
        code = (foundation * POWERS_OF_5[NUM_RANKS] + counts_code) << NUM_RANKS | end_ranks
        slot = _memo_slot(memo_keys, code)
        if memo_keys[slot] != code:
            memo_keys[slot] = code
            if flags & Reduction.ORDER.value:
                memo[slot] = walk_orders(counts, foundation, end_ranks, memo_orders[slot])
            else:
                memo[slot] = 0 if euler_walkable(counts, foundation, end_ranks) else -1
        ends = memo[slot]
        if ends <= 0:
            return ends < 0
        first, second, third = pile_orders(ranks, heights)
        return not orders_allow(memo_orders[slot], ends, first, second, third)
    return False


@numba.njit(cache=True, _nrt=False)
def _memo_slot(memo_keys: np.ndarray, code: int) -> int:
    """Where the answer for ``code`` lives in a direct-mapped memo (it holds it if ``memo_keys`` says so)."""
    return ((code * _GOLDEN) >> 40) & (memo_keys.shape[0] - 1)


@numba.njit(cache=True, _nrt=False)
def _one_spare_walkable(
    counts: np.ndarray,
    foundation: int,
    counts_code: int,
    bottom_ranks: int,
    memo_keys: np.ndarray,
    memo: np.ndarray,
) -> bool:
    """Whether all cards left but at most one might make one Euler walk from ``foundation``.

    The card left out is the bottom card of its pile (one higher up would
    keep those under it too), so its rank is in ``bottom_ranks``. Answers are
    memoised like :func:`hopeless`'s.
    """
    code = (foundation * POWERS_OF_5[NUM_RANKS] + counts_code) << NUM_RANKS | bottom_ranks
    slot = _memo_slot(memo_keys, code)
    if memo_keys[slot] == code:
        return memo[slot] != 0
    possible = euler_walkable(counts, foundation)
    for rank in range(NUM_RANKS):
        if possible:
            break
        if (bottom_ranks >> rank) & 1 and counts[rank] > 0:
            counts[rank] -= 1
            possible = euler_walkable(counts, foundation)
            counts[rank] += 1
    memo_keys[slot] = code
    memo[slot] = 1 if possible else 0
    return possible
