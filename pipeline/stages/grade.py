"""Grading a solved pack: game-tree metrics, every player model's figures, a difficulty and a tier for every deal.

For each ``solved`` row, :func:`pipeline.engine.gametree.tree_of` walks the deal's
whole game tree from the start, counting exactly, whatever the game; forced moves, decisions and
traps are counted along the pack's solution (replayed by the rules first).
The walk has a budget of memory (what one grading worker may hold, in MiB:
its tables get the budget less :data:`~pipeline.engine.budgets.WORKER_BASE_MIB`)
and a guard of positions entered, not of seconds, so a graded pack is the
same bytes whatever the machine's load. When a budget runs out, or a count
would pass 2**62, no tree metric is written (never an estimate): the row says
``out_of_budget`` or ``overflow`` and has no tier. An ``unsolvable`` row needs
no walk: no line wins, no first move wins, no player ever wins. An
``unknown`` row is not graded. The players are those of
:mod:`pipeline.game.players`; the difficulty, the tree score and the tiers
those of :mod:`pipeline.stages.tiers`.

The graded pack is the solved (or cross-checked) pack with the columns of
:data:`pipeline.packs.schema.GRADE_FIELDS` added (``docs/schema.md`` lists
them); ``max_cards_played`` stays where it is, set to the game's pile cards
(Black Hole's 51) on a solved row that lacked it. A :class:`Grade`'s fields carry the names of those columns, and
:func:`graded_table` fills each column from the field of its name.

Every metric is null unless ``grade_status`` is ``exact``. An unsolvable row
has ``solution_count`` "0", ``random_win_probability`` 0, ``winnable_states``
and ``winning_first_moves`` 0, and null in the metrics that need a walk.

>>> from pipeline.game.deal import Deal, EXAMPLE_BOARD
>>> from pipeline.game.verdicts import SolveResult
>>> lost = SolveResult(Verdict.UNSOLVABLE, (), nodes=3, seconds=0.0, max_cards_played=3)
>>> grade = grade_deal(Deal.from_board_text(EXAMPLE_BOARD), lost)
>>> grade.grade_status.value, grade.solution_count, grade.tier.value, grade.difficulty
('exact', 0, 'unsolvable', None)
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

import pyarrow as pa

from pipeline.engine.budgets import walk_table_bytes
from pipeline.engine.gametree import tree_of
from pipeline.engine.status import Status
from pipeline.errors import of_type
from pipeline.game.deal import Deal
from pipeline.game.games import Game
from pipeline.game.players import PLAYERS, Player, PlayerFigures, figures_by_name
from pipeline.game.rules import Position
from pipeline.game.verdicts import SolveResult, Verdict
from pipeline.packs.family import one_game, same_game
from pipeline.packs.labels import GradeStatus, Tier
from pipeline.packs.parquet import pack_file_game, with_columns
from pipeline.packs.schema import GRADE_FIELDS
from pipeline.stages.pack_pass import PackBatch, stage_pack
from pipeline.stages.sampling import graded
from pipeline.stages.settings import DEFAULT_TIERS, GradeSettings, PassOptions, tiers_for
from pipeline.stages.stage import stage_batch
from pipeline.stages.tiers import Difficulty, Tiers, load_tiers, tree_score
from pipeline.workers import map_batches


@dataclass(frozen=True)
class Grade:
    """One deal's grade: the game-tree metrics (None when not known), each player's figures, its
    difficulty and tier.

    Each field but ``players``, and each property, is named as the pack column it fills
    (:data:`pipeline.packs.schema.GRADE_FIELDS`); the players' columns are read
    by :meth:`value_of`.
    """

    grade_status: GradeStatus
    solution_count: int | None = None
    winnable_states: int | None = None
    reachable_states: int | None = None
    branching_winning_lines: float | None = None
    branching_winnable: float | None = None
    winning_first_moves: int | None = None
    first_moves: int | None = None
    forced_moves: int | None = None
    decisions: int | None = None
    traps: int | None = None
    first_trap: int | None = None  # None when the solution meets no trap
    max_cards_played: int | None = None
    players: tuple[PlayerFigures, ...] | None = None  # one per player of the ladder (PLAYERS), from the start
    tree_score: float | None = None
    difficulty: float | None = None
    tier: Tier | None = None
    grade_seconds: float | None = None  # the tree walk's, None when none ran

    def value_of(self, column: str) -> object:
        """What this grade puts in the pack column ``column``: a field or property of that name, or a
        player's figure (None when not known, or dead ends without end)."""
        found = _PLAYER_FIGURES.get(column)
        if found is None:
            return getattr(self, column)
        row, figure = found
        if self.players is None:
            return None
        value: float = getattr(self.players[row], figure)
        return None if math.isinf(value) else value

    def figures_of(self, player: Player) -> PlayerFigures | None:
        """``player``'s figures, None when not known; a TypeError for what is no Player."""
        of_type(player, Player, "player")
        return None if self.players is None else self.players[PLAYERS.index(player)]

    @property
    def log10_solutions(self) -> float | None:
        return math.log10(self.solution_count) if self.solution_count else None

    @property
    def random_win_probability(self) -> float | None:
        """The win chance of random play: the first player's of the ladder."""
        figures = self.figures_of(Player.RANDOM)
        return None if figures is None else figures.win_probability

    @property
    def winnable_share(self) -> float | None:
        if not self.reachable_states:
            return None
        assert self.winnable_states is not None  # set whenever reachable_states is
        return self.winnable_states / self.reachable_states

    def to_dict(self) -> dict[str, Any]:
        """The grade as plain JSON-ready values: each field under its name (an enum by its value), the
        players as a mapping from each player's name to its figures (:meth:`PlayerFigures.to_dict`).

        >>> from pipeline.game.deal import EXAMPLE_BOARD
        >>> lost = grade_deal(Deal.from_board_text(EXAMPLE_BOARD), SolveResult(Verdict.UNSOLVABLE, (), 3, 0.0, 3))
        >>> found = lost.to_dict()
        >>> found["grade_status"], found["tier"], found["players"]["tips"]
        ('exact', 'unsolvable', {'win_probability': 0.0, 'expected_attempts': None, 'dead_ends': None})
        """
        found: dict[str, Any] = {}
        for declared in dataclasses.fields(self):
            value = getattr(self, declared.name)
            found[declared.name] = value.value if isinstance(value, Enum) else value
        found["players"] = figures_by_name(self.players)
        return found

    def difficulty_by(self, reference: Difficulty) -> float | None:
        """The difficulty by ``reference``; None unless this is an exact grade of a winnable deal."""
        if self.grade_status is not GradeStatus.EXACT or not self.solution_count or self.players is None:
            return None
        return reference.of(self.players)

    def tiered(self, tiers: Tiers) -> Grade:
        """This grade with its difficulty and tier under ``tiers`` (unchanged when it cannot have them)."""
        difficulty = self.difficulty_by(tiers.difficulty)
        if difficulty is None:
            return self
        return dataclasses.replace(self, difficulty=difficulty, tier=tiers.tier_of(difficulty))


