"""_manifest.json: checked against its schema and its counts before anything is read; one-line errors."""

from __future__ import annotations

import copy
import dataclasses
import enum
import json
import tomllib
import types
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline import __version__
from pipeline.free_text import folder_name_problem
from pipeline.game.players import PLAYERS
from pipeline.game.shuffles import SEEDED_SCHEME
from pipeline.game.verdicts import Verdict
from pipeline.packs.folders import read_pack_folder, write_pack_folder
from pipeline.packs.labels import PACK_TIERS, SOLVABLE_TIERS, PackKind
from pipeline.packs.manifest import (
    ABSENT_WHEN_NONE,
    ADDED_IN,
    FORMAT_VERSION,
    KIND_ONLY,
    MANIFEST,
    MANIFEST_SCHEMA,
    OLD_MANIFEST,
    CurationRecord,
    FileEntry,
    Manifest,
    Origin,
    TierThresholds,
    WinRateRecord,
    manifest_path,
    manifest_schema,
    read_manifest,
)
from pipeline.packs.parquet import PackError
from pipeline.stages.curate import curate_folder
from pipeline.stages.curation_rules import DROP_REASONS
from pipeline.stages.settings import CurateOrder
from tests.strategies import json_values

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = manifest_schema()
SOURCE = "S/p/manifest.json"
ORDERS = [order.value for order in CurateOrder]
KINDS = [kind.value for kind in PackKind]
VERDICTS = tuple(verdict.value for verdict in Verdict)

PACK = Manifest(
    Origin("smoke", "pack", "0.1.0", SEEDED_SCHEME, config={"run": {"name": "smoke", "count": 5}}),
    5,
    {"solved": 4, "unsolvable": 1, "unknown": 0},
    {"easy": 3, "medium": 1, "hard": 0, "expert": 0, "unsolvable": 1, "ungraded": 0},
    WinRateRecord(0.8, 0.37, 0.96, 0.8694, True),
    (
        FileEntry("tier=easy/part-0.parquet", "easy", 3, "a" * 64),
        FileEntry("tier=medium/part-0.parquet", "medium", 1, "b" * 64),
        FileEntry("tier=unsolvable/part-0.parquet", "unsolvable", 1, "c" * 64),
    ),
)
CURATED = Manifest(
    Origin(
        "smoke-curated",
        "curated",
        "0.1.0",
        SEEDED_SCHEME,
        curated_from="smoke",
        source_config=PACK.origin.config,
        curation=CurationRecord(
            {"easy": 1, "medium": 2}, "difficulty", dict.fromkeys(DROP_REASONS, 1), {"medium": (2, 1)}
        ),
    ),
    2,
    {"solved": 2, "unsolvable": 0, "unknown": 0},
    {"easy": 1, "medium": 1, "hard": 0, "expert": 0, "unsolvable": 0, "ungraded": 0},
    WinRateRecord(1.0, 0.34, 1.0, 0.8694, True),
    (
        FileEntry("tier=easy/part-0.parquet", "easy", 1, "d" * 64),
        FileEntry("tier=medium/part-0.parquet", "medium", 1, "e" * 64),
    ),
)


def problem_of(text: str) -> str:
    """The ``where: problem`` of the PackError that reading ``text`` raises (a single line naming SOURCE)."""
    with pytest.raises(PackError) as raised:
        Manifest.from_json(text, source=SOURCE)
    message = str(raised.value)
    assert len(message.splitlines()) == 1 and message.startswith(f"{SOURCE}: "), message
    return message.removeprefix(f"{SOURCE}: ")


def damaged(manifest: Manifest, change: Callable[[dict[str, Any]], object]) -> str:
    """The text of ``manifest`` after ``change`` edits its JSON object."""
    found = json.loads(manifest.to_json())
    change(found)
    return json.dumps(found, indent=2)


# The schema's lists of names are the code's: a new tier, verdict, kind, order or rule fails here first.


