"""The compiled kernel shared by the search and the game-tree walk.

What :mod:`pipeline.engine.search` and :mod:`pipeline.engine.gametree` both
run on, compiled once.

It holds:

* bit tricks: :func:`lowest_bit` (one machine instruction) and :func:`bit_length`;
* a growable open-addressing hash *set* of non-negative int64 keys
  (:func:`new_set` and the ``set_*`` functions), and :func:`slot_for`, the hash
  every table here probes from;
* the transposition *table* (:func:`new_table`, :func:`recalls`,
  :func:`remember`, ...): a lossy cache of positions searched in full, and
  prefetch hints into it and into any flat array;
* move generation on a position held as rank rows and pile heights
  (:func:`free_cards`, :func:`take`, :func:`put_back`; the piles that fit,
  :func:`fitting_sides`; the moves worth trying, for any layout (a talon, an
  empty foundation, ranks that do not wrap), with same-rank dominance:
  :func:`moves_in_pile_order` and :func:`moves_taller_first`, one source),
  and position keys (:func:`layout_steps`, :func:`key_of`, :func:`child_key`,
  :func:`code_of_counts`);
* the constants both loops agree on: :data:`FOUNDATION_SHIFT`,
  :data:`UNSTORED`, :data:`POWERS_OF_5`, and :data:`GROW`, the status of a
  loop that returns so that its table can be doubled.

Every function is compiled with ``numba.njit(cache=True)``; those on the hot
path also with ``_nrt=False`` (see the speed notes of :mod:`pipeline.engine.search`).
"""

from __future__ import annotations

import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from pipeline.engine import compiled_cache
from pipeline.game.cards import NUM_RANKS

compiled_cache.prepare()  # every compiled module imports this one: nothing is defined or loaded before it

# A loop (the search's or the walk's) returns GROW when a table should double: the caller doubles it and
# calls again. It differs from every status either loop returns (tests/engine/test_kernel.py checks).
GROW = 3
FOUNDATION_SHIFT = (
    51  # a position key: the layout number (below 2**51, see layout_weights), foundation rank above
)
UNSTORED = 10  # positions with this many cards left or fewer are searched again rather than stored
POWERS_OF_5 = np.array([5 ** (NUM_RANKS - 1 - rank) for rank in range(NUM_RANKS)] + [5**NUM_RANKS])


# Bit tricks


@intrinsic
def _count_trailing_zeros(typingctx, value):
    """LLVM's cttz on an int64, with 0 declared impossible (one tzcnt or bsf instruction)."""
    signature = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        int64 = ir.IntType(64)
        function_type = ir.FunctionType(int64, [int64, ir.IntType(1)])
        function = builder.module.declare_intrinsic("llvm.cttz", [int64], function_type)
        return builder.call(function, [args[0], ir.Constant(ir.IntType(1), 1)])

    return signature, codegen


@numba.njit(cache=True, _nrt=False)
def lowest_bit(value: int) -> int:
    """The index of the lowest set bit of ``value`` (which must not be 0).

    >>> lowest_bit(0b10100)
    2
    """
    return _count_trailing_zeros(value)


@numba.njit(cache=True, _nrt=False)
def bit_length(count: int) -> int:
    """How many bits ``count`` needs: a cost scale that fits the transposition table's weights.

    >>> bit_length(0), bit_length(1), bit_length(1000)
    (0, 1, 10)
    """
    bits = 0
    while count > 0:
        count >>= 1
        bits += 1
    return bits


# The hash set

_MIX_1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX_2 = np.uint64(0x94D049BB133111EB)


@numba.njit(cache=True, _nrt=False)
def slot_for(key: int, mask: int) -> int:
    """The slot of ``key`` in a table of ``mask + 1`` slots, by SplitMix64's finaliser (every key bit counts)."""
    mixed = np.uint64(key)
    mixed = (mixed ^ (mixed >> np.uint64(30))) * _MIX_1
    mixed = (mixed ^ (mixed >> np.uint64(27))) * _MIX_2
    mixed = mixed ^ (mixed >> np.uint64(31))
    return np.int64(mixed & np.uint64(mask))


