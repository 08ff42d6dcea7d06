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
from functools import cached_property
from typing import Any

import pyarrow as pa

from pipeline.game.deal import Deal
from pipeline.game.verdicts import SolveResult
from pipeline.packs.parquet import with_metadata
from pipeline.packs.sources import DealSpan
from pipeline.stages.crosscheck import Check, CrosscheckStage
from pipeline.stages.grade import Grade, GradeStage
from pipeline.stages.settings import CrosscheckSettings, GradeSettings, SolveSettings
from pipeline.stages.stage import SolveStage, through
from pipeline.stages.tiers import Tiers

STAGES = ("solve", "crosscheck", "grade")


@dataclass(frozen=True)
class StageSettings:
    """Everything that decides a deal's row: the budgets of each stage, the check sample, the tiers.

    The grade settings' tiers file is read once, into ``tiers``; with
    ``tiers`` None, grades carry no difficulty and no tier. :attr:`stages` are
    the three stages these settings make, in the order a deal goes through them.
    """

    solve: SolveSettings = field(default_factory=SolveSettings)
    crosscheck: CrosscheckSettings = field(default_factory=CrosscheckSettings)
    grade: GradeSettings = field(default_factory=GradeSettings)
    tiers: Tiers | None = field(default=None)

    @cached_property
    def stages(self) -> tuple[SolveStage, CrosscheckStage, GradeStage]:
        """Solve, cross-check and grade, as stage objects (:class:`~pipeline.stages.stage.Stage`)."""
        return SolveStage(self.solve), CrosscheckStage(self.crosscheck), GradeStage(self.grade, self.tiers)

    def metadata(self) -> dict[str, str]:
        """The settings as Parquet schema metadata, with the keys the separate commands write: every
        stage's settings, then what only a sampled stage says, and the tiers, so that a full run's
        pack matches the separate commands'."""
        stages = self.stages
        entries: dict[str, str] = {}
        for stage in stages:
            entries |= stage.metadata()
        for stage in stages:
            entries |= stage.sample_metadata()
        return entries


@dataclass(frozen=True)
class DealOutcome:
    """A deal's verdict, its check (None when not sampled), its grade, and the seconds of each stage."""

    result: SolveResult
    check: Check | None
    grade: Grade
    seconds: tuple[float, float, float]  # solve, crosscheck, grade


def process_deal(deal: Deal, deal_id: str, settings: StageSettings) -> DealOutcome:
    """Solve ``deal`` (a win replayed by the solver), check it when sampled, grade it."""
    solving, checking, grading = settings.stages
    began = time.perf_counter()
    result = solving.apply(deal)
    solved_at = time.perf_counter()
    check = through(checking, deal, deal_id, result)
    checked_at = time.perf_counter()
    grade = through(grading, deal, deal_id, result)
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
    solving, checking, grading = settings.stages
    table = solving.columns(deals, [o.result for o in outcomes], timings=timings)
    table = checking.columns(table, [o.check for o in outcomes], timings=timings)
    table = grading.columns(table, [o.grade for o in outcomes], timings=timings)
    return with_metadata(table, **settings.metadata())
