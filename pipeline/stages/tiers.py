"""Difficulty and tiers: how hard a graded deal is for a player, as one number and as a named tier.

A solvable deal whose game tree was walked exactly (:mod:`pipeline.stages.grade`)
has, for every player model of :mod:`pipeline.game.players`, two figures: the
chance that one attempt without undo wins, and the dead ends met before the
win when each one is undone back to the last position a win was open from.
Its **difficulty** is one of those figures for one player, the reference
(:class:`Difficulty`): by default the dead ends of ``lookahead-2``, a player
who follows the usual tips and looks two moves ahead, with undo
(``docs/players.md`` says why that one). The other choice of figure is the
expected attempts without undo, 1 / win chance.

Tiers cut the difficulty at three thresholds, each the fewest dead ends (or
attempts) of its tier: ``easy`` below ``medium``, then ``medium``, ``hard``
and ``expert``; a difficulty exactly at a threshold belongs to the tier it
starts. An unsolvable deal is in the tier ``unsolvable`` and has no difficulty.

The reference and thresholds live in a TOML file (``tiers.toml`` beside this
module, shipped with the package as :data:`~pipeline.stages.settings.DEFAULT_TIERS`;
``blackhole calibrate`` can move the thresholds to round values near the
quartiles of a sample)::

    [difficulty]                 # required: what the thresholds count
    player = "lookahead-2"       # a model of the ladder: random, tips, lookahead-2, ...
    figure = "dead_ends"         # dead_ends (with undo) or attempts (without)

    [tiers]                      # required: the fewest of each tier
    medium = 3
    hard = 8
    expert = 20

Thresholds are numbers above 0, each above the one before. A file in the old
units (a ``[score]`` table, or no ``[difficulty]`` table) is refused with one
line that says what changed. Anything else wrong is a ConfigError naming the
file and line.

The tree score of earlier versions, kept as the column ``tree_score`` for
comparison, is :func:`tree_score`: ``-log10(random_win_probability) + 0.5 *
-log10(winnable_share) + 0.1 * traps``.

>>> tiers = parse_tiers('[difficulty]\\nplayer = "tips"\\nfigure = "dead_ends"\\n[tiers]\\nmedium = 3\\nhard = 8\\nexpert = 20\\n')
>>> [tiers.tier_of(dead_ends).value for dead_ends in (2.9, 3, 19.5, 20)]
['easy', 'medium', 'hard', 'expert']
>>> parse_tiers("[score]\\nodds_weight = 1\\n[tiers]\\nmedium = 5.8\\nhard = 6.5\\nexpert = 7.2\\n", source="t.toml")
Traceback (most recent call last):
...
pipeline.stages.tiers.OldUnitsError: t.toml:1: this tiers file is in the old units: tiers are no longer cut on the tree score ([score] weights) but on a player's dead ends or attempts, named in a [difficulty] table; run blackhole calibrate to write one
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from itertools import pairwise
from pathlib import Path
from typing import Any

from pipeline.errors import ArgumentError, located, not_finite, of_type, real_number, shown_value, type_name
from pipeline.game.players import PLAYERS, Player, PlayerFigures
from pipeline.packs.labels import Tier
from pipeline.toml_files import ConfigError, KeyProblem, parse_toml, read_text

THRESHOLDS = ("medium", "hard", "expert")
DIFFICULTY_KEYS = ("player", "figure")
TREE_SCORE_WEIGHTS = (1.0, 0.5, 0.1)  # of -log10(random odds), -log10(winnable share) and traps
_OLD_UNITS = (
    "this tiers file is in the old units: tiers are no longer cut on the tree score ([score] weights) "
    "but on a player's dead ends or attempts, named in a [difficulty] table; run blackhole calibrate to write one"
)


class OldUnitsError(ConfigError):
    """A tiers file whose thresholds are tree scores, from before tiers were cut on a player's figure."""


class Figure(Enum):
    """Which of a player's figures a difficulty counts."""

    DEAD_ENDS = "dead_ends"
    """Times stuck before the win, undoing each time to the last position a win was open from."""
    ATTEMPTS = "attempts"
    """Attempts without undo a win takes on average: 1 / win chance."""

    def of(self, figures: PlayerFigures) -> float:
        return figures.dead_ends if self is Figure.DEAD_ENDS else figures.expected_attempts


