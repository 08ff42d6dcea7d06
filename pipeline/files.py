"""Files and folders written whole or not at all: stage beside the target, flush to disk, rename over it.

A reader sees the old file or the new one, never a partial one, and an error
(or Ctrl-C) part-way leaves the old file as it was. Staged files are hidden
(``.<name>.tmp-<pid>``), so globs such as ``*.parquet`` never see them.
A folder (:func:`replacing_folder`) is staged the same way; an old folder is
moved aside (``.<name>.old-<pid>``) for the moment of the swap, then deleted
(put back if the swap fails). A symbolic link or a file where a folder is to
go is refused (:func:`check_replaceable_folder`), never renamed or deleted.

``-`` names a standard stream (:data:`STANDARD_STREAM`): a command that reads
text reads standard input for it (:func:`copied_stdin` keeps a copy to read
again), and one that writes text writes standard output for it, or for a
path that is this process's standard output (``/dev/stdout``):
:func:`writing` streams there, which is not atomic. A file written whole
(Parquet, TOML, PNG) is never written to standard output: :func:`check_writable`
refuses it in one line.

A write that fails (a full disk, a read-only one, no permission) raises
:class:`WriteError`, whose one line names the file or folder asked for, never
its hidden staging name, and says in words what the system said
(:func:`os_problem`); the staged file or folder is deleted first, so nothing
half-written stays behind. :func:`naming_write_errors` does this for writers
that stage their own files.

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> with replacing(folder / "a.txt") as sink:
...     _ = sink.write(b"whole")
>>> (folder / "a.txt").read_bytes(), sorted(p.name for p in folder.iterdir())
(b'whole', ['a.txt'])
"""

from __future__ import annotations

import errno
import os
import shutil
import sys
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import BinaryIO

from pipeline.errors import BlackholeError


class DestinationError(BlackholeError, ValueError):
    """An output that cannot be written where it was asked for; the message names the path."""


PLAIN_WORDS = {
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk is full (your quota on it is used up)",
    errno.EROFS: "the disk is read-only",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.EFBIG: "the file is too large for this disk",
    errno.EIO: "the disk failed to read or write (an input/output error)",
}
"""What an OS error number means, in words, for the errors a write meets most."""
WRITE_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EFBIG, errno.EIO})
"""Errors that only writing meets (or an input/output error): taken as a write's even when the system names no file."""


def os_problem(error: OSError) -> str:
    """What ``error`` says, in words for the usual ones, then its symbol and the system's own text.

    >>> os_problem(OSError(errno.ENOSPC, "Error writing bytes to file"))
    'the disk is full (ENOSPC: No space left on device)'
    >>> os_problem(OSError(errno.EMFILE, "Too many open files"))
    'EMFILE: Too many open files'
    >>> os_problem(OSError("no number"))
    'no number'
    """
    if error.errno is None:
        return " ".join(str(error).split())
    symbol = errno.errorcode.get(error.errno, f"errno {error.errno}")
    detail = f"{symbol}: {os.strerror(error.errno)}"
    words = PLAIN_WORDS.get(error.errno)
    return f"{words} ({detail})" if words else detail


class WriteError(BlackholeError):
    """A file or folder that could not be written: the disk is full or read-only, permission denied...

    Its message is one line naming the destination asked for (the file, or
    the folder replaced whole), never a hidden staging name, and what went
    wrong in words (:func:`os_problem`); ``destination`` and ``cause`` (the
    OSError) are kept for programs.

    >>> str(WriteError(Path("out/deals.parquet"), OSError(errno.ENOSPC, "No space left on device")))
    'out/deals.parquet: could not write: the disk is full (ENOSPC: No space left on device)'
    """

    def __init__(self, destination: Path | str, cause: OSError) -> None:
        self.destination, self.cause = destination, cause
        super().__init__(f"{destination}: could not write: {os_problem(cause)}")

    def __reduce__(self) -> tuple[type[WriteError], tuple[Path | str, OSError]]:
        return (WriteError, (self.destination, self.cause))  # back from a worker process whole


@contextmanager
def naming_write_errors(destination: Path | str, *staged: Path, ask_the_disk: bool = True) -> Iterator[None]:
    """Turn an OSError of writing ``destination``, or the hidden ``staged`` files and folders standing in for
    it, into a :class:`WriteError` naming ``destination``; so too a WriteError naming one of ``staged``.

    An error is a write's when the system names ``destination``, one of
    ``staged`` or a path inside one, or names no file and is one only writing
    meets (:data:`WRITE_ERRNOS`: a full disk, for one, comes from ``write``
    and ``fsync``, which name none) and the destination's disk agrees (it is
    nearly full, or read-only: the work inside the block may write elsewhere,
    as Numba's cache does). Other errors, a reader's among them, pass
    unchanged, and so does a broken pipe (a reader gone: not a write's fault).
    Without ``ask_the_disk`` (standard output: no disk to ask) such an error is taken as a write's.
    """
    try:
        yield
    except (WriteError, OSError) as error:
        named = as_write_error(error, destination, *staged, ask_the_disk=ask_the_disk)
        if named is None:
            raise
        raise named from (error.cause if isinstance(error, WriteError) else error)


