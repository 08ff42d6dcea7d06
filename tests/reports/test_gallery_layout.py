"""The play view's layout as a player meets it (issue 40), in headless Chromium, for every game of the family: no
layout shift anywhere in play (a layout-shift observer watches a whole won game played by clicking, the move counter
crossing 10 both ways), the solution panel's last step after a win along the solution, and every control a finger
may tap on a phone at least 44 x 44 CSS px (the index, a deal in play, won with its banner, and stuck).

The moves are computed in Python from the pack and the rules (:mod:`pipeline.game.rules`), never read back from
the page; the page is only clicked and tapped, and read. Run with ``-s`` to see the measurements.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from pipeline.game.deal import Deal
from pipeline.game.games import ALL_IN_A_ROW, BLACK_HOLE, GOLF, Game
from pipeline.packs.folders import read_pack_folder
from pipeline.reports.gallery import Gallery
from tests.reports.browsing import open_gallery, phone_page
from tests.support.lines import stuck_line

DESKTOP = {"width": 1280, "height": 900}
TOUCH_TARGET = 44  # CSS px, the least a finger is sure to hit (docs/gallery.md promises it)

# Each game's gallery fixture and its pack's (tests/reports/conftest.py).
FIXTURES = {
    BLACK_HOLE.name: ("gallery", "curated_pack"),
    GOLF.name: ("golf_gallery", "golf_pack"),
    ALL_IN_A_ROW.name: ("all_in_a_row_gallery", "all_in_a_row_pack"),
}
GAMES = {game.name: game for game in (BLACK_HOLE, GOLF, ALL_IN_A_ROW)}


@dataclass(frozen=True)
class Played:
    """A gallery and its deal of the highest level, as the grader wrote it, with a line of play that gets stuck."""

    game: Game
    folder: Path
    deal_id: str
    solution: tuple[int, ...]
    stuck: tuple[int, ...]


def played_of(request: pytest.FixtureRequest, name: str, pick: Any = max) -> Played:
    """The deal of ``name``'s gallery with the highest level (``pick=min``: the lowest, with a next deal)."""
    gallery_fixture, pack_fixture = FIXTURES[name]
    gallery: Gallery = request.getfixturevalue(gallery_fixture)
    pack: Path = request.getfixturevalue(pack_fixture)
    row = pick(read_pack_folder(pack).to_pylist(), key=lambda row: row["level"])
    game = GAMES[name]
    deal = Deal.from_board_text(row["board"], game=game)
    solution = tuple(int(move) for move in row["solution"])
    return Played(game, gallery.folder, row["deal_id"], solution, tuple(stuck_line(deal)))


@pytest.fixture()
def phone(browser: Any) -> Iterator[Any]:
    """A page on a 390 x 844 touch phone (device scale 3), failing the test on any page error."""
    with phone_page(browser, 3) as page:
        yield page


def open_deal(page: Any, played: Played) -> None:
    open_gallery(page, played.folder, f"deal={played.deal_id}")
    page.wait_for_selector("#play:not([hidden])")


def move_target(played: Played, move: int) -> str:
    """The element a player clicks for ``move``: the pile's free card, or Golf's talon."""
    return "#talon" if move == played.game.talon_move else f".pile[data-pile='{move}'] button.card"


def move_count(page: Any) -> int:
    return int(page.text_content("#move-count"))


def press(page: Any, selector: str, touch: bool) -> None:
    """Tap on a phone, click elsewhere: as a player does."""
    if touch:
        page.tap(selector)
    else:
        page.click(selector)


# ---------------------------------------------------------------- no layout shift in play

