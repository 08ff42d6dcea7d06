"""What a pack's rows say, checked: allowed values, finite numbers, no contradictions, solutions that win.

Every reader of a pack file or folder checks the rows it reads
(:func:`pipeline.packs.parquet.check_rows`, used by
:mod:`pipeline.packs.parquet` and :mod:`pipeline.packs.folders`), so no
stage, export or report trusts a damaged row. The checks cover the columns
a table has, each against its declaration in :mod:`pipeline.packs.schema`:

- a column of another type than declared, or a null where none may be;
- an enumerated column (:data:`ALLOWED`) holding another value;
- a float column holding NaN or an infinity (null is fine where allowed),
  a number outside what its column counts or measures (:data:`RANGES`);
- contradictions between columns (:data:`RULES`): a solution on a row not
  ``solved``, a ``solved`` row without one, 51 cards played on a row not
  solved (or fewer on one that is), a tier or grade status its verdict
  cannot have, a tier or difficulty without an exact grade, a cross-check
  decided without a CP-SAT verdict, or that does not say whether it agrees;
- a ``solved`` row whose solution is not a legal win of its board,
  replayed a batch at a time by :mod:`pipeline.game.batch_replay` (a bad
  board is a BoardError naming the row); the boards of a pack of another game
  than Black Hole (:func:`pipeline.packs.family.pack_game`) are parsed as that
  game's, and its wins replayed one by one by :func:`pipeline.game.rules.replay`.

:func:`row_problem` names the first broken row: the file, the row (counted
in the file, from 0), the deal and the problem, which the readers raise as
PackError (:func:`pipeline.packs.parquet.check_rows`).

>>> table = pa.table({"deal_id": ["seed-1-0"], "verdict": ["banana"]})
>>> row_problem(table, source="w.parquet")
"w.parquet[0]: deal seed-1-0: verdict 'banana' is not one of solved, unsolvable, unknown"
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.game.batch_replay import batch_replayed, board_cards, failed_replays
from pipeline.game.deal import NUM_PILES, Deal
from pipeline.game.games import BLACK_HOLE, Game
from pipeline.game.players import PLAYERS
from pipeline.game.rules import WINNING_LENGTH, IllegalMove, replay
from pipeline.game.verdicts import Verdict
from pipeline.packs.family import pack_game
from pipeline.packs.labels import PACK_TIERS, SOLVABLE_TIERS, GradeStatus, Tier
from pipeline.packs.schema import CHECK_FIELDS, DEAL_FIELDS, GRADE_FIELDS, LEVEL_FIELD, RESULT_FIELDS

FIELDS = {
    field.name: field for field in (*DEAL_FIELDS, *RESULT_FIELDS, *CHECK_FIELDS, *GRADE_FIELDS, LEVEL_FIELD)
}
_VERDICT_NAMES = tuple(verdict.value for verdict in Verdict)
ALLOWED = {
    "source": ("seed", "pysol", "import"),
    "verdict": _VERDICT_NAMES,
    "cpsat_verdict": _VERDICT_NAMES,
    "checked_by": ("cpsat", "reference"),
    "grade_status": tuple(status.value for status in GradeStatus),
    "tier": PACK_TIERS,  # a pack folder's rows say "ungraded" where a file's say null
}
"""The values each enumerated column may hold (and null, where its field is nullable)."""
LINE_COUNTS = ("forced_moves", "decisions", "traps", "first_trap")
"""The columns that count moves along a winning line: at most its pile cards and talon cards."""
CARD_COUNTS = ("max_cards_played", *LINE_COUNTS)
RANGES: dict[str, tuple[int, int | None]] = {
    **dict.fromkeys(("index", "nodes", "solution_count", "winnable_states", "reachable_states"), (0, None)),
    **dict.fromkeys(("seconds", "cpsat_seconds", "grade_seconds", "log10_solutions"), (0, None)),
    **dict.fromkeys(("winnable_share", *(player.win_column for player in PLAYERS)), (0, 1)),
    **dict.fromkeys((player.dead_ends_column for player in PLAYERS), (0, None)),
    **dict.fromkeys(("tree_score", "difficulty"), (0, None)),  # a figure of dead ends or attempts, or a score
    **dict.fromkeys(("first_moves", "winning_first_moves"), (0, NUM_PILES)),  # one move a pile at most
    **dict.fromkeys(("branching_winning_lines", "branching_winnable"), (0, NUM_PILES)),
    **dict.fromkeys(CARD_COUNTS, (0, WINNING_LENGTH)),
    "level": (1, None),
}
"""The least and the most (None: no most) each numeric column of a Black Hole pack may hold, from what it
counts or measures (:func:`ranges_of` for every game)."""


@functools.cache
def ranges_of(game: Game) -> dict[str, tuple[int, int | None]]:
    """:data:`RANGES` for a pack of ``game``: its card counts up to the cards its piles hold, the counts along
    a line up to the moves a line can make (a talon deal is a move), its moves and branching up to one a pile
    and the talon's.

    >>> from pipeline.game.games import game_named
    >>> golf = ranges_of(game_named("golf"))
    >>> golf["max_cards_played"], golf["decisions"], golf["first_moves"], ranges_of(BLACK_HOLE)["decisions"]
    ((0, 35), (0, 51), (0, 8), (0, 51))
    """
    moves = game.num_moves
    return (
        RANGES
        | dict.fromkeys(LINE_COUNTS, (0, game.pile_cards + game.talon_size))
        | {"max_cards_played": (0, game.pile_cards)}
        | dict.fromkeys(("first_moves", "winning_first_moves"), (0, moves))
        | dict.fromkeys(("branching_winning_lines", "branching_winnable"), (0, moves))
    )


REPLAYED_WITH = ("board", "solution")
"""The columns only the replay of a row's solution reads: most of a check's bytes and time. A reader reads
every column beside those asked for, so that every reader refuses the same rows; but not these of a file
whose same bytes were replayed before (:mod:`pipeline.packs.folders`)."""

_SOLVED, _UNSOLVABLE, _UNKNOWN = (verdict.value for verdict in Verdict)
_EXACT = GradeStatus.EXACT.value
_ROWS_AT_ONCE = 16_384  # rows checked at a time: the replay's arrays stay a few MB


@dataclass(frozen=True)
class Rule:
    """A contradiction between columns: where it is ``broken`` (True; null counts as not), and what the problem is.

    ``broken`` sees a table with the rule's ``columns`` and the pack's game; ``problem`` gets the
    first broken row's values of them, by name, and the game.
    """

    columns: tuple[str, ...]
    broken: Callable[[pa.Table, Game], pa.ChunkedArray | pa.Array]
    problem: Callable[[dict[str, Any], Game], str]


def _is(table: pa.Table, name: str, *values: str) -> pa.ChunkedArray | pa.Array:
    """Whether each row's ``name`` is one of ``values`` (False for null)."""
    return pc.is_in(table.column(name), pa.array(values, pa.string()))