@dataclass(frozen=True)
class Difficulty:
    """The reference: which player's which figure a deal's difficulty is."""

    player: Player = Player.LOOKAHEAD_4
    figure: Figure = Figure.ATTEMPTS

    def __post_init__(self) -> None:
        of_type(self.player, Player, "player")
        of_type(self.figure, Figure, "figure")

    def of(self, players: Sequence[PlayerFigures]) -> float:
        """The difficulty of a winnable deal with these figures (one per player of the ladder)."""
        return self.figure.of(players[PLAYERS.index(self.player)])


@dataclass(frozen=True)
class Tiers:
    """The reference difficulty and the fewest of it of the medium, hard and expert tiers.

    The thresholds are finite numbers above 0 that rise from medium to expert, as a tiers file's
    must (else ArgumentError; a threshold that is no number, or a ``difficulty`` that is no
    :class:`Difficulty`, is a TypeError).
    """

    medium: float
    hard: float
    expert: float
    difficulty: Difficulty = Difficulty()

    def __post_init__(self) -> None:
        values = [real_number(getattr(self, name), name, where="Tiers") for name in THRESHOLDS]
        of_type(self.difficulty, Difficulty, "difficulty")
        if values[0] <= 0:
            raise ArgumentError(located(f"medium must be above 0, got {values[0]}", source="Tiers"))
        for (lower, low), (higher, high) in pairwise(zip(THRESHOLDS, values, strict=True)):
            if not high > low:
                raise ArgumentError(
                    located(f"{higher} must be above {lower} ({low}), got {high}", source="Tiers")
                )

    def tier_of(self, difficulty: float) -> Tier:
        """The tier of a solvable deal with this ``difficulty``: the highest whose threshold it reaches
        (infinite: expert; a number is wanted, NaN is an ArgumentError)."""
        if isinstance(difficulty, bool) or not isinstance(difficulty, int | float):
            raise TypeError(f"difficulty must be a number, got {type(difficulty).__name__}")
        if isinstance(difficulty, float) and math.isnan(difficulty):
            raise ArgumentError(located("difficulty must be a number, got nan", source="tier_of"))
        if difficulty >= self.expert:
            return Tier.EXPERT
        if difficulty >= self.hard:
            return Tier.HARD
        if difficulty >= self.medium:
            return Tier.MEDIUM
        return Tier.EASY

    def metadata(self) -> dict[str, str]:
        """Schema metadata entries for a graded pack: the reference and every threshold, exactly."""
        thresholds = {f"tier_{name}": repr(float(getattr(self, name))) for name in THRESHOLDS}
        reference = {
            "difficulty_player": self.difficulty.player.value,
            "difficulty_figure": self.difficulty.figure.value,
        }
        return reference | thresholds

    @classmethod
    def from_metadata(cls, entries: Mapping[str, str]) -> Tiers | None:
        """The tiers a graded pack's schema metadata records (:meth:`metadata`); None when it records
        none, or in another form (a pack graded in the old units).

        >>> tiers = Tiers(3, 8, 20, Difficulty(Player.TIPS, Figure.DEAD_ENDS))
        >>> Tiers.from_metadata(tiers.metadata()) == tiers, Tiers.from_metadata({"tier_medium": "5.8"})
        (True, None)
        """
        keys = [f"difficulty_{key}" for key in DIFFICULTY_KEYS] + [f"tier_{name}" for name in THRESHOLDS]
        if not all(key in entries for key in keys):
            return None
        try:
            reference = Difficulty(Player(entries["difficulty_player"]), Figure(entries["difficulty_figure"]))
            thresholds = {name: float(entries[f"tier_{name}"]) for name in THRESHOLDS}
        except ValueError:
            return None
        return cls(**thresholds, difficulty=reference)

    def to_toml(self, *, note: str = "") -> str:
        """The TOML text that :func:`parse_tiers` reads back as these tiers, ``note`` as a leading comment."""
        lines = [f"# {line}".rstrip() for line in note.splitlines()]
        if lines:
            lines.append("")
        lines += [
            "[difficulty]  # what the thresholds count: a player of the ladder (docs/players.md), and",
            "              # dead_ends (times stuck before the win, with undo) or attempts (without undo)",
            f'player = "{self.difficulty.player.value}"',
            f'figure = "{self.difficulty.figure.value}"',
            "",
            f"[tiers]  # the fewest {self.difficulty.figure.value.replace('_', ' ')} of each tier; fewer than medium is easy",
        ]
        lines += [f"{name} = {_number_text(getattr(self, name))}" for name in THRESHOLDS]
        return "\n".join(lines) + "\n"


