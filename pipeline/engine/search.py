"""The compiled depth-first search behind :mod:`pipeline.engine.solver`, for every game of the family.

One search answers one question: can ``target`` more pile cards be played
from a position (talon deals are moves, not cards played)? With ``target``
= every card left that is "can it be won"; with fewer, it serves the
longest-play question for lost deals. It takes a game as plain numbers: the
ranks of the piles (a row per pile, bottom first, padded), their heights,
the talon's ranks in the order they are dealt and how many are dealt, the
foundation rank (-1 while it is empty), ``wrap`` and ``dead_king``
(:func:`position_arrays`).

One search (:func:`search`, its loop :func:`_descender`) with one move
generator serves every game; the layout chooses its memo (the solver's
:func:`~pipeline.engine.solver.keyed_by_heights`). Where there is no talon
and the foundation holds a card from the start (Black Hole), every move
plays a card and a position is its pile heights and the foundation rank,
suits never mattering: the search keeps a transposition table. Elsewhere it
marks positions (**Marks**, below). The loop is compiled once for each
memo from the same source, the choice a constant of the compiled code, so
neither pays for the other's branches.

**The transposition table.** A transposition table remembers positions already searched in full
without reaching the target, so they are seldom searched twice. Its key
(:func:`pipeline.engine.kernel.layout_weights`) is an exact number for the multiset of remaining
piles, as rank sequences, with the foundation rank above bit 51: positions
that differ only by which of two piles with the same ranks left is which are
one game, and share a key (docs/benchmarks.md gives what that saved on the
slowest deal known). A move changes the key by a step looked
up per pile and height. Positions with at most ``kernel.UNSTORED`` cards left are
not stored: they are cheaper to search again than to look up.

**Same-rank dominance** (:func:`pipeline.engine.kernel.moves_in_pile_order`). Let ``a`` and ``b`` be free cards of
the same rank in piles ``A`` and ``B``, where the ranks under ``a``, read
downwards, begin the ranks under ``b`` (``A`` may be shorter, down to ``a``
alone). Any line of play ``L`` that plays ``a`` now has a twin ``L'`` that
plays ``b`` now: whenever ``L`` plays a card from ``A`` or ``B``, ``L'``
plays the next card of ``B`` if the count of cards ``L`` has played from
that pile becomes strictly the larger of the two, and the next card of
``A`` otherwise. By induction ``L'`` has always played the larger of the
two counts from ``B`` and the smaller from ``A``, each card it plays is
free, and it has the rank of ``L``'s card (the two piles agree down to the
length of ``A``), so the foundation ranks are the same and ``L'`` is as
long as ``L``. So playing
``a`` now is never needed while ``b`` is free; when the two piles hold the
same ranks, the one with the lower number is tried. The rule keeps the
line's length, so it holds for any target.

The proof needs only that whether a move is
legal, and the foundation it leaves, depend on the ranks of the card played
and of the foundation. That holds in every game of the family: :func:`~pipeline.game.games.fits`
reads two ranks (an empty foundation takes any card, a King in Dead King
Golf none, wrap or not), and a talon deal neither reads nor changes a pile,
so the twin line ``L'`` deals the talon exactly when ``L`` does. The twin
plays as many pile cards, so the rule keeps every line's length: it holds
for any target, and the deepest line stays exact.

**Necessary conditions** (:mod:`pipeline.engine.conditions`, which proves
where each applies: the walk conditions, Golf's runs, the predecessors) cut
positions from which the target cannot be reached. With the transposition table: for a win, the Euler walk condition with the
last card a bottom card (or rank reachability alone), and the rank order
condition, which checks the piles against the order the walk's edge counts
impose (docs/benchmarks.md gives what it cut on the slowest deal known); for
a target that spares cards, the cards outside reachable
ranks must not outnumber the spares, and with one spare card the rest must
make an Euler walk.

**Marks.** Where the foundation may be empty or a
talon is left, a position is the pile heights, the talon
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
layout number merges piles with the same rank sequence left, as the
transposition table's key does (:func:`~pipeline.engine.kernel.layout_steps`): those positions are one game. The
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

**Move order.** With marks, pile moves come before the talon deal, which throws the
foundation away; pile moves from the taller pile first (ties in pile
order), since the tall piles are the ones a win must dig through.

**The longest play, with marks** (:func:`solve_position`). When no reduction that depends on the target cut
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

Speed notes, each measured (``make bench``; docs/benchmarks.md has the
figures for the first two): the helpers are compiled with ``_nrt=False`` and the loop never
rebinds an array, because Numba's atomic reference counts on array
arguments otherwise took a large share of the time; the
table of searched positions is a small lossy cache
(the transposition table of :mod:`pipeline.engine.kernel`), since a main-memory load per position cost
more than searching forgotten positions again; and a child's slot is
fetched while its elder sibling is searched.
"""

