"""The one error base users meet, and the one table of exit codes.

Every error a user can cause (a bad board, pack, configuration, option or
export) derives from :class:`BlackholeError`; its message already says where
(file, line or deal) and what, so the command line prints it as one
``error: ...`` line and exits with the error's :attr:`~BlackholeError.exit_code`.
Errors that mean a bug in this package (a solution the solver found that the
referee rejects) are :class:`InternalError`, which does not derive from it:
the command line prints its traceback and a line saying it is a bug, and
exits with :attr:`ExitCode.INTERNAL_ERROR`.

>>> located("unknown card 'XX'", source="deals.txt", line=3)
"deals.txt:3: unknown card 'XX'"
>>> int(ExitCode.DISAGREEMENT), BlackholeError.exit_code is ExitCode.BAD_INPUT
(3, True)
>>> issubclass(InternalError, BlackholeError), int(ExitCode.INTERNAL_ERROR)
(False, 70)
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
    INTERNAL_ERROR = 70
    """A bug in blackhole, not in the input: the traceback and the deal are printed; please report them."""
    INTERRUPTED = 130
    """Stopped by Ctrl-C; a run keeps its finished shards and resumes when started again."""
    BROKEN_PIPE = 141
    """Standard output was closed before all was written (``| head``): the reader stopped reading, nothing is wrong."""
    BHS_INTRACTABLE = 254
    """``solve-board --format bhs`` only, as black-hole-solver: the node limit stopped the search (``Intractable!``)."""
    BHS_UNSOLVED = 255
    """``solve-board --format bhs`` only, as black-hole-solver: the board cannot be won (``Unsolved!``)."""


class BlackholeError(Exception):
    """Base of every error a user can cause; the message names the place and the problem."""

    exit_code: ExitCode = ExitCode.BAD_INPUT


class InternalError(Exception):
    """A bug in this program, never the user's input: for example a solution the solver found that the rules reject.

    Its message says what went wrong and on which deal; the command line
    shows the traceback with it and exits with :attr:`ExitCode.INTERNAL_ERROR`.
    """


def located(problem: str, *, source: str, line: int = 0) -> str:
    """``problem`` prefixed by where it was found: ``source:line:`` (or ``source:`` without a line)."""
    where = f"{source}:{line}" if line else source
    return f"{where}: {problem}"
