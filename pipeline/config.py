"""Run configurations: a TOML file of sections, checked key by key before any work starts.

``[run]`` (``name`` and ``count`` are required, and ``seed`` for seeded deals):

- ``name``: the pack's folder under ``output/packs`` (no slashes, and not ending in
  ``-curated``: the curated pack of run ``X`` is ``X-curated``).
- ``source``: where the deals come from: ``seed`` (seeded shuffles, the default)
  or ``pysol`` (PySol FC's numbered deals).
- ``game``: the game dealt, ``black_hole`` (the default), ``all_in_a_row``,
  ``dead_king_golf``, ``golf`` or ``relaxed_golf``; every stage plays it, and
  grading ranks its deals by the tiers shipped for it (``[grade] tiers``).
- ``seed``: root seed of the seeded deals, 0 .. 2**64 - 1.
- ``first``: the first PySol FC deal number (default 1).
- ``count``: how many deals, from index 0 (seeded) or from ``first`` (PySol FC);
  at most 2**63 - 1 (deal indices and counts of deals are int64).
- ``shard_size``: deals per shard, the unit a run commits and resumes (default 50,
  at most :data:`MAX_SHARD_SIZE`).
- ``jobs``: worker processes (default 1, at most :data:`~pipeline.workers.MAX_JOBS`;
  on this machine, at most its CPUs are started).
- ``backend``: ``loky`` (processes on this machine, the default) or ``dask``.
- ``scheduler``: with ``dask``, the address of a running scheduler
  (``tcp://host:8786``); empty (the default) starts a local cluster of ``jobs`` workers.
- ``output``: the folder that holds ``packs/`` and ``work/`` (default ``output``).
- ``timings``: write each stage's seconds into the pack (default false, so the
  same config gives the same pack, byte for byte).

A path in a config file (``output``, ``[grade] tiers``) is read relative to the
file's folder, so a run is the same from any working folder; a path given on
the command line (``--set run.output=...``) is read relative to the working folder.

``[solve]``: ``max_nodes``, the solver's node budget per deal, and ``longest_play``
(default true; false leaves a loss's ``max_cards_played`` null: a census's verdicts sooner).
``[crosscheck]``: ``sample`` (share of solved deals checked, 0..1),
``loss_sample`` (share of unsolvable ones, default 1: every one), ``seed``
(of both samples), ``time_limit`` (CP-SAT
deterministic seconds per deal) and ``reference_nodes`` (the reference
search's budget when CP-SAT cannot tell).
``[grade]``: ``max_memory_mib`` (what one grading worker may hold, in MiB: a deal whose
game-tree walk needs more is ``out_of_budget``), ``max_positions`` (game-tree positions
per deal, a guard against a walk that would run very long under a budget set low), ``tiers``
(a tiers file; default the one shipped with the package,
:data:`~pipeline.stages.settings.DEFAULT_TIERS`), ``sample`` (share of the
solved deals graded, 0..1, default 1; the others say ``not_sampled``) and
``seed`` (of that sample).
``[curate]``: ``per_tier`` (a table of deals wanted per tier, e.g.
``{ easy = 100, medium = 100 }``; absent: every deal that qualifies; quotas asking for more
deals than ``count`` are scaled down to fit, :meth:`CurateSettings.within`) and
``order`` (``difficulty``, the default, or ``pack``).

Any key can be overridden from the command line with ``section.key=value``
(:meth:`RunConfig.with_settings`), checked the same way.

>>> config = parse_config('[run]\\nname = "demo"\\nseed = 1\\ncount = 5\\n')
>>> config.count, config.jobs, str(config.pack_directory)
(5, 1, 'output/packs/demo')
>>> config.with_settings(["crosscheck.sample=0.5", "run.jobs=2"]).crosscheck.sample
0.5
>>> parse_config('[run]\\nname = "demo"\\nseed = 1\\ncount = "5"\\n', source="x.toml")
Traceback (most recent call last):
...
pipeline.toml_files.ConfigError: x.toml:4: [run] count must be an integer, not a string
"""

from __future__ import annotations

import dataclasses
import os
import re
import tomllib
import typing
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

