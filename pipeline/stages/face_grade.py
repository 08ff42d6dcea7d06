"""Grading from Python: :func:`grade` one solved deal, :func:`grade_many` a stream of them on the worker pool.

A grade is the game-tree walk's metrics, every player's figures, the
difficulty and the tier (:class:`~pipeline.stages.grade.Grade`), under the
tiers shipped for the deal's game unless others are given.

>>> from pipeline.game.shuffles import seeded_deal
>>> from pipeline.stages.face_solve import solve
>>> deal = seeded_deal(20261129, 0)
>>> grade(deal, solve(deal)).tier.value
'easy'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from pipeline.errors import of_type
from pipeline.game.deal import Deal
from pipeline.game.games import Game
from pipeline.game.verdicts import SolveResult
from pipeline.stages.face_batches import (
    boards_of,
    check_iterable,
    check_settings,
    checked_rows,
    extras_of,
    stream_deals,
)
from pipeline.stages.face_results import check_result
from pipeline.stages.grade import Grade, grade_batch, grade_deal
from pipeline.stages.settings import GradeSettings, tiers_for
from pipeline.stages.tiers import Tiers, load_tiers

GRADE_CHUNK = 4
"""The most deals :func:`grade_many` sends a worker at a time (a walk takes about a second and a half)."""


def grade(
    deal: Deal, result: SolveResult, settings: GradeSettings = GradeSettings(), *, tiers: Tiers | None = None
) -> Grade:
    """The grade of ``deal``, whose solve ``result`` is known: game-tree metrics, difficulty and tier.

    ``tiers`` default to those of ``settings.tiers`` (the default standing for the deal's game's own:
    :func:`~pipeline.stages.settings.tiers_for`; ConfigError naming the file when it is bad); a walk
    past ``settings.max_positions`` gives the status ``out_of_budget`` and no metrics.

    ``result`` must be of ``deal`` (:func:`~pipeline.stages.face_results.check_result`: a win's
    solution replays on it, a claimed loss is solved again): else ArgumentError.
    """
    (deal, result), *_ = checked_rows([deal], [result], "result", SolveResult)
    check_settings(settings, GradeSettings)
    of_type(tiers, (Tiers, type(None)), "tiers", "a Tiers or None")
    check_result(deal, result, where="grade", losses=True)
    chosen = load_tiers(tiers_for(settings.tiers, deal.game)) if tiers is None else tiers
    return grade_deal(deal, result, max_positions=settings.max_positions, tiers=chosen)


def grade_many(
    deals: Iterable[Deal],
    results: Iterable[SolveResult],
    settings: GradeSettings = GradeSettings(),
    *,
    tiers: Tiers | None = None,
    jobs: int = 1,
    progress: bool = False,
) -> Iterator[Grade]:
    """Grade each of ``deals`` with its solve result from ``results`` (any iterables, of the same length)
    on ``jobs`` workers: an iterator of the grades in input order, each as :func:`grade` gives it.

    ``solve_many``'s iterator may be passed as ``results`` while it runs. The
    tiers files are read once per game, before the first deal of that game is
    sent. ``progress`` shows a bar on stderr. Each result is checked as :func:`grade` checks it,
    when it is drawn (ArgumentError naming its index).
    """
    check_settings(settings, GradeSettings)
    of_type(tiers, (Tiers, type(None)), "tiers", "a Tiers or None")
    check_iterable(deals, "deals", "Deals")
    check_iterable(results, "results", "SolveResults")

    def of_deal(deal: Deal, result: SolveResult, index: int) -> None:
        check_result(deal, result, where="grade_many", name=f"result {index}", losses=True)

    loaded: dict[str, Tiers] = {}

    def tiers_of(game: Game) -> Tiers:
        if tiers is not None:
            return tiers
        if game.name not in loaded:
            loaded[game.name] = load_tiers(tiers_for(settings.tiers, game))
        return loaded[game.name]

    def task(start: int, game: Game, rows: list[tuple[Deal, Any]]) -> Any:
        from joblib import delayed

        return delayed(grade_batch)(
            start, boards_of(rows), extras_of(rows), settings.max_positions, tiers_of(game), game.name
        )

    grades: Iterator[Grade] = stream_deals(
        deals,
        results,
        task,
        jobs=jobs,
        progress=progress,
        label="grading",
        largest=GRADE_CHUNK,
        where="grade_many",
        check=of_deal,
    )
    return grades