from __future__ import annotations

import numba
import numpy as np

from pipeline.engine.conditions import (
    MAX_ORDERED_ENDS,
    ORDER_WORDS,
    WALK_MEMO_SIZE,
    euler_walkable,
    memo_slot,
    predecessor_shortfall,
    ranks_reachable,
    reachable_cards,
    rules_out,
    talon_starts,
    walk_ruled_out,
)
from pipeline.engine.kernel import (
    GROW,
    POWERS_OF_5,
    UNSTORED,
    bit_length,
    child_key,
    code_of_counts,
    doubled,
    key_of,
    layout_of,
    layout_steps,
    lowest_bit,
    moves_in_pile_order,
    moves_taller_first,
    new_table,
    outgrown,
    pile_tallies,
    prefetch,
    prefetch_at,
    put_back,
    recalls,
    remember,
    slot_for,
    take,
)
from pipeline.engine.reductions import Reduction
from pipeline.engine.status import Status
from pipeline.game.cards import NUM_RANKS, rank_of
from pipeline.game.deal import Deal
from pipeline.game.rules import Position

# the loop's kept scalars, in one array so that the loop can return (to double a table) and carry on
_DEPTH, _NODES, _DEEPEST, _STORED, _COUNTS_CODE, _BOTTOM_RANKS, _PRUNED, _EVEN_MINUS_ODD, _TARGET = range(9)
MEMO_SIZE = 1 << 15  # slots of the walk conditions' memo with a transposition table (:func:`hopeless`)
# with marks (see the module's docstring)
TABLE_SLOTS = 1 << 16  # the slots of a table memo (512 KiB, kept in the cache), 8 to a 64-byte bucket
STAMPS = 1 << 7  # a table slot holds key << 7 | stamp; stamp 0 is never used, so 0 is an empty slot
BITMAP_BITS = 1 << 27  # the largest key space kept as a bit array (16 MiB); larger ones go in a table
# a bit array's first words say which of its 64-byte lines a search set bits in (a bit a line), so that
# the search can clear just those before it returns and the array can serve the next search
LINE_SHIFT = 9  # a key's line: key >> 9 (8 words of 64 bits)
DIRTY_WORDS = BITMAP_BITS >> (LINE_SHIFT + 6)
FOUNDATIONS = NUM_RANKS + 1  # -1 (empty) and the 13 ranks, stored as foundation + 1


