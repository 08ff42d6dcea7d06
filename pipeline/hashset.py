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


@numba.njit(cache=True, inline="always")
def _slot(key: int, mask: int) -> int:
    """SplitMix64's finaliser: every key bit reaches every slot bit (packed positions are very regular)."""
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


@numba.njit(cache=True)
def contains(table: np.ndarray, key: int) -> bool:
    """Whether ``key`` is in ``table``."""
    mask = table.shape[0] - 1
    slot = _slot(key, mask)
    stored = key + 1
    while True:
        value = table[slot]
        if value == stored:
            return True
        if value == 0:
            return False
        slot = (slot + 1) & mask


@numba.njit(cache=True)
def _place(table: np.ndarray, key: int) -> bool:
    mask = table.shape[0] - 1
    slot = _slot(key, mask)
    stored = key + 1
    while True:
        value = table[slot]
        if value == stored:
            return False
        if value == 0:
            table[slot] = stored
            return True
        slot = (slot + 1) & mask


@numba.njit(cache=True)
def insert(table: np.ndarray, count: int, key: int) -> tuple[np.ndarray, int]:
    """Add ``key``; returns the (possibly regrown) table and the new key count."""
    if 2 * (count + 1) > table.shape[0]:
        bigger = np.zeros(table.shape[0] * 2, dtype=np.int64)
        for value in table:
            if value != 0:
                _place(bigger, value - 1)
        table = bigger
    if _place(table, key):
        count += 1
    return table, count


@numba.njit(cache=True)
def probe(table: np.ndarray, key: int) -> int:
    """-1 when ``key`` is in ``table``, else the empty slot where inserting it would put it.

    The slot stays a valid home for ``key`` for as long as the table is not
    regrown: slots only ever fill, so the probe chain up to it stays unbroken.
    """
    mask = table.shape[0] - 1
    slot = _slot(key, mask)
    stored = key + 1
    while True:
        value = table[slot]
        if value == stored:
            return -1
        if value == 0:
            return slot
        slot = (slot + 1) & mask


@numba.njit(cache=True)
def store(table: np.ndarray, count: int, slot: int, key: int) -> tuple[np.ndarray, int]:
    """Put ``key`` at ``slot``, found by :func:`probe` on this same table, without reading it first.

    If another key took the slot meanwhile it is overwritten: for a table of
    positions known to be lost that only forgets one (it will be searched
    again), and every chain stays unbroken. Returns the table (regrown when
    more than half full) and the count.
    """
    table[slot] = key + 1
    count += 1
    if 2 * count > table.shape[0]:
        bigger = np.zeros(table.shape[0] * 2, dtype=np.int64)
        for value in table:
            if value != 0:
                _place(bigger, value - 1)
        table = bigger
    return table, count
