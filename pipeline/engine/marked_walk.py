"""The game-tree walk by marks: every position decided once and kept, for layouts whose positions are not
their pile heights alone (a talon, or an empty foundation): All in a Row and the Golfs.

:mod:`pipeline.engine.gametree` is the walk's face and chooses this loop by
the layout, as the solver chooses the search's memo. It takes the game as
the search's numbers (:func:`pipeline.engine.search.position_arrays`) and
finds the figures of :class:`~pipeline.engine.gametree.Tree`: for the
start, the number of distinct winning move sequences (a talon deal is a
move, so two wins that deal at different times are two sequences), each
player model's chance of winning in one attempt and its dead ends with
undo, the positions from which a win exists and those one move from one,
the branching, and the opening's and the line's moves and traps.

**One pass, every position decided once.** The walk is a depth-first pass
in which every position is entered at most once: every move plays or deals
a card, so no position repeats on a line, and a position's figures depend
on the position alone. Its key is the marked search's, with piles of the
same ranks merged (they have the same future, move for move, so they share
one record, and ``winnable_states`` counts them once). A position is
decided on entry when it is won (the piles are empty: talon cards may be
left), when no move is left, or when a necessary condition for a win fails
(:func:`~pipeline.engine.conditions.rules_out` and the predecessors
condition, with no card to spare); otherwise each of its legal moves is
followed, and the position is winnable when one of them leads to a win.
Every decided position is kept in an exact table (a number per position:
its record when a win exists from it, else a mark), so the walk never
decides one twice.

**Lost siblings stand in** (:attr:`~pipeline.engine.gametree.WalkOptions.siblings`,
:func:`~pipeline.engine.tree_figures.stood_in_for`):
a pile move that same-rank dominance shows a lost sibling's move stands in
for is lost too, and is not entered. Proof: the dominating move's lines
have twins after the dominated one that play as many pile cards and deal
the talon alike (:mod:`pipeline.engine.search`), so a win after the
dominated move would give one after the dominating move, which is lost.
Moves are tried taller piles first, so a dominating move is decided before
the moves it stands in for.

**The figures** follow one backward recurrence. For a winnable position
with legal moves ``m`` (``n`` of them): the solution count is the sum of
its winnable children's; the moves along every winning line, the sum of
each winnable child's plus its count; the legal moves summed along every
winning line, each child's plus ``n`` times its count (so their ratio is
the branching along winning lines, each line weighted alike: Golf's lines
differ in length, so the count of moves is kept, not assumed as in Black
Hole); each player's win chance, the sum over moves of the player's chance
of the move times the child's; and its dead ends
(:func:`pipeline.engine.tree_figures.player_figures`, the other loop's
recurrence too). The player models' chances come from
:mod:`pipeline.engine.policies`.

Counts are exact 64-bit integers; a count that would pass 2**62 stops the
walk (``OVERFLOW``), and a budget of positions entered stops it too
(``OUT_OF_BUDGET``): then nothing it found is claimed.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import types
from numba.typed import Dict

from pipeline.engine.conditions import (
    MAX_ORDERED_ENDS,
    ORDER_WORDS,
    WALK_MEMO_SIZE,
    predecessor_shortfall,
    rules_out,
    talon_starts,
)
from pipeline.engine.kernel import (
    fill_moves_of,
    layout_of,
    layout_steps,
    pile_tallies,
    put_back_card,
)
from pipeline.engine.kernel import take as take_free_card
from pipeline.engine.policies import FIGURES, PLAYER_COUNT, fill_chances, new_scratch
from pipeline.engine.reductions import Reduction
from pipeline.engine.search import position_arrays
from pipeline.engine.status import Status
from pipeline.engine.tree_figures import COUNT_LIMIT, player_figures, stood_in_for
from pipeline.game.cards import NUM_RANKS
from pipeline.game.deal import Deal
from pipeline.game.rules import Position

_LOST, _LOST_COUNTED, _UNDECIDED = -1, -2, -3  # the table's marks; a record's number is 0 or more
_CONDITIONS = (Reduction.EULER | Reduction.ORDER | Reduction.RUNS | Reduction.PREDECESSORS).value
_FIRST_RECORDS = 1 << 12


def marked_walk(
    deal: Deal, start: Position, line: tuple[int, ...], max_positions: int, siblings: bool
) -> tuple[np.ndarray, np.ndarray]:
    """The walk of ``deal`` from ``start`` (the along-the-line figures follow ``line``, a win): its integer
    figures and its float ones, as :func:`_walk` returns them."""
    ranks, heights, talon, dealt, foundation = position_arrays(deal, start)
    game = deal.game
    return _walk(  # type: ignore[no-any-return]
        ranks, heights, talon, dealt, foundation, game.wrap, game.dead_king, np.array(line, dtype=np.int64),
        max_positions, siblings,
    )  # fmt: skip


@numba.njit(cache=True, _nrt=False)
def _key(layout: int, dealt: int, foundation: int, talon_size: int) -> int:
    """A position's key: its merged layout number, talon cards dealt and foundation (-1: empty)."""
    return (layout * (talon_size + 1) + dealt) * (NUM_RANKS + 1) + foundation + 1


