"""Fixtures shared by several test modules."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pytest

from pipeline import files
from pipeline.packs.sources import DealSpan, deals_table
from pipeline.stages.chain import StageSettings, outcome_table, process_span
from pipeline.stages.settings import CrosscheckSettings
from pipeline.stages.tiers import load_tiers

TIERS_FILE = Path(__file__).parents[1] / "pipeline" / "stages" / "tiers.toml"

# The tests import tests/support/ as tests.support.X; collected for its doctests, it would be imported
# a second time as support.X, with classes of its own (a second BrowserError among the error classes).
# test_gallery_hints.py runs its examples instead.
collect_ignore = ["support"]


@pytest.fixture(scope="session")
def pack_rows() -> pa.Table:
    """The rows of a small pack: 20 deals of seed 77 through every stage (every tier, 3 unsolvable)."""
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
