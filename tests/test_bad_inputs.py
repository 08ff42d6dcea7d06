"""Bad inputs, table-driven: each gives its exit code and one clean error line, and writes nothing.

Two tables: ``tests/bad_inputs/cases.toml`` holds the committed inputs (board
files, run configurations, tiers files) with the error each must give, and
:data:`CASES` below the inputs built by code from a small pack: damaged
Parquet files and pack folders, output targets, path tricks and options.
Every case runs ``blackhole`` in process (typer's CliRunner) in an empty
folder of its own, which is the working folder. It must exit with its code;
exit 1 prints exactly one line on stderr, ``error: `` and then text matching
the case's regular expression (the file, the line or deal, the problem) and
nothing on stdout; exit 2 (a bad command line) names the problem in its
usage message. No case may print a traceback or change a file of its folder.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import stat
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.feather as feather
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from pipeline import __version__
from pipeline.cli import app
from pipeline.game.shuffles import SEEDED_SCHEME
from pipeline.packs.folders import sha256_of, write_pack_folder
from pipeline.packs.manifest import Origin
from pipeline.packs.parquet import metadata
from pipeline.packs.schema import SOLVED_SCHEMA, bare
from pipeline.stages.curate import curate_folder

ROOT = Path(__file__).resolve().parents[1]
CORPUS = Path(__file__).parent / "bad_inputs"
TABLE = CORPUS / "cases.toml"

Args = list[Any]


@dataclass(frozen=True)
class Case:
    """A bad input: how to make it and the command line (``build``), the exit code, the error's pattern."""

    id: str
    build: Callable[[Scratch], Args]
    error: str
    code: int = 1


@pytest.fixture(scope="session")
def built(tmp_path_factory, pack_rows) -> Path:
    """The good inputs the cases damage: a deals pack, a solved pack, a pack folder and its curated pack.

    ``deals.parquet`` holds deals seed-1-0 to seed-1-2 (``blackhole generate``);
    ``solved.parquet`` the deals seed-77-8 (solved), seed-77-4 (unsolvable) and
    seed-77-18 (solved), in that order; ``packs/p`` the 20 deals of seed 77 (every
    tier but ungraded) and ``packs/c`` its curated pack; ``tiers.toml`` good tiers.
    """
    folder = tmp_path_factory.mktemp("built")
    result = CliRunner().invoke(
        app, ["generate", "--seed", "1", "-n", "3", "-o", str(folder / "deals.parquet")]
    )
    assert result.exit_code == 0, result.output
    solved = pack_rows.take([8, 4, 18]).select(SOLVED_SCHEMA.names).cast(bare(SOLVED_SCHEMA))
    pq.write_table(solved, folder / "solved.parquet")
    pack = folder / "packs" / "p"
    write_pack_folder(
        pack, [pack_rows], origin=Origin("p", "pack", __version__, SEEDED_SCHEME), provenance={}
    )
    curate_folder(pack, folder / "packs" / "c", per_tier=None, order="difficulty")
    shutil.copyfile(ROOT / "pipeline" / "stages" / "tiers.toml", folder / "tiers.toml")
    return folder


class Scratch:
    """A case's own folder (the working folder while the command runs) and the means to fill it.

    Every method puts something in the folder and returns its path relative
    to the folder, as the command line names it.
    """

    def __init__(self, folder: Path, built: Path) -> None:
        self.folder, self.built = folder, built

    def corpus(self, name: str, *, beside: tuple[str, ...] = ()) -> str:
        """The committed input ``tests/bad_inputs/NAME``, under its own file name; ``beside``: more
        committed inputs (``configs/...``) or fixtures (``tiers.toml``) that it names, copied too."""
        for other in beside:
            self.corpus(other) if (CORPUS / other).is_file() else self.fixture(other)
        shutil.copyfile(CORPUS / name, self.folder / Path(name).name)
        return Path(name).name

    def fixture(self, name: str) -> str:
        """A good input of :func:`built` (a file or a pack folder), under the same relative path."""
        target = self.folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if (self.built / name).is_dir():
            shutil.copytree(self.built / name, target)
        else:
            shutil.copyfile(self.built / name, target)
        return name

    def write(self, name: str | bytes, data: bytes | str) -> str:
        """A file ``name`` (bytes for a name that is not UTF-8) holding ``data``."""
        path = self.folder / os.fsdecode(name)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data.encode() if isinstance(data, str) else data)
        return os.fsdecode(name)

    def folder_named(self, name: str) -> str:
        (self.folder / name).mkdir(parents=True)
        return name

    def link(self, name: str, target: str) -> str:
        """A symbolic link ``name`` to ``target`` (relative to the link's folder)."""
        (self.folder / name).symlink_to(target)
        return name

    def fifo(self, name: str) -> str:
        os.mkfifo(self.folder / name)
        return name

    def table(self, fixture: str, change: Callable[[pa.Table], pa.Table]) -> str:
        """The Parquet fixture ``fixture`` with its table changed by ``change``."""
        name = self.fixture(fixture)
        pq.write_table(change(pq.read_table(self.folder / name)), self.folder / name)
        return name

    def damaged(self, fixture: str, change: Callable[[bytes], bytes]) -> str:
        """The fixture file ``fixture`` with its bytes changed by ``change``."""
        name = self.fixture(fixture)
        path = self.folder / name
        path.write_bytes(change(path.read_bytes()))
        return name

    def manifest(self, change: Callable[[dict[str, Any]], Any], pack: str = "packs/p") -> str:
        """The pack ``pack`` with its manifest changed: ``change`` returns the new object, or its raw text."""
        self.fixture(pack)
        path = self.folder / pack / "_manifest.json"
        found = change(json.loads(path.read_text(encoding="utf-8")))
        text = found if isinstance(found, str | bytes) else json.dumps(found, indent=2)
        path.write_bytes(text.encode() if isinstance(text, str) else text)
        return pack

    def tier_file(
        self,
        tier: str,
        change: Callable[[pa.Table], pa.Table | bytes],
        *,
        pack: str = "packs/p",
        signed: bool = True,
    ) -> str:
        """The pack ``pack`` with ``tier``'s data file replaced by what ``change`` makes of its rows.

        ``signed``: the manifest's SHA-256 and row count of the file are
        brought up to date, so that only a reader that checks the rows
        themselves can tell.
        """
        self.fixture(pack)
        relative = f"tier={tier}/part-0.parquet"
        path = self.folder / pack / relative
        table = pq.read_table(path)
        made = change(table)
        if isinstance(made, bytes):
            path.write_bytes(made)
        else:
            pq.write_table(made.replace_schema_metadata(table.schema.metadata), path, compression="zstd")
        if signed:
            manifest = self.folder / pack / "_manifest.json"
            found = json.loads(manifest.read_text(encoding="utf-8"))
            for entry in found["files"]:
                if entry["path"] == relative:
                    entry["sha256"] = sha256_of(path)
                    entry["rows"] = made.num_rows if isinstance(made, pa.Table) else entry["rows"]
            manifest.write_text(json.dumps(found, indent=2), encoding="utf-8")
        return pack


# --- changes to tables and manifests ----------------------------------------------------------


def cell(
    column: str, row: int, value: Any, kind: pa.DataType | None = None
) -> Callable[[pa.Table], pa.Table]:
    """A change setting ``column`` at ``row`` to ``value`` (the column's type, or ``kind``)."""

    def change(table: pa.Table) -> pa.Table:
        values = table.column(column).to_pylist()
        values[row] = value
        at = table.column_names.index(column)
        field = table.schema.field(column)
        kind_ = kind or field.type
        nullable = field.nullable or value is None
        return table.set_column(at, pa.field(column, kind_, nullable), pa.array(values, kind_))

    return change