@pytest.mark.parametrize(
    ("pointer", "names"),
    [
        ("/properties/kind/enum", KINDS),
        ("/$defs/tier/enum", PACK_TIERS),
        ("/properties/tiers/required", PACK_TIERS),
        ("/properties/tiers/properties", PACK_TIERS),
        ("/properties/verdicts/required", VERDICTS),
        ("/properties/verdicts/properties", VERDICTS),
        ("/$defs/quotas/properties", SOLVABLE_TIERS),
        ("/$defs/curation/properties/shortfalls/properties", SOLVABLE_TIERS),
        ("/$defs/curation/properties/order/enum", ORDERS),
        ("/$defs/curation/properties/dropped/required", DROP_REASONS),
        ("/$defs/curation/properties/dropped/properties", DROP_REASONS),
    ],
)
def test_the_schema_names_what_the_code_names(pointer, names):
    found: Any = SCHEMA
    for key in pointer.strip("/").split("/"):
        found = found[key]
    assert list(found) == list(names)


def test_the_schema_is_a_draft_2020_12_schema_of_every_key_the_manifest_writes():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    properties = SCHEMA["properties"]
    then_format, then_pack, then_curated = (branch["then"] for branch in SCHEMA["allOf"])
    assert SCHEMA["allOf"][0]["if"]["properties"]["format_version"]["minimum"] == 2
    assert properties["format_version"]["enum"] == list(range(1, FORMAT_VERSION + 1))
    for manifest, then in [(PACK, then_pack), (CURATED, then_curated)]:
        written = list(manifest.to_dict())
        assert [key for key in properties if key in written] == written  # the same keys, in the same order
        assert written[0] == "format_version"  # what a reader checks first; absent in format 1
        assert {"format_version"} | set(SCHEMA["required"]) | set(then["required"]) | set(
            then_format["required"]
        ) == set(written)
    assert list(properties["win_rate"]["properties"]) == [f.name for f in dataclasses.fields(WinRateRecord)]
    assert list(SCHEMA["$defs"]["file"]["properties"]) == [f.name for f in dataclasses.fields(FileEntry)]
    curation = SCHEMA["$defs"]["curation"]["properties"]
    assert list(curation) == [f.name for f in dataclasses.fields(CurationRecord)]


def _types_of_hint(hint: Any) -> set[str] | None:
    """The JSON types a field of type ``hint`` is written as; None for Any (a config: any JSON)."""
    if hint is Any:
        return None
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        found: set[str] = set()
        for arg in typing.get_args(hint):
            found |= {"null"} if arg is type(None) else _types_of_hint(arg) or set()
        return found
    if isinstance(hint, type) and issubclass(hint, enum.Enum):  # written as its value (PackKind)
        return {_types_of_hint(type(next(iter(hint)).value)).pop()}
    if dataclasses.is_dataclass(hint) or (typing.get_origin(hint) or hint) is dict:
        return {"object"}
    if (typing.get_origin(hint) or hint) is tuple:
        return {"array"}
    return {{str: "string", bool: "boolean", int: "integer", float: "number"}[hint]}


def _resolved(node: dict[str, Any]) -> dict[str, Any]:
    """``node`` with the keys of the definitions it refers to ($ref) under its own."""
    if "$ref" not in node:
        return node
    referred = SCHEMA
    for key in node["$ref"].removeprefix("#/").split("/"):
        referred = referred[key]
    return _resolved(referred) | {key: value for key, value in node.items() if key != "$ref"}


def _schema_types(node: dict[str, Any]) -> set[str]:
    """The JSON types the schema ``node`` allows: its type, or those of its enum's names."""
    node = _resolved(node)
    if "type" in node:
        return {node["type"]} if isinstance(node["type"], str) else set(node["type"])
    return {{str: "string", int: "integer"}[type(value)] for value in node["enum"]}