@numba.njit(cache=True, _nrt=False)
def _child(ranks, steps, heights, talon, layout, dealt, move) -> tuple[int, int, int]:
    """The (layout number, talon cards dealt, foundation) after ``move`` from the position of ``heights``."""
    if move == ranks.shape[0]:
        return layout, dealt + 1, talon[dealt]
    height = heights[move]
    return layout + steps[move, height], dealt, ranks[move, height - 1]


@numba.njit(cache=True)
def _walk(
    ranks, start_heights, talon, start_dealt, start_foundation, wrap, dead_king, line, max_positions, siblings
):
    """The walk; returns the integer figures of :class:`Tree` (status, solutions, winnable, reachable, winning
    first moves, first moves, forced moves, decisions, traps, first trap, positions) and the float ones (each
    player's two figures, then the branching along winning lines and at winnable positions)."""
    piles = ranks.shape[0]
    talon_size = talon.shape[0]
    heights = start_heights.copy()
    tops, counts, bottoms, even_minus_odd = pile_tallies(ranks, heights)
    left = 0
    for pile in range(piles):
        left += heights[pile]
    starts = talon_starts(talon)
    orders = np.zeros((WALK_MEMO_SIZE, MAX_ORDERED_ENDS, ORDER_WORDS), dtype=np.int64)
    walk_keys = np.full(WALK_MEMO_SIZE, -1, dtype=np.int64)
    walk_ends = np.zeros(WALK_MEMO_SIZE, dtype=np.int64)
    steps = layout_steps(ranks, True)
    layout = layout_of(steps, heights)
    frames = left + talon_size - start_dealt + 1
    width = piles + 1
    moves = np.zeros((frames, width), dtype=np.int64)
    move_count = np.zeros(frames, dtype=np.int64)
    next_move = np.zeros(frames, dtype=np.int64)
    child_records = np.zeros((frames, width), dtype=np.int64)
    child_keys = np.zeros((frames, width), dtype=np.int64)
    losers = np.zeros(frames, dtype=np.int64)
    keys = np.zeros(frames, dtype=np.int64)
    layouts = np.zeros(frames, dtype=np.int64)
    dealts = np.zeros(frames, dtype=np.int64)
    foundations = np.zeros(frames, dtype=np.int64)
    lefts = np.zeros(frames, dtype=np.int64)
    table = Dict.empty(key_type=types.int64, value_type=types.int64)
    record_counts = np.zeros(_FIRST_RECORDS, dtype=np.int64)
    record_floats = np.zeros((_FIRST_RECORDS, FIGURES + 2), dtype=np.float64)  # figures, line moves, moves
    chances = np.zeros((PLAYER_COUNT, width), dtype=np.float64)
    ahead, stack, nexts, depth_counts = new_scratch(piles)
    child_figures = np.zeros((width, FIGURES), dtype=np.float64)  # the winnable children's, by move
    scratch_figures = np.zeros(FIGURES, dtype=np.float64)
    numbers = np.zeros(11, dtype=np.int64)
    figures = np.zeros(FIGURES + 2, dtype=np.float64)
    stored = positions = lost_children = not_won = 0
    moves_winnable = 0.0
    status = Status.EXACT.value
    key = _key(layout, start_dealt, start_foundation, talon_size)
    keys[0], layouts[0], dealts[0], foundations[0], lefts[0] = (
        key,
        layout,
        start_dealt,
        start_foundation,
        left,
    )
    positions = 1
    move_count[0] = _moves_on_entry(
        ranks, heights, tops, counts, bottoms, starts, start_dealt, start_foundation, wrap, dead_king, left,
        even_minus_odd, orders, walk_keys, walk_ends, moves, 0,
    )  # fmt: skip
    depth = 0 if move_count[0] > 0 and left > 0 else -1
    if left == 0:
        record_floats[0, 0:FIGURES:2] = 1.0
        record_counts[0] = 1
        table[key] = 0
        stored = 1
    elif depth < 0:
        table[key] = _LOST
    while depth >= 0:
        if next_move[depth] < move_count[depth]:
            index = next_move[depth]
            next_move[depth] += 1
            move = moves[depth, index]
            layout, dealt, foundation = _child(
                ranks, steps, heights, talon, layouts[depth], dealts[depth], move
            )
            cards = lefts[depth] - 1 if move < piles else lefts[depth]
            key = _key(layout, dealt, foundation, talon_size)
            child_keys[depth, index] = key
            known = table.get(key, _UNDECIDED)
            if known == _UNDECIDED and siblings and move < piles and losers[depth]:
                if stood_in_for(ranks, heights, tops, move, losers[depth]):
                    known = _LOST
                    table[key] = _LOST
            if known != _UNDECIDED:
                child_records[depth, index] = known if known >= 0 else _LOST
                if known < 0 and move < piles:
                    losers[depth] |= 1 << move
                continue
            positions += 1
            if positions > max_positions:
                status = Status.OUT_OF_BUDGET.value
                break
            if move < piles:
                take_free_card(ranks, heights, tops, move)
                counts[foundation] -= 1
                even_minus_odd -= 1 - 2 * (foundation & 1)
                if heights[move] == 0:
                    bottoms[foundation] -= 1
            if cards == 0:
                if stored == record_counts.shape[0]:
                    record_counts, record_floats = _grown(record_counts, record_floats)
                record_counts[stored] = 1
                record_floats[stored, :] = 0.0
                record_floats[stored, 0:FIGURES:2] = 1.0
                table[key] = stored
                child_records[depth, index] = stored
                stored += 1
                found = 0
            else:
                found = _moves_on_entry(
                    ranks, heights, tops, counts, bottoms, starts, dealt, foundation, wrap, dead_king, cards,
                    even_minus_odd, orders, walk_keys, walk_ends, moves, depth + 1,
                )  # fmt: skip
                if found == 0:
                    table[key] = _LOST
                    child_records[depth, index] = _LOST
                    if move < piles:
                        losers[depth] |= 1 << move
            if found > 0:
                depth += 1
                keys[depth], layouts[depth], dealts[depth], foundations[depth], lefts[depth] = (
                    key, layout, dealt, foundation, cards,
                )  # fmt: skip
                move_count[depth], next_move[depth], losers[depth] = found, 0, 0
                continue
            if move < piles:
                put_back_card(ranks, heights, tops, counts, bottoms, move)
                even_minus_odd += 1 - 2 * (foundation & 1)
            continue
        # every move of the position at ``depth`` is decided: so is the position
        count = move_count[depth]
        record = _LOST
        winners = 0
        total = 0
        for index in range(count):
            child = child_records[depth, index]
            if child >= 0:
                winners |= 1 << moves[depth, index]
                total += record_counts[child]
                if total >= COUNT_LIMIT:
                    break
        if total >= COUNT_LIMIT:
            status = Status.OVERFLOW.value
            break
        if total > 0:
            if stored == record_counts.shape[0]:
                record_counts, record_floats = _grown(record_counts, record_floats)
            record = stored
            stored += 1
            record_counts[record] = total
            _figures_of(
                record_counts, record_floats, record, child_records, moves, depth, count, winners, ranks, heights,
                tops, foundations[depth], talon, dealts[depth], lefts[depth], wrap, dead_king, chances, ahead,
                stack, nexts, depth_counts, child_figures, scratch_figures,
            )  # fmt: skip
            moves_winnable += count
            not_won += 1
            for index in range(count):
                if child_records[depth, index] < 0 and table[child_keys[depth, index]] == _LOST:
                    table[child_keys[depth, index]] = _LOST_COUNTED
                    lost_children += 1
        table[keys[depth]] = record
        if depth == 0:
            break
        depth -= 1
        index = next_move[depth] - 1
        move = moves[depth, index]
        child_records[depth, index] = record
        if move < piles:
            if record < 0:
                losers[depth] |= 1 << move
            rank = put_back_card(ranks, heights, tops, counts, bottoms, move)
            even_minus_odd += 1 - 2 * (rank & 1)
    numbers[0] = status
    numbers[10] = positions
    if status != Status.EXACT.value:
        return numbers, figures
    start = table[_key(layouts[0], start_dealt, start_foundation, talon_size)]
    if start >= 0:
        numbers[1] = record_counts[start]
        figures[:] = record_floats[start]
        figures[FIGURES] = (
            record_floats[start, FIGURES] / record_floats[start, FIGURES + 1] if not_won else 0.0
        )
        figures[FIGURES + 1] = moves_winnable / not_won if not_won else 0.0
        numbers[2] = stored
        numbers[3] = stored + lost_children
    else:
        for row in range(PLAYER_COUNT):
            figures[2 * row], figures[2 * row + 1] = 0.0, np.inf
        figures[FIGURES] = figures[FIGURES + 1] = 0.0
        numbers[3] = 1  # the start alone: no winnable position has children
    _along(
        ranks,
        steps,
        start_heights,
        talon,
        start_dealt,
        start_foundation,
        layouts[0],
        wrap,
        dead_king,
        line,
        table,
        numbers,
    )
    return numbers, figures


