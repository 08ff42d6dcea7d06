"""Curating a graded pack: the winnable, playable, distinct deals, per-tier quotas, and levels.

:func:`curate_folder` (and :func:`curate`, on a table in memory) applies these rules,
in this order, then numbers the deals:

1. keep ``solved`` rows graded ``exact`` with a tier from easy to expert
   (unsolvable, unknown, out-of-budget and untiered rows go), and drop those
   whose cross-check contradicts the verdict (``agree`` false);
2. drop rows without a legal first move (``first_moves`` null or 0);
3. drop a deal that repeats an earlier one up to suits and pile order
   (:func:`canonical_key`), keeping the first in table order;
4. with quotas, keep the first N rows of each tier in table order.

The curated table has the pack's columns and schema metadata, with ``level``
(int32, 1..N: the position in the curated order) appended last.

:func:`curate_folder` works in bounded memory, whatever the pack's size: one
pass over the pack in batches applies the rules (:class:`Selection`) and
copies the rows kept to a temporary file; ordered by difficulty, the kept rows
are then sorted outside memory (:func:`sorted_by_difficulty`). The temporary
files live in a hidden folder beside the target, deleted afterwards, also on error.

>>> parse_quotas("easy=2, expert=1")
{'easy': 2, 'expert': 1}
>>> parse_quotas("easy=2,unsolvable=1")
Traceback (most recent call last):
...
pipeline.stages.curate.QuotaError: 'unsolvable=1': unknown tier 'unsolvable' (tiers: easy, medium, hard, expert)
"""

from __future__ import annotations

import hashlib
import re
import shutil
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from contextlib import ExitStack
from dataclasses import dataclass, field
from itertools import permutations
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from pipeline import __version__
from pipeline.errors import BlackholeError
from pipeline.files import check_folder_writable, check_replaceable_folder, resolved
from pipeline.game.cards import NUM_CARDS, make_card, rank_of, suit_of
from pipeline.game.deal import PILE_SIZE, Deal
from pipeline.packs.folders import pack_folder_batches, write_pack_folder
from pipeline.packs.labels import SOLVABLE_TIERS
from pipeline.packs.manifest import MANIFEST, CurationRecord, Manifest, Origin, read_manifest
from pipeline.packs.parquet import BATCH_ROWS, read_pack_batches, writing_pack
from pipeline.packs.schema import LEVEL_FIELD
from pipeline.stages.settings import ORDERS

NEEDED_COLUMNS = ("deal_id", "board", "verdict", "grade_status", "tier", "first_moves", "difficulty")
# What rules 1 (twice), 2, 3 and 4 drop, as the manifest names it.
DROP_REASONS = ("not_a_graded_win", "disputed", "no_first_move", "duplicate", "over_quota")
RANGE_ROWS = 100_000  # rows sorted in memory at a time when ordering by difficulty
# Easiest first, ties by deal_id; null difficulties last (pyarrow's default), as in the Python key
# (difficulty is None, difficulty, deal_id).
_DIFFICULTY_ORDER = [("difficulty", "ascending"), ("deal_id", "ascending")]
_RANK = "curation_rank"  # the column a sorted range file carries its rows' ranks in
_UNCHECKED = pa.schema([])  # our own temporary files: no columns to check

_SPADES = 3
_WHOLE_NUMBER = re.compile(r"[0-9]+")
MAX_QUOTA = 2**63 - 1  # the manifest counts deals in int64


def _relabelling(order: tuple[int, ...]) -> bytes:
    """A ``bytes.translate`` table sending card ``c`` to the same rank in suit ``order[suit_of(c)]``."""
    table = bytearray(range(256))
    for card in range(NUM_CARDS):
        table[card] = make_card(rank_of(card), order[suit_of(card)])
    return bytes(table)


# Hearts, clubs and diamonds in every order; spades stay spades (see canonical_key).
_RELABELLINGS = tuple(_relabelling(order) for order in permutations(range(4)) if order[_SPADES] == _SPADES)


class QuotaError(BlackholeError, ValueError):
    """Per-tier quotas that are not ``tier=count`` pairs of known tiers and whole numbers."""


