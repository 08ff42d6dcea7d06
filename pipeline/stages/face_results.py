"""Whether a solve result given to the face is of the deal it comes with: ``grade`` and ``crosscheck``
refuse one that is not.

A :class:`~pipeline.game.verdicts.SolveResult` does not carry its deal, so a
result of one deal could be handed in with another and graded as if it were
its own. The face checks each result where it enters (:func:`check_result`):

- its fields are of their types (TypeError naming the field) and within
  their ranges: counts not negative, ``max_cards_played`` at most the cards
  the deal's piles hold, a win's all of them, a solution only with a win;
- a win's solution is replayed by the rules on the deal: one that breaks a
  rule or ends before every pile is empty is of another deal;
- a claimed loss (for ``grade``) is solved again under the default node
  budget (:data:`~pipeline.engine.budgets.DEFAULT_MAX_NODES`): a win found
  there, or another longest play, shows it is of another deal. A result the
  solver gave costs its own search again (a loss of Black Hole takes some
  hundredths of a millisecond, one of Golf or All in a Row about one to ten
  milliseconds, at most some tens: far below a grade's walk); a loss the
  re-solve cannot decide within its budget is taken as given.

``crosscheck`` does not solve a loss again: checking the verdict is its own
work, and a wrong one is its answer (``agrees`` false), not an error.

Each failure is an :class:`~pipeline.errors.ArgumentError` naming the call
and the result: ``grade: result is not of deal pysol-1: ...``.

>>> from pipeline.game.shuffles import pysol_deal
>>> from pipeline.engine.solver import solve
>>> check_result(pysol_deal(2), solve(pysol_deal(3)), where="grade", losses=True)
Traceback (most recent call last):
...
pipeline.errors.ArgumentError: grade: result is not of deal pysol-2: its solution does not replay on it (move 1: ...)
"""

from __future__ import annotations

from typing import Any

from pipeline.engine.budgets import DEFAULT_MAX_NODES
from pipeline.errors import ArgumentError, located, of_type, real_number, whole_number
from pipeline.game.deal import Deal
from pipeline.game.rules import IllegalMove, moves_of, replay
from pipeline.game.verdicts import SolveResult, Verdict


def check_result(deal: Deal, result: SolveResult, *, where: str, name: str = "result", losses: bool) -> None:
    """Refuse ``result`` unless it may be ``deal``'s (see the module's docstring); ``losses``: solve a
    claimed loss again. Errors name ``where`` (the call) and ``name`` (the argument)."""
    solution = _checked_fields(deal, result, where=where, name=name)

    def refused(problem: str) -> ArgumentError:
        which = f"deal {deal.deal_id}" if deal.deal_id is not None else "this deal"
        return ArgumentError(located(f"{name} is not of {which}: {problem}", source=where))

    if result.verdict is Verdict.SOLVED:
        try:
            replay(deal, solution)
        except IllegalMove as error:
            raise refused(f"its solution does not replay on it ({error})") from None
        return
    if result.verdict is Verdict.UNSOLVABLE and losses:
        from pipeline.engine import solver  # the engine, which grade has loaded already

        again = solver.solve(
            deal, max_nodes=DEFAULT_MAX_NODES, longest_play=result.max_cards_played is not None
        )
        if again.verdict is Verdict.SOLVED:
            raise refused(f"it says the deal is lost, but the solver wins it in {len(again.solution)} moves")
        longest, claimed = again.max_cards_played, result.max_cards_played
        if again.verdict is Verdict.UNSOLVABLE and longest is not None and longest != claimed:
            raise refused(
                f"it says at most {claimed} cards can be played, but the deal's longest play is {longest}"
            )


def _checked_fields(deal: Deal, result: SolveResult, *, where: str, name: str) -> tuple[int, ...]:
    """``result``'s solution, once its fields are checked: of their types and within their ranges."""
    of_type(result.verdict, Verdict, f"{name}.verdict")
    moves_of(result.solution, f"{name}.solution")
    game = deal.game
    last = game.talon_move if game.has_talon else game.num_piles - 1
    solution = tuple(
        whole_number(move, f"{name}.solution[{step}]", lowest=0, highest=last, where=where)
        for step, move in enumerate(result.solution)
    )
    whole_number(result.nodes, f"{name}.nodes", lowest=0, where=where)
    real_number(result.seconds, f"{name}.seconds", lowest=0.0, where=where)
    cards = game.pile_cards
    played: Any = result.max_cards_played
    if played is not None:
        whole_number(played, f"{name}.max_cards_played", lowest=0, highest=cards, where=where)
    if result.verdict is Verdict.SOLVED and played not in (None, cards):
        raise ArgumentError(
            located(f"{name}.max_cards_played is {played}, but a win plays all {cards} cards", source=where)
        )
    if result.verdict is not Verdict.SOLVED and solution:
        raise ArgumentError(
            located(
                f"{name} says {result.verdict.value} but holds a solution of {len(solution)} moves",
                source=where,
            )
        )
    if result.verdict is Verdict.UNSOLVABLE and played == cards:
        raise ArgumentError(
            located(f"{name} says unsolvable but that all {cards} cards can be played", source=where)
        )
    return solution
