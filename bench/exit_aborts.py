"""Benchmark of exits after a failed read: `python bench/exit_aborts.py --runs 200` (after `make run`).

A command that fails after it began reading a pack must print one ``error:``
line and exit 1; it must never abort at exit (SIGABRT, "terminate called
without an active exception", exit 134 from a shell). The abort is Arrow's
apache/arrow#34314: an Arrow worker thread still holding memory that
Python owns when the interpreter finalises, so that freeing it waits for the
GIL and the thread is killed inside C++.

From a pack (``--pack``, by default output/packs/default) the script builds,
in a temporary folder, two copies whose first or last solved row has its
solution reversed (the manifest's SHA-256 updated, so the pack is read and
the row refused), then runs each case ``--runs`` times as a subprocess:

- ``export-first``, ``export-last``: ``export`` of those copies (json);
- ``export-unwritable``: ``export`` of the pack, its output held to 64 KiB
  (RLIMIT_FSIZE), so writing fails after reading began;
- ``show-missing``: ``show`` of a deal id the pack lacks (the whole pack read first);
- ``gallery-last``, ``report-last``, ``curate-last``: those commands on the last-row copy.

Prints a Markdown table: exit codes, aborts, runs whose stderr was not one
``error:`` line. Exits 1 when any run aborted. The commands run the package
the subprocesses import: ``PYTHONPATH=/elsewhere`` measures another tree.
"""

from __future__ import annotations

import argparse
import collections
import dataclasses
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from pipeline.packs.folders import sha256_of
from pipeline.packs.manifest import MANIFEST, read_manifest

ROOT = Path(__file__).resolve().parent.parent
PACK = ROOT / "output" / "packs" / "default"
BLACKHOLE = Path(sys.executable).parent / "blackhole"
ABORTS = (134, -6)  # SIGABRT through a shell, or seen by subprocess


def rejected_copy(pack: Path, target: Path, *, last: bool) -> str:
    """Copy ``pack`` to ``target`` with the first (or ``last``) solved row's solution reversed; that row's deal id."""
    shutil.copytree(pack, target)
    manifest = read_manifest(target)
    order = range(len(manifest.files))
    for index in reversed(order) if last else order:
        entry = manifest.files[index]
        path = target / entry.path
        table = pq.ParquetFile(path).read()
        solutions = table.column("solution").to_pylist()
        solved = [row for row, solution in enumerate(solutions) if solution]
        if solved:
            break
    else:
        raise SystemExit(f"{pack}: no solved deal to break")
    row = solved[-1 if last else 0]
    solutions[row] = solutions[row][::-1]
    column = table.column_names.index("solution")
    field = table.schema.field(column)
    table = table.set_column(column, field, pa.array(solutions, field.type))
    pq.write_table(table, path, compression="zstd")
    files = list(manifest.files)
    files[index] = dataclasses.replace(entry, sha256=sha256_of(path))
    (target / MANIFEST).write_text(dataclasses.replace(manifest, files=tuple(files)).to_json(), "utf-8")
    return str(table.column("deal_id")[row].as_py())


def small_files() -> None:
    """Hold the files a process writes to 64 KiB (its writes past that fail with EFBIG)."""
    resource.setrlimit(resource.RLIMIT_FSIZE, (64 * 1024, 64 * 1024))


@dataclasses.dataclass
class Case:
    name: str
    args: list[str]
    before: Callable[[], None] | None = None
    codes: collections.Counter[int] = dataclasses.field(default_factory=collections.Counter)
    not_one_error: int = 0
    seconds: float = 0.0

    def run(self) -> None:
        began = time.perf_counter()
        done = subprocess.run(
            [str(BLACKHOLE), *self.args], capture_output=True, text=True, preexec_fn=self.before, check=False
        )
        self.seconds += time.perf_counter() - began
        self.codes[done.returncode] += 1
        lines = done.stderr.splitlines()
        if len(lines) != 1 or not lines[0].startswith("error: "):
            self.not_one_error += 1
            if self.not_one_error == 1:
                print(f"{self.name}: exit {done.returncode}, stderr:\n{done.stderr}", file=sys.stderr)

    @property
    def aborts(self) -> int:
        return sum(self.codes[code] for code in ABORTS)


def cases(pack: Path, scratch: Path) -> list[Case]:
    first, last = scratch / "first", scratch / "last"
    rejected_copy(pack, first, last=False)
    rejected_copy(pack, last, last=True)
    out = scratch / "out"
    return [
        Case("export-first", ["export", str(first), "--format", "json", "--out", f"{out}.json"]),
        Case("export-last", ["export", str(last), "--format", "json", "--out", f"{out}.json"]),
        Case(
            "export-unwritable",
            ["export", str(pack), "--format", "json", "--out", f"{out}-big.json"],
            before=small_files,
        ),
        Case("show-missing", ["show", "seed-0-0x", "--pack", str(pack), "--png", f"{out}.png"]),
        Case("gallery-last", ["gallery", str(last), "--out", f"{out}-gallery"]),
        Case("report-last", ["report", str(last), "--charts", f"{out}-charts"]),
        Case("curate-last", ["curate", str(last), "--out", "last-curated"]),
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200, help="runs of each case")
    parser.add_argument("--pack", type=Path, default=PACK, help="the pack the cases are made from")
    parser.add_argument("--cases", nargs="*", help="only these cases (default: all)")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        chosen = [
            case
            for case in cases(options.pack, Path(scratch))
            if not options.cases or case.name in options.cases
        ]
        for _ in range(options.runs):  # the cases interleaved, so a busy spell does not fall on one alone
            for case in chosen:
                case.run()
    print(
        f"| case ({options.pack.name}, {options.runs} runs each) | exit codes | aborts | not one error line | s/run |"
    )
    print("|---|---|---|---|---|")
    for case in chosen:
        codes = ", ".join(f"{code}: {count}" for code, count in sorted(case.codes.items()))
        seconds = case.seconds / max(1, sum(case.codes.values()))
        print(f"| {case.name} | {codes} | {case.aborts} | {case.not_one_error} | {seconds:.2f} |")
    return 1 if any(case.aborts for case in chosen) else 0


if __name__ == "__main__":
    sys.exit(main())
