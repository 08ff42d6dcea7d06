"""Seeded dealing of All in a Row and the Golfs (schemes all_in_a_row-sha256-v1 and golf-sha256-v1).

The golden files under tests/data pin each layout's deals, as tests/data/seed-1-first.txt pins Black
Hole's: a published pack must never change because a library or this code changed. The scheme is also
rebuilt here from the docstring of pipeline/game/shuffles.py, so the golden files pin what it says.
"""

from __future__ import annotations

import hashlib
import re
import struct
from pathlib import Path

import pytest

from pipeline.game.cards import NUM_CARDS
from pipeline.game.deal import BoardError, Deal, read_boards
from pipeline.game.games import ALL_IN_A_ROW, BLACK_HOLE, DEAD_KING_GOLF, GOLF, RELAXED_GOLF
from pipeline.game.shuffles import (
    MAX_SEED,
    SEEDED_SCHEME,
    deal_of_id,
    pysol_deal,
    seeded_deal,
    seeded_scheme,
)

DATA = Path(__file__).parents[1] / "data"
GOLFS = (DEAD_KING_GOLF, GOLF, RELAXED_GOLF)
FAMILY = (ALL_IN_A_ROW, *GOLFS)
FAMILY_NAMES = [game.name for game in FAMILY]


def board_file_text(deals: list[Deal]) -> str:
    """Boards separated by one blank line, as the golden files are written."""
    return "\n".join(deal.to_board_text() for deal in deals)


# --- golden files ------------------------------------------------------------------------------


@pytest.mark.parametrize("game", FAMILY, ids=FAMILY_NAMES)
def test_seeded_deals_match_the_golden_file_of_their_layout(game):
    path = DATA / f"seed-1-first-{game.layout}.txt"
    made = [seeded_deal(1, index, game) for index in range(5)]
    assert board_file_text(made) == path.read_text(encoding="utf-8")
    assert read_boards(path, game) == made


def test_golden_files_of_the_layouts_differ():
    golden = [DATA / f"seed-1-first-{name}.txt" for name in ("all_in_a_row", "golf")]
    texts = [path.read_text(encoding="utf-8") for path in golden]
    assert texts[0] != texts[1]
    assert len(set(read_boards(golden[0], ALL_IN_A_ROW))) == len(set(read_boards(golden[1], GOLF))) == 5


@pytest.mark.parametrize(
    ("game", "scheme"),
    [
        (BLACK_HOLE, "blackhole-sha256-v1"),
        (ALL_IN_A_ROW, "all_in_a_row-sha256-v1"),
        (DEAD_KING_GOLF, "golf-sha256-v1"),
        (GOLF, "golf-sha256-v1"),
        (RELAXED_GOLF, "golf-sha256-v1"),
    ],
    ids=["black_hole", *FAMILY_NAMES],
)
def test_scheme_names_are_pinned(game, scheme):
    # renaming a scheme (or changing it without renaming) must be deliberate
    assert seeded_scheme(game) == scheme


def test_black_hole_scheme_is_the_default():
    assert seeded_scheme() == SEEDED_SCHEME == seeded_scheme(BLACK_HOLE)


# --- the documented scheme, rebuilt from the module docstring -----------------------------------------


def documented_cards(seed: int, index: int, layout: str) -> list[int]:
    """The 52 cards shuffled as pipeline/game/shuffles.py describes it for a layout other than Black Hole's."""
    cards = list(range(NUM_CARDS))
    domain = f"{layout}-deal-v1".encode()

    def words():
        block = 0
        while True:
            digest = hashlib.sha256(domain + struct.pack(">QQI", seed, index, block)).digest()
            yield from (struct.unpack("<I", digest[offset : offset + 4])[0] for offset in range(0, 32, 4))
            block += 1

    stream = words()
    for j in range(51, 0, -1):
        word = next(stream)
        while word >= 2**32 - (2**32 % (j + 1)):
            word = next(stream)
        r = word % (j + 1)
        cards[j], cards[r] = cards[r], cards[j]
    return cards


