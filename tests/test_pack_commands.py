"""The commands that read a pack folder: curate, export, report, show."""

from __future__ import annotations

import csv
import json
import struct
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.game.deal import Deal
from pipeline.game.players import PLAYERS, Player
from pipeline.game.rules import replay
from pipeline.game.shuffles import seeded_deal
from pipeline.packs.folders import read_pack_folder
from pipeline.packs.manifest import read_manifest
from pipeline.packs.parquet import metadata
from pipeline.reports import charts
from pipeline.reports import picture as drawing


def invoke(*args):
    return CliRunner().invoke(app, [str(arg) for arg in args])


def ok(*args):
    result = invoke(*args)
    assert result.exit_code == 0, result.output
    return result


def fails(*args, pattern: str):
    result = invoke(*args)
    assert result.exit_code == 1, result.output
    [line] = result.stderr.splitlines()
    assert line.startswith("error: ") and pattern in line, line
    return result


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_curate_writes_a_curated_pack_beside_the_pack(pack):
    result = ok("curate", pack, "--out", "best", "--per-tier", "easy=1,medium=2,expert=9")
    best = pack.parent / "best"
    manifest = read_manifest(best)
    assert manifest.kind == "curated" and manifest.origin.curated_from == "p"
    experts = read_manifest(pack).tiers["expert"]
    assert 0 < experts < 9 and read_manifest(pack).tiers["medium"] >= 2  # so that only expert falls short
    assert {t: n for t, n in manifest.tiers.items() if n} == {"easy": 1, "medium": 2, "expert": experts}
    assert manifest.origin.curation.shortfalls == {"expert": (9, experts)}
    assert f"warning: tier expert wants 9 deals, the pack has {experts}" in result.stderr
    table = read_pack_folder(best).sort_by("level")
    difficulties = table.column("difficulty").to_pylist()
    assert difficulties == sorted(difficulties)
    assert table.column("level").to_pylist() == list(range(1, 3 + experts + 1))


@pytest.mark.parametrize(
    ("args", "pattern"),
    [
        (["--out", "a/b"], "expected a pack name, not a path"),
        (["--out", "p"], "would replace the pack it curates"),
        (["--out", "x", "--per-tier", "easy=two"], "'easy=two'"),
        (["--out", "x", "--per-tier", "unsolvable=1"], "unknown tier 'unsolvable'"),
    ],
)
def test_curate_refuses_bad_options_and_writes_nothing(pack, args, pattern):
    before = sorted(p.name for p in pack.parent.iterdir())
    fails("curate", pack, *args, pattern=pattern)
    assert sorted(p.name for p in pack.parent.iterdir()) == before


def test_a_folder_that_is_not_a_pack_is_one_line(tmp_path):
    fails("export", tmp_path / "none", "--format", "csv", "--out", tmp_path / "x.csv", pattern="no such pack")
    fails("report", tmp_path, pattern="not a pack folder (no _manifest.json)")


def test_export_json_gives_deals_whose_solutions_replay(pack, pack_rows, tmp_path):
    out = tmp_path / "deals.json"
    ok("export", pack, "--format", "json", "--out", out, "--tier", "hard")
    deals = json.loads(out.read_text())["deals"]
    assert len(deals) == pack_rows.column("tier").to_pylist().count("hard") > 0
    for document in deals:
        assert document["tier"] == "hard" and len(document["piles"]) == 17
        replay(Deal.from_board_text(document["board"]), document["solution"])


def test_export_json_has_the_reference_player_s_figures_from_the_pack_s_metadata(pack, pack_rows, tmp_path):
    out = tmp_path / "deals.json"
    ok("export", pack, "--format", "json", "--out", out)
    reference = Player(metadata(pack_rows)["difficulty_player"])
    rows = {row["deal_id"]: row for row in pack_rows.to_pylist()}
    for document in json.loads(out.read_text())["deals"]:
        row = rows[document["deal_id"]]
        assert document["reference_player"] == reference.value
        assert document["dead_ends"] == row[reference.dead_ends_column]
        chance = row[reference.win_column]
        assert document["expected_attempts"] == (1 / chance if chance else None)
        assert document["players"]["random"]["win_probability"] == row["random_win_probability"]
        assert document["first_trap"] == row["first_trap"]


