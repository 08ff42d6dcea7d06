"""A gallery's export of play records: one JSON file read, checked against its schema, as typed objects.

The gallery (``blackhole gallery``) keeps every attempt at every deal in the
browser and exports them as one JSON document (``docs/schema.md``, "Play
records"); its JSON Schema is ``plays.schema.json`` beside this module.
:func:`read_export` reads one such file into a :class:`PlayExport`, refusing,
with one :class:`PlaysError` line that names the file and the record, what is
not an export of a version it reads (:data:`READ_VERSIONS`): text that is
not JSON (or holds NaN, a key twice, a number too long to read), a document
of another format or version, anything the schema does not allow, and what
it cannot say: an attempt that ends before it starts, ``ended`` missing from
a finished attempt or present on one still playing, a move limit on an
attempt without the clock, ``out_of_time`` without a move limit, a deal
listed twice, an attempt id used twice.

Version 2 records each attempt's mode (:class:`Mode`), whether it was
timed and its move limit; an attempt of version 1 has no such keys and is
read as relaxed and untimed (the defaults of :class:`Attempt`).

Whether the records fit their pack (the deals exist, the events replay, the
counts agree) is :mod:`pipeline.plays.checks`' business.

>>> record_label(2, "seed-77-3", 5, "kx3-abc")
'deals[2].attempts[5] (seed-77-3 attempt kx3-abc)'
>>> record_label(0, None)
'deals[0]'
"""

from __future__ import annotations

import functools
import io
import json
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from enum import Enum
from importlib import resources
from pathlib import Path
from typing import Any, BinaryIO, Protocol

from pipeline import strict_json
from pipeline.errors import BlackholeError
from pipeline.files import STDIN_SOURCE, is_standard_stream
from pipeline.free_text import one_line, printable
from pipeline.game.games import Game, recorded_game
from pipeline.plays.events import COUNT_FIELDS, Event

EXPORT_FORMAT = "blackhole-plays"
EXPORT_VERSION = 2
"""The version the gallery writes."""
READ_VERSIONS = (1, 2)
"""The versions :func:`read_export` reads: 1, before modes (its attempts relaxed and untimed), and 2."""
MODE_KEYS = ("mode", "timed", "move_limit")
"""The keys version 2 adds to an attempt."""
EXPORT_SCHEMA = "plays.schema.json"  # beside this module


class PlaysError(BlackholeError, ValueError):
    """Play records that cannot be used: the message names the file and the record, then the problem."""


class Outcome(str, Enum):
    """How an attempt ended: ``won``; ``stuck`` (no move left); ``abandoned`` (a new attempt begun with moves
    left); ``out_of_time`` (a move not made within the move limit: finished, not won); ``playing`` (not
    ended: not counted as finished)."""

    WON = "won"
    STUCK = "stuck"
    ABANDONED = "abandoned"
    OUT_OF_TIME = "out_of_time"
    PLAYING = "playing"


class Mode(str, Enum):
    """How an attempt was played: ``relaxed`` (undo, redo, restart and hints allowed) or ``one_attempt``
    (moves only; the attempt ends at its first dead end)."""

    RELAXED = "relaxed"
    ONE_ATTEMPT = "one_attempt"


MOVE_LIMITS = (10, 30, 60)
"""The seconds of thinking time per move a timed attempt may be limited to."""


class Mark(str, Enum):
    """A play-tester's verdict on a deal: ship it, or reject it (``blackhole curate --plays`` leaves it out)."""

    SHIP = "ship"
    REJECT = "reject"


@dataclass(frozen=True)
class Attempt:
    """One attempt at a deal, as the gallery recorded it; ``gallery``: the build it was played in."""

    id: str
    started: datetime
    ended: datetime | None
    seconds: float
    outcome: Outcome
    events: tuple[Event, ...]
    moves: int
    undos: int
    redos: int
    restarts: int
    hints: int
    dead_ends: int
    cards_played: int
    clean: bool
    gallery: str = ""
    mode: Mode = Mode.RELAXED
    timed: bool = False  # a clock was shown while playing
    move_limit: int | None = None  # seconds per move (one of MOVE_LIMITS), only when timed

    @property
    def finished(self) -> bool:
        """Whether the attempt ended (won, stuck or abandoned): one still ``playing`` counts in no figure."""
        return self.outcome is not Outcome.PLAYING

    @property
    def won(self) -> bool:
        return self.outcome is Outcome.WON

    def counts(self) -> dict[str, int]:
        """The counts it records of its events (:data:`COUNT_FIELDS`)."""
        return {name: getattr(self, name) for name in COUNT_FIELDS}


