"""The game tree numbers against brute force: every move sequence played out, on small positions."""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest

from pipeline.engine import gametree
from pipeline.engine.gametree import WalkOptions, tree_of
from pipeline.engine.solver import solve
from pipeline.engine.status import Status
from pipeline.game.cards import rank_of
from pipeline.game.deal import Deal
from pipeline.game.rules import Position
from pipeline.game.shuffles import seeded_deal
from pipeline.game.verdicts import Verdict
from tests.support.positions import hand_built
from tests.support.trees import line_counts


@dataclass
class Enumerated:
    """What playing out every move sequence from a position shows."""

    lines: list[list[tuple[Position, int]]]  # each winning line: (position, legal moves there) per move
    winnable: set[tuple[tuple[int, ...], int]]  # positions from which some sequence wins
    probability: float


def enumerate_lines(start: Position) -> Enumerated:
    """Every move sequence from ``start``, no memo: winning lines, winnable positions, random-play odds."""
    found = Enumerated([], set(), 0.0)

    def play_out(position: Position, line: list[tuple[Position, int]]) -> tuple[bool, float]:
        moves = position.legal_moves()
        if not moves:
            if position.is_won:
                found.lines.append(line)
                found.winnable.add((position.heights, position.foundation_rank))
                return True, 1.0
            return False, 0.0
        wins, odds = False, 0.0
        for move in moves:
            won, probability = play_out(position.play(move), [*line, (position, len(moves))])
            wins |= won
            odds += probability / len(moves)
        if wins:
            found.winnable.add((position.heights, position.foundation_rank))
        return wins, odds

    _, found.probability = play_out(start, [])
    return found


def _late_positions() -> list[tuple[Deal, Position, tuple[int, ...]]]:
    """Positions with 8 to 12 cards left from real deals: along winning lines, and off them."""
    chosen, rng = [], random.Random(7)
    for index in range(40):
        deal = seeded_deal(11, index)
        result = solve(deal)
        if result.verdict is not Verdict.SOLVED:
            continue
        left = rng.randint(8, 12)
        played = 51 - left
        start = Position.after(deal, result.solution[:played])
        chosen.append((deal, start, result.solution[played:]))
        # a sibling position: one move off the winning line a few cards earlier, often lost
        branch = Position.after(deal, result.solution[: played - 2])
        others = [move for move in branch.legal_moves() if move != result.solution[played - 2]]
        if others:
            chosen.append((deal, branch.play(others[0]), ()))
        if len(chosen) >= 24:
            break
    return chosen


LATE = _late_positions()


@pytest.mark.parametrize(("deal", "start", "line"), LATE, ids=[f"late{i}" for i in range(len(LATE))])
def test_every_number_matches_brute_force_on_late_positions(deal, start, line):
    tree = tree_of(deal, start, line)
    truth = enumerate_lines(start)
    assert tree.status is Status.EXACT
    assert tree.solution_count == len(truth.lines)
    assert tree.random_win_probability == pytest.approx(truth.probability, rel=1e-12, abs=1e-300)
    winnable = [Position(deal, h, f) for h, f in truth.winnable]
    assert tree.winnable_states == len({_class_of(p) for p in winnable})
    near = {start, *winnable, *(p.play(m) for p in winnable for m in p.legal_moves())}
    assert tree.reachable_states == len({_class_of(p) for p in near})
    moves_on_lines = [moves for one in truth.lines for _, moves in one]
    expected_on_lines = sum(moves_on_lines) / len(moves_on_lines) if moves_on_lines else 0.0
    assert tree.branching_winning_lines == pytest.approx(expected_on_lines)
    not_won = list({_class_of(p): p for p in winnable if not p.is_won}.values())  # one of each class
    expected_winnable = sum(len(p.legal_moves()) for p in not_won) / len(not_won) if not_won else 0.0
    assert tree.branching_winnable == pytest.approx(expected_winnable)
    first = start.legal_moves()
    assert tree.first_moves == len(first)
    assert tree.winning_first_moves == sum(
        (start.play(m).heights, start.play(m).foundation_rank) in truth.winnable for m in first
    )
    _check_line(deal, start, line, tree, truth)


def _class_of(position: Position) -> tuple:
    """What the tree counts once: the multiset of remaining piles as rank sequences, and the foundation rank."""
    piles = (
        tuple(rank_of(card) for card in pile[:height])
        for pile, height in zip(position.deal.piles, position.heights, strict=True)
    )
    return tuple(sorted(pile for pile in piles if pile)), position.foundation_rank


def _check_line(deal, start, line, tree, truth) -> None:
    counts = line_counts(start, line, lambda p: (p.heights, p.foundation_rank) in truth.winnable)
    assert (tree.forced_moves, tree.decisions, tree.traps, tree.first_trap) == counts


