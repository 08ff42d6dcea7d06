"""The fast solver against the plain reference search, with and without its reductions."""

from __future__ import annotations

import pytest

from pipeline.engine.reference import reference_solve
from pipeline.engine.solver import SearchOptions, solve
from pipeline.game.deal import EXAMPLE_BOARD, Deal
from pipeline.game.rules import Position, replay
from pipeline.game.shuffles import seeded_deal
from pipeline.game.verdicts import Verdict

REFERENCE_SEED = 2026
REFERENCE_DEALS = 75  # 13 of them unsolvable; make test-slow adds 2,000 deals of seed 1
PRUNE_DEALS = 500


@pytest.fixture(scope="module")
def full_results():
    """The solver with every reduction on the first PRUNE_DEALS deals of REFERENCE_SEED."""
    return [solve(seeded_deal(REFERENCE_SEED, index)) for index in range(PRUNE_DEALS)]


def _reference_results(count: int) -> list:
    """The plain reference search on the first ``count`` deals of REFERENCE_SEED, on two workers (it is slow)."""
    from joblib import Parallel, delayed

    return Parallel(n_jobs=2)(delayed(reference_solve)(seeded_deal(REFERENCE_SEED, i)) for i in range(count))


def test_solver_agrees_with_the_reference_on_75_deals(full_results):
    unsolvable = 0
    references = _reference_results(REFERENCE_DEALS)
    for index in range(REFERENCE_DEALS):
        deal = seeded_deal(REFERENCE_SEED, index)
        fast, plain = full_results[index], references[index]
        assert plain.verdict is not Verdict.UNKNOWN
        assert fast.verdict is plain.verdict, f"deal {index}"
        assert fast.max_cards_played == plain.max_cards_played, f"deal {index}"
        if fast.verdict is Verdict.SOLVED:
            replay(deal, fast.solution)
            replay(deal, plain.solution)
        else:
            unsolvable += 1
    assert unsolvable >= 13  # every unsolvable deal among them was checked


WITHOUT_EULER = SearchOptions(euler=False)
WITHOUT_ORDER = SearchOptions(order=False)
REDUCTIONS = {
    # reduction: (options with it, options without it); the Euler condition implies
    # reachability, so reachability is measured with the Euler condition off, and
    # the rank order condition builds on the Euler one, so Euler is measured without it
    "reachability": (WITHOUT_EULER, SearchOptions(reachability=False, euler=False)),
    "euler": (WITHOUT_ORDER, WITHOUT_EULER),
    "order": (SearchOptions(), WITHOUT_ORDER),
    "dominance": (SearchOptions(), SearchOptions(dominance=False)),
}


@pytest.fixture(scope="module")
def results_by_options(full_results):
    cache = {SearchOptions(): full_results}

    def results(options):
        if options not in cache:
            cache[options] = [
                solve(seeded_deal(REFERENCE_SEED, i), options=options) for i in range(PRUNE_DEALS)
            ]
        return cache[options]

    return results


@pytest.mark.parametrize("reduction", sorted(REDUCTIONS))
def test_each_reduction_switched_off_keeps_every_verdict_and_cuts(
    results_by_options, full_results, reduction
):
    with_it, without_it = (results_by_options(options) for options in REDUCTIONS[reduction])
    for index, expected in enumerate(full_results):
        for result in (with_it[index], without_it[index]):
            assert result.verdict is expected.verdict, f"deal {index}"
            assert result.max_cards_played == expected.max_cards_played, f"deal {index}"
    assert sum(r.nodes for r in with_it) < sum(r.nodes for r in without_it)


def test_every_solution_is_51_legal_moves(full_results):
    solved = 0
    for index, result in enumerate(full_results):
        if result.verdict is Verdict.SOLVED:
            assert len(result.solution) == 51
            assert replay(seeded_deal(REFERENCE_SEED, index), result.solution).is_won
            solved += 1
    assert solved > 0.8 * len(full_results)


def test_pysol_deal_1_is_lost_after_three_cards():
    result = solve(Deal.from_board_text(EXAMPLE_BOARD))
    assert result.verdict is Verdict.UNSOLVABLE
    assert result.solution == ()
    assert result.max_cards_played == 3


def test_solving_from_a_position_part_way_through_play(full_results):
    index = next(i for i, r in enumerate(full_results) if r.verdict is Verdict.SOLVED)
    deal = seeded_deal(REFERENCE_SEED, index)
    moves = full_results[index].solution
    for played in (1, 20, 50, 51):
        start = Position.after(deal, moves[:played])
        result = solve(deal, start=start)
        assert result.verdict is Verdict.SOLVED
        assert len(result.solution) == 51 - played
        assert replay(deal, result.solution, start=start).is_won


def test_a_lost_position_part_way_through_a_winnable_deal():
    for index in range(200):
        deal = seeded_deal(REFERENCE_SEED, index)
        start = Position.start(deal)
        while start.legal_moves():  # greedy: always the first legal pile
            start = start.play(start.legal_moves()[0])
        if not start.is_won:
            break
    result = solve(deal, start=start)
    assert result.verdict is Verdict.UNSOLVABLE
    assert result.max_cards_played == start.cards_played
    assert reference_solve(deal, start=start).verdict is Verdict.UNSOLVABLE


def test_node_budget_gives_unknown_never_a_guess(full_results):
    index = max(range(len(full_results)), key=lambda i: full_results[i].nodes)
    deal = seeded_deal(REFERENCE_SEED, index)
    result = solve(deal, max_nodes=100)
    assert result.verdict is Verdict.UNKNOWN
    assert result.solution == ()
    assert result.max_cards_played is None
    reference = reference_solve(deal, max_nodes=100)
    assert reference.verdict is Verdict.UNKNOWN
    assert reference.max_cards_played is None


def test_a_budget_that_stops_the_longest_play_leaves_it_unknown():
    deal = seeded_deal(REFERENCE_SEED, 29)
    full = solve(deal)
    assert full.verdict is Verdict.UNSOLVABLE and full.max_cards_played == 13
    budget = 10
    while solve(deal, max_nodes=budget).verdict is Verdict.UNKNOWN:
        budget += 10
    cut = solve(deal, max_nodes=budget)  # enough for the verdict, not for the longest play too
    assert cut.verdict is Verdict.UNSOLVABLE
    assert cut.nodes < full.nodes
    assert cut.max_cards_played is None


def _searching_badly(path: tuple[int, ...]):
    """A stand-in for the compiled search that claims a win along ``path``, whatever the deal."""
    import numpy as np

    from pipeline.engine.status import Status

    def search(*numbers):
        *_, memo = numbers
        return Status.REACHED.value, 7, len(path), np.array(path, dtype=np.int64), 0, memo

    return search


@pytest.mark.parametrize("path", [(0,) * 51, tuple(range(17)) * 3, ()])
def test_a_win_the_rules_reject_is_a_solver_bug_naming_the_deal_and_the_move(monkeypatch, path):
    """Replayed once, in the solver: a solution that does not replay is an InternalError, never bad input."""
    from pipeline.engine import search, solver
    from pipeline.errors import BlackholeError, InternalError

    deal = seeded_deal(REFERENCE_SEED, 0)
    monkeypatch.setattr(search, "search", _searching_badly(path))
    with pytest.raises(solver.SolverBug) as raised:
        solve(deal)
    bug = raised.value
    assert isinstance(bug, InternalError) and not isinstance(bug, BlackholeError)
    message = str(bug)
    assert message.startswith("this is a bug in blackhole, not in the deal")
    assert ("move " in message or "cards are left" in message) and deal.to_board_text() in message
