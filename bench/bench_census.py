"""Census-speed benchmark of `blackhole run`: dealing and solving only, on loky and on Dask (`make bench`).

Runs 200,000 seeded deals (seed 20261130, shards of 10,000) with the
cross-check and grading off, as a census runs at solver speed, three times
from nothing: 2 loky workers, 1 loky worker, and a ``dask.distributed``
LocalCluster of 2 single-threaded worker processes (joblib's dask backend).
For each it reports deals per second and the pipeline's overhead: the wall
clock less the seconds the workers were busy with tasks (dealing and every
stage, as each task times itself) divided by the workers; that is the time
workers sat idle: starting up, waiting for tasks or for the parent to write
shards, at the end while the last task finishes, and while the parent
assembles and curates the pack (reported apart). The overhead counted from
the stage seconds alone (dealing then counts as overhead) is shown too, with
the parent's CPU seconds. Checks that the
three runs made the same pack bytes. Prints a Markdown table for
docs/benchmarks.md and writes output/bench/census.json.

``--count N`` runs N deals instead (a quick look, not the documented figures).
"""

from __future__ import annotations

import argparse
import json
import platform
import resource
import tempfile
from pathlib import Path
from typing import Any

from pipeline.config import parse_config
from pipeline.runs import run

ROOT = Path(__file__).resolve().parent.parent
COUNT = 200_000
SETUPS = (("loky", 2), ("loky", 1), ("dask", 2))

CONFIG = """\
[run]
name = "census-bench"
source = "seed"
seed = 20261130
count = {count}
shard_size = 10000
jobs = {jobs}
backend = "{backend}"
output = "{output}"
timings = false

[crosscheck]
sample = 0
loss_sample = 0

[grade]
sample = 0
tiers = "{tiers}"
"""


def parent_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def measure(backend: str, jobs: int, count: int, output: Path) -> dict[str, Any]:
    text = CONFIG.format(
        count=count,
        jobs=jobs,
        backend=backend,
        output=output,
        tiers=ROOT / "pipeline" / "stages" / "tiers.toml",
    )
    config = parse_config(text, source="bench_census")
    cpu = parent_cpu_seconds()
    outcome = run(config, progress=True, fresh=True)
    cpu = parent_cpu_seconds() - cpu
    stage = sum(outcome.stage_seconds.values())
    overhead = outcome.seconds - outcome.busy_seconds / jobs  # workers not busy with a task
    packs = output / "packs"
    files = {str(p.relative_to(packs)): p.read_bytes() for p in sorted(packs.rglob("*")) if p.is_file()}
    return {
        "backend": backend,
        "jobs": jobs,
        "deals": count,
        "wall_seconds": round(outcome.seconds, 2),
        "deals_per_second": round(count / outcome.seconds, 1),
        "stage_seconds": round(stage, 2),
        "busy_seconds": round(outcome.busy_seconds, 2),
        "stage_overhead_share": round((outcome.seconds - stage / jobs) / outcome.seconds, 4),
        "overhead_seconds": round(overhead, 2),
        "overhead_share": round(overhead / outcome.seconds, 4),
        "finish_seconds": round(outcome.finish_seconds, 2),
        "parent_cpu_seconds": round(cpu, 2),
        "verdicts": outcome.manifest.verdicts,
        "_files": files,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=COUNT, help=f"deals to run (default {COUNT:,})")
    count = parser.parse_args().count
    results = []
    for backend, jobs in SETUPS:
        with tempfile.TemporaryDirectory() as folder:
            results.append(measure(backend, jobs, count, Path(folder)))
    files = [result.pop("_files") for result in results]
    same = all(found == files[0] for found in files)
    print(f"\n{count:,} seeded deals, solve only; {platform.processor() or platform.machine()}")
    print(
        "| workers | wall s | deals/s | overhead (idle workers) | of which after the last shard "
        "| overhead from stage seconds | parent CPU s |"
    )
    print("|---|---|---|---|---|---|---|")
    for r in results:
        print(
            f"| {r['jobs']} {r['backend']} | {r['wall_seconds']:.1f} | {r['deals_per_second']:,.0f} "
            f"| {r['overhead_share']:.2%} ({r['overhead_seconds']:.1f} s) | {r['finish_seconds']:.1f} s "
            f"| {r['stage_overhead_share']:.2%} | {r['parent_cpu_seconds']:.1f} |"
        )
    speedup = results[1]["wall_seconds"] / results[0]["wall_seconds"]
    print(f"2 loky workers against 1: {speedup:.2f} times as fast; same pack bytes on all three: {same}")
    target = ROOT / "output" / "bench" / "census.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    report = {"runs": results, "speedup": speedup, "same_bytes": same}
    target.write_text(json.dumps(report, indent=2) + "\n")
    if not same:
        raise SystemExit("the packs of the three runs differ")


if __name__ == "__main__":
    main()
