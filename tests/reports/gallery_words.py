"""The gallery's grade in words, written plainly in Python: what the page must say, to check it against.

The page (``gallery_site/words.js`` and ``grade.js``) rounds every figure for a person:
counts to two significant figures (whole below 10, large ones by name), a
win chance as "about 1 game in N" below one half and "about N games in 10"
above. These are the same rules, written apart from the page, so that the
browser tests compute what the page should say rather than read it back.
JavaScript's ``Math.round`` rounds halves up, hence :func:`half_up`.

>>> [games_text(p) for p in (1.0, 0.97, 0.7, 0.3, 1 / 1634, 2.2e-7)]
['every game', 'almost every game', 'about 7 games in 10', 'about 1 game in 3', 'about 1 game in 1,600', 'about 1 game in 4.5 million']
>>> [dead_ends_text(d, about=True) for d in (0.0, 0.43, 0.96, 14.4, 1234.0)]
['almost no dead ends', 'about 0.4 dead ends', 'about 1 dead end', 'about 14 dead ends', 'about 1,200 dead ends']
>>> count_text("1234567890123456789012")
'about 1,200 quintillion'
>>> [share_text(s) for s in (1.0, 0.96, 0.65, 0.12, 0.07, 0.0)]
['all', 'almost all', 'about 7 in 10', 'about 1 in 10', 'about 1 in 14', 'none']
"""

from __future__ import annotations

import math

from pipeline.game.players import Player
from pipeline.reports.words import NEARLY_ALWAYS, NOTHING, SCALES  # the thresholds and names the page shares

FORMULA_TEXT = ("log10", "×", "→", "weight", "_win_probability", "_dead_ends")
"""What must not show in the grade's words: a formula's symbols or a column's name."""


def half_up(value: float) -> int:
    """``Math.round``: the nearest whole number, halves up."""
    return math.floor(value + 0.5)


def two_figures(value: float) -> float:
    """``value`` to two significant figures."""
    scale = 10.0 ** (math.floor(math.log10(value)) - 1)
    return half_up(value / scale) * scale


def figures(value: float) -> str:
    """A number rounded already, without trailing zeros or an exponent: ``2.3``, ``270``, ``5,000``."""
    if value >= 100 or float(value).is_integer():
        return f"{half_up(value):,}"
    return f"{float(f'{value:.2g}'):g}"


def rounded_count(value: float) -> str:
    """A count of 1 or more: whole below 10, else two figures, large ones by name: ``2.3 million``."""
    shown = two_figures(value) if value >= 10 else half_up(value)
    for scale, name in SCALES:
        if shown >= scale:
            return f"{figures(two_figures(shown / scale))} {name}"
    return f"{half_up(shown):,}"


def games_text(probability: float) -> str:
    """How often one attempt without undo wins (above 0): ``about 1 game in 1,600``."""
    if probability >= 1:
        return "every game"
    if probability >= NEARLY_ALWAYS:
        return "almost every game"
    if probability >= 0.5:
        return f"about {half_up(probability * 10)} games in 10"
    return f"about 1 game in {rounded_count(1 / probability)}"


def wins_text(probability: float) -> str:
    return f"wins {games_text(probability)} without undo" if probability > 0 else "never wins without undo"


def dead_ends_text(value: float, *, about: bool = False) -> str:
    """Dead ends with undo: ``almost no dead ends``, ``0.4 dead ends``, ``(about) 15 dead ends``."""
    if value < NOTHING:
        return "almost no dead ends"
    return amount_text(value, about, "dead end", "dead ends")


def attempts_text(value: float, *, about: bool = False) -> str:
    return amount_text(value, about, "attempt", "attempts")


def amount_text(value: float, about: bool, one: str, many: str) -> str:
    prefix = "about " if about else ""
    tenths = float(f"{value:.1g}")
    if tenths < 1:
        return f"{prefix}{tenths:g} {many}"
    shown = rounded_count(value)
    return f"{prefix}{shown} {one if shown == '1' else many}"


def count_text(digits: str) -> str:
    """A count of ways to win (a decimal string): exact up to 9 digits, else in words from its first three."""
    if len(digits) <= 9:
        return f"{int(digits):,}"
    return "about " + rounded_count(int(digits[:3]) * 10.0 ** (len(digits) - 3))


def sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def difficulty_line(tier: str, reference: Player, figure: str, difficulty: float) -> str:
    """The grade's heading: the tier and what the reference player meets."""
    if figure == "attempts":
        return f"{sentence(tier)}: {reference.words} needs {attempts_text(difficulty, about=True)} to win, without undo"
    return f"{sentence(tier)}: {reference.words} meets {dead_ends_text(difficulty, about=True)} before the win, with undo"


