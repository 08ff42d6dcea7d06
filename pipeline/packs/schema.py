"""Every Parquet column of a pack, declared once: name, type, nullability and meaning.

Each stage adds a group of columns to the rows it reads:

- :data:`DEAL_FIELDS`, a *deals* pack (``generate``, ``import``);
- :data:`RESULT_FIELDS`, added by the solver (a *solved* pack);
- :data:`CHECK_FIELDS`, added by the cross-check;
- :data:`GRADE_FIELDS`, added by the grader;
- :data:`LEVEL_FIELD`, added last by curation.

A field's one-line meaning is its metadata under ``meaning``; the columns'
tables in ``docs/schema.md`` are made from them (:func:`schema_markdown`).
Tables and files carry :func:`bare` fields (no field metadata): the
meanings live here, once, and the bytes of a pack depend on its rows and
provenance alone.

The enumerated values of the string columns are the enums of
:mod:`pipeline.packs.labels` (``Tier``, ``GradeStatus``) and
:class:`pipeline.game.verdicts.Verdict`.

>>> [field.name for field in DEAL_FIELDS]
['deal_id', 'source', 'seed', 'index', 'board']
>>> meaning(DEAL_FIELDS[0])
'stable id, unique within a pack: seed-SEED-INDEX, pysol-NUMBER or import-HASH'
"""

from __future__ import annotations

from collections.abc import Iterable

import pyarrow as pa

from pipeline.game.players import PLAYERS

IMPORT_SCHEME = "import"  # the dealing scheme of imported boards (the others are in pipeline.game.shuffles)


def column(name: str, kind: pa.DataType, meaning: str, *, nullable: bool = True) -> pa.Field:
    """A pack column: an Arrow field whose metadata holds its one-line ``meaning``."""
    return pa.field(name, kind, nullable=nullable, metadata={"meaning": meaning})


def meaning(field: pa.Field) -> str:
    """The one-line meaning declared for ``field``."""
    text: bytes = (field.metadata or {}).get(b"meaning", b"")
    return text.decode()


DEAL_FIELDS = (
    column(
        "deal_id",
        pa.string(),
        "stable id, unique within a pack: seed-SEED-INDEX, pysol-NUMBER or import-HASH",
        nullable=False,
    ),
    column("source", pa.string(), "where the deal came from: seed, pysol or import", nullable=False),
    column("seed", pa.uint64(), "root seed of a seeded deal; null otherwise"),
    column(
        "index",
        pa.int64(),
        "seeded: deal index; pysol: PySol FC deal number; import: position of the board in its file, from 0",
        nullable=False,
    ),
    column("board", pa.string(), "the deal as board text, canonical spelling", nullable=False),
)
RESULT_FIELDS = (
    column("verdict", pa.string(), "solved, unsolvable or unknown", nullable=False),
    column(
        "solution",
        pa.list_(pa.uint8()),
        "the 51 pile numbers of a win, in play order; empty unless solved",
        nullable=False,
    ),
    column("nodes", pa.int64(), "positions the solver searched", nullable=False),
    column("seconds", pa.float64(), "solve seconds; null when written without timings"),
    column(
        "max_cards_played", pa.int8(), "most cards that can be played (51 when solved); null when not known"
    ),
)
CHECK_FIELDS = (
    column(
        "cpsat_verdict",
        pa.string(),
        "CP-SAT's verdict (solved, unsolvable or unknown); null when not checked",
    ),
    column(
        "cpsat_seconds", pa.float64(), "CP-SAT's wall-clock seconds; null when not checked or without timings"
    ),
    column(
        "checked_by",
        pa.string(),
        "which check decided: cpsat or reference; null when not checked or neither could tell",
    ),
    column(
        "agree",
        pa.bool_(),
        "the deciding check's verdict equals verdict; null when not checked or neither could tell",
    ),
)
GRADE_FIELDS = (
    column(
        "grade_status",
        pa.string(),
        "exact, out_of_budget, overflow, unknown (the verdict is unknown) or not_sampled "
        "(a win outside the run's grade sample); metrics only when exact",
        nullable=False,
    ),
    column(
        "solution_count",
        pa.int64(),
        "distinct winning move sequences (at most 2**62: a walk whose count would pass it is an overflow)",
    ),
    column("log10_solutions", pa.float64(), "log10 of solution_count; null when 0"),
    column("winnable_states", pa.int64(), "positions from which a win exists"),
    column("reachable_states", pa.int64(), "the start and every position one move from a winnable one"),
    column("winnable_share", pa.float64(), "winnable_states / reachable_states"),
    *(
        figure
        for player in PLAYERS
        for figure in (
            column(
                player.win_column,
                pa.float64(),
                f"chance that one attempt by {player.words} wins, without undo",
            ),
            column(
                player.dead_ends_column,
                pa.float64(),
                f"expected times {player.words} gets stuck before the win, undoing each time to the last "
                "position a win was open from",
            ),
        )
    ),
    column(
        "branching_winning_lines",
        pa.float64(),
        "legal moves, averaged over every position of every winning line",
    ),
    column(
        "branching_winnable", pa.float64(), "legal moves, averaged over the winnable positions not yet won"
    ),
    column("winning_first_moves", pa.int8(), "opening moves after which a win exists"),
    column("first_moves", pa.int8(), "legal opening moves"),
    column("forced_moves", pa.int8(), "positions of the solution with one legal move"),
    column("decisions", pa.int8(), "positions of the solution with more than one legal move"),
    column("traps", pa.int8(), "decisions with a move after which no win exists"),
    column("first_trap", pa.int8(), "moves played before the first trap; null when there is none"),
    column(
        "difficulty",
        pa.float64(),
        "the reference player's figure the tiers are cut on (the graded pack's difficulty_player and "
        "difficulty_figure; by default lookahead-2's dead ends); null unless solvable and exact",
    ),
    column(
        "tree_score",
        pa.float64(),
        "the difficulty of earlier versions: -log10 random_win_probability + 0.5 * -log10 winnable_share "
        "+ 0.1 * traps; null unless solvable and exact",
    ),
    column("tier", pa.string(), "easy, medium, hard, expert or unsolvable; null when not exact"),
    column("grade_seconds", pa.float64(), "seconds of the tree walk; null when none ran or without timings"),
)
LEVEL_FIELD = column(
    "level", pa.int32(), "position in the curated order, from 1 (curated packs only)", nullable=False
)
TIER_FIELD = GRADE_FIELDS[[field.name for field in GRADE_FIELDS].index("tier")]

