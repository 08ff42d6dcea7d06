"""The terminal tables' titles and lines, as the commands print them."""

from __future__ import annotations

from types import SimpleNamespace

from pipeline.config import RunConfig
from pipeline.packs.labels import GradeStatus
from pipeline.reports.tables import STATUS_LABELS, run_title


def test_a_run_title_names_its_deals_by_their_source():
    outcome = SimpleNamespace(seconds=12.34)
    seeded = RunConfig(name="d", count=1000, seed=7)
    census = RunConfig(name="c", count=1_000_000, source="pysol", first=1)
    assert run_title(seeded, outcome) == "Run d: seed 7, 1000 deals, 12.3 s"
    assert run_title(census, outcome) == "Run c: PySol FC deals 1 to 1,000,000, 12.3 s"


def test_every_grade_status_has_a_label():
    assert set(STATUS_LABELS) == {status.value for status in GradeStatus}
