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
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PIL import Image

from pipeline.game.cards import ACE_OF_SPADES, card_name, parse_card
from pipeline.game.deal import NUM_PILES, PILE_SIZE
from pipeline.packs.folders import read_pack_folder
from pipeline.packs.parquet import metadata
from pipeline.reports.gallery import DATA, DATA_GLOBAL, data_script, write_gallery
from tests.reports import gallery_words as said
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


# ---------------------------------------------------------------- the index: words, search, order, address


def data_of(folder: Path) -> dict[str, Any]:
    prefix = f"window.{DATA_GLOBAL} = "
    data: dict[str, Any] = json.loads((folder / DATA).read_text(encoding="utf-8")[len(prefix) : -2])
    return data


def shown_rows(page: Any) -> list[str]:
    rows: list[str] = page.eval_on_selector_all(".deal-row", "rows => rows.map(row => row.dataset.dealId)")
    return rows


def search(page: Any, text: str) -> list[str]:
    page.fill("#search", text)
    return shown_rows(page)


def suffix(deal_id: str) -> str:
    return deal_id.rsplit("-", 1)[1]


def test_the_pack_line_reads_well_and_a_number_finds_a_level_or_an_id_suffix_not_the_seed(
    page: Any, gallery: Any, pack: Path, tmp_path: Path
) -> None:
    uncurated = write_gallery(pack, tmp_path / "uncurated").folder
    ids = [row["deal_id"] for row in deal_rows(data_of(uncurated))]
    open_gallery(page, uncurated)
    assert page.text_content("#pack-line") == f"p · {len(ids)} deals, in pack order"
    seed = ids[0].split("-")[1]  # "77": every id holds it
    assert all(seed in deal_id for deal_id in ids)
    for number in ("7", seed, "011", "level 7"):
        expected = [
            deal_id
            for deal_id in ids
            if suffix(deal_id).isdigit() and int(suffix(deal_id)) == int(number.removeprefix("level "))
        ]
        if number.startswith("level"):
            expected = []  # no levels in a pack that is not curated
        assert search(page, number) == expected, number
    assert search(page, "77-1") == [deal_id for deal_id in ids if "77-1" in deal_id]  # else a part of the id
    assert page.get_attribute("#search", "placeholder") == "level or deal id"
    sorts = page.eval_on_selector_all("#sort option", "options => options.map(o => [o.value, o.textContent])")
    assert sorts == [
        ["level", "pack order"],
        ["level-desc", "pack order, last first"],
        ["difficulty", "easiest first"],
        ["difficulty-desc", "hardest first"],
    ]

    rows = deal_rows(data_of(gallery.folder))
    open_gallery(page, gallery.folder)
    assert page.text_content("#pack-line") == f"p-curated · {len(rows)} curated deals, in level order"
    for level in (3, 7):
        by_level = [row["deal_id"] for row in rows if row["level"] == level]
        by_suffix = [
            row["deal_id"] for row in rows if suffix(row["deal_id"]) == str(level) and row["level"] != level
        ]
        assert search(page, f"level {level}") == by_level
        assert sorted(search(page, str(level))) == sorted(by_level + by_suffix)


MANY = 300  # deals in the long index: three pages of rows


def many_deals(data: dict[str, Any]) -> None:
    """Make the gallery's deals into :data:`MANY` (ids many-001 ..., levels 1 ...), cycling through its own."""
    rows = deal_rows(data)
    set_rows(
        data,
        [
            {**rows[number % len(rows)], "deal_id": f"many-{number:03d}", "level": number}
            for number in range(1, MANY + 1)
        ],
    )


def hardest_first(rows: list[dict[str, Any]]) -> list[str]:
    """Hardest first, equal difficulties in level order, the deals without one last."""
    scored = sorted(
        (row for row in rows if row["difficulty"] is not None),
        key=lambda row: (-row["difficulty"], row["level"]),
    )
    return [row["deal_id"] for row in scored] + [row["deal_id"] for row in rows if row["difficulty"] is None]


def scroll_y(page: Any) -> int:
    return round(page.evaluate("scrollY"))


