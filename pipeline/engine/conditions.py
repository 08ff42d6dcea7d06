"""Necessary conditions for a position to be winnable (or to play a target of cards), compiled for the search.

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

**Rank order** (:func:`walk_orders`). Pile order enters through the edge
counts. Fix an end ``t`` whose ``x`` passes the Euler condition. If some
edge is never crossed (``x = 0``) the walk lives on a line of ranks, and on
a line ``x`` is odd exactly on the edges between ``s`` and ``t``. An edge
crossed exactly once there is crossed on the way to ``t`` and never back,
so every card of a rank beyond it (seen from ``s``) is played after every
card of a rank before it. Give each rank the number of such edges between
``s`` and it, its level; ranks on the far side of ``s`` from ``t`` have
level 0. A card above another in a pile is played first, so it may not have
a higher level than the card under it. A win needs an end rank for which
no pile holds such a pair.

**In the other games of the family** (:func:`rules_out`; the Euler walk
and reachability are :data:`Reduction.EULER`, the rank order condition
:data:`Reduction.ORDER`). The conditions above assume that the cards left are played as
one ±1 walk on the 13-cycle from the foundation rank, with no wildcard.
That holds only once the foundation holds a card, no talon card is left,
and ranks wrap: in All in a Row after its first card (before it, any card
may start the walk, a wildcard), and in Relaxed Golf once the talon is
spent. There a position is exactly a Black Hole position on other piles,
and the proofs above apply word for word: for a target that plays
every pile card, the Euler walk condition with the last card a pile's
bottom card, and the rank order condition; for a target that spares
``s`` cards, the cards outside the ranks reachable from the foundation
must not outnumber ``s``. They do **not** carry over while a talon card is
left (a deal resets the foundation to any rank: the walk may break there),
nor to Golf and Dead King Golf at all (the ranks form a line, not a cycle,
and a King may end every walk).

**Runs** (:data:`Reduction.RUNS`, Golf's own). With a talon, the
cards played form runs: the current foundation then pile cards, and each
talon card dealt then pile cards, each run a ±1 walk. Without wrap the
ranks alternate in parity along a run, so a run whose start card has even
rank plays at most one more odd card than even ones, and one with an odd
start at most one more even card. With ``E`` (``O``) the even (odd) ranks
among the current foundation and the talon cards left, and ``D`` the
even-rank pile cards left minus the odd-rank ones, a line that plays every
pile card needs ``-E <= D <= O``. Likewise (no wrap) every Ace played
follows a 2 in its run, a pile 2 or a run's start, each 2 followed by one
card: the Aces left are at most the 2s left plus the 2s among the starts;
the same holds for Kings and Queens. A line that leaves ``u`` pile cards
unplayed changes each side of these inequalities by at most ``u``, so a
position whose worst shortfall exceeds the spare cards
``s`` (pile cards left minus those still to play) cannot reach the target.

**Predecessors** (:data:`Reduction.PREDECESSORS`, any game, where
the Euler walk condition does not apply). In every game of the family each
pile card played goes on the card played or dealt just before it: its
*predecessor*, a card of a neighbouring rank (K and A are neighbours when
ranks wrap; in Dead King Golf a King is no one's predecessor) that is a
pile card, the foundation, or a talon card still to be dealt, and no card
is the predecessor of two. So the pile cards a line plays are matched to
distinct predecessors, and by Hall's theorem (applied to the cards of a set
``R`` of ranks, whose possible predecessors are the cards of the ranks
next to ``R``) the pile cards of ranks ``R`` number at most the pile,
foundation and talon cards left of the ranks next to ``R``. A line that
leaves ``u`` pile cards unplayed lowers the left side by at most ``u`` and
never raises the right, so a position where some ``R`` falls short by more
than the spare cards ``s`` cannot reach the target. Only the sets
``R = {r, r + 2, ..., r + 2k}`` need checking: two ranks share a neighbour
only when they are two apart, so any ``R`` splits into such runs whose
neighbours are disjoint, and its shortfall is the sum of theirs; the
search asks each such run alone (weaker when cards are spared, still
sound), all of them in one pass (:func:`predecessor_shortfall`). Golf's
Ace and King conditions above are the case ``R = {A}`` and ``R = {K}``.
Where the Euler walk condition applies it is not asked: a walk meets it.

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

from pipeline.engine.kernel import POWERS_OF_5, code_of_counts, lowest_bit
from pipeline.engine.reductions import Reduction
from pipeline.game.cards import NUM_RANKS


@numba.njit(cache=True, _nrt=False)
def _arc(counts: np.ndarray, foundation: int) -> tuple[int, int]:
    """How far the run of ranks with cards reaches above and below ``foundation``."""
    up = 0
    while up < NUM_RANKS - 1 and counts[(foundation + up + 1) % NUM_RANKS] > 0:
        up += 1
    down = 0
    while down < NUM_RANKS - 1 - up and counts[(foundation - down - 1) % NUM_RANKS] > 0:
        down += 1
    return up, down


@numba.njit(cache=True, _nrt=False)
def _within(rank: int, foundation: int, up: int, down: int) -> bool:
    return (rank - foundation) % NUM_RANKS <= up or (foundation - rank) % NUM_RANKS <= down


@numba.njit(cache=True, _nrt=False)
def _covers(counts: np.ndarray, foundation: int, up: int, down: int) -> bool:
    """Whether every rank with cards lies at most ``up`` steps above or ``down`` below ``foundation``."""
    for rank in range(NUM_RANKS):
        if counts[rank] > 0 and not _within(rank, foundation, up, down):
            return False
    return True


@numba.njit(cache=True, _nrt=False)
def ranks_reachable(counts: np.ndarray, foundation: int) -> bool:
    """Rank reachability: every rank with cards lies on the arc reachable from ``foundation``."""
    up, down = _arc(counts, foundation)
    return _covers(counts, foundation, up, down)


@numba.njit(cache=True, _nrt=False)
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


ALL_RANKS = (1 << NUM_RANKS) - 1


@numba.njit(cache=True, _nrt=False)
def euler_walkable(counts: np.ndarray, foundation: int, end_ranks: int = ALL_RANKS) -> bool:
    """Euler walk condition: the remaining ranks can be played as one ±1 walk from ``foundation``.

    ``end_ranks`` is a bit mask of the ranks the walk may end on (the last card
    played is the bottom card of some pile, so callers may pass those ranks).

    Cost is linear in the ranks, not quadratic: write ``D[k] = 2 counts[k] +
    [k == s]``, ``A`` for its alternating sum and ``P[v] = D[v] - P[v-1]``.
    Solving the system for end ``t`` gives ``2 x[v] = E[v] + sign`` with the
    odd number ``E[v] = 2 P[v] - (-1)^v A`` and ``sign = (-1)^(v+t)`` when
    ``v < t``, ``-(-1)^(v+t)`` otherwise. So ``E[v] <= -3`` rules out every
    end, ``E[v] >= 3`` never blocks, and only edges with ``E[v] = ±1`` depend
    on ``t``: they are crossed once or not at all.
    """
    plus_one, minus_one, _, needed = _tight_edges(counts, foundation)
    if needed == 0:
        return True
    if plus_one < 0:
        return False
    ends = needed & end_ranks
    for end in range(NUM_RANKS):
        if (ends >> end) & 1 and _walk_to(end, foundation, plus_one, minus_one, needed)[0] != _NO_WALK:
            return True
    return False


_EVEN_EDGES = sum(1 << edge for edge in range(0, NUM_RANKS, 2))


@numba.njit(cache=True, _nrt=False)
def _tight_edges(counts: np.ndarray, foundation: int) -> tuple[int, int, int, int]:
    """The edges with ``E[v]`` = +1, -1 and +3 (see :func:`euler_walkable`), as bit sets, and the ranks with cards.

    The first set is -1 when some ``E[v] <= -3``: then no end works.
    """
    alternating = 0
    for rank in range(NUM_RANKS):
        demand = 2 * counts[rank] + (1 if rank == foundation else 0)
        alternating += demand if rank % 2 == 0 else -demand
    needed = plus_one = minus_one = plus_three = 0
    blocked = False
    partial = 0  # P[v]
    for edge in range(NUM_RANKS):
        demand = 2 * counts[edge] + (1 if edge == foundation else 0)
        partial = demand - partial
        twice = 2 * partial - (alternating if edge % 2 == 0 else -alternating)
        if twice <= -3:
            blocked = True
        elif twice == 1:
            plus_one |= 1 << edge
        elif twice == -1:
            minus_one |= 1 << edge
        elif twice == 3:
            plus_three |= 1 << edge
        if counts[edge] > 0:
            needed |= 1 << edge
    return (-1 if blocked else plus_one), minus_one, plus_three, needed


_NO_WALK, _CYCLE, _LINE = range(3)


@numba.njit(cache=True, _nrt=False)
def _walk_to(end: int, foundation: int, plus_one: int, minus_one: int, needed: int) -> tuple[int, int, int]:
    """Whether the edge counts allow a walk ending on ``end`` (arguments from :func:`_tight_edges`).

    Returns (_NO_WALK, 0, 0) when an edge would be crossed -1 times or the
    crossed edges miss a rank with cards, (_CYCLE, 0, 0) when every edge is
    crossed, and otherwise (_LINE, up, down): the steps up and down from the
    foundation before the first edges never crossed.
    """
    positive = _positive_edges(end)
    if minus_one & ~positive:
        return _NO_WALK, 0, 0
    never = (plus_one & ~positive) | (minus_one & positive)
    if never == 0:
        return _CYCLE, 0, 0
    up, down = _reach(never, foundation)
    if needed & ~_arc_ranks(foundation, up, down):
        return _NO_WALK, 0, 0
    return _LINE, up, down


@numba.njit(cache=True, _nrt=False)
def _positive_edges(end: int) -> int:
    """The edges ``v`` whose sign is +1 for a walk ending on ``end``: ``v < end`` of its parity, the rest of the other."""
    below = (1 << end) - 1
    same = _EVEN_EDGES if end % 2 == 0 else ALL_RANKS & ~_EVEN_EDGES
    return (below & same) | (ALL_RANKS & ~below & ~same)


@numba.njit(cache=True, _nrt=False)
def _arc_ranks(foundation: int, up: int, down: int) -> int:
    """The ranks at most ``up`` steps above or ``down`` below ``foundation``, as a bit set (``up + down < 13``)."""
    span = (1 << (up + down + 1)) - 1  # the arc's ranks, counted from its lowest
    shift = (foundation - down + NUM_RANKS) % NUM_RANKS
    return ((span << shift) | (span >> (NUM_RANKS - shift))) & ALL_RANKS


@numba.njit(cache=True, _nrt=False)
def _reach(never: int, foundation: int) -> tuple[int, int]:
    """Steps up and down from ``foundation`` before the first edge never crossed (``never``, not empty)."""
    up = down = NUM_RANKS
    edges = never
    while edges:
        edge = lowest_bit(edges)
        edges &= edges - 1
        up = min(up, (edge - foundation + NUM_RANKS) % NUM_RANKS)
        down = min(down, (foundation - 1 - edge + 2 * NUM_RANKS) % NUM_RANKS)
    return up, down


MAX_ORDERED_ENDS = 4
ORDER_WORDS = 3  # a set of rank pairs (a, b): bit 13 * (a % 5) + b of word a // 5


@numba.njit(cache=True, _nrt=False)
def walk_orders(counts: np.ndarray, foundation: int, end_ranks: int, orders: np.ndarray) -> int:
    """The pile orders each possible end of a walk rules out (see "Rank order"); returns how many ends.

    Returns -1 if no end rank in ``end_ranks`` passes the Euler condition
    (exactly when :func:`euler_walkable` is false), and 0 if one passes with
    no order ruled out, or more than ``MAX_ORDERED_ENDS`` ends pass (then
    nothing is claimed). Otherwise row ``k`` of ``orders`` (MAX_ORDERED_ENDS
    by ORDER_WORDS) gets, for the ``k``-th end, the pairs of ranks (a, b)
    such that no card of rank a may lie above one of rank b: a win needs
    some end none of whose pairs is in the piles.

    Like :func:`euler_walkable`, it solves for the edge counts once and
    then, per end, only flips the signs of the edges crossed once or never,
    as bit sets: faster than solving for each end anew, and it is called
    often enough in a game-tree walk to matter (docs/benchmarks.md gives
    both figures).

    >>> import numpy as np
    >>> orders = np.zeros((4, 3), dtype=np.int64)
    >>> counts = np.zeros(13, dtype=np.int64)
    >>> counts[1] = counts[2] = 1      # a 2 and a 3 left, foundation on an A: A-2-3
    >>> walk_orders(counts, 0, 1 << 2, orders)   # ending on the 3
    1
    >>> bool(orders[0, 0] >> (13 * 2 + 1) & 1)   # so no 3 may lie above a 2
    True
    """
    plus_one, minus_one, plus_three, needed = _tight_edges(counts, foundation)
    if needed == 0:
        return 0
    if plus_one < 0:
        return -1
    found = 0
    ends = needed & end_ranks
    for end in range(NUM_RANKS):
        if not (ends >> end) & 1:
            continue
        walk, up, down = _walk_to(end, foundation, plus_one, minus_one, needed)
        if walk == _NO_WALK:
            continue
        if walk == _CYCLE or end == foundation or found == MAX_ORDERED_ENDS:
            return 0  # a cycle, or no edge between the ends: no order follows (or too many ends to keep)
        positive = _positive_edges(end)
        once = (plus_one & positive) | (plus_three & ~positive)  # 2 x = E + sign = 2
        step, reach, distance_to_end = 1, up, (end - foundation) % NUM_RANKS
        if distance_to_end > up:
            step, reach, distance_to_end = -1, down, (foundation - end) % NUM_RANKS
        lower = 1 << foundation  # ranks of a lower level than the one reached: the foundation's side
        for distance in range(1, (down if step == 1 else up) + 1):
            lower |= 1 << (foundation - step * distance) % NUM_RANKS
        below_level = 0
        orders[found, 0] = orders[found, 1] = orders[found, 2] = 0
        for distance in range(1, reach + 1):
            rank = (foundation + step * distance) % NUM_RANKS
            edge = (rank - 1) % NUM_RANKS if step == 1 else rank
            if distance <= distance_to_end and (once >> edge) & 1:
                below_level = lower
            orders[found, rank // 5] |= below_level << (NUM_RANKS * (rank % 5))
            lower |= 1 << rank
        if below_level == 0:
            return 0
        found += 1
    return found if found > 0 else -1


@numba.njit(cache=True, _nrt=False)
def pile_orders(ranks: np.ndarray, heights: np.ndarray) -> tuple[int, int, int]:
    """The pairs of ranks (a, b) such that a card of rank a lies above one of rank b, as ORDER_WORDS words."""
    first = second = third = 0
    for pile in range(ranks.shape[0]):
        for upper in range(1, heights[pile]):
            under = 0
            for lower in range(upper):
                under |= 1 << ranks[pile, lower]
            above = ranks[pile, upper]
            if above < 5:
                first |= under << (NUM_RANKS * above)
            elif above < 10:
                second |= under << (NUM_RANKS * (above - 5))
            else:
                third |= under << (NUM_RANKS * (above - 10))
    return first, second, third


@numba.njit(cache=True, _nrt=False)
def orders_allow(orders: np.ndarray, ends: int, first: int, second: int, third: int) -> bool:
    """Whether some end of :func:`walk_orders` (``ends`` rows of ``orders``) rules out no pair of :func:`pile_orders`."""
    for end in range(ends):
        if not (first & orders[end, 0] or second & orders[end, 1] or third & orders[end, 2]):
            return True
    return False


NO_SHORTFALL = -(1 << 20)  # a shortfall below any spare: the predecessors condition is not asked
WALK_MEMO_SIZE = 1 << 12  # slots of the direct-mapped memo of walk conditions (:func:`rules_out`)
_GOLDEN = np.int64(0x9E3779B97F4A7C15 - (1 << 64))  # a memo slot's multiplier (:func:`memo_slot`)


@numba.njit(cache=True)
def talon_starts(talon: np.ndarray) -> np.ndarray:
    """``starts[d, r]``: the talon cards of rank ``r`` among those from the ``d``-th on; ``starts[d, 13]`` the
    even-ranked ones."""
    talon_size = talon.shape[0]
    starts = np.zeros((talon_size + 1, NUM_RANKS + 1), dtype=np.int64)
    for dealt in range(talon_size - 1, -1, -1):
        starts[dealt] = starts[dealt + 1]
        starts[dealt, talon[dealt]] += 1
        starts[dealt, NUM_RANKS] += 1 - (talon[dealt] & 1)
    return starts


@numba.njit(cache=True, _nrt=False)
def memo_slot(memo_keys: np.ndarray, code: int) -> int:
    """Where the answer for ``code`` lives in a direct-mapped memo of the walk conditions (it holds it if
    ``memo_keys`` says so)."""
    return ((code * _GOLDEN) >> 40) & (memo_keys.shape[0] - 1)


@numba.njit(cache=True, _nrt=False, inline="always")  # on the hot path: no call
def walk_ruled_out(
    ranks, heights, counts, foundation, counts_code, end_ranks, flags, memo_keys, memo_ends, memo_orders
) -> bool:  # fmt: skip
    """Whether the Euler walk condition fails for the cards left (with ``flags``' ORDER, the rank order
    condition too): then no line from here plays every pile card.

    ``counts_code`` is :func:`~pipeline.engine.kernel.code_of_counts` of ``counts`` and ``end_ranks`` the bit
    set of ranks of the bottom cards of non-empty piles. What the conditions ask of the piles depends only on
    the rank counts, the foundation and the end ranks, which pack exactly into 56 bits; many positions share
    them, so the answer is kept in a small direct-mapped memo (``memo_keys``; ``memo_ends`` holds the result
    of :func:`walk_orders`, -1 if no walk, and ``memo_orders`` its orders). Only when some order is ruled out
    are the piles looked at.
    """
    code = (foundation * POWERS_OF_5[NUM_RANKS] + counts_code) << NUM_RANKS | end_ranks
    slot = memo_slot(memo_keys, code)
    if memo_keys[slot] != code:
        memo_keys[slot] = code
        if flags & Reduction.ORDER.value:
            memo_ends[slot] = walk_orders(counts, foundation, end_ranks, memo_orders[slot])
        else:
            memo_ends[slot] = 0 if euler_walkable(counts, foundation, end_ranks) else -1
    ends = memo_ends[slot]
    if ends <= 0:
        return ends < 0
    first, second, third = pile_orders(ranks, heights)
    return not orders_allow(memo_orders[slot], ends, first, second, third)


@numba.njit(cache=True, _nrt=False)
def rules_out(
    ranks, heights, counts, bottoms, starts, dealt, foundation, wrap, spare, even_minus_odd, flags, orders,
    walk_keys, walk_ends,
) -> bool:  # fmt: skip
    """Whether a target-dependent reduction shows that every line from here leaves more than ``spare`` pile cards.

    The walk conditions' answers are kept in a direct-mapped memo (``walk_keys``, ``walk_ends`` and
    ``orders``, a slot each), keyed by the rank counts, the foundation and the end ranks, which is all
    they read; the piles are looked at only when some order is ruled out. The predecessors condition is
    asked apart (:func:`predecessor_shortfall`).
    """
    if foundation < 0:
        return False  # any card may start the walk
    talon_left = dealt < starts.shape[0] - 1
    if flags & Reduction.EULER.value and wrap and not talon_left:
        if spare > 0:
            total = 0
            for rank in range(NUM_RANKS):
                total += counts[rank]
            return total - reachable_cards(counts, foundation) > spare
        end_ranks = 0
        for rank in range(NUM_RANKS):
            if bottoms[rank] > 0:
                end_ranks |= 1 << rank
        return walk_ruled_out(
            ranks, heights, counts, foundation, code_of_counts(counts), end_ranks, flags, walk_keys, walk_ends,
            orders,
        )  # fmt: skip
    if flags & Reduction.RUNS.value and not wrap:
        even_talon = starts[dealt, NUM_RANKS]
        odd_starts = (foundation & 1) + starts.shape[0] - 1 - dealt - even_talon
        even_starts = 1 - (foundation & 1) + even_talon
        if even_minus_odd - odd_starts > spare or -even_minus_odd - even_starts > spare:
            return True
        twos = counts[1] + starts[dealt, 1] + (foundation == 1)
        queens = counts[NUM_RANKS - 2] + starts[dealt, NUM_RANKS - 2] + (foundation == NUM_RANKS - 2)
        return counts[0] - twos > spare or counts[NUM_RANKS - 1] - queens > spare
    return False


@numba.njit(cache=True, _nrt=False)
def predecessor_shortfall(
    counts: np.ndarray,
    starts: np.ndarray,
    dealt: int,
    foundation: int,
    wrap: bool,
    dead_king: bool,
    flags: int,
) -> int:
    """The most by which some ranks ``R`` have more pile cards than cards that may precede them (predecessors).

    ``R`` runs over the ranks ``r, r + 2, ..., r + 2k``, whose neighbours
    are ``r - 1, r + 1, ..., r + 2k + 1``; a card that may precede is a pile
    card, the foundation or a talon card left, of a neighbouring rank (not a
    King in Dead King Golf). The ranks are taken two apart, ``0, 2, ...``
    (one cycle of 13 with wrap, else the even ranks and the odd ranks), and
    the shortfall of the best ``R`` that ends at each is found in one pass
    (Kadane's): with ``w = cards - offered`` for the neighbour above, it is
    ``w`` plus the best of the shortfall ending two ranks below and of minus
    what the neighbour below offers. Two laps of the cycle cover every
    ``R`` of up to 12 ranks; a longer one falls short by no more, as a
    whole lap offers at least the cards it holds.

    While the foundation is empty (All in a Row) the first card played needs
    no predecessor, so the shortfall given is one less. A move takes one
    card that may precede (the foundation it covers; with an empty one, the
    first card's free pass) and adds none (the card played or dealt becomes
    the foundation, having been counted as a pile or talon card), so the
    shortfall rises by at most one a move: the search asks this only when
    that bound exceeds the spare cards, and keeps the bound otherwise.
    Where the condition is not asked (its flag off, or where the Euler walk
    condition applies, which a walk meets: the predecessors condition cut
    no more there, measured on All in a Row) the shortfall is given as far
    below any spare.
    """
    if not flags & Reduction.PREDECESSORS.value:
        return NO_SHORTFALL
    if wrap and flags & Reduction.EULER.value and dealt == starts.shape[0] - 1:
        return NO_SHORTFALL
    most = NO_SHORTFALL
    if wrap:
        rank, best = 0, NO_SHORTFALL
        below = counts[12] + starts[dealt, 12] + (foundation == 12)  # what rank - 1 offers
        for _ in range(2 * NUM_RANKS):
            above = rank + 1 if rank < 12 else 0
            offered = counts[above] + starts[dealt, above] + (foundation == above)
            best = counts[rank] - offered + max(best, -below)
            most = max(most, best)
            rank, below = (rank + 2 if rank < 11 else rank - 11), offered  # rank + 1 is below rank + 2
        return most if foundation >= 0 else most - 1  # the first card needs no predecessor
    for first in range(2):
        best = NO_SHORTFALL
        below = 0 if first == 0 else counts[0] + starts[dealt, 0] + (foundation == 0)
        for rank in range(first, NUM_RANKS, 2):
            offered = 0
            if rank < NUM_RANKS - 1 and not (dead_king and rank == NUM_RANKS - 2):
                offered = counts[rank + 1] + starts[dealt, rank + 1] + (foundation == rank + 1)
            best = counts[rank] - offered + max(best, -below)
            most = max(most, best)
            below = offered
    return most if foundation >= 0 else most - 1
