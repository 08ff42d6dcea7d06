"""Describing a pack: counts checked against pyarrow.compute, quartiles against numpy, the rendered tables."""

from __future__ import annotations

import io
import re

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pytest
from rich.console import Console

from pipeline.game.players import PLAYERS
from pipeline.game.stats import win_rate
from pipeline.packs.labels import PACK_TIERS, SOLVABLE_TIERS
from pipeline.packs.parquet import metadata
from pipeline.reports.summary import METRIC_WORDS, report_tables
from pipeline.reports.words import chance_words, dead_ends_words, figure_label, tier_meanings
from pipeline.stages.tiers import Tiers, load_tiers
from pipeline.tally import SPREAD_METRICS, STATUSES, TALLIED_METRICS, VERDICTS, describe_pack
from tests.conftest import TIERS_FILE


def count(table: pa.Table, column: str, value: str) -> int:
    return pc.sum(pc.equal(table.column(column), value)).as_py() or 0


def replaced(table: pa.Table, column: str, values: list) -> pa.Table:
    """``table`` with ``column`` holding ``values`` instead (same type)."""
    index = table.schema.get_field_index(column)
    return table.set_column(
        index, table.schema.field(index), pa.array(values, table.schema.field(index).type)
    )


def rendered(tables) -> str:
    console = Console(file=io.StringIO(), width=160, color_system=None)
    for table in tables:
        console.print(table)
    return console.file.getvalue()


def test_counts_match_the_columns_with_every_name_listed_in_order(pack_rows):
    description = describe_pack(pack_rows)
    assert description.total == pack_rows.num_rows
    assert list(description.verdicts) == list(VERDICTS) == ["solved", "unsolvable", "unknown"]
    assert description.verdicts == {v: count(pack_rows, "verdict", v) for v in VERDICTS}
    assert description.statuses == {s: count(pack_rows, "grade_status", s) for s in STATUSES}
    assert list(description.tiers) == ["easy", "medium", "hard", "expert", "unsolvable", "ungraded"]
    for tier in PACK_TIERS[:-1]:
        assert description.tiers[tier] == count(pack_rows, "tier", tier)
    assert description.tiers["ungraded"] == pack_rows.column("tier").null_count
    assert description.verdicts["unsolvable"] == 3 and description.verdicts["unknown"] == 0
    for counts in (description.verdicts, description.tiers, description.statuses):
        assert sum(counts.values()) == pack_rows.num_rows


def test_win_rate_is_the_stats_win_rate_of_the_verdict_counts(pack_rows):
    expected = win_rate(
        solved=count(pack_rows, "verdict", "solved"),
        unsolvable=count(pack_rows, "verdict", "unsolvable"),
        unknown=count(pack_rows, "verdict", "unknown"),
    )
    assert describe_pack(pack_rows).win_rate == expected


@pytest.mark.parametrize("metric", SPREAD_METRICS)
def test_quartiles_match_numpy_on_the_solvable_exact_rows(pack_rows, metric):
    mask = pc.and_(pc.equal(pack_rows["verdict"], "solved"), pc.equal(pack_rows["grade_status"], "exact"))
    values = np.array(pack_rows.filter(mask).column(metric).drop_null().to_pylist(), dtype=float)
    assert len(values) > 4
    spread = describe_pack(pack_rows).metrics[metric]
    assert spread.count == len(values)
    assert spread.minimum == values.min() and spread.maximum == values.max()
    q1, median, q3 = np.percentile(values, [25, 50, 75])
    assert (spread.q1, spread.median, spread.q3) == pytest.approx((q1, median, q3), rel=1e-12)


def test_metrics_leave_out_unsolvable_and_inexact_rows(pack_rows):
    solved_rows = pc.equal(pack_rows["verdict"], "solved").to_pylist()
    first_solved = solved_rows.index(True)
    statuses = pack_rows.column("grade_status").to_pylist()
    statuses[first_solved] = "out_of_budget"
    description = describe_pack(replaced(pack_rows, "grade_status", statuses))
    assert description.metrics["difficulty"].count == sum(solved_rows) - 1
    assert description.statuses["out_of_budget"] == 1


def test_absent_tiers_and_verdicts_count_zero_and_nulls_count_as_ungraded(pack_rows):
    hard_or_expert = pack_rows.filter(pc.is_in(pack_rows["tier"], pa.array(["hard", "expert"])))
    tiers = describe_pack(hard_or_expert).tiers
    assert tiers["easy"] == tiers["medium"] == tiers["unsolvable"] == tiers["ungraded"] == 0
    assert tiers["hard"] + tiers["expert"] == hard_or_expert.num_rows > 0

    tier_values = pack_rows.column("tier").to_pylist()
    tier_values[:3] = [None, "ungraded", None]
    assert describe_pack(replaced(pack_rows, "tier", tier_values)).tiers["ungraded"] == 3