def mode_text(attempt: Attempt) -> str:
    """How ``attempt`` was played, in words: its mode, then its clock when it had one.

    >>> from datetime import datetime
    >>> played = Attempt("a", datetime(2026, 1, 1), None, 1.0, Outcome.PLAYING, (2,), 1, 0, 0, 0, 0, 0, 1, False)
    >>> mode_text(played), mode_text(replace(played, mode=Mode.ONE_ATTEMPT, timed=True, move_limit=30))
    ('relaxed', 'one attempt, timed, 30 s a move')
    """
    words = [attempt.mode.value.replace("_", " ")]
    if attempt.timed:
        words.append("timed")
    if attempt.move_limit is not None:
        words.append(f"{attempt.move_limit} s a move")
    return ", ".join(words)


@dataclass(frozen=True)
class DealPlays:
    """What one gallery recorded of one deal: the play-tester's note and mark, and the attempts."""

    deal_id: str
    note: str
    mark: Mark | None
    attempts: tuple[Attempt, ...]


@dataclass(frozen=True)
class PlayExport:
    """One export file: where it came from (``source``, as given; its SHA-256) and what it holds: the
    records of the pack ``pack`` of the game ``game`` (an export without ``"game"`` is of Black Hole)."""

    source: str
    sha256: str
    pack: str
    game: Game
    gallery: str
    title: str
    exported: datetime
    deals: tuple[DealPlays, ...]
    version: int = EXPORT_VERSION  # of the file: version 1 keeps its rules of outcome (checks.py)


def record_label(
    deal: int, deal_id: str | None, attempt: int | None = None, attempt_id: str | None = None
) -> str:
    """Where a record is in an export, as errors name it: ``deals[2].attempts[5] (seed-77-3 attempt kx3-abc)``."""
    where = f"deals[{deal}]" + ("" if attempt is None else f".attempts[{attempt}]")
    names = [
        printable(name) for name in (deal_id, None if attempt_id is None else f"attempt {attempt_id}") if name
    ]
    return f"{where} ({' '.join(names)})" if names else where


class RecordSink(Protocol):
    """Where :func:`read_export` hands each record as soon as it is checked: an attempt (its ``gallery``
    left empty: the file's is in the :class:`PlayExport` returned), and a deal once its entry ends (its
    attempts empty: they came one by one before). PlaysError to refuse one (an attempt id used twice)."""

    def attempt(self, number: int, deal_id: str, place: int, attempt: Attempt, where: str) -> None: ...

    def deal(self, number: int, deal: DealPlays) -> None: ...


def read_export(path: Path, sink: RecordSink | None = None) -> PlayExport:
    """The export in the file at ``path`` (``-``: standard input, named ``<stdin>``), once it is one of this
    version; PlaysError naming the file otherwise.

    Without ``sink``, every record is in the export returned; with one, the file is read a record at a
    time, each handed to ``sink`` once checked, and the export returned holds no deal: memory stays that
    of one record, whatever the size of the file."""
    if is_standard_stream(path):
        return _read(sys.stdin.buffer, STDIN_SOURCE, sink)
    path = Path(path)
    try:
        with path.open("rb") as file:
            return _read(file, str(path), sink)
    except FileNotFoundError:
        raise PlaysError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise PlaysError(f"{path}: is a folder, expected a plays export (JSON)") from None


def parse_export(data: bytes, *, source: str) -> PlayExport:
    """The export in the bytes ``data`` of the file ``source``; PlaysError naming ``source`` otherwise."""
    return _read(io.BytesIO(data), source, None)


def _read(file: BinaryIO, source: str, sink: RecordSink | None) -> PlayExport:
    collected = _Collected() if sink is None else None
    stream = strict_json.Stream(file)
    reader = _Reader(stream, source, sink or collected)  # type: ignore[arg-type]
    try:
        head = reader.read()
    except strict_json.StreamError as error:
        raise PlaysError(
            f"{source}: line {error.lineno} column {error.colno}: not JSON ({error.msg}), so not a plays export"
        ) from None
    except strict_json.TooLong as error:
        raise PlaysError(
            f"{source}: line {error.lineno} column {error.colno}: a value longer than {error.limit:,} "
            "characters, too long for a plays export"
        ) from None
    except strict_json.NotText as error:
        raise PlaysError(f"{source}: byte {error.byte}: not UTF-8 text, so not a plays export") from None
    except RecursionError:
        raise PlaysError(f"{source}: nested too deeply to be a plays export") from None
    export = _export_of(head, source, stream.sha256)
    return export if collected is None else collected.export(export)


