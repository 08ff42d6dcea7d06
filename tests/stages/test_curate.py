"""Curation: the rules that make a puzzle pack, its options, and where a curated pack goes."""

from __future__ import annotations

import random
from pathlib import Path

import pyarrow as pa
import pytest

from pipeline import __version__
from pipeline.files import DestinationError
from pipeline.game.deal import NUM_PILES, Deal
from pipeline.game.shuffles import SEEDED_SCHEME
from pipeline.packs.folders import write_pack_folder
from pipeline.packs.manifest import Origin
from pipeline.stages.curate import curate_beside, curate_folder
from pipeline.stages.curation_rules import CurationError, Selection
from pipeline.stages.quotas import QuotaError
from pipeline.stages.settings import CurateOrder
from tests.curation import curate
from tests.game.test_canonical import SPADES, relabelled, reordered


def ids(table: pa.Table) -> list[str]:
    return table.column("deal_id").to_pylist()


def tiers_in_order(table: pa.Table) -> dict[str, list[str]]:
    """Deal ids of each tier, in table order."""
    grouped: dict[str, list[str]] = {}
    for deal_id, tier in zip(ids(table), table.column("tier").to_pylist(), strict=True):
        grouped.setdefault(tier, []).append(deal_id)
    return grouped


def with_values(table: pa.Table, name: str, changes: dict[int, object]) -> pa.Table:
    """``table`` with column ``name`` changed at the rows (by number) in ``changes``."""
    values = table.column(name).to_pylist()
    for row, value in changes.items():
        values[row] = value
    index = table.column_names.index(name)
    return table.set_column(index, table.field(name), pa.array(values, table.field(name).type))


def test_curate_drops_exactly_the_unsolvable_rows(pack_rows):
    curation = curate(pack_rows, order=CurateOrder.PACK)
    verdicts = pack_rows.column("verdict").to_pylist()
    assert verdicts.count("unsolvable") == 3
    assert ids(curation.table) == [i for i, v in zip(ids(pack_rows), verdicts, strict=True) if v == "solved"]
    assert curation.dropped["not_a_graded_win"] == 3
    assert curation.dropped["disputed"] == curation.dropped["no_first_move"] == 0
    assert curation.dropped["duplicate"] == curation.dropped["over_quota"] == 0
    assert curation.shortfalls == {}
    assert curation.table.column_names == pack_rows.column_names + ["level"]
    assert curation.table.schema.metadata == pack_rows.schema.metadata


def test_curate_drops_ungraded_out_of_budget_and_moveless_rows(pack_rows):
    solved = [row for row, v in enumerate(pack_rows.column("verdict").to_pylist()) if v == "solved"]
    table = with_values(pack_rows, "tier", {solved[0]: None, solved[1]: "ungraded"})
    table = with_values(table, "grade_status", {solved[2]: "out_of_budget"})
    table = with_values(table, "first_moves", {solved[3]: 0, solved[4]: None})
    curation = curate(table, order=CurateOrder.PACK)
    assert ids(curation.table) == [ids(pack_rows)[row] for row in solved[5:]]
    assert curation.dropped["not_a_graded_win"] == 3 + 3
    assert curation.dropped["no_first_move"] == 2


def test_curate_drops_a_win_its_cross_check_disputes(pack_rows):
    checked = [row for row, agree in enumerate(pack_rows.column("agree").to_pylist()) if agree]
    solved = set(row for row, v in enumerate(pack_rows.column("verdict").to_pylist()) if v == "solved")
    disputed = next(row for row in checked if row in solved)
    curation = curate(with_values(pack_rows, "agree", {disputed: False}), order=CurateOrder.PACK)
    assert ids(pack_rows)[disputed] not in ids(curation.table)
    assert curation.dropped["disputed"] == 1 and curation.dropped["not_a_graded_win"] == 3


def duplicate_row(table: pa.Table, row: int, deal_id: str) -> pa.Table:
    """Row ``row`` of ``table`` as a table: suits relabelled (H->C->D->H), piles reversed, a new id."""
    values = table.slice(row, 1).to_pylist()[0]
    deal = Deal.from_board_text(values["board"])
    copy = reordered(relabelled(deal, (1, 2, 0, SPADES)), list(reversed(range(NUM_PILES))))
    values |= {
        "deal_id": deal_id,
        "board": copy.to_board_text(),
        "solution": [NUM_PILES - 1 - pile for pile in values["solution"]],
    }
    return pa.Table.from_pylist([values], schema=table.schema)


@pytest.mark.parametrize("copy_first", [False, True])
def test_curate_keeps_the_first_of_two_relabelled_shuffled_copies(pack_rows, copy_first):
    original = ids(pack_rows).index(tiers_in_order(pack_rows)["medium"][1])
    copy = duplicate_row(pack_rows, original, "copy-of-medium")
    assert copy.column("board")[0].as_py() != pack_rows.column("board")[original].as_py()
    parts = [copy, pack_rows] if copy_first else [pack_rows, copy]
    curation = curate(pa.concat_tables(parts), order=CurateOrder.PACK)
    assert curation.dropped["duplicate"] == 1
    kept, dropped = ids(pack_rows)[original], "copy-of-medium"
    if copy_first:
        kept, dropped = dropped, kept
    assert kept in ids(curation.table)
    assert dropped not in ids(curation.table)
    assert curation.table.num_rows == 17