_PLAYER_FIGURES = {
    column: (row, figure)
    for row, player in enumerate(PLAYERS)
    for column, figure in ((player.win_column, "win_probability"), (player.dead_ends_column, "dead_ends"))
}


def grade_deal(
    deal: Deal,
    result: SolveResult,
    *,
    max_positions: int = GradeSettings().max_positions,
    max_memory_mib: int = GradeSettings().max_memory_mib,
    tiers: Tiers | None = None,
) -> Grade:
    """The grade of ``deal``, given what the solver found of it (its verdict, a win's moves, the most cards played).

    The walk enters at most ``max_positions`` positions, and its tables take at most what a worker holding
    ``max_memory_mib`` MiB can give them (:func:`~pipeline.engine.budgets.walk_table_bytes`): past either,
    the grade is ``out_of_budget``.

    Without ``tiers`` the difficulty and the tier of a win are left None. ``tiers`` must be calibrated for
    the deal's game (:func:`pipeline.stages.settings.shipped_tiers`).
    """
    cards = result.max_cards_played
    if result.verdict is Verdict.UNKNOWN:
        return Grade(GradeStatus.UNKNOWN, max_cards_played=cards)
    if result.verdict is Verdict.UNSOLVABLE:
        return Grade(
            GradeStatus.EXACT,
            solution_count=0,
            winnable_states=0,
            winning_first_moves=0,
            max_cards_played=cards,
            players=tuple(PlayerFigures(0.0, math.inf) for _ in PLAYERS),
            tier=Tier.UNSOLVABLE,
        )
    began = time.perf_counter()
    tree = tree_of(
        deal,
        Position.start(deal),
        line=tuple(result.solution),
        max_positions=max_positions,
        max_bytes=walk_table_bytes(max_memory_mib),
    )
    seconds = time.perf_counter() - began
    cards = deal.game.pile_cards if cards is None else cards
    if tree.status is not Status.EXACT:
        # every way a walk ends is a grade status of the same name
        return Grade(GradeStatus[tree.status.name], max_cards_played=cards, grade_seconds=seconds)
    share = tree.winnable_states / tree.reachable_states
    grade = Grade(
        GradeStatus.EXACT,
        solution_count=tree.solution_count,
        winnable_states=tree.winnable_states,
        reachable_states=tree.reachable_states,
        branching_winning_lines=tree.branching_winning_lines,
        branching_winnable=tree.branching_winnable,
        winning_first_moves=tree.winning_first_moves,
        first_moves=tree.first_moves,
        forced_moves=tree.forced_moves,
        decisions=tree.decisions,
        traps=tree.traps,
        first_trap=None if tree.first_trap < 0 else tree.first_trap,
        max_cards_played=cards,
        players=tree.players,
        tree_score=tree_score(
            random_win_probability=tree.random_win_probability, winnable_share=share, traps=tree.traps
        ),
        grade_seconds=seconds,
    )
    return grade if tiers is None else grade.tiered(tiers)


