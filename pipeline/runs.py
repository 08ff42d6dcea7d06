"""A whole run: deals streamed in shards through solve, cross-check and grade, then the pack and its curation.

A run cuts its deals into shards of ``shard_size`` (the last may be shorter).
Deals travel to the workers a couple at a time, named rather than dealt
(:class:`pipeline.packs.sources.DealSpan`: source, seed, first index, count);
each worker deals them and puts each through every stage
(:func:`pipeline.stages.chain.process_span`); as soon as every deal of
a shard is back, the shard is written to ``output/work/NAME/`` (staged, then
renamed), so memory holds only the shards in flight whatever the count.

Killed at any moment, a run loses only its unfinished shards: run it again and
it does those alone. One run of a name at a time: a second one refuses,
naming the first (:func:`run_lock`). ``run.json`` in the work folder records the settings that
decide the rows; a run with other settings refuses the folder (start over
with ``fresh``). When every shard is there, the pack folder is assembled from
them (:mod:`pipeline.packs.folders`) and then curated (:mod:`pipeline.stages.curate`)
into ``output/packs/NAME-curated/``. The rows never depend on the number of
workers, the backend, or the order shards finish in, so neither do the packs.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import time
from collections.abc import Iterable, Iterator
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from pipeline.config import RunConfig
from pipeline.engine.compiled_cache import quiet_compiling
from pipeline.engine.warm import warm_before_workers
from pipeline.errors import BlackholeError
from pipeline.files import check_replaceable_folder, replacing
from pipeline.game.shuffles import PYSOL_SCHEME, DealSource
from pipeline.locks import Holder, holding
from pipeline.packs.folders import pack_folder_batches, write_pack_folder
from pipeline.packs.labels import PackKind
from pipeline.packs.manifest import Manifest, Origin, manifest_path
from pipeline.packs.parquet import read_pack_file, write_pack_file
from pipeline.packs.sources import DealSpan, deals_table
from pipeline.stages.chain import STAGES, DealOutcome, StageSettings, outcome_table, process_span
from pipeline.stages.curate import curate_folder
from pipeline.stages.grade import tiers_of_game
from pipeline.stages.settings import DEFAULT_TIERS, CurateSettings
from pipeline.toml_files import ConfigError
from pipeline.version import VERSION
from pipeline.workers import Backend, dask_cluster, progress_bar, unordered

DEALS_PER_TASK = 2  # deals sent to a worker at a time: small, so that slow deals spread evenly
WORK_RECORD = "run.json"


class RunError(BlackholeError, ValueError):
    """A run that cannot go on with what it finds on disk; the message says what to do."""


@dataclass(frozen=True)
class RunOutcome:
    """What a run wrote, what its deals came to, and where its time went."""

    pack: Path
    curated: Path
    manifest: Manifest
    curated_manifest: Manifest
    shards: int
    resumed_shards: int  # finished by an earlier, interrupted run
    disagreements: list[dict[str, Any]]  # rows whose cross-check contradicts the verdict
    stage_seconds: dict[str, float]  # summed over the deals this run processed, by stage
    busy_seconds: float  # the workers' time on this run's tasks, dealing included, summed
    seconds: float  # wall clock of the whole run
    finish_seconds: float  # of which: assembling the pack from its shards, curating it, listing disagreements
    lock_taken_over: Holder | None  # the record of a stopped run's lock that this run took over
    scaled_quotas: tuple[tuple[str, int], ...] | None = None  # the curated quotas, when the config's asked
    # for more deals than the run makes (CurateSettings.within); None when they were taken as they are


def stage_settings(config: RunConfig) -> StageSettings:
    """The per-deal settings of ``config``, its tiers file read (ConfigError naming it when bad)."""
    return StageSettings(
        solve=config.solve,
        crosscheck=config.crosscheck,
        grade=config.grade,
        tiers=tiers_of_game(config.grade, config.played),
    )


def run_lock(config: RunConfig) -> Path:
    """The lock file a run of ``config`` holds: ``OUTPUT/locks/NAME.lock``.

    It covers everything the run writes: its work folder, its pack and its
    curated pack. It lives in a folder of its own, since a run name may be
    any folder name: no other run's work folder or pack can be called so.
    The folder is removed when the last run leaves it empty.

    >>> from pipeline.config import parse_config
    >>> str(run_lock(parse_config('[run]\\nname = "demo"\\nseed = 1\\ncount = 5\\n')))
    'output/locks/demo.lock'
    """
    return config.output / "locks" / f"{config.name}.lock"


def run(config: RunConfig, *, progress: bool = False, fresh: bool = False) -> RunOutcome:
    """Run ``config`` to a finished pack and curated pack, resuming from finished shards on disk.

    ``fresh`` deletes the work folder first. One run of a name at a time: the
    run holds its lock (:func:`run_lock`, :func:`pipeline.locks.holding`)
    from before it touches anything to its end, error and Ctrl-C included.
    Raises, before any work, ConfigError (bad tiers file), LockedError
    (another run of the name is running), DestinationError (a symbolic link
    or a file where the pack or curated pack folder goes) or RunError (a
    work folder of other settings, or with ``fresh`` a symbolic link there).
    """
    began = time.perf_counter()
    settings = stage_settings(config)
    if config.backend is Backend.DASK and importlib.util.find_spec("distributed") is None:
        raise ConfigError("needs Dask: pip install -e '.[dask]'", source="[run] backend dask")
    with holding(run_lock(config), what=f"run {config.name!r}", tidy=True) as taken_over:
        _check_targets(config, fresh=fresh)
        if fresh:
            _delete_work_folder(config.work_directory)
        with quiet_compiling(not progress):  # without progress, not even the line that says it compiles
            return _run_locked(config, settings, progress=progress, began=began, taken_over=taken_over)


def _check_targets(config: RunConfig, *, fresh: bool) -> None:
    """Refuse, before anything is touched, folders the run would have to replace or delete through a link."""
    for folder in (config.pack_directory, config.curated_directory):
        check_replaceable_folder(folder, marked_by=manifest_path(folder).name)
    work = config.work_directory
    if fresh and work.is_symlink():
        raise RunError(
            f"{work}: is a symbolic link; --fresh never deletes through a link "
            f"(delete the shards in {os.readlink(work)} yourself, or remove the link)"
        )


def _delete_work_folder(work: Path) -> None:
    """Delete the work folder ``work`` and its shards (a missing one is fine); an error says why not."""
    if work.exists():
        shutil.rmtree(work)


def _run_locked(
    config: RunConfig, settings: StageSettings, *, progress: bool, began: float, taken_over: Holder | None
) -> RunOutcome:
    """The run itself, its lock held: claim the work folder, do the missing shards, write both packs."""
    work = config.work_directory
    records = run_records(config, settings)
    _claim(work, records.work)
    shards = _shard_count(config)
    finished = _finished_shards(work, shards)
    todo = (shard for shard in range(shards) if shard not in finished)  # lazy: a count may be huge
    stage_seconds = dict.fromkeys(STAGES, 0.0)
    busy_seconds = 0.0
    backend = (
        dask_cluster(config.scheduler, jobs=config.jobs) if config.backend is Backend.DASK else nullcontext()
    )
    done = sum(_shard_rows(config, shard) for shard in finished)
    if config.jobs > 1 and not config.scheduler:  # workers on this machine, which share its engine cache
        warm_before_workers([config.played])  # here, once: the workers then load the engine, none compiles it
    with backend, progress_bar(config.count, label="deals", enabled=progress, completed=done) as advance:
        for shard, deals, outcomes, busy in _stream(config, settings, todo):
            table = outcome_table(deals, outcomes, settings, timings=config.timings)
            write_pack_file(table, _shard_path(work, shard))
            busy_seconds += busy
            for outcome in outcomes:
                for stage, seconds in zip(STAGES, outcome.seconds, strict=True):
                    stage_seconds[stage] += seconds
            advance(len(outcomes))
    finishing = time.perf_counter()
    manifest = write_pack_folder(
        config.pack_directory,
        _shard_tables(work, shards),
        origin=records.origin,
        provenance=records.provenance,
    )
    curating = config.curate.within(config.count)  # quotas that fit in the pack
    curated_manifest = _curate(config, curating, records.provenance)
    disagreements = _disagreements(config.pack_directory)
    ended = time.perf_counter()
    return RunOutcome(
        pack=config.pack_directory,
        curated=config.curated_directory,
        manifest=manifest,
        curated_manifest=curated_manifest,
        shards=shards,
        resumed_shards=len(finished),
        disagreements=disagreements,
        stage_seconds=stage_seconds,
        busy_seconds=busy_seconds,
        seconds=ended - began,
        finish_seconds=ended - finishing,
        lock_taken_over=taken_over,
        scaled_quotas=None if curating == config.curate else curating.per_tier,
    )


def _stream(
    config: RunConfig, settings: StageSettings, shards: Iterable[int]
) -> Iterator[tuple[int, pa.Table, list[DealOutcome], float]]:
    """``(shard, deals table, outcomes, busy seconds)`` for each of ``shards`` as its last deal comes back.

    The busy seconds are the workers' time on the shard's tasks, dealing included.

    A task names its deals (source, seed, first index, count) and the worker
    deals them, so the parent never deals; it gets the boards back with the outcomes.
    """
    from joblib import delayed

    pending: dict[int, list[tuple[str, DealOutcome] | None]] = {}
    missing: dict[int, int] = {}  # deals of the shard not back yet: no scan of the shard per task
    busy: dict[int, float] = {}

    def tasks() -> Iterator[Any]:
        for shard in shards:
            rows, start = _shard_rows(config, shard), _shard_start(config, shard)
            pending[shard] = [None] * rows
            missing[shard] = rows
            busy[shard] = 0.0
            for offset in range(0, rows, DEALS_PER_TASK):
                count = min(DEALS_PER_TASK, rows - offset)
                span = DealSpan(config.source, config.seed, start + offset, count, config.played)
                yield delayed(process_span)((shard, offset), span, settings)

    for (shard, offset), done, seconds in unordered(tasks(), jobs=config.jobs, backend=config.backend):
        found = pending[shard]
        found[offset : offset + len(done)] = done
        missing[shard] -= len(done)
        busy[shard] += seconds
        if not missing[shard]:
            del pending[shard], missing[shard]
            boards = [item[0] for item in found if item is not None]
            span = DealSpan(
                config.source, config.seed, _shard_start(config, shard), len(boards), config.played
            )
            outcomes = [item[1] for item in found if item is not None]
            yield shard, deals_table(span, boards), outcomes, busy.pop(shard)


def _shard_start(config: RunConfig, shard: int) -> int:
    """The index (seeded) or deal number (PySol FC) of the shard's first deal."""
    return (config.first if config.source is DealSource.PYSOL else 0) + shard * config.shard_size


