"""What the game-tree walk does at one position: enter it (the conditions asked, the moves tried), play a
move and take it back, and find its figures from its moves'.

The walk (:mod:`pipeline.engine.gametree`) keeps its positions one of two
ways, chosen by the layout as the search's memo is: by pile heights, with the
search's keys (Black Hole), or with marks (a talon, or an empty foundation).
What differs between the two at a position is here, side by side: the
conditions asked on entry and the order of the moves; what is the same is
written once: the count limit, the figures of a won position and of a
winnable one (the same recurrence, summed in the order of each way's moves),
and a move a lost sibling's stands in for.
"""

from __future__ import annotations

import numba

from pipeline.engine.conditions import predecessor_shortfall, rules_out
from pipeline.engine.kernel import (
    POWERS_OF_5,
    lowest_bit,
    moves_in_pile_order,
    moves_taller_first,
    put_back,
    stands_in_for,
    take,
)
from pipeline.engine.policies import FIGURES, NO_TALON, PLAYER_COUNT, fill_chances
from pipeline.engine.reductions import Reduction
from pipeline.engine.search import hopeless
from pipeline.game.cards import NUM_RANKS

COUNT_LIMIT = 1 << 62
"""The most a count may reach: a walk whose count would pass it stops (``OVERFLOW``)."""
WON, LOST = -1, -2
"""What entering a position says of one decided at once: won, or lost."""
TALLY_CODE, TALLY_END_RANKS = range(2)
"""By heights, the rank tally's words: code_of_counts of the rank counts, the bottom ranks of the piles."""
# the layouts walked by heights (walks_by_heights): no talon, ranks that wrap, no dead King
_TALON_LEFT, _WRAP, _DEAD_KING = False, True, False
_MARKED_CONDITIONS = (Reduction.EULER | Reduction.ORDER | Reduction.RUNS | Reduction.PREDECESSORS).value


@numba.njit(cache=True, _nrt=False)
def won_figures(figures) -> None:
    """Every player's figures in a won position, into ``figures``: a sure win, no dead end."""
    for row in range(PLAYER_COUNT):
        figures[2 * row] = 1.0
        figures[2 * row + 1] = 0.0


@numba.njit(cache=True, _nrt=False)
def winnable_figures(
    ranks, heights, tops, foundation, talon, dealt, left, wrap, dead_king, moves, row, count, winners, won,
    child_figures, chances, ahead, stack, nexts, depth_counts, figures,
) -> int:  # fmt: skip
    """Every player's figures in a winnable position, into ``figures``, from its ``count`` legal moves
    (``moves[row]``, in the order their figures are summed): ``winners`` is the bit set of the moves (pile
    numbers, or the talon deal) after which a win exists, ``won`` the same moves by their place in the row,
    and ``child_figures[i]`` the figures after the ``i``-th. The players' chances come from
    :func:`~pipeline.engine.policies.fill_chances`; returns the positions their lookahead visited."""
    visited = fill_chances(
        ranks, heights, tops, foundation, talon, dealt, left, wrap, dead_king, moves, row, count, winners,
        chances, ahead, stack, nexts, depth_counts,
    )  # fmt: skip
    player_figures(chances, count, won, child_figures, figures)
    return visited  # type: ignore[no-any-return]


@numba.njit(cache=True, _nrt=False)
def player_figures(chances, count, won, child_figures, figures) -> None:
    """Every player's figures in a winnable position, into ``figures``, from its ``count`` legal moves':
    ``chances[player, i]`` is the player's chance of move ``i``, ``won`` the bit set of the moves after which
    a win exists, and ``child_figures[i]`` the figures of the position after move ``i`` (read for those alone).

    A player wins with the chance of the move chosen times that move's win
    chance (0 for a move with no win behind it). With undo, a move with no win
    behind it is one dead end and a new choice from here: the tries until a
    winning move are geometric, ``lost / good`` dead ends on average (``good``
    the chance of choosing a winning move, ``lost`` that of the others), and
    then the dead ends of the winning move chosen, each in proportion to its chance.
    """
    for row in range(PLAYER_COUNT):
        win = good = lost = ahead = 0.0
        for index in range(count):
            chance = chances[row, index]
            if (won >> index) & 1:
                win += chance * child_figures[index, 2 * row]
                ahead += chance * child_figures[index, 2 * row + 1]
                good += chance
            else:
                lost += chance
        figures[2 * row] = win
        figures[2 * row + 1] = (lost + ahead) / good


