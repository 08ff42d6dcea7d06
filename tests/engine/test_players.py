"""The player models: the compiled policies against the plain ones, the walk's exact figures against every
line played out and against play-outs, the ladder's order, and policies that are not distributions refused."""

from __future__ import annotations

import math
import random
import statistics

import numpy as np
import pytest

from pipeline.engine.gametree import tree_of, winnable_keys
from pipeline.engine.kernel import free_cards, moves_in_pile_order
from pipeline.engine.playouts import play_games
from pipeline.engine.policies import NO_TALON, PLAYER_COUNT, fill_chances, new_scratch
from pipeline.engine.solver import solve
from pipeline.engine.status import Status
from pipeline.game.cards import rank_of
from pipeline.game.deal import Deal
from pipeline.game.players import (
    PLAYERS,
    Player,
    PolicyError,
    check_distribution,
    longest_line,
    played_out,
    policy,
    tip_weights,
)
from pipeline.game.rules import Position
from pipeline.game.shuffles import seeded_deal
from pipeline.game.verdicts import Verdict
from tests.support.positions import hand_built


def _late_positions(seed: int, count: int) -> list[tuple[Deal, Position]]:
    """Positions 8 to 12 cards from the end of a win, and a sibling one move off it (often lost)."""
    rng, chosen = random.Random(seed), []
    for index in range(60):
        deal = seeded_deal(seed, index)
        result = solve(deal)
        if result.verdict is not Verdict.SOLVED:
            continue
        played = 51 - rng.randint(8, 12)
        chosen.append((deal, Position.after(deal, result.solution[:played])))
        branch = Position.after(deal, result.solution[: played - 2])
        others = [move for move in branch.legal_moves() if move != result.solution[played - 2]]
        if others:
            chosen.append((deal, branch.play(others[0])))
        if len(chosen) >= count:
            return chosen
    return chosen


LATE = _late_positions(21, 14)


def _random_positions(count: int) -> list[Position]:
    """Positions reached by random play from the start of seeded deals, with a legal move."""
    rng, found = random.Random(8), []
    for index in range(10 * count):
        if len(found) == count:
            break
        position = Position.start(seeded_deal(9, index))
        for _ in range(rng.randint(0, 30)):
            moves = position.legal_moves()
            if not moves:
                break
            position = position.play(rng.choice(moves))
        if position.legal_moves():
            found.append(position)
    return found


def _compiled_chances(position: Position, winning: int = 0) -> np.ndarray:
    ranks = np.array([[rank_of(card) for card in pile] for pile in position.deal.piles], dtype=np.int64)
    heights = np.array(position.heights, dtype=np.int64)
    tops = free_cards(ranks, heights)
    moves = np.zeros((1, 17), dtype=np.int64)
    count = moves_in_pile_order(
        ranks, heights, tops, position.foundation_rank, False, True, False, 0, moves, 0
    )
    chances = np.zeros((PLAYER_COUNT, 17))
    fill_chances(
        ranks, heights, tops, position.foundation_rank, NO_TALON, 0, sum(position.heights),
        True, False, moves, 0, count, winning, chances, *new_scratch(17),
    )  # fmt: skip
    assert list(heights) == list(position.heights)  # the scratch play is taken back
    return chances[:, :count]


def test_moves_known_to_win_skip_their_lookahead_and_change_no_chance():
    """The walk tells the policies which moves leave a win open, so their bounded searches are skipped: a
    win plays every card, so they reach as far as any lookahead. Switched off, every chance is the same."""
    checked = 0
    for position in _random_positions(60):
        winning = 0
        for move in position.legal_moves():
            child = position.play(move)
            if child.is_won or solve(position.deal, start=child).verdict is Verdict.SOLVED:
                winning |= 1 << move
        if winning and winning != (1 << 17) - 1:
            checked += 1
            assert np.array_equal(_compiled_chances(position, winning), _compiled_chances(position))
    assert checked >= 10  # positions with winning moves to skip, and others searched beside them


@pytest.mark.parametrize("position", _random_positions(120))
def test_the_compiled_policies_are_the_plain_ones(position):
    compiled = _compiled_chances(position)
    moves = position.legal_moves()
    for row, player in enumerate(PLAYERS):
        plain = policy(player, position)
        check_distribution(position, plain)
        assert [plain[move] for move in moves] == pytest.approx(list(compiled[row]), rel=1e-12)


@pytest.mark.parametrize(("deal", "start"), LATE, ids=[f"late{i}" for i in range(len(LATE))])
def test_every_players_figures_match_every_line_played_out(deal, start):
    tree = tree_of(deal, start)
    assert tree.status is Status.EXACT
    assert len(tree.players) == len(PLAYERS)
    assert tree.players[0].win_probability == tree.random_win_probability
    for player, figures in zip(PLAYERS, tree.players, strict=True):
        truth = played_out(start, lambda position, player=player: policy(player, position))
        assert figures.win_probability == pytest.approx(truth.win_probability, rel=1e-9, abs=1e-300)
        assert figures.dead_ends == pytest.approx(truth.dead_ends, rel=1e-9)


