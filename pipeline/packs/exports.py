"""Exporting a pack for players and game developers: JSON, board text or CSV.

:func:`export_pack` writes a pack table's rows, in table order, optionally
one tier only and at most ``limit`` rows, in one of :class:`~pipeline.packs.formats.ExportFormat`;
:func:`export_pack_folder` does the same for a pack folder, read batch by
batch and written as it is read, so memory holds a batch whatever the pack's size:

- ``json``: one document ``{"deals": [...]}``, one deal per line. Each deal
  has ``deal_id``, ``tier``, ``difficulty``, ``level`` (when the pack has
  it), ``verdict``, ``board``, ``piles`` (17 lists of card names, bottom to
  top), ``foundation`` (``"AS"``), ``solution`` (pile numbers), ``moves``
  (the cards those moves play, in order; a talon deal plays the card it deals), ``first_trap`` (moves played
  before the first move that can lose the deal; null when none can), what a
  game needs to say how hard the deal is: ``reference_player`` (the player
  model the difficulty counts, from the pack's ``difficulty_player``
  metadata; null for a pack not graded), that player's ``expected_attempts``
  (without undo: 1 / its win chance) and ``dead_ends`` (with undo), and
  ``players``, an object keyed by each player model of the ladder
  (``random``, ``tips``, ``lookahead-2``...) holding its ``win_probability``,
  ``expected_attempts`` and ``dead_ends`` (and ``win_chance``, the old name of
  ``win_probability``, for this version only); then ``metrics``
  (:data:`EXPORTED_METRICS`; ``solution_count`` is a decimal string, as
  counts may pass 2**53). A figure with no value (no win, or not graded) is null.
  A deal of another game than Black Hole also has ``game`` (its name), after
  ``deal_id``, and ``talon`` (Golf's talon, first dealt first) after
  ``foundation``, which is null while it is empty (All in a Row); its piles
  are that game's (13 of 4, or 7 of 5), and a talon deal in ``solution`` is
  the number of piles (Golf's 7).
- ``jsonl``: JSON Lines: one deal a line, each the object ``json`` writes of
  it, and nothing else (no enclosing document): ``head -1`` gives one deal.
- ``boards``: each deal's board text (docs/rules.md, canonical spelling), one blank
  line between boards; a single board is a black-hole-solver input file (for
  a game other than Black Hole, with the game's options, docs/rules.md).
- ``csv``: a header, then one row per deal: ``deal_id``, ``tier``,
  ``difficulty``, ``level`` (when the pack has it), ``verdict``, ``board``,
  ``solution``, then :data:`EXPORTED_METRICS`. The board is one line: its line breaks
  written as ``|`` (:func:`board_cell`); the solution is pile numbers
  separated by spaces; a null is an empty cell. A text cell that a spreadsheet
  would run as a formula (one starting with ``=``, ``+``, ``-``, ``@``, a tab or a
  carriage return: a deal id such as ``=HYPERLINK(...)``) is written with a ``'``
  before it (:func:`spreadsheet_cell`); numbers are written as numbers, negative ones too.

:data:`EXPORTED_METRICS` lists each player's win chance and dead ends
columns (made from :data:`~pipeline.game.players.PLAYERS`) and ``tree_score``
among the grade columns. A pack file (``generate``, ``import``, ``solve``,
``crosscheck``, ``grade``) exports as a pack folder does, in file order
(:func:`export_saved_pack` takes either). Columns a pack lacks (a deals or solved pack has no grades) are exported as
null, the solution as empty. A tier of null and ``ungraded`` are the same,
exported as null and selected with ``tier="ungraded"``. An export to ``-``
(or ``/dev/stdout``) streams to standard output (:func:`pipeline.files.writing`).

>>> board_cell("Foundations: AS\\nJD KS TH\\n")
'Foundations: AS|JD KS TH'
"""

from __future__ import annotations

