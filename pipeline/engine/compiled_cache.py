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

Before any of that, :func:`prepare` settles where the cache is
(:mod:`pipeline.engine.cache_folder`: the package's folder, or another when
that cannot be written) and tells Numba through ``NUMBA_CACHE_DIR``, which
worker processes inherit. And since compiling the engine takes about a
minute, the first function a process compiles rather than loads says so,
once, on standard error (:func:`compiling_line`; :func:`quiet_compiling`
silences it).
"""

from __future__ import annotations

import atexit
import gc
import hashlib
import os
import shutil
import sys
from collections.abc import Callable, Iterable, Iterator, MutableMapping
from contextlib import contextmanager
from pathlib import Path

import numba
from numba.core import event
from numba.core.caching import Cache, FunctionCache

from pipeline.engine.cache_folder import ENVIRONMENT, PACKAGE_FOLDER, QUIET_ENVIRONMENT, CacheFolder, choose
from pipeline.files import naming_write_errors, replacing

STAMP_NAME = "compiled-from.sha256"  # the stamp file, in the cache folder
COMPILED_PATTERNS = ("*.nbi", "*.nbc", "warmed-*")  # Numba's index and compiled code files, warm's marks
WARMED_PREFIX = "warmed-"  # warm's mark of a game whose every compiled function is in the cache
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


def prepare() -> None:
    """Settle where the engine is cached, keep that cache in step, say so when compiling begins, and spare
    the exit a garbage collection.

    Run once a process, by :mod:`pipeline.engine.kernel`'s import, before any
    compiled function is defined (Numba looks for its cache folder then).
    """
    chosen = use_cache_folder(choose(os.environ), os.environ)
    keep_in_step()
    name_its_write_errors()
    notice = CompilingNotice(compiling_line(chosen, cache_folder_of(keep_in_step)))
    event.register("numba:compile", notice)  # type: ignore[no-untyped-call]  # Numba has no type hints
    # Python's last garbage collection, as it exits, would walk the many objects Numba made (0.1 s of a
    # solve-board's CPU): frozen, they are left to the end of the process with everything else
    atexit.register(gc.freeze)


def name_its_write_errors() -> None:
    """Make a compiled function that Numba cannot save in its cache (a full disk) a WriteError naming the
    cache folder, in this process and in its workers (each runs :func:`prepare`): Numba's own OSError
    names no file, and a worker's would come back as ``error: could not write: the disk is full``, no more."""
    save = Cache.save_overload
    if getattr(save, "names_its_folder", False):
        return

    def save_overload(self: Cache, sig: object, data: object) -> None:
        with naming_write_errors(Path(self.cache_path)):
            save(self, sig, data)  # type: ignore[no-untyped-call]  # Numba has no type hints

    save_overload.names_its_folder = True  # type: ignore[attr-defined]  # once a process
    Cache.save_overload = save_overload  # type: ignore[method-assign]


def use_cache_folder(chosen: CacheFolder, environment: MutableMapping[str, str]) -> CacheFolder:
    """Make ``chosen`` Numba's cache folder for this process and the workers it starts, through
    ``NUMBA_CACHE_DIR`` in ``environment`` (``os.environ``); returns it.

    The package's folder is Numba's own choice without ``NUMBA_CACHE_DIR``. A
    temporary folder is deleted when this process ends.
    """
    if not chosen.asked:
        before = environment.pop(ENVIRONMENT, None)
        if chosen.path != PACKAGE_FOLDER:
            environment[ENVIRONMENT] = str(chosen.path)  # inherited by workers
        if environment.get(ENVIRONMENT) != before:
            numba.core.config.reload_config()  # type: ignore[no-untyped-call]  # read when Numba was imported
    if not chosen.lasting:
        atexit.register(shutil.rmtree, chosen.path, ignore_errors=True)
    return chosen


def compiling_line(chosen: CacheFolder, folder: Path | None) -> str:
    """What a process says when it begins to compile the engine, cached in ``folder`` (Numba's, inside ``chosen``).

    >>> compiling_line(CacheFolder(Path("/x")), Path("/x/engine_1"))
    'blackhole: compiling the solver engine for this machine (once, about a minute; cached in /x/engine_1)'
    """
    where = chosen.path if folder is None else folder
    unwritable = f"{', '.join(chosen.passed_over)} cannot be written, so " if chosen.passed_over else ""
    if not chosen.lasting:
        return (
            f"blackhole: compiling the solver engine (about a minute; {unwritable}it is cached in {where} "
            f"for this command only: set {ENVIRONMENT} to a writable folder to keep it)"
        )
    return f"blackhole: compiling the solver engine for this machine (once, about a minute; {unwritable}cached in {where})"


class CompilingNotice(event.Listener):
    """Says ``line`` on standard error when the first function is compiled rather than loaded from the cache.

    Numba broadcasts ``numba:compile`` only when it compiles: a function
    found in the cache is loaded without it.
    """

    silenced = False  # by quiet_compiling

    def __init__(self, line: str) -> None:
        self.line = line
        self.told = False

    def on_start(self, started: event.Event) -> None:
        if not self.told and not CompilingNotice.silenced and not os.environ.get(QUIET_ENVIRONMENT):
            self.told = True
            print(self.line, file=sys.stderr, flush=True)

    def on_end(self, ended: event.Event) -> None:
        pass


@contextmanager
def quiet_compiling(quiet: bool = True) -> Iterator[None]:
    """Say nothing of compiling while inside (when ``quiet``): for a command asked to be quiet."""
    before = CompilingNotice.silenced
    CompilingNotice.silenced = quiet or before
    try:
        yield
    finally:
        CompilingNotice.silenced = before
