"""What a search concludes about a deal: verdicts and solve results.

>>> Verdict("solved") is Verdict.SOLVED
True
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Verdict(str, Enum):
    """The verdicts of docs/rules.md. ``unknown`` means a limit stopped the search first."""

    SOLVED = "solved"
    UNSOLVABLE = "unsolvable"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class SolveResult:
    """The outcome of one search.

    ``solution`` holds the pile numbers to play from the start position (empty
    unless solved). ``max_cards_played`` is the most cards that can be put on
    the foundation, counted from the deal's opening: 51 for a win, proved by
    search for a loss, and None when it is not known (an ``unknown`` verdict,
    or a budget that ran out while the longest play was being found).
    """

    verdict: Verdict
    solution: tuple[int, ...]
    nodes: int
    seconds: float
    max_cards_played: int | None
