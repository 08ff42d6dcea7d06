"""Exports: JSON that replays, board text that reads back, CSV that round-trips, filters, atomic writes."""

from __future__ import annotations

import csv
import json

import pyarrow as pa
import pytest

from pipeline.files import DestinationError
from pipeline.game.cards import card_name
from pipeline.game.deal import BoardError, Deal, read_boards
from pipeline.game.players import PLAYERS, Player
from pipeline.game.rules import IllegalMove, replay
from pipeline.packs.exports import EXPORTED_METRICS, ExportError, export_pack
from pipeline.packs.parquet import metadata
from pipeline.packs.sources import imported_deals
from tests.curation import curate

DEAL_KEYS = [
    "deal_id",
    "tier",
    "difficulty",
    "level",
    "verdict",
    "board",
    "piles",
    "foundation",
    "solution",
    "moves",
    "first_trap",
    "reference_player",
    "expected_attempts",
    "dead_ends",
    "players",
    "metrics",
]


@pytest.fixture(scope="module")
def curated(pack_rows) -> pa.Table:
    return curate(pack_rows).table


def exported(table: pa.Table, path, fmt: str, **options) -> str:
    export_pack(table, path, fmt, **options)
    return path.read_text(encoding="utf-8")


def test_json_deals_replay_and_match_the_pack(curated, tmp_path):
    path = tmp_path / "pack.json"
    assert export_pack(curated, path, "json") == curated.num_rows
    text = path.read_text(encoding="utf-8")
    assert text.endswith("]}\n")
    deals = json.loads(text)["deals"]
    rows = curated.to_pylist()
    assert [deal["deal_id"] for deal in deals] == [row["deal_id"] for row in rows]
    for deal, row in zip(deals, rows, strict=True):
        assert list(deal) == DEAL_KEYS
        board = Deal.from_board_text(deal["board"])
        assert board == Deal.from_board_text(row["board"])
        assert replay(board, deal["solution"]).is_won
        assert deal["solution"] == row["solution"]
        assert [" ".join(pile) for pile in deal["piles"]] == deal["board"].splitlines()[1:]
        assert deal["foundation"] == "AS"
        assert len(deal["moves"]) == 51
        assert sorted(deal["moves"]) == sorted(card_name(card) for card in board.cards())
        assert deal["moves"][0] == deal["piles"][deal["solution"][0]][-1]
        assert (deal["tier"], deal["difficulty"], deal["level"]) == (
            row["tier"],
            row["difficulty"],
            row["level"],
        )
        assert list(deal["metrics"]) == list(EXPORTED_METRICS)
        assert deal["metrics"]["solution_count"] == str(row["solution_count"])  # decimal text: past 2**53
        assert isinstance(deal["metrics"]["solution_count"], str)
        assert deal["metrics"]["random_win_probability"] == row["random_win_probability"]


def test_json_of_a_pack_without_levels_has_unsolvable_deals_with_no_moves(pack_rows, tmp_path):
    deals = json.loads(exported(pack_rows, tmp_path / "all.json", "json"))["deals"]
    assert "level" not in deals[0]
    unsolvable = [deal for deal in deals if deal["verdict"] == "unsolvable"]
    assert len(unsolvable) == 3
    assert all(deal["solution"] == deal["moves"] == [] for deal in unsolvable)
    assert all(deal["difficulty"] is None and deal["metrics"]["first_trap"] is None for deal in unsolvable)


def test_boards_read_back_as_the_same_deals(curated, tmp_path):
    path = tmp_path / "pack.txt"
    text = exported(curated, path, "boards")
    expected = [Deal.from_board_text(board) for board in curated.column("board").to_pylist()]
    assert read_boards(path) == expected
    assert imported_deals(path).column("board").to_pylist() == [deal.to_board_text() for deal in expected]
    assert text.count("\n\n") == curated.num_rows - 1
    assert "\n\n\n" not in text


def test_one_board_is_exactly_a_solver_input_file(curated, tmp_path):
    text = exported(curated, tmp_path / "one.txt", "boards", limit=1)
    board = curated.column("board")[0].as_py()
    assert text == Deal.from_board_text(board).to_board_text()
    lines = text.split("\n")
    assert lines[0] == "Foundations: AS"
    assert len(lines) == 1 + 17 + 1 and lines[-1] == ""
    assert all(len(line.split()) == 3 for line in lines[1:-1])


def test_boards_are_written_in_canonical_spelling(curated, tmp_path):
    board = curated.column("board")[0].as_py()
    odd = board.replace("T", "10").replace("H", "♥").replace("Foundations: AS", "Foundations: a♠ ")
    table = curated.slice(0, 1).set_column(
        curated.column_names.index("board"), "board", pa.array([odd], pa.string())
    )
    assert exported(table, tmp_path / "one.txt", "boards") == board


