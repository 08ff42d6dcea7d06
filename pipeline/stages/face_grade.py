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

from pipeline.errors import of_type
from pipeline.game.deal import Deal
from pipeline.game.games import Game
from pipeline.game.verdicts import SolveResult
from pipeline.stages.face_batches import check_iterable, check_settings, checked_rows, stream_deals
from pipeline.stages.face_results import check_result
from pipeline.stages.grade import Grade, GradeStage, tiers_of_game
from pipeline.stages.settings import GradeSettings
from pipeline.stages.tiers import Tiers

GRADE_CHUNK = 4
"""The most deals :func:`grade_many` sends a worker at a time (a walk takes about a second and a half)."""


def grade(
    deal: Deal, result: SolveResult, settings: GradeSettings = GradeSettings(), *, tiers: Tiers | None = None
) -> Grade:
    """The grade of ``deal``, whose solve ``result`` is known: game-tree metrics, difficulty and tier.

    ``tiers`` default to those of ``settings.tiers`` (the default standing for the deal's game's own:
    :func:`~pipeline.stages.settings.tiers_for`; ConfigError naming the file when it is bad); a walk
    that needs more memory than ``settings.max_memory_mib`` or enters more positions than
    ``settings.max_positions`` gives the status ``out_of_budget`` and no metrics.

    ``result`` must be of ``deal`` (:func:`~pipeline.stages.face_results.check_result`: a win's
    solution replays on it, a claimed loss is solved again): else ArgumentError.
    """
    (deal, result), *_ = checked_rows([deal], [result], "result", SolveResult)
    check_settings(settings, GradeSettings)
    of_type(tiers, (Tiers, type(None)), "tiers", "a Tiers or None")
    check_result(deal, result, where="grade", losses=True)
    chosen = tiers_of_game(settings, deal.game) if tiers is None else tiers
    return GradeStage(settings, chosen).apply(deal, result)


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

    stages: dict[str, GradeStage] = {}  # one a game, its tiers read once

    def stage_of(game: Game) -> GradeStage:
        if game.name not in stages:
            stages[game.name] = GradeStage(
                settings, tiers_of_game(settings, game) if tiers is None else tiers
            )
        return stages[game.name]

    grades: Iterator[Grade] = stream_deals(
        deals,
        results,
        stage_of,
        jobs=jobs,
        progress=progress,
        label=GradeStage.label,
        largest=GRADE_CHUNK,
        where="grade_many",
        check=of_deal,
    )
    return grades
