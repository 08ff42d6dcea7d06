"""Curating a graded pack: the winnable, playable, distinct deals, per-tier quotas, and levels.

:func:`curate` applies these rules, in this order, then numbers the deals:

1. keep ``solved`` rows graded ``exact`` with a tier from easy to expert
   (unsolvable, unknown, out-of-budget and untiered rows go), and drop those
   whose cross-check contradicts the verdict (``agree`` false);
2. drop rows without a legal first move (``first_moves`` null or 0);
3. drop a deal that repeats an earlier one up to suits and pile order
   (:func:`canonical_key`), keeping the first in table order;
4. with quotas, keep the first N rows of each tier in table order.

The curated table has the pack's columns and schema metadata, with ``level``
(int32, 1..N: the position in the curated order) appended last.

>>> parse_quotas("easy=2, expert=1")
{'easy': 2, 'expert': 1}
>>> parse_quotas("easy=2,unsolvable=1")
Traceback (most recent call last):
...
pipeline.stages.curate.QuotaError: 'unsolvable=1': unknown tier 'unsolvable' (tiers: easy, medium, hard, expert)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import permutations
from pathlib import Path

import pyarrow as pa

from pipeline import __version__
from pipeline.errors import BlackholeError
from pipeline.game.cards import NUM_CARDS, make_card, rank_of, suit_of
from pipeline.game.deal import PILE_SIZE, Deal
from pipeline.packs.folders import read_pack_folder, write_pack_folder
from pipeline.packs.manifest import CurationRecord, Manifest, Origin, read_manifest
from pipeline.packs.schema import LEVEL_FIELD, SOLVABLE_TIERS
from pipeline.stages.settings import ORDERS

NEEDED_COLUMNS = ("deal_id", "board", "verdict", "grade_status", "tier", "first_moves", "difficulty")

_SPADES = 3
_WHOLE_NUMBER = re.compile(r"[0-9]+")


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


def curate(
    table: pa.Table, *, per_tier: Mapping[str, int] | None = None, order: str = "difficulty"
) -> Curation:
    """The rows of a graded pack ``table`` that make a puzzle pack, per the module's rules, with ``level``.

    ``per_tier`` maps a tier to the rows wanted (a tier left out gets none);
    None keeps every row that qualifies. ``order="difficulty"`` sorts by
    difficulty, easiest first (ties by deal_id); ``order="pack"`` keeps
    table order. The same table and options give the same result.
    """
    if order not in ORDERS:
        raise CurationError(f"unknown order {order!r} (orders: {', '.join(ORDERS)})")
    quotas = None if per_tier is None else _checked_quotas(per_tier)
    missing = [name for name in NEEDED_COLUMNS if name not in table.column_names]
    if missing:
        raise CurationError(f"curating needs a graded pack; the table has no column {', '.join(missing)}")
    column = {name: table.column(name).to_pylist() for name in NEEDED_COLUMNS}

    rows = [
        row
        for row in range(table.num_rows)
        if column["verdict"][row] == "solved"
        and column["grade_status"][row] == "exact"
        and column["tier"][row] in SOLVABLE_TIERS
    ]
    graded_wins = len(rows)
    if "agree" in table.column_names:  # a verdict its cross-check contradicts is no puzzle to ship
        agree = table.column("agree").to_pylist()
        rows = [row for row in rows if agree[row] is not False]
    undisputed = len(rows)
    rows = [row for row in rows if column["first_moves"][row]]
    playable = len(rows)
    rows = _first_of_each_deal(rows, column["board"], column["deal_id"])
    distinct = len(rows)
    shortfalls: dict[str, tuple[int, int]] = {}
    if quotas is not None:
        rows, shortfalls = _within_quotas(rows, column["tier"], quotas)
    if order == "difficulty":
        difficulty, deal_id = column["difficulty"], column["deal_id"]
        rows.sort(key=lambda row: (difficulty[row] is None, difficulty[row] or 0.0, deal_id[row]))

    curated = table.take(pa.array(rows, pa.int64()))
    if LEVEL_FIELD.name in curated.column_names:
        curated = curated.drop_columns([LEVEL_FIELD.name])
    curated = curated.append_column(LEVEL_FIELD, pa.array(range(1, len(rows) + 1), pa.int32()))
    return Curation(
        table=curated,
        shortfalls=shortfalls,
        dropped_not_graded_win=table.num_rows - graded_wins,
        dropped_disputed=graded_wins - undisputed,
        dropped_no_first_move=undisputed - playable,
        dropped_duplicate=playable - distinct,
        dropped_over_quota=distinct - len(rows),
    )


def _checked_quotas(per_tier: Mapping[str, int]) -> dict[str, int]:
    for tier, wanted in per_tier.items():
        if tier not in SOLVABLE_TIERS:
            raise QuotaError(f"unknown tier {tier!r} (tiers: {', '.join(SOLVABLE_TIERS)})")
        if isinstance(wanted, bool) or not isinstance(wanted, int) or wanted < 0:
            raise QuotaError(f"{tier}={wanted!r}: the count must be a whole number, at least 0")
    return {tier: per_tier[tier] for tier in SOLVABLE_TIERS if tier in per_tier}


def _first_of_each_deal(rows: list[int], boards: list[str], deal_ids: list[str]) -> list[int]:
    """``rows`` without those whose deal repeats an earlier row's, up to suits and pile order."""
    seen: set[bytes] = set()
    kept = []
    for row in rows:
        key = canonical_key(Deal.from_board_text(boards[row], source=f"row {row} ({deal_ids[row]})"))
        if key not in seen:
            seen.add(key)
            kept.append(row)
    return kept