def _fields_against(cls: type, node: dict[str, Any], where: str) -> None:
    """Every field of the dataclass ``cls`` is a property of the object schema ``node``, in order, required,
    of the JSON types its type hint says, and nested dataclasses likewise."""
    node = _resolved(node)
    hints = typing.get_type_hints(cls)
    names = [item.name for item in dataclasses.fields(cls)]
    assert list(node["properties"]) == names, where
    # A field left out of the JSON while None (ABSENT_WHEN_NONE) is not required: older manifests lack it.
    required = [item.name for item in dataclasses.fields(cls) if not item.metadata.get(ABSENT_WHEN_NONE)]
    assert node["required"] == required, where
    for item in dataclasses.fields(cls):
        hint, schema = hints[item.name], node["properties"][item.name]
        types, declared = _types_of_hint(hint), _schema_types(schema)
        if types is not None and item.metadata.get(ABSENT_WHEN_NONE):  # None is written as no key at all,
            types, declared = types - {"null"}, declared - {"null"}  # so the schema need not allow null
        assert types in (None, declared), f"{where}.{item.name}"
        plain = [arg for arg in typing.get_args(hint) if arg is not type(None)] or [hint]
        if dataclasses.is_dataclass(plain[0]):
            _fields_against(plain[0], schema, f"{where}.{item.name}")
        elif typing.get_origin(hint) is tuple and dataclasses.is_dataclass(typing.get_args(hint)[0]):
            _fields_against(typing.get_args(hint)[0], schema["items"], f"{where}.{item.name}[]")


def test_the_schema_declares_every_dataclass_field_with_its_type():
    """The dataclasses are the manifest's shape; the schema says the same, key for key and type for type."""
    origin = [item for item in dataclasses.fields(Origin)]
    rest = [item for item in dataclasses.fields(Manifest) if item.name != "origin"]
    hints = typing.get_type_hints(Origin) | typing.get_type_hints(Manifest)
    properties = SCHEMA["properties"]
    version = [item for item in rest if item.name == "format_version"]  # written first
    assert list(properties) == [
        item.name for item in version + [item for item in origin + rest if item not in version]
    ]
    # One kind's keys, keys left out while None (game), and keys a later format added: not in every manifest.
    optional = (KIND_ONLY, ABSENT_WHEN_NONE, ADDED_IN)
    assert SCHEMA["required"] == [
        item.name for item in origin + rest if not any(key in item.metadata for key in optional)
    ]
    since = SCHEMA["allOf"][0]["if"]["properties"]["format_version"]["minimum"]  # formats 2 and later
    added = [item.name for item in rest if item.metadata.get(ADDED_IN) == since and item not in version]
    assert SCHEMA["allOf"][0]["then"]["required"] == added
    assert all(item.metadata.get(ADDED_IN, 1) <= since for item in rest)  # format 3 added no key
    for kind, branch in zip(KINDS, SCHEMA["allOf"][1:], strict=True):
        assert branch["if"]["properties"]["kind"]["const"] == kind
        only = [item.name for item in origin if item.metadata.get(KIND_ONLY) == kind]
        others = [item.name for item in origin if item.metadata.get(KIND_ONLY, kind) != kind]
        assert branch["then"]["required"] == only
        assert all(branch["then"]["properties"][name] == {"$ref": "#/$defs/absent"} for name in others)
    for item in origin + rest:
        types = _types_of_hint(hints[item.name])
        if types is not None and item.metadata.get(ABSENT_WHEN_NONE):
            types -= {"null"}  # None is written as no key at all
        assert types in (None, _schema_types(properties[item.name])), item.name
    _fields_against(CurationRecord, properties["curation"], "curation")
    _fields_against(WinRateRecord, properties["win_rate"], "win_rate")
    _fields_against(FileEntry, properties["files"]["items"], "files[]")
    _fields_against(TierThresholds, properties["tier_thresholds"], "tier_thresholds")


def test_the_schema_ships_as_package_data():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert MANIFEST_SCHEMA in pyproject["tool"]["setuptools"]["package-data"]["pipeline.packs"]
    assert any(line.startswith("jsonschema") for line in pyproject["project"]["dependencies"])