def test_the_late_positions_include_lost_ones_and_ones_players_differ_on():
    trees = [tree_of(deal, start) for deal, start in LATE]
    assert any(tree.solution_count == 0 for tree in trees)
    lost = next(tree for tree in trees if tree.solution_count == 0)
    assert all(f.win_probability == 0 and math.isinf(f.dead_ends) for f in lost.players)
    assert any(len({f.win_probability for f in tree.players}) == len(PLAYERS) for tree in trees)


def test_figures_known_by_reasoning():
    # foundation on a 5; a 4 alone, and a 6 over a 5: the 6 wins (6-5-4), the 4 leaves nothing to play
    deal, start = hand_built([["4H"], ["5H", "6H"]], 4)
    random_play, tips, *lookaheads = tree_of(deal, start).players
    assert (random_play.win_probability, random_play.dead_ends) == (0.5, 1.0)  # one try in two fails
    # tips: the 4 leaves the foundation with no follow-up, so it weighs 1/16 against the 6's 1
    assert tips.win_probability == pytest.approx(16 / 17) and tips.dead_ends == pytest.approx(1 / 16)
    # looking two or more moves ahead, the 6 shows a win and is taken
    assert all((f.win_probability, f.dead_ends) == (1.0, 0.0) for f in lookaheads)


def test_the_tips_follow_the_rules_of_thumb():
    # foundation on a 5: two free 6s, one alone and one over a 7; and a 4 over a 9
    deal, start = hand_built([["6H"], ["7C", "6C"], ["9D", "4D"]], 4)
    weights = tip_weights(start)
    # the lone 6 leaves nothing to play (x1/16) and empties a fan while a taller one offers a 6 (x1/2);
    # the taller 6 is the tallest of its rank (x2), and the 7 it uncovers is reached by the free 6 (no x2);
    # the 4 leaves nothing to play (x1/16) and uncovers a 9 that no free 8 or 10 reaches (x2)
    assert weights == {0: 1 / 32, 1: 2.0, 2: 1 / 8}
    assert longest_line(start, 10) == 3  # 6C 7C 6H; the 4 and the 9 are left


def test_a_policy_that_is_not_a_distribution_is_refused():
    deal, start = hand_built([["4H"], ["5H", "6H"]], 4)
    check_distribution(start, {0: 0.25, 1: 0.75})
    cases = {
        "sum": ({0: 0.5, 1: 0.75}, "sum to 1.25, not 1"),
        "negative": ({0: -0.5, 1: 1.5}, "move 0 has probability -0.5"),
        "not a number": ({0: math.nan, 1: 1.0}, "move 0 has probability nan"),
        "missing move": ({1: 1.0}, r"gives moves \[1\], the legal moves are \[0, 1\]"),
        "illegal move": ({0: 0.5, 1: 0.25, 5: 0.25}, r"the legal moves are \[0, 1\]"),
    }
    for chances, message in cases.values():
        with pytest.raises(PolicyError, match=message):
            check_distribution(start, chances)
    with pytest.raises(PolicyError, match="sum to 2"):
        played_out(start, lambda position: dict.fromkeys(position.legal_moves(), 1.0))


@pytest.mark.parametrize("index", [0, 1])
def test_play_outs_agree_with_the_exact_figures(index):
    """Small sizes: a few hundred games a player from a late position; docs/players.md runs whole deals."""
    deal, start = [(d, s) for d, s in LATE if tree_of(d, s).solution_count > 0][index]
    tree, keys = tree_of(deal, start), winnable_keys(deal, start)
    for player, figures in zip(PLAYERS, tree.players, strict=True):
        alone = play_games(deal, start, player, 4000, seed=index, undo=False, winnable=keys)
        helped = play_games(deal, start, player, 1000, seed=index, undo=True, winnable=keys)
        assert abs(alone.z_score(figures.win_probability, bernoulli=True)) < 4, (player, alone, figures)
        assert abs(helped.z_score(figures.dead_ends)) < 4, (player, helped, figures)


def test_a_play_out_that_disagrees_is_seen():
    deal, start = next((d, s) for d, s in LATE if 0 < tree_of(d, s).players[0].win_probability < 0.9)
    exact = tree_of(deal, start).players[0].win_probability
    games = play_games(
        deal, start, Player.RANDOM, 4000, seed=1, undo=False, winnable=winnable_keys(deal, start)
    )
    assert abs(games.z_score(exact * 1.5 + 0.05, bernoulli=True)) > 4


def test_the_ladder_rises_on_a_fixed_sample():
    """Mean and median win chance rise from random to lookahead-8 on positions 27 cards from the end of wins
    (docs/players.md shows the same on 2,000 whole deals)."""
    starts = []
    for index in range(30):
        deal = seeded_deal(12, index)
        result = solve(deal)
        if result.verdict is Verdict.SOLVED:
            starts.append((deal, Position.after(deal, result.solution[:24])))
    trees = [tree_of(deal, start) for deal, start in starts[:12]]
    chances = [[tree.players[row].win_probability for tree in trees] for row in range(len(PLAYERS))]
    means = [statistics.mean(row) for row in chances]
    medians = [statistics.median(row) for row in chances]
    assert means == sorted(means) and len(set(means)) == len(means), means
    assert medians == sorted(medians) and len(set(medians)) == len(medians), medians