def as_write_error(
    error: BaseException, destination: Path | str, *staged: Path, ask_the_disk: bool = True
) -> WriteError | None:
    """``error`` as a :class:`WriteError` naming ``destination`` when it is an error of writing it or
    ``staged`` (:func:`naming_write_errors` says which errors are); None when it is another error."""
    places = (Path(destination), *map(Path, staged))
    if isinstance(error, WriteError):
        ours = _names_one_of(str(error.destination), places[1:])
        return WriteError(destination, error.cause) if ours else None
    if not isinstance(error, OSError) or isinstance(error, BrokenPipeError):
        return None
    named = [name for name in (error.filename, error.filename2) if isinstance(name, str | Path)]
    if named:
        ours = any(_names_one_of(str(name), places) for name in named)
    else:  # write and fsync name no file: the error is ours if our disk says so (not a full cache elsewhere)
        ours = error.errno in WRITE_ERRNOS and (not ask_the_disk or _disk_agrees(error.errno, places[0]))
    return WriteError(destination, error) if ours else None


FULL_BELOW = 16 << 20
"""A disk with less room than this (bytes) may be the one a write without a file name found full."""


def _disk_agrees(number: int, destination: Path) -> bool:
    """Whether the disk of ``destination`` can be the one that gave the error ``number`` (ENOSPC: it is
    nearly full; EROFS: it is read-only); True when it cannot be asked, and for the other errors."""
    place = destination
    while not place.exists() and place != place.parent:
        place = place.parent
    try:
        disk = os.statvfs(place)
    except OSError:
        return True
    if number == errno.ENOSPC:
        room = disk.f_bfree if os.geteuid() == 0 else disk.f_bavail  # root may use the reserved blocks
        return room * disk.f_frsize < FULL_BELOW
    if number == errno.EROFS:
        return bool(disk.f_flag & os.ST_RDONLY)
    return True


def _names_one_of(name: str, places: Iterable[Path]) -> bool:
    """Whether the path ``name`` is one of ``places`` or lies inside one (as spelled, not resolved)."""
    path = Path(name)
    return any(path == place or place in path.parents for place in places)


STANDARD_STREAM = "-"
"""The name that means standard input to a command that reads text, standard output to one that writes it."""
STDIN_SOURCE = "<stdin>"
"""How messages name standard input (``<stdin>:3: unknown card 'XX'``)."""
STANDARD_OUTPUT = "standard output"
"""How messages name standard output (``standard output: could not write: the disk is full (...)``)."""


def is_standard_stream(path: Path | str) -> bool:
    """Whether ``path`` is ``-``, the name of a standard stream.

    >>> is_standard_stream("-"), is_standard_stream(Path("-")), is_standard_stream("a-b")
    (True, True, False)
    """
    return str(path) == STANDARD_STREAM


def names_standard_output(path: Path | str) -> bool:
    """Whether ``path`` is ``-`` or a path to this process's standard output (``/dev/stdout``, ``/dev/fd/1``).

    >>> names_standard_output("-"), names_standard_output("no/such/file")
    (True, False)
    """
    if is_standard_stream(path):
        return True
    try:
        found, standard = os.stat(path), os.fstat(1)
    except (OSError, ValueError):
        return False
    return (found.st_dev, found.st_ino) == (standard.st_dev, standard.st_ino)


@contextmanager
def writing(path: Path) -> Iterator[BinaryIO]:
    """A binary file to write: standard output when ``path`` names it (:func:`names_standard_output`),
    streamed as written and flushed at the end; else ``path``, replaced whole (:func:`replacing`)."""
    if names_standard_output(path):
        sys.stdout.flush()  # text printed before goes first
        with naming_write_errors(STANDARD_OUTPUT, ask_the_disk=False):
            sink = sys.stdout.buffer
            yield sink
            sink.flush()
        return
    with replacing(path) as sink:
        yield sink