import csv
import heapq
import io
import json
from collections.abc import Iterable, Iterator, Mapping
from itertools import dropwhile, islice, takewhile
from pathlib import Path
from typing import Any, TextIO

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.errors import BlackholeError
from pipeline.files import check_writable, names_standard_output, writing
from pipeline.game.cards import card_name
from pipeline.game.deal import Deal
from pipeline.game.games import BLACK_HOLE, Game
from pipeline.game.players import PLAYER_COLUMNS, PLAYERS, Player
from pipeline.game.rules import IllegalMove, Position
from pipeline.packs.family import pack_game
from pipeline.packs.folders import pack_folder_batches, pack_metadata
from pipeline.packs.formats import ExportFormat
from pipeline.packs.labels import PACK_TIERS, UNGRADED, PackKind
from pipeline.packs.manifest import read_manifest
from pipeline.packs.parquet import (
    BATCH_ROWS,
    PackError,
    metadata,
    pack_file_schema,
    read_pack_file_batches,
)

EXPORTED_METRICS = (
    "solution_count",
    "log10_solutions",
    "winnable_states",
    "reachable_states",
    "winnable_share",
    *PLAYER_COLUMNS,
    "branching_winning_lines",
    "branching_winnable",
    "winning_first_moves",
    "first_moves",
    "forced_moves",
    "decisions",
    "traps",
    "first_trap",
    "tree_score",
)
"""The grade columns an export writes of each deal, each player model's two figures weakest first."""
_LEVEL = "level"
_ROWS_AT_ONCE = 1_000  # rows made into dicts at a time
_DOCUMENT_COLUMNS = ("deal_id", "difficulty", "verdict", "board", "solution")  # and the metrics


class ExportError(BlackholeError, ValueError):
    """An export that cannot be made: an unknown format or tier, a negative limit, a table without boards."""


def export_pack(
    table: pa.Table, path: Path, fmt: ExportFormat | str, *, tier: str | None = None, limit: int | None = None
) -> int:
    """Write the rows of ``table`` to ``path`` as ``fmt``; returns how many rows it wrote.

    Only rows of ``tier`` when given, then the first ``limit`` when given, in table order.
    The file is replaced atomically (:func:`pipeline.files.replacing`): all of
    it or, on any error, nothing.
    """
    fmt = _checked_options(fmt, tier, limit)
    for name in ("deal_id", "board"):
        if name not in table.column_names:
            raise ExportError(f"the table has no column {name!r}, so it is not a pack")
    rows = _first(_rows(_of_tier([table], tier)), limit)
    reference = reference_player(metadata(table))
    game = pack_game(table, source="<table>")
    return _write_rows(
        path, fmt, rows, has_level=_LEVEL in table.column_names, reference=reference, game=game
    )


def _checked_options(fmt: ExportFormat | str, tier: str | None, limit: int | None) -> ExportFormat:
    """``fmt`` as an :class:`ExportFormat`, once it, ``tier`` and ``limit`` are known to be good; else ExportError."""
    try:
        chosen = ExportFormat(fmt)
    except ValueError:
        known = ", ".join(known.value for known in ExportFormat)
        raise ExportError(f"unknown export format {fmt!r} (formats: {known})") from None
    if tier is not None and tier not in PACK_TIERS:
        raise ExportError(f"unknown tier {tier!r} (tiers: {', '.join(PACK_TIERS)})")
    if limit is not None and limit < 0:
        raise ExportError(f"limit must be at least 0, got {limit}")
    return chosen


def reference_player(entries: Mapping[str, str]) -> Player | None:
    """The player model a graded pack's difficulty counts, from its schema metadata; None when it names none.

    >>> reference_player({"difficulty_player": "lookahead-4"}), reference_player({})
    (<Player.LOOKAHEAD_4: 'lookahead-4'>, None)
    """
    try:
        return Player(entries["difficulty_player"])
    except (KeyError, ValueError):
        return None


def _write_rows(
    path: Path,
    fmt: ExportFormat,
    rows: Iterable[dict[str, Any]],
    *,
    has_level: bool,
    reference: Player | None,
    game: Game,
) -> int:
    """Write ``rows`` (deals of ``game``) to ``path`` as ``fmt``, one at a time, replacing it atomically
    (or streaming them to standard output: :func:`pipeline.files.writing`); how many rows it wrote."""
    path = _destination(path)  # a pack folder's own files are its input: export_pack_folder checks them
    with writing(path) as sink:
        text = io.TextIOWrapper(sink, encoding="utf-8", newline="")
        written = _WRITERS[fmt](text, rows, has_level=has_level, reference=reference, game=game)
        text.flush()
        text.detach()
    return written