def retyped(column: str, kind: pa.DataType) -> Callable[[pa.Table], pa.Table]:
    def change(table: pa.Table) -> pa.Table:
        at = table.column_names.index(column)
        return table.set_column(at, pa.field(column, kind), table.column(column).cast(kind))

    return change


def as_text(column: str) -> Callable[[pa.Table], pa.Table]:
    def change(table: pa.Table) -> pa.Table:
        values = [str(value) for value in table.column(column).to_pylist()]
        return table.set_column(table.column_names.index(column), column, pa.array(values, pa.string()))

    return change


def dropped(column: str) -> Callable[[pa.Table], pa.Table]:
    return lambda table: table.drop_columns([column])


def with_bad_card(table: pa.Table, row: int = 0) -> pa.Table:
    """The board at ``row`` with the first card of its fourth line made ZZ."""
    lines = table.column("board")[row].as_py().splitlines()
    lines[3] = "ZZ " + lines[3].split(" ", 1)[1]
    return cell("board", row, "\n".join(lines) + "\n")(table)


def solution_of(row: int, change: Callable[[list[int]], list[int]]) -> Callable[[pa.Table], pa.Table]:
    def changed(table: pa.Table) -> pa.Table:
        return cell("solution", row, change(table.column("solution")[row].as_py()))(table)

    return changed


def entry(change: Callable[[dict[str, Any]], None], number: int = 0) -> Callable[[dict[str, Any]], Any]:
    """A change of the manifest's file entry ``number``."""

    def changed(manifest: dict[str, Any]) -> dict[str, Any]:
        change(manifest["files"][number])
        return manifest

    return changed


def _emptied(manifest: dict[str, Any]) -> dict[str, Any]:
    """A manifest of no deals, its counts agreeing."""
    zeros = {name: {key: 0 for key in manifest[name]} for name in ("verdicts", "tiers")}
    return {**manifest, **zeros, "files": [], "deals": 0}


def _one_row_more(manifest: dict[str, Any]) -> dict[str, Any]:
    """The manifest with one deal more in tier easy's file, its counts agreeing: only the file can tell."""
    easy = next(entry for entry in manifest["files"] if entry["tier"] == "easy")
    easy["rows"] += 1
    manifest["deals"] += 1
    manifest["tiers"]["easy"] += 1
    manifest["verdicts"]["solved"] += 1
    return manifest


def setting(key: str, value: Any) -> Callable[[dict[str, Any]], Any]:
    def changed(manifest: dict[str, Any]) -> dict[str, Any]:
        manifest[key] = value
        return manifest

    return changed


def deleted(key: str) -> Callable[[dict[str, Any]], None]:
    return lambda found: found.pop(key)


def flip_byte(at: float) -> Callable[[bytes], bytes]:
    """A change of the byte ``at`` (a fraction of the length) to its complement."""

    def change(data: bytes) -> bytes:
        where = int(len(data) * at)
        return data[:where] + bytes([data[where] ^ 0xFF]) + data[where + 1 :]

    return change


def feather_bytes(table: pa.Table) -> bytes:
    sink = pa.BufferOutputStream()
    feather.write_feather(table, sink)
    return sink.getvalue().to_pybytes()


def _parquet_bytes(table: pa.Table) -> bytes:
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, compression="zstd")
    return sink.getvalue().to_pybytes()


def _removed(scratch: Scratch, path: str, *, folder: bool = False) -> str:
    """The pack with the file ``path`` deleted (or made an empty folder)."""
    scratch.fixture(PACK)
    (scratch.folder / path).unlink()
    if folder:
        (scratch.folder / path).mkdir()
    return PACK


def _with_extra_file(scratch: Scratch, path: str) -> str:
    scratch.fixture(PACK)
    shutil.copyfile(scratch.folder / PACK / "tier=easy" / "part-0.parquet", scratch.folder / path)
    return PACK


def _beside_pack(scratch: Scratch, make: Callable[[Path], object]) -> str:
    """The pack, and beside it what ``make`` puts at ``packs/best``; the name ``best``."""
    scratch.fixture(PACK)
    make(scratch.folder / "packs" / "best")
    return "best"


def _good_config(scratch: Scratch) -> str:
    """A run configuration with nothing wrong (2 deals), its tiers file beside it."""
    scratch.fixture("tiers.toml")
    return scratch.write(
        "run.toml", '[run]\nname = "x"\nseed = 1\ncount = 2\n\n[grade]\ntiers = "tiers.toml"\n'
    )


# --- the cases built by code --------------------------------------------------------------------

OUT = ["--out", "o.parquet"]
PACK = "packs/p"
CURATED = "packs/c"
FILE_OF_ROW = r"solved\.parquet(\[\d\]|.*seed-77-\d+)"  # a solved pack's row: by number or by deal id
PACK_ROW = r"packs/p\S*.*(seed-77-\d+|\[\d+\])"  # a pack folder's row: its file or the pack, and the deal


def solve(deals: Callable[[Scratch], str]) -> Callable[[Scratch], Args]:
    return lambda s: ["solve", deals(s), *OUT]


def crosscheck(solved: Callable[[Scratch], str]) -> Callable[[Scratch], Args]:
    return lambda s: ["crosscheck", solved(s), *OUT]


def grade(solved: Callable[[Scratch], str]) -> Callable[[Scratch], Args]:
    return lambda s: ["grade", solved(s), "--tiers", s.fixture("tiers.toml"), *OUT]


def report(pack: Callable[[Scratch], str]) -> Callable[[Scratch], Args]:
    return lambda s: ["report", pack(s)]


def export(pack: Callable[[Scratch], str], fmt: str = "json") -> Callable[[Scratch], Args]:
    return lambda s: ["export", pack(s), "--format", fmt, "--out", "deals.out"]


