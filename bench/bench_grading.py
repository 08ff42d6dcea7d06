"""Grading benchmark: `make bench` (after the solver's and the cross-check's).

Solves BENCH_DEALS seeded deals, then walks the game tree of every solvable
one (:func:`pipeline.engine.gametree.tree_of`, default position budget), one deal at
a time on one core, as the targets are stated. Reports seconds per deal
(mean, median, p99, max), positions entered per second, the share of deals
counted exactly within the budget, each worker's peak memory, the positions
entered per winnable position, and where the walks' work went
(bench/walk_profile.py). Prints Markdown tables for docs/benchmarks.md and
docs/grader.md and writes output/bench/grading.json.

Then it compares the walk with an earlier commit's (``--baseline REV``, by
default BASELINE, the walk before the speed-ups; ``--baseline none`` skips
it): a checkout of REV is made under output/bench/ and walks every
BASELINE_EVERY-th solvable deal in a process of its own
(bench/walk_worker.py), deal by deal in turn with this checkout's walk in this
process, so both see the same machine at the same moment. It prints the two
medians and means of CPU seconds a deal, their ratios and the median of the
deal-by-deal ratios, and counts the deals whose figures differ (every figure
a pack takes from a walk counted exactly must be the same; of a walk out of
the budget only its status is compared, since it claims nothing) and those
out of the budget before that are counted exactly now.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from joblib import Parallel, delayed

from pipeline.engine.budgets import DEFAULT_MAX_POSITIONS
from pipeline.engine.gametree import tree_of
from pipeline.engine.solver import solve
from pipeline.game.rules import Position
from pipeline.game.shuffles import seeded_deal
from pipeline.game.verdicts import Verdict

sys.path.insert(0, str(Path(__file__).resolve().parent))
from walk_profile import peak_mib, profile_table, walk_record  # noqa: E402
from walk_worker import timed_walk  # noqa: E402

BENCH_SEED = 1
BENCH_DEALS = 2_000
JOBS = 1
ROOT = Path(__file__).resolve().parent.parent
BASELINE = "7eca259"  # the walk before the speed-ups of the grading-speed work
BASELINE_EVERY = 4


def walk(index: int, solution: tuple[int, ...]) -> dict[str, Any]:
    """Walk the tree of seeded deal ``index`` (bench/walk_profile.py's record), with its wall seconds and the
    worker's peak memory."""
    began = time.perf_counter()
    record = walk_record(seeded_deal(BENCH_SEED, index), solution)
    seconds = time.perf_counter() - began
    return {"index": index, "seconds": seconds, **record, "peak_mib": peak_mib()}


def summary(walks: list[dict[str, Any]]) -> dict[str, float | int]:
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


def baseline_checkout(revision: str) -> Path:
    """A checkout of ``revision`` under output/bench/ (made once), whose ``pipeline`` the worker imports."""
    commit = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short=12", revision],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    folder = ROOT / "output" / "bench" / f"baseline-{commit}"
    if not (folder / "pipeline").is_dir():
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", "--force", str(folder), commit],
            check=True,
            capture_output=True,
        )
    return folder


def baseline_worker(revision: str, script: str) -> subprocess.Popen[str]:
    """``bench/SCRIPT`` running in a checkout of ``revision`` (:func:`baseline_checkout`), asked by :func:`ask`."""
    folder = baseline_checkout(revision)
    return subprocess.Popen(
        [sys.executable, str(ROOT / "bench" / script)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(folder)},
        cwd=folder,
    )


def ask(worker: subprocess.Popen[str], request: dict[str, Any]) -> dict[str, Any]:
    """Send a baseline's worker (bench/walk_worker.py, bench/floor_worker.py) one request, a JSON line, and
    read its answer, another."""
    assert worker.stdin is not None and worker.stdout is not None
    worker.stdin.write(json.dumps(request) + "\n")
    worker.stdin.flush()
    answer: dict[str, Any] = json.loads(worker.stdout.readline())
    return answer


def compare(revision: str, solved: list[tuple[int, tuple[int, ...]]]) -> dict[str, float | int | str]:
    """CPU seconds a deal of ``revision``'s walk and of this one, deal by deal in turn (see the module's docstring)."""
    worker = baseline_worker(revision, "walk_worker.py")

    def before(index: int, solution: tuple[int, ...]) -> dict[str, Any]:
        return ask(worker, {"seed": BENCH_SEED, "index": index, "solution": solution})

    chosen = solved[::BASELINE_EVERY]
    before(*chosen[0])  # compile (or load) the checkout's walk before timing it
    pairs, differing, newly_exact = [], [], 0
    for index, solution in chosen:
        earlier, later = before(index, solution), timed_walk(BENCH_SEED, index, solution)
        pairs.append((earlier["cpu_seconds"], later["cpu_seconds"]))
        if earlier["figures"][0] != 0 and later["figures"][0] == 0:
            newly_exact += 1  # out of the budget before, counted exactly now
        elif earlier["figures"] != later["figures"]:
            differing.append(index)
    worker.communicate()  # its input closed, it ends
    then, now = [p[0] for p in pairs], [p[1] for p in pairs]
    return {
        "baseline": revision,
        "deals": len(pairs),
        "figures_differing": len(differing),
        "newly_exact": newly_exact,
        "differing_indexes": str(differing[:10]),
        "before_median": statistics.median(then),
        "after_median": statistics.median(now),
        "before_mean": statistics.mean(then),
        "after_mean": statistics.mean(now),
        "median_ratio": statistics.median(n / t for t, n in pairs),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", default=BASELINE, help="the commit to compare with, or none")
    options = parser.parse_args()
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
    versus: dict[str, float | int | str] = {}
    if options.baseline != "none":
        versus = compare(options.baseline, solved)
        print(
            f"\nBefore ({versus['baseline']}) and after (this checkout), CPU seconds a deal, "
            f"every {BASELINE_EVERY}th solvable deal ({versus['deals']}), deal by deal in turn on one core:"
        )
        print("| measure | before | after | after / before |\n|---|---|---|---|")
        for name in ("median", "mean"):
            first, second = versus[f"before_{name}"], versus[f"after_{name}"]
            assert isinstance(first, float) and isinstance(second, float)
            print(f"| {name} s/deal | {first:.3f} | {second:.3f} | {second / first:.3f} |")
        print(f"| median of the deal-by-deal ratios | | | {versus['median_ratio']:.3f} |")
        print(
            f"| deals whose figures differ | | | {versus['figures_differing']} {versus['differing_indexes']} |"
        )
        print(f"| deals out of the budget before, counted exactly now | | | {versus['newly_exact']} |")
    target = ROOT / "output" / "bench" / "grading.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps({"summary": found, "versus": versus, "walks": walks}, indent=1) + "\n")


if __name__ == "__main__":
    main()
