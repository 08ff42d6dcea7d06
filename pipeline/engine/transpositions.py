"""A transposition table: a lossy cache of positions searched in full.

A search that reaches a position again by another order of the same moves
need not search it twice; the table remembers positions (packed ints) whose
search ended without reaching the target. It is a cache, not a set: each key
maps to a pair of slots (one cache line), the first keeping the costliest
result seen there and the second the newest, and a forgotten position is
simply searched again, so the search stays exact. Measured on the hardest
deals, an 8 MiB table that forgets beats exact tables several times its
size: nearly every lookup of those went to main memory (about 170 ns here),
and a lookup is what the search does at every position.

The table starts small, so a short search touches little memory, and
doubles (keeping what it holds) each time it has taken as many stores as it
has slots, up to MAX_SLOTS.

>>> table = new_table()
>>> remember(table, 41, 3)
>>> bool(recalls(table, 41)), bool(recalls(table, 7))
(True, False)
"""

from __future__ import annotations

import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from pipeline.engine.hashset import slot_for

FIRST_SLOTS = 1 << 12
MAX_SLOTS = 1 << 20
_WEIGHT_SHIFT = 56
_KEY_BITS = (1 << _WEIGHT_SHIFT) - 1


@numba.njit(cache=True)
def new_table() -> np.ndarray:
    """An empty table of FIRST_SLOTS slots."""
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
