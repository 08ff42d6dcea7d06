"""The project's port of PySol FC's Black Hole dealing (pipeline.game.pysol) against ``pysol_cards``.

``pysol_cards`` is the reference: the deal numbers below are dealt by both, and
the board texts must be identical, character for character. The numbers cover
every edge of PySol FC's generators (Microsoft's rand() up to 32,000, the
twister above, its seed key growing from one 32-bit word to two at 2**32, the
project's last number 2**33 - 1) and random numbers over the whole range.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest
from pysol_cards.cards import CardRenderer
from pysol_cards.deal_game import Game
from pysol_cards.random_base import RandomBase

from pipeline.game.cards import ACE_OF_SPADES, NUM_CARDS
from pipeline.game.deal import EXAMPLE_BOARD, Deal, read_boards
from pipeline.game.pysol import (
    DEALT,
    LAST_MICROSOFT_DEAL,
    pysol_cards_for,
    pysol_cards_of,
    pysol_deal_cards,
)
from pipeline.game.shuffles import MAX_PYSOL_DEAL, PYSOL_SCHEME, pysol_deal
from pipeline.packs import sources
from pipeline.packs.parquet import with_metadata
from pipeline.packs.schema import DEAL_FIELDS, DEALS_SCHEMA, bare
from pipeline.packs.sources import pysol_deals
from tests.strategies import DEALT_CARDS

ROOT = Path(__file__).parents[2]


def reference_board(number: int) -> str:
    """PySol FC's Black Hole deal ``number`` as ``pysol_cards`` renders it (the old ``pysol_deal``)."""
    game = Game("black_hole", number, RandomBase.DEALS_PYSOLFC)
    return game.calc_layout_string(CardRenderer(True))


def reference_deal(number: int) -> Deal:
    return Deal.from_board_text(reference_board(number), source=f"PySol FC deal {number}")


def port_boards(numbers: list[int]) -> list[str]:
    """The board texts of ``numbers``, dealt all at once by the vectorised port."""
    return [Deal.from_cards(row).to_board_text() for row in pysol_cards_for(numbers).tolist()]


def disagreements(numbers: list[int]) -> list[int]:
    """The numbers whose deal differs between pysol_cards and either path of the port."""
    vectorised = port_boards(numbers)
    wrong = []
    for number, board in zip(numbers, vectorised, strict=True):
        reference = reference_board(number)
        if board != reference or Deal.from_cards(pysol_deal_cards(number)).to_board_text() != reference:
            wrong.append(number)
    return wrong


# Every edge of the generators, with the numbers either side of it.
BOUNDARIES = sorted(
    {
        1,
        2,
        3,
        LAST_MICROSOFT_DEAL - 1,  # the last numbers of Microsoft's rand() ...
        LAST_MICROSOFT_DEAL,
        LAST_MICROSOFT_DEAL + 1,  # ... and the first of the twister
        LAST_MICROSOFT_DEAL + 2,
        2**16,
        2**31 - 1,  # where pysol_cards' ms-prefixed deals change rules (not PySol FC numbers)
        2**31,
        2**31 + 1,
        2**32 - 2,
        2**32 - 1,  # the last number with a one-word twister key ...
        2**32,  # ... and the first with two (its low word 0)
        2**32 + 1,
        2**32 + LAST_MICROSOFT_DEAL,
        *(MAX_PYSOL_DEAL - k for k in range(8)),  # the project's last numbers
    }
)


def test_boundaries_are_inside_the_range():
    assert BOUNDARIES[0] == 1 and BOUNDARIES[-1] == MAX_PYSOL_DEAL == 2**33 - 1


@pytest.mark.parametrize("number", BOUNDARIES)
def test_boundary_numbers_agree_with_pysol_cards(number):
    expected = reference_board(number)
    assert port_boards([number]) == [expected]
    assert Deal.from_cards(pysol_deal_cards(number)).to_board_text() == expected
    assert pysol_deal(number) == reference_deal(number)


def stratified_numbers(seed: int, per_stratum: int) -> list[int]:
    """Random deal numbers from each generator's range: rand(), one-word and two-word twister keys."""
    rng = np.random.default_rng(seed)
    strata = [(1, LAST_MICROSOFT_DEAL), (LAST_MICROSOFT_DEAL + 1, 2**32 - 1), (2**32, MAX_PYSOL_DEAL)]
    return [int(n) for low, high in strata for n in rng.integers(low, high, endpoint=True, size=per_stratum)]


AGREEMENT_NUMBERS = 21_000  # 7,000 from each stratum (about 3 s: the reference takes ~0.13 ms a deal)