from pipeline.errors import TYPE_NAMES, ExitCode, not_finite, shown_value, type_name
from pipeline.free_text import folder_name_problem
from pipeline.game.games import Game, GameName, game_named
from pipeline.game.shuffles import MAX_PYSOL_DEAL, MAX_SEED, DealSource
from pipeline.limits import MAX_INT64
from pipeline.packs.labels import SOLVABLE_TIERS
from pipeline.stages.settings import (
    CrosscheckSettings,
    CurateSettings,
    GradeSettings,
    SolveSettings,
    bounded,
    field_bounds,
)
from pipeline.toml_files import ConfigError as ConfigError  # re-exported: callers catch it from here
from pipeline.toml_files import line_of, parse_toml, read_text
from pipeline.workers import MAX_JOBS, Backend

MAX_SHARD_SIZE = 100_000
"""The most deals a shard may hold: a run keeps a shard's results in memory until its last deal is back, so
the bound caps that memory (docs/benchmarks.md gives a deal's share); the census's shards hold 10,000."""
CURATED_SUFFIX = "-curated"
"""What a run's curated pack adds to its name, and so what no run's name may end in."""
STAGE_SECTIONS = ("solve", "crosscheck", "grade", "curate")  # each a field of RunConfig holding its settings


class SettingError(ConfigError):
    """A ``--set section.key=value`` that cannot be applied (no ``=``, an unknown key, a bad value): the
    command line is wrong, so it exits USAGE (2), as any bad option does."""

    exit_code = ExitCode.USAGE


@dataclass(frozen=True, kw_only=True)
class RunConfig:
    """One run: which deals to make, where the work goes, and each stage's settings, nested by section."""

    name: str
    source: DealSource = DealSource.SEED
    game: GameName = GameName.BLACK_HOLE
    seed: int = bounded(0, 0, MAX_SEED)
    first: int = bounded(1, 1, MAX_PYSOL_DEAL)
    count: int = bounded(dataclasses.MISSING, 1, MAX_INT64)  # required
    shard_size: int = bounded(50, 1, MAX_SHARD_SIZE)
    jobs: int = bounded(1, 1, MAX_JOBS)
    backend: Backend = Backend.LOKY
    scheduler: str = ""
    output: Path = Path("output")
    timings: bool = False
    solve: SolveSettings = field(default_factory=SolveSettings)
    crosscheck: CrosscheckSettings = field(default_factory=CrosscheckSettings)
    grade: GradeSettings = field(default_factory=GradeSettings)
    curate: CurateSettings = field(default_factory=CurateSettings)

    @property
    def played(self) -> Game:
        """The game of ``game``: :data:`~pipeline.game.games.BLACK_HOLE` unless the config says another."""
        return game_named(self.game)

    @property
    def pack_directory(self) -> Path:
        """The finished pack's folder."""
        return self.output / "packs" / self.name

    @property
    def curated_directory(self) -> Path:
        """The curated pack's folder."""
        return self.output / "packs" / f"{self.name}{CURATED_SUFFIX}"

    @property
    def work_directory(self) -> Path:
        """Where finished shards wait, outside the pack folder, until the pack is assembled."""
        return self.output / "work" / self.name

    def with_overrides(self, **changes: Any) -> RunConfig:
        """This config with the ``[run]`` ``changes`` that are not None (command-line options)."""
        chosen = {
            ("run", key): _checked("run", key, value, "command line", 0)
            for key, value in changes.items()
            if value is not None
        }
        return _cross_checked(_replaced(self, chosen), source="command line")

    def with_settings(self, settings: Iterable[str]) -> RunConfig:
        """This config with ``section.key=value`` settings applied; values are TOML, or else plain text.

        A setting that cannot be applied is a :class:`SettingError` naming it.
        """
        changes: dict[tuple[str, str], Any] = {}
        for setting in settings:
            source = f"--set {setting if len(setting) <= 80 else setting[:77] + '...'}"  # a line, not a page
            dotted, equals, text = setting.partition("=")
            section, dot, key = dotted.strip().partition(".")
            if not equals or not dot:
                raise SettingError("expected section.key=value", source=source)
            if (section, key) not in _KEYS:
                raise SettingError(f"unknown key {dotted.strip()!r} (known: {_known()})", source=source)
            try:
                value = _toml_value(text.strip(), source)
                changes[section, key] = _checked(section, key, value, source, 0)
            except ConfigError as error:
                raise SettingError(str(error).removeprefix(f"{source}: "), source=source) from None
        return _cross_checked(_replaced(self, changes), source="command line")

    def settings(self) -> dict[str, dict[str, Any]]:
        """Every key as it would be written in the config file, by section (paths as text)."""
        found: dict[str, dict[str, Any]] = {}
        for section, key in _KEYS:
            holder = self if section == "run" else getattr(self, section)
            value = getattr(holder, key)
            if isinstance(value, Path):
                value = str(value)
            elif isinstance(value, Enum):
                value = value.value
            elif key == "per_tier" and value is not None:
                value = dict(value)
            found.setdefault(section, {})[key] = value
        return found