def solve_position(
    deal: Deal,
    position: Position,
    max_nodes: int,
    flags: int,
    keyed_by_heights: bool,
    longest_play: bool = True,
) -> tuple[Status, tuple[int, ...], int, int | None]:
    """Search ``position`` of ``deal`` for a win; returns (status, moves, nodes, most pile cards playable).

    ``keyed_by_heights`` (the solver's :func:`~pipeline.engine.solver.keyed_by_heights` of the game) says
    which memo the search keeps: a transposition table, or marks. ``flags`` are the :class:`Reduction` bits
    switched on (:attr:`~pipeline.engine.solver.SearchOptions.flags`: all of them unless a test switches one
    off). The most pile cards playable is counted from ``position`` and is known (not None) only when the
    status is REACHED (all of them) or MISSED (and, without ``longest_play``, only when REACHED: a miss
    seeks no longest play).
    """
    ranks, heights, talon, dealt, foundation = position_arrays(deal, position)
    game = deal.game
    left = int(heights.sum())
    if keyed_by_heights:
        memo, bitmap = new_table(), False
    else:
        memo, bitmap = _borrow_memo(ranks, talon), uses_bitmap(ranks, talon)
    numbers = (ranks, heights, talon, dealt, foundation, game.wrap, game.dead_king)
    status, nodes, deepest, path, pruned, _ = search(
        *numbers, left, False, max_nodes, flags, keyed_by_heights, bitmap, memo
    )
    found = Status(int(status))
    if found is not Status.MISSED or not longest_play:
        most = left if found is Status.REACHED else None
    elif keyed_by_heights:
        most, more = _rising_targets(numbers, int(deepest), max_nodes - int(nodes), flags)
        nodes += more
    else:
        most, more = _longest_with_marks(
            numbers, int(deepest), int(pruned), int(nodes), max_nodes, flags, memo
        )
        nodes += more
    if not keyed_by_heights:
        _give_back(memo)
    moves = tuple(int(move) for move in path) if found is Status.REACHED else ()
    return found, moves, int(nodes), most


def _rising_targets(numbers: tuple, known: int, max_nodes: int, flags: int) -> tuple[int | None, int]:
    """The most cards playable from a lost position, at least ``known``, with a transposition table; returns
    (cards or None, nodes).

    Targets rise from ``known + 1`` until one is missed; they share one table
    of positions that missed, which stay missed for any higher target. All
    cards but one is the most there can be, a win having been refuted.
    """
    nodes, table, left = 0, new_table(), int(numbers[1].sum())
    for target in range(known + 1, left):
        if nodes >= max_nodes:  # a search counts its start: with no budget left it would pass the limit
            return None, nodes
        status, searched, _, _, _, table = search(
            *numbers, target, False, max_nodes - nodes, flags, True, False, table
        )
        nodes += int(searched)
        if status == Status.MISSED:
            return target - 1, nodes
        if status == Status.OUT_OF_BUDGET:
            return None, nodes
    return left - 1, nodes


def _longest_with_marks(
    numbers: tuple, deepest: int, pruned: int, nodes: int, max_nodes: int, flags: int, memo: np.ndarray
) -> tuple[int | None, int]:
    """The most pile cards playable from a lost position, with marks (the module's docstring says how);
    returns (cards or None, nodes beyond the ``nodes`` the verdict's search took)."""
    left, wrap = int(numbers[1].sum()), numbers[5]
    spent = nodes
    bitmap = uses_bitmap(numbers[0], numbers[2])

    def marked(target: int, maximise: bool, budget: int) -> tuple[int, int, int]:
        """A search with marks for ``target`` cards (raised as lines reach it when ``maximise``): its status,
        nodes and deepest line."""
        status, more, reached, _, _, _ = search(
            *numbers, target, maximise, budget, flags, False, bitmap, memo
        )
        return status, more, reached

    if not pruned or deepest == left - 1:
        return deepest, 0  # every line was seen, or all cards but the last were played
    if nodes >= max_nodes:  # a search counts its start: with no budget left it would pass the limit
        return None, 0
    if flags & Reduction.TOP_FIRST.value and wrap and deepest < left - 1:
        status, more, below = marked(left - 1, False, max_nodes - nodes)
        nodes += int(more)
        if status != Status.MISSED.value:
            return None if status == Status.OUT_OF_BUDGET.value else left - 1, nodes - spent
        deepest = max(deepest, int(below))
        if nodes >= max_nodes:  # as above: no budget left for the longest play's search
            return None, nodes - spent
    status, more, most = marked(deepest + 1, True, max_nodes - nodes)
    nodes += int(more)
    return None if status == Status.OUT_OF_BUDGET.value else int(most), nodes - spent