def tiers_of_game(settings: GradeSettings, game: Game) -> Tiers:
    """The tiers ``settings`` grade ``game`` by, read from their file (ConfigError naming it when bad): the
    game's own shipped file in place of the default (:func:`~pipeline.stages.settings.tiers_for`).
    The one place a grade's tiers are resolved: once per run, per pass, per game of the face's calls."""
    return load_tiers(tiers_for(settings.tiers, game))


@dataclass(frozen=True)
class GradeStage:
    """The grader as a stage (:class:`~pipeline.stages.stage.Stage`): the game-tree walk of each deal of its
    sample within ``settings``' budget, its difficulty and tier under ``tiers`` (None: neither)."""

    settings: GradeSettings = dataclasses.field(default_factory=GradeSettings)
    tiers: Tiers | None = None
    name = "grade"
    label = "grading"
    chunk = 4  # a walk takes about a second and a half
    reads_results = True

    def picks(self, deal_id: str, result: SolveResult | None) -> bool:
        """Every deal but the wins left out of the sample (:func:`~pipeline.stages.sampling.graded`)."""
        assert result is not None  # a grade follows a solve
        chosen = self.settings
        return result.verdict is not Verdict.SOLVED or graded(
            deal_id, fraction=chosen.sample, seed=chosen.seed
        )

    def unpicked(self, result: SolveResult | None) -> Grade:
        assert result is not None
        return Grade(GradeStatus.NOT_SAMPLED, max_cards_played=result.max_cards_played)

    def apply(self, deal: Deal, result: SolveResult | None = None) -> Grade:
        assert result is not None  # what the solver found: a win's line, the most cards played
        return grade_deal(
            deal,
            result,
            max_positions=self.settings.max_positions,
            max_memory_mib=self.settings.max_memory_mib,
            tiers=self.tiers,
        )

    def columns(self, table: pa.Table, outputs: Sequence[Grade], *, timings: bool) -> pa.Table:
        return graded_table(table, outputs, timings=timings)

    def metadata(self) -> dict[str, str]:
        return self.settings.metadata()

    def sample_metadata(self) -> dict[str, str]:
        return self.settings.sample_metadata() | (self.tiers.metadata() if self.tiers else {})


def grade_deals(
    deals: Sequence[Deal],
    results: Sequence[SolveResult],
    settings: GradeSettings = GradeSettings(),
    options: PassOptions = PassOptions(),
    *,
    tiers: Tiers | None = None,
) -> list[Grade]:
    """Grade ``deals`` (all of one game), each with its solve result, on ``options.jobs`` workers; input order.

    ``tiers`` (None: no difficulty and no tier) are given loaded:
    ``settings.tiers`` is not read here.
    """
    stage = GradeStage(settings, tiers)
    return map_batches(
        stage_batch,
        [deal.to_board_text() for deal in deals],
        stage,
        one_game(deals),
        per_item=results,
        jobs=options.jobs,
        progress=options.progress,
        label=stage.label,
        backend=options.backend,
        largest_batch=stage.chunk,
    )


