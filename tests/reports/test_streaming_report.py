"""report of a pack folder, batch by batch: today's description and chart data from the whole table, the same charts."""

from __future__ import annotations

import statistics
from collections import Counter
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pytest

from pipeline import __version__
from pipeline import tally as tallies
from pipeline.game.shuffles import SEEDED_SCHEME
from pipeline.packs.folders import pack_folder_batches, read_pack_folder, write_pack_folder
from pipeline.packs.labels import PACK_TIERS, SOLVABLE_TIERS
from pipeline.packs.manifest import Origin
from pipeline.reports import charts
from pipeline.reports.charts import report_pack
from pipeline.tally import (
    REPORT_COLUMNS,
    SPREAD_METRICS,
    STATUSES,
    TALLIED_METRICS,
    VERDICTS,
    BlockCounts,
    PackTally,
)
from tests.recording import Recorder


@pytest.fixture(scope="module")
def pack(tmp_path_factory, pack_rows) -> Path:
    """The pack of tests/conftest.py, its deal indices spread over blocks of 10,000 from 3."""
    index = pack_rows.column_names.index("index")
    spread = pa.array([3 + number * 2_500 for number in range(pack_rows.num_rows)], pa.int64())
    table = pack_rows.set_column(index, pack_rows.field(index), spread)
    folder = tmp_path_factory.mktemp("output") / "packs" / "p"
    write_pack_folder(folder, [table], origin=Origin("p", "pack", __version__, SEEDED_SCHEME), provenance={})
    return folder


def graded(table: pa.Table) -> pa.Table:
    """The solvable rows graded exactly, as today's charts and description pick them from the whole table."""
    return table.filter(
        pc.and_(pc.equal(table["verdict"], "solved"), pc.equal(table["grade_status"], "exact"))
    )


def reference_description(table: pa.Table) -> dict:
    """What today's describe_pack gives of the whole ``table``: counts, and (count, min, q1, median, q3, max)."""
    rows = graded(table)
    spreads = {}
    for metric in SPREAD_METRICS:
        values = sorted(float(value) for value in rows.column(metric).drop_null().to_pylist())
        quartiles = statistics.quantiles(values, n=4, method="inclusive")
        spreads[metric] = (len(values), values[0], *quartiles, values[-1])
    return {
        "total": table.num_rows,
        "verdicts": {name: Counter(table.column("verdict").to_pylist())[name] for name in VERDICTS},
        "tiers": {name: Counter(table.column("tier").to_pylist())[name] for name in PACK_TIERS},
        "statuses": {name: Counter(table.column("grade_status").to_pylist())[name] for name in STATUSES},
        "metrics": spreads,
    }


def reference_blocks(table: pa.Table, block: int) -> list[list[int]]:
    """Today's block_counts of the whole ``table``: block numbers, wins and decided deals per block."""
    index = table.column("index").to_numpy()
    number = (index - index.min()) // block
    verdicts = np.array(table.column("verdict").to_pylist())
    decided = np.isin(verdicts, ["solved", "unsolvable"])
    blocks = np.unique(number[decided])
    wins = [int(np.count_nonzero((verdicts == "solved") & (number == b))) for b in blocks]
    return [blocks.tolist(), wins, [int(np.count_nonzero(decided & (number == b))) for b in blocks]]


def test_a_report_in_batches_describes_the_whole_table(pack, tmp_path, monkeypatch):
    recorder = Recorder()
    monkeypatch.setattr(tallies, "pack_folder_batches", recorder)
    made = report_pack(pack, tmp_path / "charts", batch_rows=3)
    assert recorder.columns == [["index"], list(REPORT_COLUMNS)]  # no board, solution, ...
    assert max(recorder.batches) == 3 and sum(recorder.batches) == 2 * 20
    description = made.description
    expected = reference_description(read_pack_folder(pack))
    assert description.total == expected["total"] == 20
    assert (description.verdicts, description.tiers, description.statuses) == (
        expected["verdicts"],
        expected["tiers"],
        expected["statuses"],
    )
    for metric, spread in description.metrics.items():
        found = (spread.count, spread.minimum, spread.q1, spread.median, spread.q3, spread.maximum)
        assert found == expected["metrics"][metric], metric


def test_the_charts_are_those_of_one_big_batch_and_of_the_whole_table(pack, tmp_path):
    small = report_pack(pack, tmp_path / "small", batch_rows=3)
    big = report_pack(pack, tmp_path / "big")
    assert small.description == big.description
    whole = read_pack_folder(pack)
    tally = PackTally.of([whole])
    charts.difficulty_histogram(tally, tmp_path / "difficulty.png")
    charts.solutions_vs_odds(tally, tmp_path / "solutions-vs-odds.png")
    charts.win_chance_by_tier(tally, tmp_path / "win-chance-by-tier.png")
    charts.win_rate_by_block(
        BlockCounts.of(whole), tmp_path / "win-rate-by-block.png"
    )  # from index 3, row 0's
    for ours, theirs in zip(small.charts, big.charts, strict=True):
        assert ours.name == theirs.name
        assert ours.read_bytes() == theirs.read_bytes() == (tmp_path / ours.name).read_bytes(), ours.name


def test_the_chart_data_are_today_s_selections_of_the_whole_table(pack):
    table = read_pack_folder(pack)
    tally = PackTally.of(
        pack_folder_batches(pack, columns=["verdict", "grade_status", *TALLIED_METRICS], batch_rows=3)
    )
    rows = graded(table)
    tiers = rows.column("tier").to_pylist()
    assert [PACK_TIERS[code] for code in tally.graded_tiers()] == tiers
    for metric in ("difficulty", "log10_solutions", *TALLIED_METRICS):
        assert tally.graded(metric).tolist() == rows.column(metric).to_pylist()
    for tier in SOLVABLE_TIERS:  # the histogram's stacks
        chosen = tally.graded_tiers() == PACK_TIERS.index(tier)
        assert tally.graded("difficulty")[chosen].tolist() == [
            row["difficulty"] for row in rows.to_pylist() if row["tier"] == tier
        ]


@pytest.mark.parametrize("block", [10_000, 7_000, 2_500])
def test_block_counts_folded_in_batches_are_today_s_of_the_whole_table(pack, block):
    table = read_pack_folder(pack, columns=["index", "verdict"])
    counts = BlockCounts(first=3, block=block)
    for batch in pack_folder_batches(pack, columns=["index", "verdict"], batch_rows=3):
        counts.add(batch)
    assert counts.rows == 20
    assert [array.tolist() for array in counts.arrays()] == reference_blocks(table, block)
    assert len(counts.arrays()[0]) > 1
