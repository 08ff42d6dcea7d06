"""The gallery's folder, as Python writes it: its files, its data, its errors, its atomic replacement."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pyarrow as pa
import pytest
from typer.testing import CliRunner

from pipeline import __version__
from pipeline.cli import app
from pipeline.game.cards import card_name
from pipeline.game.deal import Deal
from pipeline.game.games import game_named
from pipeline.game.players import PLAYERS
from pipeline.game.rules import replay
from pipeline.game.shuffles import SEEDED_SCHEME
from pipeline.packs.folders import read_pack_folder, write_pack_folder
from pipeline.packs.manifest import Origin
from pipeline.packs.parquet import PackError, metadata
from pipeline.reports import gallery as site
from pipeline.reports.gallery import (
    ASSETS,
    COLUMNS,
    DATA,
    PAGE,
    PLAYER_COLUMNS,
    WORDS_MARK,
    WORDS_SCRIPT,
    GalleryError,
    write_gallery,
)
from pipeline.reports.words import WORDS_FILE


def data_of(folder: Path) -> dict:
    text = (folder / DATA).read_text(encoding="utf-8")
    prefix = f"window.{site.DATA_GLOBAL} = "
    assert text.startswith(prefix) and text.endswith(";\n")
    return json.loads(text[len(prefix) : -2])


def deals_of(folder: Path) -> list[dict]:
    data = data_of(folder)
    return [dict(zip(data["columns"], values, strict=True)) for values in data["deals"]]


def test_the_folder_holds_the_page_its_assets_and_the_deals(gallery):
    names = sorted(path.name for path in gallery.folder.iterdir())
    assert names == sorted([PAGE, DATA, *ASSETS])
    assert gallery.deals == 8
    assert gallery.size == sum(path.stat().st_size for path in gallery.folder.iterdir())
    page = (gallery.folder / PAGE).read_text(encoding="utf-8")
    assert "<title>Test pack" in page and "{{title}}" not in page
    for name in (DATA, *ASSETS):
        assert f'src="{name}"' in page or f'href="{name}"' in page


def test_deals_come_in_level_order_with_boards_and_solutions_that_replay(gallery, curated_pack):
    data = data_of(gallery.folder)
    assert data["columns"] == list(COLUMNS)
    assert data["title"] == "Test pack" and data["pack"] == "p-curated" and data["kind"] == "curated"
    provenance = metadata(read_pack_folder(curated_pack))
    assert data["difficulty"] == {
        "player": provenance["difficulty_player"],
        "figure": provenance["difficulty_figure"],
    }
    assert data["tiers"] == {name: float(provenance[f"tier_{name}"]) for name in ("medium", "hard", "expert")}
    assert data["tiers"]["medium"] < data["tiers"]["hard"] < data["tiers"]["expert"]
    assert [player["name"] for player in data["players"]] == [player.value for player in PLAYERS]
    for player, shown in zip(PLAYERS, data["players"], strict=True):
        assert shown == {
            "name": player.value,
            "words": player.words,
            "win_column": player.win_column,
            "dead_ends_column": player.dead_ends_column,
        }
        assert {player.win_column, player.dead_ends_column} <= set(data["columns"])
    assert "tree_score" in data["columns"] and len(set(data["columns"])) == len(data["columns"])
    table = read_pack_folder(curated_pack).sort_by("level")
    deals = deals_of(gallery.folder)
    assert [d["deal_id"] for d in deals] == table.column("deal_id").to_pylist()
    assert [d["level"] for d in deals] == list(range(1, 9))
    for deal, row in zip(deals, table.to_pylist(), strict=True):
        board = Deal.from_board_text(row["board"])
        names = re.findall("..", deal["cards"])
        assert [names[pile * 3 : pile * 3 + 3] for pile in range(17)] == [
            [f"{'A23456789TJQK'[c >> 2]}{'HCDS'[c & 3]}" for c in pile] for pile in board.piles
        ]
        assert replay(board, deal["solution"]).is_won
        assert deal["tier"] == row["tier"] and deal["traps"] == row["traps"]
        assert deal["solution_count"] == str(row["solution_count"])  # a decimal string: counts pass 2**53
        for column in (*PLAYER_COLUMNS, "tree_score", "difficulty"):
            assert deal[column] == row[column], column


def test_a_black_hole_gallery_names_no_game(gallery):
    assert "game" not in data_of(gallery.folder)  # the bytes it was before the family came


@pytest.mark.parametrize("name", ["golf", "all_in_a_row"])
def test_a_gallery_of_another_game_names_it_and_lists_each_deals_52_cards(name, request):
    gallery, pack = request.getfixturevalue(f"{name}_gallery"), request.getfixturevalue(f"{name}_pack")
    data = data_of(gallery.folder)
    assert list(data)[:5] == ["title", "pack", "kind", "game", "build"] and data["game"] == name
    game = game_named(name)
    rows = {row["deal_id"]: row for row in read_pack_folder(pack).to_pylist()}
    for deal in deals_of(gallery.folder):
        dealt = Deal.from_board_text(rows[deal["deal_id"]]["board"], game=game)
        assert (
            deal["cards"] == "".join(card_name(card) for card in dealt.cards())
            and len(deal["cards"]) == 2 * 52
        )
        replay(dealt, deal["solution"])
    assert gallery.deals == len(rows)


def test_a_pack_that_is_not_curated_keeps_pack_order_and_shows_every_tier(pack, pack_rows, tmp_path):
    made = write_gallery(pack, tmp_path / "g")
    deals = deals_of(made.folder)
    assert made.deals == pack_rows.num_rows == len(deals)
    assert {d["level"] for d in deals} == {None}
    assert sum(d["tier"] == "unsolvable" for d in deals) == 3
    assert all(d["solution"] == [] for d in deals if d["verdict"] != "solved")
    assert data_of(made.folder)["title"] == "p"  # the pack's name by default


def test_tier_and_limit_pick_the_deals(pack, tmp_path):
    unsolvable = write_gallery(pack, tmp_path / "u", tier="unsolvable")
    assert {d["tier"] for d in deals_of(unsolvable.folder)} == {"unsolvable"} and unsolvable.deals == 3
    assert write_gallery(pack, tmp_path / "two", limit=2).deals == 2


@pytest.mark.parametrize(
    ("options", "pattern"),
    [
        ({"tier": "impossible"}, "unknown tier 'impossible'"),
        ({"limit": 0}, "limit must be at least 1"),
        ({"tier": "unsolvable"}, "no deals of tier 'unsolvable'"),
    ],
)
def test_a_bad_selection_is_an_error_and_writes_nothing(curated_pack, tmp_path, options, pattern):
    with pytest.raises(GalleryError, match=pattern):
        write_gallery(curated_pack, tmp_path / "g", **options)
    assert list(tmp_path.iterdir()) == []


def test_a_missing_pack_is_a_pack_error(tmp_path):
    with pytest.raises(PackError, match="no such pack folder"):
        write_gallery(tmp_path / "nothing", tmp_path / "g")
    assert list(tmp_path.iterdir()) == []


def test_a_solution_the_rules_refuse_names_the_deal(pack_rows, tmp_path):
    rows = pack_rows.to_pylist()
    solved = next(row for row in rows if row["verdict"] == "solved")
    solved["solution"] = list(reversed(solved["solution"]))
    folder = tmp_path / "bad"
    table = pa.Table.from_pylist(rows, schema=pack_rows.schema)
    write_pack_folder(
        folder, [table], origin=Origin("bad", "pack", __version__, SEEDED_SCHEME), provenance={}
    )
    # the pack's reader replays every solution before the gallery sees one
    with pytest.raises(PackError, match=rf"\]: deal {solved['deal_id']}: the solution does not replay"):
        write_gallery(folder, tmp_path / "g")
    assert not (tmp_path / "g").exists()


def test_the_same_pack_gives_the_same_bytes(curated_pack, tmp_path):
    first, second = write_gallery(curated_pack, tmp_path / "a"), write_gallery(curated_pack, tmp_path / "b")
    for path in first.folder.iterdir():
        assert path.read_bytes() == (second.folder / path.name).read_bytes(), path.name


def test_the_build_id_is_the_hash_of_the_deals_without_it(gallery):
    text = (gallery.folder / DATA).read_text(encoding="utf-8")
    data = data_of(gallery.folder)
    build = data.pop("build")
    assert re.fullmatch(r"[0-9a-f]{16}", build)
    assert build == hashlib.sha256(site.data_script(data).encode("utf-8")).hexdigest()[:16]
    assert text.startswith(
        f'window.{site.DATA_GLOBAL} = {{"title": "Test pack", "pack": "p-curated", "kind": "curated", "build": "{build}", '
    )


def test_the_build_id_changes_with_a_deal_and_only_then(curated_pack):
    table = read_pack_folder(curated_pack)
    rows = table.to_pylist()

    def build(rows: list[dict], title: str = "t") -> str:
        return site.gallery_data(rows, table, title=title, pack="p", kind="curated")["build"]

    assert build(rows) == build(table.to_pylist())  # the same deals, the same id
    changed = [dict(row) for row in rows]
    changed[3]["difficulty"] = (changed[3]["difficulty"] or 0) + 1
    assert build(changed) != build(rows)
    assert build(rows[:-1]) != build(rows)  # one deal fewer
    assert build(rows, title="u") != build(rows)  # what the page shows beside the deals counts too


def test_missing_parent_folders_are_made(curated_pack, tmp_path):
    assert write_gallery(curated_pack, tmp_path / "output" / "gallery" / "g", limit=1).deals == 1


def test_a_rerun_replaces_the_folder_whole(curated_pack, tmp_path):
    target = tmp_path / "g"
    write_gallery(curated_pack, target, limit=3)
    (target / "stale.txt").write_text("from before")
    write_gallery(curated_pack, target, limit=1)
    assert not (target / "stale.txt").exists() and len(deals_of(target)) == 1
    assert sorted(path.name for path in tmp_path.iterdir()) == ["g"]  # no staging or retired folder left


def test_an_error_while_writing_leaves_the_old_gallery(curated_pack, tmp_path, monkeypatch):
    target = tmp_path / "g"
    write_gallery(curated_pack, target, limit=3)
    before = {path.name: path.read_bytes() for path in target.iterdir()}

    def broken(data):
        raise KeyboardInterrupt

    monkeypatch.setattr(site, "data_script", broken)
    with pytest.raises(KeyboardInterrupt):
        write_gallery(curated_pack, target)
    assert {path.name: path.read_bytes() for path in target.iterdir()} == before
    assert sorted(path.name for path in tmp_path.iterdir()) == ["g"]


def test_a_folder_that_is_not_a_gallery_is_never_replaced(curated_pack, tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(GalleryError, match="exists and is not a folder"):
        write_gallery(curated_pack, tmp_path / "notes.txt")
    with pytest.raises(GalleryError, match="a folder that is not a gallery"):
        write_gallery(curated_pack, curated_pack.parent)  # a typo away from wiping the packs
    assert (tmp_path / "notes.txt").read_text() == "mine" and (curated_pack / "_manifest.json").is_file()
    (tmp_path / "empty").mkdir()
    assert write_gallery(curated_pack, tmp_path / "empty", limit=1).deals == 1


def test_a_title_is_escaped_in_the_page(curated_pack, tmp_path):
    made = write_gallery(curated_pack, tmp_path / "g", title='<b>"Hard" & co</b>')
    page = (made.folder / PAGE).read_text(encoding="utf-8")
    assert "&lt;b&gt;&quot;Hard&quot; &amp; co&lt;/b&gt;" in page and "<b>" not in page
    assert data_of(made.folder)["title"] == '<b>"Hard" & co</b>'


def test_the_site_asks_for_nothing_off_disk():
    for name in (PAGE, *ASSETS):
        text = (site.SITE / name).read_text(encoding="utf-8")
        assert not re.search(r"https?://(?!www\.w3\.org/2000/svg)", text), name
        assert "fetch(" not in text and "XMLHttpRequest" not in text and "@import" not in text, name


def test_the_command_writes_the_gallery_and_says_where(curated_pack, tmp_path):
    result = CliRunner().invoke(
        app,
        ["gallery", str(curated_pack), "--out", str(tmp_path / "g"), "--tier", "easy", "--limit", "1"],
    )
    assert result.exit_code == 0, result.output
    assert "wrote a gallery of 1 deal to" in result.stderr and "index.html" in result.stderr
    assert [d["tier"] for d in deals_of(tmp_path / "g")] == ["easy"]


@pytest.mark.parametrize(
    ("args", "pattern"),
    [
        (["--tier", "unsolvable"], "no deals of tier 'unsolvable'"),
        (["--limit", "1", "--tier", "ungraded"], "no deals of tier 'ungraded'"),
    ],
)
def test_the_command_refuses_bad_input_in_one_line(curated_pack, tmp_path, args, pattern):
    result = CliRunner().invoke(app, ["gallery", str(curated_pack), "--out", str(tmp_path / "g"), *args])
    assert result.exit_code == 1
    [line] = result.stderr.splitlines()
    assert line.startswith("error: ") and pattern in line
    assert not (tmp_path / "g").exists()


def test_the_command_names_a_missing_pack(tmp_path):
    result = CliRunner().invoke(app, ["gallery", str(tmp_path / "none"), "--out", str(tmp_path / "g")])
    assert result.exit_code == 1
    [line] = result.stderr.splitlines()
    assert line.startswith("error: ") and "none" in line


def test_the_words_script_carries_the_words_table_the_reports_read(gallery):
    """The gallery's words.js is the site's with words.json written in, so the page says what the reports say."""
    written = (gallery.folder / WORDS_SCRIPT).read_text(encoding="utf-8")
    source = (site.SITE / WORDS_SCRIPT).read_text(encoding="utf-8")
    assert source.count(WORDS_MARK) == 1 and WORDS_MARK not in written
    assert written == source.replace(WORDS_MARK, WORDS_FILE.read_text(encoding="utf-8").strip())
