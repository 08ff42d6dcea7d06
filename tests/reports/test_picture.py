"""Pictures of deals: a real PNG of the fixed size, green table, red and black suits, stable bytes, safe writes;
each game's layout (All in a Row's empty foundation, Golf's talon with its count), and ``show`` on a pack of each."""

from __future__ import annotations

import itertools
import warnings

import matplotlib.colors
import matplotlib.image
import numpy as np
import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.files import DestinationError
from pipeline.game.cards import NUM_CARDS, RANKS, parse_card
from pipeline.game.deal import EXAMPLE_BOARD, NUM_PILES, Deal
from pipeline.game.games import ALL_IN_A_ROW, GAMES, GOLF, RELAXED_GOLF
from pipeline.game.shuffles import pysol_deal, seeded_deal
from pipeline.packs.folders import read_pack_folder
from pipeline.reports.picture import (
    BLACK,
    CARD_BACK,
    CARD_HEIGHT,
    CARD_WIDTH,
    FOUNDATION_TOP,
    HEIGHT,
    LAYOUTS,
    PILE_WIDTH,
    RED,
    TABLE_GREEN,
    WIDTH,
    card_face,
    draw_deal,
    layout_of,
    pile_origin,
    talon_origin,
)

EXAMPLE = Deal.from_board_text(EXAMPLE_BOARD)
LABEL_HEIGHT = 24  # room under a pile for its number
TALON_LABEL_WIDTH = 150  # "talon: 16 cards left", centred under the talon


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


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_every_layouts_piles_foundation_and_talon_fit_the_picture_and_never_overlap(name):
    layout = LAYOUTS[name]
    game = next(game for game in GAMES if game.layout == name)
    assert (layout.num_piles, layout.pile_size) == (game.num_piles, game.pile_size)
    boxes = [
        (
            layout.margin,
            FOUNDATION_TOP,
            layout.margin + CARD_WIDTH,
            FOUNDATION_TOP + CARD_HEIGHT + LABEL_HEIGHT,
        )
    ]
    if game.has_talon:
        left, top = talon_origin(layout)
        centre = left + CARD_WIDTH / 2
        boxes.append(
            (
                centre - TALON_LABEL_WIDTH / 2,
                top,
                centre + TALON_LABEL_WIDTH / 2,
                top + CARD_HEIGHT + LABEL_HEIGHT,
            )
        )
    for pile in range(layout.num_piles):
        left, top = pile_origin(pile, layout)
        boxes.append((left, top, left + layout.pile_width, top + CARD_HEIGHT + LABEL_HEIGHT))
    for left, top, right, bottom in boxes:
        assert 0 <= left and right <= WIDTH and 0 <= top and bottom <= HEIGHT
    for a, b in itertools.combinations(boxes, 2):
        assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)


def box(
    image: np.ndarray, left: int, top: int, width: int = CARD_WIDTH, height: int = CARD_HEIGHT
) -> np.ndarray:
    """The pixels of a card's box, a few pixels inside its edge."""
    return image[top + 4 : top + height - 4, left + 4 : left + width - 4]


@pytest.fixture(scope="module")
def family_pngs(tmp_path_factory):
    """PySol FC deal 1 of All in a Row and of Golf, drawn."""
    folder = tmp_path_factory.mktemp("family-drawing")
    drawn = {}
    for game in (ALL_IN_A_ROW, GOLF):
        drawn[game.name] = folder / f"{game.name}.png"
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            draw_deal(pysol_deal(1, game), drawn[game.name], title=f"{game.title} 1")
    return drawn


def test_all_in_a_row_is_drawn_as_thirteen_fans_of_four_under_an_empty_foundation(family_pngs):
    image = pixels(family_pngs["all_in_a_row"])
    assert image.shape == (HEIGHT, WIDTH, 3)
    layout = layout_of(ALL_IN_A_ROW)
    foundation = box(image, layout.margin, FOUNDATION_TOP)
    assert share_of(foundation, "white") == 0.0, "no card on the foundation"
    assert share_of(foundation, TABLE_GREEN) > 0.8, "an outline, the table inside it"
    deal = pysol_deal(1, ALL_IN_A_ROW)
    for pile in range(13):  # each pile's free card shows whole: a white card face with its suit's colour
        left, top = pile_origin(pile, layout)
        free = box(image, left + 3 * 34, top)
        colour = RED if card_face(deal.piles[pile][-1])[1] in "♥♦" else BLACK
        assert share_of(free, "white") > 0.6 and share_of(free, colour) > 0.005, pile
    assert share_of(box(image, *pile_origin(12, layout)), TABLE_GREEN) == 0.0
    assert share_of(image[-60:], TABLE_GREEN) == 1.0, "nothing below the third row"


def test_golf_is_drawn_as_seven_fans_of_five_beside_its_foundation_card_and_talon(family_pngs):
    image = pixels(family_pngs["golf"])
    layout = layout_of(GOLF)
    assert share_of(box(image, layout.margin, FOUNDATION_TOP), "white") > 0.6, "the dealt foundation card"
    talon = box(image, *talon_origin(layout))
    assert share_of(talon, CARD_BACK) > 0.4, "the talon face down"
    assert share_of(talon, "white") > 0.01, "its count of cards left, in white"
    for pile in range(7):
        left, top = pile_origin(pile, layout)
        assert share_of(box(image, left + 4 * 34, top), "white") > 0.6, pile
    last_row = pile_origin(4, layout)[1] + CARD_HEIGHT + LABEL_HEIGHT
    assert share_of(image[last_row:], TABLE_GREEN) == 1.0, "two rows of piles"


def test_each_layout_gives_its_own_stable_bytes(family_pngs, tmp_path):
    again = tmp_path / "again.png"
    draw_deal(pysol_deal(1, GOLF), again, title="Golf 1")
    assert again.read_bytes() == family_pngs["golf"].read_bytes()
    draw_deal(
        pysol_deal(1, RELAXED_GOLF), tmp_path / "relaxed.png", title="Golf 1"
    )  # the same layout and cards
    assert (tmp_path / "relaxed.png").read_bytes() == again.read_bytes()
    assert family_pngs["all_in_a_row"].read_bytes() != again.read_bytes()


@pytest.mark.parametrize("name", ["golf", "all_in_a_row"])
def test_show_draws_a_deal_of_a_pack_of_any_game_and_prints_its_board(name, request, tmp_path):
    pack = request.getfixturevalue(f"{name}_pack")
    row = read_pack_folder(pack).to_pylist()[0]
    png = tmp_path / "deal.png"
    shown = CliRunner().invoke(app, ["show", row["deal_id"], "--pack", str(pack), "--png", str(png), "-q"])
    assert shown.exit_code == 0, shown.output
    assert shown.stdout == row["board"]
    image = pixels(png)
    assert image.shape == (HEIGHT, WIDTH, 3)
    game = next(game for game in GAMES if game.name == name)
    foundation = box(image, layout_of(game).margin, FOUNDATION_TOP)
    assert (
        share_of(foundation, "white") > 0.6
    ) == game.has_talon  # Golf's dealt card, All in a Row's empty one


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
