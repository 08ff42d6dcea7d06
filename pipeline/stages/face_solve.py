"""The solver from Python: :func:`solve` one deal, :func:`solve_many` a stream of deals on the worker pool.

This module loads the engine and nothing else heavy (no OR-Tools, pandas or
Arrow): ``import pipeline; pipeline.solve(deal)`` costs the solver alone.

>>> from pipeline.game.shuffles import seeded_deal
>>> result = solve(seeded_deal(20261129, 0))
>>> result.verdict.value, len(result.solution)
('solved', 51)
>>> [r.verdict.value for r in solve_many(seeded_deal(20261129, i) for i in range(3))]
['solved', 'solved', 'solved']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from pipeline.errors import of_type
from pipeline.game.deal import Deal
from pipeline.game.games import DEFAULT_GAME, Game, game_named
from pipeline.game.verdicts import SolveResult
from pipeline.stages.face_batches import check_iterable, check_settings, stream_deals
from pipeline.stages.settings import SolveSettings
from pipeline.stages.stage import SolveStage, stage_batch

SOLVE_CHUNK = 64
"""The most deals :func:`solve_many` sends a worker at a time (a deal takes about a millisecond)."""


def solve(deal: Deal, settings: SolveSettings = SolveSettings()) -> SolveResult:
    """Solve ``deal`` from its opening: a win with its moves (replayed by the rules), a proved loss, or unknown.

    ``settings.max_nodes`` bounds the search; past it the verdict is unknown, never a guess. With
    ``settings.longest_play`` false a loss's ``max_cards_played`` is None (not sought).
    """
    of_type(deal, Deal, "deal")
    check_settings(settings, SolveSettings)
    return SolveStage(settings).apply(deal)


def solve_many(
    deals: Iterable[Deal],
    settings: SolveSettings = SolveSettings(),
    *,
    jobs: int = 1,
    progress: bool = False,
) -> Iterator[SolveResult]:
    """Solve each of ``deals`` (any iterable, of any games) on ``jobs`` workers: an iterator of their
    results in input order, each as :func:`solve` gives it.

    The deals are drawn as workers free up and each result is yielded as soon
    as it and those before it are done, so a long generator of deals never
    sits in memory whole. ``progress`` shows a bar on stderr. Arguments of the wrong type are a
    TypeError naming them, ``jobs`` out of 1 to 1024 an ArgumentError, at the call; a non-Deal
    among ``deals`` is a TypeError when it is reached.
    """
    check_settings(settings, SolveSettings)
    check_iterable(deals, "deals", "Deals")
    stage = SolveStage(settings)
    results: Iterator[SolveResult] = stream_deals(
        deals,
        None,
        lambda game: stage,
        jobs=jobs,
        progress=progress,
        label=stage.label,
        largest=SOLVE_CHUNK,
        where="solve_many",
    )
    return results


def solve_batch(
    start: int, boards: list[str], settings: SolveSettings, game: Game | str = DEFAULT_GAME
) -> tuple[int, list[SolveResult]]:
    """Solve the deals of ``boards`` (board text of ``game``, or of the game of that name): the solve
    stage's worker task (:func:`~pipeline.stages.stage.stage_batch`) for a caller that holds settings."""
    played = game if isinstance(game, Game) else game_named(game)
    return stage_batch(start, boards, [None] * len(boards), SolveStage(settings), played)
