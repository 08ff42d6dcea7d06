"""The blackhole command, through typer's CliRunner: round trips, output, errors, help."""

import errno
import importlib
import json
import os
import re
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pyarrow.parquet as pq
import pytest
import typer
from typer.testing import CliRunner

from pipeline import __version__
from pipeline.cli import app
from pipeline.config import load_config
from pipeline.engine.budgets import DEFAULT_MAX_MEMORY_MIB, DEFAULT_MAX_POSITIONS
from pipeline.engine.solver import DEFAULT_MAX_NODES
from pipeline.errors import BlackholeError, ExitCode
from pipeline.game.deal import EXAMPLE_BOARD
from pipeline.game.shuffles import PYSOL_SCHEME, SEEDED_SCHEME, pysol_deal, seeded_deal
from pipeline.packs.manifest import read_manifest
from pipeline.packs.parquet import metadata
from pipeline.packs.schema import DEALS_SCHEMA, SOLVED_SCHEMA
from pipeline.reports.words import tier_meanings
from pipeline.stages.tiers import load_tiers

ROOT = Path(__file__).resolve().parent.parent
SEED = 20261129
MAX_NODES = "20000"  # small enough that some deals of SEED come back unknown

PYSOL_DEAL_1 = EXAMPLE_BOARD  # PySol FC Black Hole deal 1, as PySol FC shows it (right-most card free)


def invoke(*args: str, input: str | None = None):
    return CliRunner().invoke(app, [str(a) for a in args], input=input)


def ok(*args: str, input: str | None = None):
    result = invoke(*args, input=input)
    assert result.exit_code == 0, result.output
    return result


# --- generate and solve ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("gen") / "deals.parquet"
    ok("generate", "--seed", SEED, "--count", 10, "--out", path, "--quiet")
    return path


def test_generate_writes_a_deals_pack(generated):
    table = pq.read_table(generated)
    assert table.schema.equals(DEALS_SCHEMA)
    assert metadata(table) == {"blackhole_version": __version__, "dealing_scheme": SEEDED_SCHEME}
    assert table.column("board").to_pylist() == [seeded_deal(SEED, i).to_board_text() for i in range(10)]
    assert {pq.ParquetFile(generated).metadata.row_group(0).column(c).compression for c in range(5)} == {
        "ZSTD"
    }


def test_generate_start_continues_the_sequence(tmp_path, generated):
    path = tmp_path / "tail.parquet"
    ok("generate", "--seed", SEED, "--start", 7, "--count", 3, "--out", path)
    assert pq.read_table(path).equals(pq.read_table(generated).slice(7))


@pytest.fixture(scope="module")
def solved_by_jobs(generated, tmp_path_factory) -> dict[tuple[int, bool], Path]:
    """The generated pack solved with 1 and 2 jobs, with and without timings."""
    folder = tmp_path_factory.mktemp("solved")
    paths = {}
    for jobs in (1, 2):
        for timings in (True, False):
            path = folder / f"solved-{jobs}-{timings}.parquet"
            flag = "--timings" if timings else "--no-timings"
            ok("solve", generated, "--out", path, "--jobs", jobs, "--max-nodes", MAX_NODES, flag, "-q")
            paths[jobs, timings] = path
    return paths


def test_solve_keeps_the_deals_and_adds_results(generated, solved_by_jobs):
    deals = pq.read_table(generated)
    for path in solved_by_jobs.values():
        solved = pq.read_table(path)
        assert solved.schema.equals(SOLVED_SCHEMA)
        assert solved.select(DEALS_SCHEMA.names).equals(deals)
        assert metadata(solved) == metadata(deals) | {"max_nodes": MAX_NODES}
        verdicts = solved.column("verdict").to_pylist()
        assert {"solved", "unknown"} <= set(verdicts)
        lengths = [len(s) for s in solved.column("solution").to_pylist()]
        assert lengths == [51 if v == "solved" else 0 for v in verdicts]


def test_solve_does_not_depend_on_jobs(solved_by_jobs):
    """Everything but the measured seconds is the same; without timings, the very bytes are."""
    with_times = [pq.read_table(solved_by_jobs[jobs, True]) for jobs in (1, 2)]
    assert with_times[0].drop(["seconds"]).equals(with_times[1].drop(["seconds"]))
    assert all(t.column("seconds").null_count == 0 for t in with_times)
    untimed = [solved_by_jobs[jobs, False].read_bytes() for jobs in (1, 2)]
    assert untimed[0] == untimed[1]
    assert pq.read_table(solved_by_jobs[1, False]).drop(["seconds"]).equals(with_times[0].drop(["seconds"]))


def test_solve_prints_a_summary(generated, tmp_path):
    result = ok("solve", generated, "--out", tmp_path / "s.parquet", "--max-nodes", MAX_NODES)
    assert "unknown" in result.stdout and "86.94%" in result.stdout
    assert "wrote 10 results" in result.stderr


def test_solve_without_longest_plays_gives_the_same_verdicts_and_no_most_for_a_loss(tmp_path):
    deals, path = tmp_path / "deals.parquet", tmp_path / "verdicts.parquet"
    ok("generate", "--source", "pysol", "--game", "golf", "--first", 1, "--count", 4, "--out", deals)
    ok("solve", deals, "--out", path, "--no-longest-play", "--no-timings", "-q")
    table = pq.read_table(path)
    assert table.column("verdict").to_pylist() == ["unsolvable", "solved", "unsolvable", "solved"]
    assert table.column("max_cards_played").to_pylist() == [None, 35, None, 35]
    assert metadata(table)["longest_play"] == "false"