def _finished_shards(work: Path, shards: int) -> set[int]:
    """The shards an earlier run of these settings finished: read off the folder, never listed one by one."""
    found = set()
    for path in work.glob("shard-*.parquet"):
        number = path.stem.removeprefix("shard-")
        if number.isdigit() and int(number) < shards:
            found.add(int(number))
    return found


def _shard_count(config: RunConfig) -> int:
    return -(-config.count // config.shard_size)


def _shard_rows(config: RunConfig, shard: int) -> int:
    return min(config.shard_size, config.count - shard * config.shard_size)


def _shard_path(work: Path, shard: int) -> Path:
    return work / f"shard-{shard:06d}.parquet"


def _shard_tables(work: Path, shards: int) -> Iterator[pa.Table]:
    """Every shard's rows, in shard order, one at a time."""
    for shard in range(shards):
        yield read_pack_file(_shard_path(work, shard))


def _claim(work: Path, record: dict[str, Any]) -> None:
    """Make ``work`` this run's work folder, or check that it already is; RunError when it is another's."""
    path = work / WORK_RECORD
    text = json.dumps(record, indent=2, sort_keys=True) + "\n"
    for stale in work.glob(".*.tmp-*"):  # a shard being written when a run was killed
        stale.unlink()
    if path.exists():
        if path.read_text(encoding="utf-8") != text:
            raise RunError(
                f"{work}: holds shards of a run with other settings; "
                "run with --fresh to start over (its finished shards are deleted)"
            )
        return
    try:
        work.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ConfigError(f"cannot make the work folder ({error.strerror})", source=str(work)) from None
    with replacing(path) as sink:
        sink.write(text.encode())


@dataclass(frozen=True)
class RunRecords:
    """What a run writes of itself, made once from its config: the work folder's record of what decides
    a shard's rows (``run.json``), the pack's origin (its manifest) and the provenance every file of
    the pack repeats in its schema metadata."""

    work: dict[str, Any]
    origin: Origin
    provenance: dict[str, str]


def run_records(config: RunConfig, settings: StageSettings) -> RunRecords:
    """The records of a run of ``config`` whose stages are ``settings``.

    A Black Hole run's records say no game, as before games were a setting
    (:attr:`~pipeline.game.games.Game.named_in_records`).
    """
    game = config.played
    scheme = PYSOL_SCHEME if config.source is DealSource.PYSOL else game.seeded_scheme
    stages = settings.metadata()
    chosen = _config_record(config)
    work = {
        "blackhole_version": VERSION,
        **game.game_entry,
        "source": config.source.value,
        "seed": config.seed,
        "first": config.first,
        "count": config.count,
        "shard_size": config.shard_size,
        "timings": config.timings,
        "stages": stages,
    }
    provenance = stages | {
        "blackhole_version": VERSION,
        "dealing_scheme": scheme,
        **game.game_entry,
        "blackhole_pack": config.name,
        "blackhole_config": json.dumps(chosen, sort_keys=True),
    }
    origin = Origin(config.name, PackKind.PACK, VERSION, scheme, config=chosen, game=game.recorded_name)
    return RunRecords(work, origin, provenance)


def _config_record(config: RunConfig) -> dict[str, Any]:
    """The config as the pack records it: every key that decides the rows (not jobs, backend, paths).

    ``grade.tiers`` is None for the tiers shipped with the package (:data:`DEFAULT_TIERS`, which stands
    for each game's own: :func:`~pipeline.stages.settings.tiers_for`), whose path
    says where this copy is installed, not what it holds; the thresholds and weights themselves are in
    every file's metadata (``tier_medium``, ``score_odds_weight``...).
    """
    settings = config.settings()
    unused = "first" if config.source is DealSource.SEED else "seed"
    for key in ("jobs", "backend", "scheduler", "output", "shard_size", unused):
        settings["run"].pop(key)
    if not config.played.named_in_records:  # a Black Hole pack's config as before games were a setting
        settings["run"].pop("game")
    # longest_play is recorded only when off, so a default pack's config is as before it was a setting
    if config.solve.longest_play:
        settings["solve"].pop("longest_play")
    if config.grade.tiers == DEFAULT_TIERS:
        settings["grade"]["tiers"] = None
    return settings


def _curate(config: RunConfig, curating: CurateSettings, provenance: dict[str, str]) -> Manifest:
    """Curate the finished pack into the curated pack folder by ``curating`` (quotas that fit in it); its manifest."""
    per_tier = None if curating.per_tier is None else dict(curating.per_tier)
    return curate_folder(
        config.pack_directory,
        config.curated_directory,
        per_tier=per_tier,
        order=curating.order,
        provenance=provenance,
    )


def _disagreements(pack: Path) -> list[dict[str, Any]]:
    """The rows of the pack whose cross-check contradicts their verdict."""
    columns = ["deal_id", "verdict", "cpsat_verdict", "checked_by", "agree"]
    found = []
    for batch in pack_folder_batches(pack, columns=columns):
        disputed = batch.filter(pc.equal(batch.column("agree"), False)).select(columns)  # nulls drop out
        found.extend(disputed.to_pylist())
    return found