@numba.njit(cache=True, _nrt=False)
def stood_in_for(ranks, heights, tops, pile, losers) -> bool:
    """Whether the move from ``pile`` is lost because a move proved lost from the same position (``losers``,
    a bit set of piles) stands in for it by same-rank dominance (proved in :mod:`pipeline.engine.gametree`)."""
    height = heights[pile]
    others = tops[ranks[pile, height - 1]] & losers & ~(1 << pile)
    while others:
        other = lowest_bit(others)
        others &= others - 1
        if heights[other] >= height and stands_in_for(ranks, heights, other, pile):
            return True
    return False


@numba.njit(cache=True, _nrt=False)
def enter_by_heights(
    ranks, heights, tops, counts, tally, foundation, left, memo_keys, memo, memo_orders, moves, row
) -> int:
    """WON if the position (by heights) is won, LOST if it is lost at once; otherwise fill ``moves[row]``
    with the moves worth trying to find a win, in pile order, and return how many.

    Lost at once: no legal move, or the search's necessary conditions for a win
    fail (:func:`pipeline.engine.search.hopeless`, with its memo). Same-rank
    dominance leaves out moves that another stands in for.
    """
    if left == 0:
        return WON
    flags = Reduction.EULER.value | Reduction.ORDER.value
    if hopeless(
        ranks, heights, counts, foundation, tally[TALLY_CODE], tally[TALLY_END_RANKS], flags,
        memo_keys, memo, memo_orders,
    ):  # fmt: skip
        return LOST
    return enter_unconditioned(ranks, heights, tops, foundation, left, moves, row)


@numba.njit(cache=True, _nrt=False)
def enter_unconditioned(ranks, heights, tops, foundation, left, moves, row) -> int:
    """:func:`enter_by_heights` with no necessary condition asked: WON if no card is left, LOST if no move
    is, else the moves worth trying, in pile order, in ``moves[row]``, and how many (the walk's floor,
    which enters winnable positions alone, enters this way)."""
    if left == 0:
        return WON
    count = moves_in_pile_order(
        ranks,
        heights,
        tops,
        foundation,
        _TALON_LEFT,
        _WRAP,
        _DEAD_KING,
        Reduction.DOMINANCE.value,
        moves,
        row,
    )
    return count if count > 0 else LOST


@numba.njit(cache=True, _nrt=False)
def enter_with_marks(
    ranks, heights, tops, counts, bottoms, starts, dealt, foundation, wrap, dead_king, left, even_minus_odd,
    orders, walk_keys, walk_ends, moves, row,
) -> int:  # fmt: skip
    """WON if the position (with marks) is won, LOST if it is lost at once; otherwise fill ``moves[row]``
    with every legal move, taller piles first then the talon deal, and return how many.

    Won: no pile card left (talon cards may be). Lost at once: no legal move,
    or a necessary condition for a win fails (the predecessors condition
    and :func:`~pipeline.engine.conditions.rules_out`, with no card to spare).
    """
    if left == 0:
        return WON
    if predecessor_shortfall(counts, starts, dealt, foundation, wrap, dead_king, _MARKED_CONDITIONS) > 0:
        return LOST
    if rules_out(
        ranks, heights, counts, bottoms, starts, dealt, foundation, wrap, 0, even_minus_odd,
        _MARKED_CONDITIONS, orders, walk_keys, walk_ends,
    ):  # fmt: skip
        return LOST
    talon_left = dealt < starts.shape[0] - 1
    count = moves_taller_first(ranks, heights, tops, foundation, talon_left, wrap, dead_king, 0, moves, row)
    return count if count > 0 else LOST


@numba.njit(cache=True, _nrt=False)
def marked_key(layout: int, dealt: int, foundation: int, talon_size: int) -> int:
    """A position's key with marks: its merged layout number, talon cards dealt and foundation (-1: empty)."""
    return (layout * (talon_size + 1) + dealt) * (NUM_RANKS + 1) + foundation + 1