def test_pysol_source_gives_the_pysol_board(tmp_path):
    path = tmp_path / "pysol.parquet"
    ok("generate", "--source", "pysol", "--first", 1, "--count", 3, "--out", path)
    table = pq.read_table(path)
    assert table.column("board").to_pylist() == [PYSOL_DEAL_1] + [
        pysol_deal(n).to_board_text() for n in (2, 3)
    ]
    assert table.column("deal_id").to_pylist() == ["pysol-1", "pysol-2", "pysol-3"]
    assert metadata(table)["dealing_scheme"] == PYSOL_SCHEME


# --- import ------------------------------------------------------------------------------------


def test_import_single_and_multi_board_files(tmp_path):
    boards = [seeded_deal(3, i).to_board_text() for i in range(3)]
    single, multi = tmp_path / "one.txt", tmp_path / "many.txt"
    single.write_text(boards[0])
    multi.write_text("\n".join(boards))
    ok("import", single, "--out", tmp_path / "one.parquet")
    ok("import", multi, "--out", tmp_path / "many.parquet")
    one, many = pq.read_table(tmp_path / "one.parquet"), pq.read_table(tmp_path / "many.parquet")
    assert one.column("board").to_pylist() == boards[:1]
    assert many.column("board").to_pylist() == boards
    assert many.column("index").to_pylist() == [0, 1, 2]
    assert many.column("deal_id")[0] == one.column("deal_id")[0]
    assert metadata(many)["dealing_scheme"] == "import"


# --- solve-board -------------------------------------------------------------------------------

WINNABLE = seeded_deal(SEED, 0).to_board_text()


def test_solve_board_text_lists_the_moves(tmp_path):
    path = tmp_path / "board.txt"
    path.write_text(WINNABLE)
    for args, stdin in (((path,), None), (("-",), WINNABLE), ((), WINNABLE)):
        lines = ok("solve-board", *args, input=stdin).stdout.splitlines()
        assert lines[0] == "solved: all 51 cards in 51 moves"
        moves = lines[1:52]
        assert all(
            re.fullmatch(r"Move a card from stack \d+ to the foundations \([A2-9TJQK][HCDS]\)", m)
            for m in moves
        )
        assert re.fullmatch(r"nodes: \d+", lines[52]) and re.fullmatch(r"seconds: \d+\.\d{3}", lines[53])
        assert len(lines) == 54


def test_solve_board_json(tmp_path):
    path = tmp_path / "board.txt"
    path.write_text(WINNABLE)
    from_file = json.loads(ok("solve-board", path, "--json").stdout)
    from_stdin = json.loads(ok("solve-board", "-", "--json", input=WINNABLE).stdout)
    for found in (from_file, from_stdin):
        assert set(found) == {"verdict", "solution", "nodes", "seconds", "max_cards_played"}
        assert found["verdict"] == "solved" and len(found["solution"]) == 51
        assert found["max_cards_played"] == 51
    assert from_file["solution"] == from_stdin["solution"]


def test_solve_board_other_verdicts_exit_zero():
    unsolvable = ok("solve-board", input=EXAMPLE_BOARD).stdout
    assert unsolvable.startswith("unsolvable: at most ") and "of 51 cards can be played" in unsolvable
    found = json.loads(ok("solve-board", "--json", input=EXAMPLE_BOARD).stdout)
    assert found["verdict"] == "unsolvable" and found["solution"] == []
    unknown = ok("solve-board", "--max-nodes", 1, input=seeded_deal(SEED, 1).to_board_text()).stdout
    assert unknown.startswith("unknown: the node limit stopped the search")


# --- run ---------------------------------------------------------------------------------------


def test_configs_are_valid_runs():
    default = load_config(ROOT / "configs" / "default.toml")
    assert (default.name, default.seed, default.count, default.jobs) == ("default", SEED, 1000, 2)
    assert default.solve.max_nodes == DEFAULT_MAX_NODES and default.timings is False
    assert (default.grade.max_positions, default.grade.max_memory_mib) == (
        DEFAULT_MAX_POSITIONS,
        DEFAULT_MAX_MEMORY_MIB,
    )
    assert default.output.resolve() == ROOT / "output" and default.grade.tiers.is_file()
    assert dict(default.curate.per_tier) == {"easy": 100, "medium": 100, "hard": 100, "expert": 100}
    smoke = load_config(ROOT / "configs" / "smoke.toml")
    assert smoke.count <= 20 and smoke.count > smoke.shard_size