# The tables: one case a row (id, input and command line, the error's pattern, the exit code).
# fmt: off
PARQUET_CASES = [
    Case("solve-text-file", solve(lambda s: s.write("deals.parquet", "Foundations: AS\n")), r"deals\.parquet: not a readable Parquet file"),
    Case("solve-empty-file", solve(lambda s: s.write("deals.parquet", b"")), r"deals\.parquet: not a readable Parquet file"),
    Case("solve-magic-only", solve(lambda s: s.write("deals.parquet", b"PAR1")), r"deals\.parquet: not a readable Parquet file"),
    Case("solve-truncated", solve(lambda s: s.damaged("deals.parquet", lambda b: b[: len(b) // 2])), r"deals\.parquet: not a readable Parquet file"),
    Case("solve-footer-length-past-the-file", solve(lambda s: s.damaged("deals.parquet", lambda b: b[:-8] + (2**31 - 1).to_bytes(4, "little") + b"PAR1")), r"deals\.parquet: not a readable Parquet file"),
    Case("solve-damaged-page-header", solve(lambda s: s.damaged("deals.parquet", flip_byte(0.45))), r"deals\.parquet: not a readable Parquet file"),
    Case("solve-arrow-ipc-file", solve(lambda s: s.write("deals.parquet", feather_bytes(pq.read_table(s.built / "deals.parquet")))), r"deals\.parquet: not a readable Parquet file"),
    Case("solve-csv-file", solve(lambda s: s.write("deals.parquet", "deal_id,board\nseed-1-0,x\n")), r"deals\.parquet: not a readable Parquet file"),
    Case("solve-a-folder", solve(lambda s: s.folder_named("deals.parquet")), r"deals\.parquet: is a directory"),
    Case("solve-missing-file", solve(lambda s: "deals.parquet"), r"deals\.parquet: no such file"),
    Case("solve-no-board-column", solve(lambda s: s.table("deals.parquet", dropped("board"))), r"deals\.parquet: missing column 'board'"),
    Case("solve-no-deal-id-column", solve(lambda s: s.table("deals.parquet", dropped("deal_id"))), r"deals\.parquet: missing column 'deal_id'"),
    Case("solve-index-as-text", solve(lambda s: s.table("deals.parquet", as_text("index"))), r"deals\.parquet: column 'index' is string, expected int64"),
    Case("solve-board-as-binary", solve(lambda s: s.table("deals.parquet", retyped("board", pa.binary()))), r"deals\.parquet: column 'board' is binary, expected string"),
    Case("solve-board-as-large-string", solve(lambda s: s.table("deals.parquet", retyped("board", pa.large_string()))), r"deals\.parquet: column 'board' is large_string, expected string"),  # as Polars writes text
    Case("solve-seed-as-int64", solve(lambda s: s.table("deals.parquet", retyped("seed", pa.int64()))), r"deals\.parquet: column 'seed' is int64, expected uint64"),
    Case("solve-null-board", solve(lambda s: s.table("deals.parquet", cell("board", 1, None))), r"deals\.parquet: column 'board' has 1 null values"),
    Case("solve-null-deal-id", solve(lambda s: s.table("deals.parquet", cell("deal_id", 2, None))), r"deals\.parquet: column 'deal_id' has 1 null values"),
    Case("solve-board-unknown-card", solve(lambda s: s.table("deals.parquet", lambda t: with_bad_card(t, 1))), r"deals\.parquet\[1\]:4: unknown card 'ZZ'"),
    Case("solve-board-empty", solve(lambda s: s.table("deals.parquet", cell("board", 0, ""))), r"deals\.parquet\[0\]: no board found"),
    Case("solve-board-holds-two-boards", solve(lambda s: s.table("deals.parquet", lambda t: cell("board", 2, t.column("board")[2].as_py() + "\n" + t.column("board")[0].as_py())(t))), r"deals\.parquet\[2\]: expected one board, found 2"),
    Case("solve-board-16-piles", solve(lambda s: s.table("deals.parquet", lambda t: cell("board", 0, t.column("board")[0].as_py().rsplit("\n", 2)[0] + "\n")(t))), r"deals\.parquet\[0\]:17: expected 17 piles, found 16"),
    Case("solve-deal-id-repeated", solve(lambda s: s.table("deals.parquet", cell("deal_id", 1, "seed-1-0"))), r"deals\.parquet.*seed-1-0.*(repeat|duplicate|twice|more than once|unique)"),
    Case("crosscheck-a-deals-pack", crosscheck(lambda s: s.fixture("deals.parquet")), r"deals\.parquet: missing column 'verdict'"),
    Case("grade-a-deals-pack", grade(lambda s: s.fixture("deals.parquet")), r"deals\.parquet: missing column 'verdict'"),
    Case("crosscheck-verdict-banana", crosscheck(lambda s: s.table("solved.parquet", cell("verdict", 0, "banana"))), FILE_OF_ROW + r".*verdict.*banana"),
    Case("grade-verdict-in-capitals", grade(lambda s: s.table("solved.parquet", cell("verdict", 0, "SOLVED"))), FILE_OF_ROW + r".*verdict.*SOLVED"),
    Case("crosscheck-null-verdict", crosscheck(lambda s: s.table("solved.parquet", cell("verdict", 1, None))), r"solved\.parquet: column 'verdict' has 1 null values"),
    Case("crosscheck-solution-of-int64", crosscheck(lambda s: s.table("solved.parquet", retyped("solution", pa.list_(pa.int64())))), r"solved\.parquet: column 'solution' is list<.*int64>, expected list<.*uint8>"),
    Case("crosscheck-nodes-as-double", crosscheck(lambda s: s.table("solved.parquet", retyped("nodes", pa.float64()))), r"solved\.parquet: column 'nodes' is double, expected int64"),
    Case("crosscheck-unsolvable-with-a-solution", crosscheck(lambda s: s.table("solved.parquet", lambda t: cell("solution", 1, t.column("solution")[0].as_py())(t))), FILE_OF_ROW + r".*(unsolvable|solution)"),
    Case("grade-solution-reversed", grade(lambda s: s.table("solved.parquet", solution_of(0, lambda moves: moves[::-1]))), FILE_OF_ROW + r".*solution"),
    Case("grade-solved-without-solution", grade(lambda s: s.table("solved.parquet", cell("solution", 2, []))), FILE_OF_ROW + r".*solution"),
    Case("grade-solution-pile-17", grade(lambda s: s.table("solved.parquet", solution_of(0, lambda moves: [17, *moves[1:]]))), FILE_OF_ROW + r".*(pile 17|solution)"),
    Case("grade-solution-50-moves", grade(lambda s: s.table("solved.parquet", solution_of(2, lambda moves: moves[:50]))), FILE_OF_ROW + r".*solution"),
    Case("grade-nodes-negative", grade(lambda s: s.table("solved.parquet", cell("nodes", 0, -5))), FILE_OF_ROW + r".*nodes"),
]
# fmt: on

# fmt: off
PACK_CASES = [
    Case("report-pack-missing", report(lambda s: PACK), r"packs/p: no such pack folder"),
    Case("report-pack-a-file", report(lambda s: s.write(PACK, "x")), r"packs/p: not a readable Parquet file"),  # a file is read as a pack file
    Case("report-pack-a-symlink-loop", report(lambda s: s.link("loop", "loop")), r"loop: "),
    Case("solve-input-a-symlink-loop", solve(lambda s: s.link("loop.parquet", "loop.parquet")), r"loop\.parquet: "),
    Case("report-no-manifest", report(lambda s: s.folder_named(PACK)), r"packs/p: not a pack folder \(no _manifest\.json\)"),
    Case("report-manifest-not-json", report(lambda s: s.manifest(lambda m: "{files: oops")), r"packs/p/_manifest\.json: .*not JSON"),
    Case("report-manifest-empty", report(lambda s: s.manifest(lambda m: "")), r"packs/p/_manifest\.json: .*not JSON"),
    Case("report-manifest-a-list", report(lambda s: s.manifest(lambda m: [m])), r"packs/p/_manifest\.json: .*expected (an)?object, found (an)?array"),
    Case("report-manifest-null", report(lambda s: s.manifest(lambda m: "null")), r"packs/p/_manifest\.json: .*expected (an)?object, found null"),
    Case("report-manifest-not-utf-8", report(lambda s: s.manifest(lambda m: json.dumps(m).encode().replace(b'"p"', b'"\xff"'))), r"packs/p/_manifest\.json: .*not UTF-8"),
    Case("report-manifest-a-folder", report(lambda s: _removed(s, "packs/p/_manifest.json", folder=True)), r"packs/p/_manifest\.json: .*(Is a directory|is a directory)"),
    Case("report-manifest-nested-too-deep", report(lambda s: s.manifest(lambda m: '{"files": ' + "[" * 100_000 + "]" * 100_000 + "}")), r"packs/p/_manifest\.json: .*nested too deeply"),
    Case("report-manifest-no-files", report(lambda s: s.manifest(lambda m: {k: v for k, v in m.items() if k != "files"})), r"packs/p/_manifest\.json: files: missing"),
    Case("report-manifest-files-an-object", report(lambda s: s.manifest(setting("files", {}))), r"packs/p/_manifest\.json: files: expected (an)?array, found (an)?object"),
    Case("report-manifest-files-of-numbers", report(lambda s: s.manifest(setting("files", [123]))), r"packs/p/_manifest\.json: .*(files|123)"),
    Case("report-manifest-path-up-and-out", report(lambda s: s.manifest(entry(lambda e: e.update(path="../../etc/hostname")))), r"packs/p/_manifest\.json: .*\.\./\.\./etc/hostname"),
    Case("report-manifest-path-absolute", report(lambda s: s.manifest(entry(lambda e: e.update(path="/etc/hostname")))), r"packs/p/_manifest\.json: .*/etc/hostname"),
    Case("report-manifest-entry-without-sha256", report(lambda s: s.manifest(entry(deleted("sha256")))), r"packs/p/_manifest\.json: .*sha256"),
    Case("report-manifest-sha256-not-hex", report(lambda s: s.manifest(entry(lambda e: e.update(sha256="not hex")))), r"packs/p/_manifest\.json: .*sha256"),
    Case("report-manifest-rows-negative", report(lambda s: s.manifest(entry(lambda e: e.update(rows=-1)))), r"packs/p/_manifest\.json: .*rows"),
    Case("report-manifest-kind-banana", report(lambda s: s.manifest(setting("kind", "banana"))), r"packs/p/_manifest\.json: .*kind.*banana"),
    Case("report-manifest-tier-banana", report(lambda s: s.manifest(entry(lambda e: e.update(tier="banana")))), r"packs/p/_manifest\.json: .*tier.*banana"),
    Case("report-manifest-deals-as-text", report(lambda s: s.manifest(setting("deals", "many"))), r"packs/p/_manifest\.json: .*deals"),
    Case("report-manifest-file-listed-twice", report(lambda s: s.manifest(lambda m: {**m, "files": [*m["files"], m["files"][0]]})), r"packs/p/_manifest\.json: files\[\d+\]\.path: .*(twice|again|duplicate)"),
    Case("report-manifest-deals-disagree", report(lambda s: s.manifest(setting("deals", 999))), r"packs/p/_manifest\.json: .*\b999\b"),
    Case("report-manifest-format-from-the-future", report(lambda s: s.manifest(setting("format_version", 4))), r"packs/p/_manifest\.json: format_version: 4 is not one of 1, 2, 3$"),
    Case("curate-manifest-curation-garbled", lambda s: ["curate", s.manifest(setting("curation", "by hand"), pack=CURATED), "--out", "again"], r"packs/c/_manifest\.json: .*curation"),
    Case("report-no-data-files", report(lambda s: s.manifest(_emptied)), r"packs/p: the pack holds no deals"),
    Case("report-data-file-changed", report(lambda s: s.tier_file("easy", lambda t: flip_byte(0.5)(_parquet_bytes(t)), signed=False)), r"packs/p/tier=easy/part-0\.parquet: SHA-256 differs from the manifest's"),
    Case("report-row-count-disagrees", report(lambda s: s.manifest(_one_row_more)), r"packs/p/tier=easy/part-0\.parquet: \d+ rows, the manifest says \d+"),
    Case("report-data-file-missing", report(lambda s: _removed(s, "packs/p/tier=hard/part-0.parquet")), r"packs/p/tier=hard/part-0\.parquet: listed in the manifest but missing"),
    Case("report-data-file-a-folder", report(lambda s: _removed(s, "packs/p/tier=hard/part-0.parquet", folder=True)), r"packs/p/tier=hard/part-0\.parquet: .*(Is a directory|is a directory)"),
    Case("report-data-file-not-listed", report(lambda s: _with_extra_file(s, "packs/p/tier=easy/part-1.parquet")), r"packs/p/tier=easy/part-1\.parquet.*(not listed|not in the manifest|unlisted)"),
    Case("report-garbage-with-its-sha256", report(lambda s: s.tier_file("medium", lambda t: b"garbage, not Parquet\n")), r"packs/p/tier=medium/part-0\.parquet: .*(not a readable Parquet|Parquet)"),
    Case("report-other-schema-with-its-sha256", report(lambda s: s.tier_file("medium", dropped("verdict"))), r"packs/p/tier=medium/part-0\.parquet: .*(column|schema)"),
    Case("report-verdict-banana", report(lambda s: s.tier_file("hard", cell("verdict", 0, "banana"))), PACK_ROW + r".*verdict.*banana"),
    Case("report-difficulty-nan", report(lambda s: s.tier_file("hard", cell("difficulty", 1, float("nan")))), PACK_ROW + r".*difficulty"),
    Case("report-grade-status-banana", report(lambda s: s.tier_file("expert", cell("grade_status", 0, "banana"))), PACK_ROW + r".*grade_status.*banana"),
    Case("report-unsolvable-in-a-solvable-tier", report(lambda s: s.tier_file("easy", cell("verdict", 0, "unsolvable"))), PACK_ROW + r".*(unsolvable|verdict|tier)"),
    Case("export-solution-reversed", export(lambda s: s.tier_file("easy", solution_of(0, lambda moves: moves[::-1]))), PACK_ROW + r".*(solution|move)"),
    Case("gallery-solved-without-solution", lambda s: ["gallery", s.tier_file("easy", cell("solution", 1, [])), "--out", "site"], PACK_ROW + r".*solution"),
    Case("export-board-unknown-card", export(lambda s: s.tier_file("medium", with_bad_card), "boards"), r"packs/p.*seed-77-\d+.*unknown card 'ZZ'"),
    Case("export-curated-levels-out-of-order", export(lambda s: s.tier_file("hard", lambda t: t.take(list(range(t.num_rows))[::-1]), pack=CURATED)), r"packs/c: a tier file's rows are not in level order"),
    Case("show-deal-not-in-pack", lambda s: ["show", "seed-77-999", "--png", "d.png", "--pack", s.fixture(PACK)], r"packs/p: no deal 'seed-77-999'"),
    Case("show-pack-a-parquet-file", lambda s: ["show", "seed-1-0", "--png", "d.png", "--pack", s.fixture("deals.parquet")], r"deals\.parquet: not a pack folder \(a file"),
]
# fmt: on


def relabelled(**entries: str) -> Callable[[pa.Table], bytes]:
    """A tier file's rows as they are, its schema metadata given ``entries`` (bytes: written as they are)."""
    return lambda table: _parquet_bytes(table.replace_schema_metadata({**metadata(table), **entries}))


def zeroed_middle(table: pa.Table) -> bytes:
    """A tier file whose middle half is zeros: its footer reads, its pages do not."""
    data = _parquet_bytes(table)
    return data[:100] + bytes(len(data) // 2) + data[100 + len(data) // 2 :]


def graded_file(scratch: Scratch, **entries: str) -> str:
    """The solved pack file with tier thresholds in its schema metadata, changed by ``entries``."""
    good = {
        "difficulty_player": "tips",
        "difficulty_figure": "attempts",
        "tier_medium": "3",
        "tier_hard": "8",
        "tier_expert": "20",
    }
    return scratch.table(
        "solved.parquet", lambda t: t.replace_schema_metadata({**metadata(t), **good, **entries})
    )


def show(pack: Callable[[Scratch], str]) -> Callable[[Scratch], Args]:
    return lambda s: ["show", "seed-77-8", "--pack", pack(s)]


def gallery(pack: Callable[[Scratch], str]) -> Callable[[Scratch], Args]:
    return lambda s: ["gallery", pack(s), "--out", "site"]


def curate(pack: Callable[[Scratch], str]) -> Callable[[Scratch], Args]:
    return lambda s: ["curate", pack(s), "--out", "best"]


# Issue 39: one game per pack, files damaged but signed, numbers of a file or manifest out of range, names.
READERS = {
    "report": report,
    "report-json": lambda pack: lambda s: ["report", pack(s), "--json"],
    "export-json": export,
    "export-csv": lambda pack: export(pack, "csv"),
    "curate": curate,
    "gallery": gallery,
    "show": show,
}
GOLF_IN_BLACK_HOLE = (
    r"packs/p/tier=hard/part-0\.parquet: a Golf file in a Black Hole pack: games are never mixed"
)
DAMAGED = r"packs/p/tier=hard/part-0\.parquet: a damaged file: its SHA-256 is the manifest's, but it is not readable Parquet \(.+\)$"
# fmt: off
MIXED_AND_DAMAGED_CASES = [
    case
    for command, reader in READERS.items()
    for case in (
        Case(f"{command}-a-golf-file-in-a-black-hole-pack", reader(lambda s: s.tier_file("hard", relabelled(game="golf"))), GOLF_IN_BLACK_HOLE),
        Case(f"{command}-garbage-signed", reader(lambda s: s.tier_file("hard", lambda t: b"garbage, not Parquet\n")), DAMAGED),
        Case(f"{command}-footer-cut-signed", reader(lambda s: s.tier_file("hard", lambda t: _parquet_bytes(t)[:-3])), DAMAGED),
        Case(f"{command}-pages-zeroed-signed", reader(lambda s: s.tier_file("hard", zeroed_middle)), DAMAGED),
        Case(f"{command}-tier-medium-nan", reader(lambda s: s.tier_file("hard", relabelled(difficulty_player="tips", difficulty_figure="attempts", tier_medium="nan", tier_hard="8", tier_expert="20"))), r"packs/p/tier=hard/part-0\.parquet: schema metadata tier_medium: 'nan' is not a finite number above 0"),
    )
]
NUMBER_AND_NAME_CASES = [
    Case("report-a-black-hole-file-in-a-golf-pack", report(lambda s: s.manifest(setting("game", "golf"))), r"packs/p/tier=\w+/part-0\.parquet: a Black Hole file in a Golf pack"),
    Case("export-a-curated-file-in-a-pack", export(lambda s: s.tier_file("hard", lambda t: t.append_column(pa.field("level", pa.int32(), nullable=False), pa.array(range(1, t.num_rows + 1), pa.int32())))), r"packs/p/tier=hard/part-0\.parquet: not a file of this pack: a column 'level' in a pack not curated"),
    Case("gallery-a-pack-file-in-a-curated-pack", gallery(lambda s: s.tier_file("hard", lambda t: t.drop_columns(["level"]), pack=CURATED)), r"packs/c/tier=hard/part-0\.parquet: not a file of this pack: no column 'level' in a curated pack"),
    Case("report-deal-id-an-escape-sequence", report(lambda s: s.tier_file("hard", lambda t: cell("verdict", 0, "banana")(cell("deal_id", 0, "\x1b[2J\x1b[31mred")(t)))), r"packs/p/tier=hard/part-0\.parquet\[0\]: deal \\x1b\[2J\\x1b\[31mred: verdict 'banana'"),
    Case("export-csv-index-negative", export(lambda s: s.tier_file("hard", cell("index", 0, -1)), "csv"), PACK_ROW + r".*index is -1, below 0"),
    Case("export-boards-index-negative", export(lambda s: s.tier_file("hard", cell("index", 0, -1)), "boards"), PACK_ROW + r".*index is -1, below 0"),
    Case("report-json-max-cards-played-127", lambda s: ["report", s.tier_file("hard", cell("max_cards_played", 0, 127)), "--json"], PACK_ROW + r".*max_cards_played is 127, above 51"),
    Case("export-pack-file-index-negative", lambda s: ["export", s.table("solved.parquet", cell("index", 0, -1)), "-f", "boards", "--out", "d.txt"], FILE_OF_ROW + r".*index is -1, below 0"),
    Case("export-pack-file-game-not-utf-8", lambda s: ["export", s.table("solved.parquet", lambda t: t.replace_schema_metadata({**(t.schema.metadata or {}), b"game": b"\xff"})), "-f", "json", "--out", "d.json"], r"solved\.parquet: schema metadata game: not UTF-8 text"),
    Case("grade-pack-file-version-not-utf-8", grade(lambda s: s.table("solved.parquet", lambda t: t.replace_schema_metadata({**(t.schema.metadata or {}), b"blackhole_version": b"\xff\xfe"}))), r"solved\.parquet: schema metadata blackhole_version: not UTF-8 text"),
    Case("report-json-version-not-utf-8", lambda s: ["report", s.tier_file("hard", lambda t: _parquet_bytes(t.replace_schema_metadata({**(t.schema.metadata or {}), b"blackhole_version": b"\xff\xfe"}))), "--json"], r"packs/p/tier=hard/part-0\.parquet: schema metadata blackhole_version: not UTF-8 text"),
    Case("gallery-difficulty-negative", gallery(lambda s: s.tier_file("hard", cell("difficulty", 0, -1.0))), PACK_ROW + r".*difficulty is -1\.0, below 0"),
    Case("export-tier-hard-below-medium", export(lambda s: s.tier_file("hard", relabelled(difficulty_player="tips", difficulty_figure="attempts", tier_medium="8", tier_hard="3", tier_expert="20"))), r"packs/p/tier=hard/part-0\.parquet: schema metadata: tier_medium, tier_hard and tier_expert do not rise \(8\.0, 3\.0, 20\.0\)"),
    Case("export-tier-expert-1e999", export(lambda s: s.tier_file("hard", relabelled(difficulty_player="tips", difficulty_figure="attempts", tier_medium="3", tier_hard="8", tier_expert="1e999"))), r"packs/p/tier=hard/part-0\.parquet: schema metadata tier_expert: '1e999' is not a finite"),
    Case("gallery-player-banana", gallery(lambda s: s.tier_file("hard", relabelled(difficulty_player="banana", difficulty_figure="attempts", tier_medium="3", tier_hard="8", tier_expert="20"))), r"packs/p/tier=hard/part-0\.parquet: schema metadata difficulty_player: 'banana' is no player of the ladder"),
    Case("report-tiers-other-than-the-manifests", report(lambda s: s.tier_file("hard", relabelled(tier_medium="150.0"))), r"packs/p/tier=hard/part-0\.parquet: graded with other tiers than the manifest's tier_thresholds"),
    Case("report-manifest-thresholds-do-not-rise", report(lambda s: s.manifest(lambda m: {**m, "tier_thresholds": {**m["tier_thresholds"], "hard": 1.0}})), r"packs/p/_manifest\.json: tier_thresholds: medium, hard and expert do not rise"),
    Case("report-manifest-thresholds-player-banana", report(lambda s: s.manifest(lambda m: {**m, "tier_thresholds": {**m["tier_thresholds"], "player": "banana"}})), r"packs/p/_manifest\.json: tier_thresholds\.player: \"banana\" is no player"),
    Case("report-manifest-interval-upside-down", report(lambda s: s.manifest(lambda m: {**m, "win_rate": {**m["win_rate"], "low": 0.99, "high": 0.5}})), r"packs/p/_manifest\.json: win_rate: low 0\.99 is above high 0\.5"),
    Case("report-manifest-name-dot-dot", report(lambda s: s.manifest(setting("name", ".."))), r"packs/p/_manifest\.json: name: \"\.\.\" is not a folder name"),
    Case("report-manifest-name-right-to-left", report(lambda s: s.manifest(setting("name", "evil\u202etxt"))), r"packs/p/_manifest\.json: name: \"evil\\u202etxt\" is not a folder name \(it holds a control character\)"),
    Case("report-pack-file-tier-medium-negative", report(lambda s: graded_file(s, tier_medium="-3")), r"solved\.parquet: schema metadata tier_medium: '-3' is not a finite number above 0"),
    Case("export-pack-file-tier-hard-missing", lambda s: ["export", graded_file(s, tier_hard="x"), "-f", "csv", "--out", "d.csv"], r"solved\.parquet: schema metadata tier_hard: 'x' is not a finite number"),
    Case("curate-out-an-escape-sequence", lambda s: ["curate", s.fixture(PACK), "--out", "\x1b[31mred"], r"curated pack name '\\x1b\[31mred' is not a folder name \(it holds a control character\)"),
    Case("curate-out-a-tab", lambda s: ["curate", s.fixture(PACK), "--out", "a\tb"], r"curated pack name 'a\\tb' is not a folder name \(it holds a control character\)"),
    Case("curate-out-right-to-left", lambda s: ["curate", s.fixture(PACK), "--out", "evil\u202etxt"], r"curated pack name 'evil\\u202etxt' is not a folder name \(it holds a control character\)"),
    Case("curate-out-too-long", lambda s: ["curate", s.fixture(PACK), "--out", "x" * 201], r"curated pack name 'x+' is not a folder name \(longer than 200 bytes in UTF-8\)"),
]
# fmt: on


INSIDE = r"(is inside|inside) .*(input|pack)"

# fmt: off
OUTPUT_CASES = [
    Case("generate-out-a-folder", lambda s: ["generate", "--seed", "1", "-n", "1", "--out", s.folder_named("o.parquet")], r"'o\.parquet' is a directory", code=2),
    Case("generate-out-a-symlink", lambda s: ["generate", "--seed", "1", "-n", "1", "--out", s.link("o.parquet", s.write("real.parquet", "keep me"))], r"o\.parquet: is a symbolic link"),
    Case("generate-out-a-dangling-symlink", lambda s: ["generate", "--seed", "1", "-n", "1", "--out", s.link("o.parquet", "nowhere.parquet")], r"o\.parquet: is a symbolic link"),
    Case("generate-out-a-fifo", lambda s: ["generate", "--seed", "1", "-n", "1", "--out", s.fifo("o.parquet")], r"o\.parquet: not a regular file"),
    Case("generate-out-a-device", lambda s: ["generate", "--seed", "1", "-n", "1", "--out", "/dev/null"], r"/dev/null: not a regular file"),
    Case("generate-out-in-a-missing-folder", lambda s: ["generate", "--seed", "1", "-n", "1", "--out", "nowhere/o.parquet"], r"nowhere/o\.parquet: cannot write, no directory 'nowhere'"),
    Case("generate-out-named-in-latin-1", lambda s: ["generate", "--seed", "1", "-n", "1", "--out", os.fsdecode(b"nowhere/\xe9.parquet")], r"nowhere/.*\.parquet: cannot write, no directory"),
    Case("import-out-a-name-with-a-newline", lambda s: ["import", s.corpus("boards/unknown-card.txt"), "--out", "no\nwhere/o.parquet"], r"no where/o\.parquet: cannot write, no directory"),
    Case("import-out-is-the-input", lambda s: ["import", s.corpus("boards/unknown-card.txt"), "--out", "unknown-card.txt"], r"unknown-card\.txt: is this command's input"),
    Case("import-out-is-the-input-through-dot-dot", lambda s: ["import", s.corpus("boards/unknown-card.txt"), "--out", s.folder_named("sub") + "/../unknown-card.txt"], r"sub/\.\./unknown-card\.txt: is this command's input"),
    Case("import-missing-file-named-in-latin-1", lambda s: ["import", os.fsdecode(b"\xe9.txt"), *OUT], r"\.txt: No such file"),
    Case("import-bad-board-named-in-latin-1", lambda s: ["import", s.write(b"\xe9.txt", (CORPUS / "boards/unknown-card.txt").read_bytes()), *OUT], r"\.txt:5: unknown card 'ZZ'"),
    Case("solve-out-is-the-input", lambda s: ["solve", s.fixture("deals.parquet"), "--out", "deals.parquet"], r"deals\.parquet: is this command's input"),
    Case("solve-out-a-symlink-to-the-input", lambda s: ["solve", s.fixture("deals.parquet"), "--out", s.link("o.parquet", "deals.parquet")], r"o\.parquet: is a symbolic link"),
    Case("solve-input-a-symlink-to-the-out", lambda s: ["solve", s.link("in.parquet", s.fixture("deals.parquet")), "--out", "deals.parquet"], r"deals\.parquet: is this command's input 'in\.parquet'"),
    Case("crosscheck-out-is-the-input", lambda s: ["crosscheck", s.fixture("solved.parquet"), "--out", "solved.parquet"], r"solved\.parquet: is this command's input"),
    Case("grade-out-is-the-input", lambda s: ["grade", s.fixture("solved.parquet"), "--tiers", s.fixture("tiers.toml"), "--out", "solved.parquet"], r"solved\.parquet: is this command's input"),
    Case("grade-out-is-the-tiers-file", lambda s: ["grade", s.fixture("solved.parquet"), "--tiers", s.fixture("tiers.toml"), "--out", "tiers.toml"], r"tiers\.toml: is this command's input"),
    Case("export-out-inside-the-pack", lambda s: ["export", s.fixture(PACK), "-f", "csv", "--out", "packs/p/deals.csv"], r"packs/p/deals\.csv: is inside this command's input"),
    Case("export-out-is-the-manifest", lambda s: ["export", s.fixture(PACK), "-f", "json", "--out", "packs/p/_manifest.json"], r"packs/p/_manifest\.json: is inside this command's input"),
    Case("export-out-into-the-pack-through-dot-dot", lambda s: ["export", s.fixture(PACK), "-f", "csv", "--out", "packs/p/tier=easy/../d.csv"], r"packs/p/tier=easy/\.\./d\.csv: is inside this command's input"),
    Case("export-out-is-the-pack-folder", lambda s: ["export", s.fixture(PACK), "-f", "csv", "--out", "packs/p"], r"'packs/p' is a directory", code=2),
    Case("export-out-a-fifo", lambda s: ["export", s.fixture(PACK), "-f", "csv", "--out", s.fifo("d.csv")], r"d\.csv: not a regular file"),
    Case("calibrate-out-a-folder", lambda s: ["calibrate", "--out", s.folder_named("t.toml"), "--seed", "1", "-n", "4"], r"'t\.toml' is a directory", code=2),
    Case("calibrate-out-in-a-missing-folder", lambda s: ["calibrate", "--out", "nowhere/t.toml", "--seed", "1", "-n", "4"], r"nowhere/t\.toml: cannot write, no directory"),
    Case("calibrate-out-a-symlink", lambda s: ["calibrate", "--out", s.link("t.toml", s.fixture("tiers.toml")), "--seed", "1", "-n", "4"], r"t\.toml: is a symbolic link"),
    Case("curate-out-a-path", lambda s: ["curate", s.fixture(PACK), "--out", "a/b"], r"curated pack name 'a/b' is not a folder name \(expected a pack name, not a path\)"),
    Case("curate-out-dot-dot", lambda s: ["curate", s.fixture(PACK), "--out", ".."], r"curated pack name '\.\.' is not a folder name \(expected a pack name, not a path\)"),
    Case("curate-out-empty", lambda s: ["curate", s.fixture(PACK), "--out", ""], r"curated pack name '' is not a folder name \(expected a pack name"),
    Case("curate-out-backslash", lambda s: ["curate", s.fixture(PACK), "--out", "a\\b"], r"curated pack name 'a\\\\b' is not a folder name \(expected a pack name, not a path\)"),
    Case("curate-out-its-own-name", lambda s: ["curate", s.fixture(PACK), "--out", "p"], r"curated pack name 'p': would replace the pack it curates"),
    Case("curate-out-an-existing-file", lambda s: ["curate", PACK, "--out", _beside_pack(s, lambda best: best.write_text("keep me"))], r"packs/best: .*(not a (pack|folder)|refus|exists)"),
    Case("curate-out-a-folder-that-is-not-a-pack", lambda s: ["curate", PACK, "--out", _beside_pack(s, lambda best: (best.mkdir(), (best / "notes.txt").write_text("keep me")))], r"packs/best: .*(not a pack|refus|manifest)"),
    Case("curate-out-a-symlink", lambda s: ["curate", PACK, "--out", _beside_pack(s, lambda best: best.symlink_to(s.folder_named("elsewhere")))], r"packs/best: .*symbolic link"),
    Case("report-charts-a-file", lambda s: ["report", s.fixture(PACK), "--charts", s.write("charts", "keep me")], r"'charts' is a file", code=2),
    Case("report-charts-inside-the-pack", lambda s: ["report", s.fixture(PACK), "--charts", "packs/p/charts"], r"packs/p/charts.*" + INSIDE),
    Case("report-charts-a-chart-is-a-folder", lambda s: ["report", s.fixture(PACK), "--charts", Path(s.folder_named("charts/win-rate-by-block.png")).parent.name], r"charts/win-rate-by-block\.png: not a regular file"),
    Case("gallery-out-a-file", lambda s: ["gallery", s.fixture(PACK), "--out", s.write("site", "keep me")], r"'site' is a file", code=2),
    Case("gallery-out-a-folder-that-is-not-a-gallery", lambda s: ["gallery", s.fixture(PACK), "--out", Path(s.write("site/notes.txt", "keep me")).parent.name], r"site: a folder that is not a gallery"),
    Case("gallery-out-the-pack-itself", lambda s: ["gallery", s.fixture(PACK), "--out", PACK], r"packs/p: .*(not a gallery|input)"),
    Case("gallery-out-inside-the-pack", lambda s: ["gallery", s.fixture(PACK), "--out", "packs/p/site"], r"packs/p/site.*" + INSIDE),
    Case("gallery-out-a-symlink", lambda s: ["gallery", s.fixture(PACK), "--out", s.link("site", s.folder_named("elsewhere"))], r"site: .*symbolic link"),
    Case("show-png-a-folder", lambda s: ["show", "seed-1-0", "--png", s.folder_named("d.png")], r"'d\.png' is a directory", code=2),
    Case("show-png-a-symlink", lambda s: ["show", "seed-1-0", "--png", s.link("d.png", s.write("real.png", "keep me"))], r"d\.png: is a symbolic link"),
    Case("show-png-in-a-missing-folder", lambda s: ["show", "seed-1-0", "--png", "nowhere/d.png"], r"nowhere/d\.png: cannot write, no directory"),
    Case("show-png-inside-the-pack", lambda s: ["show", "seed-77-0", "--pack", s.fixture(PACK), "--png", "packs/p/d.png"], r"packs/p/d\.png: " + INSIDE),
]
# fmt: on


# fmt: off
OPTION_CASES = [
    Case("show-unknown-id", lambda s: ["show", "nonsense", "--png", "d.png"], r"nonsense: not a seeded \(seed-SEED-INDEX\) or PySol FC \(pysol-NUMBER\) deal id"),
    Case("show-pysol-zero", lambda s: ["show", "pysol-0", "--png", "d.png"], r"pysol-0: PySol FC deal numbers run from 1 to 8589934591"),
    Case("show-pysol-past-the-last", lambda s: ["show", "pysol-8589934592", "--png", "d.png"], r"pysol-8589934592: PySol FC deal numbers run from 1"),
    Case("export-tier-banana", lambda s: ["export", s.fixture(PACK), "-f", "csv", "--out", "d.csv", "--tier", "banana"], r"Invalid value for '--tier': .*'banana' is not one of 'easy', .*'ungraded'", code=2),
    Case("gallery-tier-banana", lambda s: ["gallery", s.fixture(PACK), "--out", "site", "--tier", "banana"], r"Invalid value for '--tier': .*'banana' is not one of 'easy', .*'ungraded'", code=2),
    Case("gallery-tier-with-no-deals", lambda s: ["gallery", s.fixture(PACK), "--out", "site", "--tier", "ungraded"], r"packs/p: no deals of tier 'ungraded'"),
    Case("curate-quota-not-a-number", lambda s: ["curate", s.fixture(PACK), "--out", "best", "--per-tier", "easy=two"], r"'easy=two': the count must be a whole number"),
    Case("curate-quota-twice", lambda s: ["curate", s.fixture(PACK), "--out", "best", "--per-tier", "easy=1,easy=2"], r"'easy=2': tier easy is given twice"),
    Case("curate-quota-empty", lambda s: ["curate", s.fixture(PACK), "--out", "best", "--per-tier", ""], r"no quotas given"),
    Case("curate-quota-for-unsolvable", lambda s: ["curate", s.fixture(PACK), "--out", "best", "--per-tier", "unsolvable=1"], r"unknown tier 'unsolvable'"),
    Case("run-set-without-equals", lambda s: ["run", "--config", _good_config(s), "--set", "run.count"], r"--set run\.count: expected section\.key=value", code=2),
    Case("run-set-without-section", lambda s: ["run", "--config", _good_config(s), "--set", "count=3"], r"--set count=3: expected section\.key=value", code=2),
    Case("run-set-unknown-section", lambda s: ["run", "--config", _good_config(s), "--set", "grading.sample=1"], r"--set grading\.sample=1: unknown key 'grading\.sample'", code=2),
    Case("run-set-a-word-for-a-number", lambda s: ["run", "--config", _good_config(s), "--set", "run.count=many"], r"--set run\.count=many: \[run\] count must be an integer, not a string", code=2),
    Case("run-set-a-huge-integer-for-a-number", lambda s: ["run", "--config", _good_config(s), "--set", "crosscheck.time_limit=" + "9" * 400], r"--set crosscheck\.time_limit=9+\.\.\.: \[crosscheck\] time_limit must be", code=2),
    Case("run-scheduler-port-zero", lambda s: ["run", "--config", _good_config(s), "--set", "run.count=2", "--scheduler", "tcp://127.0.0.1:0"], r"\[run\] scheduler 'tcp://127\.0\.0\.1:0' is not an address"),
    Case("run-tiers-file-bad", lambda s: ["run", "--config", s.corpus("configs/tiers-bad.toml", beside=("tiers/not-rising.toml",))], r"not-rising\.toml:7: \[tiers\] hard must be above medium"),
    Case("run-output-is-the-config-file", lambda s: ["run", "--config", s.corpus("configs/output-is-this-file.toml", beside=("tiers.toml",))], r"output-is-this-file\.toml\S*: .*(Not a directory|not a folder|cannot make)"),
    Case("solve-board-stdin-garbage", lambda s: ["solve-board", "-"], r"<stdin>:1: expected 'Foundations: AS'"),
    Case("solve-jobs-zero", lambda s: ["solve", s.fixture("deals.parquet"), *OUT, "--jobs", "0"], r"Invalid value for '--jobs' / '-j': .*(greater than or equal to 1|x>=1)", code=2),
    Case("solve-jobs-past-the-cap", lambda s: ["solve", s.fixture("deals.parquet"), *OUT, "--jobs", "100000"], r"Invalid value for '--jobs' / '-j': .*(less than or equal to 1024|<=1024)", code=2),
    Case("solve-max-nodes-zero", lambda s: ["solve", s.fixture("deals.parquet"), *OUT, "--max-nodes", "0"], r"Invalid value for '--max-nodes': .*(greater than or equal to 1|x>=1)", code=2),
    Case("solve-without-out", lambda s: ["solve", s.fixture("deals.parquet")], r"Missing option '--out'", code=2),
    Case("solve-unknown-option", lambda s: ["solve", s.fixture("deals.parquet"), *OUT, "--fast"], r"No such option: --fast", code=2),
    Case("crosscheck-sample-above-one", lambda s: ["crosscheck", s.fixture("solved.parquet"), *OUT, "--sample", "1.5"], r"Invalid value for '--sample': .*(less than or equal to 1|<=1)", code=2),
    Case("crosscheck-time-limit-nan", lambda s: ["crosscheck", s.fixture("solved.parquet"), *OUT, "--time-limit", "nan"], r"Invalid value for '--time-limit'", code=2),
    Case("generate-source-klondike", lambda s: ["generate", "--source", "klondike", "-n", "1", *OUT], r"'klondike' is not one of 'seed', 'pysol'", code=2),
    Case("generate-seed-and-first", lambda s: ["generate", "--seed", "1", "--first", "2", "-n", "1", *OUT], r"--first is for --source pysol", code=2),
    Case("generate-pysol-first-zero", lambda s: ["generate", "--source", "pysol", "--first", "0", "-n", "1", *OUT], r"Invalid value for '--first': .*(greater than or equal to 1|x>=1)", code=2),
    Case("export-limit-negative", lambda s: ["export", s.fixture(PACK), "-f", "csv", "--out", "d.csv", "--limit", "-1"], r"Invalid value for '--limit': .*(greater than or equal to 0|x>=0)", code=2),
    Case("export-format-xml", lambda s: ["export", s.fixture(PACK), "-f", "xml", "--out", "d.xml"], r"'xml' is not one of 'json', 'jsonl', 'boards', 'csv'", code=2),
    Case("gallery-limit-zero", lambda s: ["gallery", s.fixture(PACK), "--out", "site", "--limit", "0"], r"Invalid value for '--limit': .*(greater than or equal to 1|x>=1)", code=2),
    Case("run-backend-threads", lambda s: ["run", "--config", _good_config(s), "--backend", "threads"], r"'threads' is not one of 'loky', 'dask'", code=2),
    Case("run-jobs-zero", lambda s: ["run", "--config", _good_config(s), "--jobs", "0"], r"Invalid value for '--jobs' / '-j': .*(greater than or equal to 1|x>=1)", code=2),
]
# fmt: on
STDIN = {"solve-board-stdin-garbage": "\x00\x01 garbage \x7f\n"}


CASES = (
    PARQUET_CASES + PACK_CASES + MIXED_AND_DAMAGED_CASES + NUMBER_AND_NAME_CASES + OUTPUT_CASES + OPTION_CASES
)


def _committed_cases() -> list[Case]:
    """The cases of ``tests/bad_inputs/cases.toml``: each table's command line over each of its files."""
    found = []
    for group, table in tomllib.loads(TABLE.read_text(encoding="utf-8")).items():
        for name, error in table["errors"].items():
            found.append(Case(f"{group}:{Path(name).stem}", _committed_args(table["args"], name), error))
    return found


FIXTURES = {"{solved}": "solved.parquet", "{deals}": "deals.parquet", "{pack}": PACK}


def _committed_args(template: list[str], name: str) -> Callable[[Scratch], Args]:
    """``template`` with ``{input}`` the committed file ``name`` and each fixture's mark the fixture, copied."""

    def filled(scratch: Scratch, arg: str) -> str:
        if arg == "{input}":
            return scratch.corpus(name)
        return scratch.fixture(FIXTURES[arg]) if arg in FIXTURES else arg

    return lambda scratch: [filled(scratch, arg) for arg in template]


ALL_CASES = _committed_cases() + CASES


def test_the_corpus_is_large_and_every_case_distinct():
    ids = [case.id for case in ALL_CASES]
    assert len(ids) == len(set(ids)) and len(ids) >= 150
    committed = {path.relative_to(CORPUS).as_posix() for path in CORPUS.rglob("*") if path.is_file()}
    named = {
        name
        for table in tomllib.loads(TABLE.read_text(encoding="utf-8")).values()
        for name in table["errors"]
    }
    named |= {"cases.toml", "configs/tiers-bad.toml", "configs/output-is-this-file.toml"}
    assert committed == named, "every committed input is a case, and every case's input is committed"


def snapshot(folder: Path) -> dict[str, tuple[Any, ...]]:
    """Every entry under ``folder`` (symbolic links not followed): its kind and, for a file, size and SHA-256."""
    found: dict[str, tuple[Any, ...]] = {}
    for root, folders, files in os.walk(folder):
        for name in folders + files:
            path = Path(root, name)
            info = path.lstat()
            if stat.S_ISREG(info.st_mode):
                found[str(path.relative_to(folder))] = (
                    "file",
                    info.st_size,
                    hashlib.sha256(path.read_bytes()).hexdigest(),
                )
            elif stat.S_ISLNK(info.st_mode):
                found[str(path.relative_to(folder))] = ("link", os.readlink(path))
            else:
                found[str(path.relative_to(folder))] = (stat.S_IFMT(info.st_mode),)
    return found


def usage_text(output: str) -> str:
    """A usage error's text with typer's box drawing and line wrapping taken out."""
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", output).split())


@pytest.mark.parametrize("case", ALL_CASES, ids=[case.id for case in ALL_CASES])
def test_a_bad_input_gives_one_clean_error_and_writes_nothing(case, built, tmp_path, monkeypatch):
    scratch = Scratch(tmp_path, built)
    monkeypatch.chdir(tmp_path)
    args = [str(arg) for arg in case.build(scratch)]
    before = snapshot(tmp_path)
    result = CliRunner().invoke(app, args, input=STDIN.get(case.id))
    escaped = result.exception if not isinstance(result.exception, SystemExit | None) else None
    assert escaped is None, f"{type(escaped).__name__}: {escaped}"
    assert "Traceback" not in result.output
    assert result.exit_code == case.code, result.output
    if case.code == 1:
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
        assert lines[0].isprintable(), lines[0]
        assert re.search(case.error, lines[0]), lines[0]
        assert result.stdout == ""
    else:
        assert re.search(case.error, usage_text(result.output)), result.output
    assert snapshot(tmp_path) == before, "the command changed its folder"
