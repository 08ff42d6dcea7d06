"""The family's grading: walk time, tiers and the ladder of players, per game, on PySol FC deals.

For each game of the family, solves PySol FC deals 1..N (default 500) and
walks the game tree of every win (:func:`pipeline.stages.grade.grade_deal`,
the default budget of positions), in this process after compiling, and
prints per game: wins, wins graded exactly and out of budget; the walk's CPU
seconds per win (median, 90th percentile, most) and positions entered
(median, most); how the wins fall into the game's shipped tiers; and each
player model's median win chance without undo and median dead ends with
undo, weakest first (the ladder should rise).

    .venv/bin/python bench/bench_family_grading.py --deals 500
"""

from __future__ import annotations

import argparse
import resource
import statistics
from collections import Counter

from pipeline.engine.gametree import tree_of
from pipeline.engine.solver import solve
from pipeline.game.games import BLACK_HOLE, GAMES, game_named
from pipeline.game.players import PLAYERS
from pipeline.game.rules import Position
from pipeline.game.shuffles import pysol_deal
from pipeline.game.verdicts import Verdict
from pipeline.packs.labels import Tier
from pipeline.stages.grade import grade_deal
from pipeline.stages.settings import shipped_tiers
from pipeline.stages.tiers import load_tiers

FAMILY = [game.name for game in GAMES if game is not BLACK_HOLE]


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def bench_game(name: str, deals: int) -> None:
    game = game_named(name)
    tiers = load_tiers(shipped_tiers(game))
    first = pysol_deal(1, game)
    tree_of(first, Position.start(first))  # compile outside the clock
    seconds: list[float] = []
    positions: list[int] = []
    tally: Counter[str] = Counter()
    chances: dict[str, list[float]] = {player.value: [] for player in PLAYERS}
    dead_ends: dict[str, list[float]] = {player.value: [] for player in PLAYERS}
    for number in range(1, deals + 1):
        deal = pysol_deal(number, game)
        result = solve(deal)
        if result.verdict is not Verdict.SOLVED:
            continue
        began = cpu_seconds()
        grade = grade_deal(deal, result, tiers=tiers)
        seconds.append(cpu_seconds() - began)
        tally[grade.tier.value if grade.tier else grade.grade_status.value] += 1
        if grade.tier is None:
            continue
        positions.append(grade.reachable_states or 0)
        assert grade.players is not None  # a win with a tier was walked to the end: its figures are known
        for player, figures in zip(PLAYERS, grade.players, strict=True):
            chances[player.value].append(figures.win_probability)
            dead_ends[player.value].append(figures.dead_ends)
    graded = sum(tally[tier.value] for tier in Tier if tier is not Tier.UNSOLVABLE)
    print(f"## {game.title} (PySol FC deals 1..{deals})")
    print(f"wins {len(seconds)}, graded exactly {graded}, out of budget {tally['out_of_budget']}")
    print(
        f"walk CPU s per win: median {statistics.median(seconds):.3f}, p90 {percentile(seconds, 0.9):.3f}, "
        f"most {max(seconds):.3f}; reachable positions: median {statistics.median(positions):,.0f}, "
        f"most {max(positions):,}"
    )
    shares = ", ".join(f"{tier.value} {tally[tier.value]}" for tier in Tier if tier is not Tier.UNSOLVABLE)
    print(f"tiers ({tiers.difficulty.player.value} {tiers.difficulty.figure.value}): {shares}")
    for player in PLAYERS:
        print(
            f"  {player.value:12} median win chance {statistics.median(chances[player.value]):.3g}, "
            f"median dead ends {statistics.median(dead_ends[player.value]):.3g}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=500, help="PySol FC deals 1..N of each game")
    parser.add_argument("--game", choices=FAMILY, action="append", help="a game (default: every one)")
    arguments = parser.parse_args()
    for name in arguments.game or FAMILY:
        bench_game(name, arguments.deals)


if __name__ == "__main__":
    main()
