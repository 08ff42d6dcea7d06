"""The port of PySol FC's dealing (pipeline.game.pysol) for All in a Row and the Golfs, against ``pysol_cards``.

As for Black Hole (tests/game/test_pysol.py), ``pysol_cards`` is the reference and the board texts must
be identical, character for character: at every edge of PySol FC's generators, and at 21,000 random
numbers a game (7,000 from each generator's range), through both the vectorised functions
(``pysol_cards_for``, ``pysol_cards_of``) and the one-deal ones (``pysol_deal_cards``, ``pysol_deal``).

The three Golf rule sets deal the same cards, and ``pysol_cards`` knows one game for them, ``golf``:
each rule set is checked at 21,000 numbers of its own, so Golf's layout is checked at 63,000. Measured
on 2 shared cores: ``pysol_cards`` takes 0.13 to 0.3 ms a deal, and the four games' 84,000 deals take
about 20 s in all (reference, port and board texts), under the 40 s past which the Golfs would share
one set of reference boards. At the random numbers the one-deal function is compared with the
vectorised one, which the board texts have just checked against the reference.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest
from pysol_cards.cards import CardRenderer
from pysol_cards.deal_game import Game as PysolGame
from pysol_cards.random_base import RandomBase

from pipeline.game.cards import ACE_OF_SPADES, NUM_CARDS
from pipeline.game.deal import Deal
from pipeline.game.games import ALL_IN_A_ROW, DEAD_KING_GOLF, GOLF, RELAXED_GOLF, Game
from pipeline.game.pysol import LAST_MICROSOFT_DEAL, pysol_cards_for, pysol_cards_of, pysol_deal_cards
from pipeline.game.shuffles import MAX_PYSOL_DEAL, pysol_deal
from tests.support.family import ALL_IN_A_ROW_1, FAMILY, FAMILY_NAMES, GOLF_1, GOLFS


def pysol_cards_game(game: Game) -> str:
    """``pysol_cards``' name for ``game``: its layout (``golf`` for the three rule sets)."""
    return game.layout


@functools.cache
def reference_boards(pysol_game: str, numbers: tuple[int, ...]) -> tuple[str, ...]:
    """The boards of ``numbers`` as ``pysol_cards`` deals game ``pysol_game`` (each made once a run)."""
    renderer = CardRenderer(True)
    return tuple(
        PysolGame(pysol_game, number, RandomBase.DEALS_PYSOLFC).calc_layout_string(renderer)
        for number in numbers
    )


def reference_board(number: int, game: Game) -> str:
    return reference_boards(pysol_cards_game(game), (number,))[0]


def port_boards(numbers: list[int] | tuple[int, ...], game: Game) -> list[str]:
    """The board texts of ``numbers``, dealt all at once by the vectorised port."""
    return [Deal.from_cards(row, game).to_board_text() for row in pysol_cards_for(numbers, game).tolist()]


# The edges of the generators, with numbers either side (as in tests/game/test_pysol.py).
BOUNDARIES = sorted(
    {
        1,
        2,
        LAST_MICROSOFT_DEAL - 1,  # Microsoft's rand() ...
        LAST_MICROSOFT_DEAL,
        LAST_MICROSOFT_DEAL + 1,  # ... then the twister
        LAST_MICROSOFT_DEAL + 2,
        2**31 - 1,
        2**31,
        2**32 - 1,  # the last one-word twister key ...
        2**32,  # ... the first two-word one
        2**32 + 1,
        MAX_PYSOL_DEAL - 1,
        MAX_PYSOL_DEAL,  # 2**33 - 1, the project's last number
    }
)


def test_boundaries_cover_the_edges():
    assert {1, 31_999, 32_000, 32_001, 2**31 - 1, 2**31, 2**32 - 1, 2**32, 2**33 - 1} <= set(BOUNDARIES)


@pytest.mark.parametrize("game", FAMILY, ids=FAMILY_NAMES)
@pytest.mark.parametrize("number", BOUNDARIES)
def test_boundary_numbers_agree_with_pysol_cards(game, number):
    expected = reference_board(number, game)
    assert port_boards([number], game) == [expected]
    assert pysol_cards_of(number, 1, game).tolist() == pysol_cards_for([number], game).tolist()
    assert Deal.from_cards(pysol_deal_cards(number, game), game).to_board_text() == expected
    assert pysol_deal(number, game).to_board_text() == expected
    assert pysol_deal(number, game).game is game


def stratified_numbers(seed: int, per_stratum: int) -> tuple[int, ...]:
    """Random deal numbers from each generator's range: rand(), one-word and two-word twister keys."""
    rng = np.random.default_rng(seed)
    strata = [(1, LAST_MICROSOFT_DEAL), (LAST_MICROSOFT_DEAL + 1, 2**32 - 1), (2**32, MAX_PYSOL_DEAL)]
    return tuple(
        int(n) for low, high in strata for n in rng.integers(low, high, endpoint=True, size=per_stratum)
    )


AGREEMENT_NUMBERS = 21_000  # 7,000 from each stratum, other numbers for each game


