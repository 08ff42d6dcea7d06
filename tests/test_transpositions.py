"""The transposition table: a lossy cache that never recalls a key it was not given."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.transpositions import FIRST_SLOTS, MAX_SLOTS, doubled, new_table, outgrown, recalls, remember

KEYS = st.integers(0, 2**38 - 1)


@settings(deadline=None)  # the first call compiles
@given(st.lists(KEYS, max_size=200), st.lists(KEYS, max_size=50))
def test_recalls_only_keys_it_was_given(given_keys, other_keys):
    table = new_table()
    for key in given_keys:
        remember(table, key)
    for key in other_keys:
        if key not in given_keys:
            assert not recalls(table, key)


def test_the_newest_key_in_a_slot_is_recalled():
    table = new_table()
    for key in range(10 * FIRST_SLOTS):
        remember(table, key)
        assert recalls(table, key)
    recalled = sum(bool(recalls(table, key)) for key in range(10 * FIRST_SLOTS))
    assert 0 < recalled <= FIRST_SLOTS  # it forgets, it holds at most one key a slot


def test_doubling_keeps_every_key_when_nothing_collides():
    table = new_table()
    keys = [key for key in range(0, 50_000, 97)][:200]
    for key in keys:
        remember(table, key)
    held = [key for key in keys if recalls(table, key)]
    bigger = doubled(table)
    assert bigger.shape[0] == 2 * table.shape[0]
    assert all(recalls(bigger, key) for key in held)
    assert np.count_nonzero(bigger) == np.count_nonzero(table)


def test_it_doubles_after_as_many_stores_as_slots_up_to_a_cap():
    assert not outgrown(new_table(), FIRST_SLOTS)
    assert outgrown(new_table(), FIRST_SLOTS + 1)
    assert not outgrown(np.zeros(MAX_SLOTS, dtype=np.int64), 10 * MAX_SLOTS)
