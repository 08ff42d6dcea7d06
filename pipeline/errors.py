"""The one error base users meet, and the one table of exit codes.

Every error a user can cause (a bad board, pack, configuration, option or
export) derives from :class:`BlackholeError`; its message already says where
(file, line or deal) and what, so the command line prints it as one
``error: ...`` line and exits with the error's :attr:`~BlackholeError.exit_code`.
Errors that mean a bug in this package (a solution the referee rejects) do
not derive from it, so they keep their traceback.

>>> located("unknown card 'XX'", source="deals.txt", line=3)
"deals.txt:3: unknown card 'XX'"
>>> int(ExitCode.DISAGREEMENT), BlackholeError.exit_code is ExitCode.BAD_INPUT
(3, True)
"""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    """What the ``blackhole`` command's exit status means."""

    OK = 0
    """Every step worked."""
    BAD_INPUT = 1
    """A file, configuration or value could not be used; one ``error:`` line says which and why."""
    USAGE = 2
    """The command line itself is wrong: an unknown option, a missing argument, a value out of range."""
    DISAGREEMENT = 3
    """The cross-check contradicts a verdict; the disputed deals are printed."""
    INTERRUPTED = 130
    """Stopped by Ctrl-C; a run keeps its finished shards and resumes when started again."""


class BlackholeError(Exception):
    """Base of every error a user can cause; the message names the place and the problem."""

    exit_code: ExitCode = ExitCode.BAD_INPUT


def located(problem: str, *, source: str, line: int = 0) -> str:
    """``problem`` prefixed by where it was found: ``source:line:`` (or ``source:`` without a line)."""
    where = f"{source}:{line}" if line else source
    return f"{where}: {problem}"
