"""Packs of format 1 (``manifest.json``, ``solution_count`` as decimal text) and 2 (no grading memory budget)
still read everywhere, as today's.

:func:`as_format_1` rewrites a pack folder as the writers of format 1 wrote it;
every reader then gives what it gives of the same pack in format 2: the folder
readers, ``open_pack``, exports (the same bytes), reports, curation (into a
pack of today's format), galleries (the same ``deals.js``, so the same build id) and
play records' deal look-ups. :func:`as_format_2` rewrites one as format 2 wrote it:
its files' metadata say a budget of positions and no memory budget, which a
gallery shows as none.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

from pipeline import __version__
from pipeline.game.shuffles import SEEDED_SCHEME
from pipeline.packs.exports import export_pack_folder
from pipeline.packs.folders import (
    ROW_GROUP_ROWS,
    pack_folder_batches,
    pack_metadata,
    read_pack_folder,
    write_pack_folder,
)
from pipeline.packs.manifest import (
    FORMAT_VERSION,
    MANIFEST,
    OLD_MANIFEST,
    Origin,
    manifest_path,
    read_manifest,
)
from pipeline.packs.parquet import PackError, read_pack_file, read_pack_file_batches
from pipeline.plays.deals import pack_deals
from pipeline.reports.charts import report_pack
from pipeline.reports.gallery import DATA, write_gallery
from pipeline.stages.curate import curate_beside, curate_folder
from pipeline.stages.pack_entries import open_pack

PUBLISHED = 0.8694  # what format 1 wrote of a Black Hole pack, curated ones too


def as_format_1(folder: Path) -> Path:
    """Rewrite the pack folder ``folder`` as format 1 wrote it: ``solution_count`` as decimal text in every
    file, ``manifest.json`` without ``format_version`` and ``tier_thresholds``, a curated pack's win rate
    beside the published one; each file's SHA-256 updated."""
    manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    for entry in manifest["files"]:
        path = folder / entry["path"]
        table = pq.read_table(path)
        position = table.schema.get_field_index("solution_count")
        text = pc.cast(table.column(position), pa.string())
        table = table.set_column(position, pa.field("solution_count", pa.string()), text)
        pq.write_table(table, path, compression="zstd", row_group_size=ROW_GROUP_ROWS)
        entry["sha256"] = hashlib.sha256(path.read_bytes()).hexdigest()
    del manifest["format_version"], manifest["tier_thresholds"]
    if manifest["kind"] == "curated":
        manifest["win_rate"] |= {"published": PUBLISHED, "published_inside": True}
    (folder / MANIFEST).unlink()
    (folder / OLD_MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return folder


def as_format_2(folder: Path) -> Path:
    """Rewrite the pack folder ``folder`` as format 2 wrote it: ``format_version`` 2, and in every file's
    schema metadata no ``grade_max_memory_mib`` and format 2's default position budget; each file's
    SHA-256 updated."""
    manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    for entry in manifest["files"]:
        path = folder / entry["path"]
        table = pq.read_table(path)
        entries = {
            key: value for key, value in table.schema.metadata.items() if key != b"grade_max_memory_mib"
        }
        table = table.replace_schema_metadata(entries | {b"grade_max_positions": b"22000000"})
        pq.write_table(table, path, compression="zstd", row_group_size=ROW_GROUP_ROWS)
        entry["sha256"] = hashlib.sha256(path.read_bytes()).hexdigest()
    manifest["format_version"] = 2
    (folder / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def format_2(packs: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The pack and the curated pack of :func:`packs`, as format 2 wrote them, under the same names."""
    folder = tmp_path_factory.mktemp("format-2")
    return {
        kind: as_format_2(shutil.copytree(packs[f"new-{kind}"], folder / packs[f"new-{kind}"].name))
        for kind in KINDS
    }


@pytest.fixture(scope="module")
def packs(tmp_path_factory: pytest.TempPathFactory, pack_rows: pa.Table) -> dict[str, Path]:
    """The pack of seed 77's 20 deals and its curated pack in format 2 (``new/``) and format 1 (``old/``),
    under the same names."""
    found = {}
    for era in ("new", "old"):
        folder = tmp_path_factory.mktemp(era) / "p"
        origin = Origin("p", "pack", __version__, SEEDED_SCHEME, config={"run": {"name": "p"}})
        write_pack_folder(folder, [pack_rows], origin=origin, provenance={})
        curated = folder.with_name("p-curated")
        curate_folder(
            folder, curated, per_tier={"easy": 2, "medium": 2, "hard": 2, "expert": 2}, order="difficulty"
        )
        found[f"{era}-pack"], found[f"{era}-curated"] = folder, curated
    as_format_1(found["old-pack"])
    as_format_1(found["old-curated"])
    return found


KINDS = ["pack", "curated"]


def test_an_old_pack_has_the_old_layout(packs):
    for kind in KINDS:
        old = packs[f"old-{kind}"]
        assert manifest_path(old) == old / OLD_MANIFEST and not (old / MANIFEST).exists()
        assert pq.read_schema(next(old.glob("tier=*/*.parquet"))).field("solution_count").type == pa.string()


@pytest.mark.parametrize("kind", KINDS)
def test_an_old_manifest_reads_as_format_1_and_writes_back_byte_for_byte(packs, kind):
    old = packs[f"old-{kind}"]
    manifest = read_manifest(old)
    assert manifest.format_version == 1 and manifest.tier_thresholds is None
    assert manifest.to_json() == (old / OLD_MANIFEST).read_text(encoding="utf-8")
    assert read_manifest(packs[f"new-{kind}"]).format_version == FORMAT_VERSION == 3


@pytest.mark.parametrize("kind", KINDS)
def test_the_folder_readers_give_todays_rows(packs, kind):
    new, old = read_pack_folder(packs[f"new-{kind}"]), read_pack_folder(packs[f"old-{kind}"])
    assert old.column("solution_count").type == pa.int64()
    assert old.equals(new)
    batches = list(
        pack_folder_batches(packs[f"old-{kind}"], columns=["deal_id", "solution_count"], batch_rows=3)
    )
    assert pa.concat_tables(batches).column("solution_count").equals(new.column("solution_count"))


def test_open_pack_gives_the_same_entries(packs):
    new = [entry.grade for entry in open_pack(packs["new-pack"])]
    old = [entry.grade for entry in open_pack(packs["old-pack"])]
    assert old == new and any(grade.solution_count for grade in old)


@pytest.mark.parametrize("fmt", ["json", "csv", "boards"])
@pytest.mark.parametrize("kind", KINDS)
def test_exports_are_the_same_bytes(packs, kind, fmt, tmp_path):
    written = {}
    for era in ("new", "old"):
        out = tmp_path / f"{era}.{fmt}"
        export_pack_folder(packs[f"{era}-{kind}"], out, fmt)
        written[era] = out.read_bytes()
    assert written["old"] == written["new"]
    if fmt == "json":
        counts = [deal["metrics"]["solution_count"] for deal in json.loads(written["new"])["deals"]]
        assert all(
            isinstance(count, str) for count in counts if count is not None
        )  # past 2**53 in JavaScript


@pytest.mark.parametrize("kind", KINDS)
def test_reports_describe_the_same_pack(packs, kind, tmp_path):
    new = report_pack(packs[f"new-{kind}"], tmp_path / "new")
    old = report_pack(packs[f"old-{kind}"], tmp_path / "old")
    assert old.description == new.description


def test_a_curated_pack_is_compared_with_no_published_rate(packs, tmp_path):
    """Its deals are chosen wins: whatever its manifest says (format 1 said "inside"), the report compares nothing."""
    assert read_manifest(packs["old-curated"]).win_rate.published_inside is True
    for era in ("new", "old"):
        assert report_pack(packs[f"{era}-curated"], tmp_path / era).description.published is None
    assert report_pack(packs["new-pack"], tmp_path / "pack").description.published == PUBLISHED
    win_rate = read_manifest(packs["new-curated"]).win_rate
    assert win_rate.rate == 1.0 and win_rate.published is None and win_rate.published_inside is None
    assert "published" not in (packs["new-curated"] / MANIFEST).read_text()


def test_curating_an_old_pack_writes_a_pack_of_today(packs, tmp_path):
    target = tmp_path / "c"
    manifest = curate_folder(packs["old-pack"], target, per_tier={"easy": 2, "hard": 1}, order="pack")
    again = curate_folder(packs["new-pack"], tmp_path / "d", per_tier={"easy": 2, "hard": 1}, order="pack")
    assert manifest.format_version == 3 and manifest.tier_thresholds == again.tier_thresholds is not None
    assert read_pack_folder(target).equals(read_pack_folder(tmp_path / "d"))


def test_an_old_curated_pack_is_replaced_by_a_new_one(packs, tmp_path):
    pack = shutil.copytree(packs["old-pack"], tmp_path / "p")
    shutil.copytree(packs["old-curated"], tmp_path / "p-curated")
    target, manifest = curate_beside(pack, "p-curated", per_tier={"easy": 1})
    assert (target / MANIFEST).is_file() and not (target / OLD_MANIFEST).exists()
    assert manifest.deals == 1


def test_a_gallery_of_an_old_pack_is_the_same_gallery(packs, tmp_path):
    written = {}
    for era in ("new", "old"):
        write_gallery(packs[f"{era}-curated"], tmp_path / era, title="t")
        written[era] = (tmp_path / era / DATA).read_text(encoding="utf-8")
    assert written["old"] == written["new"]  # the same build id: play records stay with the gallery
    counts = read_pack_folder(packs["new-curated"]).column("solution_count").to_pylist()
    assert all(
        f'"{count}"' in written["new"] for count in counts
    )  # decimal text, as before: past 2**53 in JS


def test_play_records_find_the_deals_of_an_old_pack(packs):
    new, old = pack_deals(packs["new-curated"]), pack_deals(packs["old-curated"])
    assert dataclasses.replace(old, folder=new.folder) == new


def test_an_old_pack_file_reads_as_todays(tmp_path, pack_rows):
    path = tmp_path / "graded.parquet"
    text = pc.cast(pack_rows.column("solution_count"), pa.string())
    position = pack_rows.schema.get_field_index("solution_count")
    pq.write_table(pack_rows.set_column(position, pa.field("solution_count", pa.string()), text), path)
    assert (
        read_pack_file(path, pack_rows.schema)
        .column("solution_count")
        .equals(pack_rows.column("solution_count"))
    )
    batches = list(read_pack_file_batches(path, pack_rows.schema, batch_rows=7))
    assert pa.concat_tables(batches).column("solution_count").equals(pack_rows.column("solution_count"))


def test_an_old_count_that_is_no_number_is_one_error_line(tmp_path, pack_rows):
    path = tmp_path / "graded.parquet"
    position = pack_rows.schema.get_field_index("solution_count")
    text = pa.array(["12x"] * pack_rows.num_rows, pa.string())
    pq.write_table(pack_rows.set_column(position, pa.field("solution_count", pa.string()), text), path)
    with pytest.raises(PackError, match=r"graded\.parquet: a column of an earlier pack format will not read"):
        read_pack_file(path, pack_rows.schema)


@pytest.mark.parametrize("kind", KINDS)
def test_a_pack_of_format_2_reads_as_todays_and_its_manifest_writes_back_byte_for_byte(packs, format_2, kind):
    manifest = read_manifest(format_2[kind])
    assert (
        manifest.format_version == 2
        and manifest.tier_thresholds == read_manifest(packs[f"new-{kind}"]).tier_thresholds
    )
    assert manifest.to_json() == (format_2[kind] / MANIFEST).read_text(encoding="utf-8")
    assert read_pack_folder(format_2[kind]).equals(read_pack_folder(packs[f"new-{kind}"]))
    found = pack_metadata(format_2[kind])
    assert "grade_max_memory_mib" not in found and found["grade_max_positions"] == "22000000"
    assert pack_metadata(packs[f"new-{kind}"])["grade_max_memory_mib"] == "1024"


def test_a_pack_of_format_2_is_reported_exported_and_curated_as_todays(packs, format_2, tmp_path):
    for kind in KINDS:
        assert (
            report_pack(format_2[kind], tmp_path / kind).description
            == report_pack(packs[f"new-{kind}"], tmp_path / f"new-{kind}").description
        )
        for era, folder in (("old", format_2[kind]), ("new", packs[f"new-{kind}"])):
            export_pack_folder(folder, tmp_path / f"{era}-{kind}.json", "json")
        assert (tmp_path / f"old-{kind}.json").read_bytes() == (tmp_path / f"new-{kind}.json").read_bytes()
    manifest = curate_folder(format_2["pack"], tmp_path / "c", per_tier={"easy": 2, "hard": 1}, order="pack")
    assert manifest.format_version == FORMAT_VERSION


def test_a_gallery_of_a_format_2_pack_shows_no_memory_budget(packs, format_2, tmp_path):
    written = {}
    for era, folder in (("format-2", format_2["curated"]), ("new", packs["new-curated"])):
        write_gallery(folder, tmp_path / era, title="t")
        written[era] = (tmp_path / era / DATA).read_text(encoding="utf-8")
    assert '"grade": 22000000, "grade_memory_mib": null}' in written["format-2"]
    assert '"grade": 250000000, "grade_memory_mib": 1024}' in written["new"]
