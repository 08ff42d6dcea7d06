"""The gallery in headless Chromium: the index, play, hints, the solution player, the grade, phones, 10,000 deals.

Every expectation is computed in Python from the pack and the rules
(:mod:`pipeline.game.rules`, :func:`pipeline.engine.solver.solve`), never read
back from the page. With ``BLACKHOLE_SCREENSHOTS=DIR`` set, the screenshot test
also writes ``DIR/gallery-index.png`` and ``DIR/gallery-play.png`` for the docs.
"""

from __future__ import annotations

import io
import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
from PIL import Image

from pipeline.engine.solver import solve
from pipeline.game.cards import ACE_OF_SPADES, card_name, rank_of, suit_of
from pipeline.game.deal import NUM_PILES, Deal
from pipeline.game.players import PLAYERS, Player
from pipeline.game.rules import WINNING_LENGTH, Position
from pipeline.game.verdicts import Verdict
from pipeline.packs.folders import read_pack_folder
from pipeline.packs.parquet import metadata
from pipeline.reports.gallery import COLUMNS, DATA, DATA_GLOBAL, data_script, write_gallery
from pipeline.reports.picture import card_face
from tests.reports import gallery_words as said
from tests.reports.browsing import open_gallery
from tests.support.lines import stuck_line

RANK_WORDS = (
    "ace",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
)
SUIT_WORDS = ("hearts", "clubs", "diamonds", "spades")
TABLE_GREEN = (0x0B, 0x6E, 0x3A)
BIG = 10_000  # deals in the synthetic gallery


@dataclass(frozen=True)
class PackDeal:
    """One deal of the curated pack, as the grader wrote it."""

    deal_id: str
    level: int
    tier: str
    difficulty: float
    traps: int
    first_trap: int | None
    solution: tuple[int, ...]
    deal: Deal
    row: dict[str, Any]  # every column


@dataclass(frozen=True)
class Reference:
    """What the curated pack's difficulty counts: a player's dead ends (with undo) or attempts (without)."""

    player: Player
    figure: str

    def text(self, difficulty: float) -> str:
        """The difficulty as the index shows it: "15 dead ends"."""
        if self.figure == "attempts":
            return said.attempts_text(difficulty)
        return said.dead_ends_text(difficulty)


@pytest.fixture(scope="module")
def pack_deals(curated_pack: Path) -> list[PackDeal]:
    """The curated pack's 8 deals in level order."""
    rows = read_pack_folder(curated_pack).to_pylist()
    found = [
        PackDeal(
            deal_id=row["deal_id"],
            level=row["level"],
            tier=row["tier"],
            difficulty=row["difficulty"],
            traps=row["traps"],
            first_trap=row["first_trap"],
            solution=tuple(int(pile) for pile in row["solution"]),
            deal=Deal.from_board_text(row["board"]),
            row=row,
        )
        for row in rows
    ]
    return sorted(found, key=lambda deal: deal.level)


@pytest.fixture(scope="module")
def reference(curated_pack: Path) -> Reference:
    provenance = metadata(read_pack_folder(curated_pack))
    return Reference(Player(provenance["difficulty_player"]), provenance["difficulty_figure"])


@pytest.fixture(scope="module")
def hardest(pack_deals: list[PackDeal]) -> PackDeal:
    return pack_deals[-1]


# ---------------------------------------------------------------- the rules, in words


def face(card: int) -> str:
    """A card as the page prints it, as ``blackhole show`` draws it: ``7♥``, ``10♦``."""
    rank, symbol, _ = card_face(card)
    return rank + symbol


def words(card: int) -> str:
    return f"{RANK_WORDS[rank_of(card)]} of {SUIT_WORDS[suit_of(card)]}"


def foundation_card(deal: Deal, moves: list[int]) -> int:
    """The card on the foundation after ``moves``: the last card played (the A♠ at the start)."""
    if not moves:
        return ACE_OF_SPADES
    before = Position.after(deal, moves[:-1])
    card = before.top_card(moves[-1])
    assert card is not None
    return card


def winnable(deal: Deal, moves: list[int]) -> bool:
    return solve(deal, start=Position.after(deal, moves)).verdict is Verdict.SOLVED


def fewest_undo(deal: Deal, moves: list[int]) -> int | None:
    """The fewest moves to take back from ``moves`` to reach a winnable position (None: not even the start)."""
    for undo in range(len(moves) + 1):
        if winnable(deal, moves[: len(moves) - undo]):
            return undo
    return None


