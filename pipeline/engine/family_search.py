"""The compiled depth-first search for the other games of the family: All in a Row and the three Golfs.

:mod:`pipeline.engine.search` is built for Black Hole's 17 piles of 3 and
stays as it is; this search takes any :class:`~pipeline.game.games.Game`
of the family as plain numbers: the ranks of the piles (a row per pile,
bottom first, padded), their heights, the talon's ranks in the order they
are dealt and how many are dealt, the foundation rank (-1 while it is
empty), ``wrap`` and ``dead_king``. One search answers one question, as
Black Hole's does: can ``target`` more *pile* cards be played (talon deals
are moves, but not cards played)?

**Positions and the memo.** A position is the pile heights, the talon
cards dealt and the foundation rank; suits never matter. Every move plays
a pile card or deals a talon card, so no position repeats on a line: the
positions form a DAG, and a position is marked when it is first entered. A
marked position has been (or is being) searched in full without reaching
the target, so it never needs a second visit; that changes no verdict, and
it keeps the deepest line seen exact (the position's own deepest line was
counted the first time). The key is ``(layout * (talon + 1) + dealt) * 14 +
foundation + 1``. When every key fits in 2**27 bits (Golf: 6**7 layouts of
heights in mixed radix, times 17 talon counts, times 14 foundations, about
67 million) the memo is a bit array; otherwise (All in a Row's 5**13 * 14)
it is a table of 2**16 slots in buckets of 8 (one 64-byte line), and the
layout number merges piles with the same rank sequence left, as Black
Hole's key does (:func:`layout_steps`): those positions are one game. The
table is lossy: when a bucket is full a key is overwritten, and its
position may be entered again later. That is sound too: a position entered
again is searched again, in full, and a line through it plays as many cards
as before; only the node count grows. A small table that stays in the
cache was faster than an exact hash set that grows (measured on All in a
Row's PySol FC deals 1..1000: 8 % less time for 1 % more positions). Each
kind is left ready for the next search when a search ends (the bit array's
lines set are noted as it goes and cleared; a table's slots carry the
stamp of the search that filled them, and the next search takes a new
stamp), so a process keeps its memos from deal to deal.

**Move order.** Pile moves come before the talon deal, which throws the
foundation away; pile moves from the taller pile first (ties in pile
order), since the tall piles are the ones a win must dig through.

Reductions, each a flag of :class:`Reduction` and switched off in the
tests to check that no verdict or longest play changes:

**Same-rank dominance** (:data:`Reduction.DOMINANCE`). Black Hole's
proof (:mod:`pipeline.engine.search`) needs only that whether a move is
legal, and the foundation it leaves, depend on the ranks of the card played
and of the foundation. That holds here: :func:`~pipeline.game.games.fits`
reads two ranks (an empty foundation takes any card, a King in Dead King
Golf none, wrap or not), and a talon deal neither reads nor changes a pile,
so the twin line ``L'`` deals the talon exactly when ``L`` does. The twin
plays as many pile cards, so the rule keeps every line's length: it holds
for any target, and the deepest line stays exact.

**Euler walk and reachability** (:data:`Reduction.EULER`; with the
rank order condition, :data:`Reduction.ORDER`). The conditions of
:mod:`pipeline.engine.conditions` assume that the cards left are played as
one ±1 walk on the 13-cycle from the foundation rank, with no wildcard.
That holds only once the foundation holds a card, no talon card is left,
and ranks wrap: in All in a Row after its first card (before it, any card
may start the walk, a wildcard), and in Relaxed Golf once the talon is
spent. There a position is exactly a Black Hole position on other piles,
and the proofs of :mod:`pipeline.engine.conditions` and
:mod:`pipeline.engine.search` apply word for word: for a target that plays
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
Ace and King conditions below are the case ``R = {A}`` and ``R = {K}``.
Where the Euler walk condition applies it is not asked: a walk meets it.

**The longest play.** When no reduction that depends on the target cut
anything while a win was sought, that search saw every line (up to
dominance, which keeps lengths), and the deepest is the most pile cards
that can be played. Otherwise, where ranks wrap
(:data:`Reduction.TOP_FIRST`, an order, not a reduction), a search
first asks whether all pile cards but one can be played, which seldom
takes long when it is so; if so that is the most (a win was refuted).
Otherwise the deepest line seen is only a lower bound ``b``, and a search
finds the most by branch and bound: its target starts at ``b + 1`` and
rises by one each time a line reaches it, the reductions cutting against
the target of the moment. A position's marks and cuts hold for
every later, higher target, so when the search ends the target is ``most +
1`` and no line reaches it. (Where ranks do not wrap, asking first for all
cards but one cost more than it saved: the Golfs' longest plays spread
over several values.)
"""

