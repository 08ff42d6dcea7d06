"""Where a game-tree walk's work goes: the table of docs/grader.md ("Where the time goes").

``python bench/walk_profile.py PACK`` walks the deals of a graded pack that
ran out of the walk's budget (``grade_status`` out_of_budget), one at a time on
one core, with the default budget, and prints the table for them;
``--all-solved`` walks every solved deal of the pack instead. `make bench`
prints the same table for its grading sample (bench/bench_grading.py).

``--max-positions N`` walks with another budget: a large one walks the deals
out of the default budget to the end. ``--alone`` walks each deal in a
process of its own and adds that process's peak memory, and the memory it
held before the walk, to the deal's line and the table: what docs/grader.md
gives for the deals of the default run out of the budget.

Every figure is a count the walk keeps (:class:`pipeline.engine.gametree.WalkProfile`),
so it is the same on a busy machine as on a quiet one. For a start from which
a win exists, each position entered either has a win or lies in a proof that
a lost child of a winnable position is lost; the player models' lookahead
visits positions of its own, which are not entered.
"""

from __future__ import annotations

import argparse
import multiprocessing
import resource
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, fields
from pathlib import Path
from typing import Any

import pyarrow.compute as pc

from pipeline.engine.budgets import DEFAULT_MAX_POSITIONS
from pipeline.engine.gametree import WalkProfile, tree_of
from pipeline.engine.status import Status
from pipeline.game.deal import Deal
from pipeline.game.rules import Position
from pipeline.packs.folders import read_pack_folder


def walk_record(
    deal: Deal, line: tuple[int, ...] = (), max_positions: int = DEFAULT_MAX_POSITIONS
) -> dict[str, Any]:
    """Walk ``deal``'s tree from its start: seconds of CPU, status, positions, winnable ones and the profile."""
    began = time.process_time()
    tree = tree_of(deal, Position.start(deal), line=line, max_positions=max_positions)
    assert tree.profile is not None
    return {
        "cpu_seconds": time.process_time() - began,
        "exact": tree.status is Status.EXACT,
        "positions": tree.positions,
        "winnable": tree.winnable_states,
        "reachable": tree.reachable_states,
        "profile": asdict(tree.profile),
    }


def walk_alone(board: str, line: tuple[int, ...], max_positions: int) -> dict[str, Any]:
    """:func:`walk_record` of the deal of ``board``, with the peak memory of the process that walks it and the
    memory it held before the walk (MiB), in a new process of its own."""
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=1, mp_context=context) as pool:
        return pool.submit(_walk_measured, board, line, max_positions).result()


def _walk_measured(board: str, line: tuple[int, ...], max_positions: int) -> dict[str, Any]:
    deal = Deal.from_board_text(board)
    tree_of(deal, Position.start(deal), max_positions=10)  # load the compiled walk before the memory is read
    before = peak_mib()
    record = walk_record(deal, line, max_positions)
    return {**record, "peak_mib": peak_mib(), "before_mib": before}