# Every manifest the code writes is valid and reads back as written.


@pytest.mark.parametrize("manifest", [PACK, CURATED], ids=["pack", "curated"])
def test_a_manifest_reads_back_as_written(manifest):
    assert Manifest.from_json(manifest.to_json()) == manifest


def test_the_manifests_the_writers_write_are_valid(tmp_path, pack_rows):
    origin = Origin("p", "pack", __version__, SEEDED_SCHEME, config={"run": {"name": "p"}})
    written = {tmp_path / "p": write_pack_folder(tmp_path / "p", [pack_rows], origin=origin, provenance={})}
    for name, per_tier, order in [
        ("all", None, "difficulty"),
        ("short", {"easy": 1, "expert": 99}, "pack"),  # a shortfall
        ("none", {"easy": 0}, "difficulty"),  # no deals, no files
    ]:
        target = tmp_path / name
        written[target] = curate_folder(tmp_path / "p", target, per_tier=per_tier, order=order)
    assert written[tmp_path / "short"].origin.curation.shortfalls
    assert written[tmp_path / "none"].files == ()
    for folder, manifest in written.items():
        assert read_manifest(folder) == manifest


def test_the_packs_on_disk_are_valid():
    found = sorted((ROOT / "output" / "packs").glob(f"*/{MANIFEST}"))
    if not found:
        pytest.skip("no pack has been built here")
    for path in found:
        assert read_manifest(path.parent).to_json() == path.read_text(encoding="utf-8")


# A damaged manifest is one line naming the file, the place and the problem.

OUTSIDE = '" is not a path inside the pack folder (tier=TIER/FILE)'
HEX = " is not a SHA-256 in 64 lowercase hex digits"


def _set(*path: str | int, to: object) -> Callable[[dict[str, Any]], None]:
    def change(found: dict[str, Any]) -> None:
        *parents, last = path
        for key in parents:
            found = found[key]
        found[last] = to

    return change


def _delete(*path: str | int) -> Callable[[dict[str, Any]], None]:
    def change(found: dict[str, Any]) -> None:
        *parents, last = path
        for key in parents:
            found = found[key]
        del found[last]

    return change


