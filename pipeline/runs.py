"""A whole run: deals streamed in shards through solve, cross-check and grade, then the pack and its curation.

A run cuts its deals into shards of ``shard_size`` (the last may be shorter).
Deals travel to the workers a couple at a time, each going through every
stage there (:func:`pipeline.stages.chain.process_batch`); as soon as every deal of
a shard is back, the shard is written to ``output/work/NAME/`` (staged, then
renamed), so memory holds only the shards in flight whatever the count.

Killed at any moment, a run loses only its unfinished shards: run it again and
it does those alone. ``run.json`` in the work folder records the settings that
decide the rows; a run with other settings refuses the folder (start over
with ``fresh``). When every shard is there, the pack folder is assembled from
them (:mod:`pipeline.packs.folders`) and then curated (:mod:`pipeline.stages.curate`)
into ``output/packs/NAME-curated/``. The rows never depend on the number of
workers, the backend, or the order shards finish in, so neither do the packs.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import time
from collections.abc import Iterator
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa

from pipeline import __version__
from pipeline.config import RunConfig
from pipeline.errors import BlackholeError
from pipeline.files import replacing
from pipeline.game.shuffles import SEEDED_SCHEME
from pipeline.packs.folders import read_pack_folder, write_pack_folder
from pipeline.packs.manifest import Manifest, Origin
from pipeline.packs.parquet import read_pack, write_pack
from pipeline.packs.sources import seeded_deals
from pipeline.stages.chain import STAGES, DealOutcome, StageSettings, outcome_table, process_batch
from pipeline.stages.curate import curate_folder
from pipeline.stages.tiers import load_tiers
from pipeline.toml_files import ConfigError
from pipeline.workers import dask_cluster, progress_bar, unordered

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
    seconds: float  # wall clock of the whole run


def stage_settings(config: RunConfig) -> StageSettings:
    """The per-deal settings of ``config``, its tiers file read (ConfigError naming it when bad)."""
    return StageSettings(
        solve=config.solve,
        crosscheck=config.crosscheck,
        grade=config.grade,
        tiers=load_tiers(config.grade.tiers),
    )


def run(config: RunConfig, *, progress: bool = False, fresh: bool = False) -> RunOutcome:
    """Run ``config`` to a finished pack and curated pack, resuming from finished shards on disk.

    ``fresh`` deletes the work folder first. Raises ConfigError (bad tiers
    file) or RunError (work folder of other settings) before any work.
    """
    began = time.perf_counter()
    settings = stage_settings(config)
    if config.backend == "dask" and importlib.util.find_spec("distributed") is None:
        raise ConfigError("needs Dask: pip install -e '.[dask]'", source="[run] backend dask")
    work = config.work_directory
    if fresh:
        shutil.rmtree(work, ignore_errors=True)
    _claim(work, _record(config, settings))
    shards = _shard_count(config)
    todo = [shard for shard in range(shards) if not _shard_path(work, shard).exists()]
    stage_seconds = dict.fromkeys(STAGES, 0.0)
    backend = dask_cluster(config.scheduler, jobs=config.jobs) if config.backend == "dask" else nullcontext()
    done = config.count - sum(_shard_rows(config, shard) for shard in todo)
    with backend, progress_bar(config.count, label="deals", enabled=progress, completed=done) as advance:
        for shard, deals, outcomes in _stream(config, settings, todo):
            table = outcome_table(deals, outcomes, settings, timings=config.timings)
            write_pack(table, _shard_path(work, shard))
            for outcome in outcomes:
                for stage, seconds in zip(STAGES, outcome.seconds, strict=True):
                    stage_seconds[stage] += seconds
            advance(len(outcomes))
    provenance = _provenance(config, settings)
    manifest = write_pack_folder(
        config.pack_directory, _shard_tables(work, shards), origin=_origin(config), provenance=provenance
    )
    curated_manifest = _curate(config, provenance)
    return RunOutcome(
        pack=config.pack_directory,
        curated=config.curated_directory,
        manifest=manifest,
        curated_manifest=curated_manifest,
        shards=shards,
        resumed_shards=shards - len(todo),
        disagreements=_disagreements(config.pack_directory),
        stage_seconds=stage_seconds,
        seconds=time.perf_counter() - began,
    )


def _stream(
    config: RunConfig, settings: StageSettings, shards: list[int]
) -> Iterator[tuple[int, pa.Table, list[DealOutcome]]]:
    """``(shard, deals table, outcomes)`` for each of ``shards`` as its last deal comes back."""
    from joblib import delayed

    pending: dict[int, tuple[pa.Table, list[DealOutcome | None]]] = {}

    def tasks() -> Iterator[Any]:
        for shard in shards:
            deals = seeded_deals(
                seed=config.seed, count=_shard_rows(config, shard), start=shard * config.shard_size
            )
            pending[shard] = (deals, [None] * deals.num_rows)
            boards, ids = deals.column("board").to_pylist(), deals.column("deal_id").to_pylist()
            for offset in range(0, len(boards), DEALS_PER_TASK):
                stop = offset + DEALS_PER_TASK
                yield delayed(process_batch)((shard, offset), boards[offset:stop], ids[offset:stop], settings)

    for (shard, offset), outcomes in unordered(tasks(), jobs=config.jobs, backend=config.backend):
        deals, found = pending[shard]
        found[offset : offset + len(outcomes)] = outcomes
        if all(outcome is not None for outcome in found):
            del pending[shard]
            yield shard, deals, [outcome for outcome in found if outcome is not None]


def _shard_count(config: RunConfig) -> int:
    return -(-config.count // config.shard_size)


def _shard_rows(config: RunConfig, shard: int) -> int:
    return min(config.shard_size, config.count - shard * config.shard_size)


def _shard_path(work: Path, shard: int) -> Path:
    return work / f"shard-{shard:06d}.parquet"


def _shard_tables(work: Path, shards: int) -> Iterator[pa.Table]:
    for shard in range(shards):
        yield read_pack(_shard_path(work, shard))


def _record(config: RunConfig, settings: StageSettings) -> dict[str, Any]:
    """What decides a shard's rows: the work folder is only reused for the same record."""
    return {
        "blackhole_version": __version__,
        "seed": config.seed,
        "count": config.count,
        "shard_size": config.shard_size,
        "timings": config.timings,
        "stages": settings.metadata(),
    }


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