# Installed once the deal is shown (the page's own loading is not play): every layout-shift entry from then on,
# with the elements that moved, kept on the window for the test to read. Entries within 500 ms of an input are
# kept too (hadRecentInput): in play every shift follows an input, and each one moves what the player aims at.
WATCH_SHIFTS = """() => {
  window.testLayoutShifts = [];
  const rect = (r) => [r.x, r.y, r.width, r.height].map(Math.round).join(",");
  const named = (node) => !node ? "?" : node.nodeType === Node.TEXT_NODE
    ? named(node.parentElement) + " text '" + node.textContent.trim().slice(0, 40) + "'"
    : node.id ? "#" + node.id : node.nodeName + (node.className ? "." + String(node.className) : "");
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      window.testLayoutShifts.push({value: entry.value, sources: (entry.sources || []).map((source) =>
        named(source.node) + " " + rect(source.previousRect) + " -> " + rect(source.currentRect))});
    }
  }).observe({type: "layout-shift", buffered: false});
}"""


def layout_shifts(page: Any) -> list[dict[str, Any]]:
    """The layout shifts seen so far, after two frames for the last ones to be reported."""
    page.wait_for_timeout(100)
    return list(page.evaluate("window.testLayoutShifts"))


def toolbar_buttons(page: Any) -> list[tuple[str, float, float]]:
    return [
        (button.get_attribute("id"), box["x"], box["y"])
        for button in page.locator(".toolbar button").all()
        if (box := button.bounding_box()) is not None
    ]


@pytest.mark.parametrize(
    ("name", "view"),
    [("black_hole", "page"), ("black_hole", "phone"), ("golf", "phone"), ("all_in_a_row", "phone")],
)
def test_a_game_played_to_its_win_never_shifts_the_layout_and_its_solution_panel_ends_complete(
    name, view, request
):
    played = played_of(request, name)
    page = request.getfixturevalue(view)
    touch = view == "phone"
    open_deal(page, played)
    page.evaluate(WATCH_SHIFTS)
    toolbar = toolbar_buttons(page)
    *before_last, last = played.solution
    for number, move in enumerate(before_last, start=1):
        press(page, move_target(played, move), touch)
        assert move_count(page) == number
        if number == 11:  # the counter back under 10 and over it again
            for _ in range(2):
                press(page, "#undo", touch)
            assert move_count(page) == 9
            for _ in range(2):
                press(page, "#redo", touch)
            assert move_count(page) == 11
            assert toolbar_buttons(page) == toolbar, "the toolbar's buttons moved with the move count"
    press(page, move_target(played, last), touch)
    page.wait_for_selector("#win-banner:not([hidden])")
    assert move_count(page) == len(played.solution)
    shifts = layout_shifts(page)
    assert not shifts, "layout shifts in play:\n" + "\n".join(
        f"{s['value']:.5f}: {s['sources']}" for s in shifts
    )
    print(
        f"\n{name} on the {view}: {len(played.solution)} moves, undo and redo across 10, the win banner:"
        f" no layout shift; the toolbar's buttons at {[(x, y) for _, x, y in toolbar][:3]}..."
    )
    check_the_solution_panel_at_its_end(page, played, touch)  # the win was along the solution


# ---------------------------------------------------------------- the solution panel's last step


def check_the_solution_panel_at_its_end(page: Any, played: Played, touch: bool) -> None:
    """After a win along the solution: the panel says it is complete, Forward and Play are off (pressed all the
    same, nothing happens), Back steps back and turns them on, Forward comes back to the end."""
    length = len(played.solution)
    assert page.text_content("#solution-step") == f"Solution complete: {length} of {length} moves."
    assert page.text_content("#solution-detail") == (
        "Your game followed it to the win. First or Back steps back through it."
    )
    assert page.get_attribute("#solution-forward", "aria-disabled") == "true"
    assert page.get_attribute("#solution-play", "aria-disabled") == "true"
    page.click("#solution-forward", force=True)  # a click all the same (Playwright waits for enabled buttons)
    page.click("#solution-play", force=True)  # not a replay from the start: nothing happens
    page.wait_for_timeout(150)
    assert move_count(page) == length and page.text_content("#solution-play") == "Play"

    press(page, "#solution-back", touch)  # Back still steps back, and Forward comes back on
    assert move_count(page) == length - 1
    assert (
        page.text_content("#solution-step")
        == f"Your game follows the solution to move {length - 1} of {length}."
    )
    assert page.get_attribute("#solution-forward", "aria-disabled") == "false"
    assert page.get_attribute("#solution-play", "aria-disabled") == "false"
    press(page, "#solution-forward", touch)
    assert move_count(page) == length
    assert page.text_content("#solution-step") == f"Solution complete: {length} of {length} moves."
    assert page.text_content("#solution-detail").startswith("last: ")


