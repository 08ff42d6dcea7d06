"""``blackhole plays import``: gallery exports read, checked against their pack, merged, written as PLAYS.parquet.

Every file is checked whole before anything is written (:mod:`pipeline.plays.exports`,
:mod:`pipeline.plays.checks`), and the merge refuses two records of one id
that are not one attempt (:mod:`pipeline.plays.merge`): one bad record and
nothing is written, the one line of its error naming the file and the record.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pipeline.files import check_writable, is_standard_stream
from pipeline.plays.checks import check_export
from pipeline.plays.deals import pack_deals
from pipeline.plays.exports import read_export
from pipeline.plays.merge import merge_exports
from pipeline.plays.records import sources_of, write_plays


@dataclass(frozen=True)
class Imported:
    """What an import wrote: how many files, deals and attempts (finished or not), attempts found again."""

    out: Path
    files: int
    deals: int
    attempts: int
    finished: int
    repeated: int  # found again identical, kept once
    extended: int  # found again played further, the further one kept
    marked: dict[str, int]  # deals by mark (ship, reject)


def import_plays(files: Sequence[Path], pack: Path, out: Path) -> Imported:
    """Read the exports ``files`` (``-``: standard input), check them against the pack folder ``pack``, merge
    them and write ``out``."""
    out = check_writable(out, inputs=[pack, *(path for path in files if not is_standard_stream(path))])
    exports = [read_export(path) for path in files]
    wanted = {deal.deal_id for export in exports for deal in export.deals}
    deals = pack_deals(pack, wanted)
    for export in exports:
        check_export(export, deals)
    merged = merge_exports(exports, order=deals.deals)
    write_plays(
        out, merged.deals, pack=deals.name, curated_from=deals.curated_from, sources=sources_of(exports)
    )
    marks: dict[str, int] = {}
    for deal in merged.deals:
        if deal.mark is not None:
            marks[deal.mark.value] = marks.get(deal.mark.value, 0) + 1
    return Imported(
        out,
        len(files),
        len(merged.deals),
        merged.attempts,
        sum(attempt.finished for deal in merged.deals for attempt in deal.attempts),
        merged.repeated,
        merged.extended,
        marks,
    )