def test_sorting_goes_both_ways_and_the_address_keeps_filter_sort_and_scroll(
    page: Any, gallery: Any, tmp_path: Path
) -> None:
    folder = rewritten(gallery.folder, tmp_path / "many", many_deals)
    rows = deal_rows(data_of(folder))
    open_gallery(page, folder)
    page.select_option("#sort", "level-desc")
    assert shown_rows(page) == [row["deal_id"] for row in reversed(rows)][:100]  # a page of rows at a time
    assert page.evaluate("location.hash") == "#sort=level-desc"
    page.select_option("#sort", "difficulty-desc")
    hard = [row for row in rows if row["tier"] == "hard"]
    page.select_option("#tier-filter", "hard")
    assert page.evaluate("location.hash") == "#tier=hard&sort=difficulty-desc"
    expected = hardest_first(hard)
    assert shown_rows(page) == expected[:100] and len(hard) < 100
    page.select_option("#tier-filter", "all")
    expected = hardest_first(rows)
    assert shown_rows(page) == expected[:100]
    assert page.evaluate("location.hash") == "#sort=difficulty-desc"

    # Down the list, past its first page of rows; a row opens its deal, and Back comes back to the same place.
    while (rows_now := len(shown_rows(page))) < 200:  # counted before the scroll that appends the next page
        page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
        page.wait_for_function(f"document.querySelectorAll('.deal-row').length > {rows_now}")
    target = expected[150]
    row = page.locator(f".deal-row[data-deal-id='{target}']")
    row.scroll_into_view_if_needed()
    page.wait_for_timeout(300)  # the scroll position settles into the history entry
    before = scroll_y(page)
    assert before > 10_000
    row.locator("a").click()
    page.wait_for_selector("#play:not([hidden])")
    assert page.evaluate("location.hash") == f"#deal={target}&sort=difficulty-desc"
    assert scroll_y(page) == 0
    for _ in range(2):  # Back, then Forward and Back again: the place is kept each time
        page.go_back()
        page.wait_for_selector("#index:not([hidden])")
        assert scroll_y(page) == before
        assert page.input_value("#sort") == "difficulty-desc"
        page.go_forward()
        page.wait_for_selector("#play:not([hidden])")
    page.click("#back")  # the deal's own way back: to the index it came from
    page.wait_for_selector("#index:not([hidden])")
    assert page.evaluate("location.hash") == "#sort=difficulty-desc" and scroll_y(page) == before

    page.select_option("#tier-filter", "expert")
    page.fill("#search", "many-1")
    matched = [
        deal_id
        for deal_id in hardest_first(rows)
        if "many-1" in deal_id and dict((r["deal_id"], r["tier"]) for r in rows)[deal_id] == "expert"
    ]
    assert shown_rows(page) == matched[:100]
    page.reload()
    page.wait_for_selector("body[data-ready='true']")
    assert page.input_value("#tier-filter") == "expert" and page.input_value("#sort") == "difficulty-desc"
    assert page.input_value("#search") == "many-1" and shown_rows(page) == matched[:100]


def deal_shown(page: Any, awaited: str | None = None) -> str:
    """The id of the deal on show; after a step to ``awaited``, once the page has drawn it (a step keeps the
    page shown, so its title changes a moment later) or the wait times out."""
    page.wait_for_selector("#play:not([hidden])")
    if awaited is not None:
        page.wait_for_function(
            "id => document.querySelector('#deal-title .deal-id')?.textContent === id", arg=awaited
        )
    shown: str = page.text_content("#deal-title .deal-id")
    return shown


def test_previous_and_next_go_through_the_index_in_its_order_and_filter_by_button_and_key(
    page: Any, gallery: Any
) -> None:
    rows = deal_rows(data_of(gallery.folder))
    order = hardest_first(rows)
    open_gallery(page, gallery.folder, "sort=difficulty-desc")
    assert shown_rows(page) == order
    page.click(f".deal-row[data-deal-id='{order[0]}'] a")
    assert deal_shown(page) == order[0]
    assert page.get_attribute("#previous-deal", "aria-disabled") == "true"
    assert page.get_attribute("#previous-deal", "href") is None  # the first deal: nothing before it
    assert page.text_content("#deal-place") == f"1 of {len(order)}"
    page.click("#next-deal")
    assert deal_shown(page, order[1]) == order[1] and page.text_content("#deal-place") == f"2 of {len(order)}"
    page.keyboard.press("n")
    assert deal_shown(page, order[2]) == order[2]
    page.keyboard.press("p")
    assert deal_shown(page, order[1]) == order[1]
    page.click("#previous-deal")
    assert deal_shown(page, order[0]) == order[0]
    page.go_back()  # each step is a page of its own: Back retraces them
    assert deal_shown(page, order[1]) == order[1]

    # From a filtered index, only its deals, in its order; the last has no next.
    tier = rows[0]["tier"]
    filtered = [
        deal_id for deal_id in order if dict((r["deal_id"], r["tier"]) for r in rows)[deal_id] == tier
    ]
    assert len(filtered) == 2
    open_gallery(page, gallery.folder, f"tier={tier}&sort=difficulty-desc")
    page.click(f".deal-row[data-deal-id='{filtered[0]}'] a")
    assert deal_shown(page) == filtered[0] and page.text_content("#deal-place") == "1 of 2"
    page.keyboard.press("n")
    assert (
        deal_shown(page, filtered[1]) == filtered[1]
        and page.get_attribute("#next-deal", "aria-disabled") == "true"
    )
    page.keyboard.press("n")  # nothing after the last
    assert deal_shown(page) == filtered[1]
    assert page.get_attribute("#back", "href") == f"#tier={tier}&sort=difficulty-desc"
    page.reload()  # the deal's address keeps the index it came from
    assert deal_shown(page) == filtered[1] and page.text_content("#deal-place") == "2 of 2"


