"""The gallery of the family's other games in headless Chromium: Golf's 7 fans of 5 with the talon, All in a Row's
13 fans of 4 under an empty foundation, their rules, and hints from the in-browser solver.

The packs are conftest.py's: 12 seeded deals of Golf and of All in a Row through every stage, curated (7 deals
each, every one winnable). Every expectation is computed in Python from the pack and the rules
(:mod:`pipeline.game.rules`, :func:`pipeline.engine.solver.solve`, the hints of :mod:`tests.support.hints`), never
read back from the page. With ``BLACKHOLE_SCREENSHOTS=DIR`` set, the screenshot test also writes
``DIR/images/gallery-golf.png`` and ``DIR/images/gallery-all-in-a-row.png`` for the docs.
"""

from __future__ import annotations

import io
import os
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from pipeline.engine.solver import solve
from pipeline.game.cards import card_name
from pipeline.game.deal import Deal
from pipeline.game.games import ALL_IN_A_ROW, GOLF, Game
from pipeline.game.rules import Position
from pipeline.game.verdicts import Verdict
from pipeline.packs.folders import read_pack_folder
from pipeline.reports.gallery import cards_text
from pipeline.reports.picture import card_face
from tests.reports.browsing import open_gallery
from tests.support.hints import agrees, hint_of, random_play_positions

TALON = GOLF.talon_move
POSITIONS_PER_DEAL = 8  # 12 deals of each game: 96 positions a game
TABLE_GREEN = (0x0B, 0x6E, 0x3A)
CARD_BACK = (0x7A, 0x1F, 0x2B)  # the talon's back in a thumbnail

HINTS = """([game, items]) => {
  const games = new Map();  // one game a deal, as the page keeps: it remembers the lost positions
  return items.map(({cards, moves}) => {
    if (!games.has(cards)) games.set(cards, BlackholeSolver.rulesFor(cards, game));
    const answer = games.get(cards).hint(moves);
    return {kind: answer.kind, move: answer.move ?? null, undo: answer.undo ?? null};
  });
}"""


@dataclass(frozen=True)
class PackDeal:
    """One deal of a curated pack of the family, as the grader wrote it."""

    deal_id: str
    level: int
    solution: tuple[int, ...]
    traps: int
    deal: Deal


def pack_deals(folder: Path, game: Game) -> list[PackDeal]:
    """The curated pack's deals in level order."""
    rows = sorted(read_pack_folder(folder).to_pylist(), key=lambda row: row["level"])
    return [
        PackDeal(
            row["deal_id"],
            row["level"],
            tuple(int(move) for move in row["solution"]),
            row["traps"],
            Deal.from_board_text(row["board"], game=game),
        )
        for row in rows
    ]


@pytest.fixture(scope="module")
def golf_deals(golf_pack: Path) -> list[PackDeal]:
    return pack_deals(golf_pack, GOLF)


@pytest.fixture(scope="module")
def all_in_a_row_deals(all_in_a_row_pack: Path) -> list[PackDeal]:
    return pack_deals(all_in_a_row_pack, ALL_IN_A_ROW)


# ---------------------------------------------------------------- the rules, in Python


def face(card: int) -> str:
    """A card as the page prints it: ``7♥``, ``10♦``."""
    rank, symbol, _ = card_face(card)
    return rank + symbol


def winnable(deal: Deal, moves: list[int]) -> bool:
    return solve(deal, start=Position.after(deal, moves)).verdict is Verdict.SOLVED


def foundation_after(deal: Deal, moves: list[int]) -> int | None:
    """The card on the foundation after ``moves`` (None: All in a Row's, still empty)."""
    if not moves:
        return deal.foundation
    before = Position.after(deal, moves[:-1])
    if moves[-1] == deal.game.talon_move:
        return deal.talon[before.talon_dealt]
    return before.top_card(moves[-1])


def losing_line(pack_deal: PackDeal) -> tuple[list[int], int]:
    """Moves that fall into the first trap of the solution whose losing move leaves a move to play, then play one
    more; and the trap's step."""
    deal, solution = pack_deal.deal, list(pack_deal.solution)
    for step in range(len(solution)):
        for move in Position.after(deal, solution[:step]).legal_moves():
            moves = [*solution[:step], move]
            if move == solution[step] or winnable(deal, moves):
                continue
            legal = Position.after(deal, moves).legal_moves()
            if legal:
                return [*moves, legal[0]], step
    raise AssertionError(f"{pack_deal.deal_id}: no trap along the solution that play goes on from")


