"""One holder at a time: a lock file held with ``flock`` for as long as a block runs.

:func:`holding` takes the lock or raises :class:`LockedError` naming the
holder. The kernel lets go of an ``flock`` when its process ends, however
it ends (Ctrl-C, ``kill -9``, a crash), so on this machine no lock is ever
held by a dead process: the file a killed holder left behind is free, and
the next one takes it over without guessing from PIDs. The file records
its holder (:class:`Holder`: PID, host, since when) for the message of
whoever is refused; the holder deletes it when it lets go.

A free lock file recorded by another host is not taken over: on a network
file system whose locks do not reach other machines, a free lock says
nothing about a process there. The message says to delete the file once
that process has stopped.

>>> import tempfile
>>> path = Path(tempfile.mkdtemp()) / "demo.lock"
>>> with holding(path, what="demo") as taken_over:
...     Holder.from_text(path.read_text()) == Holder.of_this_process(), taken_over
(True, None)
>>> path.exists()
False
"""

from __future__ import annotations

import fcntl
import json
import os
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from pipeline.errors import BlackholeError
from pipeline.files import naming_write_errors


class LockedError(BlackholeError):
    """A lock another process holds (or may hold, on another host); the message names it and the file."""


@dataclass(frozen=True)
class Holder:
    """Who holds a lock: a process on a host, since a local time (ISO 8601, to the second).

    >>> holder = Holder(pid=4242, host="box", since="2026-01-02T03:04:05+00:00")
    >>> str(holder)
    'PID 4242 on host box, since 2026-01-02T03:04:05+00:00'
    >>> Holder.from_text(holder.to_text()) == holder
    True
    >>> Holder.from_text("not a record") is None
    True
    """

    pid: int
    host: str
    since: str

    @classmethod
    def of_this_process(cls) -> Holder:
        """This process, now."""
        since = datetime.now().astimezone().isoformat(timespec="seconds")
        return cls(pid=os.getpid(), host=socket.gethostname(), since=since)

    def to_text(self) -> str:
        """The record as the lock file holds it: one JSON object."""
        return json.dumps({"pid": self.pid, "host": self.host, "since": self.since}, sort_keys=True) + "\n"

    @classmethod
    def from_text(cls, text: str) -> Holder | None:
        """The record in ``text``; None when it is empty or not a record (a holder that died writing it)."""
        try:
            record = json.loads(text)
            holder = cls(pid=record["pid"], host=record["host"], since=record["since"])
        except (ValueError, TypeError, KeyError):
            return None
        typed = isinstance(holder.pid, int) and isinstance(holder.host, str) and isinstance(holder.since, str)
        return holder if typed else None

    def __str__(self) -> str:
        return f"PID {self.pid} on host {self.host}, since {self.since}"


@contextmanager
def holding(path: Path, *, what: str, tidy: bool = False) -> Iterator[Holder | None]:
    """Hold the lock file ``path`` while the block runs; LockedError, naming ``what`` and the holder, when it is held.

    Yields the holder recorded in a lock file that a killed process of this
    host left behind, now taken over, or None. The lock is let go and the
    file deleted when the block ends, also on error and Ctrl-C. The folder
    of ``path`` is made when missing; with ``tidy`` (a folder of lock files
    alone) it is removed again when the last holder leaves it empty. When
    the lock cannot be taken (held, a full disk), the folders made for it
    are removed again, those left empty.
    """
    path = Path(path)
    missing = [folder for folder in path.parents if not folder.exists()]
    taken = False
    try:
        with _held(path, what) as left:
            taken = True
            yield left
    finally:
        if tidy:
            _remove_if_empty(path.parent)
        if not taken:
            for folder in missing:  # the deepest first
                _remove_if_empty(folder)


@contextmanager
def _held(path: Path, what: str) -> Iterator[Holder | None]:
    """:func:`holding` but for the tidying of the folder."""
    descriptor = _locked_descriptor(path, what)
    left = Holder.from_text(_read(descriptor))
    me = Holder.of_this_process()
    if left is not None and left.host != me.host:
        _let_go(descriptor, path, delete=False)  # the file is that host's to delete
        raise LockedError(
            f"{path}: left by {what} on another host ({left}); "
            "if it has stopped, delete this file and start again"
        )
    try:
        with naming_write_errors(path):  # a full disk: pwrite names no file
            os.ftruncate(descriptor, 0)
            os.pwrite(descriptor, me.to_text().encode(), 0)
    except BaseException:
        _let_go(descriptor, path, delete=True)
        raise
    try:
        yield left
    finally:
        _let_go(descriptor, path, delete=True)


def _remove_if_empty(folder: Path) -> None:
    """Remove ``folder`` when it is empty. ``rmdir`` refuses a folder holding anything, so a lock file
    another holder has made meanwhile keeps it; one about to be made finds it gone and makes it again."""
    try:
        folder.rmdir()
    except OSError:
        pass


def _locked_descriptor(path: Path, what: str) -> int:
    """An open descriptor of the file at ``path``, locked; LockedError when another holds it."""
    while True:
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            descriptor = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except FileNotFoundError:  # the folder was removed by a holder leaving it empty: make it again
            continue
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = Holder.from_text(_read(descriptor))
            os.close(descriptor)
            who = f"({holder})" if holder else "(a process that is just starting)"
            raise LockedError(
                f"{path}: {what} is already running {who}; wait for it to end, or stop it"
            ) from None
        except OSError as error:
            os.close(descriptor)
            raise LockedError(f"{path}: cannot lock this file ({error.strerror})") from None
        if _is_the_file_at(descriptor, path):
            return descriptor
        # The holder deleted the file as it let go, after we opened it: lock the one there now.
        os.close(descriptor)


def _is_the_file_at(descriptor: int, path: Path) -> bool:
    try:
        there = path.stat()
    except FileNotFoundError:
        return False
    ours = os.fstat(descriptor)
    return (there.st_dev, there.st_ino) == (ours.st_dev, ours.st_ino)


def _read(descriptor: int) -> str:
    return os.pread(descriptor, 4096, 0).decode(errors="replace")


def _let_go(descriptor: int, path: Path, *, delete: bool) -> None:
    """Delete the lock file (when it is still ours and ``delete``), then unlock and close it."""
    try:
        if delete and _is_the_file_at(descriptor, path):
            path.unlink(missing_ok=True)
    finally:
        # Unlock first: a forked child with a copy of the descriptor must not keep the lock.
        fcntl.flock(descriptor, fcntl.LOCK_UN)
        os.close(descriptor)
