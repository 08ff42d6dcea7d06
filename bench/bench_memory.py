"""Peak memory of every command at 10,000 and 1,000,000 rows, per process (`make bench`).

Each command runs as `blackhole ...` in its own process under
:mod:`peak_memory`, which reads the kernel's high-water mark of the command
(the parent) and of each worker it starts. The rows are PySol FC deals from 1:

- ``generate`` deals them; ``import`` reads them back from board text;
- ``solve`` solves them on 2 workers;
- ``crosscheck`` and ``grade`` pass over every row of the solved file on 2
  workers but check or grade a small seeded sample (``--sample``,
  ``--loss-sample``), so that the figure is the cost of the rows, not of the
  CP-SAT models and game-tree walks;
- ``run`` makes the pack folder of the first 10,000 (the census settings,
  configs/census.toml, at that count); at 1,000,000 rows the census pack
  itself is used when it is there (``--census-pack``, default
  output/packs/census: run `blackhole run --config configs/census.toml` first),
  otherwise the pack commands are skipped at that size;
- ``curate``, ``export`` (JSON) and ``report`` read the pack folder.

Prints a Markdown table for docs/benchmarks.md and writes output/bench/memory.json.
``--rows 10000`` measures one size only.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from pipeline.packs.manifest import manifest_path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from peak_memory import Peak, run_watched  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
BLACKHOLE = str(Path(sys.executable).with_name("blackhole"))
SIZES = (10_000, 1_000_000)
SAMPLES = {10_000: "0.01", 1_000_000: "0.0002"}  # of the wins checked or graded
LOSS_SAMPLES = {10_000: "0.1", 1_000_000: "0.001"}


def write_boards(deals: Path, boards: Path) -> None:
    """The boards of the deals file as board text, blank lines between them (read in batches)."""
    with open(boards, "w", encoding="utf-8") as text:
        for batch in pq.ParquetFile(deals).iter_batches(columns=["board"]):
            column: pa.Array = batch.column(0)
            text.writelines(board + "\n" for board in column.to_pylist())


def pack_config(folder: Path, rows: int) -> Path:
    """configs/census.toml at ``rows`` deals, writing under ``folder``."""
    text = (ROOT / "configs" / "census.toml").read_text(encoding="utf-8")
    text = text.replace("count = 1000000", f"count = {rows}").replace(
        'output = "../output"', f'output = "{folder}"'
    )
    path = folder / "census.toml"
    path.write_text(text, encoding="utf-8")
    return path


def commands(rows: int, folder: Path, census_pack: Path) -> Iterator[tuple[str, list[str]]]:
    deals, solved = folder / "deals.parquet", folder / "solved.parquet"
    sample, loss_sample = SAMPLES[rows], LOSS_SAMPLES[rows]
    yield (
        "generate",
        ["generate", "--source", "pysol", "--first", "1", "--count", str(rows), "--out", str(deals)],
    )
    write_boards(deals, folder / "boards.txt")
    yield "import", ["import", str(folder / "boards.txt"), "--out", str(folder / "imported.parquet")]
    yield "solve", ["solve", str(deals), "--out", str(solved), "--jobs", "2", "--no-timings"]
    yield "crosscheck", [
        "crosscheck", str(solved), "--out", str(folder / "checked.parquet"), "--jobs", "2",
        "--sample", sample, "--loss-sample", loss_sample, "--no-timings",
    ]  # fmt: skip
    yield "grade", [
        "grade", str(solved), "--out", str(folder / "graded.parquet"), "--jobs", "2", "--sample", sample,
        "--tiers", str(ROOT / "pipeline" / "stages" / "tiers.toml"), "--no-timings",
    ]  # fmt: skip
    if rows == 1_000_000:
        if not manifest_path(census_pack).exists():
            print(f"no census pack at {census_pack}: the pack commands are skipped at {rows:,} rows")
            return
        pack = census_pack
    else:
        yield "run", ["run", "--config", str(pack_config(folder, rows))]
        pack = folder / "packs" / "census"
    yield "curate", ["curate", str(pack), "--out", "bench-curated"]
    yield "export", ["export", str(pack), "--format", "json", "--out", str(folder / "deals.json")]
    yield "report", ["report", str(pack), "--charts", str(folder / "charts")]


def summary(name: str, rows: int, seconds: float, peaks: list[Peak]) -> dict[str, Any]:
    workers = [peak.peak_mib for peak in peaks if peak.role == "worker"]
    return {
        "command": name,
        "rows": rows,
        "seconds": round(seconds, 1),
        "parent_mib": round(next(peak.peak_mib for peak in peaks if peak.role == "parent"), 1),
        "workers_mib": [round(value, 1) for value in workers],
        "helpers_mib": [round(peak.peak_mib, 1) for peak in peaks if peak.role == "helper"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, choices=SIZES, action="append", help="a size (default: both)")
    parser.add_argument("--census-pack", type=Path, default=ROOT / "output" / "packs" / "census")
    options = parser.parse_args()
    options.census_pack = options.census_pack.resolve()  # the commands run in a folder of their own
    results = []
    for rows in options.rows or SIZES:
        with tempfile.TemporaryDirectory() as name:
            folder = Path(name)
            for command, arguments in commands(rows, folder, options.census_pack):
                seconds, peaks = run_watched([BLACKHOLE, *arguments, "--quiet"], cwd=folder)
                results.append(summary(command, rows, seconds, peaks))
                print(json.dumps(results[-1]), flush=True)
            curated = options.census_pack.parent / "bench-curated"
            if rows == 1_000_000 and curated.exists():
                import shutil

                shutil.rmtree(curated)
    print("\n| command | rows | wall s | parent MiB | each worker MiB |")
    print("|---|---|---|---|---|")
    for r in results:
        workers = ", ".join(f"{value:,.0f}" for value in r["workers_mib"]) or "none"
        print(f"| {r['command']} | {r['rows']:,} | {r['seconds']} | {r['parent_mib']:,.0f} | {workers} |")
    target = ROOT / "output" / "bench" / "memory.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