# ---------------------------------------------------------------- the page


def open_deal(page: Any, folder: Path, deal_id: str) -> None:
    open_gallery(page, folder, f"deal={deal_id}")
    page.wait_for_selector("#play:not([hidden])")


def click_move(page: Any, move: int, game: Game) -> None:
    """Click the free card of pile ``move``, or the talon for Golf's talon deal."""
    if move == game.talon_move:
        page.click("#talon")
    else:
        page.click(f".pile[data-pile='{move}'] button.card")


def play_moves(page: Any, moves: list[int] | tuple[int, ...], game: Game) -> None:
    for move in moves:
        click_move(page, move, game)


def move_count(page: Any) -> int:
    return int(page.text_content("#move-count"))


def ask_hint(page: Any) -> dict[str, str]:
    """Press Hint and wait for its answer; the hint text's data attributes and text."""
    page.click("#hint")
    page.wait_for_selector("#hint-text[data-kind]")
    return page.eval_on_selector("#hint-text", "el => ({...el.dataset, text: el.textContent})")


def shown_foundation(page: Any) -> str | None:
    """The card the foundation shows (its code, ``TH``), or None when it shows an empty slot."""
    return page.eval_on_selector(
        "#foundation", "el => { const c = el.querySelector('.card'); return c && c.dataset.card; }"
    )


def free_cards(page: Any) -> list[str | None]:
    """The free card of each pile as the board shows it (None for an empty pile)."""
    return page.eval_on_selector_all(
        ".pile",
        "piles => piles.map(p => { const c = p.querySelector('button.card'); return c && c.dataset.card; })",
    )


def keep_screenshot(data: bytes, name: str) -> None:
    """Write ``data`` as ``images/name`` in the folder ``BLACKHOLE_SCREENSHOTS`` names, when it is set."""
    folder = os.environ.get("BLACKHOLE_SCREENSHOTS")
    if folder:
        (Path(folder) / "images").mkdir(parents=True, exist_ok=True)
        (Path(folder) / "images" / name).write_bytes(data)


def assert_a_real_picture(data: bytes, size: tuple[int, int]) -> None:
    """A PNG of ``size`` with many colours and the table's green: not a blank or broken page."""
    image = Image.open(io.BytesIO(data)).convert("RGB")
    assert image.size == size
    colours = image.getcolors(maxcolors=1 << 20)
    assert colours is not None and len(colours) > 200, "too few colours: a blank page?"
    assert any(colour == TABLE_GREEN for _, colour in colours), "no green table"


# ---------------------------------------------------------------- Golf


def test_a_golf_index_names_the_game_and_draws_the_talon_in_each_thumbnail(page, golf_gallery, golf_deals):
    open_gallery(page, golf_gallery.folder)
    assert page.text_content("#pack-line") == "golf-curated · 7 curated deals of Golf, in level order"
    rows = page.eval_on_selector_all(".deal-row", "rows => rows.map(row => row.dataset.dealId)")
    assert rows == [deal.deal_id for deal in golf_deals]
    page.wait_for_selector(".deal-row canvas[data-drawn='true']")
    backs = page.eval_on_selector(
        ".deal-row canvas[data-drawn='true']",
        """(canvas, back) => {
          const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
          let found = 0;
          for (let at = 0; at < data.length; at += 4)
            if (data[at] === back[0] && data[at + 1] === back[1] && data[at + 2] === back[2]) found++;
          return found;
        }""",
        list(CARD_BACK),
    )
    assert backs > 100, "the talon's back is drawn"


