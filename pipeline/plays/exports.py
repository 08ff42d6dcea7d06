"""A gallery's export of play records: one JSON file read, checked against its schema, as typed objects.

The gallery (``blackhole gallery``) keeps every attempt at every deal in the
browser and exports them as one JSON document (``docs/schema.md``, "Play
records"); its JSON Schema is ``plays.schema.json`` beside this module.
:func:`read_export` reads one such file into a :class:`PlayExport`, refusing,
with one :class:`PlaysError` line that names the file and the record, what is
not an export of this version: text that is not JSON (or holds NaN, a key
twice, a number too long to read), a document of another format or version,
anything the schema does not allow, and what it cannot say: an attempt that
ends before it starts, ``ended`` missing from a finished attempt or present on
one still playing, a deal listed twice, an attempt id used twice.

Whether the records fit their pack (the deals exist, the events replay, the
counts agree) is :mod:`pipeline.plays.checks`' business.

>>> record_label(2, "seed-77-3", 5, "kx3-abc")
'deals[2].attempts[5] (seed-77-3 attempt kx3-abc)'
>>> record_label(0, None)
'deals[0]'
"""

from __future__ import annotations

import functools
import hashlib
import json
import sys
from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from importlib import resources
from pathlib import Path
from typing import Any

from pipeline import strict_json
from pipeline.errors import BlackholeError
from pipeline.files import STDIN_SOURCE, is_standard_stream
from pipeline.plays.events import COUNT_FIELDS, Event

EXPORT_FORMAT = "blackhole-plays"
EXPORT_VERSION = 1
EXPORT_SCHEMA = "plays.schema.json"  # beside this module


class PlaysError(BlackholeError, ValueError):
    """Play records that cannot be used: the message names the file and the record, then the problem."""


class Outcome(str, Enum):
    """How an attempt ended: ``won``; ``stuck`` or ``abandoned`` (a new attempt begun with no move, or with
    moves, left); ``playing`` (not ended: not counted as finished)."""

    WON = "won"
    STUCK = "stuck"
    ABANDONED = "abandoned"
    PLAYING = "playing"


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


@dataclass(frozen=True)
class DealPlays:
    """What one gallery recorded of one deal: the play-tester's note and mark, and the attempts."""

    deal_id: str
    note: str
    mark: Mark | None
    attempts: tuple[Attempt, ...]


@dataclass(frozen=True)
class PlayExport:
    """One export file: where it came from (``source``, as given; its SHA-256) and what it holds."""

    source: str
    sha256: str
    pack: str
    gallery: str
    title: str
    exported: datetime
    deals: tuple[DealPlays, ...]


def record_label(
    deal: int, deal_id: str | None, attempt: int | None = None, attempt_id: str | None = None
) -> str:
    """Where a record is in an export, as errors name it: ``deals[2].attempts[5] (seed-77-3 attempt kx3-abc)``."""
    where = f"deals[{deal}]" + ("" if attempt is None else f".attempts[{attempt}]")
    names = [name for name in (deal_id, None if attempt_id is None else f"attempt {attempt_id}") if name]
    return f"{where} ({' '.join(names)})" if names else where


def read_export(path: Path) -> PlayExport:
    """The export in the file at ``path`` (``-``: standard input, named ``<stdin>``), once it is one of this
    version; PlaysError naming the file otherwise."""
    if is_standard_stream(path):
        return parse_export(sys.stdin.buffer.read(), source=STDIN_SOURCE)
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise PlaysError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise PlaysError(f"{path}: is a folder, expected a plays export (JSON)") from None
    return parse_export(data, source=str(path))


def parse_export(data: bytes, *, source: str) -> PlayExport:
    """The export in the bytes ``data`` of the file ``source``; PlaysError naming ``source`` otherwise."""
    try:
        text = data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as error:
        raise PlaysError(f"{source}: byte {error.start}: not UTF-8 text, so not a plays export") from None
    found = _parsed(text, source)
    if not isinstance(found, dict) or found.get("format") != EXPORT_FORMAT:
        raise PlaysError(f'{source}: not a plays export (no "format": "{EXPORT_FORMAT}" at its top level)')
    version = found.get("version")
    if version != EXPORT_VERSION or isinstance(version, bool):
        raise PlaysError(
            f"{source}: version {_short(version)} of the plays export; this blackhole reads version {EXPORT_VERSION}"
        )
    _check_refused(found, source)
    _check_schema(found, source)
    export = _export_of(found, source, hashlib.sha256(data).hexdigest())
    _check_records(export)
    return export