def _tiered(table: pa.Table) -> pa.ChunkedArray | pa.Array:
    """Whether each row has a tier (not null, not ``ungraded``)."""
    return _is(table, "tier", *(tier.value for tier in Tier))


def _moves(table: pa.Table) -> pa.ChunkedArray | pa.Array:
    return pc.fill_null(pc.list_value_length(table.column("solution")), 0)


RULES = (
    Rule(
        ("verdict", "solution"),
        lambda t, _: pc.and_(pc.not_equal(t.column("verdict"), _SOLVED), pc.greater(_moves(t), 0)),
        lambda row, _: (
            f"verdict {row['verdict']!r} with a solution of {len(row['solution'])} moves "
            "(a solution is empty unless solved)"
        ),
    ),
    Rule(
        ("verdict", "solution"),
        lambda t, _: pc.and_(pc.equal(t.column("verdict"), _SOLVED), pc.equal(_moves(t), 0)),
        lambda row, _: "verdict 'solved' without a solution",
    ),
    Rule(
        ("verdict", "max_cards_played"),
        lambda t, game: pc.fill_null(
            pc.xor(
                pc.equal(t.column("verdict"), _SOLVED),
                pc.equal(t.column("max_cards_played"), game.pile_cards),
            ),
            False,
        ),
        lambda row, game: (
            f"verdict {row['verdict']!r} with max_cards_played {row['max_cards_played']} "
            f"({game.pile_cards} exactly when solved)"
        ),
    ),
    Rule(
        ("verdict", "tier"),
        lambda t, _: pc.and_(_is(t, "tier", *SOLVABLE_TIERS), pc.not_equal(t.column("verdict"), _SOLVED)),
        lambda row, _: f"tier {row['tier']!r} on a row whose verdict is {row['verdict']!r} (not solved)",
    ),
    Rule(
        ("verdict", "tier"),
        lambda t, _: pc.and_(
            _is(t, "tier", Tier.UNSOLVABLE.value), pc.not_equal(t.column("verdict"), _UNSOLVABLE)
        ),
        lambda row, _: f"tier 'unsolvable' on a row whose verdict is {row['verdict']!r}",
    ),
    Rule(
        ("grade_status", "tier"),
        lambda t, _: pc.and_(_tiered(t), pc.not_equal(t.column("grade_status"), _EXACT)),
        lambda row, _: (
            f"tier {row['tier']!r} with grade_status {row['grade_status']!r} (a tier needs an exact grade)"
        ),
    ),
    Rule(
        ("verdict", "grade_status"),
        lambda t, _: pc.xor(
            pc.equal(t.column("verdict"), _UNKNOWN),
            pc.equal(t.column("grade_status"), GradeStatus.UNKNOWN.value),
        ),
        lambda row, _: (
            f"grade_status {row['grade_status']!r} on a row whose verdict is {row['verdict']!r} "
            "(grade_status is unknown exactly when the verdict is)"
        ),
    ),
    Rule(
        ("verdict", "grade_status"),
        lambda t, _: pc.and_(
            pc.equal(t.column("grade_status"), GradeStatus.NOT_SAMPLED.value),
            pc.not_equal(t.column("verdict"), _SOLVED),
        ),
        lambda row, _: (
            f"grade_status 'not_sampled' on a row whose verdict is {row['verdict']!r} (only wins are sampled)"
        ),
    ),
    Rule(
        ("verdict", "grade_status", "difficulty"),
        lambda t, _: pc.and_(
            pc.is_valid(t.column("difficulty")),
            pc.or_(
                pc.not_equal(t.column("verdict"), _SOLVED), pc.not_equal(t.column("grade_status"), _EXACT)
            ),
        ),
        lambda row, _: (
            f"difficulty {row['difficulty']} on a row {row['verdict']} and graded "
            f"{row['grade_status']} (a difficulty needs a win graded exactly)"
        ),
    ),
    Rule(
        ("cpsat_verdict", "checked_by"),
        lambda t, _: pc.and_(pc.is_valid(t.column("checked_by")), pc.is_null(t.column("cpsat_verdict"))),
        lambda row, _: f"checked_by {row['checked_by']!r} without a cpsat_verdict (the row was not checked)",
    ),
    Rule(
        ("checked_by", "agree"),
        lambda t, _: pc.not_equal(pc.is_valid(t.column("checked_by")), pc.is_valid(t.column("agree"))),
        lambda row, _: f"checked_by {row['checked_by']!r} with agree {row['agree']!r} (both null or neither)",
    ),
)
"""The contradictions between columns that no row may have, each checked when the table has its columns."""