def _destination(path: Path, inputs: Iterable[Path] = ()) -> Path:
    """``path`` once an export may write there: standard output, or a file :func:`check_writable` allows."""
    return Path(path) if names_standard_output(path) else check_writable(path, inputs=inputs)


def _of_tier(tables: Iterable[pa.Table], tier: str | None) -> Iterator[pa.Table]:
    """The rows of ``tables`` of ``tier`` (all when None), tables with no such row left out."""
    for table in tables:
        if tier is not None:
            table = table.filter(_is_tier(table, tier))
        if table.num_rows:
            yield table


def _is_tier(table: pa.Table, tier: str) -> pa.ChunkedArray | pa.Array:
    """Whether each row of ``table`` is of ``tier`` (a null tier, or none, is ``ungraded``)."""
    if "tier" not in table.column_names:
        return pa.array([tier == UNGRADED] * table.num_rows, pa.bool_())
    column = table.column("tier")
    same = pc.fill_null(pc.equal(column, tier), False)
    return pc.or_(same, pc.is_null(column)) if tier == UNGRADED else same


def _rows(tables: Iterable[pa.Table]) -> Iterator[dict[str, Any]]:
    """The rows of ``tables`` as dicts, in order, made :data:`_ROWS_AT_ONCE` at a time."""
    for table in tables:
        for start in range(0, table.num_rows, _ROWS_AT_ONCE):
            yield from table.slice(start, _ROWS_AT_ONCE).to_pylist()


def _first(rows: Iterator[dict[str, Any]], limit: int | None) -> Iterator[dict[str, Any]]:
    """The first ``limit`` of ``rows`` (all when None); nothing past them is read."""
    return rows if limit is None else islice(rows, limit)


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


def deal_document(
    row: dict[str, Any], *, has_level: bool, reference: Player | None = None, game: Game = BLACK_HOLE
) -> dict[str, Any]:
    """The JSON object of one pack row, a deal of ``game`` (keys in a fixed order); ``reference`` is the player
    the pack's difficulty counts, whose figures the deal's ``expected_attempts`` and ``dead_ends`` are."""
    deal = Deal.from_board_text(row["board"], source=str(row["deal_id"]), game=game)
    solution = [int(pile) for pile in row.get("solution") or ()]
    try:
        moves = played_cards(deal, solution)
    except IllegalMove as error:
        raise IllegalMove(f"{row['deal_id']}: {error}") from None
    document = {"deal_id": row["deal_id"]}
    document |= game.game_entry
    document |= {"tier": _tier(row), "difficulty": row.get("difficulty")}
    if has_level:
        document[_LEVEL] = row[_LEVEL]
    document |= {
        "verdict": row.get("verdict"),
        "board": deal.to_board_text(),
        "piles": [[card_name(card) for card in pile] for pile in deal.piles],
        "foundation": None if deal.foundation is None else card_name(deal.foundation),
    }
    if game.has_talon:
        document["talon"] = [card_name(card) for card in deal.talon]
    document |= {
        "solution": solution,
        "moves": moves,
        "first_trap": row.get("first_trap"),
        "reference_player": None if reference is None else reference.value,
    }
    players = {player.value: player_figures(row, player) for player in PLAYERS}
    figures = players.get(reference.value) if reference is not None else None
    document |= {
        "expected_attempts": None if figures is None else figures["expected_attempts"],
        "dead_ends": None if figures is None else figures["dead_ends"],
        "players": players,
        "metrics": {name: row.get(name) for name in EXPORTED_METRICS} | {"solution_count": count_text(row)},
    }
    return document


def count_text(row: dict[str, Any]) -> str | None:
    """The ``solution_count`` of ``row`` as JSON exports write it: decimal text, since JSON readers
    (JavaScript's among them) lose integers past 2**53; null when the row has none.

    >>> count_text({"solution_count": 12345678901234567}), count_text({"solution_count": None})
    ('12345678901234567', None)
    """
    count = row.get("solution_count")
    return None if count is None else str(count)


