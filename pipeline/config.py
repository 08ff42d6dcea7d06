"""Run configurations: a TOML file with one ``[run]`` table, checked key by key.

Keys of ``[run]`` (``name``, ``seed`` and ``count`` are required):

- ``name``: the run's folder under ``output`` (no slashes).
- ``seed``: root seed of the seeded deals, 0 .. 2**64 - 1.
- ``count``: how many deals, from index 0.
- ``jobs``: worker processes (default 1).
- ``max_nodes``: the solver's node budget per deal (default the solver's).
- ``output``: the folder that holds run folders, relative to the working
  directory (default ``output``).
- ``timings``: write solve times into ``solved.parquet`` (default true); false
  makes the file the same, byte for byte, on every run.

>>> config = parse_config('[run]\\nname = "demo"\\nseed = 1\\ncount = 5\\n')
>>> config.count, config.jobs, str(config.directory)
(5, 1, 'output/demo')
>>> parse_config('[run]\\nname = "demo"\\nseed = 1\\ncount = "5"\\n', source="x.toml")
Traceback (most recent call last):
...
pipeline.config.ConfigError: x.toml:4: [run] count must be an integer, not a string
"""

from __future__ import annotations

import dataclasses
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipeline.dealing import MAX_SEED
from pipeline.solver import DEFAULT_MAX_NODES


class ConfigError(ValueError):
    """A configuration that cannot be run; the message names the file and line."""

    def __init__(self, problem: str, *, source: str, line: int = 0) -> None:
        where = f"{source}:{line}" if line else source
        super().__init__(f"{where}: {problem}")


@dataclass(frozen=True)
class RunConfig:
    """One run: which deals to make and how to solve them."""

    name: str
    seed: int
    count: int
    jobs: int = 1
    max_nodes: int = DEFAULT_MAX_NODES
    output: Path = Path("output")
    timings: bool = True

    @property
    def directory(self) -> Path:
        """The folder this run writes into."""
        return self.output / self.name

    def with_overrides(self, **changes: Any) -> RunConfig:
        """This config with the ``changes`` that are not None (command-line overrides)."""
        return dataclasses.replace(self, **{k: v for k, v in changes.items() if v is not None})


# key -> (type, lowest allowed value or None)
_RUN_KEYS: dict[str, tuple[type, int | None]] = {
    "name": (str, None),
    "seed": (int, 0),
    "count": (int, 1),
    "jobs": (int, 1),
    "max_nodes": (int, 1),
    "output": (str, None),
    "timings": (bool, None),
}
_REQUIRED = ("name", "seed", "count")
_TYPE_NAMES = {str: "a string", int: "an integer", bool: "a boolean", float: "a number"}


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
    for key in document:
        if key != "run":
            raise ConfigError(
                f"unknown key {key!r} (expected a [run] table)", source=source, line=line_of(text, key)
            )
    run = document.get("run")
    if not isinstance(run, dict):
        raise ConfigError("needs a [run] table", source=source)
    values: dict[str, Any] = {}
    for key, value in run.items():
        if key not in _RUN_KEYS:
            expected = ", ".join(_RUN_KEYS)
            raise ConfigError(
                f"[run] has unknown key {key!r} (known: {expected})", source=source, line=line_of(text, key)
            )
        values[key] = _checked(key, value, source, line_of(text, key))
    for key in _REQUIRED:
        if key not in values:
            raise ConfigError(
                f"[run] needs {key!r}", source=source, line=line_of(text, r"\[run\]", header=True)
            )
    if "output" in values:
        values["output"] = Path(values["output"])
    return RunConfig(**values)


def _checked(key: str, value: Any, source: str, line: int) -> Any:
    kind, lowest = _RUN_KEYS[key]
    if type(value) is not kind:
        raise ConfigError(
            f"[run] {key} must be {_TYPE_NAMES[kind]}, not {type_name(value)}", source=source, line=line
        )
    if lowest is not None and value < lowest:
        raise ConfigError(f"[run] {key} must be at least {lowest}, got {value}", source=source, line=line)
    if key == "seed" and value > MAX_SEED:
        raise ConfigError(f"[run] seed must be at most {MAX_SEED}", source=source, line=line)
    if key == "name" and (not value or value in (".", "..") or "/" in value or "\\" in value):
        raise ConfigError(f"[run] name {value!r} is not a folder name", source=source, line=line)
    return value


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
