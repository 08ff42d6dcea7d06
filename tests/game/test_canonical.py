"""The canonical key of a deal: equal exactly for the relabellings of its suits and orders of its piles."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from pipeline.game.canonical import canonical_key
from pipeline.game.cards import make_card, rank_of, suit_of
from pipeline.game.deal import EXAMPLE_BOARD, NUM_PILES, Deal
from tests.strategies import deals

SPADES = 3
EXAMPLE = Deal.from_board_text(EXAMPLE_BOARD)


def relabelled(deal: Deal, order: tuple[int, ...]) -> Deal:
    """``deal`` with every card's suit ``s`` replaced by ``order[s]``."""
    return Deal(tuple(tuple(make_card(rank_of(c), order[suit_of(c)]) for c in pile) for pile in deal.piles))


def reordered(deal: Deal, piles: list[int]) -> Deal:
    """``deal`` with its piles in the order ``piles`` (new pile i is old pile ``piles[i]``)."""
    return Deal(tuple(deal.piles[p] for p in piles))


@given(deals(), st.permutations((0, 1, 2)), st.permutations(range(NUM_PILES)))
def test_key_ignores_suit_relabelling_and_pile_order(deal, suits, piles):
    other = reordered(relabelled(deal, (*suits, SPADES)), piles)
    assert canonical_key(other) == canonical_key(deal)


def test_key_of_example_with_hearts_and_diamonds_swapped_and_piles_shuffled():
    piles = list(range(NUM_PILES))
    random.Random(5).shuffle(piles)
    other = reordered(relabelled(EXAMPLE, (2, 1, 0, SPADES)), piles)
    assert other != EXAMPLE
    assert canonical_key(other) == canonical_key(EXAMPLE)


def swapped(deal: Deal, first: tuple[int, int], second: tuple[int, int]) -> Deal:
    """``deal`` with the cards at (pile, place) ``first`` and ``second`` exchanged."""
    cards = [list(pile) for pile in deal.piles]
    (p, i), (q, j) = first, second
    cards[p][i], cards[q][j] = cards[q][j], cards[p][i]
    return Deal(tuple(tuple(pile) for pile in cards))


def test_two_cards_swapped_between_piles_is_another_deal():
    # TH (top of pile 0) and 8H (top of pile 1).
    assert canonical_key(swapped(EXAMPLE, (0, 2), (1, 2))) != canonical_key(EXAMPLE)


def test_two_cards_of_one_rank_swapped_is_not_a_relabelling():
    # 5D (pile 4, bottom) and 5H (pile 7, bottom): the same game, but not one suit permutation of every card.
    assert canonical_key(swapped(EXAMPLE, (4, 0), (7, 0))) != canonical_key(EXAMPLE)


def test_key_tells_apart_the_piles_read_upside_down():
    upside_down = Deal(tuple(tuple(reversed(pile)) for pile in EXAMPLE.piles))
    assert canonical_key(upside_down) != canonical_key(EXAMPLE)