def grade_pack(
    source: Path,
    target: Path,
    settings: GradeSettings = GradeSettings(),
    options: PassOptions = PassOptions(),
    *,
    tiers: Tiers | None = None,
    game: Game | None = None,
) -> GradeSummary:
    """Grade every deal of the solved pack file ``source``, a batch at a time; write the pack file ``target`` with the grade columns.

    The tiers file ``settings.tiers`` is read first (ConfigError naming it),
    unless ``tiers`` are given already loaded; it is one of the pass's inputs,
    which ``target`` may not be. The default stands for the shipped tiers of the pack's game
    (:func:`tiers_of_game`), and ``game``, when given, must be the pack's
    (GameMixError naming ``source``).
    Raises PackError naming ``source`` before any grading when it is not a
    solved pack, and PackError or BoardError naming the row of the file and
    its deal, before its batch is graded, when a row's board is bad, its
    solution does not replay or it says what it may not (the reader checks
    every row: :func:`pipeline.packs.parquet.check_rows`); ``target`` is
    written whole or not at all. With ``settings.sample`` under 1, only that
    share of the wins is walked, chosen by ``settings.seed`` and the deal id
    as a run chooses them (:meth:`GradeStage.picks`); the other
    wins are ``not_sampled``. Returns the counts of the grades' statuses and tiers.
    """
    loaded = tiers
    if loaded is None and settings.tiers != DEFAULT_TIERS:
        loaded = load_tiers(settings.tiers)  # a file given is read before the pack, as it always was
    played = same_game(pack_file_game(source), game, source=str(source))
    stage = GradeStage(settings, tiers_of_game(settings, played) if loaded is None else loaded)

    def tally(batch: PackBatch, grades: list[Grade]) -> GradeSummary:
        return summarize_grades(grades)

    inputs = [] if tiers is not None else [tiers_for(settings.tiers, played)]
    summaries = stage_pack(stage, source, target, options, game=played, tally=tally, inputs=inputs)
    return sum(summaries, summarize_grades([]))


def graded_table(table: pa.Table, grades: Sequence[Grade], *, timings: bool = True) -> pa.Table:
    """``table`` (a solved pack) with the grade columns for ``grades`` added or replaced, and
    ``max_cards_played`` taken from the grades, in its place.

    Each column of :data:`~pipeline.packs.schema.GRADE_FIELDS` is filled from
    :meth:`Grade.value_of` its name: an enum by its value, a count
    in a string column as decimal text, ``grade_seconds`` null without ``timings``.
    """
    if len(grades) != table.num_rows:
        raise ValueError(f"{len(grades)} grades for {table.num_rows} rows")
    position = table.column_names.index("max_cards_played")
    cards = pa.array([g.max_cards_played for g in grades], pa.int8())
    table = table.set_column(position, table.schema.field("max_cards_played"), cards)
    columns: dict[str, Sequence[object]] = {
        field.name: [_cell(grade.value_of(field.name), field.type) for grade in grades]
        for field in GRADE_FIELDS
    }
    if not timings:
        columns["grade_seconds"] = [None] * len(grades)
    return with_columns(table, GRADE_FIELDS, columns)


def _cell(value: object, kind: pa.DataType) -> object:
    """``value`` as a column of type ``kind`` holds it: an enum by its value, an int in a string column as text."""
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, int) and pa.types.is_string(kind):
        return str(value)
    return value


@dataclass(frozen=True)
class GradeSummary:
    """How many grades have each status, and how many deals are in each tier; summaries of batches add."""

    total: int
    statuses: dict[GradeStatus, int]
    tiers: dict[Tier, int]

    def __add__(self, other: GradeSummary) -> GradeSummary:
        return GradeSummary(
            self.total + other.total,
            {status: self.statuses[status] + other.statuses[status] for status in GradeStatus},
            {tier: self.tiers[tier] + other.tiers[tier] for tier in Tier},
        )


def summarize_grades(grades: Sequence[Grade]) -> GradeSummary:
    """Counts of every status and every tier (zeros included), in their declared order."""
    statuses = Counter(grade.grade_status for grade in grades)
    tiers = Counter(grade.tier for grade in grades)
    return GradeSummary(
        len(grades),
        {status: statuses[status] for status in GradeStatus},
        {tier: tiers[tier] for tier in Tier},
    )