def _replaced(config: RunConfig, changes: dict[tuple[str, str], Any]) -> RunConfig:
    """``config`` with the ``(section, key): value`` ``changes``: a ``[run]`` key is a field of its own,
    any other a field of that section's settings."""
    top = {key: value for (section, key), value in changes.items() if section == "run"}
    for section in STAGE_SECTIONS:
        keys = {key: value for (named, key), value in changes.items() if named == section}
        if keys:
            top[section] = dataclasses.replace(getattr(config, section), **keys)
    return dataclasses.replace(config, **top)


@dataclass(frozen=True)
class _Key:
    """What a config key takes: its TOML type, its bounds, and its enum when it is one of a closed set."""

    kind: type
    lowest: float | None = None
    highest: float | None = None
    choices: type[Enum] | None = None


def _key_of(declared: dataclasses.Field[Any], hint: Any) -> _Key:
    """The :class:`_Key` of a settings field: its type (an enum's members are read as their text) and bounds."""
    bounds = field_bounds(declared)
    if isinstance(hint, type) and issubclass(hint, Enum):
        return _Key(str, choices=hint)
    # the one optional setting, per_tier, is a TOML table of quotas
    kind = dict if typing.get_origin(hint) in (typing.Union, type(int | None)) else hint
    return _Key(kind, bounds.lowest, bounds.highest)


def _keys_of(section: str, settings: type) -> dict[tuple[str, str], _Key]:
    """Each field of the dataclass ``settings`` as a key of ``[section]`` (the ``[run]`` table leaves out the sections)."""
    hints = typing.get_type_hints(settings)
    return {
        (section, declared.name): _key_of(declared, hints[declared.name])
        for declared in dataclasses.fields(settings)
        if declared.name not in STAGE_SECTIONS
    }


_KEYS: dict[tuple[str, str], _Key] = {
    **_keys_of("run", RunConfig),
    **_keys_of("solve", SolveSettings),
    **_keys_of("crosscheck", CrosscheckSettings),
    **_keys_of("grade", GradeSettings),
    **_keys_of("curate", CurateSettings),
}
_REQUIRED = (("run", "name"), ("run", "count"))


def load_config(path: Path) -> RunConfig:
    """The run configuration in the TOML file at ``path``; its paths are read relative to its folder."""
    return parse_config(read_text(path), source=str(path), folder=Path(path).parent)


def parse_config(text: str, *, source: str = "<config>", folder: Path | None = None) -> RunConfig:
    """The run configuration in TOML ``text``; errors name ``source`` and the line.

    A relative path in ``text`` (``[run] output``, ``[grade] tiers``) is read relative to ``folder``,
    the config file's, and spelled relative to the working folder when it lies inside it; without
    ``folder``, relative to the working folder.

    >>> text = '[run]\\nname = "demo"\\nseed = 1\\ncount = 5\\noutput = "../output"\\n'
    >>> str(parse_config(text, folder=Path("/etc/blackhole")).output)
    '/etc/output'
    >>> str(parse_config(text).output)
    '../output'
    """
    document = parse_toml(text, source=source)
    sections = sorted({section for section, _ in _KEYS})
    values: dict[tuple[str, str], Any] = {}
    for section, table in document.items():
        header = line_of(text, rf"\[\s*{re.escape(section)}\s*\]", header=True) or line_of(text, section)
        if section not in sections:
            known = ", ".join(f"[{name}]" for name in sections)
            raise ConfigError(f"unknown section [{section}] (known: {known})", source=source, line=header)
        if not isinstance(table, dict):
            raise ConfigError(f"{section} must be a [{section}] table", source=source, line=header)
        for key, value in table.items():
            line = _line_in_section(text, section, key)
            if (section, key) not in _KEYS:
                known = ", ".join(k for s, k in _KEYS if s == section)
                raise ConfigError(
                    f"[{section}] has unknown key {key!r} (known: {known})", source=source, line=line
                )
            values[section, key] = _checked(section, key, value, source, line)
    if folder is not None:
        values = {where: _beside(folder, value) for where, value in values.items()}
    seeded = values.get(("run", "source"), DealSource.SEED) == DealSource.SEED
    for section, key in (*_REQUIRED, *((("run", "seed"),) if seeded else ())):
        if (section, key) not in values:
            line = line_of(text, rf"\[\s*{section}\s*\]", header=True)
            raise ConfigError(f"[{section}] needs {key!r}", source=source, line=line)
    required = {key: values.pop(("run", key)) for _, key in _REQUIRED}
    return _cross_checked(
        _replaced(RunConfig(**required), values),
        source=source,
        line=_line_in_section(text, "run", "name"),
    )


