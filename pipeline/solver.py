"""The exact solver: a compiled depth-first search over packed positions.

A position packs into one int: two bits of height for each of the 17 piles
(bits ``2p, 2p+1``) and the foundation rank above them (bits 34..37); suits
never matter. The search keeps a table of positions proved lost, so each is
searched once, and uses these sound reductions:

* **Necessary conditions** (``pipeline.prunes``): rank reachability and the
  Euler walk condition; a position failing one is lost.
* **Same-rank dominance.** Let ``a`` and ``b`` be free cards of the same rank
  in different piles, where ``a`` is the last card of its pile. Any line of
  play that plays ``a`` now can play ``b`` now instead and ``a`` at the
  moment it played ``b`` (or never): the foundation ranks are unchanged, ``a``
  stays free because nothing ever covers it, and playing ``b`` early only
  frees the card under it sooner. So moving ``a`` now is never needed while
  ``b`` is free; when every free card of that rank is a last card, one of
  them is tried. The same swap shows that two same-rank free cards whose piles
  hold the same ranks below them are interchangeable: one of them is tried.
  Both keep the line's length, so the most cards playable is unchanged too.

A node budget stops the search with ``unknown``; a budget never turns into
``solved`` or ``unsolvable``. Every ``solved`` is replayed by
``pipeline.rules`` before it is returned.

For an unsolvable deal the most cards that can be played is found by a
second, branch-and-bound pass without the necessary conditions (they cut
lines that are lost but still long): a position is cut when the cards played
plus every card left in a rank it can still reach cannot beat the best line.

>>> from pipeline.deal import Deal, EXAMPLE_BOARD
>>> result = solve(Deal.from_board_text(EXAMPLE_BOARD))   # PySol FC deal 1
>>> result.verdict.value, result.max_cards_played
('unsolvable', 3)
>>> from pipeline.dealing import seeded_deal
>>> result = solve(seeded_deal(1, 0))
>>> result.verdict.value, len(result.solution)
('solved', 51)
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numba
import numpy as np

from pipeline import hashset
from pipeline.cards import rank_of
from pipeline.deal import NUM_PILES, Deal
from pipeline.prunes import NUM_RANKS, euler_walkable, ranks_reachable, reachable_cards
from pipeline.rules import WINNING_LENGTH, Position, replay
from pipeline.verdicts import SolveResult, Verdict

DEFAULT_MAX_NODES = 50_000_000

USE_REACHABILITY = 1
USE_EULER = 2
USE_DOMINANCE = 4
ALL_REDUCTIONS = USE_REACHABILITY | USE_EULER | USE_DOMINANCE

_SOLVED, _UNSOLVABLE, _UNKNOWN = 1, 0, -1
_FOUNDATION_SHIFT = 2 * NUM_PILES
_UNSTORED = 10
_MEMO_SIZE = 1 << 15
_POWERS_OF_5 = np.array([5 ** (NUM_RANKS - 1 - rank) for rank in range(NUM_RANKS)] + [5**NUM_RANKS])
_GOLDEN = np.int64(0x9E3779B97F4A7C15 - (1 << 64))


@dataclass(frozen=True)
class SearchOptions:
    """Which reductions the search uses (all by default; tests switch them off)."""

    reachability: bool = True
    euler: bool = True
    dominance: bool = True

    @property
    def flags(self) -> int:
        return (
            (USE_REACHABILITY if self.reachability else 0)
            | (USE_EULER if self.euler else 0)
            | (USE_DOMINANCE if self.dominance else 0)
        )


def solve(
    deal: Deal,
    *,
    max_nodes: int = DEFAULT_MAX_NODES,
    start: Position | None = None,
    options: SearchOptions = SearchOptions(),
) -> SolveResult:
    """Solve ``deal`` from ``start`` (default: its opening position).

    The solution lists the piles to play from ``start`` on.
    """
    began = time.perf_counter()
    position = start or Position.start(deal)
    ranks = np.array([[rank_of(card) for card in pile] for pile in deal.piles], dtype=np.int64)
    heights = np.array(position.heights, dtype=np.int64)
    status, nodes, deepest, path = _search(ranks, heights, position.foundation_rank, max_nodes, options.flags)
    base = position.cards_played
    if status == _SOLVED:
        solution = tuple(int(pile) for pile in path)
        replay(deal, solution, start=position)
        return SolveResult(Verdict.SOLVED, solution, int(nodes), time.perf_counter() - began, WINNING_LENGTH)
    if status == _UNKNOWN:
        return SolveResult(Verdict.UNKNOWN, (), int(nodes), time.perf_counter() - began, base + int(deepest))
    longest, extra_nodes = _longest_play(ranks, heights, position.foundation_rank, int(deepest))
    return SolveResult(
        Verdict.UNSOLVABLE, (), int(nodes + extra_nodes), time.perf_counter() - began, base + int(longest)
    )


@numba.njit(cache=True, inline="always")
def _adjacent(a: int, b: int) -> bool:
    difference = a - b
    return difference == 1 or difference == -1 or difference == 12 or difference == -12


@numba.njit(cache=True)
def _pack(heights: np.ndarray, foundation: int) -> int:
    key = foundation << _FOUNDATION_SHIFT
    for pile in range(NUM_PILES):
        key |= heights[pile] << (2 * pile)
    return key


@numba.njit(cache=True)
def _same_below(ranks: np.ndarray, heights: np.ndarray, a: int, b: int) -> bool:
    """Whether piles ``a`` and ``b`` hold the same ranks under their free cards."""
    if heights[a] != heights[b]:
        return False
    for level in range(heights[a] - 1):
        if ranks[a, level] != ranks[b, level]:
            return False
    return True


@numba.njit(cache=True)
def _moves(
    ranks: np.ndarray,
    heights: np.ndarray,
    tops: np.ndarray,
    foundation: int,
    flags: int,
    moves: np.ndarray,
    row: int,
) -> int:
    """Fill ``moves[row]`` with the piles worth playing, in pile order; return how many.

    ``tops[r]`` is the bit set of piles whose free card has rank ``r``.
    """
    fitting = tops[foundation + 1 if foundation < NUM_RANKS - 1 else 0]
    fitting |= tops[foundation - 1 if foundation > 0 else NUM_RANKS - 1]
    count = 0
    pile = 0
    while fitting >> pile:
        if (fitting >> pile) & 1:
            moves[row, count] = pile
            count += 1
        pile += 1
    if not flags & USE_DOMINANCE or count < 2:
        return count
    # every free card of a fitting rank is a candidate, so dominance only compares candidates
    dominated = 0
    for index in range(count):
        pile = moves[row, index]
        height = heights[pile]
        rank = ranks[pile, height - 1]
        for other_index in range(count):
            other = moves[row, other_index]
            other_height = heights[other]
            if other == pile or ranks[other, other_height - 1] != rank:
                continue
            if height == 1 and other_height > 1:
                dominated |= 1 << index  # a last card waits for a same-rank card that frees another
                break
            if other < pile and _same_below(ranks, heights, other, pile):
                dominated |= 1 << index  # the twin pile with the lower number is tried instead
                break
    kept = 0
    for index in range(count):
        if not (dominated >> index) & 1:
            moves[row, kept] = moves[row, index]
            kept += 1
    return kept


@numba.njit(cache=True)
def _hopeless(
    counts: np.ndarray,
    foundation: int,
    counts_code: int,
    end_ranks: int,
    flags: int,
    memo_keys: np.ndarray,
    memo: np.ndarray,
) -> bool:
    """Whether a necessary condition fails.

    ``counts_code`` is :func:`_counts_code` of ``counts`` and ``end_ranks``
    the bit set of ranks of the bottom cards of non-empty piles; the caller
    keeps both up to date. The answer depends only on the rank counts, the
    foundation and the end ranks, which pack exactly into 56 bits; many
    positions share them, so the answers are kept in a small direct-mapped
    memo (``memo_keys``, ``memo``).
    """
    if flags & USE_REACHABILITY and not flags & USE_EULER and not ranks_reachable(counts, foundation):
        return True  # the Euler walk condition implies reachability
    if flags & USE_EULER:
        code = (foundation * _POWERS_OF_5[NUM_RANKS] + counts_code) << NUM_RANKS | end_ranks
        slot = ((code * _GOLDEN) >> 40) & (memo_keys.shape[0] - 1)
        if memo_keys[slot] == code:
            return memo[slot]
        lost = not euler_walkable(counts, foundation, end_ranks)
        memo_keys[slot] = code
        memo[slot] = lost
        return lost
    return False


@numba.njit(cache=True)
def _counts_code(counts: np.ndarray) -> int:
    """The rank counts (each 0..4) as one base-5 number, ace the most significant digit."""
    code = 0
    for rank in range(NUM_RANKS):
        code = code * 5 + counts[rank]
    return code


@numba.njit(cache=True)
def _free_cards(ranks: np.ndarray, heights: np.ndarray) -> np.ndarray:
    """``tops[r]``: the bit set of piles whose free card has rank ``r``."""
    tops = np.zeros(NUM_RANKS, dtype=np.int64)
    for pile in range(NUM_PILES):
        if heights[pile] > 0:
            tops[ranks[pile, heights[pile] - 1]] |= 1 << pile
    return tops


@numba.njit(cache=True, inline="always")
def _take(ranks: np.ndarray, heights: np.ndarray, tops: np.ndarray, pile: int) -> int:
    """Take the free card of ``pile`` off it; return its rank."""
    height = heights[pile] - 1
    rank = ranks[pile, height]
    tops[rank] &= ~(1 << pile)
    heights[pile] = height
    if height > 0:
        tops[ranks[pile, height - 1]] |= 1 << pile
    return rank


@numba.njit(cache=True, inline="always")
def _put_back(ranks: np.ndarray, heights: np.ndarray, tops: np.ndarray, pile: int) -> int:
    """Undo :func:`_take` on ``pile``; return the rank put back."""
    height = heights[pile]
    if height > 0:
        tops[ranks[pile, height - 1]] &= ~(1 << pile)
    rank = ranks[pile, height]
    tops[rank] |= 1 << pile
    heights[pile] = height + 1
    return rank


@numba.njit(cache=True)
def _drop_dead(ranks, heights, key, dead, moves, slots, row, count):
    """Keep in ``moves[row]`` the moves whose positions are not in the table ``dead``,
    and in ``slots[row]`` where each would be stored once proved lost.

    All of a position's children are looked up together, so the memory
    loads overlap; no child can join the table while its siblings are
    searched (their positions all lack a card the child still has).
    """
    kept = 0
    for index in range(count):
        pile = moves[row, index]
        rank = ranks[pile, heights[pile] - 1]
        child = key - (1 << (2 * pile))
        child = (child & ((1 << _FOUNDATION_SHIFT) - 1)) | (rank << _FOUNDATION_SHIFT)
        slot = hashset.probe(dead, child)
        if slot >= 0:
            moves[row, kept] = pile
            slots[row, kept] = slot
            kept += 1
    return kept


@numba.njit(cache=True)
def _search(ranks, start_heights, start_foundation, max_nodes, flags):
    """Depth-first search; returns (status, nodes, deepest cards played, path)."""
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
    depth_limit = remaining + 1
    moves = np.zeros((depth_limit, NUM_PILES), dtype=np.int64)
    slots = np.full((depth_limit, NUM_PILES), -1, dtype=np.int64)  # where a child would be stored
    home = np.full(depth_limit, -1, dtype=np.int64)  # where the position at each depth would be stored
    home_size = np.zeros(depth_limit, dtype=np.int64)  # table size when that slot was found
    move_count = np.zeros(depth_limit, dtype=np.int64)
    next_move = np.zeros(depth_limit, dtype=np.int64)
    keys = np.zeros(depth_limit, dtype=np.int64)
    path = np.zeros(depth_limit, dtype=np.int64)
    dead = hashset.new_table(1 << 12)
    dead_count = 0
    memo_keys = np.full(_MEMO_SIZE, -1, dtype=np.int64)
    memo = np.zeros(_MEMO_SIZE, dtype=np.bool_)
    nodes = 1
    deepest = 0
    if remaining == 0:
        return _SOLVED, nodes, 0, path[:0]
    counts_code = _counts_code(counts)
    end_ranks = 0
    for rank in range(NUM_RANKS):
        if bottoms[rank] > 0:
            end_ranks |= 1 << rank
    if _hopeless(counts, start_foundation, counts_code, end_ranks, flags, memo_keys, memo):
        return _UNSOLVABLE, nodes, 0, path[:0]
    keys[0] = _pack(heights, start_foundation)
    tops = _free_cards(ranks, heights)
    move_count[0] = _moves(ranks, heights, tops, start_foundation, flags, moves, 0)
    depth = 0
    while True:
        if next_move[depth] < move_count[depth]:
            pile = moves[depth, next_move[depth]]
            child_home = slots[depth, next_move[depth]]
            next_move[depth] += 1
            rank = _take(ranks, heights, tops, pile)
            counts[rank] -= 1
            counts_code -= _POWERS_OF_5[rank]
            if heights[pile] == 0:
                bottoms[rank] -= 1
                if bottoms[rank] == 0:
                    end_ranks &= ~(1 << rank)
            child = keys[depth] - (1 << (2 * pile))
            child = (child & ((1 << _FOUNDATION_SHIFT) - 1)) | (rank << _FOUNDATION_SHIFT)
            path[depth] = pile
            nodes += 1
            if depth + 1 > deepest:
                deepest = depth + 1
            if depth + 1 == remaining:
                return _SOLVED, nodes, deepest, path[:remaining]
            if nodes > max_nodes:
                return _UNKNOWN, nodes, deepest, path[:0]
            # cheap verdicts (a failed condition, no move) are recomputed, not stored:
            # the table keeps only positions whose moves were all searched
            if not _hopeless(counts, rank, counts_code, end_ranks, flags, memo_keys, memo):
                found = _moves(ranks, heights, tops, rank, flags, moves, depth + 1)
                if remaining - depth - 2 > _UNSTORED:
                    found = _drop_dead(ranks, heights, child, dead, moves, slots, depth + 1, found)
                if found > 0:
                    depth += 1
                    home[depth] = child_home
                    home_size[depth] = dead.shape[0]
                    keys[depth] = child
                    move_count[depth] = found
                    next_move[depth] = 0
                    continue
            if heights[pile] == 0:
                bottoms[rank] += 1
                end_ranks |= 1 << rank
            _put_back(ranks, heights, tops, pile)
            counts[rank] += 1
            counts_code += _POWERS_OF_5[rank]
        else:
            if remaining - depth > _UNSTORED:
                if home[depth] >= 0 and home_size[depth] == dead.shape[0]:
                    dead, dead_count = hashset.store(dead, dead_count, home[depth], keys[depth])
                else:
                    dead, dead_count = hashset.insert(dead, dead_count, keys[depth])
            if depth == 0:
                return _UNSOLVABLE, nodes, deepest, path[:0]
            depth -= 1
            pile = path[depth]
            if heights[pile] == 0:
                bottoms[ranks[pile, 0]] += 1
                end_ranks |= 1 << ranks[pile, 0]
            rank = _put_back(ranks, heights, tops, pile)
            counts[rank] += 1
            counts_code += _POWERS_OF_5[rank]


@numba.njit(cache=True)
def _may_leave_at_most(
    counts: np.ndarray, foundation: int, spare: int, memo_keys: np.ndarray, memo: np.ndarray
) -> bool:
    """Whether a line from here might leave at most ``spare`` cards unplayed (a necessary condition).

    Cards in ranks that cannot be reached are never played; with no card to
    spare every card must lie on one Euler walk, and with one to spare the
    walk may skip one card of some rank. Answers for up to one spare card are
    memoised like :func:`_hopeless`'s.
    """
    total = 0
    code = foundation
    for rank in range(NUM_RANKS):
        total += counts[rank]
        code = code * 5 + counts[rank]
    if total - reachable_cards(counts, foundation) > spare:
        return False
    if spare >= 2:
        return True
    code = code * 2 + spare
    slot = ((code * _GOLDEN) >> 40) & (memo_keys.shape[0] - 1)
    if memo_keys[slot] == code:
        return memo[slot]
    possible = euler_walkable(counts, foundation)
    if not possible and spare == 1:
        for rank in range(NUM_RANKS):
            if counts[rank] > 0:
                counts[rank] -= 1
                possible = euler_walkable(counts, foundation)
                counts[rank] += 1
                if possible:
                    break
    memo_keys[slot] = code
    memo[slot] = possible
    return possible


@numba.njit(cache=True)
def _longest_play(ranks, start_heights, start_foundation, known):
    """The most cards playable from the start, at least ``known``; returns (cards, nodes).

    Called only once a win is refuted, so all but one card is the most there
    can be. Targets are tried from the top down: the first target some line
    reaches is the answer. A high target is cheap to refute, since a line that
    reaches it may leave only a card or two unplayed, which the Euler walk
    condition checks hard; and the hardest deals turn out to reach the top.
    """
    remaining = 0
    for pile in range(NUM_PILES):
        remaining += start_heights[pile]
    nodes = 0
    for target in range(remaining - 1, known, -1):
        reached, searched = _reaches(ranks, start_heights, start_foundation, target)
        nodes += searched
        if reached:
            return target, nodes
    return known, nodes


@numba.njit(cache=True)
def _reaches(ranks, start_heights, start_foundation, target):
    """Whether some line plays ``target`` cards from the start; returns (reached, nodes).

    Every position on a line has played + left = the cards at the start, so
    reaching the target means leaving at most ``remaining - target`` cards
    unplayed, whatever the position: the bound each position must meet.
    """
    heights = start_heights.copy()
    counts = np.zeros(NUM_RANKS, dtype=np.int64)
    remaining = 0
    for pile in range(NUM_PILES):
        for level in range(heights[pile]):
            counts[ranks[pile, level]] += 1
        remaining += heights[pile]
    spare = remaining - target
    depth_limit = remaining + 1
    moves = np.zeros((depth_limit, NUM_PILES), dtype=np.int64)
    move_count = np.zeros(depth_limit, dtype=np.int64)
    next_move = np.zeros(depth_limit, dtype=np.int64)
    path = np.zeros(depth_limit, dtype=np.int64)
    keys = np.zeros(depth_limit, dtype=np.int64)
    seen = hashset.new_table(1 << 12)
    seen_count = 0
    memo_keys = np.full(_MEMO_SIZE, -1, dtype=np.int64)
    memo = np.zeros(_MEMO_SIZE, dtype=np.bool_)
    nodes = 0
    if target <= 0:
        return True, nodes
    tops = _free_cards(ranks, heights)
    move_count[0] = _moves(ranks, heights, tops, start_foundation, USE_DOMINANCE, moves, 0)
    keys[0] = _pack(heights, start_foundation)
    depth = 0
    while True:
        if next_move[depth] < move_count[depth]:
            pile = moves[depth, next_move[depth]]
            next_move[depth] += 1
            rank = _take(ranks, heights, tops, pile)
            counts[rank] -= 1
            child = keys[depth] - (1 << (2 * pile))
            child = (child & ((1 << _FOUNDATION_SHIFT) - 1)) | (rank << _FOUNDATION_SHIFT)
            path[depth] = pile
            nodes += 1
            if depth + 1 >= target:
                return True, nodes
            if not hashset.contains(seen, child) and _may_leave_at_most(counts, rank, spare, memo_keys, memo):
                seen, seen_count = hashset.insert(seen, seen_count, child)
                found = _moves(ranks, heights, tops, rank, USE_DOMINANCE, moves, depth + 1)
                if found > 0:
                    depth += 1
                    keys[depth] = child
                    move_count[depth] = found
                    next_move[depth] = 0
                    continue
            _put_back(ranks, heights, tops, pile)
            counts[rank] += 1
        else:
            if depth == 0:
                return False, nodes
            depth -= 1
            counts[_put_back(ranks, heights, tops, path[depth])] += 1