def test_a_pack_without_solvable_rows_has_empty_distributions():
    empty = describe_pack(
        pa.table(
            {"verdict": ["unsolvable"], "grade_status": ["exact"], "tier": ["unsolvable"]}
            | {m: pa.array([None], pa.float64()) for m in TALLIED_METRICS}
        )
    )
    assert all(spread.count == 0 and spread.median is None for spread in empty.metrics.values())
    assert all(
        spread.win_chance.median is None and spread.dead_ends.count == 0
        for players in empty.players.values()
        for spread in players.values()
    )
    assert empty.thresholds is None  # a table without the grade's metadata
    assert empty.win_rate.rate == 0.0


def test_an_empty_pack_describes_as_zeros_and_renders(pack_rows):
    description = describe_pack(pack_rows.slice(0, 0))
    assert description.total == 0 and set(description.verdicts.values()) == {0}
    assert description.win_rate.rate is None
    text = rendered(report_tables(description))
    assert "n/a" in text and "Win rate" in text


def test_an_unexpected_value_is_an_error_naming_the_column(pack_rows):
    verdicts = pack_rows.column("verdict").to_pylist()
    verdicts[0] = "won"
    with pytest.raises(ValueError, match="column 'verdict' holds 'won'"):
        describe_pack(replaced(pack_rows, "verdict", verdicts))


def test_report_shows_counts_interval_and_the_published_rate(pack_rows):
    description = describe_pack(pack_rows)
    text = rendered(report_tables(description))
    rate = description.win_rate
    assert f"{rate.rate:.2%} [{rate.low:.2%}, {rate.high:.2%}]" in text
    assert "86.94%, inside the interval" in text
    assert "of decided" not in text
    for metric in SPREAD_METRICS:
        assert METRIC_WORDS[metric][0] in text
    assert "│ unknown    │     0 │  0.00% │" in text  # a zero row is shown, with its share


def test_report_says_outside_and_of_decided_when_it_should(pack_rows):
    unsolvable = pack_rows.filter(pc.equal(pack_rows["verdict"], "unsolvable"))
    verdicts = ["unknown"] + unsolvable.column("verdict").to_pylist()[1:]
    text = rendered(report_tables(describe_pack(replaced(unsolvable, "verdict", verdicts))))
    assert "86.94%, OUTSIDE the interval" in text
    assert "0.00% of decided" in text


def test_each_player_s_figures_are_the_medians_over_each_tier_s_deals(pack_rows):
    players = describe_pack(pack_rows).players
    rows = pack_rows.to_pylist()
    assert list(players) == list(SOLVABLE_TIERS)
    for tier in SOLVABLE_TIERS:
        of_tier = [row for row in rows if row["tier"] == tier]
        assert of_tier, tier
        assert list(players[tier]) == list(PLAYERS)
        for player, spread in players[tier].items():
            chances = [row[player.win_column] for row in of_tier]
            dead_ends = [row[player.dead_ends_column] for row in of_tier]
            assert spread.win_chance.count == spread.dead_ends.count == len(of_tier)
            assert spread.win_chance.median == pytest.approx(np.median(chances), rel=1e-12)
            assert spread.dead_ends.median == pytest.approx(np.median(dead_ends), rel=1e-12)


def test_the_tiers_the_pack_was_graded_with_come_from_its_metadata(pack_rows):
    tiers = load_tiers(TIERS_FILE)
    assert Tiers.from_metadata(metadata(pack_rows)) == tiers
    assert describe_pack(pack_rows).thresholds == tiers
    assert describe_pack(pack_rows.replace_schema_metadata(None)).thresholds is None
    assert Tiers.from_metadata({**tiers.metadata(), "difficulty_player": "grandmaster"}) is None


def test_report_says_what_each_player_meets_in_each_tier_in_words(pack_rows):
    description = describe_pack(pack_rows)
    text = " ".join(rendered(report_tables(description)).split())  # the cells' wrapped lines joined
    for player in PLAYERS:
        assert player.words in text
    for tier, players in description.players.items():
        assert f"Tier {tier}: what each player meets" in text
        for spread in players.values():
            assert chance_words(spread.win_chance.median) in text
            assert dead_ends_words(spread.dead_ends.median) in text
    assert "about 1 game in" in text and "dead ends" in text
    for meaning in tier_meanings(description.thresholds).values():
        assert meaning in text
    assert f"difficulty: {figure_label(description.thresholds.difficulty)};" in text  # the metrics' caption
    for name, meaning in list(METRIC_WORDS.values())[1:]:
        assert f"{name}: {meaning}" in text


def test_report_text_has_no_logarithm_exponent_or_column_name(pack_rows):
    text = rendered(report_tables(describe_pack(pack_rows)))
    assert "log10" not in text.lower() and "log" not in text
    assert not re.search(r"\de[+-]\d", text)  # no 4.7e-06
    for name in (*TALLIED_METRICS, "out_of_budget", "not_sampled"):
        assert "_" not in name or name not in text  # difficulty and traps are words too
