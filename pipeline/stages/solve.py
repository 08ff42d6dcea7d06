"""The solve stage: many deals on the worker pool, every win replayed, a solved pack's columns.

Deals travel to workers as board text (:func:`pipeline.workers.map_batches`)
and come back in input order, so the output never depends on the number of
workers. Every ``solved`` result is replayed by the rules referee before it
is returned (:func:`checked_result`); a solution the referee rejects is a
solver bug (ReplayError), never a user error.

>>> from pipeline.game.shuffles import seeded_deal
>>> [r.verdict.value for r in solve_deals([seeded_deal(20261129, 0)], max_nodes=10_000)]
['solved']
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pyarrow as pa

from pipeline.engine.budgets import DEFAULT_MAX_NODES
from pipeline.engine.solver import solve
from pipeline.game.deal import Deal
from pipeline.game.rules import IllegalMove, replay
from pipeline.game.verdicts import SolveResult, Verdict
from pipeline.packs.parquet import with_columns, with_metadata
from pipeline.packs.schema import DEALS_SCHEMA, RESULT_FIELDS
from pipeline.stages.pack_pass import over_pack
from pipeline.workers import map_batches


class ReplayError(RuntimeError):
    """The solver reported a solution that the rules reject: a solver bug, never a user error."""


def solve_batch(start: int, boards: list[str], max_nodes: int) -> tuple[int, list[SolveResult]]:
    """Solve the deals of ``boards`` (board text); the worker side of :func:`solve_deals`."""
    return start, [solve(Deal.from_board_text(board), max_nodes=max_nodes) for board in boards]


def solve_deals(
    deals: Sequence[Deal],
    *,
    jobs: int = 1,
    max_nodes: int = DEFAULT_MAX_NODES,
    progress: bool = False,
    backend: str = "loky",
    batch_size: int | None = None,
) -> list[SolveResult]:
    """Solve ``deals`` on ``jobs`` workers; results in input order, solutions replayed.

    ``batch_size`` deals go to a worker at a time (default: small enough for
    about eight batches per worker, at most 32). Raises ReplayError if a
    reported solution does not replay.
    """
    results = map_batches(
        solve_batch,
        [deal.to_board_text() for deal in deals],
        max_nodes,
        jobs=jobs,
        progress=progress,
        label="solving",
        backend=backend,
        batch_size=batch_size,
    )
    return [
        checked_result(deal, result, number=n)
        for n, (deal, result) in enumerate(zip(deals, results, strict=True))
    ]


def solved_table(
    deals: pa.Table, results: Sequence[SolveResult], *, max_nodes: int, timings: bool = True
) -> pa.Table:
    """``deals`` with the result columns of ``results`` (one per row, same order) added.

    Result columns already in ``deals`` are replaced. Without ``timings`` the
    ``seconds`` column is null, so the same deals and settings give the same
    bytes on every run.
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
    return with_metadata(with_columns(deals, RESULT_FIELDS, columns), max_nodes=str(max_nodes))


def checked_result(deal: Deal, result: SolveResult, *, number: int = 0) -> SolveResult:
    """``result`` itself, once its solution (if solved) replays on ``deal``; else ReplayError."""
    if result.verdict is Verdict.SOLVED:
        try:
            replay(deal, result.solution)
        except IllegalMove as error:
            raise ReplayError(
                f"deal {number}: the solver's solution does not replay ({error}):\n{deal.to_board_text()}"
            ) from None
    return result


def solve_pack(
    source: Path,
    target: Path,
    *,
    jobs: int = 1,
    max_nodes: int = DEFAULT_MAX_NODES,
    progress: bool = False,
    timings: bool = True,
    backend: str = "loky",
) -> list[SolveResult]:
    """Solve every deal of the deals pack ``source`` and write the solved pack ``target``.

    Raises PackError or BoardError (naming ``source``) before any solving
    when ``source`` is not a deals pack; ``target`` is written whole or not at all.
    """
    return over_pack(
        source,
        target,
        schema=DEALS_SCHEMA,
        work=lambda rows: solve_deals(
            rows.deals, jobs=jobs, max_nodes=max_nodes, progress=progress, backend=backend
        ),
        table_of=lambda table, results: solved_table(table, results, max_nodes=max_nodes, timings=timings),
    )
