"""Charts of a pack: real PNGs of the fixed size, not blank, the same bytes for the same table, atomic writes."""

from __future__ import annotations

import matplotlib
import matplotlib.colors
import matplotlib.image
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pytest

from pipeline.files import DestinationError
from pipeline.game.players import PLAYERS
from pipeline.reports.charts import (
    HEIGHT,
    PLAYER_COLOURS,
    THRESHOLD_COLOUR,
    TIER_COLOURS,
    WIDTH,
    chart_paths,
    difficulty_histogram,
    difficulty_label,
    png_figure,
    solutions_vs_odds,
    win_chance_by_tier,
    win_rate_by_block,
)
from pipeline.stages.tiers import load_tiers
from pipeline.tally import BlockCounts, PackTally, block_counts
from tests.conftest import TIERS_FILE

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def histogram(table: pa.Table, path) -> None:
    difficulty_histogram(PackTally.of([table]), path)


def scatter(table: pa.Table, path) -> None:
    solutions_vs_odds(PackTally.of([table]), path)


def win_chances(table: pa.Table, path) -> None:
    win_chance_by_tier(PackTally.of([table]), path)


def win_rates(table: pa.Table, path, *, block: int = 10_000) -> None:
    win_rate_by_block(BlockCounts.of(table, block), path)