@pytest.mark.parametrize(
    ("manifest", "change", "expected"),
    [
        (PACK, _delete("files", 0, "sha256"), "files[0].sha256: missing"),
        (PACK, _set("files", to=[123]), "files[0]: expected object, found integer"),
        (PACK, _set("files", to={}), "files: expected array, found object"),
        (
            PACK,
            _set("files", 0, "path", to="../../etc/hostname"),
            'files[0].path: "../../etc/hostname' + OUTSIDE,
        ),
        (PACK, _set("files", 0, "path", to="/etc/hostname"), 'files[0].path: "/etc/hostname' + OUTSIDE),
        (
            PACK,
            _set("files", 0, "path", to="tier=easy/../../x"),
            'files[0].path: "tier=easy/../../x' + OUTSIDE,
        ),
        (PACK, _set("files", 0, "path", to="tier=easy/./a"), 'files[0].path: "tier=easy/./a' + OUTSIDE),
        (PACK, _set("files", 0, "path", to="tier=easy//a"), 'files[0].path: "tier=easy//a' + OUTSIDE),
        (PACK, _set("files", 0, "path", to="tier=easy\\a"), 'files[0].path: "tier=easy\\\\a' + OUTSIDE),
        (PACK, _set("files", 0, "path", to="tier=easy/a\n"), 'files[0].path: "tier=easy/a\\n' + OUTSIDE),
        (PACK, _set("files", 0, "path", to="tier=easy"), 'files[0].path: "tier=easy' + OUTSIDE),
        (
            PACK,
            _set("files", 0, "path", to="tier=hard/part-0.parquet"),
            'files[0].path: "tier=hard/part-0.parquet" is not in the folder tier=easy',
        ),
        (PACK, _set("files", 1, "path", to="tier=easy/part-0.parquet"), "files[1].path: "),
        (PACK, _set("files", 0, "sha256", to="A" * 64), 'files[0].sha256: "' + "A" * 36 + "..." + HEX),
        (PACK, _set("files", 0, "sha256", to="a" * 63), 'files[0].sha256: "' + "a" * 36 + "..." + HEX),
        (PACK, _set("files", 0, "sha256", to=None), "files[0].sha256: expected string, found null"),
        (PACK, _set("files", 0, "rows", to=True), "files[0].rows: expected integer, found boolean"),
        (PACK, _set("files", 0, "rows", to=3.0), "files[0].rows: expected integer, found number"),
        (PACK, _set("files", 0, "rows", to=-1), "files[0].rows: -1 is below 0"),
        (PACK, _set("files", 0, "rows", to=2**63), "files[0].rows: 9223372036854775808 is above"),
        (PACK, _set("files", 0, "rows", to=4), "deals: 5, but the files hold 6 rows"),
        (
            PACK,
            _set("files", 0, "tier", to="legendary"),
            'files[0].tier: "legendary" is not one of easy, medium',
        ),
        (PACK, _set("files", 0, "size", to=1), "files[0].size: unexpected key"),
        (PACK, _set("deals", to=6), "deals: 6, but the files hold 5 rows"),
        (PACK, _set("deals", to="5"), "deals: expected integer, found string"),
        (PACK, _set("verdicts", "solved", to=3), "verdicts: 4 deals in all, but deals is 5"),
        (PACK, _delete("verdicts", "unknown"), "verdicts.unknown: missing"),
        (PACK, _set("tiers", "easy", to=2), "tiers.easy: 2, but the files of tier easy hold 3 rows"),
        (PACK, _delete("tiers", "ungraded"), "tiers.ungraded: missing"),
        (PACK, _set("tiers", "legendary", to=0), "tiers.legendary: unexpected key"),
        (PACK, _set("win_rate", "rate", to=1.5), "win_rate.rate: 1.5 is above 1"),
        (PACK, _set("win_rate", "low", to=None), "win_rate.low: expected number, found null"),
        (PACK, _set("win_rate", "published_inside", to="yes"), "win_rate.published_inside: expected boolean"),
        (PACK, _set("kind", to="solved"), 'kind: "solved" is not one of pack, curated'),
        (PACK, _delete("kind"), "kind: missing"),
        (PACK, _delete("config"), "config: missing"),
        (PACK, _set("config", to=[1]), "config: expected object or null, found array"),
        (PACK, _set("curation", to=None), "curation: not a key of a pack manifest"),
        (PACK, _set("name", to=""), 'name: "" is not a folder name'),
        (PACK, _set("name", to="a/b"), 'name: "a/b" is not a folder name'),
        (PACK, _set("name", to=".."), 'name: ".." is not a folder name (expected a pack name, not a path)'),
        (
            PACK,
            _set("name", to="evil\u202etxt"),
            'name: "evil\\u202etxt" is not a folder name (it holds a control',
        ),
        (
            PACK,
            _set("name", to="x" * 201),
            f'name: "{"x" * 36}... is not a folder name (longer than 200 bytes in UTF-8)',
        ),
        (CURATED, _set("curated_from", to="."), 'curated_from: "." is not a folder name'),
        (PACK, _set("win_rate", "low", to=0.99), "win_rate: low 0.99 is above high"),
        (PACK, _set("name", to=7), "name: expected string, found integer"),
        (PACK, _set("Name", to="x"), "Name: unexpected key"),
        (PACK, _set("x" * 200, to=1), '["' + "x" * 36 + "...]: unexpected key"),
        (CURATED, _set("config", to={}), "config: not a key of a curated manifest"),
        (CURATED, _delete("source_config"), "source_config: missing"),
        (
            CURATED,
            _set("curation", "order", to="random"),
            'curation.order: "random" is not one of difficulty, pack',
        ),
        (
            CURATED,
            _set("curation", "per_tier", "unsolvable", to=1),
            "curation.per_tier.unsolvable: unexpected key",
        ),
        (CURATED, _delete("curation", "dropped", "disputed"), "curation.dropped.disputed: missing"),
        (
            CURATED,
            _set("curation", "shortfalls", "medium", to=[2]),
            "curation.shortfalls.medium: an array is not a pair [wanted, found]",
        ),
    ],
)
def test_a_damaged_manifest_is_one_line_naming_the_place(manifest, change, expected):
    assert problem_of(damaged(manifest, change)).startswith(expected)