# ---------------------------------------------------------------- the grade, in words


def open_by_hash(page: Any, deal_id: str) -> None:
    page.evaluate("id => { location.hash = '#deal=' + encodeURIComponent(id); }", deal_id)
    page.wait_for_function(
        "id => document.querySelector('#deal-title .deal-id').textContent === id", arg=deal_id
    )


def texts(page: Any, selector: str) -> list[str]:
    found: list[str] = page.eval_on_selector_all(selector, "items => items.map(item => item.textContent)")
    return found


def parts_of(text: str, pattern: str) -> tuple[int, ...]:
    found = re.fullmatch(pattern, re.sub(r"(?<=\d),(?=\d{3})", "", text))  # "1,234" reads 1234
    assert found, (text, pattern)
    return tuple(int(number) for number in found.groups())


def test_the_grade_says_what_a_player_meets_in_words_and_its_parts_add_up_to_the_whole_shown(
    page: Any, gallery: Any
) -> None:
    open_gallery(page, gallery.folder)
    for row in deal_rows(data_of(gallery.folder)):
        open_by_hash(page, row["deal_id"])
        reasons = texts(page, "#grade .reasons li")
        slips = said.slips_text(row["winnable_share"])
        assert slips in reasons
        assert ("only" in slips) == (row["winnable_share"] < 0.5)  # "only" for a share below one half alone
        ways, first, moves = texts(page, "#grade .facts li")
        assert ways == said.ways_text(row["solution_count"])
        assert first == said.first_moves_text(row["first_moves"], row["winning_first_moves"])
        assert moves == said.solution_moves_text(row["forced_moves"], row["decisions"])

        # Read back from the page alone: the parts said add up to the whole said.
        total, forced, choices = parts_of(
            moves, r"Of the solution's (\d+) moves, (\d+) (?:is|are) forced .* and (\d+) .*"
        )
        assert forced + choices == total == len(row["solution"]) == 51
        if first.startswith("Of the "):
            cards, winning, losing = parts_of(
                first, r"Of the (\d+) cards you can play first, (\d+) .* and (\d+) .*"
            )
            assert winning + losing == cards == row["first_moves"]
        words = page.text_content("#grade").split("All the numbers")[0]
        assert not [text for text in (*said.FORMULA_TEXT, "%", "first moves win", "(-") if text in words], (
            words
        )


