"""Files written whole or not at all: stage beside the target, flush to disk, rename over it.

A reader sees the old file or the new one, never a partial one, and an error
(or Ctrl-C) part-way leaves the old file as it was. Staged files are hidden
(``.<name>.tmp-<pid>``), so globs such as ``*.parquet`` never see them.

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> with replacing(folder / "a.txt") as sink:
...     _ = sink.write(b"whole")
>>> (folder / "a.txt").read_bytes(), sorted(p.name for p in folder.iterdir())
(b'whole', ['a.txt'])
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from pipeline.errors import BlackholeError


class DestinationError(BlackholeError, ValueError):
    """An output that cannot be written where it was asked for; the message names the path."""


def check_writable(path: Path) -> Path:
    """``path`` as a Path, once its directory exists (DestinationError otherwise): checked before long work too."""
    path = Path(path)
    if not path.parent.is_dir():
        raise DestinationError(f"{path}: cannot write, no directory {str(path.parent)!r}")
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