def _config_record(config: RunConfig) -> dict[str, Any]:
    """The config as the pack records it: every key that decides the rows (not jobs, backend, paths)."""
    settings = config.settings()
    for key in ("jobs", "backend", "scheduler", "output", "shard_size"):
        settings["run"].pop(key)
    return settings


def _origin(config: RunConfig) -> Origin:
    return Origin(config.name, "pack", __version__, SEEDED_SCHEME, config=_config_record(config))


def _provenance(config: RunConfig, settings: StageSettings) -> dict[str, str]:
    """Schema metadata for every file of the pack: the stage settings and the config, as JSON."""
    return settings.metadata() | {
        "blackhole_version": __version__,
        "dealing_scheme": SEEDED_SCHEME,
        "blackhole_pack": config.name,
        "blackhole_config": json.dumps(_config_record(config), sort_keys=True),
    }


def _curate(config: RunConfig, provenance: dict[str, str]) -> Manifest:
    """Curate the finished pack into the curated pack folder; its manifest."""
    per_tier = None if config.curate.per_tier is None else dict(config.curate.per_tier)
    return curate_folder(
        config.pack_directory,
        config.curated_directory,
        per_tier=per_tier,
        order=config.curate.order,
        provenance=provenance,
    )


def _disagreements(pack: Path) -> list[dict[str, Any]]:
    """The rows of the pack whose cross-check contradicts their verdict."""
    table = read_pack_folder(pack, columns=["deal_id", "verdict", "cpsat_verdict", "checked_by", "agree"])
    return [row for row in table.to_pylist() if row["agree"] is False]