def test_export_boards_reads_back_with_import(pack, tmp_path):
    boards, imported = tmp_path / "deals.txt", tmp_path / "imported.parquet"
    ok("export", pack, "--format", "boards", "--out", boards, "--limit", 4)
    ok("import", boards, "--out", imported)
    exported = read_pack_folder(pack).column("board").to_pylist()[:4]
    assert pq.read_table(imported).column("board").to_pylist() == exported


def test_export_csv_has_a_header_and_a_row_per_deal(pack, tmp_path):
    out = tmp_path / "deals.csv"
    ok("export", pack, "--format", "csv", "--out", out)
    with open(out, newline="") as file:
        rows = list(csv.DictReader(file))
    assert len(rows) == 20 and {"deal_id", "tier", "difficulty", "solution"} <= set(rows[0])


def test_export_of_an_unknown_tier_is_a_usage_error(pack, tmp_path):
    """--tier takes the pack's tiers only, as --help lists them: anything else is a wrong command line."""
    result = invoke("export", pack, "--format", "csv", "--out", tmp_path / "x.csv", "--tier", "epic")
    assert result.exit_code == 2 and "'epic' is not one of 'easy'" in result.stderr, result.output
    assert not (tmp_path / "x.csv").exists()


def test_report_prints_the_summary_and_draws_the_charts(pack, tmp_path):
    result = ok("report", pack, "--charts", tmp_path / "charts")
    assert "86.94%" in result.stdout and "inside the interval" in result.stdout
    assert "unsolvable" in result.stdout and "difficulty" in result.stdout
    for name in (
        "difficulty.png",
        "solutions-vs-odds.png",
        "win-chance-by-tier.png",
        "win-rate-by-block.png",
    ):
        assert png_size(tmp_path / "charts" / name) == (charts.WIDTH, charts.HEIGHT)
        assert str(tmp_path / "charts" / name) in " ".join(result.stderr.split())


def test_report_says_what_each_player_meets_in_words(pack, tmp_path):
    wide = CliRunner().invoke(
        app, ["report", str(pack), "--charts", str(tmp_path / "charts")], env={"COLUMNS": "200"}
    )
    assert wide.exit_code == 0, wide.output
    text = " ".join(wide.stdout.split())
    for player in PLAYERS:
        assert player.words in text
    assert "about 1 game in" in text and "dead ends" in text and "Tier expert: what each player meets" in text
    assert "log10" not in text and "log" not in text


def test_report_charts_default_to_output_reports(pack):
    ok("report", pack, "--quiet")
    assert png_size(pack.parent.parent / "reports" / "p" / "difficulty.png") == (charts.WIDTH, charts.HEIGHT)


def test_show_draws_a_seeded_deal_and_prints_its_board(tmp_path):
    result = ok("show", "seed-20261129-3", "--png", tmp_path / "deal.png")
    assert result.stdout == seeded_deal(20261129, 3).to_board_text()
    assert png_size(tmp_path / "deal.png") == (drawing.WIDTH, drawing.HEIGHT)


def test_show_looks_a_deal_up_in_a_pack(pack, pack_rows, tmp_path):
    board = pack_rows.column("board")[7].as_py()
    result = ok("show", pack_rows.column("deal_id")[7].as_py(), "--pack", pack, "--png", tmp_path / "d.png")
    assert result.stdout == board
    fails("show", "seed-77-999", "--pack", pack, "--png", tmp_path / "e.png", pattern="no deal 'seed-77-999'")
    fails("show", "import-0123", "--png", tmp_path / "e.png", pattern="give --pack")
    assert not (tmp_path / "e.png").exists()
