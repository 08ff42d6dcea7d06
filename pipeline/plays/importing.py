"""``blackhole plays import``: gallery exports read, checked against their pack, merged, written as PLAYS.parquet.

Each file is read a record at a time (:func:`pipeline.plays.exports.read_export`
with a sink), every record checked as it comes and put in a spool on disk
(:mod:`pipeline.plays.spool`); once every file is read, the attempts are
replayed against their pack's deals (:mod:`pipeline.plays.checks`) and merged
by id (:mod:`pipeline.plays.merge`'s rules), and PLAYS.parquet is written a
batch of deals at a time: memory stays that of one record and one batch,
whatever the size and number of the files. One bad record and nothing is
written, the one line of its error naming the file and the record.

A file's gallery build id is provenance, not checked against the pack: the
pack's deals are the check (every attempt replays on its deal), and a
gallery rebuilt from the same pack (another build id) plays the same deals.
The summary says from how many builds the records came when more than one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pipeline.files import check_writable, is_standard_stream
from pipeline.plays.checks import check_pack
from pipeline.plays.deals import pack_deals
from pipeline.plays.exports import PlayExport, read_export
from pipeline.plays.records import sources_of, write_plays_batches
from pipeline.plays.spool import spooled


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
    galleries: int = 1  # gallery builds the files came from


def import_plays(files: Sequence[Path], pack: Path, out: Path) -> Imported:
    """Read the exports ``files`` (``-``: standard input), check them against the pack folder ``pack``, merge
    them and write ``out``."""
    from pipeline.packs.manifest import read_manifest

    out = check_writable(out, inputs=[pack, *(path for path in files if not is_standard_stream(path))])
    manifest = read_manifest(pack)
    heads: list[PlayExport] = []
    with spooled(out) as spool:
        for place, path in enumerate(files):
            head = read_export(path, spool.reader(place, str(path)))
            check_pack(head, name=manifest.name, game=manifest.played, folder=pack)
            spool.add_source(place, head)
            heads.append(head)
        deals = pack_deals(pack, spool.deal_ids())
        spool.check(deals)
        merged = spool.merge()
        write_plays_batches(
            out,
            spool.tables(list(deals.deals)),
            pack=deals.name,
            curated_from=deals.curated_from,
            sources=sources_of(heads),
            game=deals.game,
        )
    return Imported(
        out,
        len(files),
        spool.written,
        merged.attempts,
        merged.finished,
        merged.repeated,
        merged.extended,
        spool.marked,
        len({head.gallery for head in heads}),
    )