@numba.njit(cache=True)
def new_set(capacity: int) -> np.ndarray:
    """An empty hash set of at least ``capacity`` slots (rounded up to a power of two).

    A growable open-addressing set of non-negative int64 keys, for compiled
    searches. Numba's own sets are slow for tens of millions of small
    integers; this one is one flat ``int64`` array (8 bytes a slot, load at
    most one half) probed linearly. Slot value 0 means empty, so a key is
    stored as ``key + 1``.

    >>> keys = new_set(4)
    >>> keys, count = set_insert(keys, 0, 41)
    >>> bool(set_contains(keys, 41)), bool(set_contains(keys, 7)), count
    (True, False, 1)
    """
    size = 16
    while size < capacity:
        size *= 2
    return np.zeros(size, dtype=np.int64)


@numba.njit(cache=True, _nrt=False)
def set_slot_of(table: np.ndarray, key: int) -> int:
    """The slot that holds ``key``, or the empty slot where inserting it would put it.

    Tables that keep values beside their keys (same slots, other arrays) use it.
    """
    mask = table.shape[0] - 1
    slot = slot_for(key, mask)
    while table[slot] != 0 and table[slot] != key + 1:
        slot = (slot + 1) & mask
    return slot


@numba.njit(cache=True, _nrt=False)
def set_probe(table: np.ndarray, key: int) -> int:
    """-1 when ``key`` is in ``table``, else the empty slot where inserting it would put it."""
    slot = set_slot_of(table, key)
    return -1 if table[slot] != 0 else slot


@numba.njit(cache=True, _nrt=False)
def set_contains(table: np.ndarray, key: int) -> bool:
    """Whether ``key`` is in ``table``."""
    return set_probe(table, key) < 0


@numba.njit(cache=True, _nrt=False)
def set_add(table: np.ndarray, key: int) -> bool:
    """Put ``key`` in ``table`` in place (never regrows it); True when it was not there."""
    slot = set_probe(table, key)
    if slot < 0:
        return False
    table[slot] = key + 1
    return True


@numba.njit(cache=True)
def grown_set(table: np.ndarray) -> np.ndarray:
    """A set twice the size holding the same keys."""
    bigger = np.zeros(table.shape[0] * 2, dtype=np.int64)
    set_move_into(table, bigger)
    return bigger


@numba.njit(cache=True, _nrt=False)
def set_move_into(table: np.ndarray, bigger: np.ndarray) -> None:
    """Add the keys of ``table`` to ``bigger`` (an empty set with more slots)."""
    for value in table:
        if value != 0:
            set_add(bigger, value - 1)


@numba.njit(cache=True)
def set_insert(table: np.ndarray, count: int, key: int) -> tuple[np.ndarray, int]:
    """Add ``key``; returns the (possibly regrown) set and the new key count.

    The set is kept at most half full.
    """
    if 2 * (count + 1) > table.shape[0]:
        table = grown_set(table)
    if set_add(table, key):
        count += 1
    return table, count


# The transposition table

FIRST_SLOTS = 1 << 12  # slots of a new transposition table
MAX_SLOTS = 1 << 20  # the most slots a transposition table doubles to
_WEIGHT_SHIFT = 56
_KEY_BITS = (1 << _WEIGHT_SHIFT) - 1


@numba.njit(cache=True)
def new_table() -> np.ndarray:
    """An empty transposition table of FIRST_SLOTS slots.

    A transposition table is a lossy cache of positions searched in full. A
    search that reaches a position again by another order of the same moves
    need not search it twice; the table remembers positions (packed ints)
    whose search ended without reaching the target. It is a cache, not a set:
    each key maps to a pair of slots (one cache line), the first keeping the
    costliest result seen there and the second the newest, and a forgotten
    position is simply searched again, so the search stays exact. Measured on
    the hardest deals, an 8 MiB table that forgets beats exact tables several
    times its size: nearly every lookup of those went to main memory, and a
    lookup is what the search does at every position (docs/benchmarks.md
    gives what a lookup cost and what the change saved).

    The table starts small, so a short search touches little memory, and
    doubles (keeping what it holds) each time it has taken as many stores as
    it has slots, up to MAX_SLOTS.

    >>> table = new_table()
    >>> remember(table, 41, 3)
    >>> bool(recalls(table, 41)), bool(recalls(table, 7))
    (True, False)
    """
    return np.zeros(FIRST_SLOTS, dtype=np.int64)


