"""Curation: the canonical key of a deal, quota parsing, and the rules that make a puzzle pack."""

from __future__ import annotations

import random
from pathlib import Path

import pyarrow as pa
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline import __version__
from pipeline.files import DestinationError
from pipeline.game.cards import make_card, rank_of, suit_of
from pipeline.game.deal import EXAMPLE_BOARD, NUM_PILES, Deal
from pipeline.game.shuffles import SEEDED_SCHEME
from pipeline.packs.folders import write_pack_folder
from pipeline.packs.manifest import Origin
from pipeline.stages.curate import (
    CurationError,
    QuotaError,
    canonical_key,
    curate,
    curate_beside,
    parse_quotas,
)
from tests.strategies import deals

SPADES = 3
EXAMPLE = Deal.from_board_text(EXAMPLE_BOARD)


def relabelled(deal: Deal, order: tuple[int, ...]) -> Deal:
    """``deal`` with every card's suit ``s`` replaced by ``order[s]``."""
    return Deal(tuple(tuple(make_card(rank_of(c), order[suit_of(c)]) for c in pile) for pile in deal.piles))


def reordered(deal: Deal, piles: list[int]) -> Deal:
    """``deal`` with its piles in the order ``piles`` (new pile i is old pile ``piles[i]``)."""
    return Deal(tuple(deal.piles[p] for p in piles))


@given(deals(), st.permutations((0, 1, 2)), st.permutations(range(NUM_PILES)))
def test_key_ignores_suit_relabelling_and_pile_order(deal, suits, piles):
    other = reordered(relabelled(deal, (*suits, SPADES)), piles)
    assert canonical_key(other) == canonical_key(deal)


def test_key_of_example_with_hearts_and_diamonds_swapped_and_piles_shuffled():
    piles = list(range(NUM_PILES))
    random.Random(5).shuffle(piles)
    other = reordered(relabelled(EXAMPLE, (2, 1, 0, SPADES)), piles)
    assert other != EXAMPLE
    assert canonical_key(other) == canonical_key(EXAMPLE)


def swapped(deal: Deal, first: tuple[int, int], second: tuple[int, int]) -> Deal:
    """``deal`` with the cards at (pile, place) ``first`` and ``second`` exchanged."""
    cards = [list(pile) for pile in deal.piles]
    (p, i), (q, j) = first, second
    cards[p][i], cards[q][j] = cards[q][j], cards[p][i]
    return Deal(tuple(tuple(pile) for pile in cards))


def test_two_cards_swapped_between_piles_is_another_deal():
    # TH (top of pile 0) and 8H (top of pile 1).
    assert canonical_key(swapped(EXAMPLE, (0, 2), (1, 2))) != canonical_key(EXAMPLE)


def test_two_cards_of_one_rank_swapped_is_not_a_relabelling():
    # 5D (pile 4, bottom) and 5H (pile 7, bottom): the same game, but not one suit permutation of every card.
    assert canonical_key(swapped(EXAMPLE, (4, 0), (7, 0))) != canonical_key(EXAMPLE)


def test_key_tells_apart_the_piles_read_upside_down():
    upside_down = Deal(tuple(tuple(reversed(pile)) for pile in EXAMPLE.piles))
    assert canonical_key(upside_down) != canonical_key(EXAMPLE)


def test_parse_quotas_reads_spaces_and_zero_in_tier_order():
    assert parse_quotas(" expert = 0 , easy=50,medium=007") == {"easy": 50, "medium": 7, "expert": 0}


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("", "no quotas given"),
        ("easy=5,,hard=2", "empty quota in 'easy=5,,hard=2'"),
        ("easy=5,", "empty quota"),
        ("easy", "'easy': expected tier=count"),
        ("easy=", "'easy=': the count"),
        ("easy=-1", "'easy=-1': the count"),
        ("easy=1.5", "'easy=1.5': the count"),
        ("easy=ten", "'easy=ten': the count"),
        ("unsolvable=3", "'unsolvable=3': unknown tier 'unsolvable'"),
        ("Easy=3", "'Easy=3': unknown tier 'Easy'"),
        ("=3", "'=3': unknown tier ''"),
        ("hard=1,easy=2,hard=3", "'hard=3': tier hard is given twice"),
    ],
)
def test_parse_quotas_errors_name_the_bad_part(text, named):
    with pytest.raises(QuotaError) as error:
        parse_quotas(text)
    message = str(error.value)
    assert named in message
    assert "\n" not in message


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
    curation = curate(pack_rows, order="pack")
    verdicts = pack_rows.column("verdict").to_pylist()
    assert verdicts.count("unsolvable") == 3
    assert ids(curation.table) == [i for i, v in zip(ids(pack_rows), verdicts, strict=True) if v == "solved"]
    assert curation.dropped_not_graded_win == 3
    assert curation.dropped_disputed == curation.dropped_no_first_move == 0
    assert curation.dropped_duplicate == curation.dropped_over_quota == 0
    assert curation.shortfalls == {}
    assert curation.table.column_names == pack_rows.column_names + ["level"]
    assert curation.table.schema.metadata == pack_rows.schema.metadata