@pytest.mark.parametrize(
    ("token", "expected"),
    [
        ("NaN", "deals: NaN (a manifest's numbers are finite)"),
        ("Infinity", "deals: Infinity (a manifest's numbers are finite)"),
        ("-Infinity", "deals: -Infinity (a manifest's numbers are finite)"),
        ("1e999", "deals: 1e999 is out of range"),
        ("9" * 5000, "deals: an integer of 5000 digits"),
        ("[" * 40 + "]" * 40, "deals: nested deeper than 32 levels"),
        ("[" * 100_000 + "]" * 100_000, "top level: nested too deeply to read"),
    ],
)
def test_a_value_json_allows_but_a_manifest_refuses(token, expected):
    assert problem_of(PACK.to_json().replace('"deals": 5', f'"deals": {token}')) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", "line 1 column 1: not JSON (Expecting value)"),
        ('{"name": "p",', "line 1 column 14: not JSON (Expecting property name enclosed in double quotes)"),
        ("\ufeff{}", "line 1 column 1: not JSON (Unexpected UTF-8 BOM (decode using utf-8-sig))"),
        ("[]", "top level: expected object, found array"),
        ("null", "top level: expected object, found null"),
        ('{"files": [{"rows": 1, "rows": 2}]}', 'files[0]: the key "rows" twice'),
    ],
)
def test_text_that_is_no_manifest(text, expected):
    assert problem_of(text) == expected


def test_a_path_leaving_the_pack_is_refused_before_it_is_opened(tmp_path):
    folder, outside = tmp_path / "S" / "p", tmp_path / "hostname"
    folder.mkdir(parents=True)
    outside.write_bytes(b"not a pack file")
    (folder / MANIFEST).write_text(
        damaged(PACK, _set("files", 0, "path", to="../../hostname")), encoding="utf-8"
    )
    with pytest.raises(PackError, match=r"manifest\.json: files\[0\]\.path: .* is not a path inside"):
        read_pack_folder(folder)


def test_a_manifest_of_another_format_is_one_line():
    assert (
        problem_of(damaged(PACK, _set("format_version", to=4))) == "format_version: 4 is not one of 1, 2, 3"
    )
    assert problem_of(damaged(PACK, _set("format_version", to="3"))) == (
        "format_version: expected integer, found string"
    )
    assert (
        problem_of(damaged(PACK, _delete("tier_thresholds"))) == "tier_thresholds: missing"
    )  # formats 2 and 3 have it
    format_2 = dataclasses.replace(PACK, format_version=2)  # the manifest of format 3 with another number
    assert problem_of(damaged(format_2, _delete("tier_thresholds"))) == "tier_thresholds: missing"
    assert Manifest.from_json(format_2.to_json()) == format_2
    assert list(format_2.to_dict()) == list(PACK.to_dict())
    old = damaged(PACK, lambda found: [found.pop(key) for key in ("format_version", "tier_thresholds")])
    assert Manifest.from_json(old).format_version == 1  # format 1: neither key
    graded = dataclasses.replace(
        PACK, tier_thresholds=TierThresholds("lookahead-4", "attempts", 200, 500, 1500)
    )
    assert Manifest.from_json(graded.to_json()) == graded
    assert problem_of(damaged(graded, _set("tier_thresholds", "hard", to=0))) == (
        "tier_thresholds.hard: 0 is less than or equal to the minimum of 0"
    )


