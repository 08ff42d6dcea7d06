"""A newcomer's first run: a fresh clone, ``make setup``, then the smoke run, each timed on the wall clock.

Clones this repository's committed ``HEAD`` (or ``--ref``) into a temporary folder (what
``git clone`` of it gives a newcomer), runs ``make setup`` there (a new
``.venv``; pip's own cache makes the downloads local when it is warm, so the
figure is the install and the engine's compiling, not the network), then
``blackhole run --config configs/smoke.toml`` twice: the first run, as a
newcomer meets it, and a second with ``--fresh``, for comparison. Prints the
wall seconds and CPU seconds (this process's children) of each step.

    .venv/bin/python bench/bench_first_run.py
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import tempfile
import time
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[1]


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(name: str, command: list[str], folder: Path) -> None:
    """Run ``command`` in ``folder`` (its output thrown away unless it fails) and print its wall and CPU."""
    cpu, began = children_cpu(), time.perf_counter()
    done = subprocess.run(command, cwd=folder, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - began
    if done.returncode != 0:
        raise SystemExit(
            f"{name} failed (exit {done.returncode}):\n{done.stdout[-2000:]}{done.stderr[-2000:]}"
        )
    print(f"{name:<40} {wall:8.1f} {children_cpu() - cpu:8.1f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ref", default="HEAD", help="the commit to clone (default HEAD)")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        clone = Path(scratch, "blackhole")
        subprocess.run(["git", "clone", "-q", str(REPOSITORY), str(clone)], check=True)
        subprocess.run(["git", "-C", str(clone), "checkout", "-q", arguments.ref], check=True)
        print(f"a fresh clone of {REPOSITORY.name} at {arguments.ref}, in {clone}")
        print(f"{'step':<40} {'wall s':>8} {'CPU s':>8}")
        timed("make setup", ["make", "setup"], clone)
        smoke = [".venv/bin/blackhole", "run", "--config", "configs/smoke.toml", "--quiet"]
        timed("smoke run, the first", smoke, clone)
        timed("smoke run again (--fresh)", [*smoke, "--fresh"], clone)


if __name__ == "__main__":
    main()