@pytest.mark.parametrize("game", FAMILY, ids=FAMILY_NAMES)
@pytest.mark.parametrize(("seed", "index"), [(0, 0), (1, 0), (1, 4), (20261129, 3), (MAX_SEED, MAX_SEED)])
def test_seeded_deal_follows_the_documented_scheme(game, seed, index):
    cards = documented_cards(seed, index, game.layout)
    deal = seeded_deal(seed, index, game)
    assert deal.cards() == tuple(cards)
    size = game.pile_size
    assert deal.piles == tuple(tuple(cards[p * size : (p + 1) * size]) for p in range(game.num_piles))
    if game.has_talon:
        assert deal.foundation == cards[35] and deal.talon == tuple(cards[36:])
    else:
        assert deal.foundation is None and deal.talon == ()


# --- every deal a deck; which games share deals -----------------------------------------------------


@pytest.mark.parametrize("game", FAMILY, ids=FAMILY_NAMES)
def test_every_seeded_deal_holds_52_distinct_cards(game):
    for index in range(300):
        deal = seeded_deal(20261202, index, game)
        assert deal.game is game
        assert sorted(deal.cards()) == list(range(NUM_CARDS))


def test_the_three_golfs_deal_the_same_cards():
    for seed, index in [(0, 0), (1, 2), (7, 123_456), (2**40, 2**33)]:
        dealt = [seeded_deal(seed, index, game) for game in GOLFS]
        assert dealt[0].cards() == dealt[1].cards() == dealt[2].cards()
        assert [deal.game for deal in dealt] == list(GOLFS)


def test_all_in_a_row_deals_differ_from_golf_deals():
    for seed in (0, 1, 99):
        for index in range(20):
            assert seeded_deal(seed, index, ALL_IN_A_ROW).cards() != seeded_deal(seed, index, GOLF).cards()


@pytest.mark.parametrize("game", FAMILY, ids=FAMILY_NAMES)
def test_seeds_and_indices_give_different_deals(game):
    made = {seeded_deal(seed, index, game).cards() for seed in (0, 1, 2**32) for index in (0, 1, 2**32)}
    assert len(made) == 9


@pytest.mark.parametrize("game", FAMILY, ids=FAMILY_NAMES)
@pytest.mark.parametrize(("seed", "index"), [(-1, 0), (MAX_SEED + 1, 0), (0, -1), (0, MAX_SEED + 1)])
def test_seed_and_index_out_of_range_rejected(game, seed, index):
    with pytest.raises(ValueError):
        seeded_deal(seed, index, game)


# --- deal ids --------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", [BLACK_HOLE, *FAMILY], ids=["black_hole", *FAMILY_NAMES])
def test_deal_of_id_deals_the_game(game):
    assert deal_of_id("seed-1-3", game) == seeded_deal(1, 3, game)
    assert deal_of_id("pysol-5", game) == pysol_deal(5, game)
    assert deal_of_id("seed-1-3", game).game is game


@pytest.mark.parametrize("game", FAMILY, ids=FAMILY_NAMES)
@pytest.mark.parametrize(
    ("deal_id", "message"),
    [
        ("import-3", "not a seeded (seed-SEED-INDEX) or PySol FC (pysol-NUMBER) deal id"),
        ("pysol-0", "PySol FC deal numbers run from 1 to"),
        (f"seed-{MAX_SEED + 1}-0", "seeds and deal indices run from 0 to"),
    ],
)
def test_deal_of_id_refuses_other_ids(game, deal_id, message):
    with pytest.raises(BoardError, match=re.escape(message)) as caught:
        deal_of_id(deal_id, game)
    assert caught.value.source == deal_id


def test_deal_of_id_defaults_to_black_hole():
    assert deal_of_id("seed-1-3").game is BLACK_HOLE