def _within_quotas(
    rows: list[int], tiers: list[str], quotas: dict[str, int]
) -> tuple[list[int], dict[str, tuple[int, int]]]:
    """The first ``quotas[tier]`` of ``rows`` in each tier, and the tiers short of their quota."""
    taken = dict.fromkeys(SOLVABLE_TIERS, 0)
    available = dict.fromkeys(SOLVABLE_TIERS, 0)
    kept = []
    for row in rows:
        tier = tiers[row]
        available[tier] += 1
        if taken[tier] < quotas.get(tier, 0):
            taken[tier] += 1
            kept.append(row)
    shortfalls = {
        tier: (wanted, available[tier]) for tier, wanted in quotas.items() if available[tier] < wanted
    }
    return kept, shortfalls


def curate_folder(
    source: Path,
    target: Path,
    *,
    per_tier: dict[str, int] | None,
    order: str,
    provenance: dict[str, str] | None = None,
) -> Manifest:
    """Curate the pack folder ``source`` into the pack folder ``target``; the new manifest.

    The manifest records the source pack, the rules and the shortfalls (tiers
    with fewer qualifying deals than their quota).
    """
    source_origin = read_manifest(source).origin
    curation = curate(read_pack_folder(source), per_tier=per_tier, order=order)
    files_metadata = (provenance or {}) | {"blackhole_curated_from": source_origin.name}
    origin = Origin(
        name=Path(target).name,
        kind="curated",
        blackhole_version=__version__,
        dealing_scheme=source_origin.dealing_scheme,
        curated_from=source_origin.name,
        source_config=source_origin.config,
        curation=CurationRecord(
            per_tier=per_tier,
            order=order,
            dropped={
                "not_a_graded_win": curation.dropped_not_graded_win,
                "disputed": curation.dropped_disputed,
                "no_first_move": curation.dropped_no_first_move,
                "duplicate": curation.dropped_duplicate,
                "over_quota": curation.dropped_over_quota,
            },
            shortfalls=dict(curation.shortfalls),
        ),
    )
    return write_pack_folder(target, [curation.table], origin=origin, provenance=files_metadata)


def curated_folder(pack: Path, name: str) -> Path:
    """Where the curated pack ``name`` of the pack folder ``pack`` goes: beside it, in the same folder.

    ``name`` is a pack name, not a path, and not ``pack``'s own name;
    CurationError otherwise.

    >>> curated_folder(Path("output/packs/default"), "best")
    PosixPath('output/packs/best')
    """
    if not name or name in (".", "..") or "/" in name or "\\" in name:
        raise CurationError(f"curated pack name {name!r}: expected a pack name, not a path")
    if name == Path(pack).name:
        raise CurationError(f"curated pack name {name!r}: would replace the pack it curates")
    return Path(pack).parent / name


def curate_beside(
    pack: Path, name: str, *, per_tier: dict[str, int] | None = None, order: str = "difficulty"
) -> tuple[Path, Manifest]:
    """Curate the pack folder ``pack`` into the pack folder ``name`` beside it (:func:`curated_folder`).

    Returns where the curated pack is and its manifest.
    """
    target = curated_folder(pack, name)
    return target, curate_folder(pack, target, per_tier=per_tier, order=order)
