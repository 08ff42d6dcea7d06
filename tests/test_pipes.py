"""Pipes and the command line's paper cuts: ``-`` for standard input and output, JSON Lines, ``report --json``,
a pack file where a pack folder was asked for, ``show`` without ``--png``, ``--version``, plain help text,
a bad ``--set`` as a usage error, and "1 deal".

Each runs through CliRunner and, where a pipe is the point, through real processes joined by a pipe.
"""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from pipeline import __version__
from pipeline.cli import app
from pipeline.errors import ExitCode
from pipeline.game.deal import Deal
from pipeline.game.shuffles import pysol_deal
from pipeline.packs.folders import read_pack_folder
from pipeline.packs.parquet import read_pack_file
from pipeline.packs.schema import DEALS_SCHEMA, SOLVED_SCHEMA
from pipeline.reports import charts
from pipeline.tally import describe_pack

BLACKHOLE = Path(sys.executable).parent / "blackhole"


def invoke(*args, input: str | None = None):
    return CliRunner().invoke(app, [str(arg) for arg in args], input=input)


def ok(*args, input: str | None = None):
    result = invoke(*args, input=input)
    assert result.exit_code == 0, result.output
    return result


def one_error(result, code: int = 1) -> str:
    """The one ``error:`` line of a failed command, once it exited ``code`` and wrote nothing on stdout."""
    assert result.exit_code == code, result.output
    [line] = result.stderr.splitlines()
    assert line.startswith("error: "), line
    assert result.stdout == ""
    return line


