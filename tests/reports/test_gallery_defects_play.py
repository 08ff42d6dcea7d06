"""The play view's defects of issue 24, in headless Chromium: a board that never moves when a message or a hint
appears, a phone that shows the whole table with targets a finger can hit, a solution player that says when the
game has left it and never throws a move away, and a trap's "show" that keeps the board in view and names and
marks the losing cards.

Every expectation is computed in Python from the pack and the rules (:mod:`pipeline.game.rules`,
:func:`pipeline.engine.solver.solve`), never read back from the page. Run with ``-s`` to see the measurements.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from pipeline.engine.solver import solve
from pipeline.game.cards import card_name
from pipeline.game.deal import NUM_PILES, Deal
from pipeline.game.rules import WINNING_LENGTH, Position
from pipeline.game.verdicts import Verdict
from pipeline.packs.folders import read_pack_folder
from pipeline.reports.picture import card_face
from tests.reports.browsing import PHONE, open_gallery, phone_page

DESKTOP = {"width": 1280, "height": 900}
TOUCH_TARGET = 44  # px, the least a finger is sure to hit


@dataclass(frozen=True)
class Played:
    """The deal of the curated pack with the highest level, as the grader wrote it."""

    deal_id: str
    deal: Deal
    solution: tuple[int, ...]


@dataclass(frozen=True)
class Trap:
    """A position of the solution where some legal move loses: after ``step`` moves, ``losing`` the piles."""

    step: int
    losing: tuple[int, ...]


@pytest.fixture(scope="module")
def played(curated_pack: Path) -> Played:
    row = max(read_pack_folder(curated_pack).to_pylist(), key=lambda row: row["level"])
    return Played(row["deal_id"], Deal.from_board_text(row["board"]), tuple(row["solution"]))


@pytest.fixture()
def phone(browser: Any) -> Iterator[Any]:
    """A page on a 390 x 844 phone (device scale 3, touch), failing the test on any page error."""
    with phone_page(browser, 3) as page:
        yield page


def face(card: int) -> str:
    rank, symbol, _ = card_face(card)
    return rank + symbol


def winnable(deal: Deal, moves: list[int]) -> bool:
    return solve(deal, start=Position.after(deal, moves)).verdict is Verdict.SOLVED


def first_trap(played: Played, least: int = 1) -> Trap:
    """The first position along the solution where at least ``least`` legal moves lose."""
    solution = list(played.solution)
    for step in range(len(solution)):
        legal = Position.after(played.deal, solution[:step]).legal_moves()
        losing = tuple(
            p for p in legal if p != solution[step] and not winnable(played.deal, [*solution[:step], p])
        )
        if len(losing) >= least:
            return Trap(step, losing)
    raise AssertionError(f"{played.deal_id}: no trap with {least} losing moves")


def losing_words(deal: Deal, moves: list[int], piles: tuple[int, ...]) -> str:
    """ "playing the 7♣ here loses", "playing the 2♦, the 4♣ or the 3♥ here loses"."""
    position = Position.after(deal, moves)
    cards = [f"the {face(position.top_card(pile))}" for pile in piles]
    listed = cards[0] if len(cards) == 1 else ", ".join(cards[:-1]) + " or " + cards[-1]
    return f"playing {listed} here loses"


def open_deal(page: Any, folder: Path, deal_id: str) -> None:
    open_gallery(page, folder, f"deal={deal_id}")
    page.wait_for_selector("#play:not([hidden])")


def move_count(page: Any) -> int:
    return int(page.text_content("#move-count"))


def foundation(page: Any) -> str | None:
    return page.get_attribute("#foundation .card", "data-card")


def top_name(deal: Deal, moves: list[int], pile: int) -> str:
    card = Position.after(deal, moves).top_card(pile)
    assert card is not None
    return card_name(card)


def box(page: Any, selector: str) -> dict[str, float]:
    found = page.locator(selector).bounding_box()
    assert found is not None, selector
    return found


def ask_hint(page: Any) -> None:
    page.click("#hint")
    page.wait_for_selector("#hint-text[data-kind]")


def refused_piles(deal: Deal, moves: list[int]) -> tuple[int, int]:
    """A pile whose free card may not be played after ``moves``, and one with a covered card."""
    position = Position.after(deal, moves)
    illegal = next(
        p for p in range(NUM_PILES) if position.top_card(p) is not None and p not in position.legal_moves()
    )
    covered = next(p for p in range(NUM_PILES) if position.heights[p] >= 2)
    return illegal, covered


def assert_the_board_stays(page: Any, played: Played, tap: bool = False) -> float:
    """Hint, an illegal card, a covered card, then the hint's card: the board never moves; its top, in px."""
    before = box(page, "#board")
    ask_hint(page)
    assert page.text_content("#hint-text"), "a hint is shown"
    assert box(page, "#board") == before, "a hint moved the board"
    illegal, covered = refused_piles(played.deal, [])
    page.click(f".pile[data-pile='{illegal}'] button.card")
    assert "is not one rank from" in page.text_content("#message")
    assert box(page, "#board") == before, "an illegal card's message moved the board"
    if not tap:  # a covered card is not a touch target on a phone
        page.click(f".pile[data-pile='{covered}'] .card.covered[data-depth='0']", position={"x": 4, "y": 4})
        assert "is covered" in page.text_content("#message")
        assert box(page, "#board") == before, "a covered card's message moved the board"
    hinted = int(page.get_attribute("#hint-text", "data-move"))
    page.click(f".pile[data-pile='{hinted}'] button.card")
    assert move_count(page) == 1 and page.text_content("#hint-text") == ""
    assert box(page, "#board") == before, "clearing the hint moved the board"
    return before["y"]


