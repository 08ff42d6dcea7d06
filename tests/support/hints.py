"""The gallery's hint, answered in Python: the reference its in-browser solver is checked against.

A hint after ``moves`` from the start of a deal is either a winning move
(when a win exists from there), or the fewest moves to take back to reach a
position from which a win exists (None when even the start is lost).
:func:`random_play_positions` gives the positions to ask about: prefixes of
random playouts, the way a player who plays without a plan gets lost.

>>> from pipeline.game.shuffles import seeded_deal
>>> deal = seeded_deal(1, 0)
>>> answer = hint_of(deal, [])
>>> answer.winnable, answer.undo
(True, 0)
>>> Position.after(deal, [answer.move]).cards_played
1
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from pipeline.engine.solver import solve
from pipeline.game.deal import Deal
from pipeline.game.rules import Position
from pipeline.game.verdicts import Verdict


class HintBudgetError(RuntimeError):
    """The solver's budget ran out before the hint was known."""


@dataclass(frozen=True)
class Hint:
    """The answer to a hint: a winning ``move`` when ``winnable``; else ``undo`` moves back (None: never)."""

    winnable: bool
    move: int | None
    undo: int | None


def hint_of(deal: Deal, moves: list[int]) -> Hint:
    """The hint after ``moves`` from the start of ``deal``.

    Along one line of play the winnable positions come first: a position
    before a winnable one can be won by playing on to it. So the last
    winnable position of the line is found by bisection.
    """
    found = _solved(deal, moves)
    if found is not None:
        return Hint(True, found[0] if found else None, 0)
    if _solved(deal, []) is None:
        return Hint(False, None, None)
    winnable, lost = 0, len(moves)  # moves[:winnable] can be won, moves[:lost] cannot
    while lost - winnable > 1:
        middle = (winnable + lost) // 2
        if _solved(deal, moves[:middle]) is None:
            lost = middle
        else:
            winnable = middle
    return Hint(False, None, len(moves) - winnable)


def agrees(deal: Deal, moves: list[int], expected: Hint, answer: dict[str, Any]) -> bool:
    """Whether another solver's ``answer`` after ``moves`` (``{"kind": "win", "move": pile}`` or
    ``{"kind": "lost", "undo": k or None}``, as the gallery's solver gives) agrees with ``expected``.

    A winning move other than Python's agrees when a win still exists after it.
    """
    if not expected.winnable:
        return answer.get("kind") == "lost" and answer.get("undo") == expected.undo
    move = answer.get("move")
    if answer.get("kind") != "win" or move is None:
        return False
    if move == expected.move:
        return True
    if move not in Position.after(deal, moves).legal_moves():
        return False
    return Position.after(deal, [*moves, move]).is_won or _solved(deal, [*moves, move]) is not None


def _solved(deal: Deal, moves: list[int]) -> tuple[int, ...] | None:
    """A winning line after ``moves``, or None when there is none."""
    result = solve(deal, start=Position.after(deal, moves))
    if result.verdict is Verdict.UNKNOWN:
        raise HintBudgetError(f"no verdict after {moves}")
    return result.solution if result.verdict is Verdict.SOLVED else None


def random_play_positions(deal: Deal, rng: random.Random, count: int) -> Iterator[list[int]]:
    """``count`` move lists from the start of ``deal``: each a random playout cut at a random length.

    A playout plays a uniformly random legal move until none is left; it is
    cut after a number of moves drawn uniformly from 0 to its length.
    """
    for _ in range(count):
        position, playout = Position.start(deal), []
        while legal := position.legal_moves():
            pile = rng.choice(legal)
            playout.append(pile)
            position = position.play(pile)
        yield playout[: rng.randint(0, len(playout))]
