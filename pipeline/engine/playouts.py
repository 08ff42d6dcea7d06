"""Play-outs: games played by a player model, move by move, to check the walk's exact figures by simulation.

:func:`play_games` plays ``games`` games of one player of the ladder from a
position, each move drawn from the player's policy
(:func:`pipeline.engine.policies.fill_chances`) with NumPy's generator seeded
by ``seed``. Without undo a game ends when no card fits: a win if none is left.
With undo, getting stuck is one dead end, and the player takes back moves to
the last position of the game from which a win exists (what the gallery's
hint tells), then chooses again by the same policy; the game ends at the win.
Which positions can be won is told by ``winnable`` (sorted keys, from
:func:`pipeline.engine.gametree.winnable_keys`).

:func:`z_score` compares a simulation with an exact value. ``docs/players.md``
reports these checks on whole deals; the tests run them at small sizes.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

import numba
import numpy as np

from pipeline.engine.kernel import (
    child_key,
    free_cards,
    key_of,
    layout_steps,
    moves_in_pile_order,
    put_back,
    take,
)
from pipeline.engine.policies import NO_TALON, PLAYER_COUNT, fill_chances, new_scratch
from pipeline.engine.search import position_arrays
from pipeline.game.deal import NUM_PILES, Deal
from pipeline.game.players import PLAYERS, Player
from pipeline.game.rules import Position


@dataclass(frozen=True)
class Simulated:
    """What ``games`` play-outs of one player found: the wins (without undo) or the dead ends (with undo)."""

    games: int
    mean: float  # wins per game without undo; dead ends per game with undo
    variance: float  # of one game's outcome

    def z_score(self, exact: float, *, bernoulli: bool = False) -> float:
        """How many standard errors the simulated mean lies from ``exact`` (0 when both are certain).

        Without ``bernoulli`` the error is the games' own spread. With it (wins,
        each game 0 or 1, and ``exact`` a chance) the wins counted are compared
        with the binomial law of the exact chance, which holds even when no
        game was won: z is the normal quantile of the exact mid-p tail, P(X <
        wins) + P(X = wins) / 2 below the mean and its mirror above, so that |z|
        of 4 is as rare as the normal law says also when few wins are expected
        (9 wins where 2.47 are expected is 4.1 standard errors of the normal
        approximation, yet happens about once in 1,000 tries; here z is 3.2).
        """
        if bernoulli:
            return _binomial_z(round(self.mean * self.games), self.games, exact)
        spread = math.sqrt(self.variance / self.games)
        if spread == 0:
            return 0.0 if self.mean == exact else math.inf
        return (self.mean - exact) / spread


def _binomial_z(wins: int, games: int, chance: float) -> float:
    if chance <= 0 or chance >= 1:
        return 0.0 if wins == round(chance * games) else math.inf
    steps = (
        np.log(games - np.arange(games)) - np.log(np.arange(1, games + 1)) + math.log(chance / (1 - chance))
    )
    terms = np.exp(games * math.log1p(-chance) + np.concatenate(([0.0], np.cumsum(steps))))
    at = float(terms[wins])
    lower, upper = float(terms[:wins].sum()) + at / 2, float(terms[wins + 1 :].sum()) + at / 2
    normal = statistics.NormalDist()
    return -normal.inv_cdf(max(upper, 1e-300)) if upper < lower else normal.inv_cdf(max(lower, 1e-300))


def play_games(
    deal: Deal, start: Position, player: Player, games: int, seed: int, *, undo: bool, winnable: np.ndarray
) -> Simulated:
    """Play ``games`` games of ``player`` from ``start``; with ``undo`` the start must be winnable."""
    ranks, heights, _, _, foundation = position_arrays(deal, start)
    ahead, stack, nexts, counts = new_scratch(NUM_PILES)
    total, squares = _play(
        ranks, heights, foundation, deal.game.wrap, deal.game.dead_king, PLAYERS.index(player), games,
        seed, undo, winnable, ahead, stack, nexts, counts,
    )  # fmt: skip
    mean = total / games
    variance = max(squares / games - mean * mean, 0.0) * games / max(games - 1, 1)
    return Simulated(games, mean, variance)


@numba.njit(cache=True)
def _play(
    ranks, start_heights, start_foundation, wrap, dead_king, row, games, seed, undo, winnable, ahead, stack,
    nexts, counts,
):  # fmt: skip
    """The sum and the sum of squares, over ``games`` games, of each game's outcome (see :func:`play_games`)."""
    np.random.seed(seed)
    steps = layout_steps(ranks)
    start_left = 0
    for pile in range(NUM_PILES):
        start_left += start_heights[pile]
    moves = np.zeros((1, NUM_PILES), dtype=np.int64)
    chances = np.zeros((PLAYER_COUNT, NUM_PILES), dtype=np.float64)
    played = np.zeros(start_left + 1, dtype=np.int64)  # the piles played, in order
    foundations = np.zeros(start_left + 1, dtype=np.int64)  # the foundation rank before each move
    keys = np.zeros(start_left + 1, dtype=np.int64)  # each position's key along the game
    total = squares = 0.0
    for _ in range(games):
        heights = start_heights.copy()
        tops = free_cards(ranks, heights)
        foundation, depth = start_foundation, 0
        keys[0] = key_of(steps, heights, foundation)
        outcome = 0.0
        while depth < start_left:
            count = moves_in_pile_order(ranks, heights, tops, foundation, False, wrap, dead_king, 0, moves, 0)
            if count == 0:
                if not undo:
                    break
                outcome += 1.0  # a dead end: back to the last position a win exists from
                while not _contains(winnable, keys[depth]):
                    depth -= 1
                    put_back(ranks, heights, tops, played[depth])
                    foundation = foundations[depth]
                continue
            fill_chances(
                ranks, heights, tops, foundation, NO_TALON, 0, start_left - depth, wrap, dead_king, moves, 0,
                count, 0, chances, ahead, stack, nexts, counts,
            )  # fmt: skip
            draw, index, cumulative = np.random.random(), -1, 0.0
            for move in range(count):  # the first move whose chances so far pass the draw
                if chances[row, move] > 0:
                    index = move
                    cumulative += chances[row, move]
                    if draw < cumulative:
                        break
            pile = moves[0, index]
            keys[depth + 1] = child_key(ranks, steps, heights, keys[depth], pile)
            played[depth], foundations[depth] = pile, foundation
            foundation = take(ranks, heights, tops, pile)
            depth += 1
        if not undo and depth == start_left:
            outcome = 1.0
        total += outcome
        squares += outcome * outcome
    return total, squares


@numba.njit(cache=True, _nrt=False)
def _contains(sorted_keys, key) -> bool:
    at = np.searchsorted(sorted_keys, key)
    return at < sorted_keys.shape[0] and sorted_keys[at] == key
