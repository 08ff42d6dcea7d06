"""The exact solver: verdicts, solutions and the longest play, from any position.

:func:`solve` asks the compiled search (:mod:`pipeline.engine.search`) whether every
card left can be played. A win comes with its moves, replayed by
:mod:`pipeline.game.rules` before it is returned (once: a win that does not
replay is a :class:`SolverBug`, an internal error, never a user's); a loss is a proof by exhaustive
search, cut only by sound reductions (same-rank dominance, and the necessary
conditions of :mod:`pipeline.engine.conditions`, each proved in its docstring and
checked by switching it off in the tests). A node budget stops the search
with ``unknown``, never a guess. Every game goes through here; the game's
layout chooses which of the search's two memos serves it (:func:`_solver_of`).

For a lost deal the most cards that can be played is found by the same
search, asked again with targets from the deepest line the verdict search
saw (:mod:`pipeline.engine.search` says how for each memo). If the budget
runs out there, the most cards played is left unknown (None) rather than
guessed.

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
from pipeline.engine.reductions import Reduction
from pipeline.engine.search import search, solve_position
from pipeline.engine.status import Status
from pipeline.errors import InternalError
from pipeline.game.deal import Deal
from pipeline.game.games import FoundationStart, Game
from pipeline.game.rules import IllegalMove, Position, replay
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

    The solution lists the moves to play from ``start`` on; ``max_nodes``
    bounds the positions searched, for the verdict and the longest play of
    a lost deal together, so ``nodes`` never passes it (the longest play
    gets what the verdict left; without ``longest_play``, not sought: a
    loss's ``max_cards_played`` is None). ``max_cards_played`` counts pile
    cards only (a Golf win plays 35, whatever talon is left).
    """
    keyed = keyed_by_heights(deal.game)
    _compile(keyed)
    began = time.perf_counter()
    position = start or Position.start(deal)
    status, moves, nodes, most = solve_position(
        deal, position, max_nodes, int(options.flags), keyed, longest_play
    )
    if status is Status.REACHED:
        _certify(deal, moves, position)
        return SolveResult(Verdict.SOLVED, moves, nodes, time.perf_counter() - began, deal.game.pile_cards)
    if status is Status.OUT_OF_BUDGET:
        return SolveResult(Verdict.UNKNOWN, (), nodes, time.perf_counter() - began, None)
    played = None if most is None else position.cards_played + most
    return SolveResult(Verdict.UNSOLVABLE, (), nodes, time.perf_counter() - began, played)


def keyed_by_heights(game: Game) -> bool:
    """Whether a position of ``game`` is its pile heights and foundation rank alone, every move playing a card
    (no talon, a foundation card from the start): the search then keeps a transposition table and the walk
    the same keys; otherwise the search marks positions (:mod:`pipeline.engine.search` says why each)."""
    return not game.has_talon and game.foundation_start is not FoundationStart.EMPTY


@functools.cache
def _compile(keyed: bool) -> None:
    """Compile the search (or load it from Numba's cache) once per process, before any clock starts."""
    ranks, heights = np.zeros((1, 1), dtype=np.int64), np.zeros(1, dtype=np.int64)
    search(ranks, heights, heights[:0], 0, 0, True, False, 0, False, 1, 0, keyed, False, heights[:0])


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
