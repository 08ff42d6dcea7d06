"""A pack folder's ``_manifest.json``: what the pack is, where its deals came from, its files and counts.

:class:`Manifest` is read (:func:`read_manifest`) and written
(:meth:`Manifest.to_json`) here and nowhere else. The name starts with ``_``,
which dataset readers (pandas, pyarrow, Spark, Hive) take for metadata and
skip; format 1 named it ``manifest.json``, and a folder holding only that
name is read as before (:func:`manifest_path`). Its JSON object has, in
this order:

- ``format_version`` (:data:`FORMAT_VERSION`; absent in format 1);
- ``name``, ``kind`` (``pack`` or ``curated``), ``blackhole_version``, ``dealing_scheme``;
- ``game``, the game's name, only in a pack of another game than Black Hole;
- a run's pack: ``config``, the run's settings that decide the rows;
- a curated pack: ``curated_from`` (the source pack's name), ``source_config``
  and ``curation`` (quotas, order, rows dropped by each rule, shortfalls, and
  what play records changed: ``plays``, only when they were used);
- ``deals``, ``verdicts`` (deals by verdict), ``tiers`` (deals by tier), and
  ``win_rate`` (rate, 95 % interval, and for a run's pack the published rate and
  whether it is inside: a curated pack's deals are chosen wins, so it has neither);
- ``files``: every data file with its tier, row count and SHA-256;
- ``tier_thresholds``: the tiers the deals were graded with, as the files'
  schema metadata records them (:class:`TierThresholds`; null when it records
  none; absent in format 1).

A manifest is checked before anything is read from it or its folder: against
its JSON Schema, ``manifest.schema.json`` beside this module (types, required
keys, the names of kinds, tiers and verdicts, counts, rates, SHA-256 digests,
file paths that stay inside the pack folder), then for what the schema cannot
say (``deals`` equals the files' rows and the verdict and tier counts, a file
lies in its tier's folder, no two files share a path). Anything else raises a
one-line PackError: ``<source>: <where, as files[0].sha256>: <problem>``.

>>> from pipeline.packs.labels import PACK_TIERS, PackKind
>>> counts = {"solved": 0, "unsolvable": 0, "unknown": 0}
>>> origin = Origin("demo", PackKind.PACK, "0.1.0", "pysol-fc")
>>> empty = Manifest(origin, 0, counts, dict.fromkeys(PACK_TIERS, 0), None)
>>> Manifest.from_json(empty.to_json()) == empty
True
>>> old = dataclasses.replace(empty, format_version=1)  # format 1: no format_version, no tier_thresholds
>>> list(old.to_dict())[:2], Manifest.from_json(old.to_json()) == old
(['name', 'kind'], True)
>>> Manifest.from_json(empty.to_json().replace('"deals": 0', '"deals": -1'), source="demo/manifest.json")
Traceback (most recent call last):
pipeline.packs.parquet.PackError: demo/manifest.json: deals: -1 is below 0
"""

from __future__ import annotations

import dataclasses
import functools
import json
import re
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from importlib import resources
from pathlib import Path
from typing import Any

from pipeline import strict_json
from pipeline.free_text import folder_name_problem, one_line
from pipeline.game.games import Game, recorded_game
from pipeline.game.players import PLAYERS
from pipeline.packs.labels import PackKind
from pipeline.packs.parquet import PackError

MANIFEST = "_manifest.json"
OLD_MANIFEST = "manifest.json"  # format 1's name for it, still read
FORMAT_VERSION = 3
"""The pack format this version writes. 1 (no ``format_version`` key): ``manifest.json``, ``solution_count``
as decimal text. 2: ``_manifest.json``, ``solution_count`` int64, ``tier_thresholds`` in the manifest. 3: a
graded pack's schema metadata says the grading memory budget (``grade_max_memory_mib``, MiB; absent before:
no memory budget) beside a default position budget raised from 22,000,000 to 250,000,000. Every earlier
format is still read."""
MANIFEST_SCHEMA = "manifest.schema.json"  # the JSON Schema of a manifest, beside this module
KIND_ONLY = "kind_only"  # the metadata key of an Origin field written in one kind of manifest only
ABSENT_WHEN_NONE = "absent_when_none"  # the metadata key of a field left out of the JSON while it is None
ADDED_IN = "added_in"  # the metadata key of a Manifest field a later format added: absent from earlier ones
_MAX_DEPTH = 32  # the deepest nesting a manifest may have (its configs are 3 levels deep)


