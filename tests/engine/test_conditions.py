"""The necessary conditions against brute force on small rank multisets."""

from __future__ import annotations

import functools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.engine.conditions import (
    MAX_ORDERED_ENDS,
    ORDER_WORDS,
    _arc_ranks,
    euler_walkable,
    orders_allow,
    pile_orders,
    ranks_reachable,
    reachable_cards,
    walk_orders,
)
from pipeline.game.cards import NUM_RANKS


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
any_counts = st.one_of(small_counts, sparse_counts)
some_rank = st.integers(0, NUM_RANKS - 1)
some_rank_set = st.integers(1, (1 << NUM_RANKS) - 1)  # non-empty bit sets of ranks


@settings(max_examples=400, deadline=None)
@given(counts=any_counts, start=some_rank)
def test_euler_condition_matches_enumeration_exactly(counts, start):
    expected = _walk_exists(tuple(counts), start, (1 << NUM_RANKS) - 1)
    assert euler_walkable(np.array(counts, dtype=np.int64), start) == expected


@settings(max_examples=300, deadline=None)
@given(
    counts=any_counts,
    start=some_rank,
    end_ranks=some_rank_set,
)
def test_euler_condition_with_end_ranks_matches_enumeration(counts, start, end_ranks):
    expected = _walk_exists(tuple(counts), start, end_ranks)
    assert euler_walkable(np.array(counts, dtype=np.int64), start, end_ranks) == expected


@settings(max_examples=300, deadline=None)
@given(counts=any_counts, start=some_rank)
def test_euler_condition_implies_reachability(counts, start):
    array = np.array(counts, dtype=np.int64)
    if euler_walkable(array, start):
        assert ranks_reachable(array, start)


@settings(max_examples=300, deadline=None)
@given(counts=any_counts, start=some_rank)
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


def _orders(counts, start: int, end_ranks: int) -> tuple[int, np.ndarray]:
    orders = np.zeros((MAX_ORDERED_ENDS, ORDER_WORDS), dtype=np.int64)
    ends = walk_orders(np.array(counts, dtype=np.int64), start, end_ranks, orders)
    return ends, orders


@settings(max_examples=300, deadline=None)
@given(
    counts=any_counts,
    start=some_rank,
    end_ranks=some_rank_set,
)
def test_walk_orders_finds_no_walk_exactly_when_the_euler_condition_fails(counts, start, end_ranks):
    ends, _ = _orders(counts, start, end_ranks)
    assert (ends == -1) == (
        sum(counts) > 0 and not euler_walkable(np.array(counts, dtype=np.int64), start, end_ranks)
    )


def _winnable(piles: tuple[tuple[int, ...], ...], foundation: int) -> bool:
    """Whether every card can be played, by trying every order (piles list ranks bottom first)."""

    @functools.cache
    def search(heights: tuple[int, ...], at: int) -> bool:
        if not any(heights):
            return True
        for pile, height in enumerate(heights):
            if height and (piles[pile][height - 1] - at) % NUM_RANKS in (1, NUM_RANKS - 1):
                after = heights[:pile] + (height - 1,) + heights[pile + 1 :]
                if search(after, piles[pile][height - 1]):
                    return True
        return False

    return search(tuple(len(pile) for pile in piles), foundation)


def _order_rules_out(piles: tuple[tuple[int, ...], ...], foundation: int) -> bool:
    """The rank order condition as the search applies it, on piles of up to three cards."""
    counts = [0] * NUM_RANKS
    end_ranks = 0
    for pile in piles:
        for rank in pile:
            counts[rank] += 1
        end_ranks |= 1 << pile[0]
    ends, orders = _orders(counts, foundation, end_ranks)
    if ends <= 0:
        return ends < 0
    ranks = np.array([pile + (0,) * (3 - len(pile)) for pile in piles], dtype=np.int64)
    heights = np.array([len(pile) for pile in piles], dtype=np.int64)
    return not orders_allow(orders, ends, *pile_orders(ranks, heights))


small_piles = st.lists(st.lists(some_rank, min_size=1, max_size=3).map(tuple), min_size=1, max_size=5).filter(
    lambda piles: sum(map(len, piles)) <= 10
)
narrow_piles = st.lists(  # few ranks, so walks cross edges once or twice and the order matters
    st.lists(st.integers(0, 4), min_size=1, max_size=3).map(tuple), min_size=1, max_size=5
).filter(lambda piles: sum(map(len, piles)) <= 10)


@settings(max_examples=1500, deadline=None)
@given(piles=st.one_of(small_piles, narrow_piles), foundation=some_rank)
def test_the_rank_order_condition_never_rules_out_a_winnable_position(piles, foundation):
    if _order_rules_out(tuple(piles), foundation):
        assert not _winnable(tuple(piles), foundation)


def test_the_rank_order_condition_sees_a_loss_the_euler_condition_cannot():
    piles = ((1, 2), (3,))  # a 3 on a 2, and a 4, from an ace: only A-2-3-4 walks, and the 3 hides the 2
    assert euler_walkable(np.array([0, 1, 1, 1] + [0] * 9, dtype=np.int64), 0, 1 << 1 | 1 << 3)
    assert _order_rules_out(piles, 0)
    assert not _winnable(piles, 0)
    assert not _order_rules_out(((2, 1), (3,)), 0)  # the 2 on the 3 is fine


def test_arc_ranks_are_the_ranks_within_the_arc():
    for foundation in range(NUM_RANKS):
        for up in range(NUM_RANKS):
            for down in range(NUM_RANKS - up):
                arc = _arc_ranks(foundation, up, down)
                expected = {(foundation + step) % NUM_RANKS for step in range(-down, up + 1)}
                assert {rank for rank in range(NUM_RANKS) if arc >> rank & 1} == expected