@numba.njit(cache=True, _nrt=False)
def recalls(table: np.ndarray, key: int) -> bool:
    """Whether ``key`` (a non-negative int below 2**55) is remembered."""
    pair = slot_for(key, table.shape[0] - 1) & ~1
    stored = key + 1
    return (table[pair] & _KEY_BITS) == stored or (table[pair + 1] & _KEY_BITS) == stored


@numba.njit(cache=True, _nrt=False)
def remember(table: np.ndarray, key: int, weight: int) -> None:
    """Remember ``key``, whose search took work ``weight`` (0..127, larger is dearer to redo).

    Its pair of slots keeps the dearest key seen in the first slot and the
    newest in the second, so a costly result is not pushed out by cheap ones.
    """
    pair = slot_for(key, table.shape[0] - 1) & ~1
    entry = (key + 1) | (weight << _WEIGHT_SHIFT)
    first = table[pair]
    if (first & _KEY_BITS) == key + 1:
        return
    if (first >> _WEIGHT_SHIFT) <= weight:
        table[pair + 1] = first
        table[pair] = entry
    else:
        table[pair + 1] = entry


@numba.njit(cache=True, _nrt=False)
def outgrown(table: np.ndarray, stores: int) -> bool:
    """Whether a table that has taken ``stores`` stores in all (before and since doubling) should double."""
    return stores > table.shape[0] and table.shape[0] < MAX_SLOTS


@numba.njit(cache=True)
def doubled(table: np.ndarray) -> np.ndarray:
    """A table twice the size remembering what ``table`` does."""
    bigger = np.zeros(table.shape[0] * 2, dtype=np.int64)
    for value in table:
        if value != 0:
            remember(bigger, (value & _KEY_BITS) - 1, value >> _WEIGHT_SHIFT)
    return bigger


@intrinsic
def _prefetch(typingctx, array, index):
    """LLVM's prefetch of ``array[index]`` into every cache level (a hint; no effect on results)."""
    signature = types.void(array, index)

    def codegen(context, builder, signature, args):
        array_type = signature.args[0]
        view = context.make_array(array_type)(context, builder, args[0])
        pointer = cgutils.get_item_pointer(context, builder, array_type, view, [args[1]], wraparound=False)
        byte_pointer = ir.IntType(8).as_pointer()
        int32 = ir.IntType(32)
        function_type = ir.FunctionType(ir.VoidType(), [byte_pointer, int32, int32, int32])
        function = cgutils.get_or_insert_function(builder.module, function_type, "llvm.prefetch.p0")
        read, keep, data = ir.Constant(int32, 0), ir.Constant(int32, 3), ir.Constant(int32, 1)
        builder.call(function, [builder.bitcast(pointer, byte_pointer), read, keep, data])
        return context.get_dummy_value()

    return signature, codegen


@numba.njit(cache=True, _nrt=False)
def prefetch(table: np.ndarray, key: int) -> None:
    """Start loading the slot of ``key``, so that a later lookup finds it in the cache."""
    _prefetch(table, slot_for(key, table.shape[0] - 1))


@numba.njit(cache=True, _nrt=False)
def prefetch_at(array: np.ndarray, index: int) -> None:
    """Start loading ``array[index]`` (a flat int64 array), so that a later read finds it in the cache."""
    _prefetch(array, index)


# Position keys


@numba.njit(cache=True, _nrt=False)
def code_of_counts(counts: np.ndarray) -> int:
    """The rank counts (each 0..4) as one base-5 number, ace the most significant digit (see POWERS_OF_5)."""
    code = 0
    for rank in range(NUM_RANKS):
        code = code * 5 + counts[rank]
    return code


