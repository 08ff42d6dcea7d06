"""Many boards through the solver in one process: read in order, solved on the worker pool, answered in order.

Boards come from files or standard input (``-``), one input after another,
each as board text (boards separated by blank lines) or as JSON Lines, one
object a line with the board text in its ``board`` field (an input whose
first non-blank line starts with ``{``; an ``id`` field, when there, is
echoed in the answer). Every board gets its position in the stream (1 first,
across all inputs) and the place it starts (``FILE:LINE``). A board that
cannot be read becomes an answer carrying its :class:`BoardError`, and the
stream goes on past it; so does an input that cannot be opened.

:func:`read_boards` reads lazily, a line at a time, and :func:`solve_boards`
answers in input order as soon as each board's answer and those before it
are known: in this process with one job (no worker pool loaded), or with
more on the worker pool the solve stage uses, in batches of consecutive
boards, the answers put back in order (:func:`pipeline.workers.in_order`),
so they never depend on the number of jobs.

>>> from pipeline.game.deal import EXAMPLE_BOARD
>>> items = read_boards(["-"], stdin=[*EXAMPLE_BOARD.splitlines(), "", "Foundations: AS", "JD KS"])
>>> [(a.item.position, a.item.where, a.result.verdict.value if a.result else str(a.error)) for a in solve_boards(items)]
[(1, '<stdin>:1', 'unsolvable'), (2, '<stdin>:20', '<stdin>:21: expected 17 piles, found 1')]
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import TypeVar

from pipeline import strict_json
from pipeline.files import STANDARD_STREAM, STDIN_SOURCE
from pipeline.game.deal import BoardError, Deal, boards_or_errors
from pipeline.game.games import BLACK_HOLE, Game
from pipeline.game.verdicts import SolveResult
from pipeline.stages.face_solve import solve
from pipeline.stages.settings import SolveSettings

Each = TypeVar("Each")

BATCH_SIZE = 32
"""Consecutive boards sent to a worker at a time when there is more than one job."""


@dataclass(frozen=True)
class BoardItem:
    """One board of the stream: its position (1 first), where it starts, the deal read or why it was not."""

    position: int
    source: str
    """The input as named (``<stdin>`` for standard input)."""
    line: int
    """The line the board starts on (in JSON Lines, the object's line); 0 when the input could not be read at all."""
    found: Deal | BoardError
    alone: bool
    """Whether it is the only board of its input."""
    key: object = None
    """A JSON Lines object's ``id``, echoed in its answer (None when there is none)."""

    @property
    def where(self) -> str:
        """``FILE:LINE`` (``FILE`` alone when the input could not be read at all)."""
        return f"{self.source}:{self.line}" if self.line else self.source


@dataclass(frozen=True)
class Answer:
    """What the stream says of one board: its solve result, or the error that kept it from being read."""

    item: BoardItem
    result: SolveResult | None

    @property
    def error(self) -> BoardError | None:
        """Why the board could not be read (None when it was)."""
        found = self.item.found
        return found if isinstance(found, BoardError) else None

    @property
    def deal(self) -> Deal | None:
        found = self.item.found
        return found if isinstance(found, Deal) else None


def read_boards(
    names: Sequence[str], game: Game = BLACK_HOLE, *, stdin: Iterable[str] = ()
) -> Iterator[BoardItem]:
    """The boards of ``game`` in the inputs ``names`` (``-``: ``stdin``'s lines), in order, each as a BoardItem.

    Reads a line at a time: the answer to a board can be written before the
    next board is read (one board is read ahead, to know whether a board is
    alone in its input).
    """
    position = 0
    for name in names:
        for item in _alone_marked(_input_boards(name, game, stdin)):
            position += 1
            yield BoardItem(position, *item)


def _input_boards(
    name: str, game: Game, stdin: Iterable[str]
) -> Iterator[tuple[str, int, Deal | BoardError, object]]:
    """(source, line, deal or error, id) for each board of one input."""
    source = STDIN_SOURCE if name == STANDARD_STREAM else name
    try:
        if name == STANDARD_STREAM:
            yield from _text_boards(_bounded_lines(stdin), source, game)
        else:
            with Path(name).open(encoding="utf-8-sig") as file:
                yield from _text_boards(_bounded_lines(file), source, game)
    except UnicodeDecodeError as error:
        yield source, 0, BoardError(f"not UTF-8 text ({error.reason})", source=source), None
    except OSError as error:
        yield source, 0, BoardError(error.strerror or str(error), source=source), None


LONGEST_INPUT_LINE = 1 << 20
"""The most characters a line of an input is read to: far more than a JSON line of a board and its id
needs; a longer line (or a device that never ends a line, ``/dev/zero``) is read that far, refused, and
the input's reading stops there."""


def _bounded_lines(lines: Iterable[str]) -> Iterator[str]:
    """The lines of a text file or stream, each read to at most :data:`LONGEST_INPUT_LINE` characters, the
    input stopping after a line cut there; any other iterable of lines (a test's list) as it is."""
    readline = getattr(lines, "readline", None)
    if readline is None:
        yield from lines
        return
    while line := readline(LONGEST_INPUT_LINE + 1):
        yield line
        if len(line) > LONGEST_INPUT_LINE and not line.endswith("\n"):
            return


def _text_boards(
    lines: Iterator[str], source: str, game: Game
) -> Iterator[tuple[str, int, Deal | BoardError, object]]:
    """The boards of one input's lines: board text, or JSON Lines when the first non-blank line starts with ``{``."""
    skipped = 0
    for line in lines:
        skipped += 1
        opening = line.lstrip("\ufeff").strip()
        if not opening:
            continue
        rest = _chained([line.lstrip("\ufeff")], lines)
        if opening.startswith("{"):
            yield from _json_boards(rest, source, game, skipped)
        else:
            for first, found in boards_or_errors(rest, source=source, game=game):
                yield source, first + skipped - 1, _shifted(found, skipped - 1), None
        return
    yield source, 0, BoardError("no board found (empty input)", source=source), None


def _json_boards(
    lines: Iterator[str], source: str, game: Game, first: int
) -> Iterator[tuple[str, int, Deal | BoardError, object]]:
    """The boards of JSON Lines: one object a line, its board text in ``board``."""
    for number, line in enumerate(lines, start=first):
        if not line.strip():
            continue
        if len(line) > LONGEST_INPUT_LINE:
            problem = f"a line of more than {LONGEST_INPUT_LINE:,} characters: no board's line has one"
            yield source, number, BoardError(problem, source=source, line=number), None
            return
        key = None
        try:
            found = _json_line(line, source, number)
            if not isinstance(found, dict):
                raise BoardError("expected a JSON object with a board field", source=source, line=number)
            key = found.get("id")
            board = found.get("board")
            if not isinstance(board, str):
                raise BoardError("expected a board field holding board text", source=source, line=number)
            yield source, number, _json_board(board, source, number, game), key
        except json.JSONDecodeError as error:
            yield source, number, BoardError(f"not JSON ({error.msg})", source=source, line=number), None
        except BoardError as error:
            yield source, number, error, key


def _json_line(line: str, source: str, number: int) -> object:
    """The JSON value of ``line``; BoardError naming the line for a value no board line may hold (NaN, a
    number past range, a key given twice) or nesting too deep to read. json.JSONDecodeError when not JSON."""
    try:
        found = strict_json.loads(line)
    except RecursionError:
        raise BoardError(
            "not JSON that can be read (nested too deeply)", source=source, line=number
        ) from None
    for path, value in strict_json.walk(found):
        if isinstance(value, strict_json.Refused):
            where = "".join(f"[{step}]" if isinstance(step, int) else f".{step}" for step in path).lstrip(".")
            problem = _refused(value)
            raise BoardError(f"{where}: {problem}" if where else problem, source=source, line=number)
    return found


def _refused(value: strict_json.Refused) -> str:
    """What is wrong with a value :func:`strict_json.loads` refused, in words."""
    if value.kind == "key":
        return f"the key {value.text[:40]!r} is given twice"
    if value.kind == "integer":
        return f"a number of {len(value.text)} digits, too long to read"
    if value.kind == "float":
        return f"{value.text[:40]} is out of range"
    return f"{value.text} is not a number"


def _json_board(board: str, source: str, number: int, game: Game) -> Deal | BoardError:
    """The deal of a JSON line's board text, or its error placed at the JSON line (the board's own line named)."""
    try:
        return Deal.from_board_text(board, source=source, game=game)
    except BoardError as error:
        inner = f"board line {error.line}: {error.problem}" if error.line else error.problem
        return BoardError(inner, source=source, line=number)


def _shifted(found: Deal | BoardError, lines: int) -> Deal | BoardError:
    """``found``, an error's line moved down by ``lines`` (the blank lines skipped before the first board)."""
    if isinstance(found, Deal) or not found.line or not lines:
        return found
    return BoardError(found.problem, source=found.source, line=found.line + lines)


def _chained(first: list[Each], rest: Iterator[Each]) -> Iterator[Each]:
    yield from first
    yield from rest


def _alone_marked(
    boards: Iterator[tuple[str, int, Deal | BoardError, object]],
) -> Iterator[tuple[str, int, Deal | BoardError, bool, object]]:
    """Each board with whether it is its input's only one (known by reading one board ahead)."""
    first = next(boards, None)
    if first is None:
        return
    second = next(boards, None)
    source, line, found, key = first
    yield source, line, found, second is None, key
    if second is None:
        return
    for source, line, found, key in _chained([second], boards):
        yield source, line, found, False, key


def solve_boards(
    items: Iterable[BoardItem],
    settings: SolveSettings = SolveSettings(),
    *,
    jobs: int = 1,
    backend: str = "loky",
    batch_size: int = BATCH_SIZE,
) -> Iterator[Answer]:
    """An answer to each of ``items``, in their order, each as soon as it and those before it are known.

    With one job the boards are solved here, one at a time, each as it is
    read; with more, ``batch_size`` consecutive boards at a time go to the
    worker pool. Every win was replayed by the solver.
    """
    if jobs <= 1:
        for item in items:
            found = item.found
            result = None if isinstance(found, BoardError) else solve(found, settings)
            yield Answer(item, result)
        return
    yield from _solved_on_workers(items, settings, jobs, backend, batch_size)


def _solved_on_workers(
    items: Iterable[BoardItem], settings: SolveSettings, jobs: int, backend: str, batch_size: int
) -> Iterator[Answer]:
    """:func:`solve_boards` on the worker pool: the boards read go out in batches (the solve stage's worker
    task, :func:`~pipeline.stages.face_solve.solve_batch`) and their results come back in input order
    (:func:`~pipeline.workers.in_order`); a board that could not be read waits its turn among them."""
    from joblib import delayed

    from pipeline.engine.warm import warm_before_workers
    from pipeline.stages.face_solve import solve_batch
    from pipeline.workers import in_order

    waiting: deque[BoardItem] = deque()  # read, in input order, not answered yet

    def tasks() -> Iterator[object]:
        pending, start, warmed = iter(items), 0, set()
        while batch := list(islice(pending, batch_size)):
            waiting.extend(batch)  # before its task goes out, so before its results come back
            deals = [item.found for item in batch if isinstance(item.found, Deal)]
            if deals:
                if deals[0].game.name not in warmed:  # its engine compiled here once, not in each worker
                    warm_before_workers([deals[0].game])
                    warmed.add(deals[0].game.name)
                boards = [deal.to_board_text() for deal in deals]
                yield delayed(solve_batch)(start, boards, settings, deals[0].game.name)
                start += len(deals)

    for result in in_order(tasks(), jobs=jobs, backend=backend):
        while isinstance(waiting[0].found, BoardError):
            yield Answer(waiting.popleft(), None)
        yield Answer(waiting.popleft(), result)
    while waiting:
        yield Answer(waiting.popleft(), None)