# ---------------------------------------------------------------- touch targets on a phone

# Every visible control a finger may tap: its name and size in CSS px. A radio or checkbox inside a label is
# tapped through its label, so the label's box counts.
TARGETS = """() => {
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
  const named = (el) => el.id ? "#" + el.id
    : el.tagName.toLowerCase() + (el.className ? "." + String(el.className).trim().split(/\\s+/).join(".") : "")
      + (el.textContent.trim() ? " '" + el.textContent.trim().slice(0, 30) + "'" : "");
  const found = document.querySelectorAll(
    "button, a[href], input, select, textarea, summary, [role=button]");
  const seen = new Set();
  const targets = [];
  for (const control of found) {
    let box = control;
    if (control.matches("input[type=radio], input[type=checkbox]") && control.closest("label")) {
      box = control.closest("label");
    }
    if (seen.has(box) || !shown(box)) continue;
    seen.add(box);
    const rect = box.getBoundingClientRect();
    targets.push([named(box), Math.round(rect.width * 10) / 10, Math.round(rect.height * 10) / 10]);
  }
  return targets;
}"""


def small_targets(page: Any, where: str, counted: dict[str, int]) -> list[str]:
    """Each visible control under :data:`TOUCH_TARGET` either way, as "where: name w x h"; ``counted[where]``, how
    many controls were measured."""
    targets = page.evaluate(TARGETS)
    counted[where] = len(targets)
    return [
        f"{where}: {name} {width} x {height}"
        for name, width, height in targets
        if min(width, height) < TOUCH_TARGET
    ]


@pytest.mark.parametrize("name", list(FIXTURES))
def test_every_control_on_a_phone_is_big_enough_for_a_finger(name, request, phone):
    """Collects every small control of the index, a deal in play, the deal won with its banner, and a stuck deal,
    then fails listing them all. It fails until the play-test section's marks (the labels of "no mark", "ship"
    and "reject", 23 px tall when written) are 44 px too: their owner's part of issue 40; run it last."""
    played = played_of(request, name, pick=min)  # the banner has a next deal to link
    counted: dict[str, int] = {}
    open_gallery(phone, played.folder)
    phone.wait_for_selector(".deal-row")
    small = small_targets(phone, "index", counted)

    open_deal(phone, played)
    phone.tap(move_target(played, played.solution[0]))
    small += small_targets(phone, "in play", counted)
    for move in played.solution[1:]:
        phone.tap(move_target(played, move))
    phone.wait_for_selector("#win-banner:not([hidden])")
    assert phone.is_visible("#win-next"), "the win banner links the next deal"
    small += small_targets(phone, "won", counted)

    stuck = phone.context.new_page()  # the deal afresh in another page: an attempt of its own
    open_deal(stuck, played)
    if stuck.get_attribute("#play", "data-state") == "won":  # the won game shown again: play it again
        stuck.tap("#play-again")
    for move in played.stuck:
        stuck.tap(move_target(played, move))
    assert stuck.get_attribute("#play", "data-state") == "stuck"
    small += small_targets(stuck, "stuck", counted)
    print(f"\n{name} on a 390 x 844 phone, controls measured {counted}: {len(small)} under {TOUCH_TARGET} px")
    for line in small:
        print("  " + line)
    assert not small, "\n".join(small)
