"""Personal records in the gallery, as a player meets them (issue 40, item 2), in headless Chromium.

On a 390 x 844 touch phone a player taps a deal through to a win along its solution and another into a dead end,
writes a note and a mark: the deal's page says what it holds ("1 attempt, 1 won (clean) · best 51 of 51 cards ·
fastest win 9 s."), the index marks the two deals ("Won", "Best 12 of 51") and no other, and the statistics view
counts them (played, won, win rate, streaks, by tier, best times, modes), every figure computed here from the
pack and the moves tapped. Resetting asks first with what it would delete (an attempt still open in the tab
carries on); Keep keeps, Delete deletes. The index's and the view's touch targets are at least 44 px a side.
Then a second tab's index shows a stuck attempt made in the first without a reload, and a one-attempt Golf deal
counts its cards out of 35 and says its mode. With ``BLACKHOLE_SCREENSHOTS=DIR`` set, the phone's statistics
view is written to ``DIR/gallery-statistics-phone.png`` (docs/gallery.md shows it).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from pipeline.game.deal import Deal
from pipeline.game.games import GOLF
from pipeline.game.rules import Position
from pipeline.packs.folders import read_pack_folder
from tests.reports.browsing import PHONE, open_gallery, phone_page
from tests.support.lines import stuck_line

TOUCH_TARGET = 44  # px, the least a finger is sure to hit
BLACK_HOLE_CARDS = 51  # the cards a win plays out of the piles
GOLF_CARDS = 35


@dataclass(frozen=True)
class PackDeal:
    """One deal of a curated pack: its id, level, tier, solution and cards."""

    deal_id: str
    level: int
    tier: str
    solution: tuple[int, ...]
    deal: Deal


def pack_deals(folder: Path, game: Any = None) -> list[PackDeal]:
    """A curated pack's deals in level order."""
    rows = sorted(read_pack_folder(folder).to_pylist(), key=lambda row: row["level"])
    return [
        PackDeal(
            row["deal_id"],
            row["level"],
            row["tier"],
            tuple(int(move) for move in row["solution"]),
            Deal.from_board_text(row["board"])
            if game is None
            else Deal.from_board_text(row["board"], game=game),
        )
        for row in rows
    ]


@pytest.fixture(scope="module")
def deals(curated_pack: Path) -> list[PackDeal]:
    return pack_deals(curated_pack)


def cards_out(deal: Deal, moves: list[int]) -> int:
    return deal.game.pile_cards - sum(Position.after(deal, moves).heights)


@pytest.fixture()
def phone(browser: Any) -> Iterator[Any]:
    """A page on a 390 x 844 touch phone (device scale 2), failing the test on any page error."""
    with phone_page(browser, 2) as page:
        yield page


