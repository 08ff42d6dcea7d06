"""One exact pass over the game tree of a position, for every game of the family: the numbers difficulty
grades are built from.

:func:`tree_of` is the walk's one face, and one loop (:func:`_walker`) walks
every game. For every position from which a win exists it finds the number
of distinct winning move sequences from it (a talon deal is a move, so two
wins that deal at different times are two sequences), each player model's
chance of winning in one attempt and its dead ends with undo, and the legal
moves along its winning lines; then the positions from which a win exists
and those one move from one, the branching, and the opening's and the
line's moves and traps. A lost position adds 0 to every sum, whatever lies
below it, so the pass needs to know *that* a position is lost, not to count
below it. The figures follow one backward recurrence
(:mod:`pipeline.engine.tree_figures`), with the same player policies
(:mod:`pipeline.engine.policies`).

The layout chooses how the loop keeps its positions, as it chooses the
search's memo (:func:`walks_by_heights`), and the loop is compiled once for
each way, the choice a constant of the compiled code, as the search's loop
is (:mod:`pipeline.engine.search`). The two ways differ in how
positions are kept and keyed, the conditions asked on entry, the moves'
order, whether a position is first searched for one win, and the order in
which the floats are summed (each keeps its own, so no figure moves by a
bit); the frame stack, the descent and the return, the recurrence, and the
opening and the line are written once.

**By pile heights** (Black Hole: a position is its pile heights and
foundation rank alone, ranks wrap and no King is dead):

* each position is first searched for one win, as the solver does: with the
  necessary conditions for a win (:func:`pipeline.engine.search.hopeless`: the Euler
  walk and rank order conditions) and same-rank dominance, which leaves out
  moves another move stands in for. When that search ends without a win, the
  position is proved lost (dominance never leaves out the only way to win);
* as soon as one of its moves leads to a win, the position is known
  winnable, and from then on *every* legal move is searched and counted, in
  pile order, for a skipped move may win too: dominance is right for finding
  one solution and wrong for counting them all;
* but among those moves, one that a move already proved lost stands in for
  by same-rank dominance is lost too, and is not searched
  (:attr:`WalkOptions.siblings`). Proof: dominance (proved in
  :mod:`pipeline.engine.search`) gives every line after the move it stands
  in for a twin of the same length after the move that stands in; a win
  plays every card, so a win after the first would be a win after the
  second, which is lost.

Winnable positions are memoised in an exact hash table under the search's
key (:func:`pipeline.engine.kernel.layout_weights`): the multiset of remaining
piles, read as rank sequences, and the foundation rank. Positions that differ
only by which of two piles holding the same ranks is which have the same
future, move for move, so they share one record, and ``winnable_states`` and
``reachable_states`` count such positions once. The index keeps every winnable
position's key, so each is counted once; its records (the figures) may be
capped (``max_bytes`` of :func:`tree_of`): when they are full, the records
of about half the positions, those with the fewest cards left, are
forgotten, and a forgotten position met again is walked again, as it was
first walked, so its figures come out the same and only the positions
entered grow. (Met as the twin of the position first walked, two piles of
the same ranks swapped, its moves are summed in another order, which could
move a float's last bit; on the deals measured none did.) A cap too tight
walks the same positions again and again. Lost positions go to the solver's
lossy cache (the transposition table of :mod:`pipeline.engine.kernel`): one
forgotten is proved again. A small filter of every stored key (two bits in
one word) answers "never stored" for most lookups without touching either
table (docs/benchmarks.md gives how many on one deal). Every winning line
plays every card, so the legal moves summed along the winning lines,
divided by the count and the cards left, give the branching along winning
lines, each line weighted alike; random play's win chance is summed in the
order the moves are decided.

**With marks** (a talon, or an empty foundation: All in a Row and the
Golfs): every position is entered at most once, in one depth-first pass
(every move plays or deals a card, so no position repeats on a line, and a
position's figures depend on the position alone). Its key is the marked
search's, with piles of the same ranks merged. A position is decided on
entry when it is won (the piles are empty: talon cards may be left), when
no move is left, or when a necessary condition for a win fails
(:func:`~pipeline.engine.conditions.rules_out` and the predecessors
condition, with no card to spare); otherwise each of its legal moves is
followed, taller piles first, then the talon deal, and it is winnable when
one of them leads to a win. Every decided position is kept in an exact
table (its record when a win exists from it, else a mark), so the walk
never decides one twice. A pile move that a lost sibling's stands in for
is lost too (:attr:`WalkOptions.siblings`): the dominating move's lines have
twins after the dominated one that play as many pile cards and deal the
talon alike, and moves are tried taller piles first, so the move that
stands in is decided first. Golf's winning lines differ in length, so the
moves along them are counted beside the legal moves summed along them;
their ratio is the branching along winning lines.

Either way the reachable positions are the start, and every position one
move from a winnable one (won, winnable, or lost at that move), which
depends on the game alone, not on how the walk proved positions lost; the
opening moves and the line's traps are looked up at the end.

Counts are exact 64-bit integers; a count that would pass 2**62 stops the
walk (status ``OVERFLOW``) rather than wrap. A budget of positions entered stops
it too (``OUT_OF_BUDGET``): then nothing it found is claimed.

>>> from pipeline.game.deal import Deal, EXAMPLE_BOARD
>>> from pipeline.game.rules import Position
>>> tree = tree_of(Deal.from_board_text(EXAMPLE_BOARD), Position.start(Deal.from_board_text(EXAMPLE_BOARD)))
>>> tree.status, tree.solution_count, tree.random_win_probability
(<Status.EXACT: 2>, 0, 0.0)
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np
from numba import types
from numba.typed import Dict

from pipeline.engine.budgets import DEFAULT_MAX_POSITIONS
from pipeline.engine.conditions import (
    MAX_ORDERED_ENDS,
    ORDER_WORDS,
    WALK_MEMO_SIZE,
    talon_starts,
)
from pipeline.engine.kernel import (
    FOUNDATION_SHIFT,
    GROW,
    MAX_SLOTS,
    UNSTORED,
    bit_length,
    child_key,
    code_of_counts,
    free_cards,
    key_of,
    layout_of,
    layout_steps,
    moves_taller_first,
    new_set,
    pile_tallies,
    prefetch,
    prefetch_at,
    put_back_card,
    recalls,
    remember,
    set_add,
    set_contains,
    set_move_into,
    slot_for,
    take,
)
from pipeline.engine.policies import FIGURES, PLAYER_COUNT, new_scratch
from pipeline.engine.reductions import Reduction
from pipeline.engine.search import MEMO_SIZE, position_arrays
from pipeline.engine.solver import keyed_by_heights
from pipeline.engine.status import Status
from pipeline.engine.tree_figures import (
    COUNT_LIMIT,
    LOST,
    TALLY_CODE,
    TALLY_END_RANKS,
    WON,
    any_move_after,
    enter_by_heights,
    enter_unconditioned,
    enter_with_marks,
    marked_child,
    marked_key,
    play_by_heights,
    stood_in_for,
    unplay_by_heights,
    untried_moves,
    winnable_by_heights,
    winnable_figures,
    won_figures,
)
from pipeline.game.cards import NUM_RANKS
from pipeline.game.deal import NUM_PILES, Deal
from pipeline.game.games import Game
from pipeline.game.players import PlayerFigures
from pipeline.game.rules import Position

_FIRST_CAPACITY = 1 << 20  # slots of the index and of lost_children, and records: a median deal doubles none
# by heights, the table of winnable positions is an index and its records. A slot of the index is two words:
# key + 1 (0: empty) and the record's number; records are stored densely, in the order found, so the memory
# they take grows with the winnable positions alone. A record, in words: its solution count, the legal moves
# summed along every winning line from it, and its player figures (floats, as their bits); the first figure is
# random play's win chance
_SLOT = 2
_RECORD_COUNT, _RECORD_LINE_MOVES, _RECORD_FIGURES = 0, 1, 2
_RECORD = _RECORD_FIGURES + FIGURES
# with marks, the table is a Dict from a position's key to its record's number (0 or more) or a mark; a
# record is its solution count, and its floats: its player figures, the legal moves summed along its winning
# lines and the moves of those lines
_LOST_MARK, _COUNTED_MARK, _UNDECIDED = (
    -1,
    -2,
    -3,
)  # lost; lost and counted as a winnable one's child; neither
_LINE_MOVES_OF, _LINE_LENGTH = FIGURES, FIGURES + 1
_MARKED_RECORD = FIGURES + 2
_FIRST_MARKED_RECORDS = 1 << 12
(
    _KEY, _COUNTING, _COUNT, _NEXT, _LEGAL, _SOLUTIONS, _PLAYED, _ENTERED, _WINNERS, _LOSERS, _PENDING,
    _PENDING_ROOTS, _DEEPER, _LAYOUT, _DEALT, _FOUNDATION, _LEFT,
) = range(17)  # fmt: skip
# a frame's fields: by heights the first 13, with marks _KEY, _COUNT, _NEXT, _LOSERS and the last four.
# _WINNERS and _LOSERS: the bit sets of piles whose move was found to lead to a win, and to a lost position;
# _PENDING and _PENDING_ROOTS: the positions entered below it in searches that ended lost, and those searches,
# while it is not known winnable (see _tally_proof); _DEEPER: 1 once a search went below it
_FRAME_FIELDS = 13
_MARKED_FRAME_FIELDS = 17
_ODDS, _LINE_MOVES = range(2)  # a frame's float fields by heights: its children's sums
_FRAME_FLOATS = 2
(
    _DEPTH, _STORED, _NODES, _MOVES_WINNABLE, _LOST_CHILDREN, _NOT_WON, _EVEN_MINUS_ODD, _WINNABLE,
) = range(8)  # the loop's kept scalars  # fmt: skip
_MEMORY_CHECK = _WINNABLE + 1  # with marks, the positions entered at which the memory held is next counted
_SCALARS = _MEMORY_CHECK + 1
# with marks, the memory a walk holds is counted every _CHECK_EVERY positions entered, at _DICT_ENTRY_BYTES an
# entry of its table (a typed Dict of int64: measured 47 to 63 bytes an entry at its peak, a resize included)
_CHECK_EVERY = 1 << 20
_DICT_ENTRY_BYTES = 64
# by heights, an index slot's second word: the record's number, and the cards left in its position above
_NUMBER_BITS = 40
_NUMBER = (1 << _NUMBER_BITS) - 1
_FORGOTTEN = _NUMBER  # a winnable position whose record was forgotten: walked again when met
_FEWEST_RECORDS = 64  # the fewest records a cap on the tables (tree_of's max_bytes) leaves room for
_FORGET_BYTES = 9  # what _forget takes beside each record while it forgets (its cards left, its new number)
_TALLY = 2
_SEEN_BITS = 1 << 23  # a filter of stored positions, small enough to stay in the cache
# the tables of a walk by heights that never grow: the lost cache, the filter, the condition memo
_FIXED_BYTES = 8 * (MAX_SLOTS + _SEEN_BITS // 64 + MEMO_SIZE * (2 + MAX_ORDERED_ENDS * ORDER_WORDS))
(
    _ENTERED_WINNABLE, _ENTERED_PROVING, _LOST_CHILDREN_ENTERED, _REFUTED_ON_ENTRY, _LOST_SEARCHED,
    _LOST_SHALLOW, _FILTER_LOOKUPS, _FILTER_NEGATIVE, _LOST_LOOKUPS, _LOST_HITS, _TABLE_LOOKUPS,
    _TABLE_HITS, _DEAD_AFTER, _STOOD_IN, _MODEL_POSITIONS,
) = range(15)  # fmt: skip
_PROFILE = 15  # the tallies of WalkProfile, in its field order
# the integers of Tree a walk returns: status, solutions, winnable, reachable, winning first moves, first
# moves, forced moves, decisions, traps, first trap, positions; its floats: each player's two figures, then
# the two branchings
_WINNABLE_STATES, _POSITIONS, _INTEGERS = 2, 10, 11
_ON_LINES, _ON_WINNABLE = FIGURES, FIGURES + 1  # the branching along winning lines and at winnable positions


@dataclass(frozen=True)
class WalkProfile:
    """Where one walk's work went: what ``docs/grader.md`` tabulates ("Where the time goes").

    For a start from which a win exists, every position entered either has a
    win (``entered_winnable``: each once, since they are stored exactly) or
    lies in a proof that a lost child of a winnable position is lost
    (``entered_proving``), so the two add up to :attr:`Tree.positions`.
    """

    entered_winnable: int  # positions entered from which a win exists
    entered_proving: int  # positions entered in proving lost children of winnable positions lost
    lost_children_entered: (
        int  # of those, the lost children themselves (the proofs' roots), each time entered
    )
    refuted_on_entry: (
        int  # positions entered that the necessary conditions, or a lack of moves, decided at once
    )
    lost_searched: int  # positions whose moves were tried and none led to a win
    lost_shallow: int  # of those, positions whose every move was decided without searching below it
    filter_lookups: int  # moves looked up in the filter of stored positions
    filter_negative: int  # of those, moves the filter answered "never stored"
    lost_lookups: int  # lookups in the cache of lost positions
    lost_hits: int  # of those, positions it remembered as lost
    table_lookups: int  # lookups in the table of winnable positions
    table_hits: int  # of those, positions found there
    dead_after: int  # moves known lost without entering: no card fits after them
    stood_in: int  # moves known lost without entering: a lost sibling's move stands in for them
    model_positions: int  # positions the player models' lookahead visited, at winnable positions


@dataclass(frozen=True)
class Tree:
    """What one pass over the game tree from a position found (meaningful only when ``status`` is EXACT).

    The figures carry the names of the pack columns they become (:data:`pipeline.packs.schema.GRADE_FIELDS`).
    """

    status: Status
    solution_count: int  # distinct winning move sequences
    random_win_probability: float  # uniformly random legal moves win
    winnable_states: int  # positions from which a win exists
    reachable_states: int  # the start, and every position one move from a winnable one
    branching_winning_lines: float  # legal moves, averaged over every position of every winning line
    branching_winnable: float  # legal moves, averaged over the winnable positions that are not won
    winning_first_moves: int  # legal moves from the start after which a win still exists
    first_moves: int  # legal moves from the start
    forced_moves: int  # along ``line``: positions with one legal move
    decisions: int  # along ``line``: positions with more than one
    traps: int  # along ``line``: decisions with a move after which no win exists
    first_trap: int  # along ``line``: moves played before the first trap, -1 if none
    positions: int  # positions the walk entered: what ``max_positions`` bounds
    players: tuple[PlayerFigures, ...] = ()  # each player's figures from the start, in the order of PLAYERS
    profile: WalkProfile | None = None  # where the walk's work went


@dataclass(frozen=True)
class WalkOptions:
    """Which of its own reductions the walk uses (all by default; tests switch them off): none changes a figure,
    only the positions entered."""

    siblings: bool = True  # a move a lost sibling's move stands in for is lost (see the module's docstring)

    @property
    def reductions(self) -> int:
        """The reductions switched on, as the walk's flags (:class:`~pipeline.engine.reductions.Reduction` bits)."""
        return Reduction.SIBLINGS.value if self.siblings else 0