from __future__ import annotations

import numba
import numpy as np

from pipeline.engine import kernel  # noqa: F401  # its import runs compiled_cache.prepare() before anything compiled loads
from pipeline.engine.conditions import (
    MAX_ORDERED_ENDS,
    ORDER_WORDS,
    euler_walkable,
    orders_allow,
    pile_orders,
    reachable_cards,
    walk_orders,
)
from pipeline.engine.kernel import (
    POWERS_OF_5,
    code_of_counts,
    layout_weights,
    lowest_bit,
    prefetch_at,
    slot_for,
    stands_in_for,
)
from pipeline.engine.reductions import Reduction
from pipeline.engine.search import SearchStatus
from pipeline.game.cards import NUM_RANKS, rank_of
from pipeline.game.deal import Deal
from pipeline.game.rules import Position

NO_SHORTFALL = -(1 << 20)  # a shortfall below any spare: the predecessors condition is not asked
TABLE_SLOTS = 1 << 16  # the slots of a table memo (512 KiB, kept in the cache), 8 to a 64-byte bucket
STAMPS = 1 << 7  # a table slot holds key << 7 | stamp; stamp 0 is never used, so 0 is an empty slot
BITMAP_BITS = 1 << 27  # the largest key space kept as a bit array (16 MiB); larger ones go in a table
# a bit array's first words say which of its 64-byte lines a search set bits in (a bit a line), so that
# the search can clear just those before it returns and the array can serve the next search
LINE_SHIFT = 9  # a key's line: key >> 9 (8 words of 64 bits)
DIRTY_WORDS = BITMAP_BITS >> (LINE_SHIFT + 6)
FOUNDATIONS = NUM_RANKS + 1  # -1 (empty) and the 13 ranks, stored as foundation + 1
WALK_MEMO_SIZE = 1 << 12  # slots of the direct-mapped memo of walk conditions
# the loop's kept scalars
_DEPTH, _NODES, _DEEPEST, _STORED, _PRUNED, _EVEN_MINUS_ODD, _TARGET = range(7)


def position_arrays(deal: Deal, position: Position) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, int]:
    """The search's numbers for ``position``: (ranks, heights, talon ranks, talon dealt, foundation or -1)."""
    game = deal.game
    ranks = np.zeros((game.num_piles, game.pile_size), dtype=np.int64)
    for pile, cards in enumerate(deal.piles):
        ranks[pile, : len(cards)] = [rank_of(card) for card in cards]
    heights = np.array(position.heights, dtype=np.int64)
    talon = np.array([rank_of(card) for card in deal.talon], dtype=np.int64)
    foundation = -1 if position.foundation_rank is None else position.foundation_rank
    return ranks, heights, talon, position.talon_dealt, foundation


def new_memo(ranks: np.ndarray, talon: np.ndarray) -> np.ndarray:
    """An empty memo for searches of this layout: a bit array if every key fits in BITMAP_BITS, else a table.

    A bit array starts with DIRTY_WORDS words of the lines set, which
    :func:`family_search` clears again before it returns. A table (see
    :func:`_mark`) holds TABLE_SLOTS keys stamped with the search that put
    them there, its stamp in the last word, so a new search forgets the
    keys of the last one without clearing them. Either way the memo serves
    the next search as it is, and :func:`family_solve` keeps one for the
    next deal rather than zeroing megabytes a deal.
    """
    return np.zeros(_memo_words(ranks, talon), dtype=np.int64)


