"""Whole runs: the pack folder, its manifest, determinism, resuming after a kill, the Dask backend."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.config import load_config
from pipeline.errors import ExitCode
from pipeline.files import DestinationError
from pipeline.game.shuffles import PYSOL_SCHEME
from pipeline.game.stats import win_rate
from pipeline.locks import Holder, holding
from pipeline.packs.folders import pack_dataset, read_pack_folder, sha256_of
from pipeline.packs.labels import PACK_TIERS
from pipeline.packs.manifest import read_manifest
from pipeline.packs.parquet import PackError, read_pack_file
from pipeline.packs.sources import pysol_deals, seeded_deals
from pipeline.runs import WORK_RECORD, RunError, run, run_lock
from pipeline.stages.sampling import graded
from pipeline.stages.settings import DEFAULT_TIERS

ROOT = Path(__file__).parents[1]
BLACKHOLE = Path(sys.executable).parent / "blackhole"
SEED = 20261129

# 12 deals in 4 shards; the small grading budget leaves some deals ungraded, and the
# quotas cannot all be met: every kind of row and folder a pack can have.
CONFIG = f"""
[run]
name = "t"
seed = {SEED}
count = 12
shard_size = 3
jobs = 2
output = "{{output}}"

[crosscheck]
sample = 0.25

[grade]
max_positions = 2000000
tiers = "{ROOT / "pipeline" / "stages" / "tiers.toml"}"

[curate]
per_tier = {{ easy = 2, medium = 2, hard = 2, expert = 2 }}
"""


def config_file(folder: Path) -> Path:
    """A run config writing into ``folder/output``."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "run.toml"
    path.write_text(CONFIG.replace("{output}", str(folder / "output")))
    return path


