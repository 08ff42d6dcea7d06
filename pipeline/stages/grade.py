"""Grading a solved pack: game-tree metrics, a difficulty score and a tier for every deal.

For each ``solved`` row, :func:`pipeline.engine.gametree.tree_of` walks the deal's
whole game tree from the start, counting exactly; forced moves, decisions and
traps are counted along the pack's solution (replayed by the rules first).
The walk has a budget of positions, not of seconds, so a graded pack is the
same bytes whatever the machine's load. When the budget runs out, or a count
would pass 2**62, no tree metric is written (never an estimate): the row says
``out_of_budget`` or ``overflow`` and has no tier. An ``unsolvable`` row needs
no walk: no line wins, no first move wins, random play never wins. An
``unknown`` row is not graded. The score and tiers are those of
:mod:`pipeline.stages.tiers`.

The graded pack is the solved (or cross-checked) pack with these columns
added; ``max_cards_played`` stays where it is, set to 51 on a solved row that
lacked it:

=======================  =======  ============================================
column                   type     meaning
=======================  =======  ============================================
grade_status             string   ``exact``, ``out_of_budget``, ``overflow``
                                  or ``unknown`` (the verdict is unknown)
solution_count           string   distinct winning move sequences, in decimal
log10_solutions          float64  log10 of ``solution_count``; null when 0
winnable_states          int64    positions from which a win exists
reachable_states         int64    the start and every position one move from
                                  a winnable one
winnable_share           float64  ``winnable_states / reachable_states``
random_win_probability   float64  chance that uniformly random legal moves win
branching_winning_lines  float64  legal moves, averaged over every position of
                                  every winning line
branching_winnable       float64  legal moves, averaged over the winnable
                                  positions not yet won
winning_first_moves      int8     opening moves after which a win exists
first_moves              int8     legal opening moves
forced_moves             int8     positions of the solution with one legal move
decisions                int8     positions of the solution with more
traps                    int8     decisions with a move after which no win
                                  exists
first_trap               int8     moves played before the first trap; null
                                  when there is none
difficulty               float64  the score (:mod:`pipeline.stages.tiers`); null
                                  unless solvable and exact
tier                     string   ``easy``, ``medium``, ``hard``, ``expert``
                                  or ``unsolvable``; null when not exact
grade_seconds            float64  seconds of the tree walk; null when no walk
                                  ran or written without timings
=======================  =======  ============================================

Every metric is null unless ``grade_status`` is ``exact``. An unsolvable row
has ``solution_count`` "0", ``random_win_probability`` 0, ``winnable_states``
and ``winning_first_moves`` 0, and null in the metrics that need a walk.

>>> from pipeline.game.deal import Deal, EXAMPLE_BOARD
>>> grade = grade_deal(Deal.from_board_text(EXAMPLE_BOARD), "unsolvable", (), 3)
>>> grade.status.value, grade.solutions, grade.tier.value, grade.difficulty
('exact', 0, 'unsolvable', None)
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa

from pipeline.engine.budgets import DEFAULT_MAX_POSITIONS
from pipeline.engine.gametree import EXACT, OUT_OF_BUDGET, OVERFLOW, tree_of
from pipeline.game.deal import Deal
from pipeline.game.rules import WINNING_LENGTH, Position
from pipeline.game.verdicts import Verdict
from pipeline.packs.parquet import BATCH_ROWS, with_columns, with_metadata
from pipeline.packs.schema import GRADE_FIELDS, SOLVED_SCHEMA, Tier
from pipeline.packs.schema import GradeStatus as GradeStatus  # re-exported: a Grade's status
from pipeline.stages.pack_pass import PackRows, map_rows, over_pack
from pipeline.stages.sampling import graded
from pipeline.stages.tiers import Score, Tiers
from pipeline.workers import map_batches

_STATUS_OF_TREE = {
    EXACT: GradeStatus.EXACT,
    OUT_OF_BUDGET: GradeStatus.OUT_OF_BUDGET,
    OVERFLOW: GradeStatus.OVERFLOW,
}


@dataclass(frozen=True)
class Grade:
    """One deal's grade: the game-tree metrics (None when not known), its score and tier."""

    status: GradeStatus
    solutions: int | None = None
    winnable: int | None = None
    reachable: int | None = None
    win_probability: float | None = None
    branching_winning_lines: float | None = None
    branching_winnable: float | None = None
    winning_first_moves: int | None = None
    first_moves: int | None = None
    forced_moves: int | None = None
    decisions: int | None = None
    traps: int | None = None
    first_trap: int | None = None  # None when the solution meets no trap
    max_cards_played: int | None = None
    difficulty: float | None = None
    tier: Tier | None = None
    seconds: float | None = None  # the tree walk's, None when none ran

    @property
    def log10_solutions(self) -> float | None:
        return math.log10(self.solutions) if self.solutions else None

    @property
    def winnable_share(self) -> float | None:
        if not self.reachable:
            return None
        assert self.winnable is not None  # set whenever reachable is
        return self.winnable / self.reachable

    def scored(self, score: Score) -> float | None:
        """The difficulty with ``score``'s weights; None unless this is an exact grade of a winnable deal."""
        if self.status is not GradeStatus.EXACT or not self.solutions:
            return None
        share = self.winnable_share
        # an exact grade of a winnable deal has every tree metric
        assert self.win_probability is not None and share is not None and self.traps is not None
        return score.of(win_probability=self.win_probability, winnable_share=share, traps=self.traps)

    def tiered(self, tiers: Tiers) -> Grade:
        """This grade with its difficulty and tier under ``tiers`` (unchanged when it cannot have them)."""
        difficulty = self.scored(tiers.score)
        if difficulty is None:
            return self
        return dataclasses.replace(self, difficulty=difficulty, tier=tiers.tier_of(difficulty))