def _memo_words(ranks: np.ndarray, talon: np.ndarray) -> int:
    """The length of :func:`new_memo`: a bit array's DIRTY_WORDS then whole lines of 8 words, or a table's."""
    if not uses_bitmap(ranks, talon):
        return TABLE_SLOTS + 1
    piles, size = ranks.shape
    bits = (size + 1) ** piles * (talon.shape[0] + 1) * FOUNDATIONS
    return DIRTY_WORDS + ((bits + (1 << LINE_SHIFT) - 1) >> LINE_SHIFT << 3)


_SPARE_MEMOS: dict[int, list[np.ndarray]] = {}  # memos ready for a search, by length


def _borrow_memo(ranks: np.ndarray, talon: np.ndarray) -> np.ndarray:
    """A memo ready for a search (:func:`new_memo`), one kept from an earlier search when there is one."""
    spare = _SPARE_MEMOS.get(_memo_words(ranks, talon))
    return spare.pop() if spare else new_memo(ranks, talon)  # pop is atomic: threads never share one


def _give_back(memo: np.ndarray) -> None:
    """Keep a memo that :func:`family_search` has left ready, for the next search."""
    _SPARE_MEMOS.setdefault(memo.shape[0], []).append(memo)


def uses_bitmap(ranks: np.ndarray, talon: np.ndarray) -> bool:
    """Whether :func:`new_memo` gives this layout a bit array."""
    piles, size = ranks.shape
    return (size + 1) ** piles * (talon.shape[0] + 1) * FOUNDATIONS <= BITMAP_BITS


def family_solve(
    deal: Deal, position: Position, max_nodes: int, flags: int, longest_play: bool = True
) -> tuple[SearchStatus, tuple[int, ...], int, int | None]:
    """Search ``position`` of ``deal`` for a win; returns (status, moves, nodes, most pile cards playable).

    ``flags`` are the :class:`Reduction` bits switched on
    (:attr:`~pipeline.engine.solver.SearchOptions.flags`: all of them
    unless a test switches one off). The most pile cards playable is counted from ``position`` and
    is known (not None) only when the status is REACHED (all of them) or
    MISSED (and, without ``longest_play``, only when REACHED: a miss seeks no longest play).
    """
    ranks, heights, talon, dealt, foundation = position_arrays(deal, position)
    game = deal.game
    left = int(heights.sum())
    bitmap = uses_bitmap(ranks, talon)
    memo = _borrow_memo(ranks, talon)
    status, nodes, deepest, path, pruned = family_search(
        ranks, heights, talon, dealt, foundation, game.wrap, game.dead_king, left, False, max_nodes, flags,
        bitmap, memo,
    )  # fmt: skip
    found = SearchStatus(int(status))
    moves = tuple(int(move) for move in path)
    if found is SearchStatus.REACHED:
        _give_back(memo)
        return found, moves, int(nodes), left
    if found is SearchStatus.OUT_OF_NODES or not longest_play:
        _give_back(memo)
        return found, (), int(nodes), None
    if not pruned or deepest == left - 1:
        _give_back(memo)  # every line was seen, or all cards but the last were played
        return found, (), int(nodes), int(deepest)
    if nodes >= max_nodes:  # a search counts its start: with no budget left it would pass the limit
        _give_back(memo)
        return found, (), int(nodes), None
    if flags & Reduction.TOP_FIRST.value and game.wrap and deepest < left - 1:
        status, more, below, _, _ = family_search(
            ranks, heights, talon, dealt, foundation, game.wrap, game.dead_king, left - 1, False,
            max_nodes - int(nodes), flags, bitmap, memo,
        )  # fmt: skip
        nodes += more
        if status != SearchStatus.MISSED.value:
            _give_back(memo)
            return found, (), int(nodes), None if status == SearchStatus.OUT_OF_NODES.value else left - 1
        deepest = max(deepest, below)
        if nodes >= max_nodes:  # as above: no budget left for the longest play's search
            _give_back(memo)
            return found, (), int(nodes), None
    status, more, deepest, _, _ = family_search(
        ranks, heights, talon, dealt, foundation, game.wrap, game.dead_king, int(deepest) + 1, True,
        max_nodes - int(nodes), flags, bitmap, memo,
    )  # fmt: skip
    _give_back(memo)
    total = int(nodes + more)
    return found, (), total, None if status == SearchStatus.OUT_OF_NODES.value else int(deepest)


