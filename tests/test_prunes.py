"""The necessary conditions against brute force on small rank multisets."""

from __future__ import annotations

import functools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.prunes import NUM_RANKS, euler_walkable, ranks_reachable, reachable_cards


def _walk_exists(counts: tuple[int, ...], start: int, end_ranks: int) -> bool:
    """Whether the multiset ``counts`` can be played as a ±1 walk from ``start``, by enumeration."""

    @functools.cache
    def search(left: tuple[int, ...], at: int) -> bool:
        if not any(left):
            return bool((end_ranks >> at) & 1)
        for step in (1, -1):
            rank = (at + step) % NUM_RANKS
            if left[rank]:
                after = list(left)
                after[rank] -= 1
                if search(tuple(after), rank):
                    return True
        return False

    if not any(counts):
        return True
    return search(counts, start)


def _longest_walk(counts: tuple[int, ...], start: int) -> int:
    @functools.cache
    def search(left: tuple[int, ...], at: int) -> int:
        best = 0
        for step in (1, -1):
            rank = (at + step) % NUM_RANKS
            if left[rank]:
                after = list(left)
                after[rank] -= 1
                best = max(best, 1 + search(tuple(after), rank))
        return best

    return search(counts, start)


small_counts = st.lists(st.integers(0, 4), min_size=NUM_RANKS, max_size=NUM_RANKS).filter(
    lambda c: sum(c) <= 10
)
sparse_counts = st.lists(st.sampled_from([0, 0, 0, 1, 2]), min_size=NUM_RANKS, max_size=NUM_RANKS)


@settings(max_examples=400, deadline=None)
@given(counts=st.one_of(small_counts, sparse_counts), start=st.integers(0, NUM_RANKS - 1))
def test_euler_condition_matches_enumeration_exactly(counts, start):
    expected = _walk_exists(tuple(counts), start, (1 << NUM_RANKS) - 1)
    assert euler_walkable(np.array(counts, dtype=np.int64), start) == expected


@settings(max_examples=300, deadline=None)
@given(
    counts=st.one_of(small_counts, sparse_counts),
    start=st.integers(0, NUM_RANKS - 1),
    end_ranks=st.integers(1, (1 << NUM_RANKS) - 1),
)
def test_euler_condition_with_end_ranks_matches_enumeration(counts, start, end_ranks):
    expected = _walk_exists(tuple(counts), start, end_ranks)
    assert euler_walkable(np.array(counts, dtype=np.int64), start, end_ranks) == expected


@settings(max_examples=300, deadline=None)
@given(counts=st.one_of(small_counts, sparse_counts), start=st.integers(0, NUM_RANKS - 1))
def test_euler_condition_implies_reachability(counts, start):
    array = np.array(counts, dtype=np.int64)
    if euler_walkable(array, start):
        assert ranks_reachable(array, start)


@settings(max_examples=300, deadline=None)
@given(counts=st.one_of(small_counts, sparse_counts), start=st.integers(0, NUM_RANKS - 1))
def test_reachable_cards_bounds_the_longest_walk(counts, start):
    array = np.array(counts, dtype=np.int64)
    assert _longest_walk(tuple(counts), start) <= reachable_cards(array, start)
    unreachable_rank_has_cards = not ranks_reachable(array, start)
    assert (reachable_cards(array, start) < sum(counts)) == unreachable_rank_has_cards


def test_a_full_deck_is_walkable_from_any_rank():
    counts = np.full(NUM_RANKS, 4, dtype=np.int64)
    counts[0] = 3
    assert all(euler_walkable(counts, start) for start in range(NUM_RANKS))


def test_a_gap_on_both_sides_is_unreachable():
    counts = np.zeros(NUM_RANKS, dtype=np.int64)
    counts[6] = 1
    assert not ranks_reachable(counts, 0)
    assert not euler_walkable(counts, 0)
    counts[12] = counts[11] = counts[10] = counts[9] = counts[8] = counts[7] = 1
    assert ranks_reachable(counts, 0)  # K Q J T 9 8 7 lead down to the 7
    assert euler_walkable(counts, 0)