def test_a_golf_deal_is_seven_fans_of_five_with_the_foundation_card_and_the_talon(
    page, golf_gallery, golf_deals
):
    target = golf_deals[0]
    deal = target.deal
    open_deal(page, golf_gallery.folder, target.deal_id)
    assert page.get_attribute("#board", "data-layout") == "golf"
    assert page.get_attribute("#board", "data-game") == "golf"
    assert page.locator(".pile").count() == 7
    for pile, cards in enumerate(deal.piles):
        shown = page.eval_on_selector_all(
            f".pile[data-pile='{pile}'] .card", "cs => cs.map(c => c.dataset.card)"
        )
        assert shown == [card_name(card) for card in cards]
    assert shown_foundation(page) == card_name(deal.foundation)
    assert page.is_visible("#talon") and page.text_content("#talon-count") == "16"
    assert page.get_attribute("#talon", "aria-label") == "talon, 16 cards left: deal the next one"
    assert page.text_content("#talon-left") == "16 cards left"
    assert "deal the next talon card" in page.text_content("#rules-help")
    assert "K and A are not neighbours" in page.text_content("#rules-help")


def test_the_talon_deals_its_next_card_by_click_and_key_and_undo_takes_it_back(
    page, golf_gallery, golf_deals
):
    deal = golf_deals[0].deal
    open_deal(page, golf_gallery.folder, golf_deals[0].deal_id)
    page.click("#talon")
    assert move_count(page) == 1 and shown_foundation(page) == card_name(deal.talon[0])
    assert page.text_content("#talon-count") == "15"
    page.keyboard.press("d")
    assert move_count(page) == 2 and shown_foundation(page) == card_name(deal.talon[1])
    page.click("#undo")
    assert shown_foundation(page) == card_name(deal.talon[0]) and page.text_content("#talon-count") == "15"
    page.click("#undo")
    assert shown_foundation(page) == card_name(deal.foundation) and page.text_content("#talon-count") == "16"
    for _ in range(16):
        page.click("#talon")
    assert (
        page.text_content("#talon-count") == "0"
        and page.get_attribute("#talon", "aria-label") == "talon, empty"
    )
    assert shown_foundation(page) == card_name(deal.talon[-1])
    page.click("#talon")
    assert move_count(page) == 16
    assert page.text_content("#message") == "The talon is empty: only the piles' free cards are left to play"


def test_a_golf_refusal_and_a_stuck_game_say_why(page, golf_gallery, golf_deals):
    deal = golf_deals[0].deal
    open_deal(page, golf_gallery.folder, golf_deals[0].deal_id)
    start = Position.start(deal)
    illegal = next(pile for pile in range(7) if pile not in start.legal_moves())
    page.click(f".pile[data-pile='{illegal}'] button.card")
    said = page.text_content("#message")
    assert said.startswith(
        f"{face(start.top_card(illegal))} is not one rank from the foundation's {face(deal.foundation)}"
    )
    assert move_count(page) == 0
    moves = [TALON] * 16  # the whole talon dealt: then the piles' free cards only
    position = Position.after(deal, moves)
    while legal := position.legal_moves():
        moves.append(legal[0])
        position = position.play(legal[0])
    assert not position.is_won
    play_moves(page, moves, GOLF)
    assert page.get_attribute("#play", "data-state") == "stuck"
    left = sum(position.heights)
    cards = "card" if left == 1 else "cards"
    assert page.text_content("#message") == (
        f"no free card is one rank from the foundation and the talon is empty, {left} {cards} left"
    )


def test_a_golf_hint_after_a_talon_deal_keeps_a_win_and_marks_its_card_or_the_talon(
    page, golf_gallery, golf_deals
):
    target = next(deal for deal in golf_deals if TALON in deal.solution[:6])
    deal = target.deal
    moves = list(target.solution[: target.solution.index(TALON) + 1])
    open_deal(page, golf_gallery.folder, target.deal_id)
    play_moves(page, moves, GOLF)
    assert page.text_content("#talon-count") == "15"
    for _ in range(6):
        hint = ask_hint(page)
        move = int(hint["move"])
        assert hint["kind"] == "win" and winnable(deal, [*moves, move])
        if move == TALON:
            assert hint["text"] == "Deal the next card from the talon"
            assert "hinted" in page.get_attribute("#talon", "class").split()
        else:
            card = Position.after(deal, moves).top_card(move)
            assert hint["text"] == f"Play {face(card)} from pile {move + 1}"  # piles counted from 1
            assert "hinted" in page.get_attribute(f".pile[data-pile='{move}'] button.card", "class").split()
        click_move(page, move, GOLF)
        moves.append(move)
        assert page.locator(".hinted").count() == 0
    assert move_count(page) == len(moves)


