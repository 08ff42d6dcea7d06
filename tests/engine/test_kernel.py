"""The compiled kernel: bit tricks, the hash set, the transposition table and position keys.

Each part is checked against plain Python: the bit helpers against Python's
integers, the hash set against a Python set (through growth and duplicates),
the transposition table as a lossy cache that never recalls a key it was not
given, and the layout keys against the multiset of remaining piles they stand for.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.engine.kernel import (
    FIRST_SLOTS,
    FOUNDATION_SHIFT,
    GROW,
    MAX_SLOTS,
    bit_length,
    doubled,
    layout_weights,
    lowest_bit,
    new_set,
    new_table,
    outgrown,
    recalls,
    remember,
    set_contains,
    set_insert,
    set_probe,
    slot_for,
)
from pipeline.engine.status import Status
from pipeline.game.deal import NUM_PILES

# Bit tricks


@given(st.integers(min_value=1, max_value=2**63 - 1))
def test_lowest_bit_is_the_index_of_the_lowest_set_bit(value):
    assert lowest_bit(value) == (value & -value).bit_length() - 1


def test_lowest_bit_of_the_sign_bit():
    assert lowest_bit(-(2**63)) == 63


@given(st.integers(min_value=0, max_value=2**63 - 1))
def test_bit_length_is_pythons(value):
    assert bit_length(value) == value.bit_length()


# The hash set

KEY_BITS = 38  # 17 pile heights at 2 bits each plus a 4-bit foundation rank
MAX_KEY = 2**KEY_BITS - 1


def insert_all(keys, capacity: int = 16) -> tuple[np.ndarray, int]:
    table, count = new_set(capacity), 0
    for key in keys:
        table, count = set_insert(table, count, int(key))
    return table, count


@pytest.mark.parametrize(
    ("capacity", "size"), [(0, 16), (1, 16), (16, 16), (17, 32), (1000, 1024), (1024, 1024)]
)
def test_new_set_is_an_empty_power_of_two(capacity, size):
    table = new_set(capacity)
    assert table.shape == (size,)
    assert table.dtype == np.int64
    assert not table.any()


def test_empty_set_contains_nothing():
    table = new_set(16)
    assert not any(set_contains(table, key) for key in (0, 1, 15, 16, MAX_KEY))


def test_zero_is_a_key_like_any_other():
    table, count = insert_all([0])
    assert count == 1
    assert set_contains(table, 0)
    assert not set_contains(table, 1)
    assert np.count_nonzero(table) == 1


def test_duplicate_inserts_do_not_raise_the_count():
    table, count = insert_all([5, 0, MAX_KEY])
    assert count == 3
    for key in (5, 0, MAX_KEY, 5, 5, 0):
        table, again = set_insert(table, count, key)
        assert again == count == 3
    assert np.count_nonzero(table) == 3


def test_insert_returns_the_same_table_until_it_grows():
    table = new_set(16)
    count = 0
    for key in range(8):
        grown, count = set_insert(table, count, key * 1_000_003)
        assert np.shares_memory(grown, table)
    assert count == 8
    grown, count = set_insert(table, count, 99)  # a ninth key would pass half load: the table doubles
    assert grown.shape == (32,) and count == 9
    assert all(set_contains(grown, key * 1_000_003) for key in range(8)) and set_contains(grown, 99)


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
    assert all(set_contains(table, key) for key in expected)
    absent = [
        int(key) for key in rng.integers(0, MAX_KEY, size=20_000, endpoint=True) if int(key) not in expected
    ]
    absent += [key for key in range(1_000, 1_200) if key not in expected]
    assert len(absent) > 10_000
    assert not any(set_contains(table, key) for key in absent)


@given(st.lists(st.integers(0, MAX_KEY) | st.integers(0, 40), max_size=300), st.sampled_from([0, 16, 64]))
def test_property_matches_a_python_set(keys, capacity):
    table, count = insert_all(keys, capacity)
    assert count == len(set(keys))
    for key in keys:
        assert set_contains(table, key)
    for small_key in range(41):
        assert bool(set_contains(table, small_key)) == (small_key in keys)


@pytest.mark.parametrize("key", [2**40, 2**62, 2**63 - 2, 2**63 - 1])
def test_keys_beyond_38_bits_still_work(key):
    table, count = insert_all([key, 0, 3, *range(100, 120)])  # through two doublings
    assert count == 23
    assert set_contains(table, key)
    assert not set_contains(table, key - 1)


@given(st.lists(st.integers(0, MAX_KEY) | st.integers(0, 40), max_size=300))
def test_probe_finds_a_key_or_the_empty_slot_add_would_fill(keys):
    table, count = new_set(16), 0
    for position, key in enumerate(keys):
        slot = set_probe(table, key)
        if key in keys[:position]:
            assert slot == -1
            continue
        assert slot >= 0 and table[slot] == 0
        table, count = set_insert(table, count, key)
        assert set_probe(table, key) == -1 and set_contains(table, key)
    assert count == len(set(keys))


# The transposition table

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


def test_a_costlier_result_takes_the_first_slot():
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


# Position keys

few_ranks = st.lists(st.integers(0, 2), min_size=3 * NUM_PILES, max_size=3 * NUM_PILES)
heights_lists = st.lists(
    st.lists(st.integers(0, 3), min_size=NUM_PILES, max_size=NUM_PILES), min_size=2, max_size=60
)


def _remaining(ranks: np.ndarray, heights: list[int]) -> list[tuple[int, ...]]:
    return sorted(tuple(ranks[pile, : heights[pile]]) for pile in range(NUM_PILES))


@settings(max_examples=200, deadline=None)
@given(flat=few_ranks, layouts=heights_lists, swaps=st.lists(st.integers(0, NUM_PILES - 1), max_size=40))
def test_layout_keys_are_equal_exactly_when_the_remaining_piles_are(flat, layouts, swaps):
    ranks = np.array(flat, dtype=np.int64).reshape(NUM_PILES, 3)  # three ranks only, so piles often match
    weights = layout_weights(ranks)
    # swapping the heights of two piles with the same ranks up to both heights keeps the game
    first = list(layouts[0])
    for a, b in zip(swaps, swaps[1:], strict=False):
        top = max(first[a], first[b])
        if tuple(ranks[a, :top]) == tuple(ranks[b, :top]):
            first[a], first[b] = first[b], first[a]
    layouts = [first, *layouts]
    keys = [sum(int(weights[pile, h[pile]]) for pile in range(NUM_PILES)) for h in layouts]
    for i, one in enumerate(layouts):
        assert 0 <= keys[i] < 1 << FOUNDATION_SHIFT
        for j, other in enumerate(layouts):
            assert (keys[i] == keys[j]) == (_remaining(ranks, one) == _remaining(ranks, other))


@settings(max_examples=200, deadline=None)
@given(flat=st.lists(st.integers(0, 12), min_size=3 * NUM_PILES, max_size=3 * NUM_PILES))
def test_the_largest_layout_key_leaves_room_for_the_foundation(flat):
    ranks = np.array(flat, dtype=np.int64).reshape(NUM_PILES, 3)
    weights = layout_weights(ranks)
    # the largest key holds every distinct remaining pile as often as it can be held at once
    largest = 0
    for height in range(1, 4):
        for kind in {tuple(ranks[pile, :height]) for pile in range(NUM_PILES)}:
            holders = [pile for pile in range(NUM_PILES) if tuple(ranks[pile, :height]) == kind]
            largest += len(holders) * int(weights[holders[0], height])
    assert largest < 1 << FOUNDATION_SHIFT


# The loops' statuses


def test_grow_is_no_status_of_either_loop():
    assert GROW not in tuple(Status)
