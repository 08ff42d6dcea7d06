"""A damaged pack folder whose manifest still matches is one error line: the pack, the file, the problem.

The damage a checksum cannot catch, since the manifest was updated with it:
a data file replaced by garbage or by a file of another schema, its SHA-256
updated in the manifest; a NaN difficulty; a tier folder that is a link out
of the pack. Each is refused when read, never a traceback or a wrong pack.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import re
from collections.abc import Callable
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

from pipeline import __version__
from pipeline.game.shuffles import SEEDED_SCHEME
from pipeline.packs.family import GameMixError
from pipeline.packs.folders import (
    file_schema_problem,
    pack_folder_batches,
    read_pack_folder,
    write_pack_folder,
)
from pipeline.packs.manifest import MANIFEST, Origin
from pipeline.packs.parquet import PackError, metadata
from tests.packs.test_rows import fails

EASY = "tier=easy/part-0.parquet"


def pack_folder(path: Path, rows: pa.Table) -> Path:
    write_pack_folder(
        path, [rows], origin=Origin(path.name, "pack", __version__, SEEDED_SCHEME), provenance={}
    )
    return path


def replaced(folder: Path, data: bytes) -> Path:
    """Put ``data`` in place of the easy tier's file, and its SHA-256 in the manifest (the rows left as they are)."""
    path = folder / EASY
    path.write_bytes(data)
    manifest = json.loads((folder / MANIFEST).read_text())
    [entry] = [entry for entry in manifest["files"] if entry["path"] == EASY]
    entry["sha256"] = hashlib.sha256(data).hexdigest()
    (folder / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
    return path


def parquet_bytes(table: pa.Table) -> bytes:
    sink = io.BytesIO()
    pq.write_table(table, sink, compression="zstd")
    return sink.getvalue()


def read_both_ways(folder: Path, pattern: str, columns: list[str] | None = None) -> None:
    """Both folder readers raise PackError matching ``pattern``, reading ``columns`` (default: ``index``)."""
    with pytest.raises(PackError, match=pattern):
        read_pack_folder(folder)
    with pytest.raises(PackError, match=pattern):
        list(pack_folder_batches(folder, columns=columns or ["index"]))


@pytest.fixture
def folder(pack_rows, tmp_path) -> Path:
    return pack_folder(tmp_path / "packs" / "p", pack_rows)


def easy_rows(folder: Path) -> pa.Table:
    return pq.read_table(folder / EASY)


def test_a_file_of_garbage_is_not_parquet(folder):
    path = replaced(folder, b"PAR1 this is no Parquet file PAR1")
    damaged = "a damaged file: its SHA-256 is the manifest's, but it is not readable Parquet ("
    read_both_ways(folder, rf"^{re.escape(str(path))}: {re.escape(damaged)}")
    line = fails("report", folder, "--charts", folder.parent / "charts")
    assert line.startswith(f"error: {path}: {damaged}")


@pytest.mark.parametrize(
    ("damage", "problem"),
    [
        (
            lambda t: t.set_column(
                t.column_names.index("difficulty"), "difficulty", pc.cast(t["difficulty"], pa.string())
            ),
            "column 'difficulty' is string, expected double",
        ),
        (lambda t: t.drop_columns(["traps"]), "no column 'traps'"),
        (
            lambda t: t.append_column("colour", pa.array(["red"] * t.num_rows)),
            "a column 'colour', which no pack has",
        ),
        (
            lambda t: t.select([t.column_names[1], t.column_names[0], *t.column_names[2:]]),
            "column 'source' where 'deal_id' should be",
        ),
        (
            lambda t: t.cast(pa.schema([f.with_nullable(True) for f in t.schema])),
            "column 'deal_id' may hold nulls, unlike a pack's",
        ),
    ],
)
def test_a_file_of_another_schema_names_the_column(folder, damage, problem):
    path = replaced(folder, parquet_bytes(damage(easy_rows(folder))))
    read_both_ways(folder, rf"^{re.escape(f'{path}: not a pack file: {problem}')}$")
    line = fails("export", folder, "--format", "csv", "--out", folder.parent / "deals.csv")
    assert line == f"error: {path}: not a pack file: {problem}"
    assert not (folder.parent / "deals.csv").exists()


def test_a_pack_file_s_own_schema_has_no_problem(folder):
    assert file_schema_problem(easy_rows(folder).schema) is None


def test_a_nan_difficulty_stops_report_and_export(pack_rows, tmp_path):
    values = pack_rows.column("difficulty").to_pylist()
    row = pack_rows.column("tier").to_pylist().index("easy")
    values[row] = math.nan
    index = pack_rows.column_names.index("difficulty")
    folder = pack_folder(
        tmp_path / "packs" / "p", pack_rows.set_column(index, "difficulty", pa.array(values, pa.float64()))
    )
    deal = pack_rows.column("deal_id")[row].as_py()
    expected = f"{folder / EASY}[0]: deal {deal}: difficulty is nan (not a finite number)"
    read_both_ways(folder, rf"^{re.escape(expected)}$", columns=["difficulty"])
    assert fails("report", folder, "--charts", tmp_path / "charts") == f"error: {expected}"
    assert fails("export", folder, "--format", "json", "--out", tmp_path / "d.json") == f"error: {expected}"
    assert not (tmp_path / "d.json").exists() and not list(tmp_path.rglob("*.png"))


def test_a_tier_folder_that_links_out_of_the_pack_is_refused_before_it_is_read(folder, tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (folder / "tier=easy").rename(outside / "tier=easy")
    (folder / "tier=easy").symlink_to(outside / "tier=easy", target_is_directory=True)
    read_both_ways(folder, rf"^{re.escape(f'{folder / EASY}: outside the pack folder {folder}')}$")
    line = fails("export", folder, "--format", "boards", "--out", tmp_path / "b.txt")
    assert line == f"error: {folder / EASY}: outside the pack folder {folder}"


def test_a_link_to_a_file_inside_the_pack_is_followed(folder):
    (folder / "tier=easy" / ".data.parquet").write_bytes((folder / EASY).read_bytes())  # hidden: no data file
    (folder / EASY).unlink()
    (folder / EASY).symlink_to(".data.parquet")
    assert read_pack_folder(folder).num_rows == 20


def test_a_parquet_file_the_manifest_does_not_list_is_refused(folder):
    (folder / "tier=easy" / "part-1.parquet").write_bytes((folder / EASY).read_bytes())
    read_both_ways(
        folder, rf"^{re.escape(str(folder / 'tier=easy' / 'part-1.parquet'))}: a data file not listed"
    )
    (folder / "tier=easy" / "part-1.parquet").rename(folder / "tier=easy" / ".part-1.parquet")
    assert read_pack_folder(folder).num_rows == 20  # hidden files are no data files


# Issue 39: every pack reader, the Python face's included, names the file whose game differs from the pack's,
# the file whose SHA-256 matches but whose bytes Arrow cannot read, and the file whose tiers are out of range.


def _every_reader(folder: Path) -> dict[str, Callable[[], object]]:
    from pipeline import open_pack
    from pipeline.packs.folders import find_deal, pack_metadata

    return {
        "read_pack_folder": lambda: read_pack_folder(folder),
        "pack_folder_batches": lambda: list(pack_folder_batches(folder, columns=["deal_id"])),
        "pack_metadata": lambda: pack_metadata(folder),
        "find_deal": lambda: find_deal(folder, "seed-77-8"),
        "open_pack": lambda: list(open_pack(folder)),
        "open_pack.find": lambda: open_pack(folder).find("seed-77-8"),
    }


def _relabelled(table: pa.Table, **entries: str) -> bytes:
    return parquet_bytes(table.replace_schema_metadata({**metadata(table), **entries}))


def _zeroed_middle(table: pa.Table) -> bytes:
    data = parquet_bytes(table)
    return data[:100] + bytes(len(data) // 2) + data[100 + len(data) // 2 :]


GRADED = {"difficulty_player": "tips", "difficulty_figure": "attempts", "tier_hard": "8", "tier_expert": "20"}
DAMAGE = {
    "golf-file": (  # graded by Golf's own tiers too: the game is named, not the tiers
        lambda t: _relabelled(t, game="golf", tier_medium="7.0"),
        GameMixError,
        "a Golf file in a Black Hole pack",
    ),
    "garbage": (lambda t: b"PAR1 garbage PAR1", PackError, "a damaged file: its SHA-256 is the manifest's"),
    "footer-cut": (
        lambda t: parquet_bytes(t)[:-3],
        PackError,
        "a damaged file: its SHA-256 is the manifest's",
    ),
    "pages-zeroed": (_zeroed_middle, PackError, "a damaged file: its SHA-256 is the manifest's"),
    "tier-medium-nan": (
        lambda t: _relabelled(t, **GRADED, tier_medium="nan"),
        PackError,
        "schema metadata tier_medium: 'nan' is not a finite number above 0",
    ),
    "other-tiers": (
        lambda t: _relabelled(t, tier_medium="150.0"),
        PackError,
        "graded with other tiers than the manifest's tier_thresholds",
    ),
}


@pytest.mark.parametrize("damage", DAMAGE, ids=str)
def test_every_reader_names_the_file_of_another_game_or_damaged_or_out_of_range(damage, pack_rows, tmp_path):
    folder = pack_folder(tmp_path / "packs" / "p", pack_rows)
    change, error, problem = DAMAGE[damage]
    path = replaced(folder, change(pq.read_table(folder / EASY)))
    for reader, read in _every_reader(folder).items():
        with pytest.raises(error) as raised:
            read()
        assert str(raised.value).startswith(f"{path}: {problem}"), (reader, str(raised.value))
        assert "\n" not in str(raised.value)
