"""The closed sets a pack's string columns and folders use: tiers and grade statuses (light: no Arrow).

The command line takes its choices from these enums, so it can list them
without loading Arrow; :mod:`pipeline.packs.schema` declares the columns
that hold them. (Verdicts are the game's: :class:`pipeline.game.verdicts.Verdict`.)

>>> PACK_TIERS
('easy', 'medium', 'hard', 'expert', 'unsolvable', 'ungraded')
>>> PackTier("ungraded") is PackTier.UNGRADED, Tier.EASY == "easy"
(True, True)
"""

from __future__ import annotations

from enum import Enum


class Tier(str, Enum):
    """A deal's difficulty tier, easiest first."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"
    EXPERT = "expert"
    UNSOLVABLE = "unsolvable"


class GradeStatus(str, Enum):
    """How far a deal's grading got: only ``exact`` grades carry metrics."""

    EXACT = "exact"
    OUT_OF_BUDGET = "out_of_budget"
    OVERFLOW = "overflow"
    UNKNOWN = "unknown"
    NOT_SAMPLED = "not_sampled"  # a win left out of the run's grade sample


class PackTier(str, Enum):
    """A pack folder's tier partitions, in order: each :class:`Tier`, then ``ungraded`` for the deals without one
    (an unknown verdict, a grade out of budget, a win outside the grade sample)."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"
    EXPERT = "expert"
    UNSOLVABLE = "unsolvable"
    UNGRADED = "ungraded"


class PackKind(str, Enum):
    """What a pack folder is: a run's ``pack`` (every deal), or a ``curated`` pack made from one."""

    PACK = "pack"
    CURATED = "curated"


SOLVABLE_TIERS = tuple(tier.value for tier in Tier if tier is not Tier.UNSOLVABLE)
PACK_TIERS = tuple(tier.value for tier in PackTier)
UNGRADED = PackTier.UNGRADED.value