@numba.njit(cache=True, _nrt=False)
def marked_child(ranks, steps, heights, talon, layout, dealt, move) -> tuple[int, int, int]:
    """The (layout number, talon cards dealt, foundation) after ``move`` from the position of ``heights``."""
    if move == ranks.shape[0]:
        return layout, dealt + 1, talon[dealt]
    height = heights[move]
    return layout + steps[move, height], dealt, ranks[move, height - 1]


@numba.njit(cache=True, _nrt=False)
def play_by_heights(ranks, heights, tops, counts, bottoms, tally, pile) -> int:
    """Play the free card of ``pile`` (by heights), keeping the rank counts and their tally up to date; return
    its rank."""
    rank = take(ranks, heights, tops, pile)
    counts[rank] -= 1
    tally[TALLY_CODE] -= POWERS_OF_5[rank]
    if heights[pile] == 0:
        bottoms[rank] -= 1
        if bottoms[rank] == 0:
            tally[TALLY_END_RANKS] &= ~(1 << rank)
    return rank


@numba.njit(cache=True, _nrt=False)
def unplay_by_heights(ranks, heights, tops, counts, bottoms, tally, pile) -> None:
    """Undo :func:`play_by_heights` on ``pile``."""
    emptied = heights[pile] == 0
    rank = put_back(ranks, heights, tops, pile)
    counts[rank] += 1
    tally[TALLY_CODE] += POWERS_OF_5[rank]
    if emptied:
        bottoms[rank] += 1
        tally[TALLY_END_RANKS] |= 1 << rank


@numba.njit(cache=True, _nrt=False)
def _adjacent(a: int, b: int) -> bool:
    """Whether ranks ``a`` and ``b`` are one apart around the circle (a card of one fits on the other)."""
    difference = a - b
    return difference == 1 or difference == -1 or difference == 12 or difference == -12


@numba.njit(cache=True, _nrt=False)
def any_move_after(ranks, heights, tops, pile) -> bool:
    """Whether a card will fit once the free card of ``pile`` is played (by heights: ranks wrap): an adjacent
    free card, or the one it uncovers."""
    rank = ranks[pile, heights[pile] - 1]
    up = rank + 1 if rank < NUM_RANKS - 1 else 0
    down = rank - 1 if rank > 0 else NUM_RANKS - 1
    if tops[up] | tops[down]:
        return True
    return heights[pile] > 1 and _adjacent(ranks[pile, heights[pile] - 2], rank)


@numba.njit(cache=True, _nrt=False)
def untried_moves(ranks, heights, tops, foundation, moves, row, tried) -> int:
    """Replace ``moves[row]`` by the legal moves not among its first ``tried``; return how many are legal in all."""
    done = 0
    for index in range(tried):
        done |= 1 << moves[row, index]
    legal = moves_in_pile_order(
        ranks, heights, tops, foundation, _TALON_LEFT, _WRAP, _DEAD_KING, 0, moves, row
    )
    kept = 0
    for index in range(legal):
        if not (done >> moves[row, index]) & 1:
            moves[row, kept] = moves[row, index]
            kept += 1
    return legal


@numba.njit(cache=True, _nrt=False)
def winnable_by_heights(
    ranks, heights, tops, foundation, remaining, winners, children, figures, chances, legal, ahead, stack,
    nexts, depth_counts, child_figures,
) -> int:  # fmt: skip
    """Every player's figures in a winnable position kept by heights, from its winning moves' (``winners``,
    ``children``, by pile; :func:`winnable_figures`), its legal moves in pile order; returns the positions
    the models' lookahead visited. These layouts have no talon, and their ranks wrap with no dead King
    (:func:`~pipeline.engine.gametree.walks_by_heights`)."""
    count = moves_in_pile_order(ranks, heights, tops, foundation, _TALON_LEFT, _WRAP, _DEAD_KING, 0, legal, 0)
    won = 0
    for index in range(count):
        pile = legal[0, index]
        if (winners >> pile) & 1:
            won |= 1 << index
            for figure in range(FIGURES):
                child_figures[index, figure] = children[pile, figure]
    return winnable_figures(
        ranks, heights, tops, foundation, NO_TALON, 0, remaining, True, False, legal, 0, count, winners, won,
        child_figures, chances, ahead, stack, nexts, depth_counts, figures,
    )  # fmt: skip