def losing_line(pack_deal: PackDeal, extra: int = 2) -> tuple[list[int], int]:
    """Moves that fall into a trap of the solution and then play up to ``extra`` more (at least one: the
    first trap whose losing move is not stuck at once); and the trap's step."""
    deal, solution = pack_deal.deal, list(pack_deal.solution)
    for step in range(len(solution)):
        position = Position.after(deal, solution[:step])
        for pile in position.legal_moves():
            if pile != solution[step] and not winnable(deal, [*solution[:step], pile]):
                moves = [*solution[:step], pile]
                for _ in range(extra):
                    legal = Position.after(deal, moves).legal_moves()
                    if not legal:
                        break
                    moves.append(legal[0])
                if len(moves) > step + 1:
                    return moves, step
    raise AssertionError(f"{pack_deal.deal_id}: no trap along the solution that play goes on from")


# ---------------------------------------------------------------- the page


def open_deal(page: Any, folder: Path, deal_id: str) -> None:
    open_gallery(page, folder, f"deal={deal_id}")
    page.wait_for_selector("#play:not([hidden])")


def click_pile(page: Any, pile: int) -> None:
    page.click(f".pile[data-pile='{pile}'] button.card")


def play_moves(page: Any, moves: list[int] | tuple[int, ...]) -> None:
    for pile in moves:
        click_pile(page, pile)


def move_count(page: Any) -> int:
    return int(page.text_content("#move-count"))


def shown_rows(page: Any) -> list[str]:
    return page.eval_on_selector_all(".deal-row", "rows => rows.map(row => row.dataset.dealId)")


def ask_hint(page: Any) -> dict[str, str]:
    """Press Hint and wait for its answer; the hint text's data attributes and text."""
    page.click("#hint")
    page.wait_for_selector("#hint-text[data-kind]")
    return page.eval_on_selector("#hint-text", "el => ({...el.dataset, text: el.textContent})")


