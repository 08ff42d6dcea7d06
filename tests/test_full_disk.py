"""A full disk, for real: every command that writes, run against a small tmpfs, says which file or folder it
could not write and that the disk is full, in one line, and leaves the disk as it was; a run stopped by a
full disk resumes on a roomy one to the pack of a run never stopped, byte for byte.

The tmpfs is mounted by ``tests/support/small_disk.py`` in a process of its own: directly as root, else in
a mount namespace of its own (``unshare -rm``). Where neither works, the tests skip and say why.
"""

from __future__ import annotations

import errno
import hashlib
import json
import pickle
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

from pipeline.cli import _os_error_line
from pipeline.files import WriteError, naming_write_errors
from pipeline.game.players import Player
from tests.plays.making import bot_deals, document, solvable, write
from tests.support.small_disk import command

ROOT = Path(__file__).parents[1]
BLACKHOLE = Path(sys.executable).parent / "blackhole"
TIERS = ROOT / "pipeline" / "stages" / "tiers.toml"
FULL = "the disk is full (ENOSPC: No space left on device)"


@contextmanager
def scratch() -> Iterator[Path]:
    """A folder of its own in the system's temporary folder, deleted after: not under pytest's, where another
    pytest session's clean-up could rename it, mount and all, while the small disk is mounted there."""
    folder = Path(tempfile.mkdtemp(prefix="blackhole-small-disk-"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def small_disk_session(folder: Path, steps: list[dict[str, Any]], *, size: str = "1m") -> dict[str, Any]:
    """The records of ``steps`` carried out against a tmpfs mounted on ``folder / "disk"``, by name."""
    plan, result = folder / "plan.json", folder / "result.json"
    plan.write_text(json.dumps({"disk": str(folder / "disk"), "size": size, "steps": steps}))
    how = command(plan, result)
    if isinstance(how, str):
        pytest.skip(how)
    done = subprocess.run(how, cwd=ROOT, capture_output=True, text=True, timeout=300)
    if not result.exists():
        if how[0] == "unshare":
            pytest.skip(f"unshare -rm cannot make a mount namespace here: {done.stderr.strip()}")
        raise AssertionError(f"the small disk's driver failed:\n{done.stderr}")
    found = json.loads(result.read_text())
    if "skip" in found:
        pytest.skip(found["skip"])
    assert found.get("done"), f"the small disk's driver stopped part-way:\n{done.stderr}"
    for record in found["records"]:
        assert record["exception"] is None if "exception" in record else True, record
    return {record["name"]: record for record in found["records"]}


def cli(name: str, *args: object, mounted: bool = True) -> dict[str, Any]:
    return {"do": "cli", "name": name, "args": [str(arg) for arg in args], "mounted": mounted}


def free(size: int) -> dict[str, Any]:
    return {"do": "free", "bytes": size}


def _commands(disk: Path, inputs: Path, pack: Path) -> list[tuple[str, Path, int, list[object]]]:
    """Each command that writes: its name, the destination it must name, the room that is too little for
    it, and its arguments."""
    boards = ROOT / "tests" / "data" / "seed-1-first.txt"
    deals, solved, plays = inputs / "deals.parquet", inputs / "solved.parquet", inputs / "plays.json"
    at = disk.joinpath
    return [
        ("generate", at("generate", "deals.parquet"), 64 << 10, ["generate", "-n", 3000, "--seed", 1, "-o"]),
        ("import", at("import", "deals.parquet"), 0, ["import", boards, "-o"]),
        ("solve", at("solve", "solved.parquet"), 0, ["solve", deals, "-o"]),
        ("crosscheck", at("crosscheck", "checked.parquet"), 0, ["crosscheck", solved, "-o"]),
        ("grade", at("grade", "graded.parquet"), 0, ["grade", solved, "-o"]),
        ("export", at("export", "deals.json"), 4 << 10, ["export", pack, "-f", "json", "-o"]),
        ("plays import", at("plays", "PLAYS.parquet"), 0, ["plays", "import", plays, "--pack", pack, "-o"]),
        ("show --png", at("show", "deal.png"), 4 << 10, ["show", "seed-77-0", "--pack", pack, "--png"]),
        ("gallery", at("gallery", "site"), 16 << 10, ["gallery", pack, "-o"]),
        ("report --charts", at("report", "charts"), 0, ["report", pack, "--charts"]),
    ]


COMMANDS = [
    "generate",
    "import",
    "solve",
    "crosscheck",
    "grade",
    "export",
    "plays import",
    "show --png",
    "gallery",
    "report --charts",
    "curate",
]


@pytest.fixture(scope="module")
def commands(pack: Path, pack_rows: pa.Table) -> Iterator[dict[str, Any]]:
    """Each writing command's record on a disk with too little room for its output (by name, with the
    destination it must name), the worker processes' record, and a command's on a read-only disk."""
    with scratch() as folder:
        yield _commands_on_a_small_disk(folder, pack, pack_rows)


def _commands_on_a_small_disk(folder: Path, pack: Path, pack_rows: pa.Table) -> dict[str, Any]:
    disk, inputs = folder / "disk", folder / "inputs"
    disk.mkdir()
    inputs.mkdir()
    deals = inputs / "deals.parquet"
    write(inputs / "plays.json", document(bot_deals(solvable(pack_rows)[:2], Player.RANDOM, 1, seed=1)))
    steps = [
        cli("setup generate", "generate", "-n", 3, "--seed", 77, "-o", deals, "-q", mounted=False),
        cli("setup solve", "solve", deals, "-o", inputs / "solved.parquet", "-q", mounted=False),
        {"do": "write", "path": "export/deals.json", "text": "the export before\n"},
    ]
    destinations = {}
    for name, destination, room, args in _commands(disk, inputs, pack):
        destinations[name] = destination
        steps += [
            {"do": "mkdir", "path": str(destination.parent.relative_to(disk))},
            free(room),
            cli(name, *args, destination, "-q"),
        ]
    curated = disk / "curate" / "packs" / "c"  # curate writes beside its pack: the pack is on the disk
    destinations["curate"] = curated
    steps += [
        free(1 << 20),
        {"do": "copy", "source": str(pack), "path": "curate/packs/p"},
        free(0),
        cli("curate", "curate", curated.with_name("p"), "--name", "c", "-q"),
        {"do": "mkdir", "path": "stdin"},
        free(0),
        cli("stdin", "import", "-", "-o", inputs / "from-stdin.parquet", "-q")
        | {
            "stdin": (ROOT / "tests" / "data" / "seed-1-first.txt").read_text() * 4,
            "temporary": str(disk / "stdin"),
        },
        {"do": "mkdir", "path": "cache"},
        {
            "do": "process",
            "name": "engine cache",
            "args": [str(BLACKHOLE), "solve", str(deals), "-o", str(inputs / "again.parquet"), "-q"],
            "environment": {"NUMBA_CACHE_DIR": str(disk / "cache")},  # empty: the engine is compiled there
        },
        {"do": "mkdir", "path": "workers"},
        {"do": "workers", "name": "workers", "path": "workers", "bytes": 64 << 10},
        {"do": "remount", "options": "ro"},
        cli("read-only", "export", pack, "-f", "json", "-o", disk / "export" / "new.json", "-q"),
    ]
    records = small_disk_session(folder, steps)
    for name in ("setup generate", "setup solve"):
        assert records[name]["exit_code"] == 0, records[name]
    return {"records": records, "destinations": destinations, "disk": disk}


def error_lines(record: dict[str, Any]) -> list[str]:
    return record["stderr"].splitlines()


@pytest.mark.parametrize("name", COMMANDS)
def test_a_full_disk_is_named_in_one_line_and_leaves_the_disk_as_it_was(commands, name):
    record, destination = commands["records"][name], commands["destinations"][name]
    assert (record["exit_code"], record["exception"]) == (1, None), record
    [line] = error_lines(record)
    if name == "report --charts":  # a folder of charts, each written whole: the line names the chart
        assert line.startswith(f"error: {destination}/") and line.endswith(".png: could not write: " + FULL)
    else:
        assert line == f"error: {destination}: could not write: {FULL}"
    assert record["after"] == record["before"]  # nothing half-written, no staging file: the old export stays


def test_a_write_in_a_worker_process_names_its_file(commands):
    """The worker whose write failed leaves nothing. joblib then kills the other worker, perhaps part-way
    through its write: that write may leave its hidden staging file, as any killed write may, and nothing else."""
    record = commands["records"]["workers"]
    assert record["error_type"] == "WriteError"
    folder = commands["disk"] / "workers"
    failed = {
        number
        for number in (0, 1)
        if record["error"] == f"{folder / f'worker-{number}.bin'}: could not write: {FULL}"
    }
    assert len(failed) == 1, record["error"]
    [stopped] = {0, 1} - failed
    before, after = record["before"], record["after"]
    assert {name: after.get(name) for name in before} == before
    for name in set(after) - set(before):
        assert re.fullmatch(rf"workers/\.worker-{stopped}\.bin\.tmp-\d+", name), name


def test_a_copy_of_standard_input_that_does_not_fit_names_the_temporary_folder(commands):
    record = commands["records"]["stdin"]
    assert (record["exit_code"], record["exception"]) == (1, None), record
    assert error_lines(record) == [f"error: {commands['disk'] / 'stdin'}: could not write: {FULL}"]
    assert record["after"] == record["before"]


def test_a_compiled_engine_that_cannot_be_cached_names_the_cache_folder(commands):
    """Numba's own error names no file: its cache folder is named instead (workers do the same)."""
    record = commands["records"]["engine cache"]
    [line] = error_lines(record)[-1:]
    assert record["exit_code"] == 1, record["stderr"]
    assert line.startswith(f"error: {commands['disk'] / 'cache'}/") and line.endswith(
        f": could not write: {FULL}"
    )
    assert not (commands["disk"].parent / "inputs" / "again.parquet").exists()


def test_a_read_only_disk_is_named_and_said(commands):
    record = commands["records"]["read-only"]
    assert (record["exit_code"], record["exception"]) == (1, None), record
    destination = commands["disk"] / "export" / "new.json"
    assert error_lines(record) == [
        f"error: {destination}: could not write: the disk is read-only (EROFS: Read-only file system)"
    ]
    assert record["after"] == record["before"]


RUN = """
[run]
name = "s"
seed = 77
count = 3
shard_size = 1
jobs = 1
output = "{output}"

[crosscheck]
sample = 0.0

[grade]
max_positions = 2000000
tiers = "{tiers}"
"""


def run_config(folder: Path, output: Path) -> Path:
    """A run of 3 deals in 3 shards, writing into ``output``."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "run.toml"
    path.write_text(RUN.format(output=output, tiers=TIERS))
    return path


@pytest.mark.slow
def test_a_run_stopped_by_a_full_disk_resumes_on_a_roomy_one_to_the_pack_of_a_run_never_stopped():
    with scratch() as folder:
        _run_on_a_small_disk(folder)


def _run_on_a_small_disk(tmp_path: Path) -> None:
    disk = tmp_path / "disk"
    disk.mkdir()
    output = disk / "run" / "output"
    never_stopped = run_config(tmp_path / "reference", tmp_path / "reference" / "output")
    config = run_config(tmp_path / "config", output)
    records = small_disk_session(
        tmp_path,
        [
            cli("never stopped", "run", "-c", never_stopped, "-q", mounted=False),
            {"do": "mkdir", "path": "run"},
            free(0),
            cli("no room for the lock", "run", "-c", config, "-q"),
            free(44 << 10),  # the lock, run.json and two shards of about 15 kB: not the third
            cli("full", "run", "-c", config, "-q"),
            {"do": "remount", "options": "size=8m"},
            cli("roomy", "run", "-c", config, "-q"),
        ],
    )
    assert records["never stopped"]["exit_code"] == 0, records["never stopped"]
    locked = records["no room for the lock"]
    assert (locked["exit_code"], error_lines(locked)) == (
        1,
        [f"error: {output}/locks/s.lock: could not write: {FULL}"],
    )
    assert locked["after"] == locked["before"]  # the lock file and its folder deleted again
    full = records["full"]
    assert (full["exit_code"], full["exception"]) == (1, None), full
    [line] = error_lines(full)
    assert line.startswith(f"error: {output}/work/s/shard-") and line.endswith(
        f".parquet: could not write: {FULL}"
    )
    left = full["after"]
    assert not [name for name in left if any(part.startswith(".") for part in Path(name).parts)]  # no staging
    assert not [name for name in left if name.startswith(("run/output/packs", "run/output/locks"))]
    assert [name for name in left if name.startswith("run/output/work/s/shard-")]  # kept, to resume from

    roomy = records["roomy"]
    assert (roomy["exit_code"], roomy["exception"]) == (0, None), roomy
    packs = tmp_path / "reference" / "output" / "packs"
    expected = {
        str(path.relative_to(packs)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in packs.rglob("*")
        if path.is_file()
    }
    resumed = {
        name.removeprefix("run/output/packs/"): digest
        for name, digest in roomy["after"].items()
        if name.startswith("run/output/packs/") and digest != "folder"
    }
    assert resumed == expected and expected


def test_a_write_error_comes_back_whole_from_a_worker_process():
    error = WriteError(Path("out/deals.parquet"), OSError(errno.ENOSPC, "No space left on device"))
    again = pickle.loads(pickle.dumps(error))
    assert (type(again), str(again), again.destination) == (WriteError, str(error), error.destination)


@pytest.mark.parametrize(
    "raised",
    [
        OSError(errno.EFBIG, "File too large"),  # write and fsync name no file
        OSError(errno.EROFS, "Read-only file system", "out/.deals.parquet.tmp-1"),
        OSError(errno.EACCES, "Permission denied", "out/deals.parquet"),
        WriteError(Path("out/.deals.parquet.tmp-1"), OSError(errno.EFBIG, "File too large")),
    ],
)
def test_a_write_error_names_the_destination_never_the_staged_file(raised):
    with pytest.raises(WriteError) as caught:
        with naming_write_errors(Path("out/deals.parquet"), Path("out/.deals.parquet.tmp-1")):
            raise raised
    assert str(caught.value).startswith("out/deals.parquet: could not write: ")


@pytest.mark.parametrize(
    "raised",
    [
        FileNotFoundError(errno.ENOENT, "No such file or directory", "in/boards.txt"),  # a reader's
        OSError(errno.EIO, "Input/output error", "in/pack/part-0.parquet"),
        OSError(errno.ENOENT, "No such file or directory"),
        BrokenPipeError(errno.EPIPE, "Broken pipe"),  # a reader gone: exit 141, not a write's fault
    ],
)
def test_other_errors_pass_unchanged(raised):
    with pytest.raises(type(raised)) as caught:
        with naming_write_errors(Path("out/deals.parquet"), Path("out/.deals.parquet.tmp-1")):
            raise raised
    assert caught.value is raised


def test_a_full_disk_elsewhere_is_not_taken_for_the_destinations(tmp_path):
    """Work inside a write may write elsewhere (Numba's cache): a full disk that names no file is the
    destination's only when the destination's disk is nearly full (it is not, under tmp_path)."""
    raised = OSError(errno.ENOSPC, "No space left on device")
    with pytest.raises(OSError) as caught:
        with naming_write_errors(tmp_path / "deals.parquet", tmp_path / ".deals.parquet.tmp-1"):
            raise raised
    assert caught.value is raised


def test_the_command_line_says_a_full_disk_in_words_when_the_system_names_the_file():
    assert _os_error_line(OSError(errno.ENOSPC, "No space left on device", "out/x")) == (
        "out/x: could not write: the disk is full (ENOSPC: No space left on device)"
    )
    assert _os_error_line(FileNotFoundError(errno.ENOENT, "No such file or directory", "in/x")) == (
        "in/x: No such file or directory"
    )


def test_a_failed_write_closes_its_file_and_leaves_no_staged_file(tmp_path, monkeypatch):
    from pipeline.packs import parquet

    table = pa.table({"n": list(range(10))})
    opened = []
    real_open = open

    def tracked(*args, **kwargs):
        file = real_open(*args, **kwargs)
        opened.append(file)
        return file

    monkeypatch.setattr("builtins.open", tracked)
    with pytest.raises(WriteError, match=r"^.*out\.parquet: could not write: the file is too large"):
        with parquet.writing_pack_file(tmp_path / "out.parquet") as write:
            write(table)
            raise OSError(errno.EFBIG, "File too large")
    assert opened and all(file.closed for file in opened)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(
    not Path("/dev/full").exists(), reason="no /dev/full, whose every write fails as a full disk"
)
def test_a_full_disk_behind_standard_output_is_named_so(pack):
    with open("/dev/full", "wb") as full:
        done = subprocess.run(
            [BLACKHOLE, "export", pack, "-f", "json", "-o", "-", "-q"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
        )
    assert (done.returncode, done.stderr.splitlines()) == (
        1,
        [f"error: standard output: could not write: {FULL}"],
    )
