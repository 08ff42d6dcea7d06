"""The rules that make a graded pack a puzzle pack, applied to its rows batch by batch (:class:`Selection`).

In this order:

1. keep ``solved`` rows graded ``exact`` with a tier from easy to expert
   (unsolvable, unknown, out-of-budget and untiered rows go), and drop those
   whose cross-check contradicts the verdict (``agree`` false);
2. drop rows without a legal first move (``first_moves`` null or 0);
3. drop a deal that repeats an earlier one up to suits and pile order
   (:func:`pipeline.game.canonical.canonical_key`), keeping the first in pack order;
4. with quotas, keep the first N rows of each tier in pack order.

With play records (``blackhole curate --plays``, :class:`PlayChoices`), a deal
a play-tester marked ``reject`` is left out after rule 2, before it could
count as the first of its deal or within its tier's quota; the manifest lists
those deals with the play records' part in the curation, not among the rules' counts.

>>> DROP_REASONS[0], Selection({"easy": 1}).taken["easy"]
('not_a_graded_win', 0)
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field

import pyarrow as pa

from pipeline.errors import BlackholeError
from pipeline.game.canonical import canonical_key
from pipeline.game.deal import Deal
from pipeline.game.games import BLACK_HOLE, Game
from pipeline.game.verdicts import Verdict
from pipeline.packs.labels import SOLVABLE_TIERS, GradeStatus
from pipeline.packs.schema import LEVEL_FIELD

NEEDED_COLUMNS = ("deal_id", "board", "verdict", "grade_status", "tier", "first_moves", "difficulty")
# What rules 1 (twice), 2, 3 and 4 drop, as the manifest names it.
DROP_REASONS = ("not_a_graded_win", "disputed", "no_first_move", "duplicate", "over_quota")


class CurationError(BlackholeError, ValueError):
    """A pack, an option or a destination that curation cannot work with."""


@dataclass(frozen=True)
class PlayChoices:
    """What a play-test asks of a curation: the deals to leave out (marked ``reject``) and, to order by play,
    each deal's observed difficulty, for those with at least ``min_attempts`` finished attempts.

    ``source`` names the play records in the manifest; ``placed`` is None
    when the curated order is not to follow play.
    """

    source: str
    rejected: frozenset[str] = frozenset()
    placed: Mapping[str, float] | None = field(default=None)
    min_attempts: int = 0


class Selection:
    """Rules 1-4 over a pack's rows, given batch by batch in pack order; :meth:`keep` returns the rows that stay.

    Between batches it holds a tally per rule and, for rule 3, a 16-byte
    BLAKE2b digest of the canonical key of every distinct deal that passed
    rules 1 and 2 (over quota or not: a later copy of it is still a
    duplicate): about 90 bytes a deal in a Python set, some 90 MB for a
    million. The rows themselves are never held beyond the batch.
    """

    def __init__(
        self, quotas: dict[str, int] | None, rejected: frozenset[str] = frozenset(), game: Game = BLACK_HOLE
    ) -> None:
        self.quotas = quotas
        self.game = game  # of the pack's deals
        self.rejected = rejected  # deal ids a play-tester marked reject
        self.left_out: list[str] = []  # of which met, in pack order
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
                column["verdict"][row] == Verdict.SOLVED
                and column["grade_status"][row] == GradeStatus.EXACT
                and tier in SOLVABLE_TIERS
            ):
                reason = "not_a_graded_win"
            elif agree[row] is False:  # a verdict its cross-check contradicts is no puzzle to ship
                reason = "disputed"
            elif not column["first_moves"][row]:
                reason = "no_first_move"
            elif column["deal_id"][row] in self.rejected:
                self.left_out.append(column["deal_id"][row])
                continue
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
        key = canonical_key(Deal.from_board_text(board, source=source, game=self.game))
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
