"""Free text: one rule for a pack's name, written and read alike; text shown on a terminal escaped."""

from __future__ import annotations

import json
import re
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.free_text import NAME_BYTES, folder_name_problem, printable
from pipeline.packs.manifest import Manifest, Origin, manifest_schema
from pipeline.packs.parquet import PackError
from pipeline.reports.tables import run_disagreement_lines

GOOD = ["best", "lundi 3 juin", "pack_2026-12", "été", "x" * NAME_BYTES, "日本語のパック", ".hidden", "a..b"]
BAD = [
    "",
    ".",
    "..",
    "a/b",
    "a\\b",
    "\x1b[31mred",
    "a\tb",
    "a\nb",
    "nul\x00",
    "del\x7f",
    "c1\x85",
    "evil\u202etxt",
]
BAD += [
    "zero\u200bwidth",
    "line\u2028sep",
    "\udce9latin-1",
    "x" * (NAME_BYTES + 1),
    "é" * (NAME_BYTES // 2 + 1),
]


@pytest.mark.parametrize("name", GOOD)
def test_a_folder_name_is_taken(name):
    assert folder_name_problem(name) is None


@pytest.mark.parametrize("name", BAD)
def test_a_path_a_control_character_or_a_long_name_is_refused(name):
    assert folder_name_problem(name) is not None


def _manifest_text(name: str) -> str:
    counts = {"solved": 0, "unsolvable": 0, "unknown": 0}
    tiers = dict.fromkeys(["easy", "medium", "hard", "expert", "unsolvable", "ungraded"], 0)
    text = Manifest(Origin("placeholder", "pack", "0.1.0", None), 0, counts, tiers, None).to_json()
    return text.replace('"placeholder"', json.dumps(name))


def _read(name: str) -> bool:
    """Whether a manifest naming its pack ``name`` is read."""
    try:
        Manifest.from_json(_manifest_text(name))
    except PackError:
        return False
    return True


@pytest.mark.parametrize("name", GOOD + BAD)
def test_a_manifest_is_read_by_the_rule_it_is_written_by(name):
    assert _read(name) == (folder_name_problem(name) is None)


@given(st.text(max_size=12))
def test_any_name_is_written_exactly_when_it_is_read(name):
    assert _read(name) == (folder_name_problem(name) is None)


def test_the_schemas_pattern_never_refuses_a_name_the_rule_takes():
    """Other programs read manifests by manifest.schema.json alone: its pattern is looser than the rule,
    never stricter, so no pack this package writes fails it (every code point, between two letters)."""
    pattern = re.compile(manifest_schema()["$defs"]["name"]["pattern"])
    refused = [
        code
        for code in range(sys.maxunicode + 1)
        if folder_name_problem(f"a{chr(code)}b") is None and not pattern.search(f"a{chr(code)}b")
    ]
    assert refused == []


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("\x1b[31mred", "\\x1b[31mred"),
        ("a\tb\nc\rd", "a\\tb\\nc\\rd"),
        ("evil\u202etxt", "evil\\u202etxt"),
        ("\udce9.txt", "\\udce9.txt"),
        ("plain, é and 日本", "plain, é and 日本"),
    ],
)
def test_text_is_shown_with_its_control_characters_escaped(text, shown):
    assert printable(text) == shown


@given(st.text())
def test_whatever_the_text_it_is_shown_on_one_printable_line(text):
    assert printable(text).isprintable()


def test_a_deal_id_holding_an_escape_sequence_is_shown_escaped():
    [line] = run_disagreement_lines(
        [{"deal_id": "\x1b[2Jseed-1-3", "verdict": "solved", "checked_by": "cpsat"}]
    )
    assert line == "DISAGREEMENT \\x1b[2Jseed-1-3: the pack says solved, cpsat disagrees"


def test_an_error_line_shows_what_the_user_typed_escaped(tmp_path):
    """The command line's error lines go through printable: a deal id typed with an escape sequence."""
    result = CliRunner().invoke(app, ["show", "\x1b[31mseed-1-0"])
    assert result.exit_code == 1
    [line] = result.stderr.splitlines()
    assert line.isprintable() and "\\x1b[31mseed-1-0" in line, line


def test_a_run_name_is_the_packs_rule_and_its_curated_packs(tmp_path):
    from pipeline.config import ConfigError, load_config

    for name, problem in [
        ("\u202eevil", "it holds a control character"),
        ("x" * (NAME_BYTES - 3), "for its curated pack"),
    ]:
        path = tmp_path / "run.toml"
        path.write_text(f'[run]\nname = "{name}"\nseed = 1\ncount = 2\n', encoding="utf-8")
        with pytest.raises(ConfigError, match=re.escape(problem)):
            load_config(path)
