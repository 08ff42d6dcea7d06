"""Seeded dealing (scheme blackhole-sha256-v1) and PySol FC's numbered deals.

The golden files under tests/data pin both generators: a published pack must
never change because a library or this code changed.
"""

from __future__ import annotations

import hashlib
import math
import random
import struct
from pathlib import Path

import numpy as np
import pytest

from pipeline.game.cards import NUM_CARDS, RANKS, parse_card
from pipeline.game.deal import EXAMPLE_BOARD, Deal, read_boards
from pipeline.game.shuffles import MAX_PYSOL_DEAL, MAX_SEED, SEEDED_SCHEME, pysol_deal, seeded_deal
from tests.strategies import DEALT_CARDS

DATA = Path(__file__).parents[1] / "data"


def board_file_text(deals: list[Deal]) -> str:
    """Boards separated by one blank line, as the golden files are written."""
    return "\n".join(deal.to_board_text() for deal in deals)


# --- golden files ------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 20261129])
def test_seeded_deals_match_the_golden_file(seed):
    path = DATA / f"seed-{seed}-first.txt"
    made = [seeded_deal(seed, index) for index in range(5)]
    assert board_file_text(made) == path.read_text(encoding="utf-8")
    assert read_boards(path) == made


# Deals of seed 1 in which a word is rejected (found by scanning 40 million deals;
# about one deal in eight million draws a word at or above the limit).
REJECTING_DEALS = {2740689: 40, 3846105: 48, 17954469: 25}  # index: the j whose first word is rejected


def test_deals_with_a_rejected_word_match_the_golden_file():
    path = DATA / "seed-1-rejections.txt"
    assert read_boards(path) == [seeded_deal(1, index) for index in REJECTING_DEALS]


@pytest.mark.parametrize(("index", "j"), REJECTING_DEALS.items())
def test_rejection_really_happens_in_the_golden_deals(index, j):
    # without rejection sampling these deals would differ: pins step 3 of the scheme
    assert documented_deal(1, index) == seeded_deal(1, index).piles
    assert documented_deal(1, index, reject=False) != seeded_deal(1, index).piles
    assert documented_rejections(1, index) == [j]


def test_golden_seed_files_differ():
    assert (DATA / "seed-1-first.txt").read_text() != (DATA / "seed-20261129-first.txt").read_text()
    assert len(set(read_boards(DATA / "seed-1-first.txt"))) == 5


def test_scheme_name_is_pinned():
    # renaming the scheme (or changing it without renaming) must be deliberate
    assert SEEDED_SCHEME == "blackhole-sha256-v1"


# --- the documented scheme, rebuilt from the module docstring -------------------------------------


def documented_words(seed: int, index: int):
    """The 32-bit word stream of step 2 of the documented scheme."""
    k = 0
    while True:
        block = hashlib.sha256(b"blackhole-deal-v1" + struct.pack(">QQI", seed, index, k)).digest()
        for offset in range(0, 32, 4):
            yield struct.unpack("<I", block[offset : offset + 4])[0]
        k += 1


def documented_shuffle(seed: int, index: int, *, reject: bool = True) -> tuple[list[int], list[int]]:
    """Steps 1 and 3: the shuffled cards, and the values of j at which a word was rejected."""
    cards = [rank * 4 + suit for rank in range(13) for suit in range(4) if (rank, suit) != (0, 3)]
    stream = documented_words(seed, index)
    rejected = []
    for j in range(50, 0, -1):
        word = next(stream)
        while reject and word >= 2**32 - (2**32 % (j + 1)):
            rejected.append(j)
            word = next(stream)
        r = word % (j + 1)
        cards[j], cards[r] = cards[r], cards[j]
    return cards, rejected


def documented_deal(seed: int, index: int, *, reject: bool = True) -> tuple[tuple[int, ...], ...]:
    """Deal ``index`` of ``seed`` exactly as pipeline/game/shuffles.py's docstring describes it (step 4: piles)."""
    cards, _ = documented_shuffle(seed, index, reject=reject)
    return tuple(tuple(cards[3 * p : 3 * p + 3]) for p in range(17))


def documented_rejections(seed: int, index: int) -> list[int]:
    return documented_shuffle(seed, index)[1]


