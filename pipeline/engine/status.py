"""How a compiled search or game-tree walk ended: one status for both, since they end the same ways.

A search ends REACHED or MISSED, a walk EXACT or OVERFLOW, and either runs
out of its budget (nodes searched, positions entered) first: OUT_OF_BUDGET,
when nothing is claimed. The values differ from one another and from
:data:`pipeline.engine.kernel.GROW`, which a loop returns to have its table
doubled (tests/engine/test_kernel.py checks).

>>> Status.OUT_OF_BUDGET.value, Status(1).name
(-1, 'REACHED')
"""

from __future__ import annotations

from enum import IntEnum


class Status(IntEnum):
    """How a compiled search or walk ended.

    The compiled code reads each member's ``.value``: Numba does no arithmetic on enums.
    """

    OVERFLOW = -2
    """A walk's count would have passed 2**62: nothing is claimed."""
    OUT_OF_BUDGET = -1
    """The budget of nodes or positions ran out first: nothing is claimed."""
    MISSED = 0
    """A search: every line was searched (up to sound reductions) and none reaches the target."""
    REACHED = 1
    """A search: the target was reached; the path holds the moves."""
    EXACT = 2
    """A walk: it finished, and every figure is exact."""


WALK_ENDS = (Status.EXACT, Status.OUT_OF_BUDGET, Status.OVERFLOW)
"""The ways a game-tree walk may end: each names the pack's ``grade_status`` of a walked deal."""