DEALS_SCHEMA = pa.schema(DEAL_FIELDS)
SOLVED_SCHEMA = pa.schema(DEAL_FIELDS + RESULT_FIELDS)
PACK_FIELDS = (
    DEAL_FIELDS + RESULT_FIELDS + CHECK_FIELDS + tuple(f for f in GRADE_FIELDS if f is not TIER_FIELD)
)
"""The columns of a pack folder's files: ``tier`` is in the folder names, not in the files."""

FORMAT_1_TYPES = {"solution_count": pa.string()}
"""The columns whose type format 1 of the pack files wrote otherwise: ``solution_count`` as decimal text
(formats 2 and later write int64, which sorts as a number in every reader). Readers cast them to today's type."""

COLUMN_GROUPS = (
    ("Deals pack", "`blackhole generate`, `blackhole import`", DEAL_FIELDS),
    ("Solved pack", "`blackhole solve` adds", RESULT_FIELDS),
    ("Cross-checked pack", "`blackhole crosscheck` adds", CHECK_FIELDS),
    ("Graded pack", "`blackhole grade` adds", GRADE_FIELDS),
    ("Curated pack", "`blackhole curate` adds", (LEVEL_FIELD,)),
)


def bare(schema: pa.Schema) -> pa.Schema:
    """``schema`` without field metadata (the schema-level metadata stays): what files are written with."""
    return pa.schema([field.remove_metadata() for field in schema], metadata=schema.metadata)


def schema_markdown() -> str:
    """The columns' tables in Markdown, one per group, as ``docs/schema.md`` shows them."""
    sections = []
    for title, made_by, fields in COLUMN_GROUPS:
        sections.append(f"### {title}\n\n{made_by}:\n\n{_markdown_table(fields)}")
    return "\n\n".join(sections) + "\n"


def _markdown_table(fields: Iterable[pa.Field]) -> str:
    rows = ["| column | type | null | meaning |", "|---|---|---|---|"]
    for field in fields:
        rows.append(
            f"| `{field.name}` | {field.type} | {'yes' if field.nullable else 'no'} | {meaning(field)} |"
        )
    return "\n".join(rows)


if __name__ == "__main__":
    print(schema_markdown(), end="")
