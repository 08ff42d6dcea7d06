"""One exact pass over the game tree of a position, for every game of the family: the numbers difficulty
grades are built from.

:func:`tree_of` is the walk's one face. The layout chooses how it keeps its
positions, as it chooses the search's memo (:func:`walks_by_heights`): where
a position is its pile heights and foundation rank alone (Black Hole), by
the loop below, with the search's keys and its lossy cache of lost
positions; elsewhere (a talon, or an empty foundation) every position is
decided once and marked (:mod:`pipeline.engine.marked_walk`). Both find the
same figures by the same recurrence (:mod:`pipeline.engine.tree_figures`),
with the same player policies (:mod:`pipeline.engine.policies`).

:func:`walk_tree` finds, for every position from which a win exists, the
number of distinct winning move sequences from it and the probability that a
player who picks uniformly among the legal moves wins from it. A lost
position adds 0 to both, whatever lies below it, so the pass needs to know
*that* a position is lost, not to count below it:

* each position is first searched for one win, as the solver does: with the
  necessary conditions for a win (:func:`pipeline.engine.search.hopeless`: the Euler
  walk and rank order conditions) and same-rank dominance, which leaves out
  moves another move stands in for. When that search ends without a win, the
  position is proved lost (dominance never leaves out the only way to win);
* as soon as one of its moves leads to a win, the position is known
  winnable, and from then on *every* legal move is searched and counted, for
  a skipped move may win too: dominance is right for finding one solution and
  wrong for counting them all;
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
``reachable_states`` count such positions once. Lost positions go to the solver's
lossy cache (the transposition table of :mod:`pipeline.engine.kernel`): one
forgotten is proved again. A small filter of every stored key (two bits in
one word) answers "never stored" for most lookups without touching either
table (docs/benchmarks.md gives how many on one deal).

The other numbers follow the same backward recurrence as the counts, so one
walk gives them all: the legal moves summed along every winning line from a
position (every winning line plays every card, so dividing by the count and
the cards left gives the branching along winning lines, each line weighted
alike); the legal moves of each winnable position; and the reachable
positions: the start, and every position one move from a winnable one (won,
winnable, or lost at that move), which depends on the game alone, not on how
the walk proved positions lost. The opening moves and the line's traps are
looked up at the end.

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

from pipeline.engine.budgets import DEFAULT_MAX_POSITIONS
from pipeline.engine.conditions import MAX_ORDERED_ENDS, ORDER_WORDS
from pipeline.engine.kernel import (
    FOUNDATION_SHIFT,
    GROW,
    MAX_SLOTS,
    POWERS_OF_5,
    UNSTORED,
    bit_length,
    child_key,
    code_of_counts,
    fill_moves,
    free_cards,
    key_of,
    layout_steps,
    prefetch,
    prefetch_at,
    put_back,
    recalls,
    remember,
    set_add,
    set_move_into,
    slot_for,
    take,
)
from pipeline.engine.marked_walk import marked_walk
from pipeline.engine.policies import FIGURES, NO_TALON, PLAYER_COUNT, fill_chances, new_scratch
from pipeline.engine.reductions import Reduction
from pipeline.engine.search import MEMO_SIZE, hopeless
from pipeline.engine.solver import keyed_by_heights
from pipeline.engine.status import Status
from pipeline.engine.tree_figures import COUNT_LIMIT, player_figures, stood_in_for
from pipeline.game.cards import NUM_RANKS, rank_of
from pipeline.game.deal import NUM_PILES, Deal
from pipeline.game.games import Game
from pipeline.game.players import PlayerFigures
from pipeline.game.rules import Position

_WON, _LOST = -1, -2  # what _enter says of a position decided at once
_FIRST_CAPACITY = 1 << 20  # slots of the index and of lost_children, and records: a median deal doubles none
# the table of winnable positions is an index and its records. A slot of the index is two words: key + 1 (0:
# empty) and the record's number; records are stored densely, in the order found, so the memory they take
# grows with the winnable positions alone. A record, in words: its solution count, the legal moves summed along
# every winning line from it, and its player figures (floats, as their bits); the first figure is random
# play's win chance
_SLOT = 2
_RECORD_COUNT, _RECORD_LINE_MOVES, _RECORD_FIGURES = 0, 1, 2
_RECORD = _RECORD_FIGURES + FIGURES
(
    _KEY, _COUNTING, _COUNT, _NEXT, _LEGAL, _SOLUTIONS, _PLAYED, _ENTERED, _WINNERS, _LOSERS, _PENDING,
    _PENDING_ROOTS, _DEEPER,
) = range(13)  # fmt: skip
_FRAME_FIELDS = (
    13  # a frame's fields; _WINNERS and _LOSERS: the bit sets of piles whose move was found to lead
)
# to a win, and to a lost position; _PENDING and
# _PENDING_ROOTS: the positions entered below it in searches that ended lost, and those searches, while it is
# not known winnable (see _tally_proof); _DEEPER: 1 once a search went below it
_ODDS, _LINE_MOVES = range(2)  # a frame's float fields: its children's sums
_FRAME_FLOATS = 2
_DEPTH, _STORED, _NODES, _MOVES_WINNABLE, _LOST_CHILDREN = range(5)  # the loop's kept scalars
_SCALARS = 5
_CODE, _END_RANKS = range(2)  # the rank tally: code_of_counts of the rank counts, bottom ranks of piles
_TALLY = 2
_SEEN_BITS = 1 << 23  # a filter of stored positions, small enough to stay in the cache
(
    _ENTERED_WINNABLE, _ENTERED_PROVING, _LOST_CHILDREN_ENTERED, _REFUTED_ON_ENTRY, _LOST_SEARCHED,
    _LOST_SHALLOW, _FILTER_LOOKUPS, _FILTER_NEGATIVE, _LOST_LOOKUPS, _LOST_HITS, _TABLE_LOOKUPS,
    _TABLE_HITS, _DEAD_AFTER, _STOOD_IN, _MODEL_POSITIONS,
) = range(15)  # fmt: skip
_PROFILE = 15  # the tallies of WalkProfile, in its field order


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
) -> Tree:
    """The game tree numbers of ``deal`` (any game) from ``start``; the along-the-line ones follow ``line`` (a
    win). The layout chooses how the walk keeps its positions (:func:`walks_by_heights`)."""
    if not walks_by_heights(deal.game):
        return _marked_tree(deal, start, line, max_positions, options)
    ranks = np.array([[rank_of(card) for card in pile] for pile in deal.piles], dtype=np.int64)
    heights = np.array(start.heights, dtype=np.int64)
    path = np.array(line, dtype=np.int64)
    numbers = walk_tree(ranks, heights, start.foundation_rank, path, max_positions, options.reductions)
    status, solutions, probability, winnable, reachable = numbers[:5]
    on_lines, on_winnable, winning_first, first, forced, decisions, traps, first_trap, positions = numbers[
        5:14
    ]
    figures, profile = numbers[14], numbers[15]
    return Tree(
        Status(int(status)), int(solutions), float(probability), int(winnable), int(reachable),
        float(on_lines), float(on_winnable), int(winning_first), int(first), int(forced), int(decisions),
        int(traps), int(first_trap), int(positions), _players(figures),
        WalkProfile(*(int(tally) for tally in profile)),
    )  # fmt: skip


def walks_by_heights(game: Game) -> bool:
    """Whether the walk keeps ``game``'s positions by the search's transposition keys (this module's loop):
    where a position is its pile heights and foundation rank alone
    (:func:`~pipeline.engine.solver.keyed_by_heights`) and ranks wrap with no dead King, as the loop's
    conditions and moves assume; else every position is decided once and marked
    (:mod:`pipeline.engine.marked_walk`)."""
    return keyed_by_heights(game) and game.wrap and not game.dead_king


def _marked_tree(
    deal: Deal, start: Position, line: tuple[int, ...], max_positions: int, options: WalkOptions
) -> Tree:
    """:func:`tree_of` by :func:`~pipeline.engine.marked_walk.marked_walk`, which keeps no profile."""
    numbers, figures = marked_walk(deal, start, line, max_positions, options.siblings)
    status, solutions, winnable, reachable, winning_first, first, forced, decisions, traps, first_trap = (
        int(number) for number in numbers[:10]
    )
    players = _players(figures)
    return Tree(
        Status(status), solutions, players[0].win_probability, winnable, reachable,
        float(figures[FIGURES]), float(figures[FIGURES + 1]), winning_first, first, forced, decisions, traps,
        first_trap, int(numbers[10]), players,
    )  # fmt: skip


def _players(figures: np.ndarray) -> tuple[PlayerFigures, ...]:
    """Each player's figures (win chance, dead ends), from the walk's array of them, in the order of PLAYERS."""
    return tuple(
        PlayerFigures(float(figures[2 * row]), float(figures[2 * row + 1])) for row in range(PLAYER_COUNT)
    )


def walk_tree(ranks, start_heights, start_foundation, line, max_positions, reductions):
    """The numbers of :class:`Tree`, in its field order, for the position (``ranks``, heights, foundation);
    the players' figures as one array (win chance, dead ends for each player), then the tallies of
    :class:`WalkProfile`, as one array."""
    return _walked(ranks, start_heights, start_foundation, line, max_positions, reductions)[1]


def winnable_keys(deal: Deal, start: Position, max_positions: int = DEFAULT_MAX_POSITIONS) -> np.ndarray:
    """The sorted keys (:func:`pipeline.engine.kernel.key_of`) of every position from which a win exists,
    found by walking the tree from ``start``; ValueError when the walk is not exact."""
    ranks = np.array([[rank_of(card) for card in pile] for pile in deal.piles], dtype=np.int64)
    heights = np.array(start.heights, dtype=np.int64)
    (table, records), numbers = _walked(
        ranks, heights, start.foundation_rank, np.zeros(0, np.int64), max_positions, WalkOptions().reductions
    )
    if numbers[0] != Status.EXACT.value:
        raise ValueError(f"the walk ended {Status(int(numbers[0])).name}")
    slots = table.reshape(-1, _SLOT)
    slots = slots[slots[:, 0] != 0]
    counts = records.reshape(-1, _RECORD)[slots[:, 1], _RECORD_COUNT]
    return np.sort(slots[counts > 0, 0] - 1)


def warm_growth() -> None:
    """Compile (or load from Numba's cache) what :func:`_walked` calls only when its index doubles, which a
    small walk never does: so that a warm-up (:mod:`pipeline.engine.warm`) leaves nothing to compile."""
    _move_slots(np.zeros(_SLOT, dtype=np.int64), np.zeros(2 * _SLOT, dtype=np.int64))


def _walked(ranks, start_heights, start_foundation, line, max_positions, reductions):
    """The table of winnable positions (its index and records) and the numbers of :func:`walk_tree`.

    The tables are NumPy arrays made here rather than in compiled code,
    where ``np.zeros`` writes every byte: NumPy's come from the kernel
    already zeroed, a page at a time as they are first touched, so a small
    tree pays for the little it uses and a median one never waits for a
    table to double (near-median deals walk faster than with tables that
    start small; docs/benchmarks.md gives both figures). So the loop itself,
    :func:`_walk`, returns when a table should double, the table is doubled
    here, and it carries on from the state kept in the arrays.
    """
    table = np.zeros(_SLOT * _FIRST_CAPACITY, dtype=np.int64)
    records = np.zeros(_RECORD * _FIRST_CAPACITY, dtype=np.int64)
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
    status = _begin(
        ranks, heights, tops, counts, bottoms, tally, start_foundation, start_key, remaining, table, records,
        frames, moves, scalars, memo_keys, memo, memo_orders, figures, profile,
    )  # fmt: skip
    while status == GROW:
        status = _walk(
            ranks, steps, heights, tops, counts, bottoms, tally, table, records, records.view(np.float64), lost,
            seen, lost_children, memo_keys, memo, memo_orders, frames, frame_floats, moves, scalars, remaining,
            max_positions, children, figures, chances, legal, ahead, stack, nexts, depth_counts, child_figures,
            profile, reductions,
        )  # fmt: skip
        if status == GROW and _full(table, scalars[_STORED]):
            bigger = np.zeros(2 * table.shape[0], dtype=np.int64)
            _move_slots(table, bigger)
            table = bigger
        elif status == GROW and _records_full(records, scalars[_STORED]):
            # in place where the allocator can (a large block is remapped, not copied), zeros after the end,
            # so the records are not held twice while they grow
            records.resize(2 * records.shape[0], refcheck=False)
        elif status == GROW:
            bigger = np.zeros(2 * lost_children.shape[0], dtype=np.int64)
            set_move_into(lost_children, bigger)
            lost_children = bigger
    numbers = _finish(
        ranks, steps, start_heights, start_foundation, start_key, line, table, records, scalars, status
    )
    return (table, records), (*numbers, profile)


@numba.njit(cache=True, _nrt=False)
def _begin(
    ranks, heights, tops, counts, bottoms, tally, foundation, key, remaining, table, records, frames, moves,
    scalars, memo_keys, memo, memo_orders, figures, profile,
):  # fmt: skip
    """Tally the start position and enter it: EXACT if that decides it (won or lost), else GROW to walk on."""
    for pile in range(NUM_PILES):
        for level in range(heights[pile]):
            counts[ranks[pile, level]] += 1
        if heights[pile] > 0:
            bottoms[ranks[pile, 0]] += 1
            tally[_END_RANKS] |= 1 << ranks[pile, 0]
    tally[_CODE] = code_of_counts(counts)
    entered = _enter(
        ranks, heights, tops, counts, tally, foundation, remaining, memo_keys, memo, memo_orders, moves, 0
    )  # fmt: skip
    if entered < 0:  # decided at once: won (no card left) or lost
        if entered == _WON:
            _won_figures(figures)
            scalars[_STORED] = _store(table, records, records.view(np.float64), 0, key, 1, 0.0, figures)
        return Status.EXACT.value
    frames[0, _KEY], frames[0, _COUNT] = key, entered
    frames[0, _LOSERS] = frames[0, _PENDING] = frames[0, _PENDING_ROOTS] = frames[0, _DEEPER] = 0
    return GROW


@numba.njit(cache=True, _nrt=False)
def _walk(
    ranks, steps, heights, tops, counts, bottoms, tally, table, records, record_floats, lost, seen, lost_children,
    memo_keys, memo, memo_orders, frames, frame_floats, moves, scalars, remaining, max_positions,
    children, figures, chances, legal, ahead, stack, nexts, depth_counts, child_figures, profile, reductions,
):  # fmt: skip
    """The loop of :func:`walk_tree`, from the state in its arguments; returns a status or GROW.

    ``frames[depth]`` is the position at ``depth`` on the current line: its
    key, whether it is known winnable (then every legal move is counted), its
    moves still to try, the sums of its children's numbers so far, and which
    of its moves lead to a win, whose player figures are in ``children[depth]``.
    A decided position's figures are passed up in ``figures``; ``profile``
    gets the tallies of :class:`WalkProfile`.
    """
    depth, stored, nodes = scalars[_DEPTH], scalars[_STORED], scalars[_NODES]
    status = GROW
    proof = 0
    while (
        not _full(table, stored)
        and not _records_full(records, stored)
        and 2 * (scalars[_LOST_CHILDREN] + NUM_PILES) <= lost_children.shape[0]
    ):
        frame = frames[depth]
        sums = frame_floats[depth]
        if frame[_NEXT] < frame[_COUNT]:
            pile = moves[depth, frame[_NEXT]]
            frame[_NEXT] += 1
            child = child_key(ranks, steps, heights, frame[_KEY], pile)
            if frame[_COUNTING]:  # a lost child is added to lost_children below
                prefetch_at(lost_children, slot_for(child, lost_children.shape[0] - 1))
            if frame[_NEXT] < frame[_COUNT]:  # warm the next sibling's record meanwhile
                sibling = child_key(ranks, steps, heights, frame[_KEY], moves[depth, frame[_NEXT]])
                _prefetch_lookups(table, lost, seen, sibling)
            played = pile
            found, probability, line_moves = 0, 0.0, 0.0
            known = False  # a position stored before, one a lost sibling stands in for, or one with no move
            if frame[_COUNTING] and frame[_LOSERS] and reductions & Reduction.SIBLINGS.value:
                known = stood_in_for(ranks, heights, tops, pile, frame[_LOSERS])
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
                        if table[slot] != 0:
                            record = _record_at(table, slot)
                            profile[_TABLE_HITS] += 1
                            known = True
                            found = records[record + _RECORD_COUNT]
                            line_moves = record_floats[record + _RECORD_LINE_MOVES]
                            for index in range(FIGURES):
                                figures[index] = record_floats[record + _RECORD_FIGURES + index]
                            probability = figures[0]
            if not known and remaining - depth - 1 > 0 and not _any_move_after(ranks, heights, tops, pile):
                known = True
                profile[_DEAD_AFTER] += 1
            if not known:
                rank = _play(ranks, heights, tops, counts, bottoms, tally, pile)
                nodes += 1
                if nodes > max_positions:
                    status = Status.OUT_OF_BUDGET.value
                    break
                entered = _enter(
                    ranks, heights, tops, counts, tally, rank, remaining - depth - 1,
                    memo_keys, memo, memo_orders, moves, depth + 1,
                )  # fmt: skip
                if entered > 0:  # not decided at once: search it, looking for a win first
                    frame[_PLAYED] = pile
                    frame[_DEEPER] = 1
                    depth += 1
                    frame = frames[depth]
                    frame[_KEY], frame[_COUNT], frame[_ENTERED] = child, entered, nodes
                    frame[_COUNTING] = frame[_NEXT] = frame[_SOLUTIONS] = frame[_WINNERS] = frame[_LOSERS] = 0
                    frame[_PENDING] = frame[_PENDING_ROOTS] = frame[_DEEPER] = 0
                    frame_floats[depth, _ODDS] = frame_floats[depth, _LINE_MOVES] = 0.0
                    _prefetch_lookups(
                        table, lost, seen, child_key(ranks, steps, heights, child, moves[depth, 0])
                    )
                    continue
                _unplay(ranks, heights, tops, counts, bottoms, tally, pile)
                found = 1 if entered == _WON else 0
                probability, line_moves = float(found), 0.0
                if found:
                    profile[_ENTERED_WINNABLE] += 1
                    _won_figures(figures)
                    stored += _store(table, records, record_floats, stored, child, 1, 0.0, figures)
                    _see(seen, child)
                else:
                    profile[_REFUTED_ON_ENTRY] += 1
                    _tally_proof(profile, frame, 1)
        else:  # every move tried: a search that found no win proves the position lost
            found = frame[_SOLUTIONS]
            if found:
                profile[_ENTERED_WINNABLE] += depth > 0  # the start is not entered: the walk begins there
                profile[_MODEL_POSITIONS] += _position_figures(
                    ranks, heights, tops, frame[_KEY] >> FOUNDATION_SHIFT, remaining - depth, frame[_WINNERS],
                    children[depth], figures, chances, legal, ahead, stack, nexts, depth_counts, child_figures,
                )  # fmt: skip
                probability = sums[_ODDS] / frame[_LEGAL]
                figures[0] = probability  # random play's, summed in the order of the moves, as it always was
                line_moves = sums[_LINE_MOVES] + frame[_LEGAL] * float(found)
                stored += _store(
                    table, records, record_floats, stored, frame[_KEY], found, line_moves, figures
                )
                _see(seen, frame[_KEY])
                scalars[_MOVES_WINNABLE] += frame[_LEGAL]
            else:
                probability, line_moves = 0.0, 0.0
                if depth > 0:  # the start is not entered
                    profile[_LOST_SEARCHED] += 1
                    profile[_LOST_SHALLOW] += 1 - frame[_DEEPER]
                proof = nodes - frame[_ENTERED] + 1  # positions entered in proving it lost, itself included
                if remaining - depth > UNSTORED:
                    remember(lost, frame[_KEY], bit_length(nodes - frame[_ENTERED]))
                    _see(seen, frame[_KEY])
            child = frame[_KEY]
            if depth == 0:
                status = Status.EXACT.value
                break
            depth -= 1
            frame = frames[depth]
            sums = frame_floats[depth]
            played = frame[_PLAYED]
            _unplay(ranks, heights, tops, counts, bottoms, tally, played)
            if found == 0:
                _tally_proof(profile, frame, proof)
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
                frame[_LEGAL] = _untried(ranks, heights, tops, foundation, moves, depth, frame[_NEXT])
                frame[_COUNT] = frame[_LEGAL] - frame[_NEXT]
                frame[_NEXT] = 0
            frame[_SOLUTIONS] += found
            frame[_WINNERS] |= 1 << played
            for index in range(FIGURES):
                children[depth, played, index] = figures[index]
            sums[_ODDS] += probability
            sums[_LINE_MOVES] += line_moves
            if frame[_SOLUTIONS] > COUNT_LIMIT:
                status = Status.OVERFLOW.value
                break
    scalars[_DEPTH], scalars[_STORED], scalars[_NODES] = depth, stored, nodes
    return status


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
def _enter(
    ranks, heights, tops, counts, tally, foundation, left, memo_keys, memo, memo_orders, moves, row
) -> int:
    """_WON if the position is won, _LOST if it is lost at once; otherwise fill ``moves[row]`` and return how many.

    Lost at once: no legal move, or the search's necessary conditions for a win
    fail (:func:`pipeline.engine.search.hopeless`, with its memo). The moves are those
    worth trying to find a win: same-rank dominance leaves out moves that
    another stands in for.
    """
    if left == 0:
        return _WON
    flags = Reduction.EULER.value | Reduction.ORDER.value
    if hopeless(
        ranks, heights, counts, foundation, tally[_CODE], tally[_END_RANKS], flags,
        memo_keys, memo, memo_orders,
    ):  # fmt: skip
        return _LOST
    count = fill_moves(ranks, heights, tops, foundation, Reduction.DOMINANCE.value, moves, row)
    return count if count > 0 else _LOST


@numba.njit(cache=True, _nrt=False)
def _play(ranks, heights, tops, counts, bottoms, tally, pile) -> int:
    """Play the free card of ``pile``, keeping the rank counts and their tally up to date; return its rank."""
    rank = take(ranks, heights, tops, pile)
    counts[rank] -= 1
    tally[_CODE] -= POWERS_OF_5[rank]
    if heights[pile] == 0:
        bottoms[rank] -= 1
        if bottoms[rank] == 0:
            tally[_END_RANKS] &= ~(1 << rank)
    return rank


@numba.njit(cache=True, _nrt=False)
def _unplay(ranks, heights, tops, counts, bottoms, tally, pile) -> None:
    """Undo :func:`_play` on ``pile``."""
    emptied = heights[pile] == 0
    rank = put_back(ranks, heights, tops, pile)
    counts[rank] += 1
    tally[_CODE] += POWERS_OF_5[rank]
    if emptied:
        bottoms[rank] += 1
        tally[_END_RANKS] |= 1 << rank


@numba.njit(cache=True, _nrt=False)
def _adjacent(a: int, b: int) -> bool:
    """Whether ranks ``a`` and ``b`` are one apart around the circle (a card of one fits on the other)."""
    difference = a - b
    return difference == 1 or difference == -1 or difference == 12 or difference == -12


@numba.njit(cache=True, _nrt=False)
def _any_move_after(ranks, heights, tops, pile) -> bool:
    """Whether a card will fit once the free card of ``pile`` is played: an adjacent free card, or the one it uncovers."""
    rank = ranks[pile, heights[pile] - 1]
    up = rank + 1 if rank < NUM_RANKS - 1 else 0
    down = rank - 1 if rank > 0 else NUM_RANKS - 1
    if tops[up] | tops[down]:
        return True
    return heights[pile] > 1 and _adjacent(ranks[pile, heights[pile] - 2], rank)


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
def _untried(ranks, heights, tops, foundation, moves, row, tried) -> int:
    """Replace ``moves[row]`` by the legal moves not among its first ``tried``; return how many are legal in all."""
    done = 0
    for index in range(tried):
        done |= 1 << moves[row, index]
    legal = fill_moves(ranks, heights, tops, foundation, 0, moves, row)
    kept = 0
    for index in range(legal):
        if not (done >> moves[row, index]) & 1:
            moves[row, kept] = moves[row, index]
            kept += 1
    return legal


@numba.njit(cache=True, _nrt=False)
def _slot(table, key) -> int:
    """The index of the slot that holds ``key``, or of the empty one where storing it would put it."""
    mask = table.shape[0] // _SLOT - 1
    slot = _SLOT * slot_for(key, mask)
    while table[slot] != 0 and table[slot] != key + 1:
        slot = _SLOT * ((slot // _SLOT + 1) & mask)
    return slot


@numba.njit(cache=True, _nrt=False)
def _record_at(table, slot) -> int:
    """Where in the records the record of the index's ``slot`` (an occupied one) begins."""
    return _RECORD * table[slot + 1]


@numba.njit(cache=True, _nrt=False)
def _store(table, records, record_floats, stored, key, count, line_moves, figures) -> int:
    """Store the numbers of the winnable position ``key`` (see _RECORD), the ``stored``-th if new; 1 if it is."""
    slot = _slot(table, key)
    new = 1 if table[slot] == 0 else 0
    if new:
        table[slot] = key + 1
        table[slot + 1] = stored
    record = _record_at(table, slot)
    records[record + _RECORD_COUNT] = count
    record_floats[record + _RECORD_LINE_MOVES] = line_moves
    for index in range(FIGURES):
        record_floats[record + _RECORD_FIGURES + index] = figures[index]
    return new


@numba.njit(cache=True, _nrt=False)
def _won_figures(figures) -> None:
    """Every player's figures in a won position: a sure win, no dead end."""
    for row in range(PLAYER_COUNT):
        figures[2 * row] = 1.0
        figures[2 * row + 1] = 0.0


@numba.njit(cache=True, _nrt=False)
def _position_figures(
    ranks, heights, tops, foundation, remaining, winners, children, figures, chances, legal, ahead, stack,
    nexts, depth_counts, child_figures,
) -> int:  # fmt: skip
    """Every player's figures in a winnable position, from its winning moves' (``winners``, ``children``, by
    pile; :func:`~pipeline.engine.tree_figures.player_figures`); returns the positions the models' lookahead
    visited. The layouts this loop walks have no talon, and their ranks wrap with no dead King
    (:func:`walks_by_heights`)."""
    count = fill_moves(ranks, heights, tops, foundation, 0, legal, 0)
    visited = fill_chances(
        ranks, heights, tops, foundation, NO_TALON, 0, remaining, True, False, legal, 0, count, winners, chances,
        ahead, stack, nexts, depth_counts,
    )  # fmt: skip
    won = 0
    for index in range(count):
        pile = legal[0, index]
        if (winners >> pile) & 1:
            won |= 1 << index
            for figure in range(FIGURES):
                child_figures[index, figure] = children[pile, figure]
    player_figures(chances, count, won, child_figures, figures)
    return visited


@numba.njit(cache=True, _nrt=False)
def _full(table, stored) -> bool:
    """Whether the index of winnable positions, holding ``stored``, should double before one more is stored."""
    return 2 * (stored + 1) > table.shape[0] // _SLOT


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


@numba.njit(cache=True, _nrt=False)
def _wins(table, records, key) -> bool:
    """Whether the table holds ``key`` as a position from which a win exists."""
    slot = _slot(table, key)
    return table[slot] != 0 and records[_record_at(table, slot) + _RECORD_COUNT] > 0


@numba.njit(cache=True, _nrt=False)
def _legal(ranks, heights, foundation, moves) -> int:
    """Fill ``moves`` with the piles whose free card fits on ``foundation``; return how many."""
    count = 0
    for pile in range(NUM_PILES):
        if heights[pile] > 0 and _adjacent(ranks[pile, heights[pile] - 1], foundation):
            moves[count] = pile
            count += 1
    return count


@numba.njit(cache=True)
def _finish(ranks, steps, start_heights, start_foundation, start_key, line, table, records, scalars, status):
    """The numbers of :class:`Tree` from the filled table: totals, then the opening and the line."""
    slot = _slot(table, start_key)
    start_slot = _record_at(table, slot)  # the start's record, read only if the start is stored
    total = records[start_slot + _RECORD_COUNT] if table[slot] != 0 else 0
    floats = records.view(np.float64)
    figures = np.zeros(FIGURES, dtype=np.float64)
    for index in range(FIGURES):  # a lost start: no win, and dead ends without end
        figures[index] = (
            floats[start_slot + _RECORD_FIGURES + index] if total > 0 else (np.inf if index % 2 else 0.0)
        )
    probability = figures[0]
    winnable = scalars[_STORED] if total > 0 else 0
    won = 0  # winnable positions with no card left: one per foundation rank a line can end on
    for foundation in range(NUM_RANKS):
        won += _wins(table, records, foundation << FOUNDATION_SHIFT)
    not_won = winnable - won
    on_winnable = scalars[_MOVES_WINNABLE] / not_won if not_won > 0 else 0.0
    remaining = 0
    for pile in range(NUM_PILES):
        remaining += start_heights[pile]
    # every winning line plays every card: ``remaining`` positions, each with its legal moves
    on_lines = floats[start_slot + _RECORD_LINE_MOVES] / (total * remaining) if total > 0 else 0.0
    lost_start = 1 if total == 0 else 0  # a lost start is no winnable position's child
    reachable = winnable + scalars[_LOST_CHILDREN] + lost_start
    heights = start_heights.copy()
    moves = np.zeros(NUM_PILES, dtype=np.int64)
    foundation = start_foundation
    first = _legal(ranks, heights, foundation, moves)
    winning_first = 0
    for index in range(first):
        winning_first += _wins(table, records, child_key(ranks, steps, heights, start_key, moves[index]))
    forced = decisions = traps = 0
    first_trap = -1
    key = start_key
    for step in range(line.shape[0]):
        count = _legal(ranks, heights, foundation, moves)
        if count == 1:
            forced += 1
        elif count > 1:
            decisions += 1
            for index in range(count):
                if not _wins(table, records, child_key(ranks, steps, heights, key, moves[index])):
                    traps += 1
                    if first_trap < 0:
                        first_trap = step
                    break
        pile = line[step]
        key = child_key(ranks, steps, heights, key, pile)
        foundation = ranks[pile, heights[pile] - 1]
        heights[pile] -= 1
    return (
        status, total, probability, winnable, reachable, on_lines, on_winnable,
        winning_first, first, forced, decisions, traps, first_trap, scalars[_NODES], figures,
    )  # fmt: skip
