"""A command that fails after it began reading a pack exits 1 with one error line, never aborting at exit.

The abort was apache/arrow#34314: ``pq.read_table`` let go of a source held
in Python's memory on an Arrow thread after it had returned, and that thread,
asking for the GIL while the interpreter exited, was ended inside C++
(SIGABRT, exit 134 from a shell). It struck a few runs in a hundred, so these
runs guard the path rather than prove the absence: bench/exit_aborts.py
counts aborts over hundreds of runs.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pytest

from pipeline import __version__
from pipeline.game.shuffles import SEEDED_SCHEME
from pipeline.packs.folders import write_pack_folder
from pipeline.packs.manifest import Origin

BLACKHOLE = Path(sys.executable).parent / "blackhole"
RUNS = 3  # of each command


@pytest.fixture(scope="module")
def rejected(tmp_path_factory, pack_rows) -> Path:
    """The pack of tests/conftest.py with the solution of its last expert deal reversed: read, then refused."""
    tiers = pack_rows.column("tier").to_pylist()
    row = max(index for index, tier in enumerate(tiers) if tier == "expert")
    solutions = pack_rows.column("solution").to_pylist()
    solutions[row] = solutions[row][::-1]
    column = pack_rows.column_names.index("solution")
    field = pack_rows.schema.field(column)
    table = pack_rows.set_column(column, field, pa.array(solutions, field.type))
    folder = tmp_path_factory.mktemp("output") / "packs" / "p"
    write_pack_folder(folder, [table], origin=Origin("p", "pack", __version__, SEEDED_SCHEME), provenance={})
    return folder


@pytest.mark.parametrize(
    "command",
    [
        ["export", "{pack}", "--format", "json", "--out", "{out}/deals.json"],
        ["show", "seed-77-0x", "--pack", "{pack}", "--png", "{out}/deal.png"],
        ["gallery", "{pack}", "--out", "{out}/gallery"],
    ],
    ids=["export", "show", "gallery"],
)
def test_a_failure_after_reading_exits_1_with_one_error_line(rejected, tmp_path, command):
    args = [part.format(pack=rejected, out=tmp_path) for part in command]
    for _ in range(RUNS):
        done = subprocess.run([str(BLACKHOLE), *args], capture_output=True, text=True, timeout=120)
        assert done.returncode == 1, (done.returncode, done.stderr)  # an abort is 134, or -6 seen here
        [line] = done.stderr.splitlines()
        assert line.startswith("error: "), line
