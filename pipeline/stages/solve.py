"""The solve stage: many deals on the worker pool, every win replayed, a solved pack's columns.

Deals travel to workers as board text (:func:`pipeline.workers.map_batches`)
and come back in input order, so the output never depends on the number of
workers. A pack is solved a batch of rows at a time (:func:`solve_pack`,
:mod:`pipeline.stages.pack_pass`), its results folded into a
:class:`SolveTally` for the summary, so memory does not grow with the pack. Every ``solved`` result was
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
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from pipeline.engine.warm import warm_before_workers
from pipeline.game.deal import Deal
from pipeline.game.games import Game
from pipeline.game.stats import Summary, win_rate
from pipeline.game.verdicts import SolveResult, Verdict
from pipeline.packs.family import one_game, pack_game, same_game
from pipeline.packs.parquet import metadata, with_columns, with_metadata
from pipeline.packs.schema import DEALS_SCHEMA, RESULT_FIELDS
from pipeline.stages.face_solve import solve_batch
from pipeline.stages.pack_pass import PackBatch, map_rows, over_pack
from pipeline.stages.settings import PassOptions, SolveSettings
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
    game = one_game(deals)
    return map_batches(
        solve_batch,
        [deal.to_board_text() for deal in deals],
        settings,
        game.name,
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
    if len(results) != deals.num_rows:
        raise ValueError(f"{len(results)} results for {deals.num_rows} deals")
    columns: dict[str, Sequence[object]] = {
        "verdict": [result.verdict.value for result in results],
        "solution": [list(result.solution) for result in results],
        "nodes": [result.nodes for result in results],
        "seconds": [result.seconds if timings else None for result in results],
        "max_cards_played": [result.max_cards_played for result in results],
    }
    solved = with_columns(deals, RESULT_FIELDS, columns)
    earlier = {
        key: value for key, value in metadata(solved).items() if key != "longest_play"
    }  # a re-solve's own
    return with_metadata(solved.replace_schema_metadata(earlier), **settings.metadata())


RESULT_COLUMNS = tuple(field.name for field in RESULT_FIELDS)


def result_of_row(row: Mapping[str, Any]) -> SolveResult:
    """The :class:`SolveResult` a solved pack's row records (its columns by name; ``seconds`` 0.0 when the
    pack was written without timings).

    >>> result_of_row({"verdict": "unsolvable", "solution": [], "nodes": 4, "seconds": None, "max_cards_played": 3})
    SolveResult(verdict=<Verdict.UNSOLVABLE: 'unsolvable'>, solution=(), nodes=4, seconds=0.0, max_cards_played=3)
    """
    return SolveResult(
        Verdict(row["verdict"]),
        tuple(row["solution"]),
        row["nodes"],
        row["seconds"] or 0.0,
        row["max_cards_played"],
    )


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

    def work(batch: PackBatch) -> tuple[pa.Table, SolveTally]:
        played = same_game(pack_game(batch.table, source=str(source)), game, source=str(source))
        if options.jobs > 1:
            warm_before_workers([played])  # compiled here once, not in each worker
        boards = [deal.to_board_text() for deal in batch.deals]
        results: list[SolveResult] = map_rows(
            batch, solve_batch, boards, settings, played.name, options=options
        )
        solved = solved_table(batch.table, results, settings, timings=options.timings)
        return solved, SolveTally.of(results)

    tallies = over_pack(source, target, schema=DEALS_SCHEMA, work=work, label="solving", options=options)
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
