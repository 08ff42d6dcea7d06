"""The gallery's in-browser solver against the Python solver, in headless Chromium.

500 positions from random play on the deals of a pack (20 deals, 3 of them
unsolvable): the hint must say "win" exactly where the Python solver finds a
win, its move must keep the win, and a lost position's "undo k" must be the
fewest moves back to a winnable position, as Python finds it. The time per
hint is measured by ``make bench`` (bench/bench_gallery.py), not here.

The browser's rank order condition (``walkOrders`` in solver.js) is checked
against :func:`pipeline.engine.conditions.walk_orders` on every position
along those lines of play.
"""

from __future__ import annotations

import doctest
import random
from typing import Any

import numpy as np
import pytest

from pipeline.engine.conditions import MAX_ORDERED_ENDS, ORDER_WORDS, orders_allow, pile_orders, walk_orders
from pipeline.engine.solver import solve
from pipeline.game.cards import NUM_RANKS, rank_of
from pipeline.game.deal import Deal
from pipeline.game.rules import Position
from pipeline.game.verdicts import Verdict
from pipeline.packs.folders import read_pack_folder
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


# ---------------------------------------------------------------- the rank order condition

ALL_RANKS = (1 << NUM_RANKS) - 1
KING = NUM_RANKS - 1

WALK_ORDERS = """(cases) => {
  const forbid = new Int32Array(BlackholeSolver.MAX_ORDERED_ENDS * 13);
  return cases.map(([counts, foundation, ends]) => {
    const found = BlackholeSolver.walkOrders(Int8Array.from(counts), foundation, ends, forbid);
    const rows = [];
    for (let k = 0; k < found; k++) rows.push(Array.from(forbid.subarray(13 * k, 13 * k + 13)));
    return [found, rows];
  });
}"""


def summary(position: Position) -> tuple[list[int], int, int]:
    """What the conditions see of ``position``: the cards left of each rank, the foundation rank, and the
    bit set of the ranks of the bottom cards left."""
    counts = [0] * NUM_RANKS
    ends = 0
    for pile, height in zip(position.deal.piles, position.heights, strict=True):
        for card in pile[:height]:
            counts[rank_of(card)] += 1
        if height:
            ends |= 1 << rank_of(pile[0])
    return counts, position.foundation_rank, ends


