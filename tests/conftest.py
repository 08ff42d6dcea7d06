"""Fixtures shared by several test modules."""

from __future__ import annotations

import fcntl
from pathlib import Path

import pyarrow as pa
import pytest
from hypothesis import HealthCheck, settings

from pipeline import __version__, files
from pipeline.engine.cache_folder import QUIET_ENVIRONMENT
from pipeline.game.shuffles import SEEDED_SCHEME
from pipeline.packs.folders import write_pack_folder
from pipeline.packs.manifest import Origin
from pipeline.packs.sources import DealSpan, deals_table
from pipeline.stages.chain import StageSettings, outcome_table, process_span
from pipeline.stages.settings import CrosscheckSettings
from pipeline.stages.tiers import load_tiers

TIERS_FILE = Path(__file__).parents[1] / "pipeline" / "stages" / "tiers.toml"

# The tests import tests/support/ as tests.support.X; collected for its doctests, it would be imported
# a second time as support.X, with classes of its own (a second BrowserError among the error classes).
# test_gallery_hints.py runs its examples instead.
collect_ignore = ["support"]

# Hypothesis's timing checks measure the machine, not the code: on 2 shared cores, with the suite's own
# workers and Chromium beside it, drawing a board can take a second (a failed "too_slow" health check)
# and an example can pass its 200 ms deadline. Neither says anything is wrong, so the suite drops both.
settings.register_profile("suite", suppress_health_check=[HealthCheck.too_slow], deadline=None)
settings.load_profile("suite")


@pytest.fixture(scope="session")
def pack_rows(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> pa.Table:
    """The rows of a small pack: 20 deals of seed 77 through every stage (every tier, 3 unsolvable).

    Under pytest-xdist (``make test`` runs two workers or more) the first worker to need them computes them
    and leaves them, as Arrow IPC (which keeps every type and the metadata), in the run's shared temporary
    folder; the others wait on its lock and read them: the 20 deals are graded once a run, not once a worker.
    """
    if worker_id == "master":  # one process: nobody to share with
        return _pack_rows()
    shared = tmp_path_factory.getbasetemp().parent / "pack_rows.arrow"
    with open(shared.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # let go when the file closes
        if not shared.exists():
            table = _pack_rows()
            staged = shared.with_suffix(".staged")
            with pa.OSFile(str(staged), "wb") as sink, pa.ipc.new_file(sink, table.schema) as writer:
                writer.write_table(table)
            staged.replace(shared)
            return table
    with pa.memory_map(str(shared)) as source:
        return pa.ipc.open_file(source).read_all()


def _pack_rows() -> pa.Table:
    span = DealSpan("seed", 77, 0, 20)
    settings = StageSettings(crosscheck=CrosscheckSettings(sample=0.25), tiers=load_tiers(TIERS_FILE))
    _, done, _ = process_span(0, span, settings)
    deals = deals_table(span, [board for board, _ in done])
    return outcome_table(deals, [outcome for _, outcome in done], settings, timings=False)


@pytest.fixture
def failing_rename(monkeypatch):
    """Make the atomic writers' final rename fail (OSError "rename failed"), once their file is written."""

    def rename(source, target):
        raise OSError("rename failed")

    monkeypatch.setattr(files.os, "replace", rename)


@pytest.fixture(scope="module")
def pack(tmp_path_factory: pytest.TempPathFactory, pack_rows: pa.Table) -> Path:
    """A pack folder of the 20 deals of :func:`pack_rows`, one for each test module that asks (a module's
    own ``pack`` fixture, where it has one, stands instead)."""
    folder = tmp_path_factory.mktemp("output") / "packs" / "p"
    write_pack_folder(
        folder, [pack_rows], origin=Origin("p", "pack", __version__, SEEDED_SCHEME), provenance={}
    )
    return folder


@pytest.fixture(autouse=True)
def _loud_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts, and leaves, without the BLACKHOLE_QUIET that a command's --quiet sets in the
    process (for its workers): a test after a quiet command still hears the engine say it compiles."""
    monkeypatch.delenv(QUIET_ENVIRONMENT, raising=False)
