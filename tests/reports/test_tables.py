"""The terminal tables' titles and lines, as the commands print them."""

from __future__ import annotations

from types import SimpleNamespace

from pipeline.config import RunConfig
from pipeline.game.players import Player
from pipeline.packs.labels import GradeStatus
from pipeline.reports.tables import (
    STATUS_LABELS,
    manifest_table,
    run_title,
    thresholds_line,
    tier_meaning_lines,
)
from pipeline.stages.tiers import Difficulty, Figure, Tiers


def test_a_run_title_names_its_deals_by_their_source():
    outcome = SimpleNamespace(seconds=12.34)
    seeded = RunConfig(name="d", count=1000, seed=7)
    census = RunConfig(name="c", count=1_000_000, source="pysol", first=1)
    assert run_title(seeded, outcome) == "Run d: seed 7, 1000 deals, 12.3 s"
    assert run_title(census, outcome) == "Run c: PySol FC deals 1 to 1,000,000, 12.3 s"


def test_every_grade_status_has_a_label():
    assert set(STATUS_LABELS) == {status.value for status in GradeStatus}


def test_the_tiers_are_said_in_the_reference_player_s_words():
    reference = Difficulty(Player.LOOKAHEAD_2, Figure.DEAD_ENDS)
    lines = tier_meaning_lines(Tiers(3, 8, 20, reference))
    assert lines[0] == "what the tiers mean, on average:"
    assert lines[1] == (
        "  easy: fewer than 3 dead ends for a player who follows the tips and looks 2 moves ahead, with undo"
    )
    assert [line.split(":")[0].strip() for line in lines[1:]] == [
        "easy",
        "medium",
        "hard",
        "expert",
        "unsolvable",
    ]
    assert tier_meaning_lines(None) == []
    assert thresholds_line(Tiers(3, 8, 20, reference)) == (
        "thresholds (dead ends of lookahead-2, with undo): medium 3, hard 8, expert 20"
    )
    attempts = Tiers(200, 600, 2000, Difficulty(Player.TIPS, Figure.ATTEMPTS))
    assert (
        thresholds_line(attempts)
        == "thresholds (attempts of tips, without undo): medium 200, hard 600, expert 2000"
    )


def _rendered(table) -> str:
    from rich.console import Console

    console = Console(width=200, record=True)
    console.print(table)
    return console.export_text()


def test_a_curated_pack_s_win_rate_is_said_to_be_chosen_wins_and_compared_with_nothing():
    from tests.packs.test_manifest import CURATED, PACK

    assert CURATED.win_rate.published_inside is True  # as format 1 wrote it: it must not be repeated
    curated = _rendered(manifest_table("curated", CURATED))
    assert "100.00%: chosen wins, not a sample of the game's deals" in curated
    assert "published" not in curated and "interval" not in curated
    pack = _rendered(manifest_table("pack", PACK))
    assert "published (PySol FC)" in pack and "86.94%, inside the interval" in pack


def _printed(renderable, width: int) -> str:
    from rich.console import Console

    console = Console(width=width, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_a_split_table_never_cuts_its_key_and_repeats_it_in_every_part():
    from pipeline.reports.split_tables import Column, SplitTable

    keys = ["seed-20261129-123456", "pysol-1", "seed-20261129-9"]
    rows = [[key, *(f"{n} of 8, 38 % [14 %, 69 %]" for n in range(6)), "a note [red]kept"] for key in keys]
    columns = [Column("deal"), *(Column(f"figure {n}", "right") for n in range(6)), Column("note")]
    table = SplitTable("Deals", columns, rows, caption="the caption")
    for width in (40, 60, 80, 140, 300):
        text = _printed(table, width)
        lines = text.splitlines()
        assert max(map(len, lines)) <= width
        parts = len(table.groups(width))
        assert sum(line.startswith("┃ deal ") for line in lines) == parts
        for key in keys:
            assert sum(line.startswith(f"│ {key} ") for line in lines) == parts, (width, key)
        assert "…" not in text
        assert text.count("the caption") == 1 and text.rstrip().endswith("the caption")
        assert all(f"figure {n}" in text for n in range(6)) and "[red]kept" in text  # markup shown as written
    assert len(table.groups(300)) == 1 and len(table.groups(60)) > 2
    assert "Deals, continued (2 of" in _printed(table, 60)
