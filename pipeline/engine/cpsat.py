"""A second opinion on a deal: an OR-Tools CP-SAT model of the 51-card play sequence.

The model is built from the deal alone and shares nothing with the search of
:mod:`pipeline.engine.solver` but the card ranks. It follows the position model of
Gent et al., "Search in the patience game Black Hole" (AI Communications,
2007). Cards are numbered ``3 p + level`` (level 0 at the bottom of pile
``p``):

- ``card_at[t]``, the card played at step ``t``, and ``step_of[c]``, the step
  at which card ``c`` is played, are inverse permutations of 0..50;
- ``rank_at[t]`` is the rank of ``card_at[t]`` (an element constraint);
- ``rank_at[0]`` is a 2 or a K (next to the A♠ on the foundation), and each
  pair ``(rank_at[t - 1], rank_at[t])`` is in the table of ranks one apart
  around the circle;
- in each pile the top card comes before the middle one, and the middle one
  before the bottom one.

Probing in presolve and the LP relaxation are switched off. With CP-SAT's
default parameters most of a winnable deal's time went to probing before the
search began, while the search itself needs few conflicts. Of the models and
parameters tried (this model with default parameters, with presolve off and
with a fixed search over ``card_at``; time-indexed booleans with default
parameters and with neither probing nor LP), this one found wins fastest and
proved losses as fast as any; docs/benchmarks.md has the table.

Proving a deal lost is another matter: there one round of probing pays for
itself, proving losses faster than none and than CP-SAT's default level of 2,
while on wins it costs time (docs/benchmarks.md gives both). So
:func:`cpsat_solve` takes the level, and the cross-check asks for
:data:`LOSS_PROBING` when the verdict it checks is a loss. It changes how fast
the answer comes, not what the answer is.

Symmetry breaking was tried and left out. Of two piles holding the same
ranks, the lower-numbered one may be made to play each level first (sound:
the pile swap of :mod:`pipeline.engine.search`'s dominance proof turns any win into
one where it does), but on the seeded deals that have such twins it made no
difference to show (docs/benchmarks.md).

The time limit is CP-SAT's *deterministic* time, so that the same deal and
limit give the same answer on every run and machine (a pack must not depend
on how busy the machine was); docs/benchmarks.md gives how it compared with
the wall clock on this project's machine. A wall-clock cap of
``WALL_FACTOR`` times the limit guards against a stalled machine; only that
cap could make an answer depend on timing.

>>> from pipeline.game.shuffles import seeded_deal
>>> result = cpsat_solve(seeded_deal(1, 0), time_limit=30)
>>> result.verdict.value, len(result.solution)
('solved', 51)
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ortools.sat.python import cp_model

from pipeline.engine.budgets import DEFAULT_TIME_LIMIT
from pipeline.game.cards import ACE_OF_SPADES, NUM_RANKS, rank_of
from pipeline.game.deal import NUM_PILES, PILE_SIZE, Deal
from pipeline.game.rules import WINNING_LENGTH, replay
from pipeline.game.verdicts import Verdict

FOUNDATION_RANK = rank_of(ACE_OF_SPADES)  # the card on the foundation at the start
WALL_FACTOR = 4.0
LOSS_PROBING = 1
"""The presolve probing level that proves losses fastest (see the module docstring)."""
ONE_APART = [
    (a, b) for a in range(NUM_RANKS) for b in range(NUM_RANKS) if (a - b) % NUM_RANKS in (1, NUM_RANKS - 1)
]


@dataclass(frozen=True)
class CpsatResult:
    """What CP-SAT said: a verdict, the piles to play when solved, and its wall-clock seconds."""

    verdict: Verdict
    solution: tuple[int, ...]
    seconds: float


@dataclass(frozen=True)
class PlayModel:
    """The CP-SAT model of a deal and the variables a solution is read from."""

    model: cp_model.CpModel
    card_at: list[cp_model.IntVar]


def build_model(deal: Deal) -> PlayModel:
    """The model described in the module docstring, for ``deal``'s opening position."""
    ranks = [rank_of(card) for pile in deal.piles for card in pile]  # index 3 p + level
    model = cp_model.CpModel()
    # a win plays every card in the piles: WINNING_LENGTH steps, as many as there are cards to number
    card_at = [model.new_int_var(0, WINNING_LENGTH - 1, f"card_at_{t}") for t in range(WINNING_LENGTH)]
    step_of = [model.new_int_var(0, WINNING_LENGTH - 1, f"step_of_{c}") for c in range(WINNING_LENGTH)]
    model.add_inverse(card_at, step_of)
    rank_at = [model.new_int_var(0, NUM_RANKS - 1, f"rank_at_{t}") for t in range(WINNING_LENGTH)]
    for step in range(WINNING_LENGTH):
        model.add_element(card_at[step], ranks, rank_at[step])
    model.add_allowed_assignments([rank_at[0]], [(b,) for a, b in ONE_APART if a == FOUNDATION_RANK])
    for step in range(1, WINNING_LENGTH):
        model.add_allowed_assignments([rank_at[step - 1], rank_at[step]], ONE_APART)
    for pile in range(NUM_PILES):
        for level in range(1, PILE_SIZE):
            model.add(step_of[PILE_SIZE * pile + level] < step_of[PILE_SIZE * pile + level - 1])
    return PlayModel(model, card_at)


def cpsat_solve(deal: Deal, *, time_limit: float = DEFAULT_TIME_LIMIT, probing_level: int = 0) -> CpsatResult:
    """Ask CP-SAT (one worker, ``time_limit`` deterministic seconds) whether ``deal`` can be won.

    ``probing_level`` is CP-SAT's presolve probing: 0 finds wins fastest,
    :data:`LOSS_PROBING` proves losses fastest.

    A solution is replayed by :mod:`pipeline.game.rules` before it is returned
    (IllegalMove would mean a wrong model). ``unknown`` when the limit ran out.
    """
    began = time.perf_counter()
    play = build_model(deal)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.cp_model_probing_level = probing_level
    solver.parameters.linearization_level = 0
    solver.parameters.max_deterministic_time = time_limit
    solver.parameters.max_time_in_seconds = WALL_FACTOR * time_limit
    solver.parameters.catch_sigint_signal = False  # Ctrl-C stops the command, not just this deal's search
    status = solver.solve(play.model)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        solution = tuple(solver.value(card) // PILE_SIZE for card in play.card_at)
        replay(deal, solution)
        return CpsatResult(Verdict.SOLVED, solution, time.perf_counter() - began)
    verdict = Verdict.UNSOLVABLE if status == cp_model.INFEASIBLE else Verdict.UNKNOWN
    return CpsatResult(verdict, (), time.perf_counter() - began)
