"""A stage as one object: its settings, what it adds to a deal, its columns and its metadata.

Solve, cross-check and grade are each a :class:`Stage`: :class:`SolveStage`
here, :class:`~pipeline.stages.crosscheck.CrosscheckStage` and
:class:`~pipeline.stages.grade.GradeStage` beside their columns. The same
object serves the three ways a deal goes through a stage: a pack pass
(:func:`pipeline.stages.pack_pass.stage_pack`), a run's chain
(:mod:`pipeline.stages.chain`) and the one-deal and batch calls of the
Python face (``face_solve``, ``face_crosscheck``, ``face_grade``). It travels
whole, settings and tiers included, to the workers, whose one task is
:func:`stage_batch`.

A stage *picks* the deals it works on (a cross-check its seeded sample, a
grader the wins of its sample and every other verdict); a deal not picked
gets what :meth:`Stage.unpicked` says. Its metadata comes in two parts, so that
a run's files say every stage's settings first and then what only a sampled
stage says, and the tiers last, in the order packs have always had.

This module loads the engine alone (the solver): Arrow is loaded when a solve
stage writes its columns, as the face's ``solve`` promises.

>>> from pipeline.game.shuffles import seeded_deal
>>> SolveStage().apply(seeded_deal(20261129, 0)).verdict.value
'solved'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, TypeVar

from pipeline.engine import solver
from pipeline.game.deal import Deal
from pipeline.game.games import Game
from pipeline.game.verdicts import SolveResult
from pipeline.stages.settings import SolveSettings

if TYPE_CHECKING:
    import pyarrow as pa

Output = TypeVar("Output")


class Stage(Protocol[Output]):
    """What every stage is: a name, how its pass is shown and cut, and what it does to one deal and a table.

    ``reads_results``: the stage works on a solved deal (its input is a solved
    pack); ``chunk``: the most deals a pack pass sends a worker at a time.
    """

    name: str
    label: str
    chunk: int
    reads_results: bool

    def picks(self, deal_id: str, result: SolveResult | None) -> bool:
        """Whether the deal ``deal_id`` (of solve ``result``, None before solving) is worked on."""
        ...

    def unpicked(self, result: SolveResult | None) -> Output:
        """What a deal the stage does not pick gets."""
        ...

    def apply(self, deal: Deal, result: SolveResult | None = None) -> Output:
        """What the stage adds to ``deal``, whose solve ``result`` is known (None for the solver itself)."""
        ...

    def columns(self, table: pa.Table, outputs: Sequence[Output], *, timings: bool) -> pa.Table:
        """``table`` with the stage's columns for ``outputs`` (one a row) added or replaced."""
        ...

    def metadata(self) -> dict[str, str]:
        """The settings every pack of this stage records in its schema metadata."""
        ...

    def sample_metadata(self) -> dict[str, str]:
        """What a pack records after every stage's settings: the stage's sample when it samples (and the tiers)."""
        ...


def through(stage: Stage[Output], deal: Deal, deal_id: str, result: SolveResult | None) -> Output:
    """``deal`` through ``stage``: its output when the stage picks it, else what it gives a deal not picked."""
    return stage.apply(deal, result) if stage.picks(deal_id, result) else stage.unpicked(result)


def stage_batch(
    start: int,
    boards: list[str],
    results: list[SolveResult | None],
    stage: Stage[Output],
    game: Game,
) -> tuple[int, list[Output]]:
    """``stage`` on the deals of ``boards`` (board text of ``game``), each with its solve result from ``results``
    (None before solving): the one worker task of every stage, of the pack passes and the face alike."""
    return start, [
        stage.apply(Deal.from_board_text(board, game=game), result)
        for board, result in zip(boards, results, strict=True)
    ]


@dataclass(frozen=True)
class SolveStage:
    """The exact solver: every deal gets its verdict (a win replayed by the rules), within ``settings``' budget."""

    settings: SolveSettings = field(default_factory=SolveSettings)
    name = "solve"
    label = "solving"
    chunk = 32  # a deal takes about a millisecond
    reads_results = False

    def picks(self, deal_id: str, result: SolveResult | None) -> bool:
        return True

    def unpicked(self, result: SolveResult | None) -> SolveResult:
        raise AssertionError("the solver picks every deal")

    def apply(self, deal: Deal, result: SolveResult | None = None) -> SolveResult:
        return solver.solve(deal, max_nodes=self.settings.max_nodes, longest_play=self.settings.longest_play)

    def columns(self, table: pa.Table, outputs: Sequence[SolveResult], *, timings: bool) -> pa.Table:
        """``table`` with the result columns of ``outputs`` (replaced when there); without ``timings``
        ``seconds`` is null. An earlier solve's ``longest_play`` entry is dropped: this solve says its own."""
        from pipeline.packs.parquet import metadata, with_columns  # Arrow: only for a pack
        from pipeline.packs.schema import RESULT_FIELDS

        if len(outputs) != table.num_rows:
            raise ValueError(f"{len(outputs)} results for {table.num_rows} deals")
        columns: dict[str, Sequence[object]] = {
            "verdict": [result.verdict.value for result in outputs],
            "solution": [list(result.solution) for result in outputs],
            "nodes": [result.nodes for result in outputs],
            "seconds": [result.seconds if timings else None for result in outputs],
            "max_cards_played": [result.max_cards_played for result in outputs],
        }
        solved = with_columns(table, RESULT_FIELDS, columns)
        earlier = {key: value for key, value in metadata(solved).items() if key != "longest_play"}
        return solved.replace_schema_metadata(earlier)

    def metadata(self) -> dict[str, str]:
        return self.settings.metadata()

    def sample_metadata(self) -> dict[str, str]:
        return {}