def player_figures(row: dict[str, Any], player: Player) -> dict[str, float | None]:
    """What ``player`` meets in the deal of ``row``: ``win_probability`` (one attempt without undo; the
    column ``<player>_win_probability``), ``expected_attempts`` (1 / win probability; null without a win)
    and ``dead_ends`` (with undo); then ``win_chance``, the old name of ``win_probability``, written
    for this version only (:data:`OLD_WIN_KEY`).

    >>> player_figures({"tips_win_probability": 0.025, "tips_dead_ends": 5.5}, Player.TIPS)
    {'win_probability': 0.025, 'expected_attempts': 40.0, 'dead_ends': 5.5, 'win_chance': 0.025}
    >>> player_figures({"tips_win_probability": 0.0, "tips_dead_ends": None}, Player.TIPS)
    {'win_probability': 0.0, 'expected_attempts': None, 'dead_ends': None, 'win_chance': 0.0}
    """
    chance = row.get(player.win_column)
    return {
        "win_probability": chance,
        "expected_attempts": 1.0 / chance if chance else None,
        "dead_ends": row.get(player.dead_ends_column),
        OLD_WIN_KEY: chance,
    }


OLD_WIN_KEY = "win_chance"
"""The old name of a player's ``win_probability`` in a JSON export, written beside it in this version so that
readers of the old key keep working; the next version drops it."""


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
    game = deal.game
    names = []
    for step, pile in enumerate(solution, start=1):
        try:
            after = position.play(pile)
        except IllegalMove as error:
            raise IllegalMove(f"move {step}: {error}") from None
        dealt = game.is_talon_move(pile)
        card = deal.talon[position.talon_dealt] if dealt else position.top_card(pile)
        assert card is not None  # play() raised IllegalMove for an empty pile
        names.append(card_name(card))
        position = after
    return names


def _tier(row: dict[str, Any]) -> str | None:
    name = _tier_name(row.get("tier"))
    return None if name == UNGRADED else name


def _tier_name(tier: str | None) -> str:
    return UNGRADED if tier is None else tier


def _write_json(
    text: TextIO, rows: Iterable[dict[str, Any]], *, has_level: bool, reference: Player | None, game: Game
) -> int:
    text.write('{"deals": [\n')
    written = 0
    for row in rows:
        document = deal_document(row, has_level=has_level, reference=reference, game=game)
        text.write((",\n" if written else "") + json.dumps(document, ensure_ascii=False, allow_nan=False))
        written += 1
    text.write("\n]}\n" if written else "]}\n")
    return written


def _write_jsonl(
    text: TextIO, rows: Iterable[dict[str, Any]], *, has_level: bool, reference: Player | None, game: Game
) -> int:
    written = 0
    for row in rows:
        document = deal_document(row, has_level=has_level, reference=reference, game=game)
        text.write(json.dumps(document, ensure_ascii=False, allow_nan=False) + "\n")
        written += 1
    return written


def _write_boards(
    text: TextIO, rows: Iterable[dict[str, Any]], *, has_level: bool, reference: Player | None, game: Game
) -> int:
    written = 0
    for row in rows:
        text.write(("\n" if written else "") + _canonical_board(row, game))
        written += 1
    return written


def _canonical_board(row: dict[str, Any], game: Game) -> str:
    return Deal.from_board_text(row["board"], source=str(row["deal_id"]), game=game).to_board_text()


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""The first characters that make a spreadsheet (Excel, LibreOffice, Google Sheets) run a text cell as a
formula: OWASP's list for CSV injection."""