@contextmanager
def copied_stdin() -> Iterator[Path]:
    """A hidden temporary file holding all of standard input, to read (and read again) as a file; deleted after.

    WriteError naming the system's temporary folder when the copy cannot be written there (a full disk).
    """
    folder = Path(tempfile.gettempdir())
    with naming_write_errors(folder):
        handle, name = tempfile.mkstemp(prefix=".blackhole-stdin-", dir=folder)
    path = Path(name)
    try:
        with naming_write_errors(folder, path), os.fdopen(handle, "wb") as copy:
            shutil.copyfileobj(sys.stdin.buffer, copy)
        yield path
    finally:
        discard(path)


def check_writable(path: Path, *, inputs: Iterable[Path] = ()) -> Path:
    """``path`` as a Path, once it is a file this command may replace: checked before long work too.

    DestinationError when it names standard output (``-``, ``/dev/stdout``: a
    file written whole is not streamed), when its directory is missing, when
    something other than a regular file is there (a folder, a device, a FIFO,
    a symbolic link: replacing it would destroy what is not ours), or when it
    is one of the command's ``inputs`` or lies inside one (paths compared once resolved).
    """
    path = Path(path)
    if names_standard_output(path):
        raise DestinationError(
            f"{path}: standard output; this file is written whole, not streamed: give a file path"
        )
    if not path.parent.is_dir():
        raise DestinationError(f"{path}: cannot write, no directory {str(path.parent)!r}")
    if path.is_symlink():
        raise DestinationError(
            f"{path}: is a symbolic link; refusing to replace it (give the path it points to)"
        )
    if path.exists() and not path.is_file():
        raise DestinationError(
            f"{path}: not a regular file (a folder, device or pipe); refusing to replace it"
        )
    return check_outside_inputs(path, inputs)


def check_outside_inputs(path: Path, inputs: Iterable[Path]) -> Path:
    """``path`` as a Path, once it is none of ``inputs`` and lies inside none of them (paths compared once resolved).

    DestinationError naming the input otherwise, or when a path cannot be resolved (a loop of links).
    """
    path = Path(path)
    target = resolved(path)
    for source in inputs:
        read = resolved(Path(source))
        if target == read or read in target.parents:
            where = "is" if target == read else "is inside"
            raise DestinationError(
                f"{path}: {where} this command's input {str(source)!r}; refusing to write over it"
            )
    return path


def resolved(path: Path) -> Path:
    """``path`` made absolute, every symbolic link followed; DestinationError naming it for a loop of links."""
    try:
        return Path(path).resolve()
    except (RuntimeError, OSError) as error:  # Python 3.11 raises RuntimeError for a loop
        raise DestinationError(f"{path}: cannot follow its symbolic links ({error})") from None


def check_replaceable_folder(path: Path, *, marked_by: str | None = None) -> Path:
    """``path`` as a Path, once it is a folder that may be replaced whole, or nothing yet: checked before long work too.

    DestinationError when ``path`` is a symbolic link (replacing it would
    rename the link, not the folder it points to; deleting through it would
    destroy what is not ours), or something other than a folder; with
    ``marked_by``, also when it is a folder holding files but not the file
    ``marked_by`` that folders of its kind hold (a mistyped name must not
    cost someone's folder).
    """
    path = Path(path)
    if path.is_symlink():
        raise DestinationError(
            f"{path}: is a symbolic link; a folder is replaced whole, never through a link "
            "(remove the link, or write to the folder it points to)"
        )
    if path.exists() and not path.is_dir():
        raise DestinationError(f"{path}: not a folder; refusing to replace it with one")
    if marked_by is not None and path.is_dir() and any(path.iterdir()) and not (path / marked_by).is_file():
        raise DestinationError(
            f"{path}: a folder of other files (no {marked_by}); refusing to replace it "
            "(choose another name, or empty it first)"
        )
    return path


def check_folder_writable(folder: Path, *, replaced: bool = False) -> Path:
    """``folder`` as a Path, once files can be written in it, or it can be made: checked before any work.

    DestinationError when ``folder``, or the nearest folder above it that
    exists (where the missing ones would be made), is not a folder (a file
    is in the way) or cannot be written in. A folder ``replaced`` whole is
    made beside its place and renamed in: then it is its parent that must be
    a folder that can be written in (see :func:`check_replaceable_folder` for
    what may stand in its place).
    """
    folder = Path(folder)
    existing = folder.parent if replaced else folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if existing.exists() and not existing.is_dir():
        if existing == folder:
            raise DestinationError(f"{folder}: not a folder; cannot write files in it")
        raise DestinationError(f"{folder}: cannot make the folder, {str(existing)!r} is not a folder")
    if existing.exists() and not os.access(existing, os.W_OK | os.X_OK):
        why = "the disk is read-only" if _on_read_only_disk(existing) else "permission denied"
        raise DestinationError(f"{folder}: cannot write in {str(existing)!r} ({why})")
    return folder


