"""The docs against the code: every command documented, generated pages current, links alive, README short."""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import typer

from pipeline.cli import app
from pipeline.errors import ExitCode
from pipeline.packs.schema import COLUMN_GROUPS, meaning, schema_markdown

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
CLI_PAGE = DOCS / "cli.md"
README_LIMIT = 12 * 1024

# Built from pieces so that this file does not mention them itself.
OUTSIDE_REFERENCES = ("SPEC" + ".md", "shared" + "/")

LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")


def _generator():
    """docs/generate.py, the script behind ``make docs``, as a module."""
    spec = importlib.util.spec_from_file_location("docs_generate", DOCS / "generate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _command_names() -> list[str]:
    return sorted(typer.main.get_command(app).commands)


def _mentions_command(text: str, name: str) -> bool:
    """``blackhole NAME`` as a whole command (``solve`` is not found inside ``solve-board``)."""
    return re.search(rf"blackhole {re.escape(name)}(?![\w-])", text) is not None


def _pages() -> list[Path]:
    return [README, *sorted(DOCS.glob("*.md"))]


def test_the_app_has_commands():
    assert {"run", "report", "curate", "export", "show"} <= set(_command_names())


@pytest.mark.parametrize("name", _command_names())
def test_every_command_is_in_the_cli_reference_and_the_readme(name):
    assert f"## `blackhole {name}`" in CLI_PAGE.read_text(encoding="utf-8"), f"make docs: {name} missing"
    assert _mentions_command(README.read_text(encoding="utf-8"), name), f"README.md never shows {name}"


def test_the_cli_reference_is_what_the_generator_makes_now(tmp_path):
    generator = _generator()
    command = [sys.executable, "-m", "typer", "pipeline.cli", "utils", "docs", "--name", "blackhole"]
    made = tmp_path / "cli.md"
    subprocess.run([*command, "--output", str(made)], cwd=ROOT, check=True, capture_output=True)
    generated = made.read_text(encoding="utf-8")
    page = CLI_PAGE.read_text(encoding="utf-8")
    assert page.startswith(generated.rstrip("\n")), "docs/cli.md is stale: run make docs"
    assert page == generator.cli_page(generated), "docs/cli.md is stale: run make docs"


def test_the_cli_reference_lists_every_exit_code():
    section = CLI_PAGE.read_text(encoding="utf-8").split("## Exit codes", 1)[1]
    for code in ExitCode:
        assert f"| {int(code)} | `{code.name}` |" in section


def test_the_readme_is_at_most_12_kib():
    size = len(README.read_bytes())
    assert size <= README_LIMIT, f"README.md is {size} bytes; move depth to docs/"


def test_the_readme_keeps_the_two_commands_and_links_every_docs_page():
    text = README.read_text(encoding="utf-8")
    assert "make run" in text and "make test" in text
    linked = {target.split("#")[0] for target in LINK.findall(text)}
    for page in sorted(DOCS.glob("*.md")):
        assert f"docs/{page.name}" in linked, f"README.md does not link docs/{page.name}"


def _anchors(page: Path) -> set[str]:
    """The anchors GitHub makes for the headings of a Markdown page (code blocks skipped)."""
    text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.DOTALL | re.MULTILINE)
    headings = re.findall(r"^#{1,6} +(.+?) *$", text, flags=re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-") for heading in headings}


def test_every_relative_link_points_to_a_file_that_exists():
    broken = []
    for page in _pages():
        for target in LINK.findall(page.read_text(encoding="utf-8")):
            if re.match(r"[a-z][a-z0-9+.-]*:", target, re.IGNORECASE):
                continue  # a URL or mailto:
            path, _, anchor = target.partition("#")
            linked = (page.parent / path) if path else page
            if not linked.exists():
                broken.append(f"{page.relative_to(ROOT)}: {target}")
            elif anchor and linked.suffix == ".md" and anchor not in _anchors(linked):
                broken.append(f"{page.relative_to(ROOT)}: {target} (no such heading)")
    assert not broken, broken


def test_no_file_of_the_repository_cites_a_file_outside_it():
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    ).stdout.decode()
    citing = []
    for name in filter(None, listed.split("\0")):
        path = ROOT / name
        if not path.is_file():
            continue  # deleted in the working tree
        text = path.read_bytes().decode("utf-8", errors="ignore")
        citing += [f"{name}: {needle}" for needle in OUTSIDE_REFERENCES if needle in text]
    assert not citing, citing


def test_the_schema_page_has_one_generated_column_block():
    page = (DOCS / "schema.md").read_text(encoding="utf-8")
    generator = _generator()
    assert page.count(generator.COLUMNS_START) == 1 and page.count(generator.COLUMNS_END) == 1
    assert generator.with_columns(page, generator.columns_block(page)) == page


def test_the_schema_page_shows_the_columns_the_schema_module_declares():
    page = (DOCS / "schema.md").read_text(encoding="utf-8")
    assert _generator().columns_block(page).strip() == schema_markdown().strip()


@pytest.mark.parametrize("column", sorted({field.name for _, _, fields in COLUMN_GROUPS for field in fields}))
def test_every_column_is_documented_with_its_meaning(column):
    field = next(field for _, _, fields in COLUMN_GROUPS for field in fields if field.name == column)
    assert meaning(field), f"{column} has no meaning in pipeline/packs/schema.py"
    page = (DOCS / "schema.md").read_text(encoding="utf-8")
    assert f"| `{column}` |" in page