@functools.cache
def export_schema() -> dict[str, Any]:
    """The JSON Schema of an export file (``plays.schema.json``, shipped beside this module), read once:
    every caller is handed the same object, to read."""
    text = (
        resources.files(__package__ or "pipeline.plays").joinpath(EXPORT_SCHEMA).read_text(encoding="utf-8")
    )
    schema: dict[str, Any] = json.loads(text)
    return schema


def _refused(value: strict_json.Refused) -> str:
    """What is wrong with a value the parser refused, in a plays export's words."""
    if value.kind == "constant":
        return f"{value.text}, which is no JSON number"
    if value.kind == "float":
        return f"{one_line(value.text, 20)} is out of range"
    if value.kind == "integer":
        return f"an integer of {len(value.text)} digits, out of range"
    return f"the key {_short(value.text)} is given twice"


@functools.cache
def _validator() -> Any:
    """A validator of the export schema whose integers are ints alone (not 3.0, not true)."""
    import jsonschema  # slow to load: on the first export read

    base = jsonschema.Draft202012Validator
    types = base.TYPE_CHECKER.redefine(
        "integer", lambda _checker, value: isinstance(value, int) and not isinstance(value, bool)
    )
    return jsonschema.validators.extend(base, type_checker=types)(export_schema())


def _problem(error: Any) -> str:
    """The schema error ``error`` in one short line."""
    keyword, expected, value = error.validator, error.validator_value, error.instance
    described = error.schema.get("description") if isinstance(error.schema, dict) else None
    if keyword == "required":
        missing = next(key for key in expected if key not in value)
        return f"{_short(missing)} is missing"
    if keyword == "additionalProperties":
        known = error.schema.get("properties", {})
        older = " of version 1" if error.schema == export_schema()["$defs"]["attempt_v1"] else ""
        return f"{_short(next(key for key in value if key not in known))} is no key of a plays export{older}"
    if keyword == "type":
        names = [expected] if isinstance(expected, str) else expected
        return f"expected {' or '.join(names)}, found {strict_json.json_type(value)}"
    if keyword == "enum":
        return f"{_short(value)} is not one of {', '.join(json.dumps(name) for name in expected)}"
    if keyword == "const":
        return f"{_short(value)} is not {json.dumps(expected)}"
    if keyword == "minimum":
        return f"{_short(value)} is below {expected}"
    if keyword == "maximum":
        return f"{_short(value)} is above {expected}"
    if keyword == "minItems" and value == []:
        return "empty (an attempt without an event is never recorded)"
    if described is not None:
        return f"{_short(value)} is not {described}"
    if keyword == "minLength" and value == "":
        return "empty"
    return one_line(error.message, 80)


def _text_of(record: Any, key: str) -> str | None:
    """``record[key]`` when it is a short string a label can show, else None."""
    value = record.get(key) if isinstance(record, dict) else None
    return one_line(value, 70) if isinstance(value, str) and value else None


def _path_text(path: tuple[str | int, ...]) -> str:
    text = ""
    for key in path:
        text += f"[{key}]" if isinstance(key, int) else (f".{key}" if text else str(key))
    return one_line(text, 120)


def _short(value: Any) -> str:
    if isinstance(value, strict_json.Refused):
        return one_line(value.text) if value.kind != "integer" else f"an integer of {len(value.text)} digits"
    if isinstance(value, dict | list):
        return f"an {strict_json.json_type(value)}"
    if type(value) is int and abs(value) >= 10**20:
        return f"an integer of {len(str(abs(value)))} digits"
    return one_line(json.dumps(value))


