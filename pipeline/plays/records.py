"""``PLAYS.parquet``: merged play records, one row per deal with its attempts, written atomically and read back.

The file's columns (:data:`PLAYS_SCHEMA`, ``docs/schema.md`` "Play records"):
``deal_id``, ``note``, ``mark`` and ``attempts``, a list of one struct per
attempt with the export's fields (times as UTC timestamps, the events as
small integers: :func:`pipeline.plays.events.event_codes`) and ``gallery``,
the build it was played in. Rows come in the pack's order, attempts by start
time. The schema metadata says which pack the records are of
(``blackhole_plays_pack``, and ``blackhole_plays_curated_from`` when that
pack was curated from another) and which exports they were merged from
(``blackhole_plays_sources``: JSON, a list of each file's name, SHA-256,
gallery, title and export time).

:func:`read_plays` checks a file has these columns and types and what a
row may hold (a mark, an outcome, events) before anything uses it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from pipeline import __version__
from pipeline.files import check_writable, replacing
from pipeline.plays.events import COUNT_FIELDS, event_codes, events_of_codes
from pipeline.plays.exports import Attempt, DealPlays, Mark, Outcome, PlayExport, PlaysError

COUNT_TYPE = pa.int32()
ATTEMPT_TYPE = pa.struct(
    [
        pa.field("id", pa.string(), nullable=False),
        pa.field("gallery", pa.string(), nullable=False),
        pa.field("started", pa.timestamp("us", tz="UTC"), nullable=False),
        pa.field("ended", pa.timestamp("us", tz="UTC")),
        pa.field("seconds", pa.float64(), nullable=False),
        pa.field("outcome", pa.string(), nullable=False),
        pa.field("events", pa.list_(pa.int8()), nullable=False),
        *(pa.field(name, COUNT_TYPE, nullable=False) for name in COUNT_FIELDS),
        pa.field("clean", pa.bool_(), nullable=False),
    ]
)
PLAYS_SCHEMA = pa.schema(
    [
        pa.field("deal_id", pa.string(), nullable=False),
        pa.field("note", pa.string(), nullable=False),
        pa.field("mark", pa.string()),
        pa.field("attempts", pa.list_(pa.field("item", ATTEMPT_TYPE, nullable=False)), nullable=False),
    ]
)
PACK_KEY = "blackhole_plays_pack"
CURATED_FROM_KEY = "blackhole_plays_curated_from"
SOURCES_KEY = "blackhole_plays_sources"


@dataclass(frozen=True)
class Source:
    """One export a PLAYS.parquet was merged from."""

    file: str
    sha256: str
    gallery: str
    title: str
    exported: str  # ISO 8601, as the export says it


@dataclass(frozen=True)
class PlayRecords:
    """A PLAYS.parquet read back: the pack it is of (and the one that pack was curated from), its sources, its deals."""

    path: Path
    pack: str
    curated_from: str | None
    sources: tuple[Source, ...]
    deals: tuple[DealPlays, ...]

    def names(self) -> tuple[str, ...]:
        """The pack names these records were made against: a pack carrying either may read them."""
        return (self.pack,) if self.curated_from is None else (self.pack, self.curated_from)


def sources_of(exports: Sequence[PlayExport]) -> tuple[Source, ...]:
    """Each export's :class:`Source` entry, in order (an export given twice is listed once)."""
    found = {
        (export.source, export.sha256): Source(
            Path(export.source).name, export.sha256, export.gallery, export.title, export.exported.isoformat()
        )
        for export in exports
    }
    return tuple(found.values())


def write_plays(
    path: Path,
    deals: Sequence[DealPlays],
    *,
    pack: str,
    curated_from: str | None,
    sources: Sequence[Source],
) -> None:
    """Write ``deals`` to the PLAYS.parquet at ``path`` (zstd) atomically: all of it or, on any error, nothing."""
    path = check_writable(path)
    rows = [
        {
            "deal_id": deal.deal_id,
            "note": deal.note,
            "mark": None if deal.mark is None else deal.mark.value,
            "attempts": [_attempt_row(attempt) for attempt in deal.attempts],
        }
        for deal in deals
    ]
    entries = {
        "blackhole_version": __version__,
        PACK_KEY: pack,
        SOURCES_KEY: json.dumps([source.__dict__ for source in sources]),
    }
    if curated_from is not None:
        entries[CURATED_FROM_KEY] = curated_from
    table = pa.Table.from_pylist(rows, schema=PLAYS_SCHEMA).replace_schema_metadata(entries)
    with replacing(path) as sink:
        pq.write_table(table, sink, compression="zstd")


def _attempt_row(attempt: Attempt) -> dict[str, Any]:
    return {
        "id": attempt.id,
        "gallery": attempt.gallery,
        "started": attempt.started.astimezone(UTC),
        "ended": None if attempt.ended is None else attempt.ended.astimezone(UTC),
        "seconds": attempt.seconds,
        "outcome": attempt.outcome.value,
        "events": event_codes(attempt.events),
        **attempt.counts(),
        "clean": attempt.clean,
    }


def read_plays(path: Path) -> PlayRecords:
    """The play records in the PLAYS.parquet at ``path``; PlaysError naming the file (and row) when it is not one."""
    path = Path(path)
    if path.is_dir():
        raise PlaysError(f"{path}: is a folder, expected a PLAYS.parquet file (blackhole plays import)")
    try:
        table = pq.read_table(path)
    except FileNotFoundError:
        raise PlaysError(f"{path}: no such file") from None
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError, OSError) as error:
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise PlaysError(f"{path}: not a readable Parquet file ({reason})") from None
    entries = {key.decode(): value.decode() for key, value in (table.schema.metadata or {}).items()}
    if PACK_KEY not in entries or not table.schema.remove_metadata().equals(PLAYS_SCHEMA):
        raise PlaysError(f"{path}: not a PLAYS.parquet of blackhole plays import (other columns or metadata)")
    try:
        sources = tuple(Source(**entry) for entry in json.loads(entries.get(SOURCES_KEY, "[]")))
    except (ValueError, TypeError):
        raise PlaysError(
            f"{path}: its {SOURCES_KEY} metadata is not the list of exports it was made from"
        ) from None
    deals = tuple(
        _deal_of(row, f"{path}: row {number} ({row['deal_id']})")
        for number, row in enumerate(table.to_pylist())
    )
    return PlayRecords(path, entries[PACK_KEY], entries.get(CURATED_FROM_KEY), sources, deals)


def _deal_of(row: dict[str, Any], where: str) -> DealPlays:
    try:
        mark = None if row["mark"] is None else Mark(row["mark"])
        attempts = tuple(_attempt_of(item) for item in row["attempts"])
    except ValueError as error:
        raise PlaysError(f"{where}: {error}") from None
    return DealPlays(row["deal_id"], row["note"], mark, attempts)


def _attempt_of(item: dict[str, Any]) -> Attempt:
    codes = item["events"]
    if not codes or any(not -4 <= code <= 16 for code in codes):
        raise ValueError(f"attempt {item['id']}: events hold a code that is no pile 0..16 or action -1..-4")
    return Attempt(
        id=item["id"],
        started=_utc(item["started"]),
        ended=None if item["ended"] is None else _utc(item["ended"]),
        seconds=item["seconds"],
        outcome=Outcome(item["outcome"]),
        events=tuple(events_of_codes(codes)),
        **{name: item[name] for name in COUNT_FIELDS},
        clean=item["clean"],
        gallery=item["gallery"],
    )


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