def python_orders(counts: list[int], foundation: int, ends: int) -> tuple[int, np.ndarray, list[list[int]]]:
    """:func:`walk_orders`'s answer and orders, and the orders as the browser's rows: for each end, rank a's
    set of the ranks b that no card of rank a may lie above."""
    orders = np.zeros((MAX_ORDERED_ENDS, ORDER_WORDS), dtype=np.int64)
    found = int(walk_orders(np.array(counts, dtype=np.int64), foundation, ends, orders))
    words = orders.view(np.uint64)
    rows = [
        [int(words[k, a // 5]) >> (NUM_RANKS * (a % 5)) & ALL_RANKS for a in range(NUM_RANKS)]
        for k in range(found)
    ]
    return found, orders, rows


def along_the_lines(positions: list[tuple[Deal, list[int], Hint]], aside: bool = False) -> list[Position]:
    """Every position along the lines of play that lead to ``positions``, each once; with ``aside``, and
    every position one move off them."""
    seen, found = set(), []
    for deal, moves, _ in positions:
        for length in range(len(moves) + 1):
            position = Position.after(deal, moves[:length])
            for each in [position, *(position.play(pile) for pile in position.legal_moves() if aside)]:
                if each not in seen:
                    seen.add(each)
                    found.append(each)
    return found


def test_the_browsers_rank_order_condition_is_pythons(page, gallery, positions):
    """``walkOrders`` gives what ``walk_orders`` gives, to the bit, but for a pair Python has no room for:
    on the positions along the lines of play and one move off them, with the ends their bottom cards allow
    and with any rank left as an end.

    Python's words hold the 13-bit sets of five ranks in 64 bits, so the fifth set loses its last bit:
    Python never forbids a 5 or a 10 (ranks 4 and 9) above a K. The browser does, as the condition says.
    """
    cases = []
    for position in along_the_lines(positions, aside=True):
        counts, foundation, ends = summary(position)
        needed = sum(1 << rank for rank in range(NUM_RANKS) if counts[rank])
        cases += [(counts, foundation, ends), (counts, foundation, needed)]  # any rank left may end the walk
    open_gallery(page, gallery.folder)
    answers = page.evaluate(WALK_ORDERS, cases)
    kinds = {"no walk": 0, "no order": 0, "orders": 0, "the pair Python drops": 0}
    for case, (found, rows) in zip(cases, answers, strict=True):
        expected, _, python_rows = python_orders(*case)
        assert found == expected, case
        for row, python_row in zip(rows, python_rows, strict=True):
            for a in range(NUM_RANKS):
                if a % 5 == 4 and row[a] >> KING & 1:
                    kinds["the pair Python drops"] += 1
                    assert row[a] & ~(1 << KING) == python_row[a], case
                else:
                    assert row[a] == python_row[a], case
        kinds["no walk" if found < 0 else "no order" if found == 0 else "orders"] += 1
    assert len(cases) > 5000 and min(kinds.values()) >= 50, kinds


def test_a_position_the_rank_order_condition_rules_out_is_searched_no_further(page, gallery, positions):
    """Where the Euler walk condition holds but the piles break every end's order (as Python's conditions
    find), and moves are left, the browser's search says "unsolvable" at once: one position searched."""
    ruled_out = []
    for position in along_the_lines(positions):
        found, orders, _ = python_orders(*summary(position))
        if found > 0 and position.legal_moves():
            ranks = np.array([[rank_of(card) for card in pile] for pile in position.deal.piles])
            piles = pile_orders(ranks, np.array(position.heights))
            if not orders_allow(orders, found, *piles):
                ruled_out.append(position)
    assert len(ruled_out) > 20
    open_gallery(page, gallery.folder)
    items = [
        {
            "cards": cards_text(position.deal),
            "heights": list(position.heights),
            "foundation": position.foundation_rank * 4,  # a card of that rank: suits never matter
        }
        for position in ruled_out
    ]
    answers = page.evaluate(
        """(items) => items.map(({cards, heights, foundation}) => {
          const found = new BlackholeSolver.Game(cards).solve({heights: heights, foundation: foundation});
          return [found.verdict, found.nodes];
        })""",
        items,
    )
    assert answers == [["unsolvable", 1]] * len(ruled_out)


# ---------------------------------------------------------------- hints off the page's thread

HOLD = "Blackhole.worker.testing.hold = true"  # workers keep questions unanswered until release()
LIVE = "Blackhole.worker.testing.live()"  # the workers running
NO_WORKERS = "window.Worker = function () { throw new Error('workers are off'); };"
FAILING_WORKERS = """window.Worker = class extends Worker {
  constructor() { super(URL.createObjectURL(new Blob(["throw new Error('refused');"]))); }
};"""
LOOKING = "Looking for a hint…"

ASK_THE_WORKER = """async (items) => {
  const searcher = Blackhole.worker.create();
  const answers = [];
  for (const {cards, moves} of items) {
    answers.push(await new Promise((resolve) => searcher.ask(
      {op: "hint", cards: cards, moves: moves},
      (found, where) => resolve({kind: found.kind, move: found.move ?? null, undo: found.undo ?? null, where}),
      () => ({kind: "asked of the page"})
    )));
  }
  return answers;
}"""


@pytest.fixture(scope="module")
def solvable(curated_pack: Any) -> tuple[str, Deal]:
    """The id and deal of a deal of the gallery with a solution."""
    rows = read_pack_folder(curated_pack, columns=["deal_id", "board", "solution"]).to_pylist()
    row = next(row for row in rows if row["solution"])
    return row["deal_id"], Deal.from_board_text(row["board"])


def open_deal(page: Any, folder: Any, deal_id: str) -> None:
    """Open ``deal_id`` in play and wait until the browser has listed its traps (their search is over)."""
    open_gallery(page, folder, f"deal={deal_id}")
    page.wait_for_selector("#play:not([hidden]) #traps-list[data-count]")


def hint_line(page: Any) -> dict[str, str]:
    return page.eval_on_selector("#hint-text", "el => ({...el.dataset, text: el.textContent})")


def ask_hint(page: Any) -> dict[str, str]:
    page.click("#hint")
    page.wait_for_selector("#hint-text[data-kind]")
    return hint_line(page)


def as_answer(shown: dict[str, str]) -> dict[str, Any]:
    """The hint line's data as the solver's answer, for :func:`agrees`."""
    return {
        "kind": shown["kind"],
        "move": int(shown["move"]) if "move" in shown else None,
        "undo": int(shown["undo"]) if "undo" in shown else None,
    }


def test_a_hint_is_searched_in_a_worker(page, gallery, solvable):
    deal_id, deal = solvable
    open_deal(page, gallery.folder, deal_id)
    shown = ask_hint(page)
    assert shown["source"] == "worker" and "searching" not in shown
    assert agrees(deal, [], hint_of(deal, []), as_answer(shown))
    assert page.evaluate(LIVE) == 2  # the hint's worker and the traps'


@pytest.mark.parametrize("action", ["play", "undo", "restart", "leave"])
def test_a_hint_still_searched_is_abandoned_when_the_player_acts(page, gallery, solvable, action):
    """The worker holds the hint unanswered (a slow search, made deterministic): meanwhile the page takes
    the player's click, which abandons the hint: its worker is terminated and nothing is shown."""
    deal_id, deal = solvable
    first = Position.start(deal).legal_moves()[0]
    open_deal(page, gallery.folder, deal_id)
    if action in ("undo", "restart"):
        page.click(f".pile[data-pile='{first}'] button.card")
    page.evaluate(HOLD)
    page.click("#hint")
    assert hint_line(page) == {"searching": "true", "text": LOOKING}
    running = page.evaluate(LIVE)  # the hint's worker, the traps' one
    assert running == 2
    expected_moves = {"play": [first], "undo": [], "restart": [], "leave": []}[action]
    if action == "play":
        page.click(f".pile[data-pile='{first}'] button.card")  # answered while the hint is searched
    elif action == "leave":
        page.click("#back")
        page.wait_for_selector("#index:not([hidden])")
    else:
        page.click(f"#{action}")
    if action != "leave":
        assert page.text_content("#move-count") == str(len(expected_moves))
    assert hint_line(page) == {"text": ""}
    assert page.evaluate(LIVE) == running - 1  # the hint's worker is gone
    page.evaluate("Blackhole.worker.testing.release(); Blackhole.worker.testing.hold = false")
    if action == "leave":
        page.go_back()
        page.wait_for_selector("#play:not([hidden])")
        assert hint_line(page) == {"text": ""}
    shown = ask_hint(page)  # a fresh worker answers, for the position now on the board
    assert shown["source"] == "worker"
    assert agrees(deal, expected_moves, hint_of(deal, expected_moves), as_answer(shown))


@pytest.mark.parametrize("script", [NO_WORKERS, FAILING_WORKERS], ids=["none made", "failing"])
def test_without_workers_the_page_searches_hints_and_traps_itself(page, gallery, solvable, script):
    deal_id, deal = solvable
    page.add_init_script(script)
    open_deal(page, gallery.folder, deal_id)
    assert int(page.get_attribute("#traps-list", "data-count")) >= 0
    shown = ask_hint(page)
    assert shown["source"] == "page"
    assert agrees(deal, [], hint_of(deal, []), as_answer(shown))


def test_hints_from_the_worker_agree_with_the_python_solver(page, gallery, positions):
    sample = positions[::5]
    open_gallery(page, gallery.folder)
    items = [{"cards": cards_text(deal), "moves": moves} for deal, moves, _ in sample]
    answers = page.evaluate(ASK_THE_WORKER, items)
    assert {answer.pop("where") for answer in answers} == {"worker"}
    for (deal, moves, expected), answer in zip(sample, answers, strict=True):
        assert agrees(deal, moves, expected, answer), (deal, moves, expected, answer)
    assert len(sample) == 100