def _time(text: str, where: str, field: str) -> datetime:
    """An ISO 8601 time the schema's pattern let through, refused in one line when it is no real time (10:64)
    or out of range once in UTC (year 0001 at +01:00 is in year 0)."""
    try:
        moment = datetime.fromisoformat(text)
        moment.astimezone(UTC)
    except ValueError as error:
        raise PlaysError(f"{where}: {field} {one_line(repr(text), 80)} is not a time ({error})") from None
    except OverflowError:
        raise PlaysError(
            f"{where}: {field} {one_line(repr(text), 80)} is out of range (a time from year 1 to 9999 in UTC)"
        ) from None
    return moment


_ATTEMPT_ID = re.compile(r"[0-9A-Za-z_-]{1,64}")
_TIME = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,6})?(Z|[+-][0-9]{2}:[0-9]{2})"
)
_HEAD_STANDIN = {  # a valid head, for the schema to check one record in (its version set to the record's)
    "format": EXPORT_FORMAT,
    "version": EXPORT_VERSION,
    "pack": "p",
    "gallery": "0" * 16,
    "title": "",
    "exported": "2026-01-01T00:00:00Z",
}
_DEAL_STANDIN: dict[str, Any] = {"deal_id": "d", "note": "", "mark": None, "attempts": []}
_NOT_AN_EXPORT = f'not a plays export (no "format": "{EXPORT_FORMAT}" at its top level)'


def _plain_attempt(found: Any, version: int) -> bool:
    """Whether ``found`` is an attempt the schema accepts in an export of ``version``, its events checked
    before: a quick check that stands in for the schema's (jsonschema over every attempt of a large file
    takes minutes); False sends it to the schema, whose error is told."""
    schema = export_schema()["$defs"]["attempt" if version != 1 else "attempt_v1"]
    if not isinstance(found, dict) or found.keys() != schema["properties"].keys():
        return False
    if version != 1 and not (
        found["mode"] in _MODES
        and type(found["timed"]) is bool
        and (
            found["move_limit"] is None
            or (type(found["move_limit"]) is int and found["move_limit"] in MOVE_LIMITS)
        )
    ):
        return False
    ended, seconds = found["ended"], found["seconds"]
    counts_in_range = all(
        type(found[name]) is int and 0 <= found[name] <= _COUNT_MAXIMUM for name in COUNT_FIELDS
    )
    return (
        isinstance(found["id"], str)
        and _ATTEMPT_ID.fullmatch(found["id"]) is not None
        and isinstance(found["started"], str)
        and _TIME.fullmatch(found["started"]) is not None
        and (ended is None or (isinstance(ended, str) and _TIME.fullmatch(ended) is not None))
        and type(seconds) in (int, float)
        and 0 <= seconds <= _SECONDS_MAXIMUM
        and found["outcome"] in (_OUTCOMES if version != 1 else _OUTCOMES_V1)
        and isinstance(found["events"], list)
        and bool(found["events"])
        and counts_in_range
        and found["cards_played"] <= 51
        and type(found["clean"]) is bool
    )


_COUNT_MAXIMUM = 1_000_000_000  # plays.schema.json's "count"
_SECONDS_MAXIMUM = 1_000_000_000  # plays.schema.json's "seconds"
_OUTCOMES = frozenset(outcome.value for outcome in Outcome)
_OUTCOMES_V1 = _OUTCOMES - {Outcome.OUT_OF_TIME.value}
_MODES = frozenset(mode.value for mode in Mode)


def _shape_version(found: Any) -> int:
    """The version an attempt read before the file's version looks like: 2 with any key version 2 adds."""
    return 2 if isinstance(found, dict) and any(key in found for key in MODE_KEYS) else 1


def _schema_error(document: dict[str, Any]) -> tuple[tuple[str | int, ...], str] | None:
    """The schema's most specific error in ``document``: its path and the problem in words; None if none."""
    from jsonschema.exceptions import best_match

    error = best_match(_validator().iter_errors(document))
    return None if error is None else (tuple(error.absolute_path), _problem(error))


def _at(label: str, path: tuple[str | int, ...], problem: str) -> str:
    """``label: path: problem``, the path left out when empty."""
    rest = _path_text(path)
    return f"{label}: {rest}: {problem}" if rest else f"{label}: {problem}"