def pack_bytes(output: Path) -> dict[str, bytes]:
    """Every file of both packs under ``output/packs``, by relative path."""
    packs = output / "packs"
    return {str(p.relative_to(packs)): p.read_bytes() for p in sorted(packs.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """An uninterrupted run with two loky workers: its outcome and the bytes of its packs."""
    folder = tmp_path_factory.mktemp("reference")
    outcome = run(load_config(config_file(folder)))
    return outcome, pack_bytes(folder / "output")


def test_the_pack_folder_is_partitioned_by_tier_with_a_manifest(finished):
    outcome, files = finished
    manifest = outcome.manifest
    assert sorted(files) == sorted(
        ["t/_manifest.json"]
        + [f"t/{entry.path}" for entry in manifest.files]
        + ["t-curated/_manifest.json"]
        + [f"t-curated/{entry.path}" for entry in outcome.curated_manifest.files]
    )
    assert [entry.tier for entry in manifest.files] == [tier for tier in PACK_TIERS if manifest.tiers[tier]]
    assert manifest.tiers["ungraded"] > 0  # the small budget left some deals without a tier
    for entry in manifest.files:
        path = outcome.pack / entry.path
        assert entry.path == f"tier={entry.tier}/part-0.parquet"
        assert entry.sha256 == sha256_of(path)
        parquet = pq.ParquetFile(path)
        assert parquet.metadata.num_rows == entry.rows
        assert parquet.metadata.row_group(0).column(0).compression == "ZSTD"
        assert "tier" not in parquet.schema_arrow.names
        provenance = parquet.schema_arrow.metadata
        assert json.loads(provenance[b"blackhole_config"]) == manifest.origin.config
        assert provenance[b"dealing_scheme"] == b"blackhole-sha256-v1"
        assert provenance[b"grade_max_positions"] == b"2000000"
        assert provenance[b"grade_max_memory_mib"] == b"1024"
    assert manifest.origin.config["grade"]["tiers"] is None  # the packaged tiers: no path of this machine


def test_the_manifest_counts_what_pyarrow_and_duckdb_read(finished):
    outcome, _ = finished
    manifest = outcome.manifest
    table = pack_dataset(outcome.pack).to_table()
    assert table.num_rows == manifest.deals == 12
    assert sorted(table.column("deal_id").to_pylist()) == sorted(f"seed-{SEED}-{i}" for i in range(12))
    for tier in PACK_TIERS:
        assert (pc.sum(pc.equal(table.column("tier"), tier)).as_py() or 0) == manifest.tiers[tier]
    verdicts = table.column("verdict").to_pylist()
    assert {v: verdicts.count(v) for v in manifest.verdicts} == manifest.verdicts
    rate = win_rate(solved=verdicts.count("solved"), unsolvable=verdicts.count("unsolvable"), unknown=0)
    assert manifest.win_rate.low == rate.low and manifest.win_rate.high == rate.high

    glob = str(outcome.pack / "*" / "*.parquet")
    rows = duckdb.sql(
        f"select tier, count(*) from read_parquet('{glob}', hive_partitioning = true) group by tier"
    ).fetchall()
    assert dict(rows) == {tier: n for tier, n in manifest.tiers.items() if n}


def test_rows_are_in_deal_order_within_each_tier_and_match_the_stages(finished, pack_rows):
    outcome, _ = finished
    table = read_pack_folder(outcome.pack)
    for tier in PACK_TIERS:
        indices = table.filter(pc.equal(table.column("tier"), tier)).column("index").to_pylist()
        assert indices == sorted(indices)
    ungraded = table.filter(pc.equal(table.column("tier"), "ungraded"))
    assert set(ungraded.column("grade_status").to_pylist()) == {"out_of_budget"}
    deals = seeded_deals(seed=SEED, count=12)
    assert sorted(table.column("board").to_pylist()) == sorted(deals.column("board").to_pylist())


def test_the_curated_pack_keeps_graded_wins_in_difficulty_order(finished):
    outcome, _ = finished
    curated = outcome.curated_manifest
    table = read_pack_folder(outcome.curated)
    assert curated.kind == "curated" and curated.origin.curated_from == "t"
    assert set(table.column("verdict").to_pylist()) == {"solved"}
    assert set(table.column("tier").to_pylist()) <= {"easy", "medium", "hard", "expert"}
    by_level = table.sort_by("level")
    assert by_level.column("level").to_pylist() == list(range(1, table.num_rows + 1))
    difficulties = by_level.column("difficulty").to_pylist()
    assert difficulties == sorted(difficulties)
    for tier, (wanted, available) in curated.origin.curation.shortfalls.items():
        assert available < wanted == 2 and curated.tiers[tier] == available


def test_one_worker_gives_the_same_bytes(finished, tmp_path):
    _, files = finished
    config = load_config(config_file(tmp_path)).with_overrides(jobs=1)
    run(config)
    assert pack_bytes(tmp_path / "output") == files


def test_a_finished_run_run_again_redoes_no_shard(finished, tmp_path):
    _, files = finished
    config = load_config(_copy_of_the_finished_output(finished, tmp_path))
    again = run(config)
    assert again.resumed_shards == again.shards == 4
    assert sum(again.stage_seconds.values()) == 0
    assert pack_bytes(tmp_path / "output") == files


def _copy_of_the_finished_output(finished, folder: Path) -> Path:
    """``folder/output``: a copy of the finished run's output (work folder and packs)."""
    outcome, _ = finished
    shutil.copytree(outcome.pack.parent.parent, folder / "output")
    return config_file(folder)


def test_other_settings_refuse_the_work_folder_until_fresh(finished, tmp_path):
    config = load_config(_copy_of_the_finished_output(finished, tmp_path))
    other = config.with_settings(["crosscheck.sample=0.5", "run.count=2", "curate.per_tier={ hard = 1 }"])
    with pytest.raises(RunError, match="other settings.*--fresh"):
        run(other)
    again = run(other, fresh=True)
    assert again.resumed_shards == 0 and again.manifest.deals == 2


def _start(config: Path, *options: str) -> subprocess.Popen:
    return subprocess.Popen(
        [str(BLACKHOLE), "run", "--config", str(config), "--quiet", *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, workers included, as a terminal's job
        # Ctrl-C as a terminal gives it, even when this test runs where SIGINT is ignored (a job
        # started in the background by `nohup ... &`), which the run would inherit
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def _wait_for_a_shard(process: subprocess.Popen, work: Path) -> int:
    """Wait until the run has committed a shard but not every one; how many it has committed."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        done = len(list(work.glob("shard-*.parquet")))
        if done:
            return done
        assert process.poll() is None, process.communicate()
        time.sleep(0.02)
    raise AssertionError("no shard was committed in 120 s")


def _children(pid: int) -> dict[int, bytes]:
    """The processes whose parent is ``pid`` (its workers, loky's trackers), each with its command line."""
    found = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) == pid:
                found[int(stat.parent.name)] = (stat.parent / "cmdline").read_bytes()
        except (OSError, IndexError, ValueError):
            continue  # ended while read
    return found


def _still_running(processes: dict[int, bytes]) -> list[bytes]:
    """The command lines of ``processes`` still running a minute on (a PID reused since is not counted)."""
    deadline = time.monotonic() + 60
    while True:
        alive = []
        for pid, command in processes.items():
            try:
                if Path(f"/proc/{pid}/cmdline").read_bytes() == command:
                    alive.append(command)
            except OSError:
                pass
        if not alive or time.monotonic() > deadline:
            return alive
        time.sleep(0.1)


@pytest.mark.parametrize("kill", [signal.SIGKILL, signal.SIGINT], ids=["SIGKILL", "SIGINT"])
def test_a_killed_run_resumes_to_the_same_pack(finished, tmp_path, kill):
    _, files = finished
    config = config_file(tmp_path)
    process = _start(config)
    done = _wait_for_a_shard(process, tmp_path / "output" / "work" / "t")
    os.killpg(process.pid, kill)
    _, stderr = process.communicate(timeout=60)
    lock = tmp_path / "output" / "locks" / "t.lock"
    if kill == signal.SIGINT:
        assert process.returncode == 130
        assert "interrupted: finished shards are kept" in stderr
        assert not lock.exists()  # let go on Ctrl-C
    else:
        assert process.returncode == -signal.SIGKILL
        assert Holder.from_text(lock.read_text()).pid == process.pid  # left behind, but no longer held
    packs = tmp_path / "output" / "packs"
    assert not (packs / "t").exists()  # no pack until every shard is in: never a partial one
    kept = len(list((tmp_path / "output" / "work" / "t").glob("shard-*.parquet")))
    assert done <= kept < 4

    resumed = subprocess.run(
        [str(BLACKHOLE), "run", "--config", str(config)], capture_output=True, text=True, timeout=300
    )
    assert resumed.returncode == 0, resumed.stderr
    assert f"resumed: {kept} of 4 shards {'was' if kept == 1 else 'were'} already done" in resumed.stderr
    taken_over = f"took over the lock left by a run that was stopped (PID {process.pid} on host "
    assert (taken_over in resumed.stderr) == (kill == signal.SIGKILL)
    assert pack_bytes(tmp_path / "output") == files
    assert not [p for p in packs.iterdir() if p.name.startswith(".")]
    assert not lock.exists()


@pytest.mark.parametrize("backend", ["loky", "dask"])
def test_sigterm_to_the_run_alone_stops_its_workers_and_keeps_its_shards(tmp_path, backend):
    """Ctrl-C reaches every process of a terminal's job; SIGTERM (``kill PID``, ``timeout``) reaches the run
    alone, which stops its workers itself and ends as Ctrl-C ends it, in one line whatever the backend
    (Dask's own warnings as its cluster stops are not shown). What a resume then does is tested above."""
    process = _start(config_file(tmp_path), "--backend", backend)
    work = tmp_path / "output" / "work" / "t"
    done = _wait_for_a_shard(process, work)
    workers = _children(process.pid)
    os.kill(process.pid, signal.SIGTERM)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == ExitCode.TERMINATED == 143, stderr
    assert (
        stderr == f"interrupted: finished shards are kept in {work}; run the same command again to finish\n"
    )
    assert not (tmp_path / "output" / "locks" / "t.lock").exists()
    assert workers and (backend != "loky" or any(b"LokyProcess" in command for command in workers.values()))
    assert _still_running(workers) == []
    assert done <= len(list(work.glob("shard-*.parquet"))) < 4
    assert not (tmp_path / "output" / "packs" / "t").exists()


def _work_bytes(output: Path) -> dict[str, bytes]:
    work = output / "work"
    return {str(p.relative_to(work)): p.read_bytes() for p in sorted(work.rglob("*")) if p.is_file()}


def test_a_run_refuses_while_another_holds_its_lock_and_touches_nothing(finished, tmp_path):
    """The test holds the lock itself, so the refusal owes nothing to timing; --fresh deletes nothing."""
    config = _copy_of_the_finished_output(finished, tmp_path)
    output = tmp_path / "output"
    before = pack_bytes(output), _work_bytes(output)
    lock = run_lock(load_config(config))
    with holding(lock, what="the test"):
        record = Holder.from_text(lock.read_text())
        refused = subprocess.run(
            [str(BLACKHOLE), "run", "--config", str(config), "--fresh"],
            capture_output=True,
            text=True,
            timeout=300,
        )
    assert refused.returncode == 1
    assert (
        refused.stderr
        == f"error: {lock}: run 't' is already running ({record}); wait for it to end, or stop it\n"
    )
    assert record.pid == os.getpid()
    assert (pack_bytes(output), _work_bytes(output)) == before
    assert not lock.exists()


def test_of_two_runs_at_once_the_second_refuses_naming_the_first(tmp_path):
    """The first run has a million deals to do: it is still running when the second starts."""
    config = _small_config(tmp_path, f"seed = {SEED}\ncount = 1000000")
    work = tmp_path / "output" / "work" / "s"
    first = _start(config)
    _wait_for_a_shard(first, work)
    second = subprocess.run(
        [str(BLACKHOLE), "run", "--config", str(config), "--quiet"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    lock = tmp_path / "output" / "locks" / "s.lock"
    holder = Holder.from_text(lock.read_text())
    os.killpg(first.pid, signal.SIGINT)
    _, stderr = first.communicate(timeout=60)
    assert second.returncode == 1
    assert (
        second.stderr
        == f"error: {lock}: run 's' is already running ({holder}); wait for it to end, or stop it\n"
    )
    assert holder.pid == first.pid
    assert first.returncode == 130, stderr
    assert not lock.exists()
    shards = sorted(work.glob("shard-*.parquet"))
    assert shards and all(
        read_pack_file(shard).num_rows == 2 for shard in shards
    )  # the first run's shards, whole
    assert sorted(p.name for p in work.iterdir()) == sorted([WORK_RECORD] + [p.name for p in shards])
    assert not (tmp_path / "output" / "packs").exists()


@pytest.mark.parametrize("name", ["t", "t-curated"])
def test_a_linked_pack_folder_is_refused_before_any_work_and_left_as_it_was(tmp_path, name):
    config = load_config(config_file(tmp_path))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "keep.txt").write_text("mine")
    packs = tmp_path / "output" / "packs"
    packs.mkdir(parents=True)
    (packs / name).symlink_to(elsewhere)
    with pytest.raises(
        DestinationError, match=f"packs/{name}: is a symbolic link; a folder is replaced whole"
    ):
        run(config)
    assert sorted(p.name for p in packs.iterdir()) == [name] and (packs / name).is_symlink()
    assert [p.name for p in elsewhere.iterdir()] == ["keep.txt"]
    assert not config.work_directory.exists() and not run_lock(config).exists()


def test_fresh_refuses_a_linked_work_folder_which_a_resume_follows(finished, tmp_path):
    _, files = finished
    config = load_config(_copy_of_the_finished_output(finished, tmp_path))
    elsewhere = tmp_path / "elsewhere"
    config.work_directory.rename(elsewhere)
    config.work_directory.symlink_to(elsewhere)
    shards = sorted(p.name for p in elsewhere.iterdir())
    with pytest.raises(RunError, match=r"work/t: is a symbolic link; --fresh never deletes through a link"):
        run(config, fresh=True)
    assert sorted(p.name for p in elsewhere.iterdir()) == shards
    again = run(config)
    assert again.resumed_shards == 4 and pack_bytes(tmp_path / "output") == files


def test_a_reader_never_sees_a_changed_file_unnoticed(finished, tmp_path):
    config = load_config(_copy_of_the_finished_output(finished, tmp_path))
    entry = read_manifest(config.pack_directory).files[0]
    path = config.pack_directory / entry.path
    path.write_bytes(path.read_bytes()[:-1] + b"!")
    with pytest.raises(PackError, match="SHA-256 differs"):
        read_pack_folder(config.pack_directory)


def test_a_dask_cluster_on_loopback_makes_the_same_pack(finished, tmp_path):
    from dask.distributed import LocalCluster

    _, files = finished
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    ) as cluster:
        assert cluster.scheduler_address.startswith("tcp://127.0.0.1:")
        config = load_config(config_file(tmp_path)).with_overrides(
            backend="dask", scheduler=cluster.scheduler_address
        )
        run(config)
    assert pack_bytes(tmp_path / "output") == files


def test_the_dask_backend_without_an_address_starts_its_own_cluster(finished, tmp_path):
    _, files = finished
    result = CliRunner().invoke(
        app, ["run", "--config", str(config_file(tmp_path)), "--backend", "dask", "-q"]
    )
    assert result.exit_code == 0, result.output
    assert pack_bytes(tmp_path / "output") == files


def test_a_disputed_verdict_is_reported_exits_3_and_stays_out_of_the_curated_pack(finished, tmp_path):
    config = _copy_of_the_finished_output(finished, tmp_path)
    work = tmp_path / "output" / "work" / "t"
    for shard in sorted(work.glob("shard-*.parquet")):
        table = pq.read_table(shard)
        rows = table.to_pylist()
        disputed = next((r for r in rows if r["agree"] and r["tier"] not in (None, "unsolvable")), None)
        if disputed:
            disputed["agree"] = False
            pq.write_table(pa.Table.from_pylist(rows, schema=table.schema), shard, compression="zstd")
            break
    assert disputed, "no shard holds a checked, graded win"
    result = CliRunner().invoke(app, ["run", "--config", str(config), "-q"])
    assert result.exit_code == 3, result.output
    assert f"DISAGREEMENT {disputed['deal_id']}: the pack says solved" in result.stdout
    curated = read_pack_folder(tmp_path / "output" / "packs" / "t-curated")
    assert disputed["deal_id"] not in curated.column("deal_id").to_pylist()
    assert read_manifest(tmp_path / "output" / "packs" / "t-curated").origin.curation.dropped["disputed"] == 1


def _small_config(folder: Path, run_keys: str, grade_keys: str = "") -> Path:
    """A run config of its own in ``folder``, with these ``[run]`` and ``[grade]`` lines added."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "run.toml"
    path.write_text(
        f'[run]\nname = "s"\nshard_size = 2\njobs = 1\noutput = "{folder / "output"}"\n{run_keys}\n'
        f'[crosscheck]\nsample = 0.0\n[grade]\ntiers = "{ROOT / "pipeline" / "stages" / "tiers.toml"}"\n{grade_keys}\n'
    )
    return path


def test_a_pysol_run_deals_pysol_fc_numbers_in_the_workers(tmp_path):
    # dealing is what is checked here, so the grade sample is 0: no walk
    config = _small_config(tmp_path, 'source = "pysol"\nfirst = 3\ncount = 5', "sample = 0.0")
    outcome = run(load_config(config))
    table = read_pack_folder(outcome.pack).sort_by("index")
    assert table.column("deal_id").to_pylist() == [f"pysol-{n}" for n in range(3, 8)]
    assert table.column("seed").null_count == 5 and table.column("index").to_pylist() == [3, 4, 5, 6, 7]
    expected = pysol_deals(first=3, count=5)
    assert table.column("board").to_pylist() == expected.column("board").to_pylist()
    assert read_manifest(outcome.pack).origin.dealing_scheme == PYSOL_SCHEME
    assert "seed" not in read_manifest(outcome.pack).origin.config["run"]


@pytest.mark.parametrize("sample", [0.0, 0.5])
def test_a_grade_sample_grades_the_sampled_wins_only(tmp_path, sample):
    config = load_config(_small_config(tmp_path, f"seed = {SEED}\ncount = 8", f"sample = {sample}\nseed = 4"))
    outcome = run(config)
    rows = read_pack_folder(outcome.pack).to_pylist()
    for row in rows:
        if row["verdict"] == "solved":
            expected = "exact" if graded(row["deal_id"], fraction=sample, seed=4) else "not_sampled"
            assert row["grade_status"] == expected, row["deal_id"]
            assert (row["tier"] == "ungraded") is (expected == "not_sampled")
            assert row["solution"] and row["max_cards_played"] == 51  # the verdict columns stay
        else:
            assert row["grade_status"] == "exact" and row["tier"] == "unsolvable"
    statuses = {row["grade_status"] for row in rows if row["verdict"] == "solved"}
    assert statuses == ({"not_sampled"} if sample == 0 else {"exact", "not_sampled"})
    assert metadata_of(outcome.pack)["grade_sample"] == str(sample)


def metadata_of(pack: Path) -> dict[str, str]:
    first = next(pack.glob("tier=*/part-0.parquet"))
    return {k.decode(): v.decode() for k, v in pq.read_schema(first).metadata.items()}


def test_a_huge_count_starts_work_at_once_without_listing_its_shards(tmp_path, monkeypatch):
    """10**12 deals: the first shard's first task reaches the workers before anything is enumerated."""
    import pipeline.runs as runs

    def stop(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(runs, "process_span", stop)
    config = load_config(_small_config(tmp_path, f"seed = {SEED}\ncount = {10**12}"))
    with pytest.raises(KeyboardInterrupt):
        run(config)


def test_a_run_with_both_samples_and_grading_at_zero_only_solves(tmp_path):
    keys = f"seed = {SEED}\ncount = 8"
    path = _small_config(tmp_path, keys, "sample = 0.0")
    config = load_config(path).with_settings(["crosscheck.loss_sample=0"])
    outcome = run(config)
    rows = read_pack_folder(outcome.pack).to_pylist()
    assert any(row["verdict"] == "unsolvable" for row in rows)  # seed 20261129's first 8 have a loss
    assert all(row["cpsat_verdict"] is None and row["checked_by"] is None for row in rows)
    assert {row["grade_status"] for row in rows if row["verdict"] == "solved"} == {"not_sampled"}
    # each task timed itself: the workers' busy time holds every stage's time, and the finish is part of the run
    assert sum(outcome.stage_seconds.values()) <= outcome.busy_seconds < outcome.seconds * config.jobs
    assert 0 < outcome.finish_seconds < outcome.seconds


@pytest.mark.parametrize("named", [False, True])
def test_a_config_run_from_another_folder_reads_its_paths_beside_it(tmp_path, monkeypatch, named):
    folder = tmp_path / "configs"
    folder.mkdir()
    shutil.copyfile(DEFAULT_TIERS, folder / "mine.toml")
    tiers = 'tiers = "mine.toml"' if named else ""
    (folder / "run.toml").write_text(
        f'[run]\nname = "r"\nseed = {SEED}\ncount = 2\noutput = "../out"\n'
        f"[crosscheck]\nsample = 0.0\nloss_sample = 0.0\n[grade]\nsample = 0.0\n{tiers}\n"
    )
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    result = CliRunner().invoke(app, ["run", "--config", str(folder / "run.toml"), "-q"])
    assert result.exit_code == 0, result.output
    assert list((tmp_path / "elsewhere").iterdir()) == []
    manifest = read_manifest(tmp_path / "out" / "packs" / "r")
    assert manifest.origin.config["grade"]["tiers"] == (str(folder / "mine.toml") if named else None)
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["packs", "work"]  # no empty locks/


def test_a_run_without_longest_plays_leaves_them_null_and_says_so(tmp_path):
    keys = f"seed = {SEED}\ncount = 8"
    path = _small_config(tmp_path / "verdicts", keys, "sample = 0.0")
    config = load_config(path).with_settings(["solve.longest_play=false"])
    outcome = run(config)
    rows = read_pack_folder(outcome.pack).to_pylist()
    losses = [row for row in rows if row["verdict"] == "unsolvable"]
    assert losses and all(row["max_cards_played"] is None for row in losses)
    assert {row["max_cards_played"] for row in rows if row["verdict"] == "solved"} == {51}
    assert metadata_of(outcome.pack)["longest_play"] == "false"
    assert read_manifest(outcome.pack).origin.config["solve"]["longest_play"] is False
    # the work folder is another run's to one that seeks the longest plays
    with pytest.raises(RunError, match="other settings"):
        run(config.with_settings(["solve.longest_play=true"]))
    # a default run's pack says nothing of it (its bytes as before the setting)
    default = run(load_config(_small_config(tmp_path / "default", keys, "sample = 0.0")))
    assert "longest_play" not in metadata_of(default.pack)
    assert "longest_play" not in read_manifest(default.pack).origin.config["solve"]
    by_id = {row["deal_id"]: row for row in read_pack_folder(default.pack).to_pylist()}
    assert all(by_id[row["deal_id"]]["max_cards_played"] is not None for row in losses)


def test_a_run_with_workers_compiles_its_games_engine_in_the_parent_before_they_start(tmp_path, monkeypatch):
    warmed = []
    monkeypatch.setattr(
        "pipeline.runs.warm_before_workers", lambda games: warmed.append([game.name for game in games])
    )
    config = load_config(config_file(tmp_path)).with_settings(["run.count=2", "run.shard_size=2"])

    run(config)
    assert warmed == [["black_hole"]]  # once, here: the workers load what it compiled

    run(config.with_overrides(jobs=1), fresh=True)
    assert warmed == [["black_hole"]]  # no workers: the run compiles as it goes, in this process
