"""The package's layout holds: imports point down the layers, no private names cross modules,
every constant is defined once, every subpackage shows its face, and a game is one entry in the game
table (:mod:`pipeline.game.games`): no module outside it decides by a game's name, and no module is a
game's twin of another (``family_search`` beside ``search``). Code that plays every game asks what a
game *is* (its layout, its talon, how its foundation starts, whether its records name it), so that a
rule fixed or a game added is one entry of the table."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import pytest

from pipeline.game.games import GAME_NAMES, GAMES, GameName

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
        if name.startswith("_")
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


# A game is one entry in the game table: the rule and its test.
TABLE = "pipeline.game.games"
GAME_CONSTANTS = {name.upper() for name in GAME_NAMES} | {member.name for member in GameName}
"""The names the table gives its games: ``BLACK_HOLE``, ``GOLF``... (and ``GameName``'s members)."""
NAME_QUESTIONS = {"is_black_hole"}
"""Properties that ask a game's name under another name."""
TWIN_PREFIXES = ("family_", *(f"{name}_" for name in GAME_NAMES))
"""How a module that is a game's (or the family's) twin of another is named."""


def _names_a_game(node: ast.expr) -> bool:
    """Whether ``node`` is a game of the table (``BLACK_HOLE``, ``games.GOLF``, ``GameName.GOLF``), a game's
    name (``"golf"``, ``BLACK_HOLE.name``) or a tuple of such."""
    if isinstance(node, ast.Name):
        return node.id in GAME_CONSTANTS
    if isinstance(node, ast.Attribute):
        return node.attr in GAME_CONSTANTS or (node.attr in ("name", "value") and _names_a_game(node.value))
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and node.value in GAME_NAMES
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_names_a_game(element) for element in node.elts)
    return False


def _game_branches(tree: ast.Module) -> list[str]:
    """Each place ``tree`` compares something with a game or a game's name, or asks a name question."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and any(
            _names_a_game(operand) for operand in (node.left, *node.comparators)
        ):
            found.append(f"line {node.lineno}: {ast.unparse(node)}")
        elif isinstance(node, ast.Attribute) and node.attr in NAME_QUESTIONS:
            found.append(f"line {node.lineno}: .{node.attr}")
        elif isinstance(node, ast.FunctionDef) and node.name in NAME_QUESTIONS:
            found.append(f"line {node.lineno}: def {node.name}")
        elif isinstance(node, ast.MatchValue) and _names_a_game(node.value):
            found.append(f"line {node.lineno}: case {ast.unparse(node.value)}")
    return found


def test_the_rule_sees_every_game():
    assert {name.upper() for name in GAME_NAMES} == {game.name.upper() for game in GAMES}
    samples = [
        "game is BLACK_HOLE",
        "deal.game is not games.GOLF",
        "name == 'relaxed_golf'",
        "game.name == BLACK_HOLE.name",
        "game in (GOLF, DEAD_KING_GOLF)",
        "config.game is GameName.ALL_IN_A_ROW",
        "x if config.is_black_hole else y",
    ]
    assert all(_game_branches(ast.parse(sample)) for sample in samples)
    allowed = [
        "game.talon_size > 0",
        "game.foundation_start is FoundationStart.EMPTY",
        "game is DEFAULT_GAME",
    ]
    assert not any(_game_branches(ast.parse(sample)) for sample in allowed)


@pytest.mark.parametrize("module", sorted(name for name in MODULES if name != TABLE))
def test_no_module_branches_on_a_game(module):
    """A game's difference is a field of the table (``game.named_in_records``, ``game.has_talon``...)."""
    found = _game_branches(MODULES[module])
    assert not found, found


def test_no_module_is_a_games_twin():
    twins = [name for name in MODULES if name.rpartition(".")[2].startswith(TWIN_PREFIXES)]
    scripts = (PACKAGE / "reports" / "gallery_site").glob("*.js")  # the gallery's modules, named alike
    twins += [path.name for path in scripts if path.stem.replace("-", "_").startswith(TWIN_PREFIXES)]
    assert not twins, twins