@dataclass(frozen=True)
class Origin:
    """Where a pack's deals came from: its name and kind, the package and dealing scheme, the settings."""

    name: str
    kind: PackKind
    blackhole_version: str
    dealing_scheme: str | None
    # The game's name; None, and absent from the JSON, for Black Hole: its manifests read and write as before.
    game: str | None = field(default=None, metadata={ABSENT_WHEN_NONE: True})
    # The keys of one kind of manifest only, as KIND_ONLY in their metadata says. A run's pack: the
    # settings that decide the rows. A curated pack: the source pack's name and config, how it was curated.
    config: dict[str, Any] | None = field(default=None, metadata={KIND_ONLY: PackKind.PACK})
    curated_from: str | None = field(default=None, metadata={KIND_ONLY: PackKind.CURATED})
    source_config: dict[str, Any] | None = field(default=None, metadata={KIND_ONLY: PackKind.CURATED})
    curation: CurationRecord | None = field(default=None, metadata={KIND_ONLY: PackKind.CURATED})

    @property
    def played(self) -> Game:
        """The game of the pack's deals: Black Hole when the manifest names none."""
        return recorded_game(self.game)


@dataclass(frozen=True)
class PlayCurationRecord:
    """What play records changed in a curation (``blackhole curate --plays``): the records' file, the deals
    left out because a play-tester marked them reject, whether the order follows play, and how many deals
    it placed so (those with at least ``min_attempts`` finished attempts)."""

    plays: str
    rejected: tuple[str, ...]
    by_play: bool
    placed: int
    min_attempts: int


@dataclass(frozen=True)
class CurationRecord:
    """How a curated pack was made: its quotas and order, the rows each rule dropped, the shortfalls, and
    what play records changed (None, and absent from the JSON, when none were given: so a manifest
    curated without them reads and writes as before they existed)."""

    per_tier: dict[str, int] | None
    order: str
    dropped: dict[str, int]
    shortfalls: dict[str, tuple[int, int]]  # tier: (wanted, found)
    plays: PlayCurationRecord | None = field(default=None, metadata={ABSENT_WHEN_NONE: True})


@dataclass(frozen=True)
class WinRateRecord:
    """A pack's win rate with its 95 % interval, beside its game's published rate (both None, and absent from
    the JSON, for a game with none: :func:`pipeline.game.stats.published_win_rate`)."""

    rate: float | None
    low: float
    high: float
    published: float | None = field(default=None, metadata={ABSENT_WHEN_NONE: True})
    published_inside: bool | None = field(default=None, metadata={ABSENT_WHEN_NONE: True})


@dataclass(frozen=True)
class TierThresholds:
    """The tiers a pack's deals were graded with: the player and figure a difficulty counts (``lookahead-4``,
    ``attempts``), and the fewest of it of the medium, hard and expert tiers; read off the schema metadata
    the grader wrote (``difficulty_player``, ``difficulty_figure``, ``tier_medium``...).

    >>> TierThresholds.from_metadata({"difficulty_player": "tips", "difficulty_figure": "dead_ends",
    ...     "tier_medium": "3.0", "tier_hard": "8.0", "tier_expert": "20.0"})
    TierThresholds(player='tips', figure='dead_ends', medium=3.0, hard=8.0, expert=20.0)
    >>> TierThresholds.from_metadata({"tier_medium": "5.8"}) is None  # not graded, or in the old units
    True
    """

    player: str
    figure: str
    medium: float
    hard: float
    expert: float

    @classmethod
    def from_metadata(cls, entries: Mapping[str, str]) -> TierThresholds | None:
        """The thresholds a pack file's schema metadata ``entries`` records; None when it records none
        (not graded) or not all of them (graded in the old units)."""
        names = [f"difficulty_{key}" for key in ("player", "figure")]
        thresholds = [f"tier_{tier}" for tier in ("medium", "hard", "expert")]
        if not all(key in entries for key in names + thresholds):
            return None
        try:
            values = [float(entries[key]) for key in thresholds]
        except ValueError:
            return None
        return cls(entries[names[0]], entries[names[1]], *values)


