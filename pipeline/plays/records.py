"""``PLAYS.parquet``: merged play records, one row per deal with its attempts, written atomically and read back.

The file's columns (:data:`PLAYS_SCHEMA`, ``docs/schema.md`` "Play records"):
``deal_id``, ``note``, ``mark`` and ``attempts``, a list of one struct per
attempt with the export's fields (times as UTC timestamps, the events as
small integers: :func:`pipeline.plays.events.event_codes`), ``gallery``,
the build it was played in, and last its ``mode``, ``timed`` and
``move_limit``. A file written before modes were recorded, whose attempts
end at ``clean`` (:data:`PLAYS_SCHEMA_V1`), is still read: its attempts
relaxed and untimed. Rows come in the pack's order, attempts by start
time. The schema metadata says which pack the records are of
(``blackhole_plays_pack``, and ``blackhole_plays_curated_from`` when that
pack was curated from another; ``blackhole_plays_game``, the pack's game,
when it is not Black Hole) and which exports they were merged from
(``blackhole_plays_sources``: JSON, a list of each file's name, SHA-256,
gallery, title and export time).

:func:`write_plays_batches` writes the rows a batch at a time (``plays
import`` hands them on as it merges them), :func:`write_plays` all at once.
:func:`read_plays` checks a file has these columns and types and what a
row may hold (a mark, an outcome, a mode, events, every number and time
within the range an import lets through) before anything uses it.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import Enum
from pathlib import Path
from typing import Any, TypeVar

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from pipeline.files import check_writable, replacing
from pipeline.free_text import printable
from pipeline.game.games import BLACK_HOLE, Game, UnknownGame, recorded_game
from pipeline.plays.events import COUNT_FIELDS, event_codes, events_of_codes
from pipeline.plays.exports import (
    MOVE_LIMITS,
    Attempt,
    DealPlays,
    Mark,
    Mode,
    Outcome,
    PlayExport,
    PlaysError,
    contradiction,
    export_schema,
)
from pipeline.version import VERSION

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
        pa.field("mode", pa.string(), nullable=False),
        pa.field("timed", pa.bool_(), nullable=False),
        pa.field("move_limit", pa.int32()),
    ]
)
MODE_FIELDS = ("mode", "timed", "move_limit")
"""The attempt's fields a PLAYS.parquet written before modes lacks (its attempts relaxed and untimed)."""


def _plays_schema(attempt: pa.StructType) -> pa.Schema:
    return pa.schema(
        [
            pa.field("deal_id", pa.string(), nullable=False),
            pa.field("note", pa.string(), nullable=False),
            pa.field("mark", pa.string()),
            pa.field("attempts", pa.list_(pa.field("item", attempt, nullable=False)), nullable=False),
        ]
    )


PLAYS_SCHEMA = _plays_schema(ATTEMPT_TYPE)
PLAYS_SCHEMA_V1 = _plays_schema(pa.struct([field for field in ATTEMPT_TYPE if field.name not in MODE_FIELDS]))
"""The columns of a PLAYS.parquet written before modes were recorded: read, never written."""
PACK_KEY = "blackhole_plays_pack"
CURATED_FROM_KEY = "blackhole_plays_curated_from"
PLAYED_GAME_KEY = "blackhole_plays_game"
SOURCES_KEY = "blackhole_plays_sources"
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)


def micros_of(moment: datetime) -> int:
    """``moment`` (with its offset) as microseconds since 1970 in UTC, as PLAYS.parquet holds times.

    >>> micros_of(datetime(1970, 1, 1, 0, 0, 1, tzinfo=UTC)), moment_of(1_000_000).isoformat()
    (1000000, '1970-01-01T00:00:01+00:00')
    """
    return (moment - _EPOCH) // _MICROSECOND


def moment_of(micros: int) -> datetime:
    """The UTC time ``micros`` microseconds after 1970 (:func:`micros_of` back)."""
    return _EPOCH + micros * _MICROSECOND


_TIME_RANGE = (  # the microseconds since 1970 a Python datetime holds: years 1 to 9999
    micros_of(datetime.min.replace(tzinfo=UTC)),
    micros_of(datetime.max.replace(tzinfo=UTC)),
)


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
    game: Game = BLACK_HOLE

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
    game: Game = BLACK_HOLE,
) -> None:
    """Write ``deals`` to the PLAYS.parquet at ``path`` (zstd) atomically: all of it or, on any error, nothing."""
    write_plays_batches(
        path, [plays_table(deals)], pack=pack, curated_from=curated_from, sources=sources, game=game
    )