@numba.njit(cache=True)
def search(
    ranks, start_heights, talon, start_dealt, start_foundation, wrap, dead_king, target, maximise, max_nodes,
    flags, keyed_by_heights, bitmap, memo,
):  # fmt: skip
    """Whether ``target`` more pile cards can be played; returns (status, nodes, deepest, path, pruned, memo).

    ``ranks[p, level]`` is the rank at ``level`` (0 = bottom) of pile ``p``
    and ``start_heights[p]`` how many cards it holds; ``talon`` the talon's
    ranks, first dealt first, ``start_dealt`` of them dealt;
    ``start_foundation`` the foundation's rank, -1 when empty. ``status`` is
    a search's :class:`~pipeline.engine.status.Status`: REACHED (``path`` holds the moves, a pile
    number or ``num_piles`` for a talon deal), MISSED, or OUT_OF_BUDGET after
    ``max_nodes`` positions. ``deepest`` is the most pile cards a line
    explored played, and ``pruned`` how many positions a target-dependent
    reduction cut (with marks; when 0 after a miss, ``deepest`` is the most there is).

    With ``keyed_by_heights`` the memo is a transposition table (from
    ``kernel.new_table``; the one returned may be a doubled copy) of
    positions searched in full without reaching a target. Those cannot
    reach a higher target either, so one table may serve searches for the
    same start with rising targets. Otherwise ``memo`` is an empty
    :func:`new_memo` of the kind ``bitmap`` says, whose marks it leaves
    ready for the next search. With ``maximise`` (marks only), reaching the target raises it by one and
    the search goes on (a branch and bound for the longest play): it ends MISSED, with ``deepest`` the
    most pile cards any line plays (given that ``target`` - 1 are known to be playable), or REACHED if
    every pile card is played.

    The loop itself is compiled once for each memo (:func:`_descender`); it never rebinds an array:
    when the table should double it returns, the table is doubled here, and it carries on from the
    state kept in the arrays.
    """
    piles, talon_size = ranks.shape[0], talon.shape[0]
    heights = start_heights.copy()
    tops, counts, bottoms, even_minus_odd = pile_tallies(ranks, heights)
    remaining = 0
    for pile in range(piles):
        remaining += heights[pile]
    depth_limit = remaining + talon_size - start_dealt + 1
    path = np.zeros(depth_limit, dtype=np.int64)
    if target <= 0:
        return Status.REACHED.value, 1, 0, path[:0], 0, memo
    moves = np.zeros((depth_limit, piles + 1), dtype=np.int64)
    move_count = np.zeros(depth_limit, dtype=np.int64)
    next_move = np.zeros(depth_limit, dtype=np.int64)
    keys = np.zeros(depth_limit, dtype=np.int64)  # a transposition table's keys, or the layout numbers
    dealts = np.zeros(depth_limit, dtype=np.int64)
    played = np.zeros(depth_limit, dtype=np.int64)
    entered = np.zeros(depth_limit, dtype=np.int64)  # nodes when the position at each depth was entered
    shortfalls = np.zeros(depth_limit, dtype=np.int64)
    # what the walk conditions ask depends on the rank counts, foundation and end ranks only: a direct-mapped
    # memo of their answers (the keys; the walk's ends, -1 if none; its orders), read only where a key says
    size = MEMO_SIZE if keyed_by_heights else WALK_MEMO_SIZE
    memo_keys = np.full(size, -1, dtype=np.int64)
    memo_ends = np.empty(size, dtype=np.int64)
    memo_orders = np.empty((size, MAX_ORDERED_ENDS, ORDER_WORDS), dtype=np.int64)
    bottom_ranks = 0
    for rank in range(NUM_RANKS):
        if bottoms[rank] > 0:
            bottom_ranks |= 1 << rank
    counts_code = code_of_counts(counts)
    spare = remaining - target
    starts = talon_starts(talon)
    deepest = max(target - 1, 0) if maximise else 0
    scalars = np.array([0, 1, deepest, 0, counts_code, bottom_ranks, 0, even_minus_odd, target])
    if keyed_by_heights:
        if _lost(
            ranks, heights, counts, start_foundation, counts_code, bottom_ranks, spare, flags,
            memo_keys, memo_ends, memo_orders,
        ):  # fmt: skip
            return Status.MISSED.value, 1, deepest, path[:0], 1, memo
        steps = layout_steps(ranks)
        keys[0] = key_of(steps, heights, start_foundation)
        stored = 0
        for value in memo:
            stored += value != 0
        scalars[_STORED] = stored
    else:
        if rules_out(
            ranks, heights, counts, bottoms, starts, start_dealt, start_foundation, wrap, spare, even_minus_odd,
            flags, memo_orders, memo_keys, memo_ends,
        ):  # fmt: skip
            return Status.MISSED.value, 1, deepest, path[:0], 1, memo
        shortfalls[0] = predecessor_shortfall(
            counts, starts, start_dealt, start_foundation, wrap, dead_king, flags
        )
        if shortfalls[0] > spare:
            return Status.MISSED.value, 1, deepest, path[:0], 1, memo
        steps = layout_steps(ranks, not bitmap)
        keys[0], dealts[0] = layout_of(steps, heights), start_dealt
        _mark(memo, bitmap, _key(keys[0], start_dealt, start_foundation, talon_size))  # before the new stamp
        if not bitmap:  # a new stamp forgets the last search's keys; when the stamps run out, clear the table
            stamp = memo[TABLE_SLOTS] % (STAMPS - 1) + 1
            if stamp == 1:
                memo[:] = 0
            memo[TABLE_SLOTS] = stamp
    dominance = flags & Reduction.DOMINANCE.value
    if keyed_by_heights:
        move_count[0] = moves_in_pile_order(
            ranks, heights, tops, start_foundation, False, wrap, dead_king, dominance, moves, 0
        )
    else:
        move_count[0] = moves_taller_first(
            ranks,
            heights,
            tops,
            start_foundation,
            start_dealt < talon_size,
            wrap,
            dead_king,
            dominance,
            moves,
            0,
        )
    while True:
        if keyed_by_heights:
            status = _descend_by_heights(
                ranks, steps, heights, tops, counts, bottoms, starts, talon, moves, move_count, next_move, keys,
                dealts, played, entered, shortfalls, path, memo, bitmap, memo_keys, memo_ends, memo_orders,
                scalars, wrap, dead_king, remaining, maximise, max_nodes, flags,
            )  # fmt: skip
        else:
            status = _descend_with_marks(
                ranks, steps, heights, tops, counts, bottoms, starts, talon, moves, move_count, next_move, keys,
                dealts, played, entered, shortfalls, path, memo, bitmap, memo_keys, memo_ends, memo_orders,
                scalars, wrap, dead_king, remaining, maximise, max_nodes, flags,
            )  # fmt: skip
        if status != GROW:
            break
        memo = doubled(memo)
    if not keyed_by_heights and bitmap:
        _clear(memo)
    reached = status == Status.REACHED.value
    path = path[: scalars[_DEPTH] + 1] if reached else path[:0]
    return status, scalars[_NODES], scalars[_DEEPEST], path, scalars[_PRUNED], memo