def grade_deal(
    deal: Deal,
    verdict: Verdict | str,
    solution: Sequence[int],
    max_cards_played: int | None,
    *,
    max_positions: int = DEFAULT_MAX_POSITIONS,
    tiers: Tiers | None = None,
) -> Grade:
    """The grade of ``deal`` given its verdict, its solution (a win) and the most cards that can be played.

    Without ``tiers`` the difficulty and the tier of a win are left None.
    """
    verdict = Verdict(verdict)
    if verdict is Verdict.UNKNOWN:
        return Grade(GradeStatus.UNKNOWN, max_cards_played=max_cards_played)
    if verdict is Verdict.UNSOLVABLE:
        return Grade(
            GradeStatus.EXACT,
            solutions=0,
            winnable=0,
            win_probability=0.0,
            winning_first_moves=0,
            max_cards_played=max_cards_played,
            tier=Tier.UNSOLVABLE,
        )
    began = time.perf_counter()
    tree = tree_of(deal, Position.start(deal), line=tuple(solution), max_positions=max_positions)
    seconds = time.perf_counter() - began
    cards = WINNING_LENGTH if max_cards_played is None else max_cards_played
    if tree.status != EXACT:
        return Grade(_STATUS_OF_TREE[tree.status], max_cards_played=cards, seconds=seconds)
    grade = Grade(
        GradeStatus.EXACT,
        solutions=tree.solutions,
        winnable=tree.winnable,
        reachable=tree.reachable,
        win_probability=tree.win_probability,
        branching_winning_lines=tree.mean_moves_on_winning_lines,
        branching_winnable=tree.mean_moves_winnable,
        winning_first_moves=tree.winning_first_moves,
        first_moves=tree.first_moves,
        forced_moves=tree.forced_moves,
        decisions=tree.decisions,
        traps=tree.traps,
        first_trap=None if tree.first_trap < 0 else tree.first_trap,
        max_cards_played=cards,
        seconds=seconds,
    )
    return grade if tiers is None else grade.tiered(tiers)


def grade_batch(
    start: int,
    boards: list[str],
    rows: list[tuple[str, tuple[int, ...], int | None]],
    max_positions: int,
    tiers: Tiers | None,
) -> tuple[int, list[Grade]]:
    """Grade the deals of ``boards`` with their (verdict, solution, max_cards_played) ``rows``; the worker side."""
    grades = [
        grade_deal(Deal.from_board_text(board), *row, max_positions=max_positions, tiers=tiers)
        for board, row in zip(boards, rows, strict=True)
    ]
    return start, grades


def grade_deals(
    deals: Sequence[Deal],
    rows: Sequence[tuple[str, tuple[int, ...], int | None]],
    *,
    tiers: Tiers | None,
    jobs: int = 1,
    max_positions: int = DEFAULT_MAX_POSITIONS,
    progress: bool = False,
    backend: str = "loky",
) -> list[Grade]:
    """Grade ``deals`` on ``jobs`` workers, each with its (verdict, solution, max_cards_played); input order."""
    return map_batches(
        grade_batch,
        [deal.to_board_text() for deal in deals],
        max_positions,
        tiers,
        per_item=rows,
        jobs=jobs,
        progress=progress,
        label="grading",
        backend=backend,
        largest_batch=4,
    )


