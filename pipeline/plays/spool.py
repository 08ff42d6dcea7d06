"""Play records held on disk while ``plays import`` checks and merges them: memory stays that of one record.

A :class:`Spool` is an SQLite database in a hidden folder beside the file
being written (``.<name>.spool-XXXX``), deleted when the import ends, however
it ends. Each export's records go in as the file is read
(:meth:`Spool.reader`: an attempt id used twice in one file is refused
there, as :func:`pipeline.plays.exports.read_export` refuses it in memory);
then :meth:`Spool.check` replays every attempt against its pack's deal,
:meth:`Spool.merge` keeps each attempt id once by the rules of
:mod:`pipeline.plays.merge`, and :meth:`Spool.tables` hands the merged deals
back in batches of rows, in the pack's order, for :func:`pipeline.plays.records.write_plays_batches`.
"""

from __future__ import annotations

import errno
import os
import shutil
import sqlite3
import tempfile
from array import array
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from pipeline.files import WriteError, as_write_error, naming_write_errors
from pipeline.plays.checks import check_attempt, check_deal
from pipeline.plays.deals import PackDeals
from pipeline.plays.events import COUNT_FIELDS, event_codes, events_of_codes
from pipeline.plays.exports import Attempt, DealPlays, Mode, Outcome, PlayExport, PlaysError, record_label
from pipeline.plays.merge import Found, further
from pipeline.plays.records import ATTEMPT_TYPE, COUNT_TYPE, PLAYS_SCHEMA, micros_of, moment_of

BATCH_ATTEMPTS = 2_000
"""About how many attempts :meth:`Spool.tables` hands back at a time (whole deals: a deal is one row)."""

_TIMESTAMP = pa.timestamp("us", tz="UTC")
_ATTEMPT_COLUMNS = (
    "id", "started", "ended", "seconds", "outcome", "events", *COUNT_FIELDS, "clean", "mode", "timed", "move_limit"
)  # fmt: skip
_TABLES = f"""
CREATE TABLE sources (place INTEGER PRIMARY KEY, name TEXT, gallery TEXT, exported INTEGER);
CREATE TABLE deals (source INTEGER, number INTEGER, deal_id TEXT, note TEXT, mark TEXT);
CREATE INDEX deals_by_id ON deals (deal_id);
CREATE TABLE attempts (
    seq INTEGER PRIMARY KEY, source INTEGER, number INTEGER, deal_id TEXT, place INTEGER,
    {", ".join(_ATTEMPT_COLUMNS)}
);
CREATE INDEX attempts_by_source_id ON attempts (source, id);
CREATE TABLE merged (id TEXT PRIMARY KEY, seq INTEGER, deal_id TEXT, started INTEGER);
CREATE INDEX merged_by_deal ON merged (deal_id, started, id);
"""


@dataclass(frozen=True)
class MergeCounts:
    """What the merge kept: attempts (and of them finished), and records found again (see Merged)."""

    attempts: int
    finished: int
    repeated: int
    extended: int


@contextmanager
def spooled(beside: Path) -> Iterator[Spool]:
    """A :class:`Spool` in a hidden folder beside the file ``beside``, deleted at the end, however it ends.
    A disk that fills up is a WriteError naming ``beside``, the file being written, as any write that fails."""
    with naming_write_errors(beside):
        folder = Path(tempfile.mkdtemp(prefix=f".{beside.name}.spool-", dir=beside.parent))
    path = folder / "records.sqlite"
    connection = sqlite3.connect(path, isolation_level=None)
    try:
        for setting in (
            "journal_mode = OFF",
            "synchronous = OFF",
            "cache_size = -16000",
            "temp_store = FILE",
        ):
            connection.execute(f"PRAGMA {setting}")
        connection.executescript(_TABLES)
        connection.execute("BEGIN")
        yield Spool(connection)
    except sqlite3.OperationalError as error:
        if "full" in str(error):
            raise WriteError(beside, OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))) from None
        raise
    except (OSError, WriteError) as error:  # the spool's own files: the user asked for beside
        named = as_write_error(error, beside, folder)
        if named is None:
            raise
        raise named from error
    finally:
        connection.close()
        shutil.rmtree(folder, ignore_errors=True)