def test_a_lost_golf_position_hints_how_far_to_undo(page, golf_gallery, golf_deals):
    target = next(deal for deal in golf_deals if deal.traps)
    moves, step = losing_line(target)
    undo = len(moves) - step
    assert hint_of(target.deal, moves).undo == undo
    open_deal(page, golf_gallery.folder, target.deal_id)
    play_moves(page, moves, GOLF)
    hint = ask_hint(page)
    assert hint["kind"] == "lost" and int(hint["undo"]) == undo
    assert (
        hint["text"] == f"This position is lost: undo {undo} moves to get back to a position that can be won."
    )


def test_a_golf_deal_is_won_by_following_the_hints(page, golf_gallery, golf_deals):
    target = golf_deals[-1]  # the hardest of the pack
    deal, moves = target.deal, []
    open_deal(page, golf_gallery.folder, target.deal_id)
    while page.get_attribute("#play", "data-state") == "playing":
        hint = ask_hint(page)
        assert hint["kind"] == "win", f"after {moves}"
        moves.append(int(hint["move"]))
        click_move(page, moves[-1], GOLF)
        assert len(moves) <= deal.game.pile_cards + deal.game.talon_size
    assert page.get_attribute("#play", "data-state") == "won"
    assert Position.after(deal, moves).is_won
    assert page.text_content("#message") == f"won in {len(moves)} moves"
    assert page.locator(".pile .card").count() == 0 and page.locator(".pile .empty-slot").count() == 7
    left = GOLF.talon_size - moves.count(TALON)
    assert page.text_content("#talon-count") == str(left)


def test_the_golf_solution_player_says_talon_deals_and_the_traps_are_the_graders(
    page, golf_gallery, golf_deals
):
    target = next(deal for deal in golf_deals if deal.solution[0] == TALON)
    open_deal(page, golf_gallery.folder, target.deal_id)
    page.wait_for_selector("#traps-list[data-count]")
    assert int(page.get_attribute("#traps-list", "data-count")) == target.traps
    page.click("#solution-forward")
    dealt = target.deal.talon[0]
    assert page.text_content("#solution-detail").startswith(f"last: {face(dealt)} from the talon")
    assert shown_foundation(page) == card_name(dealt)
    page.click("#solution-first")
    assert page.text_content("#solution-step") == "move 0 of " + str(len(target.solution))
    assert page.text_content("#solution-detail") == "next: deal from the talon"
    assert "current-move" in page.get_attribute("#talon", "class").split()


# ---------------------------------------------------------------- All in a Row


def test_an_all_in_a_row_deal_is_thirteen_fans_of_four_under_an_empty_foundation(
    page, all_in_a_row_gallery, all_in_a_row_deals
):
    target = all_in_a_row_deals[0]
    deal = target.deal
    open_deal(page, all_in_a_row_gallery.folder, target.deal_id)
    assert page.get_attribute("#board", "data-layout") == "all_in_a_row"
    assert page.locator(".pile").count() == 13 and page.locator(".pile .card").count() == 52
    assert free_cards(page) == [card_name(pile[-1]) for pile in deal.piles]
    assert shown_foundation(page) is None and page.locator("#foundation .empty-slot").count() == 1
    assert page.get_attribute("#foundation", "aria-label") == "foundation, empty: any free card may start it"
    assert page.is_hidden("#talon-slot")
    first = next(pile for pile in range(13) if pile != target.solution[0])  # any free card starts it
    page.click(f".pile[data-pile='{first}'] button.card")
    assert move_count(page) == 1 and shown_foundation(page) == card_name(deal.piles[first][-1])
    page.click("#undo")
    assert shown_foundation(page) is None


def test_an_all_in_a_row_deal_is_won_by_its_stored_solution(page, all_in_a_row_gallery, all_in_a_row_deals):
    target = all_in_a_row_deals[-1]
    open_deal(page, all_in_a_row_gallery.folder, target.deal_id)
    page.wait_for_selector("#traps-list[data-count]")
    assert int(page.get_attribute("#traps-list", "data-count")) == target.traps
    play_moves(page, target.solution, ALL_IN_A_ROW)
    assert page.get_attribute("#play", "data-state") == "won"
    assert page.text_content("#message") == "won in 52 moves"
    assert page.locator(".pile .empty-slot").count() == 13
    assert shown_foundation(page) == card_name(foundation_after(target.deal, list(target.solution)))


