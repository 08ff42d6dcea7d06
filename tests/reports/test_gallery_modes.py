"""The deal page's modes and clock, in headless Chromium, for Black Hole, Golf and All in a Row (issue 40): a
one-attempt game offers no Undo, Redo, Restart or Hint and ends at its first dead end with a banner that says how
far it got; a relaxed game blocked says so in a banner that stays, and undoes to the last winnable position; a
timed attempt shows its clock, and a move not made within its limit ends the attempt out of time; the win banner
counts the moves on the board, as the status line does.

The page is played by clicks and taps on its own elements; the clock is Playwright's (``page.clock``), paused and
run forward by the test, so no test waits for real seconds. Expectations come from the packs and the Python rules
(:class:`pipeline.game.rules.Position`, :func:`tests.support.hints.hint_of`), and the records from the page's own
export. With ``BLACKHOLE_SCREENSHOTS=DIR`` set, the phone test writes ``DIR/gallery-modes-phone.png`` and
``DIR/gallery-blocked-phone.png`` (docs/images/ holds them).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from pipeline.game.deal import Deal
from pipeline.game.games import ALL_IN_A_ROW, BLACK_HOLE, GOLF, Game
from pipeline.game.rules import Position
from pipeline.packs.folders import read_pack_folder
from tests.reports.browsing import PHONE, open_gallery, phone_page
from tests.support.hints import hint_of

TOUCH_TARGET = 44  # px
START = datetime(2026, 1, 1, 12, tzinfo=UTC)  # the page's clock's start (any time will do)
LOADING = 10  # s: the page's clock runs while the page loads, then stands still until the test runs it

# For each game: its gallery fixture, its pack fixture, and the game.
GAMES = {
    "black_hole": ("gallery", "curated_pack", BLACK_HOLE),
    "golf": ("golf_gallery", "golf_pack", GOLF),
    "all_in_a_row": ("all_in_a_row_gallery", "all_in_a_row_pack", ALL_IN_A_ROW),
}

# Every layout shift from now on (Chromium's own measure): each element moved, by its id or class, and its top
# before it moved.
WATCH_SHIFTS = """() => {
  window.shifts = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) for (const source of entry.sources) window.shifts.push({
      moved: source.node ? source.node.id || source.node.className || source.node.nodeName : null,
      top: source.previousRect.top, value: entry.value});
  }).observe({type: "layout-shift"});
}"""


def shifts_above_or_of_the_board(page: Any, board: dict[str, float]) -> list[dict[str, Any]]:
    """The layout shifts since WATCH_SHIFTS of the board, or of anything above it (the toolbar, the chooser, the
    clock, the message lines): what a player in play would see jump."""
    shifts = page.evaluate("window.shifts")
    return [shift for shift in shifts if shift["moved"] in ("board", "piles") or shift["top"] < board["y"]]


@dataclass(frozen=True)
class Blocked:
    """A deal of a game's gallery and a line of play that ends in a dead end (playing the first legal move each
    time), with the last winnable position along it."""

    folder: Path
    game: Game
    deal_id: str
    deal: Deal
    moves: list[int]
    winnable_until: int  # moves[:winnable_until] is the last position of the line from which a win exists

    @property
    def cards_played(self) -> int:
        return Position.after(self.deal, self.moves).cards_played

    @property
    def blocked_text(self) -> str:
        return f"Blocked: {self.cards_played} of {self.game.pile_cards} cards played."


def first_legal_line(deal: Deal) -> list[int]:
    """The first legal move each time, until none is left."""
    moves: list[int] = []
    position = Position.start(deal)
    while legal := position.legal_moves():
        moves.append(legal[0])
        position = position.play(legal[0])
    return moves


_BLOCKED: dict[str, Blocked] = {}


@pytest.fixture(params=list(GAMES))
def blocked(request: pytest.FixtureRequest) -> Blocked:
    """For each game, the first deal of its gallery (in level order) whose first-legal line is blocked."""
    name = request.param
    if name not in _BLOCKED:
        gallery_name, pack_name, game = GAMES[name]
        folder = request.getfixturevalue(gallery_name).folder
        rows = sorted(
            read_pack_folder(request.getfixturevalue(pack_name)).to_pylist(), key=lambda row: row["level"]
        )
        for row in rows:
            deal = Deal.from_board_text(row["board"], game=game)
            moves = first_legal_line(deal)
            if len(moves) < 3 or Position.after(deal, moves).is_won:
                continue
            undo = hint_of(deal, moves).undo
            if undo is None:
                continue
            _BLOCKED[name] = Blocked(folder, game, row["deal_id"], deal, moves, len(moves) - undo)
            break
        else:
            raise AssertionError(f"{name}: no deal whose first-legal line is blocked")
    return _BLOCKED[name]


@pytest.fixture()
def phone(browser: Any) -> Iterator[Any]:
    """A page on a 390 x 844 touch phone, failing the test on any page error."""
    with phone_page(browser, 2) as page:
        yield page


def open_deal(page: Any, folder: Path, deal_id: str) -> None:
    open_gallery(page, folder, f"deal={deal_id}")
    page.wait_for_selector("#play:not([hidden])")


def move_target(game: Game, move: int) -> str:
    return "#talon" if move == game.talon_move else f".pile[data-pile='{move}'] button.card"


def play(page: Any, game: Game, moves: list[int], tap: bool = False) -> None:
    for move in moves:
        if tap:
            page.tap(move_target(game, move))
        else:
            page.click(move_target(game, move))


def move_count(page: Any) -> int:
    return int(page.text_content("#move-count"))


def box(page: Any, selector: str) -> dict[str, float]:
    found = page.locator(selector).bounding_box()
    assert found is not None, selector
    return found


def exported_attempts(page: Any) -> list[dict[str, Any]]:
    """The attempts of the page's export (its own download), of every deal."""
    with page.expect_download() as download:
        page.click("#export-plays-here")
    exported = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert exported["version"] == 2
    return [attempt for deal in exported["deals"] for attempt in deal["attempts"]]


