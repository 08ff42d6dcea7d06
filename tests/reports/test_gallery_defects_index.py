"""The gallery's index and grade, as a person meets them (issue 24, item 6), in headless Chromium.

Thumbnails whose "10" fits its card at a device scale of 1, the pack's line in words, search by
level or id suffix, sorting both ways, filter and sort in the address (Back keeps the index's
scroll, a reload its filter and sort), previous / next deal, a grade in plain words whose
figures add up, an ungraded deal that says why, and a dark scheme. Every expectation is
computed here from the pack, never read back from the page.
"""

from __future__ import annotations

import base64
import io
import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PIL import Image

from pipeline.game.cards import ACE_OF_SPADES, card_name, parse_card
from pipeline.game.deal import NUM_PILES, PILE_SIZE
from pipeline.reports.gallery import DATA, DATA_GLOBAL, data_script
from tests.reports.browsing import open_gallery

Pixel = tuple[int, int, int]


def rewritten(folder: Path, out: Path, change: Callable[[dict[str, Any]], None]) -> Path:
    """A copy of the gallery in ``folder`` whose deals.js object ``change(data)`` has edited in place."""
    shutil.copytree(folder, out)
    prefix = f"window.{DATA_GLOBAL} = "
    data = json.loads((out / DATA).read_text(encoding="utf-8")[len(prefix) : -2])
    change(data)
    (out / DATA).write_text(data_script(data), encoding="utf-8")
    return out


def deal_rows(data: dict[str, Any]) -> list[dict[str, Any]]:
    return [dict(zip(data["columns"], values, strict=True)) for values in data["deals"]]


def set_rows(data: dict[str, Any], rows: list[dict[str, Any]]) -> None:
    data["deals"] = [[row[name] for name in data["columns"]] for row in rows]


# ---------------------------------------------------------------- thumbnails


# The free cards of the deal drawn: every rank and every suit, and all four 10s, so every label is measured.
FREE_CARDS = "TH TC TD TS QH KC AH 2D 3S 4H 5C 6D 7S 8H 9C JD QS".split()


def wide_cards() -> str:
    """A deal's cards text whose free cards are :data:`FREE_CARDS`, and whose covered cards start with the
    widest labels left (Q, K, A, and 8s): deals.js's "JDKSTH2D..." spelling."""
    free = [parse_card(name) for name in FREE_CARDS]
    rest = [card for card in range(52) if card != ACE_OF_SPADES and card not in free]
    rest.sort(key=lambda card: "QKA8".find(card_name(card)[0]) % 5)  # the widest labels first
    piles = [[rest[2 * pile], rest[2 * pile + 1], free[pile]] for pile in range(NUM_PILES)]
    assert sorted(card for pile in piles for card in pile) == sorted(set(range(52)) - {ACE_OF_SPADES})
    return "".join(card_name(card) for pile in piles for card in pile)


def canvas_image(page: Any, selector: str) -> Image.Image:
    url = page.eval_on_selector(selector, "canvas => canvas.toDataURL('image/png')")
    return Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))).convert("RGB")


def pixel(image: Image.Image, x: int, y: int) -> Pixel:
    red, green, blue = image.getpixel((x, y))  # type: ignore[misc]
    return red, green, blue


def is_green(colour: Pixel) -> bool:
    red, green, blue = colour
    return green > red + 40 and green > blue


def is_white(colour: Pixel) -> bool:
    return min(colour) > 235


def is_ink(colour: Pixel) -> bool:
    """A label's colour, not an edge's grey nor a pale fringe: the red of hearts and diamonds, or near black."""
    red, green, blue = colour
    return (red > 150 and green < 90 and blue < 110) or max(colour) < 100


def thumbnail_piles(image: Image.Image) -> list[tuple[int, list[int]]]:
    """The piles of a thumbnail, in pile order: each one's top row and its four edge columns (the left
    edges of its three cards, then the right edge of the last), found from the pixels."""
    rows = [y for y in range(image.height) if any(is_white(pixel(image, x, y)) for x in range(image.width))]
    bands: list[list[int]] = []
    for y in rows:
        if bands and y == bands[-1][-1] + 1:
            bands[-1].append(y)
        else:
            bands.append([y])
    piles = []
    for band in bands:
        y = band[-1] - 3  # below the labels, above the rounded corners: white and edges only
        x = 0
        while x < image.width:
            if is_green(pixel(image, x, y)):
                x += 1
                continue
            edges = []
            while x < image.width and not is_green(pixel(image, x, y)):
                if not is_white(pixel(image, x, y)):
                    edges.append(x)
                x += 1
            piles.append((band[0], edges))
    return piles


def ink_columns(image: Image.Image, columns: range, rows: range) -> list[int]:
    return [x for x in columns if any(is_ink(pixel(image, x, y)) for y in rows)]


def test_every_label_of_a_thumbnail_fits_the_strip_a_covered_card_shows_at_device_scale_1(
    browser: Any, gallery: Any, tmp_path: Path
) -> None:
    cards = wide_cards()

    def one_deal(data: dict[str, Any]) -> None:
        row = deal_rows(data)[0]
        set_rows(data, [{**row, "cards": cards}])

    folder = rewritten(gallery.folder, tmp_path / "wide", one_deal)
    context = browser.new_context(viewport={"width": 1280, "height": 900}, device_scale_factor=1)
    try:
        page = context.new_page()
        open_gallery(page, folder)
        page.wait_for_selector(".deal-row canvas[data-drawn='true']")
        image = canvas_image(page, ".deal-row canvas")
    finally:
        context.close()
    assert image.size == (216, 100)  # one pixel a CSS pixel
    piles = thumbnail_piles(image)
    assert len(piles) == NUM_PILES and all(len(edges) == PILE_SIZE + 1 for _, edges in piles), piles
    names = [cards[i : i + 2] for i in range(0, len(cards), 2)]
    for pile, (top, edges) in enumerate(piles):
        strip = edges[1] - edges[0] - 1  # the columns of a covered card between its edge and the next card's
        assert strip == edges[2] - edges[1] - 1
        free = names[pile * PILE_SIZE + 2]
        # The free card's labels, drawn as on every card, fit in that strip with its last column clear:
        # so on a covered card nothing runs under the next card, and nothing touches its edge.
        rank = ink_columns(image, range(edges[2] + 1, edges[3]), range(top, top + 10))
        suit = ink_columns(image, range(edges[2] + 1, edges[3]), range(top + 10, top + 20))
        for label, columns in ((free[0], rank), (free[1], suit)):
            assert columns, (pile, label, "not drawn")
            assert columns[-1] - edges[2] <= strip - 1, (pile, free, label, columns, edges)
        for depth in range(PILE_SIZE - 1):  # and the covered cards' labels keep clear of the next edge
            last = edges[depth + 1] - 1
            assert not ink_columns(image, range(last, last + 1), range(top, top + 20)), (pile, depth)
