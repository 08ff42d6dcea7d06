"""Numba's cache of the engine is emptied when, and only when, a module it was compiled from changed; compiling is told."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import numba
import pytest
from numba.core import event

from pipeline.engine import kernel
from pipeline.engine.cache_folder import CacheFolder
from pipeline.engine.compiled_cache import (
    SOURCE_FOLDERS,
    STAMP_NAME,
    CompilingNotice,
    cache_folder_of,
    compiling_line,
    keep_in_step,
    quiet_compiling,
    refresh,
    sources_hash,
)

REPOSITORY = Path(__file__).resolve().parents[2]


def _cached_files(folder: Path) -> set[str]:
    return {path.name for path in folder.iterdir()}


def test_an_unstamped_folder_is_emptied_of_compiled_functions_alone(tmp_path: Path) -> None:
    for name in ("search.search-132.py311.nbi", "search.search-132.py311.1.nbc", "search.cpython-311.pyc"):
        (tmp_path / name).write_bytes(b"old")

    assert refresh(tmp_path, "a" * 64)

    assert _cached_files(tmp_path) == {"search.cpython-311.pyc", STAMP_NAME}
    assert (tmp_path / STAMP_NAME).read_text() == "a" * 64


def test_a_folder_stamped_alike_is_kept_and_one_stamped_otherwise_emptied(tmp_path: Path) -> None:
    refresh(tmp_path, "a" * 64)
    (tmp_path / "kernel.take-398.py311.nbi").write_bytes(b"compiled from a")

    assert not refresh(tmp_path, "a" * 64)
    assert "kernel.take-398.py311.nbi" in _cached_files(tmp_path)

    assert refresh(tmp_path, "b" * 64)
    assert _cached_files(tmp_path) == {STAMP_NAME}


def test_the_hash_follows_every_module_of_every_folder(tmp_path: Path) -> None:
    engine, game = tmp_path / "engine", tmp_path / "game"
    for folder in (engine, game):
        folder.mkdir()
        (folder / "a.py").write_text("X = 1\n")
    first = sources_hash([engine, game])

    (game / "notes.txt").write_text("not a module")
    assert sources_hash([engine, game]) == first
    (game / "a.py").write_text("X = 2\n")
    assert sources_hash([engine, game]) != first
    (game / "a.py").write_text("X = 1\n")
    assert sources_hash([engine, game]) == first
    (engine / "b.py").write_text("")
    assert sources_hash([engine, game]) != first


def test_the_engine_cache_is_stamped_with_the_modules_it_is_compiled_from() -> None:
    folder = cache_folder_of(kernel.take.py_func)
    assert folder is not None
    assert folder == cache_folder_of(keep_in_step)
    assert (folder / STAMP_NAME).read_text() == sources_hash(SOURCE_FOLDERS)


def test_a_function_with_no_source_file_has_no_cache_folder() -> None:
    namespace: dict[str, object] = {}
    exec(compile("def made_up():\n    return 1\n", "<made up>", "exec"), namespace)

    assert cache_folder_of(namespace["made_up"]) is None  # type: ignore[arg-type]


CALLEE = """\
import numba

@numba.njit(cache=True)
def value():
    return {value}
"""
CALLER = """\
import numba
from cached.callee import value

@numba.njit(cache=True)
def twice():
    return 2 * value()
"""
RUN = """\
from pathlib import Path
from pipeline.engine.compiled_cache import cache_folder_of, refresh, sources_hash
import cached.caller
folder = Path(cached.caller.__file__).parent
emptied = refresh(cache_folder_of(cached.caller.twice.py_func), sources_hash([folder]))
print(emptied, cached.caller.twice())
"""


def test_a_caller_cached_before_its_callee_changed_is_compiled_again(tmp_path: Path) -> None:
    package = tmp_path / "cached"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "caller.py").write_text(CALLER)
    (package / "callee.py").write_text(CALLEE.format(value=1))

    def run() -> str:
        environment = {"PYTHONPATH": f"{tmp_path}:{REPOSITORY}", "PATH": "/usr/bin:/bin"}
        done = subprocess.run(
            [sys.executable, "-c", textwrap.dedent(RUN)],
            env=environment,
            capture_output=True,
            text=True,
            check=True,
        )
        return done.stdout.strip()

    assert run() == "True 2"  # a new folder: stamped, then compiled and cached
    assert run() == "False 2"  # the same sources: the cache is kept
    assert any(path.suffix == ".nbi" for path in (package / "__pycache__").iterdir())
    (package / "callee.py").write_text(CALLEE.format(value=5))
    assert run() == "True 10"  # the caller's own file is unchanged: without the stamp Numba would load 2
    shutil.rmtree(package / "__pycache__")
    assert run() == "True 10"


def test_the_compiling_notice_is_said_once_and_not_while_quiet(capsys: pytest.CaptureFixture[str]) -> None:
    numba.njit(lambda x: x - 1)(1)  # compiled: the process's own notice has said its line, if it had not
    capsys.readouterr()
    notice = CompilingNotice("compiling now")
    with event.install_listener("numba:compile", notice):
        with quiet_compiling():
            numba.njit(lambda x: x + 1)(1)
        assert capsys.readouterr().err == ""
        numba.njit(lambda x: x + 2)(1)
        numba.njit(lambda x: x + 3)(1)
    assert capsys.readouterr().err == "compiling now\n"


def test_a_quiet_command_and_its_workers_say_nothing_of_compiling(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.testing import CliRunner

    from pipeline.cli import app
    from pipeline.engine.cache_folder import QUIET_ENVIRONMENT

    monkeypatch.delenv(QUIET_ENVIRONMENT, raising=False)
    assert CliRunner().invoke(app, ["show", "pysol-1", "--quiet"]).exit_code == 0
    assert os.environ[QUIET_ENVIRONMENT] == "1"  # inherited by every worker the command starts
    numba.njit(lambda x: x - 4)(1)
    capsys.readouterr()
    notice = CompilingNotice("compiling now")
    with event.install_listener("numba:compile", notice):
        numba.njit(lambda x: x + 4)(1)
    assert capsys.readouterr().err == ""


def test_the_notice_says_where_the_cache_is_and_why_there() -> None:
    lasting = CacheFolder(
        Path("/home/me/.cache/blackhole"), passed_over=("/site/pipeline/engine/__pycache__",)
    )
    assert compiling_line(lasting, None) == (
        "blackhole: compiling the solver engine for this machine (once, about a minute; "
        "/site/pipeline/engine/__pycache__ cannot be written, so cached in /home/me/.cache/blackhole)"
    )
    temporary = CacheFolder(Path("/tmp/blackhole-engine-1"), lasting=False)
    assert "for this command only: set NUMBA_CACHE_DIR" in compiling_line(temporary, None)


CYCLE_LEFT_TO_EXIT = """\
import gc, sys
if sys.argv[1] == "engine":
    from pipeline.engine import kernel
class Noisy:
    def __del__(self):
        print("collected")
gc.disable()
cycle = [Noisy()]
cycle.append(cycle)
del cycle
"""


def test_once_the_engine_is_loaded_the_exit_collects_no_garbage() -> None:
    def leftover(imports: str) -> str:
        command = [sys.executable, "-c", CYCLE_LEFT_TO_EXIT, imports]
        return subprocess.run(command, cwd=REPOSITORY, capture_output=True, text=True, check=True).stdout

    assert leftover("plain") == "collected\n"  # Python's last collection, as it exits
    assert leftover("engine") == ""  # frozen instead: the process ends without walking Numba's objects