def test_tier_thresholds_of_no_player_or_that_do_not_rise_are_refused():
    graded = dataclasses.replace(
        PACK, tier_thresholds=TierThresholds("lookahead-4", "attempts", 200, 500, 1500)
    )
    assert problem_of(damaged(graded, _set("tier_thresholds", "player", to="banana"))) == (
        'tier_thresholds.player: "banana" is no player of the ladder'
    )
    assert problem_of(damaged(graded, _set("tier_thresholds", "hard", to=100.0))) == (
        "tier_thresholds: medium, hard and expert do not rise (200, 100, 1500)"
    )
    assert problem_of(damaged(graded, _set("tier_thresholds", "expert", to=500.0))).startswith(
        "tier_thresholds: medium, hard and expert do not rise"
    )


def test_a_folder_of_format_1_has_its_manifest_read_under_the_old_name(tmp_path):
    old = json.loads(PACK.to_json())
    del old["format_version"], old["tier_thresholds"]
    (tmp_path / OLD_MANIFEST).write_text(json.dumps(old), encoding="utf-8")
    assert manifest_path(tmp_path) == tmp_path / OLD_MANIFEST
    assert read_manifest(tmp_path).format_version == 1
    (tmp_path / MANIFEST).write_text(
        PACK.to_json(), encoding="utf-8"
    )  # the new name first, when both are there
    assert manifest_path(tmp_path) == tmp_path / MANIFEST and read_manifest(tmp_path) == PACK


def test_a_manifest_that_is_no_utf8_text_or_no_file(tmp_path):
    (tmp_path / "bytes").mkdir()
    (tmp_path / "bytes" / MANIFEST).write_bytes(b'{"name": "\xff"}')
    with pytest.raises(PackError, match=r"bytes/_manifest\.json: byte 10: not UTF-8$"):
        read_manifest(tmp_path / "bytes")
    (tmp_path / "folder" / MANIFEST).mkdir(parents=True)
    with pytest.raises(
        PackError, match=r"folder/_manifest\.json: top level: not readable \(Is a directory\)$"
    ):
        read_manifest(tmp_path / "folder")


# Fuzzing: whatever the text, a valid Manifest that reads back as itself, or one PackError line.

_NAMES = st.text(
    st.characters(exclude_categories=("Cc", "Cs", "Zl", "Zp"), exclude_characters="/\\"), min_size=1
).filter(lambda name: folder_name_problem(name) is None)  # the rule a pack's name is written by
_COUNTS = st.integers(0, 2**63 - 1)
_RATES = st.floats(0, 1)
_CONFIGS = st.none() | st.dictionaries(st.text(max_size=8), json_values(), max_size=4)