CHARTS = [histogram, scatter, win_chances, win_rates]  # each chart drawn from a whole table


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk (which must come first)."""
    assert data[:8] == PNG_SIGNATURE and data[12:16] == b"IHDR"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def pixels(path) -> np.ndarray:
    """The decoded image as an (rows, columns, 3) array of 0..255 RGB."""
    image = matplotlib.image.imread(path)
    return np.round(image[..., :3] * 255).astype(np.uint8)


def colour_count(image: np.ndarray) -> int:
    """How many distinct RGB colours ``image`` holds."""
    packed = image.astype(np.uint32)
    return len(np.unique(packed[..., 0] << 16 | packed[..., 1] << 8 | packed[..., 2]))


def has_colour(image: np.ndarray, colour: str) -> bool:
    rgb = np.round(np.array(matplotlib.colors.to_rgb(colour)) * 255).astype(np.uint8)
    return bool(np.all(image == rgb, axis=-1).any())


@pytest.mark.parametrize("chart", CHARTS)
def test_a_chart_is_a_png_of_the_fixed_size_with_something_drawn(pack_rows, tmp_path, chart):
    path = tmp_path / "chart.png"
    chart(pack_rows, path)
    data = path.read_bytes()
    assert png_size(data) == (WIDTH, HEIGHT)
    assert b"tEXt" not in data and b"matplotlib" not in data  # nothing that names the software version
    image = pixels(path)
    assert image.shape == (HEIGHT, WIDTH, 3)
    assert colour_count(image) > 10


def test_the_histogram_gives_every_tier_its_colour(pack_rows, tmp_path):
    path = tmp_path / "difficulty.png"
    histogram(pack_rows, path)
    image = pixels(path)
    for tier in ("easy", "medium", "hard", "expert"):
        assert has_colour(image, TIER_COLOURS[tier]), tier


@pytest.mark.parametrize("chart", CHARTS)
def test_the_same_table_gives_the_same_bytes_whatever_the_rc_settings(pack_rows, tmp_path, chart):
    chart(pack_rows, tmp_path / "first.png")
    with matplotlib.rc_context({"axes.facecolor": "black", "font.size": 22, "lines.linewidth": 6}):
        chart(pack_rows, tmp_path / "second.png")
        assert matplotlib.rcParams["font.size"] == 22  # the chart's own style did not leak out
    assert (tmp_path / "first.png").read_bytes() == (tmp_path / "second.png").read_bytes()


@pytest.mark.parametrize("chart", CHARTS)
def test_other_data_gives_other_bytes(pack_rows, tmp_path, chart):
    chart(pack_rows, tmp_path / "all.png")
    chart(pack_rows.slice(0, pack_rows.num_rows // 2), tmp_path / "half.png")
    assert (tmp_path / "all.png").read_bytes() != (tmp_path / "half.png").read_bytes()


@pytest.mark.parametrize("chart", CHARTS)
@pytest.mark.parametrize("selection", ["empty", "unsolvable"])
def test_nothing_to_plot_still_gives_a_valid_chart(pack_rows, tmp_path, chart, selection):
    if selection == "empty":
        table = pack_rows.slice(0, 0)
    else:
        table = pack_rows.filter(pc.equal(pack_rows["verdict"], "unsolvable"))
    path = tmp_path / "empty.png"
    chart(table, path)
    assert png_size(path.read_bytes()) == (WIDTH, HEIGHT)
    assert colour_count(pixels(path)) > 2  # axes and the note


def test_a_missing_directory_is_a_destination_error_before_drawing(pack_rows, tmp_path):
    with pytest.raises(DestinationError, match="no directory"):
        histogram(pack_rows, tmp_path / "absent" / "chart.png")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("chart", CHARTS)
def test_a_failed_save_leaves_no_file_behind(pack_rows, tmp_path, chart, failing_rename):
    target = tmp_path / "chart.png"
    target.mkdir()  # refused before drawing: a folder is never replaced
    with pytest.raises(DestinationError, match="not a regular file"):
        chart(pack_rows, target)
    assert [p.name for p in tmp_path.iterdir()] == ["chart.png"]
    assert target.is_dir() and list(target.iterdir()) == []
    target.rmdir()  # now the PNG is written, then cannot be renamed (failing_rename)
    with pytest.raises(OSError, match="rename failed"):
        chart(pack_rows, target)
    assert list(tmp_path.iterdir()) == []


def test_a_failed_drawing_keeps_the_old_file(tmp_path):
    target = tmp_path / "chart.png"
    target.write_bytes(b"old chart")
    with pytest.raises(RuntimeError), png_figure(target) as figure:
        figure.add_subplot().plot([1, 2], [3, 4])
        raise RuntimeError("drawing failed")
    assert target.read_bytes() == b"old chart"
    assert [p.name for p in tmp_path.iterdir()] == ["chart.png"]


def test_the_win_rate_chart_has_a_point_per_block(pack_rows, tmp_path):
    """Blocks of 5 deals: 4 points; blocks of 100: 1. The lines differ, and each chart draws its band."""
    win_rates(pack_rows, tmp_path / "five.png", block=5)
    win_rates(pack_rows, tmp_path / "hundred.png", block=100)
    assert (tmp_path / "five.png").read_bytes() != (tmp_path / "hundred.png").read_bytes()
    assert has_colour(pixels(tmp_path / "five.png"), "#e41a1c")  # the published rate
    blocks, wins, decided = block_counts(pack_rows, 5)
    verdicts = pack_rows.column("verdict").to_pylist()
    assert blocks.tolist() == [0, 1, 2, 3] and decided.tolist() == [5, 5, 5, 5]
    assert wins.tolist() == [sum(v == "solved" for v in verdicts[k * 5 : k * 5 + 5]) for k in range(4)]


def test_blocks_count_from_the_first_deal_so_a_pysol_census_has_no_stray_last_block():
    numbered = pa.table({"index": list(range(1, 21)), "verdict": ["solved"] * 19 + ["unsolvable"]})
    blocks, wins, decided = block_counts(numbered, 10)
    assert blocks.tolist() == [0, 1] and wins.tolist() == [10, 9] and decided.tolist() == [10, 10]


def test_the_win_chance_chart_gives_every_player_its_colour(pack_rows, tmp_path):
    path = tmp_path / "win-chance-by-tier.png"
    win_chances(pack_rows, path)
    assert path.stat().st_size > 0 and png_size(path.read_bytes()) == (WIDTH, HEIGHT)
    image = pixels(path)
    assert set(PLAYER_COLOURS) == set(PLAYERS)
    for player in PLAYERS:
        assert has_colour(image, PLAYER_COLOURS[player]), player


def test_the_win_chance_chart_is_one_of_the_pack_s_charts(tmp_path):
    assert [path.name for path in chart_paths(tmp_path)] == [
        "difficulty.png",
        "solutions-vs-odds.png",
        "win-chance-by-tier.png",
        "win-rate-by-block.png",
    ]


def test_the_histogram_counts_the_difficulty_in_the_pack_s_units_with_its_thresholds(pack_rows, tmp_path):
    tiers = load_tiers(TIERS_FILE)
    assert PackTally.of([pack_rows]).thresholds == tiers
    assert difficulty_label(tiers) == (
        f"{'dead ends' if tiers.difficulty.figure.value == 'dead_ends' else 'attempts'} of "
        f"{tiers.difficulty.player.value}, {'with' if tiers.difficulty.figure.value == 'dead_ends' else 'without'} undo"
    )
    histogram(pack_rows, tmp_path / "graded.png")
    assert has_colour(pixels(tmp_path / "graded.png"), THRESHOLD_COLOUR)  # the thresholds drawn across
    histogram(pack_rows.replace_schema_metadata(None), tmp_path / "unknown.png")  # no reference to draw
    assert not has_colour(pixels(tmp_path / "unknown.png"), THRESHOLD_COLOUR)
