"""Packs of the family's other games: the ``game`` metadata written, read back, refused when unknown;
their rows checked by their game's rules; Black Hole packs exactly as before."""

from __future__ import annotations

import pickle
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from pipeline.game.deal import BoardError, Deal
from pipeline.game.games import BLACK_HOLE, GAMES, game_named
from pipeline.game.rules import replay
from pipeline.game.shuffles import PYSOL_SCHEME, pysol_deal, seeded_deal, seeded_scheme
from pipeline.packs.family import GAME_KEY, GameMixError, game_entries, pack_game, same_game
from pipeline.packs.parquet import deals_of, metadata, pack_file_game, read_pack_file
from pipeline.packs.rows import row_problem
from pipeline.packs.schema import IMPORT_SCHEME
from pipeline.packs.sources import DealSpan, imported_deals, pysol_deals, seeded_deals, write_deals
from pipeline.stages.settings import SolveSettings
from pipeline.stages.solve import solved_table

OTHERS = [game for game in GAMES if game is not BLACK_HOLE]
GOLF = game_named("golf")


@pytest.mark.parametrize("game", OTHERS, ids=lambda game: game.name)
def test_seeded_deals_of_a_game_say_it_and_its_scheme(game):
    table = seeded_deals(seed=1, count=3, game=game)
    assert metadata(table)[GAME_KEY] == game.name
    assert metadata(table)["dealing_scheme"] == seeded_scheme(game)
    assert pack_game(table, source="t") is game
    assert deals_of(table, source="t") == [seeded_deal(1, index, game) for index in range(3)]


@pytest.mark.parametrize("game", OTHERS, ids=lambda game: game.name)
def test_pysol_deals_of_a_game_are_pysol_fc_deals(game):
    table = pysol_deals(first=31_999, count=3, game=game)  # both generators
    assert metadata(table)[GAME_KEY] == game.name
    assert metadata(table)["dealing_scheme"] == PYSOL_SCHEME
    assert deals_of(table, source="t") == [pysol_deal(number, game) for number in (31_999, 32_000, 32_001)]


def test_a_black_hole_pack_has_no_game_entry():
    for table in (seeded_deals(seed=1, count=2), pysol_deals(first=1, count=2)):
        assert GAME_KEY not in metadata(table)
        assert pack_game(table, source="t") is BLACK_HOLE
    assert game_entries(BLACK_HOLE) == {}


def test_an_unknown_game_is_refused_in_one_line_naming_the_file(tmp_path):
    path = tmp_path / "p.parquet"
    table = seeded_deals(seed=1, count=2)
    pq.write_table(table.replace_schema_metadata(metadata(table) | {GAME_KEY: "klondike"}), path)
    with pytest.raises(GameMixError) as raised:
        pack_file_game(path)
    assert str(raised.value).startswith(f"{path}: unknown game 'klondike'")
    assert "\n" not in str(raised.value)
    with pytest.raises(GameMixError, match=r"unknown game 'klondike'"):
        deals_of(read_pack_file(path), source=str(path))


def test_games_are_never_mixed():
    assert same_game(GOLF, None, source="p") is GOLF
    assert same_game(GOLF, GOLF, source="p") is GOLF
    with pytest.raises(GameMixError, match=r"^p: a Golf pack, not All in a Row"):
        same_game(GOLF, game_named("all_in_a_row"), source="p")


def test_a_game_pickles_to_the_same_game():
    """Workers get spans and games by pickle: Black Hole must stay ``BLACK_HOLE`` there."""
    for game in GAMES:
        assert pickle.loads(pickle.dumps(game)) is game
    span = pickle.loads(pickle.dumps(DealSpan("seed", 1, 0, 2, GOLF)))
    assert span.game is GOLF and span.deals() == [seeded_deal(1, 0, GOLF), seeded_deal(1, 1, GOLF)]


def _golf_boards(path: Path, count: int = 3) -> Path:
    path.write_text("\n".join(seeded_deal(5, index, GOLF).to_board_text() for index in range(count)))
    return path


def test_an_import_of_golf_boards_says_golf(tmp_path):
    table = imported_deals(_golf_boards(tmp_path / "golf.txt"), GOLF)
    assert metadata(table)[GAME_KEY] == "golf" and metadata(table)["dealing_scheme"] == IMPORT_SCHEME
    assert deals_of(table, source="t") == [seeded_deal(5, index, GOLF) for index in range(3)]


