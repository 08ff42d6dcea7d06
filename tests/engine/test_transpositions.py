"""The transposition table: a lossy cache that never recalls a key it was not given."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.engine.hashset import slot_for
from pipeline.engine.transpositions import (
    FIRST_SLOTS,
    MAX_SLOTS,
    doubled,
    new_table,
    outgrown,
    recalls,
    remember,
)

KEYS = st.integers(0, 2**38 - 1)


@settings(deadline=None)  # the first call compiles
@given(st.lists(st.tuples(KEYS, st.integers(0, 63)), max_size=200), st.lists(KEYS, max_size=50))
def test_recalls_only_keys_it_was_given(given_keys, other_keys):
    table = new_table()
    for key, weight in given_keys:
        remember(table, key, weight)
    kept = {key for key, _ in given_keys}
    for key in other_keys:
        if key not in kept:
            assert not recalls(table, key)


def test_the_newest_key_is_recalled_and_it_forgets_at_most_two_a_pair():
    table = new_table()
    for key in range(10 * FIRST_SLOTS):
        remember(table, key, 1)
        assert recalls(table, key)
    recalled = sum(bool(recalls(table, key)) for key in range(10 * FIRST_SLOTS))
    assert FIRST_SLOTS // 2 < recalled <= FIRST_SLOTS  # a pair of slots holds two keys


def _same_pair(count):
    """``count`` keys that share one pair of slots in a new table."""
    mask = FIRST_SLOTS - 1
    pair = slot_for(0, mask) & ~1
    return [key for key in range(200_000) if slot_for(key, mask) & ~1 == pair][:count]


def test_a_costly_result_outlives_cheap_newer_ones():
    table = new_table()
    costly, *cheap = _same_pair(6)
    remember(table, costly, 30)
    for key in cheap:
        remember(table, key, 2)
    assert recalls(table, costly)
    assert recalls(table, cheap[-1]) and not recalls(table, cheap[0])


def test_a_costlier_result_takes_the_firstslot_for():
    table = new_table()
    first, second, third = _same_pair(3)
    remember(table, first, 5)
    remember(table, second, 9)  # costlier: first moves to the second slot
    assert recalls(table, first) and recalls(table, second)
    remember(table, third, 1)  # cheaper: replaces the second slot
    assert recalls(table, second) and recalls(table, third) and not recalls(table, first)


def test_doubling_keeps_keys_and_their_weights():
    table = new_table()
    keys = list(range(0, 50_000, 97))[:200]
    for key in keys:
        remember(table, key, key % 50)
    held = [key for key in keys if recalls(table, key)]
    bigger = doubled(table)
    assert bigger.shape[0] == 2 * table.shape[0]
    assert len(held) > 150 and all(recalls(bigger, key) for key in held)
    assert sorted(bigger[bigger != 0] >> 40) == sorted(table[table != 0] >> 40)


def test_it_doubles_after_as_many_stores_as_slots_up_to_a_cap():
    assert not outgrown(new_table(), FIRST_SLOTS)
    assert outgrown(new_table(), FIRST_SLOTS + 1)
    assert not outgrown(np.zeros(MAX_SLOTS, dtype=np.int64), 10 * MAX_SLOTS)