@dataclass(frozen=True)
class FileEntry:
    """One data file of a pack folder: its path in the folder, tier, row count and SHA-256."""

    path: str
    tier: str
    rows: int
    sha256: str


@dataclass(frozen=True)
class Manifest:
    """Everything ``_manifest.json`` says of a pack folder; ``format_version`` 1 for a manifest of format 1,
    which has neither it nor ``tier_thresholds`` (written back, it has neither again)."""

    origin: Origin
    deals: int
    verdicts: dict[str, int]
    tiers: dict[str, int]
    win_rate: WinRateRecord | None
    files: tuple[FileEntry, ...] = field(default=())
    tier_thresholds: TierThresholds | None = field(default=None, metadata={ADDED_IN: 2})
    format_version: int = field(default=FORMAT_VERSION, metadata={ADDED_IN: 2})  # written first

    @property
    def name(self) -> str:
        return self.origin.name

    @property
    def kind(self) -> PackKind:
        return self.origin.kind

    @property
    def played(self) -> Game:
        """The game of the pack's deals (:attr:`Origin.played`)."""
        return self.origin.played

    def to_dict(self) -> dict[str, Any]:
        """The manifest as the JSON object it is written as: its fields in order, the origin's (of its kind) first."""
        origin = {
            item.name: _json_of(getattr(self.origin, item.name))
            for item in dataclasses.fields(Origin)
            if item.metadata.get(KIND_ONLY, self.kind) == self.kind
            and not (item.metadata.get(ABSENT_WHEN_NONE) and getattr(self.origin, item.name) is None)
        }
        rest = {
            item.name: _json_of(getattr(self, item.name))
            for item in dataclasses.fields(Manifest)
            if item.name not in ("origin", "format_version")
            and item.metadata.get(ADDED_IN, 1) <= self.format_version
        }
        version = {"format_version": self.format_version} if self.format_version > 1 else {}
        return version | origin | rest

    def to_json(self) -> str:
        """The text of ``_manifest.json``."""
        return json.dumps(self.to_dict(), indent=2) + "\n"

    @classmethod
    def from_json(cls, text: str, *, source: str = MANIFEST) -> Manifest:
        """The manifest in ``text``, once it is valid; a one-line PackError naming ``source`` when not."""
        try:
            found = _parsed(text)
            _check_values(found)
            _check_schema(found)
            _check_counts(found)
        except _Invalid as invalid:
            raise PackError(f"{source}: {invalid.where}: {invalid.problem}") from None
        return _manifest_of(found)


def _json_of(value: Any) -> Any:
    """``value`` as JSON data: a dataclass as an object of its fields in order, a tuple as a list, an enum as its value."""
    if isinstance(value, Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            item.name: _json_of(getattr(value, item.name))
            for item in dataclasses.fields(value)
            if not (item.metadata.get(ABSENT_WHEN_NONE) and getattr(value, item.name) is None)
        }
    if isinstance(value, tuple | list):
        return [_json_of(item) for item in value]
    if isinstance(value, dict):
        return {key: _json_of(item) for key, item in value.items()}
    return value


def _manifest_of(found: dict[str, Any]) -> Manifest:
    """The Manifest of a checked manifest object: each field built from its key as its type says."""
    hints = typing.get_type_hints(Manifest)
    return Manifest(
        origin=_built(Origin, found),  # the origin's keys are the manifest's own
        **{
            item.name: _built(hints[item.name], found[item.name])
            for item in dataclasses.fields(Manifest)
            if item.name != "origin" and ADDED_IN not in item.metadata
        },
        tier_thresholds=_built(TierThresholds, found.get("tier_thresholds")),
        format_version=found.get("format_version", 1),  # format 1 has no such key
    )


def _built(hint: Any, value: Any) -> Any:
    """The checked JSON ``value`` as the type ``hint`` of a manifest field: dataclasses and tuples rebuilt."""
    if value is None:
        return None
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        [hint] = [arg for arg in typing.get_args(hint) if arg is not type(None)]
    if isinstance(hint, type) and issubclass(hint, Enum):
        return hint(value)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        hints = typing.get_type_hints(hint)
        return hint(
            **{item.name: _built(hints[item.name], value.get(item.name)) for item in dataclasses.fields(hint)}
        )
    args = typing.get_args(hint)
    if typing.get_origin(hint) is tuple:
        kinds = [args[0]] * len(value) if args[-1] is Ellipsis else args
        return tuple(_built(kind, item) for kind, item in zip(kinds, value, strict=True))
    if typing.get_origin(hint) is dict:
        return {key: _built(args[1], item) for key, item in value.items()}
    return value


