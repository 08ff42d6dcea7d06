"""Each stage's settings as one small frozen object, with its defaults: what a run config nests.

This module imports nothing heavy (no Numba, OR-Tools or Arrow), so the
command line and the config reader can use the defaults without loading the
engine.

>>> CrosscheckSettings().sample, SolveSettings(max_nodes=10).max_nodes
(0.05, 10)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from pathlib import Path

from pipeline.engine.budgets import (
    DEFAULT_MAX_NODES,
    DEFAULT_MAX_POSITIONS,
    DEFAULT_REFERENCE_NODES,
    DEFAULT_TIME_LIMIT,
)

DEFAULT_SAMPLE = 0.05
"""Share of solved deals the cross-check samples (every unsolvable one is checked)."""
DEFAULT_TIERS = Path(__file__).with_name("tiers.toml")
"""The tiers file shipped with the package, beside this module (written by ``make calibrate``)."""


class CurateOrder(str, Enum):
    """How a curated pack is ordered: ``difficulty``, easiest first (ties by deal id), or ``pack``, the pack's order."""

    DIFFICULTY = "difficulty"
    PACK = "pack"


ORDERS = tuple(order.value for order in CurateOrder)  # until the curate stage takes CurateOrder


@dataclass(frozen=True)
class SolveSettings:
    """The exact solver's node budget per deal; past it the verdict is ``unknown``."""

    max_nodes: int = DEFAULT_MAX_NODES


@dataclass(frozen=True)
class CrosscheckSettings:
    """Which deals the cross-check takes (``sample`` of the wins and ``loss_sample`` of the losses,
    by ``seed``) and its budgets; both samples 0 turn the cross-check off."""

    sample: float = DEFAULT_SAMPLE
    seed: int = 0
    loss_sample: float = 1.0
    time_limit: float = DEFAULT_TIME_LIMIT  # CP-SAT deterministic seconds per deal
    reference_nodes: int = DEFAULT_REFERENCE_NODES  # the reference search's budget when CP-SAT cannot tell


@dataclass(frozen=True)
class GradeSettings:
    """The game-tree walk's budget of positions per deal, the tiers file, and which wins are graded.

    ``sample`` is the share of solved deals graded (1: all, 0: none), chosen
    by ``seed`` and the deal id (:func:`pipeline.stages.sampling.graded`).
    """

    max_positions: int = DEFAULT_MAX_POSITIONS
    tiers: Path = DEFAULT_TIERS
    sample: float = 1.0
    seed: int = 0


@dataclass(frozen=True)
class CurateSettings:
    """Deals wanted per tier (None: every deal that qualifies) and the curated order."""

    per_tier: tuple[tuple[str, int], ...] | None = None
    order: str = "difficulty"

    def within(self, count: int) -> CurateSettings:
        """These settings with quotas that ask for at most ``count`` deals, the pack's size.

        Quotas asking for more are scaled down in proportion, each rounded down; the
        deals that rounding leaves over go one each, in tier order, to the tiers it cut.

        >>> quotas = (("easy", 100), ("medium", 100), ("hard", 100), ("expert", 100))
        >>> CurateSettings(per_tier=quotas).within(200).per_tier
        (('easy', 50), ('medium', 50), ('hard', 50), ('expert', 50))
        >>> CurateSettings(per_tier=quotas).within(7).per_tier
        (('easy', 2), ('medium', 2), ('hard', 2), ('expert', 1))
        >>> CurateSettings(per_tier=(("easy", 3), ("hard", 1))).within(12).per_tier
        (('easy', 3), ('hard', 1))
        """
        wanted = sum(quota for _, quota in self.per_tier or ())
        if self.per_tier is None or wanted <= count:
            return self
        scaled = [
            (tier, quota * count // wanted, quota * count % wanted > 0) for tier, quota in self.per_tier
        ]
        left = count - sum(quota for _, quota, _ in scaled)
        fitted = []
        for tier, quota, cut in scaled:
            extra = 1 if cut and left > 0 else 0
            left -= extra
            fitted.append((tier, quota + extra))
        return replace(self, per_tier=tuple(fitted))