def _descender(keyed_by_heights: bool):  # returns a compiled function
    """The loop of :func:`search`, compiled for one memo: a transposition table (``keyed_by_heights``) or
    marks. One source serves both; the choice is a constant of the compiled code, so each loop keeps only
    its own branches."""

    # the moves worth trying: in pile order with a transposition table, taller piles first with marks
    list_moves = moves_in_pile_order if keyed_by_heights else moves_taller_first

    @numba.njit(cache=True, _nrt=keyed_by_heights)  # as each loop was compiled before they were one
    def descend(
        ranks, steps, heights, tops, counts, bottoms, starts, talon, moves, move_count, next_move, keys,
        dealts, played, entered, shortfalls, path, memo, bitmap, memo_keys, memo_ends, memo_orders, scalars,
        wrap, dead_king, remaining, maximise, max_nodes, flags,
    ):  # fmt: skip
        """The loop of :func:`search`, from the state in its arguments; returns a status or GROW."""
        piles, talon_size = ranks.shape[0], talon.shape[0]
        depth, nodes, deepest, stored = scalars[_DEPTH], scalars[_NODES], scalars[_DEEPEST], scalars[_STORED]
        counts_code, bottom_ranks = scalars[_COUNTS_CODE], scalars[_BOTTOM_RANKS]
        pruned, even_minus_odd, target = scalars[_PRUNED], scalars[_EVEN_MINUS_ODD], scalars[_TARGET]
        spare = remaining - target
        status = GROW
        while not (keyed_by_heights and outgrown(memo, stored)):
            if next_move[depth] < move_count[depth]:
                move = moves[depth, next_move[depth]]
                next_move[depth] += 1
                if keyed_by_heights:
                    dealt, cards = 0, depth + 1
                    child = child_key(ranks, steps, heights, keys[depth], move)
                    if remaining - depth - 1 > UNSTORED:
                        if next_move[depth] < move_count[depth]:  # warm the next sibling's slot meanwhile
                            prefetch(
                                memo,
                                child_key(ranks, steps, heights, keys[depth], moves[depth, next_move[depth]]),
                            )
                        if recalls(memo, child):
                            continue  # searched in full before, by another order of the same moves
                else:
                    dealt, cards = dealts[depth], played[depth]
                    if move == piles:
                        child, dealt, foundation = keys[depth], dealt + 1, talon[dealt]
                    else:
                        height = heights[move]
                        child, foundation, cards = (
                            keys[depth] + steps[move, height],
                            ranks[move, height - 1],
                            cards + 1,
                        )
                    if not _mark(memo, bitmap, _key(child, dealt, foundation, talon_size)):
                        continue  # searched before, by another order of the same moves
                # the budget is spent: the child is not entered, so nodes never pass it
                if nodes >= max_nodes:
                    status = Status.OUT_OF_BUDGET.value
                    break
                if not keyed_by_heights:
                    stored += 1
                nodes += 1
                if keyed_by_heights or move < piles:
                    foundation = take(ranks, heights, tops, move)
                    counts[foundation] -= 1
                    if keyed_by_heights:
                        counts_code -= POWERS_OF_5[foundation]
                    else:
                        even_minus_odd -= 1 - 2 * (foundation & 1)
                    if heights[move] == 0:
                        bottoms[foundation] -= 1
                        if keyed_by_heights and bottoms[foundation] == 0:
                            bottom_ranks &= ~(1 << foundation)
                path[depth] = move
                deepest = max(deepest, cards)
                if cards == target:
                    if not maximise or target == remaining:
                        status = Status.REACHED.value
                        break
                    target += 1
                    spare -= 1
                # cheap verdicts (a failed condition, no move) are recomputed, not stored
                found, short = 0, 0
                if keyed_by_heights:
                    worth = not _lost(
                        ranks, heights, counts, foundation, counts_code, bottom_ranks, spare, flags,
                        memo_keys, memo_ends, memo_orders,
                    )  # fmt: skip
                else:
                    short = (
                        shortfalls[depth] + 1
                    )  # a move raises it by one at most (see predecessor_shortfall)
                    if short > spare:
                        short = predecessor_shortfall(
                            counts, starts, dealt, foundation, wrap, dead_king, flags
                        )
                    worth = short <= spare and not rules_out(
                        ranks, heights, counts, bottoms, starts, dealt, foundation, wrap, spare,
                        even_minus_odd, flags, memo_orders, memo_keys, memo_ends,
                    )  # fmt: skip
                    pruned += not worth
                if worth:
                    found = list_moves(
                        ranks, heights, tops, foundation, dealt < talon_size, wrap, dead_king,
                        flags & Reduction.DOMINANCE.value, moves, depth + 1,
                    )  # fmt: skip
                if found > 0:
                    depth += 1
                    keys[depth] = child
                    move_count[depth] = found
                    next_move[depth] = 0
                    if keyed_by_heights:
                        entered[depth] = nodes
                        if remaining - depth - 1 > UNSTORED:
                            prefetch(memo, child_key(ranks, steps, heights, child, moves[depth, 0]))
                    else:
                        dealts[depth], played[depth], shortfalls[depth] = dealt, cards, short
                        for index in range(found):  # start loading the children's memo entries meanwhile
                            move = moves[depth, index]
                            if move == piles:
                                key = _key(child, dealt + 1, talon[dealt], talon_size)
                            else:
                                height = heights[move]
                                key = _key(
                                    child + steps[move, height], dealt, ranks[move, height - 1], talon_size
                                )
                            if bitmap:
                                prefetch_at(memo, DIRTY_WORDS + (key >> 6))
                            else:
                                prefetch_at(memo, slot_for(key, TABLE_SLOTS // 8 - 1) << 3)
                    continue
            else:
                if keyed_by_heights and remaining - depth > UNSTORED:
                    remember(memo, keys[depth], bit_length(nodes - entered[depth]))
                    stored += 1
                if depth == 0:
                    status = Status.MISSED.value
                    break
                depth -= 1
                move = path[depth]
                if not keyed_by_heights and move == piles:
                    continue
                foundation = ranks[move, heights[move]]
            # put the card played from ``move`` (of rank ``foundation``) back
            if keyed_by_heights or move < piles:
                if heights[move] == 0:
                    bottoms[foundation] += 1
                    if keyed_by_heights:
                        bottom_ranks |= 1 << foundation
                put_back(ranks, heights, tops, move)
                counts[foundation] += 1
                if keyed_by_heights:
                    counts_code += POWERS_OF_5[foundation]
                else:
                    even_minus_odd += 1 - 2 * (foundation & 1)
        scalars[_DEPTH], scalars[_NODES], scalars[_DEEPEST], scalars[_STORED] = depth, nodes, deepest, stored
        scalars[_COUNTS_CODE], scalars[_BOTTOM_RANKS] = counts_code, bottom_ranks
        scalars[_PRUNED], scalars[_EVEN_MINUS_ODD], scalars[_TARGET] = pruned, even_minus_odd, target
        return status

    return descend


_descend_by_heights = _descender(True)
_descend_with_marks = _descender(False)


def position_arrays(deal: Deal, position: Position) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, int]:
    """The search's numbers for ``position``: (ranks, heights, talon ranks, talon dealt, foundation or -1)."""
    size = deal.game.pile_size
    ranks = np.array(  # a row per pile, padded: one array built at once (a solve of a short deal feels it)
        [[rank_of(card) for card in cards] + [0] * (size - len(cards)) for cards in deal.piles],
        dtype=np.int64,
    )
    heights = np.array(position.heights, dtype=np.int64)
    talon = np.array([rank_of(card) for card in deal.talon], dtype=np.int64)
    foundation = -1 if position.foundation_rank is None else position.foundation_rank
    return ranks, heights, talon, position.talon_dealt, foundation


def new_memo(ranks: np.ndarray, talon: np.ndarray) -> np.ndarray:
    """An empty memo for searches of this layout: a bit array if every key fits in BITMAP_BITS, else a table.

    A bit array starts with DIRTY_WORDS words of the lines set, which
    :func:`search` clears again before it returns. A table (see
    :func:`_mark`) holds TABLE_SLOTS keys stamped with the search that put
    them there, its stamp in the last word, so a new search forgets the
    keys of the last one without clearing them. Either way the memo serves
    the next search as it is, and :func:`solve_position` keeps one for the
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
    """Keep a memo that :func:`search` has left ready, for the next search."""
    _SPARE_MEMOS.setdefault(memo.shape[0], []).append(memo)


def uses_bitmap(ranks: np.ndarray, talon: np.ndarray) -> bool:
    """Whether :func:`new_memo` gives this layout a bit array."""
    piles, size = ranks.shape
    return (size + 1) ** piles * (talon.shape[0] + 1) * FOUNDATIONS <= BITMAP_BITS


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
def _lost(
    ranks, heights, counts, foundation, counts_code, bottom_ranks, spare, flags, memo_keys, memo, memo_orders
) -> bool:  # fmt: skip
    """Whether a necessary condition shows that a line from here leaves more than ``spare`` cards.

    A win (no spare card) needs the Euler walk condition, and the rank
    order condition with it (:func:`hopeless`).
    Otherwise cards in ranks that cannot be reached are never played, so they
    must not outnumber the spares; with one spare card the others must make
    an Euler walk (:func:`_one_spare_walkable`).
    """
    if spare == 0:
        return hopeless(
            ranks, heights, counts, foundation, counts_code, bottom_ranks, flags, memo_keys, memo, memo_orders
        )  # fmt: skip
    if not flags & (Reduction.REACHABILITY.value | Reduction.EULER.value):
        return False
    total = 0
    for rank in range(NUM_RANKS):
        total += counts[rank]
    if total - reachable_cards(counts, foundation) > spare:
        return True
    return (
        spare == 1
        and flags & Reduction.EULER.value
        and not _one_spare_walkable(counts, foundation, counts_code, bottom_ranks, memo_keys, memo)
    )


@numba.njit(cache=True, _nrt=False)
def hopeless(
    ranks: np.ndarray,
    heights: np.ndarray,
    counts: np.ndarray,
    foundation: int,
    counts_code: int,
    end_ranks: int,
    flags: int,
    memo_keys: np.ndarray,
    memo: np.ndarray,
    memo_orders: np.ndarray,
) -> bool:
    """Whether a necessary condition for a win fails: rank reachability, or the Euler walk and rank order
    conditions (:func:`~pipeline.engine.conditions.walk_ruled_out`, with its memo: ``memo_keys``, ``memo``
    and ``memo_orders``).

    ``counts_code`` is :func:`code_of_counts` of ``counts`` and ``end_ranks``
    the bit set of ranks of the bottom cards of non-empty piles; the caller
    keeps both up to date.
    """
    if (
        flags & Reduction.REACHABILITY.value
        and not flags & Reduction.EULER.value
        and not ranks_reachable(counts, foundation)
    ):
        return True  # the Euler walk condition implies reachability
    if flags & Reduction.EULER.value:
        return walk_ruled_out(
            ranks, heights, counts, foundation, counts_code, end_ranks, flags, memo_keys, memo, memo_orders
        )  # fmt: skip
    return False


@numba.njit(cache=True, _nrt=False)
def _one_spare_walkable(
    counts: np.ndarray,
    foundation: int,
    counts_code: int,
    bottom_ranks: int,
    memo_keys: np.ndarray,
    memo: np.ndarray,
) -> bool:
    """Whether all cards left but at most one might make one Euler walk from ``foundation``.

    The card left out is the bottom card of its pile (one higher up would
    keep those under it too), so its rank is in ``bottom_ranks``. Answers are
    memoised like :func:`hopeless`'s.
    """
    code = (foundation * POWERS_OF_5[NUM_RANKS] + counts_code) << NUM_RANKS | bottom_ranks
    slot = memo_slot(memo_keys, code)
    if memo_keys[slot] == code:
        return memo[slot] != 0
    possible = euler_walkable(counts, foundation)
    for rank in range(NUM_RANKS):
        if possible:
            break
        if (bottom_ranks >> rank) & 1 and counts[rank] > 0:
            counts[rank] -= 1
            possible = euler_walkable(counts, foundation)
            counts[rank] += 1
    memo_keys[slot] = code
    memo[slot] = 1 if possible else 0
    return possible