def spreadsheet_cell(value: Any) -> Any:
    """``value`` as a CSV cell no spreadsheet runs: text starting with one of :data:`FORMULA_STARTS` gets a
    ``'`` before it, which makes a spreadsheet take the cell for text; anything else, numbers included, as it is.

    >>> spreadsheet_cell("=HYPERLINK(1)"), spreadsheet_cell("@SUM(1)"), spreadsheet_cell("-5")
    ("'=HYPERLINK(1)", "'@SUM(1)", "'-5")
    >>> spreadsheet_cell("seed-1-0"), spreadsheet_cell(-5), spreadsheet_cell(-0.25), spreadsheet_cell(None)
    ('seed-1-0', -5, -0.25, None)
    """
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def _write_csv(
    text: TextIO, rows: Iterable[dict[str, Any]], *, has_level: bool, reference: Player | None, game: Game
) -> int:
    header = (
        ["deal_id", "tier", "difficulty"] + ([_LEVEL] if has_level else []) + ["verdict", "board", "solution"]
    )
    header += EXPORTED_METRICS
    writer = csv.writer(text, lineterminator="\n")
    # Python 3.11's writer leaves a cell holding a carriage return bare, and readers end the row there: a
    # row with one is written with every cell quoted (which a spreadsheet reads as the same cells).
    quoting = csv.writer(text, lineterminator="\n", quoting=csv.QUOTE_ALL)
    writer.writerow(header)
    written = 0
    for row in rows:
        cells = {
            "tier": _tier(row),
            "board": board_cell(_canonical_board(row, game)),
            "solution": " ".join(str(pile) for pile in row.get("solution") or ()),
        }
        line = [spreadsheet_cell(cells[name] if name in cells else row.get(name)) for name in header]
        carriage = any(isinstance(cell, str) and "\r" in cell for cell in line)
        (quoting if carriage else writer).writerow(line)
        written += 1
    return written


_WRITERS = {
    ExportFormat.JSON: _write_json,
    ExportFormat.JSONL: _write_jsonl,
    ExportFormat.BOARDS: _write_boards,
    ExportFormat.CSV: _write_csv,
}


def export_saved_pack(
    pack: Path,
    path: Path,
    fmt: ExportFormat | str,
    *,
    tier: str | None = None,
    limit: int | None = None,
    batch_rows: int = BATCH_ROWS,
) -> int:
    """Export ``pack``, a pack folder (:func:`export_pack_folder`) or a pack file (:func:`export_pack_file`),
    to ``path`` as ``fmt``; how many rows it wrote."""
    export = export_pack_file if Path(pack).is_file() else export_pack_folder
    return export(pack, path, fmt, tier=tier, limit=limit, batch_rows=batch_rows)


def export_pack_file(
    pack: Path,
    path: Path,
    fmt: ExportFormat | str,
    *,
    tier: str | None = None,
    limit: int | None = None,
    batch_rows: int = BATCH_ROWS,
) -> int:
    """Export the pack file ``pack`` (one Parquet file, as ``generate`` to ``grade`` write) to ``path`` as
    ``fmt`` (:func:`export_pack`), in file order; how many rows it wrote.

    The file is read ``batch_rows`` rows at a time, checked as it is read
    (:func:`~pipeline.packs.parquet.read_pack_file_batches`), only the columns
    ``fmt`` writes that it has, and no further than the ``limit`` rows written.
    """
    fmt = _checked_options(fmt, tier, limit)
    _destination(path, inputs=[pack])
    found = pack_file_schema(pack)
    has_level = _LEVEL in found.names
    wanted = _folder_columns(fmt, has_level=has_level) + (["tier"] if "tier" in found.names else [])
    columns = [name for name in wanted if name in found.names]
    batches = read_pack_file_batches(pack, batch_rows=batch_rows, columns=columns)
    rows = _first(_rows(_of_tier(batches, tier)), limit)
    reference = reference_player(metadata(found.empty_table()))
    game = pack_game(found, source=str(pack))
    return _write_rows(path, fmt, rows, has_level=has_level, reference=reference, game=game)


