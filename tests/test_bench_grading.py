"""The grading benchmark's helpers (bench/walk_profile.py, bench/walk_worker.py): the profile table's sums and
per-winnable figures, and the before-and-after comparison's figures of a walk."""

from __future__ import annotations

import sys
from pathlib import Path

from pipeline.engine.gametree import DEFAULT_MAX_POSITIONS, tree_of
from pipeline.game.rules import Position
from pipeline.game.shuffles import seeded_deal

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from walk_profile import profile_table, walk_alone, walk_record  # noqa: E402
from walk_worker import figures_of  # noqa: E402


def _rows(table: str) -> dict[str, str]:
    lines = table.splitlines()[2:]
    return {line.split(" | ")[0].lstrip("| "): line.split(" | ")[1].rstrip(" |") for line in lines}


def test_the_profile_table_sums_the_walks_and_divides_by_their_winnable_positions():
    small, larger = walk_record(seeded_deal(1, 19)), walk_record(seeded_deal(1, 21))
    rows = _rows(profile_table([small, larger]))
    winnable = small["winnable"] + larger["winnable"]
    entered = small["positions"] + larger["positions"]
    assert rows["deals walked (counted exactly)"] == "2 (2)"
    assert rows["positions entered"] == f"{entered:,}"
    together, median = rows[
        "positions entered per winnable position: all deals together / median deal"
    ].split(" / ")
    assert float(together) == round(entered / winnable, 2)
    ratios = sorted(w["positions"] / w["winnable"] for w in (small, larger))
    assert float(median) == round(sum(ratios) / 2, 2)
    proving = small["profile"]["entered_proving"] + larger["profile"]["entered_proving"]
    assert float(rows["… proving lost children of winnable positions lost"]) == round(proving / winnable, 2)


def test_a_walk_out_of_budget_counts_the_winnable_positions_it_had_found():
    stopped = walk_record(seeded_deal(1, 21), max_positions=1_000)
    assert not stopped["exact"] and stopped["winnable"] == 0
    found = stopped["profile"]["entered_winnable"] + 1
    assert (
        _rows(profile_table([stopped]))["winnable positions found (by a walk out of budget: so far)"]
        == f"{found:,}"
    )


def test_the_comparison_takes_every_figure_of_an_exact_walk_and_the_status_alone_of_one_out_of_budget():
    deal = seeded_deal(1, 19)
    tree = tree_of(deal, Position.start(deal))
    exact = figures_of(tree)
    assert exact[0] == "EXACT" and len(exact) == 14 and exact[2] == repr(tree.random_win_probability)
    assert figures_of(tree_of(deal, Position.start(deal), max_positions=10)) == ["OUT_OF_BUDGET"]


def test_a_walk_alone_gives_the_same_walk_and_the_peak_memory_of_its_own_process():
    deal = seeded_deal(1, 19)
    alone = walk_alone(deal.to_board_text(), (), DEFAULT_MAX_POSITIONS)
    here = walk_record(deal)
    assert (alone["positions"], alone["winnable"], alone["profile"]) == (
        here["positions"],
        here["winnable"],
        here["profile"],
    )
    assert 0 < alone["before_mib"] <= alone["peak_mib"]
    row = _rows(profile_table([alone]))["peak memory of the worst walk, alone (held before it)"]
    assert row == f"{alone['peak_mib']:,.0f} MiB ({alone['before_mib']:,.0f} MiB)"
    assert "peak memory of the worst walk, alone (held before it)" not in _rows(profile_table([here]))