def peak_mib() -> float:
    """The peak memory of this process so far, in MiB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _winnable_found(walk: dict[str, Any]) -> int:
    """The winnable positions a walk found: all of them if it was exact, else those it had found when it stopped
    (each entered one, and the start)."""
    return int(walk["winnable"]) if walk["exact"] else int(walk["profile"]["entered_winnable"]) + 1


def _share(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f} %" if whole else "none"


def profile_table(walks: list[dict[str, Any]]) -> str:
    """The Markdown table of where the walks' work went, summed over ``walks`` (records of :func:`walk_record`).

    Per winnable position: the positions entered, split by why, and those the
    player models' lookahead visited; then the lookups' hit rates and how many
    of the lost positions searched a look one move further ahead would have refuted.
    """
    total = {field.name: sum(w["profile"][field.name] for w in walks) for field in fields(WalkProfile)}
    found = [_winnable_found(w) for w in walks]
    winnable = sum(found)
    entered = sum(w["positions"] for w in walks)
    ratios = [w["positions"] / count for w, count in zip(walks, found, strict=True) if count]

    def per(count: int) -> str:
        return f"{count / winnable:.2f}" if winnable else "none"

    rows = [
        ("deals walked (counted exactly)", f"{len(walks):,} ({sum(w['exact'] for w in walks):,})"),
        ("winnable positions found (by a walk out of budget: so far)", f"{winnable:,}"),
        ("positions entered", f"{entered:,}"),
        (
            "positions entered per winnable position: all deals together / median deal",
            f"{per(entered)} / {statistics.median(ratios):.2f}" if ratios else "none",
        ),
        ("… winnable ones (each once)", per(total["entered_winnable"])),
        ("… proving lost children of winnable positions lost", per(total["entered_proving"])),
        ("… … of which the lost children themselves", per(total["lost_children_entered"])),
        ("… … of which refuted on entry by a necessary condition or no move", per(total["refuted_on_entry"])),
        ("… … of which searched and proved lost", per(total["lost_searched"])),
        (
            "positions the player models' lookahead visited, per winnable position",
            per(total["model_positions"]),
        ),
        (
            "lost positions searched whose every move was decided without a search below it",
            _share(total["lost_shallow"], total["lost_searched"]),
        ),
        (
            'moves the filter of stored positions answered "never stored"',
            _share(total["filter_negative"], total["filter_lookups"]),
        ),
        (
            "lookups in the cache of lost positions that it remembered",
            _share(total["lost_hits"], total["lost_lookups"]),
        ),
        (
            "lookups in the table of winnable positions that found one",
            _share(total["table_hits"], total["table_lookups"]),
        ),
        ("moves known lost because no card fits after them", f"{total['dead_after']:,}"),
        ("moves known lost because a lost sibling's move stands in for them", f"{total['stood_in']:,}"),
        ("CPU seconds, all walks", f"{sum(w['cpu_seconds'] for w in walks):.1f}"),
    ]
    if walks and all("peak_mib" in w for w in walks):
        worst = max(walks, key=lambda w: w["peak_mib"])
        rows.append(
            (
                "peak memory of the worst walk, alone (held before it)",
                f"{worst['peak_mib']:,.0f} MiB ({worst['before_mib']:,.0f} MiB)",
            )
        )
    return "\n".join(["| measure | value |", "|---|---|", *(f"| {name} | {value} |" for name, value in rows)])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pack", type=Path, help="a graded pack folder")
    parser.add_argument(
        "--all-solved", action="store_true", help="walk every solved deal, not only those out of budget"
    )
    parser.add_argument(
        "--max-positions",
        type=int,
        default=DEFAULT_MAX_POSITIONS,
        help="the walk's budget of positions entered",
    )
    parser.add_argument(
        "--alone",
        action="store_true",
        help="walk each deal in a process of its own and report its peak memory",
    )
    options = parser.parse_args()
    table = read_pack_folder(
        options.pack, columns=["deal_id", "board", "verdict", "grade_status", "solution"]
    )
    wanted = pc.equal(table["verdict"], "solved")
    if not options.all_solved:
        wanted = pc.and_(wanted, pc.equal(table["grade_status"], "out_of_budget"))
    chosen = table.filter(wanted).to_pylist()
    budget = options.max_positions
    print(f"Walking {len(chosen)} deals of {options.pack}, one at a time, budget {budget:,}:")
    walks = []
    for row in chosen:
        line = tuple(int(move) for move in row["solution"])
        if options.alone:
            walks.append(walk_alone(row["board"], line, budget))
            peak = f", peak {walks[-1]['peak_mib']:,.0f} MiB"
        else:
            walks.append(walk_record(Deal.from_board_text(row["board"]), line, budget))
            peak = ""
        print(
            f"  {row['deal_id']}: {walks[-1]['cpu_seconds']:.1f} s, exact {walks[-1]['exact']}, "
            f"{walks[-1]['positions']:,} entered, {walks[-1]['winnable']:,} winnable{peak}",
            flush=True,
        )
    print(profile_table(walks))


if __name__ == "__main__":
    main()
