"""One exact pass over the game tree of a position: the numbers difficulty grades are built from.

:func:`walk_tree` visits every position reachable from a start once
(depth-first, memoised in an exact hash table of packed positions) and
computes, for each, the number of distinct winning move sequences from it
and the probability that a player who picks uniformly among the legal moves
wins from it. Positions are packed like the search's raw positions: two bits
of height per pile and the foundation rank above bit 34.

Only prunes that cut *lost* positions are used: the Euler walk condition with
the last card a bottom card, and the rank order condition
(:mod:`pipeline.prunes`). A position they cut has no winning line, so it adds
0 to every count and probability, whatever lies below it. The solver's
same-rank dominance is *not* used: it skips moves that may win too, which is
right for finding one solution and wrong for counting them all. So
``reached`` counts the positions the pass reached: every winnable one, and
each lost one up to the point where a condition or a dead end showed it lost.

A second pass runs over the winnable positions in the order cards are
played, counting the winning lines from the start to each (``lines_to``), so
that the branching along winning lines can be weighted by how many lines
pass through each position.

Counts are exact 64-bit integers; a count that would pass 2**62 stops the
pass (status OVERFLOW) rather than wrap. A budget of positions stops it too
(OUT_OF_BUDGET): then nothing it found is claimed.

>>> from pipeline.deal import Deal, EXAMPLE_BOARD
>>> from pipeline.rules import Position
>>> tree = tree_of(Deal.from_board_text(EXAMPLE_BOARD), Position.start(Deal.from_board_text(EXAMPLE_BOARD)))
>>> tree.status == EXACT, tree.solutions, tree.win_probability
(True, 0, 0.0)
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np

from pipeline.cards import rank_of
from pipeline.deal import NUM_PILES, Deal
from pipeline.hashset import slot_of
from pipeline.prunes import MAX_ORDERED_ENDS, NUM_RANKS, ORDER_WORDS
from pipeline.rules import Position
from pipeline.search import MEMO_SIZE, USE_EULER, USE_ORDER, code_of_counts, hopeless

EXACT, OUT_OF_BUDGET, OVERFLOW = 0, 1, 2
_FOUNDATION_SHIFT = 2 * NUM_PILES
_COUNT_LIMIT = 1 << 62
_FIRST_CAPACITY = 1 << 12


@dataclass(frozen=True)
class Tree:
    """What one pass over the game tree from a position found (meaningful only when ``status`` is EXACT)."""

    status: int
    solutions: int  # distinct winning move sequences
    win_probability: float  # uniformly random legal moves
    winnable: int  # positions from which a win exists
    reachable: int  # the start, and every position one move from a winnable one
    mean_moves_on_winning_lines: float  # legal moves, averaged over every position of every winning line
    mean_moves_winnable: float  # legal moves, averaged over the winnable positions that are not won
    winning_first_moves: int  # legal moves from the start after which a win still exists
    first_moves: int  # legal moves from the start
    forced_moves: int  # along ``line``: positions with one legal move
    decisions: int  # along ``line``: positions with more than one
    traps: int  # along ``line``: decisions with a move after which no win exists
    first_trap: int  # along ``line``: moves played before the first trap, -1 if none


def tree_of(deal: Deal, start: Position, line: tuple[int, ...] = (), max_positions: int = 50_000_000) -> Tree:
    """The game tree numbers of ``deal`` from ``start``; the along-the-line ones follow ``line`` (a win)."""
    ranks = np.array([[rank_of(card) for card in pile] for pile in deal.piles], dtype=np.int64)
    heights = np.array(start.heights, dtype=np.int64)
    path = np.array(line, dtype=np.int64)
    numbers = walk_tree(ranks, heights, start.foundation_rank, path, max_positions)
    status, solutions, probability, winnable, reachable = numbers[:5]
    on_lines, on_winnable, winning_first, first, forced, decisions, traps, first_trap = numbers[5:]
    return Tree(
        int(status), int(solutions), float(probability), int(winnable), int(reachable), float(on_lines),
        float(on_winnable), int(winning_first), int(first), int(forced), int(decisions), int(traps), int(first_trap),
    )  # fmt: skip


@numba.njit(cache=True)
def walk_tree(ranks, start_heights, start_foundation, line, max_positions):
    """The numbers of :class:`Tree`, in its field order, for the position (``ranks``, heights, foundation)."""
    heights = start_heights.copy()
    remaining = 0
    counts = np.zeros(NUM_RANKS, dtype=np.int64)
    for pile in range(NUM_PILES):
        remaining += heights[pile]
        for level in range(heights[pile]):
            counts[ranks[pile, level]] += 1
    keys = np.zeros(_FIRST_CAPACITY, dtype=np.int64)  # packed position + 1, 0 = empty slot
    solutions = np.zeros(_FIRST_CAPACITY, dtype=np.int64)
    odds = np.zeros(_FIRST_CAPACITY, dtype=np.float64)
    memo_keys = np.full(MEMO_SIZE, -1, dtype=np.int64)
    memo = np.empty(MEMO_SIZE, dtype=np.int64)
    memo_orders = np.empty((MEMO_SIZE, MAX_ORDERED_ENDS, ORDER_WORDS), dtype=np.int64)
    crossings = np.zeros(NUM_RANKS, dtype=np.int64)
    stack_keys = np.zeros(remaining + 1, dtype=np.int64)
    stack_moves = np.zeros((remaining + 1, NUM_PILES), dtype=np.int64)
    stack_count = np.zeros(remaining + 1, dtype=np.int64)
    stack_next = np.zeros(remaining + 1, dtype=np.int64)
    stack_solutions = np.zeros(remaining + 1, dtype=np.int64)
    stack_odds = np.zeros(remaining + 1, dtype=np.float64)
    played = np.zeros(remaining + 1, dtype=np.int64)
    stored = 0
    status = EXACT
    start_key = _pack(heights, start_foundation)
    # enter the start
    depth = 0
    foundation = start_foundation
    entered = _enter(
        ranks, heights, counts, foundation, remaining, memo_keys, memo, memo_orders, crossings, stack_moves, 0
    )
    if entered < 0:  # decided at once: won (no card left) or lost
        won = 1 if entered == -1 else 0
        keys, solutions, odds, stored = _store(keys, solutions, odds, stored, start_key, won, float(won))
        return _finish(ranks, start_heights, start_foundation, line, keys, solutions, odds, stored, status)
    stack_keys[0] = start_key
    stack_count[0] = entered
    stack_next[0] = 0
    stack_solutions[0] = 0
    stack_odds[0] = 0.0
    while True:
        if stack_next[depth] < stack_count[depth]:
            pile = stack_moves[depth, stack_next[depth]]
            stack_next[depth] += 1
            rank = ranks[pile, heights[pile] - 1]
            child = _child(stack_keys[depth], pile, rank)
            slot = slot_of(keys, child)
            if keys[slot] != 0:
                stack_solutions[depth] += solutions[slot]
                stack_odds[depth] += odds[slot]
            else:
                heights[pile] -= 1
                counts[rank] -= 1
                left = remaining - depth - 1
                moves = _enter(
                    ranks,
                    heights,
                    counts,
                    rank,
                    left,
                    memo_keys,
                    memo,
                    memo_orders,
                    crossings,
                    stack_moves,
                    depth + 1,
                )
                if moves < 0:
                    won = 1 if moves == -1 else 0
                    keys, solutions, odds, stored = _store(
                        keys, solutions, odds, stored, child, won, float(won)
                    )
                    stack_solutions[depth] += won
                    stack_odds[depth] += won
                    heights[pile] += 1
                    counts[rank] += 1
                else:
                    played[depth] = pile
                    depth += 1
                    stack_keys[depth] = child
                    stack_count[depth] = moves
                    stack_next[depth] = 0
                    stack_solutions[depth] = 0
                    stack_odds[depth] = 0.0
                if stored > max_positions:
                    status = OUT_OF_BUDGET
                    break
            if stack_solutions[depth] > _COUNT_LIMIT:
                status = OVERFLOW
                break
        else:
            total = stack_solutions[depth]
            probability = stack_odds[depth] / stack_count[depth]
            keys, solutions, odds, stored = _store(
                keys, solutions, odds, stored, stack_keys[depth], total, probability
            )
            if depth == 0:
                break
            depth -= 1
            pile = played[depth]
            heights[pile] += 1
            counts[ranks[pile, heights[pile] - 1]] += 1
            stack_solutions[depth] += total
            stack_odds[depth] += probability
            if stack_solutions[depth] > _COUNT_LIMIT:
                status = OVERFLOW
                break
    return _finish(ranks, start_heights, start_foundation, line, keys, solutions, odds, stored, status)


@numba.njit(cache=True)
def _enter(
    ranks, heights, counts, foundation, left, memo_keys, memo, memo_orders, crossings, moves, row
) -> int:
    """-1 if the position is won, -2 if it is lost at once; otherwise fill ``moves[row]`` and return how many.

    Lost at once: no legal move, or the search's necessary conditions for a win
    fail (:func:`pipeline.search.hopeless`, with its memo).
    """
    if left == 0:
        return -1
    end_ranks = 0
    for pile in range(NUM_PILES):
        if heights[pile] > 0:
            end_ranks |= 1 << ranks[pile, 0]
    code = code_of_counts(counts)
    flags = USE_EULER | USE_ORDER
    if hopeless(
        ranks, heights, counts, foundation, code, end_ranks, flags, memo_keys, memo, memo_orders, crossings
    ):
        return -2
    count = _legal(ranks, heights, foundation, moves[row])
    return count if count > 0 else -2


@numba.njit(cache=True)
def _pack(heights, foundation) -> int:
    key = foundation << _FOUNDATION_SHIFT
    for pile in range(NUM_PILES):
        key |= heights[pile] << (2 * pile)
    return key


@numba.njit(cache=True)
def _child(key, pile, rank) -> int:
    child = key - (1 << (2 * pile))
    return (child & ((1 << _FOUNDATION_SHIFT) - 1)) | (rank << _FOUNDATION_SHIFT)


@numba.njit(cache=True)
def _unpack(key, heights) -> int:
    for pile in range(NUM_PILES):
        heights[pile] = (key >> (2 * pile)) & 3
    return key >> _FOUNDATION_SHIFT


@numba.njit(cache=True)
def _store(keys, solutions, odds, stored, key, count, probability):
    """Store ``key`` with its solution count and winning probability; the table doubles at half load."""
    if 2 * (stored + 1) > keys.shape[0]:
        bigger_keys = np.zeros(2 * keys.shape[0], dtype=np.int64)
        bigger_solutions = np.zeros(2 * keys.shape[0], dtype=np.int64)
        bigger_odds = np.zeros(2 * keys.shape[0], dtype=np.float64)
        for slot in range(keys.shape[0]):
            if keys[slot] != 0:
                target = slot_of(bigger_keys, keys[slot] - 1)
                bigger_keys[target] = keys[slot]
                bigger_solutions[target] = solutions[slot]
                bigger_odds[target] = odds[slot]
        keys, solutions, odds = bigger_keys, bigger_solutions, bigger_odds
    slot = slot_of(keys, key)
    if keys[slot] == 0:
        stored += 1
    keys[slot] = key + 1
    solutions[slot] = count
    odds[slot] = probability
    return keys, solutions, odds, stored


@numba.njit(cache=True)
def _left(key) -> int:
    total = 0
    for pile in range(NUM_PILES):
        total += (key >> (2 * pile)) & 3
    return total


@numba.njit(cache=True)
def _wins(keys, solutions, key) -> bool:
    """Whether the table holds ``key`` as a position from which a win exists."""
    slot = slot_of(keys, key)
    return keys[slot] != 0 and solutions[slot] > 0


@numba.njit(cache=True)
def _legal(ranks, heights, foundation, moves) -> int:
    """Fill ``moves`` with the piles whose free card fits on ``foundation``; return how many."""
    count = 0
    for pile in range(NUM_PILES):
        if heights[pile] > 0:
            difference = ranks[pile, heights[pile] - 1] - foundation
            if difference == 1 or difference == -1 or difference == 12 or difference == -12:
                moves[count] = pile
                count += 1
    return count


@numba.njit(cache=True)
def _finish(ranks, start_heights, start_foundation, line, keys, solutions, odds, stored, status):
    """The numbers of :class:`Tree` from the filled table: totals, the forward pass, the line."""
    start_key = _pack(start_heights, start_foundation)
    start_slot = slot_of(keys, start_key)
    total = solutions[start_slot]
    probability = odds[start_slot]
    winnable = 0
    for slot in range(keys.shape[0]):
        if keys[slot] != 0 and solutions[slot] > 0:
            winnable += 1
    heights = np.zeros(NUM_PILES, dtype=np.int64)
    moves = np.zeros(NUM_PILES, dtype=np.int64)
    # winnable positions by cards left, most first: the order in which lines pass through them
    order = np.zeros(winnable, dtype=np.int64)
    depth_of = np.zeros(winnable, dtype=np.int64)
    index = 0
    for slot in range(keys.shape[0]):
        if keys[slot] != 0 and solutions[slot] > 0:
            order[index] = slot
            depth_of[index] = -_left(keys[slot] - 1)
            index += 1
    order = order[np.argsort(depth_of, kind="mergesort")]
    lines_to = np.zeros(keys.shape[0], dtype=np.float64)
    lines_to[start_slot] = 1.0
    weighted = 0.0
    positions_on_lines = 0.0
    moves_winnable = 0.0
    not_won = 0
    for slot in order:
        foundation = _unpack(keys[slot] - 1, heights)
        count = _legal(ranks, heights, foundation, moves)
        if count == 0:
            continue  # won
        not_won += 1
        moves_winnable += count
        through = lines_to[slot] * solutions[slot]
        weighted += through * count
        positions_on_lines += through
        for index in range(count):
            pile = moves[index]
            child = _child(keys[slot] - 1, pile, ranks[pile, heights[pile] - 1])
            if _wins(keys, solutions, child):
                lines_to[slot_of(keys, child)] += lines_to[slot]
    on_lines = weighted / positions_on_lines if positions_on_lines > 0 else 0.0
    on_winnable = moves_winnable / not_won if not_won > 0 else 0.0
    # the opening moves, then the positions along ``line``
    foundation = _unpack(start_key, heights)
    first = _legal(ranks, heights, foundation, moves)
    winning_first = 0
    for index in range(first):
        pile = moves[index]
        winning_first += _wins(keys, solutions, _child(start_key, pile, ranks[pile, heights[pile] - 1]))
    forced = decisions = traps = 0
    first_trap = -1
    key = start_key
    for step in range(line.shape[0]):
        foundation = _unpack(key, heights)
        count = _legal(ranks, heights, foundation, moves)
        if count == 1:
            forced += 1
        elif count > 1:
            decisions += 1
            for index in range(count):
                pile = moves[index]
                if not _wins(keys, solutions, _child(key, pile, ranks[pile, heights[pile] - 1])):
                    traps += 1
                    if first_trap < 0:
                        first_trap = step
                    break
        pile = line[step]
        key = _child(key, pile, ranks[pile, heights[pile] - 1])
    return (
        status, total, probability, winnable, stored, on_lines, on_winnable,
        winning_first, first, forced, decisions, traps, first_trap,
    )  # fmt: skip