class _Reader:
    """One export read a record at a time from a :class:`~pipeline.strict_json.Stream`.

    Its head (format, version, pack, ...) may come before or after its deals, as JSON allows: until
    the format and version are read and right, a record's error is kept, and told only once the file
    turns out to be an export of a version read (else that it is not one is told). An attempt read
    before the version is checked as the version its keys show (:func:`_shape_version`); the first
    of each version is kept, and one of the other version than the file's is refused at the end."""

    def __init__(self, stream: strict_json.Stream, source: str, sink: RecordSink) -> None:
        self.stream, self.source, self.sink = stream, source, sink
        self.head: dict[str, Any] = {}
        self.confirmed = False
        self.version: int | None = None  # once confirmed
        self.failure: PlaysError | None = None
        self.shapes: dict[int, tuple[str, Any]] = {}  # version: where, and the attempt's keys
        self.deal_numbers: dict[str, int] = {}  # per file: deals number at most the pack's

    def read(self) -> dict[str, Any]:
        """The head of the export (``deals`` an empty list when it was read record by record), every record
        handed to the sink; PlaysError at the first problem."""
        stream = self.stream
        first = stream.peek()
        if first != "{":
            if first and first in '["-0123456789tfn':
                raise PlaysError(f"{self.source}: {_NOT_AN_EXPORT}")
            stream.value()  # not JSON: the StreamError says where
        stream.take("{")
        while stream.peek() != "}":
            key = stream.key()
            if key in self.head:
                raise PlaysError(f"{self.source}: the key {_short(key)} is given twice at the top level")
            if key == "deals" and stream.peek() == "[":
                self.head[key] = []
                self.confirmed = self._right_version()
                self.version = self.head["version"] if self.confirmed else None
                self._deals()
            else:
                self.head[key] = stream.value()
            if stream.peek() != "}":
                stream.take(",")
        stream.take("}")
        stream.end()
        if self.head.get("format") != EXPORT_FORMAT:
            raise PlaysError(f"{self.source}: {_NOT_AN_EXPORT}")
        version = self.head.get("version")
        if isinstance(version, strict_json.Refused):
            raise PlaysError(f"{self.source}: version: {_refused(version)}")
        if not self._right_version():
            raise PlaysError(
                f"{self.source}: version {_short(version)} of the plays export; "
                f"this blackhole reads versions {' and '.join(map(str, READ_VERSIONS))}"
            )
        if self.failure is not None:
            raise self.failure
        self._check_shapes(self.head["version"])
        self._check_head()
        return self.head

    def _right_version(self) -> bool:
        version = self.head.get("version")
        return self.head.get("format") == EXPORT_FORMAT and version in READ_VERSIONS and type(version) is int

    def _check_shapes(self, version: int) -> None:
        """PlaysError at the first attempt read before the version that is of another version than ``version``."""
        for shape, (where, keys) in self.shapes.items():
            if shape == version:
                continue
            if version == 1:
                key = next(key for key in MODE_KEYS if key in keys)
                raise PlaysError(f"{where}: {_short(key)} is no key of a plays export of version 1")
            key = next(key for key in MODE_KEYS if key not in keys)
            raise PlaysError(f"{where}: {_short(key)} is missing")

    def _check_head(self) -> None:
        for path, value in strict_json.walk(self.head):
            if isinstance(value, strict_json.Refused):
                raise PlaysError(f"{self.source}: {_path_text(path)}: {_refused(value)}")
        _check_text(self.head, ("pack", "title"), self.source)
        found = _schema_error(self.head)
        if found is not None:
            path, problem = found
            raise PlaysError(
                _at(self.source, path, problem) if path else f"{self.source}: top level: {problem}"
            )

    def _guarded(self, check: Callable[..., None], *arguments: Any) -> bool:
        """Run ``check(*arguments)`` unless a record was refused before; a PlaysError is raised at once when the file
        is known to be an export, else kept for later. Whether it ran and passed."""
        if self.failure is not None:
            return False
        try:
            check(*arguments)
        except PlaysError as error:
            if self.confirmed:
                raise
            self.failure = error
            return False
        return True

    def _deals(self) -> None:
        stream = self.stream
        stream.take("[")
        number = 0
        while stream.peek() != "]":
            self._deal(number)
            number += 1
            if stream.peek() != "]":
                stream.take(",")
        stream.take("]")

    def _deal(self, number: int) -> None:
        """One entry of ``deals``: its attempts are checked and handed on as they come once its id is known
        (the gallery writes the id first), else kept until the entry ends."""
        stream = self.stream
        if stream.peek() != "{":
            value = stream.value()
            self._guarded(lambda: self._check_deal(number, value))
            return
        stream.take("{")
        fields: dict[str, Any] = {}
        kept: list[
            tuple[Any, bool]
        ] = []  # attempts read before the deal's id, with whether a value was refused
        while stream.peek() != "}":
            key = stream.key()
            if key in fields:
                label = record_label(number, _text_of(fields, "deal_id"))
                self._guarded(_refuse, f"{self.source}: {label}: the key {_short(key)} is given twice")
            if key == "attempts" and stream.peek() == "[":
                fields[key] = []
                self._attempts(number, fields, kept)
            else:
                fields[key] = stream.value()
            if stream.peek() != "}":
                stream.take(",")
        stream.take("}")

        def finish() -> None:
            self._check_deal(number, fields)
            self._claim(number, fields["deal_id"])
            for place, (found, refused) in enumerate(kept):
                self._attempt(number, fields["deal_id"], place, found, refused)
            mark = None if fields["mark"] is None else Mark(fields["mark"])
            self.sink.deal(number, DealPlays(fields["deal_id"], fields["note"], mark, ()))

        self._guarded(finish)

    def _attempts(self, number: int, fields: dict[str, Any], kept: list[tuple[Any, bool]]) -> None:
        stream = self.stream
        known = "deal_id" in fields and self._guarded(lambda: self._check_deal(number, fields, partial=True))
        if known:
            self._guarded(lambda: self._claim(number, fields["deal_id"]))
        stream.take("[")
        place = 0
        while stream.peek() != "]":
            before = stream.refused
            found = stream.value()
            refused = stream.refused != before
            if known:
                self._guarded(self._attempt, number, fields["deal_id"], place, found, refused)
            else:
                kept.append((found, refused))
            place += 1
            if stream.peek() != "]":
                stream.take(",")
        stream.take("]")

    def _check_deal(self, number: int, found: Any, *, partial: bool = False) -> None:
        """PlaysError unless the deal entry ``found`` (its attempts apart) is as the schema says; ``partial``:
        only the keys it has so far."""
        label = f"{self.source}: {record_label(number, _text_of(found, 'deal_id'))}"
        if isinstance(found, dict):
            for path, value in strict_json.walk(found):
                if isinstance(value, strict_json.Refused):
                    raise PlaysError(_at(label, path, _refused(value)))
            _check_text(found, ("deal_id", "note"), label)
            attempts = found.get("attempts", [])
            found = (
                (_DEAL_STANDIN if partial else {})
                | found
                | {"attempts": [] if isinstance(attempts, list) else attempts}
            )
        error = _schema_error(_HEAD_STANDIN | {"deals": [found]})
        if error is not None:
            path, problem = error
            raise PlaysError(_at(label, path[2:], problem))

    def _claim(self, number: int, deal_id: str) -> None:
        if deal_id in self.deal_numbers and self.deal_numbers[deal_id] != number:
            label = record_label(number, deal_id)
            raise PlaysError(f"{self.source}: {label}: the deal of deals[{self.deal_numbers[deal_id]}] again")
        self.deal_numbers[deal_id] = number

    def _attempt(self, number: int, deal_id: str, place: int, found: Any, refused: bool) -> None:
        """Check one attempt entry and hand it to the sink (see :func:`read_export`)."""
        where = f"{self.source}: {record_label(number, deal_id, place, _text_of(found, 'id'))}"
        if refused:
            if isinstance(found, strict_json.Refused):
                raise PlaysError(f"{where}: {_refused(found)}")
            for path, value in strict_json.walk(found):
                if isinstance(value, strict_json.Refused):
                    raise PlaysError(_at(where, path, _refused(value)))
        events = found.get("events") if isinstance(found, dict) else None
        if isinstance(events, list):
            _check_events(events, where)
        version = self.version
        if version is None:
            version = _shape_version(found)
            self.shapes.setdefault(version, (where, set(found) if isinstance(found, dict) else set()))
        if not _plain_attempt(found, version):
            briefer = found | {"events": events[:1]} if isinstance(events, list) else found
            head = _HEAD_STANDIN | {"version": version}
            error = _schema_error(head | {"deals": [_DEAL_STANDIN | {"attempts": [briefer]}]})
            if error is not None:
                path, problem = error
                raise PlaysError(_at(where, path[4:], problem))
        started = _time(found["started"], where, "started")
        ended = None if found["ended"] is None else _time(found["ended"], where, "ended")
        attempt = Attempt(
            id=found["id"],
            started=started,
            ended=ended,
            seconds=float(found["seconds"]),
            outcome=Outcome(found["outcome"]),
            events=tuple(events),  # type: ignore[arg-type]
            **{name: found[name] for name in COUNT_FIELDS},
            clean=found["clean"],
            **(
                {}
                if version == 1
                else {"mode": Mode(found["mode"]), "timed": found["timed"], "move_limit": found["move_limit"]}
            ),
        )
        impossible = contradiction(attempt)
        if impossible is not None:
            raise PlaysError(f"{where}: {impossible}")
        self.sink.attempt(number, deal_id, place, attempt, where)


