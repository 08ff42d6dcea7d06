"""Fixtures shared by several test modules."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pytest

from pipeline.packs.sources import seeded_deals
from pipeline.stages.chain import StageSettings, outcome_table, process_batch
from pipeline.stages.settings import CrosscheckSettings
from pipeline.stages.tiers import load_tiers

TIERS_FILE = Path(__file__).parents[1] / "configs" / "tiers.toml"


@pytest.fixture(scope="session")
def pack_rows() -> pa.Table:
    """The rows of a small pack: 20 deals of seed 77 through every stage (every tier, 3 unsolvable)."""
    deals = seeded_deals(seed=77, count=20)
    settings = StageSettings(crosscheck=CrosscheckSettings(sample=0.25), tiers=load_tiers(TIERS_FILE))
    boards = deals.column("board").to_pylist()
    _, outcomes = process_batch(0, boards, deals.column("deal_id").to_pylist(), settings)
    return outcome_table(deals, outcomes, settings, timings=False)
