"""End-to-end benchmark of `blackhole run`: `make bench` (after the stage benchmarks).

Runs the default config (configs/default.toml) from nothing, once with 2 jobs
and once with 1, each into a fresh temporary output folder, and reports deals
per second and where the time went: the seconds the workers spent in each
stage (solve, cross-check, grade), summed over the deals, and the pipeline's
overhead, which is everything else: dealing, sending deals to workers and
results back, writing shards, assembling the pack and curating it, and (with
2 jobs) workers waiting at the end for the last slow deal. The overhead of a
run with J jobs is ``wall - stage seconds / J``. Checks that both runs made
the same pack bytes. Prints a Markdown table for docs/benchmarks.md and writes
output/bench/pipeline.json.

``--count N`` runs N deals instead of the config's count (a quick look, not
the figures of docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import platform
import tempfile
from pathlib import Path
from typing import Any

from pipeline.config import load_config
from pipeline.runs import run

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "configs" / "default.toml"
JOBS = (2, 1)


def measure(jobs: int, count: int | None, output: Path) -> dict[str, Any]:
    config = load_config(CONFIG)
    if count is not None:  # a quick look: the quotas of 1,000 deals would not fit
        config = dataclasses.replace(config, curate=dataclasses.replace(config.curate, per_tier=None))
    config = dataclasses.replace(
        config, grade=dataclasses.replace(config.grade, tiers=ROOT / "pipeline" / "stages" / "tiers.toml")
    )
    config = config.with_overrides(jobs=jobs, count=count, output=output)
    outcome = run(config, progress=True, fresh=True)
    busy = sum(outcome.stage_seconds.values())
    overhead = outcome.seconds - busy / jobs
    packs = output / "packs"
    files = {str(p.relative_to(packs)): p.read_bytes() for p in sorted(packs.rglob("*")) if p.is_file()}
    return {
        "jobs": jobs,
        "deals": config.count,
        "wall_seconds": round(outcome.seconds, 2),
        "deals_per_second": round(config.count / outcome.seconds, 3),
        "stage_seconds": {stage: round(s, 2) for stage, s in outcome.stage_seconds.items()},
        "stage_share": {
            stage: round(s / jobs / outcome.seconds, 4) for stage, s in outcome.stage_seconds.items()
        },
        "overhead_seconds": round(overhead, 2),
        "overhead_share": round(overhead / outcome.seconds, 4),
        "tiers": outcome.manifest.tiers,
        "curated_deals": outcome.curated_manifest.deals,
        "_files": files,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=None, help="deals to run (default: the config's)")
    count = parser.parse_args().count
    results = []
    for jobs in JOBS:
        with tempfile.TemporaryDirectory() as folder:
            results.append(measure(jobs, count, Path(folder)))
    same = results[0].pop("_files") == results[1].pop("_files")
    print(
        f"\nconfigs/default.toml, {results[0]['deals']} deals; {platform.processor() or platform.machine()}"
    )
    print("| jobs | wall s | deals/s | solve | cross-check | grade | overhead |")
    print("|---|---|---|---|---|---|---|")
    for r in results:
        shares = " | ".join(f"{r['stage_share'][stage]:.1%}" for stage in ("solve", "crosscheck", "grade"))
        print(
            f"| {r['jobs']} | {r['wall_seconds']:.1f} | {r['deals_per_second']:.2f} | {shares} "
            f"| {r['overhead_share']:.2%} ({r['overhead_seconds']:.1f} s) |"
        )
    speedup = results[1]["wall_seconds"] / results[0]["wall_seconds"]
    print(f"2 jobs against 1: {speedup:.2f} times as fast; same pack bytes: {same}")
    target = ROOT / "output" / "bench" / "pipeline.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps({"runs": results, "speedup": speedup, "same_bytes": same}, indent=2) + "\n")
    if not same:
        raise SystemExit("the packs of 1 and 2 jobs differ")


if __name__ == "__main__":
    main()