@numba.njit(cache=True)
def layout_weights(ranks: np.ndarray) -> np.ndarray:
    """``weights[p, h]``: pile ``p``'s share of the layout number when it holds ``h`` cards.

    Piles whose ``h`` bottom cards have the same ranks share a weight, so the
    layout number (the sum over piles) depends only on the multiset of
    remaining piles: positions that differ by swapping such piles are one
    game, and the table sees them as one. The number is exact: each distinct
    remaining pile ``c``, held by at most ``m_c`` piles at once, is a digit of
    radix ``m_c + 1``; the radixes multiply to at most 2**51, as
    ``m_c + 1 <= 2**m_c`` and the ``m_c`` add up to the 51 cards. Any layout
    of piles (a row of ``ranks`` each) has such a number; the search with marks
    (:mod:`pipeline.engine.search`) keys All in a Row's positions by it.
    """
    piles, size = ranks.shape
    weights = np.zeros((piles, size + 1), dtype=np.int64)
    radix = 1
    for pile in range(piles):
        for height in range(1, size + 1):
            first = pile
            for other in range(pile):
                if _same_bottom(ranks, other, pile, height):
                    first = other
                    break
            if first < pile:
                weights[pile, height] = weights[first, height]
                continue
            sharing = 0
            for other in range(pile, piles):
                sharing += _same_bottom(ranks, other, pile, height)
            weights[pile, height] = radix
            radix *= sharing + 1
    return weights


@numba.njit(cache=True)
def layout_steps(ranks: np.ndarray, merge: bool = True) -> np.ndarray:
    """``steps[p, h]``: what playing from pile ``p`` when it holds ``h`` cards adds to the layout number.

    With ``merge`` (the default), piles whose ``h`` bottom cards have the same
    ranks share a weight (:func:`layout_weights`), so the number depends only
    on the multiset of remaining piles. Without it the layout number is the
    heights in mixed radix ``pile_size + 1`` (a dense number, for a bit array).
    """
    piles, size = ranks.shape
    if merge:
        weights = layout_weights(ranks)
    else:
        weights = np.zeros((piles, size + 1), dtype=np.int64)
        radix = 1
        for pile in range(piles):
            for height in range(size + 1):
                weights[pile, height] = height * radix
            radix *= size + 1
    steps = np.zeros((piles, size + 1), dtype=np.int64)
    for pile in range(piles):
        for height in range(1, size + 1):
            steps[pile, height] = weights[pile, height - 1] - weights[pile, height]
    return steps


@numba.njit(cache=True, _nrt=False)
def layout_of(steps: np.ndarray, heights: np.ndarray) -> int:
    """The layout number of ``heights``, by :func:`layout_steps`' ``steps`` (0 when every pile is empty)."""
    layout = 0
    for pile in range(heights.shape[0]):
        for height in range(1, heights[pile] + 1):
            layout -= steps[pile, height]
    return layout


@numba.njit(cache=True, _nrt=False)
def key_of(steps: np.ndarray, heights: np.ndarray, foundation: int) -> int:
    """The key of a position: each pile's weight is what playing it down to empty would take away."""
    return layout_of(steps, heights) | foundation << FOUNDATION_SHIFT


@numba.njit(cache=True, _nrt=False)
def _same_bottom(ranks: np.ndarray, a: int, b: int, height: int) -> bool:
    """Whether piles ``a`` and ``b`` have the same ranks in their ``height`` bottom cards."""
    for level in range(height):
        if ranks[a, level] != ranks[b, level]:
            return False
    return True


@numba.njit(cache=True, _nrt=False)
def child_key(ranks: np.ndarray, steps: np.ndarray, heights: np.ndarray, key: int, pile: int) -> int:
    """The key of the position after playing the free card of ``pile`` from position ``key``."""
    height = heights[pile]
    layout = (key & ((1 << FOUNDATION_SHIFT) - 1)) + steps[pile, height]
    return layout | (ranks[pile, height - 1] << FOUNDATION_SHIFT)


# Move generation


