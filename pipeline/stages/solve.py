"""Solving many deals at once: joblib batches, progress, checked results, whole runs.

Deals travel to workers as board text in batches that carry their start
index (:func:`map_boards`, which the cross-check stage uses too); results
stream back in whatever order the batches finish and are put back in input
order, so the output never depends on the number of workers.
Every ``solved`` result is replayed by the rules referee before it is
returned.

>>> from pipeline.game.shuffles import seeded_deal
>>> [r.verdict.value for r in solve_deals([seeded_deal(20261129, 0)], max_nodes=10_000)]
['solved']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any, TypeVar

from pipeline.engine.solver import DEFAULT_MAX_NODES, solve
from pipeline.game.deal import Deal
from pipeline.game.rules import IllegalMove, replay
from pipeline.game.verdicts import SolveResult, Verdict
from pipeline.packs.parquet import deals_of, read_pack, solved_table, write_pack

T = TypeVar("T")


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
    results = map_boards(
        solve_batch,
        deals,
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


def map_boards(
    batch_task: Callable[..., tuple[int, list[T]]],
    deals: Sequence[Deal],
    *arguments: object,
    per_deal: Sequence[object] | None = None,
    jobs: int = 1,
    progress: bool = False,
    label: str = "working",
    backend: str = "loky",
    batch_size: int | None = None,
    largest_batch: int = 32,
) -> list[T]:
    """``batch_task(start, boards, *arguments)`` over ``deals`` in batches on ``jobs`` workers.

    The task gets the board text of ``deals[start:start + len(boards)]`` and
    returns ``(start, one result per board)``; the results come back in input
    order whatever order the batches finish in. With ``per_deal`` (one value
    per deal) the task is ``batch_task(start, boards, values, *arguments)``,
    ``values`` being the same slice of ``per_deal``, so each batch carries only
    its own deals' data. ``batch_size`` defaults to about eight batches per
    worker, at most ``largest_batch`` deals (smaller for slow tasks, so that
    the progress bar moves and the workers share the work evenly).
    """
    from joblib import delayed

    if per_deal is not None and len(per_deal) != len(deals):
        raise ValueError(f"{len(per_deal)} per-deal values for {len(deals)} deals")
    if batch_size is None:
        batch_size = max(1, min(largest_batch, len(deals) // (jobs * 8)))
    boards = [deal.to_board_text() for deal in deals]

    def task(start: int):
        stop = start + batch_size
        values = () if per_deal is None else (list(per_deal[start:stop]),)
        return delayed(batch_task)(start, boards[start:stop], *values, *arguments)

    tasks = (task(start) for start in range(0, len(boards), batch_size))
    results: list[T | None] = [None] * len(deals)
    with progress_bar(len(deals), label=label, enabled=progress) as advance:
        for start, batch in unordered(tasks, jobs=jobs, backend=backend):
            results[start : start + len(batch)] = batch
            advance(len(batch))
    missing = [number for number, result in enumerate(results) if result is None]
    if missing:
        raise RuntimeError(f"deal {missing[0]} came back without a result")
    return results


def unordered(tasks: Iterable[Any], *, jobs: int, backend: str) -> Iterator[Any]:
    """The results of joblib ``tasks`` (``delayed(f)(...)``) on ``jobs`` workers, as each finishes.

    Tasks are drawn from ``tasks`` only as workers free up (joblib's
    pre-dispatch), so a long generator of tasks never sits in memory whole.
    ``backend`` is a joblib backend name: ``loky``, or ``dask`` inside
    :func:`dask_cluster`.
    """
    from joblib import Parallel

    # The dask backend is taken from dask_cluster's parallel_config: naming it here makes
    # joblib 1.6 pass its nesting level on to every task as an argument.
    chosen = None if backend == "dask" else backend
    yield from Parallel(n_jobs=jobs, backend=chosen, return_as="generator_unordered")(tasks)


@contextmanager
def dask_cluster(scheduler: str, *, jobs: int) -> Iterator[None]:
    """A Dask client for joblib's ``dask`` backend while the block runs.

    ``scheduler`` is the address of a running scheduler (``tcp://host:8786``);
    empty, a local cluster of ``jobs`` single-threaded worker processes is
    started and stopped with the block. The workers must be able to import
    this package (``pip install blackhole`` on each machine of a cluster).
    """
    from dask.distributed import Client, LocalCluster
    from joblib import parallel_config

    with ExitStack() as stack:
        if scheduler:
            stack.enter_context(Client(scheduler, set_as_default=True))
        else:
            cluster = LocalCluster(
                n_workers=jobs, threads_per_worker=1, processes=True, dashboard_address=None, host="127.0.0.1"
            )
            stack.enter_context(cluster)
            stack.enter_context(Client(cluster, set_as_default=True))
        stack.enter_context(parallel_config(backend="dask"))  # registers the backend with joblib
        yield


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


@contextmanager
def progress_bar(
    total: int, *, label: str, enabled: bool, completed: int = 0
) -> Iterator[Callable[[int], None]]:
    """A rich progress bar on stderr (nothing when not ``enabled``), from ``completed``; yields ``advance(n)``."""
    if not enabled:
        yield lambda n: None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    columns = (
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=Console(stderr=True)) as bar:
        task = bar.add_task(label, total=total, completed=completed)
        yield lambda n: bar.advance(task, n)


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
    table = read_pack(source)
    deals = deals_of(table, source=str(source))
    results = solve_deals(deals, jobs=jobs, max_nodes=max_nodes, progress=progress, backend=backend)
    write_pack(solved_table(table, results, max_nodes=max_nodes, timings=timings), target)
    return results