def _beside(folder: Path, value: Any) -> Any:
    """``value``, when it is a relative path, read relative to ``folder`` (spelled relative to the
    working folder when inside it, absolute otherwise); any other value as it is."""
    if not isinstance(value, Path) or value.is_absolute():
        return value
    found = Path(os.path.normpath(folder.resolve() / value))
    return found.relative_to(Path.cwd()) if found.is_relative_to(Path.cwd()) else found


def _line_in_section(text: str, section: str, key: str) -> int:
    """The line of ``key`` within ``[section]`` (the first one in the file when the section is not found)."""
    header = line_of(text, rf"\[\s*{re.escape(section)}\s*\]", header=True)
    lines = text.splitlines()
    found = line_of("\n".join(lines[header:]), key) if header else 0
    return header + found if found else line_of(text, key)


def _toml_value(text: str, source: str) -> Any:
    """``text`` read as a TOML value (``3``, ``true``, ``"x"``, ``{ easy = 5 }``); plain text otherwise.

    ConfigError naming ``source`` for a number too long for Python to read (past 4,300 digits).
    """
    try:
        return tomllib.loads(f"value = {text}")["value"]
    except tomllib.TOMLDecodeError:
        return text
    except ValueError:  # int() past sys.get_int_max_str_digits()
        raise ConfigError("a number too long to read (past 4,300 digits)", source=source) from None


_ADDRESS = re.compile(r"(?:[a-z][a-z0-9+.-]*://)?(?:\[[0-9A-Fa-f:.]+\]|[^\s/:\[\]]+):(\d{1,5})")


def _is_address(text: str) -> bool:
    """Whether ``text`` reads as a Dask scheduler address, ``[PROTOCOL://]HOST:PORT`` with a port 1..65535."""
    found = _ADDRESS.fullmatch(text)
    return found is not None and 1 <= int(found.group(1)) <= 65535


def _known() -> str:
    return ", ".join(f"{section}.{key}" for section, key in _KEYS)


def _checked(section: str, key: str, value: Any, source: str, line: int) -> Any:
    """``value`` for ``[section] key`` in the type RunConfig holds; ConfigError when it does not fit."""
    spec = _KEYS[section, key]
    if spec.choices is not None and isinstance(value, spec.choices):  # a command-line option's enum
        return value
    name = f"[{section}] {key}"
    kind = str if spec.kind is Path else spec.kind
    fits = type(value) is kind or (kind is float and type(value) is int)
    if not fits:
        raise ConfigError(
            f"{name} must be {TYPE_NAMES[kind]}, not {type_name(value)}", source=source, line=line
        )
    if kind is float and (got := not_finite(value)) is not None:
        raise ConfigError(f"{name} must be a finite number, got {got}", source=source, line=line)
    if spec.lowest is not None and value < spec.lowest:
        raise ConfigError(
            f"{name} must be at least {spec.lowest}, got {shown_value(value)}", source=source, line=line
        )
    if spec.highest is not None and value > spec.highest:
        raise ConfigError(
            f"{name} must be at most {spec.highest}, got {shown_value(value)}", source=source, line=line
        )
    if spec.choices is not None and value not in {choice.value for choice in spec.choices}:
        expected = " or ".join(choice.value for choice in spec.choices)
        raise ConfigError(f"{name} must be {expected}, got {value!r}", source=source, line=line)
    # the rule manifests are read by
    if key == "name" and (problem := folder_name_problem(value)) is not None:
        raise ConfigError(f"[run] name {value!r} is not a folder name ({problem})", source=source, line=line)
    if key == "scheduler" and value and not _is_address(value):
        raise ConfigError(
            f"[run] scheduler {value!r} is not an address: PROTOCOL://HOST:PORT, e.g. tcp://127.0.0.1:8786",
            source=source,
            line=line,
        )
    if spec.choices is not None:
        return spec.choices(value)
    if spec.kind is Path:
        return Path(value)
    if kind is float:
        return float(value)
    if key == "per_tier":
        return _quotas(value, source, line)
    return value


