"""Internals of the compiled search that the solver's results cannot show on their own."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.engine.search import _FOUNDATION_SHIFT, _layout_weights
from pipeline.game.deal import NUM_PILES

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
    weights = _layout_weights(ranks)
    # swapping the heights of two piles with the same ranks up to both heights keeps the game
    first = list(layouts[0])
    for a, b in zip(swaps, swaps[1:], strict=False):
        top = max(first[a], first[b])
        if tuple(ranks[a, :top]) == tuple(ranks[b, :top]):
            first[a], first[b] = first[b], first[a]
    layouts = [first, *layouts]
    keys = [sum(int(weights[pile, h[pile]]) for pile in range(NUM_PILES)) for h in layouts]
    for i, one in enumerate(layouts):
        assert 0 <= keys[i] < 1 << _FOUNDATION_SHIFT
        for j, other in enumerate(layouts):
            assert (keys[i] == keys[j]) == (_remaining(ranks, one) == _remaining(ranks, other))


@settings(max_examples=200, deadline=None)
@given(flat=st.lists(st.integers(0, 12), min_size=3 * NUM_PILES, max_size=3 * NUM_PILES))
def test_the_largest_layout_key_leaves_room_for_the_foundation(flat):
    ranks = np.array(flat, dtype=np.int64).reshape(NUM_PILES, 3)
    weights = _layout_weights(ranks)
    # the largest key holds every distinct remaining pile as often as it can be held at once
    largest = 0
    for height in range(1, 4):
        for kind in {tuple(ranks[pile, :height]) for pile in range(NUM_PILES)}:
            holders = [pile for pile in range(NUM_PILES) if tuple(ranks[pile, :height]) == kind]
            largest += len(holders) * int(weights[holders[0], height])
    assert largest < 1 << _FOUNDATION_SHIFT
