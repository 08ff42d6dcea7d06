"""Packs that the readers people use open as they are written: pandas, Polars, pyarrow's datasets, DuckDB.

Each reads a pack folder and a curated pack, every row, with ``tier`` as a column
taken from the folder names, and sorts ``solution_count`` as a number. The
manifest's name starts with ``_``, which pandas and pyarrow skip by themselves;
Polars skips no name unless told (``hidden_file_prefix``) and refuses a bare
folder that holds a file of another extension, so it is given that prefix, or
a glob (docs/schema.md says both).
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.dataset as ds
import pytest

from pipeline import __version__
from pipeline.game.players import Player
from pipeline.game.shuffles import SEEDED_SCHEME
from pipeline.packs.folders import pack_metadata, read_pack_folder, write_pack_folder
from pipeline.packs.labels import PACK_TIERS
from pipeline.packs.manifest import FORMAT_VERSION, MANIFEST, TierThresholds, read_manifest
from pipeline.packs.manifest import Origin as PackOrigin
from pipeline.stages.curate import curate_folder
from pipeline.stages.tiers import Difficulty, Figure, Tiers


@pytest.fixture(scope="module")
def packs(tmp_path_factory: pytest.TempPathFactory, pack_rows: pa.Table) -> dict[str, Path]:
    """The pack of the 20 deals of seed 77 (tests/conftest.py) and its curated pack, as the writers write them."""
    folder = tmp_path_factory.mktemp("readers") / "p"
    origin = PackOrigin("p", "pack", __version__, SEEDED_SCHEME, config={"run": {"name": "p"}})
    write_pack_folder(folder, [pack_rows], origin=origin, provenance={})
    curated = folder.with_name("p-curated")
    curate_folder(
        folder, curated, per_tier={"easy": 2, "medium": 2, "hard": 2, "expert": 2}, order="difficulty"
    )
    return {"pack": folder, "curated": curated}


def expected(folder: Path) -> pd.DataFrame:
    """What every reader should give of ``folder``: this package's own read, sorted as the tests compare."""
    return _comparable(read_pack_folder(folder).to_pandas())


def _comparable(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame``'s deal ids, tiers and solution counts as plain text and int, sorted by deal id."""
    found = pd.DataFrame(
        {
            "deal_id": frame["deal_id"].astype(str).tolist(),
            "tier": frame["tier"].astype(str).tolist(),
            "solution_count": frame["solution_count"].astype("Int64").tolist(),
        }
    )
    return found.sort_values("deal_id").reset_index(drop=True)


def _pandas(folder: Path) -> pd.DataFrame:
    return pd.read_parquet(folder)


def _polars_scan(folder: Path) -> pd.DataFrame:
    return pl.scan_parquet(folder, hidden_file_prefix="_").collect().to_pandas()


def _polars_glob(folder: Path) -> pd.DataFrame:
    return pl.read_parquet(f"{folder}/**/*.parquet", hive_partitioning=True).to_pandas()


def _pyarrow(folder: Path) -> pd.DataFrame:
    return ds.dataset(folder, format="parquet", partitioning="hive").to_table().to_pandas()


def _duckdb(folder: Path) -> pd.DataFrame:
    query = f"SELECT * FROM read_parquet('{folder}/**/*.parquet', hive_partitioning = true)"
    return duckdb.sql(query).df()


READERS = {
    "pandas": _pandas,
    "polars-scan": _polars_scan,
    "polars-glob": _polars_glob,
    "pyarrow-dataset": _pyarrow,
    "duckdb": _duckdb,
}


@pytest.mark.parametrize("kind", ["pack", "curated"])
@pytest.mark.parametrize("reader", list(READERS))
def test_each_reader_reads_every_row_with_its_tier(packs, kind, reader):
    folder = packs[kind]
    found = READERS[reader](folder)
    assert set(found.columns) >= {"deal_id", "tier", "solution_count", "board"}
    pd.testing.assert_frame_equal(_comparable(found), expected(folder))
    assert set(found["tier"].astype(str)) <= set(PACK_TIERS)


def test_duckdb_orders_solution_count_as_a_number(packs):
    folder = packs["pack"]
    query = (
        f"SELECT solution_count FROM read_parquet('{folder}/**/*.parquet', hive_partitioning = true) "
        "WHERE solution_count IS NOT NULL ORDER BY solution_count"
    )
    counts = [count for (count,) in duckdb.sql(query).fetchall()]
    assert counts == sorted(counts) and len(set(counts)) > 2
    assert all(isinstance(count, int) for count in counts)
    assert max(counts) >= 10 * min(count for count in counts if count)  # counts of several lengths


@pytest.mark.parametrize("reader", ["pandas", "polars-scan", "pyarrow-dataset", "duckdb"])
def test_solution_count_is_an_integer_column_in_each_reader(packs, reader):
    found = READERS[reader](packs["pack"])
    assert pd.api.types.is_integer_dtype(found["solution_count"].dtype), found["solution_count"].dtype


def test_the_manifest_has_a_name_dataset_readers_skip(packs):
    for folder in packs.values():
        assert MANIFEST == "_manifest.json" and (folder / MANIFEST).is_file()
        assert not (folder / "manifest.json").exists()
        assert sorted(
            path.suffix for path in folder.rglob("*") if path.is_file() and path.name != MANIFEST
        ) == [".parquet"] * len(read_manifest(folder).files)


def test_the_manifest_carries_the_thresholds_the_files_record(packs):
    for folder in packs.values():
        manifest = read_manifest(folder)
        tiers = Tiers.from_metadata(pack_metadata(folder))
        assert tiers is not None and manifest.format_version == FORMAT_VERSION
        assert manifest.tier_thresholds == TierThresholds(
            tiers.difficulty.player.value,
            tiers.difficulty.figure.value,
            tiers.medium,
            tiers.hard,
            tiers.expert,
        )


def test_thresholds_read_the_metadata_the_tiers_write():
    tiers = Tiers(3, 8.5, 20, Difficulty(Player.TIPS, Figure.DEAD_ENDS))
    assert TierThresholds.from_metadata(tiers.metadata()) == TierThresholds("tips", "dead_ends", 3, 8.5, 20)


def test_an_ungraded_pack_has_no_thresholds(tmp_path, pack_rows):
    rows = pack_rows.replace_schema_metadata({})  # no grader's metadata
    origin = PackOrigin("u", "pack", __version__, SEEDED_SCHEME, config=None)
    assert write_pack_folder(tmp_path / "u", [rows], origin=origin, provenance={}).tier_thresholds is None
    assert '"tier_thresholds": null' in (tmp_path / "u" / MANIFEST).read_text()
