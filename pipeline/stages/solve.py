"""The solve stage: many deals on the worker pool, every win replayed, a solved pack's columns.

Deals travel to workers as board text (:func:`pipeline.workers.map_batches`)
and come back in input order, so the output never depends on the number of
workers. A pack is solved a batch of rows at a time (:func:`solve_pack`,
:mod:`pipeline.stages.pack_pass`), its results folded into a
:class:`SolveTally` for the summary, so memory does not grow with the pack. The stage itself, one
deal's solve, its columns and metadata, is :class:`~pipeline.stages.stage.SolveStage`. Every ``solved`` result was
replayed by the rules referee in the solver itself
(:func:`pipeline.engine.solver.solve`), once; a solution the referee rejects is
a solver bug (:class:`~pipeline.engine.solver.SolverBug`, an internal error),
never a user error.

>>> from pipeline.game.shuffles import seeded_deal
>>> [r.verdict.value for r in solve_deals([seeded_deal(20261129, 0)], SolveSettings(max_nodes=10_000))]
['solved']
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from pipeline.game.deal import Deal
from pipeline.game.games import Game
from pipeline.game.stats import Summary, win_rate
from pipeline.game.verdicts import SolveResult, Verdict
from pipeline.packs.family import one_game
from pipeline.packs.parquet import with_metadata
from pipeline.stages.pack_pass import PackBatch, stage_pack
from pipeline.stages.settings import PassOptions, SolveSettings
from pipeline.stages.stage import SolveStage, stage_batch
from pipeline.workers import map_batches


def solve_deals(
    deals: Sequence[Deal],
    settings: SolveSettings = SolveSettings(),
    options: PassOptions = PassOptions(),
    *,
    batch_size: int | None = None,
) -> list[SolveResult]:
    """Solve ``deals`` (all of one game) on ``options.jobs`` workers; results in input order, each win
    replayed by the solver.

    ``batch_size`` deals go to a worker at a time (default: small enough for
    about eight batches per worker, at most 32).
    """
    return map_batches(
        stage_batch,
        [deal.to_board_text() for deal in deals],
        SolveStage(settings),
        one_game(deals),
        per_item=[None] * len(deals),
        jobs=options.jobs,
        progress=options.progress,
        label="solving",
        backend=options.backend,
        batch_size=batch_size,
    )


def solved_table(
    deals: pa.Table, results: Sequence[SolveResult], settings: SolveSettings, *, timings: bool = True
) -> pa.Table:
    """``deals`` with the result columns of ``results`` (one per row, same order) added.

    Result columns already in ``deals`` are replaced. Without ``timings`` the
    ``seconds`` column is null, so the same deals and settings give the same
    bytes on every run. The schema metadata says ``settings``
    (:meth:`~pipeline.stages.settings.SolveSettings.metadata`).
    """
    stage = SolveStage(settings)
    return with_metadata(stage.columns(deals, results, timings=timings), **stage.metadata())


def solve_pack(
    source: Path,
    target: Path,
    settings: SolveSettings = SolveSettings(),
    options: PassOptions = PassOptions(),
    *,
    game: Game | None = None,
) -> SolveTally:
    """Solve every deal of the deals pack file ``source``, a batch at a time; write the solved pack file ``target``.

    The deals are of the game the pack says (:func:`~pipeline.packs.family.pack_game`), which the
    solved pack says too; ``game``, when given, must be it (GameMixError naming ``source``).
    Raises PackError (naming ``source``) before any solving when ``source``
    is not a deals pack, and PackError or BoardError naming the row of the
    file when a batch holds a bad row; ``target`` is written whole or not at
    all. Returns the tally of the results, which the command prints.
    """

    def tally(batch: PackBatch, results: list[SolveResult]) -> SolveTally:
        return SolveTally.of(results)

    tallies = stage_pack(SolveStage(settings), source, target, options, game=game, tally=tally)
    return sum(tallies, SolveTally())


@dataclass(frozen=True)
class SolveTally:
    """Solve results folded into their verdict counts and seconds; tallies add, so a pass folds batch by batch.

    The seconds of every solve are kept (numpy float64, 8 bytes a deal, one
    array a batch) for the exact median that :meth:`summary` reports; nothing
    else grows with the number of deals.

    >>> first = SolveTally.of([SolveResult(Verdict.SOLVED, (), 10, 0.5, 51)])
    >>> both = first + SolveTally.of([SolveResult(Verdict.UNSOLVABLE, (), 4, 1.5, 9)])
    >>> both.total, both.summary().median_seconds
    (2, 1.0)
    """

    counts: dict[Verdict, int] = field(default_factory=lambda: dict.fromkeys(Verdict, 0))
    seconds: tuple[npt.NDArray[np.float64], ...] = ()

    @classmethod
    def of(cls, results: Iterable[SolveResult]) -> SolveTally:
        """The tally of ``results``."""
        results = list(results)
        verdicts = Counter(result.verdict for result in results)
        seconds = np.array([result.seconds for result in results], dtype=np.float64)
        return cls({verdict: verdicts[verdict] for verdict in Verdict}, (seconds,))

    def __add__(self, other: SolveTally) -> SolveTally:
        counts = {verdict: self.counts[verdict] + other.counts[verdict] for verdict in Verdict}
        return SolveTally(counts, self.seconds + other.seconds)

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def summary(self) -> Summary:
        """What :func:`pipeline.game.stats.summarize` says of the tallied results (times 0 when there are none)."""
        seconds = np.concatenate(self.seconds) if self.total else np.zeros(1)
        counts = dict(self.counts)
        rate = win_rate(
            solved=counts[Verdict.SOLVED],
            unsolvable=counts[Verdict.UNSOLVABLE],
            unknown=counts[Verdict.UNKNOWN],
        )
        mean = math.fsum(seconds) / len(seconds)
        return Summary(counts, rate, mean, float(np.median(seconds)), float(seconds.max()))
