"""A plain reference search: every legal move in order (piles, then the talon), nothing pruned.

It remembers the positions it has already explored (so a position reached by
two move orders is searched once, which changes no verdict) and nothing else:
no necessary conditions, no dominance, no move ordering. It shares no search
code with ``pipeline.engine.solver`` (only the hash set of packed positions,
from :mod:`pipeline.engine.kernel`) and exists to check it: the tests run it
on hundreds of deals, and the cross-check asks it when CP-SAT cannot tell.
One compiled search serves every game, from the numbers of its layout: the
piles, the talon, the foundation (-1 while empty) and the rank steps allowed
(``wrap``: K and A are neighbours; ``dead_king``: nothing goes on a King).
"""

from __future__ import annotations

import time

import numba
import numpy as np

from pipeline.engine import kernel
from pipeline.engine.search import position_arrays
from pipeline.game.cards import NUM_RANKS
from pipeline.game.deal import Deal
from pipeline.game.rules import Position, replay
from pipeline.game.verdicts import SolveResult, Verdict


def reference_solve(
    deal: Deal, *, max_nodes: int = 100_000_000, start: Position | None = None
) -> SolveResult:
    """Solve ``deal`` (from ``start``, default its opening) by exhaustive search.

    ``max_cards_played`` is exact for a loss: the search visits every
    reachable position of an unsolvable deal. It counts pile cards only.

    >>> from pipeline.game.deal import Deal, EXAMPLE_BOARD
    >>> reference_solve(Deal.from_board_text(EXAMPLE_BOARD)).max_cards_played
    3
    >>> from pipeline.game.games import game_named
    >>> from pipeline.game.shuffles import pysol_deal
    >>> reference_solve(pysol_deal(1, game_named("all_in_a_row"))).max_cards_played
    6
    """
    began = time.perf_counter()
    position = start or Position.start(deal)
    game = deal.game
    ranks, heights, talon, dealt, foundation = position_arrays(deal, position)
    found, nodes, most, path = _explore(
        ranks, heights, talon, dealt, foundation, game.wrap, game.dead_king, max_nodes
    )
    seconds = time.perf_counter() - began
    if found == 1:
        solution = tuple(int(move) for move in path)
        replay(deal, solution, start=position)
        return SolveResult(Verdict.SOLVED, solution, int(nodes), seconds, game.pile_cards)
    if found < 0:
        return SolveResult(Verdict.UNKNOWN, (), int(nodes), seconds, None)
    return SolveResult(Verdict.UNSOLVABLE, (), int(nodes), seconds, position.cards_played + int(most))


@numba.njit(cache=True)
def _explore(ranks, heights, talon, dealt, foundation, wrap, dead_king, max_nodes):
    """Returns (1 won / 0 lost / -1 out of budget, nodes, most pile cards played, moves of a win).

    A move is a pile's number, or the number of piles for a talon deal. A
    position's key is its heights in mixed radix, the talon cards dealt and the
    foundation (plus one, so that an empty one is 0).
    """
    piles, size = ranks.shape
    talon_size = talon.shape[0]
    remaining = 0
    for pile in range(piles):
        remaining += heights[pile]
    depth_limit = remaining + talon_size - dealt + 1
    path = np.zeros(depth_limit, dtype=np.int64)
    foundations = np.zeros(depth_limit, dtype=np.int64)
    dealts = np.zeros(depth_limit, dtype=np.int64)
    played = np.zeros(depth_limit, dtype=np.int64)
    next_move = np.zeros(depth_limit, dtype=np.int64)
    explored = kernel.new_set(1 << 12)
    explored_count = 0
    foundations[0], dealts[0] = foundation, dealt
    nodes, most, depth = 1, 0, 0
    if remaining == 0:
        return 1, nodes, 0, path[:0]
    explored, explored_count = kernel.set_insert(
        explored, explored_count, _key(heights, size, dealt, foundation, talon_size)
    )
    while True:
        move = next_move[depth]
        if move > piles or (move == piles and dealts[depth] == talon_size):
            if depth == 0:
                return 0, nodes, most, path[:0]
            depth -= 1
            if path[depth] < piles:
                heights[path[depth]] += 1
            continue
        next_move[depth] = move + 1
        on, now_dealt, cards = foundations[depth], dealts[depth], played[depth]
        if move == piles:
            rank, now_dealt = talon[now_dealt], now_dealt + 1
        else:
            if heights[move] == 0:
                continue
            rank = ranks[move, heights[move] - 1]
            if on >= 0:
                if dead_king and on == NUM_RANKS - 1:
                    continue
                step = (rank - on) % NUM_RANKS
                if not (step == 1 or step == NUM_RANKS - 1) or (
                    not wrap and (rank - on == NUM_RANKS - 1 or on - rank == NUM_RANKS - 1)
                ):
                    continue
            heights[move] -= 1
            cards += 1
        key = _key(heights, size, now_dealt, rank, talon_size)
        if kernel.set_contains(explored, key):
            if move < piles:
                heights[move] += 1
            continue
        explored, explored_count = kernel.set_insert(explored, explored_count, key)
        nodes += 1
        if nodes > max_nodes:
            return -1, nodes, most, path[:0]
        path[depth] = move
        depth += 1
        most = max(most, cards)
        if cards == remaining:
            return 1, nodes, most, path[:depth]
        foundations[depth], dealts[depth], played[depth], next_move[depth] = rank, now_dealt, cards, 0


@numba.njit(cache=True, _nrt=False)
def _key(heights, size, dealt, foundation, talon_size):
    """The explored set's key of a position."""
    key = (foundation + 1) * (talon_size + 1) + dealt
    for pile in range(heights.shape[0]):
        key = key * (size + 1) + heights[pile]
    return key
