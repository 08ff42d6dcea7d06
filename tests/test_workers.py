"""The worker pool: batches come back in input order with their own per-item values."""

import pytest

from pipeline.workers import map_batches, progress_bar

ITEMS = [f"board {i}" for i in range(12)]


def _paired(start: int, batch: list[str], values: list[int], offset: int) -> tuple[int, list[tuple]]:
    return start, [(item, value + offset) for item, value in zip(batch, values, strict=True)]


@pytest.mark.parametrize("batch_size", [1, 5, None])
def test_per_item_values_travel_with_their_own_items(batch_size):
    values = [10 * i for i in range(len(ITEMS))]
    found = map_batches(
        _paired, ITEMS, 3, per_item=values, jobs=2, backend="threading", batch_size=batch_size
    )
    assert found == [(item, value + 3) for item, value in zip(ITEMS, values, strict=True)]
    with pytest.raises(ValueError, match="11 per-item values for 12 items"):
        map_batches(_paired, ITEMS, 3, per_item=values[1:])


def _lengths(start: int, batch: list[str]) -> tuple[int, list[int]]:
    return start, [len(item) for item in batch]


@pytest.mark.parametrize(("jobs", "backend"), [(1, "sequential"), (2, "loky"), (3, "threading")])
def test_results_come_back_in_input_order_whatever_the_backend(jobs, backend):
    items = ["x" * n for n in range(40)]
    assert map_batches(_lengths, items, jobs=jobs, backend=backend, batch_size=3) == list(range(40))


def test_a_disabled_progress_bar_prints_nothing(capsys):
    with progress_bar(3, label="working", enabled=False) as advance:
        advance(3)
    assert capsys.readouterr() == ("", "")


def test_workers_on_this_machine_are_capped_at_its_cpus(monkeypatch):
    import joblib

    from pipeline.workers import MAX_JOBS, jobs_note, usable_jobs

    cpus = joblib.cpu_count()
    assert usable_jobs(MAX_JOBS) == cpus and usable_jobs(1) == 1
    assert usable_jobs(MAX_JOBS, "dask") == MAX_JOBS  # a cluster decides its own size
    assert jobs_note(cpus) is None and f"capped at {cpus}" in (jobs_note(cpus + 1) or "")
    started = []
    real = joblib.Parallel

    def parallel(n_jobs, **options):
        started.append(n_jobs)
        return real(n_jobs=n_jobs, **options)

    monkeypatch.setattr(joblib, "Parallel", parallel)
    assert map_batches(_lengths, ["a", "bb"], jobs=1000, backend="threading") == [1, 2]
    assert started == [cpus]


def _slow_first(start: int, batch: list[int]) -> tuple[int, list[int]]:
    """A batch task whose first batches finish last: the order must come from the stream, not the clock."""
    import time

    time.sleep(0.05 if start < 4 else 0.0)
    return start, [item * 10 for item in batch]


@pytest.mark.parametrize(("jobs", "backend"), [(1, "loky"), (3, "threading")])
def test_in_order_streams_a_generator_s_results_in_input_order(jobs, backend):
    from joblib import delayed

    from pipeline.workers import chunked, in_order

    drawn = []

    def items():
        for item in range(20):
            drawn.append(item)
            yield item

    tasks = (delayed(_slow_first)(start, chunk) for start, chunk in chunked(items(), 2))
    stream = in_order(tasks, jobs=jobs, backend=backend)
    assert drawn == []  # nothing drawn before the first result is asked for
    assert list(stream) == [item * 10 for item in range(20)]


def test_chunked_runs_hold_one_key_and_at_most_the_size():
    from pipeline.workers import chunked

    found = list(chunked([1, 1, 1, 2, 3, 3], 2, key=lambda item: item))
    assert found == [(0, [1, 1]), (2, [1]), (3, [2]), (4, [3, 3])]
    assert list(chunked([], 3)) == []


def test_a_stream_s_progress_bar_counts_without_a_total(capsys):
    from joblib import delayed

    from pipeline.workers import in_order

    tasks = (delayed(_lengths)(start, ["x" * start]) for start in range(3))
    assert list(in_order(tasks, jobs=1, progress=True, label="counting", total=None)) == [0, 1, 2]
    assert "counting" in capsys.readouterr().err
