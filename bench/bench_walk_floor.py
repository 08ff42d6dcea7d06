"""The floor of the grading walk: its work over winnable positions alone, in nanoseconds per winnable
position, against an earlier commit's (docs/grader.md, "The floor").

Solves BENCH_DEALS seeded deals of `make bench`'s grading sample (seed 1)
and takes every ``--every``-th solvable one. For each it finds the keys of
the positions from which a win exists (:func:`pipeline.engine.gametree.winnable_keys`,
a full walk), then walks the floor (:func:`pipeline.engine.gametree.floor_walk`):
the walk given those keys, taking any other child as lost without entering
it, asking no necessary condition and making no player model's figures. So
it does no proof work at all, and what it spends is the bookkeeping of the
winnable positions: listing their moves, looking each child up, storing
the record. Each deal's floor is walked twice and the least CPU time taken,
here and, with ``--baseline REV``, deal by deal in turn in a process of its
own with a checkout of REV (bench/floor_worker.py; the floor first came in
c05486a), so both see the machine at the same moment. Prints the medians of nanoseconds per winnable position and their
ratio, and writes output/bench/walk_floor.json.

    .venv/bin/python bench/bench_walk_floor.py [--every 16] [--baseline REV|none]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

import numpy as np

from pipeline.engine.gametree import winnable_keys
from pipeline.engine.solver import solve
from pipeline.game.rules import Position
from pipeline.game.shuffles import seeded_deal
from pipeline.game.verdicts import Verdict

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_grading import BENCH_DEALS, BENCH_SEED, ROOT, ask, baseline_worker  # noqa: E402
from floor_worker import timed_floor  # noqa: E402

EVERY = 16


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=int, default=EVERY, help="walk every N-th solvable deal")
    parser.add_argument(
        "--baseline", default="none", help="a commit with the floor to compare with (c05486a or later)"
    )
    arguments = parser.parse_args()
    folder = ROOT / "output" / "bench"
    keys_folder = folder / "winnable-keys"
    keys_folder.mkdir(parents=True, exist_ok=True)
    solvable = [
        index
        for index in range(BENCH_DEALS)
        if solve(seeded_deal(BENCH_SEED, index)).verdict is Verdict.SOLVED
    ]
    chosen = solvable[:: arguments.every]
    worker = None if arguments.baseline == "none" else baseline_worker(arguments.baseline, "floor_worker.py")
    rows = []
    for number, index in enumerate(chosen):
        deal = seeded_deal(BENCH_SEED, index)
        keys = winnable_keys(deal, Position.start(deal), max_positions=10**10)
        path = keys_folder / f"{BENCH_SEED}-{index}.npy"
        np.save(path, keys)
        if number == 0:
            timed_floor(BENCH_SEED, index, keys)  # compile (or load) the floor before timing it
        row = {"index": index, "winnable": len(keys)}
        if worker is not None:
            asked = {"seed": BENCH_SEED, "index": index, "keys": str(path)}
            if number == 0:
                ask(worker, asked)  # compile (or load) the baseline's floor before timing it
            before = ask(worker, asked)
            if before["winnable"] != len(keys):
                raise SystemExit(
                    f"deal {index}: the baseline's floor stored {before['winnable']:,} of {len(keys):,}"
                )
            row["before_ns"] = 1e9 * before["cpu_seconds"] / len(keys)
        now = timed_floor(BENCH_SEED, index, keys)
        if now["winnable"] != len(keys):
            raise SystemExit(
                f"deal {index}: the floor stored {now['winnable']:,} of {len(keys):,} winnable positions"
            )
        row["ns"] = 1e9 * now["cpu_seconds"] / len(keys)
        path.unlink()
        rows.append(row)
    report = {
        "deals": len(rows),
        "median_ns_per_winnable": statistics.median(row["ns"] for row in rows),
        "median_winnable": statistics.median(row["winnable"] for row in rows),
    }
    if worker is not None:
        worker.communicate()  # its input closed, it ends
        report["baseline"] = arguments.baseline
        report["baseline_median_ns_per_winnable"] = statistics.median(row["before_ns"] for row in rows)
        report["median_ratio"] = statistics.median(row["ns"] / row["before_ns"] for row in rows)
    print(
        f"The floor of the walk on {len(rows)} solvable deals of seed {BENCH_SEED} (every {arguments.every}th):"
    )
    print("| measure | value |\n|---|---|")
    for name, value in report.items():
        print(f"| {name} | {value:,.3f} |" if isinstance(value, float) else f"| {name} | {value} |")
    (folder / "walk_floor.json").write_text(json.dumps({"summary": report, "deals": rows}, indent=1) + "\n")


if __name__ == "__main__":
    main()