@pytest.mark.parametrize(
    ("seed", "index"),
    [(0, 0), (1, 0), (1, 4), (20261129, 3), (7, 123_456), (MAX_SEED, MAX_SEED), (2**40 + 5, 2**33)],
)
def test_seeded_deal_follows_the_documented_scheme(seed, index):
    assert seeded_deal(seed, index).piles == documented_deal(seed, index)


def test_documented_scheme_first_words_are_stable():
    # the very first SHA-256 block for (1, 0): pins the byte layout of the counter-mode input
    digest = hashlib.sha256(b"blackhole-deal-v1" + (1).to_bytes(8, "big") + (0).to_bytes(8, "big") + bytes(4))
    first_word = int.from_bytes(digest.digest()[:4], "little")
    assert first_word < 2**32 - 2**32 % 51  # not rejected: it picks the card for position 50
    # position 50 (the top of pile 16) receives the card that started at position first_word % 51
    assert seeded_deal(1, 0).piles[16][2] == DEALT_CARDS[first_word % 51]


# --- deal i depends on (S, i) alone ----------------------------------------------------------------


def test_deals_do_not_depend_on_the_order_they_are_made_in():
    forward = [seeded_deal(99, index) for index in range(12)]
    backward = [seeded_deal(99, index) for index in reversed(range(12))][::-1]
    interleaved = {}
    for index in [7, 3, 11, 0, 5, 9, 1, 10, 2, 8, 4, 6]:
        seeded_deal(98, index)  # other seeds and indices in between change nothing
        seeded_deal(100, 11 - index)
        interleaved[index] = seeded_deal(99, index)
    assert forward == backward == [interleaved[index] for index in range(12)]


def test_seeds_and_indices_give_different_deals():
    made = {seeded_deal(seed, index) for seed in (0, 1, 2, 2**32) for index in (0, 1, 2, 2**32)}
    assert len(made) == 16


@pytest.mark.parametrize(("seed", "index"), [(-1, 0), (MAX_SEED + 1, 0), (0, -1), (0, MAX_SEED + 1)])
def test_seed_and_index_out_of_range_rejected(seed, index):
    with pytest.raises(ValueError):
        seeded_deal(seed, index)


# --- uniformity -----------------------------------------------------------------------------------


def chi_square_survival(x: float, degrees: int) -> float:
    """P(X > x) for X ~ chi-square(``degrees``), by the Wilson-Hilferty cube-root normal approximation."""
    if x <= 0:
        return 1.0
    variance = 2 / (9 * degrees)
    z = ((x / degrees) ** (1 / 3) - (1 - variance)) / math.sqrt(variance)
    return 0.5 * math.erfc(z / math.sqrt(2))


@pytest.mark.parametrize(
    ("x", "degrees", "p"),
    [(67.505, 50, 0.05), (76.154, 50, 0.01), (86.661, 50, 0.001), (49.335, 50, 0.5), (18.307, 10, 0.05)],
)
def test_wilson_hilferty_matches_chi_square_tables(x, degrees, p):
    assert chi_square_survival(x, degrees) == pytest.approx(p, rel=0.08)


def position_counts(rows: np.ndarray) -> np.ndarray:
    """counts[c, p]: how often dealt card number c (index in DEALT_CARDS) sits at position p."""
    index_of = np.full(NUM_CARDS, -1)
    index_of[list(DEALT_CARDS)] = np.arange(51)
    cells = index_of[rows] * 51 + np.arange(51)
    return np.bincount(cells.ravel(), minlength=51 * 51).reshape(51, 51)


def uniformity_p_values(counts: np.ndarray) -> tuple[list[float], float]:
    """Per-card p-values and the overall one for ``counts`` summed from uniform permutations.

    A card's row is multinomial over 51 positions: its statistic is chi-square
    with 50 degrees of freedom. The whole table is a sum of permutation
    matrices, whose covariance lives on the 50 * 50 matrices with zero row and
    column sums with every eigenvalue 51/50: the overall statistic is 51/50
    times a chi-square with 2500 degrees of freedom (its mean is 2550)."""
    expected = counts.sum() / (51 * 51)
    per_cell = (counts - expected) ** 2 / expected
    per_card = [chi_square_survival(float(row.sum()), 50) for row in per_cell]
    return per_card, chi_square_survival(float(per_cell.sum()) * 50 / 51, 50 * 50)


DEALS_FOR_UNIFORMITY = 30_000


