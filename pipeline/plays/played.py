"""Play records read with the pack they are of: what ``report``, ``calibrate`` and ``curate`` ``--plays`` start from.

:func:`played_pack` reads a PLAYS.parquet (:func:`pipeline.plays.records.read_plays`)
and the deals of a pack folder it names (:func:`pipeline.plays.deals.pack_deals`),
once they belong together: the records were made against this pack, against
the pack it was curated from, or against a curated pack of it (the deal ids
are the same in a pack and its curated packs), of its game; and every deal
they name is in it. Anything else is one PlaysError line naming the file.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pipeline.free_text import printable
from pipeline.plays.deals import PackDeals, pack_deals
from pipeline.plays.exports import PlaysError
from pipeline.plays.records import PlayRecords, read_plays


@dataclass(frozen=True)
class PlayedPack:
    """Play records and their pack's deals (every deal the records name, and only those)."""

    records: PlayRecords
    pack: PackDeals


def played_pack(plays: Path, pack: Path) -> PlayedPack:
    """The records in ``plays`` with the deals of the pack folder ``pack``; PlaysError when they do not belong together."""
    records = read_plays(plays)
    deals = pack_deals(pack, {deal.deal_id for deal in records.deals})
    pack_names = {deals.name, *([deals.curated_from] if deals.curated_from else [])}
    if not pack_names & set(records.names()):
        raise PlaysError(
            f"{plays}: play records of the pack {records.pack!r}, not of {deals.name!r} ({pack}) "
            "nor of a pack it was curated from or into"
        )
    if records.game is not deals.game:
        raise PlaysError(
            f"{plays}: play records of {records.game.title}, but the pack {deals.name!r} ({pack}) is of "
            f"{deals.game.title}: games are never mixed"
        )
    missing = [deal.deal_id for deal in records.deals if deal.deal_id not in deals.deals]
    if missing:
        more = f" and {len(missing) - 1} more" if len(missing) > 1 else ""
        raise PlaysError(
            f"{plays}: the deal {printable(missing[0])}{more} of the records is not in the pack {deals.name!r}"
        )
    return PlayedPack(records, deals)
