"""How ``solve-board`` writes its answers, as an enum the command line lists without loading the solver.

>>> [fmt.value for fmt in BoardFormat]
['text', 'json', 'jsonl', 'bhs']
"""

from __future__ import annotations

from enum import Enum


class BoardFormat(str, Enum):
    """``text``: for people; ``json``: one board's result as one JSON object; ``jsonl``: a JSON line a board,
    with its position and place; ``bhs``: black-hole-solver's own output (``Solved!``, its move lines)."""

    TEXT = "text"
    JSON = "json"
    JSONL = "jsonl"
    BHS = "bhs"