def test_an_ungraded_deal_says_why_it_has_no_grade(
    page: Any, gallery: Any, curated_pack: Path, tmp_path: Path
) -> None:
    cases = [
        ("solved", "out_of_budget"),
        ("solved", "overflow"),
        ("solved", "not_sampled"),
        ("unknown", "unknown"),
        ("solved", None),
    ]
    kept = {"deal_id", "level", "verdict", "grade_status", "cards", "solution"}

    def ungraded(data: dict[str, Any]) -> None:
        template = deal_rows(data)[0]
        made = []
        for number, (verdict, status) in enumerate(cases, start=1):
            row = {name: (value if name in kept else None) for name, value in template.items()}
            row.update(
                deal_id=f"why-{number}", level=number, tier="ungraded", verdict=verdict, grade_status=status
            )
            if verdict != "solved":
                row["solution"] = []
            made.append(row)
        set_rows(data, made)

    provenance = metadata(read_pack_folder(curated_pack))
    budgets = {
        "solve": int(provenance["max_nodes"]),
        "grade": int(provenance["grade_max_positions"]),
        "grade_memory_mib": int(provenance["grade_max_memory_mib"]),
    }
    assert data_of(gallery.folder)["budgets"] == budgets
    folder = rewritten(gallery.folder, tmp_path / "ungraded", ungraded)
    open_gallery(page, folder)
    for number, (verdict, status) in enumerate(cases, start=1):
        open_by_hash(page, f"why-{number}")
        reason = page.text_content("#grade .ungraded-reason")
        assert reason == said.ungraded_text(verdict, status, budgets)
        if status == "out_of_budget":  # "1,024 MiB of memory (or 250 million positions)"
            assert (
                f"{budgets['grade_memory_mib']:,} MiB of memory (or {said.rounded_count(budgets['grade'])} positions)"
                in reason
            )
        if verdict == "unknown":
            assert f"{said.rounded_count(budgets['solve'])} positions" in reason
    # a pack graded before memory budgets (format 2) records none: its positions alone
    before = budgets | {"grade": 22_000_000, "grade_memory_mib": None}

    def graded_before(data: dict[str, Any]) -> None:
        ungraded(data)
        data["budgets"] = before

    open_gallery(page, rewritten(gallery.folder, tmp_path / "before", graded_before))
    open_by_hash(page, "why-1")
    reason = page.text_content("#grade .ungraded-reason")
    assert reason == said.ungraded_text("solved", "out_of_budget", before)
    assert "of 22 million positions before" in reason and "memory" not in reason


# ---------------------------------------------------------------- the dark scheme


def rgb(css: str) -> Pixel:
    """A computed colour, ``rgb(r, g, b)`` (or rgba with full opacity), as a triple."""
    found = re.fullmatch(r"rgba?\((\d+), (\d+), (\d+)(?:, 1)?\)", css)
    assert found, css
    red, green, blue = (int(part) for part in found.groups())
    return red, green, blue


def luminance(colour: Pixel) -> float:
    """WCAG 2's relative luminance."""

    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    red, green, blue = (linear(channel) for channel in colour)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast(one: Pixel, other: Pixel) -> float:
    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def colours(page: Any, selector: str) -> tuple[Pixel, Pixel]:
    """The text colour of ``selector``'s first element and the background it sits on (its own, else the
    nearest ancestor's that is not transparent)."""
    found: list[str] = page.eval_on_selector(
        selector,
        """el => {
            const ink = getComputedStyle(el).color;
            let at = el;
            while (at && ['transparent', 'rgba(0, 0, 0, 0)'].includes(getComputedStyle(at).backgroundColor)) {
                at = at.parentElement;
            }
            return [ink, at ? getComputedStyle(at).backgroundColor : 'rgb(255, 255, 255)'];
        }""",
    )
    return rgb(found[0]), rgb(found[1])


def test_a_dark_scheme_follows_the_system_keeps_the_green_table_and_reads_well(
    browser: Any, gallery: Any
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme="dark")
    try:
        page = context.new_page()
        open_gallery(page, gallery.folder)
        ink, background = colours(page, "body")
        assert luminance(background) < 0.05 and luminance(ink) > 0.6  # a dark page, light text
        assert contrast(ink, background) >= 7
        for selector, least in ((".deal-id", 7.0), (".stat-label", 4.5), ("#sort", 4.5), ("label", 4.5)):
            assert contrast(*colours(page, selector)) >= least, selector
        assert luminance(colours(page, ".deal-link")[1]) < 0.05  # the rows' panels are dark too

        deal_id = deal_rows(data_of(gallery.folder))[0]["deal_id"]
        open_by_hash(page, deal_id)
        assert rgb(page.eval_on_selector("#board", "el => getComputedStyle(el).backgroundColor")) == (
            11,
            110,
            58,
        )
        card_ink, card = colours(page, ".pile button.card")
        assert card == (255, 255, 255) and contrast(card_ink, card) >= 4.5  # the cards stay white
        for selector, least in (
            ("#grade h3", 7.0),
            ("#grade .dead-ends-meaning", 4.5),
            ("#undo", 4.5),
            ("#back", 4.5),
        ):
            assert contrast(*colours(page, selector)) >= least, selector
        assert luminance(colours(page, "#grade")[1]) < 0.05
    finally:
        context.close()