def test_csv_round_trips_with_the_csv_module(pack_rows, tmp_path):
    path = tmp_path / "pack.csv"
    export_pack(pack_rows, path, "csv")
    with path.open(newline="", encoding="utf-8") as source:
        reader = csv.reader(source)
        header = next(reader)
        cells = list(reader)
    expected_header = ["deal_id", "tier", "difficulty", "verdict", "board", "solution", *EXPORTED_METRICS]
    assert header == expected_header
    assert len(cells) == pack_rows.num_rows
    for line, row in zip(cells, pack_rows.to_pylist(), strict=True):
        cell = dict(zip(header, line, strict=True))
        assert cell["deal_id"] == row["deal_id"]
        assert Deal.from_board_text(cell["board"].replace("|", "\n")) == Deal.from_board_text(row["board"])
        assert [int(pile) for pile in cell["solution"].split()] == row["solution"]
        for name in ("difficulty", "random_win_probability", "winnable_share"):
            assert cell[name] == ("" if row[name] is None else str(row[name]))
            assert row[name] is None or float(cell[name]) == row[name]
        for name in ("solution_count", "traps", "first_trap", "first_moves"):
            assert cell[name] == ("" if row[name] is None else str(row[name]))


def test_csv_has_a_level_column_after_difficulty_when_the_pack_has_levels(curated, tmp_path):
    path = tmp_path / "pack.csv"
    export_pack(curated, path, "csv")
    with path.open(newline="", encoding="utf-8") as source:
        rows = list(csv.DictReader(source))
    assert list(rows[0])[:5] == ["deal_id", "tier", "difficulty", "level", "verdict"]
    assert [int(row["level"]) for row in rows] == list(range(1, curated.num_rows + 1))


def test_tier_and_limit_keep_the_first_rows_of_one_tier_in_table_order(pack_rows, tmp_path):
    hard = [row["deal_id"] for row in pack_rows.to_pylist() if row["tier"] == "hard"]
    path = tmp_path / "hard.json"
    assert export_pack(pack_rows, path, "json", tier="hard", limit=2) == 2
    assert [deal["deal_id"] for deal in json.loads(path.read_text())["deals"]] == hard[:2]
    assert export_pack(pack_rows, path, "csv", tier="unsolvable") == 3
    assert export_pack(pack_rows, path, "boards", limit=0) == 0
    assert path.read_text() == ""


def test_null_and_ungraded_tiers_are_one_tier_exported_as_null(pack_rows, tmp_path):
    tiers = pack_rows.column("tier").to_pylist()
    tiers[0], tiers[1] = None, "ungraded"
    table = pack_rows.set_column(pack_rows.column_names.index("tier"), "tier", pa.array(tiers, pa.string()))
    path = tmp_path / "ungraded.json"
    assert export_pack(table, path, "json", tier="ungraded") == 2
    deals = json.loads(path.read_text())["deals"]
    assert [(deal["deal_id"], deal["tier"]) for deal in deals] == [("seed-77-0", None), ("seed-77-1", None)]


def test_an_empty_selection_is_still_a_json_document(pack_rows, tmp_path):
    assert json.loads(exported(pack_rows, tmp_path / "none.json", "json", tier="ungraded")) == {"deals": []}


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"fmt": "xml"}, "unknown export format 'xml'"),
        ({"fmt": "json", "tier": "impossible"}, "unknown tier 'impossible'"),
        ({"fmt": "csv", "limit": -1}, "limit must be at least 0"),
    ],
)
def test_bad_options_raise_value_errors(pack_rows, tmp_path, options, message):
    with pytest.raises(ExportError, match=message) as error:
        export_pack(pack_rows, tmp_path / "out", **options)
    assert isinstance(error.value, ValueError)
    assert not (tmp_path / "out").exists()


def test_a_missing_directory_is_a_destination_error(pack_rows, tmp_path):
    with pytest.raises(DestinationError, match="no directory"):
        export_pack(pack_rows, tmp_path / "absent" / "pack.json", "json")


def test_a_failed_export_leaves_the_old_file_alone(pack_rows, tmp_path):
    boards = pack_rows.column("board").to_pylist()
    boards[5] = boards[5].replace("Foundations: AS", "Foundations: KS")
    table = pack_rows.set_column(
        pack_rows.column_names.index("board"), "board", pa.array(boards, pa.string())
    )
    path = tmp_path / "pack.json"
    path.write_text("old\n")
    with pytest.raises(BoardError, match="seed-77-5"):
        export_pack(table, path, "json")
    assert path.read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pack.json"]