def _number_text(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def tree_score(*, random_win_probability: float, winnable_share: float, traps: int) -> float:
    """The tree score of a solvable deal (both chances above 0): the difficulty of earlier versions.

    >>> round(tree_score(random_win_probability=1e-6, winnable_share=0.01, traps=20), 6)
    9.0
    """
    odds, share, trap = TREE_SCORE_WEIGHTS
    return odds * -math.log10(random_win_probability) + share * -math.log10(winnable_share) + trap * traps


def load_tiers(path: Path | str) -> Tiers:
    """The tiers in the TOML file at ``path`` (a path or its text, else TypeError): ConfigError naming the
    file and line when they are not tiers, OSError naming it when it cannot be read."""
    of_type(path, (str, os.PathLike), "path", "a path")
    named = str(path)
    source = named if named.isprintable() else shown_value(named)  # one line, escapes escaped
    if "\x00" in named:  # which the OS refuses with a ValueError
        raise ConfigError("a path cannot hold a NUL character", source=source)
    try:
        text = read_text(Path(path))
    except ConfigError as error:
        raise ConfigError(str(error).removeprefix(f"{named}: "), source=source) from None
    return parse_tiers(text, source=source)


def parse_tiers(text: str, *, source: str = "<tiers>") -> Tiers:
    """The tiers in TOML ``text``; errors name ``source`` and the line.

    The document is checked as data (:func:`_tiers`); a problem found at one
    of its keys or tables is located in ``text`` once, on the way out.
    """
    document = parse_toml(text, source=source)
    try:
        return _tiers(document)
    except KeyProblem as problem:
        raise problem.located(text, source) from None


def _tiers(document: dict[str, Any]) -> Tiers:
    """The tiers of the TOML ``document``; KeyProblem naming where it is wrong."""
    old = "score" if "score" in document else "tiers" if "difficulty" not in document else None
    if old in document:  # thresholds with no [difficulty] to say what they count: the tree score's
        raise KeyProblem(_OLD_UNITS, table=old, kind=OldUnitsError)
    if "difficulty" not in document:
        raise KeyProblem("needs a [difficulty] table (player and figure)", line=1)
    for table, entries in document.items():
        if table not in ("difficulty", "tiers"):
            raise KeyProblem(f"unknown key {table!r} (expected [difficulty] and [tiers] tables)", key=table)
        if not isinstance(entries, dict):
            raise KeyProblem(f"{table} must be a table", key=table)
    difficulty = _difficulty(document["difficulty"])
    thresholds = _thresholds(document.get("tiers", {}))
    return Tiers(**thresholds, difficulty=difficulty)


def _difficulty(entries: dict[str, Any]) -> Difficulty:
    choices: dict[str, tuple[type[Enum], str]] = {
        "player": (Player, "players"),
        "figure": (Figure, "figures"),
    }
    found: dict[str, Any] = {}
    for key, value in entries.items():
        if key not in choices:
            known = ", ".join(DIFFICULTY_KEYS)
            raise KeyProblem(f"[difficulty] has unknown key {key!r} (known: {known})", key=key)
        kind, plural = choices[key]
        names = [member.value for member in kind]
        if value not in names:
            raise KeyProblem(
                f"[difficulty] {key} must be one of the {plural} {', '.join(names)}, got {value!r}", key=key
            )
        found[key] = kind(value)
    for key in DIFFICULTY_KEYS:
        if key not in found:
            raise KeyProblem(f"[difficulty] needs {key!r}", table="difficulty")
    return Difficulty(**found)


def _thresholds(entries: dict[str, Any]) -> dict[str, float]:
    found: dict[str, float] = {}
    for key, value in entries.items():
        if key not in THRESHOLDS:
            known = ", ".join(THRESHOLDS)
            raise KeyProblem(f"[tiers] has unknown key {key!r} (known: {known})", key=key)
        found[key] = _number(f"[tiers] {key}", value, key)
    for name in THRESHOLDS:
        if name not in found:
            raise KeyProblem(f"[tiers] needs {name!r}", table="tiers")
    for lower, higher in pairwise(THRESHOLDS):
        if not found[higher] > found[lower]:
            raise KeyProblem(
                f"[tiers] {higher} must be above {lower} ({found[lower]}), got {found[higher]}", key=higher
            )
    return found


def _number(name: str, value: Any, key: str) -> float:
    if type(value) not in (int, float):
        raise KeyProblem(f"{name} must be a number, not {type_name(value)}", key=key)
    if (got := not_finite(value)) is not None:
        raise KeyProblem(f"{name} must be a finite number, got {got}", key=key)
    if value <= 0:
        raise KeyProblem(f"{name} must be above 0, got {value}", key=key)
    return float(value)