class Spool:
    """Records of several exports, on disk (see the module)."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self._db = connection
        self._sources: dict[int, str] = {}  # place: the file's name as given
        self._galleries: dict[int, str] = {}
        self._versions: dict[int, int] = {}  # place: the export's version (version 1 keeps its outcome rules)
        self.written = 0
        self.marked: dict[str, int] = {}

    def reader(self, place: int, source: str) -> _SpoolSink:
        """The sink for the records of the export given in the place ``place`` (from 0), the file ``source``."""
        self._sources[place] = source
        return _SpoolSink(self._db, place)

    def add_source(self, place: int, export: PlayExport) -> None:
        """The head of the export read in the place ``place``: its gallery and export time."""
        self._galleries[place] = export.gallery
        self._versions[place] = export.version
        self._db.execute(
            "INSERT INTO sources VALUES (?, ?, ?, ?)",
            (place, export.source, export.gallery, micros_of(export.exported)),
        )

    def deal_ids(self) -> set[str]:
        """Every deal id of the records (as many as the deals played: at most the pack's)."""
        return {deal_id for (deal_id,) in self._db.execute("SELECT DISTINCT deal_id FROM deals")}

    def check(self, pack: PackDeals) -> None:
        """PlaysError at the first deal the pack lacks, then at the first attempt that does not replay on its
        deal or whose counts its events do not give (:mod:`pipeline.plays.checks`)."""
        rows = self._db.execute("SELECT source, number, deal_id FROM deals ORDER BY source, number")
        for source, number, deal_id in rows:
            check_deal(self._sources[source], number, deal_id, pack)
        for row in self._db.execute("SELECT * FROM attempts ORDER BY seq"):
            found = self._found(row)
            deal = pack.deals[found.deal_id].deal
            check_attempt(found.where, found.attempt, deal, version=self._versions[row[1]])

    def merge(self) -> MergeCounts:
        """Keep each attempt id once: identical records once, the record played further of two that are
        one attempt; PlaysError naming both records of one id that are not one attempt."""
        repeated = extended = 0
        for row in self._rows():
            found = self._found(row)
            kept = self._db.execute("SELECT seq FROM merged WHERE id = ?", (found.attempt.id,)).fetchone()
            if kept is None:
                self._keep(row[0], found)
                continue
            before = self._found(self._db.execute("SELECT * FROM attempts WHERE seq = ?", kept).fetchone())
            if before.attempt == found.attempt and before.deal_id == found.deal_id:
                repeated += 1
            elif further(before, found) is found:
                self._keep(row[0], found)
                extended += 1
            else:
                extended += 1
        attempts, finished = self._db.execute(
            "SELECT count(*), coalesce(sum(a.outcome != ?), 0) FROM merged m JOIN attempts a ON a.seq = m.seq",
            (Outcome.PLAYING.value,),
        ).fetchone()
        return MergeCounts(attempts, finished, repeated, extended)

    def tables(self, order: Sequence[str]) -> Iterator[pa.Table]:
        """The merged deals in the order ``order`` (the pack's) as rows of PLAYS.parquet, each with its
        latest note and mark (of the export exported last; of two at one moment, the one given later) and
        its attempts by start time (ties by id), in tables of about :data:`BATCH_ATTEMPTS` attempts,
        built column by column from the spool (no attempt made a Python object). :attr:`written` and
        :attr:`marked` count the deals handed back."""
        batch = _Batch()
        for deal_id in order:
            latest = self._db.execute(
                "SELECT d.note, d.mark FROM deals d JOIN sources s ON s.place = d.source WHERE d.deal_id = ? "
                "ORDER BY s.exported DESC, d.source DESC LIMIT 1",
                (deal_id,),
            ).fetchone()
            if latest is None:
                continue
            rows = self._db.execute(
                "SELECT a.source, a.* FROM merged m JOIN attempts a ON a.seq = m.seq WHERE m.deal_id = ? "
                "ORDER BY m.started, m.id",
                (deal_id,),
            )
            note, mark = latest
            batch.add(deal_id, note, mark, ((self._galleries[row[0]], *row[6:]) for row in rows))
            self.written += 1
            if mark is not None:
                self.marked[mark] = self.marked.get(mark, 0) + 1
            if batch.attempts >= BATCH_ATTEMPTS:
                yield batch.table()
                batch = _Batch()
        if batch.deals:
            yield batch.table()

    def _rows(self) -> Iterator[tuple[Any, ...]]:
        """Every attempt row in the order read, fetched a page at a time (the merge writes as it reads)."""
        last = 0
        while True:
            page = self._db.execute(
                "SELECT * FROM attempts WHERE seq > ? ORDER BY seq LIMIT 1000", (last,)
            ).fetchall()
            if not page:
                return
            yield from page
            last = page[-1][0]

    def _keep(self, seq: int, found: Found) -> None:
        self._db.execute(
            "INSERT OR REPLACE INTO merged VALUES (?, ?, ?, ?)",
            (found.attempt.id, seq, found.deal_id, micros_of(found.attempt.started)),
        )

    def _found(self, row: tuple[Any, ...]) -> Found:
        """The attempt of an ``attempts`` row, with its gallery (its file's), deal and place in words."""
        _seq, source, number, deal_id, place, *values = row
        fields = dict(zip(_ATTEMPT_COLUMNS, values, strict=True))
        attempt = Attempt(
            id=fields["id"],
            started=moment_of(fields["started"]),
            ended=None if fields["ended"] is None else moment_of(fields["ended"]),
            seconds=fields["seconds"],
            outcome=Outcome(fields["outcome"]),
            events=tuple(events_of_codes(array("b", fields["events"]).tolist())),
            **{name: fields[name] for name in COUNT_FIELDS},
            clean=bool(fields["clean"]),
            gallery=self._galleries[source],
            mode=Mode(fields["mode"]),
            timed=bool(fields["timed"]),
            move_limit=fields["move_limit"],
        )
        where = f"{self._sources[source]}: {record_label(number, deal_id, place, attempt.id)}"
        return Found(attempt, deal_id, where)


class _SpoolSink:
    """The records of one export, written to the spool as they are read."""

    def __init__(self, connection: sqlite3.Connection, source: int) -> None:
        self._db, self._source = connection, source

    def attempt(self, number: int, deal_id: str, place: int, attempt: Attempt, where: str) -> None:
        before = self._db.execute(
            "SELECT number, deal_id, place FROM attempts WHERE source = ? AND id = ?",
            (self._source, attempt.id),
        ).fetchone()
        if before is not None:
            raise PlaysError(f"{where}: the id of {record_label(*before)} again")
        values = (
            attempt.id,
            micros_of(attempt.started),
            None if attempt.ended is None else micros_of(attempt.ended),
            attempt.seconds,
            attempt.outcome.value,
            array("b", event_codes(attempt.events)).tobytes(),
            *attempt.counts().values(),
            attempt.clean,
            attempt.mode.value,
            attempt.timed,
            attempt.move_limit,
        )
        self._db.execute(
            f"INSERT INTO attempts VALUES (NULL, ?, ?, ?, ?, {', '.join('?' * len(values))})",
            (self._source, number, deal_id, place, *values),
        )

    def deal(self, number: int, deal: DealPlays) -> None:
        mark = None if deal.mark is None else deal.mark.value
        self._db.execute(
            "INSERT INTO deals VALUES (?, ?, ?, ?, ?)", (self._source, number, deal.deal_id, deal.note, mark)
        )


class _Batch:
    """Deals of PLAYS.parquet gathered column by column: each attempt's values as the spool holds them."""

    def __init__(self) -> None:
        self.deals: list[str] = []
        self.notes: list[str] = []
        self.marks: list[str | None] = []
        self.offsets = [0]  # of each deal's attempts
        self.columns: dict[str, list[Any]] = {name: [] for name in ("gallery", *_ATTEMPT_COLUMNS)}

    @property
    def attempts(self) -> int:
        return self.offsets[-1]

    def add(self, deal_id: str, note: str, mark: str | None, attempts: Iterator[tuple[Any, ...]]) -> None:
        """One deal and its attempts, each ``(gallery, *the spool's attempt columns)``."""
        self.deals.append(deal_id)
        self.notes.append(note)
        self.marks.append(mark)
        count = 0
        for values in attempts:
            for name, value in zip(self.columns, values, strict=True):
                self.columns[name].append(value)
            count += 1
        self.offsets.append(self.offsets[-1] + count)

    def table(self) -> pa.Table:
        columns = self.columns
        blobs = columns["events"]
        events_offsets = np.cumsum([0, *map(len, blobs)], dtype=np.int32)
        codes = pa.array(np.frombuffer(b"".join(blobs), dtype=np.int8))
        built = {
            "id": pa.array(columns["id"], pa.string()),
            "gallery": pa.array(columns["gallery"], pa.string()),
            "started": pa.array(columns["started"], pa.int64()).cast(_TIMESTAMP),
            "ended": pa.array(columns["ended"], pa.int64()).cast(_TIMESTAMP),
            "seconds": pa.array(columns["seconds"], pa.float64()),
            "outcome": pa.array(columns["outcome"], pa.string()),
            "events": pa.ListArray.from_arrays(pa.array(events_offsets), codes, type=pa.list_(pa.int8())),
            **{name: pa.array(columns[name], COUNT_TYPE) for name in COUNT_FIELDS},
            "clean": pa.array([bool(value) for value in columns["clean"]], pa.bool_()),
            "mode": pa.array(columns["mode"], pa.string()),
            "timed": pa.array([bool(value) for value in columns["timed"]], pa.bool_()),
            "move_limit": pa.array(columns["move_limit"], pa.int32()),
        }
        fields = list(ATTEMPT_TYPE)
        attempts = pa.StructArray.from_arrays([built[field.name] for field in fields], fields=fields)
        listed = pa.ListArray.from_arrays(
            pa.array(self.offsets, pa.int32()), attempts, type=PLAYS_SCHEMA.field("attempts").type
        )
        arrays = [
            pa.array(self.deals, pa.string()),
            pa.array(self.notes, pa.string()),
            pa.array(self.marks, pa.string()),
            listed,
        ]
        return pa.Table.from_arrays(arrays, schema=PLAYS_SCHEMA)