def tree_of(
    deal: Deal,
    start: Position,
    line: tuple[int, ...] = (),
    max_positions: int = DEFAULT_MAX_POSITIONS,
    options: WalkOptions = WalkOptions(),
    *,
    max_bytes: int | None = None,
) -> Tree:
    """The game tree numbers of ``deal`` (any game) from ``start``; the along-the-line ones follow ``line`` (a
    win). The layout chooses how the walk keeps its positions (:func:`walks_by_heights`).

    ``max_bytes`` (by heights; None: no limit) caps the bytes of the walk's tables (:func:`table_bytes`).
    The records of winnable positions take what the index and the set of lost children leave: when they
    are full, the walk forgets about half of them, those with the fewest cards left, and walks a forgotten
    position again when it meets it, with the same figures (see the module's docstring); only the
    positions entered grow. While a table doubles, the old and the new both count. When the index or that
    set cannot grow within the cap, the walk stops (``OUT_OF_BUDGET``). With marks the walk decides each
    position once and keeps every mark and record, so it cannot forget: the bytes of its table and records
    are counted as it grows (every million positions or so), and past the cap it stops (``OUT_OF_BUDGET``)."""
    path = np.array(line, dtype=np.int64)
    profile = None
    if walks_by_heights(deal.game):
        ranks, heights, _, _, foundation = position_arrays(deal, start)
        integers, floats, tallies = walk_tree(
            ranks, heights, foundation, path, max_positions, options.reductions, max_bytes
        )
        profile = WalkProfile(*(int(tally) for tally in tallies))
    else:
        ranks, heights, talon, dealt, foundation = position_arrays(deal, start)
        game = deal.game
        integers, floats = _walked_with_marks(
            ranks, heights, talon, dealt, foundation, game.wrap, game.dead_king, path, max_positions,
            options.reductions, -1 if max_bytes is None else max_bytes,
        )  # fmt: skip
    status, solutions, winnable, reachable, winning_first, first, forced, decisions, traps, first_trap = (
        int(number) for number in integers[:_POSITIONS]
    )
    players = _players(floats)
    return Tree(
        Status(status), solutions, players[0].win_probability, winnable, reachable,
        float(floats[_ON_LINES]), float(floats[_ON_WINNABLE]), winning_first, first, forced, decisions, traps,
        first_trap, int(integers[_POSITIONS]), players, profile,
    )  # fmt: skip