def test_late_positions_include_won_and_lost_ones():
    counts = [tree_of(deal, start).solution_count for deal, start, _ in LATE]
    assert any(count == 0 for count in counts) and any(count > 1 for count in counts)


def test_hand_built_counts_known_by_reasoning():
    # foundation on a 2; single cards 3, A, 2: 3-2-A or A-2-3, each forced after the first choice
    deal, start = hand_built([["3H"], ["AH"], ["2H"]], 1)
    tree = tree_of(deal, start)
    # winnable: the start, two positions on each line, and the two won ends (foundation A or 3)
    assert (
        tree.solution_count,
        tree.random_win_probability,
        tree.winning_first_moves,
        tree.winnable_states,
    ) == (2, 1.0, 2, 7)
    # foundation on a 5; a 4 and a 6 alone: whichever goes first, the other no longer fits
    deal, start = hand_built([["4H"], ["6H"]], 4)
    tree = tree_of(deal, start)
    assert (tree.solution_count, tree.random_win_probability, tree.winnable_states) == (0, 0.0, 0)
    # foundation on a 5; a 4 over a 6, and a 5: 4-5-6 is the only line, every move forced
    deal, start = hand_built([["6H", "4H"], ["5H"]], 4)
    tree = tree_of(deal, start, line=(0, 1, 0))
    assert (tree.solution_count, tree.random_win_probability, tree.forced_moves, tree.decisions) == (
        1,
        1.0,
        3,
        0,
    )
    # foundation on a 5; a 4 and a 6 over a 5: 6 first wins (6-5-4); 4 first loses; odds one half
    deal, start = hand_built([["4H"], ["5H", "6H"]], 4)
    tree = tree_of(deal, start, line=(1, 1, 0))
    assert (tree.solution_count, tree.random_win_probability, tree.traps, tree.first_trap) == (1, 0.5, 1, 0)


def test_a_position_budget_stops_the_count():
    deal = seeded_deal(1, 0)
    tree = tree_of(deal, Position.start(deal), max_positions=1_000)
    assert tree.status is Status.OUT_OF_BUDGET
    assert tree.positions == 1_001  # stopped at the first position past the budget


def test_the_budget_counts_positions_entered():
    deal, start, line = LATE[0]
    tree = tree_of(deal, start, line)
    assert (
        tree.status is Status.EXACT and tree.positions >= tree.winnable_states - 1
    )  # the start is not entered
    assert tree_of(deal, start, line, max_positions=tree.positions).status is Status.EXACT
    assert tree_of(deal, start, line, max_positions=tree.positions - 1).status is Status.OUT_OF_BUDGET


def test_growing_the_tables_changes_no_number(monkeypatch):
    deal = seeded_deal(1, 0)
    result = solve(deal)
    start, line = Position.after(deal, result.solution[:6]), result.solution[6:]
    roomy = tree_of(deal, start, line)
    monkeypatch.setattr(gametree, "_FIRST_CAPACITY", 1 << 10)
    assert roomy.winnable_states > 8 * gametree._FIRST_CAPACITY  # so both tables double several times
    assert tree_of(deal, start, line) == roomy


def test_solutions_are_zero_exactly_when_the_solver_says_unsolvable():
    rng, seen = random.Random(3), set()
    for index in range(30):
        deal = seeded_deal(5, index)
        result = solve(deal)
        if index % 2 and result.verdict is Verdict.SOLVED:  # along a win
            position = Position.after(deal, result.solution[: rng.randint(24, 30)])
        else:  # random play, which nearly always loses
            position = Position.start(deal)
            for _ in range(rng.randint(18, 26)):
                moves = position.legal_moves()
                if not moves:
                    break
                position = position.play(rng.choice(moves))
        verdict = solve(deal, start=position).verdict
        tree = tree_of(deal, position)
        assert tree.status is Status.EXACT
        assert (tree.solution_count == 0) == (verdict is Verdict.UNSOLVABLE)
        assert (0.0 < tree.random_win_probability <= 1.0) == (verdict is Verdict.SOLVED)
        assert tree.random_win_probability == 0.0 or verdict is Verdict.SOLVED
        seen.add(verdict)
    assert seen == {Verdict.SOLVED, Verdict.UNSOLVABLE}


def _check_profile(tree) -> None:
    """The profile's identities: every position entered has a win or is part of a proof of a loss."""
    profile = tree.profile
    lost = tree.positions - profile.entered_winnable
    assert (
        profile.refuted_on_entry + profile.lost_searched == lost
    )  # every lost one entered: at once or searched
    if tree.solution_count:
        assert profile.entered_winnable == tree.winnable_states - 1  # each once; the start is not entered
        assert profile.entered_proving == lost
        assert profile.lost_children_entered <= profile.entered_proving
    assert 0 <= profile.lost_shallow <= profile.lost_searched
    assert profile.lost_hits <= profile.lost_lookups
    assert profile.table_hits <= profile.table_lookups <= profile.filter_lookups - profile.filter_negative