def a_free_card_in_sight(page: Any) -> str:
    """A free card the end banner (at the board's foot) leaves uncovered: the first pile's with a card."""
    banner_top = box(page, "#end-banner")["y"]
    for card in page.locator(".pile button.card").all():
        found = card.bounding_box()
        if found and found["y"] + found["height"] < banner_top:
            return f".pile[data-pile='{card.evaluate('c => c.closest(`.pile`).dataset.pile')}'] button.card"
    raise AssertionError("every free card is under the banner")


def keep_screenshot(data: bytes, name: str) -> None:
    """Write ``data`` as ``name`` into the folder ``BLACKHOLE_SCREENSHOTS`` names, when it is set."""
    folder = os.environ.get("BLACKHOLE_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        (Path(folder) / name).write_bytes(data)


# ---------------------------------------------------------------- one attempt


def test_a_one_attempt_game_ends_at_its_first_dead_end_and_says_how_far_it_got(page, blocked):
    open_deal(page, blocked.folder, blocked.deal_id)
    assert page.input_value("#mode-select") == "relaxed"  # the default before any choice
    page.select_option("#mode-select", "one_attempt")
    for control in ("#undo", "#redo", "#restart", "#hint", "#solution-first", "#grade"):
        assert page.is_hidden(control), f"{control} offered in a one-attempt game"
    assert page.text_content("#message").startswith("One attempt: no undo and no hint")
    page.evaluate(WATCH_SHIFTS)
    board = box(page, "#board")

    play(page, blocked.game, blocked.moves[:1])
    assert page.is_disabled("#mode-select") and page.is_disabled("#clock-select")  # the attempt has begun
    play(page, blocked.game, blocked.moves[1:])
    assert page.get_attribute("#play", "data-state") == "stuck"
    page.wait_for_selector("#end-banner:not([hidden])")
    assert page.text_content("#end-text") == blocked.blocked_text
    assert page.text_content("#end-detail") == "This attempt is over."
    assert page.is_hidden("#end-undo") and page.is_visible("#end-again")
    assert box(page, "#board") == board, "the game or its banner moved the board"
    assert not shifts_above_or_of_the_board(page, board)

    for key in ("u", "r", "h", "Control+z"):  # not reachable by keys either
        page.keyboard.press(key)
    assert move_count(page) == len(blocked.moves) and page.text_content("#hint-text") == ""
    page.click(a_free_card_in_sight(page))  # a card tapped after the block: refused, the banner stays
    assert page.is_visible("#end-banner") and move_count(page) == len(blocked.moves)
    assert page.is_visible("#solution-first") and page.is_visible("#grade")  # the attempt is over

    (attempt,) = exported_attempts(page)
    assert (attempt["mode"], attempt["timed"], attempt["move_limit"]) == ("one_attempt", False, None)
    assert attempt["outcome"] == "stuck" and attempt["ended"] is not None
    assert attempt["events"] == blocked.moves and attempt["cards_played"] == blocked.cards_played

    page.click("#end-again")  # a new attempt: the choice open again, the last one its default
    assert page.is_hidden("#end-banner") and move_count(page) == 0
    assert not page.is_disabled("#mode-select") and page.input_value("#mode-select") == "one_attempt"


# ---------------------------------------------------------------- relaxed, blocked


def test_a_relaxed_block_keeps_its_banner_and_undoes_to_the_last_winnable_position(page, blocked):
    open_deal(page, blocked.folder, blocked.deal_id)
    page.evaluate(WATCH_SHIFTS)
    board = box(page, "#board")
    play(page, blocked.game, blocked.moves)
    page.wait_for_selector("#end-banner:not([hidden])")
    assert page.text_content("#end-text") == blocked.blocked_text
    assert box(page, "#board") == board, "the banner moved the board"
    assert not shifts_above_or_of_the_board(page, board)
    page.click(a_free_card_in_sight(page))  # the stuck state does not go away
    assert page.is_visible("#end-banner") and page.get_attribute("#play", "data-state") == "stuck"
    (attempt,) = exported_attempts(page)
    assert attempt["outcome"] == "stuck" and attempt["mode"] == "relaxed"  # stuck as soon as the page says so

    page.click("#end-undo")
    page.wait_for_function(
        f"document.getElementById('move-count').textContent === '{blocked.winnable_until}'"
    )
    assert page.is_hidden("#end-banner") and page.get_attribute("#play", "data-state") == "playing"
    page.click("#hint")  # the position reached can be won: the hint names a move
    page.wait_for_selector("#hint-text[data-kind]")
    assert page.get_attribute("#hint-text", "data-kind") == "win"
    (attempt,) = exported_attempts(page)
    undone = len(blocked.moves) - blocked.winnable_until
    assert attempt["events"] == [*blocked.moves, "hint", *["undo"] * undone, "hint"]
    assert attempt["outcome"] == "playing" and attempt["ended"] is None  # opened again by the undo


# ---------------------------------------------------------------- the clock


def test_a_timed_attempt_shows_its_clock_and_ends_when_a_moves_time_runs_out(page, blocked):
    page.clock.install(time=START)
    open_deal(page, blocked.folder, blocked.deal_id)
    page.clock.pause_at(START + timedelta(seconds=LOADING))
    assert page.is_hidden("#clock")  # no clock unless chosen
    page.select_option("#clock-select", "10")
    assert page.is_visible("#clock") and page.text_content("#clock-left") == "10 s left"
    assert "Your first move starts the clock's 10 s a move." in page.text_content("#message")
    start = page.text_content("#clock-elapsed")
    page.clock.run_for(5_000)  # looking at the deal: the move's time has not started
    assert page.text_content("#clock-left") == "10 s left"
    assert page.text_content("#clock-elapsed") != start

    first, second = blocked.moves[:2]
    play(page, blocked.game, [first])
    page.evaluate(WATCH_SHIFTS)
    clock, board = box(page, "#clock"), box(page, "#board")
    page.clock.run_for(4_000)
    assert page.text_content("#clock-left") == "6 s left"
    seconds = page.text_content("#clock-elapsed")
    play(page, blocked.game, [second])  # a move in time: the next has the whole limit
    assert page.text_content("#clock-left") == "10 s left"
    page.clock.run_for(7_000)
    assert page.text_content("#clock-left") == "3 s left" and "low" in page.get_attribute(
        "#clock-left", "class"
    )
    assert page.text_content("#clock-elapsed") != seconds  # ticking
    assert box(page, "#clock")["width"] == clock["width"] and box(page, "#board") == board  # fixed width
    assert not shifts_above_or_of_the_board(page, board)

    page.clock.run_for(3_500)  # the move not made in time
    page.wait_for_selector("#end-banner:not([hidden])")
    played = Position.after(blocked.deal, [first, second]).cards_played
    assert (
        page.text_content("#end-text") == f"Out of time: {played} of {blocked.game.pile_cards} cards played."
    )
    assert page.text_content("#end-detail") == "The 10 s for a move ran out."
    assert page.text_content("#clock-left") == ""  # no time left to speak of
    stopped = page.text_content("#clock-elapsed")
    page.clock.run_for(3_000)
    assert page.text_content("#clock-elapsed") == stopped  # the clock stands still at the end
    page.click(a_free_card_in_sight(page))  # refused: the attempt is over
    assert move_count(page) == 2 and page.is_disabled("#clock-select")

    (attempt,) = exported_attempts(page)
    assert (attempt["mode"], attempt["timed"], attempt["move_limit"]) == ("relaxed", True, 10)
    assert attempt["outcome"] == "out_of_time" and attempt["events"] == [first, second]
    # looking at the deal (the 5 s run, and the page's load before the clock paused), the first move's 4 s, the
    # second's 10 s limit; the clock showed the record's figure
    assert 5 + 4 + 10 <= attempt["seconds"] <= 5 + 4 + 10 + LOADING + 0.5, attempt["seconds"]
    whole = int(attempt["seconds"])
    assert stopped == f"{whole // 60}:{whole % 60:02d}"


# ---------------------------------------------------------------- a phone


def test_on_a_phone_the_chooser_the_banners_and_one_move_count(phone, gallery, curated_pack):
    rows = sorted(read_pack_folder(curated_pack).to_pylist(), key=lambda row: row["level"])
    row = rows[0]
    deal = Deal.from_board_text(row["board"])
    solution = [int(move) for move in row["solution"]]
    page = phone
    open_deal(page, gallery.folder, row["deal_id"])
    page.select_option("#mode-select", "one_attempt")
    page.select_option("#clock-select", "30")
    for control in ("#mode-select", "#clock-select", "#new-attempt"):
        found = box(page, control)
        assert min(found["width"], found["height"]) >= TOUCH_TARGET, (control, found)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    keep_screenshot(page.screenshot(), "gallery-modes-phone.png")

    moves = first_legal_line(deal)
    play(page, BLACK_HOLE, moves, tap=True)
    page.wait_for_selector("#end-banner:not([hidden])")
    assert page.text_content("#end-text") == (
        f"Blocked: {Position.after(deal, moves).cards_played} of 51 cards played."
    )
    for control in ("#end-again", "#end-next"):
        found = box(page, control)
        assert min(found["width"], found["height"]) >= TOUCH_TARGET, (control, found)
    keep_screenshot(page.screenshot(), "gallery-blocked-phone.png")

    # A relaxed win with a move undone on the way: the banner and the status line count the same moves.
    page.tap("#end-again")
    page.select_option("#mode-select", "relaxed")
    page.select_option("#clock-select", "none")
    play(page, BLACK_HOLE, solution[:1], tap=True)
    page.tap("#undo")
    play(page, BLACK_HOLE, solution, tap=True)
    page.wait_for_selector("#win-banner:not([hidden])")
    assert page.text_content("#message") == f"won in {len(solution)} moves"
    assert page.text_content("#win-text").startswith(f"Won: {len(solution)} moves in ")
    assert "1 undo" in page.text_content("#win-text")
    for control in ("#play-again", "#win-next"):
        found = box(page, control)
        assert min(found["width"], found["height"]) >= TOUCH_TARGET, (control, found)


@pytest.mark.parametrize("blocked", ["black_hole"], indirect=True)
def test_a_dead_end_is_no_moves_thinking_time(page, blocked):
    page.clock.install(time=START)
    open_deal(page, blocked.folder, blocked.deal_id)
    page.clock.pause_at(START + timedelta(seconds=LOADING))
    page.select_option("#clock-select", "10")
    play(page, blocked.game, blocked.moves)  # relaxed, 10 s a move, into the dead end
    page.wait_for_selector("#end-banner:not([hidden])")
    page.clock.run_for(30_000)  # the player thinks it over at the dead end: no move is due there
    assert page.text_content("#end-text") == blocked.blocked_text
    (attempt,) = exported_attempts(page)
    assert attempt["outcome"] == "stuck" and attempt["move_limit"] == 10

    page.click("#end-undo")  # out of the dead end: the next move has the whole limit, and it runs
    page.wait_for_function(
        f"document.getElementById('move-count').textContent === '{blocked.winnable_until}'"
    )
    assert page.text_content("#clock-left") == "10 s left"
    page.clock.run_for(10_500)
    page.wait_for_selector("#end-banner:not([hidden])")
    assert page.text_content("#end-text").startswith("Out of time: ")
    (attempt,) = exported_attempts(page)
    assert attempt["outcome"] == "out_of_time"
