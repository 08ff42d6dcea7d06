"""Solver benchmark: `make bench`.

Solves a fixed set (2,000 seeded deals of BENCH_SEED plus the hardest deals
found so far, tests/data/hardest.csv) in one process and reports seconds per
deal (mean, median, p99, max), nodes, and peak memory; the mean over PySol FC
deals 1 to 2,000 too, the set the C solver's published figure is for; then deals per second
through joblib with 1 and 2 jobs; then the win rate over 10,000 seeded deals
with its 95 % Wilson interval next to the published 86.94 %. Prints a
Markdown table for docs/benchmarks.md and writes output/bench/solver.json.
"""

from __future__ import annotations

import csv
import json
import os
import platform
import resource
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from pipeline.engine.solver import solve
from pipeline.game.shuffles import deal_of_id, pysol_deal, seeded_deal
from pipeline.game.stats import PUBLISHED_WIN_RATE, wilson_interval
from pipeline.game.verdicts import Verdict
from pipeline.stages.settings import PassOptions
from pipeline.stages.solve import solve_deals

BENCH_SEED = 1
BENCH_DEALS = 2_000
WIN_RATE_SEED = 20261129
WIN_RATE_DEALS = 10_000
REPEATS = 3
ROOT = Path(__file__).resolve().parent.parent


def machine() -> str:
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}"


def main() -> None:
    deals = [seeded_deal(BENCH_SEED, index) for index in range(BENCH_DEALS)]
    with (ROOT / "tests" / "data" / "hardest.csv").open(newline="") as rows:
        hardest = [deal_of_id(row["deal_id"]) for row in csv.DictReader(rows)]
    solve(deals[0])  # compile (or load the compiled cache) outside the clock

    seconds, nodes, verdicts = [], [], []
    for deal in deals + hardest:
        result = solve(deal)
        seconds.append(result.seconds)
        nodes.append(result.nodes)
        verdicts.append(result.verdict)
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    per_deal = np.array(seconds)
    hardest_seconds = per_deal[BENCH_DEALS:]

    pysol_seconds = np.array([solve(pysol_deal(number)).seconds for number in range(1, BENCH_DEALS + 1)])

    throughput = {}
    for jobs in (1, 2):
        runs = []
        for _ in range(REPEATS):
            began = time.perf_counter()
            solve_deals(deals, options=PassOptions(jobs=jobs))
            runs.append(len(deals) / (time.perf_counter() - began))
        throughput[jobs] = statistics.median(runs)

    win_deals = [seeded_deal(WIN_RATE_SEED, index) for index in range(WIN_RATE_DEALS)]
    win_results = solve_deals(win_deals, options=PassOptions(jobs=2))
    wins = sum(result.verdict is Verdict.SOLVED for result in win_results)
    unknown = sum(result.verdict is Verdict.UNKNOWN for result in win_results)
    low, high = wilson_interval(wins, WIN_RATE_DEALS)

    figures = {
        "machine": machine(),
        "deals": len(seconds),
        "hardest_deals": len(hardest),
        "mean_seconds": float(per_deal.mean()),
        "median_seconds": float(np.median(per_deal)),
        "p99_seconds": float(np.percentile(per_deal, 99)),
        "max_seconds": float(per_deal.max()),
        "seeded_mean_seconds": float(per_deal[:BENCH_DEALS].mean()),
        "seeded_max_seconds": float(per_deal[:BENCH_DEALS].max()),
        "hardest_max_seconds": float(hardest_seconds.max()) if len(hardest) else None,
        "pysol_1_to_2000_mean_seconds": float(pysol_seconds.mean()),
        "pysol_1_to_2000_max_seconds": float(pysol_seconds.max()),
        "median_nodes": int(np.median(nodes)),
        "max_nodes": int(max(nodes)),
        "unknown_in_bench_set": sum(v is Verdict.UNKNOWN for v in verdicts),
        "peak_memory_mib_one_worker": round(peak_mib, 1),
        "deals_per_second_1_job": round(throughput[1], 1),
        "deals_per_second_2_jobs": round(throughput[2], 1),
        "win_rate_deals": WIN_RATE_DEALS,
        "win_rate": wins / WIN_RATE_DEALS,
        "win_rate_ci95": [low, high],
        "win_rate_unknown": unknown,
    }
    out = ROOT / "output" / "bench"
    out.mkdir(parents=True, exist_ok=True)
    (out / "solver.json").write_text(json.dumps(figures, indent=2) + "\n")

    print(f"Machine: {figures['machine']}")
    print(
        f"Set: {BENCH_DEALS} deals of seed {BENCH_SEED} + {len(hardest)} hardest found (tests/data/hardest.csv)"
    )
    print()
    print("| measure | value |")
    print("|---|---|")
    print(f"| mean s/deal (1 core), whole set | {figures['mean_seconds']:.4f} |")
    print(
        f"| mean / max s/deal, the {BENCH_DEALS} seeded deals | {figures['seeded_mean_seconds']:.4f} / {figures['seeded_max_seconds']:.3f} |"
    )
    if hardest:
        print(f"| max s/deal, the {len(hardest)} hardest | {figures['hardest_max_seconds']:.3f} |")
    print(
        f"| mean / max s/deal, PySol FC deals 1-{BENCH_DEALS} (apart from the set) | "
        f"{figures['pysol_1_to_2000_mean_seconds']:.4f} / {figures['pysol_1_to_2000_max_seconds']:.3f} |"
    )
    print(f"| median s/deal | {figures['median_seconds']:.5f} |")
    print(f"| p99 s/deal | {figures['p99_seconds']:.3f} |")
    print(f"| max s/deal | {figures['max_seconds']:.3f} |")
    print(f"| median / max nodes | {figures['median_nodes']:,} / {figures['max_nodes']:,} |")
    print(f"| unknown | {figures['unknown_in_bench_set']} |")
    print(f"| peak memory, one worker | {figures['peak_memory_mib_one_worker']:.0f} MiB |")
    print(f"| deals/s, 1 job (median of {REPEATS}) | {figures['deals_per_second_1_job']} |")
    print(f"| deals/s, 2 jobs (median of {REPEATS}) | {figures['deals_per_second_2_jobs']} |")
    print(
        f"| win rate, {WIN_RATE_DEALS:,} deals of seed {WIN_RATE_SEED} | {100 * wins / WIN_RATE_DEALS:.2f} % "
        f"(95 % CI {100 * low:.2f}-{100 * high:.2f} %; published {100 * PUBLISHED_WIN_RATE:.2f} %) |"
    )
    if unknown:
        print(f"warning: {unknown} unknown verdicts in the win-rate set", file=sys.stderr)


if __name__ == "__main__":
    main()