def _quotas(table: dict[str, Any], source: str, line: int) -> tuple[tuple[str, int], ...]:
    for tier, wanted in table.items():
        if tier not in SOLVABLE_TIERS:
            expected = ", ".join(SOLVABLE_TIERS)
            raise ConfigError(
                f"[curate] per_tier has unknown tier {tier!r} (tiers: {expected})", source=source, line=line
            )
        if type(wanted) is not int or wanted < 0:
            raise ConfigError(
                f"[curate] per_tier {tier} must be a whole number of deals, at least 0, got {wanted!r}",
                source=source,
                line=line,
            )
        if wanted > MAX_INT64:  # quotas are counted in int64, as --per-tier's are
            raise ConfigError(
                f"[curate] per_tier {tier} must be at most {MAX_INT64}, got {shown_value(wanted)}",
                source=source,
                line=line,
            )
    return tuple((tier, table[tier]) for tier in SOLVABLE_TIERS if tier in table)


def deals_past_the_end(source: DealSource, *, first: int = 1, start: int = 0, count: int) -> str | None:
    """Why ``count`` deals of ``source``, from PySol FC's deal number ``first`` or from the seeded deal index
    ``start``, do not all exist (the last would pass :data:`~pipeline.game.shuffles.MAX_PYSOL_DEAL`, or the
    last index an int64); None when they do. The run config and ``blackhole generate`` both ask it.

    >>> deals_past_the_end(DealSource.PYSOL, first=MAX_PYSOL_DEAL - 1, count=3)
    'PySol FC deals 8589934590 to 8589934592 pass the last one, 8589934591'
    >>> deals_past_the_end(DealSource.SEED, start=MAX_INT64, count=1) is None
    True
    """
    if source is DealSource.PYSOL:
        last = first + count - 1
        return (
            None
            if last <= MAX_PYSOL_DEAL
            else f"PySol FC deals {first} to {last} pass the last one, {MAX_PYSOL_DEAL}"
        )
    return None if start + count - 1 <= MAX_INT64 else f"the last deal index would pass {MAX_INT64}"


def _cross_checked(config: RunConfig, *, source: str, line: int = 0) -> RunConfig:
    """``config`` once the keys that constrain each other agree: the deals exist, and the name is not
    another run's curated pack (``X-curated``, :attr:`RunConfig.curated_directory`); ``line``: the name's.

    Quotas asking for more deals than the run makes are not an error: the run scales them down
    (:meth:`~pipeline.stages.settings.CurateSettings.within`) and says so.
    """
    if (problem := deals_past_the_end(config.source, first=config.first, count=config.count)) is not None:
        raise ConfigError(f"[run] {problem}", source=source)
    if config.name.endswith(CURATED_SUFFIX):
        raise ConfigError(
            f"[run] name {config.name!r} ends in {CURATED_SUFFIX}, which names run "
            f"{config.name.removesuffix(CURATED_SUFFIX)!r}'s curated pack; choose another name",
            source=source,
            line=line,
        )
    if (problem := folder_name_problem(config.name + CURATED_SUFFIX)) is not None:  # too long, with -curated
        raise ConfigError(
            f"[run] name {config.name!r} is not a folder name for its curated pack "
            f"{config.name + CURATED_SUFFIX!r} ({problem})",
            source=source,
            line=line,
        )
    return config