def contradiction(attempt: Attempt) -> str | None:
    """What an attempt says that cannot be, with no need of its deal: its times out of order, ``ended`` set
    while playing or null once not, a move limit without the clock, ``out_of_time`` without a move limit.
    None when none."""
    ended, started = attempt.ended, attempt.started
    if (ended is None) != (attempt.outcome is Outcome.PLAYING):
        return (
            "ended is null, but an attempt that is not playing has ended"
            if ended is None
            else "ended is set, but the attempt is still playing"
        )
    if ended is not None and ended < started:
        return f"ended ({ended.isoformat()}) is before started"
    if attempt.move_limit is not None and not attempt.timed:
        return f"move_limit is {attempt.move_limit}, but timed is false (a move limit runs on the clock)"
    if attempt.outcome is Outcome.OUT_OF_TIME and attempt.move_limit is None:
        return 'outcome is "out_of_time", but move_limit is null (only a move limit runs out)'
    return None


def _check_text(found: dict[str, Any], keys: tuple[str, ...], label: str) -> None:
    """PlaysError when a string of ``found`` at ``keys`` holds a lone surrogate (``"\\ud800"`` is JSON, but
    no text: no file can hold it)."""
    for key in keys:
        value = found.get(key)
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError as error:
                code = f"\\u{ord(value[error.start]):04x}"
                raise PlaysError(
                    f"{label}: {key}: {code} at character {error.start} is half a character, not text"
                ) from None