def export_pack_folder(
    folder: Path,
    path: Path,
    fmt: ExportFormat | str,
    *,
    tier: str | None = None,
    limit: int | None = None,
    batch_rows: int = BATCH_ROWS,
) -> int:
    """Export the pack folder ``folder`` to ``path`` as ``fmt`` (:func:`export_pack`); how many rows it wrote.

    The pack is read ``batch_rows`` rows at a time (:func:`pack_folder_batches`),
    only the columns ``fmt`` writes, and no further than the ``limit`` rows
    written. A curated pack (one with ``level``) is exported in level order,
    any other in pack order: each tier file of a curated pack is in level
    order, so when the tiers' levels interleave the files are merged, each
    read on its own (:func:`_in_level_order`).
    """
    fmt = _checked_options(fmt, tier, limit)
    _destination(path, inputs=[folder])
    manifest = read_manifest(folder)
    has_level = manifest.kind is PackKind.CURATED
    reference = reference_player(pack_metadata(folder))
    columns = _folder_columns(fmt, has_level=has_level)
    if has_level:
        rows = _in_level_order(folder, columns, tier=tier, batch_rows=batch_rows)
    else:
        rows = _rows(_of_tier(pack_folder_batches(folder, columns=columns, batch_rows=batch_rows), tier))
    return _write_rows(
        path, fmt, _first(rows, limit), has_level=has_level, reference=reference, game=manifest.played
    )


def _folder_columns(fmt: ExportFormat, *, has_level: bool) -> list[str]:
    """The columns of a pack folder that an export as ``fmt`` reads (``tier`` comes with every batch).

    >>> _folder_columns(ExportFormat.BOARDS, has_level=True)
    ['deal_id', 'board', 'level']
    """
    written = ["deal_id", "board"] if fmt == ExportFormat.BOARDS else [*_DOCUMENT_COLUMNS, *EXPORTED_METRICS]
    return written + ([_LEVEL] if has_level else [])


def _in_level_order(
    folder: Path, columns: list[str], *, tier: str | None, batch_rows: int
) -> Iterator[dict[str, Any]]:
    """The rows of the curated pack folder ``folder`` (of ``tier`` when given) in level order.

    A first pass reads the levels alone. When the pack order is already the
    level order (a curated pack in difficulty order), the rows are read once
    in pack order; otherwise each tier's file is read on its own (the batches
    of the tiers before it read and skipped) and the files merged by level.
    """
    in_order, each_in_order = _level_orders(folder, tier=tier, batch_rows=batch_rows)
    if in_order:
        return _rows(_of_tier(pack_folder_batches(folder, columns=columns, batch_rows=batch_rows), tier))
    if not each_in_order:
        raise PackError(f"{folder}: a tier file's rows are not in level order, so it is not a curated pack")
    tiers = [tier] if tier is not None else [entry.tier for entry in read_manifest(folder).files]
    streams = [_rows(_tier_batches(folder, name, columns, batch_rows)) for name in tiers]
    # rows of equal levels keep pack order, as a stable sort keeps them
    return heapq.merge(*streams, key=lambda row: row[_LEVEL])


def _level_orders(folder: Path, *, tier: str | None, batch_rows: int) -> tuple[bool, bool]:
    """Whether the rows (of ``tier`` when given) of the pack folder ``folder`` are in level order in
    pack order, and whether each tier's rows are."""
    last: int | None = None
    last_of_tier: dict[str, int] = {}
    in_order = each_in_order = True
    for batch in _of_tier(pack_folder_batches(folder, columns=[_LEVEL], batch_rows=batch_rows), tier):
        levels = batch.column(_LEVEL).to_numpy()
        name = batch.column("tier")[0].as_py()
        rising = bool(np.all(np.diff(levels) >= 0))
        in_order = in_order and rising and (last is None or bool(levels[0] >= last))
        each_in_order = each_in_order and rising and bool(levels[0] >= last_of_tier.get(name, levels[0]))
        last = last_of_tier[name] = int(levels[-1])
    return in_order, each_in_order


def _tier_batches(folder: Path, tier: str, columns: list[str], batch_rows: int) -> Iterator[pa.Table]:
    """The batches of ``tier``'s file of the pack folder ``folder``: those of the files before it are read and skipped."""

    def of_tier(batch: pa.Table) -> bool:
        return bool(batch.column("tier")[0].as_py() == tier)

    batches = pack_folder_batches(folder, columns=columns, batch_rows=batch_rows)
    return takewhile(of_tier, dropwhile(lambda batch: not of_tier(batch), batches))
