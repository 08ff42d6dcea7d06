"""Exporting a pack for players and game developers: JSON, board text or CSV.

:func:`export_pack` writes a pack table's rows, in table order, optionally
one tier only and at most ``limit`` rows, in one of :data:`FORMATS`:

- ``json``: one document ``{"deals": [...]}``, one deal per line. Each deal
  has ``deal_id``, ``tier``, ``difficulty``, ``level`` (when the pack has
  it), ``verdict``, ``board``, ``piles`` (17 lists of card names, bottom to
  top), ``foundation`` (``"AS"``), ``solution`` (pile numbers), ``moves``
  (the cards those moves play, in order) and ``metrics`` (:data:`EXPORTED_METRICS`;
  ``solution_count`` is a decimal string, as counts may pass 2**53).
- ``boards``: each deal's board text (docs/rules.md, canonical spelling), one blank
  line between boards; a single board is a black-hole-solver input file.
- ``csv``: a header, then one row per deal: ``deal_id``, ``tier``,
  ``difficulty``, ``level`` (when the pack has it), ``verdict``, ``board``,
  ``solution``, then :data:`EXPORTED_METRICS`. The board is one line: its line breaks
  written as ``|`` (:func:`board_cell`); the solution is pile numbers
  separated by spaces; a null is an empty cell.

Columns a pack lacks (a deals or solved pack has no grades) are exported as
null, the solution as empty. A tier of null and ``ungraded`` are the same,
exported as null and selected with ``tier="ungraded"``.

>>> board_cell("Foundations: AS\\nJD KS TH\\n")
'Foundations: AS|JD KS TH'
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

import pyarrow as pa

from pipeline.errors import BlackholeError
from pipeline.files import check_writable, replacing
from pipeline.game.cards import ACE_OF_SPADES, card_name
from pipeline.game.deal import Deal
from pipeline.game.rules import IllegalMove, Position
from pipeline.packs.folders import read_pack_folder
from pipeline.packs.schema import PACK_TIERS, UNGRADED

FORMATS = ("json", "boards", "csv")
EXPORTED_METRICS = (
    "solution_count",
    "log10_solutions",
    "winnable_states",
    "reachable_states",
    "winnable_share",
    "random_win_probability",
    "branching_winning_lines",
    "branching_winnable",
    "winning_first_moves",
    "first_moves",
    "forced_moves",
    "decisions",
    "traps",
    "first_trap",
)
_LEVEL = "level"


class ExportError(BlackholeError, ValueError):
    """An export that cannot be made: an unknown format or tier, a negative limit, a table without boards."""


def export_pack(
    table: pa.Table, path: Path, fmt: str, *, tier: str | None = None, limit: int | None = None
) -> int:
    """Write the rows of ``table`` to ``path`` as ``fmt``; returns how many rows it wrote.

    Only rows of ``tier`` when given, then the first ``limit`` when given, in table order.
    The file is replaced atomically (:func:`pipeline.files.replacing`): all of
    it or, on any error, nothing.
    """
    if fmt not in FORMATS:
        raise ExportError(f"unknown export format {fmt!r} (formats: {', '.join(FORMATS)})")
    if tier is not None and tier not in PACK_TIERS:
        raise ExportError(f"unknown tier {tier!r} (tiers: {', '.join(PACK_TIERS)})")
    if limit is not None and limit < 0:
        raise ExportError(f"limit must be at least 0, got {limit}")
    for name in ("deal_id", "board"):
        if name not in table.column_names:
            raise ExportError(f"the table has no column {name!r}, so it is not a pack")
    rows = selected_rows(table, tier=tier, limit=limit)
    path = check_writable(path)
    with replacing(path) as sink:
        text = io.TextIOWrapper(sink, encoding="utf-8", newline="")
        _WRITERS[fmt](text, rows, has_level=_LEVEL in table.column_names)
        text.flush()
        text.detach()
    return len(rows)


def selected_rows(
    table: pa.Table, *, tier: str | None = None, limit: int | None = None
) -> list[dict[str, Any]]:
    """The rows of ``table`` as dicts, in table order, of ``tier`` only (when given), at most ``limit``.

    >>> table = pa.table({"deal_id": ["a", "b", "c"], "tier": ["easy", None, "ungraded"]})
    >>> [row["deal_id"] for row in selected_rows(table, tier="ungraded")]
    ['b', 'c']
    """
    tiers = table.column("tier").to_pylist() if "tier" in table.column_names else [None] * table.num_rows
    picked = [row for row, name in enumerate(tiers) if tier is None or _tier_name(name) == tier]
    if limit is not None:
        picked = picked[:limit]
    rows: list[dict[str, Any]] = table.take(pa.array(picked, pa.int64())).to_pylist()
    return rows


def board_cell(board: str) -> str:
    """``board`` on one line, line breaks written as ``|``: ``cell.replace("|", "\\n")`` gives it back."""
    return "|".join(board.splitlines())


def deal_document(row: dict[str, Any], *, has_level: bool) -> dict[str, Any]:
    """The JSON object of one pack row (keys in a fixed order)."""
    deal = Deal.from_board_text(row["board"], source=str(row["deal_id"]))
    solution = [int(pile) for pile in row.get("solution") or ()]
    try:
        moves = played_cards(deal, solution)
    except IllegalMove as error:
        raise IllegalMove(f"{row['deal_id']}: {error}") from None
    document = {"deal_id": row["deal_id"], "tier": _tier(row), "difficulty": row.get("difficulty")}
    if has_level:
        document[_LEVEL] = row[_LEVEL]
    document |= {
        "verdict": row.get("verdict"),
        "board": deal.to_board_text(),
        "piles": [[card_name(card) for card in pile] for pile in deal.piles],
        "foundation": card_name(ACE_OF_SPADES),
        "solution": solution,
        "moves": moves,
        "metrics": {name: row.get(name) for name in EXPORTED_METRICS},
    }
    return document


def played_cards(deal: Deal, solution: list[int]) -> list[str]:
    """The cards ``solution`` plays, by name, in order; IllegalMove names the first move against the rules.

    >>> from pipeline.game.deal import EXAMPLE_BOARD
    >>> played_cards(Deal.from_board_text(EXAMPLE_BOARD), [2, 10])
    ['2C', '3D']
    >>> played_cards(Deal.from_board_text(EXAMPLE_BOARD), [2, 2])
    Traceback (most recent call last):
    ...
    pipeline.game.rules.IllegalMove: move 2: QD from pile 2 does not fit on rank 2
    """
    position = Position.start(deal)
    names = []
    for step, pile in enumerate(solution, start=1):
        try:
            after = position.play(pile)
        except IllegalMove as error:
            raise IllegalMove(f"move {step}: {error}") from None
        card = position.top_card(pile)
        assert card is not None  # play() raised IllegalMove for an empty pile
        names.append(card_name(card))
        position = after
    return names


def _tier(row: dict[str, Any]) -> str | None:
    name = _tier_name(row.get("tier"))
    return None if name == UNGRADED else name


def _tier_name(tier: str | None) -> str:
    return UNGRADED if tier is None else tier


def _write_json(text: TextIO, rows: list[dict[str, Any]], *, has_level: bool) -> None:
    text.write('{"deals": [\n')
    for number, row in enumerate(rows):
        separator = ",\n" if number else ""
        text.write(
            separator
            + json.dumps(deal_document(row, has_level=has_level), ensure_ascii=False, allow_nan=False)
        )
    text.write("\n]}\n" if rows else "]}\n")


def _write_boards(text: TextIO, rows: list[dict[str, Any]], *, has_level: bool) -> None:
    text.write("\n".join(_canonical_boards(rows)))


def _canonical_boards(rows: list[dict[str, Any]]) -> Iterator[str]:
    for row in rows:
        yield Deal.from_board_text(row["board"], source=str(row["deal_id"])).to_board_text()


def _write_csv(text: TextIO, rows: list[dict[str, Any]], *, has_level: bool) -> None:
    header = (
        ["deal_id", "tier", "difficulty"] + ([_LEVEL] if has_level else []) + ["verdict", "board", "solution"]
    )
    header += EXPORTED_METRICS
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(header)
    for row, board in zip(rows, _canonical_boards(rows), strict=True):
        cells = {
            "tier": _tier(row),
            "board": board_cell(board),
            "solution": " ".join(str(pile) for pile in row.get("solution") or ()),
        }
        writer.writerow([cells[name] if name in cells else row.get(name) for name in header])


_WRITERS = {"json": _write_json, "boards": _write_boards, "csv": _write_csv}


def export_pack_folder(
    folder: Path, path: Path, fmt: str, *, tier: str | None = None, limit: int | None = None
) -> int:
    """Export the pack folder ``folder`` to ``path`` as ``fmt`` (:func:`export_pack`); how many rows it wrote.

    A curated pack (one with ``level``) is exported in level order, any other in pack order.
    """
    table = read_pack_folder(folder)
    if _LEVEL in table.column_names:
        table = table.sort_by(_LEVEL)
    return export_pack(table, path, fmt, tier=tier, limit=limit)
