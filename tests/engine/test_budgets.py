"""The grading memory budget's figures agree with the walk's: the least budget leaves the walk the least
tables it accepts, so the two cannot drift apart."""

from __future__ import annotations

from pipeline.engine import gametree
from pipeline.engine.budgets import (
    DEFAULT_MAX_MEMORY_MIB,
    LEAST_MAX_MEMORY_MIB,
    MAX_MEMORY_MIB,
    WORKER_BASE_MIB,
    walk_table_bytes,
)


def test_the_least_budget_leaves_the_walk_its_least_tables():
    assert walk_table_bytes(LEAST_MAX_MEMORY_MIB) >= gametree.table_bytes(gametree._FEWEST_RECORDS)
    assert walk_table_bytes(LEAST_MAX_MEMORY_MIB - 4) < gametree.table_bytes(gametree._FEWEST_RECORDS)


def test_the_walk_gets_the_budget_less_the_workers_base():
    assert walk_table_bytes(DEFAULT_MAX_MEMORY_MIB) == (1024 - WORKER_BASE_MIB) << 20
    assert WORKER_BASE_MIB < LEAST_MAX_MEMORY_MIB <= DEFAULT_MAX_MEMORY_MIB < MAX_MEMORY_MIB
