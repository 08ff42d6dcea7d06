"""Run configurations: a TOML file of sections, checked key by key before any work starts.

``[run]`` (``name``, ``seed`` and ``count`` are required):

- ``name``: the pack's folder under ``output/packs`` (no slashes).
- ``seed``: root seed of the seeded deals, 0 .. 2**64 - 1.
- ``count``: how many deals, from index 0.
- ``shard_size``: deals per shard, the unit a run commits and resumes (default 50).
- ``jobs``: worker processes (default 1).
- ``backend``: ``loky`` (processes on this machine, the default) or ``dask``.
- ``scheduler``: with ``dask``, the address of a running scheduler
  (``tcp://host:8786``); empty (the default) starts a local cluster of ``jobs`` workers.
- ``output``: the folder that holds ``packs/`` and ``work/`` (default ``output``).
- ``timings``: write each stage's seconds into the pack (default false, so the
  same config gives the same pack, byte for byte).

``[solve]``: ``max_nodes``, the solver's node budget per deal.
``[crosscheck]``: ``sample`` (share of solved deals checked, 0..1; every
unsolvable one is), ``seed`` (of that sample), ``time_limit`` (CP-SAT
deterministic seconds per deal) and ``reference_nodes`` (the reference
search's budget when CP-SAT cannot tell).
``[grade]``: ``max_positions`` (game-tree positions per deal) and ``tiers``
(the tiers file, default ``configs/tiers.toml``).
``[curate]``: ``per_tier`` (a table of deals wanted per tier, e.g.
``{ easy = 100, medium = 100 }``; absent: every deal that qualifies) and
``order`` (``difficulty``, the default, or ``pack``).

Any key can be overridden from the command line with ``section.key=value``
(:meth:`RunConfig.with_settings`), checked the same way.

>>> config = parse_config('[run]\\nname = "demo"\\nseed = 1\\ncount = 5\\n')
>>> config.count, config.jobs, str(config.pack_directory)
(5, 1, 'output/packs/demo')
>>> config.with_settings(["crosscheck.sample=0.5", "run.jobs=2"]).crosscheck_sample
0.5
>>> parse_config('[run]\\nname = "demo"\\nseed = 1\\ncount = "5"\\n', source="x.toml")
Traceback (most recent call last):
...
pipeline.config.ConfigError: x.toml:4: [run] count must be an integer, not a string
"""

from __future__ import annotations

import dataclasses
import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipeline.engine.cpsat import DEFAULT_TIME_LIMIT
from pipeline.engine.gametree import DEFAULT_MAX_POSITIONS
from pipeline.engine.solver import DEFAULT_MAX_NODES
from pipeline.errors import BlackholeError, located
from pipeline.game.shuffles import MAX_SEED
from pipeline.stages.crosscheck import DEFAULT_REFERENCE_NODES, DEFAULT_SAMPLE

BACKENDS = ("loky", "dask")
ORDERS = ("difficulty", "pack")
QUOTA_TIERS = ("easy", "medium", "hard", "expert")  # tiers.SOLVABLE_TIERS (tiers imports this module)


class ConfigError(BlackholeError, ValueError):
    """A configuration that cannot be run; the message names the file and line."""

    def __init__(self, problem: str, *, source: str, line: int = 0) -> None:
        super().__init__(located(problem, source=source, line=line))