# ---------------------------------------------------------------- no layout shift


def test_a_hint_or_a_message_never_moves_the_board(page, gallery, played):
    open_deal(page, gallery.folder, played.deal_id)
    top = assert_the_board_stays(page, played)
    print(f"\ndesktop 1280x900: the board's top at {top:.1f} px before and after a hint and the messages")


PLAY_ALL = """piles => { for (const pile of piles)
  document.querySelector(".pile[data-pile='" + pile + "'] button.card").click(); }"""


@pytest.mark.parametrize("view", ["page", "phone"])
def test_the_win_banner_never_moves_the_board(view, request, gallery, played):
    page = request.getfixturevalue(view)
    open_deal(page, gallery.folder, played.deal_id)
    *before_last, last = played.solution
    page.evaluate(PLAY_ALL, list(before_last))
    assert move_count(page) == WINNING_LENGTH - 1 and page.is_hidden("#win-banner")
    before = box(page, "#board")
    page.click(f".pile[data-pile='{last}'] button.card")  # the last card: the win, and its banner
    page.wait_for_selector("#win-banner:not([hidden])")
    assert page.text_content("#win-text").startswith(f"Won: {WINNING_LENGTH} moves in ")
    assert box(page, "#board") == before, "the win banner moved the board"
    banner, board = box(page, "#win-banner"), box(page, "#board")
    assert board["y"] <= banner["y"] and banner["y"] + banner["height"] <= board["y"] + board["height"]
    print(
        f"\n{view}: the board at {before['y']:.1f} px, {before['height']:.1f} px tall, before and after the win"
    )


# ---------------------------------------------------------------- a phone


def assert_inside(found: dict[str, float], width: int, height: int, what: str) -> None:
    assert found["x"] >= 0 and found["y"] >= 0, what
    assert found["x"] + found["width"] <= width and found["y"] + found["height"] <= height, (what, found)


# The size of each control a finger may tap in the play view (buttons but the cards, the back link, the
# speed select, the traps' show buttons), and of each card's part left to tap: a covered card's strip (the
# part the next card leaves uncovered) unless it takes no taps at all.
TARGETS = """() => {
  const shown = (el) => el.getClientRects().length > 0;
  const size = (el) => { const r = el.getBoundingClientRect(); return [r.width, r.height]; };
  const controls = Array.from(document.querySelectorAll(
    "#play button:not(.card), #play .play-nav a[href], #play select")).filter(shown);
  const strips = Array.from(document.querySelectorAll(".pile .card.covered")).map((card) => {
    if (getComputedStyle(card).pointerEvents === "none") return null;
    const r = card.getBoundingClientRect();
    const next = card.nextElementSibling.getBoundingClientRect();
    return [Math.max(next.left - r.left, 0) || r.width, Math.max(next.top - r.top, 0) || r.height];
  }).filter(Boolean);
  const free = Array.from(document.querySelectorAll(".pile button.card")).map(size);
  return {controls: controls.map((el) => [el.id || el.className || el.tagName, ...size(el)]), strips, free};
}"""


