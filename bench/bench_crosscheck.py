"""CP-SAT cross-check benchmark: `make bench` (after the solver's).

Runs :func:`pipeline.engine.cpsat.cpsat_solve` (one CP-SAT worker per deal, default
time limit) on BENCH_DEALS seeded deals and on the hardest deals found so far
(tests/data/hardest.csv), two deals at a time on joblib workers, and reports
seconds per deal (median, p95, max) for winnable and lost deals, as the exact
solver classes them, and the share that CP-SAT left ``unknown``. Prints a
Markdown table for docs/benchmarks.md and writes output/bench/crosscheck.json.
"""

from __future__ import annotations

import csv
import json
import statistics
from pathlib import Path
from typing import TypedDict

import numpy as np
from joblib import Parallel, delayed

from pipeline.engine.budgets import DEFAULT_TIME_LIMIT
from pipeline.engine.cpsat import cpsat_solve
from pipeline.engine.solver import solve
from pipeline.game.shuffles import deal_of_id
from pipeline.game.verdicts import Verdict

BENCH_SEED = 1
BENCH_DEALS = 1_000
JOBS = 2
ROOT = Path(__file__).resolve().parent.parent

Spread = dict[str, float | int | None]


class Summary(TypedDict):
    winnable: Spread
    lost: Spread
    unknown: int
    disagree: int


def check(deal_id: str) -> tuple[str, str, float]:
    """(the solver's verdict, CP-SAT's verdict, CP-SAT's seconds) for the deal ``deal_id`` names."""
    deal = deal_of_id(deal_id)
    answer = cpsat_solve(deal, time_limit=DEFAULT_TIME_LIMIT)
    return solve(deal).verdict.value, answer.verdict.value, answer.seconds


def spread(seconds: list[float]) -> Spread:
    if not seconds:
        return {"deals": 0, "median": None, "p95": None, "max": None}
    return {
        "deals": len(seconds),
        "median": statistics.median(seconds),
        "p95": float(np.percentile(seconds, 95)),
        "max": max(seconds),
    }


def summary(rows: list[tuple[str, str, float]]) -> Summary:
    by_verdict = {
        verdict.value: spread([seconds for truth, _, seconds in rows if truth == verdict.value])
        for verdict in (Verdict.SOLVED, Verdict.UNSOLVABLE)
    }
    unknown = sum(answer == Verdict.UNKNOWN.value for _, answer, _ in rows)
    wrong = sum(answer not in (truth, Verdict.UNKNOWN.value) for truth, answer, _ in rows)
    return {
        "winnable": by_verdict["solved"],
        "lost": by_verdict["unsolvable"],
        "unknown": unknown,
        "disagree": wrong,
    }


def main() -> None:
    with (ROOT / "tests" / "data" / "hardest.csv").open(newline="") as rows:
        hardest = [row["deal_id"] for row in csv.DictReader(rows)]
    jobs = [f"seed-{BENCH_SEED}-{index}" for index in range(BENCH_DEALS)] + hardest
    results = Parallel(n_jobs=JOBS)(delayed(check)(deal_id) for deal_id in jobs)
    seeded, hard = summary(results[:BENCH_DEALS]), summary(results[BENCH_DEALS:])
    report = {
        "time_limit_deterministic_seconds": DEFAULT_TIME_LIMIT,
        "cpsat_workers_per_deal": 1,
        "deals_at_a_time": JOBS,
        "seeded": {"seed": BENCH_SEED, "deals": BENCH_DEALS, **seeded},
        "hardest": {"deals": len(hardest), **hard},
    }
    out = ROOT / "output" / "bench"
    out.mkdir(parents=True, exist_ok=True)
    (out / "crosscheck.json").write_text(json.dumps(report, indent=2) + "\n")

    def cells(part: Spread) -> str:
        if not part["deals"]:
            return "none"
        return f"{part['median']:.3f} / {part['p95']:.3f} / {part['max']:.3f} ({part['deals']} deals)"

    print(
        f"\nCP-SAT, 1 worker per deal, {JOBS} deals at a time, limit {DEFAULT_TIME_LIMIT:g} deterministic s\n"
    )
    print("| measure | value |\n|---|---|")
    print(f"| winnable, median / p95 / max s | {cells(seeded['winnable'])} |")
    print(f"| lost, median / p95 / max s | {cells(seeded['lost'])} |")
    print(
        f"| unknown, {BENCH_DEALS} seeded deals | {seeded['unknown']} ({seeded['unknown'] / BENCH_DEALS:.2%}) |"
    )
    print(f"| hardest {len(hardest)}: lost, median / p95 / max s | {cells(hard['lost'])} |")
    print(f"| unknown, hardest {len(hardest)} | {hard['unknown']} |")
    print(f"| disagreements with the solver | {seeded['disagree'] + hard['disagree']} |")


if __name__ == "__main__":
    main()
