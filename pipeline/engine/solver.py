"""The exact solver: verdicts, solutions and the longest play, from any position.

:func:`solve` asks the compiled search (:mod:`pipeline.engine.search`) whether every
card left can be played. A win comes with its moves, replayed by
:mod:`pipeline.game.rules` before it is returned (once: a win that does not
replay is a :class:`SolverBug`, an internal error, never a user's); a loss is a proof by exhaustive
search, cut only by sound reductions (same-rank dominance, and the necessary
conditions of :mod:`pipeline.engine.conditions`, each proved in its docstring and
checked by switching it off in the tests). A node budget stops the search
with ``unknown``, never a guess. Deals of All in a Row and the Golfs go to
:mod:`pipeline.engine.family_search` instead, with the same promises.

For a lost deal the most cards that can be played is found by asking the
same search for rising targets, from the deepest line the verdict search
saw, until one is missed. A target near the top is cheap to settle, since a
line that reaches it may leave only a card or two, which the Euler walk
condition checks hard. If the budget runs out there, the most cards played
is left unknown (None) rather than guessed.

>>> from pipeline.game.deal import Deal, EXAMPLE_BOARD
>>> result = solve(Deal.from_board_text(EXAMPLE_BOARD))   # PySol FC deal 1
>>> result.verdict.value, result.max_cards_played
('unsolvable', 3)
>>> from pipeline.game.shuffles import seeded_deal
>>> result = solve(seeded_deal(1, 0))
>>> result.verdict.value, len(result.solution)
('solved', 51)
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass

import numpy as np

from pipeline.engine.budgets import DEFAULT_MAX_NODES
from pipeline.engine.kernel import new_table
from pipeline.engine.reductions import Reduction
from pipeline.engine.search import SearchStatus, search
from pipeline.errors import InternalError
from pipeline.game.cards import rank_of
from pipeline.game.deal import Deal
from pipeline.game.games import BLACK_HOLE
from pipeline.game.rules import WINNING_LENGTH, IllegalMove, Position, replay
from pipeline.game.verdicts import SolveResult, Verdict


@dataclass(frozen=True)
class SearchOptions:
    """Which reductions the search uses (all by default; tests switch them off)."""

    reachability: bool = True
    euler: bool = True
    dominance: bool = True
    order: bool = True  # the rank order condition; it builds on the Euler walk condition
    runs: bool = True  # Golf's runs between talon deals (the family search's own)
    predecessors: bool = True  # each card played needs a predecessor of its own (the family search's own)
    top_first: bool = True  # an order: a lost deal's longest play first asks for all cards but one (family)

    @property
    def flags(self) -> Reduction:
        """The reductions switched on, as the search's flags (a search asks only those that apply to its game).

        >>> SearchOptions(euler=False, runs=False, predecessors=False, top_first=False).flags
        <Reduction.REACHABILITY|DOMINANCE: 5>
        """
        chosen = Reduction(0)
        for reduction, used in (
            (Reduction.REACHABILITY, self.reachability),
            (Reduction.EULER, self.euler),
            (Reduction.DOMINANCE, self.dominance),
            (Reduction.ORDER, self.order and self.euler),
            (Reduction.RUNS, self.runs),
            (Reduction.PREDECESSORS, self.predecessors),
            (Reduction.TOP_FIRST, self.top_first),
        ):
            if used:
                chosen |= reduction
        return chosen


def solve(
    deal: Deal,
    *,
    max_nodes: int = DEFAULT_MAX_NODES,
    start: Position | None = None,
    options: SearchOptions = SearchOptions(),
    longest_play: bool = True,
) -> SolveResult:
    """Solve ``deal`` from ``start`` (default: its opening position).

    The solution lists the piles to play from ``start`` on; ``max_nodes``
    bounds the positions searched, for the verdict and the longest play of
    a lost deal together, so ``nodes`` never passes it (the longest play
    gets what the verdict left; without ``longest_play``, not sought: a
    loss's ``max_cards_played`` is None). A deal of another game of the family goes
    to :mod:`pipeline.engine.family_search`, and its ``max_cards_played``
    counts pile cards only (a Golf win plays 35, whatever talon is left).
    """
    if deal.game is not BLACK_HOLE:
        return _solve_family(deal, max_nodes, start, options, longest_play)
    _compile_search()
    began = time.perf_counter()
    position = start or Position.start(deal)
    ranks = np.array([[rank_of(card) for card in pile] for pile in deal.piles], dtype=np.int64)
    heights = np.array(position.heights, dtype=np.int64)
    foundation, flags, left = position.foundation_rank, int(options.flags), sum(position.heights)
    assert foundation is not None  # Black Hole's foundation is never empty
    found, nodes, deepest, path, _ = search(ranks, heights, foundation, left, max_nodes, flags, new_table())
    status = SearchStatus(int(found))
    base = position.cards_played
    if status is SearchStatus.REACHED:
        solution = tuple(int(pile) for pile in path)
        _certify(deal, solution, position)
        return SolveResult(Verdict.SOLVED, solution, int(nodes), time.perf_counter() - began, WINNING_LENGTH)
    if status is SearchStatus.OUT_OF_NODES:
        return SolveResult(Verdict.UNKNOWN, (), int(nodes), time.perf_counter() - began, None)
    if not longest_play:
        return SolveResult(Verdict.UNSOLVABLE, (), int(nodes), time.perf_counter() - began, None)
    longest, more_nodes = _longest_play(
        ranks, heights, foundation, int(deepest), max_nodes - int(nodes), flags
    )
    most = None if longest is None else base + longest
    return SolveResult(Verdict.UNSOLVABLE, (), int(nodes + more_nodes), time.perf_counter() - began, most)


def _solve_family(
    deal: Deal, max_nodes: int, start: Position | None, options: SearchOptions, longest_play: bool
) -> SolveResult:
    """:func:`solve` for All in a Row and the Golfs, by :func:`~pipeline.engine.family_search.family_solve`."""
    from pipeline.engine.family_search import family_solve

    _compile_family_search()
    began = time.perf_counter()
    position = start or Position.start(deal)
    status, moves, nodes, most = family_solve(deal, position, max_nodes, int(options.flags), longest_play)
    if status is SearchStatus.REACHED:
        _certify(deal, moves, position)
        return SolveResult(Verdict.SOLVED, moves, nodes, time.perf_counter() - began, deal.game.pile_cards)
    if status is SearchStatus.OUT_OF_NODES:
        return SolveResult(Verdict.UNKNOWN, (), nodes, time.perf_counter() - began, None)
    played = None if most is None else position.cards_played + most
    return SolveResult(Verdict.UNSOLVABLE, (), nodes, time.perf_counter() - began, played)


@functools.cache
def _compile_family_search() -> None:
    """Compile the family search (or load it from Numba's cache) once per process, before any clock starts."""
    from pipeline.engine.family_search import family_solve
    from pipeline.game.games import ALL_IN_A_ROW, GOLF
    from pipeline.game.shuffles import seeded_deal

    for game in (ALL_IN_A_ROW, GOLF):  # a hash-set memo, then a bit-array one
        deal = seeded_deal(0, 0, game)
        family_solve(deal, Position.start(deal), 1, 0)


class SolverBug(InternalError):
    """The solver reported a win that the rules reject: a bug in the solver, never in the deal."""


def _certify(deal: Deal, solution: tuple[int, ...], start: Position) -> None:
    """Replay ``solution`` from ``start`` by the rules; SolverBug naming the deal and the move if it is not a win.

    This is the one replay of a win the solver found: the stages and the
    command line take the solver's word after it.
    """
    try:
        replay(deal, solution, start=start)
    except IllegalMove as error:
        raise SolverBug(
            f"this is a bug in blackhole, not in the deal: the solver's solution does not replay ({error}); "
            f"deal:\n{deal.to_board_text()}"
        ) from None


@functools.cache
def _compile_search() -> None:
    """Compile the search (or load it from Numba's cache) once per process, before any clock starts."""
    search(np.zeros((17, 3), dtype=np.int64), np.zeros(17, dtype=np.int64), 0, 0, 1, 0, new_table())


def _longest_play(
    ranks: np.ndarray, heights: np.ndarray, foundation: int, known: int, max_nodes: int, flags: int
) -> tuple[int | None, int]:
    """The most cards playable from a lost position, at least ``known``; returns (cards or None, nodes).

    Targets rise from ``known + 1`` until one is missed; they share one table
    of positions that missed, which stay missed for any higher target. All
    cards but one is the most there can be, a win having been refuted.
    """
    nodes, table, left = 0, new_table(), int(heights.sum())
    for target in range(known + 1, left):
        if nodes >= max_nodes:  # a search counts its start: with no budget left it would pass the limit
            return None, nodes
        status, searched, _, _, table = search(
            ranks, heights, foundation, target, max_nodes - nodes, flags, table
        )
        nodes += int(searched)
        if status == SearchStatus.MISSED:
            return target - 1, nodes
        if status == SearchStatus.OUT_OF_NODES:
            return None, nodes
    return left - 1, nodes
