"""The package's face: docs/python-api.md runs as written, the names load lazily, and each is where it says."""

from __future__ import annotations

import doctest
import re
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pytest

import pipeline
from pipeline import __version__
from pipeline.game.shuffles import SEEDED_SCHEME
from pipeline.packs.folders import write_pack_folder
from pipeline.packs.manifest import Origin

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "python-api.md"


@pytest.fixture(scope="module")
def pack_folder(tmp_path_factory: pytest.TempPathFactory, pack_rows: pa.Table) -> Path:
    folder = tmp_path_factory.mktemp("api") / "packs" / "demo"
    write_pack_folder(
        folder, [pack_rows], origin=Origin("demo", "pack", __version__, SEEDED_SCHEME), provenance={}
    )
    return folder


def _examples(text: str) -> str:
    """The ``>>>`` examples of the page's ```python blocks, one after the other, without the fences."""
    blocks = re.findall(r"^```python\n(.*?)^```$", text, flags=re.S | re.M)
    return "\n".join(blocks)


def test_every_example_of_the_python_api_page_runs_as_shown(pack_folder):
    """The page is a doctest: a changed name, result or message fails here before a reader meets it."""
    examples = _examples(PAGE.read_text(encoding="utf-8"))
    test = doctest.DocTestParser().get_doctest(examples, {"PACK": pack_folder}, PAGE.name, str(PAGE), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    report: list[str] = []
    runner.run(test, out=report.append)
    assert runner.tries >= 30
    assert runner.failures == 0, "".join(report)


def test_the_page_shows_every_exported_name():
    text = PAGE.read_text(encoding="utf-8")
    missing = [name for name in pipeline.__all__ if name != "__version__" and f"{name}" not in text]
    assert not missing


@pytest.mark.parametrize("name", [name for name in pipeline.__all__ if name != "__version__"])
def test_each_exported_name_is_the_object_its_module_defines(name):
    value = getattr(pipeline, name)
    assert getattr(sys.modules[pipeline._FACE[name]], name) is value
    assert name in dir(pipeline)


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'solver'"):
        pipeline.solver  # noqa: B018


def test_importing_the_package_loads_nothing_heavy():
    code = (
        "import sys, pipeline; print(sorted(m for m in ('numba', 'pyarrow', 'ortools') if m in sys.modules))"
    )
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert found.stdout.strip() == "[]"


def test_solving_a_deal_loads_neither_or_tools_nor_pandas_nor_arrow():
    """``solve`` costs the engine alone: the cross-check's OR-Tools (and the pandas it loads) and the packs'
    Arrow stay out until a call needs them."""
    code = (
        "import sys, pipeline\n"
        "assert pipeline.solve(pipeline.pysol_deal(2)).verdict.value == 'solved'\n"
        "print(sorted(m for m in ('ortools', 'pandas', 'pyarrow', 'numba') if m in sys.modules))"
    )
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert found.stdout.strip() == "['numba']"


def test_the_grade_settings_signature_names_no_installed_path():
    import inspect

    shown = f"{inspect.signature(pipeline.GradeSettings)} {pipeline.GradeSettings()!r}"
    assert str(ROOT) not in shown and "shipped_file('stages/tiers.toml')" in shown
    assert pipeline.GradeSettings().tiers == ROOT / "pipeline" / "stages" / "tiers.toml"


def test_the_wheel_carries_the_type_hints_marker_and_the_licence():
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "py.typed" in project["tool"]["setuptools"]["package-data"]["pipeline"]
    assert (ROOT / "pipeline" / "py.typed").exists()
    assert project["project"]["license"] == "MIT" and project["project"]["license-files"] == ["LICENSE"]
    assert "MIT License" in (ROOT / "LICENSE").read_text(encoding="utf-8")


@pytest.mark.slow
def test_the_page_s_pack_is_what_its_command_writes(tmp_path):
    """The command the page gives for its ``PACK`` writes a pack its examples run on as shown (half a minute)."""
    text = PAGE.read_text(encoding="utf-8")
    [command] = re.findall(r"^blackhole run --config configs/smoke\.toml .*$", text, flags=re.M)
    arguments = [*command.split()[1:], "--set", f"run.output={tmp_path}", "--quiet"]
    blackhole = str(Path(sys.executable).with_name("blackhole"))
    subprocess.run([blackhole, *arguments], cwd=ROOT, check=True, capture_output=True)
    folder = tmp_path / "packs" / "demo"
    test = doctest.DocTestParser().get_doctest(_examples(text), {"PACK": folder}, PAGE.name, str(PAGE), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    report: list[str] = []
    runner.run(test, out=report.append)
    assert runner.failures == 0, "".join(report)
