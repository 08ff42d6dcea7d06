"""Grading benchmark: `make bench` (after the solver's and the cross-check's).

Solves BENCH_DEALS seeded deals, then walks the game tree of every solvable
one (:func:`pipeline.engine.gametree.tree_of`, default position budget), one deal at
a time on one core, as the targets are stated. Reports seconds per deal
(mean, median, p99, max), positions entered per second, the share of deals
counted exactly within the budget, and each worker's peak memory. Prints a
Markdown table for docs/benchmarks.md and writes output/bench/grading.json.
"""

from __future__ import annotations

import json
import resource
import statistics
import sys
import time
from dataclasses import asdict
from pathlib import Path

import numpy as np
from joblib import Parallel, delayed

from pipeline.engine.gametree import DEFAULT_MAX_POSITIONS, WalkStatus, tree_of
from pipeline.engine.solver import solve
from pipeline.game.rules import Position
from pipeline.game.shuffles import seeded_deal
from pipeline.game.verdicts import Verdict

sys.path.insert(0, str(Path(__file__).resolve().parent))
from walk_profile import profile_table  # noqa: E402

BENCH_SEED = 1
BENCH_DEALS = 2_000
JOBS = 1
ROOT = Path(__file__).resolve().parent.parent


def walk(index: int, solution: tuple[int, ...]) -> dict[str, float | int]:
    """Walk the tree of seeded deal ``index``: its seconds, status, positions, and the worker's peak memory."""
    deal = seeded_deal(BENCH_SEED, index)
    began = time.perf_counter()
    tree = tree_of(deal, Position.start(deal), line=solution, max_positions=DEFAULT_MAX_POSITIONS)
    seconds = time.perf_counter() - began
    assert tree.profile is not None
    return {
        "index": index,
        "seconds": seconds,
        "cpu_seconds": seconds,  # one walk at a time on one core: what bench/walk_profile.py's table sums
        "exact": tree.status is WalkStatus.EXACT,
        "positions": tree.positions,
        "winnable": tree.winnable_states,
        "reachable": tree.reachable_states,
        "profile": asdict(tree.profile),
        "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def summary(walks: list[dict[str, float | int]]) -> dict[str, float | int]:
    seconds = [w["seconds"] for w in walks]
    exact = [w for w in walks if w["exact"]]
    return {
        "deals": len(walks),
        "mean": statistics.mean(seconds),
        "median": statistics.median(seconds),
        "p99": float(np.percentile(seconds, 99)),
        "max": max(seconds),
        "max_exact": max(w["seconds"] for w in exact),
        "positions_per_second": sum(w["positions"] for w in walks) / sum(seconds),
        "exact_share": len(exact) / len(walks),
        "peak_mib": max(w["peak_mib"] for w in walks),
        "median_winnable": statistics.median(w["winnable"] for w in exact),
        "positions_per_winnable": sum(w["positions"] for w in exact) / sum(w["winnable"] for w in exact),
        "median_positions_per_winnable": statistics.median(w["positions"] / w["winnable"] for w in exact),
    }


def main() -> None:
    solved = []
    for index in range(BENCH_DEALS):
        result = solve(seeded_deal(BENCH_SEED, index))
        if result.verdict is Verdict.SOLVED:
            solved.append((index, tuple(result.solution)))
    warm = seeded_deal(BENCH_SEED, solved[0][0])
    tree_of(warm, Position.start(warm), max_positions=10)  # compile once here, and in each worker below
    Parallel(n_jobs=JOBS)(delayed(walk)(index, ()) for index, _ in solved[: JOBS * 2])
    walks = Parallel(n_jobs=JOBS, batch_size=1)(delayed(walk)(index, solution) for index, solution in solved)
    found = summary(walks)
    found["budget_positions"] = DEFAULT_MAX_POSITIONS
    found["seed"], found["seeded_deals"] = BENCH_SEED, BENCH_DEALS
    print(
        f"Grading {found['deals']} solvable deals of seed {BENCH_SEED} (of {BENCH_DEALS}), {JOBS} at a time:"
    )
    print("| measure | value |\n|---|---|")
    print(f"| mean s/deal | {found['mean']:.3f} |")
    print(f"| median s/deal | {found['median']:.3f} |")
    print(f"| p99 s/deal | {found['p99']:.2f} |")
    print(f"| max s/deal | {found['max']:.2f} (counted exactly: {found['max_exact']:.2f}) |")
    print(f"| positions entered per second | {found['positions_per_second']:,.0f} |")
    print(
        f"| counted exactly within {DEFAULT_MAX_POSITIONS:,} positions | {100 * found['exact_share']:.2f} % |"
    )
    print(f"| peak memory per worker | {found['peak_mib']:.0f} MiB |")
    print(f"| median winnable positions | {found['median_winnable']:,.0f} |")
    print(
        f"| positions entered per winnable position (deals counted exactly): all together / median deal | "
        f"{found['positions_per_winnable']:.2f} / {found['median_positions_per_winnable']:.2f} |"
    )
    print('\nWhere the walks\' work went (docs/grader.md, "Where the time goes"):')
    print(profile_table(walks))
    target = ROOT / "output" / "bench" / "grading.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps({"summary": found, "walks": walks}, indent=1) + "\n")


if __name__ == "__main__":
    main()
