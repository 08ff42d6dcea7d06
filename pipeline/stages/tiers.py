"""Difficulty scores and tiers: how hard a graded deal is, as one number and as a named tier.

A solvable deal whose game tree was counted exactly (:mod:`pipeline.stages.grade`)
gets the score

    difficulty = odds_weight * (-log10 random_win_probability)
               + share_weight * (-log10 winnable_share)
               + trap_weight * traps

The first term counts the powers of ten against a player who picks uniformly
among the legal moves; the second, how small a share of the positions within
one move of a winnable one are winnable themselves; the third, the decisions
along the pack's solution that offer a move after which no win exists. Every
term is at least 0, and the score depends on the deal, its solution and the
weights alone.

Tiers cut the scores at three thresholds, each the lowest score of its tier:
``easy`` below ``medium``, then ``medium``, ``hard`` and ``expert``; a score
exactly at a threshold belongs to the tier it starts. An unsolvable deal is
in the tier ``unsolvable`` and has no score.

Weights and thresholds live in a TOML file (``tiers.toml`` beside this module, shipped with the package
as :data:`~pipeline.stages.settings.DEFAULT_TIERS` and written by
``blackhole calibrate`` at the quartiles of a sample's scores, so that
solvable deals fall into roughly equal quarters)::

    [score]              # optional; these are the defaults
    odds_weight = 1.0
    share_weight = 0.5
    trap_weight = 0.1

    [tiers]              # required: the lowest score of each tier
    medium = 8.5
    hard = 10.0
    expert = 12.0

Weights are numbers at least 0; thresholds are numbers, each above the one
before. Anything else is a ConfigError naming the file and line.

>>> tiers = parse_tiers("[tiers]\\nmedium = 8.5\\nhard = 10\\nexpert = 12\\n")
>>> [tiers.tier_of(score).value for score in (8.4999, 8.5, 11.0, 12.0)]
['easy', 'medium', 'hard', 'expert']
>>> round(tiers.score.of(random_win_probability=1e-6, winnable_share=0.01, traps=20), 6)
9.0
>>> parse_tiers("[tiers]\\nmedium = 8.5\\nhard = 8\\nexpert = 12\\n", source="t.toml")
Traceback (most recent call last):
...
pipeline.toml_files.ConfigError: t.toml:3: [tiers] hard must be above medium (8.5), got 8.0
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

from pipeline.errors import BlackholeError
from pipeline.files import check_writable, replacing
from pipeline.packs.labels import Tier
from pipeline.toml_files import ConfigError, line_of, not_finite, parse_toml, read_text, type_name

THRESHOLDS = ("medium", "hard", "expert")
WEIGHTS = ("odds_weight", "share_weight", "trap_weight")
_FORMULA_COMMENT = (
    "# difficulty = odds_weight * -log10(random_win_probability)",
    "#            + share_weight * -log10(winnable_share) + trap_weight * traps",
)
CALIBRATION_DIGITS = 4  # calibrated thresholds are rounded to this many decimals, for a readable file


class CalibrationError(BlackholeError, ValueError):
    """A sample that cannot set thresholds (too few scored deals, or quartiles that coincide)."""


@dataclass(frozen=True)
class Score:
    """The weights of the difficulty score's three terms."""

    odds_weight: float = 1.0
    share_weight: float = 0.5
    trap_weight: float = 0.1

    def of(self, *, random_win_probability: float, winnable_share: float, traps: int) -> float:
        """The difficulty of a solvable deal (``random_win_probability`` and ``winnable_share`` above 0)."""
        return (
            self.odds_weight * -math.log10(random_win_probability)
            + self.share_weight * -math.log10(winnable_share)
            + self.trap_weight * traps
        )


@dataclass(frozen=True)
class Tiers:
    """The score weights and the lowest score of the medium, hard and expert tiers."""

    medium: float
    hard: float
    expert: float
    score: Score = Score()

    def tier_of(self, difficulty: float) -> Tier:
        """The tier of a solvable deal with this ``difficulty``: the highest whose threshold it reaches."""
        if difficulty >= self.expert:
            return Tier.EXPERT
        if difficulty >= self.hard:
            return Tier.HARD
        if difficulty >= self.medium:
            return Tier.MEDIUM
        return Tier.EASY

    def metadata(self) -> dict[str, str]:
        """Schema metadata entries for a graded pack: every threshold and weight, exactly."""
        thresholds = {f"tier_{name}": repr(float(getattr(self, name))) for name in THRESHOLDS}
        weights = {f"score_{name}": repr(float(getattr(self.score, name))) for name in WEIGHTS}
        return thresholds | weights

    def to_toml(self, *, note: str = "") -> str:
        """The TOML text that :func:`parse_tiers` reads back as these tiers, ``note`` as a leading comment."""
        lines = [f"# {line}".rstrip() for line in note.splitlines()]
        if lines:
            lines.append("")
        lines += [*_FORMULA_COMMENT, "[score]"]
        lines += [f"{name} = {float(getattr(self.score, name))!r}" for name in WEIGHTS]
        lines += ["", "[tiers]  # the lowest score of each tier; below medium is easy"]
        lines += [f"{name} = {float(getattr(self, name))!r}" for name in THRESHOLDS]
        return "\n".join(lines) + "\n"