def player_line(player: Player, win_probability: float, dead_ends: float | None) -> str:
    """One line of the ladder: what ``player`` meets without undo and with it."""
    undo = (
        f"; with undo, expect {dead_ends_text(dead_ends, about=True)} before the win"
        if dead_ends is not None
        else ""
    )
    return f"{sentence(player.words)} {wins_text(win_probability)}{undo}."


def traps_text(traps: int) -> str:
    if traps == 0:
        return "The solution passes no trap: no single move along it loses the deal."
    where = "a position" if traps == 1 else "positions"
    noun = "trap" if traps == 1 else "traps"
    return f"The solution passes {traps} {noun}: {where} where one of the moves you can play loses the deal."


def first_trap_text(first_trap: int) -> str:
    if first_trap == 0:
        return "The first trap comes at the very first move: one of the opening moves loses the deal."
    moves = "move" if first_trap == 1 else "moves"
    return (
        f"The first trap comes after {first_trap} {moves}: until then, no move you can play along the "
        "solution loses the deal."
    )


def share_text(share: float) -> str:
    """A share of a whole: ``about 7 in 10``, ``about 1 in 14``, ``almost all``."""
    if share >= 1:
        return "all"
    if share >= NEARLY_ALWAYS:
        return "almost all"
    if share >= 0.1:
        return f"about {half_up(share * 10)} in 10"
    if share <= 0:
        return "none"
    return f"about 1 in {rounded_count(1 / share)}"


def slips_text(share: float) -> str:
    """How forgiving a slip is, from ``winnable_share``."""
    where = "of the positions a move can lead to while the deal can still be won, "
    if share < 0.5:
        return f"Slips are costly: {where}only {share_text(share)} can still be won."
    return f"Most slips can be mended: {where}{share_text(share)} can still be won."


def ways_text(solution_count: str | int) -> str:
    """The ways to win of a count as the gallery shows it (as decimal text) or a pack holds it (an int)."""
    solution_count = str(solution_count)
    if solution_count == "1":
        return "One way to win: the solution is the only order of the 51 moves that plays every card."
    shown = count_text(solution_count)
    return f"{sentence(shown)} {'way' if shown == '1' else 'ways'} to win: orders of the 51 moves that play every card."


def first_moves_text(first: int, winning: int) -> str:
    """The cards that can be played first, and how many of them leave a way to win: the parts add up."""
    losing = first - winning
    if first == 1:
        return (
            "Only one card can be played first."
            if winning
            else "Only one card can be played first, and it loses the deal."
        )
    if losing == 0:
        return f"Any of the {first} cards you can play first still leaves a way to win."
    if winning == 0:
        return f"None of the {first} cards you can play first leaves a way to win."
    leave = "still leaves" if winning == 1 else "still leave"
    lose = "loses" if losing == 1 else "lose"
    return f"Of the {first} cards you can play first, {winning} {leave} a way to win and {losing} {lose} the deal."


def solution_moves_text(forced: int, choices: int) -> str:
    """The solution's moves, forced and chosen: the parts add up to the whole said."""

    def are(count: int) -> str:
        return "is" if count == 1 else "are"

    total = forced + choices
    return (
        f"Of the solution's {total:,} {'move' if total == 1 else 'moves'}, {forced} {are(forced)} forced "
        f"(only one card can be played) and {choices} {are(choices)} {'a choice' if choices == 1 else 'choices'} "
        "(more than one can)."
    )


def ungraded_text(verdict: str | None, grade_status: str | None, budgets: dict[str, int | None]) -> str:
    """Why a deal has no grade, with the budget that ran out (``budgets``: deals.js's; the grader's, its memory
    in MiB and its positions beside, or its positions alone in a pack graded before memory budgets)."""

    def budget(value: int | None) -> str:
        return f" of {rounded_count(value)} positions" if value else ""

    memory = budgets.get("grade_memory_mib")
    grade_budget = budget(budgets["grade"])
    if memory:
        beside = f" (or {rounded_count(budgets['grade'])} positions)" if budgets["grade"] else ""
        grade_budget = f" of {memory:,} MiB of memory{beside}"

    if verdict == "unknown":
        return (
            "Nobody knows yet whether this deal can be won: the solver ran out of its budget"
            f"{budget(budgets['solve'])} before it found a win or proved there is none."
        )
    if verdict != "solved":
        return "This deal has no grade: the pack was never solved."
    unknown = ", so what each player meets is not known."
    reasons = {
        "out_of_budget": f"the grader ran out of its budget{grade_budget} before it could count "
        f"every line of play{unknown}",
        "overflow": f"it has more ways to win than the grader can count exactly{unknown}",
        "not_sampled": "this run graded only a sample of its wins, and this deal was not among them.",
    }
    reason = reasons.get(grade_status or "", "the pack was never graded.")
    return f"This deal can be won (watch the solution below the board), but it has no grade: {reason}"
