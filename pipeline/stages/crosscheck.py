"""Cross-checking a solved pack's verdicts with CP-SAT, and the reference search when CP-SAT cannot tell.

A ``solved`` verdict is already certified by replaying its solution (the
pack's reader replays every one, and refuses a row whose verdict contradicts
its solution: :func:`pipeline.packs.parquet.check_rows`); an ``unsolvable``
one is only as good as the search and its prunes. So every
``unsolvable`` row is checked, and a seeded random sample of the ``solved``
ones: a row is sampled when a number drawn from SHA-256 of ``<seed>:<deal_id>``
falls below the fraction, so the sample depends on neither the row order nor
the other rows. Rows whose verdict is ``unknown`` have nothing to check.

For each checked deal :func:`pipeline.engine.cpsat.cpsat_solve` answers; its
solutions are replayed by the rules. When it answers ``unknown`` (time limit)
the plain reference search (:mod:`pipeline.engine.reference`, none of the solver's
prunes) settles the deal with its own node budget. The checked pack is the
solved pack with these columns added:

===============  =======  ===================================================
column           type     meaning
===============  =======  ===================================================
cpsat_verdict    string   ``solved``, ``unsolvable`` or ``unknown``; null
                          when the row was not checked
cpsat_seconds    float64  CP-SAT's wall-clock seconds; null when not checked
                          or written without timings
checked_by       string   ``cpsat`` or ``reference``: which check decided;
                          null when not checked or when neither could tell
agree            bool     the deciding check's verdict equals ``verdict``;
                          null when not checked or when neither could tell
===============  =======  ===================================================

>>> sampled("seed-1-0", "solved", fraction=1.0, seed=0), sampled("seed-1-0", "solved", fraction=0.0, seed=0)
(True, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa

from pipeline.engine.cpsat import LOSS_PROBING, cpsat_solve
from pipeline.engine.reference import reference_solve
from pipeline.errors import ArgumentError, of_type, shown_value
from pipeline.game.deal import Deal
from pipeline.game.games import Game
from pipeline.game.verdicts import SolveResult, Verdict
from pipeline.packs.parquet import with_columns
from pipeline.packs.schema import CHECK_FIELDS
from pipeline.stages.pack_pass import PackBatch, stage_pack
from pipeline.stages.sampling import share
from pipeline.stages.settings import CrosscheckSettings, PassOptions

_VERDICT_VALUES = tuple(verdict.value for verdict in Verdict)


@dataclass(frozen=True)
class Check:
    """One deal's check: CP-SAT's verdict and seconds, and which check decided with what verdict."""

    cpsat_verdict: Verdict
    cpsat_seconds: float
    checked_by: str | None  # "cpsat", "reference", or None when neither could tell
    verdict: Verdict | None  # the deciding check's verdict

    def agrees_with(self, verdict: Verdict | str) -> bool | None:
        """Whether the deciding check found ``verdict`` (a Verdict or its value); None when neither check could
        tell. A value that names no verdict is an ArgumentError, another type a TypeError.

        >>> Check(Verdict.UNKNOWN, 1.5, "reference", Verdict.SOLVED).agrees_with("solved")
        True
        """
        if verdict not in _VERDICT_VALUES:
            of_type(verdict, str, "verdict", "a Verdict or its value")
            raise ArgumentError(
                f"agrees_with: verdict {shown_value(verdict)} is not one of {', '.join(_VERDICT_VALUES)}"
            )
        return None if self.verdict is None else self.verdict.value == verdict

    def to_dict(self) -> dict[str, Any]:
        """The check as plain JSON-ready values, each under its field's name (a verdict by its value).

        >>> Check(Verdict.UNKNOWN, 1.5, "reference", Verdict.SOLVED).to_dict()
        {'cpsat_verdict': 'unknown', 'cpsat_seconds': 1.5, 'checked_by': 'reference', 'verdict': 'solved'}
        """
        return {
            "cpsat_verdict": self.cpsat_verdict.value,
            "cpsat_seconds": self.cpsat_seconds,
            "checked_by": self.checked_by,
            "verdict": None if self.verdict is None else self.verdict.value,
        }


@dataclass(frozen=True)
class Disagreement:
    """A checked row whose verdict the deciding check contradicts."""

    row: int
    deal_id: str
    verdict: str
    check: Check
    board: str


@dataclass(frozen=True)
class CrosscheckOutcome:
    """How many rows a cross-check checked and decided, and where it disagreed; outcomes of batches add."""

    checked: int = 0
    decided: int = 0
    disagreements: list[Disagreement] = field(default_factory=list)

    def __add__(self, other: CrosscheckOutcome) -> CrosscheckOutcome:
        return CrosscheckOutcome(
            self.checked + other.checked,
            self.decided + other.decided,
            self.disagreements + other.disagreements,
        )


def sampled(deal_id: str, verdict: str, *, fraction: float, seed: int, loss_fraction: float = 1.0) -> bool:
    """Whether the row is checked: ``solved`` ones with probability ``fraction``, ``unsolvable`` ones
    with probability ``loss_fraction`` (every one by default; a run may lower it, down to 0 for none)."""
    if verdict == Verdict.UNSOLVABLE.value:
        return loss_fraction >= 1.0 or share(f"loss:{seed}:{deal_id}") < loss_fraction
    if verdict != Verdict.SOLVED.value:
        return False
    return share(f"{seed}:{deal_id}") < fraction


def check_deal(deal: Deal, verdict: Verdict | str, *, time_limit: float, reference_nodes: int) -> Check:
    """CP-SAT's answer on ``deal``, whose ``verdict`` is under check; when it cannot tell, the reference search's.

    The verdict only sets how CP-SAT searches (probing proves a loss faster),
    never what counts as agreement.
    """
    probing = LOSS_PROBING if Verdict(verdict) is Verdict.UNSOLVABLE else 0
    answer = cpsat_solve(deal, time_limit=time_limit, probing_level=probing)
    if answer.verdict is not Verdict.UNKNOWN:
        return Check(answer.verdict, answer.seconds, "cpsat", answer.verdict)
    settled = reference_solve(deal, max_nodes=reference_nodes)
    if settled.verdict is Verdict.UNKNOWN:
        return Check(answer.verdict, answer.seconds, None, None)
    return Check(answer.verdict, answer.seconds, "reference", settled.verdict)


@dataclass(frozen=True)
class CrosscheckStage:
    """The cross-check as a stage (:class:`~pipeline.stages.stage.Stage`): CP-SAT, and the reference search
    when CP-SAT cannot tell, on the deals of its seeded sample, within ``settings``' budgets."""

    settings: CrosscheckSettings = field(default_factory=CrosscheckSettings)
    name = "crosscheck"
    label = "cross-checking"
    chunk = 4  # a check takes about half a second
    reads_results = True

    def picks(self, deal_id: str, result: SolveResult | None) -> bool:
        assert result is not None  # a cross-check follows a solve
        chosen = self.settings
        return sampled(
            deal_id,
            result.verdict.value,
            fraction=chosen.sample,
            seed=chosen.seed,
            loss_fraction=chosen.loss_sample,
        )

    def unpicked(self, result: SolveResult | None) -> Check | None:
        return None

    def apply(self, deal: Deal, result: SolveResult | None = None) -> Check:
        assert result is not None  # the verdict under check
        chosen = self.settings
        return check_deal(
            deal, result.verdict, time_limit=chosen.time_limit, reference_nodes=chosen.reference_nodes
        )

    def columns(self, table: pa.Table, outputs: Sequence[Check | None], *, timings: bool) -> pa.Table:
        return checked_table(table, outputs, timings=timings)

    def metadata(self) -> dict[str, str]:
        return self.settings.metadata()

    def sample_metadata(self) -> dict[str, str]:
        return self.settings.sample_metadata()


