"""What a search concludes about a deal: verdicts and solve results.

>>> Verdict("solved") is Verdict.SOLVED
True
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any


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

    def to_dict(self) -> dict[str, Any]:
        """The result as plain JSON-ready values, each under its field's name (the verdict by its value).

        >>> SolveResult(Verdict.UNSOLVABLE, (), nodes=3, seconds=0.5, max_cards_played=3).to_dict()
        {'verdict': 'unsolvable', 'solution': [], 'nodes': 3, 'seconds': 0.5, 'max_cards_played': 3}
        """
        return {
            "verdict": self.verdict.value,
            "solution": list(self.solution),
            "nodes": self.nodes,
            "seconds": self.seconds,
            "max_cards_played": self.max_cards_played,
        }
