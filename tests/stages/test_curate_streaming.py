"""Curating a pack folder in bounded memory: batches and sorted ranges of any size give the same pack."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from pipeline import __version__
from pipeline.game.shuffles import SEEDED_SCHEME
from pipeline.packs.folders import read_pack_folder, write_pack_folder
from pipeline.packs.manifest import Manifest, Origin
from pipeline.stages import curate as curate_module
from pipeline.stages.curate import curate_folder
from pipeline.stages.curation_rules import Selection
from pipeline.stages.difficulty_sort import sorted_by_difficulty
from pipeline.stages.settings import CurateOrder
from tests.curation import curate
from tests.stages.test_curate import duplicate_row, ids, with_values

BIG = {"batch_rows": 10_000, "range_rows": 100_000}
SMALL = {"batch_rows": 3, "range_rows": 2}
OPTIONS = [
    {"per_tier": None, "order": CurateOrder.DIFFICULTY},
    {"per_tier": None, "order": CurateOrder.PACK},
    {"per_tier": {"easy": 2, "medium": 3, "hard": 1, "expert": 9}, "order": CurateOrder.DIFFICULTY},
    {"per_tier": {"easy": 2, "expert": 9}, "order": CurateOrder.PACK},
    {"per_tier": {}, "order": CurateOrder.DIFFICULTY},
]
TIED = 6  # winnable rows given one difficulty: ties that span ranges of SMALL's size


def solved_rows(table: pa.Table) -> list[int]:
    return [row for row, verdict in enumerate(table.column("verdict").to_pylist()) if verdict == "solved"]


@pytest.fixture(scope="module")
def rows(pack_rows: pa.Table) -> pa.Table:
    """The 20 deals of seed 77 and three relabelled copies (one in another tier), with tied and null
    difficulties and one disputed win."""
    solved = solved_rows(pack_rows)
    difficulties = dict.fromkeys(solved[:TIED], 6.0) | dict.fromkeys(solved[TIED : TIED + 2])
    table = with_values(pack_rows, "difficulty", difficulties)
    copied = solved[TIED + 2 : TIED + 5]
    checked = [row for row, agree in enumerate(table.column("agree").to_pylist()) if agree]
    disputed = next(row for row in checked if row in solved and row not in copied)
    table = with_values(table, "agree", {disputed: False})
    copies = pa.concat_tables([duplicate_row(table, row, f"copy-{n}") for n, row in enumerate(copied)])
    other_tier = "easy" if copies.column("tier")[0].as_py() != "easy" else "hard"
    return pa.concat_tables([table, with_values(copies, "tier", {0: other_tier})])


def pack_of(rows: pa.Table, folder: Path) -> Path:
    write_pack_folder(
        folder, [rows], origin=Origin(folder.name, "pack", __version__, SEEDED_SCHEME), provenance={}
    )
    return folder


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory, rows: pa.Table) -> Path:
    return pack_of(rows, tmp_path_factory.mktemp("packs") / "p")


def files_of(folder: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(folder)): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def in_levels(folder: Path) -> list[str]:
    """The deal ids of a curated pack folder, by level."""
    table = read_pack_folder(folder, columns=["deal_id", "level"])
    return ids(table.sort_by("level"))


@pytest.mark.parametrize("options", OPTIONS)
def test_small_batches_and_ranges_give_the_pack_big_ones_give(tmp_path, source, options):
    big = curate_folder(source, tmp_path / "big" / "best", **options, **BIG)
    curate_folder(source, tmp_path / "small" / "best", **options, **SMALL)
    assert files_of(tmp_path / "small" / "best") == files_of(tmp_path / "big" / "best")
    assert big.origin.curation is not None
    assert big.origin.curation.dropped["duplicate"] == 3
    assert big.origin.curation.dropped["disputed"] == 1


@pytest.mark.parametrize("options", OPTIONS)
def test_streamed_curation_keeps_the_rows_curate_keeps_in_memory(tmp_path, source, options):
    manifest = curate_folder(source, tmp_path / "best", **options, **SMALL)
    in_memory = curate(read_pack_folder(source), **options)
    assert (in_levels(tmp_path / "best") if manifest.deals else []) == ids(in_memory.table)
    assert manifest.origin.curation is not None
    assert manifest.origin.curation.shortfalls == in_memory.shortfalls


def test_difficulty_order_is_easiest_first_ties_by_deal_id_nulls_last(tmp_path, source):
    curate_folder(source, tmp_path / "kept", per_tier=None, order=CurateOrder.PACK, **SMALL)
    curate_folder(source, tmp_path / "best", per_tier=None, order=CurateOrder.DIFFICULTY, **SMALL)
    kept = read_pack_folder(tmp_path / "kept", columns=["deal_id", "difficulty"]).to_pylist()
    difficulties = [row["difficulty"] for row in kept]
    assert difficulties.count(6.0) == TIED - 1  # one tied row is the disputed one
    assert difficulties.count(None) == 2
    expected = sorted(
        kept, key=lambda row: (row["difficulty"] is None, row["difficulty"] or 0.0, row["deal_id"])
    )
    assert in_levels(tmp_path / "best") == [row["deal_id"] for row in expected]


@pytest.mark.parametrize("options", OPTIONS[:3])
def test_selection_in_one_row_batches_keeps_what_it_keeps_in_one_table(rows, options):
    quotas = options["per_tier"]
    whole, by_row = Selection(quotas), Selection(quotas)
    kept_whole = ids(whole.keep(rows))
    kept_by_row = [
        deal_id for row in range(rows.num_rows) for deal_id in ids(by_row.keep(rows.slice(row, 1)))
    ]
    assert kept_by_row == kept_whole
    assert by_row.dropped == whole.dropped
    assert by_row.dropped["duplicate"] == 3


def writer_spy(monkeypatch: pytest.MonkeyPatch) -> list[pa.Table]:
    """The tables curate_folder hands to write_pack_folder, as it hands them."""
    handed: list[pa.Table] = []

    def spy(target: Path, tables: list[pa.Table], **options: object) -> Manifest:
        def recorded():
            for table in tables:
                handed.append(table)
                yield table

        return write_pack_folder(target, recorded(), **options)  # type: ignore[arg-type]

    monkeypatch.setattr(curate_module, "write_pack_folder", spy)
    return handed


@pytest.mark.parametrize(("order", "most"), [(CurateOrder.DIFFICULTY, 4), (CurateOrder.PACK, 3)])
def test_no_table_larger_than_a_range_or_a_batch_reaches_the_writer(
    tmp_path, source, monkeypatch, order, most
):
    handed = writer_spy(monkeypatch)
    manifest = curate_folder(
        source, tmp_path / "best", per_tier=None, order=order, batch_rows=3, range_rows=4
    )
    assert sum(table.num_rows for table in handed) == manifest.deals > 4
    assert max(table.num_rows for table in handed) <= most


def test_quotas_bound_the_rows_kept_and_sorted(tmp_path, source, monkeypatch):
    handed = writer_spy(monkeypatch)
    sorted_rows = []

    def sorting_spy(path: Path, staging: Path, **sizes: int) -> Iterator[pa.Table]:
        sorted_rows.append(pq.read_metadata(path).num_rows)
        return sorted_by_difficulty(path, staging, **sizes)

    monkeypatch.setattr(curate_module, "sorted_by_difficulty", sorting_spy)
    curate_folder(
        source, tmp_path / "best", per_tier={"easy": 1, "hard": 2}, order=CurateOrder.DIFFICULTY, **BIG
    )
    assert sorted_rows == [3]  # a range could hold the whole pack, yet only the quotas' rows reach the sort
    [table] = handed
    assert sorted(table.column("tier").to_pylist()) == ["easy", "hard", "hard"]


def test_sorted_ranges_are_small_in_order_and_deleted(tmp_path):
    generator = random.Random(8)
    difficulty = [generator.choice([None, 1.0, 2.5, 2.5, 7.0]) for _ in range(30)]
    deal_id = [f"d{generator.randrange(100):02d}" for _ in range(30)]
    pq.write_table(
        pa.table({"deal_id": deal_id, "difficulty": pa.array(difficulty, pa.float64())}),
        tmp_path / "k.parquet",
    )
    staging = tmp_path / "staging"
    staging.mkdir()
    ranges = list(sorted_by_difficulty(tmp_path / "k.parquet", staging, batch_rows=4, range_rows=3))
    assert [table.num_rows for table in ranges] == [3] * 10
    assert pa.concat_tables(ranges).to_pylist() == sorted(
        ({"deal_id": i, "difficulty": d} for i, d in zip(deal_id, difficulty, strict=True)),
        key=lambda row: (row["difficulty"] is None, row["difficulty"] or 0.0, row["deal_id"]),
    )
    assert list(staging.iterdir()) == []


@pytest.mark.parametrize("order", list(CurateOrder))
def test_no_temporary_files_remain_beside_the_curated_pack(tmp_path, source, order):
    curate_folder(source, tmp_path / "best", per_tier=None, order=order, **SMALL)
    assert [path.name for path in tmp_path.iterdir()] == ["best"]


def test_a_curation_clears_what_a_killed_one_left_beside_its_pack(tmp_path, source):
    stale = tmp_path / ".best.curating-x1y2"
    stale.mkdir()
    (stale / "kept.parquet").write_bytes(b"half")
    curate_folder(source, tmp_path / "best", per_tier=None, order=CurateOrder.DIFFICULTY, **SMALL)
    assert [path.name for path in tmp_path.iterdir()] == ["best"]


def test_temporary_files_go_when_writing_the_pack_fails(tmp_path, source, monkeypatch):
    staged: list[str] = []

    def failing(target: Path, tables: list[pa.Table], **options: object) -> Manifest:
        next(iter(tables))
        staged.extend(path.name for path in tmp_path.rglob("*.parquet"))
        raise OSError("disk full")

    monkeypatch.setattr(curate_module, "write_pack_folder", failing)
    with pytest.raises(OSError, match="disk full"):
        curate_folder(source, tmp_path / "best", per_tier=None, order=CurateOrder.DIFFICULTY, **SMALL)
    assert "kept.parquet" in staged and "range-1.parquet" in staged
    assert list(tmp_path.iterdir()) == []


def test_temporary_files_go_when_a_late_board_is_bad(tmp_path, rows):
    last = solved_rows(rows)[-1]
    board = rows.column("board")[last].as_py()
    bad = pack_of(with_values(rows, "board", {last: board.replace("AH", "XX")}), tmp_path / "packs" / "bad")
    (tmp_path / "out").mkdir()
    with pytest.raises(ValueError, match="XX"):
        curate_folder(bad, tmp_path / "out" / "best", per_tier=None, order=CurateOrder.DIFFICULTY, **SMALL)
    assert list((tmp_path / "out").iterdir()) == []
