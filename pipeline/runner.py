"""Solving many deals at once: joblib batches, progress, checked results, whole runs.

Deals travel to workers as board text in batches that carry their start
index (:func:`map_boards`, which the cross-check stage uses too); results
stream back in whatever order the batches finish and are put back in input
order, so the output never depends on the number of workers.
Every ``solved`` result is replayed by the rules referee before it is
returned.

>>> from pipeline.dealing import seeded_deal
>>> [r.verdict.value for r in solve_deals([seeded_deal(20261129, 0)], max_nodes=10_000)]
['solved']
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from pipeline.config import RunConfig
from pipeline.deal import Deal
from pipeline.packs import deals_of, read_pack, seeded_deals, solved_table, write_pack
from pipeline.rules import IllegalMove, replay
from pipeline.solver import DEFAULT_MAX_NODES, solve
from pipeline.stats import Summary, summarize
from pipeline.verdicts import SolveResult, Verdict

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
    from joblib import Parallel, delayed

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
    parallel = Parallel(n_jobs=jobs, backend=backend, return_as="generator_unordered")
    results: list[T | None] = [None] * len(deals)
    with _progress_bar(len(deals), label=label, enabled=progress) as advance:
        for start, batch in parallel(tasks):
            results[start : start + len(batch)] = batch
            advance(len(batch))
    missing = [number for number, result in enumerate(results) if result is None]
    if missing:
        raise RuntimeError(f"deal {missing[0]} came back without a result")
    return results


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
def _progress_bar(total: int, *, label: str, enabled: bool) -> Iterator[Callable[[int], None]]:
    """A rich progress bar on stderr (nothing when not ``enabled``); yields ``advance(n)``."""
    if not enabled:
        yield lambda n: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=Console(stderr=True)) as bar:
        task = bar.add_task(label, total=total)
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


@dataclass(frozen=True)
class RunOutcome:
    """What a run wrote and how its deals came out."""

    deals_path: Path
    solved_path: Path
    summary: Summary


def run(config: RunConfig, *, progress: bool = False, backend: str = "loky") -> RunOutcome:
    """Deal ``config.count`` seeded deals, solve them, write ``deals.parquet`` and
    ``solved.parquet`` into ``config.directory``.

    Both files are written after the solving is done, each atomically, so an
    interrupted run leaves the previous files (if any) as they were.
    """
    table = seeded_deals(seed=config.seed, count=config.count)
    deals = deals_of(table, source=f"seed {config.seed}")
    results = solve_deals(
        deals, jobs=config.jobs, max_nodes=config.max_nodes, progress=progress, backend=backend
    )
    solved = solved_table(table, results, max_nodes=config.max_nodes, timings=config.timings)
    directory = config.directory
    directory.mkdir(parents=True, exist_ok=True)
    deals_path, solved_path = directory / "deals.parquet", directory / "solved.parquet"
    write_pack(table, deals_path)
    write_pack(solved, solved_path)
    return RunOutcome(deals_path, solved_path, summarize(results))