def test_an_all_in_a_row_hint_keeps_a_win_and_a_lost_position_says_how_far_to_undo(
    page, all_in_a_row_gallery, all_in_a_row_deals
):
    target = next(deal for deal in all_in_a_row_deals if deal.traps)
    deal = target.deal
    open_deal(page, all_in_a_row_gallery.folder, target.deal_id)
    hint = ask_hint(page)  # on the empty foundation
    assert hint["kind"] == "win" and winnable(deal, [int(hint["move"])])
    moves, step = losing_line(target)
    play_moves(page, moves, ALL_IN_A_ROW)
    hint = ask_hint(page)
    assert hint["kind"] == "lost" and int(hint["undo"]) == len(moves) - step == hint_of(deal, moves).undo
    for _ in range(len(moves) - step):
        page.click("#undo")
    hint = ask_hint(page)
    move = int(hint["move"])
    assert hint["kind"] == "win" and winnable(deal, [*moves[:step], move])
    card = Position.after(deal, moves[:step]).top_card(move)
    assert hint["text"] == f"Play {face(card)} from pile {move + 1}"  # piles counted from 1


# ---------------------------------------------------------------- the solver against Python, both games


@pytest.mark.parametrize("game", [GOLF, ALL_IN_A_ROW], ids=lambda game: game.name)
def test_the_in_browser_hints_agree_with_python_on_random_play(page, request, game):
    """Positions cut from random play on every deal of the pack, the lost deals too: "win" exactly where Python
    finds a win, with a move that keeps it, else the fewest moves back to a winnable position."""
    curated = request.getfixturevalue(f"{game.name}_pack")
    gallery = request.getfixturevalue(f"{game.name}_gallery")
    rng = random.Random(2027)
    positions = []
    for board in read_pack_folder(curated.with_name(game.name)).column("board").to_pylist():
        deal = Deal.from_board_text(board, game=game)
        for moves in random_play_positions(deal, rng, POSITIONS_PER_DEAL):
            positions.append((deal, moves, hint_of(deal, moves)))
    assert sum(hint.winnable for _, _, hint in positions) > 10
    assert sum(hint.undo is None for _, _, hint in positions) > 10
    assert sum(bool(hint.undo) for _, _, hint in positions) > 3
    open_gallery(page, gallery.folder)
    items = [{"cards": cards_text(deal), "moves": moves} for deal, moves, _ in positions]
    answers = page.evaluate(HINTS, [game.name, items])
    wrong = [
        (moves, hint, answer)
        for (deal, moves, hint), answer in zip(positions, answers, strict=True)
        if not agrees(deal, moves, hint, answer)
    ]
    assert not wrong, wrong[:3]


# ---------------------------------------------------------------- screenshots for the docs


def test_screenshots_of_golf_and_all_in_a_row_in_play(
    page, golf_gallery, golf_deals, all_in_a_row_gallery, all_in_a_row_deals
):
    golf = golf_deals[1]
    dealt = [i for i, move in enumerate(golf.solution) if move == TALON][2]  # three talon cards dealt
    open_deal(page, golf_gallery.folder, golf.deal_id)
    play_moves(page, golf.solution[: dealt + 2], GOLF)
    ask_hint(page)
    page.wait_for_selector("#traps-list[data-count]")
    shot = page.screenshot()
    assert_a_real_picture(shot, (1280, 900))
    keep_screenshot(shot, "gallery-golf.png")

    row = all_in_a_row_deals[0]
    open_deal(page, all_in_a_row_gallery.folder, row.deal_id)
    play_moves(page, row.solution[:8], ALL_IN_A_ROW)
    ask_hint(page)
    page.wait_for_selector("#traps-list[data-count]")
    shot = page.screenshot()
    assert_a_real_picture(shot, (1280, 900))
    keep_screenshot(shot, "gallery-all-in-a-row.png")