def keep_screenshot(data: bytes, name: str) -> None:
    """Write ``data`` as ``name`` into the folder ``BLACKHOLE_SCREENSHOTS`` names, when it is set."""
    folder = os.environ.get("BLACKHOLE_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        (Path(folder) / name).write_bytes(data)


def tap_moves(page: Any, moves: list[int], tap: bool = True, talon: int | None = None) -> None:
    """Tap (or click) each move's free card, or the talon for Golf's talon deal (``talon``)."""
    for move in moves:
        selector = "#talon" if move == talon else f".pile[data-pile='{move}'] button.card"
        if tap:
            page.tap(selector)
        else:
            page.click(selector)


def open_from_index(page: Any, deal_id: str) -> None:
    """Tap the deal's row on the index."""
    page.tap(f".deal-row[data-deal-id='{deal_id}'] a")
    page.wait_for_selector("#play:not([hidden])")


def index_marks(page: Any) -> dict[str, tuple[str, str]]:
    """Each index row's mark: deal id -> (kind, text)."""
    rows = page.eval_on_selector_all(
        ".deal-row",
        "rows => rows.map(row => { const mark = row.querySelector('.deal-record');"
        " return [row.dataset.dealId, mark.dataset.record, mark.textContent]; })",
    )
    return {deal_id: (kind, text) for deal_id, kind, text in rows}


def figures(page: Any) -> dict[str, str]:
    """The statistics view's summary: figure -> value."""
    return dict(
        page.eval_on_selector_all(
            "#stats-summary .stats-item",
            "items => items.map(item => [item.dataset.figure, item.querySelector('dd').textContent])",
        )
    )


SIZES = """selector => Array.from(document.querySelectorAll(selector))
  .filter(el => el.getClientRects().length > 0)
  .map(el => { const r = el.getBoundingClientRect(); return [el.id || el.className || el.tagName, r.width, r.height]; })"""


def small_targets(page: Any, selector: str) -> list[Any]:
    """The shown elements of ``selector`` smaller than a fingertip either way; fails when none is shown."""
    sizes = page.evaluate(SIZES, selector)
    assert sizes, f"nothing shown for {selector}"
    return [size for size in sizes if min(size[1], size[2]) < TOUCH_TARGET]


def test_a_players_records_on_the_deal_page_the_index_and_the_statistics_until_a_confirmed_reset(
    phone, gallery, deals
):
    page = phone
    won, lost = deals[0], deals[1]
    stuck = stuck_line(lost.deal)
    best = cards_out(lost.deal, stuck)
    assert 0 < best < BLACK_HOLE_CARDS

    open_gallery(page, gallery.folder)
    assert not small_targets(page, ".site-header h1 a, #search, #stats-link")
    assert {kind for kind, _ in index_marks(page).values()} == {"untried"}
    assert all(text == "" for _, text in index_marks(page).values())
    page.tap("#stats-link")
    page.wait_for_selector("#stats:not([hidden])")
    assert page.get_attribute("#stats-link", "aria-current") == "page"
    assert page.is_visible("#stats-empty") and not page.is_visible("#stats-figures")
    assert page.text_content("#stats-empty").startswith("No attempt finished yet.")
    assert not page.is_visible("#reset-records"), "nothing to reset"
    page.tap("#stats-back")
    page.wait_for_selector("#index:not([hidden])")

    # a win along the solution, clean; then a dead end with a note and a mark
    open_from_index(page, won.deal_id)
    assert page.text_content("#deal-records") == "No attempt yet."
    tap_moves(page, list(won.solution))
    assert page.get_attribute("#play", "data-state") == "won"
    record = page.text_content("#deal-records")
    match = re.fullmatch(r"1 attempt, 1 won \(clean\) · best 51 of 51 cards · fastest win (\d+) s\.", record)
    assert match, record
    page.tap("#back")
    open_from_index(page, lost.deal_id)
    tap_moves(page, stuck)
    assert page.get_attribute("#play", "data-state") == "stuck"
    assert page.text_content("#deal-records") == f"1 attempt, none won · best {best} of 51 cards."
    page.fill("#deal-note", "a dead end after the first few cards")
    page.tap("input[name='deal-mark'][value='reject']")

    page.tap("#back")
    page.wait_for_selector("#index:not([hidden])")
    marks = index_marks(page)
    assert marks.pop(won.deal_id) == ("won", "Won")
    assert marks.pop(lost.deal_id) == ("tried", f"Best {best} of 51")
    assert set(marks.values()) == {("untried", "")}

    page.tap("#stats-link")
    page.wait_for_selector("#stats-figures:not([hidden])")
    assert figures(page) == {
        "played": "2 attempts",
        "won": "1",
        "win-rate": "50 %",
        "current-streak": "none",  # the dead end came after the win
        "longest-streak": "1 win",
        "deals-won": f"1 of {len(deals)} deals",
    }
    tier_rows = page.eval_on_selector_all(
        "#stats-tier-rows tr",
        "rows => rows.map(row => [row.dataset.tier, ...[...row.cells].map(c => c.textContent)])",
    )
    expected = []
    for tier in dict.fromkeys(deal.tier for deal in deals):
        in_tier = [deal for deal in deals if deal.tier == tier]
        wins = sum(deal is won for deal in in_tier)
        played = sum(deal in (won, lost) for deal in in_tier)
        rate = "—" if not played else f"{round(100 * wins / played)} %"
        expected.append([tier, tier, f"{wins} of {len(in_tier)}", str(played), str(wins), rate])
    assert sorted(tier_rows) == sorted(expected)
    best_times = page.eval_on_selector_all("#stats-best li", "items => items.map(item => item.textContent)")
    assert best_times == [f"{match.group(1)} s Level {won.level} · {won.deal_id}"]
    assert page.get_attribute("#stats-best a", "href") == f"#deal={won.deal_id}"
    assert page.text_content("#stats-modes") == "Relaxed: 2 attempts, 1 won (50 %)"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert not small_targets(page, "#stats a[href], #stats button")
    keep_screenshot(page.screenshot(full_page=True), "gallery-statistics-phone.png")

    # a reset asks first, with what it would delete: Keep keeps everything. The dead end is still open in
    # this tab (relaxed: Undo takes it on), so it carries on; the win, the note and the mark go.
    page.tap("#reset-records")
    assert page.text_content("#reset-question") == (
        "Delete 1 attempt, 1 note and 1 mark? The attempt still open in this tab carries on."
        " Export them first if you want to keep them."
    )
    assert not small_targets(page, "#reset-confirm button")
    page.tap("#reset-keep")
    assert not page.is_visible("#reset-confirm")
    assert page.text_content("#reset-done") == "Kept: nothing was deleted."
    assert figures(page)["played"] == "2 attempts"
    page.tap("#reset-records")
    page.tap("#reset-delete")
    assert page.text_content("#reset-done") == "Deleted 1 attempt, 1 note and 1 mark."
    assert figures(page)["played"] == "1 attempt" and figures(page)["won"] == "0"
    assert not page.is_visible("#reset-records"), "nothing left to delete"
    page.tap("#stats-back")
    page.wait_for_selector("#index:not([hidden])")
    marks = index_marks(page)
    assert marks.pop(lost.deal_id) == ("tried", f"Best {best} of 51")
    assert set(marks.values()) == {("untried", "")}
    open_from_index(page, lost.deal_id)
    assert page.text_content("#deal-records") == f"1 attempt, none won · best {best} of 51 cards."
    assert page.input_value("#deal-note") == ""
    assert page.is_checked("input[name='deal-mark'][value='']")


def test_another_tabs_attempt_marks_the_index_without_a_reload(browser, gallery, deals):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    try:
        playing, watching = context.new_page(), context.new_page()
        for opened in (playing, watching):
            opened.on("pageerror", lambda error: errors.append(str(error)))
        open_gallery(watching, gallery.folder)
        open_gallery(playing, gallery.folder, f"deal={deals[2].deal_id}")
        stuck = stuck_line(deals[2].deal)
        playing.bring_to_front()  # a page behind another gets no animation frames: each click would wait 2 s
        tap_moves(playing, stuck, tap=False)
        best = cards_out(deals[2].deal, stuck)
        mark = f".deal-row[data-deal-id='{deals[2].deal_id}'] .deal-record"
        watching.wait_for_selector(f"{mark}[data-record='tried']")
        assert watching.text_content(mark) == f"Best {best} of 51"
        watching.click("#stats-link")
        watching.wait_for_selector("#stats-figures:not([hidden])")
        assert figures(watching)["played"] == "1 attempt"
    finally:
        context.close()
    assert not errors, errors


def test_a_one_attempt_golf_deal_counts_its_cards_out_of_35_and_says_its_mode(page, golf_gallery, golf_pack):
    golf = pack_deals(golf_pack, GOLF)[0]
    moves = stuck_line(
        golf.deal, (GOLF.talon_move,) * GOLF.talon_size
    )  # the talon first: then the piles alone
    best = cards_out(golf.deal, moves)
    assert golf.deal.game.pile_cards == GOLF_CARDS and 0 < best < GOLF_CARDS
    open_gallery(page, golf_gallery.folder, f"deal={golf.deal_id}")
    page.wait_for_selector("#play:not([hidden])")
    page.select_option("#mode-select", "one_attempt")  # a purist's game: its mode is said beside the record
    tap_moves(page, moves, tap=False, talon=GOLF.talon_move)
    assert page.get_attribute("#play", "data-state") == "stuck"
    assert page.text_content("#deal-records") == (
        f"1 attempt, none won · best {best} of 35 cards · by mode: 1 one-attempt game (none won)."
    )
    page.click("#back")
    page.wait_for_selector("#index:not([hidden])")
    mark = f".deal-row[data-deal-id='{golf.deal_id}'] .deal-record"
    assert page.text_content(mark) == f"Best {best} of 35"
