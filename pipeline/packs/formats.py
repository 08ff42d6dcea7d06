"""What an export writes, as an enum the command line lists without loading Arrow.

>>> [fmt.value for fmt in ExportFormat]
['json', 'jsonl', 'boards', 'csv']
"""

from __future__ import annotations

from enum import Enum


class ExportFormat(str, Enum):
    """``json``: deals with board, solution, tier and metrics, for games; ``jsonl``: the same deals, one
    JSON object a line (JSON Lines), for pipes; ``boards``: board text, for solvers (``blackhole import``,
    black-hole-solver); ``csv``: a spreadsheet."""

    JSON = "json"
    JSONL = "jsonl"
    BOARDS = "boards"
    CSV = "csv"
