"""Curating a pack folder into a puzzle pack beside it: the rules, the quotas and the order, with levels.

:func:`curate_folder` applies the rules of :mod:`pipeline.stages.curation_rules`
(with the quotas of :mod:`pipeline.stages.quotas`), then numbers the deals in
the curated order (:class:`~pipeline.stages.settings.CurateOrder`). The curated
pack has the pack's columns and schema metadata, with ``level`` (int32, 1..N:
the position in the curated order) appended last. :func:`curated_folder` and
:func:`curate_beside` name and check where a curated pack goes.

It works in bounded memory, whatever the pack's size: one pass over the pack
in batches applies the rules (:class:`~pipeline.stages.curation_rules.Selection`)
and copies the rows kept to a temporary file; ordered by difficulty, the kept
rows are then sorted outside memory
(:func:`~pipeline.stages.difficulty_sort.sorted_by_difficulty`). The temporary
files live in a hidden folder beside the target, deleted afterwards, also on error.

>>> curated_folder(Path("output/packs/default"), "best")
PosixPath('output/packs/best')
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from pipeline.files import (
    WriteError,
    as_write_error,
    check_folder_writable,
    check_replaceable_folder,
    naming_write_errors,
    resolved,
)
from pipeline.free_text import folder_name_problem
from pipeline.packs.folders import pack_folder_batches, write_pack_folder
from pipeline.packs.labels import PackKind
from pipeline.packs.manifest import (
    CurationRecord,
    Manifest,
    Origin,
    PlayCurationRecord,
    manifest_path,
    read_manifest,
)
from pipeline.packs.parquet import BATCH_ROWS, read_pack_file_batches, writing_pack_file
from pipeline.packs.schema import LEVEL_FIELD
from pipeline.stages.curation_rules import CurationError, PlayChoices, Selection
from pipeline.stages.difficulty_sort import RANGE_ROWS, sorted_by_difficulty
from pipeline.stages.quotas import checked_quotas
from pipeline.stages.settings import CurateOrder
from pipeline.version import VERSION


def checked_order(order: CurateOrder | str) -> CurateOrder:
    """``order`` as a :class:`CurateOrder`; CurationError when it names none.

    >>> checked_order("pack")
    <CurateOrder.PACK: 'pack'>
    >>> checked_order("random")
    Traceback (most recent call last):
    ...
    pipeline.stages.curation_rules.CurationError: unknown order 'random' (orders: difficulty, pack)
    """
    try:
        return CurateOrder(order)
    except ValueError:
        orders = ", ".join(choice.value for choice in CurateOrder)
        raise CurationError(f"unknown order {order!r} (orders: {orders})") from None


def curate_folder(
    source: Path,
    target: Path,
    *,
    per_tier: dict[str, int] | None,
    order: CurateOrder | str,
    provenance: dict[str, str] | None = None,
    plays: PlayChoices | None = None,
    batch_rows: int = BATCH_ROWS,
    range_rows: int = RANGE_ROWS,
) -> Manifest:
    """Curate the pack folder ``source`` into the pack folder ``target``; the new manifest.

    ``per_tier`` maps a tier to the deals wanted (a tier left out gets none);
    None keeps every deal that qualifies. :attr:`CurateOrder.DIFFICULTY` sorts
    by difficulty, easiest first (ties by deal_id); :attr:`CurateOrder.PACK`
    keeps the pack's order (its name as a string is taken too). ``plays``
    leaves out the deals play-testers rejected and, with ``placed``, places
    the deals played enough by what their players met (ordered by difficulty
    only; :func:`~pipeline.stages.difficulty_sort.sorted_by_difficulty`).

    The manifest records the source pack, the rules and the shortfalls (tiers
    with fewer qualifying deals than their quota). Memory holds a batch of
    ``batch_rows`` rows, the rule-3 digests (:class:`Selection`), and when
    ordering by difficulty the sort keys and ranks of the rows kept and
    ``range_rows`` rows at a time (:func:`sorted_by_difficulty`); never the
    pack. Temporary files go to a hidden folder beside ``target``
    (``.NAME.curating-*``), deleted afterwards, also on error; one that a
    killed curation left is deleted first.
    """
    target = Path(target)
    problem = folder_name_problem(target.name)  # before any work: the manifest's name, read by this rule
    if problem is not None:
        raise CurationError(f"{target}: curated pack name {target.name!r} is not a folder name ({problem})")
    source_manifest = read_manifest(source)
    source_origin = source_manifest.origin
    order = checked_order(order)
    if plays is not None and plays.placed is not None and order is not CurateOrder.DIFFICULTY:
        raise CurationError(
            "ordering by play places deals within the order by difficulty: not with --order pack"
        )
    rejected = plays.rejected if plays is not None else frozenset()
    selection = Selection(checked_quotas(per_tier), rejected, source_manifest.played)
    target.parent.mkdir(parents=True, exist_ok=True)
    for stale in target.parent.glob(f".{target.name}.curating-*"):  # left by a curation that was killed
        shutil.rmtree(stale, ignore_errors=True)
    with naming_write_errors(target):
        staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.curating-", dir=target.parent))
    try:
        kept = staging / "kept.parquet"
        schema_metadata = _select(source, kept, selection, batch_rows=batch_rows)
        if not selection.kept:
            rows: Iterator[pa.Table] = iter(())
        elif order is CurateOrder.DIFFICULTY:
            placed = None if plays is None else plays.placed
            rows = sorted_by_difficulty(
                kept, staging, batch_rows=batch_rows, range_rows=range_rows, placed=placed
            )
        else:
            unchecked = pa.schema([])  # our own temporary file: no columns to check
            rows = read_pack_file_batches(kept, unchecked, batch_rows=batch_rows)
        origin = Origin(
            name=target.name,
            kind=PackKind.CURATED,
            blackhole_version=VERSION,
            dealing_scheme=source_origin.dealing_scheme,
            game=source_origin.game,
            curated_from=source_origin.name,
            source_config=source_origin.config,
            curation=CurationRecord(
                per_tier=per_tier,
                order=order.value,
                dropped=dict(selection.dropped),
                shortfalls=selection.shortfalls(),
                plays=None if plays is None else _play_record(plays, selection, kept),
            ),
        )
        files_metadata = (provenance or {}) | {"blackhole_curated_from": source_origin.name}
        return write_pack_folder(
            target, _numbered(rows, schema_metadata), origin=origin, provenance=files_metadata
        )
    except (OSError, WriteError) as error:  # the temporary files' too: the user asked for target
        named = as_write_error(error, target, staging)
        if named is None:
            raise
        raise named from error
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _play_record(plays: PlayChoices, selection: Selection, kept: Path) -> PlayCurationRecord:
    """What ``plays`` changed in the curation whose kept rows are in ``kept``."""
    placed = 0
    if plays.placed and selection.kept:
        kept_ids = pq.read_table(kept, columns=["deal_id"]).column("deal_id").to_pylist()
        placed = sum(deal_id in plays.placed for deal_id in kept_ids)
    return PlayCurationRecord(
        plays=plays.source,
        rejected=tuple(selection.left_out),
        by_play=plays.placed is not None,
        placed=placed,
        min_attempts=plays.min_attempts,
    )


def _select(source: Path, kept: Path, selection: Selection, *, batch_rows: int) -> dict[bytes, bytes] | None:
    """Copy the rows of the pack folder ``source`` that ``selection`` keeps to the Parquet file ``kept``, in pack order.

    Returns the schema metadata of the pack's first file, which the curated
    rows carry as a whole-pack read would give them. When no row stays
    (``selection.kept`` is 0), ``kept`` is no Parquet file to read.
    """
    schema_metadata = None
    with writing_pack_file(kept) as write:
        for number, batch in enumerate(pack_folder_batches(source, batch_rows=batch_rows)):
            if number == 0:
                schema_metadata = batch.schema.metadata
            chosen = selection.keep(batch)
            if chosen.num_rows:
                write(chosen)
    return schema_metadata


def _numbered(tables: Iterable[pa.Table], schema_metadata: dict[bytes, bytes] | None) -> Iterator[pa.Table]:
    """``tables`` with ``level`` appended (1, 2, ... across them all) and the curated pack's schema metadata."""
    done = 0
    for table in tables:
        levels = pa.array(range(done + 1, done + table.num_rows + 1), pa.int32())
        done += table.num_rows
        yield table.append_column(LEVEL_FIELD, levels).replace_schema_metadata(schema_metadata)