@pytest.mark.parametrize(("deal", "start", "line"), LATE[:8], ids=[f"late{i}" for i in range(8)])
def test_the_profile_accounts_for_every_position_entered_late(deal, start, line):
    _check_profile(tree_of(deal, start, line))


def test_the_profile_accounts_for_every_position_entered_in_a_whole_deal():
    deal = seeded_deal(1, 19)  # 103,366 positions entered, 3,994 winnable
    tree = tree_of(deal, Position.start(deal))
    _check_profile(tree)
    profile = tree.profile
    assert profile.entered_proving > 10 * profile.entered_winnable  # this deal's lost children take searching
    assert profile.lost_hits > 0 and profile.table_hits > 0 and profile.lost_shallow > 0
    assert profile.model_positions > 0  # its lost moves are looked ahead from


def test_the_profile_of_a_hand_built_position_known_by_reasoning():
    # foundation on a 5; a 4, and a 6 over a 5. The 4 is tried first and is known lost without entering (no
    # card fits after it); then 6, 5, 4 are entered, each winnable; the models look ahead from no move, since
    # the only move that is not a win leaves no card that fits
    deal, start = hand_built([["4H"], ["5H", "6H"]], 4)
    profile = tree_of(deal, start).profile
    assert (profile.dead_after, profile.entered_winnable, profile.entered_proving) == (1, 3, 0)
    # foundation on a 2; single cards 3, A, 2: every move wins, so the models never look ahead
    deal, start = hand_built([["3H"], ["AH"], ["2H"]], 1)
    profile = tree_of(deal, start).profile
    assert (profile.model_positions, profile.entered_proving) == (0, 0)


def _figures(tree) -> tuple:
    """Every number a pack takes from a walk (all but the positions entered and the profile)."""
    return (
        tree.status, tree.solution_count, tree.random_win_probability, tree.winnable_states,
        tree.reachable_states, tree.branching_winning_lines, tree.branching_winnable, tree.winning_first_moves,
        tree.first_moves, tree.forced_moves, tree.decisions, tree.traps, tree.first_trap, tree.players,
    )  # fmt: skip


@pytest.mark.parametrize("index", [19, 21])
def test_switching_the_sibling_reduction_off_changes_no_figure(index):
    deal = seeded_deal(1, index)
    result = solve(deal)
    line = tuple(result.solution)
    with_it = tree_of(deal, Position.start(deal), line)
    without = tree_of(deal, Position.start(deal), line, options=WalkOptions(siblings=False))
    assert _figures(with_it) == _figures(without)  # bit for bit: floats compared exactly
    assert with_it.profile.stood_in > 0 and without.profile.stood_in == 0
    assert with_it.positions < without.positions


@pytest.mark.parametrize(("deal", "start", "line"), LATE, ids=[f"late{i}" for i in range(len(LATE))])
def test_switching_the_sibling_reduction_off_changes_no_figure_late(deal, start, line):
    assert _figures(tree_of(deal, start, line)) == _figures(
        tree_of(deal, start, line, options=WalkOptions(siblings=False))
    )


@pytest.mark.parametrize("index", [19, 21])
def test_forgetting_records_changes_no_figure(index):
    deal = seeded_deal(1, index)
    line = tuple(solve(deal).solution)
    roomy = tree_of(deal, Position.start(deal), line)
    tight = tree_of(deal, Position.start(deal), line, max_bytes=gametree.table_bytes(1_024))
    assert roomy.winnable_states > 3 * 1_024  # so the tight walk forgets several times
    assert _figures(tight) == _figures(roomy)  # bit for bit, each position counted once
    assert tight.positions > roomy.positions  # the forgotten ones were walked again


def test_an_index_that_cannot_grow_within_the_cap_stops_the_walk(monkeypatch):
    deal = seeded_deal(1, 0)
    monkeypatch.setattr(gametree, "_FIRST_CAPACITY", 1 << 10)
    roomy = tree_of(deal, Position.start(deal))
    assert roomy.status is Status.EXACT and roomy.winnable_states > 4 * (1 << 10)  # the index doubles
    capped = tree_of(deal, Position.start(deal), max_bytes=gametree.table_bytes(1 << 10))
    assert capped.status is Status.OUT_OF_BUDGET


def test_a_cap_below_the_least_tables_is_refused():
    deal = seeded_deal(1, 19)
    least = gametree.table_bytes(64)
    with pytest.raises(ValueError, match=f"max_bytes must be at least {least:,}"):
        tree_of(deal, Position.start(deal), max_bytes=least - 1)
