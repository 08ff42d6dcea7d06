"""The worker pool: joblib batches that stream back in any order, a Dask cluster, progress bars.

Work travels to workers as plain data (board text, ids, settings) in batches
that carry their start index, and comes back in whatever order the batches
finish; :func:`map_batches` puts it back in input order, so the output never
depends on the number of workers or the backend. :func:`in_order` streams a
long input instead (the library's ``solve_many``): results one at a time, in
input order, as soon as they and those before them are done. Worker
functions are top-level and take plain data.

Workers on this machine (loky, a local Dask cluster) are capped at the CPUs
this process may use (:func:`usable_jobs`): more would only share the same
cores, and the output never depends on their number. A command or config may
ask for at most :data:`MAX_JOBS`; a running Dask scheduler's cluster decides
its own size.

>>> map_batches(_lengths, ["a", "bb", "ccc"], jobs=1, backend="sequential")
[1, 2, 3]
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from enum import Enum
from typing import Any, TypeVar

T = TypeVar("T")
Item = TypeVar("Item")


class Backend(str, Enum):
    """Where a run's or a stage's workers run: ``loky``, processes on this machine, or ``dask``, a Dask cluster.

    Members are the joblib backend names (tests also pass joblib's ``sequential``).
    """

    LOKY = "loky"
    DASK = "dask"


MAX_JOBS = 1024
"""The most workers a command or config may ask for: more CPUs than a large two-socket server has
(512 threads), so a larger number is a typo, refused before any work (workers on this machine are
capped further, at its CPUs: :func:`usable_jobs`)."""


def usable_jobs(jobs: int, backend: str = "loky") -> int:
    """The workers to start for ``jobs``: at most the CPUs this process may use (its CPU affinity and
    cgroup quota, as joblib counts them); with ``dask``, ``jobs`` as asked (a cluster decides its size).

    >>> usable_jobs(1), usable_jobs(100_000, "dask")
    (1, 100000)
    """
    if jobs <= 1 or backend == Backend.DASK:
        return jobs
    from joblib import cpu_count

    return max(1, min(jobs, int(cpu_count())))


def jobs_note(jobs: int) -> str | None:
    """The line that says ``jobs`` is capped at this machine's CPUs (:func:`usable_jobs`); None when it is not.

    >>> jobs_note(1) is None
    True
    """
    usable = usable_jobs(jobs)
    if usable == jobs:
        return None
    return f"note: {jobs} jobs capped at {usable}, the CPUs this machine offers (the output does not depend on jobs)"


def map_batches(
    batch_task: Callable[..., tuple[int, list[T]]],
    items: Sequence[object],
    *arguments: object,
    per_item: Sequence[object] | None = None,
    jobs: int = 1,
    progress: bool = False,
    label: str = "working",
    backend: str = "loky",
    batch_size: int | None = None,
    largest_batch: int = 32,
    advance: Callable[[int], None] | None = None,
) -> list[T]:
    """``batch_task(start, batch, *arguments)`` over ``items`` in batches on ``jobs`` workers.

    The task gets ``batch = items[start:start + len(batch)]`` (plain data, such
    as board text) and returns ``(start, one result per item)``; the results
    come back in input order whatever order the batches finish in. With
    ``per_item`` (one value per item) the task is
    ``batch_task(start, batch, values, *arguments)``, ``values`` being the same
    slice of ``per_item``, so each batch carries only its own items' data.
    ``batch_size`` defaults to about eight batches per worker, at most
    ``largest_batch`` items (smaller for slow tasks, so that the progress bar
    moves and the workers share the work evenly). ``advance(n)``, when given,
    is told of each batch done instead of a bar of its own (a caller's bar
    that counts more than these items).
    """
    from joblib import delayed

    if per_item is not None and len(per_item) != len(items):
        raise ValueError(f"{len(per_item)} per-item values for {len(items)} items")
    if batch_size is None:
        batch_size = batch_size_for(len(items), jobs, largest=largest_batch, backend=backend)

    def task(start: int) -> Any:
        stop = start + batch_size
        values = () if per_item is None else (list(per_item[start:stop]),)
        return delayed(batch_task)(start, items[start:stop], *values, *arguments)

    tasks = (task(start) for start in range(0, len(items), batch_size))
    results: list[T | None] = [None] * len(items)
    bar = progress_bar(len(items), label=label, enabled=progress and advance is None)
    with bar as advance_bar:
        for start, batch in unordered(tasks, jobs=jobs, backend=backend):
            results[start : start + len(batch)] = batch
            (advance or advance_bar)(len(batch))
    missing = [number for number, result in enumerate(results) if result is None]
    if missing:
        raise RuntimeError(f"item {missing[0]} came back without a result")
    return [result for result in results if result is not None]


def unordered(tasks: Iterable[Any], *, jobs: int, backend: str) -> Iterator[Any]:
    """The results of joblib ``tasks`` (``delayed(f)(...)``) on ``jobs`` workers, as each finishes.

    Tasks are drawn from ``tasks`` only as workers free up (joblib's
    pre-dispatch), so a long generator of tasks never sits in memory whole.
    ``backend`` is a joblib backend name: ``loky``, or ``dask`` inside
    :func:`dask_cluster`. Workers on this machine are capped at its CPUs
    (:func:`usable_jobs`).
    """
    yield from _parallel(jobs, backend, "generator_unordered")(tasks)


def _parallel(jobs: int, backend: str, return_as: str) -> Any:
    """joblib's Parallel on ``jobs`` workers (capped at this machine's CPUs) of ``backend``, giving ``return_as``."""
    from joblib import Parallel

    # The dask backend is taken from dask_cluster's parallel_config: naming it here makes
    # joblib 1.6 pass its nesting level on to every task as an argument.
    chosen = None if backend == Backend.DASK else backend
    return Parallel(n_jobs=usable_jobs(jobs, backend), backend=chosen, return_as=return_as)


def batch_size_for(total: int | None, jobs: int, *, largest: int, backend: str = "loky") -> int:
    """Items to send a worker at a time: about eight batches per worker of ``total`` items, at most
    ``largest`` (``largest`` when ``total`` is not known, a stream).

    >>> batch_size_for(1000, 2, largest=4), batch_size_for(20, 2, largest=32), batch_size_for(None, 2, largest=32)
    (4, 1, 32)
    """
    if total is None:
        return largest
    return max(1, min(largest, total // (usable_jobs(jobs, backend) * 8)))


def chunked(
    items: Iterable[Item], size: int, *, key: Callable[[Item], Hashable] = lambda item: None
) -> Iterator[tuple[int, list[Item]]]:
    """``items`` in runs of at most ``size`` consecutive items with the same ``key``, each with the index of its first item.

    Items are drawn one at a time, so a long generator never sits in memory whole.

    >>> list(chunked("aabbbc", 2, key=str))
    [(0, ['a', 'a']), (2, ['b', 'b']), (4, ['b']), (5, ['c'])]
    """
    chunk: list[Item] = []
    start = 0
    for index, item in enumerate(items):
        if chunk and (len(chunk) == size or key(item) != key(chunk[0])):
            yield start, chunk
            chunk, start = [], index
        chunk.append(item)
    if chunk:
        yield start, chunk


def in_order(
    tasks: Iterable[Any],
    *,
    jobs: int,
    progress: bool = False,
    label: str = "working",
    total: int | None = None,
    backend: str = "loky",
) -> Iterator[Any]:
    """The results of joblib batch ``tasks`` (each returns ``(start, one result per item)``) on ``jobs``
    workers, one item's result at a time, in input order.

    Tasks are drawn from ``tasks`` only as workers free up, and each result is
    yielded as soon as it and every one before it are done; with ``progress``
    a bar on stderr counts the items (of ``total``, when known). With one job
    the tasks run here, one after the other. Closing the iterator early stops
    the workers' remaining tasks.
    """
    results = _parallel(jobs, backend, "generator")(tasks)
    try:
        with progress_bar(total, label=label, enabled=progress) as advance:
            for _, batch in results:
                advance(len(batch))
                yield from batch
    finally:
        with warnings.catch_warnings():  # closed early: joblib's note of the tasks it cancels is no news
            warnings.filterwarnings("ignore", category=UserWarning, module="joblib")
            results.close()


@contextmanager
def dask_cluster(scheduler: str, *, jobs: int) -> Iterator[None]:
    """A Dask client for joblib's ``dask`` backend while the block runs.

    ``scheduler`` is the address of a running scheduler (``tcp://host:8786``);
    empty, a local cluster of ``jobs`` single-threaded worker processes (at
    most this machine's CPUs: :func:`usable_jobs`) is started and stopped with the block. The workers must be able to import
    this package (``pip install blackhole`` on each machine of a cluster).
    """
    from dask.distributed import Client, LocalCluster
    from joblib import parallel_config

    with ExitStack() as stack:
        if scheduler:
            stack.enter_context(Client(scheduler, set_as_default=True))
        else:
            cluster = LocalCluster(
                n_workers=usable_jobs(jobs),
                threads_per_worker=1,
                processes=True,
                dashboard_address=None,
                host="127.0.0.1",
                # Dask's own warnings (a worker killed as the cluster stops after Ctrl-C) would come before
                # the command's one line; its errors still show.
                silence_logs=logging.ERROR,
            )
            stack.enter_context(cluster)
            stack.enter_context(Client(cluster, set_as_default=True))
        stack.enter_context(parallel_config(backend="dask"))  # registers the backend with joblib
        yield


@contextmanager
def progress_bar(
    total: int | None, *, label: str, enabled: bool, completed: int = 0
) -> Iterator[Callable[[int], None]]:
    """A rich progress bar on stderr (nothing when not ``enabled``), from ``completed``; yields ``advance(n)``.

    ``total`` None: a count with no end (a stream of unknown length)."""
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


def _lengths(start: int, batch: list[str]) -> tuple[int, list[int]]:
    """A batch task for the doctest: the length of each item."""
    return start, [len(item) for item in batch]
