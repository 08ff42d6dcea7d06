"""The family's solver (All in a Row and the Golfs) against the plain reference search, black-hole-solver's
verdicts, and itself with each reduction switched off (those of SearchOptions through solve, the family search's
own through solve_position)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.engine.budgets import DEFAULT_MAX_NODES
from pipeline.engine.conditions import predecessor_shortfall
from pipeline.engine.reductions import Reduction
from pipeline.engine.reference import reference_solve
from pipeline.engine.search import solve_position
from pipeline.engine.solver import SearchOptions, solve
from pipeline.engine.status import Status
from pipeline.game.cards import NUM_RANKS
from pipeline.game.deal import Deal
from pipeline.game.games import BLACK_HOLE, GAMES, Game, game_named
from pipeline.game.rules import Position, replay
from pipeline.game.shuffles import pysol_deal, seeded_deal
from pipeline.game.verdicts import Verdict

FAMILY = [game for game in GAMES if game is not BLACK_HOLE]
# PySol FC deals 1..30, S solved and U unsolvable: black-hole-solver 1.14 gives the same verdicts
# (bench/bench_family.py compares deals 1..1000)
PYSOL_VERDICTS = {
    "all_in_a_row": "UUSSSSUSSSUSUUSUSUSUUSUSUUSSSU",
    "dead_king_golf": "USUUSUUUUUUSUUSUUSSUUUUUUUSUUU",
    "golf": "USUSSUUUUSUSUUSSUSSUUUSUUUSUUU",
    "relaxed_golf": "SSSSSSSSSSUSSSSSSSSSSSSSSUSSSU",
}
# the most pile cards playable in PySol FC deals 1..10 (a win plays them all)
PYSOL_MOST = {
    "all_in_a_row": [6, 7, 52, 52, 52, 52, 51, 52, 52, 52],
    "dead_king_golf": [29, 35, 34, 34, 35, 32, 22, 32, 29, 33],
    "golf": [29, 35, 34, 35, 35, 34, 33, 32, 32, 35],
    "relaxed_golf": [35] * 10,
}
FULL = SearchOptions()
NO_REDUCTIONS = SearchOptions(
    dominance=False, euler=False, order=False, runs=False, predecessors=False, top_first=False
)
REDUCED = {
    # reduction: options with everything else on but it
    "dominance": SearchOptions(dominance=False),
    "euler": SearchOptions(euler=False),
    "order": SearchOptions(order=False),
    "runs": SearchOptions(runs=False),
    "predecessors": SearchOptions(predecessors=False),
    "top_first": SearchOptions(top_first=False),
    "all": NO_REDUCTIONS,
}
SMALL_LEFT = 12  # pile cards left in the positions compared with the reference


def played_down(deal: Deal, seed: int, left: int = SMALL_LEFT, *, guided: bool = False) -> Position:
    """A position of ``deal`` reached by random legal moves until at most ``left`` pile cards remain (or none fit).

    Talon deals are chosen one time in four while pile moves fit, so Golf positions keep some talon.
    ``guided`` first follows the solver's win, if there is one, down to two cards more than ``left``, so that
    some positions are won (random play from the start seldom keeps an All in a Row deal winnable).
    """
    chooser = random.Random(seed)
    position = Position.start(deal)
    if guided:
        for move in solve(deal).solution:
            if sum(position.heights) <= left + 2:
                break
            position = position.play(move)
    talon_move = deal.game.talon_move if deal.game.has_talon else -1
    while sum(position.heights) > left:
        moves = position.legal_moves()
        piles = [move for move in moves if move != talon_move]
        if not moves:
            break
        if piles and (talon_move not in moves or chooser.random() < 0.75):
            position = position.play(chooser.choice(piles))
        else:
            position = position.play(talon_move)
    return position


def family_reference(deal: Deal, position: Position) -> tuple[int, tuple[int, ...] | None]:
    """The reference search's most pile cards playable from ``position``, and a win's moves (None: no win)."""
    settled = reference_solve(deal, start=position)
    assert settled.max_cards_played is not None
    win = settled.solution if settled.verdict is Verdict.SOLVED else None
    return settled.max_cards_played - position.cards_played, win


def check_against_reference(deal: Deal, position: Position, options: SearchOptions = FULL) -> Verdict:
    most, win = family_reference(deal, position)
    result = solve(deal, start=position, options=options)
    assert result.verdict is (Verdict.SOLVED if win is not None else Verdict.UNSOLVABLE), deal.to_board_text()
    assert result.max_cards_played == position.cards_played + most, deal.to_board_text()
    if win is not None:
        replay(deal, win, start=position)
        replay(deal, result.solution, start=position)
        assert result.max_cards_played == deal.game.pile_cards
    return result.verdict


@pytest.mark.parametrize("game", FAMILY, ids=lambda game: game.name)
def test_the_search_agrees_with_the_reference_on_small_positions(game: Game):
    verdicts = []
    for index in range(40):
        deal = seeded_deal(7, index, game)
        position = played_down(deal, index, guided=index % 2 == 0)
        verdicts.append(check_against_reference(deal, position))
        verdicts.append(check_against_reference(deal, position, NO_REDUCTIONS))
    assert Verdict.SOLVED in verdicts and Verdict.UNSOLVABLE in verdicts  # both kinds were checked


@pytest.mark.parametrize("game", FAMILY, ids=lambda game: game.name)
@settings(max_examples=25, deadline=None)
@given(number=st.integers(1, 100_000), seed=st.integers(0, 2**32 - 1), left=st.integers(6, 14))
def test_any_small_position_of_a_pysol_deal_agrees_with_the_reference(
    game: Game, number: int, seed: int, left: int
):
    deal = pysol_deal(number, game)
    check_against_reference(deal, played_down(deal, seed, left))


@pytest.mark.parametrize("game", FAMILY, ids=lambda game: game.name)
def test_pysol_deals_keep_their_verdicts_and_longest_plays(game: Game):
    verdicts = PYSOL_VERDICTS[game.name]
    for number, expected in enumerate(verdicts, start=1):
        deal = pysol_deal(number, game)
        result = solve(deal)
        assert result.verdict is (Verdict.SOLVED if expected == "S" else Verdict.UNSOLVABLE), f"deal {number}"
        if result.verdict is Verdict.SOLVED:
            end = replay(deal, result.solution)
            assert end.cards_played == game.pile_cards
            assert len(result.solution) == game.pile_cards + end.talon_dealt
        if number <= len(PYSOL_MOST[game.name]):
            assert result.max_cards_played == PYSOL_MOST[game.name][number - 1], f"deal {number}"


@pytest.mark.parametrize("reduction", sorted(REDUCED))
@pytest.mark.parametrize("game", FAMILY, ids=lambda game: game.name)
def test_each_reduction_switched_off_keeps_every_verdict_and_longest_play(game: Game, reduction: str):
    for number in range(1, 13):
        deal = pysol_deal(number, game)
        full, without = solve(deal), solve(deal, options=REDUCED[reduction])
        assert (without.verdict, without.max_cards_played) == (full.verdict, full.max_cards_played), number


@pytest.mark.parametrize("game", FAMILY, ids=lambda game: game.name)
def test_node_budget_gives_unknown_never_a_guess(game: Game):
    for number in range(1, 13):
        deal = pysol_deal(number, game)
        full = solve(deal, options=NO_REDUCTIONS)
        if full.nodes < 50:
            continue
        cut = solve(deal, max_nodes=full.nodes // 10, options=NO_REDUCTIONS)
        if cut.verdict is Verdict.UNKNOWN:
            assert cut.solution == () and cut.max_cards_played is None
        else:  # a win found early
            assert cut.verdict is full.verdict is Verdict.SOLVED


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.name)
def test_without_the_longest_play_a_loss_keeps_its_verdict_and_says_no_most(game: Game):
    for number in range(1, 9):
        deal = pysol_deal(number, game)
        full, verdict_only = solve(deal), solve(deal, longest_play=False)
        assert verdict_only.verdict is full.verdict, number
        if full.verdict is Verdict.SOLVED:  # a win is the same search, the same line
            assert (verdict_only.solution, verdict_only.max_cards_played) == (
                full.solution,
                full.max_cards_played,
            )
        else:
            assert verdict_only.max_cards_played is None and verdict_only.nodes <= full.nodes, number


def test_a_budget_that_stops_the_longest_play_leaves_it_unknown():
    deal = pysol_deal(
        1, game_named("golf")
    )  # a loss the runs condition proves at once; the longest play is dearer
    quick = solve(deal, max_nodes=100)
    assert quick.verdict is Verdict.UNSOLVABLE and quick.max_cards_played is None
    assert solve(deal).max_cards_played == 29


def test_all_in_a_row_from_its_empty_foundation_and_part_way():
    deal = pysol_deal(3, game_named("all_in_a_row"))
    result = solve(deal)
    assert result.verdict is Verdict.SOLVED and len(result.solution) == 52
    middle = Position.after(deal, result.solution[:20])
    again = solve(deal, start=middle)
    assert again.verdict is Verdict.SOLVED and again.max_cards_played == 52
    replay(deal, again.solution, start=middle)


def test_a_golf_win_may_leave_talon_cards():
    deal = pysol_deal(4, game_named("golf"))
    result = solve(deal)
    end = replay(deal, result.solution)
    assert end.is_won and end.talon_left > 0 and result.max_cards_played == 35


# this search's own reductions (and its TOP_FIRST order), switched off one at a time through solve_position
OWN_OFF = {
    "predecessors": FULL.flags & ~Reduction.PREDECESSORS,
    "top_first": FULL.flags & ~Reduction.TOP_FIRST,
    "all": FULL.flags & ~(Reduction.PREDECESSORS | Reduction.TOP_FIRST),
}


def family_result(deal: Deal, position: Position, flags: int) -> tuple[Status, int | None]:
    status, moves, _, most = solve_position(deal, position, DEFAULT_MAX_NODES, flags, False)
    if status is Status.REACHED:
        replay(deal, moves, start=position)
    return status, most


@pytest.mark.parametrize("own", sorted(OWN_OFF))
@pytest.mark.parametrize("game", FAMILY, ids=lambda game: game.name)
def test_each_own_reduction_switched_off_keeps_every_verdict_and_longest_play(game: Game, own: str):
    flags = int(FULL.flags)
    for number in range(1, 13):
        deal = pysol_deal(number, game)
        start = Position.start(deal)
        full = family_result(deal, start, flags)
        assert family_result(deal, start, int(OWN_OFF[own])) == full, number


@pytest.mark.parametrize("game", FAMILY, ids=lambda game: game.name)
def test_the_predecessors_condition_alone_agrees_with_the_reference(game: Game):
    """With every other reduction off, so that nothing else cuts first."""
    lost = 0
    for index in range(40):
        deal = seeded_deal(11, index, game)
        position = played_down(deal, index, guided=index % 2 == 0)
        most, win = family_reference(deal, position)
        for own in (Reduction.PREDECESSORS, Reduction.PREDECESSORS | Reduction.TOP_FIRST):
            status, found = family_result(deal, position, int(own))
            assert status is (Status.REACHED if win is not None else Status.MISSED)
            assert found == most, deal.to_board_text()
        lost += win is None
    assert lost > 0


def brute_shortfall(counts: np.ndarray, starts: np.ndarray, dealt: int, foundation: int, game: Game) -> int:
    """The largest P(R) - O(N(R)) over every nonempty set R of ranks (Hall's deficiency), by brute force."""
    offered = [
        0
        if game.dead_king and rank == NUM_RANKS - 1
        else counts[rank] + starts[dealt, rank] + (foundation == rank)
        for rank in range(NUM_RANKS)
    ]
    best = -(10**9)
    for subset in range(1, 1 << NUM_RANKS):
        ranks = [rank for rank in range(NUM_RANKS) if subset >> rank & 1]
        neighbours = set()
        for rank in ranks:
            for other in (rank - 1, rank + 1):
                if game.wrap:
                    neighbours.add(other % NUM_RANKS)
                elif 0 <= other < NUM_RANKS:
                    neighbours.add(other)
        best = max(best, sum(counts[rank] for rank in ranks) - sum(offered[rank] for rank in neighbours))
    return best - (foundation < 0)


@pytest.mark.parametrize("game", FAMILY, ids=lambda game: game.name)
@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_the_shortfall_is_hall_deficiency_of_one_run_of_ranks(game: Game, data: st.DataObject):
    """Never more than Hall's deficiency over all rank sets, and positive exactly when it is (so a win's cut
    is as strong as Hall's condition), once the foundation holds a card."""
    counts = np.array(data.draw(st.lists(st.integers(0, 4), min_size=NUM_RANKS, max_size=NUM_RANKS)))
    talon = data.draw(st.lists(st.integers(0, NUM_RANKS - 1), max_size=16))
    starts = np.zeros((len(talon) + 1, NUM_RANKS + 1), dtype=np.int64)
    for dealt in range(len(talon) - 1, -1, -1):
        starts[dealt] = starts[dealt + 1]
        starts[dealt, talon[dealt]] += 1
    dealt = data.draw(st.integers(0, len(talon)))
    foundation = data.draw(st.integers(0 if game.has_talon else -1, NUM_RANKS - 1))
    mine = predecessor_shortfall(
        counts, starts, dealt, foundation, game.wrap, game.dead_king, int(Reduction.PREDECESSORS)
    )
    brute = brute_shortfall(counts, starts, dealt, foundation, game)
    assert mine <= brute
    if foundation >= 0:
        assert (mine > 0) == (brute > 0)


def test_memos_are_left_ready_for_the_next_deal():
    """A process keeps its memos from search to search; the same deal gives the same result after others."""
    deals = [pysol_deal(number, game) for game in FAMILY for number in (1, 7)]
    first = [solve(deal) for deal in deals]
    again = [solve(deal) for deal in reversed(deals)][::-1]
    assert [(r.verdict, r.max_cards_played, r.nodes) for r in first] == [
        (r.verdict, r.max_cards_played, r.nodes) for r in again
    ]
