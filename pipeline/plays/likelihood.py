"""How likely each player model makes the attempts observed: the test of which model plays like these players.

The models rank deals alike (a deal hard for one is hard for all), so a rank
correlation cannot tell them apart; their figures differ in size, and the
likelihood of what was observed weighs that. For one finished attempt at a
deal where the model has win chance *p* (one game without undo) and dead
ends *D* (with undo, back to the last position a win was open from):

- **without undo** (no ``undo`` event): each game is a trial won with chance
  *p*. An attempt of one game is one trial; an attempt restarted after lost
  games is several. With *k* its dead ends (games lost: without undo a game
  ends at its first dead end), its chance is (1 − *p*)^*k*, times *p* if won;
- **with undo**: its dead ends *k* follow the geometric law of mean *D* that
  the model's dead ends assume: P(*k*) = (1/(1+*D*)) · (*D*/(1+*D*))^*k* when
  won; an attempt not won after *k* dead ends is cut short (censored), with
  P(*K* ≥ *k*) = (*D*/(1+*D*))^*k*.

A move made right after a hint is the hint engine's choice, not the
player's (the gallery's hints are exact: they lead where a win is still
open), and the gallery's solution player records each step as a hint and
its move; counted, they would measure the hint engine. So an attempt is
counted only up to its first ``hint`` event (:func:`own_part`): what the
player did before it, as an attempt cut short there (not won), and its moves
from the hint on are left out and counted (:class:`Counted`).

An attempt that says nothing (not won, no dead end) is not counted. Every
chance is held within [:data:`FLOOR`, 1 − :data:`FLOOR`], so that one
attempt a model calls impossible does not rule it out on its own. A model's
score is the mean log-likelihood per attempt counted; the highest is the best
predictor. ``exp`` of the score is the typical chance the model gave one attempt.

>>> from pipeline.game.players import PlayerFigures
>>> from datetime import datetime, UTC
>>> from pipeline.plays.exports import Attempt, Outcome
>>> won = Attempt("a", datetime.now(UTC), datetime.now(UTC), 9.0, Outcome.WON, (1,), 51, 2, 0, 0, 0, 3, 51, False)
>>> round(log_likelihood(won, PlayerFigures(0.01, 3.0)), 6) == round(3 * math.log(0.75) + math.log(0.25), 6)
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from pipeline.game.deal import Deal
from pipeline.game.players import PLAYERS, Player, PlayerFigures
from pipeline.plays.events import Action, replay_events
from pipeline.plays.exports import Attempt, Outcome
from pipeline.plays.observed import hinted_moves
from pipeline.plays.played import PlayedPack

FLOOR = 1e-6
"""The least chance any attempt is given, and 1 − the most."""


def counted(attempt: Attempt) -> bool:
    """Whether ``attempt`` counts in a likelihood: finished, and won or with a dead end."""
    return attempt.finished and (attempt.won or attempt.dead_ends > 0)


def own_part(attempt: Attempt, deal: Deal) -> Attempt:
    """``attempt`` up to its first ``hint`` event, the player's own play (see the module): itself when it
    has no hint, else an attempt cut short before the hint (abandoned, with the counts of its events
    before it, replayed on ``deal``)."""
    events = list(attempt.events)
    if Action.HINT.value not in events:
        return attempt
    before = events[: events.index(Action.HINT.value)]
    tally = replay_events(deal, before)
    counts: dict[str, Any] = tally.counts()
    return replace(attempt, events=tuple(before), outcome=Outcome.ABANDONED, clean=False, **counts)


def log_likelihood(attempt: Attempt, figures: PlayerFigures) -> float:
    """The log of the chance a model with ``figures`` gives the counted ``attempt`` (see the module)."""
    k = attempt.dead_ends
    if attempt.undos == 0:
        p = _held(figures.win_probability)
        return k * math.log(1 - p) + (math.log(p) if attempt.won else 0.0)
    stay = _held(figures.dead_ends / (1 + figures.dead_ends))
    return k * math.log(stay) + (math.log(1 - stay) if attempt.won else 0.0)


def _held(chance: float) -> float:
    return min(max(chance, FLOOR), 1 - FLOOR)


@dataclass(frozen=True)
class ModelFit:
    """How likely one model makes the attempts counted: their number, with undo and without, and the mean
    log-likelihood per attempt."""

    player: Player
    attempts: int
    with_undo: int
    mean: float | None  # None when no attempt counts

    @property
    def typical_chance(self) -> float | None:
        """exp(mean): the chance the model gave a typical attempt."""
        return None if self.mean is None else math.exp(self.mean)


@dataclass(frozen=True)
class Counted:
    """What the likelihood counts of the finished attempts at the deals played and graded: the attempts
    counted and the deals they are at; the moves left out (those from an attempt's first hint on), how
    many of them came right after a hint, and the attempts cut short at a hint."""

    attempts: int
    deals: int
    left_out: int
    hinted_left_out: int
    cut_at_hint: int


def counted_attempts(played: PlayedPack) -> tuple[list[tuple[Attempt, Sequence[PlayerFigures]]], Counted]:
    """The own part (:func:`own_part`) of each finished attempt at the deals of ``played`` with figures that
    counts, with the deal's figures; and what was counted and left out."""
    pairs: list[tuple[Attempt, Sequence[PlayerFigures]]] = []
    deals = left_out = hinted_left_out = cut = 0
    for deal in played.records.deals:
        packed = played.pack.deals[deal.deal_id]
        if packed.figures is None:
            continue
        before = len(pairs)
        for attempt in deal.attempts:
            if not attempt.finished:
                continue
            own = own_part(attempt, packed.deal)
            if own is not attempt:
                cut += 1
                left_out += attempt.moves - own.moves
                hinted_left_out += hinted_moves(attempt.events)
            if counted(own):
                pairs.append((own, packed.figures))
        deals += len(pairs) > before
    return pairs, Counted(len(pairs), deals, left_out, hinted_left_out, cut)


def model_fits(played: PlayedPack) -> dict[Player, ModelFit]:
    """Each model's :class:`ModelFit` over the counted attempts at the deals of ``played`` with figures."""
    return fits_of(counted_attempts(played)[0])


def fits_of(pairs: Sequence[tuple[Attempt, Sequence[PlayerFigures]]]) -> dict[Player, ModelFit]:
    """Each model's :class:`ModelFit` over the counted ``pairs`` (an attempt and its deal's figures)."""
    with_undo = sum(attempt.undos > 0 for attempt, _ in pairs)
    fits = {}
    for number, player in enumerate(PLAYERS):
        total = math.fsum(log_likelihood(attempt, figures[number]) for attempt, figures in pairs)
        fits[player] = ModelFit(player, len(pairs), with_undo, total / len(pairs) if pairs else None)
    return fits


def best_model(fits: dict[Player, ModelFit]) -> Player | None:
    """The model with the highest mean log-likelihood (the weaker of two equal); None when no attempt counts."""
    scored = [
        (fit.mean, -PLAYERS.index(player), player) for player, fit in fits.items() if fit.mean is not None
    ]
    return max(scored)[2] if scored else None