def test_a_phone_shows_the_whole_table_at_once_with_targets_a_finger_can_hit(phone, gallery, played):
    page = phone
    open_deal(page, gallery.folder, played.deal_id)
    width, height = PHONE["width"], PHONE["height"]
    assert page.evaluate("scrollY") == 0
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    cards = page.eval_on_selector_all(
        ".pile .card, #foundation .card", "all => all.map(c => c.getBoundingClientRect().toJSON())"
    )
    assert len(cards) == WINNING_LENGTH + 1
    for found in cards:  # every card of the 17 piles and the foundation, with no scrolling
        assert_inside(found, width, height, "a card off the first screen")
    board = box(page, "#board")
    assert_inside(board, width, height, "the board")
    for control in ("#solution-first", "#solution-back", "#solution-play", "#solution-forward"):
        assert_inside(box(page, control), width, height, f"{control} off the first screen")
    assert "Enter plays" not in page.inner_text("#play"), "the keyboard's help on a touch screen"

    targets = page.evaluate(TARGETS)
    smallest = min(min(w, h) for _, w, h in targets["controls"])
    small = [(name, w, h) for name, w, h in targets["controls"] if min(w, h) < TOUCH_TARGET]
    assert not small, small
    assert all(min(size) >= TOUCH_TARGET for size in targets["strips"]), targets["strips"]
    assert all(min(size) >= TOUCH_TARGET for size in targets["free"]), targets["free"]
    page.wait_for_selector("#traps-list[data-count] .trap-show")
    show = page.locator("#traps-list .trap-show").first.bounding_box()
    assert show is not None
    assert min(show["width"], show["height"]) >= TOUCH_TARGET, show

    first = played.solution[0]
    page.tap(f".pile[data-pile='{first}'] button.card")  # a tap plays
    assert move_count(page) == 1
    page.click("#undo")
    top = assert_the_board_stays(page, played, tap=True)
    smallest_card = min(min(size) for size in targets["free"])
    print(
        f"\nphone 390x844: the board {board['height']:.0f} px tall from {board['y']:.0f} px (top {top:.0f} px"
        f" through a hint and a message), all 17 piles and the foundation inside the first screen;"
        f" the smallest control {smallest:.0f} px, the smallest free card {smallest_card:.0f} px,"
        f" covered strips tappable: {len(targets['strips'])}"
    )

    # A trap's "show", far down the page: the board comes back into view, the losing cards inside it.
    trap = first_trap(played)
    button = page.locator(f"#traps-list li[data-step='{trap.step}'] .trap-show")
    button.scroll_into_view_if_needed()
    assert page.locator("#foundation").bounding_box()["y"] < 0, "the traps are below the board"
    button.tap()
    assert move_count(page) == trap.step
    assert_inside(box(page, "#foundation"), width, height, "the foundation after show")
    for pile in trap.losing:
        assert_inside(box(page, f".pile[data-pile='{pile}'] .card.losing"), width, height, "a losing card")


# ---------------------------------------------------------------- the solution player


def test_the_solution_player_says_the_game_left_it_and_never_throws_a_move_away(page, gallery, played):
    deal, solution = played.deal, list(played.solution)
    # Forward at least four times, to a position with another legal move than the solution's
    step = next(
        k for k in range(4, len(solution)) if len(Position.after(deal, solution[:k]).legal_moves()) > 1
    )
    other = next(p for p in Position.after(deal, solution[:step]).legal_moves() if p != solution[step])
    mine = top_name(deal, solution[:step], other)
    open_deal(page, gallery.folder, played.deal_id)
    for _ in range(step):
        page.click("#solution-forward")
    assert page.text_content("#solution-step") == f"move {step} of {len(solution)}"

    page.click(f".pile[data-pile='{other}'] button.card")  # the player's own move, off the solution
    assert move_count(page) == step + 1 and foundation(page) == mine
    status = page.text_content(".solution-status")
    assert f"You left the solution at move {step}" in status, status
    assert "Forward goes back" in status, status
    assert page.locator(".card.current-move").count() == 0  # no next card off the solution

    page.click("#undo")  # the move is in the game's redo history
    assert move_count(page) == step
    assert page.get_attribute("#redo", "aria-disabled") != "true"
    page.click("#redo")
    assert move_count(page) == step + 1 and foundation(page) == mine

    page.click("#solution-forward")  # from off the solution: back to where the game left it, the move kept
    assert move_count(page) == step
    assert page.text_content("#solution-step") == f"Back on the solution at move {step} of {len(solution)}."
    detail = page.text_content("#solution-detail")
    assert "Redo brings back your 1 move" in detail, detail
    assert "Forward plays the solution's move instead" in detail, detail
    assert page.get_attribute("#redo", "aria-disabled") != "true"
    page.click("#redo")
    assert move_count(page) == step + 1 and foundation(page) == mine  # nothing thrown away

    page.click("#solution-forward")
    page.click("#solution-forward")  # back on it, then the solution's move, as the status said
    assert move_count(page) == step + 1
    assert foundation(page) == top_name(deal, solution[:step], solution[step])
    assert page.text_content("#solution-step") == f"move {step + 1} of {len(solution)}"


