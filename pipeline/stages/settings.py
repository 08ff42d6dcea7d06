"""Each stage's settings as one small frozen object, with its defaults and bounds: what a run config nests.

A stage pass takes its settings (what it computes) and :class:`PassOptions`
(how the pass runs: workers, backend, progress, timings), each whole:
``solve_pack(source, target, SolveSettings(), PassOptions(jobs=2))``. A
numeric setting declares its bounds once, as field metadata
(:func:`bounds_of`), and the command line's options, the config reader and
the settings objects themselves take them from there: a settings object the
command line would refuse cannot be made (:func:`checked_fields`: TypeError
naming a field of the wrong type, ArgumentError one out of its bounds).

This module imports nothing heavy (no Numba, OR-Tools or Arrow), so the
command line and the config reader can use the defaults without loading the
engine.

>>> CrosscheckSettings().sample, SolveSettings(max_nodes=10).max_nodes
(0.05, 10)
>>> bounds_of(SolveSettings, "max_nodes").lowest
1
>>> SolveSettings(max_nodes=0)
Traceback (most recent call last):
...
pipeline.errors.ArgumentError: SolveSettings: max_nodes must be from 1 to 4611686018427387904, got 0
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass, field, replace
from enum import Enum
from pathlib import Path, PosixPath
from typing import Any

from pipeline.engine.budgets import (
    DEFAULT_MAX_MEMORY_MIB,
    DEFAULT_MAX_NODES,
    DEFAULT_MAX_POSITIONS,
    DEFAULT_REFERENCE_NODES,
    DEFAULT_TIME_LIMIT,
    LEAST_MAX_MEMORY_MIB,
    MAX_BUDGET,
    MAX_MEMORY_MIB,
    MAX_TIME_LIMIT,
)
from pipeline.errors import of_type, real_number, whole_number
from pipeline.game.games import Game
from pipeline.game.shuffles import MAX_SEED
from pipeline.workers import MAX_JOBS, Backend

DEFAULT_SAMPLE = 0.05
"""Share of solved deals the cross-check samples (every unsolvable one is checked)."""
_INSTALLED = Path(__file__).parent.parent  # the installed package's folder, pipeline/


class ShippedFile(PosixPath):
    """A file shipped with the package: a path like any other, whose repr names it inside the package
    (the call that builds it) rather than where the package happens to be installed.

    >>> shipped_file("stages/tiers.toml")
    shipped_file('stages/tiers.toml')
    >>> shipped_file("stages/tiers.toml") == _INSTALLED / "stages" / "tiers.toml"
    True
    >>> GradeSettings()
    GradeSettings(max_positions=250000000, max_memory_mib=1024, tiers=shipped_file('stages/tiers.toml'), sample=1.0, seed=0)
    """

    def __repr__(self) -> str:
        try:
            inside = self.relative_to(_INSTALLED)
        except ValueError:  # a path made from it that leaves the package
            return repr(Path(self))
        return f"shipped_file({inside.as_posix()!r})"


def shipped_file(inside: str) -> Path:
    """The file at ``inside`` (a relative path) in the installed package."""
    return ShippedFile(_INSTALLED / inside)


DEFAULT_TIERS = shipped_file("stages/tiers.toml")
"""The tiers file shipped with the package for Black Hole, beside this module (written by ``make calibrate``);
``GradeSettings()`` and its signature show it as ``shipped_file('stages/tiers.toml')``."""


def shipped_tiers(game: Game) -> Path:
    """The tiers file shipped for ``game``, its ``tiers_file`` beside :data:`DEFAULT_TIERS` (Black Hole's
    ``tiers.toml`` is that file; each is calibrated on its game's deals, in the same player's units)."""
    return DEFAULT_TIERS.with_name(game.tiers_file)


def tiers_for(path: Path, game: Game) -> Path:
    """The tiers file to grade ``game`` by when ``path`` is asked for: the game's own shipped file in place
    of the default (Black Hole's), any other file as it is."""
    return shipped_tiers(game) if path == DEFAULT_TIERS else path


class CurateOrder(str, Enum):
    """How a curated pack is ordered: ``difficulty``, easiest first (ties by deal id), or ``pack``, the pack's order."""

    DIFFICULTY = "difficulty"
    PACK = "pack"


@dataclass(frozen=True)
class Bounds:
    """The least and greatest values a numeric setting takes (None: unbounded on that side)."""

    lowest: int | float | None = None
    highest: int | float | None = None


_BOUNDS = "bounds"  # the field metadata key a setting's Bounds are declared under


def bounded(default: Any, lowest: float | None, highest: float | None) -> Any:
    """A dataclass field with ``default`` (``dataclasses.MISSING``: none) whose :class:`Bounds` are ``lowest`` and ``highest``."""
    return field(default=default, metadata={_BOUNDS: Bounds(lowest, highest)})


def field_bounds(declared: dataclasses.Field[Any]) -> Bounds:
    """The bounds the dataclass field ``declared`` declares (unbounded when none)."""
    found: Bounds = declared.metadata.get(_BOUNDS, Bounds())
    return found


def bounds_of(settings: type, name: str) -> Bounds:
    """The bounds declared for the field ``name`` of the dataclass ``settings`` (unbounded when none)."""
    for declared in dataclasses.fields(settings):
        if declared.name == name:
            return field_bounds(declared)
    raise KeyError(f"{settings.__name__} has no field {name!r}")


def checked_fields(settings: Any) -> None:
    """Refuse the settings object ``settings`` unless each field is of its type and within its bounds.

    An ``int`` field takes a whole number (a bool is not one), a ``float`` field any finite number
    (stored as a float), a ``bool`` field a bool, a ``Path`` field a path or its text (stored as a
    Path): else a TypeError naming the field. A number outside the field's :class:`Bounds` (the
    command line's ``min`` and ``max``), NaN or an infinity is an ArgumentError naming the settings
    and the field. Every settings class calls it from ``__post_init__``.

    >>> GradeSettings(max_positions=True)
    Traceback (most recent call last):
    ...
    TypeError: max_positions must be an int, got bool
    >>> CrosscheckSettings(time_limit=float("nan"))
    Traceback (most recent call last):
    ...
    pipeline.errors.ArgumentError: CrosscheckSettings: time_limit must be a finite number, got nan
    """
    where = type(settings).__name__
    for declared in dataclasses.fields(settings):
        name, value, bounds = declared.name, getattr(settings, declared.name), field_bounds(declared)
        fixed: Any = value
        if declared.type == "int":
            lowest, highest = bounds.lowest, bounds.highest
            fixed = whole_number(
                value,
                name,
                lowest=None if lowest is None else int(lowest),
                highest=None if highest is None else int(highest),
                where=where,
            )
        elif declared.type == "float":
            fixed = real_number(value, name, lowest=bounds.lowest, highest=bounds.highest, where=where)
        elif declared.type == "bool":
            of_type(value, bool, name)
        elif declared.type == "Path":
            of_type(value, (str, os.PathLike), name, "a path")
            fixed = value if isinstance(value, Path) else Path(value)
        if fixed is not value:
            object.__setattr__(settings, name, fixed)


@dataclass(frozen=True)
class SolveSettings:
    """The exact solver's node budget per deal (past it the verdict is ``unknown``), and whether a lost
    deal's longest play is sought.

    The longest play (``max_cards_played`` of a loss) can take several times
    the verdict's search; without it a loss's ``max_cards_played`` is null
    and its verdict the same proof.
    """

    max_nodes: int = bounded(DEFAULT_MAX_NODES, 1, MAX_BUDGET)
    longest_play: bool = True

    def __post_init__(self) -> None:
        checked_fields(self)

    def metadata(self) -> dict[str, str]:
        """The settings as a pack's schema metadata; ``longest_play`` only when false, so default packs keep their bytes.

        >>> SolveSettings(max_nodes=10, longest_play=False).metadata()
        {'max_nodes': '10', 'longest_play': 'false'}
        """
        return {"max_nodes": str(self.max_nodes)} | ({} if self.longest_play else {"longest_play": "false"})


@dataclass(frozen=True)
class CrosscheckSettings:
    """Which deals the cross-check takes (``sample`` of the wins and ``loss_sample`` of the losses,
    by ``seed``) and its budgets; both samples 0 turn the cross-check off."""

    sample: float = bounded(DEFAULT_SAMPLE, 0.0, 1.0)
    seed: int = bounded(0, 0, MAX_SEED)
    loss_sample: float = bounded(1.0, 0.0, 1.0)
    time_limit: float = bounded(DEFAULT_TIME_LIMIT, 0.01, MAX_TIME_LIMIT)  # CP-SAT deterministic seconds
    reference_nodes: int = bounded(DEFAULT_REFERENCE_NODES, 1, MAX_BUDGET)  # when CP-SAT cannot tell

    def __post_init__(self) -> None:
        checked_fields(self)

    def metadata(self) -> dict[str, str]:
        """The settings as a pack's schema metadata (the reference search's budget goes unsaid).

        >>> CrosscheckSettings(sample=0.5).metadata()
        {'cpsat_time_limit': '30.0', 'crosscheck_sample': '0.5', 'crosscheck_seed': '0'}
        """
        return {
            "cpsat_time_limit": str(self.time_limit),
            "crosscheck_sample": str(self.sample),
            "crosscheck_seed": str(self.seed),
        }

    def sample_metadata(self) -> dict[str, str]:
        """The share of losses checked, said only when it is not all of them (a full check's pack as before)."""
        return {"crosscheck_loss_sample": str(self.loss_sample)} if self.loss_sample < 1.0 else {}


@dataclass(frozen=True)
class GradeSettings:
    """The game-tree walk's budgets per deal (the memory one grading worker may hold, in MiB, and a guard
    of positions entered), the tiers file, and which wins are graded.

    A walk that needs more memory than ``max_memory_mib`` (its tables get
    what :data:`~pipeline.engine.budgets.WORKER_BASE_MIB` leaves of it), or
    enters more than ``max_positions`` positions, ends ``out_of_budget``.
    ``sample`` is the share of solved deals graded (1: all, 0: none), chosen
    by ``seed`` and the deal id (:func:`pipeline.stages.sampling.graded`).
    """

    max_positions: int = bounded(DEFAULT_MAX_POSITIONS, 1, MAX_BUDGET)
    max_memory_mib: int = bounded(DEFAULT_MAX_MEMORY_MIB, LEAST_MAX_MEMORY_MIB, MAX_MEMORY_MIB)
    tiers: Path = DEFAULT_TIERS
    sample: float = bounded(1.0, 0.0, 1.0)
    seed: int = bounded(0, 0, MAX_SEED)

    def __post_init__(self) -> None:
        checked_fields(self)

    def metadata(self) -> dict[str, str]:
        """The walk's budgets as a pack's schema metadata (the tiers say themselves: :meth:`Tiers.metadata`).

        >>> GradeSettings(max_memory_mib=2048).metadata()
        {'grade_max_positions': '250000000', 'grade_max_memory_mib': '2048'}
        """
        return {
            "grade_max_positions": str(self.max_positions),
            "grade_max_memory_mib": str(self.max_memory_mib),
        }

    def sample_metadata(self) -> dict[str, str]:
        """The grade sample, said only when it is not every win (a full grade's pack as before).

        >>> GradeSettings(sample=0.25, seed=3).sample_metadata()
        {'grade_sample': '0.25', 'grade_seed': '3'}
        """
        return {"grade_sample": str(self.sample), "grade_seed": str(self.seed)} if self.sample < 1.0 else {}


@dataclass(frozen=True)
class CurateSettings:
    """Deals wanted per tier (None: every deal that qualifies) and the curated order."""

    per_tier: tuple[tuple[str, int], ...] | None = None
    order: CurateOrder = CurateOrder.DIFFICULTY

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


@dataclass(frozen=True)
class PassOptions:
    """How a stage's pass over a pack file runs, whatever it computes: the same for every stage.

    ``jobs`` workers on ``backend``; a progress bar on stderr when
    ``progress``; ``timings`` writes each deal's seconds (without, the same
    input gives the same bytes); ``batch_rows`` rows are read, worked and
    written at a time (None: :data:`pipeline.packs.parquet.BATCH_ROWS`); the
    rows written never depend on any of these but ``timings``.
    """

    jobs: int = bounded(1, 1, MAX_JOBS)
    backend: Backend = Backend.LOKY
    progress: bool = False
    timings: bool = True
    batch_rows: int | None = None

    def __post_init__(self) -> None:
        checked_fields(self)
