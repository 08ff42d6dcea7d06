"""The first touch: what a command costs a person who runs it once, beside black-hole-solver and a bare Python.

Each command is started ``--runs`` times (default 10) as its own process
after one warm-up run that is not counted (it fills Numba's cache if it was
empty), and each run's CPU seconds (user + system), wall seconds and peak
resident memory are read from the kernel's own accounting of that child
(GNU time, ``/usr/bin/time``). Prints one row per command with the medians:

- ``python -c pass``: the floor of any Python program on this machine;
- ``blackhole --help``;
- ``blackhole solve-board`` of PySol FC deals 1 (no first move) and 2;
- ``python -c "import pipeline; pipeline.solve(pipeline.pysol_deal(2))"``: the library's one deal;
- black-hole-solver's ``black-hole-solve`` on the same two boards (``--bhs PATH``), when given.

``--blackhole DIR`` times another installation's ``blackhole`` and ``python``
(a venv's ``bin`` folder), so one run can hold an older version's figures
beside today's: ``--before /tmp/before/.venv/bin`` adds its rows.

    .venv/bin/python bench/bench_door.py --bhs ../bhs/build/black-hole-solve --before /tmp/old/.venv/bin
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from pipeline.game.shuffles import pysol_deal

GNU_TIME = "/usr/bin/time"  # Debian's package time
LIBRARY_CALL = "import pipeline; pipeline.solve(pipeline.pysol_deal(2))"


@dataclass(frozen=True)
class Figures:
    """One command's medians over its counted runs."""

    cpu: float
    wall: float
    peak_mib: float


def run_once(command: list[str]) -> tuple[float, float, float]:
    """CPU seconds, wall seconds and peak MiB of one run of ``command`` (its output thrown away).

    GNU time starts the command and reports its figures: a child forked from this Python process would
    count this process's memory at the fork in its peak."""
    with tempfile.NamedTemporaryFile("r") as report:
        began = time.perf_counter()
        subprocess.run(
            [GNU_TIME, "-f", "%U %S %M", "-o", report.name, *command],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            cwd=tempfile.gettempdir(),  # not a checkout, whose pipeline/ python -c would import instead
            check=False,
        )
        wall = time.perf_counter() - began
        lines = report.read().splitlines()
    if any(line.endswith(("status 126", "status 127")) for line in lines):  # GNU time's word for it
        raise SystemExit(f"could not start {' '.join(command)}")
    user, system, peak_kib = lines[-1].split()
    return float(user) + float(system), wall, int(peak_kib) / 1024


def measure(command: list[str], runs: int) -> Figures:
    """The medians of ``runs`` runs of ``command`` after one warm-up."""
    run_once(command)
    samples = [run_once(command) for _ in range(runs)]
    cpu, wall, peak = (statistics.median(figure) for figure in zip(*samples, strict=True))
    return Figures(cpu, wall, peak)


def commands(bin_folder: Path, boards: dict[int, Path], label: str) -> list[tuple[str, list[str]]]:
    """The rows of one installation whose ``blackhole`` and ``python`` are in ``bin_folder``."""
    blackhole, python = str(bin_folder / "blackhole"), str(bin_folder / "python")
    return [
        (f"{label}blackhole --help", [blackhole, "--help"]),
        *(
            (f"{label}blackhole solve-board (deal {n})", [blackhole, "solve-board", str(boards[n])])
            for n in boards
        ),
        (f'{label}python -c "{LIBRARY_CALL}"', [python, "-c", LIBRARY_CALL]),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--bhs", type=Path, help="black-hole-solver's black-hole-solve")
    parser.add_argument("--before", type=Path, help="bin folder of an older installation, timed too")
    arguments = parser.parse_args()
    here = Path(sys.executable).parent
    with tempfile.TemporaryDirectory() as scratch:
        boards = {}
        for number in (1, 2):
            boards[number] = Path(scratch, f"pysol-{number}.txt")
            boards[number].write_text(pysol_deal(number).to_board_text(), encoding="utf-8")
        rows = [("python -c pass", [sys.executable, "-c", "pass"]), *commands(here, boards, "")]
        if arguments.before is not None:
            rows += commands(arguments.before, boards, "before: ")
        if arguments.bhs is not None:
            rows += [
                (f"black-hole-solve (deal {n})", [str(arguments.bhs), "--game", "black_hole", str(boards[n])])
                for n in boards
            ]
        print(f"the first touch: medians of {arguments.runs} runs after one warm-up, {os.cpu_count()} CPUs")
        print(f"{'command':<76} {'CPU s':>7} {'wall s':>7} {'peak MiB':>9}")
        for name, command in rows:
            figures = measure(command, arguments.runs)
            print(f"{name:<76} {figures.cpu:7.3f} {figures.wall:7.3f} {figures.peak_mib:9.1f}", flush=True)


if __name__ == "__main__":
    main()
