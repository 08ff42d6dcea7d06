"""A second opinion on a deal: an OR-Tools CP-SAT model of the play sequence, for every game of the family.

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

The other games change three things (:mod:`pipeline.game.games`):

- All in a Row numbers its 52 cards ``4 p + level``; its foundation starts
  empty, so ``rank_at[0]`` may be any rank.
- Golf's talon is a move like another, with its own order. The sequence has
  51 steps: the 35 pile cards (``5 p + level``) and the 16 talon cards
  (numbered 35 on, in the order they are dealt, each before the next). A
  step that plays a talon card may follow any rank; a step that plays a pile
  card must fit the rank before it (or the foundation's starting card at
  step 0). A win may leave talon cards undealt, and dealing them after its
  last pile card always extends it to such a sequence; so a sequence exists
  exactly when a win does, and a win is the sequence cut after its last pile
  card.
- "Fits" is the game's rule (:func:`pipeline.game.games.fits`): no K–A wrap
  in Dead King Golf and Golf, and nothing on a King in Dead King Golf. The
  table of allowed pairs says so, one row per allowed ``(before, after)``.

Black Hole's model is the one above, constraint for constraint.

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
from pipeline.game.cards import NUM_RANKS, rank_of
from pipeline.game.deal import Deal
from pipeline.game.games import Game, fits
from pipeline.game.rules import replay
from pipeline.game.verdicts import Verdict

WALL_FACTOR = 4.0
LOSS_PROBING = 1
"""The presolve probing level that proves losses fastest (see the module docstring)."""
ONE_APART = [
    (a, b) for a in range(NUM_RANKS) for b in range(NUM_RANKS) if (a - b) % NUM_RANKS in (1, NUM_RANKS - 1)
]


def allowed_pairs(game: Game) -> list[tuple[int, int]]:
    """The ``(before, after)`` rank pairs ``game`` lets follow each other on the foundation.

    >>> from pipeline.game.games import BLACK_HOLE, game_named
    >>> allowed_pairs(BLACK_HOLE) == ONE_APART, (12, 11) in allowed_pairs(game_named("dead_king_golf"))
    (True, False)
    """
    return [(a, b) for a in range(NUM_RANKS) for b in range(NUM_RANKS) if fits(game, b, a)]


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
    game: Game

    def moves(self, cards: list[int]) -> tuple[int, ...]:
        """The moves of a win from the cards the model played in order: a pile's number for a pile card
        (numbered ``pile_size * p + level``), the talon move for a talon card; cut after the last pile card."""
        game = self.game
        moves = [card // game.pile_size if card < game.pile_cards else game.talon_move for card in cards]
        while moves and moves[-1] == game.talon_move:
            moves.pop()
        return tuple(moves)


def build_model(deal: Deal) -> PlayModel:
    """The model described in the module docstring, for ``deal``'s opening position."""
    game, size = deal.game, deal.game.pile_size
    ranks = [rank_of(card) for pile in deal.piles for card in pile]  # index pile_size * p + level
    ranks += [rank_of(card) for card in deal.talon]  # then the talon's, first dealt first
    steps = len(ranks)
    pairs = allowed_pairs(game)
    model = cp_model.CpModel()
    # a win plays every card in the piles (and, so extended, the talon): as many steps as cards to number
    card_at = [model.new_int_var(0, steps - 1, f"card_at_{t}") for t in range(steps)]
    step_of = [model.new_int_var(0, steps - 1, f"step_of_{c}") for c in range(steps)]
    model.add_inverse(card_at, step_of)
    rank_at = [model.new_int_var(0, NUM_RANKS - 1, f"rank_at_{t}") for t in range(steps)]
    for step in range(steps):
        model.add_element(card_at[step], ranks, rank_at[step])
    start = None if deal.foundation is None else rank_of(deal.foundation)  # None: All in a Row's, empty
    if deal.talon:
        assert start is not None  # Golf's foundation starts with a dealt card
        _add_talon_steps(model, game, card_at, rank_at, pairs, start)
    else:
        if start is not None:
            model.add_allowed_assignments([rank_at[0]], [(b,) for a, b in pairs if a == start])
        for step in range(1, steps):
            model.add_allowed_assignments([rank_at[step - 1], rank_at[step]], pairs)
    for pile in range(game.num_piles):
        for level in range(1, size):
            model.add(step_of[size * pile + level] < step_of[size * pile + level - 1])
    first_talon = game.pile_cards
    for card in range(first_talon + 1, steps):
        model.add(step_of[card - 1] < step_of[card])
    return PlayModel(model, card_at, game)


def _add_talon_steps(
    model: cp_model.CpModel,
    game: Game,
    card_at: list[cp_model.IntVar],
    rank_at: list[cp_model.IntVar],
    pairs: list[tuple[int, int]],
    start: int,
) -> None:
    """Golf's steps: a talon card (numbered from ``game.pile_cards`` on) follows any rank, a pile card must fit."""
    dealt = [model.new_bool_var(f"talon_at_{t}") for t in range(len(card_at))]
    for step, card in enumerate(card_at):
        model.add(card >= game.pile_cards).only_enforce_if(dealt[step])
        model.add(card < game.pile_cards).only_enforce_if(~dealt[step])
    anything = [(1, a, b) for a in range(NUM_RANKS) for b in range(NUM_RANKS)]
    fitting = [(0, a, b) for a, b in pairs]
    model.add_allowed_assignments(
        [dealt[0], rank_at[0]], [(1, b) for b in range(NUM_RANKS)] + [(0, b) for a, b in pairs if a == start]
    )
    for step in range(1, len(card_at)):
        model.add_allowed_assignments([dealt[step], rank_at[step - 1], rank_at[step]], anything + fitting)


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
        solution = play.moves([solver.value(card) for card in play.card_at])
        replay(deal, solution)
        return CpsatResult(Verdict.SOLVED, solution, time.perf_counter() - began)
    verdict = Verdict.UNSOLVABLE if status == cp_model.INFEASIBLE else Verdict.UNKNOWN
    return CpsatResult(verdict, (), time.perf_counter() - began)