def curated_folder(pack: Path, name: str) -> Path:
    """Where the curated pack ``name`` of the pack folder ``pack`` goes: beside it, in the same folder.

    ``name`` is a pack name (:func:`~pipeline.free_text.folder_name_problem`, the rule its manifest is
    read by); CurationError when it is not, or
    when the folder it names is ``pack`` itself, lies inside it or holds it,
    however the paths are spelled (compared once resolved: ``.`` in a pack
    folder, a link to the pack). Beside ``.`` or ``..`` means beside the
    folder they stand for.

    >>> curated_folder(Path("output/packs/default"), "best")
    PosixPath('output/packs/best')
    """
    problem = folder_name_problem(name)
    if problem is not None:
        raise CurationError(f"curated pack name {name!r} is not a folder name ({problem})")
    pack = Path(pack)
    target = (pack.parent if pack.name not in ("", "..") else resolved(pack).parent) / name
    read, written = resolved(pack), resolved(target)
    if written == read:
        raise CurationError(f"curated pack name {name!r}: would replace the pack it curates")
    if read in written.parents or written in read.parents:
        where = "is inside" if read in written.parents else "holds"
        raise CurationError(f"curated pack name {name!r}: {target} {where} the pack it curates")
    return target


def curate_beside(
    pack: Path,
    name: str,
    *,
    per_tier: dict[str, int] | None = None,
    order: CurateOrder | str = CurateOrder.DIFFICULTY,
    plays: PlayChoices | None = None,
) -> tuple[Path, Manifest]:
    """Curate the pack folder ``pack`` into the pack folder ``name`` beside it (:func:`curated_folder`).

    Returns where the curated pack is and its manifest. What is there
    already is checked before any work (:func:`pipeline.files.check_replaceable_folder`),
    and that the folder it goes in can be written in (:func:`pipeline.files.check_folder_writable`).
    """
    target = curated_folder(pack, name)
    target = check_replaceable_folder(target, marked_by=manifest_path(target).name)
    check_folder_writable(target, replaced=True)
    return target, curate_folder(pack, target, per_tier=per_tier, order=order, plays=plays)
