"""A growable open-addressing set of non-negative int64 keys, for compiled searches.

Numba's own sets are slow for tens of millions of small integers; this one is
one flat ``int64`` array (8 bytes a slot, load at most one half) probed
linearly. Slot value 0 means empty, so a key is stored as ``key + 1``.

>>> table = new_table(4)
>>> table, count = insert(table, 0, 41)
>>> bool(contains(table, 41)), bool(contains(table, 7)), count
(True, False, 1)
"""

from __future__ import annotations

import numba
import numpy as np

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
def new_table(capacity: int) -> np.ndarray:
    """An empty table of at least ``capacity`` slots (rounded up to a power of two)."""
    size = 16
    while size < capacity:
        size *= 2
    return np.zeros(size, dtype=np.int64)


@numba.njit(cache=True, _nrt=False)
def slot_of(table: np.ndarray, key: int) -> int:
    """The slot that holds ``key``, or the empty slot where inserting it would put it.

    Tables that keep values beside their keys (same slots, other arrays) use it.
    """
    mask = table.shape[0] - 1
    slot = slot_for(key, mask)
    while table[slot] != 0 and table[slot] != key + 1:
        slot = (slot + 1) & mask
    return slot


@numba.njit(cache=True, _nrt=False)
def probe(table: np.ndarray, key: int) -> int:
    """-1 when ``key`` is in ``table``, else the empty slot where inserting it would put it."""
    slot = slot_of(table, key)
    return -1 if table[slot] != 0 else slot


@numba.njit(cache=True, _nrt=False)
def contains(table: np.ndarray, key: int) -> bool:
    """Whether ``key`` is in ``table``."""
    return probe(table, key) < 0


@numba.njit(cache=True, _nrt=False)
def add(table: np.ndarray, key: int) -> bool:
    """Put ``key`` in ``table`` in place (never regrows it); True when it was not there."""
    slot = probe(table, key)
    if slot < 0:
        return False
    table[slot] = key + 1
    return True


@numba.njit(cache=True)
def grown(table: np.ndarray) -> np.ndarray:
    """A table twice the size holding the same keys."""
    bigger = np.zeros(table.shape[0] * 2, dtype=np.int64)
    move_into(table, bigger)
    return bigger


@numba.njit(cache=True, _nrt=False)
def move_into(table: np.ndarray, bigger: np.ndarray) -> None:
    """Add the keys of ``table`` to ``bigger`` (an empty table with more slots)."""
    for value in table:
        if value != 0:
            add(bigger, value - 1)


@numba.njit(cache=True)
def insert(table: np.ndarray, count: int, key: int) -> tuple[np.ndarray, int]:
    """Add ``key``; returns the (possibly regrown) table and the new key count.

    The table is kept at most half full.
    """
    if 2 * (count + 1) > table.shape[0]:
        table = grown(table)
    if add(table, key):
        count += 1
    return table, count