@dataclass(frozen=True)
class RunConfig:
    """One run: which deals to make, each stage's budget, how to curate, and where the work goes."""

    name: str
    seed: int
    count: int
    shard_size: int = 50
    jobs: int = 1
    backend: str = "loky"
    scheduler: str = ""
    output: Path = Path("output")
    timings: bool = False
    max_nodes: int = DEFAULT_MAX_NODES
    crosscheck_sample: float = DEFAULT_SAMPLE
    crosscheck_seed: int = 0
    cpsat_time_limit: float = DEFAULT_TIME_LIMIT
    reference_nodes: int = DEFAULT_REFERENCE_NODES
    max_positions: int = DEFAULT_MAX_POSITIONS
    tiers: Path = Path("configs/tiers.toml")
    per_tier: tuple[tuple[str, int], ...] | None = None
    order: str = "difficulty"

    @property
    def pack_directory(self) -> Path:
        """The finished pack's folder."""
        return self.output / "packs" / self.name

    @property
    def curated_directory(self) -> Path:
        """The curated pack's folder."""
        return self.output / "packs" / f"{self.name}-curated"

    @property
    def work_directory(self) -> Path:
        """Where finished shards wait, outside the pack folder, until the pack is assembled."""
        return self.output / "work" / self.name

    def with_overrides(self, **changes: Any) -> RunConfig:
        """This config with the ``changes`` that are not None (command-line options)."""
        return _cross_checked(
            dataclasses.replace(self, **{k: v for k, v in changes.items() if v is not None}),
            source="command line",
        )

    def with_settings(self, settings: Iterable[str]) -> RunConfig:
        """This config with ``section.key=value`` settings applied; values are TOML, or else plain text."""
        changes: dict[str, Any] = {}
        for setting in settings:
            source = f"--set {setting}"
            dotted, equals, text = setting.partition("=")
            section, dot, key = dotted.strip().partition(".")
            if not equals or not dot:
                raise ConfigError("expected section.key=value", source=source)
            if (section, key) not in _KEYS:
                raise ConfigError(f"unknown key {dotted.strip()!r} (known: {_known()})", source=source)
            value = _toml_value(text.strip())
            changes[_KEYS[section, key].field] = _checked(section, key, value, source, 0)
        return _cross_checked(dataclasses.replace(self, **changes), source="command line")

    def settings(self) -> dict[str, dict[str, Any]]:
        """Every key as it would be written in the config file, by section (paths as text)."""
        found: dict[str, dict[str, Any]] = {}
        for (section, key), spec in _KEYS.items():
            value = getattr(self, spec.field)
            if isinstance(value, Path):
                value = str(value)
            elif spec.field == "per_tier" and value is not None:
                value = dict(value)
            found.setdefault(section, {})[key] = value
        return found


@dataclass(frozen=True)
class _Key:
    field: str
    kind: type
    lowest: float | None = None
    highest: float | None = None
    choices: tuple[str, ...] = ()


_KEYS: dict[tuple[str, str], _Key] = {
    ("run", "name"): _Key("name", str),
    ("run", "seed"): _Key("seed", int, 0, MAX_SEED),
    ("run", "count"): _Key("count", int, 1),
    ("run", "shard_size"): _Key("shard_size", int, 1),
    ("run", "jobs"): _Key("jobs", int, 1),
    ("run", "backend"): _Key("backend", str, choices=BACKENDS),
    ("run", "scheduler"): _Key("scheduler", str),
    ("run", "output"): _Key("output", Path),
    ("run", "timings"): _Key("timings", bool),
    ("solve", "max_nodes"): _Key("max_nodes", int, 1),
    ("crosscheck", "sample"): _Key("crosscheck_sample", float, 0.0, 1.0),
    ("crosscheck", "seed"): _Key("crosscheck_seed", int, 0),
    ("crosscheck", "time_limit"): _Key("cpsat_time_limit", float, 0.01),
    ("crosscheck", "reference_nodes"): _Key("reference_nodes", int, 1),
    ("grade", "max_positions"): _Key("max_positions", int, 1),
    ("grade", "tiers"): _Key("tiers", Path),
    ("curate", "per_tier"): _Key("per_tier", dict),
    ("curate", "order"): _Key("order", str, choices=ORDERS),
}
_REQUIRED = (("run", "name"), ("run", "seed"), ("run", "count"))
_TYPE_NAMES = {str: "a string", int: "an integer", bool: "a boolean", float: "a number", dict: "a table"}


def load_config(path: Path) -> RunConfig:
    """The run configuration in the TOML file at ``path``."""
    return parse_config(read_text(path), source=str(path))


def read_text(path: Path) -> str:
    """The text of the configuration file at ``path``; ConfigError naming it when missing or not UTF-8."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError("no such file", source=str(path)) from None
    except UnicodeDecodeError as error:
        raise ConfigError(f"not UTF-8 text ({error.reason})", source=str(path)) from None


def parse_toml(text: str, *, source: str) -> dict[str, Any]:
    """The TOML document in ``text``; a syntax error raises ConfigError naming ``source`` and the line."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        found = re.search(r"\s*\(at line (\d+), column (\d+)\)$", message)
        if found:
            problem = f"{message[: found.start()]} (column {found.group(2)})"
            raise ConfigError(problem, source=source, line=int(found.group(1))) from None
        raise ConfigError(message, source=source) from None