@numba.njit(cache=True)
def free_cards(ranks: np.ndarray, heights: np.ndarray) -> np.ndarray:
    """``tops[r]``: the bit set of piles whose free card has rank ``r``."""
    tops = np.zeros(NUM_RANKS, dtype=np.int64)
    for pile in range(heights.shape[0]):
        if heights[pile] > 0:
            tops[ranks[pile, heights[pile] - 1]] |= 1 << pile
    return tops


@numba.njit(cache=True, _nrt=False)
def take(ranks: np.ndarray, heights: np.ndarray, tops: np.ndarray, pile: int) -> int:
    """Take the free card of ``pile`` off it; return its rank."""
    height = heights[pile] - 1
    rank = ranks[pile, height]
    tops[rank] &= ~(1 << pile)
    heights[pile] = height
    if height > 0:
        tops[ranks[pile, height - 1]] |= 1 << pile
    return rank


@numba.njit(cache=True, _nrt=False)
def put_back(ranks: np.ndarray, heights: np.ndarray, tops: np.ndarray, pile: int) -> int:
    """Undo :func:`take` on ``pile``; return the rank put back."""
    height = heights[pile]
    if height > 0:
        tops[ranks[pile, height - 1]] &= ~(1 << pile)
    rank = ranks[pile, height]
    tops[rank] |= 1 << pile
    heights[pile] = height + 1
    return rank


def _move_lister(taller_first: bool):  # returns a compiled function
    """The move lister, compiled for one order of the moves: pile order (``taller_first`` False) or taller
    piles first. One source serves both; the order is a constant of the compiled code. The pile-order one is
    inlined where it is called (the Black Hole search lists moves at every position, and a call there costs
    more than the listing); the other is called, as the searches with marks called their lister before (one
    inlined version measured slower there)."""

    @numba.njit(cache=True, _nrt=False, inline="never" if taller_first else "always")
    def list_moves(
        ranks, heights, tops, foundation, talon_left, wrap, dead_king, dominance, moves, row
    ) -> int:
        """Fill ``moves[row]`` with the moves worth trying from a position, in the order to try them; return
        how many. Every search, walk and player model lists its moves here.

        The piles whose free card fits on ``foundation`` (-1: empty, any card;
        K and A neighbours only where ranks ``wrap``; nothing on a ``dead_king``),
        in pile order, or taller piles first (ties in pile order); then the
        talon deal (the number of piles) while talon cards are left.
        ``tops[r]`` is the bit set of piles whose free card has rank ``r``.
        With ``dominance`` nonzero, a move that same-rank dominance (proved in
        :mod:`pipeline.engine.search`) shows another stands in for is left out;
        with 0 every legal move is listed.
        """
        above, below = fitting_sides(tops, foundation, wrap, dead_king)
        fitting = above | below
        # only where two free cards of one rank fit can one stand in for another
        twins = dominance and (above & (above - 1) or below & (below - 1))
        count = 0
        while fitting:
            pile = lowest_bit(fitting)
            fitting &= fitting - 1
            if twins and _dominated(ranks, heights, tops, pile):
                continue
            at = count
            while taller_first and at > 0 and heights[moves[row, at - 1]] < heights[pile]:
                moves[row, at] = moves[row, at - 1]  # taller piles first, equal heights in pile order
                at -= 1
            moves[row, at] = pile
            count += 1
        if talon_left:
            moves[row, count] = ranks.shape[0]
            count += 1
        return count

    return list_moves


moves_in_pile_order = _move_lister(False)
moves_taller_first = _move_lister(True)


@numba.njit(cache=True, _nrt=False)
def _dominated(ranks: np.ndarray, heights: np.ndarray, tops: np.ndarray, pile: int) -> bool:
    """Whether another pile whose free card has the rank of ``pile``'s stands in for it (taller, or as tall
    with the same ranks and a lower number). Every such pile's card fits where ``pile``'s does."""
    height = heights[pile]
    others = tops[ranks[pile, height - 1]] & ~(1 << pile)
    while others:
        other = lowest_bit(others)
        others &= others - 1
        other_height = heights[other]
        if other_height < height or (other_height == height and other > pile):
            continue
        if stands_in_for(ranks, heights, other, pile):
            return True
    return False


