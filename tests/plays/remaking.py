"""PLAYS.parquet files remade with their attempts changed: modes, clocks and outcomes an older export cannot hold."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from pipeline.plays.exports import Attempt
from pipeline.plays.records import read_plays, write_plays


def with_attempts(plays: Path, out: Path, change: Callable[[str, int, Attempt], Attempt]) -> Path:
    """Write to ``out`` the records of ``plays`` with each attempt (of a deal id, at a place) as ``change`` gives it."""
    records = read_plays(plays)
    deals = [
        replace(deal, attempts=tuple(change(deal.deal_id, place, a) for place, a in enumerate(deal.attempts)))
        for deal in records.deals
    ]
    write_plays(
        out,
        deals,
        pack=records.pack,
        curated_from=records.curated_from,
        sources=records.sources,
        game=records.game,
    )
    return out