def shell(command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run ``command`` in bash (``pipefail`` on), ``blackhole`` being this environment's."""
    script = f"set -o pipefail; blackhole() {{ '{BLACKHOLE}' \"$@\"; }}; {command}"
    return subprocess.run(["bash", "-c", script], cwd=cwd, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def graded_file(tmp_path_factory, pack_rows) -> Path:
    """The same 20 deals as one pack file, as ``grade`` writes one."""
    path = tmp_path_factory.mktemp("files") / "graded.parquet"
    pq.write_table(pack_rows, path)
    return path


@pytest.fixture(scope="module")
def solved_file(tmp_path_factory, pack_rows) -> Path:
    """The 20 deals solved, not graded: a pack file as ``solve`` writes one."""
    path = tmp_path_factory.mktemp("files") / "solved.parquet"
    pq.write_table(
        pack_rows.select(SOLVED_SCHEMA.names).replace_schema_metadata(pack_rows.schema.metadata), path
    )
    return path


# ---- export: -, jsonl, pack files ----


def test_export_jsonl_to_standard_output_is_one_deal_a_line(pack):
    result = ok("export", pack, "--format", "jsonl", "--out", "-")
    lines = result.stdout.splitlines()
    deals = [json.loads(line) for line in lines]
    ordered = read_pack_folder(pack, columns=["deal_id"]).column("deal_id").to_pylist()
    assert [deal["deal_id"] for deal in deals] == ordered
    assert result.stderr == "wrote 20 deals to standard output\n"


def test_jsonl_holds_the_deals_of_json(pack, tmp_path):
    ok("export", pack, "-f", "json", "-o", tmp_path / "d.json")
    ok("export", pack, "-f", "jsonl", "-o", tmp_path / "d.jsonl")
    whole = json.loads((tmp_path / "d.json").read_text())["deals"]
    lines = (tmp_path / "d.jsonl").read_text().splitlines()
    assert [json.loads(line) for line in lines] == whole


@pytest.mark.parametrize("fmt", ["json", "jsonl", "boards", "csv"])
def test_export_to_standard_output_writes_what_the_file_holds(pack, tmp_path, fmt):
    ok("export", pack, "-f", fmt, "-o", tmp_path / "file", "--quiet")
    streamed = ok("export", pack, "-f", fmt, "-o", "-", "--quiet")
    assert streamed.stdout == (tmp_path / "file").read_text(encoding="utf-8")
    assert streamed.stderr == ""


def test_one_deal_is_one_deal(pack):
    result = ok("export", pack, "-f", "csv", "-o", "-", "--limit", "1")
    assert len(list(csv.reader(io.StringIO(result.stdout)))) == 2
    assert result.stderr == "wrote 1 deal to standard output\n"


def test_export_reads_a_pack_file_in_file_order(graded_file, pack_rows):
    result = ok("export", graded_file, "-f", "jsonl", "-o", "-")
    deals = [json.loads(line) for line in result.stdout.splitlines()]
    assert [deal["deal_id"] for deal in deals] == pack_rows.column("deal_id").to_pylist()
    assert [deal["tier"] for deal in deals] == pack_rows.column("tier").to_pylist()
    hard = ok("export", graded_file, "-f", "boards", "-o", "-", "--tier", "hard", "--quiet").stdout
    expected = [row["board"] for row in pack_rows.to_pylist() if row["tier"] == "hard"]
    assert hard == "\n".join(expected)


def test_export_of_a_deals_file_exports_its_boards_with_null_grades(tmp_path):
    deals = tmp_path / "d.parquet"
    ok("generate", "--seed", 3, "-n", 2, "--out", deals)
    result = ok("export", deals, "-f", "jsonl", "-o", "-", "--quiet")
    first = json.loads(result.stdout.splitlines()[0])
    assert first["deal_id"] == "seed-3-0" and first["verdict"] is None and first["tier"] is None
    assert first["solution"] == []


def test_a_pack_file_s_game_is_checked(graded_file):
    line = one_error(invoke("export", graded_file, "-f", "csv", "-o", "-", "--game", "golf"))
    assert "graded.parquet" in line


@pytest.mark.parametrize("out", ["-", "/dev/stdout"])
def test_a_file_written_whole_is_not_written_to_standard_output(tmp_path, out):
    line = one_error(invoke("generate", "--seed", 1, "-n", 1, "--out", out))
    assert (
        line == f"error: {out}: standard output; this file is written whole, not streamed: give a file path"
    )


# ---- import -, plays import - ----


def test_import_reads_standard_input(tmp_path):
    boards = "\n".join(pysol_deal(number).to_board_text() for number in (1, 2, 3))
    result = ok("import", "-", "--out", tmp_path / "i.parquet", input=boards)
    assert result.stderr == f"wrote 3 deals to {tmp_path / 'i.parquet'}\n"
    table = read_pack_file(tmp_path / "i.parquet", DEALS_SCHEMA)
    assert table.column("board").to_pylist() == [pysol_deal(n).to_board_text() for n in (1, 2, 3)]


def test_import_names_standard_input_in_its_errors(tmp_path):
    board = pysol_deal(1).to_board_text()
    line = one_error(invoke("import", "-", "-o", tmp_path / "i.parquet", input=board + "\n" + board))
    assert line == "error: <stdin>:20: this board repeats the board on line 1"
    line = one_error(invoke("import", "-", "-o", tmp_path / "i.parquet", input="Foundations: AS\nXX\n"))
    assert line.startswith("error: <stdin>:2: ")
    assert one_error(invoke("import", "-", "-o", tmp_path / "i.parquet", input="")).startswith(
        "error: <stdin>: no board found"
    )
    assert not (tmp_path / "i.parquet").exists()


def test_one_board_imports_as_one_deal(tmp_path):
    result = ok("import", "-", "-o", tmp_path / "i.parquet", input=pysol_deal(5).to_board_text())
    assert result.stderr.startswith("wrote 1 deal to ")


# ---- report --json, report of a pack file ----


def test_report_json_is_one_object_of_the_pack_s_description(pack, pack_rows, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = ok("report", pack, "--json")
    [line] = result.stdout.splitlines()
    document = json.loads(line)
    described = describe_pack(pack_rows)
    assert list(document) == [
        "deals",
        "verdicts",
        "win_rate",
        "tiers",
        "thresholds",
        "statuses",
        "metrics",
        "players",
    ]
    assert document["deals"] == 20
    assert document["verdicts"] == described.verdicts and document["tiers"] == described.tiers
    assert document["statuses"] == described.statuses
    assert document["win_rate"]["rate"] == described.win_rate.rate
    assert document["win_rate"]["published_inside"] in (True, False)
    assert list(document["thresholds"]) == ["player", "figure", "medium", "hard", "expert"]
    assert document["metrics"]["difficulty"]["median"] == described.metrics["difficulty"].median
    assert list(document["players"]) == ["easy", "medium", "hard", "expert"]
    assert list(document["players"]["easy"]["tips"]["win_probability"]) == [
        "count",
        "min",
        "q1",
        "median",
        "q3",
        "max",
    ]
    assert result.stderr == ""
    assert not (pack.parent.parent / "reports").exists(), "--json draws no charts unless --charts is given"


def test_report_json_draws_charts_when_asked(pack, tmp_path):
    result = ok("report", pack, "--json", "--charts", tmp_path / "c")
    json.loads(result.stdout)
    assert sorted(path.name for path in (tmp_path / "c").iterdir()) == sorted(
        path.name for path in charts.chart_paths(tmp_path / "c")
    )


def test_report_json_and_plays_is_a_usage_error(pack, tmp_path):
    result = invoke("report", pack, "--json", "--plays", tmp_path / "PLAYS.parquet")
    assert result.exit_code == ExitCode.USAGE, result.output


def test_report_of_a_graded_pack_file_says_what_the_folder_says(pack, graded_file):
    from_file = json.loads(ok("report", graded_file, "--json").stdout)
    from_folder = json.loads(ok("report", pack, "--json").stdout)
    assert from_file == from_folder


def test_report_of_a_pack_file_draws_its_charts_beside_it(graded_file):
    result = ok("report", graded_file)
    assert "Verdicts of 20 deals" in result.stdout
    folder = graded_file.with_name("graded-charts")
    assert result.stderr == f"wrote {' and '.join(map(str, charts.chart_paths(folder)))}\n"


def test_report_of_a_solved_file_says_it_is_not_graded(solved_file):
    result = ok("report", solved_file, "--json")
    document = json.loads(result.stdout)
    assert document["tiers"]["ungraded"] == 20 and sum(document["statuses"].values()) == 0
    assert document["metrics"]["difficulty"]["count"] == 0
    assert sum(document["verdicts"].values()) == 20
    assert result.stderr.startswith(f"{solved_file}: not graded: every deal counts as ungraded")


def test_report_of_a_deals_file_says_it_needs_verdicts(tmp_path):
    deals = tmp_path / "d.parquet"
    ok("generate", "--seed", 1, "-n", 2, "--out", deals, "--quiet")
    line = one_error(invoke("report", deals))
    assert line == f"error: {deals}: no verdicts (a deals pack file): blackhole solve it before a report"


# ---- show, --version, help, --set, curate --name ----


def test_show_prints_the_board_without_a_picture(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = ok("show", "pysol-1")
    assert result.stdout == pysol_deal(1).to_board_text()
    assert len(result.stdout.splitlines()) == 18
    assert result.stderr == "" and not any(tmp_path.iterdir())


def test_show_refuses_a_device_for_its_picture_in_one_line():
    line = one_error(invoke("show", "pysol-1", "--png", "/dev/null"))
    assert line == "error: /dev/null: not a regular file (a folder, device or pipe); refusing to replace it"


def test_version():
    assert ok("--version").stdout == f"blackhole {__version__}\n"


def _commands(group=app):
    import typer.main

    command = typer.main.get_command(group)
    yield []
    for name, sub in getattr(command, "commands", {}).items():
        yield [name]
        for subname in getattr(sub, "commands", {}):
            yield [name, subname]


@pytest.mark.parametrize("command", list(_commands()), ids=lambda c: " ".join(c) or "blackhole")
def test_help_is_plain_text_without_bool_metavars(command):
    text = ok(*command, "--help").stdout
    assert "<bool>" not in text
    assert "╭" not in text


def test_run_help_shows_the_section_names():
    text = ok("run", "--help").stdout
    assert "Override [run] jobs" in " ".join(text.split())


@pytest.mark.parametrize("setting", ["run.count=abc", "run.cuont=3", "run.count", "crosscheck.sample=2"])
def test_a_bad_set_is_a_usage_error(tmp_path, setting):
    config = tmp_path / "c.toml"
    config.write_text('[run]\nname = "x"\nseed = 1\ncount = 2\n')
    line = one_error(invoke("run", "--config", config, "--set", setting), code=ExitCode.USAGE)
    assert line.startswith(f"error: --set {setting}: ")


def test_curate_takes_the_name_as_name_or_out(pack):
    for flag in ("--name", "--out", "-o"):
        result = ok("curate", pack, flag, "best", "--quiet")
        assert result.stdout.startswith(f"curated pack {pack.parent / 'best'}: ")


# ---- through real pipes ----


def test_jsonl_through_a_pipe_to_head(pack, tmp_path):
    done = shell(f"blackhole export '{pack}' --format jsonl --out - -q | head -1", tmp_path)
    first = read_pack_folder(pack, columns=["deal_id"]).column("deal_id")[0].as_py()
    assert json.loads(done.stdout)["deal_id"] == first


def test_a_reader_that_stops_early_ends_the_export_quietly(tmp_path):
    """2,000 deals of JSON Lines are more than a pipe holds: ``head -1`` closes it while export writes."""
    command = (
        "blackhole generate --seed 1 -n 2000 --out d.parquet -q && "
        "blackhole export d.parquet -f jsonl -o - 2>err.txt | head -1; "
        'echo "${PIPESTATUS[0]}"'
    )
    done = shell(command, tmp_path)
    first, status = done.stdout.splitlines()
    assert json.loads(first)["deal_id"] == "seed-1-0"
    assert int(status) == ExitCode.BROKEN_PIPE
    assert (tmp_path / "err.txt").read_text() == ""


def test_a_report_whose_reader_is_gone_ends_quietly(pack, tmp_path):
    """``true`` reads nothing and is gone long before the report is ready to print its tables."""
    done = shell(f"blackhole report '{pack}' -q 2>err.txt | true; " + 'echo "${PIPESTATUS[0]}"', tmp_path)
    assert int(done.stdout) == ExitCode.BROKEN_PIPE
    assert (tmp_path / "err.txt").read_text() == ""


def test_boards_through_a_pipe_into_import(tmp_path):
    command = (
        "blackhole generate --seed 5 -n 3 --out d.parquet -q && "
        "blackhole export d.parquet -f boards -o - -q | blackhole import - --out i.parquet"
    )
    done = shell(command, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stderr == "wrote 3 deals to i.parquet\n"
    boards = read_pack_file(tmp_path / "i.parquet", DEALS_SCHEMA).column("board").to_pylist()
    dealt = read_pack_file(tmp_path / "d.parquet", DEALS_SCHEMA).column("board").to_pylist()
    assert [Deal.from_board_text(board) for board in boards] == [Deal.from_board_text(b) for b in dealt]


def test_export_to_dev_stdout_streams(tmp_path):
    command = "blackhole generate --seed 2 -n 2 -o d.parquet -q && blackhole export d.parquet -f boards -o /dev/stdout | cat"
    done = shell(command, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Foundations: AS\n")
    assert done.stderr == "wrote 2 deals to standard output\n"
    assert not (tmp_path / "dev").exists()


def test_the_paper_cuts_through_a_shell(tmp_path):
    assert shell("blackhole --version", tmp_path).stdout == f"blackhole {__version__}\n"
    assert shell("blackhole show pysol-1 | wc -l", tmp_path).stdout.strip() == "18"
    (tmp_path / "c.toml").write_text('[run]\nname = "x"\nseed = 1\ncount = 2\n')
    bad = shell("blackhole run -c c.toml --set run.count=abc", tmp_path)
    assert bad.returncode == ExitCode.USAGE, bad.stderr
    assert "[run]" in shell("blackhole run --help", tmp_path).stdout


def test_the_command_list_gives_each_command_s_first_sentence_whole():
    listed = ok("--help").stdout.split("Commands:")[1]
    text = " ".join(listed.split())
    assert (
        "generate Deal COUNT deals of a game into a deals pack file: seeded shuffles or PySol FC's numbered deals."
        in text
    )
    assert "..." not in listed
