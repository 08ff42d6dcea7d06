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
>>> whole_number(-1, "seed", lowest=0, highest=9, where="seeded_deal")
Traceback (most recent call last):
...
pipeline.errors.ArgumentError: seeded_deal: seed must be from 0 to 9, got -1
"""

from __future__ import annotations

import math
import operator
from enum import IntEnum
from typing import Any


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
    """A bug in blackhole, not in the input, whatever the exception: its traceback and a line saying so are printed; please report them."""
    INTERRUPTED = 130
    """Stopped by Ctrl-C; a run keeps its finished shards and resumes when started again."""
    BROKEN_PIPE = 141
    """Standard output was closed before all was written (``| head``): the reader stopped reading, nothing is wrong."""
    TERMINATED = 143
    """Stopped by SIGTERM (``kill``, ``timeout``, a service manager) as by Ctrl-C: workers stopped, a run's finished shards kept."""
    BHS_INTRACTABLE = 254
    """``solve-board --format bhs`` only, as black-hole-solver: the node limit stopped the search (``Intractable!``)."""
    BHS_UNSOLVED = 255
    """``solve-board --format bhs`` only, as black-hole-solver: the board cannot be won (``Unsolved!``)."""


class BlackholeError(Exception):
    """Base of every error a user can cause; the message names the place and the problem."""

    exit_code: ExitCode = ExitCode.BAD_INPUT


class ArgumentError(BlackholeError, ValueError):
    """A value a call of the Python face cannot take: a number out of its range, a settings field out of
    the bounds the command line sets, a solve result that is not of the deal it is given with.

    Its message names the call (or settings object) and the parameter: ``WHERE: problem``. A value of
    the wrong type is a :class:`TypeError` naming the parameter, not this.
    """


class InternalError(Exception):
    """A bug in this program, never the user's input: for example a solution the solver found that the rules reject.

    Its message says what went wrong and on which deal; the command line
    shows the traceback with it and exits with :attr:`ExitCode.INTERNAL_ERROR`.
    """


def located(problem: str, *, source: str, line: int = 0) -> str:
    """``problem`` prefixed by where it was found: ``source:line:`` (or ``source:`` without a line)."""
    where = f"{source}:{line}" if line else source
    return f"{where}: {problem}"


def shown_value(value: Any) -> str:
    """``value`` as an error shows it: its repr (control characters escaped), an integer too long to
    print said by its size, anything too long cut.

    >>> print(shown_value(-1), shown_value(chr(27) + "[31m"), shown_value(2**20000))
    -1 '\\x1b[31m' an integer of 6021 digits
    """
    if isinstance(value, int) and value.bit_length() > 200:
        return f"an integer of {_digits(value)} digits"
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _digits(value: int) -> int:
    """How many decimal digits ``value`` has, without writing it out (Python refuses past 4,300 digits).

    >>> _digits(10**400 - 1), _digits(10**400), _digits(-(2**20000))
    (400, 401, 6021)
    """
    size = abs(value)
    estimate = math.floor((size.bit_length() - 1) * math.log10(2)) + 1  # exact or one short
    return estimate + 1 if size >= 10**estimate else estimate


TYPE_NAMES = {str: "a string", int: "an integer", bool: "a boolean", float: "a number", dict: "a table"}
"""How a settings file's errors name the types of its values (TOML's words)."""


def type_name(value: Any) -> str:
    """How a settings file's error names the type of ``value``: ``a string``, ``an integer``, ``a boolean``...

    >>> type_name("5"), type_name(5), type_name(True)
    ('a string', 'an integer', 'a boolean')
    """
    return TYPE_NAMES.get(type(value), f"a {type(value).__name__}")


def not_finite(value: float) -> str | None:
    """How an error names ``value`` when it is no finite float (``nan``, ``inf``, an integer past the
    floats); None when it is one.

    >>> not_finite(0.5), not_finite(float("nan")), not_finite(10**400)
    (None, 'nan', 'an integer past the floats')
    """
    try:
        return None if math.isfinite(value) else str(value)
    except OverflowError:
        return "an integer past the floats"


def kind_name(value: Any) -> str:
    """The name of ``value``'s type, as a TypeError names it (``str``, ``NoneType``, ``float``)."""
    return type(value).__name__


def whole_number(
    value: Any,
    name: str,
    *,
    lowest: int | None = None,
    highest: int | None = None,
    where: str,
) -> int:
    """``value`` as an int when it is a whole number from ``lowest`` to ``highest`` (None: unbounded).

    An int or a NumPy integer is a whole number; a bool, a float or anything else is a
    :class:`TypeError` naming ``name``; a number out of range an :class:`ArgumentError` naming
    ``where`` (the call) and ``name``.

    >>> whole_number(True, "jobs", where="solve_many")
    Traceback (most recent call last):
    ...
    TypeError: jobs must be an int, got bool
    """
    if isinstance(value, bool):
        raise TypeError(f"{name} must be an int, got {kind_name(value)}")
    try:
        number = operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an int, got {kind_name(value)}") from None
    if (lowest is not None and number < lowest) or (highest is not None and number > highest):
        raise ArgumentError(
            located(f"{name} must be {_range(lowest, highest)}, got {shown_value(number)}", source=where)
        )
    return number


def real_number(
    value: Any,
    name: str,
    *,
    lowest: float | None = None,
    highest: float | None = None,
    where: str,
) -> float:
    """``value`` as a float when it is a finite number from ``lowest`` to ``highest`` (None: unbounded).

    An int or a float (NumPy's too) is a number; a bool or anything else is a :class:`TypeError`
    naming ``name``; NaN, an infinity, an integer past the floats or a number out of range an
    :class:`ArgumentError`.

    >>> real_number(float("nan"), "time_limit", lowest=0.01, where="CrosscheckSettings")
    Traceback (most recent call last):
    ...
    pipeline.errors.ArgumentError: CrosscheckSettings: time_limit must be a finite number, got nan
    """
    if isinstance(value, bool | str | bytes | complex) or not hasattr(value, "__float__"):
        raise TypeError(f"{name} must be a number, got {kind_name(value)}")
    try:
        number = float(value)
    except OverflowError:
        raise ArgumentError(
            located(f"{name} must be a finite number, got {shown_value(value)}", source=where)
        ) from None
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a number, got {kind_name(value)}") from None
    if not math.isfinite(number):
        raise ArgumentError(located(f"{name} must be a finite number, got {number}", source=where))
    if (lowest is not None and number < lowest) or (highest is not None and number > highest):
        raise ArgumentError(
            located(f"{name} must be {_range(lowest, highest)}, got {shown_value(value)}", source=where)
        )
    return number


def _range(lowest: float | None, highest: float | None) -> str:
    if lowest is None:
        return f"at most {highest}"
    if highest is None:
        return f"at least {lowest}"
    return f"from {lowest} to {highest}"


def of_type(value: Any, kind: type | tuple[type, ...], name: str, what: str = "") -> None:
    """Refuse ``value`` with a :class:`TypeError` naming ``name`` unless it is a ``kind``
    (``what`` says what is wanted when the type's name does not, e.g. ``a Game (game_named('golf'))``).

    >>> of_type("golf", object, "game"), of_type(None, str, "deal_id")
    Traceback (most recent call last):
    ...
    TypeError: deal_id must be a str, got NoneType
    """
    if not isinstance(value, kind):
        wanted = what or " or ".join(
            f"a {each.__name__}" for each in (kind if isinstance(kind, tuple) else (kind,))
        )
        raise TypeError(f"{name} must be {wanted}, got {kind_name(value)}")