@numba.njit(cache=True)
def _grown(record_counts: np.ndarray, record_floats: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The records in arrays twice as long."""
    size = record_counts.shape[0]
    counts = np.zeros(2 * size, dtype=np.int64)
    floats = np.zeros((2 * size, record_floats.shape[1]), dtype=np.float64)
    counts[:size] = record_counts
    floats[:size] = record_floats
    return counts, floats


@numba.njit(cache=True, _nrt=False)
def _moves_on_entry(
    ranks, heights, tops, counts, bottoms, starts, dealt, foundation, wrap, dead_king, left, even_minus_odd,
    orders, walk_keys, walk_ends, moves, row,
) -> int:  # fmt: skip
    """Fill ``moves[row]`` with every legal move of a position with pile cards left, taller piles first then
    the talon deal; return how many, or 0 when the position is lost at once (no move, or a necessary
    condition for a win fails)."""
    if predecessor_shortfall(counts, starts, dealt, foundation, wrap, dead_king, _CONDITIONS) > 0:
        return 0
    if rules_out(
        ranks, heights, counts, bottoms, starts, dealt, foundation, wrap, 0, even_minus_odd, _CONDITIONS, orders,
        walk_keys, walk_ends,
    ):  # fmt: skip
        return 0
    talon_left = dealt < starts.shape[0] - 1
    return fill_moves_of(ranks, heights, tops, foundation, talon_left, wrap, dead_king, 0, moves, row)


@numba.njit(cache=True, _nrt=False)
def _figures_of(
    record_counts, record_floats, record, child_records, moves, depth, count, winners, ranks, heights, tops,
    foundation, talon, dealt, left, wrap, dead_king, chances, ahead, stack, nexts, depth_counts, child_figures,
    figures,
) -> None:  # fmt: skip
    """Fill a winnable position's record: each player's figures, the legal moves summed along its winning
    lines and the moves of those lines, from its moves' records."""
    fill_chances(
        ranks, heights, tops, foundation, talon, dealt, left, wrap, dead_king, moves, depth, count, winners,
        chances, ahead, stack, nexts, depth_counts,
    )  # fmt: skip
    line_moves = line_length = 0.0
    for index in range(count):
        child = child_records[depth, index]
        if child >= 0:
            line_moves += record_floats[child, FIGURES] + count * record_counts[child]
            line_length += record_floats[child, FIGURES + 1] + record_counts[child]
    record_floats[record, FIGURES] = line_moves
    record_floats[record, FIGURES + 1] = line_length
    won = 0
    for index in range(count):
        child = child_records[depth, index]
        if child >= 0:
            won |= 1 << index
            for figure in range(FIGURES):
                child_figures[index, figure] = record_floats[child, figure]
    player_figures(chances, count, won, child_figures, figures)
    for figure in range(FIGURES):
        record_floats[record, figure] = figures[figure]


@numba.njit(cache=True)
def _along(
    ranks,
    steps,
    start_heights,
    talon,
    start_dealt,
    start_foundation,
    start_layout,
    wrap,
    dead_king,
    line,
    table,
    numbers,
) -> None:
    """The opening's figures (winning first moves, first moves) and the line's (forced moves, decisions,
    traps, first trap), into ``numbers[4:10]``, from the table of decided positions."""
    piles = ranks.shape[0]
    talon_size = talon.shape[0]
    heights = start_heights.copy()
    tops = np.zeros(NUM_RANKS, dtype=np.int64)
    for pile in range(piles):
        if heights[pile] > 0:
            tops[ranks[pile, heights[pile] - 1]] |= 1 << pile
    moves = np.zeros((1, piles + 1), dtype=np.int64)
    layout, dealt, foundation = start_layout, start_dealt, start_foundation
    forced = decisions = traps = 0
    first_trap = -1
    for step in range(line.shape[0] + 1):
        count = fill_moves_of(
            ranks, heights, tops, foundation, dealt < talon_size, wrap, dead_king, 0, moves, 0
        )
        winning = 0
        for index in range(count):
            after, after_dealt, after_foundation = _child(
                ranks, steps, heights, talon, layout, dealt, moves[0, index]
            )
            winning += table.get(_key(after, after_dealt, after_foundation, talon_size), _LOST) >= 0
        if step == 0:
            numbers[4], numbers[5] = winning, count
        if step == line.shape[0]:
            break
        if count == 1:
            forced += 1
        elif count > 1:
            decisions += 1
            if winning < count:
                traps += 1
                if first_trap < 0:
                    first_trap = step
        move = line[step]
        layout, dealt, foundation = _child(ranks, steps, heights, talon, layout, dealt, move)
        if move < piles:
            take_free_card(ranks, heights, tops, move)
    numbers[6], numbers[7], numbers[8], numbers[9] = forced, decisions, traps, first_trap