@functools.cache
def export_schema() -> dict[str, Any]:
    """The JSON Schema of an export file (``plays.schema.json``, shipped beside this module), read once:
    every caller is handed the same object, to read."""
    text = (
        resources.files(__package__ or "pipeline.plays").joinpath(EXPORT_SCHEMA).read_text(encoding="utf-8")
    )
    schema: dict[str, Any] = json.loads(text)
    return schema


def _parsed(text: str, source: str) -> Any:
    try:
        return strict_json.loads(text)
    except json.JSONDecodeError as error:
        raise PlaysError(
            f"{source}: line {error.lineno} column {error.colno}: not JSON ({error.msg}), so not a plays export"
        ) from None
    except RecursionError:
        raise PlaysError(f"{source}: nested too deeply to be a plays export") from None


def _refused(value: strict_json.Refused) -> str:
    """What is wrong with a value the parser refused, in a plays export's words."""
    if value.kind == "constant":
        return f"{value.text}, which is no JSON number"
    if value.kind == "float":
        return f"{value.text[:20]} is out of range"
    if value.kind == "integer":
        return f"an integer of {len(value.text)} digits"
    return f"the key {_short(value.text)} twice"


def _check_refused(found: Any, source: str) -> None:
    """PlaysError at the first value the parser refused, naming its record."""
    for path, value in strict_json.walk(found):
        if isinstance(value, strict_json.Refused):
            raise PlaysError(f"{source}: {_where(found, path)}: {_refused(value)}")


@functools.cache
def _validator() -> Any:
    """A validator of the export schema whose integers are ints alone (not 3.0, not true)."""
    import jsonschema  # slow to load: on the first export read

    base = jsonschema.Draft202012Validator
    types = base.TYPE_CHECKER.redefine(
        "integer", lambda _checker, value: isinstance(value, int) and not isinstance(value, bool)
    )
    return jsonschema.validators.extend(base, type_checker=types)(export_schema())


def _check_schema(found: Any, source: str) -> None:
    """Refuse ``found`` unless the schema accepts it; the most specific error is told.

    The events, most of an export, are checked here first, as the schema says them, and stand in for the
    schema's own check: jsonschema takes a thousand times longer over an ``anyOf`` of every event.
    """
    from jsonschema.exceptions import best_match

    briefer = _check_events(found, source)
    error = best_match(_validator().iter_errors(briefer))
    if error is not None:
        path = tuple(error.absolute_path)
        raise PlaysError(f"{source}: {_where(found, path)}: {_problem(error)}")


def _check_events(found: dict[str, Any], source: str) -> dict[str, Any]:
    """PlaysError at the first event that is neither a pile 0..16 nor an action; ``found`` with each
    attempt's events (once checked) cut to their first, for the schema to check the rest quickly."""
    actions = export_schema()["$defs"]["event"]["anyOf"][1]["enum"]
    described = export_schema()["$defs"]["event"]["description"]
    deals = found.get("deals")
    if not isinstance(deals, list):
        return found
    briefer_deals: list[Any] = []
    for number, deal in enumerate(deals):
        attempts = deal.get("attempts") if isinstance(deal, dict) else None
        if not isinstance(attempts, list):
            briefer_deals.append(deal)
            continue
        briefer_attempts: list[Any] = []
        for place, attempt in enumerate(attempts):
            events = attempt.get("events") if isinstance(attempt, dict) else None
            if not isinstance(events, list):
                briefer_attempts.append(attempt)
                continue
            for index, event in enumerate(events):
                pile = isinstance(event, int) and not isinstance(event, bool) and 0 <= event <= 16
                if not pile and not (isinstance(event, str) and event in actions):
                    where = _where(found, ("deals", number, "attempts", place, "events", index))
                    raise PlaysError(f"{source}: {where}: {_short(event)} is not {described}")
            briefer_attempts.append(attempt | {"events": events[:1]})
        briefer_deals.append(deal | {"attempts": briefer_attempts})
    return found | {"deals": briefer_deals}


def _problem(error: Any) -> str:
    """The schema error ``error`` in one short line."""
    keyword, expected, value = error.validator, error.validator_value, error.instance
    described = error.schema.get("description") if isinstance(error.schema, dict) else None
    if keyword == "required":
        missing = next(key for key in expected if key not in value)
        return f"{_short(missing)} is missing"
    if keyword == "additionalProperties":
        known = error.schema.get("properties", {})
        return f"{_short(next(key for key in value if key not in known))} is no key of a plays export"
    if keyword == "type":
        names = [expected] if isinstance(expected, str) else expected
        return f"expected {' or '.join(names)}, found {_json_type(value)}"
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
    return _one_line(error.message, 80)


