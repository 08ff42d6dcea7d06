"""Files and folders written whole or not at all: stage beside the target, flush to disk, rename over it.

A reader sees the old file or the new one, never a partial one, and an error
(or Ctrl-C) part-way leaves the old file as it was. Staged files are hidden
(``.<name>.tmp-<pid>``), so globs such as ``*.parquet`` never see them.
A folder (:func:`replacing_folder`) is staged the same way; an old folder is
moved aside (``.<name>.old-<pid>``) for the moment of the swap, then deleted.

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> with replacing(folder / "a.txt") as sink:
...     _ = sink.write(b"whole")
>>> (folder / "a.txt").read_bytes(), sorted(p.name for p in folder.iterdir())
(b'whole', ['a.txt'])
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from pipeline.errors import BlackholeError


class DestinationError(BlackholeError, ValueError):
    """An output that cannot be written where it was asked for; the message names the path."""


def check_writable(path: Path, *, inputs: Iterable[Path] = ()) -> Path:
    """``path`` as a Path, once it is a file this command may replace: checked before long work too.

    DestinationError when its directory is missing, when something other than
    a regular file is there (a folder, a device, a FIFO, a symbolic link:
    replacing it would destroy what is not ours), or when it is one of the
    command's ``inputs`` or lies inside one (paths compared once resolved).
    """
    path = Path(path)
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
    target = path.resolve()
    for source in inputs:
        read = Path(source).resolve()
        if target == read or read in target.parents:
            where = "is" if target == read else "is inside"
            raise DestinationError(
                f"{path}: {where} this command's input {str(source)!r}; refusing to write over it"
            )
    return path


@contextmanager
def replacing(path: Path) -> Iterator[BinaryIO]:
    """A binary file to write that replaces ``path`` when the block ends; on any error ``path`` is untouched.

    The bytes go to a hidden temporary file beside ``path`` (``.<name>.tmp-<pid>``,
    so globs for ``*.parquet`` never see it), flushed to disk, then renamed over ``path``.
    """
    temporary = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        with open(temporary, "wb") as sink:
            yield sink
            sink.flush()
            os.fsync(sink.fileno())
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


@contextmanager
def replacing_folder(target: Path) -> Iterator[Path]:
    """A new, empty folder to fill that replaces ``target`` when the block ends; on any error ``target`` is untouched.

    What an interrupted earlier write left beside ``target`` is cleared first.
    The folder is ``.<name>.tmp-<pid>`` beside ``target``; its files are
    flushed to disk before it is renamed into place.
    """
    target = Path(target)
    _remove_stale(target)
    staging = target.with_name(f".{target.name}.tmp-{os.getpid()}")
    try:
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
    """Rename ``staging`` to ``target``; an existing ``target`` is moved aside first, then deleted."""
    if target.exists():
        retired = target.with_name(f".{target.name}.old-{os.getpid()}")
        os.replace(target, retired)
        os.replace(staging, target)
        shutil.rmtree(retired)
    else:
        os.replace(staging, target)


def _remove_stale(target: Path) -> None:
    """Delete what an interrupted write left beside ``target``: its staging and retired folders."""
    for pattern in (f".{target.name}.tmp-*", f".{target.name}.old-*"):
        for stale in target.parent.glob(pattern):
            shutil.rmtree(stale, ignore_errors=True)
