"""Numba's cache of the compiled engine, kept in step with every module the compiled code is built from.

Numba keeps each compiled function in a cache folder (``__pycache__``
beside the module, or under ``NUMBA_CACHE_DIR``) and checks a cached
function against its own module's file only. But a compiled function
carries compiled into it the functions it calls from other modules, and the
constants it reads from :mod:`pipeline.game`: after a change to one of those
alone (a ``git pull`` that edits ``conditions.py`` but not ``search.py``),
Numba would go on loading the old code. So the engine stamps its cache
folder with one hash of every module it is compiled from, and when the
stamp differs it empties the folder of compiled functions before any is
loaded (:func:`keep_in_step`, called as :mod:`pipeline.engine.kernel`, which
every compiled module imports, is first imported).

Several processes may start at once (a run's workers): each empties the
folder before it writes the stamp, so once the stamp is right the folder
holds nothing compiled from other sources, and a process that empties it
after another has begun filling it again costs a compilation, never a stale
function.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from pathlib import Path

import numba
from numba.core.caching import FunctionCache

from pipeline.files import replacing

STAMP_NAME = "compiled-from.sha256"  # the stamp file, in the cache folder
COMPILED_PATTERNS = ("*.nbi", "*.nbc")  # Numba's index and compiled code files
# what the engine is compiled from: its own modules, and the game's, whose constants it reads
SOURCE_FOLDERS = (Path(__file__).parent, Path(__file__).parents[1] / "game")


def sources_hash(folders: Iterable[Path]) -> str:
    """One hash of the Numba version and of every module (name and bytes) in ``folders``."""
    digest = hashlib.sha256(numba.__version__.encode())
    for folder in folders:
        for path in sorted(folder.glob("*.py")):
            digest.update(f"\0{folder.name}/{path.name}\0".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def cache_folder_of(function: Callable[..., object]) -> Path | None:
    """The folder where Numba caches functions of ``function``'s module; None when it caches none there."""
    try:
        folder = FunctionCache(function).cache_path  # type: ignore[no-untyped-call]  # Numba has no type hints
    except RuntimeError:  # no folder Numba can write: it compiles without a cache
        return None
    return Path(folder)


def refresh(folder: Path, stamp: str) -> bool:
    """Empty ``folder`` of compiled functions unless it is stamped ``stamp``, then stamp it; True if emptied."""
    stamp_path = folder / STAMP_NAME
    try:
        if stamp_path.read_text(encoding="ascii") == stamp:
            return False
    except (FileNotFoundError, UnicodeDecodeError):
        pass
    for pattern in COMPILED_PATTERNS:
        for compiled in folder.glob(pattern):
            compiled.unlink(missing_ok=True)
    with replacing(stamp_path) as sink:
        sink.write(stamp.encode("ascii"))
    return True


def keep_in_step() -> None:
    """Empty the engine's cache folder of compiled functions when its modules changed since they were cached."""
    folder = cache_folder_of(keep_in_step)
    if folder is not None:
        refresh(folder, sources_hash(SOURCE_FOLDERS))