@numba.njit(cache=True)
def layout_steps(ranks: np.ndarray, merge: bool) -> np.ndarray:
    """``steps[p, h]``: what playing from pile ``p`` when it holds ``h`` cards adds to the layout number.

    Without ``merge`` the layout number is the heights in mixed radix
    ``pile_size + 1``. With it, piles whose ``h`` bottom cards have the same
    ranks share a weight, so the number depends only on the multiset of
    remaining piles (as :func:`pipeline.engine.kernel.layout_weights`, for
    any layout): each distinct remaining pile ``c``, held by at most ``m_c``
    piles at once, is a digit of radix ``m_c + 1``, and those radixes
    multiply to at most 2**(cards in the piles), as ``m_c + 1 <= 2**m_c``.
    """
    piles, size = ranks.shape
    if merge:
        weights = layout_weights(ranks)
    else:
        weights = np.zeros((piles, size + 1), dtype=np.int64)
        radix = 1
        for pile in range(piles):
            for height in range(size + 1):
                weights[pile, height] = height * radix
            radix *= size + 1
    steps = np.zeros((piles, size + 1), dtype=np.int64)
    for pile in range(piles):
        for height in range(1, size + 1):
            steps[pile, height] = weights[pile, height - 1] - weights[pile, height]
    return steps


