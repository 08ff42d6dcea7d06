"""The compiled int64 hash set agrees with a Python set, through growth and duplicates."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline.engine.hashset import contains, insert, new_table, probe

KEY_BITS = 38  # 17 pile heights at 2 bits each plus a 4-bit foundation rank
MAX_KEY = 2**KEY_BITS - 1


def insert_all(keys, capacity: int = 16) -> tuple[np.ndarray, int]:
    table, count = new_table(capacity), 0
    for key in keys:
        table, count = insert(table, count, int(key))
    return table, count


@pytest.mark.parametrize(
    ("capacity", "size"), [(0, 16), (1, 16), (16, 16), (17, 32), (1000, 1024), (1024, 1024)]
)
def test_new_table_is_an_empty_power_of_two(capacity, size):
    table = new_table(capacity)
    assert table.shape == (size,)
    assert table.dtype == np.int64
    assert not table.any()


def test_empty_table_contains_nothing():
    table = new_table(16)
    assert not any(contains(table, key) for key in (0, 1, 15, 16, MAX_KEY))


def test_zero_is_a_key_like_any_other():
    table, count = insert_all([0])
    assert count == 1
    assert contains(table, 0)
    assert not contains(table, 1)
    assert np.count_nonzero(table) == 1


def test_duplicate_inserts_do_not_raise_the_count():
    table, count = insert_all([5, 0, MAX_KEY])
    assert count == 3
    for key in (5, 0, MAX_KEY, 5, 5, 0):
        table, again = insert(table, count, key)
        assert again == count == 3
    assert np.count_nonzero(table) == 3


def test_insert_returns_the_same_table_until_it_grows():
    table = new_table(16)
    count = 0
    for key in range(8):
        grown, count = insert(table, count, key * 1_000_003)
        assert np.shares_memory(grown, table)
    assert count == 8
    grown, count = insert(table, count, 99)  # a ninth key would pass half load: the table doubles
    assert grown.shape == (32,) and count == 9
    assert all(contains(grown, key * 1_000_003) for key in range(8)) and contains(grown, 99)


def test_agrees_with_a_python_set_across_growth():
    rng = np.random.default_rng(20261129)
    keys = np.concatenate(
        [
            [0, 1, MAX_KEY, MAX_KEY - 1, 2**37, 2**32, 2**32 - 1],
            rng.integers(0, MAX_KEY, size=70_000, endpoint=True),
            rng.integers(0, 1_000, size=20_000),  # many duplicates
            np.arange(0, 2**36, 2**26),  # structured keys: high bits only
            np.arange(10_000) * 4,  # structured keys: low bits zero
        ]
    )
    keys = keys[rng.permutation(len(keys))][:100_000]
    table, count = insert_all(keys, capacity=16)
    expected = {int(key) for key in keys}
    assert count == len(expected)
    assert np.count_nonzero(table) == count
    assert table.shape[0] >= 2 * count  # load stays at most one half
    assert table.shape[0] & (table.shape[0] - 1) == 0
    assert all(contains(table, key) for key in expected)
    absent = [
        int(key) for key in rng.integers(0, MAX_KEY, size=20_000, endpoint=True) if int(key) not in expected
    ]
    absent += [key for key in range(1_000, 1_200) if key not in expected]
    assert len(absent) > 10_000
    assert not any(contains(table, key) for key in absent)


@given(st.lists(st.integers(0, MAX_KEY) | st.integers(0, 40), max_size=300), st.sampled_from([0, 16, 64]))
def test_property_matches_a_python_set(keys, capacity):
    table, count = insert_all(keys, capacity)
    assert count == len(set(keys))
    for key in keys:
        assert contains(table, key)
    for small_key in range(41):
        assert bool(contains(table, small_key)) == (small_key in keys)


@pytest.mark.parametrize("key", [2**40, 2**62, 2**63 - 2, 2**63 - 1])
def test_keys_beyond_38_bits_still_work(key):
    table, count = insert_all([key, 0, 3, *range(100, 120)])  # through two doublings
    assert count == 23
    assert contains(table, key)
    assert not contains(table, key - 1)


@given(st.lists(st.integers(0, MAX_KEY) | st.integers(0, 40), max_size=300))
def test_probe_finds_a_key_or_the_empty_slot_add_would_fill(keys):
    table, count = new_table(16), 0
    for position, key in enumerate(keys):
        slot = probe(table, key)
        if key in keys[:position]:
            assert slot == -1
            continue
        assert slot >= 0 and table[slot] == 0
        table, count = insert(table, count, key)
        assert probe(table, key) == -1 and contains(table, key)
    assert count == len(set(keys))
