"""The sound reductions of the engine's searches and walk: one set of flags for every game.

A search or a walk is given the reductions it may use as the bits of one
``flags`` number; tests switch a reduction off to check that no verdict,
longest play or figure changes. Each is proved where it is used: the
conditions in :mod:`pipeline.engine.conditions`, dominance and the
longest play's order in :mod:`pipeline.engine.search`, the walk's own in
:mod:`pipeline.engine.gametree`. A reduction that does not apply to a game
(Golf's runs where ranks wrap, say) is simply not asked there.

>>> int(Reduction.EULER | Reduction.ORDER)
10
"""

from __future__ import annotations

from enum import IntFlag


class Reduction(IntFlag):
    """The reductions a search or walk may use, as bits of its ``flags``.

    The compiled code reads each member's ``.value``: Numba does no arithmetic on enums.
    """

    REACHABILITY = 1
    """Rank reachability: every rank left must be reachable from the foundation's."""
    EULER = 2
    """The Euler walk condition, with the last card a bottom card (and reachability with it); in games with a
    talon or an empty foundation, once no wildcard is left and ranks wrap."""
    DOMINANCE = 4
    """Same-rank dominance among free cards (any target)."""
    ORDER = 8
    """The rank order condition; it builds on the Euler walk condition."""
    SIBLINGS = 16
    """The game-tree walk's own: a move is lost when a sibling move proved lost stands in for it by same-rank
    dominance (proved in :mod:`pipeline.engine.gametree`)."""
    RUNS = 32
    """Golf's runs between talon deals: parity and the end ranks, without wrap."""
    PREDECESSORS = 64
    """Each pile card played needs its own predecessor of a neighbouring rank (Hall's condition)."""
    TOP_FIRST = 128
    """Not a reduction but an order: where ranks wrap, a lost deal's longest play first asks for all but one card."""