@numba.njit(cache=True, _nrt=False)
def stands_in_for(ranks: np.ndarray, heights: np.ndarray, b: int, a: int) -> bool:
    """Whether pile ``b`` can stand in for pile ``a`` by same-rank dominance, given that their free cards have
    the same rank and ``b`` is at least as tall: the ranks under ``a``'s free card, read downwards, begin those
    under ``b``'s (see :mod:`pipeline.engine.search`)."""
    offset = heights[b] - heights[a]
    for level in range(heights[a] - 1):
        if ranks[a, level] != ranks[b, level + offset]:
            return False
    return True


@numba.njit(cache=True)
def pile_tallies(ranks: np.ndarray, heights: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """What the searches keep of the piles, by rank: the piles by the rank of their free card, the cards of
    each rank, the piles whose bottom card has each rank, and the even-ranked cards less the odd-ranked."""
    tops = np.zeros(NUM_RANKS, dtype=np.int64)
    counts = np.zeros(NUM_RANKS, dtype=np.int64)
    bottoms = np.zeros(NUM_RANKS, dtype=np.int64)
    even_minus_odd = 0
    for pile in range(ranks.shape[0]):
        if heights[pile] > 0:
            bottoms[ranks[pile, 0]] += 1
            tops[ranks[pile, heights[pile] - 1]] |= 1 << pile
        for level in range(heights[pile]):
            counts[ranks[pile, level]] += 1
            even_minus_odd += 1 - 2 * (ranks[pile, level] & 1)
    return tops, counts, bottoms, even_minus_odd


@numba.njit(cache=True, _nrt=False)
def put_back_card(
    ranks: np.ndarray,
    heights: np.ndarray,
    tops: np.ndarray,
    counts: np.ndarray,
    bottoms: np.ndarray,
    pile: int,
) -> int:
    """:func:`put_back` the card taken from ``pile``, counting it in ``counts`` (and ``bottoms`` when it is the
    pile's bottom card); return its rank."""
    rank = put_back(ranks, heights, tops, pile)
    counts[rank] += 1
    if heights[pile] == 1:
        bottoms[rank] += 1
    return rank


@numba.njit(cache=True, _nrt=False)
def fitting_sides(tops: np.ndarray, foundation: int, wrap: bool, dead_king: bool) -> tuple[int, int]:
    """The bit sets of piles whose free card fits on ``foundation``: one rank above it, and one rank below
    (K and A neighbours only where ranks ``wrap``; nothing fits on a ``dead_king``). On an empty foundation
    (-1) any card fits: every pile, given as above."""
    if foundation < 0:
        return _every_pile(tops), 0
    if dead_king and foundation == NUM_RANKS - 1:
        return 0, 0
    above = tops[foundation + 1] if foundation < NUM_RANKS - 1 else tops[0] if wrap else 0
    below = tops[foundation - 1] if foundation > 0 else tops[NUM_RANKS - 1] if wrap else 0
    return above, below


@numba.njit(cache=True, _nrt=False)
def _every_pile(tops: np.ndarray) -> int:
    """The bit set of every pile with a free card (kept apart: the listing of moves stays small)."""
    every = 0
    for rank in range(NUM_RANKS):
        every |= tops[rank]
    return every


@numba.njit(cache=True, _nrt=False)
def fitting_piles(tops: np.ndarray, foundation: int, wrap: bool, dead_king: bool) -> int:
    """The bit set of piles whose free card fits on ``foundation`` (-1: empty, any card)."""
    above, below = fitting_sides(tops, foundation, wrap, dead_king)
    return above | below


@numba.njit(cache=True, _nrt=False)
def neighbour_piles(tops: np.ndarray, rank: int, wrap: bool) -> int:
    """The piles whose free card is one rank from ``rank`` (K and A only where ranks wrap)."""
    piles = 0
    if rank < NUM_RANKS - 1:
        piles |= tops[rank + 1]
    elif wrap:
        piles |= tops[0]
    if rank > 0:
        piles |= tops[rank - 1]
    elif wrap:
        piles |= tops[NUM_RANKS - 1]
    return piles