def calibrated(score: Score, difficulties: Sequence[float]) -> Tiers:
    """Tiers with ``score`` whose thresholds are the quartiles of ``difficulties`` (rounded).

    >>> calibrated(Score(), [1.0, 2.0, 3.0, 4.0, 5.0])
    Tiers(medium=2.0, hard=3.0, expert=4.0, score=Score(odds_weight=1.0, share_weight=0.5, trap_weight=0.1))
    """
    if len(difficulties) < 4:
        raise CalibrationError(f"calibration needs at least 4 scored deals, got {len(difficulties)}")
    quartiles = statistics.quantiles(difficulties, n=4, method="inclusive")
    medium, hard, expert = (round(q, CALIBRATION_DIGITS) for q in quartiles)
    if not medium < hard < expert:
        raise CalibrationError(f"the quartiles {medium}, {hard}, {expert} do not rise; score more deals")
    return Tiers(medium, hard, expert, score)


def load_tiers(path: Path) -> Tiers:
    """The tiers in the TOML file at ``path``."""
    return parse_tiers(read_text(path), source=str(path))


def load_score(path: Path) -> Score:
    """The score weights in the tiers file at ``path`` (its thresholds may be absent)."""
    return _parse(read_text(path), str(path))[0]


def parse_tiers(text: str, *, source: str = "<tiers>") -> Tiers:
    """The tiers in TOML ``text``; errors name ``source`` and the line."""
    score, thresholds = _parse(text, source)
    header = line_of(text, r"\[tiers\]", header=True)
    for name in THRESHOLDS:
        if name not in thresholds:
            raise ConfigError(f"[tiers] needs {name!r}", source=source, line=header)
    for lower, higher in pairwise(THRESHOLDS):
        if not thresholds[higher] > thresholds[lower]:
            raise ConfigError(
                f"[tiers] {higher} must be above {lower} ({thresholds[lower]}), got {thresholds[higher]}",
                source=source,
                line=line_of(text, higher),
            )
    return Tiers(**thresholds, score=score)


def _parse(text: str, source: str) -> tuple[Score, dict[str, float]]:
    """The score weights and whichever thresholds ``text`` gives, each checked."""
    document = parse_toml(text, source=source)
    tables = {"score": WEIGHTS, "tiers": THRESHOLDS}
    found: dict[str, dict[str, float]] = {"score": {}, "tiers": {}}
    for table, entries in document.items():
        if table not in tables:
            raise ConfigError(
                f"unknown key {table!r} (expected [score] and [tiers] tables)",
                source=source,
                line=line_of(text, table),
            )
        if not isinstance(entries, dict):
            raise ConfigError(f"{table} must be a table", source=source, line=line_of(text, table))
        for key, value in entries.items():
            line = line_of(text, key)
            if key not in tables[table]:
                known = ", ".join(tables[table])
                raise ConfigError(
                    f"[{table}] has unknown key {key!r} (known: {known})", source=source, line=line
                )
            found[table][key] = _number(f"[{table}] {key}", value, source, line, nonnegative=table == "score")
    return Score(**found["score"]), found["tiers"]


def _number(name: str, value: Any, source: str, line: int, *, nonnegative: bool) -> float:
    if type(value) not in (int, float):
        raise ConfigError(f"{name} must be a number, not {type_name(value)}", source=source, line=line)
    if (got := not_finite(value)) is not None:
        raise ConfigError(f"{name} must be a finite number, got {got}", source=source, line=line)
    if nonnegative and value < 0:
        raise ConfigError(f"{name} must be at least 0, got {value}", source=source, line=line)
    return float(value)


def write_tiers(tiers: Tiers, path: Path, *, note: str = "") -> None:
    """Write ``tiers`` as TOML to ``path`` atomically: all of it or, on any error, nothing."""
    path = check_writable(path)
    with replacing(path) as sink:
        sink.write(tiers.to_toml(note=note).encode())
