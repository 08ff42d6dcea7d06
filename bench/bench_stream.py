"""The board stream against the solve stage: deals per second on the same deals, as the commands run them.

Solves PySol FC deals 1 to N (default 5,000) of Black Hole with two
commands, each whole in its own process (start-up included), on the same
number of jobs (default 2):

- the solve stage: ``blackhole generate --source pysol --first 1 --count N
  --out deals.parquet``, then ``blackhole solve deals.parquet --out
  solved.parquet --jobs J`` (timed);
- the stream: the same deals as board text in one file, then ``blackhole
  solve-board boards.txt --format jsonl --jobs J`` (timed), its JSON Lines
  read back.

The engine is compiled (or loaded from Numba's cache) first, outside the
clocks, and each command runs three times, alternately; the fastest run
counts (the machine may be shared), with its CPU seconds (the command's and
its workers'), which a shared machine disturbs less than the wall clock.
Checks that both give every deal the same verdict, nodes and most cards
played, and prints each one's wall seconds, deals per second and CPU
seconds, and the ratio of the rates (the stream's over the stage's: at
least 1 is the aim). Writes output/bench/stream.json.

    .venv/bin/python bench/bench_stream.py --deals 5000 --jobs 2
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import pyarrow.parquet as pq

from pipeline.game.shuffles import pysol_deal

ROOT = Path(__file__).resolve().parent.parent
BLACKHOLE = Path(sys.executable).parent / "blackhole"
ROUNDS = 3


@dataclass(frozen=True)
class Timing:
    """One command's wall seconds and CPU seconds (user and system, the command and its workers)."""

    wall: float
    cpu: float


def timed(command: list[str], stdout: Path | None = None) -> Timing:
    """Run ``command`` (its standard output into ``stdout`` when given); what it took."""
    cpu_before, began = _children_cpu(), time.perf_counter()
    if stdout is None:
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    else:
        with stdout.open("w") as out:
            subprocess.run(command, check=True, stdout=out)
    return Timing(time.perf_counter() - began, _children_cpu() - cpu_before)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)  # the workers too: they are waited for
    return usage.ru_utime + usage.ru_stime


def _best(timings: list[Timing]) -> Timing:
    return min(timings, key=lambda timing: timing.wall)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=5000, help="PySol FC deals 1..N")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes for both")
    args = parser.parse_args()
    count, jobs = args.deals, str(args.jobs)
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        deals, solved = work / "deals.parquet", work / "solved.parquet"
        boards, answers = work / "boards.txt", work / "answers.jsonl"
        subprocess.run(
            [str(BLACKHOLE), "generate", "--source", "pysol", "--first", "1", "--count", str(count),
             "--out", str(deals), "--quiet"],
            check=True,
        )  # fmt: skip
        boards.write_text("\n".join(pysol_deal(number).to_board_text() for number in range(1, count + 1)))
        boards.with_name("one.txt").write_text(pysol_deal(1).to_board_text())
        warm = [str(BLACKHOLE), "solve-board", str(boards.with_name("one.txt"))]
        subprocess.run(warm, check=True, stdout=subprocess.DEVNULL)  # compile (or load the cache) unclocked
        stage_run = [str(BLACKHOLE), "solve", str(deals), "--out", str(solved), "--jobs", jobs, "--quiet"]
        stream_run = [str(BLACKHOLE), "solve-board", str(boards), "--format", "jsonl", "--jobs", jobs]
        stages, streams = [], []
        for _ in range(ROUNDS):  # alternately, the faster run of each kept: the machine may be shared
            stages.append(timed(stage_run))
            streams.append(timed(stream_run, answers))
        stage, stream = _best(stages), _best(streams)
        table = pq.read_table(solved, columns=["verdict", "nodes", "max_cards_played"]).to_pylist()
        lines = [json.loads(line) for line in answers.read_text().splitlines()]
    keys = ("verdict", "nodes", "max_cards_played")
    differing = [
        n
        for n, (row, line) in enumerate(zip(table, lines, strict=False), start=1)
        if any(row[k] != line[k] for k in keys)
    ]
    if len(lines) != count or differing:
        print(
            f"the stream and the stage disagree: {len(lines)} answers, first differing deal {differing[:1]}"
        )
        return 1
    figures = {
        "deals": count,
        "jobs": args.jobs,
        "solve_stage": _figures(stage, count),
        "stream": _figures(stream, count),
        "stream_over_stage": round(stage.wall / stream.wall, 3),
    }
    print(f"PySol FC deals 1 to {count:,}, {jobs} jobs, each command whole (process start included):")
    print("| command | wall seconds | deals per second | CPU seconds |")
    print("|---|---:|---:|---:|")
    for name, timing in (
        ("solve (stage, Parquet in and out)", stage),
        ("solve-board --format jsonl (stream)", stream),
    ):
        print(f"| {name} | {timing.wall:.2f} | {count / timing.wall:,.1f} | {timing.cpu:.2f} |")
    print(
        f"stream / stage rate: {stage.wall / stream.wall:.2f}; the same verdicts, nodes and most cards played"
        " on every deal"
    )
    out = ROOT / "output" / "bench"
    out.mkdir(parents=True, exist_ok=True)
    (out / "stream.json").write_text(json.dumps(figures, indent=2) + "\n")
    return 0


def _figures(timing: Timing, count: int) -> dict[str, float]:
    return {
        "wall_seconds": round(timing.wall, 2),
        "deals_per_second": round(count / timing.wall, 1),
        "cpu_seconds": round(timing.cpu, 2),
    }


if __name__ == "__main__":
    raise SystemExit(main())
