"""Necessary conditions for a position to be winnable, compiled for the search.

A position is summed up here by ``counts[r]``, the number of cards of rank
``r`` still in the piles, and ``foundation``, the rank on the foundation. Both
conditions ignore which pile a card is in and in what order the piles hold
them, so they can only throw away positions that truly cannot be won.

**Rank reachability.** Every future foundation rank is reached from the
current one by ±1 steps, and stepping onto rank ``r`` plays a card of rank
``r``. So the ranks that can ever be reached are the foundation's and the run
of ranks with cards left on each side of it around the circle; a rank outside
that arc that still holds cards can never be played, and the position is
lost.

**Euler walk.** A win from here plays the remaining cards as a walk on the
13-cycle of ranks that starts at the foundation rank ``s``, ends at some rank
``t`` with cards left, and arrives at every rank ``v`` exactly ``counts[v]``
times. Let ``x[v]`` be how often the walk crosses the edge between ranks
``v`` and ``v + 1``. Each arrival at ``v`` uses one edge into ``v`` and (but
for the last arrival) one edge out, and the start leaves ``s`` once, so

    x[v - 1] + x[v] = 2 * counts[v] + [v == s] - [v == t]   for every v.

On a cycle of odd length this system has exactly one solution, found by
alternating sums. A walk exists only if, for some ``t``, that solution is a
set of non-negative integers and the edges used (``x > 0``) connect ``s`` to
every rank with cards left; conversely such edge counts always make an Euler
trail from ``s`` to ``t`` (the degrees are even but at the ends), so this is
exactly the condition for the multiset of ranks to be walkable at all. Pile
order is ignored, so the condition is necessary for a win, never sufficient.
It implies rank reachability: a rank without cards (other than ``s`` and
``t``) has ``x = 0`` on both sides and breaks the cycle there. One fact about
piles sharpens it for free: the last card played is the last card left, so
it is the bottom card of its pile, and ``t`` need only range over the ranks of
the bottom cards of non-empty piles.

>>> import numpy as np
>>> counts = np.zeros(13, dtype=np.int64)
>>> counts[1] = 2            # two 2s left, foundation on an A
>>> bool(euler_walkable(counts, 0))    # A-2 then 2-? : the second 2 needs an A or 3 between
False
>>> counts[2] = 1            # 2, 3, 2 is a walk
>>> bool(euler_walkable(counts, 0))
True
>>> bool(ranks_reachable(counts, 5))  # from a 6, ranks 2-3 cannot be reached (4, 5 empty)
False
"""

from __future__ import annotations

import numba
import numpy as np

NUM_RANKS = 13


@numba.njit(cache=True)
def _arc(counts: np.ndarray, foundation: int) -> tuple[int, int]:
    """How far the run of ranks with cards reaches above and below ``foundation``."""
    up = 0
    while up < NUM_RANKS - 1 and counts[(foundation + up + 1) % NUM_RANKS] > 0:
        up += 1
    down = 0
    while down < NUM_RANKS - 1 - up and counts[(foundation - down - 1) % NUM_RANKS] > 0:
        down += 1
    return up, down


@numba.njit(cache=True)
def _within(rank: int, foundation: int, up: int, down: int) -> bool:
    return (rank - foundation) % NUM_RANKS <= up or (foundation - rank) % NUM_RANKS <= down


@numba.njit(cache=True)
def ranks_reachable(counts: np.ndarray, foundation: int) -> bool:
    """Rank reachability: every rank with cards lies on the arc reachable from ``foundation``."""
    up, down = _arc(counts, foundation)
    for rank in range(NUM_RANKS):
        if counts[rank] > 0 and not _within(rank, foundation, up, down):
            return False
    return True


@numba.njit(cache=True)
def reachable_cards(counts: np.ndarray, foundation: int) -> int:
    """Cards left in the ranks reachable from ``foundation``: an upper bound on cards still playable.

    >>> import numpy as np
    >>> int(reachable_cards(np.array([1, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 3]), 0))
    6
    """
    up, down = _arc(counts, foundation)
    total = 0
    for rank in range(NUM_RANKS):
        if _within(rank, foundation, up, down):
            total += counts[rank]
    return total


@numba.njit(cache=True)
def euler_walkable(counts: np.ndarray, foundation: int, end_ranks: int = (1 << NUM_RANKS) - 1) -> bool:
    """Euler walk condition: the remaining ranks can be played as one ±1 walk from ``foundation``.

    ``end_ranks`` is a bit mask of the ranks the walk may end on (the last card
    played is the bottom card of some pile, so callers may pass those ranks).
    """
    total = 0
    alternating = 0
    for rank in range(NUM_RANKS):
        total += counts[rank]
        alternating += counts[rank] if rank % 2 == 0 else -counts[rank]
    if total == 0:
        return True
    # alternating sum of the demands 2*counts + [v == s], before the end's -1
    alternating = 2 * alternating + (1 if foundation % 2 == 0 else -1)
    for end in range(NUM_RANKS):
        if counts[end] == 0 or not (end_ranks >> end) & 1:
            continue
        twice_last = alternating - (1 if end % 2 == 0 else -1)
        if twice_last < 0:
            continue
        previous = twice_last // 2  # crossings of the edge K-A
        feasible = True
        up_blocked = -1  # first edge above the foundation that is never crossed
        down_blocked = -1  # first edge below the foundation that is never crossed
        for rank in range(NUM_RANKS):
            demand = 2 * counts[rank] + (1 if rank == foundation else 0) - (1 if rank == end else 0)
            crossing = demand - previous
            if crossing < 0:
                feasible = False
                break
            if crossing == 0:
                offset = (rank - foundation) % NUM_RANKS  # edge rank -> rank+1 is offset steps above
                if up_blocked < 0 or offset < up_blocked:
                    up_blocked = offset
                distance = (foundation - rank - 1) % NUM_RANKS  # steps below the foundation
                if down_blocked < 0 or distance < down_blocked:
                    down_blocked = distance
            previous = crossing
        if not feasible:
            continue
        if up_blocked < 0:
            return True  # every edge is crossed: all ranks connected
        # ranks reached: foundation + 0..up_blocked going up, foundation - 0..down_blocked going down
        connected = True
        for rank in range(NUM_RANKS):
            if counts[rank] > 0 and not _within(rank, foundation, up_blocked, down_blocked):
                connected = False
                break
        if connected:
            return True
    return False
