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