def crosscheck_pack(
    source: Path,
    target: Path,
    settings: CrosscheckSettings = CrosscheckSettings(),
    options: PassOptions = PassOptions(),
    *,
    game: Game | None = None,
) -> CrosscheckOutcome:
    """Check the verdicts of the solved pack file ``source``, a batch at a time; write the pack file ``target`` with the check columns.

    The deals are of the game the pack says (:func:`~pipeline.packs.family.pack_game`), which the
    checked pack says too; ``game``, when given, must be it (GameMixError naming ``source``).

    ``target`` is written (atomically) even when checks disagree; the outcome
    counts the rows checked and decided and lists the disagreements (rows
    numbered in the file). Raises PackError naming ``source`` before any
    checking when it is not a solved pack, and PackError or BoardError naming
    the row of the file when a batch holds a bad row.
    """

    def outcome(batch: PackBatch, checks: list[Check | None]) -> CrosscheckOutcome:
        return crosscheck_outcome(batch.table, checks, start=batch.start)

    outcomes = stage_pack(CrosscheckStage(settings), source, target, options, game=game, tally=outcome)
    return sum(outcomes, CrosscheckOutcome())


def crosscheck_outcome(
    table: pa.Table, checks: Sequence[Check | None], *, start: int = 0
) -> CrosscheckOutcome:
    """How many rows of ``table`` were checked and decided, and the disagreements, row by row.

    ``table`` is a batch of a pack file's rows beginning at row ``start`` of
    the file, which is how the disagreements number their rows.
    """
    ids, verdicts = table.column("deal_id").to_pylist(), table.column("verdict").to_pylist()
    boards = table.column("board").to_pylist()
    disagreements = [
        Disagreement(start + row, ids[row], verdicts[row], check, boards[row])
        for row, check in enumerate(checks)
        if check is not None and check.agrees_with(verdicts[row]) is False
    ]
    checked = sum(1 for check in checks if check is not None)
    decided = sum(1 for check in checks if check is not None and check.verdict is not None)
    return CrosscheckOutcome(checked, decided, disagreements)


def checked_table(table: pa.Table, checks: Sequence[Check | None], *, timings: bool = True) -> pa.Table:
    """``table`` (a solved pack) with the check columns for ``checks`` (None: not checked) added or replaced."""
    verdicts = table.column("verdict").to_pylist()
    columns: dict[str, Sequence[object]] = {
        "cpsat_verdict": [None if c is None else c.cpsat_verdict.value for c in checks],
        "cpsat_seconds": [None if c is None or not timings else c.cpsat_seconds for c in checks],
        "checked_by": [None if c is None else c.checked_by for c in checks],
        "agree": [None if c is None else c.agrees_with(v) for c, v in zip(checks, verdicts, strict=True)],
    }
    return with_columns(table, CHECK_FIELDS, columns)
