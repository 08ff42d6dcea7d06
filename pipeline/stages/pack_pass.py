"""One pass of a stage over a pack file, batch by batch: read and check, map the work over the deals, add columns, append.

``blackhole solve``, ``crosscheck`` and ``grade`` each take a pack file and
write another with their columns added: :func:`stage_pack` is that pass, one
for every stage (:class:`~pipeline.stages.stage.Stage`), over the path
:func:`over_pack` lays down. It checks the destination before any work, then reads the source
:data:`~pipeline.packs.parquet.BATCH_ROWS` rows at a time, so memory holds
one batch whatever the file's size: each batch is checked, its deals are
parsed (a bad board named by its row in the file), its work runs on the
worker pool (:func:`map_rows`) and its rows are appended to the target, which
appears when the last batch is written, or not at all. The rows written do
not depend on the batch size; only the file's row groups follow the batches.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar

import pyarrow as pa

from pipeline.engine.warm import warm_before_workers
from pipeline.files import check_writable
from pipeline.game.deal import Deal
from pipeline.game.games import Game
from pipeline.game.verdicts import SolveResult, Verdict
from pipeline.packs.family import pack_game, same_game
from pipeline.packs.parquet import (
    BATCH_ROWS,
    PackError,
    deals_of,
    pack_file_row_count,
    read_pack_file,
    read_pack_file_batches,
    with_metadata,
    write_pack_file,
    writing_pack_file,
)
from pipeline.packs.schema import DEALS_SCHEMA, RESULT_FIELDS, SOLVED_SCHEMA
from pipeline.packs.seen import SeenNumbers, text_number
from pipeline.stages.settings import PassOptions
from pipeline.stages.stage import Stage, stage_batch
from pipeline.workers import map_batches, progress_bar

Outcome = TypeVar("Outcome")  # what the work gives for one item
Tally = TypeVar("Tally")  # what the work says of one batch


def _no_progress(rows: int) -> None:
    """An ``advance`` that shows nothing."""


@dataclass(frozen=True)
class PackBatch:
    """One batch of a pack file's rows: the file, the row of the file it starts at, the table, its deals parsed.

    ``advance(n)`` moves the pass's progress bar on by ``n`` rows of the batch done.
    """

    source: Path
    start: int
    table: pa.Table
    deals: list[Deal]
    advance: Callable[[int], None] = field(default=_no_progress, repr=False, compare=False)

    def name(self, row: int) -> str:
        """How a message names row ``row`` of the batch: by its row in the file, ``deals.parquet[10003]``."""
        return f"{self.source}[{self.start + row}]"


def over_pack(
    source: Path,
    target: Path,
    *,
    schema: pa.Schema,
    work: Callable[[PackBatch], tuple[pa.Table, Tally]],
    label: str = "working",
    options: PassOptions = PassOptions(),
    inputs: Sequence[Path] = (),
) -> list[Tally]:
    """``work`` over the pack file ``source`` batch by batch; the tables it returns written to the pack file ``target``.

    ``inputs`` are other files the pass reads (a tiers file), which ``target``
    may not be either. ``work(rows)`` returns the batch's output table and a small summary of
    it; the summaries come back, one a batch (never one a row). ``target``'s
    folder is checked first, then ``source``'s columns and types (PackError),
    all before any work; each batch's nulls and boards are checked as it is
    read (PackError, BoardError naming the row of the file). ``target`` is
    written whole or, on any error, not at all; a source without rows gives
    a target without rows. A progress bar of ``label`` counts the rows done
    when ``options.progress``; batches hold ``options.batch_rows`` rows.
    """
    check_writable(target, inputs=[source, *inputs])
    source = Path(source)
    batch_rows = BATCH_ROWS if options.batch_rows is None else options.batch_rows
    batches = _batches(source, read_pack_file_batches(source, schema, batch_rows=batch_rows))
    first = next(batches, None)  # the columns, and the first batch's rows, checked before any work
    if first is None:  # writing_pack_file writes nothing without a table: write the empty one whole
        written, summary = work(PackBatch(source, 0, read_pack_file(source, schema), []))
        write_pack_file(written, target)
        return [summary]
    summaries = []
    with (
        progress_bar(pack_file_row_count(source), label=label, enabled=options.progress) as advance,
        writing_pack_file(target) as write,
    ):
        for rows in itertools.chain([first], batches):
            written, summary = work(replace(rows, advance=advance))
            write(written)
            summaries.append(summary)
    return summaries


def _batches(source: Path, tables: Iterator[pa.Table]) -> Iterator[PackBatch]:
    """The batches ``tables`` of ``source`` that hold rows, their boards parsed (BoardError naming the row).

    A deal id that an earlier row holds too is a PackError naming both rows
    (ids are kept as :class:`~pipeline.packs.seen.SeenNumbers`, about 9 bytes a row).
    """
    start = 0
    seen = SeenNumbers()
    for table in tables:
        if not table.num_rows:
            continue
        for row, deal_id in enumerate(table.column("deal_id").to_pylist()):
            if not seen.add(text_number(deal_id)):
                _refuse_repeat(source, start + row, deal_id)
        yield PackBatch(source, start, table, deals_of(table, source=str(source), start=start))
        start += table.num_rows


def _refuse_repeat(source: Path, row: int, deal_id: str) -> None:
    """Raise PackError when the deal id ``deal_id`` of row ``row`` is on an earlier row of ``source`` too.

    The earlier row is looked up again, so two ids that merely share their
    64-bit number (about once in 10**19 pairs) are let through.
    """
    start = 0
    for table in read_pack_file_batches(source, pa.schema([]), columns=["deal_id"]):
        for at, found in enumerate(table.column("deal_id").to_pylist()):
            if start + at >= row:
                return
            if found == deal_id:
                raise PackError(
                    f"{source}[{row}]: deal {deal_id}: the id of row {start + at} too (ids are unique in a pack)"
                )
        start += table.num_rows


def map_rows(
    batch: PackBatch,
    batch_task: Callable[..., tuple[int, list[Outcome]]],
    items: Sequence[object],
    *arguments: object,
    per_item: Sequence[object] | None = None,
    options: PassOptions = PassOptions(),
    largest_batch: int = 32,
) -> list[Outcome]:
    """``batch_task`` over ``items`` (one for each of some of ``batch``'s deals) on ``options.jobs`` workers; input order.

    :func:`pipeline.workers.map_batches`, except that each chunk that comes
    back moves the pass's progress bar (``batch.advance``), so one bar counts
    the whole file rather than one bar a batch.
    """
    return map_batches(
        batch_task,
        items,
        *arguments,
        per_item=per_item,
        jobs=options.jobs,
        backend=options.backend,
        largest_batch=largest_batch,
        advance=batch.advance,
    )


RESULT_COLUMNS = tuple(field.name for field in RESULT_FIELDS)


def result_of_row(row: Mapping[str, Any]) -> SolveResult:
    """The :class:`SolveResult` a solved pack's row records (its columns by name; ``seconds`` 0.0 when the
    pack was written without timings).

    >>> result_of_row({"verdict": "unsolvable", "solution": [], "nodes": 4, "seconds": None, "max_cards_played": 3})
    SolveResult(verdict=<Verdict.UNSOLVABLE: 'unsolvable'>, solution=(), nodes=4, seconds=0.0, max_cards_played=3)
    """
    return SolveResult(
        Verdict(row["verdict"]),
        tuple(row["solution"]),
        row["nodes"],
        row["seconds"] or 0.0,
        row["max_cards_played"],
    )


def stage_pack(
    stage: Stage[Outcome],
    source: Path,
    target: Path,
    options: PassOptions,
    *,
    game: Game | None,
    tally: Callable[[PackBatch, list[Outcome]], Tally],
    inputs: Sequence[Path] = (),
) -> list[Tally]:
    """``stage`` over every deal of the pack file ``source`` that it picks, a batch at a time; ``target`` is
    ``source`` with the stage's columns and metadata. Returns ``tally(batch, outputs)`` of each batch.

    The deals are of the game the pack says (:func:`~pipeline.packs.family.pack_game`), which
    ``target`` says too; ``game``, when given, must be it (GameMixError naming ``source``). A stage
    that reads results takes a solved pack (each row's :func:`result_of_row`), the solver a deals
    pack. The deals picked go to ``options.jobs`` workers (:func:`~pipeline.stages.stage.stage_batch`,
    the stage whole); the engine is compiled here first, once, when there are workers.
    """

    def work(batch: PackBatch) -> tuple[pa.Table, Tally]:
        table = batch.table
        played = same_game(pack_game(table, source=str(source)), game, source=str(source))
        if options.jobs > 1:
            warm_before_workers([played])  # compiled here once, not in each worker
        ids = table.column("deal_id").to_pylist()
        results: list[SolveResult | None] = [None] * table.num_rows
        if stage.reads_results:
            results = [result_of_row(row) for row in table.select(RESULT_COLUMNS).to_pylist()]
        chosen = [row for row in range(table.num_rows) if stage.picks(ids[row], results[row])]
        batch.advance(table.num_rows - len(chosen))
        found = iter(
            map_rows(
                batch,
                stage_batch,
                [batch.deals[row].to_board_text() for row in chosen],
                stage,
                played,
                per_item=[results[row] for row in chosen],
                options=options,
                largest_batch=stage.chunk,
            )
        )
        picked = set(chosen)
        outputs: list[Outcome] = [
            next(found) if row in picked else stage.unpicked(result) for row, result in enumerate(results)
        ]
        written = stage.columns(table, outputs, timings=options.timings)
        return with_metadata(written, **stage.metadata(), **stage.sample_metadata()), tally(batch, outputs)

    schema = SOLVED_SCHEMA if stage.reads_results else DEALS_SCHEMA
    return over_pack(
        source, target, schema=schema, work=work, label=stage.label, options=options, inputs=inputs
    )