def test_a_solution_that_breaks_the_rules_is_named_by_deal_and_move(curated, tmp_path):
    solutions = curated.column("solution").to_pylist()
    solutions[2] = solutions[2][1:] + solutions[2][:1]
    table = curated.set_column(
        curated.column_names.index("solution"),
        "solution",
        pa.array(solutions, curated.field("solution").type),
    )
    deal_id = curated.column("deal_id")[2].as_py()
    with pytest.raises(IllegalMove, match=rf"^{deal_id}: move \d+: "):
        export_pack(table, tmp_path / "pack.json", "json")


def test_json_deals_say_what_each_player_meets_from_the_pack_s_columns(pack_rows, tmp_path):
    reference = Player(metadata(pack_rows)["difficulty_player"])
    deals = json.loads(exported(pack_rows, tmp_path / "all.json", "json"))["deals"]
    for deal, row in zip(deals, pack_rows.to_pylist(), strict=True):
        assert deal["reference_player"] == reference.value
        assert deal["first_trap"] == row["first_trap"]
        assert list(deal["players"]) == [player.value for player in PLAYERS]
        for player in PLAYERS:
            figures = deal["players"][player.value]
            chance = row[player.win_column]
            assert list(figures) == ["win_probability", "expected_attempts", "dead_ends", "win_chance"]
            # win_chance: the old key, written for one version more
            assert figures["win_probability"] == figures["win_chance"] == chance
            assert figures["dead_ends"] == row[player.dead_ends_column]
            assert figures["expected_attempts"] == (1 / chance if chance else None)
        assert deal["expected_attempts"] == deal["players"][reference.value]["expected_attempts"]
        assert deal["dead_ends"] == row[reference.dead_ends_column]
        if row["verdict"] == "solved":
            assert deal["expected_attempts"] > 1 and deal["dead_ends"] >= 0
        else:  # no win: no attempts to count, nor dead ends
            assert deal["expected_attempts"] is None and deal["dead_ends"] is None
            assert all(figures["win_probability"] == 0 for figures in deal["players"].values())


def test_json_of_a_table_without_the_grade_s_metadata_names_no_reference(pack_rows, tmp_path):
    table = pack_rows.replace_schema_metadata(None)
    [deal] = json.loads(exported(table, tmp_path / "one.json", "json", limit=1))["deals"]
    assert deal["reference_player"] is None
    assert deal["expected_attempts"] is None and deal["dead_ends"] is None
    assert deal["players"]["tips"]["win_probability"] == pack_rows.column("tips_win_probability")[0].as_py()


def test_csv_lists_every_player_s_columns_made_from_the_ladder(pack_rows, tmp_path):
    path = tmp_path / "pack.csv"
    export_pack(pack_rows, path, "csv")
    with path.open(newline="", encoding="utf-8") as source:
        rows = list(csv.DictReader(source))
    for player in PLAYERS:
        assert player.win_column in EXPORTED_METRICS and player.dead_ends_column in EXPORTED_METRICS
    for cell, row in zip(rows, pack_rows.to_pylist(), strict=True):
        for player in PLAYERS:
            for name in (player.win_column, player.dead_ends_column):
                assert cell[name] == ("" if row[name] is None else str(row[name]))
        assert cell["tree_score"] == ("" if row["tree_score"] is None else str(row["tree_score"]))


FORMULAS = ['=HYPERLINK("http://example.com","x")', "@SUM(1)", "+1", "-2", "\tx", "\rx", "plain-id", "a=b"]


def test_csv_puts_a_quote_before_a_text_cell_a_spreadsheet_would_run_and_leaves_numbers(pack_rows, tmp_path):
    table = pack_rows.slice(0, len(FORMULAS))
    table = table.set_column(table.column_names.index("deal_id"), "deal_id", pa.array(FORMULAS, pa.string()))
    difficulties = [-1.5, *table.column("difficulty").to_pylist()[1:]]  # a negative number is still a number
    table = table.set_column(
        table.column_names.index("difficulty"), "difficulty", pa.array(difficulties, pa.float64())
    )
    path = tmp_path / "pack.csv"
    export_pack(table, path, "csv")
    with path.open(newline="", encoding="utf-8") as source:
        rows = list(csv.DictReader(source))
    quoted = ["'" + deal_id for deal_id in FORMULAS[:6]]
    assert [row["deal_id"] for row in rows] == [*quoted, "plain-id", "a=b"]
    assert rows[0]["difficulty"] == "-1.5"
    for row, original in zip(rows, table.to_pylist(), strict=True):
        assert row["board"].startswith("Foundations: ")
        for name in ("difficulty", "traps", "solution_count", "random_win_probability"):
            assert row[name] == ("" if original[name] is None else str(original[name]))
    assert path.read_text(encoding="utf-8").count("'") == len(quoted)  # no other cell changed
    lines = path.read_bytes().split(b"\n")  # a header, a line a deal, and after the last newline nothing
    assert len(lines) == len(FORMULAS) + 2
