"""The gallery's in-browser solver against the Python solver, in headless Chromium.

500 positions from random play on the deals of a pack (20 deals, 3 of them
unsolvable): the hint must say "win" exactly where the Python solver finds a
win, its move must keep the win, and a lost position's "undo k" must be the
fewest moves back to a winnable position, as Python finds it. The time per
hint is measured by ``make bench`` (bench/bench_gallery.py), not here.
"""

from __future__ import annotations

import doctest
import random
from typing import Any

import pytest

from pipeline.engine.solver import solve
from pipeline.game.deal import Deal
from pipeline.game.rules import Position
from pipeline.game.verdicts import Verdict
from pipeline.reports.gallery import cards_text
from tests.reports.browsing import open_gallery
from tests.support import hints
from tests.support.hints import Hint, agrees, hint_of, random_play_positions

POSITIONS_PER_DEAL = 25  # 20 deals: 500 positions
SOLVED, LOST = Verdict.SOLVED, Verdict.UNSOLVABLE

HINTS = """(items) => {
  const games = new Map();  // one game a deal, as the page keeps: it remembers the lost positions
  return items.map(({cards, moves}) => {
    if (!games.has(cards)) games.set(cards, new BlackholeSolver.Game(cards));
    const answer = games.get(cards).hint(moves);
    return {kind: answer.kind, move: answer.move ?? null, undo: answer.undo ?? null};
  });
}"""


@pytest.fixture(scope="module")
def positions(pack_rows: Any) -> list[tuple[Deal, list[int], Hint]]:
    """The positions, each with the hint Python gives."""
    rng = random.Random(2026)
    found = []
    for board in pack_rows.column("board").to_pylist():
        deal = Deal.from_board_text(board)
        for moves in random_play_positions(deal, rng, POSITIONS_PER_DEAL):
            found.append((deal, moves, hint_of(deal, moves)))
    return found


def test_the_examples_of_the_python_hints_run():
    """The examples in tests/support/hints.py's docstrings hold (pytest does not collect that folder)."""
    failed, attempted = doctest.testmod(hints)
    assert attempted and not failed


def test_python_hints_undo_the_fewest_moves(positions):
    for deal, moves, hint in positions[::10]:
        if hint.undo:  # the position undo moves back can be won, one move less back cannot
            assert solve(deal, start=Position.after(deal, moves[: len(moves) - hint.undo])).verdict is SOLVED
            assert (
                solve(deal, start=Position.after(deal, moves[: len(moves) - hint.undo + 1])).verdict is LOST
            )
        elif hint.undo is None:
            assert solve(deal).verdict is LOST


def test_the_positions_cover_wins_losses_and_lost_deals(positions):
    answers = [hint for _, _, hint in positions]
    assert len(positions) >= 500
    assert sum(a.winnable for a in answers) > 100
    assert sum(not a.winnable and a.undo is not None for a in answers) > 100
    assert sum(a.undo is None for a in answers) >= 3 * POSITIONS_PER_DEAL


def test_every_hint_agrees_with_the_python_solver(page, gallery, positions):
    open_gallery(page, gallery.folder)
    items = [{"cards": cards_text(deal), "moves": moves} for deal, moves, _ in positions]
    answers = page.evaluate(HINTS, items)
    agreed = 0
    for (deal, moves, expected), answer in zip(positions, answers, strict=True):
        assert agrees(deal, moves, expected, answer), (deal, moves, expected, answer)
        agreed += 1
    assert agreed == len(positions) >= 500


def test_a_spent_budget_says_unknown_rather_than_guessing(page, gallery, positions):
    open_gallery(page, gallery.folder)
    deal, _, _ = positions[0]
    answer = page.evaluate(
        "(cards) => { const game = new BlackholeSolver.Game(cards);"
        " return [game.solve(game.start(), 3), game.hint([], 3)]; }",
        cards_text(deal),
    )
    assert answer[0]["verdict"] == "unknown" and answer[0]["nodes"] <= 3
    assert answer[1]["kind"] == "unknown"


def test_a_wrong_answer_does_not_agree(positions):
    deal, moves, won = next(p for p in positions if p[2].winnable and p[2].move is not None)
    illegal = next(pile for pile in range(17) if pile not in Position.after(deal, moves).legal_moves())
    assert agrees(deal, moves, won, {"kind": "win", "move": won.move})
    assert not agrees(deal, moves, won, {"kind": "win", "move": illegal})
    assert not agrees(deal, moves, won, {"kind": "lost", "undo": 1})
    deal, moves, lost = next(p for p in positions if p[2].undo)
    assert agrees(deal, moves, lost, {"kind": "lost", "undo": lost.undo})
    assert not agrees(deal, moves, lost, {"kind": "lost", "undo": lost.undo + 1})
    assert not agrees(deal, moves, lost, {"kind": "win", "move": 0})