def test_random_numbers_agree_with_pysol_cards():
    numbers = stratified_numbers(20261129, AGREEMENT_NUMBERS // 3)
    assert len(numbers) == AGREEMENT_NUMBERS
    assert disagreements(numbers) == []


def test_the_first_two_thousand_numbers_agree_with_pysol_cards():
    numbers = list(range(1, 2001))
    assert port_boards(numbers) == [reference_board(number) for number in numbers]


@pytest.mark.slow
def test_many_more_random_numbers_agree_with_pysol_cards():
    assert disagreements(stratified_numbers(7, 50_000)) == []


@pytest.mark.slow
def test_every_microsoft_number_agrees_with_pysol_cards():
    assert disagreements(list(range(1, LAST_MICROSOFT_DEAL + 1))) == []


# --- the port's own properties ---------------------------------------------------------------


def test_deal_1_is_the_example_board_and_the_golden_file_holds():
    assert Deal.from_cards(pysol_cards_of(1, 1)[0].tolist()).to_board_text() == EXAMPLE_BOARD
    golden = read_boards(ROOT / "tests" / "data" / "pysol-1-5.txt")
    assert [Deal.from_cards(row) for row in pysol_cards_of(1, 5).tolist()] == golden


@pytest.mark.parametrize(
    ("first", "count"),
    [
        (LAST_MICROSOFT_DEAL - 9, 20),  # across the change of generator
        (2**32 - 10, 20),  # across the change of the twister's key length
        (MAX_PYSOL_DEAL - 19, 20),  # up to the last number
    ],
)
def test_ranges_across_an_edge_agree_with_pysol_cards(first, count):
    dealt = pysol_cards_of(first, count)
    assert [Deal.from_cards(row).to_board_text() for row in dealt.tolist()] == [
        reference_board(number) for number in range(first, first + count)
    ]


def test_a_long_range_equals_the_deals_one_by_one():
    # more deals than one numpy batch, mixing both generators
    first, count = LAST_MICROSOFT_DEAL - 5_000, 25_000
    dealt = pysol_cards_of(first, count)
    assert dealt.tolist() == [pysol_deal_cards(number) for number in range(first, first + count)]


def test_numbers_in_any_order_with_repeats():
    numbers = [2**32 + 5, 7, MAX_PYSOL_DEAL, 40_000, 7, 2**32 - 1, 2**32 + 5]
    dealt = pysol_cards_for(numbers)
    assert dealt.tolist() == [pysol_deal_cards(number) for number in numbers]
    assert dealt[1].tolist() == dealt[4].tolist() and dealt[0].tolist() == dealt[6].tolist()


def test_shape_type_and_every_row_a_deal():
    dealt = pysol_cards_of(31_000, 3_000)
    assert dealt.shape == (3_000, DEALT) and dealt.dtype == np.int8
    assert (np.sort(dealt, axis=1) == np.array(DEALT_CARDS)).all()
    assert len({row.tobytes() for row in dealt}) == 3_000
    assert pysol_cards_of(5, 0).shape == (0, DEALT)
    assert pysol_cards_for([]).shape == (0, DEALT)


@pytest.mark.parametrize(("first", "count"), [(0, 1), (-5, 10), (MAX_PYSOL_DEAL, 2), (1, -1)])
def test_numbers_out_of_range_are_rejected(first, count):
    with pytest.raises(ValueError):
        pysol_cards_of(first, count)


@pytest.mark.parametrize("numbers", [[0], [5, MAX_PYSOL_DEAL + 1], [-1]])
def test_listed_numbers_out_of_range_are_rejected(numbers):
    with pytest.raises(ValueError, match="PySol FC deal numbers"):
        pysol_cards_for(numbers)


@pytest.mark.parametrize("number", [0, MAX_PYSOL_DEAL + 1])
def test_single_numbers_out_of_range_are_rejected(number):
    with pytest.raises(ValueError, match="PySol FC deal numbers"):
        pysol_deal_cards(number)


def test_importing_shuffles_loads_neither_numpy_nor_pysol_cards():
    code = "import sys, pipeline.game.shuffles; print('numpy' in sys.modules, 'pysol_cards' in sys.modules)"
    found = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert found.stdout.split() == ["False", "False"], found.stderr


def test_a_card_is_never_the_ace_of_spades_or_out_of_range():
    dealt = pysol_cards_for(stratified_numbers(3, 1_000))
    assert dealt.min() >= 0 and dealt.max() < NUM_CARDS and not (dealt == ACE_OF_SPADES).any()


# --- the deals table ------------------------------------------------------------------------


def reference_table(first: int, count: int) -> pa.Table:
    """The deals table as pysol_deals built it before the port: one pysol_cards deal at a time."""
    numbers = range(first, first + count)
    boards = [reference_deal(number).to_board_text() for number in numbers]
    ids = [f"pysol-{number}" for number in numbers]
    columns = [ids, ["pysol"] * count, [None] * count, list(numbers), boards]
    table = pa.Table.from_arrays(
        [pa.array(c, f.type) for c, f in zip(columns, DEAL_FIELDS, strict=True)], schema=bare(DEALS_SCHEMA)
    )
    return with_metadata(table, dealing_scheme=PYSOL_SCHEME)


@pytest.mark.parametrize(
    ("first", "count"),
    [(1, 300), (LAST_MICROSOFT_DEAL - 100, 200), (2**32 - 100, 200), (MAX_PYSOL_DEAL - 99, 100), (9, 0)],
)
def test_pysol_deals_gives_the_table_of_the_reference_path(first, count):
    table = pysol_deals(first=first, count=count)
    expected = reference_table(first, count)
    assert table.schema.equals(expected.schema, check_metadata=True)
    assert table.equals(expected, check_metadata=True)
    assert table.column("board").to_pylist() == expected.column("board").to_pylist()


def test_pysol_deals_past_one_string_array_gives_the_same_table(monkeypatch):
    # more boards than one Arrow string array holds (12.7 million) are built in pieces
    expected = pysol_deals(first=31_990, count=25)
    monkeypatch.setattr(sources, "_OFFSETS_LIMIT", 7 * 169)  # 7 boards of 169 bytes an array
    assert sources.pysol_deals(first=31_990, count=25).equals(expected, check_metadata=True)


def test_pysol_deals_rejects_numbers_out_of_range():
    with pytest.raises(ValueError, match="PySol FC deal numbers"):
        pysol_deals(first=MAX_PYSOL_DEAL - 1, count=3)
