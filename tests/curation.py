"""Curation of a table in memory, the plain version beside :func:`pipeline.stages.curate.curate_folder`.

The same rules (:class:`~pipeline.stages.curation_rules.Selection`) and quotas
over one whole table, sorted in memory: what the streamed, externally sorted
curation of a pack folder must agree with, and a quick curated table for the
tests of exports.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import pyarrow as pa
import pyarrow.compute as pc

from pipeline.packs.schema import LEVEL_FIELD
from pipeline.stages.curate import checked_order
from pipeline.stages.curation_rules import Selection
from pipeline.stages.difficulty_sort import DIFFICULTY_ORDER
from pipeline.stages.quotas import checked_quotas
from pipeline.stages.settings import CurateOrder


@dataclass(frozen=True)
class Curation:
    """A curated table and how it was reached: the rows each rule dropped, the tiers short of their quota."""

    table: pa.Table = field(repr=False)
    shortfalls: dict[str, tuple[int, int]]  # tier -> (wanted, available), only tiers short of their quota
    dropped: dict[str, int]  # rows dropped by each rule, as the manifest names them


def curate(
    table: pa.Table,
    *,
    per_tier: Mapping[str, int] | None = None,
    order: CurateOrder | str = CurateOrder.DIFFICULTY,
) -> Curation:
    """The rows of the graded pack ``table`` that make a puzzle pack, with ``level``, all in memory."""
    order = checked_order(order)
    selection = Selection(checked_quotas(per_tier))
    kept = selection.keep(table)
    if order is CurateOrder.DIFFICULTY:
        kept = kept.take(pc.sort_indices(kept, sort_keys=DIFFICULTY_ORDER))
    levels = pa.array(range(1, kept.num_rows + 1), pa.int32())
    return Curation(kept.append_column(LEVEL_FIELD, levels), selection.shortfalls(), dict(selection.dropped))