@st.composite
def manifests(draw: st.DrawFn) -> Manifest:
    """A valid manifest of either kind: files of the tiers that have deals, counts that agree."""
    rows = {tier: draw(st.integers(0, 10**6)) for tier in PACK_TIERS}
    deals = sum(rows.values())
    solved = draw(st.integers(0, deals))
    unsolvable = draw(st.integers(0, deals - solved))
    verdicts = {"solved": solved, "unsolvable": unsolvable, "unknown": deals - solved - unsolvable}
    files = tuple(
        FileEntry(
            f"tier={tier}/part-0.parquet",
            tier,
            count,
            draw(st.text("0123456789abcdef", min_size=64, max_size=64)),
        )
        for tier, count in rows.items()
        if count
    )
    low, high = sorted(draw(st.tuples(_RATES, _RATES)))
    rate = draw(
        st.none()
        | st.builds(WinRateRecord, _RATES | st.none(), st.just(low), st.just(high), _RATES, st.booleans())
    )
    scheme = draw(st.none() | st.text(min_size=1))
    if draw(st.sampled_from(KINDS)) == "pack":
        origin = Origin(draw(_NAMES), "pack", draw(st.text(min_size=1)), scheme, config=draw(_CONFIGS))
    else:
        quotas = st.dictionaries(st.sampled_from(SOLVABLE_TIERS), _COUNTS)
        curation = st.builds(
            CurationRecord,
            st.none() | quotas,
            st.sampled_from(ORDERS),
            st.fixed_dictionaries(dict.fromkeys(DROP_REASONS, _COUNTS)),
            st.dictionaries(st.sampled_from(SOLVABLE_TIERS), st.tuples(_COUNTS, _COUNTS)),
        )
        origin = Origin(
            draw(_NAMES),
            "curated",
            draw(st.text(min_size=1)),
            scheme,
            curated_from=draw(st.none() | _NAMES),
            source_config=draw(_CONFIGS),
            curation=draw(st.none() | curation),
        )
    version = draw(st.sampled_from(range(1, FORMAT_VERSION + 1)))  # format 1 has no tier_thresholds
    positive = st.floats(min_value=0, exclude_min=True, allow_infinity=False)
    rising = st.lists(positive, min_size=3, max_size=3, unique=True).map(sorted)
    thresholds = st.builds(
        lambda player, figure, values: TierThresholds(player, figure, *values),
        st.sampled_from([player.value for player in PLAYERS]),
        st.text(min_size=1),
        rising,
    )
    tiers = None if version == 1 else draw(st.none() | thresholds)
    return Manifest(origin, deals, verdicts, dict(rows), rate, files, tiers, version)


def _read_or_refused(text: str) -> None:
    """Read ``text``: a Manifest that reads back as itself, or one PackError line naming SOURCE."""
    try:
        manifest = Manifest.from_json(text, source=SOURCE)
    except PackError as error:
        assert len(str(error).splitlines()) == 1 and str(error).startswith(f"{SOURCE}: "), str(error)
    else:
        assert Manifest.from_json(manifest.to_json()) == manifest


def _places(value: object, path: tuple[str | int, ...] = ()) -> list[tuple[str | int, ...]]:
    """The path of every value inside ``value``, itself first."""
    found = [path]
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        found += _places(item, (*path, key))
    return found


_TOKENS = st.sampled_from(
    [
        "NaN",
        "Infinity",
        "-Infinity",
        "1e999",
        "-1e400",
        "9" * 5000,
        "[" * 40 + "]" * 40,
        "[" * 3000 + "]" * 3000,
    ]
)


@given(manifests())
def test_every_valid_manifest_reads_back_as_itself(manifest):
    assert Manifest.from_json(manifest.to_json()) == manifest


@given(st.binary())
def test_fuzz_any_bytes_in_manifest_json(tmp_path_factory, data):
    folder = tmp_path_factory.getbasetemp() / "fuzz-bytes"
    folder.mkdir(exist_ok=True)
    (folder / MANIFEST).write_bytes(data)
    try:
        read_manifest(folder)
    except PackError as error:
        assert len(str(error).splitlines()) == 1, str(error)


@given(json_values() | st.text())
def test_fuzz_any_json_value(value):
    _read_or_refused(value if isinstance(value, str) else json.dumps(value))


@given(manifests(), st.data())
def test_fuzz_a_manifest_with_one_place_changed(manifest, data):
    found = json.loads(manifest.to_json())
    path = data.draw(st.sampled_from(_places(found)))
    operation = data.draw(st.sampled_from(["delete", "replace", "token"]) if path else st.just("replace"))
    if operation == "delete":
        parent = found
        for key in path[:-1]:
            parent = parent[key]
        del parent[path[-1]]
        _read_or_refused(json.dumps(found))
        return
    marker = "\x00marker\x00"
    replacement = data.draw(json_values()) if operation == "replace" else marker
    if not path:
        found = replacement
    else:
        parent = found
        for key in path[:-1]:
            parent = parent[key]
        parent[path[-1]] = copy.deepcopy(replacement)
    text = json.dumps(found)
    _read_or_refused(text.replace(json.dumps(marker), data.draw(_TOKENS)))
