"""The game-tree walk with marks (the family's layouts) and player models against brute force: every line
played out, no memo."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import numpy as np
import pytest

from pipeline.engine.gametree import WalkOptions, tree_of
from pipeline.engine.kernel import moves_taller_first
from pipeline.engine.policies import PLAYER_COUNT, fill_chances, new_scratch
from pipeline.engine.search import position_arrays
from pipeline.engine.solver import solve
from pipeline.engine.status import Status
from pipeline.game.cards import rank_of
from pipeline.game.deal import Deal
from pipeline.game.games import GOLF, Game
from pipeline.game.players import (
    EARLY_DEAL_FACTOR,
    PLAYERS,
    STUCK_FACTOR,
    Player,
    check_distribution,
    played_out,
    policy,
    tip_weights,
)
from pipeline.game.rules import Position
from pipeline.game.shuffles import pysol_deal, seeded_deal
from pipeline.game.verdicts import Verdict
from tests.support.family import FAMILY, GOLFS
from tests.support.trees import line_counts

SMALL = 12  # pile cards and talon cards left, at most, in the positions played out in full


def _state(position: Position) -> tuple:
    return position.heights, position.foundation_rank, position.talon_dealt


def _class_of(position: Position) -> tuple:
    """What the walk counts once: the multiset of remaining piles as rank sequences, the foundation, the talon."""
    piles = (
        tuple(rank_of(card) for card in pile[:height])
        for pile, height in zip(position.deal.piles, position.heights, strict=True)
    )
    return tuple(sorted(pile for pile in piles if pile)), position.foundation_rank, position.talon_dealt


@dataclass
class Enumerated:
    """What playing out every move sequence from a position shows."""

    lines: list[list[int]]  # each winning line: the legal moves at each of its positions
    winnable: set[tuple]  # positions (as _state) from which some sequence wins
    probability: float  # a uniformly random player's win chance


def enumerate_lines(start: Position) -> Enumerated:
    """Every move sequence from ``start``, no memo; a line ends at a win (talon cards may be left) or stuck."""
    found = Enumerated([], set(), 0.0)

    def play_out(position: Position, line: list[int]) -> tuple[bool, float]:
        if position.is_won:
            found.lines.append(line)
            found.winnable.add(_state(position))
            return True, 1.0
        moves = position.legal_moves()
        wins, odds = False, 0.0
        for move in moves:
            won, chance = play_out(position.play(move), [*line, len(moves)])
            wins |= won
            odds += chance / len(moves)
        if wins:
            found.winnable.add(_state(position))
        return wins, odds

    _, found.probability = play_out(start, [])
    return found


def _small(position: Position) -> bool:
    return sum(position.heights) + position.talon_left <= SMALL


def _late_positions(game: Game, count: int) -> list[tuple[Deal, Position, tuple[int, ...]]]:
    """Positions near the end of a win, small enough to play out in full, and siblings one move off it."""
    chosen, rng = [], random.Random(game.name)
    for number in range(1, 200):
        deal = pysol_deal(number, game)
        result = solve(deal)
        if result.verdict is not Verdict.SOLVED:
            continue
        line = result.solution
        ends = [step for step in range(len(line)) if _small(Position.after(deal, line[:step]))]
        step = rng.choice(ends[: max(1, len(ends) // 2)])  # among the larger small positions
        chosen.append((deal, Position.after(deal, line[:step]), tuple(line[step:])))
        branch = Position.after(deal, line[: step - 1])
        others = [move for move in branch.legal_moves() if move != line[step - 1]]
        if others and _small(branch.play(others[0])):
            chosen.append((deal, branch.play(others[0]), ()))
        if len(chosen) >= count:
            break
    return chosen


LATE = [case for game in FAMILY for case in _late_positions(game, 8)]
LATE_IDS = [f"{deal.game.name}-{i}" for i, (deal, _, _) in enumerate(LATE)]


@pytest.mark.parametrize(("deal", "start", "line"), LATE, ids=LATE_IDS)
def test_every_number_matches_brute_force_on_late_positions(deal, start, line):
    tree = tree_of(deal, start, line)
    truth = enumerate_lines(start)
    assert tree.status is Status.EXACT
    assert tree.solution_count == len(truth.lines)
    assert tree.random_win_probability == pytest.approx(truth.probability, rel=1e-12, abs=1e-300)
    winnable = [Position(deal, h, f, d) for h, f, d in truth.winnable]
    assert tree.winnable_states == len({_class_of(p) for p in winnable})
    near = {start, *winnable, *(p.play(m) for p in winnable if not p.is_won for m in p.legal_moves())}
    assert tree.reachable_states == len({_class_of(p) for p in near})
    moves_on_lines = [moves for one in truth.lines for moves in one]
    expected_on_lines = sum(moves_on_lines) / len(moves_on_lines) if moves_on_lines else 0.0
    assert tree.branching_winning_lines == pytest.approx(expected_on_lines)
    not_won = list({_class_of(p): p for p in winnable if not p.is_won}.values())
    expected_winnable = sum(len(p.legal_moves()) for p in not_won) / len(not_won) if not_won else 0.0
    assert tree.branching_winnable == pytest.approx(expected_winnable)
    first = start.legal_moves()
    assert tree.first_moves == len(first)
    assert tree.winning_first_moves == sum(_state(start.play(m)) in truth.winnable for m in first)
    _check_line(start, line, tree, truth)


def _check_line(start: Position, line: tuple[int, ...], tree, truth: Enumerated) -> None:
    counts = line_counts(start, line, lambda p: _state(p) in truth.winnable)
    assert (tree.forced_moves, tree.decisions, tree.traps, tree.first_trap) == counts


@pytest.mark.parametrize(("deal", "start", "line"), LATE, ids=LATE_IDS)
def test_every_players_figures_match_every_line_played_out(deal, start, line):
    tree = tree_of(deal, start, line)
    for player, figures in zip(PLAYERS, tree.players, strict=True):
        truth = played_out(start, lambda position, player=player: policy(player, position))
        assert figures.win_probability == pytest.approx(truth.win_probability, rel=1e-9, abs=1e-300)
        assert figures.dead_ends == pytest.approx(truth.dead_ends, rel=1e-9)


def test_the_late_positions_hold_wins_losses_and_talon_deals_players_differ_on():
    trees = [tree_of(deal, start, line) for deal, start, line in LATE]
    assert any(tree.solution_count == 0 for tree in trees)
    assert any(tree.solution_count > 1 for tree in trees)
    assert any(tree.traps > 0 for tree in trees)
    assert any(len({f.win_probability for f in tree.players}) == len(PLAYERS) for tree in trees)
    assert any(deal.game.talon_move in line for deal, _, line in LATE if deal.game.has_talon)  # deals counted


def test_a_lost_start_has_no_win_and_dead_ends_without_end():
    deal, start, _ = next(case for case in LATE if tree_of(*case).solution_count == 0)
    tree = tree_of(deal, start)
    assert (tree.winnable_states, tree.reachable_states) == (0, 1)
    assert all(f.win_probability == 0 and math.isinf(f.dead_ends) for f in tree.players)


@pytest.mark.parametrize("game", FAMILY, ids=lambda game: game.name)
def test_switching_the_sibling_reduction_off_changes_no_figure(game):
    deal = next(
        pysol_deal(n, game) for n in range(1, 50) if solve(pysol_deal(n, game)).verdict is Verdict.SOLVED
    )
    line = tuple(solve(deal).solution)
    on = tree_of(deal, Position.start(deal), line)
    off = tree_of(deal, Position.start(deal), line, options=WalkOptions(siblings=False))
    assert on.status is Status.EXACT and on.solution_count > 0
    assert on.positions <= off.positions
    assert _figures(on) == _figures(off)


def _figures(tree) -> tuple:
    return tuple(value for name, value in vars(tree).items() if name != "positions")


@pytest.mark.parametrize("game", FAMILY, ids=lambda game: game.name)
def test_a_position_budget_stops_the_walk_and_claims_nothing(game):
    deal = pysol_deal(2, game)
    tree = tree_of(deal, Position.start(deal), max_positions=50)
    assert tree.status is Status.OUT_OF_BUDGET
    assert tree.positions == 51


def test_a_cap_on_the_tables_stops_a_walk_with_marks_that_needs_more_and_changes_no_figure_within_it():
    deal = seeded_deal(1, 6, GOLF)  # 7,276 winnable positions: its records double once, and are counted then
    start = Position.start(deal)
    uncapped = tree_of(deal, start)
    assert uncapped.status is Status.EXACT and uncapped.winnable_states > 4096
    assert (
        tree_of(deal, start, max_bytes=1 << 20).status is Status.OUT_OF_BUDGET
    )  # its table alone passes 1 MiB
    within = tree_of(deal, start, max_bytes=1 << 30)
    assert within.status is Status.EXACT
    assert _figures(within) == _figures(uncapped)


@pytest.mark.parametrize("game", FAMILY, ids=lambda game: game.name)
def test_solutions_are_zero_exactly_when_the_solver_says_unsolvable(game):
    for number in range(1, 16):
        deal = pysol_deal(number, game)
        verdict = solve(deal).verdict
        tree = tree_of(deal, Position.start(deal))
        assert tree.status is Status.EXACT
        assert (tree.solution_count > 0) == (verdict is Verdict.SOLVED), (game.name, number)


def _random_positions(game: Game, count: int) -> list[Position]:
    """Positions reached by random play from the start of seeded deals, with a legal move."""
    rng, found = random.Random(game.name), []
    for index in range(10 * count):
        if len(found) == count:
            break
        position = Position.start(seeded_deal(9, index, game))
        for _ in range(rng.randint(0, 30)):
            moves = position.legal_moves()
            if not moves or position.is_won:
                break
            position = position.play(rng.choice(moves))
        if position.legal_moves() and not position.is_won:
            found.append(position)
    return found


def _compiled_chances(position: Position, winning: int = 0) -> dict[int, np.ndarray]:
    deal, game = position.deal, position.deal.game
    ranks, heights, talon, dealt, foundation = position_arrays(deal, position)
    tops = np.zeros(13, dtype=np.int64)
    for pile in range(game.num_piles):
        if heights[pile]:
            tops[ranks[pile, heights[pile] - 1]] |= 1 << pile
    moves = np.zeros((1, game.num_piles + 1), dtype=np.int64)
    count = moves_taller_first(
        ranks, heights, tops, foundation, dealt < len(talon), game.wrap, game.dead_king, 0, moves, 0
    )
    chances = np.zeros((PLAYER_COUNT, game.num_piles + 1))
    fill_chances(
        ranks, heights, tops, foundation, talon, dealt, int(heights.sum()), game.wrap, game.dead_king, moves, 0,
        count, winning, chances, *new_scratch(game.num_piles),
    )  # fmt: skip
    assert list(heights) == list(position.heights)  # the scratch play is taken back
    return {int(moves[0, i]): chances[:, i] for i in range(count)}


RANDOM_POSITIONS = [position for game in FAMILY for position in _random_positions(game, 40)]


@pytest.mark.parametrize("position", RANDOM_POSITIONS, ids=lambda p: p.deal.game.name)
def test_the_compiled_policies_are_the_plain_ones(position):
    compiled = _compiled_chances(position)
    moves = position.legal_moves()
    assert sorted(compiled) == sorted(moves)
    for row, player in enumerate(PLAYERS):
        plain = policy(player, position)
        check_distribution(position, plain)
        assert [plain[move] for move in moves] == pytest.approx(
            [compiled[move][row] for move in moves], rel=1e-12
        )


@pytest.mark.parametrize("game", FAMILY, ids=lambda game: game.name)
def test_moves_known_to_win_skip_their_lookahead_and_change_no_chance(game):
    checked = 0
    for position in _random_positions(game, 30):
        winning = 0
        for move in position.legal_moves():
            child = position.play(move)
            if child.is_won or solve(position.deal, start=child).verdict is Verdict.SOLVED:
                winning |= 1 << move
        if winning:
            checked += 1
            with_known = _compiled_chances(position, winning)
            assert all(
                np.array_equal(with_known[m], chances) for m, chances in _compiled_chances(position).items()
            )
    assert checked >= 3


@pytest.mark.parametrize("game", GOLFS, ids=lambda game: game.name)
def test_golf_tips_seldom_deal_while_a_pile_card_fits(game):
    talon = game.talon_move
    checked = 0
    for position in _random_positions(game, 40):
        weights = tip_weights(position)
        piles = [move for move in position.legal_moves() if move != talon]
        if talon not in weights:
            continue
        dealt = position.play(talon)
        stuck = not any(move != talon for move in dealt.legal_moves())
        plain = STUCK_FACTOR if stuck else 1.0
        if piles:
            checked += 1
            assert weights[talon] == plain * EARLY_DEAL_FACTOR
        else:
            assert weights[talon] == plain and policy(Player.TIPS, position) == {talon: 1.0}
    assert checked >= 5
