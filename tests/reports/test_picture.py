"""Pictures of deals: a real PNG of the fixed size, green table, red and black suits, stable bytes, safe writes."""

from __future__ import annotations

import itertools
import warnings

import matplotlib.colors
import matplotlib.image
import numpy as np
import pytest

from pipeline.files import DestinationError
from pipeline.game.cards import NUM_CARDS, RANKS, parse_card
from pipeline.game.deal import EXAMPLE_BOARD, NUM_PILES, Deal
from pipeline.game.shuffles import seeded_deal
from pipeline.reports.picture import (
    BLACK,
    CARD_HEIGHT,
    HEIGHT,
    PILE_WIDTH,
    RED,
    TABLE_GREEN,
    WIDTH,
    card_face,
    draw_deal,
    pile_origin,
)

EXAMPLE = Deal.from_board_text(EXAMPLE_BOARD)
LABEL_HEIGHT = 24  # room under a pile for its number


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk (which must come first)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def pixels(path) -> np.ndarray:
    """The decoded image as an (rows, columns, 3) array of 0..255 RGB."""
    return np.round(matplotlib.image.imread(path)[..., :3] * 255).astype(np.uint8)


def share_of(image: np.ndarray, colour: str) -> float:
    """The share of ``image``'s pixels that are exactly ``colour``."""
    rgb = np.round(np.array(matplotlib.colors.to_rgb(colour)) * 255).astype(np.uint8)
    return float(np.all(image == rgb, axis=-1).mean())


@pytest.fixture(scope="module")
def example_png(tmp_path_factory):
    path = tmp_path_factory.mktemp("drawing") / "example.png"
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a missing glyph (say, a suit symbol) would warn
        draw_deal(EXAMPLE, path, title="Example deal")
    return path


def test_a_picture_is_a_png_of_the_fixed_size(example_png):
    assert png_size(example_png.read_bytes()) == (WIDTH, HEIGHT)
    assert pixels(example_png).shape == (HEIGHT, WIDTH, 3)


def test_the_cards_lie_on_a_green_table_with_red_and_black_suits(example_png):
    image = pixels(example_png)
    corners = [image[0, 0], image[0, -1], image[-1, 0], image[-1, -1]]
    assert all(share_of(np.array([corner]), TABLE_GREEN) == 1.0 for corner in corners)
    assert share_of(image, TABLE_GREEN) > 0.3
    assert share_of(image, "white") > 0.15  # 52 card faces
    assert share_of(image, RED) > 0.001 and share_of(image, BLACK) > 0.001


def test_the_same_deal_gives_the_same_bytes_and_another_deal_other_bytes(example_png, tmp_path):
    draw_deal(EXAMPLE, tmp_path / "again.png", title="Example deal")
    assert (tmp_path / "again.png").read_bytes() == example_png.read_bytes()
    draw_deal(EXAMPLE, tmp_path / "untitled.png")
    draw_deal(seeded_deal(77, 0), tmp_path / "other.png", title="Example deal")
    pictures = {example_png.read_bytes(), *(p.read_bytes() for p in tmp_path.iterdir())}
    assert len(pictures) == 3


def test_every_card_face_parses_back_to_its_card():
    for card in range(NUM_CARDS):
        rank, symbol, colour = card_face(card)
        assert parse_card(rank + symbol) == card
        assert colour == (RED if symbol in "♥♦" else BLACK)
    assert [card_face(parse_card(f"{r}S"))[0] for r in RANKS] == [*"A23456789", "10", *"JQK"]


def test_piles_fit_the_picture_and_never_overlap():
    boxes = []
    for pile in range(NUM_PILES):
        left, top = pile_origin(pile)
        right, bottom = left + PILE_WIDTH, top + CARD_HEIGHT + LABEL_HEIGHT
        assert 0 <= left and right <= WIDTH and 0 <= top and bottom <= HEIGHT
        boxes.append((left, top, right, bottom))
    for a, b in itertools.combinations(boxes, 2):
        assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)


def test_a_failed_write_leaves_no_file_behind(tmp_path, failing_rename):
    with pytest.raises(DestinationError, match="no directory"):
        draw_deal(EXAMPLE, tmp_path / "absent" / "deal.png")
    target = tmp_path / "deal.png"
    target.mkdir()  # refused before drawing: a folder is never replaced
    with pytest.raises(DestinationError, match="not a regular file"):
        draw_deal(EXAMPLE, target)
    assert [p.name for p in tmp_path.iterdir()] == ["deal.png"] and list(target.iterdir()) == []
    target.rmdir()  # now the PNG is written, then cannot be renamed (failing_rename)
    with pytest.raises(OSError, match="rename failed"):
        draw_deal(EXAMPLE, target)
    assert list(tmp_path.iterdir()) == []
