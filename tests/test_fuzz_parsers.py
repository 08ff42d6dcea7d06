"""The parsers of user files, fuzzed: any text or bytes give a value or a BlackholeError, nothing else.

Board text (:meth:`Deal.from_board_text`, and a file of boards read by
``blackhole import``), run configurations (:func:`pipeline.config.parse_config`,
``load_config`` and ``--set``) and tiers files (:func:`pipeline.stages.tiers.parse_tiers`):
arbitrary text and bytes, documents built from strategies, and the good files
of the repository after a few random edits. A BlackholeError becomes one
``error:`` line (tests/test_bad_inputs.py); any other exception would escape
as a traceback. The manifest's fuzz test is in tests/packs/test_manifest.py.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.config import RunConfig, load_config, parse_config
from pipeline.errors import BlackholeError
from pipeline.game.deal import EXAMPLE_BOARD, Deal, read_boards
from pipeline.packs.sources import imported_deals
from pipeline.stages.tiers import DIFFICULTY_KEYS, THRESHOLDS, load_tiers, parse_tiers
from tests.strategies import boards, edited, multi_boards, toml_documents, toml_text

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = sorted((ROOT / "configs").glob("*.toml"))
RUN_KEYS = {section: list(keys) for section, keys in RunConfig(name="x", count=1).settings().items()}
TIERS_KEYS = {"difficulty": list(DIFFICULTY_KEYS), "tiers": list(THRESHOLDS)}

# A board file: text at random, a good file of boards after a few edits, or either as bytes damaged.
board_files = (
    st.binary(max_size=400)
    | st.text(max_size=400).map(str.encode)
    | multi_boards().flatmap(lambda found: edited(found[1])).map(str.encode)
    | multi_boards()
    .map(lambda found: found[1].encode())
    .flatmap(lambda data: st.integers(0, len(data)).map(lambda at: data[:at] + b"\xff" + data[at:]))
)


def test_every_config_of_the_repository_is_fuzzed():
    assert {path.name for path in CONFIGS} >= {"default.toml", "smoke.toml"}


# --- board text ---------------------------------------------------------------------------------


def _deal_or_error(text: str) -> Deal | None:
    try:
        return Deal.from_board_text(text, source="fuzz.txt")
    except BlackholeError as error:
        assert str(error).startswith("fuzz.txt"), error
        return None


@given(st.text())
def test_any_text_is_a_board_or_a_board_error(text):
    deal = _deal_or_error(text)
    assert deal is None or Deal.from_board_text(deal.to_board_text()) == deal


@given(boards().flatmap(lambda found: edited(found[1])))
def test_an_edited_board_is_a_board_or_a_board_error(text):
    deal = _deal_or_error(text)
    assert deal is None or Deal.from_board_text(deal.to_board_text()) == deal


@given(edited(EXAMPLE_BOARD, max_edits=2))
def test_a_board_one_or_two_edits_away_is_a_board_or_a_board_error(text):
    _deal_or_error(text)


@pytest.fixture(scope="module")
def scratch(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


@settings(max_examples=60, deadline=None)
@given(data=board_files)
def test_any_bytes_in_a_board_file_import_or_give_a_board_error(scratch, data):
    path = scratch / "boards.txt"
    path.write_bytes(data)
    try:
        table = imported_deals(path)
    except BlackholeError as error:
        assert str(error).startswith(str(path)), error
        table = None
    try:
        whole = read_boards(path)
    except BlackholeError:
        whole = None
    if table is not None:  # what import took, the file read whole gives too, in order
        assert whole is not None
        assert table.column("board").to_pylist() == [deal.to_board_text() for deal in whole]


# --- run configurations -------------------------------------------------------------------------


def _config_or_error(text: str) -> RunConfig | None:
    try:
        return parse_config(text, source="fuzz.toml")
    except BlackholeError as error:
        assert str(error).startswith("fuzz.toml"), error
        return None


@given(st.text())
def test_any_text_is_a_config_or_a_config_error(text):
    _config_or_error(text)


@settings(max_examples=200)
@given(toml_documents(RUN_KEYS))
def test_any_toml_document_is_a_config_or_a_config_error(document):
    config = _config_or_error(toml_text(document))
    if config is not None:  # a config that parses is read back the same from its own settings
        written = {
            section: {k: v for k, v in keys.items() if v is not None}
            for section, keys in config.settings().items()
        }
        assert parse_config(toml_text(written)) == config


@pytest.mark.parametrize("name", [path.name for path in CONFIGS])
@given(data=st.data())
def test_an_edited_config_is_a_config_or_a_config_error(name, data):
    _config_or_error(data.draw(edited((ROOT / "configs" / name).read_text(encoding="utf-8"))))


@settings(max_examples=60, deadline=None)
@given(data=st.binary(max_size=300) | st.text(max_size=300).map(str.encode))
def test_any_bytes_in_a_config_file_load_or_give_a_config_error(scratch, data):
    path = scratch / "run.toml"
    path.write_bytes(data)
    try:
        load_config(path)
    except BlackholeError as error:
        assert str(error).startswith(str(path)), error


set_options = st.text(max_size=30) | st.builds(
    "{}={}".format,
    st.sampled_from([f"{section}.{key}" for section, keys in RUN_KEYS.items() for key in keys]),
    st.text(max_size=12)
    | st.sampled_from(["1e999", "9" * 400, "nan", "-1", "0", "{ easy = 1 }", "[1]", "true"]),
)


@given(st.lists(set_options, max_size=3))
def test_any_set_option_is_applied_or_gives_a_config_error(settings_given):
    base = RunConfig(name="x", count=10)
    try:
        base.with_settings(settings_given)
    except BlackholeError as error:
        assert str(error).startswith(("--set ", "command line")), error


# Values at the edges of every type TOML has, each tried in every key of a config and a tiers file.
EDGE_VALUES = (
    "0",
    "-1",
    "1",
    "-0.0",
    "0.5",
    "1.5",
    "1e308",
    "1e-320",
    "nan",
    "-nan",
    "inf",
    "-inf",
    str(2**63 - 1),
    str(2**63),
    str(2**64),
    str(2**64 + 1),
    "9" * 400,
    "-" + "9" * 400,
    "true",
    "false",
    '""',
    '"x"',
    '"a/b"',
    '".."',
    '"\\u0000"',
    '"\\u001b[31m"',
    "1979-05-27",
    "1979-05-27T07:32:00",
    "07:32:00",
    "[]",
    "[1, 2]",
    "{}",
    "{ easy = 1 }",
    "{ easy = -1 }",
    f"{{ easy = {10**30} }}",
)
GOOD_RUN = '[run]\nname = "x"\nseed = 1\ncount = 5\n'


@pytest.mark.parametrize("key", [f"{section}.{key}" for section, keys in RUN_KEYS.items() for key in keys])
def test_every_config_key_takes_every_edge_value_or_gives_a_config_error(key):
    section, name = key.split(".")
    for value in EDGE_VALUES:
        if section == "run":
            text = GOOD_RUN.replace(f"\n{name} = ", f"\n# {name} = ") + f"{name} = {value}\n"
        else:
            text = GOOD_RUN + f"[{section}]\n{name} = {value}\n"
        try:
            _config_or_error(text)
            RunConfig(name="x", count=5).with_settings([f"{key}={value}"])
        except BlackholeError:
            pass
        except Exception as error:
            raise AssertionError(f"{key} = {value[:24]} escaped as {type(error).__name__}") from error


@pytest.mark.parametrize("key", [f"{table}.{key}" for table, keys in TIERS_KEYS.items() for key in keys])
def test_every_tiers_key_takes_every_edge_value_or_gives_a_config_error(key):
    table, name = key.split(".")
    good = (ROOT / "pipeline" / "stages" / "tiers.toml").read_text(encoding="utf-8")
    for value in EDGE_VALUES:
        try:
            _tiers_or_error(re.sub(rf"(?m)^{name} = .*$", f"{name} = {value}".replace("\\", "\\\\"), good))
        except Exception as error:
            raise AssertionError(f"{key} = {value[:24]} escaped as {type(error).__name__}") from error


# --- tiers files --------------------------------------------------------------------------------


def _tiers_or_error(text: str) -> None:
    try:
        parse_tiers(text, source="fuzz.toml")
    except BlackholeError as error:
        assert str(error).startswith("fuzz.toml"), error


@given(st.text())
def test_any_text_is_tiers_or_a_config_error(text):
    _tiers_or_error(text)


@settings(max_examples=200)
@given(toml_documents(TIERS_KEYS))
def test_any_toml_document_is_tiers_or_a_config_error(document):
    _tiers_or_error(toml_text(document))


@given(edited((ROOT / "pipeline" / "stages" / "tiers.toml").read_text(encoding="utf-8")))
def test_an_edited_tiers_file_is_tiers_or_a_config_error(text):
    _tiers_or_error(text)


@settings(max_examples=40, deadline=None)
@given(data=st.binary(max_size=200))
def test_any_bytes_in_a_tiers_file_load_or_give_a_config_error(scratch, data):
    path = scratch / "tiers.toml"
    path.write_bytes(data)
    try:
        load_tiers(path)
    except BlackholeError as error:
        assert str(error).startswith(str(path)), error
