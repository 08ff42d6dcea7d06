"""The package's layout holds: imports point down the layers, no private names cross modules,
every constant is defined once, and every subpackage shows its face."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "pipeline"

# Lower floors first; a module may import its own floor and the floors below it.
FLOORS = {
    "errors": 0,
    "files": 0,
    "free_text": 0,
    "limits": 0,
    "locks": 0,
    "strict_json": 0,
    "toml_files": 0,
    "version": 0,
    "workers": 0,
    "game": 1,
    "engine": 2,
    "packs": 3,
    "stages": 4,
    "tally": 4,
    "calibration": 5,
    "config": 5,
    "runs": 5,
    "plays": 5,
    "reports": 6,
    "cli": 7,
}
SUBPACKAGES = ("game", "engine", "packs", "stages", "plays", "reports")


def _modules() -> dict[str, ast.Module]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = ast.parse(path.read_text(encoding="utf-8"))
    return found


MODULES = _modules()


def _floor(module: str) -> int | None:
    """The floor of ``pipeline.X...``; None for the package itself."""
    parts = module.split(".")
    return FLOORS[parts[1]] if len(parts) > 1 else None


def _imports(tree: ast.Module) -> list[tuple[str, list[str], int]]:
    """(module, names, line) of every import of the package, at any depth (functions, TYPE_CHECKING)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("pipeline"):
            found.append((node.module, [alias.name for alias in node.names], node.lineno))
        elif isinstance(node, ast.Import):
            found += [(a.name, [], node.lineno) for a in node.names if a.name.startswith("pipeline")]
    return found


def test_every_module_sits_on_a_known_floor():
    assert {name.split(".")[1] for name in MODULES if "." in name} <= set(FLOORS)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_point_down(module):
    here = _floor(module)
    upward = []
    for target, names, line in _imports(MODULES[module]):
        targets = [f"{target}.{name}" for name in names] if target == "pipeline" else [target]
        for imported in targets:
            if imported == "pipeline.__version__":
                continue
            floor = _floor(imported)
            if here is not None and floor is not None and floor > here:
                upward.append(f"line {line}: {imported} (floor {floor} above {here})")
    assert not upward, upward


# What only the tests and the benchmarks use: their own code and their development dependencies.
TEST_TOOLS = ("tests", "bench", "pytest", "hypothesis", "playwright")


def _top_level_imports(tree: ast.Module) -> list[tuple[str, int]]:
    """(top-level name, line) of every absolute import, at any depth."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name.split(".")[0], node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.module.split(".")[0], node.lineno))
    return found


@pytest.mark.parametrize("module", sorted(MODULES))
def test_the_package_imports_no_test_tool(module):
    """The installed package runs without its tests: the tools that check and time it
    (tests/support/: the Python hints, headless Chromium) stay outside it."""
    found = [(name, line) for name, line in _top_level_imports(MODULES[module]) if name in TEST_TOOLS]
    assert not found, found


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_private_name_crosses_a_module(module):
    crossing = [
        f"line {line}: {target}.{name}"
        for target, names, line in _imports(MODULES[module])
        for name in names
        if name.startswith("_") and name != "__version__"
    ]
    assert not crossing, crossing


def _constants(tree: ast.Module) -> list[tuple[str, str]]:
    """(name, value as code) of module-level UPPER_CASE names bound to a value (not imports, not ``__all__``)."""
    found = []
    for node in tree.body:
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        else:
            continue
        for target in targets:
            for name in ast.walk(target):
                if (
                    isinstance(name, ast.Name)
                    and name.id.lstrip("_").isupper()
                    and not name.id.startswith("__")
                ):
                    found.append((name.id, ast.dump(value)))
    return found


def test_every_public_constant_is_defined_once():
    """A public constant is vocabulary: one module defines it, the others import it."""
    where = defaultdict(list)
    for module, tree in MODULES.items():
        for name, _ in _constants(tree):
            if not name.startswith("_"):
                where[name].append(module)
    assert not {name: modules for name, modules in where.items() if len(modules) > 1}


def test_no_two_modules_define_the_same_private_constant():
    """The same name with the same value in two modules is one constant written twice: share it."""
    where = defaultdict(list)
    for module, tree in MODULES.items():
        for name, value in _constants(tree):
            where[name.lstrip("_"), value].append(module)
    assert not {name: modules for (name, _), modules in where.items() if len(modules) > 1}


@pytest.mark.parametrize("subpackage", SUBPACKAGES)
def test_each_subpackage_has_a_docstring_and_an_all_of_its_modules(subpackage):
    tree = MODULES[f"pipeline.{subpackage}"]
    assert ast.get_docstring(tree)
    [declared] = [
        node.value
        for node in tree.body
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "__all__" for t in node.targets)
    ]
    modules = sorted(p.stem for p in (PACKAGE / subpackage).glob("*.py") if p.stem != "__init__")
    assert sorted(ast.literal_eval(declared)) == modules


def test_subpackage_faces_import_nothing():
    """Importing one module of a subpackage never loads its siblings (the CLI stays quick)."""
    for subpackage in SUBPACKAGES:
        body = MODULES[f"pipeline.{subpackage}"].body
        assert not [node for node in body if isinstance(node, ast.Import | ast.ImportFrom)], subpackage
