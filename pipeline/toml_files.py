"""Reading TOML settings files: one error type whose message names the file and the line.

Run configurations (:mod:`pipeline.config`) and tiers files
(:mod:`pipeline.stages.tiers`) are read through these helpers, so a missing
file, a syntax error or a bad value is one line such as
``configs/x.toml:4: [run] count must be an integer, not a string``.

>>> line_of('[run]\\nseed = 1\\n', "seed")
2
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from pipeline.errors import BlackholeError, located


class ConfigError(BlackholeError, ValueError):
    """A configuration that cannot be run; the message names the file and line."""

    def __init__(self, problem: str, *, source: str, line: int = 0) -> None:
        super().__init__(located(problem, source=source, line=line))


class KeyProblem(Exception):
    """A problem that a reader checking a parsed document (a dict) found at a key, or at a table's header,
    before it knows the line: :meth:`located` makes it the ConfigError (or its ``kind``) naming the line, so
    that the document is checked as data and its text is searched once, for the one problem.

    ``key``: the first line that assigns it (:func:`line_of`); ``table``: its header, a comment after it
    allowed; ``line``: that line; none of them: no line.

    >>> str(KeyProblem("[run] count must be an integer", key="count").located("[run]\\ncount = 'x'\\n", "x.toml"))
    'x.toml:2: [run] count must be an integer'
    """

    def __init__(
        self,
        problem: str,
        *,
        key: str = "",
        table: str = "",
        line: int = 0,
        kind: type[ConfigError] = ConfigError,
    ) -> None:
        super().__init__(problem)
        self.problem, self.key, self.table, self.line, self.kind = problem, key, table, line, kind

    def located(self, text: str, source: str) -> ConfigError:
        """This problem as its ``kind`` of ConfigError naming ``source`` and the line in ``text``."""
        line = self.line
        if self.table:
            line = line_of(text, rf"\[{re.escape(self.table)}\]\s*(#.*)?", header=True)
        elif self.key:
            line = line_of(text, self.key)
        return self.kind(self.problem, source=source, line=line)


MAX_BYTES = 1 << 20
"""The most a settings file may hold: a run configuration or tiers file is a few hundred bytes, and the cap
keeps a device that never ends (``/dev/zero``, ``/dev/urandom``) from filling the memory."""


def read_text(path: Path) -> str:
    """The text of the configuration file at ``path``; ConfigError naming it when missing, not UTF-8 or
    longer than :data:`MAX_BYTES` (a pipe, ``<(...)``, is read as a file is)."""
    try:
        with open(path, "rb") as file:
            data = file.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise ConfigError("no such file", source=str(path)) from None
    if len(data) > MAX_BYTES:
        raise ConfigError(f"longer than {MAX_BYTES:,} bytes: not a settings file", source=str(path))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ConfigError(f"not UTF-8 text ({error.reason})", source=str(path)) from None
    return text.replace("\r\n", "\n").replace("\r", "\n")  # the line ends a text file's reading makes


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
    except ValueError:  # an integer past sys.get_int_max_str_digits(), which tomllib hands to int()
        line = line_of(text, r"[^#]*[0-9_]{4301}", header=True)
        problem = "a number too long to read (past 4,300 digits)"
        raise ConfigError(f"{_key_at(text, line)}{problem}", source=source, line=line) from None


def _key_at(text: str, line: int) -> str:
    """``[section] key: `` for the key assigned on ``line`` of ``text`` (from 1), as errors name a key; empty
    when the line assigns none.

    >>> _key_at('[run]\\nname = "x"\\ncount = 12\\n', 3), _key_at("count = 1", 0)
    ('[run] count: ', '')
    """
    lines = text.splitlines()
    if not 1 <= line <= len(lines) or "=" not in lines[line - 1]:
        return ""
    key = lines[line - 1].split("=", 1)[0].strip().strip("\"'")
    headers = (re.match(r"\s*\[+\s*([^\]]+?)\s*\]", above) for above in reversed(lines[: line - 1]))
    section = next((found.group(1) for found in headers if found), None)
    return f"[{section}] {key}: " if section else f"{key}: "


def line_of(text: str, key: str, *, header: bool = False) -> int:
    """Line number (from 1) where ``key`` is first assigned (or the header matches), 0 if not found."""
    pattern = re.compile(
        rf"^\s*{key}\s*$" if header else rf"^\s*(\[+\s*)?[\"']?{re.escape(key)}[\"']?\s*[=.\]]"
    )
    for number, line in enumerate(text.splitlines(), start=1):
        if pattern.match(line):
            return number
    return 0
