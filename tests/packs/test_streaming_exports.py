"""export of a pack folder, batch by batch: the bytes of a whole-table export, the columns it needs, an early stop."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pytest

from pipeline import __version__
from pipeline.game.deal import BoardError
from pipeline.game.shuffles import SEEDED_SCHEME
from pipeline.packs import exports
from pipeline.packs.exports import EXPORTED_METRICS, export_pack, export_pack_folder
from pipeline.packs.folders import read_pack_folder, write_pack_folder
from pipeline.packs.manifest import Origin
from pipeline.stages.settings import CurateOrder
from tests.curation import curate
from tests.recording import Recorder


def pack_folder(folder: Path, table: pa.Table, kind: str = "pack") -> Path:
    write_pack_folder(
        folder, [table], origin=Origin(folder.name, kind, __version__, SEEDED_SCHEME), provenance={}
    )
    return folder


@pytest.fixture(scope="module")
def packs(tmp_path_factory, pack_rows) -> dict[str, Path]:
    """The pack of tests/conftest.py, and curated packs whose tiers' levels follow one another or interleave."""
    root = tmp_path_factory.mktemp("packs")
    interleaved = curate(pack_rows, order=CurateOrder.PACK).table
    assert interleaved.column("tier").to_pylist() != sorted(interleaved.column("tier").to_pylist())
    return {
        "pack": pack_folder(root / "pack", pack_rows),
        "by-difficulty": pack_folder(root / "by-difficulty", curate(pack_rows).table, "curated"),
        "interleaved": pack_folder(root / "interleaved", interleaved, "curated"),
    }


@pytest.fixture()
def recorder(monkeypatch) -> Recorder:
    recording = Recorder()
    monkeypatch.setattr(exports, "pack_folder_batches", recording)
    return recording


def whole_table_export(folder: Path, path: Path, fmt: str, **options) -> bytes:
    """The export as it was made before streaming: the whole pack read, sorted by level, then written."""
    table = read_pack_folder(folder)
    if "level" in table.column_names:
        table = table.sort_by("level")
    export_pack(table, path, fmt, **options)
    return path.read_bytes()


@pytest.mark.parametrize("pack", ["pack", "by-difficulty", "interleaved"])
@pytest.mark.parametrize("fmt", ["json", "boards", "csv"])
@pytest.mark.parametrize(
    "options", [{}, {"tier": "hard"}, {"limit": 4}, {"tier": "medium", "limit": 2}, {"tier": "ungraded"}]
)
def test_batches_give_the_bytes_of_a_whole_table_export(packs, tmp_path, recorder, pack, fmt, options):
    expected = whole_table_export(packs[pack], tmp_path / "whole", fmt, **options)
    written = export_pack_folder(packs[pack], tmp_path / "big", fmt, **options)
    assert (tmp_path / "big").read_bytes() == expected
    recorder.batches.clear()
    assert export_pack_folder(packs[pack], tmp_path / "streamed", fmt, batch_rows=3, **options) == written
    assert (tmp_path / "streamed").read_bytes() == expected
    assert recorder.batches and max(recorder.batches) <= 3


def test_only_the_columns_written_are_read(packs, tmp_path, recorder):
    export_pack_folder(packs["pack"], tmp_path / "boards.txt", "boards", batch_rows=3)
    export_pack_folder(packs["pack"], tmp_path / "deals.json", "json", batch_rows=3)
    boards, documents = recorder.columns
    assert boards == ["deal_id", "board"]
    assert set(documents) == {"deal_id", "difficulty", "verdict", "board", "solution", *EXPORTED_METRICS}
    assert max(recorder.batches) == 3 and sum(recorder.batches) == 2 * 20


def test_a_limit_stops_the_reading(packs, tmp_path, recorder):
    assert export_pack_folder(packs["pack"], tmp_path / "two.csv", "csv", limit=2, batch_rows=3) == 2
    assert len(recorder.batches) == 1  # of the 7 batches of the 20 rows


@pytest.mark.parametrize(("pack", "passes"), [("by-difficulty", 1), ("interleaved", 4)])  # 4 tier files
def test_a_curated_pack_is_read_once_unless_its_tiers_levels_interleave(
    packs, tmp_path, recorder, pack, passes
):
    export_pack_folder(packs[pack], tmp_path / "deals.json", "json", batch_rows=3)
    levels, *reads = recorder.columns
    assert levels == ["level"]
    assert len(reads) == passes


def test_a_bad_row_late_in_the_pack_leaves_the_old_file(pack_rows, tmp_path):
    boards = pack_rows.column("board").to_pylist()
    last = pack_rows.column("tier").to_pylist().index("unsolvable")  # in the last tier file
    boards[last] = boards[last].replace("Foundations: AS", "Foundations: KS")
    column = pack_rows.column_names.index("board")
    broken = pack_rows.set_column(column, pack_rows.field(column), pa.array(boards, pa.string()))
    folder = pack_folder(tmp_path / "packs" / "broken", broken)
    out = tmp_path / "deals.csv"
    out.write_text("old\n")
    deal_id = pack_rows.column("deal_id")[last].as_py()
    with pytest.raises(BoardError, match=deal_id):
        export_pack_folder(folder, out, "csv", batch_rows=3)
    assert out.read_text() == "old\n"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["deals.csv", "packs"]
