"""One deal through every stage: solve, cross-check (when sampled), grade; and the rows they make.

:func:`process_span` is the worker side of a run (:mod:`pipeline.runs`): it
gets a span of deals by name (source, seed, first index, count), deals them,
and returns each one's board text and :class:`DealOutcome`, with the seconds
each stage took. :func:`outcome_table` turns a shard's deals and outcomes
into the rows of a pack: the deals columns, then the solved,
check and grade columns (:mod:`pipeline.packs.parquet`, :mod:`pipeline.stages.crosscheck`,
:mod:`pipeline.stages.grade`), so a pack holds exactly the columns the separate
commands write.

>>> from pipeline.game.shuffles import seeded_deal
>>> from pipeline.stages.settings import CrosscheckSettings
>>> settings = StageSettings(crosscheck=CrosscheckSettings(sample=0.0))
>>> outcome = process_deal(seeded_deal(20261129, 0), "seed-20261129-0", settings)
>>> outcome.result.verdict.value, outcome.check, outcome.grade.grade_status.value
('solved', None, 'exact')
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pyarrow as pa

from pipeline.engine.solver import solve
from pipeline.game.deal import Deal
from pipeline.game.verdicts import SolveResult, Verdict
from pipeline.packs.labels import GradeStatus
from pipeline.packs.parquet import with_metadata
from pipeline.packs.sources import DealSpan
from pipeline.stages.crosscheck import Check, check_deal, checked_table, sampled
from pipeline.stages.grade import Grade, grade_deal, graded_table
from pipeline.stages.sampling import graded
from pipeline.stages.settings import CrosscheckSettings, GradeSettings, SolveSettings
from pipeline.stages.solve import solved_table
from pipeline.stages.tiers import Tiers

STAGES = ("solve", "crosscheck", "grade")


@dataclass(frozen=True)
class StageSettings:
    """Everything that decides a deal's row: the budgets of each stage, the check sample, the tiers.

    The grade settings' tiers file is read once, into ``tiers``; with
    ``tiers`` None, grades carry no difficulty and no tier.
    """

    solve: SolveSettings = field(default_factory=SolveSettings)
    crosscheck: CrosscheckSettings = field(default_factory=CrosscheckSettings)
    grade: GradeSettings = field(default_factory=GradeSettings)
    tiers: Tiers | None = field(default=None)

    def metadata(self) -> dict[str, str]:
        """The settings as Parquet schema metadata, with the keys the separate commands write."""
        entries = self.solve.metadata() | {
            "cpsat_time_limit": str(self.crosscheck.time_limit),
            "crosscheck_sample": str(self.crosscheck.sample),
            "crosscheck_seed": str(self.crosscheck.seed),
            "grade_max_positions": str(self.grade.max_positions),
        }
        # only a run that samples losses or grades says so: a full one matches the separate commands' pack
        if self.crosscheck.loss_sample < 1.0:
            entries |= {"crosscheck_loss_sample": str(self.crosscheck.loss_sample)}
        if self.grade.sample < 1.0:
            entries |= {"grade_sample": str(self.grade.sample), "grade_seed": str(self.grade.seed)}
        return entries | (self.tiers.metadata() if self.tiers else {})


@dataclass(frozen=True)
class DealOutcome:
    """A deal's verdict, its check (None when not sampled), its grade, and the seconds of each stage."""

    result: SolveResult
    check: Check | None
    grade: Grade
    seconds: tuple[float, float, float]  # solve, crosscheck, grade


def process_deal(deal: Deal, deal_id: str, settings: StageSettings) -> DealOutcome:
    """Solve ``deal`` (a win replayed by the solver), check it when sampled, grade it."""
    began = time.perf_counter()
    result = solve(deal, max_nodes=settings.solve.max_nodes, longest_play=settings.solve.longest_play)
    solved_at = time.perf_counter()
    check = None
    checking = settings.crosscheck
    verdict = result.verdict.value
    if sampled(
        deal_id, verdict, fraction=checking.sample, seed=checking.seed, loss_fraction=checking.loss_sample
    ):
        check = check_deal(
            deal, verdict, time_limit=checking.time_limit, reference_nodes=checking.reference_nodes
        )
    checked_at = time.perf_counter()
    grading = settings.grade
    if result.verdict is Verdict.SOLVED and not graded(deal_id, fraction=grading.sample, seed=grading.seed):
        grade = Grade(GradeStatus.NOT_SAMPLED, max_cards_played=result.max_cards_played)
    else:
        grade = grade_deal(deal, result, max_positions=grading.max_positions, tiers=settings.tiers)
    graded_at = time.perf_counter()
    return DealOutcome(
        result, check, grade, (solved_at - began, checked_at - solved_at, graded_at - checked_at)
    )


def process_span(
    key: Any, span: DealSpan, settings: StageSettings
) -> tuple[Any, list[tuple[str, DealOutcome]], float]:
    """Deal ``span`` here and put each deal through every stage; the worker side of a run (:mod:`pipeline.runs`).

    Returns ``key``; per deal, its board text (for the parent's table) and its
    outcome; and the seconds the task took here, dealing included (the time a
    worker was busy with it).
    """
    began = time.perf_counter()
    outcomes = []
    for deal_id, deal in zip(span.ids(), span.deals(), strict=True):
        outcomes.append((deal.to_board_text(), process_deal(deal, deal_id, settings)))
    return key, outcomes, time.perf_counter() - began


def outcome_table(
    deals: pa.Table, outcomes: Sequence[DealOutcome], settings: StageSettings, *, timings: bool
) -> pa.Table:
    """``deals`` (a deals table) with the solved, check and grade columns of ``outcomes``, row for row."""
    table = solved_table(deals, [o.result for o in outcomes], settings.solve, timings=timings)
    table = checked_table(table, [o.check for o in outcomes], timings=timings)
    table = graded_table(table, [o.grade for o in outcomes], timings=timings)
    return with_metadata(table, **settings.metadata())