@numba.njit(cache=True)
def pile_tallies(ranks: np.ndarray, heights: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """What the searches keep of the piles, by rank: the piles by the rank of their free card, the cards of
    each rank, the piles whose bottom card has each rank, and the even-ranked cards less the odd-ranked."""
    tops = np.zeros(NUM_RANKS, dtype=np.int64)
    counts = np.zeros(NUM_RANKS, dtype=np.int64)
    bottoms = np.zeros(NUM_RANKS, dtype=np.int64)
    even_minus_odd = 0
    for pile in range(ranks.shape[0]):
        if heights[pile] > 0:
            bottoms[ranks[pile, 0]] += 1
            tops[ranks[pile, heights[pile] - 1]] |= 1 << pile
        for level in range(heights[pile]):
            counts[ranks[pile, level]] += 1
            even_minus_odd += 1 - 2 * (ranks[pile, level] & 1)
    return tops, counts, bottoms, even_minus_odd


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
def layout_of(steps: np.ndarray, heights: np.ndarray) -> int:
    """The layout number of ``heights``, by :func:`layout_steps`' ``steps`` (0 when every pile is empty)."""
    layout = 0
    for pile in range(heights.shape[0]):
        for height in range(1, heights[pile] + 1):
            layout -= steps[pile, height]
    return layout


@numba.njit(cache=True)
def family_search(
    ranks, start_heights, talon, start_dealt, start_foundation, wrap, dead_king, target, maximise, max_nodes,
    flags, bitmap, memo,
):  # fmt: skip
    """Whether ``target`` more pile cards can be played; returns (status, nodes, deepest, path, pruned).

    ``ranks[p, level]`` is the rank at ``level`` (0 = bottom) of pile ``p``
    and ``start_heights[p]`` how many cards it holds; ``talon`` the talon's
    ranks, first dealt first, ``start_dealt`` of them dealt;
    ``start_foundation`` the foundation's rank, -1 when empty. ``status`` is
    a :class:`SearchStatus` value: REACHED (``path`` holds the moves, a pile
    number or ``num_piles`` for a talon deal), MISSED, or OUT_OF_NODES after
    ``max_nodes`` positions. ``deepest`` is the most pile cards a line
    explored played, and ``pruned`` how many positions a target-dependent
    reduction cut (when 0 after a miss, ``deepest`` is the most there is).

    With ``maximise``, reaching the target raises it by one and the search
    goes on (a branch and bound for the longest play): it ends MISSED, with
    ``deepest`` the most pile cards any line plays (given that ``target``
    - 1 are known to be playable), or REACHED if every pile card is played.
    A position is marked in the memo when it is entered, and it is searched
    in full for a target that only rises, so skipping it later loses
    nothing.

    ``memo`` is an empty :func:`new_memo`, of the kind ``bitmap`` says.
    """
    piles = ranks.shape[0]
    talon_size = talon.shape[0]
    remaining = 0
    for pile in range(piles):
        remaining += start_heights[pile]
    depth_limit = remaining + talon_size - start_dealt + 1
    path = np.zeros(depth_limit, dtype=np.int64)
    if target <= 0:
        return SearchStatus.REACHED.value, 1, 0, path[:0], 0
    heights = start_heights.copy()
    tops, counts, bottoms, even_minus_odd = pile_tallies(ranks, heights)
    starts = talon_starts(talon)
    steps = layout_steps(ranks, not bitmap)
    layout = layout_of(steps, heights)
    moves = np.zeros((depth_limit, piles + 1), dtype=np.int64)
    move_count = np.zeros(depth_limit, dtype=np.int64)
    next_move = np.zeros(depth_limit, dtype=np.int64)
    layouts = np.zeros(depth_limit, dtype=np.int64)
    dealts = np.zeros(depth_limit, dtype=np.int64)
    foundations = np.zeros(depth_limit, dtype=np.int64)
    played = np.zeros(depth_limit, dtype=np.int64)
    # the walk conditions depend on the rank counts, foundation and end ranks only: a direct-mapped memo
    orders = np.zeros((WALK_MEMO_SIZE, MAX_ORDERED_ENDS, ORDER_WORDS), dtype=np.int64)
    walk_keys = np.full(WALK_MEMO_SIZE, -1, dtype=np.int64)
    walk_ends = np.zeros(WALK_MEMO_SIZE, dtype=np.int64)
    layouts[0], dealts[0], foundations[0] = layout, start_dealt, start_foundation
    scalars = np.array([0, 1, max(target - 1, 0) if maximise else 0, 0, 0, even_minus_odd, target])
    if rules_out(
        ranks, heights, counts, bottoms, starts, start_dealt, start_foundation, wrap, remaining - target,
        even_minus_odd, flags, orders, walk_keys, walk_ends,
    ):  # fmt: skip
        return SearchStatus.MISSED.value, 1, scalars[_DEEPEST], path[:0], 1
    shortfalls = np.zeros(depth_limit, dtype=np.int64)
    shortfalls[0] = predecessor_shortfall(
        counts, starts, start_dealt, start_foundation, wrap, dead_king, flags
    )
    if shortfalls[0] > remaining - target:
        return SearchStatus.MISSED.value, 1, scalars[_DEEPEST], path[:0], 1
    move_count[0] = fill_moves_of(
        ranks, heights, tops, start_foundation, start_dealt < talon_size, wrap, dead_king, flags, moves, 0
    )
    _mark(memo, bitmap, _key(layout, start_dealt, start_foundation, talon_size))
    status = _run(
        ranks, heights, tops, counts, bottoms, starts, talon, steps, moves, move_count, next_move, layouts,
        dealts, foundations, played, shortfalls, path, orders, walk_keys, walk_ends, scalars, memo, bitmap,
        wrap, dead_king, remaining, maximise, max_nodes, flags,
    )  # fmt: skip
    nodes, deepest, pruned = scalars[_NODES], scalars[_DEEPEST], scalars[_PRUNED]
    reached = status == SearchStatus.REACHED.value
    return status, nodes, deepest, path[: scalars[_DEPTH] + 1] if reached else path[:0], pruned


@numba.njit(cache=True)
def _run(
    ranks, heights, tops, counts, bottoms, starts, talon, steps, moves, move_count, next_move, layouts,
    dealts, foundations, played, shortfalls, path, orders, walk_keys, walk_ends, scalars, memo, bitmap, wrap,
    dead_king, remaining, maximise, max_nodes, flags,
):  # fmt: skip
    """:func:`_descend` with the memo made ready; a bit array is cleared again at the end."""
    if not bitmap:  # a new stamp forgets the last search's keys; when the stamps run out, clear the table
        stamp = memo[TABLE_SLOTS] % (STAMPS - 1) + 1
        if stamp == 1:
            memo[:] = 0
        memo[TABLE_SLOTS] = stamp
    status = _descend(
        ranks, heights, tops, counts, bottoms, starts, talon, steps, moves, move_count, next_move, layouts,
        dealts, foundations, played, shortfalls, path, orders, walk_keys, walk_ends, scalars, memo, bitmap,
        wrap, dead_king, remaining, maximise, max_nodes, flags,
    )  # fmt: skip
    if bitmap:
        _clear(memo)
    return status


@numba.njit(cache=True, _nrt=False)
def _clear(memo: np.ndarray) -> None:
    """Zero the lines of a bit array that its first words say were set, and those words."""
    for word in range(DIRTY_WORDS):
        lines = memo[word]
        while lines:
            line = (word << 6) + lowest_bit(lines)
            lines &= lines - 1
            for at in range(DIRTY_WORDS + (line << 3), DIRTY_WORDS + (line << 3) + 8):
                memo[at] = 0
        memo[word] = 0


@numba.njit(cache=True, _nrt=False)
def _key(layout: int, dealt: int, foundation: int, talon_size: int) -> int:
    """The memo's key of a position."""
    return (layout * (talon_size + 1) + dealt) * FOUNDATIONS + foundation + 1


@numba.njit(cache=True, _nrt=False)
def _mark(memo: np.ndarray, bitmap: bool, key: int) -> bool:
    """Put ``key`` in the memo; True when it was not there (or a table had forgotten it).

    A table's bucket is the 8 slots from ``8 * slot_for(key)``; a slot holds ``key << 7 | stamp`` (keys
    are below 2**56: a layout number below 2**52, times 14), so the last search's keys never match.
    """
    if bitmap:
        word, bit = DIRTY_WORDS + (key >> 6), np.int64(1) << (key & 63)
        if memo[word] & bit:
            return False
        memo[word] |= bit
        memo[key >> (LINE_SHIFT + 6)] |= np.int64(1) << ((key >> LINE_SHIFT) & 63)
        return True
    stamp = memo[TABLE_SLOTS]
    bucket = slot_for(key, TABLE_SLOTS // 8 - 1) << 3
    entry = key << 7 | stamp
    for slot in range(bucket, bucket + 8):
        if memo[slot] == entry:
            return False
    for slot in range(bucket, bucket + 8):
        if memo[slot] & (STAMPS - 1) != stamp:
            memo[slot] = entry
            return True
    memo[bucket + (key & 7)] = entry  # a full bucket forgets a key: that position may be searched again
    return True


@numba.njit(cache=True, _nrt=False)
def _descend(
    ranks, heights, tops, counts, bottoms, starts, talon, steps, moves, move_count, next_move, layouts,
    dealts, foundations, played, shortfalls, path, orders, walk_keys, walk_ends, scalars, memo, bitmap, wrap,
    dead_king, remaining, maximise, max_nodes, flags,
):  # fmt: skip
    """The loop of :func:`family_search`, from the state in its arguments; returns a status."""
    piles = ranks.shape[0]
    talon_size = talon.shape[0]
    depth, nodes, deepest = scalars[_DEPTH], scalars[_NODES], scalars[_DEEPEST]
    stored, pruned, even_minus_odd = scalars[_STORED], scalars[_PRUNED], scalars[_EVEN_MINUS_ODD]
    target = scalars[_TARGET]
    status = SearchStatus.MISSED.value
    while True:
        if next_move[depth] < move_count[depth]:
            move = moves[depth, next_move[depth]]
            next_move[depth] += 1
            dealt, cards = dealts[depth], played[depth]
            if move == piles:
                layout, dealt, foundation = layouts[depth], dealt + 1, talon[dealt]
            else:
                height = heights[move]
                layout, foundation, cards = (
                    layouts[depth] + steps[move, height],
                    ranks[move, height - 1],
                    cards + 1,
                )
            if not _mark(memo, bitmap, _key(layout, dealt, foundation, talon_size)):
                continue  # searched before, by another order of the same moves
            if nodes >= max_nodes:  # the budget is spent: the child is not entered, so nodes never pass it
                status = SearchStatus.OUT_OF_NODES.value
                break
            stored += 1
            nodes += 1
            if move < piles:
                take_free_card(ranks, heights, tops, move)
                counts[foundation] -= 1
                even_minus_odd -= 1 - 2 * (foundation & 1)
                if heights[move] == 0:
                    bottoms[foundation] -= 1
            path[depth] = move
            deepest = max(deepest, cards)
            if cards == target:
                if not maximise or target == remaining:
                    status = SearchStatus.REACHED.value
                    break
                target += 1
            found = 0
            short = shortfalls[depth] + 1  # a move raises it by one at most (see predecessor_shortfall)
            if short > remaining - target:
                short = predecessor_shortfall(counts, starts, dealt, foundation, wrap, dead_king, flags)
            if short > remaining - target or rules_out(
                ranks, heights, counts, bottoms, starts, dealt, foundation, wrap, remaining - target,
                even_minus_odd, flags, orders, walk_keys, walk_ends,
            ):  # fmt: skip
                pruned += 1
            else:
                found = fill_moves_of(
                    ranks,
                    heights,
                    tops,
                    foundation,
                    dealt < talon_size,
                    wrap,
                    dead_king,
                    flags,
                    moves,
                    depth + 1,
                )
            if found > 0:
                depth += 1
                layouts[depth], dealts[depth], foundations[depth], played[depth] = (
                    layout,
                    dealt,
                    foundation,
                    cards,
                )
                move_count[depth] = found
                next_move[depth] = 0
                shortfalls[depth] = short
                for index in range(found):  # start loading the children's memo entries meanwhile
                    move = moves[depth, index]
                    if move == piles:
                        child = _key(layout, dealt + 1, talon[dealt], talon_size)
                    else:
                        height = heights[move]
                        child = _key(layout + steps[move, height], dealt, ranks[move, height - 1], talon_size)
                    if bitmap:
                        prefetch_at(memo, DIRTY_WORDS + (child >> 6))
                    else:
                        prefetch_at(memo, slot_for(child, TABLE_SLOTS // 8 - 1) << 3)
                continue
            if move < piles:
                put_back_card(ranks, heights, tops, counts, bottoms, move)
                even_minus_odd += 1 - 2 * (foundation & 1)
        else:
            if depth == 0:
                status = SearchStatus.MISSED.value
                break
            depth -= 1
            move = path[depth]
            if move < piles:
                rank = put_back_card(ranks, heights, tops, counts, bottoms, move)
                even_minus_odd += 1 - 2 * (rank & 1)
    scalars[_DEPTH], scalars[_NODES], scalars[_DEEPEST] = depth, nodes, deepest
    scalars[_STORED], scalars[_PRUNED], scalars[_EVEN_MINUS_ODD] = stored, pruned, even_minus_odd
    scalars[_TARGET] = target
    return status


@numba.njit(cache=True, _nrt=False)
def take_free_card(ranks: np.ndarray, heights: np.ndarray, tops: np.ndarray, pile: int) -> None:
    """Take the free card of ``pile`` off it."""
    height = heights[pile] - 1
    tops[ranks[pile, height]] &= ~(1 << pile)
    heights[pile] = height
    if height > 0:
        tops[ranks[pile, height - 1]] |= 1 << pile


@numba.njit(cache=True, _nrt=False)
def put_back_card(
    ranks: np.ndarray,
    heights: np.ndarray,
    tops: np.ndarray,
    counts: np.ndarray,
    bottoms: np.ndarray,
    pile: int,
) -> int:
    """Put the card taken from ``pile`` back; return its rank."""
    height = heights[pile]
    if height > 0:
        tops[ranks[pile, height - 1]] &= ~(1 << pile)
    rank = ranks[pile, height]
    tops[rank] |= 1 << pile
    heights[pile] = height + 1
    counts[rank] += 1
    if height == 0:
        bottoms[rank] += 1
    return rank


@numba.njit(cache=True, _nrt=False)
def fitting_piles(tops: np.ndarray, foundation: int, wrap: bool, dead_king: bool) -> int:
    """The bit set of piles whose free card fits on ``foundation`` (-1: empty, any card)."""
    if foundation < 0:
        every = 0
        for rank in range(NUM_RANKS):
            every |= tops[rank]
        return every
    if dead_king and foundation == NUM_RANKS - 1:
        return 0
    return neighbour_piles(tops, foundation, wrap)


@numba.njit(cache=True, _nrt=False)
def neighbour_piles(tops: np.ndarray, rank: int, wrap: bool) -> int:
    """The piles whose free card is one rank from ``rank`` (K and A only where ranks wrap)."""
    piles = 0
    if rank < NUM_RANKS - 1:
        piles |= tops[rank + 1]
    elif wrap:
        piles |= tops[0]
    if rank > 0:
        piles |= tops[rank - 1]
    elif wrap:
        piles |= tops[NUM_RANKS - 1]
    return piles


@numba.njit(cache=True, _nrt=False)
def fill_moves_of(
    ranks: np.ndarray,
    heights: np.ndarray,
    tops: np.ndarray,
    foundation: int,
    talon_left: bool,
    wrap: bool,
    dead_king: bool,
    flags: int,
    moves: np.ndarray,
    row: int,
) -> int:
    """Fill ``moves[row]`` with the moves worth trying, in the order to try them; return how many.

    Pile moves, taller piles first (ties in pile order), leaving out those
    same-rank dominance shows another stands in for; then the talon deal
    (the number of piles) while talon cards are left.
    """
    fitting = fitting_piles(tops, foundation, wrap, dead_king)
    count = 0
    while fitting:
        pile = lowest_bit(fitting)
        fitting &= fitting - 1
        if flags & Reduction.DOMINANCE.value and _dominated(ranks, heights, tops, pile):
            continue
        at = count
        while at > 0 and heights[moves[row, at - 1]] < heights[pile]:
            moves[row, at] = moves[row, at - 1]
            at -= 1
        moves[row, at] = pile
        count += 1
    if talon_left:
        moves[row, count] = ranks.shape[0]
        count += 1
    return count


@numba.njit(cache=True, _nrt=False)
def _dominated(ranks: np.ndarray, heights: np.ndarray, tops: np.ndarray, pile: int) -> bool:
    """Whether another pile whose free card has the rank of ``pile``'s stands in for it (taller, or as tall
    with the same ranks and a lower number)."""
    height = heights[pile]
    others = tops[ranks[pile, height - 1]] & ~(1 << pile)
    while others:
        other = lowest_bit(others)
        others &= others - 1
        other_height = heights[other]
        if other_height < height or (other_height == height and other > pile):
            continue
        if stands_in_for(ranks, heights, other, pile):
            return True
    return False


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
        code = (foundation * POWERS_OF_5[NUM_RANKS] + code_of_counts(counts)) << NUM_RANKS | end_ranks
        slot = slot_for(code, WALK_MEMO_SIZE - 1)
        if walk_keys[slot] != code:
            walk_keys[slot] = code
            if flags & Reduction.ORDER.value:
                walk_ends[slot] = walk_orders(counts, foundation, end_ranks, orders[slot])
            else:
                walk_ends[slot] = 0 if euler_walkable(counts, foundation, end_ranks) else -1
        ends = walk_ends[slot]
        if ends <= 0:
            return ends < 0
        first, second, third = pile_orders(ranks, heights)
        return not orders_allow(orders[slot], ends, first, second, third)
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
