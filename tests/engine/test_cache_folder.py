"""The compiled engine's cache goes to the first folder that can be written; none writable never stops the engine."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from pipeline.engine.cache_folder import (
    ENVIRONMENT,
    TEMPORARY_PREFIX,
    CacheFolder,
    NoCacheFolder,
    choose,
    user_cache_folder,
    writable,
)
from pipeline.engine.compiled_cache import use_cache_folder

REPOSITORY = Path(__file__).resolve().parents[2]


def _unwritable(tmp_path: Path) -> Path:
    """A folder nobody can make, root included: it would be inside a file."""
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    return blocker / "cache"


def test_a_folder_under_a_file_cannot_be_written_and_a_new_one_can(tmp_path: Path) -> None:
    assert not writable(_unwritable(tmp_path))
    assert writable(tmp_path / "new" / "folder")


def test_numba_cache_dir_comes_first_when_it_can_be_written(tmp_path: Path) -> None:
    asked = tmp_path / "asked"
    chosen = choose({ENVIRONMENT: str(asked)}, package_folder=tmp_path / "package")

    assert chosen == CacheFolder(asked, asked=True)


def test_an_unwritable_numba_cache_dir_gives_way_to_the_package_folder(tmp_path: Path) -> None:
    asked, package = _unwritable(tmp_path), tmp_path / "package"
    chosen = choose({ENVIRONMENT: str(asked)}, package_folder=package)

    assert chosen == CacheFolder(package, passed_over=(f"{ENVIRONMENT}={asked}",))


def test_an_unwritable_package_folder_gives_way_to_the_users_cache(tmp_path: Path) -> None:
    package = _unwritable(tmp_path)

    assert choose({"XDG_CACHE_HOME": str(tmp_path / "xdg")}, package_folder=package).path == (
        tmp_path / "xdg" / "blackhole"
    )
    assert choose({"HOME": str(tmp_path)}, package_folder=package) == CacheFolder(
        tmp_path / ".cache" / "blackhole", passed_over=(str(package),)
    )


def test_with_nothing_writable_a_temporary_folder_is_made(tmp_path: Path) -> None:
    package, home = _unwritable(tmp_path), tmp_path / "a-file"
    chosen = choose({"HOME": str(home)}, package_folder=package)
    try:
        assert chosen.path.name.startswith(TEMPORARY_PREFIX) and chosen.path.is_dir()
        assert not chosen.lasting
        assert chosen.passed_over == (str(package), str(home / ".cache" / "blackhole"))
    finally:
        shutil.rmtree(chosen.path)


def test_with_not_even_a_temporary_folder_one_line_says_what_to_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(_unwritable(tmp_path)))
    with pytest.raises(NoCacheFolder, match=f"set {ENVIRONMENT} to a writable folder"):
        choose({}, package_folder=_unwritable(tmp_path))


def test_no_home_no_users_cache() -> None:
    assert user_cache_folder({}) is None


def test_the_choice_reaches_numba_and_the_workers_through_the_environment(tmp_path: Path) -> None:
    from pipeline.engine.cache_folder import PACKAGE_FOLDER

    asked = {ENVIRONMENT: "/asked"}
    use_cache_folder(CacheFolder(Path("/asked"), asked=True), asked)
    assert asked == {ENVIRONMENT: "/asked"}

    passed = {ENVIRONMENT: "/unwritable"}
    use_cache_folder(CacheFolder(PACKAGE_FOLDER, passed_over=("/unwritable",)), passed)
    assert passed == {}  # Numba's own place, beside the modules

    home: dict[str, str] = {}
    use_cache_folder(CacheFolder(tmp_path / "home"), home)
    assert home == {ENVIRONMENT: str(tmp_path / "home")}


COMPILE_TWO = "from pipeline.engine import kernel; print(kernel.lowest_bit(8), kernel.bit_length(5))"


def _engine_run(package_copy: Path, environment: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """A fresh process that imports the engine from ``package_copy`` and compiles two functions."""
    base = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(package_copy)}
    return subprocess.run(
        [sys.executable, "-c", COMPILE_TWO],
        cwd=package_copy,  # not the repository, whose package would come first
        env=base | environment,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture
def read_only_package(tmp_path: Path) -> Path:
    """A copy of the package whose engine cache folder cannot be made (a file stands there), as in a package
    installed read-only; returns the folder to put on PYTHONPATH."""
    copy = tmp_path / "installed"
    shutil.copytree(
        REPOSITORY / "pipeline",
        copy / "pipeline",
        ignore=shutil.ignore_patterns("__pycache__", "gallery_site"),
    )
    (copy / "pipeline" / "engine" / "__pycache__").write_text("not a folder")
    return copy


def test_an_unwritable_package_and_home_compile_into_a_temporary_folder_with_one_notice(
    read_only_package: Path, tmp_path: Path
) -> None:
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    home = tmp_path / "a-file"
    home.write_text("no home")

    done = _engine_run(read_only_package, {"HOME": str(home), "TMPDIR": str(temporary)})

    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["3", "3"]
    (notice,) = done.stderr.splitlines()
    assert notice.startswith("blackhole: compiling the solver engine (about a minute; ")
    assert "cannot be written" in notice and f"cached in {temporary}/{TEMPORARY_PREFIX}" in notice
    assert f"set {ENVIRONMENT} to a writable folder" in notice
    assert list(temporary.iterdir()) == []  # the temporary cache goes with the process


def test_an_unwritable_package_compiles_into_the_users_cache_once(
    read_only_package: Path, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    home.mkdir()

    first = _engine_run(read_only_package, {"HOME": str(home)})
    again = _engine_run(read_only_package, {"HOME": str(home)})

    assert first.returncode == 0 and again.returncode == 0, first.stderr + again.stderr
    (notice,) = first.stderr.splitlines()
    assert f"cached in {home}/.cache/blackhole/" in notice
    assert again.stderr == ""  # loaded from the cache: nothing compiled, nothing said