def plays_table(deals: Sequence[DealPlays]) -> pa.Table:
    """``deals`` as rows of :data:`PLAYS_SCHEMA` (without its metadata)."""
    rows = [
        {
            "deal_id": deal.deal_id,
            "note": deal.note,
            "mark": None if deal.mark is None else deal.mark.value,
            "attempts": [_attempt_row(attempt) for attempt in deal.attempts],
        }
        for deal in deals
    ]
    return pa.Table.from_pylist(rows, schema=PLAYS_SCHEMA)


def write_plays_batches(
    path: Path,
    batches: Iterable[pa.Table],
    *,
    pack: str,
    curated_from: str | None,
    sources: Sequence[Source],
    game: Game = BLACK_HOLE,
) -> None:
    """Write the tables of :data:`PLAYS_SCHEMA` ``batches`` to the PLAYS.parquet at ``path`` (zstd), one
    row group each, as they come: atomically, all of it or, on any error, nothing."""
    path = check_writable(path)
    entries = {
        "blackhole_version": VERSION,
        PACK_KEY: pack,
        SOURCES_KEY: json.dumps([source.__dict__ for source in sources]),
    }
    if curated_from is not None:
        entries[CURATED_FROM_KEY] = curated_from
    if game.named_in_records:
        entries[PLAYED_GAME_KEY] = game.name
    schema = PLAYS_SCHEMA.with_metadata(entries)
    with replacing(path) as sink, pq.ParquetWriter(sink, schema, compression="zstd") as writer:
        for table in batches:
            writer.write_table(table.replace_schema_metadata(entries))


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
        "mode": attempt.mode.value,
        "timed": attempt.timed,
        "move_limit": attempt.move_limit,
    }


def read_plays(path: Path) -> PlayRecords:
    """The play records in the PLAYS.parquet at ``path``; PlaysError naming the file (and row) when it is not one."""
    path = Path(path)
    if path.is_dir():
        raise PlaysError(f"{path}: is a folder, expected a PLAYS.parquet file (blackhole plays import)")
    if path.exists() and not path.is_file():
        raise PlaysError(
            f"{path}: not a regular file (a device or a pipe), expected a PLAYS.parquet file (blackhole plays import)"
        )
    try:
        table = pq.read_table(path)
    except FileNotFoundError:
        raise PlaysError(f"{path}: no such file") from None
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError, OSError) as error:
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise PlaysError(f"{path}: not a readable Parquet file ({reason})") from None
    entries = {key.decode(): value.decode() for key, value in (table.schema.metadata or {}).items()}
    columns = table.schema.remove_metadata()
    if PACK_KEY not in entries or not (columns.equals(PLAYS_SCHEMA) or columns.equals(PLAYS_SCHEMA_V1)):
        raise PlaysError(f"{path}: not a PLAYS.parquet of blackhole plays import (other columns or metadata)")
    try:
        sources = tuple(Source(**entry) for entry in json.loads(entries.get(SOURCES_KEY, "[]")))
        if not all(isinstance(value, str) for source in sources for value in source.__dict__.values()):
            raise TypeError
    except (ValueError, TypeError, RecursionError):
        raise PlaysError(
            f"{path}: its {SOURCES_KEY} metadata is not the list of exports it was made from"
        ) from None
    try:
        game = recorded_game(entries.get(PLAYED_GAME_KEY))
    except UnknownGame:
        raise PlaysError(
            f"{path}: its {PLAYED_GAME_KEY} metadata {entries[PLAYED_GAME_KEY]!r} names no game"
        ) from None
    _check_times(table, path)
    deal_ids = table.column("deal_id").to_pylist()
    deals = tuple(
        _deal_of(row, f"{path}: row {number} ({printable(deal_ids[number])})")
        for number, row in enumerate(table.to_pylist())
    )
    _check_once(deals, path)
    return PlayRecords(path, entries[PACK_KEY], entries.get(CURATED_FROM_KEY), sources, deals, game)


def _check_once(deals: Sequence[DealPlays], path: Path) -> None:
    """PlaysError at the first deal, or attempt id, of a second row: an import writes each once."""
    rows: dict[str, int] = {}
    attempts: dict[str, int] = {}
    for number, deal in enumerate(deals):
        where = f"{path}: row {number} ({printable(deal.deal_id)})"
        if deal.deal_id in rows:
            raise PlaysError(f"{where}: the deal of row {rows[deal.deal_id]} again")
        rows[deal.deal_id] = number
        for attempt in deal.attempts:
            if attempt.id in attempts:
                raise PlaysError(
                    f"{where}: attempt {printable(attempt.id)}: the id of an attempt of row {attempts[attempt.id]} again"
                )
            attempts[attempt.id] = number