def test_golf_boards_read_as_another_game_are_refused_naming_file_and_line(tmp_path):
    boards = _golf_boards(tmp_path / "golf.txt")
    with pytest.raises(BoardError) as raised:
        write_deals(tmp_path / "d.parquet", boards=boards, game=game_named("all_in_a_row"))
    assert str(raised.value).startswith(f"{boards}:1: a Talon line, but All in a Row has no talon")
    assert not (tmp_path / "d.parquet").exists()


def _solved_golf(count: int = 4) -> tuple[pa.Table, list[Deal]]:
    """A solved Golf table, its wins made by playing the referee's moves (no solver needed)."""
    from pipeline.engine.solver import solve

    table = seeded_deals(seed=1, count=count, game=GOLF)
    deals = deals_of(table, source="t")
    return solved_table(table, [solve(deal) for deal in deals], SolveSettings(max_nodes=1000)), deals


def test_the_rows_of_a_golf_pack_are_checked_by_golf_rules():
    table, deals = _solved_golf()
    assert row_problem(table, source="g.parquet") is None
    verdicts = table.column("verdict").to_pylist()
    won = verdicts.index("solved")
    assert table.column("max_cards_played")[won].as_py() == GOLF.pile_cards == 35
    replay(deals[won], table.column("solution")[won].as_py())
    solutions = table.column("solution").to_pylist()
    solutions[won] = list(reversed(solutions[won]))
    broken = table.set_column(
        table.column_names.index("solution"),
        "solution",
        pa.array(solutions, table.schema.field("solution").type),
    )
    problem = row_problem(broken, source="g.parquet")
    assert problem is not None and problem.startswith(
        f"g.parquet[{won}]: deal seed-1-{won}: the solution does not replay"
    )
    as_black_hole = table.replace_schema_metadata({k: v for k, v in metadata(table).items() if k != GAME_KEY})
    with pytest.raises(BoardError, match="a Talon line, as in Golf"):
        row_problem(as_black_hole.drop_columns(["max_cards_played"]), source="g.parquet")


@pytest.fixture(scope="module")
def golf_rows() -> pa.Table:
    """12 Golf deals of seed 5 through every stage: dealt, solved, a quarter cross-checked, graded."""
    from pipeline.packs.sources import deals_table
    from pipeline.stages.chain import StageSettings, outcome_table, process_span
    from pipeline.stages.settings import CrosscheckSettings, shipped_tiers
    from pipeline.stages.tiers import load_tiers

    span = DealSpan("seed", 5, 0, 12, GOLF)
    checks = CrosscheckSettings(sample=0.25, loss_sample=0.25)
    settings = StageSettings(crosscheck=checks, tiers=load_tiers(shipped_tiers(GOLF)))
    _, done, _ = process_span(0, span, settings)
    deals = deals_table(span, [board for board, _ in done])
    return outcome_table(deals, [outcome for _, outcome in done], settings, timings=False)


def test_a_pack_folder_of_another_game_is_read_as_that_game(tmp_path, golf_rows):
    """A run's folder of Golf deals records its game; every reader of folders deals its boards as Golf."""
    from pipeline import __version__
    from pipeline.packs.folders import find_deal, read_pack_folder, write_pack_folder
    from pipeline.packs.manifest import Origin
    from pipeline.stages.pack_entries import open_pack

    folder = tmp_path / "packs" / "g"
    origin = Origin("g", "pack", __version__, seeded_scheme(GOLF), game=GOLF.name)
    manifest = write_pack_folder(folder, [golf_rows], origin=origin, provenance=game_entries(GOLF))
    assert manifest.played is GOLF
    assert '"game": "golf"' in (folder / "_manifest.json").read_text()
    assert "published" not in manifest.to_dict()["win_rate"]  # no published win rate for Golf
    assert read_pack_folder(folder).num_rows == 12
    entries = list(open_pack(folder))
    assert {entry.deal.game for entry in entries} == {GOLF}
    assert any(entry.grade.solution_count for entry in entries)
    for entry in entries:
        if entry.result.solution:
            replay(entry.deal, entry.result.solution)
    assert find_deal(folder, "seed-5-3") == seeded_deal(5, 3, GOLF)