def walks_by_heights(game: Game) -> bool:
    """Whether the walk keeps ``game``'s positions by the search's transposition keys: where a position is
    its pile heights and foundation rank alone (:func:`~pipeline.engine.solver.keyed_by_heights`) and ranks
    wrap with no dead King, as that way's conditions and moves assume; else every position is decided once
    and marked."""
    return keyed_by_heights(game) and game.wrap and not game.dead_king


def _players(figures: np.ndarray) -> tuple[PlayerFigures, ...]:
    """Each player's figures (win chance, dead ends), from the walk's array of them, in the order of PLAYERS."""
    return tuple(
        PlayerFigures(float(figures[2 * row]), float(figures[2 * row + 1])) for row in range(PLAYER_COUNT)
    )


def walk_tree(ranks, start_heights, start_foundation, line, max_positions, reductions, max_bytes=None):
    """The numbers of :class:`Tree` for the position (``ranks``, heights, foundation) of a layout walked by
    heights: its integers (see _INTEGERS) and its floats (each player's two figures, then the branching
    along winning lines and at winnable positions), then the tallies of :class:`WalkProfile`, as arrays."""
    return _walked(ranks, start_heights, start_foundation, line, max_positions, reductions, max_bytes)[1]


def winnable_keys(deal: Deal, start: Position, max_positions: int = DEFAULT_MAX_POSITIONS) -> np.ndarray:
    """The sorted keys (:func:`pipeline.engine.kernel.key_of`) of every position from which a win exists,
    found by walking the tree from ``start``; ValueError when the walk is not exact."""
    ranks, heights, _, _, foundation = position_arrays(deal, start)
    (table, _), (integers, _, _) = _walked(
        ranks, heights, foundation, np.zeros(0, np.int64), max_positions, WalkOptions().reductions
    )
    if integers[0] != Status.EXACT.value:
        raise ValueError(f"the walk ended {Status(int(integers[0])).name}")
    keys = table[::_SLOT]  # the index holds winnable positions alone
    return np.sort(keys[keys != 0] - 1)


def floor_walk(deal: Deal, start: Position, winnable: np.ndarray) -> int:
    """The floor of the walk from ``start`` in a layout walked by heights, for the benchmark
    (bench/bench_walk_floor.py): the walk's work over the positions from which a win exists alone, given
    ``winnable``, their keys (:func:`winnable_keys`). Any other child is taken as lost without entering
    it, no position entered is asked a necessary condition, and no player model's figures are made
    (:func:`_walker`'s ``floor``), so its figures are not the walk's; returns the winnable positions it
    stored, which are ``winnable``'s."""
    ranks, heights, _, _, foundation = position_arrays(deal, start)
    _, (integers, _, _) = _walked(
        ranks, heights, foundation, np.zeros(0, np.int64), DEFAULT_MAX_POSITIONS, WalkOptions().reductions,
        winnable_set=_set_of(winnable),
    )  # fmt: skip
    return int(integers[_WINNABLE_STATES])


@numba.njit(cache=True)
def _set_of(keys: np.ndarray) -> np.ndarray:
    """The keys as a set (:func:`~pipeline.engine.kernel.new_set`)."""
    table = new_set(2 * keys.shape[0] + 2)
    for key in keys:
        set_add(table, key)
    return table


def table_bytes(records: int) -> int:
    """The bytes of a walk by heights' tables when its index and its set of lost children are as first made
    and it keeps ``records`` records of winnable positions: what ``max_bytes`` of :func:`tree_of` counts
    (the tables that grow with the tree, and the lost cache, the filter and the condition memo), with what
    forgetting records takes beside each."""
    return (
        _FIXED_BYTES
        + 8 * (_SLOT * _FIRST_CAPACITY + _FIRST_CAPACITY + _RECORD * records)
        + _FORGET_BYTES * records
    )


def _records_room(max_bytes: int | None, index_bytes: int, children_bytes: int) -> int | None:
    """How many records fit in ``max_bytes`` beside an index and a set of lost children of these sizes, with
    what forgetting them takes (None: no cap)."""
    if max_bytes is None:
        return None
    return (max_bytes - _FIXED_BYTES - index_bytes - children_bytes) // (8 * _RECORD + _FORGET_BYTES)


def _records_within(
    table: np.ndarray, records: np.ndarray, scalars: np.ndarray, room: int | None
) -> np.ndarray:
    """The records, forgotten (:func:`_forget`) until fewer than ``room`` are kept, in an array of at most
    ``room``."""
    if room is None:
        return records
    while scalars[_STORED] >= room:
        scalars[_STORED] = _forget(table, records, scalars[_STORED])
    if records.shape[0] > _RECORD * room:
        records.resize(_RECORD * room, refcheck=False)
    return records


def warm_growth() -> None:
    """Compile (or load from Numba's cache) what :func:`_walked` calls only when its index doubles, which a
    small walk never does: so that a warm-up (:mod:`pipeline.engine.warm`) leaves nothing to compile."""
    _move_slots(np.zeros(_SLOT, dtype=np.int64), np.zeros(2 * _SLOT, dtype=np.int64))