# ---------------------------------------------------------------- the traps


def test_a_traps_show_keeps_the_board_in_view_and_names_and_marks_the_losing_cards(page, gallery, played):
    deal, solution = played.deal, list(played.solution)
    trap = first_trap(played, least=2)  # all the losing cards, not only the solution's next
    said = losing_words(deal, solution[: trap.step], trap.losing)
    open_deal(page, gallery.folder, played.deal_id)
    page.wait_for_selector("#traps-list[data-count]")
    item = page.locator(f"#traps-list li[data-step='{trap.step}']")
    text = item.text_content()
    assert text.startswith(f"move {trap.step}: {said}"), text  # moves counted as the game's counter counts

    button = item.locator(".trap-show")
    button.scroll_into_view_if_needed()
    scrolled, before = page.evaluate("scrollY"), box(page, "#foundation")
    button.click()
    after = box(page, "#foundation")
    assert_inside(after, DESKTOP["width"], DESKTOP["height"], "the foundation after show")
    assert page.evaluate("scrollY") <= scrolled
    print(
        f"\ndesktop trap show: scrollY {scrolled} -> {page.evaluate('scrollY')},"
        f" the foundation's top {before['y']:.0f} -> {after['y']:.0f} px"
    )

    assert move_count(page) == trap.step
    assert page.text_content("#solution-step") == f"move {trap.step} of {len(solution)}"
    assert said in page.text_content("#solution-detail")
    marked = page.eval_on_selector_all(
        ".card.losing", "cards => cards.map(c => Number(c.closest('.pile').dataset.pile))"
    )
    assert sorted(marked) == sorted(trap.losing)
    for pile in trap.losing:
        assert_inside(
            box(page, f".pile[data-pile='{pile}'] .card.losing"),
            DESKTOP["width"],
            DESKTOP["height"],
            "a losing card",
        )
    current = page.eval_on_selector(".card.current-move", "c => Number(c.closest('.pile').dataset.pile)")
    assert current == solution[trap.step]

    page.click("#solution-forward")  # the position changes: the losing marks go
    assert page.locator(".card.losing").count() == 0


def test_a_traps_show_never_drops_the_players_moves_unsaid(page, gallery, played):
    deal, solution = played.deal, list(played.solution)
    trap = first_trap(played)
    step = next(  # a position before the trap where the player can leave the solution
        k for k in range(trap.step) if len(Position.after(deal, solution[:k]).legal_moves()) > 1
    )
    other = next(p for p in Position.after(deal, solution[:step]).legal_moves() if p != solution[step])
    mine = top_name(deal, solution[:step], other)
    open_deal(page, gallery.folder, played.deal_id)
    page.wait_for_selector("#traps-list[data-count]")
    for pile in solution[:step]:
        page.click(f".pile[data-pile='{pile}'] button.card")
    page.click(f".pile[data-pile='{other}'] button.card")  # the player's own move, off the solution
    show = page.locator(f"#traps-list li[data-step='{trap.step}'] .trap-show")

    show.click()  # reaching the trap would play over the move: first only back to the solution
    assert move_count(page) == step
    assert page.text_content("#solution-step") == f"Back on the solution at move {step} of {len(solution)}."
    detail = page.text_content("#solution-detail")
    assert "Redo brings back your 1 move" in detail, detail
    assert f"the trap's show at move {trap.step} pressed again" in detail, detail
    page.click("#redo")
    assert move_count(page) == step + 1 and foundation(page) == mine  # the move kept

    show.click()  # off the solution again: back to it, the move in Redo, and the warning
    assert move_count(page) == step and page.get_attribute("#redo", "aria-disabled") != "true"
    show.click()  # pressed again, as the status said: the trap's position
    assert move_count(page) == trap.step
    assert page.text_content("#solution-step") == f"move {trap.step} of {len(solution)}"
    assert page.locator(".card.losing").count() == len(trap.losing)