def test_curate_takes_the_first_rows_of_each_tier_and_reports_shortfalls(pack_rows):
    curation = curate(pack_rows, per_tier={"easy": 2, "expert": 5}, order=CurateOrder.PACK)
    grouped = tiers_in_order(pack_rows)
    wanted = set(grouped["easy"][:2] + grouped["expert"])
    assert ids(curation.table) == [deal_id for deal_id in ids(pack_rows) if deal_id in wanted]
    experts = len(grouped["expert"])
    assert 0 < experts < 5 and len(grouped["easy"]) > 2  # so that expert falls short and easy does not
    assert curation.shortfalls == {"expert": (5, experts)}
    assert curation.dropped["over_quota"] == 17 - 2 - experts


def test_curate_with_no_quota_for_any_tier_keeps_nothing(pack_rows):
    curation = curate(pack_rows, per_tier={})
    assert curation.table.num_rows == 0
    assert curation.table.column_names[-1] == "level"
    assert curation.dropped["over_quota"] == 17


def test_curate_sorts_by_difficulty_and_numbers_levels_from_one(pack_rows):
    table = curate(pack_rows).table
    difficulties = table.column("difficulty").to_pylist()
    assert difficulties == sorted(difficulties)
    assert table.field("level").type == pa.int32()
    assert table.column("level").to_pylist() == list(range(1, 18))
    assert table.column("tier").to_pylist()[0] == "easy"
    assert table.column("tier").to_pylist()[-1] == "expert"


def test_curate_by_difficulty_breaks_ties_by_deal_id_whatever_the_input_order(pack_rows):
    tied = with_values(pack_rows, "difficulty", dict.fromkeys(range(pack_rows.num_rows), 6.0))
    rows = list(range(pack_rows.num_rows))
    random.Random(3).shuffle(rows)
    shuffled = tied.take(rows)
    assert ids(curate(shuffled).table) == sorted(ids(curate(tied, order=CurateOrder.PACK).table))


def test_curating_a_curated_pack_renumbers_its_levels(pack_rows):
    once = curate(pack_rows, order=CurateOrder.PACK).table
    twice = curate(once, per_tier={"hard": 5}).table
    assert twice.column_names.count("level") == 1
    assert twice.column("level").to_pylist() == [1, 2, 3, 4, 5]


@pytest.fixture(scope="module")
def pack(tmp_path_factory, pack_rows) -> Path:
    return _pack_folder(tmp_path_factory.mktemp("packs") / "p", pack_rows)


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        ({"order": "random"}, CurationError, "unknown order 'random'"),
        ({"per_tier": {"unsolvable": 2}}, QuotaError, "unknown tier 'unsolvable'"),
        ({"per_tier": {"easy": -1}}, QuotaError, "easy=-1"),
        ({"per_tier": {"easy": 1.5}}, QuotaError, "easy=1.5"),
    ],
)
def test_curate_folder_rejects_bad_options_before_any_work(tmp_path, pack, options, error, message):
    with pytest.raises(error, match=message):
        curate_folder(pack, tmp_path / "best", **({"per_tier": None, "order": CurateOrder.PACK} | options))
    assert list(tmp_path.iterdir()) == []


def test_curate_needs_a_graded_pack(pack_rows):
    with pytest.raises(CurationError, match="no column grade_status, tier, first_moves, difficulty"):
        Selection(None).keep(pack_rows.select(["deal_id", "board", "verdict"]))


def _pack_folder(folder: Path, rows: pa.Table) -> Path:
    write_pack_folder(folder, [rows], origin=Origin("p", "pack", __version__, SEEDED_SCHEME), provenance={})
    return folder


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_curating_dot_in_a_pack_folder_writes_beside_it_never_into_it(tmp_path, pack_rows, monkeypatch):
    pack = _pack_folder(tmp_path.resolve() / "packs" / "p", pack_rows)
    before = _files(pack)
    monkeypatch.chdir(pack)
    target, manifest = curate_beside(Path("."), "tier=easy", per_tier={"easy": 2})
    assert target == pack.parent / "tier=easy" and manifest.deals == 2
    with pytest.raises(CurationError, match="'p': would replace the pack it curates"):
        curate_beside(Path("."), "p")
    assert _files(pack) == before


def test_a_curated_name_linked_to_the_pack_into_it_or_anywhere_is_refused_before_any_work(
    tmp_path, pack_rows
):
    pack = _pack_folder(tmp_path / "packs" / "p", pack_rows)
    before = _files(pack)
    partition = next(pack.glob("tier=*"))
    (tmp_path / "other").mkdir()
    for name, points_to in [("same", pack), ("inner", partition), ("elsewhere", tmp_path / "other")]:
        (pack.parent / name).symlink_to(points_to)
    with pytest.raises(CurationError, match="'same': would replace the pack it curates"):
        curate_beside(pack, "same")
    with pytest.raises(
        CurationError, match=f"'inner': {pack.parent / 'inner'} is inside the pack it curates"
    ):
        curate_beside(pack, "inner")
    with pytest.raises(DestinationError, match="elsewhere: is a symbolic link; a folder is replaced whole"):
        curate_beside(pack, "elsewhere")
    assert _files(pack) == before and not list((tmp_path / "other").iterdir())
    assert sorted(p.name for p in (tmp_path / "packs").iterdir()) == ["elsewhere", "inner", "p", "same"]
