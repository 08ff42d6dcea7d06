"""Each stage on one deal, from Python: typed objects in, typed objects out, a settings object for the rest.

What the pack passes do row by row, for a caller with a single :class:`~pipeline.game.deal.Deal`
(a game that wants a hint, a studio checking one level):

- :func:`solve`: the exact solver, a :class:`~pipeline.game.verdicts.SolveResult`;
- :func:`grade`: the game-tree grade of a solved deal, a :class:`~pipeline.stages.grade.Grade`,
  with its difficulty and tier under the default tiers (or the ones given);
- :func:`crosscheck`: CP-SAT's (or the reference search's) answer, a
  :class:`~pipeline.stages.crosscheck.Check`.

>>> from pipeline.game.shuffles import seeded_deal
>>> deal = seeded_deal(20261129, 0)
>>> result = solve(deal)
>>> result.verdict.value, len(result.solution)
('solved', 51)
>>> grade(deal, result).tier.value
'easy'
"""

from __future__ import annotations

from pipeline.engine.solver import solve as solve_from
from pipeline.game.deal import Deal
from pipeline.game.verdicts import SolveResult
from pipeline.stages.crosscheck import Check, check_deal
from pipeline.stages.grade import Grade, grade_deal
from pipeline.stages.settings import CrosscheckSettings, GradeSettings, SolveSettings, tiers_for
from pipeline.stages.tiers import Tiers, load_tiers


def solve(deal: Deal, settings: SolveSettings = SolveSettings()) -> SolveResult:
    """Solve ``deal`` from its opening: a win with its 51 moves (replayed by the rules), a proved loss, or unknown.

    ``settings.max_nodes`` bounds the search; past it the verdict is unknown, never a guess. With
    ``settings.longest_play`` false a loss's ``max_cards_played`` is None (not sought).
    """
    return solve_from(deal, max_nodes=settings.max_nodes, longest_play=settings.longest_play)


def grade(
    deal: Deal, result: SolveResult, settings: GradeSettings = GradeSettings(), *, tiers: Tiers | None = None
) -> Grade:
    """The grade of ``deal``, whose solve ``result`` is known: game-tree metrics, difficulty and tier.

    ``tiers`` default to those of ``settings.tiers`` (the default standing for the deal's game's own:
    :func:`~pipeline.stages.settings.tiers_for`; ConfigError naming the file when it is bad); a walk past ``settings.max_positions`` gives the
    status ``out_of_budget`` and no metrics.
    """
    chosen = load_tiers(tiers_for(settings.tiers, deal.game)) if tiers is None else tiers
    return grade_deal(deal, result, max_positions=settings.max_positions, tiers=chosen)


def crosscheck(deal: Deal, result: SolveResult, settings: CrosscheckSettings = CrosscheckSettings()) -> Check:
    """Check ``result``'s verdict on ``deal`` by CP-SAT, and by the reference search when CP-SAT cannot tell.

    ``check.agrees_with(result.verdict)`` says whether the check confirms the
    verdict (None when neither check could tell within ``settings``' budgets).
    """
    return check_deal(
        deal, result.verdict, time_limit=settings.time_limit, reference_nodes=settings.reference_nodes
    )