def _walked(
    ranks, start_heights, start_foundation, line, max_positions, reductions, max_bytes=None, winnable_set=None
):  # fmt: skip
    """The table of winnable positions (its index and records) and the numbers of :func:`walk_tree`, for a
    layout walked by heights.

    The tables are NumPy arrays made here rather than in compiled code,
    where ``np.zeros`` writes every byte: NumPy's come from the kernel
    already zeroed, a page at a time as they are first touched, so a small
    tree pays for the little it uses and a median one never waits for a
    table to double (near-median deals walk faster than with tables that
    start small; docs/benchmarks.md gives both figures). So the loop itself,
    :func:`_walk_by_heights`, returns when a table should double, the table is doubled
    here, and it carries on from the state kept in the arrays.
    """
    table = np.zeros(_SLOT * _FIRST_CAPACITY, dtype=np.int64)
    first_records = _FIRST_CAPACITY
    if max_bytes is not None:
        if max_bytes < table_bytes(_FEWEST_RECORDS):
            raise ValueError(
                f"max_bytes must be at least {table_bytes(_FEWEST_RECORDS):,}, not {max_bytes:,}"
            )
        first_records = min(_FIRST_CAPACITY, _records_room(max_bytes, table.nbytes, 8 * _FIRST_CAPACITY))
    records = np.zeros(_RECORD * first_records, dtype=np.int64)
    lost = np.zeros(MAX_SLOTS, dtype=np.int64)
    lost_children = np.zeros(_FIRST_CAPACITY, dtype=np.int64)
    seen = np.zeros(_SEEN_BITS // 64, dtype=np.int64)
    memo_keys = np.full(MEMO_SIZE, -1, dtype=np.int64)
    memo = np.empty(MEMO_SIZE, dtype=np.int64)
    memo_orders = np.empty((MEMO_SIZE, MAX_ORDERED_ENDS, ORDER_WORDS), dtype=np.int64)
    remaining = int(start_heights.sum())
    heights = start_heights.copy()
    counts = np.zeros(NUM_RANKS, dtype=np.int64)
    bottoms = np.zeros(NUM_RANKS, dtype=np.int64)  # bottom cards of non-empty piles, by rank
    tally = np.zeros(_TALLY, dtype=np.int64)
    frames = np.zeros((remaining + 1, _FRAME_FIELDS), dtype=np.int64)
    frame_floats = np.zeros((remaining + 1, _FRAME_FLOATS), dtype=np.float64)
    children = np.zeros((remaining + 1, NUM_PILES, FIGURES), dtype=np.float64)  # figures of winning moves
    figures = np.zeros(FIGURES, dtype=np.float64)  # the figures of the position just decided
    chances = np.zeros((PLAYER_COUNT, NUM_PILES), dtype=np.float64)
    legal = np.zeros((1, NUM_PILES), dtype=np.int64)
    ahead, stack, nexts, depth_counts = new_scratch(NUM_PILES)
    child_figures = np.zeros((NUM_PILES, FIGURES), dtype=np.float64)  # a winnable position's children's
    moves = np.zeros((remaining + 1, NUM_PILES), dtype=np.int64)
    scalars = np.zeros(_SCALARS, dtype=np.int64)
    profile = np.zeros(_PROFILE, dtype=np.int64)
    tops = free_cards(ranks, heights)
    steps = layout_steps(ranks)
    start_key = key_of(steps, start_heights, start_foundation)
    talon, unused = np.zeros(0, dtype=np.int64), np.zeros((1, 1), dtype=np.int64)
    status = _begin(
        ranks, heights, tops, counts, bottoms, tally, start_foundation, start_key, remaining, table, records,
        frames, moves, scalars, memo_keys, memo, memo_orders, figures, profile,
    )  # fmt: skip
    while status == GROW:
        status = (_walk_by_heights if winnable_set is None else _walk_floor)(
            ranks, steps, heights, tops, counts, bottoms, tally, talon, talon, True, False, table, records,
            records.view(np.float64), lost, seen, lost_children, memo_keys, memo, memo_orders, frames,
            frame_floats, moves, children, unused, scalars, remaining, max_positions, figures, chances, legal,
            ahead, stack, nexts, depth_counts, child_figures, profile, reductions, winnable_set,
        )  # fmt: skip
        if status != GROW:
            break
        if _full(table, scalars[_WINNABLE]):  # while it doubles, the old index and the new are both held
            room = _records_room(max_bytes, 3 * table.nbytes, lost_children.nbytes)
            if room is not None and room < _FEWEST_RECORDS:
                status = Status.OUT_OF_BUDGET.value
                break
            records = _records_within(table, records, scalars, room)
            bigger = np.zeros(2 * table.shape[0], dtype=np.int64)
            _move_slots(table, bigger)
            table = bigger
        elif _records_full(records, scalars[_STORED]):
            capacity = records.shape[0] // _RECORD
            room = _records_room(max_bytes, table.nbytes, lost_children.nbytes)
            if room is None or room > capacity:
                # in place where the allocator can (a large block is remapped, not copied), zeros after the
                # end, so the records are not held twice while they grow
                records.resize(_RECORD * min(2 * capacity, room or 2 * capacity), refcheck=False)
            else:
                scalars[_STORED] = _forget(table, records, scalars[_STORED])
        else:  # the set of lost children doubles, both held meanwhile
            room = _records_room(max_bytes, table.nbytes, 3 * lost_children.nbytes)
            if room is not None and room < _FEWEST_RECORDS:
                status = Status.OUT_OF_BUDGET.value
                break
            records = _records_within(table, records, scalars, room)
            bigger = np.zeros(2 * lost_children.shape[0], dtype=np.int64)
            set_move_into(lost_children, bigger)
            lost_children = bigger
    numbers = _finish_by_heights(
        ranks, steps, start_heights, talon, 0, start_foundation, start_key, True, False, line, table, records,
        records.view(np.float64), scalars, status,
    )  # fmt: skip
    return (table, records), (*numbers, profile)


@numba.njit(cache=True, _nrt=False)
def _begin(
    ranks, heights, tops, counts, bottoms, tally, foundation, key, remaining, table, records, frames, moves,
    scalars, memo_keys, memo, memo_orders, figures, profile,
):  # fmt: skip
    """Tally the start position of a layout walked by heights and enter it: EXACT if that decides it (won or
    lost), else GROW to walk on."""
    for pile in range(NUM_PILES):
        for level in range(heights[pile]):
            counts[ranks[pile, level]] += 1
        if heights[pile] > 0:
            bottoms[ranks[pile, 0]] += 1
            tally[TALLY_END_RANKS] |= 1 << ranks[pile, 0]
    tally[TALLY_CODE] = code_of_counts(counts)
    entered = enter_by_heights(
        ranks, heights, tops, counts, tally, foundation, remaining, memo_keys, memo, memo_orders, moves, 0
    )  # fmt: skip
    if entered < 0:  # decided at once: won (no card left) or lost
        if entered == WON:
            won_figures(figures)
            scalars[_STORED] = scalars[_WINNABLE] = _store(
                table, records, records.view(np.float64), 0, key, 1, 0.0, figures, remaining
            )
        return Status.EXACT.value
    frames[0, _KEY], frames[0, _COUNT] = key, entered
    frames[0, _LOSERS] = frames[0, _PENDING] = frames[0, _PENDING_ROOTS] = frames[0, _DEEPER] = 0
    return GROW


@numba.njit(cache=True)
def _walked_with_marks(
    ranks, start_heights, talon, start_dealt, start_foundation, wrap, dead_king, line, max_positions,
    reductions, max_bytes,
):  # fmt: skip
    """The numbers of :class:`Tree` for a layout walked with marks (its integers and its floats, as
    :func:`walk_tree`'s): the tables made, the start entered, then the loop, :func:`_walk_with_marks`, which
    returns when the records should double, and every _CHECK_EVERY positions entered; the memory its
    tables hold is counted then (:func:`_marked_bytes`: past ``max_bytes``, unless it is negative, the walk
    stops out of budget), the records doubled when full, and it carries on."""
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
    depths = left + talon_size - start_dealt + 1
    width = piles + 1
    frames = np.zeros((depths, _MARKED_FRAME_FIELDS), dtype=np.int64)
    moves = np.zeros((depths, width), dtype=np.int64)
    children = np.zeros((depths, width), dtype=np.int64)  # the records of the moves' positions, or a mark
    child_keys = np.zeros((depths, width), dtype=np.int64)
    table = Dict.empty(key_type=types.int64, value_type=types.int64)
    records = np.zeros(_FIRST_MARKED_RECORDS, dtype=np.int64)  # solution counts
    record_floats = np.zeros((_FIRST_MARKED_RECORDS, _MARKED_RECORD), dtype=np.float64)
    chances = np.zeros((PLAYER_COUNT, width), dtype=np.float64)
    ahead, stack, nexts, depth_counts = new_scratch(piles)
    child_figures = np.zeros((width, FIGURES), dtype=np.float64)  # the winnable children's, by move
    figures = np.zeros(FIGURES, dtype=np.float64)
    scalars = np.zeros(_SCALARS, dtype=np.int64)
    scalars[_MEMORY_CHECK] = _CHECK_EVERY
    unused = np.zeros(1, dtype=np.int64)
    key = marked_key(layout, start_dealt, start_foundation, talon_size)
    scalars[_NODES] = 1  # the start is entered
    entered = enter_with_marks(
        ranks, heights, tops, counts, bottoms, starts, start_dealt, start_foundation, wrap, dead_king, left,
        even_minus_odd, orders, walk_keys, walk_ends, moves, 0,
    )  # fmt: skip
    status = GROW
    if entered == WON:
        won_figures(figures)
        _store_marked(table, records, record_floats, 0, key, 1, figures)
        scalars[_STORED] = 1
        status = Status.EXACT.value
    elif entered == LOST:
        table[key] = _LOST_MARK
        status = Status.EXACT.value
    frames[0, _KEY], frames[0, _COUNT] = key, entered
    frames[0, _LAYOUT], frames[0, _DEALT], frames[0, _FOUNDATION], frames[0, _LEFT] = (
        layout, start_dealt, start_foundation, left,
    )  # fmt: skip
    scalars[_EVEN_MINUS_ODD] = even_minus_odd
    while status == GROW:
        status = _walk_with_marks(
            ranks, steps, heights, tops, counts, bottoms, unused, talon, starts, wrap, dead_king, table,
            records, record_floats, unused, unused, unused, walk_keys, walk_ends, orders, frames, record_floats,
            moves, children, child_keys, scalars, left, max_positions, figures, chances, moves, ahead, stack,
            nexts, depth_counts, child_figures, unused, reductions, unused,
        )  # fmt: skip
        if status != GROW:
            break
        if max_bytes >= 0 and _marked_bytes(table, records, record_floats) > max_bytes:
            status = Status.OUT_OF_BUDGET.value
            break
        if scalars[_STORED] == records.shape[0]:
            records, record_floats = _grown(records, record_floats)
        scalars[_MEMORY_CHECK] = scalars[_NODES] + _CHECK_EVERY
    return _finish_with_marks(
        ranks, steps, start_heights, talon, start_dealt, start_foundation, layout, wrap, dead_king, line,
        table, records, record_floats, scalars, status,
    )  # fmt: skip


@numba.njit(cache=True)
def _marked_bytes(table, records: np.ndarray, record_floats: np.ndarray) -> int:
    """The bytes a walk with marks holds in its table (at _DICT_ENTRY_BYTES an entry) and its records, counted
    three times over: while they double, the old and the new are both held."""
    return _DICT_ENTRY_BYTES * len(table) + 3 * (records.nbytes + record_floats.nbytes)


@numba.njit(cache=True)
def _grown(records: np.ndarray, record_floats: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The records of a walk with marks in arrays twice as long."""
    size = records.shape[0]
    counts = np.zeros(2 * size, dtype=np.int64)
    floats = np.zeros((2 * size, record_floats.shape[1]), dtype=np.float64)
    counts[:size] = records
    floats[:size] = record_floats
    return counts, floats


def _walker(by_heights: bool, floor: bool = False):  # returns a compiled function
    """The loop of the walk, compiled for one way of keeping positions: by pile heights (``by_heights``) or
    with marks. One source serves both; the choice is a constant of the compiled code, so each loop keeps
    only its own branches.

    ``floor`` (by heights) compiles the benchmark's floor of the walk (:func:`floor_walk`): given
    ``winnable_set``, the set of the positions from which a win exists, it takes any other child as lost
    without entering it, asks no necessary condition of a position it enters, and leaves the player
    models' figures out, so that it does the walk's work over winnable positions alone. Otherwise
    ``winnable_set`` is not read."""

    @numba.njit(cache=True, _nrt=not by_heights)  # as each loop was compiled before they were one
    def walk(
        ranks, steps, heights, tops, counts, bottoms, tally, talon, starts, wrap, dead_king, table, records,
        record_floats, lost, seen, lost_children, memo_keys, memo, memo_orders, frames, frame_floats, moves,
        children, child_keys, scalars, remaining, max_positions, figures, chances, legal, ahead, stack, nexts,
        depth_counts, child_figures, profile, reductions, winnable_set,
    ):  # fmt: skip
        """The walk's loop, from the state in its arguments; returns a status or GROW (a table should double).

        ``frames[depth]`` is the position at ``depth`` on the current line:
        its key, its moves (``moves[depth]``) and the next to try, the
        piles whose move was found to lead to a lost position, and what
        each way keeps besides. By heights: whether it is known winnable
        (then every legal move is counted), the sums of its children's
        numbers so far, and which of its moves lead to a win, whose player
        figures are in ``children[depth]``; a decided position's figures
        are passed up in ``figures``, and ``profile`` gets the tallies of
        :class:`WalkProfile`. With marks: its layout number, talon cards
        dealt, foundation and pile cards left, and each move's record (or
        mark) in ``children[depth]``, its key in ``child_keys[depth]``.
        """
        piles = ranks.shape[0]
        talon_size = talon.shape[0]
        depth, stored, nodes = scalars[_DEPTH], scalars[_STORED], scalars[_NODES]
        winnable = scalars[_WINNABLE]
        lost_count, not_won, moves_winnable = (
            scalars[_LOST_CHILDREN],
            scalars[_NOT_WON],
            scalars[_MOVES_WINNABLE],
        )
        even_minus_odd = scalars[_EVEN_MINUS_ODD]
        siblings = (reductions & Reduction.SIBLINGS.value) != 0
        status = GROW
        proof = 0
        while True:
            if by_heights:
                if (
                    _full(table, winnable)
                    or _records_full(records, stored)
                    or 2 * (scalars[_LOST_CHILDREN] + NUM_PILES) > lost_children.shape[0]
                ):
                    break
            elif stored == records.shape[0] or nodes >= scalars[_MEMORY_CHECK]:
                break
            frame = frames[depth]
            if frame[_NEXT] < frame[_COUNT]:
                index = frame[_NEXT]
                move = moves[depth, index]
                frame[_NEXT] += 1
                found, probability, line_moves = 0, 0.0, 0.0
                # known: a position stored before, one a lost sibling stands in for, or one with no move
                known = False
                if by_heights:
                    sums = frame_floats[depth]
                    child = child_key(ranks, steps, heights, frame[_KEY], move)
                    if frame[_COUNTING]:  # a lost child is added to lost_children below
                        prefetch_at(lost_children, slot_for(child, lost_children.shape[0] - 1))
                    if frame[_NEXT] < frame[_COUNT]:  # warm the next sibling's record meanwhile
                        sibling = child_key(ranks, steps, heights, frame[_KEY], moves[depth, frame[_NEXT]])
                        _prefetch_lookups(table, lost, seen, sibling)
                    played = move
                    if floor and not set_contains(winnable_set, child):
                        known = True  # lost, the oracle says
                    elif frame[_COUNTING] and frame[_LOSERS] and siblings:
                        known = stood_in_for(ranks, heights, tops, move, frame[_LOSERS])
                        profile[_STOOD_IN] += known
                    if not known:
                        profile[_FILTER_LOOKUPS] += 1
                        if not _seen(seen, child):
                            profile[_FILTER_NEGATIVE] += 1
                        else:
                            stored_lost = False
                            if remaining - depth - 1 > UNSTORED:
                                profile[_LOST_LOOKUPS] += 1
                                stored_lost = recalls(lost, child)
                                profile[_LOST_HITS] += stored_lost
                            if stored_lost:
                                known = True
                            else:
                                profile[_TABLE_LOOKUPS] += 1
                                slot = _slot(table, child)
                                if table[slot] != 0 and _has_record(table, slot):
                                    record = _record_at(table, slot)
                                    profile[_TABLE_HITS] += 1
                                    known = True
                                    found = records[record + _RECORD_COUNT]
                                    line_moves = record_floats[record + _RECORD_LINE_MOVES]
                                    for figure in range(FIGURES):
                                        figures[figure] = record_floats[record + _RECORD_FIGURES + figure]
                                    probability = figures[0]
                    if (
                        not known
                        and remaining - depth - 1 > 0
                        and not any_move_after(ranks, heights, tops, move)
                    ):
                        known = True
                        profile[_DEAD_AFTER] += 1
                else:
                    layout, dealt, foundation = marked_child(
                        ranks, steps, heights, talon, frame[_LAYOUT], frame[_DEALT], move
                    )
                    cards = frame[_LEFT] - 1 if move < piles else frame[_LEFT]
                    child = marked_key(layout, dealt, foundation, talon_size)
                    child_keys[depth, index] = child
                    mark = table.get(child, _UNDECIDED)
                    if mark == _UNDECIDED and siblings and move < piles and frame[_LOSERS]:
                        if stood_in_for(ranks, heights, tops, move, frame[_LOSERS]):
                            mark = _LOST_MARK
                            table[child] = _LOST_MARK
                    if mark != _UNDECIDED:
                        children[depth, index] = mark if mark >= 0 else _LOST_MARK
                        if mark < 0 and move < piles:
                            frame[_LOSERS] |= 1 << move
                        continue
                if not known:
                    nodes += 1
                    if nodes > max_positions:
                        status = Status.OUT_OF_BUDGET.value
                        break
                    if by_heights:
                        foundation = play_by_heights(ranks, heights, tops, counts, bottoms, tally, move)
                        if floor:
                            entered = enter_unconditioned(
                                ranks, heights, tops, foundation, remaining - depth - 1, moves, depth + 1
                            )
                        else:
                            entered = enter_by_heights(
                                ranks, heights, tops, counts, tally, foundation, remaining - depth - 1,
                                memo_keys, memo, memo_orders, moves, depth + 1,
                            )  # fmt: skip
                    else:
                        if move < piles:
                            take(ranks, heights, tops, move)
                            counts[foundation] -= 1
                            even_minus_odd -= 1 - 2 * (foundation & 1)
                            if heights[move] == 0:
                                bottoms[foundation] -= 1
                        entered = enter_with_marks(
                            ranks, heights, tops, counts, bottoms, starts, dealt, foundation, wrap, dead_king,
                            cards, even_minus_odd, memo_orders, memo_keys, memo, moves, depth + 1,
                        )  # fmt: skip
                    if entered > 0:  # not decided at once: walk on below it
                        if by_heights:  # searched for a win first
                            frame[_PLAYED] = move
                            frame[_DEEPER] = 1
                        depth += 1
                        frame = frames[depth]
                        frame[_KEY], frame[_COUNT], frame[_NEXT], frame[_LOSERS] = child, entered, 0, 0
                        if by_heights:
                            frame[_ENTERED] = nodes
                            frame[_COUNTING] = frame[_SOLUTIONS] = frame[_WINNERS] = 0
                            frame[_PENDING] = frame[_PENDING_ROOTS] = frame[_DEEPER] = 0
                            frame_floats[depth, _ODDS] = frame_floats[depth, _LINE_MOVES] = 0.0
                            _prefetch_lookups(
                                table, lost, seen, child_key(ranks, steps, heights, child, moves[depth, 0])
                            )
                        else:
                            frame[_LAYOUT], frame[_DEALT], frame[_FOUNDATION], frame[_LEFT] = (
                                layout, dealt, foundation, cards,
                            )  # fmt: skip
                        continue
                    if by_heights:
                        unplay_by_heights(ranks, heights, tops, counts, bottoms, tally, move)
                    elif move < piles:
                        put_back_card(ranks, heights, tops, counts, bottoms, move)
                        even_minus_odd += 1 - 2 * (foundation & 1)
                    if entered == WON:
                        won_figures(figures)
                    if by_heights:
                        found = 1 if entered == WON else 0
                        probability, line_moves = float(found), 0.0
                        if found:
                            profile[_ENTERED_WINNABLE] += 1
                            kept = _store(
                                table, records, record_floats, stored, child, 1, 0.0, figures,
                                remaining - depth - 1,
                            )  # fmt: skip
                            stored += kept > 0
                            winnable += kept == 1
                            _see(seen, child)
                        else:
                            profile[_REFUTED_ON_ENTRY] += 1
                            _tally_proof(profile, frame, 1)
                    else:
                        if entered == WON:
                            _store_marked(table, records, record_floats, stored, child, 1, figures)
                            children[depth, index] = stored
                            stored += 1
                        else:
                            table[child] = _LOST_MARK
                            children[depth, index] = _LOST_MARK
                            if move < piles:
                                frame[_LOSERS] |= 1 << move
                        continue
            else:  # every move is decided: so is the position
                if by_heights:  # a search that found no win proves it lost
                    sums = frame_floats[depth]
                    found = frame[_SOLUTIONS]
                    if found:
                        # the start is not entered: the walk begins there
                        profile[_ENTERED_WINNABLE] += depth > 0
                        if not floor:
                            profile[_MODEL_POSITIONS] += winnable_by_heights(
                                ranks, heights, tops, frame[_KEY] >> FOUNDATION_SHIFT, remaining - depth,
                                frame[_WINNERS], children[depth], figures, chances, legal, ahead, stack, nexts,
                                depth_counts, child_figures,
                            )  # fmt: skip
                        probability = sums[_ODDS] / frame[_LEGAL]
                        # random play's, summed in the order the moves were decided, as it always was
                        figures[0] = probability
                        line_moves = sums[_LINE_MOVES] + frame[_LEGAL] * float(found)
                        kept = _store(
                            table, records, record_floats, stored, frame[_KEY], found, line_moves, figures,
                            remaining - depth,
                        )  # fmt: skip
                        stored += kept > 0
                        _see(seen, frame[_KEY])
                        if kept == 1:  # a position walked again after its record was forgotten counts once
                            winnable += 1
                            scalars[_MOVES_WINNABLE] += frame[_LEGAL]
                    else:
                        probability, line_moves = 0.0, 0.0
                        if depth > 0:  # the start is not entered
                            profile[_LOST_SEARCHED] += 1
                            profile[_LOST_SHALLOW] += 1 - frame[_DEEPER]
                        # the positions entered in proving it lost, itself included
                        proof = nodes - frame[_ENTERED] + 1
                        if remaining - depth > UNSTORED:
                            remember(lost, frame[_KEY], bit_length(nodes - frame[_ENTERED]))
                            _see(seen, frame[_KEY])
                    child = frame[_KEY]
                else:
                    count = frame[_COUNT]
                    record = _LOST_MARK
                    winners = 0
                    total = 0
                    for index in range(count):
                        known_record = children[depth, index]
                        if known_record >= 0:
                            winners |= 1 << moves[depth, index]
                            total += records[known_record]
                            if total >= COUNT_LIMIT:
                                break
                    if total >= COUNT_LIMIT:
                        status = Status.OVERFLOW.value
                        break
                    if total > 0:
                        record = stored
                        stored += 1
                        records[record] = total
                        _marked_figures(
                            records, record_floats, record, children, moves, depth, count, winners, ranks,
                            heights, tops, frame[_FOUNDATION], talon, frame[_DEALT], frame[_LEFT], wrap,
                            dead_king, chances, ahead, stack, nexts, depth_counts, child_figures, figures,
                        )  # fmt: skip
                        moves_winnable += count
                        not_won += 1
                        for index in range(count):
                            if children[depth, index] < 0 and table[child_keys[depth, index]] == _LOST_MARK:
                                table[child_keys[depth, index]] = _COUNTED_MARK
                                lost_count += 1
                    table[frame[_KEY]] = record
                if depth == 0:
                    status = Status.EXACT.value
                    break
                depth -= 1
                frame = frames[depth]
                if by_heights:
                    sums = frame_floats[depth]
                    played = frame[_PLAYED]
                    unplay_by_heights(ranks, heights, tops, counts, bottoms, tally, played)
                    if found == 0:
                        _tally_proof(profile, frame, proof)
                else:
                    index = frame[_NEXT] - 1
                    move = moves[depth, index]
                    children[depth, index] = record
                    if move < piles:
                        if record < 0:
                            frame[_LOSERS] |= 1 << move
                        rank = put_back_card(ranks, heights, tops, counts, bottoms, move)
                        even_minus_odd += 1 - 2 * (rank & 1)
                    continue
            if by_heights:  # the move ``played`` from the position at ``depth`` led to ``found`` wins
                if found == 0:
                    frame[_LOSERS] |= 1 << played
                if found == 0 and frame[_COUNTING]:  # a lost child of a winnable position
                    scalars[_LOST_CHILDREN] += set_add(lost_children, child)
                if found > 0:
                    if not frame[_COUNTING]:  # a win exists: from now on every legal move counts
                        frame[_COUNTING] = 1
                        profile[_ENTERED_PROVING] += frame[_PENDING]  # the searches of the moves tried before
                        profile[_LOST_CHILDREN_ENTERED] += frame[_PENDING_ROOTS]
                        for index in range(frame[_NEXT] - 1):  # the moves tried before this one lost
                            lost_child = child_key(ranks, steps, heights, frame[_KEY], moves[depth, index])
                            scalars[_LOST_CHILDREN] += set_add(lost_children, lost_child)
                        foundation = frame[_KEY] >> FOUNDATION_SHIFT
                        frame[_LEGAL] = untried_moves(
                            ranks, heights, tops, foundation, moves, depth, frame[_NEXT]
                        )
                        frame[_COUNT] = frame[_LEGAL] - frame[_NEXT]
                        frame[_NEXT] = 0
                    frame[_SOLUTIONS] += found
                    frame[_WINNERS] |= 1 << played
                    for figure in range(FIGURES):
                        children[depth, played, figure] = figures[figure]
                    sums[_ODDS] += probability
                    sums[_LINE_MOVES] += line_moves
                    if frame[_SOLUTIONS] > COUNT_LIMIT:
                        status = Status.OVERFLOW.value
                        break
        scalars[_DEPTH], scalars[_STORED], scalars[_NODES] = depth, stored, nodes
        scalars[_WINNABLE] = winnable
        if not by_heights:
            scalars[_LOST_CHILDREN], scalars[_NOT_WON], scalars[_MOVES_WINNABLE] = (
                lost_count,
                not_won,
                moves_winnable,
            )
            scalars[_EVEN_MINUS_ODD] = even_minus_odd
        return status

    return walk


_walk_by_heights = _walker(True)
_walk_with_marks = _walker(False)
_walk_floor = _walker(True, floor=True)


def _finisher(by_heights: bool):  # returns a compiled function
    """The numbers of :class:`Tree` from a walk's filled table, compiled for one way of keeping positions (as
    :func:`_walker`): the totals, each way's own, then the opening and the line, one source for both."""

    @numba.njit(cache=True)
    def finish(
        ranks, steps, start_heights, talon, start_dealt, start_foundation, start_key, wrap, dead_king, line,
        table, records, record_floats, scalars, status,
    ):  # fmt: skip
        """The integers of :class:`Tree` (see _INTEGERS) and its floats (each player's two figures, then the
        branching along winning lines and at winnable positions). ``start_key`` is the start's key by
        heights, its layout number with marks."""
        piles = ranks.shape[0]
        talon_size = talon.shape[0]
        integers = np.zeros(_INTEGERS, dtype=np.int64)
        floats = np.zeros(FIGURES + 2, dtype=np.float64)
        integers[0], integers[_POSITIONS] = status, scalars[_NODES]
        if by_heights:
            slot = _slot(table, start_key)
            start_slot = _record_at(table, slot)  # the start's record, read only if the start is stored
            total = records[start_slot + _RECORD_COUNT] if table[slot] != 0 else 0
            for index in range(FIGURES):  # a lost start: no win, and dead ends without end
                floats[index] = (
                    record_floats[start_slot + _RECORD_FIGURES + index]
                    if total > 0
                    else (np.inf if index % 2 else 0.0)
                )
            winnable = scalars[_WINNABLE] if total > 0 else 0
            won = 0  # winnable positions with no card left: one per foundation rank a line can end on
            for foundation in range(NUM_RANKS):
                won += _wins(table, foundation << FOUNDATION_SHIFT)
            not_won = winnable - won
            floats[_ON_WINNABLE] = scalars[_MOVES_WINNABLE] / not_won if not_won > 0 else 0.0
            remaining = 0
            for pile in range(piles):
                remaining += start_heights[pile]
            # every winning line plays every card: ``remaining`` positions, each with its legal moves
            floats[_ON_LINES] = (
                record_floats[start_slot + _RECORD_LINE_MOVES] / (total * remaining) if total > 0 else 0.0
            )
            lost_start = 1 if total == 0 else 0  # a lost start is no winnable position's child
            integers[1], integers[2] = total, winnable
            integers[3] = winnable + scalars[_LOST_CHILDREN] + lost_start
        else:
            if status != Status.EXACT.value:
                return integers, floats  # nothing it found is claimed
            start = table[marked_key(start_key, start_dealt, start_foundation, talon_size)]
            not_won = scalars[_NOT_WON]
            if start >= 0:
                integers[1] = records[start]
                floats[:] = record_floats[start]
                floats[_ON_LINES] = (
                    record_floats[start, _LINE_MOVES_OF] / record_floats[start, _LINE_LENGTH]
                    if not_won
                    else 0.0
                )
                floats[_ON_WINNABLE] = scalars[_MOVES_WINNABLE] / not_won if not_won else 0.0
                integers[2] = scalars[_STORED]
                integers[3] = scalars[_STORED] + scalars[_LOST_CHILDREN]
            else:
                for row in range(PLAYER_COUNT):
                    floats[2 * row], floats[2 * row + 1] = 0.0, np.inf
                integers[3] = 1  # the start alone: no winnable position has children
        # the opening (winning first moves, first moves), then the line (forced moves, decisions, traps and
        # the first trap)
        heights = start_heights.copy()
        tops = free_cards(ranks, heights)
        moves = np.zeros((1, piles + 1), dtype=np.int64)
        key, dealt, foundation = start_key, start_dealt, start_foundation
        forced = decisions = traps = 0
        first_trap = -1
        for step in range(line.shape[0] + 1):
            count = moves_taller_first(
                ranks, heights, tops, foundation, dealt < talon_size, wrap, dead_king, 0, moves, 0
            )
            winning = 0
            for index in range(count):
                if by_heights:
                    winning += _wins(table, child_key(ranks, steps, heights, key, moves[0, index]))
                else:
                    after, after_dealt, after_foundation = marked_child(
                        ranks, steps, heights, talon, key, dealt, moves[0, index]
                    )
                    after_key = marked_key(after, after_dealt, after_foundation, talon_size)
                    winning += table.get(after_key, _LOST_MARK) >= 0
            if step == 0:
                integers[4], integers[5] = winning, count
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
            if by_heights:
                key = child_key(ranks, steps, heights, key, move)
            else:
                key, dealt, foundation = marked_child(ranks, steps, heights, talon, key, dealt, move)
            if move < piles:
                foundation = take(ranks, heights, tops, move)
        integers[6], integers[7], integers[8], integers[9] = forced, decisions, traps, first_trap
        return integers, floats

    return finish