def _check_times(table: pa.Table, path: Path) -> None:
    """PlaysError naming the row of the first time no Python datetime holds (before year 1, after 9999)."""
    attempts = table.column("attempts")
    flat = pc.list_flatten(attempts)
    if len(flat) == 0:
        return
    parents = pc.list_parent_indices(attempts)
    for name in ("started", "ended"):
        moments = pc.struct_field(flat, name).cast(pa.int64())
        low, high = _TIME_RANGE
        outside = pc.fill_null(pc.or_(pc.less(moments, low), pc.greater(moments, high)), False)
        if pc.any(outside).as_py():
            first = pc.index(outside, True).as_py()
            row = parents[first].as_py()
            deal_id = printable(table.column("deal_id")[row].as_py())
            raise PlaysError(
                f"{path}: row {row} ({deal_id}): an attempt's {name} is out of range (a time from year 1 to 9999)"
            )


def _deal_of(row: dict[str, Any], where: str) -> DealPlays:
    if not row["deal_id"]:
        raise PlaysError(f"{where}: the deal id is empty")
    try:
        mark = None if row["mark"] is None else _member(Mark, row["mark"], "mark")
        attempts = tuple(_attempt_of(item) for item in row["attempts"])
    except ValueError as error:
        raise PlaysError(f"{where}: {error}") from None
    return DealPlays(row["deal_id"], row["note"], mark, attempts)


def _attempt_of(item: dict[str, Any]) -> Attempt:
    """The attempt of a row's ``item``; ValueError saying what is out of the range an import lets through."""
    name = f"attempt {printable(item['id'])}"
    codes = item["events"]
    if not codes or any(not -4 <= code <= 16 for code in codes):
        raise ValueError(f"{name}: events hold a code that is no pile 0..16 or action -1..-4")
    seconds = item["seconds"]
    limit, highest_counts = _attempt_limits()
    if not (math.isfinite(seconds) and 0 <= seconds <= limit):
        raise ValueError(f"{name}: seconds {seconds!r} is not from 0 to {limit:,}")
    for count, highest in highest_counts.items():
        if not 0 <= item[count] <= highest:
            raise ValueError(f"{name}: {count} {item[count]} is not from 0 to {highest:,}")
    if not item["id"] or not item["gallery"]:
        raise ValueError(f"{name}: its id or gallery is empty")
    move_limit = item.get("move_limit")
    if move_limit is not None and move_limit not in MOVE_LIMITS:
        raise ValueError(f"{name}: move_limit {move_limit} is not one of {', '.join(map(str, MOVE_LIMITS))}")
    attempt = Attempt(
        id=item["id"],
        started=_utc(item["started"]),
        ended=None if item["ended"] is None else _utc(item["ended"]),
        seconds=seconds,
        outcome=_member(Outcome, item["outcome"], f"{name}: outcome"),
        events=tuple(events_of_codes(codes)),
        **{name: item[name] for name in COUNT_FIELDS},
        clean=item["clean"],
        gallery=item["gallery"],
        mode=_member(Mode, item.get("mode", Mode.RELAXED.value), f"{name}: mode"),
        timed=item.get("timed", False),
        move_limit=move_limit,
    )
    if (attempt.ended is None) != (attempt.outcome is Outcome.PLAYING):
        raise ValueError(
            f"{name}: ended is {'null' if attempt.ended is None else 'set'}, but it is {attempt.outcome.value}"
        )
    if attempt.ended is not None and attempt.ended < attempt.started:
        raise ValueError(f"{name}: it ends before it starts")
    problem = contradiction(attempt)
    if problem is not None:
        raise ValueError(f"{name}: {problem}")
    return attempt


_Named = TypeVar("_Named", bound=Enum)


def _member(kind: type[_Named], value: str, field: str) -> _Named:
    """The member of ``kind`` named ``value``; ValueError naming ``field`` and the names it may hold."""
    try:
        return kind(value)
    except ValueError:
        names = ", ".join(member.value for member in kind)
        raise ValueError(f"{field} '{printable(str(value))}' is not one of {names}") from None


@functools.cache
def _attempt_limits() -> tuple[float, dict[str, int]]:
    """The export schema's highest seconds of an attempt, and highest value of each of its counts."""
    schema = export_schema()
    fields = schema["$defs"]["attempt"]["properties"]
    everyday = schema["$defs"]["count"]["maximum"]
    return fields["seconds"]["maximum"], {
        count: fields[count].get("maximum", everyday) for count in COUNT_FIELDS
    }


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