class CurationError(BlackholeError, ValueError):
    """A table or option that :func:`curate` cannot work with."""


def canonical_key(deal: Deal) -> bytes:
    """51 bytes, equal for two deals exactly when one is the other with suits relabelled and/or piles moved.

    Relabelling keeps the spades: a permutation that moved them would send the
    foundation's A♠ to another ace and put the A♠ in a pile, which is not a
    deal (docs/rules.md), so two deals can only be relabellings of each other by
    one of the six orders of hearts, clubs and diamonds. The key is the
    least, over those six, of the relabelled piles sorted (each pile kept
    bottom to top) and joined.

    >>> from pipeline.game.deal import EXAMPLE_BOARD
    >>> deal = Deal.from_board_text(EXAMPLE_BOARD)
    >>> swapped = EXAMPLE_BOARD.replace("H", "x").replace("D", "H").replace("x", "D")
    >>> reordered = Deal(tuple(reversed(Deal.from_board_text(swapped).piles)))
    >>> canonical_key(reordered) == canonical_key(deal), len(canonical_key(deal))
    (True, 51)
    """
    cards = bytes(deal.cards())
    best = b""
    for table in _RELABELLINGS:
        relabelled = cards.translate(table)
        piles = sorted(relabelled[start : start + PILE_SIZE] for start in range(0, len(cards), PILE_SIZE))
        key = b"".join(piles)
        if not best or key < best:
            best = key
    return best


def parse_quotas(text: str) -> dict[str, int]:
    """Quotas from ``easy=50,medium=50,...``, in tier order; QuotaError names the bad part.

    >>> parse_quotas("hard=0,easy=10")
    {'easy': 10, 'hard': 0}
    >>> parse_quotas("easy=5,easy=6")
    Traceback (most recent call last):
    ...
    pipeline.stages.curate.QuotaError: 'easy=6': tier easy is given twice
    """
    if not text.strip():
        raise QuotaError("no quotas given; expected tier=count pairs such as easy=50,medium=50")
    quotas: dict[str, int] = {}
    for part in text.split(","):
        item = part.strip()
        name, equals, count = (word.strip() for word in item.partition("="))
        if not item:
            raise QuotaError(f"empty quota in {text!r}; expected tier=count pairs such as easy=50,medium=50")
        if not equals:
            raise QuotaError(f"{item!r}: expected tier=count, such as easy=50")
        if name not in SOLVABLE_TIERS:
            raise QuotaError(f"{item!r}: unknown tier {name!r} (tiers: {', '.join(SOLVABLE_TIERS)})")
        if not _WHOLE_NUMBER.fullmatch(count):
            raise QuotaError(f"{item!r}: the count must be a whole number, at least 0")
        if len(count.lstrip("0")) > len(str(MAX_QUOTA)) or int(count) > MAX_QUOTA:
            raise QuotaError(f"{item!r}: the count must be at most {MAX_QUOTA}")
        if name in quotas:
            raise QuotaError(f"{item!r}: tier {name} is given twice")
        quotas[name] = int(count)
    return {tier: quotas[tier] for tier in SOLVABLE_TIERS if tier in quotas}


@dataclass(frozen=True)
class Curation:
    """A curated pack and how it was reached: the rows each rule dropped, the tiers short of their quota."""

    table: pa.Table = field(repr=False)
    shortfalls: dict[str, tuple[int, int]]  # tier -> (wanted, available), only tiers short of their quota
    dropped_not_graded_win: int  # rule 1: not solved, not graded exactly, or no tier easy..expert
    dropped_disputed: int  # a cross-check contradicts the verdict
    dropped_no_first_move: int  # rule 2
    dropped_duplicate: int  # rule 3
    dropped_over_quota: int  # rule 4