def _refuse(message: str) -> None:
    raise PlaysError(message)


def _check_events(events: list[Any], where: str) -> None:
    """PlaysError at the first event that is neither a pile 0..16 nor an action, as the schema says them
    (jsonschema takes a thousand times longer over an ``anyOf`` of every event)."""
    actions = export_schema()["$defs"]["event"]["anyOf"][1]["enum"]
    for index, event in enumerate(events):
        pile = type(event) is int and 0 <= event <= 16
        if not pile and not (isinstance(event, str) and event in actions):
            described = export_schema()["$defs"]["event"]["description"]
            raise PlaysError(f"{where}: events[{index}]: {_short(event)} is not {described}")


class _Collected:
    """The sink that keeps every record, for an export read whole; an attempt id used twice refused."""

    def __init__(self) -> None:
        self.deals: list[tuple[int, DealPlays]] = []
        self.attempts: dict[int, list[Attempt]] = {}
        self.ids: dict[str, str] = {}

    def attempt(self, number: int, deal_id: str, place: int, attempt: Attempt, where: str) -> None:
        if attempt.id in self.ids:
            raise PlaysError(f"{where}: the id of {self.ids[attempt.id]} again")
        self.ids[attempt.id] = record_label(number, deal_id, place)
        self.attempts.setdefault(number, []).append(attempt)

    def deal(self, number: int, deal: DealPlays) -> None:
        self.deals.append((number, deal))

    def export(self, head: PlayExport) -> PlayExport:
        """``head`` with the deals collected, each attempt with its gallery."""
        deals = tuple(
            replace(
                deal,
                attempts=tuple(
                    replace(attempt, gallery=head.gallery) for attempt in self.attempts.get(number, [])
                ),
            )
            for number, deal in self.deals
        )
        return replace(head, deals=deals)


def _export_of(head: dict[str, Any], source: str, sha256: str) -> PlayExport:
    """The export of the head the schema accepted (its deals handed on before)."""
    return PlayExport(
        source=source,
        sha256=sha256,
        pack=head["pack"],
        game=recorded_game(head.get("game")),  # the schema allows no null
        gallery=head["gallery"],
        title=head["title"],
        exported=_time(head["exported"], source, "exported"),
        deals=(),
        version=head["version"],
    )