def parse_config(text: str, *, source: str = "<config>") -> RunConfig:
    """The run configuration in TOML ``text``; errors name ``source`` and the line."""
    document = parse_toml(text, source=source)
    sections = sorted({section for section, _ in _KEYS})
    values: dict[str, Any] = {}
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
            values[_KEYS[section, key].field] = _checked(section, key, value, source, line)
    for section, key in _REQUIRED:
        if _KEYS[section, key].field not in values:
            line = line_of(text, rf"\[\s*{section}\s*\]", header=True)
            raise ConfigError(f"[{section}] needs {key!r}", source=source, line=line)
    return _cross_checked(
        RunConfig(**values), source=source, line=_line_in_section(text, "curate", "per_tier")
    )


def _line_in_section(text: str, section: str, key: str) -> int:
    """The line of ``key`` within ``[section]`` (the first one in the file when the section is not found)."""
    header = line_of(text, rf"\[\s*{re.escape(section)}\s*\]", header=True)
    lines = text.splitlines()
    found = line_of("\n".join(lines[header:]), key) if header else 0
    return header + found if found else line_of(text, key)


def _toml_value(text: str) -> Any:
    """``text`` read as a TOML value (``3``, ``true``, ``"x"``, ``{ easy = 5 }``); plain text otherwise."""
    try:
        return tomllib.loads(f"value = {text}")["value"]
    except tomllib.TOMLDecodeError:
        return text


def _known() -> str:
    return ", ".join(f"{section}.{key}" for section, key in _KEYS)


def _checked(section: str, key: str, value: Any, source: str, line: int) -> Any:
    """``value`` for ``[section] key`` in the type RunConfig holds; ConfigError when it does not fit."""
    spec = _KEYS[section, key]
    name = f"[{section}] {key}"
    kind = str if spec.kind is Path else spec.kind
    fits = type(value) is kind or (kind is float and type(value) is int)
    if not fits:
        raise ConfigError(
            f"{name} must be {_TYPE_NAMES[kind]}, not {type_name(value)}", source=source, line=line
        )
    if spec.lowest is not None and value < spec.lowest:
        raise ConfigError(f"{name} must be at least {spec.lowest}, got {value}", source=source, line=line)
    if spec.highest is not None and value > spec.highest:
        raise ConfigError(f"{name} must be at most {spec.highest}, got {value}", source=source, line=line)
    if spec.choices and value not in spec.choices:
        expected = " or ".join(spec.choices)
        raise ConfigError(f"{name} must be {expected}, got {value!r}", source=source, line=line)
    if key == "name" and (not value or value in (".", "..") or "/" in value or "\\" in value):
        raise ConfigError(f"[run] name {value!r} is not a folder name", source=source, line=line)
    if spec.kind is Path:
        return Path(value)
    if kind is float:
        return float(value)
    if key == "per_tier":
        return _quotas(value, source, line)
    return value


def _quotas(table: dict[str, Any], source: str, line: int) -> tuple[tuple[str, int], ...]:
    for tier, wanted in table.items():
        if tier not in QUOTA_TIERS:
            expected = ", ".join(QUOTA_TIERS)
            raise ConfigError(
                f"[curate] per_tier has unknown tier {tier!r} (tiers: {expected})", source=source, line=line
            )
        if type(wanted) is not int or wanted < 0:
            raise ConfigError(
                f"[curate] per_tier {tier} must be a whole number of deals, at least 0, got {wanted!r}",
                source=source,
                line=line,
            )
    return tuple((tier, table[tier]) for tier in QUOTA_TIERS if tier in table)


def _cross_checked(config: RunConfig, *, source: str, line: int = 0) -> RunConfig:
    """``config`` once the keys that constrain each other agree: the quotas fit in the run."""
    if config.per_tier is not None:
        wanted = sum(count for _, count in config.per_tier)
        if wanted > config.count:
            raise ConfigError(
                f"[curate] per_tier asks for {wanted} deals but the run makes only {config.count}",
                source=source,
                line=line,
            )
    return config


def type_name(value: Any) -> str:
    """How an error names the type of ``value``: ``a string``, ``an integer``, ``a boolean``..."""
    return _TYPE_NAMES.get(type(value), f"a {type(value).__name__}")


def line_of(text: str, key: str, *, header: bool = False) -> int:
    """Line number (from 1) where ``key`` is first assigned (or the header matches), 0 if not found."""
    pattern = re.compile(
        rf"^\s*{key}\s*$" if header else rf"^\s*(\[+\s*)?[\"']?{re.escape(key)}[\"']?\s*[=.\]]"
    )
    for number, line in enumerate(text.splitlines(), start=1):
        if pattern.match(line):
            return number
    return 0