def keep_screenshot(data: bytes, name: str) -> None:
    """Write ``data`` as ``name`` into the folder ``BLACKHOLE_SCREENSHOTS`` names, when it is set."""
    folder = os.environ.get("BLACKHOLE_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        (Path(folder) / name).write_bytes(data)


def assert_a_real_picture(data: bytes, size: tuple[int, int]) -> None:
    """A PNG of ``size`` with many colours and the table's green: not a blank or broken page."""
    image = Image.open(io.BytesIO(data)).convert("RGB")
    assert image.size == size
    colours = image.getcolors(maxcolors=1 << 20)
    assert colours is not None and len(colours) > 200, "too few colours: a blank page?"
    assert any(colour == TABLE_GREEN for _, colour in colours), "no green table"


# ---------------------------------------------------------------- 1. the index


def test_the_index_lists_filters_sorts_and_searches_the_deals(page, gallery, pack_deals, reference):
    open_gallery(page, gallery.folder)
    assert page.text_content("#shown-count") == "8 deals"
    assert shown_rows(page) == [deal.deal_id for deal in pack_deals]  # level order
    first = page.locator(".deal-row").first
    assert first.locator("a").get_attribute("href") == f"#deal={pack_deals[0].deal_id}"
    stats = page.eval_on_selector_all(
        ".deal-row .stat:first-child .stat-value", "values => values.map(v => v.textContent)"
    )
    assert stats == [reference.text(deal.difficulty) for deal in pack_deals]  # "15 dead ends", in words
    page.wait_for_selector(".deal-row canvas[data-drawn='true']")  # the thumbnail of a row in view

    tiers = page.eval_on_selector_all("#tier-filter option", "options => options.map(o => o.value)")
    assert tiers == ["all", "easy", "medium", "hard", "expert"]
    for tier in ("easy", "hard"):
        page.select_option("#tier-filter", tier)
        expected = [deal.deal_id for deal in pack_deals if deal.tier == tier]
        assert shown_rows(page) == expected
        assert page.eval_on_selector_all(".deal-row", "rows => rows.map(r => r.dataset.tier)") == [tier] * 2
        assert page.text_content("#shown-count") == "2 deals"
    page.select_option("#tier-filter", "all")

    page.select_option("#sort", "difficulty")
    by_difficulty = sorted(pack_deals, key=lambda deal: deal.difficulty, reverse=False)
    assert shown_rows(page) == [deal.deal_id for deal in by_difficulty]
    shown = page.eval_on_selector_all(".deal-row", "rows => rows.map(r => Number(r.dataset.difficulty))")
    assert shown == sorted(shown)

    target = pack_deals[3].deal_id
    page.fill("#search", target.upper())  # case-insensitive
    assert shown_rows(page) == [target]
    assert page.text_content("#shown-count") == "1 deal"
    page.fill("#search", "no such deal")
    assert shown_rows(page) == [] and page.is_visible("#no-match")


def test_a_row_opens_its_deal_and_back_returns_to_the_index(page, gallery, pack_deals):
    open_gallery(page, gallery.folder)
    target = pack_deals[2]
    page.click(f".deal-row[data-deal-id='{target.deal_id}'] a")
    page.wait_for_selector("#play:not([hidden])")
    assert page.is_hidden("#index")
    assert target.deal_id in page.text_content("#deal-title")
    assert page.get_attribute(".pile[data-pile='0'] button.card", "data-card") == card_name(
        target.deal.piles[0][2]
    )
    page.click("#back")
    page.wait_for_selector("#index:not([hidden])")
    assert page.is_hidden("#play") and len(shown_rows(page)) == 8
    page.go_back()  # the browser's back button returns to the deal
    page.wait_for_selector("#play:not([hidden])")
    assert target.deal_id in page.text_content("#deal-title")


def test_an_unknown_deal_id_falls_back_to_the_index_and_says_so(page, gallery):
    open_gallery(page, gallery.folder, "deal=nope-1")
    assert page.is_visible("#index") and page.is_hidden("#play")
    assert "nope-1" in page.text_content("#notice")


# ---------------------------------------------------------------- 2-5. play, refusals, hints, stuck


def test_the_stored_solution_clicked_card_by_card_wins(page, gallery, pack_deals):
    target = pack_deals[0]
    open_deal(page, gallery.folder, target.deal_id)
    assert page.get_attribute("#play", "data-state") == "playing"
    play_moves(page, target.solution)
    assert page.get_attribute("#play", "data-state") == "won"
    assert move_count(page) == WINNING_LENGTH
    assert page.text_content("#message") == "won in 51 moves"
    assert page.locator(".pile .card").count() == 0 and page.locator(".pile .empty-slot").count() == NUM_PILES
    last = target.deal
    assert page.get_attribute("#foundation .card", "data-card") == card_name(
        foundation_card(last, list(target.solution))
    )


def test_an_illegal_click_is_refused_with_its_reason(page, gallery, hardest):
    deal, first = hardest.deal, hardest.solution[0]
    open_deal(page, gallery.folder, hardest.deal_id)
    click_pile(page, first)
    position, foundation = Position.after(deal, [first]), foundation_card(deal, [first])
    illegal = next(
        p for p in range(NUM_PILES) if position.top_card(p) is not None and p not in position.legal_moves()
    )
    click_pile(page, illegal)
    expected = f"{face(position.top_card(illegal))} is not one rank from the foundation's {face(foundation)}"
    assert page.text_content("#message") == expected
    assert move_count(page) == 1 and page.get_attribute("#play", "data-state") == "playing"

    covered = next(p for p in range(NUM_PILES) if position.heights[p] >= 2)
    card = deal.piles[covered][0]
    page.click(
        f".pile[data-pile='{covered}'] .card.covered[data-card='{card_name(card)}']",
        position={"x": 4, "y": 30},
    )
    assert (
        page.text_content("#message")
        == f"{face(card)} is covered: only the last card of a pile can be played"
    )
    assert move_count(page) == 1


def test_a_lost_position_hints_how_far_to_undo_then_a_winning_move(page, gallery, hardest):
    deal = hardest.deal
    moves, trap_step = losing_line(hardest)
    undo = fewest_undo(deal, moves)
    assert undo == len(moves) - trap_step and undo > 1  # the line falls into the trap, then plays on
    open_deal(page, gallery.folder, hardest.deal_id)
    play_moves(page, moves)
    hint = ask_hint(page)
    assert hint["kind"] == "lost" and int(hint["undo"]) == undo
    assert (
        hint["text"] == f"This position is lost: undo {undo} moves to get back to a position that can be won."
    )

    for _ in range(undo):
        page.click("#undo")
    assert move_count(page) == trap_step
    assert page.get_attribute("#hint-text", "data-kind") is None  # a change of position clears the hint
    hint = ask_hint(page)
    move = int(hint["move"])
    assert hint["kind"] == "win" and winnable(deal, [*moves[:trap_step], move])
    card = Position.after(deal, moves[:trap_step]).top_card(move)
    assert hint["text"] == f"Play {face(card)} from pile {move + 1}"  # piles counted from 1
    assert page.locator(".card.hinted").count() == 1
    assert page.get_attribute(f".pile[data-pile='{move}'] button.card", "class").split().count("hinted") == 1
    click_pile(page, move)
    assert page.locator(".card.hinted").count() == 0 and page.text_content("#hint-text") == ""


def test_a_line_with_no_legal_move_left_is_stuck(page, gallery, hardest):
    moves = stuck_line(hardest.deal)
    left = sum(Position.after(hardest.deal, moves).heights)
    open_deal(page, gallery.folder, hardest.deal_id)
    play_moves(page, moves)
    assert page.get_attribute("#play", "data-state") == "stuck"
    noun = "card" if left == 1 else "cards"
    assert (
        page.text_content("#message") == f"no free card is one rank from the foundation, {left} {noun} left"
    )
    assert move_count(page) == len(moves)
    page.click("#undo")
    assert page.get_attribute("#play", "data-state") == "playing"


# ---------------------------------------------------------------- 6-8. keyboard, names, undo


def test_the_keyboard_reaches_and_plays_every_free_card(page, gallery, hardest):
    open_deal(page, gallery.folder, hardest.deal_id)
    for _ in range(30):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.matches('button.card')"):
            break
    focused_pile = "document.activeElement.closest('.pile') && Number(document.activeElement.closest('.pile').dataset.pile)"
    assert page.evaluate(focused_pile) == 0, "Tab reaches pile 0's free card first"
    style = page.evaluate(
        "(() => { const s = getComputedStyle(document.activeElement); return [s.outlineStyle, s.outlineWidth]; })()"
    )
    assert style[0] != "none" and float(style[1].removesuffix("px")) >= 2

    page.keyboard.press("ArrowRight")
    assert page.evaluate(focused_pile) == 1
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert page.evaluate(focused_pile) == NUM_PILES - 1  # wraps
    page.keyboard.press("Home")
    page.keyboard.press("ArrowDown")
    assert page.evaluate(focused_pile) == 6  # rows of six on a desktop, as in picture.py
    page.keyboard.press("ArrowUp")
    assert page.evaluate(focused_pile) == 0

    first = hardest.solution[0]
    for _ in range(first):
        page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    assert move_count(page) == 1
    assert page.evaluate(focused_pile) == first, "focus stays on the pile just played, not the page"
    page.keyboard.press("u")
    assert move_count(page) == 0
    page.keyboard.press("Control+y")
    assert move_count(page) == 1
    page.keyboard.press("Control+z")
    assert move_count(page) == 0
    page.keyboard.press("Space")  # focus is on pile `first`'s free card again
    assert move_count(page) == 1


def test_cards_have_accessible_names(page, gallery, hardest):
    open_deal(page, gallery.folder, hardest.deal_id)
    free, covered = hardest.deal.piles[4][2], hardest.deal.piles[4][0]
    button = page.get_by_role("button", name=f"{words(free)}, free", exact=True)
    assert button.count() == 1 and button.get_attribute("data-card") == card_name(free)
    # the pile of index 4, as players count piles (from 1); data-pile keeps the index
    assert button.evaluate("el => el.closest('.pile').getAttribute('aria-label')") == "pile 5"
    hidden = page.get_by_role("img", name=f"{words(covered)}, covered", exact=True)
    assert hidden.count() == 1 and hidden.evaluate("el => el.tabIndex") == -1
    assert hidden.evaluate("el => el.tagName") != "BUTTON"
    assert page.get_attribute("#foundation", "aria-label") == "foundation, ace of spades"
    assert page.locator(".pile button.card").count() == NUM_PILES
    assert page.locator(".pile .card").count() == WINNING_LENGTH


def test_undo_redo_and_restart(page, gallery, hardest):
    deal, solution = hardest.deal, hardest.solution
    # the first decision along the solution: a position with another legal move to play instead
    step = next(k for k in range(len(solution)) if len(Position.after(deal, solution[:k]).legal_moves()) > 1)
    pile = solution[step]
    open_deal(page, gallery.folder, hardest.deal_id)
    play_moves(page, solution[: step + 1])
    page.click("#undo")
    assert move_count(page) == step
    top = Position.after(deal, solution[:step]).top_card(pile)
    assert page.get_attribute(f".pile[data-pile='{pile}'] button.card", "data-card") == card_name(top)
    page.click("#redo")
    assert move_count(page) == step + 1
    assert page.get_attribute("#foundation .card", "data-card") == card_name(
        foundation_card(deal, list(solution[: step + 1]))
    )

    page.click("#undo")
    other = next(p for p in Position.after(deal, solution[:step]).legal_moves() if p != pile)
    click_pile(page, other)  # a new move clears the redo stack
    assert page.get_attribute("#redo", "aria-disabled") == "true"
    page.click("#redo", force=True)  # Playwright waits for an aria-disabled button: force the no-op click
    assert move_count(page) == step + 1
    assert page.get_attribute("#foundation .card", "data-card") == card_name(
        foundation_card(deal, [*solution[:step], other])
    )

    before = page.get_attribute("#foundation .card", "data-card")
    page.click("#restart")
    assert move_count(page) == 0 and page.locator(".pile .card").count() == WINNING_LENGTH
    assert page.get_attribute("#restart", "aria-disabled") == "true"
    # Restart is a step: Undo brings the position back, and Redo restarts again
    assert page.get_attribute("#undo", "aria-disabled") == "false"
    assert page.get_attribute("#redo", "aria-disabled") == "true"
    page.click("#undo")
    assert move_count(page) == step + 1
    assert page.get_attribute("#foundation .card", "data-card") == before
    page.click("#redo")
    assert move_count(page) == 0 and page.locator(".pile .card").count() == WINNING_LENGTH


# ---------------------------------------------------------------- 9. the solution player


def test_the_solution_player_steps_and_plays_to_the_win(page, gallery, hardest):
    deal, solution = hardest.deal, list(hardest.solution)
    open_deal(page, gallery.folder, hardest.deal_id)
    assert page.is_visible("#solution-player")
    for _ in range(3):
        page.click("#solution-forward")
    assert page.text_content("#solution-step") == "move 3 of 51" and move_count(page) == 3
    assert page.get_attribute("#foundation .card", "data-card") == card_name(
        foundation_card(deal, solution[:3])
    )
    current = page.locator(".card.current-move")
    assert current.count() == 1
    assert current.evaluate("el => Number(el.closest('.pile').dataset.pile)") == solution[3]
    assert page.locator("#foundation .card.last-played").count() == 1
    page.click("#solution-back")
    assert page.text_content("#solution-step") == "move 2 of 51" and move_count(page) == 2
    page.click("#undo")  # the history is the solution's first moves: undo and redo walk it
    assert page.text_content("#solution-step") == "move 1 of 51"
    page.click("#redo")
    page.click("#redo")
    assert page.text_content("#solution-step") == "move 3 of 51"
    page.click("#solution-first")
    assert page.text_content("#solution-step") == "move 0 of 51" and move_count(page) == 0

    page.select_option("#solution-speed", "100")
    page.click("#solution-play")
    assert page.text_content("#solution-play") == "Pause"
    page.wait_for_function("Number(document.querySelector('#move-count').textContent) >= 2")
    page.click("#undo")  # manual play stops auto-play
    assert page.text_content("#solution-play") == "Play"
    stopped = move_count(page)
    page.wait_for_timeout(350)
    assert move_count(page) == stopped

    for _ in range(45 - stopped):  # the undone solution moves are the redo stack: r walks it
        page.keyboard.press("r")
    assert page.text_content("#solution-step") == "move 45 of 51"
    page.click("#solution-play")
    page.wait_for_selector("#play[data-state='won']", timeout=5_000)
    assert move_count(page) == 51
    assert page.text_content("#solution-step") == "Solution complete: 51 of 51 moves."
    assert page.text_content("#message") == "won in 51 moves"
    assert page.text_content("#solution-play") == "Play"
    # nothing left to show or watch: Forward and Play are off (First and Back still step back)
    assert page.get_attribute("#solution-forward", "aria-disabled") == "true"
    assert page.get_attribute("#solution-play", "aria-disabled") == "true"
    assert page.get_attribute("#solution-back", "aria-disabled") != "true"


# ---------------------------------------------------------------- 10. the grade


def open_by_hash(page: Any, deal_id: str) -> None:
    """Open ``deal_id`` from the page already loaded and wait for its grade's traps."""
    page.evaluate("id => { location.hash = '#deal=' + encodeURIComponent(id); }", deal_id)
    page.wait_for_function(
        "id => document.querySelector('#deal-title .deal-id').textContent === id"
        " && document.querySelector('#traps-list[data-count]')",
        arg=deal_id,
    )


def ladder_lines(page: Any) -> list[tuple[str, str]]:
    """The grade's line for each player model: (its name, its text)."""
    return page.eval_on_selector_all(
        "#grade .players li", "items => items.map(li => [li.dataset.player, li.textContent])"
    )


def words_of(page: Any) -> str:
    """The grade's text a player reads: all of it but the exact numbers, under "All the numbers"."""
    return page.text_content("#grade").split("All the numbers")[0]


def test_the_grade_says_what_each_player_meets_and_finds_the_graders_traps(
    page, gallery, pack_deals, reference
):
    open_gallery(page, gallery.folder)
    for pack_deal in pack_deals:
        row = pack_deal.row
        open_by_hash(page, pack_deal.deal_id)
        if reference.figure == "dead_ends":  # the difficulty is the reference player's own figure
            assert pack_deal.difficulty == row[reference.player.dead_ends_column]
        else:
            assert pack_deal.difficulty == pytest.approx(1 / row[reference.player.win_column])
        heading = page.text_content("#grade .difficulty-line")
        assert heading == said.difficulty_line(
            pack_deal.tier, reference.player, reference.figure, pack_deal.difficulty
        )
        assert reference.player.words in heading
        assert page.text_content("#grade .tier-badge") == pack_deal.tier

        lines = ladder_lines(page)
        assert [name for name, _ in lines] == [player.value for player in PLAYERS]  # weakest first
        for (_, text), player in zip(lines, PLAYERS, strict=True):
            expected = said.player_line(player, row[player.win_column], row[player.dead_ends_column])
            assert text.startswith(expected), (text, expected)
            assert ("The tiers are cut on this player." in text) == (player is reference.player)

        reasons = page.eval_on_selector_all("#grade .reasons li", "items => items.map(li => li.textContent)")
        assert said.traps_text(pack_deal.traps) in reasons
        if pack_deal.traps:
            assert said.first_trap_text(pack_deal.first_trap) in reasons
        words = words_of(page)
        assert not [text for text in said.FORMULA_TEXT if text in words], words  # words, not a formula
        assert said.ways_text(row["solution_count"]) in words

        steps = page.eval_on_selector_all(
            "#traps-list li", "items => items.map(li => Number(li.dataset.step))"
        )
        assert len(steps) == pack_deal.traps, pack_deal.deal_id  # the browser's solver agrees with the grader
        assert steps[0] == pack_deal.first_trap
        assert page.text_content("#traps-list li").startswith(f"move {steps[0]}: playing ")  # as Moves counts
        assert page.get_attribute("#grade-numbers", "open") is None  # the exact numbers, one click away
        names = page.eval_on_selector_all("#grade-numbers th", "cells => cells.map(th => th.textContent)")
        assert names == list(COLUMNS)  # every player's columns and tree_score among them
    page.click("#grade-numbers summary")
    assert page.is_visible("#grade-numbers td")


def rewritten_gallery(folder: Path, out: Path, change: Any) -> Path:
    """A copy of the gallery in ``folder`` whose data ``change(data)`` has edited in place."""
    shutil.copytree(folder, out)
    text = (out / DATA).read_text(encoding="utf-8")
    data = json.loads(text[len(f"window.{DATA_GLOBAL} = ") : -2])
    change(data)
    (out / DATA).write_text(data_script(data), encoding="utf-8")
    return out


# Win chances and dead ends at the edges of the rounding, for the players of the ladder in order.
EDGE_FIGURES = ((2.2e-7, 1234.0), (1e-20, 0.3), (1 / 1634, 14.4), (0.3, 1.2), (1.0, 0.0))
EDGE_SAID = (
    "A player who plays any legal move at random wins about 1 game in 4.5 million without undo; "
    "with undo, expect about 1,200 dead ends before the win.",
    "A player who follows the usual tips wins about 1 game in 100 quintillion without undo; "
    "with undo, expect about 0.3 dead ends before the win.",
    "A player who follows the tips and looks 2 moves ahead wins about 1 game in 1,600 without undo; "
    "with undo, expect about 14 dead ends before the win.",
    "A player who follows the tips and looks 4 moves ahead wins about 1 game in 3 without undo; "
    "with undo, expect about 1 dead end before the win.",
    "A player who follows the tips and looks 8 moves ahead wins every game without undo; "
    "with undo, expect almost no dead ends before the win.",
)


def test_every_figure_is_rounded_for_a_person_whatever_its_size(page, gallery, tmp_path):
    def edges(data: dict[str, Any]) -> None:
        values = dict(zip(data["columns"], data["deals"][0], strict=True))
        for player, (chance, dead_ends) in zip(PLAYERS, EDGE_FIGURES, strict=True):
            values[player.win_column], values[player.dead_ends_column] = chance, dead_ends
        values.update(tier="hard", difficulty=1634.0, solution_count="1234567890123456789012", first_trap=0)
        data["deals"] = [[values[name] for name in data["columns"]]]
        data["difficulty"] = {"player": "lookahead-4", "figure": "attempts"}
        data["tiers"] = {"medium": 100.0, "hard": 1500.0, "expert": 1e6}

    folder = rewritten_gallery(gallery.folder, tmp_path / "edges", edges)
    open_gallery(page, folder)
    assert page.text_content(".deal-row .stat-value") == "1,600 attempts"
    [deal_id] = shown_rows(page)
    open_by_hash(page, deal_id)
    assert (
        page.text_content("#grade .tier-line")
        == "Tier hard (at least 1,500 and fewer than 1,000,000 attempts in this pack)."
    )
    heading = "Hard: a player who follows the tips and looks 4 moves ahead needs about 1,600 attempts to win, without undo"
    assert page.text_content("#grade .difficulty-line") == heading
    lines = [text for _, text in ladder_lines(page)]
    assert [text.removesuffix(" The tiers are cut on this player.") for text in lines] == list(EDGE_SAID)
    assert lines[3].endswith("The tiers are cut on this player.")
    for text, player, (chance, dead_ends) in zip(lines, PLAYERS, EDGE_FIGURES, strict=True):
        assert text.startswith(said.player_line(player, chance, dead_ends))  # the Python words agree
    words = words_of(page)
    assert "The first trap comes at the very first move" in words
    assert "About 1,200 quintillion ways to win" in words
    assert not [text for text in said.FORMULA_TEXT if text in words], words


# ---------------------------------------------------------------- 11. 10,000 deals


@pytest.fixture(scope="module")
def big_gallery(gallery, tmp_path_factory) -> Path:
    """The gallery's folder with deals.js rewritten to hold 10,000 deals made from its 8 (ids big-00001 ...)."""
    folder = tmp_path_factory.mktemp("big") / "gallery"
    shutil.copytree(gallery.folder, folder)
    text = (folder / DATA).read_text(encoding="utf-8")
    prefix = f"window.{DATA_GLOBAL} = "
    data = json.loads(text[len(prefix) : -2])
    columns = data["columns"]
    deals = []
    for number in range(1, BIG + 1):
        values = dict(zip(columns, data["deals"][number % len(data["deals"])], strict=True))
        values.update(deal_id=f"big-{number:05d}", level=number)
        deals.append([values[name] for name in columns])
    (folder / DATA).write_text(data_script({**data, "deals": deals}), encoding="utf-8")
    return folder


def test_ten_thousand_deals_render_lazily_and_filter(page, big_gallery):
    open_gallery(page, big_gallery)
    assert page.text_content("#shown-count") == "10,000 deals"
    rows = page.locator(".deal-row").count()
    assert 0 < rows <= 200
    drawn = page.eval_on_selector_all(".deal-row canvas", "all => all.map(c => c.dataset.drawn === 'true')")
    assert drawn[0] and not drawn[-1]  # only rows in view draw their thumbnail
    page.locator("#list-sentinel").scroll_into_view_if_needed()
    page.wait_for_function(f"document.querySelectorAll('.deal-row').length > {rows}")

    page.fill("#search", "big-10000")
    assert shown_rows(page) == ["big-10000"]
    page.fill("#search", "")
    page.select_option("#tier-filter", "expert")  # its speed is measured by make bench, not here
    assert (
        page.text_content("#shown-count") == f"{BIG // 4:,} deals"
    )  # every fourth deal is expert (8 deals, 2 a tier)
    tiers = page.eval_on_selector_all(".deal-row", "rows => rows.map(r => r.dataset.tier)")
    assert 0 < len(tiers) <= 200 and set(tiers) == {"expert"}


# ---------------------------------------------------------------- 12-13. phones, screenshots


def test_a_phone_shows_all_piles_without_sideways_scrolling(page, gallery, hardest):
    page.set_viewport_size({"width": 390, "height": 844})
    open_deal(page, gallery.folder, hardest.deal_id)
    width = page.evaluate("innerWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    boxes = [page.locator(f".pile[data-pile='{pile}']").bounding_box() for pile in range(NUM_PILES)]
    assert all(
        box and box["width"] > 40 and box["x"] >= 0 and box["x"] + box["width"] <= width for box in boxes
    )
    cards = page.eval_on_selector_all(".pile .card", "all => all.map(c => c.getBoundingClientRect().right)")
    assert len(cards) == WINNING_LENGTH and max(cards) <= width
    assert len({round(box["y"]) for box in boxes}) == 3  # six a row with the foundation, fanned downwards
    assert max(box["y"] + box["height"] for box in boxes) <= page.evaluate("innerHeight")  # no scrolling
    assert page.locator("#grade").bounding_box()["y"] > max(box["y"] for box in boxes)  # the grade below
    open_gallery(page, gallery.folder)
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_screenshots_of_the_index_and_of_a_deal_in_play(page, gallery, hardest):
    open_gallery(page, gallery.folder)
    page.wait_for_selector(".deal-row canvas[data-drawn='true']")
    index = page.screenshot()
    assert_a_real_picture(index, (1280, 900))
    keep_screenshot(index, "gallery-index.png")

    open_deal(page, gallery.folder, hardest.deal_id)
    play_moves(page, hardest.solution[:6])
    ask_hint(page)
    page.wait_for_selector("#traps-list[data-count]")
    played = page.screenshot()
    assert_a_real_picture(played, (1280, 900))
    keep_screenshot(played, "gallery-play.png")


def test_screenshots_at_a_phones_width(browser, gallery, hardest):
    """The index and a deal in play on a 390 x 844 touch phone (device scale 2): what docs/gallery.md shows."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True
    )
    errors: list[str] = []
    try:
        phone = context.new_page()
        phone.on("pageerror", lambda error: errors.append(str(error)))
        open_gallery(phone, gallery.folder)
        phone.wait_for_selector(".deal-row canvas[data-drawn='true']")
        index = phone.screenshot()
        assert_a_real_picture(index, (780, 1688))
        keep_screenshot(index, "gallery-phone-index.png")

        open_deal(phone, gallery.folder, hardest.deal_id)
        for pile in hardest.solution[:6]:
            phone.tap(f".pile[data-pile='{pile}'] button.card")
        assert move_count(phone) == 6
        assert phone.text_content("#solution-step") == (  # played along the solution, not "51 moves to a win"
            f"Your game follows the solution to move 6 of {len(hardest.solution)}."
        )
        ask_hint(phone)
        played = phone.screenshot()
        assert_a_real_picture(played, (780, 1688))
        keep_screenshot(played, "gallery-phone-play.png")
    finally:
        context.close()
    assert not errors, errors


def test_an_uncurated_pack_sorts_by_difficulty_with_the_unscored_last(page, tmp_path, pack):
    made = write_gallery(pack, tmp_path / "g")
    rows = read_pack_folder(pack).to_pylist()  # pack order: tier by tier
    open_gallery(page, made.folder)
    assert shown_rows(page) == [row["deal_id"] for row in rows]  # no levels: pack order
    page.select_option("#sort", "difficulty")
    scored = sorted((row for row in rows if row["difficulty"] is not None), key=lambda row: row["difficulty"])
    unscored = [row["deal_id"] for row in rows if row["difficulty"] is None]
    assert shown_rows(page) == [row["deal_id"] for row in scored] + unscored
    assert shown_rows(page) != [row["deal_id"] for row in rows]


# ---------------------------------------------------------------- 14. markup in free text

MARKUP = '<img src=x onerror="document.body.dataset.injected=1"><b class="injected">bold</b>'


def test_markup_in_a_title_a_pack_name_or_a_deal_id_shows_as_text(page, tmp_path, pack_rows):
    """What a user or a file typed (the title, the pack's name, a deal id) is shown as its characters:
    no element is made of it and nothing in it runs. (A name may hold markup: it has no '/'.)"""
    from pipeline import __version__
    from pipeline.game.shuffles import SEEDED_SCHEME
    from pipeline.packs.folders import write_pack_folder
    from pipeline.packs.manifest import Origin

    name = MARKUP.replace("</b>", "")  # a folder name: no '/'
    deal_id = "deal " + MARKUP
    ids = [deal_id, *pack_rows.column("deal_id").to_pylist()[1:]]
    at = pack_rows.column_names.index("deal_id")
    rows = pack_rows.set_column(at, pack_rows.schema.field(at), pa.array(ids, pa.string()))
    folder = tmp_path / "packs" / name
    write_pack_folder(folder, [rows], origin=Origin(name, "pack", __version__, SEEDED_SCHEME), provenance={})
    made = write_gallery(folder, tmp_path / "site", title="Title " + MARKUP)
    open_gallery(page, made.folder)
    assert page.text_content("h1") == "Title " + MARKUP
    assert page.title() == "Title " + MARKUP
    assert page.text_content("#pack-line").startswith(name + " · 20 deals")
    assert deal_id in page.eval_on_selector_all(".deal-row .deal-id", "all => all.map(e => e.textContent)")
    open_by_hash(page, deal_id)
    assert page.text_content("#deal-title .deal-id") == deal_id
    assert page.locator(".injected").count() == 0
    assert page.evaluate("document.body.dataset.injected") is None