def test_curate_drops_ungraded_out_of_budget_and_moveless_rows(pack_rows):
    solved = [row for row, v in enumerate(pack_rows.column("verdict").to_pylist()) if v == "solved"]
    table = with_values(pack_rows, "tier", {solved[0]: None, solved[1]: "ungraded"})
    table = with_values(table, "grade_status", {solved[2]: "out_of_budget"})
    table = with_values(table, "first_moves", {solved[3]: 0, solved[4]: None})
    curation = curate(table, order="pack")
    assert ids(curation.table) == [ids(pack_rows)[row] for row in solved[5:]]
    assert curation.dropped_not_graded_win == 3 + 3
    assert curation.dropped_no_first_move == 2


def test_curate_drops_a_win_its_cross_check_disputes(pack_rows):
    checked = [row for row, agree in enumerate(pack_rows.column("agree").to_pylist()) if agree]
    solved = set(row for row, v in enumerate(pack_rows.column("verdict").to_pylist()) if v == "solved")
    disputed = next(row for row in checked if row in solved)
    curation = curate(with_values(pack_rows, "agree", {disputed: False}), order="pack")
    assert ids(pack_rows)[disputed] not in ids(curation.table)
    assert curation.dropped_disputed == 1 and curation.dropped_not_graded_win == 3


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
    curation = curate(pa.concat_tables(parts), order="pack")
    assert curation.dropped_duplicate == 1
    kept, dropped = ids(pack_rows)[original], "copy-of-medium"
    if copy_first:
        kept, dropped = dropped, kept
    assert kept in ids(curation.table)
    assert dropped not in ids(curation.table)
    assert curation.table.num_rows == 17


def test_curate_takes_the_first_rows_of_each_tier_and_reports_shortfalls(pack_rows):
    curation = curate(pack_rows, per_tier={"easy": 2, "expert": 5}, order="pack")
    grouped = tiers_in_order(pack_rows)
    wanted = set(grouped["easy"][:2] + grouped["expert"])
    assert ids(curation.table) == [deal_id for deal_id in ids(pack_rows) if deal_id in wanted]
    assert curation.shortfalls == {"expert": (5, 3)}
    assert curation.dropped_over_quota == 17 - 5


def test_curate_with_no_quota_for_any_tier_keeps_nothing(pack_rows):
    curation = curate(pack_rows, per_tier={})
    assert curation.table.num_rows == 0
    assert curation.table.column_names[-1] == "level"
    assert curation.dropped_over_quota == 17


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
    assert ids(curate(shuffled).table) == sorted(ids(curate(tied, order="pack").table))


def test_curating_a_curated_pack_renumbers_its_levels(pack_rows):
    once = curate(pack_rows, order="pack").table
    twice = curate(once, per_tier={"hard": 5}).table
    assert twice.column_names.count("level") == 1
    assert twice.column("level").to_pylist() == [1, 2, 3, 4, 5]


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        ({"order": "random"}, CurationError, "unknown order 'random'"),
        ({"per_tier": {"unsolvable": 2}}, QuotaError, "unknown tier 'unsolvable'"),
        ({"per_tier": {"easy": -1}}, QuotaError, "easy=-1"),
        ({"per_tier": {"easy": 1.5}}, QuotaError, "easy=1.5"),
    ],
)
def test_curate_rejects_bad_options(pack_rows, options, error, message):
    with pytest.raises(error, match=message):
        curate(pack_rows, **options)


def test_curate_needs_a_graded_pack(pack_rows):
    with pytest.raises(CurationError, match="no column grade_status, tier, first_moves, difficulty"):
        curate(pack_rows.select(["deal_id", "board", "verdict"]))


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