def _on_read_only_disk(path: Path) -> bool:
    """Whether ``path`` lies on a file system mounted read-only."""
    try:
        return bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except OSError:
        return False


@contextmanager
def made_folder(folder: Path) -> Iterator[Path]:
    """``folder``, made with its parents when missing, to write files in; on any error what this made is
    deleted again (a folder that was there stays, with what the block wrote in it).

    >>> import tempfile
    >>> base = Path(tempfile.mkdtemp())
    >>> try:
    ...     with made_folder(base / "a" / "b"):
    ...         raise OSError("full")
    ... except OSError:
    ...     sorted(base.iterdir())
    []
    """
    folder = Path(folder)
    first_made = None
    for place in (folder, *folder.parents):
        if place.exists():
            break
        first_made = place
    folder.mkdir(parents=True, exist_ok=True)
    try:
        yield folder
    except BaseException:
        if first_made is not None:
            shutil.rmtree(first_made, ignore_errors=True)
        raise


@contextmanager
def replacing(path: Path) -> Iterator[BinaryIO]:
    """A binary file to write that replaces ``path`` when the block ends; on any error ``path`` is untouched.

    The bytes go to a hidden temporary file beside ``path`` (``.<name>.tmp-<pid>``,
    so globs for ``*.parquet`` never see it), flushed to disk, then renamed over ``path``.
    """
    temporary = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        with naming_write_errors(path, temporary):
            with open(temporary, "wb") as sink:
                yield sink
                sink.flush()
                os.fsync(sink.fileno())
            os.replace(temporary, path)
    except BaseException:
        discard(temporary)
        raise


def discard(path: Path) -> None:
    """Delete the file ``path`` if it is there, after an error: one that this fails too (a read-only disk
    answers an unlink with EROFS even when there is nothing to delete) is let go, for the first says what is wrong."""
    with suppress(OSError):
        path.unlink(missing_ok=True)


@contextmanager
def replacing_folder(target: Path) -> Iterator[Path]:
    """A new, empty folder to fill that replaces ``target`` when the block ends; on any error ``target`` is untouched.

    DestinationError first when ``target`` is a symbolic link or not a folder
    (:func:`check_replaceable_folder`). What an interrupted earlier write
    left beside ``target`` is cleared first. The folder is
    ``.<name>.tmp-<pid>`` beside ``target``; its files are flushed to disk
    before it is renamed into place.
    """
    target = check_replaceable_folder(target)
    _remove_stale(target)
    staging = target.with_name(f".{target.name}.tmp-{os.getpid()}")
    retired = _retired(target)
    try:
        with naming_write_errors(target, staging, retired):
            staging.mkdir()
            yield staging
            _fsync_tree(staging)
            _swap_into_place(staging, target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def _fsync_tree(folder: Path) -> None:
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            with open(path, "rb") as file:
                os.fsync(file.fileno())


def _swap_into_place(staging: Path, target: Path) -> None:
    """Rename ``staging`` to ``target``; an existing ``target`` is moved aside first, then deleted.

    When ``staging`` cannot be renamed, the old ``target`` is put back.
    """
    check_replaceable_folder(target)  # again: what is there may have changed during the long work
    if not target.exists():
        os.replace(staging, target)
        return
    retired = _retired(target)
    os.replace(target, retired)
    try:
        os.replace(staging, target)
    except BaseException:
        os.replace(retired, target)
        raise
    shutil.rmtree(retired)


def _retired(target: Path) -> Path:
    """Where the old ``target`` waits while the new one is renamed in."""
    return target.with_name(f".{target.name}.old-{os.getpid()}")


def _remove_stale(target: Path) -> None:
    """Delete what an interrupted write left beside ``target``: its staging and retired folders.

    One named for a process still alive on this machine (``...-<pid>``) is
    another write in progress and stays; a link or file is unlinked, never followed.
    """
    for pattern in (f".{target.name}.tmp-*", f".{target.name}.old-*"):
        for stale in target.parent.glob(pattern):
            if _written_by_a_live_process(stale.name.rpartition("-")[2]):
                continue
            if stale.is_symlink() or not stale.is_dir():
                stale.unlink(missing_ok=True)
            else:
                shutil.rmtree(stale, ignore_errors=True)


def _written_by_a_live_process(pid: str) -> bool:
    """Whether ``pid`` (a suffix) names a process alive on this machine other than this one."""
    if not pid.isdigit() or int(pid) in (0, os.getpid()):
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, another user's
        return True
    except (OSError, OverflowError):
        return False
    return True