def grade_pack(
    source: Path,
    target: Path,
    *,
    tiers: Tiers,
    jobs: int = 1,
    max_positions: int = DEFAULT_MAX_POSITIONS,
    sample: float = 1.0,
    seed: int = 0,
    progress: bool = False,
    timings: bool = True,
    backend: str = "loky",
    batch_rows: int = BATCH_ROWS,
) -> GradeSummary:
    """Grade every deal of the solved pack ``source``, ``batch_rows`` at a time; write ``target`` with the grade columns.

    Raises PackError naming ``source`` before any grading when it is not a
    solved pack, and PackError or BoardError naming the row of the file and
    its deal, before its batch is graded, when a row's board is bad, its
    solution does not replay or it says what it may not (the reader checks
    every row: :func:`pipeline.packs.parquet.check_rows`); ``target`` is
    written whole or not at all. With ``sample`` under 1,
    only that share of the wins is walked, chosen by ``seed`` and the deal id
    as a run chooses them (:func:`pipeline.stages.sampling.graded`); the other
    wins are ``not_sampled``. Returns the counts of the grades' statuses and tiers.
    """

    def work(rows: PackRows) -> tuple[pa.Table, GradeSummary]:
        table = rows.table
        found = list(
            zip(
                table.column("verdict").to_pylist(),
                [tuple(moves) for moves in table.column("solution").to_pylist()],
                table.column("max_cards_played").to_pylist(),
                strict=True,
            )
        )
        ids = table.column("deal_id").to_pylist()
        chosen = [
            row
            for row, (verdict, _, _) in enumerate(found)
            if verdict != Verdict.SOLVED.value or graded(ids[row], fraction=sample, seed=seed)
        ]
        rows.advance(table.num_rows - len(chosen))
        walked: list[Grade] = map_rows(
            rows,
            grade_batch,
            [rows.deals[row].to_board_text() for row in chosen],
            max_positions,
            tiers,
            per_item=[found[row] for row in chosen],
            jobs=jobs,
            backend=backend,
            largest_batch=4,
        )
        grades = [Grade(GradeStatus.NOT_SAMPLED, max_cards_played=cards) for _, _, cards in found]
        for row, grade in zip(chosen, walked, strict=True):
            grades[row] = grade
        sampling = {"grade_sample": str(sample), "grade_seed": str(seed)} if sample < 1.0 else {}
        written = with_metadata(
            graded_table(table, grades, timings=timings),
            grade_max_positions=str(max_positions),
            **sampling,
            **tiers.metadata(),
        )
        return written, summarize_grades(grades)

    summaries = over_pack(
        source,
        target,
        schema=SOLVED_SCHEMA,
        work=work,
        label="grading",
        progress=progress,
        batch_rows=batch_rows,
    )
    return sum(summaries, summarize_grades([]))


def graded_table(table: pa.Table, grades: Sequence[Grade], *, timings: bool = True) -> pa.Table:
    """``table`` (a solved pack) with the grade columns for ``grades`` added or replaced, and
    ``max_cards_played`` taken from the grades, in its place."""
    if len(grades) != table.num_rows:
        raise ValueError(f"{len(grades)} grades for {table.num_rows} rows")
    position = table.column_names.index("max_cards_played")
    cards = pa.array([g.max_cards_played for g in grades], pa.int8())
    table = table.set_column(position, table.schema.field("max_cards_played"), cards)
    columns: dict[str, Sequence[object]] = {
        "grade_status": [g.status.value for g in grades],
        "solution_count": [None if g.solutions is None else str(g.solutions) for g in grades],
        "log10_solutions": [g.log10_solutions for g in grades],
        "winnable_states": [g.winnable for g in grades],
        "reachable_states": [g.reachable for g in grades],
        "winnable_share": [g.winnable_share for g in grades],
        "random_win_probability": [g.win_probability for g in grades],
        "branching_winning_lines": [g.branching_winning_lines for g in grades],
        "branching_winnable": [g.branching_winnable for g in grades],
        "winning_first_moves": [g.winning_first_moves for g in grades],
        "first_moves": [g.first_moves for g in grades],
        "forced_moves": [g.forced_moves for g in grades],
        "decisions": [g.decisions for g in grades],
        "traps": [g.traps for g in grades],
        "first_trap": [g.first_trap for g in grades],
        "difficulty": [g.difficulty for g in grades],
        "tier": [None if g.tier is None else g.tier.value for g in grades],
        "grade_seconds": [g.seconds if timings else None for g in grades],
    }
    return with_columns(table, GRADE_FIELDS, columns)


@dataclass(frozen=True)
class GradeSummary:
    """How many grades have each status, and how many deals are in each tier; summaries of batches add."""

    total: int
    statuses: dict[GradeStatus, int]
    tiers: dict[Tier, int]

    def __add__(self, other: GradeSummary) -> GradeSummary:
        return GradeSummary(
            self.total + other.total,
            {status: self.statuses[status] + other.statuses[status] for status in GradeStatus},
            {tier: self.tiers[tier] + other.tiers[tier] for tier in Tier},
        )


def summarize_grades(grades: Sequence[Grade]) -> GradeSummary:
    """Counts of every status and every tier (zeros included), in their declared order."""
    statuses = Counter(grade.status for grade in grades)
    tiers = Counter(grade.tier for grade in grades)
    return GradeSummary(
        len(grades),
        {status: statuses[status] for status in GradeStatus},
        {tier: tiers[tier] for tier in Tier},
    )