_finish_by_heights = _finisher(True)
_finish_with_marks = _finisher(False)


@numba.njit(cache=True, _nrt=False)
def _tally_proof(profile, parent, proof) -> None:
    """Tally a search of ``proof`` positions that ended lost, below ``parent``.

    Below a position known winnable the search proved one of its lost children
    lost; below one not known yet, the tally waits in ``parent`` until a win is
    found from it (then those were its lost children too) or it is proved lost
    (then they are part of that proof, tallied at its own parent).
    """
    if parent[_COUNTING]:
        profile[_ENTERED_PROVING] += proof
        profile[_LOST_CHILDREN_ENTERED] += 1
    else:
        parent[_PENDING] += proof
        parent[_PENDING_ROOTS] += 1


@numba.njit(cache=True, _nrt=False)
def _prefetch_lookups(table, lost, seen, key) -> None:
    """Start loading what looking ``key`` up will read first: its filter word, its lost slot and its index slot."""
    prefetch_at(seen, _seen_word(key))
    prefetch(lost, key)
    prefetch_at(table, _SLOT * slot_for(key, table.shape[0] // _SLOT - 1))


@numba.njit(cache=True, _nrt=False)
def _seen_word(key) -> int:
    """The word of the filter of stored positions that holds ``key``'s two marks."""
    return (slot_for(key, -1) >> 12) & (_SEEN_BITS // 64 - 1)


@numba.njit(cache=True, _nrt=False)
def _seen_marks(key) -> int:
    """``key``'s two marks in its word: two let fewer false alarms through than one (docs/benchmarks.md gives how many)."""
    mixed = slot_for(key, -1)
    return (1 << (mixed & 63)) | (1 << ((mixed >> 6) & 63))


@numba.njit(cache=True, _nrt=False)
def _see(seen, key) -> None:
    """Mark ``key`` in the filter of stored positions."""
    seen[_seen_word(key)] |= _seen_marks(key)


@numba.njit(cache=True, _nrt=False)
def _seen(seen, key) -> bool:
    """False when ``key`` was never stored (true may be a false alarm: then the tables tell)."""
    marks = _seen_marks(key)
    return seen[_seen_word(key)] & marks == marks


@numba.njit(cache=True, _nrt=False)
def _slot(table, key) -> int:
    """The index of the slot that holds ``key``, or of the empty one where storing it would put it."""
    mask = table.shape[0] // _SLOT - 1
    slot = _SLOT * slot_for(key, mask)
    while table[slot] != 0 and table[slot] != key + 1:
        slot = _SLOT * ((slot // _SLOT + 1) & mask)
    return slot


@numba.njit(cache=True, _nrt=False)
def _has_record(table, slot) -> bool:
    """Whether the index's occupied ``slot`` has its record (it was not forgotten)."""
    return (table[slot + 1] & _NUMBER) != _FORGOTTEN


@numba.njit(cache=True, _nrt=False)
def _record_at(table, slot) -> int:
    """Where in the records the record of the index's ``slot`` (an occupied one) begins."""
    return _RECORD * (table[slot + 1] & _NUMBER)


@numba.njit(cache=True, _nrt=False)
def _store(table, records, record_floats, stored, key, count, line_moves, figures, cards) -> int:
    """Store the numbers of the winnable position ``key`` (see _RECORD), with ``cards`` left, as the
    ``stored``-th record if it has none: 1 if the position is new, 2 if its record was forgotten, else 0."""
    slot = _slot(table, key)
    kept = 0
    if table[slot] == 0:
        kept = 1
        table[slot] = key + 1
    elif not _has_record(table, slot):
        kept = 2
    if kept:
        table[slot + 1] = stored | (cards << _NUMBER_BITS)
    record = _record_at(table, slot)
    records[record + _RECORD_COUNT] = count
    record_floats[record + _RECORD_LINE_MOVES] = line_moves
    for index in range(FIGURES):
        record_floats[record + _RECORD_FIGURES + index] = figures[index]
    return kept


@numba.njit(cache=True, _nrt=False)
def _full(table, winnable) -> bool:
    """Whether the index of winnable positions, holding ``winnable``, should double before one more is stored."""
    return 2 * (winnable + 1) > table.shape[0] // _SLOT


@numba.njit(cache=True, _nrt=False)
def _records_full(records, stored) -> bool:
    """Whether the records, ``stored`` of them used, should double before one more is stored."""
    return stored + 1 > records.shape[0] // _RECORD


@numba.njit(cache=True, _nrt=False)
def _move_slots(table, bigger) -> None:
    """Put the slots of ``table`` in ``bigger`` (an empty index with more slots); the records stay where they are."""
    for slot in range(0, table.shape[0], _SLOT):
        if table[slot] != 0:
            target = _slot(bigger, table[slot] - 1)
            bigger[target] = table[slot]
            bigger[target + 1] = table[slot + 1]


@numba.njit(cache=True)
def _forget(table, records, stored) -> int:
    """Forget the records of the winnable positions with the fewest cards left, about half of them, and pack
    the rest at the front, in order; returns how many records are kept. Their index slots stay, marked."""
    tally = np.zeros(64, dtype=np.int64)
    cards_of = np.zeros(stored, dtype=np.int8)  # at most 52: _FORGET_BYTES counts a byte
    for slot in range(0, table.shape[0], _SLOT):
        if table[slot] != 0 and _has_record(table, slot):
            cards = table[slot + 1] >> _NUMBER_BITS
            cards_of[table[slot + 1] & _NUMBER] = cards
            tally[cards] += 1
    most, dropped = 0, 0
    while dropped < stored // 2:
        dropped += tally[most]
        most += 1
    number = np.full(stored, -1, dtype=np.int64)
    kept = 0
    for record in range(stored):
        if cards_of[record] >= most:
            number[record] = kept
            for word in range(_RECORD * (kept != record)):  # moved down, to pack the records kept
                records[_RECORD * kept + word] = records[_RECORD * record + word]
            kept += 1
    for slot in range(0, table.shape[0], _SLOT):
        if table[slot] != 0 and _has_record(table, slot):
            cards = table[slot + 1] >> _NUMBER_BITS
            renumbered = number[table[slot + 1] & _NUMBER]
            table[slot + 1] = (_FORGOTTEN if renumbered < 0 else renumbered) | (cards << _NUMBER_BITS)
    return kept


@numba.njit(cache=True, _nrt=False)
def _wins(table, key) -> bool:
    """Whether the table holds ``key`` as a position from which a win exists (it holds no other)."""
    return table[_slot(table, key)] != 0


@numba.njit(cache=True)
def _store_marked(table, records, record_floats, stored, key, count, figures) -> None:
    """Keep a won position's record (``count`` solutions, ``figures``, no moves along its lines) as the
    ``stored``-th, under ``key``."""
    table[key] = stored
    records[stored] = count
    for figure in range(FIGURES):
        record_floats[stored, figure] = figures[figure]
    record_floats[stored, _LINE_MOVES_OF] = record_floats[stored, _LINE_LENGTH] = 0.0


@numba.njit(cache=True, _nrt=False)
def _marked_figures(
    records, record_floats, record, children, moves, depth, count, winners, ranks, heights, tops, foundation,
    talon, dealt, left, wrap, dead_king, chances, ahead, stack, nexts, depth_counts, child_figures, figures,
) -> None:  # fmt: skip
    """Fill a winnable position's record (with marks): each player's figures, from its moves' records in the
    order of its moves (:func:`~pipeline.engine.tree_figures.winnable_figures`), the legal moves summed along
    its winning lines and the moves of those lines.

    Its lines differ in length (Golf's do), so the count of moves along
    them is kept, not assumed as by heights: each winnable child's plus
    its count, and the legal moves each child's plus ``count`` times its
    count.
    """
    line_moves = line_length = 0.0
    for index in range(count):
        child = children[depth, index]
        if child >= 0:
            line_moves += record_floats[child, _LINE_MOVES_OF] + count * records[child]
            line_length += record_floats[child, _LINE_LENGTH] + records[child]
    record_floats[record, _LINE_MOVES_OF] = line_moves
    record_floats[record, _LINE_LENGTH] = line_length
    won = 0
    for index in range(count):
        child = children[depth, index]
        if child >= 0:
            won |= 1 << index
            for figure in range(FIGURES):
                child_figures[index, figure] = record_floats[child, figure]
    winnable_figures(
        ranks, heights, tops, foundation, talon, dealt, left, wrap, dead_king, moves, depth, count, winners,
        won, child_figures, chances, ahead, stack, nexts, depth_counts, figures,
    )  # fmt: skip
    for figure in range(FIGURES):
        record_floats[record, figure] = figures[figure]