def manifest_schema() -> dict[str, Any]:
    """The JSON Schema of ``manifest.json`` (``manifest.schema.json``, shipped beside this module)."""
    schema: dict[str, Any] = json.loads(
        resources.files(__package__ or "pipeline.packs").joinpath(MANIFEST_SCHEMA).read_text(encoding="utf-8")
    )
    return schema


class _Invalid(Exception):
    """What is wrong with a manifest (``problem``) and where (``where``, a JSON path such as files[0].rows)."""

    def __init__(self, where: str, problem: str) -> None:
        super().__init__(where, problem)
        self.where, self.problem = where, problem


def _parsed(text: str) -> Any:
    """The JSON value of ``text``, with Refused in place of the values a manifest cannot hold."""
    try:
        return strict_json.loads(text)
    except json.JSONDecodeError as error:
        raise _Invalid(f"line {error.lineno} column {error.colno}", f"not JSON ({error.msg})") from None
    except RecursionError:
        raise _Invalid("top level", "nested too deeply to read") from None


def _refused(value: strict_json.Refused) -> str:
    """What is wrong with a value the parser refused, in a manifest's words."""
    if value.kind == "constant":
        return f"{value.text} (a manifest's numbers are finite)"
    if value.kind == "float":
        return f"{one_line(value.text, ascii=True)} is out of range"
    if value.kind == "integer":
        return f"an integer of {len(value.text)} digits"
    return f"the key {_short(value.text)} twice"


def _check_values(found: Any) -> None:
    """Refuse a value the parser refused, or nesting deeper than _MAX_DEPTH, at the first place it occurs."""
    for path, value in strict_json.walk(found):
        if isinstance(value, strict_json.Refused):
            raise _Invalid(_where(path), _refused(value))
        if len(path) > _MAX_DEPTH:
            raise _Invalid(_where(path[:1]), f"nested deeper than {_MAX_DEPTH} levels")


@functools.cache
def _validator() -> Any:
    """A validator of the manifest schema whose integers are ints alone (not 3.0, not true)."""
    import jsonschema  # imported on the first manifest read: it is slow to load

    base = jsonschema.Draft202012Validator
    types = base.TYPE_CHECKER.redefine(
        "integer", lambda _checker, value: isinstance(value, int) and not isinstance(value, bool)
    )
    return jsonschema.validators.extend(base, type_checker=types)(manifest_schema())


def _check_schema(found: Any) -> None:
    """Refuse ``found`` unless it is valid under the manifest schema; the most specific error is told."""
    from jsonschema.exceptions import best_match

    error = best_match(_validator().iter_errors(found))
    if error is not None:
        path, problem = _explained(error, found)
        raise _Invalid(_where(path), problem)


def _explained(error: Any, found: Any) -> tuple[tuple[str | int, ...], str]:
    """The place and a one-line problem of the schema error ``error`` (never the whole value)."""
    path = tuple(error.absolute_path)
    keyword, expected, value = error.validator, error.validator_value, error.instance
    description = error.schema.get("description") if isinstance(error.schema, dict) else None
    if keyword == "required":
        return (*path, next(key for key in expected if key not in value)), "missing"
    if keyword == "additionalProperties":
        known = error.schema.get("properties", {})
        return (*path, next(key for key in value if key not in known)), "unexpected key"
    if keyword == "not":
        return path, f"not a key of a {found['kind']} manifest"
    if keyword == "type":
        names = [expected] if isinstance(expected, str) else expected
        return path, f"expected {' or '.join(names)}, found {strict_json.json_type(value)}"
    if keyword == "enum":
        return path, f"{_short(value)} is not one of {', '.join(map(str, expected))}"
    if keyword == "minimum":
        return path, f"{_short(value)} is below {expected}"
    if keyword == "maximum":
        return path, f"{_short(value)} is above {expected}"
    if description is not None:
        return path, f"{_short(value)} is not {description}"
    if keyword == "minLength" and value == "":
        return path, "empty"
    return path, one_line(error.message, 80, ascii=True)


