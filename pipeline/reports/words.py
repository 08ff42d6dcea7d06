"""A player's figures and a pack's tiers in words, for the people who read the reports.

A win chance reads as odds ("about 1 game in 40"), dead ends and attempts as
rounded counts ("about 6 dead ends"), a tier as what its reference player
meets ("fewer than 3 dead ends for a player who follows the tips and looks 2
moves ahead, with undo"). Counts keep two significant figures: the figures
are averages over a player model, not promises. No formula, logarithm or
exponent shows.

The words themselves (the scale names, the thresholds of "almost", the units and the
phrases) are one table, ``words.json`` beside this module (:data:`WORDS`), which the
gallery's ``words.js`` reads too: a phrase changed there changes in the reports and the
gallery alike. How a number is rounded stays each side's own (Python's and JavaScript's).

>>> chance_words(0.025), chance_words(0.000132), chance_words(0.7)
('about 1 game in 40', 'about 1 game in 7,600', 'about 7 games in 10')
>>> dead_ends_words(5.8), dead_ends_words(1.04), dead_ends_words(None)
('about 6 dead ends', 'about 1 dead end', 'no win')
>>> from pipeline.game.players import Player
>>> from pipeline.stages.tiers import Difficulty, Tiers
>>> figure_label(Difficulty(Player.LOOKAHEAD_2, Figure.DEAD_ENDS))
'dead ends of lookahead-2, with undo'
>>> tier_meanings(Tiers(3, 8, 20, Difficulty(Player.LOOKAHEAD_2, Figure.DEAD_ENDS)))["easy"]
'fewer than 3 dead ends for a player who follows the tips and looks 2 moves ahead, with undo'
>>> tier_meanings(Tiers(200, 600, 2000, Difficulty(Player.LOOKAHEAD_4, Figure.ATTEMPTS)))["hard"]
'at least 600 and fewer than 2,000 attempts for a player who follows the tips and looks 4 moves ahead, without undo'
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pipeline.stages.tiers import Figure

if TYPE_CHECKING:
    from pipeline.stages.tiers import Difficulty, Tiers

WORDS_FILE = Path(__file__).with_name("words.json")
WORDS: dict[str, Any] = json.loads(WORDS_FILE.read_text(encoding="utf-8"))
"""The player's words, shared with the gallery (see the module's docstring)."""
SCALES = tuple((float(scale), name) for scale, name in WORDS["scales"])
"""The names of large numbers, largest first: 2,300,000 reads "2.3 million"."""
NOTHING = float(WORDS["nothing"])  # fewer dead ends than this read "almost no dead ends"
NEARLY_ALWAYS = float(WORDS["nearly_always"])  # a win chance from this up reads "almost every game"
_PHRASES: dict[str, str] = WORDS["phrases"]


def rounded(value: float, digits: int = 2) -> float:
    """``value`` to ``digits`` significant figures.

    >>> rounded(7576.0), rounded(0.04321), rounded(0.0)
    (7600.0, 0.043, 0.0)
    """
    return float(f"{value:.{digits}g}")


def counted(count: int, one: str, many: str | None = None) -> str:
    """``count`` and the noun it counts, singular for one: ``1 deal``, ``2 deals``, ``0 deals``
    (``many`` when the plural is not ``one`` + s).

    >>> counted(1, "deal"), counted(3, "deal"), counted(0, "result"), counted(2, "match", "matches")
    ('1 deal', '3 deals', '0 results', '2 matches')
    """
    return f"{count} {one if count == 1 else many or one + 's'}"


def count_text(value: float) -> str:
    """A count of 1 or more to two significant figures, large ones by name: ``7,600``, ``2.3 million``.

    >>> [count_text(n) for n in (3.3, 12.4, 7576, 2_345_678, 8.1e12)]
    ['3', '12', '7,600', '2.3 million', '8.1 trillion']
    """
    value = rounded(value) if value >= 10 else float(round(value))
    for scale, name in SCALES:
        if value >= scale:
            return f"{_figures(rounded(value / scale))} {name}"
    return f"{value:,.0f}"


def _figures(value: float) -> str:
    """``value`` (rounded already) without trailing zeros or an exponent: ``2.3``, ``270``, ``5,000``."""
    return f"{value:,.0f}" if value >= 100 or value.is_integer() else f"{value:g}"


def chance_words(chance: float | None) -> str:
    """A win chance as odds: ``about 1 game in 40``; ``never`` for 0; ``n/a`` for None."""
    if chance is None or math.isnan(chance):
        return "n/a"
    if chance <= 0:
        return _PHRASES["never"]
    if chance >= NEARLY_ALWAYS:
        return _PHRASES["almost_every_game"]
    if chance >= 0.5:
        return _PHRASES["games_in_ten"].format(tenths=round(chance * 10))
    return _PHRASES["one_game_in"].format(count=count_text(1 / chance))


def odds_text(chance: float) -> str:
    """A win chance above 0 as short odds, for a table: ``1 in 7,600``; ``1 in 1`` is a sure win.

    >>> odds_text(0.000132), odds_text(0.4)
    ('1 in 7,600', '1 in 2.5')
    """
    against = 1 / chance
    return _PHRASES["odds"].format(count=count_text(against) if against >= 10 else _figures(rounded(against)))


def dead_ends_words(dead_ends: float | None) -> str:
    """Expected dead ends with undo: ``about 6 dead ends``; ``no win`` when there is none (None, NaN, infinite)."""
    if dead_ends is None or not math.isfinite(dead_ends):
        return "no win"
    if dead_ends < NOTHING:
        return _PHRASES["almost_no_dead_ends"]
    return _about(dead_ends, Figure.DEAD_ENDS)


def attempts_words(attempts: float | None) -> str:
    """Expected attempts without undo: ``about 40 attempts``; ``no win`` when there is none.

    >>> attempts_words(41.7), attempts_words(1.0)
    ('about 42 attempts', 'about 1 attempt')
    """
    if attempts is None or not math.isfinite(attempts):
        return "no win"
    return _about(attempts, Figure.ATTEMPTS)


def _about(value: float, figure: Figure) -> str:
    one, many = WORDS["units"][figure.value]
    if rounded(value, 1) < 1:
        return _PHRASES["about"].format(amount=f"{rounded(value, 1):g} {many}")
    shown = count_text(value)
    return _PHRASES["about"].format(amount=f"{shown} {one if shown == '1' else many}")


def figure_label(difficulty: Difficulty) -> str:
    """What a difficulty counts, short: ``dead ends of lookahead-2, with undo``, ``attempts of tips, without undo``."""
    return f"{_unit(difficulty)} of {difficulty.player.value}, {_undo(difficulty)}"


def _unit(difficulty: Difficulty, amount: float | None = None) -> str:
    """What the figure counts, singular for an ``amount`` of 1: ``dead ends``, ``attempt``..."""
    one, many = WORDS["units"][difficulty.figure.value]
    return str(one if amount == 1 else many)


def _undo(difficulty: Difficulty) -> str:
    return str(WORDS["undo"][difficulty.figure.value])


def amount_text(value: float) -> str:
    """A threshold as written in a sentence: ``3``, ``2,000``, ``1.5``.

    >>> amount_text(2000.0), amount_text(1.5)
    ('2,000', '1.5')
    """
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:,g}"


def tier_meanings(tiers: Tiers) -> dict[str, str]:
    """What each tier means in a player's words, by tier name (easy, medium, hard, expert, unsolvable).

    >>> from pipeline.game.players import Player
    >>> from pipeline.stages.tiers import Difficulty, Tiers
    >>> meanings = tier_meanings(Tiers(3, 8, 20, Difficulty(Player.LOOKAHEAD_2, Figure.DEAD_ENDS)))
    >>> meanings["medium"]
    'at least 3 and fewer than 8 dead ends for a player who follows the tips and looks 2 moves ahead, with undo'
    >>> meanings["expert"].split(" for ")[0], meanings["unsolvable"]
    ('20 dead ends or more', 'no win exists')
    """
    reference = tiers.difficulty
    who = f"for {reference.player.words}, {_undo(reference)}"
    thresholds = {"medium": tiers.medium, "hard": tiers.hard, "expert": tiers.expert}
    said = {name: amount_text(value) for name, value in thresholds.items()}
    units = {f"{name}_unit": _unit(reference, value) for name, value in thresholds.items()}
    spans = {
        tier: span.format(**said, **units, units=_unit(reference))
        for tier, span in WORDS["tier_spans"].items()
    }
    return {**{tier: f"{span} {who}" for tier, span in spans.items()}, "unsolvable": "no win exists"}