class Selection:
    """Rules 1-4 over a pack's rows, given batch by batch in pack order; :meth:`keep` returns the rows that stay.

    Between batches it holds a tally per rule and, for rule 3, a 16-byte
    BLAKE2b digest of the canonical key of every distinct deal that passed
    rules 1 and 2 (over quota or not: a later copy of it is still a
    duplicate): about 90 bytes a deal in a Python set, some 90 MB for a
    million. The rows themselves are never held beyond the batch.
    """

    def __init__(self, quotas: dict[str, int] | None) -> None:
        self.quotas = quotas
        self.dropped = dict.fromkeys(DROP_REASONS, 0)  # rows dropped by each rule, as the manifest names them
        self.available = dict.fromkeys(SOLVABLE_TIERS, 0)  # distinct playable deals of each tier
        self.taken = dict.fromkeys(SOLVABLE_TIERS, 0)  # of which kept within the quota
        self.rows = self.kept = 0  # rows seen so far, and kept
        self._seen: set[bytes] = set()

    def keep(self, batch: pa.Table) -> pa.Table:
        """The rows of ``batch`` that stay (without any ``level`` column), the next rows of the pack in order."""
        missing = [name for name in NEEDED_COLUMNS if name not in batch.column_names]
        if missing:
            raise CurationError(f"curating needs a graded pack; the table has no column {', '.join(missing)}")
        column = {name: batch.column(name).to_pylist() for name in NEEDED_COLUMNS}
        agree = (
            batch.column("agree").to_pylist() if "agree" in batch.column_names else [None] * batch.num_rows
        )
        kept = []
        for row in range(batch.num_rows):
            tier = column["tier"][row]
            if not (
                column["verdict"][row] == "solved"
                and column["grade_status"][row] == "exact"
                and tier in SOLVABLE_TIERS
            ):
                reason = "not_a_graded_win"
            elif agree[row] is False:  # a verdict its cross-check contradicts is no puzzle to ship
                reason = "disputed"
            elif not column["first_moves"][row]:
                reason = "no_first_move"
            elif not self._first_of_its_deal(
                column["board"][row], f"row {self.rows + row} ({column['deal_id'][row]})"
            ):
                reason = "duplicate"
            elif not self._within_quota(tier):
                reason = "over_quota"
            else:
                kept.append(row)
                continue
            self.dropped[reason] += 1
        self.rows += batch.num_rows
        self.kept += len(kept)
        chosen = batch.take(pa.array(kept, pa.int64()))
        return chosen.drop_columns([LEVEL_FIELD.name]) if LEVEL_FIELD.name in chosen.column_names else chosen

    def shortfalls(self) -> dict[str, tuple[int, int]]:
        """Tier -> (wanted, available) for the tiers with fewer distinct playable deals than their quota."""
        quotas = self.quotas or {}
        return {
            tier: (wanted, self.available[tier])
            for tier, wanted in quotas.items()
            if self.available[tier] < wanted
        }

    def _first_of_its_deal(self, board: str, source: str) -> bool:
        key = canonical_key(Deal.from_board_text(board, source=source))
        digest = hashlib.blake2b(key, digest_size=16).digest()
        if digest in self._seen:
            return False
        self._seen.add(digest)
        return True

    def _within_quota(self, tier: str) -> bool:
        if self.quotas is None:
            return True
        self.available[tier] += 1
        if self.taken[tier] >= self.quotas.get(tier, 0):
            return False
        self.taken[tier] += 1
        return True


def curate(
    table: pa.Table, *, per_tier: Mapping[str, int] | None = None, order: str = "difficulty"
) -> Curation:
    """The rows of a graded pack ``table`` that make a puzzle pack, per the module's rules, with ``level``.

    ``per_tier`` maps a tier to the rows wanted (a tier left out gets none);
    None keeps every row that qualifies. ``order="difficulty"`` sorts by
    difficulty, easiest first (ties by deal_id); ``order="pack"`` keeps
    table order. The same table and options give the same result. The whole
    table is in memory: :func:`curate_folder` curates a pack folder of any size.
    """
    selection = Selection(_checked_options(per_tier, order))
    kept = selection.keep(table)
    if order == "difficulty":
        kept = kept.take(pc.sort_indices(kept, sort_keys=_DIFFICULTY_ORDER))
    levels = pa.array(range(1, kept.num_rows + 1), pa.int32())
    return Curation(
        table=kept.append_column(LEVEL_FIELD, levels),
        shortfalls=selection.shortfalls(),
        dropped_not_graded_win=selection.dropped["not_a_graded_win"],
        dropped_disputed=selection.dropped["disputed"],
        dropped_no_first_move=selection.dropped["no_first_move"],
        dropped_duplicate=selection.dropped["duplicate"],
        dropped_over_quota=selection.dropped["over_quota"],
    )