def _check_counts(found: dict[str, Any]) -> None:
    """Refuse what the schema cannot say: a name its writers would refuse (:func:`folder_name_problem`),
    tier thresholds of no player or that do not rise, an interval upside down, a file outside its tier's
    folder, a path twice, counts that disagree."""
    for key in ("name", "curated_from"):
        name = found.get(key)
        if name is not None and (problem := folder_name_problem(name)) is not None:
            raise _Invalid(key, f"{_short(name)} is not a folder name ({problem})")
    thresholds = found.get("tier_thresholds")
    if thresholds is not None:
        if thresholds["player"] not in {player.value for player in PLAYERS}:
            raise _Invalid(
                "tier_thresholds.player", f"{_short(thresholds['player'])} is no player of the ladder"
            )
        if not thresholds["medium"] < thresholds["hard"] < thresholds["expert"]:
            rising = ", ".join(f"{thresholds[key]:g}" for key in ("medium", "hard", "expert"))
            raise _Invalid("tier_thresholds", f"medium, hard and expert do not rise ({rising})")
    rate = found["win_rate"]
    if rate is not None and rate["low"] > rate["high"]:
        raise _Invalid("win_rate", f"low {rate['low']} is above high {rate['high']}")
    rows = dict.fromkeys(found["tiers"], 0)
    paths: dict[str, int] = {}
    for number, entry in enumerate(found["files"]):
        path, tier = entry["path"], entry["tier"]
        if path.split("/")[0] != f"tier={tier}":
            raise _Invalid(
                _where(("files", number, "path")), f"{_short(path)} is not in the folder tier={tier}"
            )
        if path in paths:
            raise _Invalid(_where(("files", number, "path")), f"the path of files[{paths[path]}] again")
        paths[path] = number
        rows[tier] += entry["rows"]
    if found["deals"] != sum(rows.values()):
        raise _Invalid("deals", f"{found['deals']}, but the files hold {sum(rows.values())} rows")
    for tier, count in found["tiers"].items():
        if count != rows[tier]:
            raise _Invalid(f"tiers.{tier}", f"{count}, but the files of tier {tier} hold {rows[tier]} rows")
    verdicts = sum(found["verdicts"].values())
    if verdicts != found["deals"]:
        raise _Invalid("verdicts", f"{verdicts} deals in all, but deals is {found['deals']}")


def _where(path: tuple[str | int, ...]) -> str:
    """``path`` as a JSON path without its ``$``: ``files[0].sha256``; ``top level`` for the whole value."""
    text = ""
    for key in path:
        if isinstance(key, int):
            text += f"[{key}]"
        elif re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]{0,39}", key):
            text += f".{key}" if text else key
        else:
            text += f"[{_short(key)}]"
    return one_line(text, 120, ascii=True) if text else "top level"


def _short(value: Any) -> str:
    """``value`` in one short line: JSON for a string or a number, else its JSON type."""
    if isinstance(value, dict | list):
        return f"an {strict_json.json_type(value)}"
    return one_line(json.dumps(value), ascii=True)


def manifest_path(folder: Path) -> Path:
    """Where the manifest of the pack folder ``folder`` is: ``_manifest.json``, or ``manifest.json`` in a
    folder of format 1 that has only that name.

    >>> manifest_path(Path("no/such/pack"))
    PosixPath('no/such/pack/_manifest.json')
    """
    path = Path(folder) / MANIFEST
    old = path.with_name(OLD_MANIFEST)
    return old if not path.exists() and old.exists() else path


def read_manifest(folder: Path) -> Manifest:
    """The manifest of the pack folder ``folder`` (:func:`manifest_path`); PackError naming it when there is
    no pack there."""
    folder = Path(folder)
    path = manifest_path(folder)
    if folder.exists() and not folder.is_dir():
        raise PackError(f"{folder}: not a pack folder (a file, not a folder)")
    if not folder.is_dir():
        raise PackError(f"{folder}: no such pack folder")
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise PackError(f"{folder}: not a pack folder (no {MANIFEST})") from None
    except UnicodeDecodeError as error:
        raise PackError(f"{path}: byte {error.start}: not UTF-8") from None
    except OSError as error:
        raise PackError(f"{path}: top level: not readable ({error.strerror})") from None
    return Manifest.from_json(text, source=str(path))