def _where(found: Any, path: tuple[str | int, ...]) -> str:
    """``path`` in an export as errors say it: the record (with its deal and attempt ids), then the key."""
    if len(path) < 2 or path[0] != "deals" or not isinstance(path[1], int):
        return _path_text(path) or "top level"
    deal = found["deals"][path[1]]
    deal_id = _text_of(deal, "deal_id")
    if len(path) >= 4 and path[2] == "attempts" and isinstance(path[3], int):
        attempt = deal["attempts"][path[3]]
        label = record_label(path[1], deal_id, path[3], _text_of(attempt, "id"))
        rest = path[4:]
    else:
        label, rest = record_label(path[1], deal_id), path[2:]
    return f"{label}: {_path_text(rest)}" if rest else label


def _text_of(record: Any, key: str) -> str | None:
    """``record[key]`` when it is a short string a label can show, else None."""
    value = record.get(key) if isinstance(record, dict) else None
    return _one_line(value, 70) if isinstance(value, str) and value else None


def _path_text(path: tuple[str | int, ...]) -> str:
    text = ""
    for key in path:
        text += f"[{key}]" if isinstance(key, int) else (f".{key}" if text else str(key))
    return _one_line(text, 120)


def _short(value: Any) -> str:
    if isinstance(value, dict | list):
        return f"an {_json_type(value)}"
    return _one_line(json.dumps(value))


def _one_line(text: str, limit: int = 40) -> str:
    """``text`` on one line, control characters escaped, cut at ``limit`` characters."""
    text = "".join(char if char.isprintable() else char.encode("unicode_escape").decode() for char in text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def _time(text: str, where: str, field: str) -> datetime:
    """An ISO 8601 time the schema's pattern let through, refused in one line when it is no real time (10:64)."""
    try:
        return datetime.fromisoformat(text)
    except ValueError as error:
        raise PlaysError(f"{where}: {field} {text!r} is not a time ({error})") from None


def _export_of(found: dict[str, Any], source: str, sha256: str) -> PlayExport:
    """The typed export of a JSON object the schema accepted."""
    gallery = found["gallery"]

    def time_of(attempt: dict[str, Any], field: str, number: int, place: int) -> datetime:
        where = record_label(number, found["deals"][number]["deal_id"], place, attempt["id"])
        return _time(attempt[field], f"{source}: {where}", field)

    deals = tuple(
        DealPlays(
            deal_id=deal["deal_id"],
            note=deal["note"],
            mark=None if deal["mark"] is None else Mark(deal["mark"]),
            attempts=tuple(
                Attempt(
                    id=attempt["id"],
                    started=time_of(attempt, "started", number, place),
                    ended=None if attempt["ended"] is None else time_of(attempt, "ended", number, place),
                    seconds=float(attempt["seconds"]),
                    outcome=Outcome(attempt["outcome"]),
                    events=tuple(attempt["events"]),
                    **{name: attempt[name] for name in COUNT_FIELDS},
                    clean=attempt["clean"],
                    gallery=gallery,
                )
                for place, attempt in enumerate(deal["attempts"])
            ),
        )
        for number, deal in enumerate(found["deals"])
    )
    return PlayExport(
        source=source,
        sha256=sha256,
        pack=found["pack"],
        gallery=gallery,
        title=found["title"],
        exported=_time(found["exported"], source, "exported"),
        deals=deals,
    )


def _check_records(export: PlayExport) -> None:
    """Refuse what the schema cannot say: times out of order, ``ended`` against the outcome, ids twice."""
    deals: dict[str, int] = {}
    attempts: dict[str, str] = {}
    for number, deal in enumerate(export.deals):
        here = f"{export.source}: {record_label(number, deal.deal_id)}"
        if deal.deal_id in deals:
            raise PlaysError(f"{here}: the deal of deals[{deals[deal.deal_id]}] again")
        deals[deal.deal_id] = number
        for place, attempt in enumerate(deal.attempts):
            where = f"{export.source}: {record_label(number, deal.deal_id, place, attempt.id)}"
            if attempt.id in attempts:
                raise PlaysError(f"{where}: the id of {attempts[attempt.id]} again")
            attempts[attempt.id] = record_label(number, deal.deal_id, place)
            if (attempt.ended is None) != (attempt.outcome is Outcome.PLAYING):
                problem = (
                    "ended is null, but an attempt that is not playing has ended"
                    if attempt.ended is None
                    else "ended is set, but the attempt is still playing"
                )
                raise PlaysError(f"{where}: {problem}")
            if attempt.ended is not None and attempt.ended < attempt.started:
                raise PlaysError(f"{where}: ended ({attempt.ended.isoformat()}) is before started")