def test_seeded_deals_are_uniform():
    rows = np.array([seeded_deal(20261129, index).cards() for index in range(DEALS_FOR_UNIFORMITY)])
    counts = position_counts(rows)
    assert (counts.sum(axis=0) == DEALS_FOR_UNIFORMITY).all()
    assert (counts.sum(axis=1) == DEALS_FOR_UNIFORMITY).all()
    per_card, overall = uniformity_p_values(counts)
    worst = min(range(51), key=per_card.__getitem__)
    assert per_card[worst] > 1e-6, f"card {DEALT_CARDS[worst]} is not uniform over positions"
    assert overall > 1e-6


def test_uniformity_check_catches_a_biased_shuffle():
    # the classic naive shuffle (swap every position with any position) is biased;
    # the same check, on the same number of deals, must reject it
    rng = np.random.default_rng(1)
    rows = np.tile(np.array(DEALT_CARDS), (DEALS_FOR_UNIFORMITY, 1))
    every = np.arange(DEALS_FOR_UNIFORMITY)
    for j in range(51):
        r = rng.integers(0, 51, size=DEALS_FOR_UNIFORMITY)
        rows[every, j], rows[every, r] = rows[every, r], rows[every, j].copy()
    per_card, overall = uniformity_p_values(position_counts(rows))
    assert min(per_card) < 1e-6 or overall < 1e-6


# --- PySol FC -------------------------------------------------------------------------------------


def independent_pysol_deal(number: int, *, microsoft: bool | None = None) -> Deal:
    """PySol FC's Black Hole deal, rebuilt from PySol FC's published generators:
    Microsoft's LCG over the MS deck order for numbers up to 32000, Python's
    Mersenne Twister over PySol's suit-major deck (C S H D) above; then the
    deck is reversed, the A♠ taken out and 51 cards dealt round-robin.
    ``microsoft`` forces one generator or the other."""
    deck = [(rank, suit) for suit in "CSHD" for rank in RANKS]
    if microsoft if microsoft is not None else number <= 32000:
        deck = [(rank, suit) for rank in RANKS for suit in "CDHS"]
        state = number

        def pick(top: int) -> int:
            nonlocal state
            state = (state * 214013 + 2531011) & 0x7FFFFFFF
            return (state >> 16) % (top + 1)
    else:
        twister = random.Random(number)

        def pick(top: int) -> int:
            return int(twister.random() * (top + 1))

    for n in range(len(deck) - 1, 0, -1):
        j = pick(n)
        deck[n], deck[j] = deck[j], deck[n]
    deck.reverse()
    deck.remove(("A", "S"))
    piles = [[] for _ in range(17)]
    for k, (rank, suit) in enumerate(deck):
        piles[k % 17].append(parse_card(rank + suit))
    return Deal(tuple(map(tuple, piles)))


def test_pysol_deal_1_is_the_example_board():
    assert pysol_deal(1).to_board_text() == EXAMPLE_BOARD
    assert independent_pysol_deal(1).to_board_text() == EXAMPLE_BOARD


def test_pysol_deals_match_the_golden_file():
    path = DATA / "pysol-1-5.txt"
    golden = read_boards(path)
    assert golden[0] == Deal.from_board_text(EXAMPLE_BOARD)
    assert [pysol_deal(number) for number in range(1, 6)] == golden
    assert board_file_text(golden) == path.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "number", [2, 3, 5, 31999, 32000, 32001, 32002, 1_000_000, 2**32 + 1, MAX_PYSOL_DEAL]
)
def test_pysol_deal_matches_the_published_generators(number):
    assert pysol_deal(number) == independent_pysol_deal(number)


def test_pysol_deal_above_32000_uses_the_mersenne_twister():
    deal = pysol_deal(32001)
    assert sorted(deal.cards()) == sorted(DEALT_CARDS)
    assert deal == pysol_deal(32001)
    assert deal == independent_pysol_deal(32001, microsoft=False)
    assert deal != independent_pysol_deal(32001, microsoft=True)
    assert pysol_deal(32000) == independent_pysol_deal(32000, microsoft=True)
    assert pysol_deal(32000) != independent_pysol_deal(32000, microsoft=False)
    assert deal not in {pysol_deal(number) for number in range(1, 6)}


@pytest.mark.parametrize("number", [0, -1, MAX_PYSOL_DEAL + 1])
def test_pysol_deal_numbers_out_of_range_rejected(number):
    with pytest.raises(ValueError, match="PySol FC deal numbers"):
        pysol_deal(number)
