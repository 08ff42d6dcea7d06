"""The JavaScript tests' golden files are what tests/js/write_golden.py writes today (run ``make golden`` after a
change of the rules, the solver or the golden positions)."""

from __future__ import annotations

from tests.js.write_golden import GOLDEN, golden_files


def test_the_committed_golden_files_are_all_there_and_up_to_date():
    written = golden_files()  # made once for both checks: it solves every case
    assert sorted(path.name for path in GOLDEN.iterdir()) == sorted(written)
    for name, text in written.items():
        assert (GOLDEN / name).read_text(encoding="utf-8") == text, f"{name} is stale: run make golden"