def _checked_options(per_tier: Mapping[str, int] | None, order: str) -> dict[str, int] | None:
    """The quotas in tier order (None for none), once ``order`` and ``per_tier`` are known to be good."""
    if order not in ORDERS:
        raise CurationError(f"unknown order {order!r} (orders: {', '.join(ORDERS)})")
    if per_tier is None:
        return None
    for tier, wanted in per_tier.items():
        if tier not in SOLVABLE_TIERS:
            raise QuotaError(f"unknown tier {tier!r} (tiers: {', '.join(SOLVABLE_TIERS)})")
        if isinstance(wanted, bool) or not isinstance(wanted, int) or wanted < 0:
            raise QuotaError(f"{tier}={wanted!r}: the count must be a whole number, at least 0")
        if wanted > MAX_QUOTA:
            raise QuotaError(f"{tier}={wanted!r}: the count must be at most {MAX_QUOTA}")
    return {tier: per_tier[tier] for tier in SOLVABLE_TIERS if tier in per_tier}


def curate_folder(
    source: Path,
    target: Path,
    *,
    per_tier: dict[str, int] | None,
    order: str,
    provenance: dict[str, str] | None = None,
    batch_rows: int = BATCH_ROWS,
    range_rows: int = RANGE_ROWS,
) -> Manifest:
    """Curate the pack folder ``source`` into the pack folder ``target``; the new manifest.

    The manifest records the source pack, the rules and the shortfalls (tiers
    with fewer qualifying deals than their quota). Memory holds a batch of
    ``batch_rows`` rows, the rule-3 digests (:class:`Selection`), and when
    ordering by difficulty the sort keys and ranks of the rows kept and
    ``range_rows`` rows at a time (:func:`sorted_by_difficulty`); never the
    pack. Temporary files go to a hidden folder beside ``target``
    (``.NAME.curating-*``), deleted afterwards, also on error; one that a
    killed curation left is deleted first.
    """
    source_origin = read_manifest(source).origin
    selection = Selection(_checked_options(per_tier, order))
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    for stale in target.parent.glob(f".{target.name}.curating-*"):  # left by a curation that was killed
        shutil.rmtree(stale, ignore_errors=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.curating-", dir=target.parent))
    try:
        kept = staging / "kept.parquet"
        schema_metadata = _select(source, kept, selection, batch_rows=batch_rows)
        if not selection.kept:
            rows: Iterator[pa.Table] = iter(())
        elif order == "difficulty":
            rows = sorted_by_difficulty(kept, staging, batch_rows=batch_rows, range_rows=range_rows)
        else:
            rows = read_pack_batches(kept, _UNCHECKED, batch_rows=batch_rows)
        origin = Origin(
            name=target.name,
            kind="curated",
            blackhole_version=__version__,
            dealing_scheme=source_origin.dealing_scheme,
            curated_from=source_origin.name,
            source_config=source_origin.config,
            curation=CurationRecord(
                per_tier=per_tier,
                order=order,
                dropped=dict(selection.dropped),
                shortfalls=selection.shortfalls(),
            ),
        )
        files_metadata = (provenance or {}) | {"blackhole_curated_from": source_origin.name}
        return write_pack_folder(
            target, _numbered(rows, schema_metadata), origin=origin, provenance=files_metadata
        )
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _select(source: Path, kept: Path, selection: Selection, *, batch_rows: int) -> dict[bytes, bytes] | None:
    """Copy the rows of the pack folder ``source`` that ``selection`` keeps to the Parquet file ``kept``, in pack order.

    Returns the schema metadata of the pack's first file, which the curated
    rows carry as a whole-pack read would give them. When no row stays
    (``selection.kept`` is 0), ``kept`` is no Parquet file to read.
    """
    schema_metadata = None
    with writing_pack(kept) as write:
        for number, batch in enumerate(pack_folder_batches(source, batch_rows=batch_rows)):
            if number == 0:
                schema_metadata = batch.schema.metadata
            chosen = selection.keep(batch)
            if chosen.num_rows:
                write(chosen)
    return schema_metadata


def sorted_by_difficulty(
    path: Path, staging: Path, *, batch_rows: int = BATCH_ROWS, range_rows: int = RANGE_ROWS
) -> Iterator[pa.Table]:
    """The rows of the Parquet file at ``path`` easiest first (ties by deal_id), in tables of at most ``range_rows``.

    An external sort: only the sort keys of every row are read at once
    (difficulty and deal_id, with each row's sort index and rank: about
    60 bytes a row). Each row then goes, read ``batch_rows`` at a time, to the
    temporary file in ``staging`` of its range of ``range_rows`` ranks; the
    ranges are read back in order, each sorted in memory by rank, and deleted.
    """
    keys = pq.read_table(path, columns=[name for name, _ in _DIFFICULTY_ORDER])
    ranks = np.empty(keys.num_rows, np.int64)
    ranks[pc.sort_indices(keys, sort_keys=_DIFFICULTY_ORDER).to_numpy()] = np.arange(keys.num_rows)
    del keys
    ranges = [staging / f"range-{number}.parquet" for number in range(-(-len(ranks) // range_rows))]
    with ExitStack() as stack:
        writers = [stack.enter_context(writing_pack(part)) for part in ranges]
        start = 0
        for batch in read_pack_batches(path, _UNCHECKED, batch_rows=batch_rows):
            batch_ranks = ranks[start : start + batch.num_rows]
            start += batch.num_rows
            ranked = batch.append_column(_RANK, pa.array(batch_ranks))
            which = batch_ranks // range_rows
            for number in np.unique(which):
                writers[number](ranked.filter(pa.array(which == number)))
    del ranks
    for part in ranges:
        table = pq.read_table(part)
        part.unlink()
        yield table.take(pc.sort_indices(table.column(_RANK))).drop_columns([_RANK])


def _numbered(tables: Iterable[pa.Table], schema_metadata: dict[bytes, bytes] | None) -> Iterator[pa.Table]:
    """``tables`` with ``level`` appended (1, 2, ... across them all) and the curated pack's schema metadata."""
    done = 0
    for table in tables:
        levels = pa.array(range(done + 1, done + table.num_rows + 1), pa.int32())
        done += table.num_rows
        yield table.append_column(LEVEL_FIELD, levels).replace_schema_metadata(schema_metadata)


def curated_folder(pack: Path, name: str) -> Path:
    """Where the curated pack ``name`` of the pack folder ``pack`` goes: beside it, in the same folder.

    ``name`` is a pack name, not a path; CurationError when it is not, or
    when the folder it names is ``pack`` itself, lies inside it or holds it,
    however the paths are spelled (compared once resolved: ``.`` in a pack
    folder, a link to the pack). Beside ``.`` or ``..`` means beside the
    folder they stand for.

    >>> curated_folder(Path("output/packs/default"), "best")
    PosixPath('output/packs/best')
    """
    if not name or name in (".", "..") or "/" in name or "\\" in name:
        raise CurationError(f"curated pack name {name!r}: expected a pack name, not a path")
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
    pack: Path, name: str, *, per_tier: dict[str, int] | None = None, order: str = "difficulty"
) -> tuple[Path, Manifest]:
    """Curate the pack folder ``pack`` into the pack folder ``name`` beside it (:func:`curated_folder`).

    Returns where the curated pack is and its manifest. What is there
    already is checked before any work (:func:`pipeline.files.check_replaceable_folder`),
    and that the folder it goes in can be written in (:func:`pipeline.files.check_folder_writable`).
    """
    target = check_replaceable_folder(curated_folder(pack, name), marked_by=MANIFEST)
    check_folder_writable(target, replaced=True)
    return target, curate_folder(pack, target, per_tier=per_tier, order=order)