def row_problem(table: pa.Table, *, source: str, start: int = 0) -> str | None:
    """What the first broken row of ``table`` says that it may not (the module's checks, over the
    columns it has), named by ``source`` and its row; None when every row is sound.

    ``start`` is the row of the file that ``table`` begins at, when it is one
    batch of a file read in batches: the message names the row in the file,
    and its ``deal_id`` when the table has them. A column of another type
    than declared is named alone. A bad board raises BoardError naming the
    row, the deal and the board's line.
    """
    for name in table.column_names:
        field = FIELDS.get(name)
        if field is not None and table.schema.field(name).type != field.type:
            return f"{source}: column '{name}' is {table.schema.field(name).type}, expected {field.type}"
    game = pack_game(table, source=source)
    try:
        for at in range(0, table.num_rows, _ROWS_AT_ONCE):
            rows = _Rows(table.slice(at, _ROWS_AT_ONCE), source, start + at, game)
            rows.check_values()
            rows.check_rules()
            rows.check_solutions()
    except _Broken as broken:
        return str(broken)
    return None


class _Broken(Exception):
    """A broken row: the message names it and its problem."""


class _Rows:
    """A slice of a table's rows under check, and how a message names one of them."""

    def __init__(self, table: pa.Table, source: str, start: int, game: Game = BLACK_HOLE) -> None:
        self.table, self.source, self.start, self.game = table, source, start, game
        self.ranges = ranges_of(game)

    def label(self, row: int) -> str:
        """``file[row]: deal ID``: the row counted in the file, and its deal when the table has deal ids."""
        where = f"{self.source}[{self.start + row}]"
        if "deal_id" not in self.table.column_names:
            return where
        return f"{where}: deal {self.value('deal_id', row)}"

    def value(self, name: str, row: int) -> Any:
        return self.table.column(name)[row].as_py()

    def broken(self, row: int, problem: str) -> _Broken:
        """The _Broken of ``row`` (in the slice) and its ``problem``."""
        return _Broken(f"{self.label(row)}: {problem}")

    def check_values(self) -> None:
        """Nulls where the schema allows none, enumerated values outside theirs, floats that are not finite."""
        for name in self.table.column_names:
            field = FIELDS.get(name)
            if field is None:
                continue
            column = self.table.column(name)
            if not field.nullable and (row := _first(pc.is_null(column))) is not None:
                raise self.broken(row, f"{name} is null")
            if name in ALLOWED:
                allowed = ALLOWED[name]
                known = pc.or_(pc.is_in(column, pa.array(allowed, pa.string())), pc.is_null(column))
                if (row := _first(pc.invert(known))) is not None:
                    value = self.value(name, row)
                    raise self.broken(row, f"{name} {value!r} is not one of {', '.join(allowed)}")
            if pa.types.is_floating(field.type):
                finite = pc.fill_null(pc.is_finite(column), True)
                if (row := _first(pc.invert(finite))) is not None:
                    raise self.broken(row, f"{name} is {self.value(name, row)} (not a finite number)")
            if name in self.ranges:
                low, high = self.ranges[name]
                if (row := _first(pc.less(column, low))) is not None:
                    raise self.broken(row, f"{name} is {self.value(name, row)}, below {low}")
                if high is not None and (row := _first(pc.greater(column, high))) is not None:
                    raise self.broken(row, f"{name} is {self.value(name, row)}, above {high}")

    def check_rules(self) -> None:
        """The contradictions of :data:`RULES` whose columns the table has."""
        names = set(self.table.column_names)
        for rule in RULES:
            if (
                names.issuperset(rule.columns)
                and (row := _first(rule.broken(self.table, self.game))) is not None
            ):
                values = {name: self.value(name, row) for name in rule.columns}
                raise self.broken(row, rule.problem(values, self.game))

    def check_solutions(self) -> None:
        """Every board read (BoardError naming the row); every ``solved`` row's solution replayed."""
        if "board" not in self.table.column_names:
            return
        if not batch_replayed(self.game):
            self.check_solutions_one_by_one()
            return
        data, offsets = _string_buffers(self.table.column("board"))
        cards = board_cards(data, offsets, source=self.label)
        if not {"verdict", "solution"} <= set(self.table.column_names):
            return
        solutions = self.table.column("solution").combine_chunks()
        moves = solutions.flatten()
        if moves.null_count:  # a move that is null: the row of the first
            first = pc.index(pc.is_null(moves), True).as_py()
            row = pc.list_parent_indices(solutions)[first].as_py()
            raise self.broken(row, "the solution has a null move")
        solved = pc.equal(self.table.column("verdict"), _SOLVED).to_numpy(zero_copy_only=False)
        starts = np.asarray(solutions.offsets)
        failed = failed_replays(cards, moves.to_numpy(), starts - starts[0]) & solved
        if failed.any():
            row = int(np.flatnonzero(failed)[0])
            raise self.broken(
                row, _replay_problem(Deal.from_cards(cards[row].tolist()), self.value("solution", row))
            )

    def check_solutions_one_by_one(self) -> None:
        """:meth:`check_solutions` for a game the batch referee is not built for
        (:func:`~pipeline.game.batch_replay.batch_replayed`): each board parsed as the game's, each ``solved``
        row's solution replayed by the plain referee."""
        boards = self.table.column("board").to_pylist()
        deals = [
            Deal.from_board_text(board, source=self.label(row), game=self.game)
            for row, board in enumerate(boards)
        ]
        if not {"verdict", "solution"} <= set(self.table.column_names):
            return
        verdicts = self.table.column("verdict").to_pylist()
        solutions = self.table.column("solution").to_pylist()
        for row, (deal, verdict, solution) in enumerate(zip(deals, verdicts, solutions, strict=True)):
            if solution is not None and None in solution:
                raise self.broken(row, "the solution has a null move")
            if verdict == _SOLVED:
                try:
                    replay(deal, solution or [])
                except IllegalMove as error:
                    raise self.broken(row, f"the solution does not replay ({error})") from None


def _first(broken: pa.ChunkedArray | pa.Array) -> int | None:
    """The first row where ``broken`` is True (nulls count as False), or None."""
    if not pc.any(broken).as_py():
        return None
    return int(pc.index(broken, True).as_py())


def _string_buffers(column: pa.ChunkedArray) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64]]:
    """The bytes of a string column's texts and where each starts (one more offset than texts)."""
    array = column.combine_chunks()
    _, offsets_buffer, data_buffer = array.buffers()
    offsets = np.frombuffer(offsets_buffer, np.int32)[array.offset : array.offset + len(array) + 1]
    data = np.frombuffer(data_buffer, np.uint8) if data_buffer is not None else np.empty(0, np.uint8)
    return data, offsets.astype(np.int64)


def _replay_problem(deal: Deal, solution: list[int]) -> str:
    """Why ``solution`` is no win of ``deal``, as the plain referee says it."""
    try:
        replay(deal, solution)
    except IllegalMove as error:
        return f"the solution does not replay ({error})"
    raise AssertionError(f"the batch referee rejects a solution that rules.replay accepts: {solution}")