def test_run_smoke_config(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # another folder: the config's own paths are read beside it
    result = ok("run", "--config", ROOT / "configs" / "smoke.toml", "--set", "run.output=output")
    packs = tmp_path / "output" / "packs"
    assert sorted(p.name for p in packs.iterdir()) == ["smoke", "smoke-curated"]
    assert "Run smoke" in result.stdout and "86.94%" in result.stdout
    assert "curated pack output/packs/smoke-curated: 8 deals" in result.stdout
    tiers = load_tiers(load_config(ROOT / "configs" / "smoke.toml").grade.tiers)
    assert "what the tiers mean, on average:" in result.stdout
    for tier, meaning in tier_meanings(tiers).items():
        assert f"  {tier}: {meaning}" in result.stdout
    assert "deals" in result.stderr  # the progress display


def test_a_run_whose_quotas_ask_for_more_than_its_count_scales_them_and_says_so(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    quick = "[crosscheck]\nsample = 0.0\nloss_sample = 0.0\n[grade]\nsample = 0.0\n"
    config = _config(tmp_path, GOOD_RUN + quick + "[curate]\nper_tier = { easy = 2, hard = 1 }\n")
    result = ok("run", "--config", config)
    notes = [line for line in result.stderr.splitlines() if "per_tier" in line]
    assert notes == [
        "[curate] per_tier asks for more deals than the run makes (2): scaled down to easy 2, hard 0"
    ]
    curation = read_manifest(tmp_path / "output" / "packs" / "x-curated").origin.curation
    assert curation.per_tier == {"easy": 2, "hard": 0}  # 4/3 and 2/3 rounded down; the deal left goes to easy
    again = ok("run", "--config", config, "--set", "curate.per_tier={ easy = 1 }")
    assert "per_tier" not in again.stderr  # quotas that fit: no note


# --- user errors: one line, exit 1, nothing written ---------------------------------------------


def _with_bad_card(board: str, line: int) -> str:
    """``board`` with the first card on ``line`` (from 1) replaced by the non-card ZZ."""
    lines = board.splitlines()
    lines[line - 1] = "ZZ " + lines[line - 1].split(" ", 1)[1]
    return "\n".join(lines) + "\n"


def _bad_board(folder: Path) -> Path:
    return _write_text(folder / "bad.txt", _with_bad_card(WINNABLE, 5))


def _config(folder: Path, text: str) -> Path:
    path = folder / "bad.toml"
    path.write_text(text)
    return path


GOOD_RUN = '[run]\nname = "x"\nseed = 1\ncount = 2\n'

USER_ERRORS = {
    "import-bad-card": (
        lambda d: ["import", _bad_board(d), "--out", d / "o.parquet"],
        r"bad\.txt:5: unknown card 'ZZ'",
    ),
    "import-missing": (
        lambda d: ["import", d / "nope.txt", "--out", d / "o.parquet"],
        r"nope\.txt: No such file",
    ),
    "import-not-utf8": (
        lambda d: ["import", _write_bytes(d / "bin.txt", b"\xff\xfe"), "--out", d / "o.parquet"],
        r"bin\.txt: not UTF-8",
    ),
    "import-repeat": (
        lambda d: [
            "import",
            _write_text(d / "twice.txt", WINNABLE + "\n" + WINNABLE),
            "--out",
            d / "o.parquet",
        ],
        r"twice\.txt:20: this board repeats the board on line 1",
    ),
    "solve-not-parquet": (
        lambda d: ["solve", _write_text(d / "deals.parquet", "nope"), "--out", d / "o.parquet"],
        r"deals\.parquet: not a readable Parquet file",
    ),
    "solve-missing": (
        lambda d: ["solve", d / "none.parquet", "--out", d / "o.parquet"],
        r"none\.parquet: no such file",
    ),
    "solve-no-board-column": (
        lambda d: ["solve", _pack_without_board(d), "--out", d / "o.parquet"],
        r"deals\.parquet: missing column 'board'",
    ),
    "solve-bad-board-row": (
        lambda d: ["solve", _pack_with_bad_board(d), "--out", d / "o.parquet"],
        r"deals\.parquet\[1\]:2: unknown card 'ZZ'",
    ),
    "run-unknown-key": (
        lambda d: ["run", "--config", _config(d, GOOD_RUN + "cuont = 3\n")],
        r"bad\.toml:5: \[run\] has unknown key 'cuont'",
    ),
    "run-wrong-type": (
        lambda d: ["run", "--config", _config(d, GOOD_RUN.replace("count = 2", 'count = "2"'))],
        r"bad\.toml:4: \[run\] count must be an integer, not a string",
    ),
    "run-toml-syntax": (
        lambda d: ["run", "--config", _config(d, GOOD_RUN + "jobs = \n")],
        r"bad\.toml:5: ",
    ),
    "run-missing-config": (lambda d: ["run", "--config", d / "none.toml"], r"none\.toml: no such file"),
    "run-unknown-section": (
        lambda d: ["run", "--config", _config(d, GOOD_RUN + "[grading]\nmax_positions = 5\n")],
        r"bad\.toml:5: unknown section \[grading\]",
    ),
    "run-key-in-another-section": (
        lambda d: ["run", "--config", _config(d, GOOD_RUN + "[grade]\nmax_nodes = 5\n")],
        r"bad\.toml:6: \[grade\] has unknown key 'max_nodes'",
    ),
    "run-quota-unknown-tier": (
        lambda d: ["run", "--config", _config(d, GOOD_RUN + "[curate]\nper_tier = { unsolvable = 1 }\n")],
        r"bad\.toml:6: \[curate\] per_tier has unknown tier 'unsolvable'",
    ),
    "run-set-unknown-key": (
        lambda d: ["run", "--config", _config(d, GOOD_RUN), "--set", "run.cuont=3"],
        r"--set run\.cuont=3: unknown key 'run\.cuont'",
    ),
    "run-set-wrong-type": (
        lambda d: ["run", "--config", _config(d, GOOD_RUN), "--set", "crosscheck.sample=often"],
        r"--set crosscheck\.sample=often: \[crosscheck\] sample must be a number, not a string",
    ),
    "run-nan-sample": (
        lambda d: ["run", "--config", _config(d, GOOD_RUN + "[crosscheck]\nsample = nan\n")],
        r"bad\.toml:6: \[crosscheck\] sample must be a finite number, got nan",
    ),
    "run-budget-past-64-bits": (
        lambda d: [
            "run",
            "--config",
            _config(d, GOOD_RUN + "[grade]\nmax_positions = 99999999999999999999\n"),
        ],
        r"bad\.toml:6: \[grade\] max_positions must be at most 4611686018427387904",
    ),
    "run-set-infinite-time-limit": (
        lambda d: ["run", "--config", _config(d, GOOD_RUN), "--set", "crosscheck.time_limit=inf"],
        r"--set crosscheck\.time_limit=inf: \[crosscheck\] time_limit must be a finite number, got inf",
    ),
    "run-set-huge-max-nodes": (
        lambda d: ["run", "--config", _config(d, GOOD_RUN), "--set", "solve.max_nodes=99999999999999999999"],
        r"\[solve\] max_nodes must be at most 4611686018427387904",
    ),
    "run-scheduler-not-an-address": (
        lambda d: ["run", "--config", _config(d, GOOD_RUN), "--scheduler", "garbage"],
        r"command line: \[run\] scheduler 'garbage' is not an address",
    ),
    "show-index-past-64-bits": (
        lambda d: ["show", "seed-1-99999999999999999999", "--png", d / "p.png"],
        r"seed-1-99999999999999999999: seeds and deal indices run from 0 to 18446744073709551615",
    ),
    "run-missing-tiers": (
        lambda d: ["run", "--config", _config(d, GOOD_RUN + "[grade]\ntiers = 'nope.toml'\n")],
        r"nope\.toml: no such file",
    ),
    "solve-board-bad-file": (lambda d: ["solve-board", _bad_board(d)], r"bad\.txt:5: unknown card 'ZZ'"),
    "solve-board-missing": (lambda d: ["solve-board", d / "none.txt"], r"none\.txt: No such file"),
    # a folder where a file belongs, or a file where a pack folder belongs: a bad input (1), not usage (2)
    "solve-board-a-folder": (lambda d: ["solve-board", _folder(d)], r"sub: Is a directory"),
    "import-a-folder": (lambda d: ["import", _folder(d), "--out", d / "o.parquet"], r"sub: Is a directory"),
    "solve-a-folder": (lambda d: ["solve", _folder(d), "--out", d / "o.parquet"], r"sub: is a directory"),
    "crosscheck-a-folder": (
        lambda d: ["crosscheck", _folder(d), "--out", d / "o.parquet"],
        r"sub: is a directory",
    ),
    "grade-a-folder": (
        lambda d: ["grade", _folder(d), "--out", d / "o.parquet"],
        r"sub: is a directory",
    ),
    "grade-tiers-a-folder": (
        lambda d: ["grade", d / "none.parquet", "--tiers", _folder(d), "--out", d / "o.parquet"],
        r"sub: Is a directory",
    ),
    "run-config-a-folder": (lambda d: ["run", "--config", _folder(d)], r"sub: Is a directory"),
    "report-a-file": (
        lambda d: ["report", _write_text(d / "pack", "x")],
        r"pack: not a readable Parquet file",  # a file is read as a pack file
    ),
    "curate-a-file": (
        lambda d: ["curate", _write_text(d / "pack", "x"), "--out", "c"],
        r"pack: not a pack folder \(a file",
    ),
    # bounds: a number past what its key (and the column it fills) can hold is one line before any work
    "run-jobs-past-the-ceiling": (
        lambda d: ["run", "--config", _config(d, GOOD_RUN + "jobs = 1025\n")],
        r"bad\.toml:5: \[run\] jobs must be at most 1024, got 1025",
    ),
    "run-shard-size-past-the-ceiling": (
        lambda d: ["run", "--config", _config(d, GOOD_RUN + "shard_size = 1000000000000\n")],
        r"bad\.toml:5: \[run\] shard_size must be at most 100000",
    ),
    "run-count-past-int64": (
        lambda d: ["run", "--config", _config(d, GOOD_RUN.replace("count = 2", f"count = {2**63}"))],
        r"bad\.toml:4: \[run\] count must be at most 9223372036854775807",
    ),
    "run-count-too-long-to-read": (
        lambda d: ["run", "--config", _config(d, GOOD_RUN.replace("count = 2", f"count = {'9' * 5000}"))],
        r"bad\.toml:4: \[run\] count: a number too long to read \(past 4,300 digits\)$",
    ),
    "run-set-count-too-long-to-read": (
        lambda d: ["run", "--config", _config(d, GOOD_RUN), "--set", f"run.count={'9' * 5000}"],
        r"--set run\.count=9+\.\.\.: a number too long to read",
    ),
    "run-set-seed-of-a-sample-past-64-bits": (
        lambda d: ["run", "--config", _config(d, GOOD_RUN), "--set", f"grade.seed={2**64}"],
        r"\[grade\] seed must be at most 18446744073709551615",
    ),
    "show-index-too-long-to-read": (
        lambda d: ["show", f"seed-1-{'9' * 5000}", "--png", d / "p.png"],
        r"seed-1-9+: seeds and deal indices run from 0 to 18446744073709551615",
    ),
    "show-number-too-long-to-read": (
        lambda d: ["show", f"pysol-{'9' * 5000}", "--png", d / "p.png"],
        r"pysol-9+: PySol FC deal numbers run from 1 to 8589934591",
    ),
    "curate-quota-past-int64": (
        lambda d: ["curate", d / "pack", "--out", "c", "--per-tier", f"easy={2**63}"],
        r"'easy=9223372036854775808': the count must be at most 9223372036854775807",
    ),
    "curate-quota-too-long-to-read": (
        lambda d: ["curate", d / "pack", "--out", "c", "--per-tier", f"easy={'9' * 5000}"],
        r"the count must be at most 9223372036854775807",
    ),
}


def _folder(folder: Path) -> Path:
    (folder / "sub").mkdir()
    return folder / "sub"


def _write_text(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def _write_bytes(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def _pack_without_board(folder: Path) -> Path:
    path = folder / "deals.parquet"
    ok("generate", "--seed", 1, "--count", 2, "--out", path)
    pq.write_table(pq.read_table(path).drop(["board"]), path)
    return path


def _pack_with_bad_board(folder: Path) -> Path:
    path = folder / "deals.parquet"
    ok("generate", "--seed", 1, "--count", 2, "--out", path)
    table = pq.read_table(path)
    boards = table.column("board").to_pylist()
    boards[1] = _with_bad_card(boards[1], 2)
    pq.write_table(table.set_column(4, DEALS_SCHEMA.field("board"), [boards]), path)
    return path


@pytest.mark.parametrize("case", USER_ERRORS, ids=list(USER_ERRORS))
def test_user_errors_are_one_line_exit_1_and_write_nothing(tmp_path, monkeypatch, case):
    """...or exit 2 for a bad --set, which is a bad command line."""
    monkeypatch.chdir(tmp_path)
    make_args, pattern = USER_ERRORS[case]
    args = make_args(tmp_path)
    before = sorted(p.name for p in tmp_path.iterdir())
    result = invoke(*args)
    assert result.exit_code == (2 if case.startswith("run-set-") else 1), result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    assert re.search(pattern, lines[0]), lines[0]
    assert "Traceback" not in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_solve_board_reads_a_board_after_a_byte_order_mark_as_import_does(tmp_path):
    plain = invoke("solve-board", _write_text(tmp_path / "plain.txt", WINNABLE))
    marked = invoke("solve-board", _write_bytes(tmp_path / "bom.txt", b"\xef\xbb\xbf" + WINNABLE.encode()))
    piped = invoke("solve-board", "-", input="\ufeff" + WINNABLE)
    assert plain.exit_code == marked.exit_code == piped.exit_code == 0, marked.output
    untimed = [re.sub(r"seconds: [0-9.]+", "seconds: S", run.stdout) for run in (plain, marked, piped)]
    assert (
        untimed[0] == untimed[1] == untimed[2]
    )  # the same board, however it arrived; only the clock differs
    assert plain.stdout.startswith("solved: all 51 cards")


def test_solve_board_bad_stdin_names_stdin():
    result = invoke("solve-board", input=WINNABLE.replace("Foundations: AS", "Foundations: AS\n2H"))
    assert result.exit_code == 1
    assert re.fullmatch(r"error: <stdin>:\d+: .*\n", result.stderr)


@pytest.mark.parametrize(
    "args",
    [
        ["generate", "--count", "3", "--out", "x.parquet"],
        ["generate", "--seed", "1", "--first", "2", "--count", "3", "--out", "x.parquet"],
        ["generate", "--source", "pysol", "--seed", "1", "--count", "3", "--out", "x.parquet"],
        ["generate", "--seed", "1", "--count", "0", "--out", "x.parquet"],
        ["generate", "--source", "klondike", "--count", "1", "--out", "x.parquet"],
        ["solve", "x.parquet"],
        ["solve", "x.parquet", "--out", "y.parquet", "--jobs", "0"],
        ["solve", "x.parquet", "--out", "y.parquet", "--max-nodes", "99999999999999999999"],
        ["grade", "x.parquet", "--out", "y.parquet", "--max-positions", "99999999999999999999"],
        ["crosscheck", "x.parquet", "--out", "y.parquet", "--reference-nodes", "99999999999999999999"],
        ["crosscheck", "x.parquet", "--out", "y.parquet", "--time-limit", "inf"],
        ["crosscheck", "x.parquet", "--out", "y.parquet", "--time-limit", "nan"],
        ["crosscheck", "x.parquet", "--out", "y.parquet", "--sample", "nan"],
        ["grade", "x.parquet", "--out", "y.parquet", "--sample", "nan"],
        # bounds the options refuse: jobs past MAX_JOBS, seeds past 64 bits, limits past int64
        ["solve", "x.parquet", "--out", "y.parquet", "--jobs", "1025"],
        ["crosscheck", "x.parquet", "--out", "y.parquet", "--jobs", "1000000000000"],
        ["grade", "x.parquet", "--out", "y.parquet", "--jobs", "1025"],
        ["calibrate", "--seed", "1", "--count", "8", "--out", "t.toml", "--jobs", "1025"],
        ["run", "--config", "c.toml", "--jobs", "1000000000"],
        ["crosscheck", "x.parquet", "--out", "y.parquet", "--seed", str(2**64)],
        ["grade", "x.parquet", "--out", "y.parquet", "--seed", str(2**64)],
        ["calibrate", "--seed", "1", "--count", "100001", "--out", "t.toml"],
        ["export", "p", "--format", "csv", "--out", "x.csv", "--limit", str(2**63)],
        ["gallery", "p", "--out", "g", "--limit", str(2**63)],
    ],
)
def test_usage_errors_exit_2_and_write_nothing(tmp_path, monkeypatch, args):
    monkeypatch.chdir(tmp_path)
    assert invoke(*args).exit_code == 2
    assert list(tmp_path.iterdir()) == []


# --- the destination first: a bad one fails before the input is read, so no work is lost to it -----


def _a_file(folder: Path) -> Path:
    return _write_text(folder / "file", "x")


# Each command with a destination that cannot be written, and the work it must not reach (module,
# name): replaced by a function that fails the test, so the error seen is the destination's.
DESTINATION_FIRST = {
    "report-charts-under-a-file": (
        ("pipeline.tally", "pack_folder_batches"),
        lambda d: ["report", d / "pack", "--charts", _a_file(d) / "charts"],
        r"file/charts: cannot make the folder, '.*file' is not a folder",
    ),
    "report-charts-read-only": (
        ("pipeline.tally", "pack_folder_batches"),
        lambda d: ["report", d / "pack", "--charts", d / "new" / "charts"],
        r"new/charts: cannot write in '.*' \(permission denied\)",
    ),
    "report-a-folder-where-a-chart-goes": (
        ("pipeline.tally", "pack_folder_batches"),
        lambda d: ["report", d / "pack", "--charts", _chart_as_folder(d)],
        r"difficulty\.png: not a regular file",
    ),
    "gallery-under-a-file": (
        ("pipeline.reports.gallery", "read_manifest"),
        lambda d: ["gallery", d / "pack", "--out", _a_file(d) / "site" / "g"],
        r"site/g: cannot make the folder, '.*file' is not a folder",
    ),
    "gallery-read-only": (
        ("pipeline.reports.gallery", "read_manifest"),
        lambda d: ["gallery", d / "pack", "--out", d / "g"],
        r"cannot write in '.*' \(permission denied\)",
    ),
    "show-no-directory": (
        ("pipeline.reports.picture", "deal_of_id"),
        lambda d: ["show", "seed-1-0", "--png", d / "none" / "p.png"],
        r"p\.png: cannot write, no directory",
    ),
    "show-in-the-pack": (
        ("pipeline.reports.picture", "find_deal"),
        lambda d: ["show", "seed-1-0", "--pack", d, "--png", d / "p.png"],
        r"p\.png: is inside this command's input",
    ),
    "curate-read-only": (
        ("pipeline.stages.curate", "curate_folder"),
        lambda d: ["curate", d / "pack", "--out", "best"],
        r"best: cannot write in '.*' \(permission denied\)",
    ),
    "calibrate-no-directory": (
        ("pipeline.game.shuffles", "seeded_deal"),
        lambda d: ["calibrate", "--seed", 1, "-n", 100000, "-o", d / "none" / "t.toml"],
        r"t\.toml: cannot write, no directory",
    ),
}


def _chart_as_folder(folder: Path) -> Path:
    """A charts folder where a folder stands in the first chart's place."""
    (folder / "charts" / "difficulty.png").mkdir(parents=True)
    return folder / "charts"


def _no_write_access(monkeypatch) -> None:
    """As in a read-only folder (root, who runs CI, may write anywhere): no folder can be written in."""
    from pipeline import files

    monkeypatch.setattr(files.os, "access", lambda path, mode: False)


@pytest.mark.parametrize("case", DESTINATION_FIRST, ids=list(DESTINATION_FIRST))
def test_a_bad_destination_fails_before_the_input_is_read(tmp_path, monkeypatch, case):
    (module, name), make_args, pattern = DESTINATION_FIRST[case]
    monkeypatch.chdir(tmp_path)
    args = make_args(tmp_path)
    monkeypatch.setattr(importlib.import_module(module), name, _raising(AssertionError("the work started")))
    if "read-only" in case:
        _no_write_access(monkeypatch)
    before = sorted(p.name for p in tmp_path.rglob("*"))
    result = invoke(*args)
    assert result.exit_code == 1, result.output
    [line] = result.stderr.splitlines()
    assert re.search(f"^error: .*{pattern}", line), line
    assert sorted(p.name for p in tmp_path.rglob("*")) == before


# --- jobs past this machine's CPUs: capped, with a note; the output is the same ---------------------


def test_jobs_past_the_cpus_are_capped_with_a_note(tmp_path, monkeypatch):
    from joblib import cpu_count

    asked = {}

    def solve_pack(deals, out, settings, options, *, game=None):
        asked["jobs"] = options.jobs
        raise _Disputed("stop here")

    monkeypatch.setattr(importlib.import_module("pipeline.stages.solve"), "solve_pack", solve_pack)
    result = invoke("solve", tmp_path / "deals.parquet", "-o", tmp_path / "o.parquet", "--jobs", 1000)
    note, error = result.stderr.splitlines()
    assert note == (
        f"note: 1000 jobs capped at {cpu_count()}, the CPUs this machine offers "
        "(the output does not depend on jobs)"
    )
    assert error == "error: stop here" and asked == {"jobs": 1000}
    quiet = invoke("solve", tmp_path / "deals.parquet", "-o", tmp_path / "o.parquet", "-j", 1000, "-q")
    assert quiet.stderr == "error: stop here\n"


# --- every user error, any command: one line, the error's exit code; Ctrl-C: 130 ------------------


def _subclasses(cls: type) -> list[type]:
    found = []
    for sub in cls.__subclasses__():
        found += [sub, *_subclasses(sub)]
    return found


# Between them these import every module of the package that defines a user error.
for _module in (
    "pipeline.calibration",
    "pipeline.runs",
    "pipeline.packs.exports",
    "pipeline.stages.curate",
    "pipeline.reports.picture",
):
    importlib.import_module(_module)
ERROR_CLASSES = sorted(
    set(_subclasses(BlackholeError)), key=lambda cls: f"{cls.__module__}.{cls.__qualname__}"
)


class _Disputed(BlackholeError):
    """An error with another exit code than BAD_INPUT, to see that the command uses the error's own."""

    exit_code = ExitCode.DISAGREEMENT


def _error(cls: type) -> BlackholeError:
    try:
        return cls("somewhere.toml:7: the problem,\n  over two lines")
    except TypeError:  # the located errors want the place apart
        pass
    try:
        return cls("the problem,\n  over two lines", source="somewhere.toml", line=7)
    except TypeError:  # a write error wants the file and the system's error
        return cls(Path("somewhere.toml"), OSError(errno.ENOSPC, "No space left on device"))


def test_every_user_error_class_is_found():
    names = {cls.__name__ for cls in ERROR_CLASSES}
    assert {"BoardError", "PackError", "ConfigError", "CalibrationError", "RunError"} <= names
    assert {"QuotaError", "CurationError", "ExportError", "IllegalMove", "DestinationError"} <= names


def _tiny_config(folder: Path) -> Path:
    return _write_text(folder / "run.toml", GOOD_RUN)


# Each command, the library function it calls (module, name), and its arguments. solve-board
# reads its boards (read_boards), then calls the solver (below) on each.
COMMANDS = {
    "generate": (
        "pipeline.packs.sources",
        "write_deals",
        lambda d: ["--seed", 1, "-n", 2, "-o", d / "o.parquet"],
    ),
    "import": ("pipeline.packs.sources", "write_deals", lambda d: [d / "boards.txt", "-o", d / "o.parquet"]),
    "solve": ("pipeline.stages.solve", "solve_pack", lambda d: [d / "deals.parquet", "-o", d / "o.parquet"]),
    "crosscheck": (
        "pipeline.stages.crosscheck",
        "crosscheck_pack",
        lambda d: [d / "solved.parquet", "-o", d / "o.parquet"],
    ),
    "grade": (
        "pipeline.stages.grade",
        "grade_pack",
        lambda d: [d / "solved.parquet", "-o", d / "o.parquet"],
    ),
    "calibrate": (
        "pipeline.calibration",
        "from_sample",
        lambda d: ["-o", d / "t.toml", "--seed", 1, "-n", 4],
    ),
    "solve-board": (
        "pipeline.stages.board_stream",
        "read_boards",
        lambda d: [_write_text(d / "b.txt", WINNABLE)],
    ),
    "run": ("pipeline.runs", "run", lambda d: ["--config", _tiny_config(d)]),
    "curate": ("pipeline.stages.curate", "curate_beside", lambda d: [d, "-o", "best"]),
    "export": ("pipeline.packs.exports", "export_saved_pack", lambda d: [d, "-f", "csv", "-o", d / "x.csv"]),
    "report": ("pipeline.reports.charts", "report_pack", lambda d: [d]),
    "show": ("pipeline.reports.picture", "draw_deal_of_id", lambda d: ["seed-1-0", "--png", d / "x.png"]),
}
LONG_COMMANDS = ["solve", "crosscheck", "grade", "calibrate", "run", "solve-board"]
LONG_WORK = {"solve-board": ("pipeline.engine.solver", "solve")}  # where Ctrl-C lands, when not in COMMANDS


def _raising(error: BaseException):
    def library_function(*args, **kwargs):
        raise error

    return library_function


def _invoke_raising(monkeypatch, folder: Path, command: str, error: BaseException, target=None):
    """Run ``command`` with the library function it calls (or ``target``) replaced by one raising ``error``."""
    module, name, make_args = COMMANDS[command]
    module, name = target or (module, name)
    owner = importlib.import_module(module)
    *parents, attribute = name.split(".")
    for parent in parents:
        owner = getattr(owner, parent)
    monkeypatch.setattr(owner, attribute, _raising(error))
    return invoke(command, *make_args(folder))


def _one_error_line(result, error: BlackholeError) -> None:
    assert result.exit_code == error.exit_code, result.output
    assert result.stdout == ""
    assert result.stderr == f"error: {' '.join(str(error).split())}\n"
    assert "Traceback" not in result.output


@pytest.mark.parametrize("cls", [*ERROR_CLASSES, _Disputed], ids=lambda cls: cls.__name__)
def test_each_user_error_is_one_line_with_its_exit_code(tmp_path, monkeypatch, cls):
    error = _error(cls)
    _one_error_line(_invoke_raising(monkeypatch, tmp_path, "export", error), error)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_turns_a_user_error_into_one_line(tmp_path, monkeypatch, command):
    error = _error(_Disputed)
    _one_error_line(_invoke_raising(monkeypatch, tmp_path, command, error), error)


@pytest.mark.parametrize("command", LONG_COMMANDS)
def test_ctrl_c_in_a_long_command_exits_130_with_one_line(tmp_path, monkeypatch, command):
    result = _invoke_raising(monkeypatch, tmp_path, command, KeyboardInterrupt(), LONG_WORK.get(command))
    assert result.exit_code == ExitCode.INTERRUPTED == 130, result.output
    [line] = result.stderr.splitlines()
    assert line.startswith("interrupted"), line
    assert result.stdout == "" and "Traceback" not in result.output


def _compiled_code_interrupted() -> SystemError:
    """Ctrl-C as it comes out of Numba code: SystemErrors ("returned a result with an exception set") over it."""
    inner = SystemError("<function _numba_unpickle> returned a result with an exception set")
    inner.__cause__ = KeyboardInterrupt()
    outer = SystemError("CPUDispatcher(<function search>) returned a result with an exception set")
    outer.__cause__ = inner
    return outer


def _terminating(*args, **kwargs):
    """A library function sent SIGTERM part-way, as ``kill PID`` or ``timeout`` would send it."""
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(5)  # Python runs the handler before the sleep ends
    raise AssertionError("SIGTERM did not stop the command")


@pytest.mark.parametrize("command", ["solve", "run"])
def test_sigterm_stops_a_command_as_ctrl_c_does_and_exits_143(tmp_path, monkeypatch, command):
    module, name, make_args = COMMANDS[command]
    monkeypatch.setattr(importlib.import_module(module), name, _terminating)
    result = invoke(command, *make_args(tmp_path))
    assert result.exit_code == ExitCode.TERMINATED == 143, result.output
    [line] = result.stderr.splitlines()
    assert line.startswith("interrupted"), line
    assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL  # given back once the command ends


def test_sigterm_left_alone_where_the_host_handles_it(tmp_path, monkeypatch):
    """Where SIGTERM is not at its default (a program that embeds the command handles it), it is not taken over."""
    seen = []

    def signalled_then_stopped(*args, **kwargs):
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(0.1)
        raise KeyboardInterrupt

    before = signal.signal(signal.SIGTERM, lambda signum, frame: seen.append(signum))
    try:
        module, name, make_args = COMMANDS["solve"]
        monkeypatch.setattr(importlib.import_module(module), name, signalled_then_stopped)
        result = invoke("solve", *make_args(tmp_path))
        assert signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL
    finally:
        signal.signal(signal.SIGTERM, before)
    assert seen == [signal.SIGTERM]
    assert result.exit_code == ExitCode.INTERRUPTED, result.output  # Ctrl-C's, not SIGTERM's


def test_ctrl_c_inside_compiled_code_exits_130_too(tmp_path, monkeypatch):
    result = _invoke_raising(monkeypatch, tmp_path, "solve", _compiled_code_interrupted())
    assert result.exit_code == 130 and result.stderr.startswith("interrupted: "), result.output
    other = SystemError("a real one")
    result = _invoke_raising(monkeypatch, tmp_path, "solve", other)
    assert result.exit_code == ExitCode.INTERNAL_ERROR == 70, result.output
    assert result.stderr.splitlines()[-2] == "internal error: SystemError: a real one"


@pytest.mark.parametrize("command", COMMANDS)
def test_a_bug_in_blackhole_is_not_called_bad_input(tmp_path, monkeypatch, command):
    """An InternalError (a solution the solver found that the rules reject, say) is this program's bug:
    its traceback, a line that says so, and exit code INTERNAL_ERROR (70), never one ``error:`` line and 1."""
    from pipeline.engine.solver import SolverBug

    bug = SolverBug(
        "this is a bug in blackhole, not in the deal: move 3: 9H from pile 2 does not fit on rank 5"
    )
    target = ("pipeline.engine.solver", "solve") if command == "solve-board" else None
    result = _invoke_raising(monkeypatch, tmp_path, command, bug, target)
    assert result.exit_code == ExitCode.INTERNAL_ERROR == 70, result.output
    assert "Traceback (most recent call last)" in result.stderr and "SolverBug" in result.stderr
    assert result.stderr.rstrip().endswith("please report it with the lines above.")
    assert "internal error: this is a bug in blackhole, not in the deal: move 3: 9H" in result.stderr
    assert "error: " not in result.stderr.replace("internal error: ", "")


def test_ctrl_c_names_what_is_kept(tmp_path, monkeypatch):
    solve = _invoke_raising(monkeypatch, tmp_path, "solve", KeyboardInterrupt())
    assert solve.stderr == f"interrupted: {tmp_path / 'o.parquet'} is left as it was\n"
    run = _invoke_raising(monkeypatch, tmp_path, "run", KeyboardInterrupt())
    assert "interrupted: finished shards are kept in output/work/x;" in run.stderr


# --- start-up: light imports -------------------------------------------------------------------

HEAVY = ("numba", "pyarrow", "ortools", "matplotlib", "joblib")


def _modules_after(code: str) -> str:
    """The last line ``code``, run in a fresh interpreter, prints."""
    found = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert found.returncode == 0, found.stderr
    return found.stdout.splitlines()[-1]


def test_importing_the_cli_loads_no_heavy_module():
    heavy = (*HEAVY, "rich")
    code = f"import pipeline.cli, sys; print(sorted(m for m in {heavy!r} if m in sys.modules))"
    assert _modules_after(code) == "[]"


def test_solve_board_loads_the_solver_alone(tmp_path):
    board = _write_text(tmp_path / "board.txt", WINNABLE)
    code = (
        "import sys\n"
        "from pipeline.cli import app\n"
        f"app(['solve-board', {str(board)!r}], standalone_mode=False)\n"
        f"print(sorted(m for m in {(*HEAVY, 'pandas')!r} if m in sys.modules), 'numba' in sys.modules)\n"
    )
    assert _modules_after(code) == "['numba'] True"


# --- help, README, packaging -------------------------------------------------------------------


def _commands() -> dict:
    return typer.main.get_command(app).commands


def test_no_arguments_shows_help():
    result = invoke()
    assert "Usage" in result.output and "solve-board" in result.output


@pytest.mark.parametrize(
    "name", ["generate", "import", "solve", "crosscheck", "grade", "calibrate", "solve-board", "run"]
)
def test_every_command_has_help(name):
    assert name in _commands()
    assert _commands()[name].help
    assert "Usage" in ok(name, "--help").stdout


def test_every_command_is_in_the_readme():
    assert (ROOT / "README.md").exists(), "README.md is missing"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    missing = [name for name in _commands() if f"blackhole {name}" not in readme]
    assert not missing, f"README.md does not mention: {missing}"


def test_pyproject_matches_the_package():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["version"] == __version__
    assert project["scripts"] == {"blackhole": "pipeline.cli:app"}


def test_a_run_with_jobs_past_the_cpus_is_capped_with_a_note(tmp_path, monkeypatch):
    from joblib import cpu_count

    asked = {}

    def run(config, **options):
        asked["jobs"] = config.jobs
        raise _Disputed("stop here")

    monkeypatch.setattr(importlib.import_module("pipeline.runs"), "run", run)
    config = tmp_path / "smoke.toml"
    config.write_text((ROOT / "configs" / "smoke.toml").read_text(encoding="utf-8"), encoding="utf-8")
    result = invoke("run", "--config", config, "--jobs", 1000)
    note, error = result.stderr.splitlines()
    assert note.startswith(f"note: 1000 jobs capped at {cpu_count()}, ")
    assert error == "error: stop here" and asked == {"jobs": 1000}
    assert invoke("run", "--config", config, "--jobs", 1025).exit_code == 2


# --- usage and choices: what --help promises ---------------------------------------------------


def _help(command: str) -> str:
    """``blackhole COMMAND --help`` on a terminal wide enough that no choice list is wrapped."""
    shown = CliRunner().invoke(app, [command, "--help"], env={"COLUMNS": "400"})
    assert shown.exit_code == 0, shown.output
    return shown.stdout


@pytest.mark.parametrize("command", ["export", "gallery", "report", "curate"])
def test_a_pack_folder_argument_is_shown_as_pack(command):
    shown = _help(command)
    assert f"blackhole {command} [OPTIONS] {{PACK}}" in shown and "{pack}" not in shown


@pytest.mark.parametrize("command", ["export", "gallery"])
def test_tier_choices_are_listed_and_others_refused_as_usage(command, tmp_path):
    assert "easy|medium|hard|expert|unsolvable|ungraded" in _help(command)
    extra = (
        ["--format", "json", "--out", tmp_path / "o.json"]
        if command == "export"
        else ["--out", tmp_path / "g"]
    )
    refused = invoke(command, tmp_path / "pack", "--tier", "impossible", *extra)
    assert refused.exit_code == ExitCode.USAGE and "impossible" in refused.stderr
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize(
    ("command", "choices"),
    [
        ("generate", "seed|pysol"),
        ("run", "loky|dask"),
        ("curate", "difficulty|pack"),
        ("export", "json|jsonl|boards|csv"),
    ],
)
def test_every_closed_set_option_lists_its_choices(command, choices):
    assert choices in _help(command)
