"""The cross-check from Python: :func:`crosscheck` one solved deal, :func:`crosscheck_many` a stream of them
on the worker pool.

CP-SAT answers, and the reference search when CP-SAT cannot tell within its
budget (:class:`~pipeline.stages.crosscheck.Check`).

>>> from pipeline.game.shuffles import pysol_deal
>>> from pipeline.stages.face_solve import solve
>>> lost = pysol_deal(1)
>>> crosscheck(lost, solve(lost)).agrees_with("unsolvable")
True
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from pipeline.game.deal import Deal
from pipeline.game.verdicts import SolveResult
from pipeline.stages.crosscheck import Check, CrosscheckStage
from pipeline.stages.face_batches import check_iterable, check_settings, checked_rows, stream_deals
from pipeline.stages.face_results import check_result
from pipeline.stages.settings import CrosscheckSettings

CROSSCHECK_CHUNK = 4
"""The most deals :func:`crosscheck_many` sends a worker at a time (a check takes about half a second)."""


def crosscheck(deal: Deal, result: SolveResult, settings: CrosscheckSettings = CrosscheckSettings()) -> Check:
    """Check ``result``'s verdict on ``deal`` by CP-SAT, and by the reference search when CP-SAT cannot tell.

    ``check.agrees_with(result.verdict)`` says whether the check confirms the
    verdict (None when neither check could tell within ``settings``' budgets).

    ``result`` must be of ``deal`` as far as it shows (:func:`~pipeline.stages.face_results.check_result`:
    its fields in range, a win's solution replays on it): else ArgumentError. A claimed loss is not
    solved again: a wrong verdict is what the check answers (``agrees_with`` false).
    """
    (deal, result), *_ = checked_rows([deal], [result], "result", SolveResult)
    check_settings(settings, CrosscheckSettings)
    check_result(deal, result, where="crosscheck", losses=False)
    return CrosscheckStage(settings).apply(deal, result)


def crosscheck_many(
    deals: Iterable[Deal],
    results: Iterable[SolveResult],
    settings: CrosscheckSettings = CrosscheckSettings(),
    *,
    jobs: int = 1,
    progress: bool = False,
) -> Iterator[Check]:
    """Check each of ``deals``' verdicts in ``results`` (any iterables, of the same length) on ``jobs``
    workers: an iterator of the checks in input order, each as :func:`crosscheck` gives it.

    Every deal given is checked (``settings.sample`` chooses deals in a pack's
    pass, not here). ``progress`` shows a bar on stderr. Each result is checked as
    :func:`crosscheck` checks it, when it is drawn.
    """
    check_settings(settings, CrosscheckSettings)
    check_iterable(deals, "deals", "Deals")
    check_iterable(results, "results", "SolveResults")

    def of_deal(deal: Deal, result: SolveResult, index: int) -> None:
        check_result(deal, result, where="crosscheck_many", name=f"result {index}", losses=False)

    stage = CrosscheckStage(settings)
    checks: Iterator[Check] = stream_deals(
        deals,
        results,
        lambda game: stage,
        jobs=jobs,
        progress=progress,
        label=stage.label,
        largest=CROSSCHECK_CHUNK,
        where="crosscheck_many",
        check=of_deal,
    )
    return checks
