"""A plain reference search: every legal move in pile order, nothing pruned.

It remembers the positions it has already explored (so a position reached by
two move orders is searched once, which changes no verdict) and nothing else:
no necessary conditions, no dominance, no move ordering. It shares no search
code with ``pipeline.engine.solver`` (only the hash set of packed positions,
from :mod:`pipeline.engine.kernel`) and exists to check it. It is compiled so
that tests can run it on hundreds of deals.

:func:`family_reference` does the same for any game of the family (All in a
Row and the Golfs) in plain Python on the referee's positions, to check
:mod:`pipeline.engine.family_search` on small positions; :func:`reference_solve`
calls it, under its node budget, for a deal of those games (the cross-check's
last word when CP-SAT cannot tell).
"""

from __future__ import annotations

import time

import numba
import numpy as np

from pipeline.engine import kernel
from pipeline.game.cards import NUM_RANKS, rank_of
from pipeline.game.deal import NUM_PILES, Deal
from pipeline.game.games import BLACK_HOLE
from pipeline.game.rules import WINNING_LENGTH, Position, replay
from pipeline.game.verdicts import SolveResult, Verdict


def reference_solve(
    deal: Deal, *, max_nodes: int = 100_000_000, start: Position | None = None
) -> SolveResult:
    """Solve ``deal`` (from ``start``, default its opening) by exhaustive search.

    ``max_cards_played`` is exact for a loss: the search visits every
    reachable position of an unsolvable deal.

    >>> from pipeline.game.deal import Deal, EXAMPLE_BOARD
    >>> reference_solve(Deal.from_board_text(EXAMPLE_BOARD)).max_cards_played
    3
    """
    began = time.perf_counter()
    position = start or Position.start(deal)
    if deal.game is not BLACK_HOLE:
        return _family_solve(deal, position, max_nodes, began)
    ranks = np.array([[rank_of(card) for card in pile] for pile in deal.piles], dtype=np.int64)
    heights = np.array(position.heights, dtype=np.int64)
    found, nodes, most, path = _explore(ranks, heights, position.foundation_rank, max_nodes)
    seconds = time.perf_counter() - began
    base = position.cards_played
    if found == 1:
        solution = tuple(int(pile) for pile in path)
        replay(deal, solution, start=position)
        return SolveResult(Verdict.SOLVED, solution, int(nodes), seconds, WINNING_LENGTH)
    if found < 0:
        return SolveResult(Verdict.UNKNOWN, (), int(nodes), seconds, None)
    return SolveResult(Verdict.UNSOLVABLE, (), int(nodes), seconds, base + int(most))


@numba.njit(cache=True)
def _explore(ranks, heights, foundation, max_nodes):
    """Returns (1 won / 0 lost / -1 out of budget, nodes, most cards played, path)."""
    remaining = 0
    for pile in range(NUM_PILES):
        remaining += heights[pile]
    path = np.zeros(remaining + 1, dtype=np.int64)
    foundations = np.zeros(remaining + 1, dtype=np.int64)
    next_pile = np.zeros(remaining + 1, dtype=np.int64)
    explored = kernel.new_set(1 << 12)
    explored_count = 0
    foundations[0] = foundation
    nodes = 1
    most = 0
    depth = 0
    if remaining == 0:
        return 1, nodes, 0, path[:0]
    key = foundation
    for pile in range(NUM_PILES):
        key = key * 4 + heights[pile]
    explored, explored_count = kernel.set_insert(explored, explored_count, key)
    while True:
        pile = next_pile[depth]
        if pile == NUM_PILES:
            if depth == 0:
                return 0, nodes, most, path[:0]
            depth -= 1
            heights[path[depth]] += 1
            continue
        next_pile[depth] = pile + 1
        if heights[pile] == 0:
            continue
        rank = ranks[pile, heights[pile] - 1]
        step = (rank - foundations[depth]) % NUM_RANKS
        if step != 1 and step != 12:
            continue
        heights[pile] -= 1
        key = rank
        for other in range(NUM_PILES):
            key = key * 4 + heights[other]
        if kernel.set_contains(explored, key):
            heights[pile] += 1
            continue
        explored, explored_count = kernel.set_insert(explored, explored_count, key)
        nodes += 1
        if nodes > max_nodes:
            return -1, nodes, most, path[:0]
        path[depth] = pile
        depth += 1
        if depth > most:
            most = depth
        if depth == remaining:
            return 1, nodes, most, path[:remaining]
        foundations[depth] = rank
        next_pile[depth] = 0


class OutOfNodes(Exception):
    """:func:`family_reference` entered more positions than its budget allowed."""


def _family_solve(deal: Deal, position: Position, max_nodes: int, began: float) -> SolveResult:
    """:func:`reference_solve` for All in a Row and the Golfs, by :func:`family_reference`."""
    try:
        most, win, nodes = _family_explore(position, max_nodes)
    except OutOfNodes:
        return SolveResult(Verdict.UNKNOWN, (), max_nodes, time.perf_counter() - began, None)
    seconds = time.perf_counter() - began
    if win is not None:
        replay(deal, win, start=position)
        return SolveResult(Verdict.SOLVED, win, nodes, seconds, deal.game.pile_cards)
    return SolveResult(Verdict.UNSOLVABLE, (), nodes, seconds, position.cards_played + most)


def family_reference(
    deal: Deal, start: Position | None = None, *, max_nodes: int | None = None
) -> tuple[int, tuple[int, ...] | None]:
    """The most pile cards playable from ``start`` (default the opening) of a deal of any game, and a win's moves.

    Plain Python on the referee's :class:`~pipeline.game.rules.Position`:
    every legal move, nothing pruned, each position's answer remembered.
    Returns (most pile cards played from ``start``, the moves of a win or
    None); slow (a few microseconds a position), so for small positions or
    as a last word. Raises :class:`OutOfNodes` past ``max_nodes`` positions
    entered (None: no limit).

    >>> from pipeline.game.games import game_named
    >>> from pipeline.game.shuffles import pysol_deal
    >>> deal = pysol_deal(1, game_named("all_in_a_row"))
    >>> family_reference(deal)[0]
    6
    """
    most, win, _ = _family_explore(start or Position.start(deal), max_nodes)
    return most, win


def _family_explore(position: Position, max_nodes: int | None) -> tuple[int, tuple[int, ...] | None, int]:
    """:func:`family_reference`'s search: (most pile cards, a win's moves or None, positions entered)."""
    known: dict[tuple[tuple[int, ...], int | None, int], tuple[int, tuple[int, ...] | None]] = {}

    def most(here: Position) -> tuple[int, tuple[int, ...] | None]:
        """(most pile cards from ``here``, a win's moves from ``here`` or None)."""
        if here.is_won:
            return 0, ()
        key = (here.heights, here.foundation_rank, here.talon_dealt)
        if key in known:
            return known[key]
        if max_nodes is not None and len(known) >= max_nodes:
            raise OutOfNodes
        best: tuple[int, tuple[int, ...] | None] = (0, None)
        for move in here.legal_moves():
            child = here.play(move)
            cards, win = most(child)
            cards += child.cards_played - here.cards_played
            if win is not None:
                best = (cards, (move, *win))
                break
            best = max(best, (cards, None), key=lambda answer: answer[0])
        known[key] = best
        return best

    cards, win = most(position)
    return cards, win, len(known)