@pytest.mark.parametrize(("seed", "game"), list(enumerate(FAMILY)), ids=FAMILY_NAMES)
def test_random_numbers_agree_with_pysol_cards(seed, game):
    numbers = stratified_numbers(seed, AGREEMENT_NUMBERS // 3)
    assert len(numbers) == AGREEMENT_NUMBERS and len(set(numbers)) > 20_000  # rand()'s range repeats some
    # made here, not by reference_boards: 21,000 boards a game would stay in its cache for nothing
    renderer = CardRenderer(True)
    expected = [
        PysolGame(pysol_cards_game(game), number, RandomBase.DEALS_PYSOLFC).calc_layout_string(renderer)
        for number in numbers
    ]
    dealt = pysol_cards_for(numbers, game)
    boards = [Deal.from_cards(row, game).to_board_text() for row in dealt.tolist()]
    assert [
        number for number, board, want in zip(numbers, boards, expected, strict=True) if board != want
    ] == []
    assert [pysol_deal_cards(number, game) for number in numbers] == dealt.tolist()


@pytest.mark.parametrize("game", [ALL_IN_A_ROW, GOLF], ids=["all_in_a_row", "golf"])
def test_the_first_thousand_numbers_agree_with_pysol_cards(game):
    numbers = tuple(range(1, 1001))
    assert port_boards(numbers, game) == list(reference_boards(pysol_cards_game(game), numbers))


@pytest.mark.slow
@pytest.mark.parametrize("game", [ALL_IN_A_ROW, GOLF], ids=["all_in_a_row", "golf"])
def test_every_microsoft_number_agrees_with_pysol_cards(game):
    numbers = tuple(range(1, LAST_MICROSOFT_DEAL + 1))
    assert port_boards(numbers, game) == list(reference_boards(pysol_cards_game(game), numbers))


@pytest.mark.parametrize("game", FAMILY, ids=FAMILY_NAMES)
@pytest.mark.parametrize(
    ("first", "count"),
    [(LAST_MICROSOFT_DEAL - 9, 20), (2**32 - 10, 20), (MAX_PYSOL_DEAL - 19, 20)],
)
def test_ranges_across_an_edge_agree_with_pysol_cards(game, first, count):
    numbers = tuple(range(first, first + count))
    dealt = pysol_cards_of(first, count, game)
    assert [Deal.from_cards(row, game).to_board_text() for row in dealt.tolist()] == list(
        reference_boards(pysol_cards_game(game), numbers)
    )
    assert dealt.tolist() == [pysol_deal_cards(number, game) for number in numbers]


# --- the port's own properties -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "text"),
    [(ALL_IN_A_ROW, ALL_IN_A_ROW_1), (DEAD_KING_GOLF, GOLF_1), (GOLF, GOLF_1), (RELAXED_GOLF, GOLF_1)],
    ids=FAMILY_NAMES,
)
def test_deal_1_is_the_golden_board(game, text):
    assert pysol_deal(1, game) == Deal.from_board_text(text, game=game)
    assert reference_board(1, game) == text


def test_the_three_golfs_deal_the_same_cards():
    numbers = [1, 31_999, 32_001, 2**32 + 7, MAX_PYSOL_DEAL]
    dealt = [pysol_cards_for(numbers, game).tolist() for game in GOLFS]
    assert dealt[0] == dealt[1] == dealt[2]
    assert len({pysol_deal(32_001, game).to_board_text() for game in GOLFS}) == 1


def test_all_in_a_row_deals_the_ace_of_spades_last_on_pile_12():
    dealt = pysol_cards_of(31_990, 20, ALL_IN_A_ROW)
    assert (dealt[:, -1] == ACE_OF_SPADES).all()


@pytest.mark.parametrize("game", FAMILY, ids=FAMILY_NAMES)
def test_shape_type_and_every_row_a_deck(game):
    dealt = pysol_cards_of(31_000, 2_000, game)
    assert dealt.shape == (2_000, NUM_CARDS) and dealt.dtype == np.int8
    assert (np.sort(dealt, axis=1) == np.arange(NUM_CARDS)).all()
    assert len({row.tobytes() for row in dealt}) == 2_000
    assert pysol_cards_of(5, 0, game).shape == (0, NUM_CARDS)
    assert pysol_cards_for([], game).shape == (0, NUM_CARDS)


@pytest.mark.parametrize("game", FAMILY, ids=FAMILY_NAMES)
def test_numbers_in_any_order_with_repeats(game):
    numbers = [2**32 + 5, 7, MAX_PYSOL_DEAL, 40_000, 7, 2**32 - 1]
    assert pysol_cards_for(numbers, game).tolist() == [pysol_deal_cards(number, game) for number in numbers]


@pytest.mark.parametrize("game", FAMILY, ids=FAMILY_NAMES)
@pytest.mark.parametrize("number", [0, -1, MAX_PYSOL_DEAL + 1])
def test_numbers_out_of_range_are_rejected(game, number):
    with pytest.raises(ValueError, match="PySol FC deal numbers"):
        pysol_deal_cards(number, game)
    with pytest.raises(ValueError, match="PySol FC deal numbers"):
        pysol_cards_for([number], game)
    with pytest.raises(ValueError, match="PySol FC deal numbers"):
        pysol_deal(number, game)
