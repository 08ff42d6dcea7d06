"""What the face's batch calls share: their arguments checked where they enter, deals sent to the
worker pool in chunks of one game, results streamed back one at a time in input order.

``solve_many``, ``grade_many`` and ``crosscheck_many`` take any iterable (a
list, a generator) and return an iterator: a chunk of deals is drawn from the
input only when a worker is free for it, and each result comes back as soon
as it and every one before it are done (:func:`pipeline.workers.in_order`),
on the same workers and the same task as the command line's passes: the stage
whole (:func:`~pipeline.stages.stage.stage_batch`). Nothing heavier than the
solver is imported here: the solver's face loads the engine alone.

>>> list(checked_rows([1], [2], "result", int))
Traceback (most recent call last):
...
TypeError: deal 0 is an int, not a Deal
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sized
from typing import Any

from pipeline.errors import ArgumentError, located, of_type, whole_number
from pipeline.game.deal import Deal
from pipeline.game.games import Game
from pipeline.game.verdicts import SolveResult
from pipeline.stages.stage import Stage, stage_batch
from pipeline.workers import MAX_JOBS, batch_size_for, chunked, in_order

_END = object()  # what an exhausted input of extras gives

RowCheck = Callable[[Deal, Any, int], None]
"""Checks one row where it enters: ``check(deal, extra, index)`` raises when the extra is not of the deal."""


def check_jobs(jobs: int, where: str = "jobs") -> int:
    """``jobs`` when it is a whole number of workers from 1 to :data:`~pipeline.workers.MAX_JOBS`:
    else TypeError (not a whole number) or ArgumentError (out of range), naming ``where``, the call.

    >>> check_jobs(0, "solve_many")
    Traceback (most recent call last):
    ...
    pipeline.errors.ArgumentError: solve_many: jobs must be from 1 to 1024, got 0
    """
    return whole_number(jobs, "jobs", lowest=1, highest=MAX_JOBS, where=where)


def check_iterable(items: object, name: str, of: str) -> None:
    """Refuse ``items`` with a TypeError naming ``name`` unless it is an iterable (of ``of``; a text is
    not one here).

    >>> check_iterable("Foundations: AS", "deals", "Deals")
    Traceback (most recent call last):
    ...
    TypeError: deals must be an iterable of Deals, got str
    """
    if isinstance(items, str | bytes) or not isinstance(items, Iterable):
        raise TypeError(f"{name} must be an iterable of {of}, got {type(items).__name__}")


def check_settings(settings: object, kind: type) -> None:
    """Refuse ``settings`` unless it is a ``kind`` (a stage's settings object).

    >>> check_settings(10, dict)
    Traceback (most recent call last):
    ...
    TypeError: settings must be a dict, got an int
    """
    if not isinstance(settings, kind):
        raise TypeError(f"settings must be {_a(kind)}, got {_a(type(settings))}")


def _a(kind: type) -> str:
    name = kind.__name__
    return f"an {name}" if name[0].lower() in "aeiou" else f"a {name}"


def checked_rows(
    deals: Iterable[Any],
    extras: Iterable[Any] | None,
    extra_name: str,
    extra_type: type,
    check: RowCheck | None = None,
    *,
    where: str = "",
) -> Iterator[tuple[Deal, Any]]:
    """``(deal, extra)`` pairs drawn one at a time from ``deals`` and ``extras`` (None: each extra None),
    each checked as it is drawn: TypeError naming the first item that is not a Deal (or not an
    ``extra_type``), ArgumentError (a ValueError) naming ``where`` (the call) when the two inputs
    differ in length, and what ``check(deal, extra, index)`` raises. Inputs that are not iterables
    are refused at once, before any is drawn."""
    check_iterable(deals, "deals", "Deals")
    if extras is not None:
        check_iterable(extras, f"{extra_name}s", f"{extra_type.__name__}s")
    return _checked_rows(
        iter(deals), None if extras is None else iter(extras), extra_name, extra_type, check, where
    )


def _checked_rows(
    deals: Iterator[Any],
    others: Iterator[Any] | None,
    extra_name: str,
    extra_type: type,
    check: RowCheck | None,
    where: str,
) -> Iterator[tuple[Deal, Any]]:
    def refused(problem: str) -> ArgumentError:
        return ArgumentError(located(problem, source=where) if where else problem)

    index = -1
    for index, deal in enumerate(deals):
        if not isinstance(deal, Deal):
            raise TypeError(f"deal {index} is {_a(type(deal))}, not a Deal")
        if others is None:
            yield deal, None
            continue
        extra = next(others, _END)
        if extra is _END:
            raise refused(f"no {extra_name} for deal {index}: fewer {extra_name}s than deals")
        if not isinstance(extra, extra_type):
            raise TypeError(f"{extra_name} {index} is {_a(type(extra))}, not {_a(extra_type)}")
        if check is not None:
            check(deal, extra, index)
        yield deal, extra
    if others is not None and next(others, _END) is not _END:
        raise refused(f"more {extra_name}s than the {index + 1} deals")


def stream_deals(
    deals: Iterable[Any],
    results: Iterable[Any] | None,
    stage_of: Callable[[Game], Stage[Any]],
    *,
    jobs: int,
    progress: bool,
    label: str,
    largest: int,
    where: str,
    check: RowCheck | None = None,
) -> Iterator[Any]:
    """What the stage ``stage_of(game)`` gives each of ``deals`` (each with its solve result from ``results``;
    None: none), one at a time in input order: ``jobs`` checked, each row checked as it is drawn
    (:func:`checked_rows`), chunks of at most ``largest`` rows of one game, each sent to a worker with
    the stage whole (:func:`~pipeline.stages.stage.stage_batch`).

    A list's length sizes the chunks and the progress bar (a stream has none).
    Before the first chunk of a game goes to workers, its engine is compiled
    here, once (:func:`~pipeline.engine.warm.warm_before_workers`), so that
    they load it rather than each compile it.
    """
    check_jobs(jobs, where)
    of_type(progress, bool, "progress")
    rows = checked_rows(deals, results, "result", SolveResult, check, where=where)
    total = length_of(deals)

    def tasks() -> Iterator[Any]:
        from joblib import delayed

        warmed: set[str] = set()
        for start, chunk in chunked(rows, batch_size_for(total, jobs, largest=largest), key=_game_name):
            game = chunk[0][0].game
            if jobs > 1 and game.name not in warmed:
                from pipeline.engine.warm import warm_before_workers  # the engine whole: only for workers

                warm_before_workers([game])
                warmed.add(game.name)
            boards = [deal.to_board_text() for deal, _ in chunk]
            yield delayed(stage_batch)(start, boards, [extra for _, extra in chunk], stage_of(game), game)

    return in_order(tasks(), jobs=jobs, progress=progress, label=label, total=total)


def _game_name(row: tuple[Deal, Any]) -> str:
    return row[0].game.name


def length_of(items: Iterable[Any]) -> int | None:
    """How many ``items`` there are when that is known without drawing them (a list's length); None for a stream."""
    return len(items) if isinstance(items, Sized) else None
