"""Where Numba keeps the compiled engine: the first folder it can write of four, chosen before anything is compiled.

Numba caches a compiled function in ``NUMBA_CACHE_DIR`` when that is set,
else in the ``__pycache__`` folder beside its module, else in the user's
cache folder; when it can write none of them, it refuses to define the
function at all, so the engine could not even be imported (an installed
package read-only, no writable home: a container's ``USER nobody``).
:func:`choose` looks for a folder it can write in this order:

1. ``NUMBA_CACHE_DIR``, when set;
2. the package's own folder (``pipeline/engine/__pycache__``), Numba's usual place;
3. the user's cache folder, ``$XDG_CACHE_HOME/blackhole`` or ``~/.cache/blackhole``;
4. a new temporary folder, kept for this process and its workers only.

The last always works where a temporary file can be written; when even
that fails, :class:`NoCacheFolder` says so in one line. Nothing here imports
Numba: :mod:`pipeline.engine.compiled_cache` applies the choice.

>>> import shutil
>>> asked = tempfile.mkdtemp()
>>> choose({"NUMBA_CACHE_DIR": asked}) == CacheFolder(Path(asked), asked=True)
True
>>> shutil.rmtree(asked)
"""

from __future__ import annotations

import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from pipeline.errors import BlackholeError

ENVIRONMENT = "NUMBA_CACHE_DIR"  # Numba's own setting, read when Numba is imported and when it compiles
# set by a command's --quiet: no compiling notice, in its process nor in its workers
QUIET_ENVIRONMENT = "BLACKHOLE_QUIET"
PACKAGE_FOLDER = Path(__file__).parent / "__pycache__"  # where Numba caches the engine by default
TEMPORARY_PREFIX = "blackhole-engine-"


class NoCacheFolder(BlackholeError):
    """No folder the compiled engine could be cached in can be written, not even a temporary one."""


@dataclass(frozen=True)
class CacheFolder:
    """The folder Numba caches the engine in, and why there.

    ``asked``: named by ``NUMBA_CACHE_DIR``; ``lasting``: False for a
    temporary folder, which goes when the process ends; ``passed_over``: the
    folders tried first that could not be written (empty when the usual place
    was taken).
    """

    path: Path
    asked: bool = False
    lasting: bool = True
    passed_over: tuple[str, ...] = ()


def writable(folder: Path) -> bool:
    """Whether ``folder`` exists or can be made, and a file can be made in it (Numba's own test of a folder)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError:
        return False
    return True


def user_cache_folder(environment: Mapping[str, str]) -> Path | None:
    """``$XDG_CACHE_HOME/blackhole``, else ``~/.cache/blackhole``; None when there is no home to name.

    >>> user_cache_folder({"XDG_CACHE_HOME": "/var/cache/me"})
    PosixPath('/var/cache/me/blackhole')
    >>> user_cache_folder({"HOME": "/home/me"})
    PosixPath('/home/me/.cache/blackhole')
    """
    if environment.get("XDG_CACHE_HOME"):
        return Path(environment["XDG_CACHE_HOME"]) / "blackhole"
    if environment.get("HOME"):
        return Path(environment["HOME"]) / ".cache" / "blackhole"
    return None


def choose(environment: Mapping[str, str], package_folder: Path = PACKAGE_FOLDER) -> CacheFolder:
    """The first writable folder of ``NUMBA_CACHE_DIR``, ``package_folder``, the user's cache, a new temporary one.

    A temporary folder is made here (prefix ``blackhole-engine-``); whoever
    chose it deletes it. NoCacheFolder when not even that can be made.
    """
    passed_over: list[str] = []
    asked = environment.get(ENVIRONMENT)
    if asked:
        if writable(Path(asked)):
            return CacheFolder(Path(asked), asked=True)
        passed_over.append(f"{ENVIRONMENT}={asked}")
    user = user_cache_folder(environment)
    for folder in (package_folder, user):
        if folder is None:
            continue
        if writable(folder):
            return CacheFolder(folder, passed_over=tuple(passed_over))
        passed_over.append(str(folder))
    try:
        temporary = Path(tempfile.mkdtemp(prefix=TEMPORARY_PREFIX))
    except OSError as error:
        raise NoCacheFolder(
            f"no folder for the compiled engine's cache can be written ({', '.join(passed_over)}, "
            f"nor a temporary one: {error.strerror}); set {ENVIRONMENT} to a writable folder"
        ) from None
    return CacheFolder(temporary, lasting=False, passed_over=tuple(passed_over))
