"""Peak resident memory of a process and each of its descendants (Linux), for the memory benchmark.

The kernel keeps each process's high-water mark (``VmHWM`` in
``/proc/PID/status``); :func:`watch` reads it for a process and every
descendant every ``interval`` seconds until the process ends, so a worker
that lives longer than one interval is counted with its true peak. Each
process is named by its role: ``parent`` (the watched command), ``worker``
(joblib loky or Dask worker processes) or ``helper`` (anything else: loky's
resource tracker, a Dask scheduler or nanny).

Run on its own, it watches a running process and prints JSON::

    python bench/peak_memory.py --pid 12345 --out output/bench/census-memory.json
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path


@dataclass
class Peak:
    pid: int
    role: str
    command: str
    peak_mib: float


def _children() -> dict[int, list[int]]:
    """Every process's children, from /proc/*/stat (the parent pid is field 4)."""
    tree: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", encoding="utf-8") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        tree.setdefault(int(fields[1]), []).append(int(entry.name))
    return tree


def _descendants(pid: int) -> list[int]:
    tree, found, todo = _children(), [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo.extend(tree.get(current, []))
    return found


def _high_water_kib(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/status", encoding="utf-8") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def _command(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            return cmdline.read().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return ""


def _role(pid: int, root: int, command: str) -> str:
    if pid == root:
        return "parent"
    if "resource_tracker" in command or "semaphore_tracker" in command:
        return "helper"
    if "loky" in command or "spawn_main" in command or "multiprocessing.forkserver" in command:
        return "worker"
    return "helper"


def watch(pid: int, *, interval: float = 0.2, alive: subprocess.Popen[bytes] | None = None) -> list[Peak]:
    """The peak memory of ``pid`` and its descendants, read until ``pid`` ends (or ``alive`` does)."""
    peaks: dict[int, Peak] = {}
    while True:
        for member in _descendants(pid):
            kib = _high_water_kib(member)
            if kib is None:
                continue
            known = peaks.get(member)
            if known is None:
                command = _command(member)
                peaks[member] = Peak(member, _role(member, pid, command), command[:160], kib / 1024)
            else:
                known.peak_mib = max(known.peak_mib, kib / 1024)
        finished = alive.poll() is not None if alive is not None else not os.path.exists(f"/proc/{pid}")
        if finished:
            return sorted(peaks.values(), key=lambda peak: (peak.role != "parent", peak.pid))
        time.sleep(interval)


def run_watched(command: list[str], *, cwd: Path | None = None) -> tuple[float, list[Peak]]:
    """Run ``command`` to the end; its wall seconds and the peaks of it and its descendants.

    Raises CalledProcessError when it fails.
    """
    began = time.perf_counter()
    with tempfile.TemporaryFile() as errors:  # a file, not a pipe: a full pipe would stall the command
        process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=errors)
        peaks = watch(process.pid, alive=process)
        process.wait()
        seconds = time.perf_counter() - began
        if process.returncode:
            errors.seek(0)
            raise subprocess.CalledProcessError(process.returncode, command, stderr=errors.read())
    return seconds, peaks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pid", type=int, required=True)
    parser.add_argument("--out", type=Path, required=True)
    options = parser.parse_args()
    peaks = watch(options.pid, interval=1.0)
    options.out.parent.mkdir(parents=True, exist_ok=True)
    options.out.write_text(json.dumps([asdict(peak) for peak in peaks], indent=2) + "\n")


if __name__ == "__main__":
    main()
